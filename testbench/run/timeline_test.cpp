// timeline_test.cpp - the Perfetto/Chrome trace-event timeline of a run.
#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <set>

#include "run/simulation.h"

using ssdvp::Config;

namespace {

TEST(Timeline, WindowHasHostFirmwareGcAndDieTracksInsideIt) {
  const std::string path = testing::TempDir() + "tl/timeline.json";
  Config c = Config::from_yaml_file(SSDVP_SOURCE_DIR "/configs/small.yaml");
  c.set("workload.synthetic.requests", "60000");
  c.set("precondition.random_drive_writes", "0.5");
  c.set("timeline.file", path);
  c.set("timeline.start", "200ms");
  c.set("timeline.duration", "50ms");
  ssdvp::Simulation sim(c);
  ASSERT_TRUE(sim.run().clean);
  std::ifstream f(path);
  ASSERT_TRUE(f.good()) << "timeline not written";
  const nlohmann::json ev = nlohmann::json::parse(f);
  ASSERT_TRUE(ev.is_array());
  std::map<std::string, int> names;
  std::set<int> dies;
  for (const auto& e : ev) {
    if (e["ph"] == "M") continue;
    names[e["name"]]++;
    const double ts = e["ts"].get<double>(), end = ts + (e.contains("dur") ? e["dur"].get<double>() : 0.0);
    EXPECT_GE(end, 200000.0) << e.dump();  // microseconds: overlaps [200 ms, 250 ms)
    EXPECT_LT(ts, 250000.0) << e.dump();
    if (e["pid"] == 3) dies.insert(e["tid"].get<int>());
  }
  EXPECT_GT(names["read"], 0);
  EXPECT_GT(names["write"], 0);
  EXPECT_GT(names["busy"], 0);
  EXPECT_GT(names["gc victim"], 0);
  EXPECT_GT(names["program"], 0);
  EXPECT_GT(names["erase"], 0);
  EXPECT_GT(names["free blocks"], 0);
  EXPECT_EQ(dies.size(), 8u);  // every die of small.yaml worked in the window
}

TEST(Timeline, AFailedRunLeavesNoTimelineBehind) {
  // The trace's third line is malformed: the run stops before simulating, and
  // the half-made timeline (opened when the platform was built) is removed.
  const std::string dir = testing::TempDir() + "tl_fail/";
  const std::string trace = testing::TempDir() + "tl_bad.ascii";
  std::ofstream(trace) << "0 0 0 8 0\n1000 0 8 8 1\n2000 0 x 8 0\n";
  Config c = Config::from_yaml_file(SSDVP_SOURCE_DIR "/configs/small.yaml");
  c.set("workload.source", "trace");
  c.set("workload.trace", trace);
  c.set("timeline.file", dir + "timeline.json");
  EXPECT_ANY_THROW({ ssdvp::Simulation sim(c); });
  EXPECT_FALSE(std::ifstream(dir + "timeline.json").good());
  EXPECT_FALSE(std::ifstream(dir + "timeline.json.tmp").good());
}

}  // namespace
