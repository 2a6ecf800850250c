// gc_schedule_run_test.cpp - ftl.gc.trigger and ftl.gc.preempt through the
// real ssdvp binary on configs/small.yaml aged full (1 GiB of flash, 8 dies,
// GC at 16 free blocks): what each trigger is for, shown on the run's own
// counters, not assumed.
//  - watermarks: GC in episodes whose size follows the gap between the marks;
//  - idle: background GC in the gaps of a bursty load, stopped by the host;
//  - autossd: the share controller holds the free pool at its target after a
//    step in write rate;
//  - preempt: host reads go ahead of GC's queued operations;
//  - every trigger clean under power cuts without PLP (ftl.gc.durable), and
//    bad parameters refused naming their key.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "ssdvp_run.h"

namespace fs = std::filesystem;
using nlohmann::json;
using ssdvp_test::run_command;
using ssdvp_test::scratch;

namespace {

// The aged drive: filled, then one drive-write of random overwrites.
const std::string kAged = " --set precondition.fill=1 --set precondition.random_drive_writes=1";
const std::string kWrites = " --set workload.synthetic.read_fraction=0";

struct RunResult {
  json summary;
  fs::path out;
};

RunResult run(const std::string& name, const std::string& options) {
  const fs::path d = scratch("ssdvp_gcsched", name);
  const std::string cmd = ssdvp_test::ssdvp_run("small.yaml", "-o '" + (d / "out").string() + "'" + kAged + options);
  const ssdvp_test::CommandResult r = run_command(d, cmd);
  EXPECT_EQ(r.code, 0) << cmd << "\n" << r.err;
  if (r.code != 0) return {json::object(), d / "out"};
  return {ssdvp_test::summary(d / "out"), d / "out"};
}

const json& sched(const RunResult& r) { return r.summary["ftl"]["gc_schedule"]; }

uint64_t u(const json& j) { return j.get<uint64_t>(); }

// timeseries.csv's free_blocks column, by time.
std::vector<std::pair<double, double>> free_blocks(const fs::path& out) {
  std::ifstream f(out / "timeseries.csv");
  std::string line;
  std::getline(f, line);
  int col = 0, at = -1;
  for (std::stringstream h(line); std::getline(h, line, ',');) {
    if (line == "free_blocks") at = col;
    ++col;
  }
  EXPECT_GE(at, 0);
  std::vector<std::pair<double, double>> v;
  while (std::getline(f, line)) {
    std::stringstream s(line);
    std::string cell;
    double t = 0, fb = 0;
    for (int c = 0; std::getline(s, cell, ','); ++c) {
      if (c == 0) t = std::stod(cell);
      if (c == at) fb = std::stod(cell);
    }
    v.emplace_back(t, fb);
  }
  return v;
}

}  // namespace

// watermarks at a quarter of the aged drive's write rate (open loop): GC runs
// in episodes that last until the pool is back at the high mark, so a wider
// gap between the marks gives fewer, longer episodes of more victims each.
// (In closed loop the host keeps the pool at the reserve and GC never stops:
// one episode whatever the trigger.) The summary names the trigger.
TEST(GcSchedule, WatermarkEpisodesFollowTheGapBetweenTheMarks) {
  const std::string load = kWrites +
                           " --set workload.synthetic.requests=30000 --set workload.synthetic.iops=3000"
                           " --set host.mode=open";
  const RunResult th = run("threshold", load);
  const RunResult narrow = run("wm-narrow", load + " --set ftl.gc.trigger=watermarks --set ftl.gc.high_blocks=24");
  const RunResult wide = run("wm-wide", load + " --set ftl.gc.trigger=watermarks --set ftl.gc.high_blocks=80");
  for (const RunResult* r : {&th, &narrow, &wide}) {
    ASSERT_TRUE(r->summary.contains("ftl"));
    EXPECT_EQ(r->summary["integrity"]["mismatches"], 0);
    EXPECT_EQ(r->summary["host"]["errors"], 0);
    EXPECT_GT(u(sched(*r)["episodes_closed"]), 1u);
  }
  EXPECT_EQ(sched(th)["trigger"], "threshold");
  EXPECT_EQ(sched(wide)["trigger"], "watermarks");
  const auto per_episode = [](const RunResult& r) {
    return double(u(r.summary["ftl"]["gc_runs"])) / double(u(sched(r)["episodes"]));
  };
  EXPECT_GT(per_episode(wide), 3 * per_episode(narrow));
  EXPECT_GT(per_episode(narrow), per_episode(th));
  EXPECT_GT(sched(wide)["episode_mean_s"].get<double>(), 4 * sched(narrow)["episode_mean_s"].get<double>());
  EXPECT_LT(u(sched(wide)["episodes"]), u(sched(narrow)["episodes"]));
  // the pool the wide marks hold is spare that holds no data: WAF rises
  EXPECT_GT(wide.summary["ftl"]["spare"]["free_blocks_mean"].get<double>(),
            th.summary["ftl"]["spare"]["free_blocks_mean"].get<double>() + 16);
  EXPECT_GT(wide.summary["ftl"]["waf"].get<double>(), th.summary["ftl"]["waf"].get<double>());
}

