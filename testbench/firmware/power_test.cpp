// power_test.cpp - power-up recovery on the fake HAL (issue 20): partly
// written blocks go back to a frontier at their write pointer, so repeated
// cuts do not drain the free pool; deallocations made after the newest
// checkpoint survive a cut through the trim log (trimlog.c), and without
// checkpoints through its own areas (power.trim_log.mode on).
#include <gtest/gtest.h>

#include <memory>
#include <random>
#include <vector>

#include "ftl_device.h"

namespace {

using ftltest::Device;

// The platform's recovery scratch: 4 bytes per page, a byte per block and a
// bit per LBA above the firmware's tables (power.c).
uint32_t recovery_dram(const ftl_config& c) {
  const uint64_t blocks = uint64_t(c.channels) * c.dies_per_channel * c.blocks_per_die;
  return uint32_t(blocks * c.pages_per_block * 4 + blocks + c.logical_lbas / 8 + 4096);
}

// Cut (with power-loss protection: budget pages for the capacitor), then
// recover into fresh firmware state on the same flash. Returns its stats.
ftl_stats cut_and_recover(Device& d, std::unique_ptr<uint8_t[]>& mem, uint32_t budget) {
  ftl_power_fail(d.f, budget);
  mem.reset(new uint8_t[ftl_size()]);
  d.f = reinterpret_cast<ftl*>(mem.get());
  EXPECT_EQ(ftl_recover(d.f, d.hal->hal(), &d.cfg), 0) << (d.hal->log_lines.empty() ? "" : d.hal->log_lines.back());
  return *ftl_get_stats(d.f);
}

}  // namespace

// Every cut leaves blocks partly written (one per frontier and die here, the
// writes are spread over all dies). Recovery once closed them, and cut after
// cut without time for GC the free pool shrank to nothing. Now each is a
// frontier's open block again at its write pointer: the pool after recovery
// stays where it was, and the writes that follow fill those blocks first.
namespace {
void repeated_cuts(void (*tune)(ftl_config&)) {
  Device d(tune, 0);
  d.cfg.dram_size += recovery_dram(d.cfg);
  d.hal = std::make_unique<FakeHal>(d.cfg.dram_size, d.cfg.channels * d.cfg.dies_per_channel * d.cfg.blocks_per_die,
                                    d.cfg.pages_per_block, d.cfg.slots_per_page);
  ASSERT_EQ(d.init(), 0);
  std::unique_ptr<uint8_t[]> mem;
  std::mt19937 rng(7);
  const uint64_t lbas = d.cfg.logical_lbas;
  for (uint64_t l = 0; l < lbas; l += 64) d.write(l, uint32_t(std::min<uint64_t>(64, lbas - l)));
  // Short runs between cuts: two pages each (less than one block per die in
  // all), no GC needed in between.
  std::vector<uint32_t> free_after;
  uint64_t reopened = 0;
  for (int cut = 0; cut < 12; ++cut) {
    for (int i = 0; i < 4; ++i) d.write(rng() % lbas, 1);
    const ftl_stats s = cut_and_recover(d, mem, 64);
    free_after.push_back(uint32_t(s.free_blocks));
    reopened += s.recovery_reopened;
    EXPECT_EQ(d.mismatches(0, lbas), 0u) << "cut " << cut;  // protection: every acknowledged write
  }
  // The pool does not shrink cut after cut: the frontiers open a block on
  // each die they reach, once, and keep writing it across the cuts. (Closing
  // the partly written blocks lost every block written at every cut: two or
  // three here, about 30 over the run.)
  const uint32_t dies = d.cfg.channels * d.cfg.dies_per_channel;
  for (size_t i = 1; i < free_after.size(); ++i)
    EXPECT_GE(free_after[i] + dies, free_after[0]) << "free blocks after recovery " << i;
  EXPECT_GE(reopened, 12u);
  // Longer runs between cuts, GC at work: nothing lost either.
  for (int cut = 0; cut < 6; ++cut) {
    for (int i = 0; i < 300; ++i) d.write(rng() % lbas, 1);
    const ftl_stats s = cut_and_recover(d, mem, 64);
    EXPECT_GE(s.free_blocks, d.cfg.gc_reserve_blocks) << "cut " << cut;
    EXPECT_EQ(d.mismatches(0, lbas), 0u) << "cut " << cut;
  }
  // and the drive goes on: writes after the last recovery still find room
  for (int i = 0; i < 2000; ++i) d.write(rng() % lbas, 1);
  EXPECT_EQ(d.mismatches(0, lbas), 0u);
  if (d.cfg.flash_cq_phase) {
    EXPECT_EQ(d.hal->cq_tail_reads, 0u);
  }
}
}  // namespace

