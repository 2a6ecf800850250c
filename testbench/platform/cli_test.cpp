// cli_test.cpp - the ssdvp command as a user meets it (the real binary,
// SSDVP_BIN): exit codes, error messages that name the key or file:line,
// no half-written outputs, the parameter listing, and a clean small run.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "common/config.h"
#include "run_command.h"

namespace fs = std::filesystem;

namespace {

const std::string kSmall = SSDVP_SOURCE_DIR "/configs/small.yaml";

using ssdvp_test::contains;
using ssdvp_test::slurp;
using Result = ssdvp_test::CommandResult;

fs::path scratch(const std::string& name) { return ssdvp_test::scratch("ssdvp_cli", name); }

Result run_ssdvp(const fs::path& dir, const std::string& args) {
  return ssdvp_test::run_command(dir, std::string("'") + SSDVP_BIN + "' " + args);
}

}  // namespace

TEST(Cli, UnknownConfigKeyExitsTwoAndNamesTheKey) {
  const fs::path d = scratch("unknown_key");
  Result r = run_ssdvp(d, "run -c '" + kSmall + "' --set nvme.fetch_bust=4 -o '" + (d / "out").string() + "'");
  EXPECT_EQ(r.code, 2) << r.err;
  EXPECT_TRUE(contains(r.err, "nvme.fetch_bust")) << r.err;
  EXPECT_FALSE(fs::exists(d / "out" / "summary.json"));
  // The same from a YAML file (a valid platform plus one misspelt key).
  std::ofstream(d / "typo.yaml") << slurp(kSmall) << "\npcie:\n  latancy: 500ns\n";
  r = run_ssdvp(d, "run -c '" + (d / "typo.yaml").string() + "' -o '" + (d / "out").string() + "'");
  EXPECT_EQ(r.code, 2) << r.err;
  EXPECT_TRUE(contains(r.err, "pcie.latancy")) << r.err;
  EXPECT_FALSE(fs::exists(d / "out" / "summary.json"));
  // params also rejects it (it builds the same platform).
  r = run_ssdvp(d, "params --set cpu.cost.nonsense=1");
  EXPECT_EQ(r.code, 2) << r.err;
  EXPECT_TRUE(contains(r.err, "cpu.cost.nonsense")) << r.err;
}

// Every configuration the project ships loads: no unknown or repeated key, no
// bad value (`params` builds the same platform as `run`). A merge once left a
// key twice in configs/haml_table3_policies.yaml, and nothing ran that file.
TEST(Cli, EveryShippedConfigLoads) {
  const fs::path d = scratch("shipped_configs");
  int n = 0;
  for (const auto& e : fs::directory_iterator(SSDVP_SOURCE_DIR "/configs")) {
    if (e.path().extension() != ".yaml") continue;
    ++n;
    // from the repository's root, as the README runs them (their traces are relative to it)
    const Result r = ssdvp_test::run_command(d, "cd '" SSDVP_SOURCE_DIR "' && '" + std::string(SSDVP_BIN) +
                                                    "' params --format json -c '" + e.path().string() + "'");
    EXPECT_EQ(r.code, 0) << e.path() << ": " << r.err;
    EXPECT_TRUE(contains(r.out, "\"key\"")) << e.path();
  }
  EXPECT_GE(n, 10);
}

TEST(Cli, MisspeltKeyIsNamedEvenWhenTheConfigIsAlsoInvalid) {
  const fs::path d = scratch("typo_invalid");
  std::ofstream(d / "typo.yaml") << "flash:\n  channels: 4\n  dies_per_chanel: 2\n";
  Result r = run_ssdvp(d, "run -c '" + (d / "typo.yaml").string() + "' -o '" + (d / "out").string() + "'");
  EXPECT_EQ(r.code, 2) << r.err;
  EXPECT_TRUE(contains(r.err, "flash.dies_per_chanel")) << r.err;
}

