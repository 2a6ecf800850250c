// copyback_test.cpp - ftl.gc.copyback on the fake HAL, which checks every
// copyback against the flash model's rules (flash/copyback_rules.h,
// NandDie::copy_page): the firmware's copybacks under random writes and GC
// are legal and keep the data, stay within the hop limit, respect page
// types, and the switch off sends none; partly valid pages
// (ftl.gc.copyback_min_valid) drop their stale slots from the copy's OOB,
// so that recovery after a cut does not bring stale data back.
#include <gtest/gtest.h>

#include <cstdint>
#include <memory>
#include <random>

#include "ftl_device.h"

using ftltest::Device;

namespace {

struct Outcome {
  uint64_t copybacks, fw_copybacks, capped, violations, mismatches, self_check, gc_lbas, max_hops;
};

// Random single-LBA writes (two drive-writes: GC runs), then every LBA read
// against the scoreboard. With hot_only: a sequential fill, then the random
// writes on the first fifth of the LBAs only (the rest stays cold and valid).
Outcome random_writes(void (*tune)(ftl_config&), bool hot_only = false) {
  Device d(tune);
  d.hal->set_geometry(d.cfg);  // copybacks checked on the real dies, planes and page types
  EXPECT_EQ(d.init(), 0);
  std::mt19937_64 rng(11);
  const uint64_t n = d.cfg.logical_lbas;
  if (hot_only)
    for (uint64_t i = 0; i < n; i += 64) d.write(i, uint32_t(std::min<uint64_t>(64, n - i)));
  for (uint64_t i = 0; i < 2 * n; ++i) d.write(rng() % (hot_only ? n / 5 : n), 1);
  EXPECT_EQ(ftl_func_flush(d.f), 0);
  const ftl_stats* st = ftl_get_stats(d.f);
  Outcome o{d.hal->copybacks,       st->gc_copybacks,
            st->gc_copyback_capped, d.hal->violations,
            d.mismatches(0, n),     uint64_t(ftl_self_check(d.f)),
            st->gc_lba_writes,      0};
  const uint64_t rows =
      uint64_t(d.cfg.channels) * d.cfg.dies_per_channel * d.cfg.blocks_per_die * d.cfg.pages_per_block;
  for (uint64_t r = 0; r < rows; ++r) o.max_hops = std::max<uint64_t>(o.max_hops, d.hal->page_hops(uint32_t(r)));
  EXPECT_EQ(d.f->fatal, 0);
  return o;
}

void on(ftl_config& c) {
  c.gc_copyback = 1;
  c.gc_copyback_max_hops = 3;
}
// FIFO collects the oldest block whatever it holds, so copies come up for GC again.
void on_hop1(ftl_config& c) {
  on(c);
  c.gc_copyback_max_hops = 1;
  c.gc_policy = FTL_GC_FIFO;
}
void on_fifo(ftl_config& c) {
  on(c);
  c.gc_policy = FTL_GC_FIFO;
}
void on_two_planes(ftl_config& c) {
  on(c);
  c.planes_per_die = 2;
}
void on_mlc(ftl_config& c) {
  on(c);
  c.cell_bits = 2;
}

}  // namespace

TEST(CopybackFirmware, MovesAreLegalAndKeepData) {
  for (auto tune : {on, on_two_planes, on_mlc, on_fifo}) {
    const Outcome o = random_writes(tune);
    EXPECT_EQ(o.violations, 0u);
    EXPECT_EQ(o.mismatches, 0u);
    EXPECT_EQ(o.self_check, 0u);
    EXPECT_GT(o.copybacks, 100u) << "test premise: GC finds victim pages whose slots are all valid";
    EXPECT_EQ(o.copybacks, o.fw_copybacks);
    EXPECT_LE(o.max_hops, 3u) << "ftl.gc.copyback_max_hops";
    EXPECT_GT(o.gc_lbas, 2 * o.copybacks) << "moves by copyback count as GC writes, and not all go that way";
  }
}

TEST(CopybackFirmware, HopLimitSendsDataThroughTheController) {
  const Outcome o = random_writes(on_hop1, true);
  EXPECT_EQ(o.violations, 0u);
  EXPECT_EQ(o.mismatches, 0u);
  EXPECT_GT(o.copybacks, 0u);
  EXPECT_EQ(o.max_hops, 1u) << "no page is a copy of a copy";
  EXPECT_GT(o.capped, 0u) << "copied data came up for GC again and went through the controller";
}

