// timeline_test.cpp - the Perfetto/Chrome trace-event timeline of a run.
#include <gtest/gtest.h>

#include <zlib.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <tuple>
#include <vector>

#include "run/simulation.h"

using ssdvp::Config;

namespace {

int64_t ns(const nlohmann::json& us) { return std::llround(us.get<double>() * 1000.0); }

// The trace-event rule Perfetto relies on: complete ("X") slices on one
// (pid, tid) track either nest or do not overlap. Returns the violations.
std::vector<std::string> nesting_violations(const nlohmann::json& ev) {
  std::map<std::pair<int, int>, std::vector<std::tuple<int64_t, int64_t, std::string>>> tracks;
  for (const auto& e : ev)
    if (e["ph"] == "X") {
      const int64_t a = ns(e["ts"]);
      tracks[{e["pid"].get<int>(), e["tid"].get<int>()}].emplace_back(a, a + ns(e["dur"]),
                                                                      e["name"].get<std::string>());
    }
  std::vector<std::string> bad;
  for (auto& [id, sl] : tracks) {
    std::sort(sl.begin(), sl.end(), [](const auto& x, const auto& y) {
      return std::get<0>(x) != std::get<0>(y) ? std::get<0>(x) < std::get<0>(y) : std::get<1>(x) > std::get<1>(y);
    });
    std::vector<int64_t> open;  // ends of the enclosing slices
    for (const auto& [a, b, name] : sl) {
      while (!open.empty() && open.back() <= a) open.pop_back();
      if (!open.empty() && b > open.back())
        bad.push_back(name + " at " + std::to_string(a) + " ns on pid " + std::to_string(id.first) + " tid " +
                      std::to_string(id.second) + " overlaps a slice ending at " + std::to_string(open.back()));
      open.push_back(b);
    }
  }
  return bad;
}

// configs/small.yaml with a timeline at `path`.
Config small_with_timeline(const std::string& path, const char* requests) {
  Config c = Config::from_yaml_file(SSDVP_SOURCE_DIR "/configs/small.yaml");
  c.set("workload.synthetic.requests", requests);
  c.set("timeline.file", path);
  return c;
}

TEST(Timeline, NestingCheckFindsOverlap) {  // the check itself can fail
  const auto ev = nlohmann::json::parse(R"([{"name":"a","ph":"X","pid":1,"tid":1,"ts":1.0,"dur":2.0},
    {"name":"b","ph":"X","pid":1,"tid":1,"ts":1.5,"dur":0.5},{"name":"c","ph":"X","pid":1,"tid":1,"ts":2.5,"dur":1.0}])");
  EXPECT_EQ(nesting_violations(ev).size(), 1u);
}

TEST(Timeline, WindowHasHostFirmwareGcAndDieTracksInsideIt) {
  const std::string path = testing::TempDir() + "tl/timeline.json";
  Config c = small_with_timeline(path, "60000");
  c.set("precondition.random_drive_writes", "0.5");
  c.set("timeline.start", "200ms");
  c.set("timeline.duration", "50ms");
  ssdvp::Simulation sim(c);
  ASSERT_TRUE(sim.run().clean);
  std::ifstream f(path);
  ASSERT_TRUE(f.good()) << "timeline not written";
  const nlohmann::json ev = nlohmann::json::parse(f);
  ASSERT_TRUE(ev.is_array());
  std::map<std::string, int> names;
  std::set<std::string> dies;
  std::map<std::pair<int, int>, std::string> thread;
  for (const auto& e : ev)
    if (e["name"] == "thread_name") thread[{e["pid"].get<int>(), e["tid"].get<int>()}] = e["args"]["name"];
  for (const auto& e : ev) {
    if (e["ph"] == "M") continue;
    names[e["name"]]++;
    const double ts = e["ts"].get<double>(), end = ts + (e.contains("dur") ? e["dur"].get<double>() : 0.0);
    EXPECT_GE(end, 200000.0) << e.dump();  // microseconds: overlaps [200 ms, 250 ms)
    EXPECT_LT(ts, 250000.0) << e.dump();
    if (e["pid"] == 3) {
      const std::string t = thread[{3, e["tid"].get<int>()}];
      ASSERT_FALSE(t.empty()) << "die slice on an unnamed track: " << e.dump();
      dies.insert(t.substr(0, t.find(' ', 4)));  // "die 3 (ch 1) [2]" -> "die 3"
    }
  }
  const auto bad = nesting_violations(ev);
  EXPECT_TRUE(bad.empty()) << bad.size() << " overlapping slices, first: " << bad.front();
  // queue depth 32: requests overlap, so the request track needs several lanes
  int request_lanes = 0;
  for (const auto& [id, name] : thread) request_lanes += id.first == 1 && name.rfind("requests", 0) == 0;
  EXPECT_GT(request_lanes, 1);
  EXPECT_GT(names["read"], 0);
  EXPECT_GT(names["write"], 0);
  EXPECT_GT(names["busy"], 0);
  EXPECT_GT(names["gc victim"], 0);
  EXPECT_GT(names["program"], 0);
  EXPECT_GT(names["erase"], 0);
  EXPECT_GT(names["free blocks"], 0);
  EXPECT_EQ(dies.size(), 8u);  // every die of small.yaml worked in the window
}