TEST(Cli, BadValueNamesTheKey) {
  const fs::path d = scratch("bad_value");
  for (const std::string& kv :
       {std::string("flash.timing.read=20xs"), std::string("pcie.mbps=fast"), std::string("ftl.gc.policy=lru"),
        std::string("nvme.fetch_burst=0"), std::string("dram.size=12 parsecs")}) {
    const std::string key = kv.substr(0, kv.find('='));
    Result r = run_ssdvp(d, "run -c '" + kSmall + "' --set '" + kv + "' -o '" + (d / "out").string() + "'");
    EXPECT_EQ(r.code, 2) << kv << ": " << r.err;
    EXPECT_TRUE(contains(r.err, key)) << kv << ": " << r.err;
    EXPECT_FALSE(fs::exists(d / "out" / "summary.json")) << kv;
  }
}

TEST(Cli, MalformedTraceLineExitsTwoWithFileLineAndWritesNoOutputs) {
  const fs::path d = scratch("bad_trace");
  const fs::path trace = d / "bad.trace";
  std::ofstream(trace) << "0 0 0 8 0\n1000 0 8 8 1\n2000 0 16 8 0\n3000 0 zz 8 1\n4000 0 24 8 0\n";
  for (const std::string& fmt : {std::string("mqsim"), std::string("auto")}) {
    const fs::path out = d / ("out_" + fmt);
    // mqsim through --trace-format; auto through the older `run --format`, which still works and warns.
    const std::string opt = fmt == "mqsim" ? "--trace-format " : "--format ";
    Result r = run_ssdvp(d, "run -c '" + kSmall + "' --trace '" + trace.string() + "' " + opt + fmt +
                                " --set precondition.fill=0 -o '" + out.string() + "'");
    EXPECT_EQ(r.code, 2) << fmt << ": " << r.err;
    EXPECT_EQ(contains(r.err, "deprecated, use --trace-format"), fmt == "auto") << fmt << ": " << r.err;
    EXPECT_TRUE(contains(r.err, trace.string() + ":4")) << fmt << ": " << r.err;
    EXPECT_TRUE(contains(r.err, "expected")) << fmt << ": " << r.err;
    EXPECT_TRUE(contains(r.err, "zz")) << fmt << ": " << r.err;
    EXPECT_FALSE(fs::exists(out / "summary.json")) << fmt;
    EXPECT_FALSE(fs::exists(out / "timeseries.csv")) << fmt;
    EXPECT_FALSE(fs::exists(out / ".summary.json.tmp")) << fmt;
    EXPECT_FALSE(fs::exists(out / ".timeseries.csv.tmp")) << fmt;
  }
  // A trace that does not exist: exit 2, names the file.
  Result r = run_ssdvp(
      d, "run -c '" + kSmall + "' --trace '" + (d / "missing.trace").string() + "' -o '" + (d / "out").string() + "'");
  EXPECT_EQ(r.code, 2) << r.err;
  EXPECT_TRUE(contains(r.err, "missing.trace")) << r.err;
}

TEST(Cli, AStuckDeviceFailsTheRunInsteadOfHanging) {
  // Erases of 1,000 s: GC cannot free a block within host.stall_timeout.
  const fs::path d = scratch("stall");
  Result r = run_ssdvp(d, "run -c '" + kSmall +
                              "' --set flash.timing.erase=1000s --set host.stall_timeout=2s"
                              " --set precondition.random_drive_writes=1 -o '" +
                              (d / "out").string() + "'");
  EXPECT_EQ(r.code, 1) << r.err;
  EXPECT_TRUE(contains(r.err, "host.stall_timeout")) << r.err;
  EXPECT_FALSE(fs::exists(d / "out" / "summary.json"));
}

