// host_ftl_test.cpp - the host-level FTL (platform/host/ftl/host_ftl_hal.*):
// the firmware's own FTL sources, a second struct ftl on the host, over a
// drive in the open-channel personality (a firmware on the fake HAL). Its
// flash operations arrive at the drive as Open-Channel vector commands; the
// drive runs no map and no GC. Every read is checked against a scoreboard,
// under GC, with and without a separate write point for journal-like writes.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstring>
#include <memory>
#include <vector>

#include "ftl/host_ftl_hal.h"
#include "ocssd_device.h"
#include "ocssd_port.h"

namespace {

using ftltest::token_of;
using octest::Oc;

struct HostFtl {
  Oc drive;
  octest::FakeDrivePort port{*drive.d.hal, drive.d.f};
  std::unique_ptr<ssdvp::HostFtlHal> hal;
  ftl_config cfg{};
  std::unique_ptr<uint8_t[]> mem;
  ftl* f = nullptr;
  std::vector<uint32_t> version;

  explicit HostFtl(uint32_t placement = FTL_PLACE_DOUBLE, uint32_t classes = 1) {
    ocssd_geometry geo{};
    EXPECT_EQ(port.geometry(&geo), NVME_SC_SUCCESS);
    hal = std::make_unique<ssdvp::HostFtlHal>(port, geo, 1u << 20);
    cfg = hal->config();
    octest::small_host_ftl_tunables(cfg, geo.num_chk);
    cfg.placement = placement;
    cfg.hot_classes = classes;
    cfg.dram_size = uint32_t(ftl_dram_bytes(&cfg) + 4096);
    EXPECT_LE(cfg.dram_size, 1u << 20);
    mem.reset(new uint8_t[ftl_size()]);
    f = reinterpret_cast<ftl*>(mem.get());
    EXPECT_EQ(ftl_init(f, hal->hal(), &cfg), 0) << (hal->log_lines.empty() ? "" : hal->log_lines.back());
    version.assign(cfg.logical_lbas, 0);
  }
  void write(uint64_t lba, uint32_t n, uint32_t stream = 0) {
    std::vector<uint32_t> t(n);
    for (uint32_t i = 0; i < n; ++i) t[i] = token_of(lba + i, ++version[lba + i]);
    ASSERT_EQ(ftl_func_write_stream(f, lba, n, t.data(), stream), 0)
        << (hal->log_lines.empty() ? "" : hal->log_lines.back());
  }
  uint64_t mismatches() {
    uint64_t bad = 0;
    std::vector<uint32_t> t(64);
    for (uint64_t at = 0; at < cfg.logical_lbas; at += 64) {
      const uint32_t k = uint32_t(std::min<uint64_t>(64, cfg.logical_lbas - at));
      EXPECT_EQ(ftl_func_read(f, at, k, t.data()), 0);
      for (uint32_t i = 0; i < k; ++i)
        bad += t[i] != (version[at + i] ? token_of(at + i, version[at + i]) : SSDVP_TOKEN_DEALLOCATED);
    }
    return bad;
  }
};

}  // namespace

