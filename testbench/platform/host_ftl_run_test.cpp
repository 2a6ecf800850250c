// host_ftl_run_test.cpp - the timed host-level FTL through the real ssdvp
// binary (configs/open_channel.yaml, shortened): the host driver's commands
// served by the firmware's FTL on the host, its flash operations as
// Open-Channel vector commands through the SoC's NVMe controller, firmware
// and flash. Every read checked with zero mismatches under the host FTL's
// GC; the same FTL decides as it does inside the drive (nvm personality:
// WAF within 5 %); bad configurations name their key.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>

#include "ssdvp_run.h"

namespace fs = std::filesystem;

namespace {

fs::path scratch(const std::string& name) { return ssdvp_test::scratch("ssdvp_host_ftl", name); }

std::string ssdvp(const std::string& extra) {
  return ssdvp_test::ssdvp_run("open_channel.yaml",
                               "--set workload.synthetic.requests=30000 --set log.level=error " + extra);
}

}  // namespace

TEST(HostFtlRun, TimedHostFtlKeepsEveryLbaUnderGcAndTheDriveRunsNoFtl) {
  const fs::path d = scratch("integrity");
  const auto r = ssdvp_test::run_command(d, ssdvp("-o '" + (d / "out").string() + "'"));
  ASSERT_EQ(r.code, 0) << r.err;
  const auto j = ssdvp_test::summary(d / "out");
  ssdvp_test::expect_clean_run(j, 5000);
  const auto& h = j["host_ftl"];
  EXPECT_GT(h["gc_lba_writes"].get<uint64_t>(), 0u);  // under the host FTL's GC
  EXPECT_GT(h["erases"].get<uint64_t>(), 0u);
  EXPECT_EQ(h["error"], "");
  const auto& v = h["vector_commands"];
  EXPECT_EQ(v["failed"], 0);
  EXPECT_GT(v["writes"].get<uint64_t>(), 0u);
  EXPECT_GT(v["reads"].get<uint64_t>(), 0u);
  // every host erase is one chunk reset (counted when sent; the erase when done)
  EXPECT_GE(v["resets"].get<uint64_t>(), h["erases"].get<uint64_t>());
  EXPECT_LE(v["resets"].get<uint64_t>(), h["erases"].get<uint64_t>() + 64);
  EXPECT_GT(v["max_outstanding"].get<uint64_t>(), 1u);  // the host FTL keeps the drive's dies busy in parallel
  // the host CPU ran the FTL; the drive's CPU did no mapping or GC
  EXPECT_GT(h["cpu"]["busy_s"].get<double>(), 0.0);
  EXPECT_FALSE(j["cpu"]["ops"].contains("gc_page_move"));
  EXPECT_FALSE(j["cpu"]["ops"].contains("l2p_update"));
  // the summary's ftl section is the host FTL's over the timed part
  EXPECT_EQ(j["ftl"]["gc_lba_writes"], h["gc_lba_writes"]);
  // the printed summary has its line
  const auto p = ssdvp_test::run_command(
      d, std::string("'") + SSDVP_BIN + "' run -c '" SSDVP_SOURCE_DIR "/configs/open_channel.yaml' " +
             "--set workload.synthetic.requests=1000 --set precondition.fill=0.2 " +
             "--set precondition.random_drive_writes=0 --set log.level=error -o '" + (d / "short").string() + "'");
  ASSERT_EQ(p.code, 0) << p.err;
  EXPECT_NE(p.out.find("host FTL: WAF"), std::string::npos) << p.out;
}

// ftl.flash_cq_phase on both FTLs: the drive's (open_channel personality)
// and the host's, whose HAL tags completions as the flash controller does.
// The host FTL's preconditioning waits for the drive in hal_wait_irq then,
// having no CQ_TAIL read to wait in.
TEST(HostFtlRun, PhaseTaggedFlashRingOnTheHostAndInTheDrive) {
  const fs::path d = scratch("phase");
  const auto r = ssdvp_test::run_command(d, ssdvp("--set ftl.flash_cq_phase=on -o '" + (d / "out").string() + "'"));
  ASSERT_EQ(r.code, 0) << r.err;
  const auto j = ssdvp_test::summary(d / "out");
  ssdvp_test::expect_clean_run(j, 5000);
  EXPECT_GT(j["host_ftl"]["gc_lba_writes"].get<uint64_t>(), 0u);
  EXPECT_EQ(j["host_ftl"]["error"], "");
  EXPECT_EQ(j["host_ftl"]["vector_commands"]["failed"], 0);
}

TEST(HostFtlRun, TheSameFtlOnTheHostAndInTheDriveMakesTheSameGcDecisions) {
  const fs::path d = scratch("waf");
  double waf[2] = {};
  for (int oc = 0; oc < 2; ++oc) {
    const fs::path out = d / (oc ? "host" : "device");
    const auto r = ssdvp_test::run_command(d, ssdvp(std::string("--set nvme.command_set=") +
                                                    (oc ? "open_channel" : "nvm") + " -o '" + out.string() + "'"));
    ASSERT_EQ(r.code, 0) << r.err;
    const auto j = ssdvp_test::summary(out);
    EXPECT_EQ(j["integrity"]["mismatches"], 0);
    waf[oc] = j["ftl"]["waf"].get<double>();
    EXPECT_GT(waf[oc], 1.2) << oc;  // GC at work in both
  }
  std::printf("WAF: device FTL %.3f, host FTL (timed) %.3f\n", waf[0], waf[1]);
  EXPECT_LT(std::fabs(waf[1] - waf[0]) / waf[0], 0.05);
}

TEST(HostFtlRun, BadConfigurationsNameTheirKey) {
  const fs::path d = scratch("bad");
  // each exits 2 naming its key (the part before '=')
  for (const std::string set : {"host.ftl.queue_depth=0", "host.ftl.clock_hz=-1", "flows.count=2", "power.cut_at=1ms",
                                "power.cuts=3", "nvme.ocssd.meta=lpn_and_seq"})
    ssdvp_test::expect_refused(d, ssdvp("--set " + set), set.substr(0, set.find('=')));
}