TEST(Cli, ParamsJsonListsEveryKeyWithADescription) {
  const fs::path d = scratch("params");
  Result r = run_ssdvp(d, "params -c '" + kSmall + "' --format json");
  ASSERT_EQ(r.code, 0) << r.err;
  const nlohmann::json a = nlohmann::json::parse(r.out);
  ASSERT_TRUE(a.is_array());
  std::set<std::string> keys;
  for (const auto& p : a) {
    const std::string k = p.at("key").get<std::string>();
    EXPECT_TRUE(keys.insert(k).second) << "declared twice: " << k;
    EXPECT_FALSE(p.at("description").get<std::string>().empty()) << k;
    EXPECT_FALSE(p.at("type").get<std::string>().empty()) << k;
    EXPECT_TRUE(p.contains("default")) << k;
    EXPECT_TRUE(p.contains("value")) << k;
  }
  // Every key the shipped configs use is declared.
  for (const char* cfg : {"/configs/small.yaml", "/configs/bench32g.yaml"}) {
    const std::string path = std::string(SSDVP_SOURCE_DIR) + cfg;
    if (!fs::exists(path)) continue;
    const ssdvp::Config c = ssdvp::Config::from_yaml_file(path);
    for (const auto& kv : c.values()) EXPECT_TRUE(keys.count(kv.first)) << cfg << ": " << kv.first;
  }
  // Every firmware operation has its cost key, and the models' keys are there.
  const char* ops[] = {
#define FW_OP(name, cycles, desc) "cpu.cost." #name,
#include "fw_ops.def"
  };
  for (const char* k : ops) EXPECT_TRUE(keys.count(k)) << k;
  for (const char* k : {"pcie.latency", "pcie.mbps", "nvme.lba_size", "nvme.access", "nvme.fetch", "nvme.completion",
                        "nvme.fetch_burst", "nvme.namespace_size", "cpu.clock_hz", "cpu.quantum", "ftl.max_transfer",
                        "host.queue_depth", "host.mode", "workload.source", "stats.interval", "log.level"})
    EXPECT_TRUE(keys.count(k)) << k;
  // The resolved value reflects the config file.
  for (const auto& p : a) {
    if (p["key"] == "flash.channels") {
      EXPECT_EQ(p["value"], "4");
    }
  }
  // The other formats list the same number of keys.
  r = run_ssdvp(d, "params -c '" + kSmall + "' --format markdown");
  ASSERT_EQ(r.code, 0) << r.err;
  size_t rows = 0;
  std::istringstream md(r.out);
  for (std::string line; std::getline(md, line);)
    if (line.rfind("| `", 0) == 0) ++rows;
  EXPECT_EQ(rows, keys.size());
}

TEST(Cli, IntervalHistogramsOnlyWhenAskedAndTheyAddUp) {
  const fs::path d = scratch("ihist");
  Result r =
      run_ssdvp(d, "run -c '" + kSmall + "' --set workload.synthetic.requests=2000 --set stats.interval=5ms -q -o '" +
                       (d / "plain").string() + "'");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_FALSE(fs::exists(d / "plain" / "latency_histograms.csv"));
  r = run_ssdvp(d, "run -c '" + kSmall +
                       "' --set workload.synthetic.requests=2000 --set stats.interval=5ms "
                       "--set stats.interval_histograms=true -q -o '" +
                       (d / "hist").string() + "'");
  ASSERT_EQ(r.code, 0) << r.err;
  const nlohmann::json s = nlohmann::json::parse(slurp(d / "hist" / "summary.json"));
  std::istringstream lines(slurp(d / "hist" / "latency_histograms.csv"));
  std::string line;
  std::getline(lines, line);
  EXPECT_EQ(line, "time_s,op,lo_us,hi_us,count");
  std::map<std::string, uint64_t> total;
  std::set<std::string> intervals;
  while (std::getline(lines, line)) {
    std::vector<std::string> c;
    std::stringstream ss(line);
    for (std::string x; std::getline(ss, x, ',');) c.push_back(x);
    ASSERT_EQ(c.size(), 5u) << line;
    EXPECT_LT(std::stod(c[2]), std::stod(c[3])) << line;
    total[c[1]] += std::stoull(c[4]);
    intervals.insert(c[0]);
  }
  EXPECT_GT(intervals.size(), 1u);  // several intervals, each its own histogram
  EXPECT_EQ(total["read"], s["latency_us"]["read"]["count"].get<uint64_t>());
  EXPECT_EQ(total["write"], s["latency_us"]["write"]["count"].get<uint64_t>());
}

