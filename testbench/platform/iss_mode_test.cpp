// iss_mode_test.cpp - cpu.mode: iss against cpu.mode: native, through the
// real ssdvp binary (each run is its own process and SystemC simulation).
//
// The firmware sources are the same in both modes; only the CPU under them
// differs (host-compiled with a cycle-cost table, or RV32 on the ISS). So on
// a workload whose requests arrive after the drive has gone quiet, every
// firmware decision must be the same: WAF, GC runs, erases, flash operations,
// operation counts and integrity are equal to the last count, and the host's
// latencies differ only by the CPU time on each request's path.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <utility>

#include "iss_drive.h"
#include "run_command.h"

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

using ssdvp_test::kIssQuiet;  // the drive and its quiet workload (iss_drive.h)

using ssdvp_test::contains;

struct Result {
  int code = -1;
  std::string err;
  json summary;
};

fs::path scratch(const std::string& name) { return ssdvp_test::scratch("ssdvp_iss", name); }

// One run on the quiet workload; args picks the mode.
Result run(const fs::path& dir, const std::string& args) {
  const fs::path cfg = dir / "quiet.yaml";
  std::ofstream(cfg) << kIssQuiet;
  const ssdvp_test::CommandResult c =
      ssdvp_test::run_command(dir, std::string("'") + SSDVP_BIN + "' run -c '" + cfg.string() + "' -o '" +
                                       (dir / "out").string() + "' " + args);
  Result r{c.code, c.err, {}};
  std::ifstream sum(dir / "out" / "summary.json");
  if (sum) sum >> r.summary;
  return r;
}

// Both modes with the same extra settings (name tells their scratch
// directories apart); returns their summaries, native's first (nulls if a
// run failed).
std::pair<json, json> same_decisions(const std::string& name, const std::string& extra) {
  const Result n = run(scratch(name + "native"), "--set cpu.mode=native" + extra);
  const Result i = run(scratch(name + "iss"), "--set cpu.mode=iss" + extra);
  EXPECT_EQ(n.code, 0) << n.err;
  EXPECT_EQ(i.code, 0) << i.err;
  if (n.code != 0 || i.code != 0) return {json(), json()};
  const json &a = n.summary, &b = i.summary;
  EXPECT_EQ(a["cpu"]["mode"], "native");
  EXPECT_EQ(b["cpu"]["mode"], "iss");

  // The firmware's decisions: preconditioning and timed part alike.
  EXPECT_GT(a["ftl"]["gc_runs"].get<uint64_t>(), 0u) << "the workload must make GC run";
  EXPECT_EQ(a["ftl"]["waf"], b["ftl"]["waf"]);
  EXPECT_EQ(a["ftl"]["gc_lba_writes"], b["ftl"]["gc_lba_writes"]);
  EXPECT_EQ(a["ftl"]["erases"], b["ftl"]["erases"]);
  EXPECT_EQ(a["ftl"]["lifetime"], b["ftl"]["lifetime"]);
  EXPECT_EQ(a["ftl"]["erase_count"], b["ftl"]["erase_count"]);
  EXPECT_EQ(a["flash"], b["flash"]);
  EXPECT_EQ(a["integrity"], b["integrity"]);
  EXPECT_EQ(b["integrity"]["mismatches"], 0);
  // The same operations, counted by the cost table in one mode and by the
  // firmware's markers on the ISS in the other. Not irq_entry: how many
  // events one wake-up finds depends on when they happen, i.e. on CPU time.
  EXPECT_FALSE(a["cpu"]["ops"].empty());
  for (const auto& [op, v] : a["cpu"]["ops"].items())
    if (op != "irq_entry") {
      EXPECT_EQ(v["count"], b["cpu"]["ops"][op]["count"]) << op;
    }

  // Latencies: the flash side is identical, so a request's latency can
  // differ only by the CPU time on its path; on average that is at most the
  // CPU time per request (compute and register accesses, GC's included) of
  // the slower mode. A difference in flash scheduling would show tens of
  // microseconds (a read is 20 us, a program 200 us).
  const double reqs = a["workload"]["requests"].get<double>();
  auto cpu_us = [&](const json& s) {
    return (s["cpu"]["compute_s"].get<double>() + s["cpu"]["bus_s"].get<double>()) * 1e6 / reqs;
  };
  const double budget = std::max(cpu_us(a), cpu_us(b));
  for (const char* op : {"read", "write"}) {
    const double d = b["latency_us"][op]["mean"].get<double>() - a["latency_us"][op]["mean"].get<double>();
    EXPECT_LE(std::fabs(d), budget) << op << ": mean latency differs by " << d
                                    << " us; CPU time per request is at most " << budget << " us";
  }
  EXPECT_GT(b["cpu"]["instructions"].get<uint64_t>(), 0u);
  return {a, b};
}

}  // namespace

