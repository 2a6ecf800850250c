// run_summary_test.cpp - run.cpu_s (docs/outputs.md): the CPU time a run's
// summary reports is the process's own, user + system, in seconds. Checked
// against what the test's own getrusage(RUSAGE_CHILDREN) counts for the same
// process once it has exited: the summary is written near the end of the
// run, so its figure may fall short of the whole process's by the output
// writing and the exit, and can never exceed it.
#include <gtest/gtest.h>
#include <sys/resource.h>

#include <string>

#include <nlohmann/json.hpp>

#include "run_command.h"

namespace {

double children_cpu_s() {
  struct rusage ru {};
  getrusage(RUSAGE_CHILDREN, &ru);
  const auto secs = [](const timeval& t) { return double(t.tv_sec) + double(t.tv_usec) / 1e6; };
  return secs(ru.ru_utime) + secs(ru.ru_stime);
}

void expect_own_cpu_time(const std::string& name, const std::string& args) {
  const double before = children_cpu_s();
  const auto s = nlohmann::json::parse(ssdvp_test::run_summary(SSDVP_BIN, "run_summary", name, args));
  const double process = children_cpu_s() - before;  // the ssdvp process and its shell
  ASSERT_TRUE(s.contains("run") && s["run"].contains("cpu_s")) << s.dump();
  const double reported = s["run"]["cpu_s"].get<double>();
  EXPECT_GT(reported, 0.0);
  // getrusage's clocks tick in microseconds but are sampled per scheduler
  // tick; 20 ms covers that.
  EXPECT_LE(reported, process + 0.02) << "more CPU than the whole process used";
  EXPECT_GE(reported, 0.7 * process - 0.02) << "far less than the process used: not its own time, or not seconds";
}

TEST(RunSummary, CpuTimeIsTheProcesssOwnInSeconds) {
  expect_own_cpu_time("single", "-c " SSDVP_SOURCE_DIR "/configs/small.yaml --set workload.synthetic.requests=20000");
}

TEST(RunSummary, AnArraysCpuTimeIsTheProcesssOwnInSeconds) {
  expect_own_cpu_time("array", "-c " SSDVP_SOURCE_DIR "/configs/raid.yaml");
}

}  // namespace