TEST(Cli, SmallRunWritesSummaryAndTimeseries) {
  const fs::path d = scratch("run");
  const fs::path out = d / "out";
  Result r =
      run_ssdvp(d, "run -c '" + kSmall + "' --set workload.synthetic.requests=3000 --set stats.interval=5ms -q -o '" +
                       out.string() + "'");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_TRUE(r.out.empty()) << "--quiet printed: " << r.out;
  const nlohmann::json s = nlohmann::json::parse(slurp(out / "summary.json"));
  EXPECT_EQ(s["integrity"]["mismatches"], 0);
  EXPECT_GT(s["integrity"]["reads_checked"].get<uint64_t>(), 0u);
  EXPECT_EQ(s["host"]["reads"].get<uint64_t>() + s["host"]["writes"].get<uint64_t>(), 3000u);
  EXPECT_EQ(s["host"]["errors"], 0);
  EXPECT_EQ(s["flash"]["violations"], 0);
  EXPECT_EQ(s["cpu"]["bus_errors"], 0);
  EXPECT_EQ(s["nvme"]["invalid_doorbells"], 0);
  EXPECT_EQ(s["nvme"]["ring_errors"], 0);
  EXPECT_EQ(s["run"]["finished"], true);
  EXPECT_EQ(s["config"]["flash.channels"], "4");
  const std::string csv = slurp(out / "timeseries.csv");
  std::istringstream lines(csv);
  std::string header;
  std::getline(lines, header);
  EXPECT_EQ(header,
            "time_s,read_mbps,write_mbps,read_iops,write_iops,gc_lba_moves,erases,free_blocks,"
            "read_p50_us,read_p99_us,read_p999_us,read_max_us,write_p50_us,write_p99_us,write_p999_us,write_max_us");
  size_t rows = 0;
  for (std::string line; std::getline(lines, line);) {
    ++rows;
    EXPECT_EQ(std::count(line.begin(), line.end(), ','), 15) << line;
  }
  EXPECT_GE(rows, 1u);
  // The whole latency distribution: buckets ascending, disjoint, summing to
  // the count, and covering the reported p99 and max.
  for (const char* op : {"read", "write"}) {
    const auto& l = s["latency_us"][op];
    ASSERT_TRUE(l["histogram"].is_array()) << op;
    uint64_t n = 0;
    double prev_hi = 0, p99_at = -1;
    for (const auto& b : l["histogram"]) {
      const double lo = b[0], hi = b[1];
      EXPECT_LT(lo, hi) << op;
      EXPECT_GE(lo, prev_hi) << op;
      prev_hi = hi;
      n += b[2].get<uint64_t>();
      if (p99_at < 0 && double(n) >= 0.99 * l["count"].get<double>()) p99_at = lo;
    }
    EXPECT_EQ(n, l["count"].get<uint64_t>()) << op;
    EXPECT_GE(prev_hi, l["max"].get<double>()) << op;
    EXPECT_NEAR(p99_at, l["p99"].get<double>(), l["p99"].get<double>() / 64) << op;
  }
  // Per-interval latency percentiles: p50 <= p99 <= max where there were requests.
  std::istringstream again(csv);
  std::getline(again, header);
  size_t with_reads = 0;
  for (std::string line; std::getline(again, line);) {
    std::vector<std::string> c;
    std::stringstream ss(line);
    for (std::string x; std::getline(ss, x, ',');) c.push_back(x);
    c.resize(16);
    if (c[8].empty()) continue;
    ++with_reads;
    EXPECT_LE(std::stod(c[8]), std::stod(c[9])) << line;
    EXPECT_LE(std::stod(c[9]), std::stod(c[11])) << line;
    EXPECT_LE(std::stod(c[11]), s["latency_us"]["read"]["max"].get<double>()) << line;
  }
  EXPECT_GE(with_reads, 1u);
  EXPECT_FALSE(fs::exists(out / ".summary.json.tmp"));
  EXPECT_FALSE(fs::exists(out / ".timeseries.csv.tmp"));
}