TEST(FtlPower, RepeatedCutsReopenPartlyWrittenBlocksAndKeepTheFreePool) { repeated_cuts(nullptr); }

// ftl.flash_cq_phase: recovery reads the flash one operation at a time
// (flash_wait_one) from a completion ring whose DRAM still holds the tagged
// entries of the life before the cut; power-up clears them and the
// controller's tag starts over, so none is taken for new.
TEST(FtlPower, RepeatedCutsWithAPhaseTaggedFlashRing) {
  repeated_cuts([](ftl_config& c) { c.flash_cq_phase = 1; });
}

namespace {

struct CkptDevice : Device {
  std::unique_ptr<uint8_t[]> mem2;
  CkptDevice() : Device(nullptr, 0) {
    cfg.ckpt_interval_lbas = 2000;  // a checkpoint every 2000 LBA writes
    cfg.dram_size = uint32_t(ftl_dram_bytes(&cfg) + recovery_dram(cfg));
    hal = std::make_unique<FakeHal>(cfg.dram_size, cfg.channels * cfg.dies_per_channel * cfg.blocks_per_die,
                                    cfg.pages_per_block, cfg.slots_per_page);
  }
  ftl_stats stats() { return *ftl_get_stats(f); }
  // Every LBA written once, then a Flush.
  void fill() {
    for (uint64_t l = 0; l < cfg.logical_lbas; l += 64)
      write(l, uint32_t(std::min<uint64_t>(64, cfg.logical_lbas - l)));
    ASSERT_EQ(ftl_func_flush(f), 0);
  }
  // Deallocates [lba, lba + n), host scoreboard too.
  void trim(uint64_t lba, uint64_t n) {
    ASSERT_EQ(ftl_func_trim(f, lba, n), 0);
    for (uint64_t l = lba; l < lba + n; ++l) version[l] = 0;
  }
  uint64_t deallocated(uint64_t lba, uint64_t n) {
    uint64_t k = 0;
    for (uint64_t l = lba; l < lba + n; ++l) {
      uint32_t t = 0;
      EXPECT_EQ(ftl_func_read(f, l, 1, &t), 0);
      k += t == SSDVP_TOKEN_DEALLOCATED;
    }
    return k;
  }
};

}  // namespace