TEST(IssMode, MakesTheSameDecisionsAsNativeAndDiffersOnlyInCpuTime) { same_decisions("", ""); }

// ftl.flash_cq_phase: the firmware takes flash completions by their phase
// tag in DRAM on both CPUs alike (the ring's memory is shared with the
// controller in both). The tail reads it saves show as bus time natively and
// as fewer MMIO reads (exits) on the ISS.
TEST(IssMode, PhaseTaggedFlashRingMakesTheSameDecisions) {
  const auto [on, iss_on] = same_decisions("phase-", " --set ftl.flash_cq_phase=on");
  ASSERT_FALSE(on.is_null());
  ASSERT_FALSE(iss_on.is_null());
  const Result off = run(scratch("phase-off"), "--set cpu.mode=native");
  ASSERT_EQ(off.code, 0) << off.err;
  EXPECT_LT(on["cpu"]["bus_s"].get<double>(), off.summary["cpu"]["bus_s"].get<double>());
  const Result iss_off = run(scratch("phase-iss-off"), "--set cpu.mode=iss");
  ASSERT_EQ(iss_off.code, 0) << iss_off.err;
  const uint64_t r_on = iss_on["cpu"]["mmio_reads"], r_off = iss_off.summary["cpu"]["mmio_reads"];
  EXPECT_LT(r_on, r_off);
  // the writes stay (doorbells, cost markers): equal but for a marker or two that follow the timing (irq_entry)
  const double w_on = iss_on["cpu"]["mmio_writes"], w_off = iss_off.summary["cpu"]["mmio_writes"];
  EXPECT_NEAR(w_on, w_off, 0.01 * w_off);
  EXPECT_LT(double(r_on), 0.9 * double(r_off)) << "the flash CQ_TAIL reads were most of the reads";
  EXPECT_FALSE(off.summary["cpu"].contains("mmio_reads"));  // native mode's summary as it was
}

