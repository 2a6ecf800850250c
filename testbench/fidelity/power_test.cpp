// power_test.cpp - power cuts in the middle of GC-heavy runs (issue 20
// section 1, a CI-sized subset of scripts/power-cuts.sh): after recovery
// from the flash alone, every LBA reads its latest version or, for a write
// that was not durable, an older one; never durable data lost, never another
// LBA's data or garbage.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "run_command.h"

using nlohmann::json;

namespace {

json cut(const std::string& name, const std::vector<std::string>& sets) {
  const auto dir = ssdvp_test::scratch("power", name);
  std::string cmd = std::string(SSDVP_BIN) + " run -q -c " SSDVP_SOURCE_DIR "/configs/small.yaml -o '" + dir.string() +
                    "' --set precondition.random_drive_writes=1.0";
  for (const auto& s : sets) cmd += " --set " + s;
  const auto r = ssdvp_test::run_command(dir, cmd);
  EXPECT_EQ(r.code, 0) << cmd << "\n" << r.err;
  if (r.code != 0) return json::object();
  return json::parse(ssdvp_test::slurp(dir / "summary.json"));
}

uint64_t u(const json& j) { return j.get<uint64_t>(); }

void expect_recovered(const json& s, uint64_t lbas = 229376) {
  ASSERT_TRUE(s.contains("power")) << "the cut did not happen (the run ended first?)";
  const auto& p = s["power"];
  const auto& c = p["check"];
  EXPECT_EQ(u(c["lbas"]), lbas);
  EXPECT_EQ(u(c["durable_lost"]), 0u);
  EXPECT_EQ(u(c["foreign"]), 0u);
  EXPECT_EQ(u(c["unreadable"]), 0u);
  EXPECT_EQ(u(p["violations"]), 0u);
  // most LBAs read their latest version; what is older was not durable
  EXPECT_GT(u(c["latest"]), lbas * 9 / 10);
  EXPECT_EQ(u(c["latest"]) + u(c["older_allowed"]) + u(c["deallocated_unchecked"]), lbas);
  EXPECT_GT(u(p["recovery"]["pages_read"]), 0u);
  EXPECT_GT(p["recovery"]["time_s_estimate"].get<double>(), 0.0);
}

// GC relocates all the time (hot/cold overwrites of an aged drive): with
// power-loss protection every acknowledged write survives; the writes in
// flight at the cut may read old.
TEST(PowerCut, WithPlpDuringGcEveryAcknowledgedWriteSurvives) {
  const json s = cut("plp_gc", {"workload.synthetic.pattern=hotcold", "workload.synthetic.requests=400000",
                                "power.cut_at=2345ms", "power.plp=true"});
  expect_recovered(s);
  if (s.contains("power")) {
    EXPECT_GT(u(s["ftl"]["gc_runs"]), 100u);  // GC was at work
    EXPECT_LE(u(s["power"]["check"]["older_allowed"]), u(s["power"]["host_commands_failed"]) * 256);
    EXPECT_EQ(u(s["power"]["torn_programs"]), 0u);  // the capacitor let them finish
  }
}

// Without it, the programs and erases in flight are torn; the durable floor
// is what flushes made durable (varmail: a flush after every few writes).
TEST(PowerCut, WithoutPlpFlushedWritesSurviveTornPages) {
  const json s = cut("noplp_flush", {"workload.source=files", "host.files.personality=varmail", "host.files.fill=0.6",
                                     "host.files.loops=0", "host.time_limit=10s", "power.cut_at=3074ms",
                                     "power.plp=false", "ftl.gc.durable=1"});
  expect_recovered(s);
  if (s.contains("power")) {
    EXPECT_GT(u(s["host"]["flushes"]), 1000u);
    EXPECT_GT(u(s["ftl"]["gc_runs"]), 100u);
    EXPECT_GT(u(s["power"]["torn_programs"]), 0u);
    EXPECT_GT(u(s["power"]["recovery"]["torn_pages"]), 0u);
  }
}

TEST(PowerCut, WithoutPlpDuringGcNothingForeign) {
  const json s = cut("noplp_gc", {"workload.synthetic.pattern=hotcold", "workload.synthetic.requests=400000",
                                  "power.cut_at=3508ms", "power.plp=false", "ftl.gc.durable=1"});
  expect_recovered(s);
}

}  // namespace