// Without power-loss protection: a deallocation made after the newest
// checkpoint and followed by a completed Flush reads deallocated after the
// cut; the same deallocation without the Flush was not durable and (here)
// reads its old data again, as NVMe allows for a volatile cache.
TEST(FtlPower, FlushedTrimsAfterTheLastCheckpointSurviveACut) {
  for (const bool flush : {true, false}) {
    CkptDevice d;
    ASSERT_EQ(d.init(), 0);
    const uint64_t lbas = d.cfg.logical_lbas;
    d.fill();
    ASSERT_GE(d.stats().ckpt_taken, 1u);
    const uint64_t taken = d.stats().ckpt_taken;
    ASSERT_EQ(ftl_func_trim(d.f, 100, 300), 0);  // after the checkpoint
    for (uint64_t l = 100; l < 400; ++l) d.version[l] = 0;
    d.write(150, 10);  // written again after the trim: its data wins
    if (flush) {
      ASSERT_EQ(ftl_func_flush(d.f), 0);
      EXPECT_GE(d.stats().trim_log_programs, 1u);
    }
    EXPECT_EQ(d.stats().ckpt_taken, taken);  // no checkpoint since the trim
    const ftl_stats s = cut_and_recover(d, d.mem2, 0);
    EXPECT_EQ(s.recovery_ckpt_gen, taken);
    if (flush) {
      EXPECT_EQ(s.recovery_trimmed, 290u);
      EXPECT_EQ(d.mismatches(0, lbas), 0u);
      EXPECT_EQ(d.deallocated(100, 300), 290u);
    } else {
      EXPECT_EQ(s.recovery_trimmed, 0u);
      EXPECT_EQ(d.deallocated(100, 300), 0u);  // the old data, allowed: nothing made the trim durable
      EXPECT_EQ(d.mismatches(0, 100) + d.mismatches(400, lbas - 400), 0u);
    }
  }
}

// With power-loss protection every acknowledged deallocation survives: the
// power-fail handler programs the trim log's page first. Two cuts in a row,
// the second before any new checkpoint: the log goes on after the first
// recovery and both trims hold.
TEST(FtlPower, WithProtectionAcknowledgedTrimsSurviveRepeatedCuts) {
  CkptDevice d;
  ASSERT_EQ(d.init(), 0);
  const uint64_t lbas = d.cfg.logical_lbas;
  d.fill();
  d.trim(1000, 64);
  ftl_stats s = cut_and_recover(d, d.mem2, 8);
  EXPECT_EQ(s.recovery_trimmed, 64u);
  EXPECT_EQ(d.mismatches(0, lbas), 0u);
  d.trim(2000, 32);
  d.write(1010, 4);
  s = cut_and_recover(d, d.mem2, 8);
  EXPECT_EQ(s.recovery_trimmed, 64u - 4u + 32u);
  EXPECT_EQ(d.mismatches(0, lbas), 0u);
  EXPECT_EQ(d.deallocated(1000, 64) + d.deallocated(2000, 32), 60u + 32u);
}

// ---- the trim log without checkpoints (power.trim_log.mode on) -------------

namespace {

struct TrimLogDevice : CkptDevice {
  explicit TrimLogDevice(uint32_t mode, uint32_t blocks = 2, uint32_t barrier = 1) {
    cfg.ckpt_interval_lbas = 0;  // no checkpoints
    cfg.gc_durable = 1;          // without protection: relocated data programmed before its victim goes
    cfg.trim_log = mode;
    cfg.trim_log_blocks = blocks;
    cfg.trim_log_gc_barrier = barrier;
    cfg.dram_size = uint32_t(ftl_dram_bytes(&cfg) + recovery_dram(cfg));
    hal = std::make_unique<FakeHal>(cfg.dram_size, cfg.channels * cfg.dies_per_channel * cfg.blocks_per_die,
                                    cfg.pages_per_block, cfg.slots_per_page);
  }
  // LBAs of [lba, lba + n) that read their data of version v.
  uint64_t reading(uint64_t lba, uint64_t n, uint32_t v) {
    uint64_t k = 0;
    for (uint64_t l = lba; l < lba + n; ++l) {
      uint32_t t = 0;
      EXPECT_EQ(ftl_func_read(f, l, 1, &t), 0);
      k += t == ftltest::token_of(l, v);
    }
    return k;
  }
};

}  // namespace