TEST(CopybackFirmware, OffByDefault) {
  const Outcome o = random_writes(nullptr);
  EXPECT_EQ(o.copybacks, 0u);
  EXPECT_EQ(o.fw_copybacks, 0u);
  EXPECT_EQ(o.mismatches, 0u);
}

TEST(CopybackFirmware, NeedsTheFullMappingTable) {
  ftl_config c;
  fake_small_drive_config(c, 64, 6000);
  c.gc_copyback = 1;
  c.mapping = FTL_MAP_CACHED;
  c.dram_size = 64u << 20;
  char msg[256] = "";
  EXPECT_EQ(ftl_config_check(&c, msg, sizeof msg), -1);
  EXPECT_NE(std::string(msg).find("ftl.gc.copyback"), std::string::npos) << msg;
}

namespace {
void on_partial(ftl_config& c) {
  on(c);
  c.gc_copyback_min_valid = 50;  // a page of 2 slots with 1 valid goes by copyback too
}

struct PartialOutcome {
  uint64_t partial, stale, dropping, violations, mismatches_before, mismatches_after;
};

// Random writes (GC runs), a flush (every write durable), then a power cut
// and recovery from the flash alone (no checkpoints): every LBA against the
// scoreboard before and after.
PartialOutcome partial_then_cut(void (*tune)(ftl_config&), bool ignore_drop) {
  Device d(tune, 0);
  const uint64_t blocks = uint64_t(d.cfg.channels) * d.cfg.dies_per_channel * d.cfg.blocks_per_die;
  d.cfg.dram_size += uint32_t(blocks * d.cfg.pages_per_block * 4 + blocks + d.cfg.logical_lbas / 8 + 4096);
  d.hal = std::make_unique<FakeHal>(d.cfg.dram_size, uint32_t(blocks), d.cfg.pages_per_block, d.cfg.slots_per_page);
  d.hal->set_geometry(d.cfg);
  d.hal->ignore_copyback_drop = ignore_drop;
  EXPECT_EQ(d.init(), 0);
  std::mt19937_64 rng(5);
  const uint64_t n = d.cfg.logical_lbas;
  for (uint64_t i = 0; i < 2 * n; ++i) d.write(rng() % n, 1);
  EXPECT_EQ(ftl_func_flush(d.f), 0);
  const ftl_stats st = *ftl_get_stats(d.f);
  PartialOutcome o{st.gc_copyback_partial, st.gc_copyback_stale, d.hal->copybacks_dropping,
                   d.hal->violations,      d.mismatches(0, n),   0};
  ftl_power_fail(d.f, 0);
  std::unique_ptr<uint8_t[]> mem(new uint8_t[ftl_size()]);
  d.f = reinterpret_cast<ftl*>(mem.get());
  EXPECT_EQ(ftl_recover(d.f, d.hal->hal(), &d.cfg), 0) << (d.hal->log_lines.empty() ? "" : d.hal->log_lines.back());
  o.mismatches_after = d.mismatches(0, n);
  return o;
}
}  // namespace

TEST(CopybackFirmware, PartlyValidPagesDropStaleSlotsAndSurviveACut) {
  const PartialOutcome o = partial_then_cut(on_partial, false);
  EXPECT_EQ(o.violations, 0u);
  EXPECT_GT(o.partial, 100u) << "test premise: GC finds victim pages with one slot of two valid";
  EXPECT_EQ(o.dropping, o.partial) << "every partly valid copy drops its stale slots from the OOB";
  EXPECT_EQ(o.stale, o.partial) << "two slots a page: one stale slot each";
  EXPECT_EQ(o.mismatches_before, 0u);
  EXPECT_EQ(o.mismatches_after, 0u) << "recovery after the cut";
  // Whole valid pages only (the default): none partly valid.
  EXPECT_EQ(partial_then_cut(on, false).partial, 0u);
  // Copies that kept the stale slots' LPNs: recovery trusts the copy's newer
  // sequence number and brings old data back.
  const PartialOutcome kept = partial_then_cut(on_partial, true);
  EXPECT_EQ(kept.mismatches_before, 0u);
  EXPECT_GT(kept.mismatches_after, 0u) << "the drop is what keeps stale data out of recovery";
}
