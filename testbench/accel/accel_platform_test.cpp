// The accelerator inside the full platform: HAML placement with
// ftl.cluster.engine accel clusters on the device (one job per period), reads
// stay correct, and the CPU is charged less than with software clustering.
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <string>

#include <nlohmann/json.hpp>

namespace {

// One ssdvp run (one SystemC simulation per process: the command, not in here).
nlohmann::json run_haml(const std::string& engine, const std::string& impl, const std::string& extra = "") {
  // one directory per test and run: ctest runs the tests of this file in parallel
  const std::string out = testing::TempDir() + "accel_" +
                          testing::UnitTest::GetInstance()->current_test_info()->name() + "_" + engine + "_" + impl;
  const std::string cmd = std::string(SSDVP_BIN) + " run -q -c " SSDVP_SOURCE_DIR "/configs/small.yaml" +
                          " --set ftl.placement.policy=haml --set ftl.cluster.engine=" + engine +
                          " --set accel.impl=" + impl +
                          " --set ftl.hot.slice_size=4MiB --set ftl.hot.period=20ms"
                          " --set workload.synthetic.pattern=shifting --set workload.synthetic.requests=40000"
                          " --set workload.synthetic.shift_requests=10000 --set workload.synthetic.iops=200000"
                          " --set workload.synthetic.read_fraction=0.3 " +
                          extra + " -o " + out;
  EXPECT_EQ(std::system(cmd.c_str()), 0) << cmd;
  std::ifstream f(out + "/summary.json");
  return nlohmann::json::parse(f);
}

TEST(AccelPlatform, HamlClustersOnTheAcceleratorWithCleanReads) {
  const auto sw = run_haml("software", "tlm");
  const auto hw = run_haml("accel", "tlm");
  for (const auto* j : {&sw, &hw}) {
    EXPECT_EQ(0u, (*j)["integrity"]["mismatches"].get<uint64_t>());
    EXPECT_GT((*j)["placement"]["cluster_runs"].get<uint64_t>(), 3u);
    EXPECT_EQ(0u, (*j)["accel"]["errors"].get<uint64_t>());
  }
  EXPECT_EQ(0u, sw["accel"]["jobs"].get<uint64_t>());
  EXPECT_EQ(hw["placement"]["cluster_runs_total"].get<uint64_t>(), hw["accel"]["jobs"].get<uint64_t>());
  EXPECT_GT(hw["accel"]["busy_s"].get<double>(), 0.0);
  EXPECT_LT(hw["placement"]["monitor_cpu_s"].get<double>(), sw["placement"]["monitor_cpu_s"].get<double>());
}

TEST(AccelPlatform, MoreSlicesThanTheSramFallBackToSoftware) {
  const auto sw = run_haml("software", "tlm");
  const auto hw = run_haml("accel", "tlm", "--set accel.sram_points=8");  // the small drive has 20 slices
  EXPECT_EQ(0u, hw["accel"]["jobs"].get<uint64_t>());
  EXPECT_EQ(hw["placement"]["cluster_runs_total"].get<uint64_t>(), hw["accel"]["errors"].get<uint64_t>());
  EXPECT_EQ(0u, hw["integrity"]["mismatches"].get<uint64_t>());
  // kmeans2d ran instead (the runs' timing differs by the failed attempts, so
  // the monitor's figures, and the counts, need not be equal to sw's)
  EXPECT_GT(hw["placement"]["kmeans_iterations"].get<uint64_t>(),
            hw["placement"]["cluster_runs_total"].get<uint64_t>());
  EXPECT_EQ(0u, sw["accel"]["errors"].get<uint64_t>());
}

#ifdef SSDVP_HAVE_RTL
TEST(AccelPlatform, RtlCoreInsideThePlatformGivesTheSameRunAsTheTlmCore) {
  const auto tlm = run_haml("accel", "tlm");
  const auto rtl = run_haml("accel", "rtl");
  EXPECT_EQ("rtl", rtl["accel"]["core"].get<std::string>());
  EXPECT_EQ(tlm["accel"]["jobs"], rtl["accel"]["jobs"]);
  EXPECT_EQ(tlm["accel"]["busy_s"], rtl["accel"]["busy_s"]);
  EXPECT_EQ(tlm["placement"]["class_lba_writes"], rtl["placement"]["class_lba_writes"]);
  EXPECT_EQ(tlm["latency_us"], rtl["latency_us"]);
}
#endif

}  // namespace