TEST(HostFtl, TheFirmwaresFtlOnTheHostKeepsEveryLbaThroughGcOverAnOpenChannelDrive) {
  HostFtl h;
  uint64_t x = 12345;
  const uint64_t lbas = h.cfg.logical_lbas;
  h.write(0, uint32_t(lbas));  // fill, then three drive-writes of random 1..8-LBA writes
  for (uint64_t written = 0; written < 3 * lbas;) {
    x = x * 6364136223846793005ull + 1442695040888963407ull;
    const uint32_t n = 1 + uint32_t(x >> 61);
    const uint64_t lba = (x >> 20) % (lbas - n);
    h.write(lba, n);
    written += n;
  }
  ASSERT_EQ(ftl_func_trim(h.f, 100, 50), 0);
  for (uint64_t i = 100; i < 150; ++i) h.version[i] = 0;
  ASSERT_EQ(ftl_func_flush(h.f), 0);
  EXPECT_EQ(h.mismatches(), 0u);
  const ftl_stats* hs = ftl_get_stats(h.f);
  const ftl_stats* ds = ftl_get_stats(h.drive.d.f);
  EXPECT_GT(hs->gc_victims, 0u);  // the host FTL collected...
  EXPECT_GT(hs->gc_lba_writes, 0u);
  EXPECT_EQ(ds->gc_victims, 0u);          // ...the drive did not
  EXPECT_EQ(ds->erases, hs->erases);      // every host erase is one chunk reset
  EXPECT_EQ(ds->programs, hs->programs);  // every host program one vector write of ws_min
  EXPECT_EQ(h.hal->failed, 0u);
  EXPECT_EQ(h.drive.d.hal->violations, 0u);
  EXPECT_EQ(ftl_self_check(h.f), 0u);
  // the host CPU was charged, per operation, and the drive's CPU only for its commands
  EXPECT_GT(h.hal->busy_ns(), 0.0);
  EXPECT_GT(h.hal->op_counts()[FW_OP_l2p_update], 0u);
  EXPECT_GT(h.hal->op_counts()[FW_OP_gc_page_move], 0u);
  EXPECT_EQ(h.drive.d.hal->cycles[FW_OP_gc_page_move], 0u);
  EXPECT_EQ(h.port.commands, h.hal->writes + h.hal->reads + h.hal->resets);
}

// pblk's single write point (mixed) and a separate one for a small circular
// region written with stream 1 (a journal), as the seed did: both keep every
// LBA; the separate write point leaves GC less to move.
TEST(HostFtl, AJournalOnItsOwnWritePointKeepsIntegrityAndMovesLessUnderGc) {
  uint64_t moved[2] = {};
  for (int separate = 0; separate < 2; ++separate) {
    HostFtl h(FTL_PLACE_STREAM, 2);
    const uint64_t lbas = h.cfg.logical_lbas, journal = 256;
    h.write(0, uint32_t(lbas));
    uint64_t x = 777, jpos = 0;
    for (uint64_t written = 0; written < 3 * lbas;) {
      x = x * 6364136223846793005ull + 1442695040888963407ull;
      if ((x >> 40) % 2) {  // a journal block: sequential in its circular region
        h.write(jpos, 4, separate ? 1 : 2);
        jpos = (jpos + 4) % journal;
        written += 4;
      } else {  // data: random in the rest
        const uint64_t lba = journal + (x >> 20) % (lbas - journal - 4);
        h.write(lba, 4, 2);
        written += 4;
      }
    }
    EXPECT_EQ(h.mismatches(), 0u) << "separate " << separate;
    EXPECT_EQ(h.hal->failed, 0u);
    EXPECT_EQ(h.drive.d.hal->violations, 0u);
    moved[separate] = ftl_get_stats(h.f)->gc_lba_writes;
  }
  std::printf("relocated by the host FTL's GC: mixed %llu LBAs, journal separated %llu LBAs\n",
              (unsigned long long)moved[0], (unsigned long long)moved[1]);
  EXPECT_LT(moved[1], moved[0]);
}

