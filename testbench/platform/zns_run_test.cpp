// zns_run_test.cpp - the zoned personality through the real ssdvp binary
// (configs/zns.yaml, shortened): a zoned log writes its zones sequentially,
// resets the oldest zone when none is empty, and reads back through the
// scoreboard; the drive relocates nothing (WAF 1), every reset is one erase,
// and bad configurations name their key.
#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>

#include "ssdvp_run.h"

namespace fs = std::filesystem;

namespace {

fs::path scratch(const std::string& name) { return ssdvp_test::scratch("ssdvp_zns", name); }

// 16 MiB of the drive as zones (32 zones of 512 KiB): the log wraps round them several times.
std::string ssdvp(const std::string& extra) {
  return ssdvp_test::ssdvp_run(
      "zns.yaml", "--set workload.zoned.requests=20000 --set workload.zoned.zones=32 --set log.level=error " + extra);
}

}  // namespace

TEST(ZnsRun, AZonedLogKeepsEveryReadCorrectWithNoRelocation) {
  const fs::path d = scratch("log");
  const auto r = ssdvp_test::run_command(d, ssdvp("-o '" + (d / "out").string() + "'"));
  ASSERT_EQ(r.code, 0) << r.err;
  const auto j = ssdvp_test::summary(d / "out");
  ssdvp_test::expect_clean_run(j, 5000);
  // the log wrapped: zones were reset (trims), each written zone's block erased once per reset
  const uint64_t resets = j["host"]["trims"].get<uint64_t>();
  EXPECT_GT(resets, 32u);
  EXPECT_GE(j["ftl"]["erases"].get<uint64_t>() + 8, resets);  // (resets still erasing at the end)
  EXPECT_LE(j["ftl"]["erases"].get<uint64_t>(), resets);
  // the drive moved nothing: its flash writes are the host's
  EXPECT_EQ(j["ftl"]["gc_lba_writes"], 0);
  EXPECT_DOUBLE_EQ(j["ftl"]["waf"].get<double>(), 1.0);
  EXPECT_GT(j["ftl"]["host_lba_writes"].get<uint64_t>(), 32u * 128u * 2u);
}

TEST(ZnsRun, WritesOffTheWritePointerAreRefusedAndCounted) {
  // uniform random writes on a zoned drive: the drive refuses those not at a write pointer (no
  // reads: the scoreboard would expect the refused writes' data)
  const fs::path d = scratch("random");
  const auto r = ssdvp_test::run_command(
      d, ssdvp("--set workload.source=synthetic --set workload.synthetic.requests=2000 "
               "--set workload.synthetic.io_size=8KiB --set workload.synthetic.read_fraction=0 -o '" +
               (d / "out").string() + "'"));
  ASSERT_EQ(r.code, 0) << r.err;
  const auto j = ssdvp_test::summary(d / "out");
  EXPECT_GT(j["host"]["errors"].get<uint64_t>(), 0u);
  EXPECT_GT(j["host"]["errors_by_status"]["0x1bc"].get<uint64_t>(), 0u);  // Zone Invalid Write
  EXPECT_EQ(j["flash"]["violations"], 0);
}

TEST(ZnsRun, BadConfigurationsNameTheirKey) {
  const fs::path d = scratch("bad");
  const auto check = [&](const std::string& set, const std::string& key) {
    ssdvp_test::expect_refused(d, ssdvp(set), key);
  };
  check("--set flows.count=2", "flows.count");
  check("--set power.cut_at=1ms", "power.cut_at");
  check("--set precondition.fill=1", "precondition.fill");
  check("--set ftl.max_transfer=128", "ftl.max_transfer");
  check("--set nvme.namespace_size=1023744KiB", "nvme.namespace_size");  // 1999.5 zones
  check("--set workload.zoned.io_size=4KiB", "workload.zoned.io_size");
  check("--set workload.zoned.zones=5000", "workload.zoned.zones");
  check("--set nvme.command_set=nvm --set nvme.namespace_size=896MiB", "workload.source");
}
