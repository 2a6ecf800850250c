// host_ftl_power_test.cpp - power cuts through the host-level FTL
// (platform/host/ftl/host_ftl_hal.*, docs/models/host_ftl.md "Power cuts"):
// the machine loses power, host and drive at once. The host FTL's memory
// (L2P, write buffer, GC state) is gone; so is the drive's DRAM (command
// state, its copy of the chunk table), while the NAND keeps its pages. At
// power-up the drive rebuilds its chunk table from the flash (ftl_recover in
// the open-channel personality: write pointers, open and closed chunks), and
// the host FTL rebuilds its own tables with the firmware's recovery
// (HostFtlHal::recover -> ftl_recover -> power.c) through Open-Channel vector
// reads: every written page with its per-sector LPNs and the unit's sequence
// number (nvme.ocssd.meta lpn_seq), newest wins. Every LBA is then checked
// against the durability contract: what a flush covered survives, nothing
// foreign appears.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstring>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "ftl/host_ftl_hal.h"
#include "ocssd_device.h"
#include "ocssd_port.h"

namespace {

using ftltest::token_of;

constexpr uint32_t kHostDram = 2u << 20;

void open_channel_seq(ftl_config& c) {
  octest::open_channel(c);
  c.oc_meta_seq = 1;
}

// The drive's DRAM above its tables: its recovery's scratch (4 bytes a page).
uint32_t drive_recovery_dram() {
  ftl_config c{};
  fake_small_drive_config(c, 64, 6000);
  return uint32_t(uint64_t(c.channels) * c.dies_per_channel * c.blocks_per_die * c.pages_per_block * 4 + 8192);
}

struct Check {
  uint64_t latest = 0, older = 0, lost = 0, foreign = 0, unchecked = 0;
  uint64_t violations() const { return lost + foreign; }
};

struct Rig {
  octest::Oc drive;
  octest::FakeDrivePort port;
  ocssd_geometry geo{};
  std::unique_ptr<ssdvp::HostFtlHal> hal;
  ftl_config cfg{};
  std::unique_ptr<uint8_t[]> mem;
  ftl* f = nullptr;
  // Scoreboard, per LBA: the last version issued (tokens stay unique), the
  // version the host's view holds (0: deallocated), the version the last
  // flush covered, and the last version issued before the latest trim.
  std::vector<uint32_t> issued, content, durable, trimmed;
  uint64_t cuts = 0, cuts_during_gc = 0, reopened = 0, recovered_pages = 0, recovery_reads = 0, drive_pages = 0;
  uint64_t torn_pages = 0;  // pages the host's recovery read as torn
  double recovery_cpu_ns = 0;

  explicit Rig(uint32_t gc_durable = 1, bool seq = true)
      : drive(seq ? open_channel_seq : octest::open_channel, drive_recovery_dram()), port(*drive.d.hal, drive.d.f) {
    port.meta_words = seq ? 2 : 1;
    EXPECT_EQ(port.geometry(&geo), NVME_SC_SUCCESS);
    hal = std::make_unique<ssdvp::HostFtlHal>(port, geo, kHostDram);
    cfg = hal->config();
    octest::small_host_ftl_tunables(cfg, geo.num_chk);
    cfg.gc_durable = gc_durable;  // the host has no capacitor: a victim goes only once its data is programmed
    cfg.dram_size = uint32_t(ftl_dram_bytes(&cfg) + ssdvp::HostFtlHal::recovery_dram(cfg) + 4096);
    EXPECT_LE(cfg.dram_size, kHostDram);
    mem.reset(new uint8_t[ftl_size()]);
    f = reinterpret_cast<ftl*>(mem.get());
    EXPECT_EQ(ftl_init(f, hal->hal(), &cfg), 0) << last_log();
    issued.assign(cfg.logical_lbas, 0);
    content = durable = trimmed = issued;
  }
  std::string last_log() const { return hal->log_lines.empty() ? "" : hal->log_lines.back(); }

  void write(uint64_t lba, uint32_t n) {
    std::vector<uint32_t> t(n);
    for (uint32_t i = 0; i < n; ++i) t[i] = token_of(lba + i, content[lba + i] = ++issued[lba + i]);
    const int rc = ftl_func_write_stream(f, lba, n, t.data(), 0);
    if (!port.dead()) {  // (after the cut the host's calls fail)
      ASSERT_EQ(rc, 0) << last_log();
    }
  }
  void trim(uint64_t lba, uint32_t n) {
    const int rc = ftl_func_trim(f, lba, n);
    if (!port.dead()) {
      ASSERT_EQ(rc, 0);
    }
    for (uint32_t i = 0; i < n; ++i) content[lba + i] = 0, trimmed[lba + i] = issued[lba + i];
  }
  void flush() {
    const int rc = ftl_func_flush(f);
    if (port.dead()) return;  // the cut came first: nothing more is durable
    ASSERT_EQ(rc, 0) << last_log();
    durable = content;
  }
  bool gc_open() const {
    for (uint32_t i = 0; i < f->cfg.gc_max_active; ++i)
      if (f->jobs[i].victim != FTL_NONE) return true;
    return false;
  }

