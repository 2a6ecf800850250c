// flows_test.cpp - several hosts sharing one SSD through the ssdvp command
// (platform/host/flows.h): each flow's figures add up to the run's totals,
// every read checks out with flows on their own queue pairs under round
// robin and weighted round robin, and a bad flow key is an error naming it.
#include <gtest/gtest.h>

#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <string>

#include "run_command.h"

namespace fs = std::filesystem;
using ssdvp_test::contains;

namespace {

const std::string kCfg = SSDVP_SOURCE_DIR "/configs/small.yaml";

// Two tenants: a reader at QD 4 (high) and a writer at QD 16 (low), small
// enough for a test, with the drive filled so the writer's GC runs.
const std::string kTwo =
    "--set precondition.fill=1 --set flows.count=2 "
    "--set flows.0.name=reader --set flows.0.priority=high --set flows.0.host.queue_depth=4 "
    "--set flows.0.workload.synthetic.read_fraction=0.9 --set flows.0.workload.synthetic.requests=3000 "
    "--set flows.1.name=writer --set flows.1.priority=low --set flows.1.host.queue_depth=16 "
    "--set flows.1.workload.synthetic.read_fraction=0 --set flows.1.workload.synthetic.requests=12000 ";

ssdvp_test::CommandResult run(const fs::path& d, const std::string& args) {
  return ssdvp_test::run_command(
      d, std::string("'") + SSDVP_BIN + "' run -q -c '" + kCfg + "' -o '" + (d / "out").string() + "' " + args);
}

nlohmann::json summary(const fs::path& d) { return nlohmann::json::parse(ssdvp_test::slurp(d / "out/summary.json")); }

void expect_flows_add_up(const nlohmann::json& j) {
  const auto& flows = j["flows"]["flows"];
  uint64_t requests = 0, reads = 0, writes = 0, rbytes = 0, wbytes = 0, rlat = 0, wlat = 0;
  for (const auto& f : flows) {
    requests += f["requests"].get<uint64_t>();
    reads += f["reads"].get<uint64_t>();
    writes += f["writes"].get<uint64_t>();
    rbytes += f["read_bytes"].get<uint64_t>();
    wbytes += f["write_bytes"].get<uint64_t>();
    rlat += f["latency_us"]["read"]["count"].get<uint64_t>();
    wlat += f["latency_us"]["write"]["count"].get<uint64_t>();
    EXPECT_GT(f["iops"].get<double>(), 0.0) << f.dump();
  }
  EXPECT_EQ(requests, j["workload"]["requests"].get<uint64_t>());
  EXPECT_EQ(reads, j["host"]["reads"].get<uint64_t>());
  EXPECT_EQ(writes, j["host"]["writes"].get<uint64_t>());
  EXPECT_EQ(rlat, j["latency_us"]["read"]["count"].get<uint64_t>());
  EXPECT_EQ(wlat, j["latency_us"]["write"]["count"].get<uint64_t>());
  EXPECT_EQ(rbytes / 4096, reads) << "4 KiB requests";
  EXPECT_EQ(wbytes / 4096, writes);
}

TEST(Flows, PerFlowFiguresAddUpAndEveryReadChecksOutUnderRoundRobin) {
  const fs::path d = ssdvp_test::scratch("flows", "rr");
  const auto r = run(d, kTwo + "--set host.streams=none");  // the default, set: allowed
  ASSERT_EQ(r.code, 0) << r.err;
  const auto j = summary(d);
  ASSERT_TRUE(j.contains("flows"));
  EXPECT_EQ(j["flows"]["arbitration"], "rr");
  const auto& flows = j["flows"]["flows"];
  ASSERT_EQ(flows.size(), 2u);
  EXPECT_EQ(flows[0]["name"], "reader");
  EXPECT_EQ(flows[0]["qid"], 1);
  EXPECT_EQ(flows[1]["qid"], 2);
  EXPECT_EQ(flows[0]["queue_depth"], 4);
  EXPECT_EQ(flows[1]["queue_depth"], 16);
  EXPECT_EQ(flows[0]["requests"], 3000);
  EXPECT_EQ(flows[1]["requests"], 12000);
  EXPECT_EQ(flows[1]["reads"], 0);
  // disjoint halves of the namespace, in flow order
  EXPECT_EQ(flows[0]["lba_base"], 0);
  EXPECT_EQ(flows[1]["lba_base"], flows[0]["lbas"]);
  expect_flows_add_up(j);
  EXPECT_EQ(j["integrity"]["mismatches"], 0);
  EXPECT_GT(j["integrity"]["reads_checked"].get<uint64_t>(), 2000u);
  EXPECT_GT(j["ftl"]["gc_runs"].get<uint64_t>(), 0u) << "the writer should make GC run";
  EXPECT_TRUE(contains(ssdvp_test::slurp(d / "out/summary.json"), "\"flows\""));
  EXPECT_FALSE(j["flows"].contains("shared_lbas")) << "disjoint flows: the scoreboard alone checks";
}

TEST(Flows, WeightedRoundRobinRunsWithTheWeightsTheHostSet) {
  const fs::path d = ssdvp_test::scratch("flows", "wrr");
  const auto r = run(d, kTwo +
                            "--set nvme.arbitration=wrr --set flows.weight_high=8 --set flows.weight_low=2 "
                            "--set flows.arbitration_burst=1 --set flows.1.start=1ms --set flows.0.stop=10s "
                            "--set flows.1.host.mode=open --set flows.1.workload.synthetic.iops=20000");
  ASSERT_EQ(r.code, 0) << r.err;
  const auto j = summary(d);
  EXPECT_EQ(j["flows"]["arbitration"], "wrr");
  // Get Features would read back AB 1, LPW 1, MPW 0, HPW 7
  EXPECT_EQ(j["flows"]["arbitration_feature"].get<uint32_t>(), 1u | 1u << 8 | 7u << 24);
  expect_flows_add_up(j);
  EXPECT_EQ(j["integrity"]["mismatches"], 0);
  EXPECT_EQ(j["host"]["errors"], 0);
}

// Every flow's requests are on the timeline, each flow on a track of its own
// (flow 0's is "requests", flow i's "<name> requests").
TEST(Flows, EveryFlowHasItsRequestsOnTheTimeline) {
  const fs::path d = ssdvp_test::scratch("flows", "timeline");
  const auto r = run(d, kTwo + "--set timeline.duration=0s --set timeline.file='" + (d / "tl.json").string() + "'");
  ASSERT_EQ(r.code, 0) << r.err;
  const auto ev = nlohmann::json::parse(ssdvp_test::slurp(d / "tl.json"));
  std::map<int, std::string> track;  // tid -> its name, on the host's pid 1
  for (const auto& e : ev)
    if (e["ph"] == "M" && e["name"] == "thread_name" && e["pid"] == 1)
      track[e["tid"].get<int>()] = e["args"]["name"].get<std::string>();
  uint64_t reader = 0, writer = 0;
  for (const auto& e : ev) {
    if (e["ph"] != "X" || e["pid"] != 1) continue;
    const std::string& n = track[e["tid"].get<int>()];
    writer += n.rfind("writer requests", 0) == 0;
    reader += n.rfind("requests", 0) == 0;
  }
  const auto j = summary(d);
  const auto& flows = j["flows"]["flows"];
  EXPECT_EQ(reader, flows[0]["requests"].get<uint64_t>());
  EXPECT_EQ(writer, flows[1]["requests"].get<uint64_t>());
}

// Two flows reading and writing the same 32 LBAs, each from its own queue
// pair with nothing ordering them (flows.<i>.offset): writes of both are in
// flight on one LBA at once, reads race them, and every read returns what
// host/shared_lbas.h's rule allows.
const std::string kShared =
    "--set flows.count=2 --set flows.0.offset=0 --set flows.1.offset=0 "
    "--set flows.0.share=0.00014 --set flows.1.share=0.00014 "  // 32 of 229,376 LBAs
    "--set flows.0.host.queue_depth=16 --set flows.1.host.queue_depth=16 "
    "--set flows.0.workload.synthetic.read_fraction=0.5 --set flows.0.workload.synthetic.requests=6000 "
    "--set flows.1.workload.synthetic.read_fraction=0.5 --set flows.1.workload.synthetic.requests=6000 "
    "--set flows.1.workload.synthetic.seed=7 ";

TEST(Flows, TwoFlowsWritingOneRangeRaceAndEveryReadIsOneTheRuleAllows) {
  const fs::path d = ssdvp_test::scratch("flows", "shared");
  const auto r = run(d, kShared);
  ASSERT_EQ(r.code, 0) << r.err;
  const auto j = summary(d);
  const auto& flows = j["flows"]["flows"];
  EXPECT_EQ(flows[0]["lba_base"], 0);
  EXPECT_EQ(flows[1]["lba_base"], 0);
  EXPECT_EQ(flows[0]["lbas"], flows[1]["lbas"]);
  ASSERT_TRUE(j["flows"].contains("shared_lbas"));
  const auto& s = j["flows"]["shared_lbas"];
  EXPECT_TRUE(s["overlap"].get<bool>());
  EXPECT_EQ(flows[0]["lbas"], 32);
  EXPECT_GT(s["races"].get<uint64_t>(), 20u) << "writes of both queues in flight on one LBA";
  EXPECT_GT(s["ambiguous_reads"].get<uint64_t>(), 100u) << "reads with more than one acceptable content";
  EXPECT_GT(s["older_accepted"].get<uint64_t>(), 0u) << "reads a scoreboard without the rule would have failed";
  expect_flows_add_up(j);
  EXPECT_EQ(j["integrity"]["mismatches"], 0);
  EXPECT_GT(j["integrity"]["reads_checked"].get<uint64_t>(), 5000u);
  EXPECT_EQ(j["host"]["errors"], 0);
}

// flows.<i>.stop_queues: the writer deletes its queue pair at its stop. With
// abort and 8 command slots, commands still in its SQ complete with Command
// Aborted due to SQ Deletion (08h) and their writes never happen: the reader,
// on the same LBAs and going on after, reads the data from before them.
// With drain nothing is aborted.
TEST(Flows, AFlowDeletesItsQueuesAtItsStop) {
  const std::string both =
      "--set ftl.cmd_slots=8 --set flows.count=2 --set flows.0.offset=0 --set flows.1.offset=0 "
      "--set flows.0.share=0.01 --set flows.1.share=0.01 "
      "--set flows.0.host.mode=open --set flows.0.workload.synthetic.iops=5000 "
      "--set flows.0.workload.synthetic.read_fraction=1 --set flows.0.workload.synthetic.requests=1500 "
      "--set flows.1.host.queue_depth=32 --set flows.1.workload.synthetic.read_fraction=0 "
      "--set flows.1.workload.synthetic.requests=1000000 --set flows.1.stop=100ms ";
  const fs::path d = ssdvp_test::scratch("flows", "stop");
  for (const std::string mode : {"abort", "drain"}) {
    const auto r = run(d, both + "--set flows.1.stop_queues=" + mode);
    ASSERT_EQ(r.code, 0) << mode << "\n" << r.err;
    const auto j = summary(d);
    const auto& w = j["flows"]["flows"][1];
    EXPECT_TRUE(w["queues_deleted"].get<bool>()) << mode;
    EXPECT_FALSE(j["flows"]["flows"][0]["queues_deleted"].get<bool>()) << mode;
    EXPECT_EQ(j["flows"]["flows"][0]["requests"], 1500) << "the reader goes on after the writer's queues are gone";
    EXPECT_EQ(j["integrity"]["mismatches"], 0) << mode;
    EXPECT_GT(j["integrity"]["reads_checked"].get<uint64_t>(), 1000u) << mode;
    const auto& errs = j["host"]["errors_by_status"];
    if (mode == "abort") {
      EXPECT_GT(errs.value("0x008", 0u), 0u) << "commands the controller had not fetched: " << errs.dump();
      EXPECT_EQ(w["errors"].get<uint64_t>(), errs.value("0x008", 0u)) << "every error an abort";
    } else {
      EXPECT_EQ(j["host"]["errors"], 0) << "drained: nothing outstanding at the delete";
      EXPECT_EQ(w["dropped"], 0);
    }
  }
}

TEST(Flows, ABadFlowKeyIsAnErrorNamingIt) {
  const fs::path d = ssdvp_test::scratch("flows", "bad");
  struct Case {
    std::string set, named;
  } cases[] = {
      {"--set flows.count=2 --set flows.2.priority=high", "flows.2.priority"},
      {"--set flows.count=2 --set flows.0.priority=extreme", "flows.0.priority"},
      {"--set flows.count=2 --set flows.1.ftl.gc.policy=fifo", "flows.1.ftl.gc.policy"},
      {"--set flows.count=2 --set flows.0.workload.sorce=trace", "flows.0.workload.sorce"},
      {"--set flows.count=2 --set flows.x.name=a", "flows.x.name"},
      {"--set flows.count=2 --set flows.0.share=0.7 --set flows.1.share=0.6", "flows.0.share"},
      {"--set flows.count=2 --set flows.0.start=2s --set flows.0.stop=1s", "flows.0.stop"},
      {"--set flows.count=2 --set flows.0.start=1ms", "flows.0.start"},  // small.yaml is closed loop
      {"--set flows.count=65", "flows.count"},
      {"--set flows.0.name=a", "flows.0.name"},  // no flows.count
      {"--set flows.count=2 --set host.streams=oracle", "host.streams"},
      {"--set flows.count=2 --set flows.1.offset=0.8 --set flows.1.share=0.3", "flows.1.share"},
      {"--set flows.count=2 --set flows.1.offset=1.5", "flows.1.offset"},
      {"--set flows.count=2 --set flows.0.stop_queues=later", "flows.0.stop_queues"},
  };
  for (const auto& c : cases) {
    const auto r = run(d, c.set);
    EXPECT_EQ(r.code, 2) << c.set << "\n" << r.err;
    EXPECT_TRUE(contains(r.err, c.named)) << c.set << "\n" << r.err;
  }
}

}  // namespace
