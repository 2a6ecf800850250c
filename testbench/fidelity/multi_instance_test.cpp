// multi_instance_test.cpp - two SSDs in one simulation do not interfere.
//
// Two SoCs with different workloads run side by side in one process (as a
// RAID array will). Each one's results must equal those of the same config
// run alone by the ssdvp command in its own process, to the last count: the
// firmware and the models keep no global or static mutable state.
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <memory>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

#include "host/host_driver.h"
#include "host/host_memory.h"
#include "host/scoreboard.h"
#include "soc/ssd_soc.h"
#include "synthetic.h"

using ssdvp::Config;

namespace {

struct Instance {
  std::unique_ptr<ssdvp::SsdSoc> soc;
  std::unique_ptr<ssdvp::HostMemory> mem;
  std::unique_ptr<ssdvp::Scoreboard> sb;
  std::unique_ptr<ssdvp::HostDriver> host;
  std::unique_ptr<ssdvp::host::Workload> wl;
};

Config config_for(const std::string& pattern, const std::string& seed) {
  Config c = Config::from_yaml_file(SSDVP_SOURCE_DIR "/configs/small.yaml");
  c.set("workload.synthetic.pattern", pattern);
  c.set("workload.synthetic.seed", seed);
  c.set("workload.synthetic.requests", "80000");
  return c;  // preconditioning (a full fill) is done by fill() below, as --set precondition.fill=1.0 does
}

void build(Instance& in, const std::string& name, Config& c) {
  in.soc = std::make_unique<ssdvp::SsdSoc>(name.c_str(), c);
  in.mem = std::make_unique<ssdvp::HostMemory>((name + "_mem").c_str(), 64u << 20);
  in.sb = std::make_unique<ssdvp::Scoreboard>(in.soc->logical_lbas());
  in.host = std::make_unique<ssdvp::HostDriver>((name + "_host").c_str(), c, *in.mem, in.soc->nvme, *in.sb,
                                                in.soc->lba_size(), in.soc->fw_config().max_transfer_lbas);
  in.host->pcie.bind(in.soc->nvme.host_regs);
  in.soc->nvme.host_dma.bind(in.mem->tsock);
  in.wl = ssdvp::host::make_synthetic(
      ssdvp::host::SyntheticSpec::from_config(c, in.soc->logical_lbas() * in.soc->lba_size()));
}

// The same preconditioning as the ssdvp command (sequential fill; run_alone
// asks for no free-pool overwrites).
void fill(Instance& in, double fraction) {
  const uint64_t n = uint64_t(double(in.soc->logical_lbas()) * fraction);
  const uint32_t chunk = in.soc->fw_config().max_transfer_lbas;
  std::vector<uint32_t> tok(chunk);
  for (uint64_t l = 0; l < n; l += chunk) {
    const uint32_t k = uint32_t(std::min<uint64_t>(chunk, n - l));
    for (uint32_t i = 0; i < k; ++i) tok[i] = in.sb->write(l + i);
    ASSERT_EQ(in.soc->cpu().func_write(l, k, tok.data(), 0), 0);
  }
}

nlohmann::json run_alone(const std::string& pattern, const std::string& seed) {
  const std::string out = testing::TempDir() + "alone_" + pattern;
  const std::string cmd =
      std::string(SSDVP_BIN) + " run -q -c " SSDVP_SOURCE_DIR "/configs/small.yaml" +
      " --set workload.synthetic.pattern=" + pattern + " --set workload.synthetic.seed=" + seed +
      " --set workload.synthetic.requests=80000 --set precondition.fill=1.0 --set precondition.free_pool=asis -o " +
      out;
  EXPECT_EQ(std::system(cmd.c_str()), 0) << cmd;
  std::ifstream f(out + "/summary.json");
  return nlohmann::json::parse(f);
}

TEST(MultiInstance, TwoSsdsInOneProcessMatchEachRunAlone) {
  Config ca = config_for("uniform", "11"), cb = config_for("hotcold", "22");
  Instance a, b;
  build(a, "ssdA", ca);
  build(b, "ssdB", cb);
  ca.check_unknown();
  cb.check_unknown();
  sc_core::sc_start(sc_core::SC_ZERO_TIME);
  a.soc->boot();
  b.soc->boot();
  fill(a, 1.0);
  fill(b, 1.0);
  int done = 0;
  for (Instance* in : {&a, &b}) {
    in->host->set_workload(in->wl.get());
    in->host->set_on_finish([&done, in] {
      in->soc->stop();
      if (++done == 2) sc_core::sc_stop();
    });
    in->soc->start();
    in->host->start();
  }
  sc_core::sc_start();
  ASSERT_EQ(done, 2);

  const nlohmann::json ja = run_alone("uniform", "11"), jb = run_alone("hotcold", "22");
  for (auto [in, j] : {std::pair<Instance*, const nlohmann::json*>{&a, &ja}, {&b, &jb}}) {
    const auto& h = in->host->results();
    const ftl_stats* s = &in->soc->cpu().stats();
    EXPECT_EQ(in->sb->mismatches(), 0u);
    EXPECT_EQ(h.reads, j->at("host").at("reads").get<uint64_t>());
    EXPECT_EQ(h.writes, j->at("host").at("writes").get<uint64_t>());
    EXPECT_EQ(s->gc_victims, j->at("ftl").at("gc_runs").get<uint64_t>());
    EXPECT_EQ(s->erases, j->at("ftl").at("lifetime").at("erases").get<uint64_t>());
    EXPECT_EQ(s->gc_lba_writes, j->at("ftl").at("lifetime").at("gc_lba_writes").get<uint64_t>());
    EXPECT_DOUBLE_EQ(double(h.read_latency.max()) / 1000.0, j->at("latency_us").at("read").at("max").get<double>());
    EXPECT_DOUBLE_EQ(double(h.end_ps - h.start_ps) * 1e-12, j->at("host").at("sim_time_s").get<double>());
  }
  // and the two really did different work
  EXPECT_GT(a.soc->cpu().stats().gc_lba_writes, 0u);
  EXPECT_NE(a.soc->cpu().stats().gc_lba_writes, b.soc->cpu().stats().gc_lba_writes);
}

}  // namespace