  // The cut and the power-up of drive and host; then every LBA read and
  // checked. The scoreboard takes what was read as the host's view.
  Check cut_and_recover() {
    ++cuts;
    cuts_during_gc += gc_open();
    port.die_after = -1;
    // Drive: DRAM lost, the NAND kept; its chunk table rebuilt from the flash.
    drive.d.hal->lose_dram();
    std::memset(drive.d.mem.get(), 0xa5, ftl_size());
    EXPECT_EQ(ftl_recover(drive.d.f, drive.d.hal->hal(), &drive.d.cfg), 0)
        << (drive.d.hal->log_lines.empty() ? "" : drive.d.hal->log_lines.back());
    // Host: its memory lost (a fresh HAL, the FTL's state overwritten); recovery through the drive.
    hal = std::make_unique<ssdvp::HostFtlHal>(port, geo, kHostDram);
    std::memset(mem.get(), 0xa5, ftl_size());
    std::string why;
    EXPECT_EQ(hal->recover(f, cfg, &why), 0) << why;
    const ftl_stats* s = ftl_get_stats(f);
    drive_pages += ftl_get_stats(drive.d.f)->recovery_pages;
    recovery_reads += hal->reads;  // before the check's reads
    reopened += s->recovery_reopened;
    torn_pages += s->recovery_torn;
    recovered_pages += s->recovery_pages;
    recovery_cpu_ns += hal->busy_ns();
    return check();
  }

  Check check() {
    Check c;
    std::vector<uint32_t> t(64);
    for (uint64_t at = 0; at < cfg.logical_lbas; at += 64) {
      const uint32_t k = uint32_t(std::min<uint64_t>(64, cfg.logical_lbas - at));
      EXPECT_EQ(ftl_func_read(f, at, k, t.data()), 0);
      for (uint32_t i = 0; i < k; ++i) {
        const uint64_t l = at + i;
        int64_t v = -1;  // the version read (0: deallocated), -1: none of this LBA's
        if (t[i] == SSDVP_TOKEN_DEALLOCATED) v = 0;
        for (uint32_t w = issued[l]; w >= 1 && v < 0; --w)
          if (token_of(l, w) == t[i]) v = w;
        if (v < 0) {
          ++c.foreign;
          continue;
        }
        if (durable[l] > trimmed[l] || (durable[l] && !trimmed[l])) {  // a flushed write after any trim
          if (v < durable[l])
            ++c.lost;
          else if (uint32_t(v) == content[l])
            ++c.latest;
          else
            ++c.older;  // written after the flush and lost with the host's buffer, or newer than it
        } else {
          ++c.unchecked;  // the last durable state a trim (not logged: deallocations are not durable) or nothing
        }
        content[l] = durable[l] = uint32_t(v);
      }
    }
    return c;
  }
};

// A workload step: mostly small random writes, now and then a trim or a flush.
void work_step(Rig& r, std::mt19937_64& rng) {
  const uint64_t lbas = r.cfg.logical_lbas;
  const uint64_t x = rng();
  const uint32_t n = 1 + uint32_t(x >> 61);
  const uint64_t lba = (x >> 20) % (lbas - n);
  if (x % 97 == 0)
    r.trim(lba, n);
  else if (x % 31 == 0)
    r.flush();
  else
    r.write(lba, n);
}

}  // namespace

