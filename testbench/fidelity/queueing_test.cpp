// queueing_test.cpp - throughput and latency under load against bounds and
// queueing formulas the model did not produce:
//  - saturation: 4 KiB random reads and writes at a high queue depth reach
//    the device's bound, the smallest of the dies (dies / (tCMD + tR) for
//    reads; dies x page / tPROG for writes), the channels, the PCIe link and
//    the firmware's time per request, all from the configuration;
//  - Little's law: the summary's time-weighted mean number of requests in the
//    system equals throughput x mean latency, per class;
//  - M/D/1: Poisson reads to a single die; mean and p99 latency against the
//    Pollaczek-Khinchine mean and Erlang's waiting-time distribution for
//    deterministic service.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <random>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "common/config.h"
#include "run_command.h"

using nlohmann::json;
using ssdvp::Config;

namespace {

// One run of the ssdvp binary (one simulation per process); its summary.
json run_ssdvp(const std::string& name, const std::string& config, const std::vector<std::string>& sets) {
  const auto dir = ssdvp_test::scratch("queueing", name);
  std::string cmd = std::string(SSDVP_BIN) + " run -q -c " SSDVP_SOURCE_DIR "/" + config + " -o '" + dir.string() + "'";
  for (const auto& s : sets) cmd += " --set " + s;
  const auto r = ssdvp_test::run_command(dir, cmd);
  EXPECT_EQ(r.code, 0) << cmd << "\n" << r.err;
  if (r.code != 0) return json::object();
  return json::parse(ssdvp_test::slurp(dir / "summary.json"));
}

// A resolved parameter of a run (the summary's config section).
std::string param(const json& s, const std::string& key) {
  if (!s.contains("config") || !s["config"].contains(key)) {
    ADD_FAILURE() << "no parameter " << key;
    return "0";
  }
  return s["config"][key].get<std::string>();
}
double sec(const json& c, const std::string& key) { return double(Config::parse_time_ps(param(c, key))) * 1e-12; }
double num(const json& c, const std::string& key) { return std::stod(param(c, key)); }
double bytes(const json& c, const std::string& key) { return double(Config::parse_size(param(c, key))); }

struct Bounds {
  double die, channel, pcie, cpu;
  double min() const { return std::min({die, channel, pcie, cpu}); }
  const char* binding() const {
    const double m = min();
    return m == die ? "dies" : m == channel ? "channels" : m == pcie ? "PCIe" : "controller CPU";
  }
};

// IOPS bounds for 4 KiB random requests (one LBA-sized transfer each).
// The CPU bound is the firmware's time per request as the CPU model charged it
// in the run (configs/cpu_cost.yaml): requests / (compute + bus time).
Bounds bounds(const json& c, bool write) {
  const double dies = num(c, "flash.channels") * num(c, "flash.dies_per_channel");
  const double ch = num(c, "flash.channels"), ch_rate = num(c, "flash.channel.mbps") * 1e6;
  const double io = bytes(c, "workload.synthetic.io_size"), page = bytes(c, "flash.page_size");
  const double cmd = sec(c, "flash.timing.cmd");
  Bounds b;
  if (write) {
    // a die programs a whole page (page / io requests) per tPROG; the page's
    // transfer into the die's register overlaps the previous program
    b.die = dies * (page / io) / sec(c, "flash.timing.program");
    b.channel = ch / (cmd + io / ch_rate);
  } else {
    b.die = dies / (cmd + sec(c, "flash.timing.read"));
    b.channel = ch / (cmd + io / ch_rate);
  }
  b.pcie = num(c, "pcie.mbps") * 1e6 / io;
  const double reqs = double(c["host"]["reads"].get<uint64_t>() + c["host"]["writes"].get<uint64_t>());
  b.cpu = reqs / (c["cpu"]["compute_s"].get<double>() + c["cpu"]["bus_s"].get<double>());
  return b;
}

std::vector<std::string> saturation_sets(bool write) {
  // writes: fewer than the free space holds, so GC stays out of the bound
  return {"workload.source=synthetic",
          "workload.synthetic.pattern=uniform",
          "workload.synthetic.io_size=4KiB",
          std::string("workload.synthetic.read_fraction=") + (write ? "0" : "1"),
          std::string("workload.synthetic.requests=") + (write ? "12000" : "40000"),
          "workload.loops=1",
          "workload.time_scale=1",
          "host.mode=closed",
          "host.queue_depth=256",
          std::string("precondition.fill=") + (write ? "0" : "1.0"),
          "precondition.random_drive_writes=0",
          "precondition.workload_fraction=0"};
}

void check_saturation(bool write) {
  const json s = run_ssdvp(write ? "sat_write" : "sat_read", "configs/default.yaml", saturation_sets(write));
  ASSERT_TRUE(s.contains("host"));
  const Bounds b = bounds(s, write);
  const double iops = s["host"]["iops"].get<double>();
  std::printf(
      "4 KiB random %s at QD 256, default geometry: %.0f IOPS; bounds: dies %.0f, channels %.0f, PCIe %.0f, "
      "controller CPU %.0f: %s bind (%.1f %% of it)\n",
      write ? "writes" : "reads", iops, b.die, b.channel, b.pcie, b.cpu, b.binding(), 100 * iops / b.min());
  EXPECT_LE(iops, b.min() * 1.001) << "above the bound";
  // Within 10 %: the ramp at both ends of the run and the stages that do not
  // overlap perfectly are the rest.
  EXPECT_GE(iops, 0.9 * b.min());
}

TEST(Saturation, RandomReadsReachTheBindingBound) { check_saturation(false); }
TEST(Saturation, RandomWritesReachTheBindingBound) { check_saturation(true); }

// Little's law on a mixed closed-loop run and an open-loop one.
void check_little(const char* mode) {
  std::vector<std::string> sets = {"workload.synthetic.requests=20000", std::string("host.mode=") + mode};
  if (std::string(mode) == "open") {
    sets.push_back("workload.synthetic.iops=30000");
    sets.push_back("workload.synthetic.arrival=poisson");
  }
  const json s = run_ssdvp(std::string("little_") + mode, "configs/small.yaml", sets);
  ASSERT_TRUE(s.contains("host"));
  const double run_s = s["host"]["sim_time_s"].get<double>();
  for (const char* k : {"read", "write"}) {
    const auto& lat = s["latency_us"][k];
    const double lambda_w = lat["count"].get<double>() / run_s * lat["mean"].get<double>() * 1e-6;
    const double L = s["host"]["in_system_mean"][k].get<double>();
    std::printf("%s loop, %s: mean in system %.4f, throughput x mean latency %.4f\n", mode, k, L, lambda_w);
    // Exact for a run that starts and ends empty, but for the ns rounding of
    // each latency sample.
    EXPECT_NEAR(L / lambda_w, 1.0, 1e-3) << mode << " " << k;
  }
  const double qd = s["host"]["device_commands_mean"].get<double>();
  EXPECT_GT(qd, 0.0);
  EXPECT_LE(qd, num(s, "host.queue_depth"));
}

TEST(LittlesLaw, ClosedLoop) { check_little("closed"); }
TEST(LittlesLaw, OpenLoopPoisson) { check_little("open"); }

// P(W <= t) for M/D/1 (Erlang): (1 - rho) sum_{k=0}^{floor(t/D)} (lambda (kD - t))^k / k! e^{-lambda (kD - t)}.
double md1_wait_cdf(double t, double lambda, double D) {
  const double rho = lambda * D;
  long double s = 0;
  for (int k = 0; k <= int(std::floor(t / D)); ++k) {
    const long double x = lambda * (k * D - t);
    s += std::pow(x, k) / std::tgamma(k + 1.0L) * std::exp(-x);
  }
  return double((1 - rho) * s);
}

// Its q-quantile: the sum above is exact but alternates, so it is evaluated
// only up to the quantile (t stepped by D / 16 from 0, then bisection), where
// its terms stay far from the limits of long double for the rho used here.
double md1_wait_quantile(double q, double lambda, double D) {
  double lo = 0, hi = 0;
  while (md1_wait_cdf(hi, lambda, D) < q) {
    lo = hi;
    hi += D / 16;
  }
  for (int i = 0; i < 60; ++i) {
    const double mid = 0.5 * (lo + hi);
    (md1_wait_cdf(mid, lambda, D) >= q ? hi : lo) = mid;
  }
  return 0.5 * (lo + hi);
}

// One channel, one die: every read queues at the die, whose service is
// deterministic (tCMD + tR + the 4 KiB's way out over the channel). The rest
// of the path (firmware, DMA, PCIe) adds a constant, measured at a low rate.
json md1_run(const std::string& name, double iops, uint64_t requests) {
  return run_ssdvp(name, "configs/small.yaml",
                   {"flash.channels=1", "flash.dies_per_channel=1", "flash.blocks_per_plane=2048",
                    "workload.synthetic.read_fraction=1", "workload.synthetic.requests=" + std::to_string(requests),
                    "workload.synthetic.iops=" + std::to_string(iops), "workload.synthetic.arrival=poisson",
                    "host.mode=open", "host.queue_depth=256", "precondition.fill=1.0"});
}

// The sampling spread (standard deviations) of the mean and the p99 waiting
// time of n customers of an M/D/1 queue that starts empty: reps replications
// of Lindley's recursion W' = max(0, W + D - A), A ~ Exp(lambda).
struct Spread {
  double mean_sd, p99_sd;
};
Spread md1_spread(double lambda, double D, size_t n, int reps) {
  std::mt19937_64 g(99);
  std::exponential_distribution<double> a(lambda);
  std::vector<double> w(n), means, p99s;
  for (int r = 0; r < reps; ++r) {
    double x = 0, sum = 0;
    for (size_t i = 0; i < n; ++i) {
      w[i] = x;
      sum += x;
      x = std::max(0.0, x + D - a(g));
    }
    means.push_back(sum / double(n));
    std::nth_element(w.begin(), w.begin() + long(0.99 * double(n)), w.end());
    p99s.push_back(w[size_t(0.99 * double(n))]);
  }
  auto sd = [](const std::vector<double>& v) {
    double m = 0, q = 0;
    for (double x : v) m += x / double(v.size());
    for (double x : v) q += (x - m) * (x - m) / double(v.size() - 1);
    return std::sqrt(q);
  };
  return {sd(means), sd(p99s)};
}

TEST(MD1, PoissonReadsToOneDie) {
  const double idle_iops = 1000;
  const json idle = md1_run("md1_idle", idle_iops, 3000);
  ASSERT_TRUE(idle.contains("latency_us"));
  const double D = sec(idle, "flash.timing.cmd") + sec(idle, "flash.timing.read") +
                   bytes(idle, "nvme.lba_size") / (num(idle, "flash.channel.mbps") * 1e6);
  // the idle run's own waiting (P-K at its rho) taken out of the base
  const double rho0 = idle_iops * D;
  const double base_us = idle["latency_us"]["read"]["mean"].get<double>() - 1e6 * rho0 * D / (2 * (1 - rho0));
  const size_t n = 100000;
  for (double rho : {0.5, 0.8}) {
    const double lambda = rho / D;
    const json s = md1_run("md1_" + std::to_string(int(rho * 100)), lambda, n);
    ASSERT_TRUE(s.contains("latency_us"));
    const double mean_us = s["latency_us"]["read"]["mean"].get<double>();
    const double p99_us = s["latency_us"]["read"]["p99"].get<double>();
    const double want_mean = base_us + 1e6 * rho * D / (2 * (1 - rho));  // Pollaczek-Khinchine
    const double want_p99 = base_us + 1e6 * md1_wait_quantile(0.99, lambda, D);
    const Spread sp = md1_spread(lambda, D, n, 40);
    std::printf(
        "M/D/1 rho %.2f (D %.2f us, rest of the path %.2f us): mean %.2f us (formula %.2f, sampling sd %.2f), "
        "p99 %.2f us (formula %.2f, sampling sd %.2f)\n",
        rho, D * 1e6, base_us, mean_us, want_mean, sp.mean_sd * 1e6, p99_us, want_p99, sp.p99_sd * 1e6);
    // Four sampling standard deviations, plus 1 % for the firmware's own
    // queue in front of the die (a tandem, not a single server) and, for the
    // p99, the histogram's 0.8 %.
    EXPECT_NEAR(mean_us, want_mean, 4 * sp.mean_sd * 1e6 + 0.01 * want_mean) << "rho " << rho;
    EXPECT_NEAR(p99_us, want_p99, 4 * sp.p99_sd * 1e6 + 0.018 * want_p99) << "rho " << rho;
  }
}

}  // namespace