// Without checkpoints a flushed deallocation survives a cut when the trim log
// has areas of its own (on), and does not without it (auto, no checkpoints:
// the old data reads again, what the host check then leaves unchecked).
TEST(FtlPower, TrimLogWithoutCheckpointsFlushedTrimsSurviveACut) {
  for (const uint32_t mode : {uint32_t(FTL_TLOG_ON), uint32_t(FTL_TLOG_AUTO)}) {
    for (const bool flush : {true, false}) {
      SCOPED_TRACE(testing::Message() << "mode " << mode << " flush " << flush);
      TrimLogDevice d(mode);
      ASSERT_EQ(d.init(), 0);
      const uint64_t lbas = d.cfg.logical_lbas;
      d.fill();
      d.trim(100, 300);
      d.write(150, 10);  // written again after the trim: its data wins
      if (flush) {
        ASSERT_EQ(ftl_func_flush(d.f), 0);
      }
      EXPECT_EQ(d.stats().trim_log_programs, mode == FTL_TLOG_ON && flush ? 1u : 0u);
      const ftl_stats s = cut_and_recover(d, d.mem2, 0);
      EXPECT_EQ(s.recovery_ckpt_gen, 0u);  // a full scan
      if (mode == FTL_TLOG_ON && flush) {
        EXPECT_EQ(s.recovery_trimmed, 290u);
        EXPECT_EQ(d.mismatches(0, lbas), 0u);
      } else {
        EXPECT_EQ(s.recovery_trimmed, 0u);
        EXPECT_EQ(d.deallocated(100, 300), 0u);  // the old data: nothing made the trim durable
        EXPECT_EQ(d.mismatches(0, 100) + d.mismatches(400, lbas - 400), 0u);
      }
      // the drive goes on after recovery (on: its log moved to the other area)
      d.trim(1000, 10);
      ASSERT_EQ(ftl_func_flush(d.f), 0);
      EXPECT_EQ(d.stats().trim_log_rotations, mode == FTL_TLOG_ON ? 1u : 0u);
      EXPECT_EQ(d.deallocated(1000, 10), 10u);
    }
  }
}

// Small areas (one block: one bitmap page and 15 log pages): the log moves
// between them again and again, and at every cut (after a Flush: all of it
// durable) the drive reads exactly what the host wrote and deallocated,
// over several recoveries in a row.
TEST(FtlPower, TrimLogMovesBetweenItsAreasAndHoldsAcrossCuts) {
  TrimLogDevice d(FTL_TLOG_ON, 1);
  ASSERT_EQ(d.init(), 0);
  const uint64_t lbas = d.cfg.logical_lbas;
  d.fill();
  std::mt19937 rng(11);
  uint64_t moves = 0, trimmed = 0;
  for (int round = 0; round < 120; ++round) {
    for (int i = 0; i < 4; ++i) {
      const uint64_t l = rng() % (lbas - 40), n = 1 + rng() % 32;
      ASSERT_EQ(ftl_func_trim(d.f, l, n), 0);
      for (uint64_t k = l; k < l + n; ++k) d.version[k] = 0;
    }
    for (int i = 0; i < 40; ++i) d.write(rng() % lbas, 1);
    ASSERT_EQ(ftl_func_flush(d.f), 0);
    if (round % 15 == 14) {
      moves += d.stats().trim_log_rotations;
      const ftl_stats s = cut_and_recover(d, d.mem2, 0);
      trimmed += s.recovery_trimmed;
      ASSERT_EQ(d.mismatches(0, lbas), 0u) << "round " << round;
    }
  }
  EXPECT_GE(moves, 8u);  // 120 flushes with records, 15 log pages an area
  EXPECT_GT(trimmed, 0u);
}

