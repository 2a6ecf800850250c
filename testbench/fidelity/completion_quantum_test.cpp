// completion_quantum_test.cpp - flash.completion_quantum (docs/models/flash_ctrl.md):
// with Q > 0 the flash controller posts completions at multiples of Q, so
// completions that finish within one quantum share one run of the controller
// and one firmware wake-up. Checked on the small drive's mixed random job:
// at 0 (the default) the run is the exact one, field for field; with 20 us
// the same requests complete, with fewer firmware wake-ups and delta cycles,
// and the mean latency moves by less than 5 % (either way: a completion is
// posted up to 20 us late, but the firmware takes one interrupt for several,
// which saves its CPU time); run.activations shows where (fewer runs of the
// flash controller's completion method). How much it saves and costs: docs/performance.md.
#include <gtest/gtest.h>

#include <cstdio>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "run_command.h"

using nlohmann::json;

namespace {

json run_ssdvp(const std::string& name, const std::vector<std::string>& sets) {
  std::string args =
      "-c " SSDVP_SOURCE_DIR
      "/configs/small.yaml --set workload.synthetic.requests=20000 --set workload.synthetic.read_fraction=0.3";
  for (const auto& s : sets) args += " --set " + s;
  return json::parse(ssdvp_test::run_summary(SSDVP_BIN, "completion_quantum", name, args));
}

double mean_latency_us(const json& s) {
  const double nr = s["latency_us"]["read"]["count"], nw = s["latency_us"]["write"]["count"];
  const double mr = s["latency_us"]["read"]["mean"], mw = s["latency_us"]["write"]["mean"];
  return (nr * mr + nw * mw) / (nr + nw);
}

TEST(CompletionQuantum, ZeroIsTheExactRunAndAQuantumBatchesWakeUps) {
  const json exact = run_ssdvp("default", {});
  const json zero = run_ssdvp("zero", {"flash.completion_quantum=0ns"});
  const json q = run_ssdvp("q20us", {"flash.completion_quantum=20us"});
  ASSERT_TRUE(exact.contains("host") && zero.contains("host") && q.contains("host"));
  for (const char* part : {"host", "latency_us", "ftl", "flash"}) EXPECT_EQ(exact[part], zero[part]) << part;
  EXPECT_EQ(exact["run"]["delta_cycles"], zero["run"]["delta_cycles"]);

  EXPECT_EQ(q["host"]["commands"], exact["host"]["commands"]);
  EXPECT_EQ(q["host"]["errors"], 0);
  EXPECT_EQ(q["integrity"]["mismatches"], 0);
  const double w0 = exact["cpu"]["wakeups"], wq = q["cpu"]["wakeups"];
  const double d0 = exact["run"]["delta_cycles"], dq = q["run"]["delta_cycles"];
  EXPECT_LT(wq, w0) << "a 20 us quantum must merge completions into fewer firmware wake-ups";
  EXPECT_LT(dq, d0);
  // run.activations counts the same thing stage by stage: fewer runs of the
  // flash controller's completion method, the firmware's wake-ups as cpu.wakeups.
  const json& a0 = exact["run"]["activations"];
  const json& aq = q["run"]["activations"];
  EXPECT_LT(aq["flash_completions"].get<double>(), a0["flash_completions"].get<double>());
  EXPECT_EQ(a0["firmware_wakeups"], exact["cpu"]["wakeups"]);
  EXPECT_GE(a0["host_thread"].get<double>(), 1.0);
  double sum = 0;
  for (const auto& [k, v] : a0.items())
    if (k != "total" && k != "per_host_io") sum += v.get<double>();
  EXPECT_EQ(sum, a0["total"].get<double>());
  EXPECT_LT(aq["total"].get<double>(), a0["total"].get<double>());
  const double m0 = mean_latency_us(exact), mq = mean_latency_us(q);
  std::printf("wake-ups %.0f -> %.0f, delta cycles %.0f -> %.0f, mean latency %.1f -> %.1f us\n", w0, wq, d0, dq, m0,
              mq);
  EXPECT_NEAR(mq, m0, 0.05 * m0);
}

}  // namespace