// The drive stores a unit's sequence number once per page: a Vector Chunk
// Write whose sectors of one unit carry different ones is refused (Invalid
// Field, nothing written), and a read returns the unit's for each sector.
TEST(HostFtlPower, TheDriveKeepsOneSequenceNumberPerUnitAndRefusesUnitsThatDisagree) {
  octest::Oc drive(open_channel_seq);
  octest::FakeDrivePort port(*drive.d.hal, drive.d.f);
  port.meta_words = 2;
  const uint32_t S = drive.geo.ws_min;
  ASSERT_GE(S, 2u);
  std::vector<uint64_t> a;
  for (uint32_t k = 0; k < S; ++k) a.push_back(drive.addr(0, 0, 0, k));
  std::vector<uint32_t> data(S, 7), meta(2 * S);
  for (uint32_t k = 0; k < S; ++k) meta[2 * k] = 100 + k, meta[2 * k + 1] = 41 + (k == 1);
  EXPECT_EQ(port.vector(OCSSD_OP_VECTOR_WRITE, a.data(), S, data.data(), meta.data()), NVME_SC_INVALID_FIELD);
  ocssd_chunk_desc d{};
  ASSERT_EQ(drive.chunk(0, 0, 0, &d), NVME_SC_SUCCESS);
  EXPECT_EQ(d.state, OCSSD_CHUNK_FREE);  // refused before anything moved
  for (uint32_t k = 0; k < S; ++k) meta[2 * k + 1] = 41;
  ASSERT_EQ(port.vector(OCSSD_OP_VECTOR_WRITE, a.data(), S, data.data(), meta.data()), NVME_SC_SUCCESS);
  std::vector<uint32_t> back(S), mback(2 * S);
  ASSERT_EQ(port.vector(OCSSD_OP_VECTOR_READ, a.data(), S, back.data(), mback.data()), NVME_SC_SUCCESS);
  for (uint32_t k = 0; k < S; ++k) {
    EXPECT_EQ(mback[2 * k], 100 + k);
    EXPECT_EQ(mback[2 * k + 1], 41u);
  }
}

// Cuts at fixed instants (counted in vector commands: most fall inside a
// host FTL call, some while GC relocates) of a run that fills the drive and writes it over
// three times with trims and flushes (GC at work from the first pass on):
// after each, drive and host recover, and every LBA a flush covered reads
// its last flushed version or a newer one; no LBA reads data that was never
// its own. Then the host goes on from what it read.
TEST(HostFtlPower, CutsAtFixedPointsLoseNoFlushedDataAndGcGoesOn) {
  Rig r;
  const uint64_t lbas = r.cfg.logical_lbas;
  r.write(0, uint32_t(lbas));
  r.flush();
  std::mt19937_64 rng(17);
  // The cut falls after this many more vector commands (0: at once, the host idle).
  const int64_t at[] = {0, 1, 37, 400, 1501, 3000, 4500, 6100, 7777, 9000};
  Check total;
  for (const int64_t cut : at) {
    r.port.die_after = cut;
    while (!r.port.dead()) work_step(r, rng);
    const Check c = r.cut_and_recover();
    EXPECT_EQ(c.violations(), 0u) << "cut at step " << cut << ": lost " << c.lost << ", foreign " << c.foreign;
    total.latest += c.latest, total.older += c.older, total.unchecked += c.unchecked;
    EXPECT_EQ(ftl_self_check(r.f), 0u) << "cut at step " << cut;
  }
  for (int i = 0; i < 3000; ++i) work_step(r, rng);  // and it goes on, collecting
  r.flush();
  const Check end = r.check();
  EXPECT_EQ(end.violations(), 0u);
  EXPECT_EQ(end.older, 0u);  // everything flushed: the latest of every LBA
  const ftl_stats* s = ftl_get_stats(r.f);
  EXPECT_GT(s->gc_victims, 0u);  // GC ran after the last recovery too
  EXPECT_EQ(r.hal->failed, 0u);
  EXPECT_EQ(r.drive.d.hal->violations, 0u);  // no NAND rule broken: every write at its chunk's write pointer
  EXPECT_GT(r.reopened, 0u);                 // open chunks went back to write points
  EXPECT_GT(r.cuts_during_gc, 0u);
  std::printf(
      "%llu cuts (%llu with a GC victim open): %llu LBAs latest, %llu an older unflushed or newer, "
      "%llu unchecked (trimmed); %llu pages read, host CPU %.1f ms for the recoveries\n",
      (unsigned long long)r.cuts, (unsigned long long)r.cuts_during_gc, (unsigned long long)total.latest,
      (unsigned long long)total.older, (unsigned long long)total.unchecked, (unsigned long long)r.recovered_pages,
      r.recovery_cpu_ns * 1e-6);
}

// A batch of cuts at random instants (seeded, counted in vector commands);
// returns the totals. The figures of docs/results/reliability.md.
struct Batch {
  Check sum;
  uint64_t cuts = 0, during_gc = 0, pages = 0, reads = 0, reopened = 0, drive_pages = 0, torn_cmds = 0, torn_pages = 0;
  double cpu_ms = 0;
};
// tear: the write or reset in flight at the cut is torn (its pages read Unrecovered Read Error).
Batch random_cuts(Rig& r, int cuts, uint64_t seed, bool tear = true) {
  Batch b;
  r.port.tear_at_cut = tear;
  r.write(0, uint32_t(r.cfg.logical_lbas));
  r.flush();
  std::mt19937_64 rng(seed), when(seed * 7 + 1);
  for (int cut = 0; cut < cuts; ++cut) {
    const int64_t n = int64_t(when() % 3000);  // vector commands until the cut
    r.port.die_after = n;
    while (!r.port.dead()) work_step(r, rng);
    const Check c = r.cut_and_recover();
    b.sum.latest += c.latest, b.sum.older += c.older, b.sum.unchecked += c.unchecked;
    b.sum.lost += c.lost, b.sum.foreign += c.foreign;
  }
  b.cuts = r.cuts, b.during_gc = r.cuts_during_gc, b.pages = r.recovered_pages, b.reopened = r.reopened;
  b.reads = r.recovery_reads, b.drive_pages = r.drive_pages;
  b.torn_cmds = r.port.torn, b.torn_pages = r.torn_pages;
  b.cpu_ms = r.recovery_cpu_ns * 1e-6;
  return b;
}