// The GC erase barrier. LBAs R written (version 1), written again (version 2,
// into blocks that then hold only R) and flushed: version 2 is durable. R is
// deallocated without a Flush, GC erases the blocks of version 2 (no valid
// data left), and the power is cut. Version 1 is still on the flash. With
// the barrier the erase waited for the log's page: recovery unmaps R (the
// deallocation, newer than the durable state, is what it reads). Without it
// version 1 comes back: older than the durable version 2, a violation of the
// flush's promise.
TEST(FtlPower, TrimLogGcBarrierKeepsOlderCopiesFromComingBack) {
  for (const uint32_t barrier : {1u, 0u}) {
    SCOPED_TRACE(testing::Message() << "barrier " << barrier);
    TrimLogDevice d(FTL_TLOG_ON, 2, barrier);
    ASSERT_EQ(d.init(), 0);
    const uint64_t lbas = d.cfg.logical_lbas;
    for (uint64_t l = 0; l < lbas; l += 64) d.write(l, uint32_t(std::min<uint64_t>(64, lbas - l)));
    std::vector<uint64_t> r;
    for (uint64_t l = 0; l < lbas; l += 16) r.push_back(l);  // 1 in 16: their old blocks stay mostly valid
    for (uint64_t l : r) d.write(l, 1);
    ASSERT_EQ(ftl_func_flush(d.f), 0);
    for (uint64_t l : r) {
      ASSERT_EQ(ftl_func_trim(d.f, l, 1), 0);
      d.version[l] = 0;
    }
    const uint64_t erases = d.stats().erases, programs = d.stats().trim_log_programs;
    ASSERT_EQ(ftl_func_set_gc_threshold(d.f, d.stats().free_blocks + 3), 0);  // collect a few: R's new blocks
    for (int i = 0; i < 100000 && (ftl_busy(d.f) || d.stats().erases < erases + 3); ++i) ftl_poll(d.f);
    ASSERT_GE(d.stats().erases, erases + 3);
    EXPECT_EQ(d.stats().trim_log_programs - programs, barrier ? 1u : 0u);  // the barrier's page, no Flush
    EXPECT_EQ(d.stats().trim_log_gc_waits > 0, barrier == 1);
    cut_and_recover(d, d.mem2, 0);
    uint64_t older = 0, dealloc = 0;
    for (uint64_t l : r) older += d.reading(l, 1, 1), dealloc += d.deallocated(l, 1);
    if (barrier) {
      EXPECT_EQ(older, 0u);
      EXPECT_EQ(dealloc, r.size());
    } else {
      EXPECT_GT(older, 0u);  // version 1 of LBAs whose durable version 2 was erased
    }
    uint64_t bad = 0;
    for (uint64_t l = 0; l < lbas; ++l)
      if (l % 16) bad += d.mismatches(l, 1);
    EXPECT_EQ(bad, 0u);
  }
}

// A cut in the middle of a move (here the one after a recovery): before the
// bitmap, after the other area's erase, after its bitmap. The area being
// written does not read back whole until the move completes, so recovery
// takes the older one, which is still whole; every deallocation holds, and
// the drive goes on (its next move erases the torn area again).
TEST(FtlPower, TrimLogCutDuringAMoveFallsBackToTheOlderArea) {
  int torn_moves = 0;
  for (int polls = 0; polls < 8; ++polls) {
    SCOPED_TRACE(testing::Message() << "polls " << polls);
    TrimLogDevice d(FTL_TLOG_ON, 1);
    ASSERT_EQ(d.init(), 0);
    const uint64_t lbas = d.cfg.logical_lbas;
    d.fill();
    d.trim(100, 300);
    d.trim(2000, 50);
    ASSERT_EQ(ftl_func_flush(d.f), 0);
    cut_and_recover(d, d.mem2, 0);
    ASSERT_TRUE(d.f->tlog.rot_asap);  // the log moves to the other area (a read would let it finish)
    for (int i = 0; i < polls; ++i) ftl_poll(d.f);
    torn_moves += d.stats().trim_log_erases > 0 && d.stats().trim_log_rotations == 0;
    const ftl_stats s = cut_and_recover(d, d.mem2, 0);
    EXPECT_EQ(s.recovery_trimmed, 350u);
    EXPECT_EQ(d.mismatches(0, lbas), 0u);
    d.trim(3000, 20);
    d.write(3005, 2);
    ASSERT_EQ(ftl_func_flush(d.f), 0);
    cut_and_recover(d, d.mem2, 0);
    EXPECT_EQ(d.mismatches(0, lbas), 0u);
  }
  EXPECT_GT(torn_moves, 0);  // some cut came after the erase, before the bitmap
}