// ftl.gc.trigger on the ISS. Decisions are the same in both modes only while
// GC never overlaps a host request (a write landing on an LBA GC is moving is
// the race CPU time decides). So the marks sit one and two blocks above the
// threshold and requests come every 200 ms: watermarks decide on events only;
// idle GC starts 10 ms after each request and reaches its mark long before
// the next. The timer's wake-ups are CPU-time events (not compared).
// autossd's share follows the free pool sampled every period, which CPU time
// shifts: its ISS run must be clean, not equal.
TEST(IssMode, GcTriggersMakeTheSameDecisions) {
  const std::string quiet = " --set workload.synthetic.iops=5";
  const auto [wm, wm_iss] =
      same_decisions("wm-", quiet + " --set ftl.gc.trigger=watermarks --set ftl.gc.high_blocks=10");
  ASSERT_FALSE(wm.is_null());
  EXPECT_EQ(wm["ftl"]["gc_schedule"]["episodes"], wm_iss["ftl"]["gc_schedule"]["episodes"]);
  const auto [idle, idle_iss] = same_decisions(
      "idle-", quiet + " --set ftl.gc.trigger=idle --set ftl.gc.high_blocks=9 --set ftl.gc.idle_after=10ms");
  ASSERT_FALSE(idle.is_null());
  EXPECT_GT(idle["ftl"]["gc_schedule"]["idle_victims"].get<uint64_t>(), 0u);
  EXPECT_EQ(idle["ftl"]["gc_schedule"]["idle_victims"], idle_iss["ftl"]["gc_schedule"]["idle_victims"]);
  EXPECT_GT(idle_iss["ftl"]["gc_schedule"]["idle_wakeups"].get<uint64_t>(), 0u);
  const Result i =
      run(scratch("autossd-iss"), "--set cpu.mode=iss --set ftl.gc.trigger=autossd --set ftl.gc.high_blocks=24");
  ASSERT_EQ(i.code, 0) << i.err;
  EXPECT_EQ(i.summary["integrity"]["mismatches"], 0);
  EXPECT_GT(i.summary["integrity"]["reads_checked"].get<uint64_t>(), 0u);
  EXPECT_GT(i.summary["ftl"]["gc_schedule"]["autossd_updates"].get<uint64_t>(), 0u);
  EXPECT_GT(i.summary["ftl"]["gc_runs"].get<uint64_t>(), 0u);
}

TEST(IssMode, AFirmwareFaultStopsTheRunNamingThePcTheFunctionAndTheCause) {
  const Result r = run(scratch("fault"), std::string("--set cpu.mode=iss --set cpu.iss.firmware=") +
                                             SSDVP_ISS_PROGRAMS + "/fw_fault.elf");
  EXPECT_EQ(r.code, 1) << r.err;
  EXPECT_TRUE(contains(r.err, "firmware fault")) << r.err;
  EXPECT_TRUE(contains(r.err, "(broken_event_loop+0x")) << r.err;
  EXPECT_TRUE(contains(r.err, "illegal instruction")) << r.err;
  EXPECT_TRUE(contains(r.err, "pc 0x")) << r.err;
}

TEST(IssMode, AFirmwareThatReportsAnotherNamespaceSizeIsRefusedAtBoot) {
  // nsze_lie.elf boots and parks like the firmware but writes NSZE = 12345.
  const Result r = run(scratch("nsze"), std::string("--set cpu.mode=iss --set cpu.iss.firmware=") + SSDVP_ISS_PROGRAMS +
                                            "/nsze_lie.elf");
  EXPECT_EQ(r.code, 1) << r.err;
  EXPECT_TRUE(contains(r.err, "namespace of 12345 LBAs (NSZE)")) << r.err;
  EXPECT_TRUE(contains(r.err, "configured ")) << r.err;
}

TEST(IssMode, AMissingFirmwareImageIsNamed) {
  const Result r = run(scratch("missing"), "--set cpu.mode=iss --set cpu.iss.firmware=/nonexistent/fw.elf");
  EXPECT_EQ(r.code, 1) << r.err;
  EXPECT_TRUE(contains(r.err, "/nonexistent/fw.elf")) << r.err;
}

TEST(IssMode, AnImageThatIsNotTheFirmwareIsRefusedAtBoot) {
  // A valid RV32 program that never parks: it exits at once.
  const Result r = run(scratch("notfw"),
                       std::string("--set cpu.mode=iss --set cpu.iss.firmware=") + SSDVP_ISS_PROGRAMS + "/compute.elf");
  EXPECT_EQ(r.code, 1) << r.err;
  EXPECT_TRUE(contains(r.err, "compute.elf")) << r.err;
}