// 48 cuts at random instants, many inside GC, the write or reset in flight torn: no flushed LBA lost,
// nothing foreign.
TEST(HostFtlPower, CutsAtRandomInstantsLoseNoFlushedData) {
  Rig r;
  const Batch b = random_cuts(r, 48, 2026);
  EXPECT_EQ(b.sum.lost, 0u);
  EXPECT_EQ(b.sum.foreign, 0u);
  EXPECT_GT(b.during_gc, 0u);
  EXPECT_GT(b.torn_cmds, 0u);
  EXPECT_GT(b.torn_pages, 0u);                                  // the recoveries met torn pages and went past them
  EXPECT_EQ(r.hal->failed, ftl_get_stats(r.f)->recovery_torn);  // no vector command failed but the torn pages' reads
  EXPECT_EQ(r.drive.d.hal->violations, r.drive.d.hal->uncorrectable_reads);  // no NAND rule broken
  EXPECT_EQ(ftl_self_check(r.f), 0u);
  const double n = double(b.cuts);
  std::printf(
      "%llu cuts at random instants, %llu with a GC victim open: %llu violations (lost %llu, foreign %llu); "
      "%llu LBA checks: %llu latest, %llu older (unflushed writes lost) or newer, %llu unchecked (trimmed)\n"
      "per recovery: host FTL %.0f pages read by %.0f vector reads, %.1f chunks reopened, host CPU %.3f ms; "
      "the drive's chunk table: %.0f pages read; %llu commands torn at the cut, %llu torn pages met\n",
      (unsigned long long)b.cuts, (unsigned long long)b.during_gc, (unsigned long long)b.sum.violations(),
      (unsigned long long)b.sum.lost, (unsigned long long)b.sum.foreign,
      (unsigned long long)(b.sum.latest + b.sum.older + b.sum.unchecked), (unsigned long long)b.sum.latest,
      (unsigned long long)b.sum.older, (unsigned long long)b.sum.unchecked, double(b.pages) / n, double(b.reads) / n,
      double(b.reopened) / n, b.cpu_ms / n, double(b.drive_pages) / n, (unsigned long long)b.torn_cmds,
      (unsigned long long)b.torn_pages);
}

// Why the host FTL runs with ftl.gc.durable 1: the host has no capacitor,
// and a victim erased while its relocated data still sat in the host's page
// buffers loses flushed data at a cut. The same batch with it off loses some.
TEST(HostFtlPower, WithoutDurableGcAHostCrashLosesFlushedData) {
  Rig r(0);
  const Batch b = random_cuts(r, 48, 2026);
  std::printf("ftl.gc.durable 0: %llu violations in %llu cuts\n", (unsigned long long)b.sum.violations(),
              (unsigned long long)b.cuts);
  EXPECT_GT(b.sum.lost, 0u);
  EXPECT_EQ(b.sum.foreign, 0u);
}

// What recovery through the host FTL does not support is refused, naming the key.
TEST(HostFtlPower, UnsupportedCombinationsAreRefusedNamingTheKey) {
  {
    Rig r(1, false);  // the drive formatted without sequence numbers
    std::string why;
    EXPECT_EQ(r.hal->recover(r.f, r.cfg, &why), -1);
    EXPECT_NE(why.find("nvme.ocssd.meta"), std::string::npos) << why;
  }
  {
    Rig r;
    r.hal->keep_lba_list();  // GC by Vector Chunk Copy
    std::string why;
    EXPECT_EQ(r.hal->recover(r.f, r.cfg, &why), -1);
    EXPECT_NE(why.find("host.ftl.gc_copy"), std::string::npos) << why;
  }
  {
    Rig r;
    ftl_config c = r.cfg;
    c.ckpt_interval_lbas = 1000;
    std::string why;
    EXPECT_EQ(r.hal->recover(r.f, c, &why), -1);
    EXPECT_NE(why.find("power.checkpoint"), std::string::npos) << why;
  }
}