// idle: in the 200 ms gaps of a bursty open-loop load the host is idle after
// 2 ms, the timer wakes the firmware, and background GC collects up to the
// high mark; the next burst stops it. The default trigger never collects in
// a gap (the pool is at its mark), so the bursts meet GC.
TEST(GcSchedule, IdleGcCollectsInTheGapsOfABurstyLoad) {
  const std::string load =
      kWrites +
      " --set workload.synthetic.requests=20000 --set workload.synthetic.iops=40000 --set host.mode=open"
      " --set workload.synthetic.arrival=bursts --set workload.synthetic.burst_requests=2000"
      " --set workload.synthetic.burst_gap=200ms";
  const RunResult th = run("bursts-threshold", load);
  const RunResult idle =
      run("bursts-idle", load + " --set ftl.gc.trigger=idle --set ftl.gc.high_blocks=64 --set ftl.gc.idle_after=2ms");
  ASSERT_TRUE(th.summary.contains("ftl"));
  ASSERT_TRUE(idle.summary.contains("ftl"));
  EXPECT_EQ(idle.summary["integrity"]["mismatches"], 0);
  EXPECT_EQ(idle.summary["host"]["errors"], 0);
  EXPECT_EQ(u(sched(th)["idle_victims"]), 0u);
  EXPECT_EQ(u(sched(th)["idle_wakeups"]), 0u);
  EXPECT_GT(u(sched(idle)["idle_victims"]), 20u) << "background GC in the gaps";
  EXPECT_GE(u(sched(idle)["idle_wakeups"]), 5u) << "one timer wake-up per gap at least (10 bursts)";
  // at the start of a burst the pool is above the foreground mark: the burst
  // writes into it without GC until it falls to 16 again
  EXPECT_GT(idle.summary["ftl"]["spare"]["free_blocks_mean"].get<double>(),
            th.summary["ftl"]["spare"]["free_blocks_mean"].get<double>() + 8);
}

// autossd: a step in write rate (3,000 writes/s, then 8,000: a quarter and
// then about three quarters of what the aged drive sustains): the share
// controller lets the pool dip after the step, then raises GC's share until
// the pool is back at its target (16 free blocks), in both phases, never at
// the reserve (4).
TEST(GcSchedule, AutossdHoldsTheFreePoolAtItsTarget) {
  const fs::path d = scratch("ssdvp_gcsched", "autossd-trace");
  // mqsim trace: time_ns device lba sectors type (0: write); 4 KiB random writes
  std::ofstream t(d / "step.trace");
  uint64_t x = 88172645463325252ull, ns = 0;
  const uint64_t lbas = (896ull << 20) / 4096;
  const int slow = 15000, fast = 40000;
  for (int i = 0; i < slow + fast; ++i) {
    x ^= x << 13, x ^= x >> 7, x ^= x << 17;
    ns += i < slow ? 333333 : 125000;
    t << ns << " 0 " << (x % lbas) * 8 << " 8 0\n";
  }
  t.close();
  const RunResult r =
      run("autossd-step", " --set workload.source=trace --set workload.trace='" + (d / "step.trace").string() +
                              "' --set workload.format=mqsim --set host.mode=open"
                              " --set stats.interval=250ms --set ftl.gc.trigger=autossd"
                              " --set ftl.gc.high_blocks=64");
  ASSERT_TRUE(r.summary.contains("ftl"));
  EXPECT_EQ(r.summary["integrity"]["mismatches"], 0);
  EXPECT_EQ(r.summary["host"]["errors"], 0);
  EXPECT_GT(u(sched(r)["autossd_updates"]), 5000u) << "one per ms of the 10 s run";
  const double share = sched(r)["autossd_share_mean"];
  EXPECT_GT(share, 0.05);
  EXPECT_LT(share, 0.9);
  const auto v = free_blocks(r.out);
  ASSERT_GT(v.size(), 30u);
  const double step_s = slow * 333333e-9, end_s = step_s + fast * 125000e-9;
  double a = 0, b = 0, dip = 1e9, lo = 1e9;
  int na = 0, nb = 0;
  for (const auto& [tm, fb] : v) {
    lo = std::min(lo, fb);
    if (tm > 0.3 * step_s && tm <= step_s) a += fb, ++na;            // the slow phase, settled
    if (tm > step_s && tm <= step_s + 2.0) dip = std::min(dip, fb);  // right after the step
    if (tm > end_s - 1.5 && tm <= end_s) b += fb, ++nb;              // the fast phase, settled
  }
  ASSERT_GT(na, 0);
  ASSERT_GT(nb, 0);
  EXPECT_NEAR(a / na, 18.0, 5.0) << "slow phase";
  EXPECT_LT(dip, 16.0) << "the step takes the pool below its target first";
  EXPECT_NEAR(b / nb, 18.0, 5.0) << "fast phase, settled";
  EXPECT_GT(lo, 4.0) << "never at the reserve";
}