// GC by Vector Chunk Copy (93h; host.ftl.gc_copy: vector_copy, vcopy.c): the
// same writes and trims with GC reading valid data to the host and writing
// it back, and with GC naming sources and destinations only. Both keep every
// LBA; with the copy no data crosses the host link towards the host at all,
// and every data byte towards the drive is a program of the host FTL's own
// writes (host data and padding), while the copies relocate as much.
TEST(HostFtl, GcByVectorChunkCopyKeepsEveryLbaAndMovesNoDataOverTheHostLink) {
  struct Run {
    uint64_t moved = 0, copies = 0, to_host = 0, to_drive = 0, writes = 0, reads = 0, S = 0;
  } run[2];
  for (int copy = 0; copy < 2; ++copy) {
    HostFtl h;  // relocated data on a write point of its own (the device FTL's default)
    if (copy) {
      h.hal->keep_lba_list();
      h.hal->set_copy_batch(8);  // up to 8 units a command
      ASSERT_EQ(ftl_set_gc_copy(h.f, 1), 0);
    }
    uint64_t x = 4242;
    const uint64_t lbas = h.cfg.logical_lbas;
    h.write(0, uint32_t(lbas));
    for (uint64_t written = 0; written < 3 * lbas;) {
      x = x * 6364136223846793005ull + 1442695040888963407ull;
      const uint32_t n = 1 + uint32_t(x >> 61);
      const uint64_t lba = (x >> 20) % (lbas - n);
      if ((x >> 8) % 64 == 0) {  // now and then a trim
        ASSERT_EQ(ftl_func_trim(h.f, lba, n), 0);
        for (uint32_t i = 0; i < n; ++i) h.version[lba + i] = 0;
        continue;
      }
      h.write(lba, n);
      written += n;
    }
    ASSERT_EQ(ftl_func_flush(h.f), 0);
    const uint64_t* sectors = h.port.data_sectors;  // over the host link, before the check's reads
    Run& r = run[copy];
    r = Run{ftl_get_stats(h.f)->gc_lba_writes,
            h.hal->copy_pages,
            sectors[1],
            sectors[0],
            h.hal->writes,
            h.hal->reads,
            h.cfg.slots_per_page};
    EXPECT_EQ(h.mismatches(), 0u) << "copy " << copy;
    EXPECT_EQ(h.hal->failed, 0u);
    EXPECT_EQ(h.drive.d.hal->violations, 0u);
    EXPECT_EQ(ftl_self_check(h.f), 0u);
    EXPECT_EQ(ftl_get_stats(h.drive.d.f)->programs, h.hal->writes + h.hal->copy_pages);  // a page per write, per unit
    EXPECT_LE(h.hal->copies, h.hal->copy_pages);  // consecutive units of a doorbell: one Vector Chunk Copy
    EXPECT_EQ(h.port.commands, h.hal->writes + h.hal->reads + h.hal->resets + h.hal->copies);
    EXPECT_EQ(ftl_get_stats(h.drive.d.f)->erases, ftl_get_stats(h.f)->erases);
  }
  std::printf(
      "GC by read + write back: %llu LBAs moved, %llu sectors of data to the host, %llu to the drive\n"
      "GC by Vector Chunk Copy: %llu LBAs moved into %llu pages, %llu sectors to the host, %llu to the drive\n",
      (unsigned long long)run[0].moved, (unsigned long long)run[0].to_host, (unsigned long long)run[0].to_drive,
      (unsigned long long)run[1].moved, (unsigned long long)run[1].copies, (unsigned long long)run[1].to_host,
      (unsigned long long)run[1].to_drive);
  EXPECT_GT(run[0].moved, 0u);
  EXPECT_GT(run[0].to_host, 0u);  // read + write back: GC's data went through the host
  EXPECT_EQ(run[0].copies, 0u);
  EXPECT_GT(run[1].moved, 0u);
  EXPECT_GT(run[1].copies, 0u);
  EXPECT_EQ(run[1].reads, 0u);    // no vector read before the check's reads
  EXPECT_EQ(run[1].to_host, 0u);  // by copy: nothing to the host
  EXPECT_EQ(run[1].to_drive, run[1].writes * run[1].S);
  EXPECT_LE(run[1].moved, run[1].copies * run[1].S);
  EXPECT_LT(run[1].to_drive, run[0].to_drive);
}

// A unit of GC copies cannot share a page with host data: with pblk's single
// write point (relocated data on the host's) the switch is refused.
TEST(HostFtl, GcByCopyNeedsAWritePointOfItsOwn) {
  HostFtl single(FTL_PLACE_SINGLE);
  EXPECT_EQ(ftl_set_gc_copy(single.f, 1), -1);
  EXPECT_EQ(ftl_set_gc_copy(single.f, 0), 0);
}
