// integrity_test.cpp - every read checked against the host's scoreboard over
// long, GC-heavy timed runs, under every victim policy, with deallocation;
// the expected number of mismatches is zero.
#include <gtest/gtest.h>

#include <fstream>
#include <random>
#include <string>

#include "run/simulation.h"

using ssdvp::Config;

namespace {

Config small() { return Config::from_yaml_file(SSDVP_SOURCE_DIR "/configs/small.yaml"); }

void expect_clean(const ssdvp::RunOutcome& r, uint64_t min_reads, uint64_t min_gc) {
  const auto& j = r.summary;
  EXPECT_TRUE(r.clean);
  EXPECT_EQ(j["integrity"]["mismatches"].get<uint64_t>(), 0u);
  EXPECT_GE(j["integrity"]["reads_checked"].get<uint64_t>(), min_reads);
  EXPECT_GE(j["ftl"]["gc_lba_writes"].get<uint64_t>(), min_gc);
  EXPECT_EQ(j["flash"]["violations"].get<uint64_t>(), 0u);
  EXPECT_EQ(j["host"]["errors"].get<uint64_t>(), 0u);
  EXPECT_TRUE(j["run"]["finished"].get<bool>());
}

class IntegrityPolicy : public ::testing::TestWithParam<const char*> {};

TEST_P(IntegrityPolicy, HotColdMixWithGcHasNoMismatch) {
  Config c = small();
  c.set("ftl.gc.policy", GetParam());
  c.set("workload.synthetic.pattern", "hotcold");
  c.set("workload.synthetic.requests", "150000");
  c.set("workload.synthetic.read_fraction", "0.4");
  c.set("workload.synthetic.io_size", "16KiB");
  c.set("workload.synthetic.align", "4KiB");
  c.set("precondition.random_drive_writes", "1.0");
  ssdvp::Simulation sim(c);
  expect_clean(sim.run(), 50000, 10000);
}

INSTANTIATE_TEST_SUITE_P(AllPolicies, IntegrityPolicy,
                         ::testing::Values("greedy", "fifo", "random", "cost_benefit", "dchoices"));

// Every write placement, timed, with GC and a hot set that moves, under the
// monitor's periods (HAML's reclassification happens mid-run).
class IntegrityPlacement : public ::testing::TestWithParam<const char*> {};

TEST_P(IntegrityPlacement, ShiftingHotSetWithGcHasNoMismatch) {
  Config c = small();
  const std::string p = GetParam();
  c.set("ftl.placement.policy", p == "oracle" ? "stream" : p);
  if (p == "oracle") c.set("host.streams", "oracle");
  c.set("ftl.hot.slice_size", "4MiB");
  c.set("ftl.hot.period", "50ms");
  c.set("ftl.wear.block_choice", "erase_count");
  c.set("ftl.wear.threshold", "4");
  c.set("workload.synthetic.pattern", "shifting");
  c.set("workload.synthetic.requests", "120000");
  c.set("workload.synthetic.shift_requests", "20000");
  c.set("workload.synthetic.iops", "200000");
  c.set("workload.synthetic.read_fraction", "0.3");
  c.set("precondition.random_drive_writes", "1.0");
  ssdvp::Simulation sim(c);
  const auto r = sim.run();
  expect_clean(r, 20000, 1000);
  if (p == "haml") {
    EXPECT_GT(r.summary["placement"]["cluster_runs"].get<uint64_t>(), 3u);
  }
}

INSTANTIATE_TEST_SUITE_P(AllPlacements, IntegrityPlacement,
                         ::testing::Values("single", "double", "hotis", "asa", "haml", "oracle"));

TEST(Integrity, HotSpotAtHighQueueDepthKeepsOrder) {
  // 64 LBAs hammered by 32 outstanding commands, all arriving at once:
  // overlapping requests must be ordered so reads have one right answer.
  Config c = small();
  c.set("host.mode", "open");
  c.set("workload.synthetic.footprint", "256KiB");
  c.set("workload.synthetic.requests", "40000");
  c.set("workload.synthetic.read_fraction", "0.5");
  ssdvp::Simulation sim(c);
  expect_clean(sim.run(), 15000, 0);
}

TEST(Integrity, TrimmedLbasReadDeallocatedAfterGcMovesTheRest) {
  // A fio v2 iolog (no timestamps): fill a region, trim every other 64 KiB,
  // overwrite parts, read everything back, many times over.
  const std::string path = testing::TempDir() + "trim_mix.fio";
  std::ofstream f(path);
  f << "fio version 2 iolog\n/dev/x add\n/dev/x open\n";
  std::mt19937 rng(5);
  const uint64_t region = 64ull << 20;
  for (int round = 0; round < 6; ++round) {
    for (uint64_t o = 0; o < region; o += 65536) f << "/dev/x write " << o << " 65536\n";
    for (uint64_t o = (round % 2) * 65536; o < region; o += 131072) f << "/dev/x trim " << o << " 65536\n";
    for (int i = 0; i < 3000; ++i) f << "/dev/x write " << (rng() % (region / 4096)) * 4096 << " 4096\n";
    for (uint64_t o = 0; o < region; o += 65536) f << "/dev/x read " << o << " 65536\n";
  }
  f << "/dev/x close\n";
  f.close();
  Config c = small();
  c.set("workload.source", "trace");
  c.set("workload.trace", path);
  c.set("host.mode", "open");
  c.set("precondition.random_drive_writes", "1.0");
  ssdvp::Simulation sim(c);
  const ssdvp::RunOutcome r = sim.run();
  expect_clean(r, 6 * (64 << 20) / 4096, 1);  // every LBA of the region read back, six times
  EXPECT_GT(r.summary["host"]["trims"].get<uint64_t>(), 1000u);
  EXPECT_GT(r.summary["ftl"]["trim_lbas"].get<uint64_t>(), 40000u);
}

}  // namespace
