// cmt_power_test.cpp - power cuts with the cached mapping (ftl.mapping:
// cached, firmware/ftl/cmt_recover.c): after each recovery every LBA reads
// its latest version or, for a write that was not durable, an older one
// (the scoreboard's rules, platform/run/power_loss.h); the host goes on. A
// cache of 1/64 of the table, so that most entries live only in flash and
// many are dirty at the cut. CI-sized; a larger count of cuts is a command
// in docs/results/dftl.md.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "small_run.h"

using nlohmann::json;

namespace {

// The cached mapping with a cache of 3,584 entries (misses, write-backs and
// translation GC all happen).
json run(const std::string& name, std::vector<std::string> sets) {
  sets.insert(sets.begin(), {"ftl.mapping=cached", "ftl.cmt.entries=3584"});
  return ssdvp_test::small_run("cmt_power", name, sets);
}

uint64_t u(const json& j) { return j.get<uint64_t>(); }

void expect_clean(const json& c) {
  EXPECT_EQ(u(c["violations"]), 0u);
  EXPECT_EQ(u(c["check"]["lbas"]), 229376u);
  EXPECT_EQ(u(c["check"]["durable_lost"]), 0u);
  EXPECT_EQ(u(c["check"]["foreign"]), 0u);
  EXPECT_EQ(u(c["check"]["unreadable"]), 0u);
  EXPECT_GT(u(c["recovery"]["pages_read"]), 0u);
  EXPECT_GT(c["recovery"]["time_s"].get<double>(), 0.0);
}

}  // namespace

// With power-loss protection, GC at work: every acknowledged write survives.
TEST(CmtPowerCut, WithPlpDuringGcEveryAcknowledgedWriteSurvives) {
  const json s = run("plp", {"workload.synthetic.pattern=hotcold", "workload.synthetic.requests=400000",
                             "power.cut_at=1500ms", "power.plp=true"});
  ASSERT_TRUE(s.contains("power")) << "the cut did not happen (the run ended first?)";
  const auto& p = s["power"];
  expect_clean(p);
  EXPECT_GT(u(s["ftl"]["gc_runs"]), 100u);
  EXPECT_LE(u(p["check"]["older_allowed"]), u(p["host_commands_failed"]) * 256);
  EXPECT_GT(u(p["check"]["latest"]), 229376u * 9 / 10);
}

// Without it, several cuts in one run with programs and erases torn: no
// violation at any cut, no integrity mismatch in the host's reads between and
// after them.
TEST(CmtPowerCut, SeveralCutsWithoutPlpEachRecoversAndTheHostGoesOn) {
  const json s = run("cuts", {"workload.synthetic.pattern=hotcold", "workload.synthetic.requests=30000",
                              "workload.synthetic.iops=10000", "host.mode=open", "power.cuts=3", "power.cuts_span=2s",
                              "power.seed=7", "power.plp=false", "ftl.gc.durable=1"});
  ASSERT_TRUE(s.contains("power"));
  const auto& p = s["power"];
  EXPECT_EQ(u(p["cuts"]), 3u);
  EXPECT_EQ(u(p["violations"]), 0u);
  EXPECT_EQ(u(s["integrity"]["mismatches"]), 0u);
  EXPECT_GT(u(s["integrity"]["reads_checked"]), 0u);
  for (const auto& c : p["each"]) expect_clean(c);
}