// ftl.gc.preempt: host reads go ahead of GC's queued operations; with it off
// nothing is preempted. Reads wait less behind GC. Open loop at about half
// the drive's rate: in closed loop the pool sits at the reserve, where GC's
// operations carry no hint (host writes wait for GC there).
TEST(GcSchedule, PreemptionLetsHostReadsPassQueuedGc) {
  const std::string load =
      " --set workload.synthetic.requests=40000 --set workload.synthetic.read_fraction=0.5"
      " --set host.mode=open --set workload.synthetic.iops=12000";
  const RunResult off = run("preempt-off", load);
  const RunResult on = run("preempt-reads", load + " --set ftl.gc.preempt=reads");
  ASSERT_TRUE(off.summary.contains("flash"));
  ASSERT_TRUE(on.summary.contains("flash"));
  ssdvp_test::expect_clean_run(on.summary, 1000);
  EXPECT_EQ(u(off.summary["flash"]["gc_preemptions"]), 0u);
  EXPECT_GT(u(on.summary["flash"]["gc_preemptions"]), 1000u);
  EXPECT_LT(on.summary["latency_us"]["read"]["mean"].get<double>(),
            off.summary["latency_us"]["read"]["mean"].get<double>());
}

// ftl.gc.hold: with `die` a GC job holds its victim's die from its first
// relocation read to its erase, so host reads that meet it wait for the whole
// job (milliseconds), not for one page move: the read tail grows, the channel
// hold's more, and GC's decisions (WAF) barely move. Clean over power cuts
// with PLP (the operations a hold kept back still take effect).
TEST(GcSchedule, VictimHoldMakesHostReadsWaitForWholeJobs) {
  const std::string load =
      " --set workload.synthetic.requests=40000 --set workload.synthetic.read_fraction=0.3"
      " --set host.mode=open --set workload.synthetic.iops=2000";
  const RunResult page = run("hold-page", load);
  const RunResult die = run("hold-die", load + " --set ftl.gc.hold=die");
  const RunResult channel = run("hold-channel", load + " --set ftl.gc.hold=channel");
  for (const RunResult* r : {&page, &die, &channel}) ASSERT_TRUE(r->summary.contains("flash"));
  ssdvp_test::expect_clean_run(die.summary, 1000);
  ssdvp_test::expect_clean_run(channel.summary, 1000);
  EXPECT_EQ(u(page.summary["flash"]["gc_holds"]), 0u);
  EXPECT_EQ(u(page.summary["flash"]["gc_held_ops"]), 0u);
  // one hold per victim that had anything to relocate
  EXPECT_GT(u(die.summary["flash"]["gc_holds"]), 100u);
  EXPECT_LE(u(die.summary["flash"]["gc_holds"]), u(die.summary["ftl"]["gc_runs"]) + 8);  // (victims open at the start)
  EXPECT_GT(u(die.summary["flash"]["gc_held_ops"]), 100u);
  EXPECT_GT(u(channel.summary["flash"]["gc_held_ops"]), u(die.summary["flash"]["gc_held_ops"]));
  auto p9999 = [](const RunResult& r) { return r.summary["latency_us"]["read"]["p9999"].get<double>(); };
  EXPECT_GT(p9999(die), 2 * p9999(page));
  EXPECT_GT(p9999(channel), p9999(die));
  EXPECT_NEAR(die.summary["ftl"]["waf"].get<double>(), page.summary["ftl"]["waf"].get<double>(),
              0.05 * page.summary["ftl"]["waf"].get<double>());
  const RunResult cuts =
      run("hold-cuts", load + " --set ftl.gc.hold=channel --set power.cuts=4 --set power.cuts_span=8s");
  ASSERT_TRUE(cuts.summary.contains("power"));
  EXPECT_EQ(cuts.summary["power"]["violations"], 0);
  EXPECT_GT(u(cuts.summary["power"]["cuts"]), 0u);
  EXPECT_EQ(cuts.summary["integrity"]["mismatches"], 0);
}

