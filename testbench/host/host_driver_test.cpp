// host_driver_test.cpp - HostDriver through whole-platform runs
// (configs/small.yaml): requests split at max_transfer, overlapping requests
// serialised so that every read has one expected content (integrity stays
// clean on a hot footprint at queue depth 32 with all arrivals at time 0),
// and requests beyond the namespace folded or failed as configured.
#include <gtest/gtest.h>

#include <fstream>
#include <string>

#include "host/host_driver.h"
#include "host/scoreboard.h"
#include "run/simulation.h"
#include "soc/ssd_soc.h"

using ssdvp::Config;

namespace {

Config small() {
  Config c = Config::from_yaml_file(SSDVP_SOURCE_DIR "/configs/small.yaml");
  c.set("log.level", "error");
  c.set("precondition.fill", "0");
  return c;
}

Config with_trace(const std::string& name, const std::string& body) {
  const std::string path = testing::TempDir() + name;
  std::ofstream(path) << body;
  Config c = small();
  c.set("workload.source", "trace");
  c.set("workload.trace", path);
  c.set("workload.format", "mqsim");
  c.set("host.mode", "open");
  return c;
}

}  // namespace

TEST(HostDriver, RequestsAreSplitAtMaxTransfer) {
  // mqsim: arrival_ns device start_sector sectors type(0 write, 1 read)
  Config c = with_trace("split.trace",
                        "0 0 0 2048 0\n"          // 1 MiB = 256 LBAs -> 4 commands of 64
                        "0 0 4096 520 0\n"        // 260 KiB = 65 LBAs -> 64 + 1
                        "1000000 0 0 2048 1\n"    // read back the first: 4 commands
                        "1000000 0 4096 520 1\n"  // and the second: 2
                        "2000000 0 9 8 0\n");     // 4 KiB not LBA-aligned: LBAs 1..2, one command
  c.set("ftl.max_transfer", "64");
  ssdvp::Simulation sim(c);
  const ssdvp::RunOutcome r = sim.run();
  EXPECT_TRUE(r.clean);
  const ssdvp::HostResults& h = sim.host().results();
  EXPECT_EQ(h.requests, 5u);
  EXPECT_EQ(h.commands, 4u + 2u + 4u + 2u + 1u);
  EXPECT_EQ(sim.soc().nvme.stats().commands_fetched, h.commands);
  EXPECT_EQ(h.errors, 0u);  // a command beyond MDTS would have failed with Invalid Field
  EXPECT_EQ(sim.scoreboard().checked(), 256u + 65u);
  EXPECT_EQ(sim.scoreboard().mismatches(), 0u);
  EXPECT_EQ(r.summary["ftl"]["host_lba_writes"], 256u + 65u + 2u);
}

TEST(HostDriver, OverlappingRequestsAreSerialisedOnAHotFootprint) {
  Config c = small();
  c.set("workload.synthetic.footprint", "64KiB");  // 16 LBAs
  c.set("workload.synthetic.requests", "4000");
  c.set("workload.synthetic.read_fraction", "0.5");
  c.set("workload.synthetic.iops", "0");  // all arrivals at time 0
  c.set("host.mode", "open");
  c.set("host.queue_depth", "32");
  ssdvp::Simulation sim(c);
  const ssdvp::RunOutcome r = sim.run();
  EXPECT_TRUE(r.clean);
  const ssdvp::HostResults& h = sim.host().results();
  EXPECT_EQ(h.requests, 4000u);
  EXPECT_EQ(h.errors, 0u);
  EXPECT_GT(sim.scoreboard().checked(), 1500u);
  EXPECT_EQ(sim.scoreboard().mismatches(), 0u);
  EXPECT_TRUE(sim.host().finished());
}

TEST(HostDriver, PartiallyOverlappingLargeRequestsStayConsistent) {
  Config c = small();
  c.set("workload.synthetic.footprint", "64KiB");
  c.set("workload.synthetic.io_size", "16KiB");  // 4 LBAs at any LBA: partial overlaps
  c.set("workload.synthetic.align", "4KiB");
  c.set("workload.synthetic.requests", "3000");
  c.set("workload.synthetic.read_fraction", "0.5");
  c.set("workload.synthetic.iops", "0");
  c.set("host.mode", "open");
  c.set("host.queue_depth", "32");
  c.set("ftl.max_transfer", "2");  // each request is two commands
  ssdvp::Simulation sim(c);
  const ssdvp::RunOutcome r = sim.run();
  EXPECT_TRUE(r.clean);
  EXPECT_EQ(sim.host().results().requests, 3000u);
  EXPECT_EQ(sim.host().results().commands, 6000u);
  EXPECT_EQ(sim.host().results().errors, 0u);
  EXPECT_EQ(sim.scoreboard().mismatches(), 0u);
  EXPECT_GT(sim.scoreboard().checked(), 4000u);
}

TEST(HostDriver, RequestsBeyondTheNamespaceAreFoldedByDefault) {
  // 896 MiB namespace = 1835008 sectors
  Config c = with_trace("wrap.trace", "0 0 2000000 8 0\n1000000 0 2000000 8 1\n");
  ssdvp::Simulation sim(c);
  const ssdvp::RunOutcome r = sim.run();
  EXPECT_TRUE(r.clean);
  EXPECT_EQ(sim.host().results().wrapped, 2u);
  EXPECT_EQ(sim.host().results().errors, 0u);
  EXPECT_EQ(sim.scoreboard().checked(), 1u);
  EXPECT_EQ(sim.scoreboard().mismatches(), 0u);
}

TEST(HostDriver, RequestsBeyondTheNamespaceFailWithoutFolding) {
  Config c = with_trace("nowrap.trace",
                        "0 0 2000000 8 0\n"
                        "0 0 1835000 16 1\n"       // crosses the end
                        "0 0 8796093022208 8 0\n"  // LBA 2^40: far outside the scoreboard too
                        "1000000 0 0 8 0\n");
  c.set("host.lba_wrap", "false");
  ssdvp::Simulation sim(c);
  const ssdvp::RunOutcome r = sim.run();
  const ssdvp::HostResults& h = sim.host().results();
  EXPECT_EQ(h.wrapped, 0u);
  EXPECT_EQ(h.errors, 3u);
  ASSERT_EQ(h.errors_by_status.count(NVME_SC_LBA_OUT_OF_RANGE), 1u);
  EXPECT_EQ(h.errors_by_status.at(NVME_SC_LBA_OUT_OF_RANGE), 3u);
  EXPECT_EQ(h.requests, 4u);  // failed requests still complete
  EXPECT_EQ(r.summary["host"]["errors_by_status"]["0x080"], 3u);
  EXPECT_EQ(sim.scoreboard().mismatches(), 0u);
  EXPECT_TRUE(sim.host().finished());
}