// GC episodes (ftl.gc.trigger watermarks at a quarter of the drive's write
// rate): closed ones as "gc episode" spans that never overlap (one track), as
// many as the summary's closed episodes; an episode open when the run ends is
// drawn to the end.
TEST(Timeline, GcEpisodesAreSpansOnTheirOwnTrack) {
  const std::string path = testing::TempDir() + "tl-episodes/timeline.json";
  Config c = small_with_timeline(path, "20000");
  c.set("precondition.random_drive_writes", "1");
  c.set("workload.synthetic.read_fraction", "0");
  c.set("workload.synthetic.iops", "3000");
  c.set("host.mode", "open");
  c.set("ftl.gc.trigger", "watermarks");
  c.set("ftl.gc.high_blocks", "32");
  c.set("timeline.duration", "0s");
  ssdvp::Simulation sim(c);
  const ssdvp::RunOutcome out = sim.run();
  ASSERT_TRUE(out.clean) << out.error;
  const nlohmann::json& sum = out.summary;
  std::ifstream f(path);
  ASSERT_TRUE(f.good()) << "timeline not written";
  const nlohmann::json ev = nlohmann::json::parse(f);
  std::vector<std::pair<double, double>> eps;
  int open = 0;
  for (const auto& e : ev) {
    if (e["ph"] != "X") continue;
    const std::string n = e["name"];
    if (n.rfind("gc episode", 0) != 0) continue;
    eps.emplace_back(e["ts"].get<double>(), e["ts"].get<double>() + e["dur"].get<double>());
    open += n != "gc episode";
  }
  const auto& g = sum["ftl"]["gc_schedule"];
  EXPECT_GT(g["episodes_closed"].get<uint64_t>(), 2u);
  EXPECT_EQ(eps.size() - open, g["episodes_closed"].get<uint64_t>());
  EXPECT_EQ(uint64_t(open), g["episodes"].get<uint64_t>() - g["episodes_closed"].get<uint64_t>());
  std::sort(eps.begin(), eps.end());
  for (size_t i = 1; i < eps.size(); ++i) EXPECT_GE(eps[i].first, eps[i - 1].second) << "episodes do not overlap";
}

TEST(Timeline, GzipPathWritesACompressedFileThatParses) {
  const std::string path = testing::TempDir() + "tl/timeline.json.gz";
  Config c = small_with_timeline(path, "3000");
  c.set("precondition.fill", "0.2");
  c.set("timeline.duration", "0s");
  ssdvp::Simulation sim(c);
  ASSERT_TRUE(sim.run().clean);
  gzFile gz = gzopen(path.c_str(), "rb");
  ASSERT_NE(gz, nullptr);
  ASSERT_EQ(gzdirect(gz), 0) << "not gzip-compressed";
  std::string text;
  char buf[1 << 16];
  int n;
  while ((n = gzread(gz, buf, sizeof buf)) > 0) text.append(buf, size_t(n));
  gzclose(gz);
  const auto ev = nlohmann::json::parse(text);
  size_t slices = 0;
  for (const auto& e : ev) slices += e["ph"] == "X";
  EXPECT_GE(slices, 3000u);  // every request, and more
  EXPECT_TRUE(nesting_violations(ev).empty());
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