// Every trigger (and preemption) keeps flushed data over power cuts without
// power-loss protection (ftl.gc.durable: a victim's erase waits for its data).
TEST(GcSchedule, EveryTriggerIsCleanUnderPowerCuts) {
  for (const std::string trig : {"watermarks", "idle", "autossd"}) {
    const RunResult r =
        run("cuts-" + trig, kWrites + " --set workload.synthetic.requests=20000 --set ftl.gc.trigger=" + trig +
                                " --set ftl.gc.high_blocks=48 --set ftl.gc.idle_after=100us"
                                " --set ftl.gc.preempt=all --set ftl.gc.durable=1 --set power.plp=false"
                                " --set power.cuts=6 --set power.cuts_span=2s");
    ASSERT_TRUE(r.summary.contains("power")) << trig;
    EXPECT_EQ(r.summary["power"]["violations"], 0) << trig;
    EXPECT_GT(u(r.summary["power"]["cuts"]), 0u) << trig;
    EXPECT_EQ(r.summary["integrity"]["mismatches"], 0) << trig;
  }
}

// Bad parameters are refused, naming the key.
TEST(GcSchedule, BadParametersAreRefusedNamingTheKey) {
  const fs::path d = scratch("ssdvp_gcsched", "bad");
  using ssdvp_test::expect_refused;
  using ssdvp_test::ssdvp_run;
  expect_refused(d, ssdvp_run("small.yaml", "--set ftl.gc.trigger=watermarks --set ftl.gc.high_blocks=16"),
                 "ftl.gc.high_blocks");
  // a hold with a durable GC would deadlock (the erase waits for host programs the hold keeps back)
  expect_refused(d, ssdvp_run("small.yaml", "--set ftl.gc.hold=die --set ftl.gc.durable=1"), "ftl.gc.hold");
  expect_refused(d, ssdvp_run("small.yaml", "--set ftl.gc.hold=die --set power.plp=false"), "ftl.gc.hold");
  expect_refused(d, ssdvp_run("small.yaml", "--set ftl.gc.hold=victim"), "ftl.gc.hold");
  expect_refused(d, ssdvp_run("small.yaml", "--set ftl.gc.trigger=idle --set ftl.gc.high_blocks=8"),
                 "ftl.gc.high_blocks");
  expect_refused(d,
                 ssdvp_run("small.yaml",
                           "--set ftl.gc.trigger=idle --set ftl.gc.high_blocks=64 "
                           "--set ftl.gc.idle_after=0s"),
                 "ftl.gc.idle_after");
  expect_refused(d,
                 ssdvp_run("small.yaml",
                           "--set ftl.gc.trigger=autossd --set ftl.gc.high_blocks=64 "
                           "--set ftl.gc.autossd.kp=0 --set ftl.gc.autossd.ki=0"),
                 "ftl.gc.autossd");
  // a high mark the spare cannot hold (256 spare blocks on this drive)
  expect_refused(d, ssdvp_run("small.yaml", "--set ftl.gc.trigger=watermarks --set ftl.gc.high_blocks=250"),
                 "ftl.gc.high_blocks");
  expect_refused(d, ssdvp_run("small.yaml", "--set ftl.gc.trigger=sometimes"), "ftl.gc.trigger");
  expect_refused(d, ssdvp_run("small.yaml", "--set ftl.gc.preempt=maybe"), "ftl.gc.preempt");
  expect_refused(d, ssdvp_run("small.yaml", "--set workload.synthetic.arrival=bursts"), "workload.synthetic.iops");
  expect_refused(d,
                 ssdvp_run("small.yaml",
                           "--set workload.synthetic.arrival=bursts --set workload.synthetic.iops=100 "
                           "--set workload.synthetic.burst_requests=0"),
                 "burst_requests");
}