// ftl.dram_bytes is what the firmware's tables take in the controller's DRAM:
// HAML's per-slice tables add to double's, and more slices take more.
TEST(Cli, SummaryDramBytesGrowWithThePlacementsTables) {
  const fs::path d = scratch("dram");
  const auto dram = [&](const std::string& name, const std::string& sets) -> uint64_t {
    const fs::path out = d / name;
    Result r = run_ssdvp(
        d, "run -c '" + kSmall + "' --set workload.synthetic.requests=200 -q -o '" + out.string() + "' " + sets);
    EXPECT_EQ(r.code, 0) << r.err;
    if (r.code != 0) return 0;
    return nlohmann::json::parse(slurp(out / "summary.json"))["ftl"]["dram_bytes"].get<uint64_t>();
  };
  const uint64_t dbl = dram("double", "--set ftl.placement.policy=double");
  const uint64_t big = dram("haml_big", "--set ftl.placement.policy=haml --set ftl.hot.slice_size=1MiB");
  const uint64_t small = dram("haml_small", "--set ftl.placement.policy=haml --set ftl.hot.slice_size=64KiB");
  EXPECT_GT(dbl, 0u);
  EXPECT_GT(big, dbl);
  EXPECT_GT(small, big);
}

TEST(Cli, UsageErrorsExitTwo) {
  const fs::path d = scratch("usage");
  EXPECT_EQ(run_ssdvp(d, "").code, 2);
  Result r = run_ssdvp(d, "frobnicate");
  EXPECT_EQ(r.code, 2);
  EXPECT_TRUE(contains(r.err, "frobnicate")) << r.err;
  EXPECT_EQ(run_ssdvp(d, "run --no-such-option").code, 2);
  r = run_ssdvp(d, "run -c '" + (d / "nope.yaml").string() + "'");
  EXPECT_EQ(r.code, 2) << r.err;
  EXPECT_TRUE(contains(r.err, "nope.yaml")) << r.err;
  EXPECT_EQ(run_ssdvp(d, "--version").code, 0);
}

// A refused combination (the run plan's table, platform/run/run_plan.h) stops
// the run before anything is built: exit 2, the row's message, no outputs;
// `ssdvp params --rules` lists the table.
TEST(Cli, ARefusedCombinationExitsTwoNamingBothSidesAndWritesNothing) {
  const fs::path d = scratch("plan");
  Result r = run_ssdvp(
      d, "run -c '" + kSmall + "' --set power.cuts=2 --set power.cut_at=1ms -q -o '" + (d / "out").string() + "'");
  EXPECT_EQ(r.code, 2) << r.err;
  EXPECT_TRUE(contains(r.err, "config key 'power.cuts': not with power.cut_at (one or the other)")) << r.err;
  EXPECT_FALSE(fs::exists(d / "out" / "summary.json"));
  r = run_ssdvp(d, "run -c '" + kSmall + "' --precondition-only -q -o '" + (d / "out").string() + "'");
  EXPECT_EQ(r.code, 2) << r.err;
  EXPECT_TRUE(contains(r.err, "--precondition-only: needs --save-state DIR")) << r.err;
  r = run_ssdvp(d, "params --rules");
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_TRUE(contains(r.out, "| `flows.count` | not with nvme.command_set zns | one host writes the zones |"))
      << r.out;
}