// ftl.mapping: cached (firmware/ftl/cmt.c) on the same quiet workload, with a
// cache of 1/14 of the table and small translation pages so that misses,
// write-backs and translation GC all happen: the cache makes the same
// decisions on the RV32 ISS as natively; the data path nearly so.
TEST(IssMode, CachedMappingMakesTheSameDecisions) {
  const std::string cached = " --set ftl.mapping=cached --set ftl.cmt.entries=4096 --set ftl.cmt.tp_entries=256";
  const Result n = run(scratch("cmt-native"), "--set cpu.mode=native" + cached);
  const Result i = run(scratch("cmt-iss"), "--set cpu.mode=iss" + cached);
  ASSERT_EQ(n.code, 0) << n.err;
  ASSERT_EQ(i.code, 0) << i.err;
  const json &a = n.summary, &b = i.summary;
  ASSERT_TRUE(a.contains("mapping"));
  ASSERT_TRUE(b.contains("mapping"));
  EXPECT_GT(a["mapping"]["misses"].get<uint64_t>(), 0u);
  EXPECT_GT(a["mapping"]["tp_reads"].get<uint64_t>(), 0u);
  EXPECT_GT(a["mapping"]["tp_writes"].get<uint64_t>(), 0u);
  // The host's lookups and the cache's decisions are the same to the last count.
  for (const char* k : {"lookups", "hits", "misses", "cold_misses", "evictions", "dirty_evictions"})
    EXPECT_EQ(a["mapping"][k], b["mapping"][k]) << k;
  EXPECT_EQ(a["ftl"]["lifetime"]["host_lba_writes"], b["ftl"]["lifetime"]["host_lba_writes"]);
  EXPECT_EQ(a["integrity"], b["integrity"]);
  // Not so what happens during GC. With the cached mapping, GC's translation
  // work (each relocated LBA whose entry is not cached goes into the log and
  // costs a read-modify-write of its translation page; a full log holds GC
  // until a write-back empties it) is still in flight when some requests
  // arrive (the slowest read waits 2.1 ms, against 31.5 us with the full
  // table, whose GC always ends before the next request), and where they fall
  // depends on the CPU time of everything before: which victims greedy picks
  // follows. It is the timing, not the CPU: natively, changing only
  // cpu.clock_hz moves the timed part's WAF (2,818 host LBAs, about 175
  // victims) among 7.74, 7.98 and 8.02, not monotonically (1, 0.9, 0.7, 0.5,
  // 0.4 GHz: 7.982, 8.021, 7.737, 7.737, 8.016), while the full table gives
  // 5.660 at every clock; at 2 requests per second instead of 20 the cached
  // WAF is 8.016..8.022 at any clock. Nor does a cost table close it: the
  // native table, calibrated on full-table runs, charges 0.044 s of CPU here
  // against the ISS's 0.119 s (cmt.c's own work has no operation of its own:
  // on the ISS its instructions land on the next marker, page_alloc at 729 ns
  // against 50, l2p_lookup 733 against 86, flash_submit 416 against 80), yet
  // native with the ISS's measured per-operation times (0.112 s) gives WAF
  // 7.698, further from the ISS's 8.021 than the default table's 7.982. So
  // the spread is this timing effect's (-3.6 % .. +0.5 % seen), hence 5 %
  // (docs/results/dftl.md, "The cached mapping on the ISS and natively").
  for (const char* k : {"tp_gc_updates", "tp_reads", "tp_writes"}) {
    const double x = a["mapping"][k].get<double>(), y = b["mapping"][k].get<double>();
    EXPECT_NEAR(x, y, 0.05 * x) << k;
  }
  EXPECT_NEAR(a["ftl"]["waf"].get<double>(), b["ftl"]["waf"].get<double>(), 0.05 * a["ftl"]["waf"].get<double>());
  const double g = a["ftl"]["lifetime"]["gc_lba_writes"].get<double>();
  EXPECT_NEAR(g, b["ftl"]["lifetime"]["gc_lba_writes"].get<double>(), 0.05 * g);
  EXPECT_EQ(a["integrity"]["mismatches"], 0);
  EXPECT_EQ(b["integrity"]["mismatches"], 0);
}
