// reliability_test.cpp - media faults end to end (issue 20 section 2): the
// firmware retires failing blocks and loses nothing, skips factory bad
// blocks, retries reads and reports uncorrectable ones with NVMe's
// Unrecovered Read Error status, refreshes read-disturbed blocks.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "run_command.h"

using nlohmann::json;

namespace {

using Sets = std::vector<std::string>;

// One run of the ssdvp binary on configs/small.yaml (one simulation per
// process); its summary, and whether it exited 0.
struct Run {
  json summary;
  bool ok = false;
};
Run run(const std::string& name, const Sets& sets) {
  const auto dir = ssdvp_test::scratch("reliability", name);
  std::string cmd =
      std::string(SSDVP_BIN) + " run -q -c " SSDVP_SOURCE_DIR "/configs/small.yaml -o '" + dir.string() + "'";
  for (const auto& s : sets) cmd += " --set " + s;
  const auto r = ssdvp_test::run_command(dir, cmd);
  EXPECT_EQ(r.code, 0) << cmd << "\n" << r.err;
  Run out;
  out.ok = r.code == 0;
  if (out.ok) out.summary = json::parse(ssdvp_test::slurp(dir / "summary.json"));
  return out;
}

uint64_t u(const json& j) { return j.get<uint64_t>(); }

// Every LBA of the namespace read back once, sequentially, after an aged
// preconditioning (fill, then one drive write of random overwrites with GC).
Sets read_everything() {
  return {"precondition.fill=1",
          "precondition.random_drive_writes=1.0",
          "workload.synthetic.pattern=sequential",
          "workload.synthetic.read_fraction=1",
          "workload.synthetic.io_size=128KiB",
          "workload.synthetic.requests=7168"};  // 896 MiB / 128 KiB: the whole namespace
}
Sets with(Sets a, const Sets& b) {
  a.insert(a.end(), b.begin(), b.end());
  return a;
}

TEST(MediaFaults, ProgramAndEraseFailuresDuringAgingLoseNothing) {
  const auto r = run(
      "aging", with(read_everything(), {"flash.fault.program_fail_rate=0.00005", "flash.fault.erase_fail_rate=0.002",
                                        "flash.fault.fail_blocks=3,700,1500"}));
  ASSERT_TRUE(r.ok);
  const auto& j = r.summary;
  EXPECT_EQ(u(j["integrity"]["mismatches"]), 0u);
  EXPECT_GE(u(j["integrity"]["reads_checked"]), 229376u);  // every LBA
  EXPECT_EQ(u(j["host"]["errors"]), 0u);
  const auto& fl = j["reliability"]["flash"];
  const auto& fw = j["reliability"]["ftl"];
  EXPECT_GT(u(fl["program_failures"]), 3u);
  EXPECT_GT(u(fl["erase_failures"]), 0u);
  // every failed program was rewritten, every failed erase retired; the
  // three listed blocks fail every operation, so they are retired too
  EXPECT_GE(u(fw["retired_blocks_total"]), 3u + u(fl["erase_failures"]));
  EXPECT_EQ(u(fw["lost_lbas"]), 0u);
}

TEST(MediaFaults, ProgramFailuresUnderTimedLoadLoseNothing) {
  const auto r = run("timed", {"workload.synthetic.pattern=hotcold", "workload.synthetic.requests=60000",
                               "workload.synthetic.read_fraction=0.4", "precondition.random_drive_writes=0.5",
                               "flash.fault.program_fail_rate=0.0002", "flash.fault.erase_fail_rate=0.005"});
  ASSERT_TRUE(r.ok);
  const auto& j = r.summary;
  EXPECT_EQ(u(j["integrity"]["mismatches"]), 0u);
  EXPECT_GT(u(j["integrity"]["reads_checked"]), 10000u);
  EXPECT_EQ(u(j["host"]["errors"]), 0u);
  const auto& fw = j["reliability"]["ftl"];
  EXPECT_GT(u(fw["program_failures"]), 0u);  // in the timed part
  EXPECT_GT(u(fw["rewritten_lbas"]), 0u);
  EXPECT_GT(u(fw["retired_blocks"]), 0u);
}

TEST(MediaFaults, FactoryBadBlocksAreNeverWritten) {
  const auto r = run("factory", with(read_everything(), {"flash.fault.factory_bad_rate=0.03"}));
  ASSERT_TRUE(r.ok);
  const auto& j = r.summary;
  EXPECT_EQ(u(j["integrity"]["mismatches"]), 0u);
  const uint64_t bad = u(j["reliability"]["flash"]["factory_bad_blocks"]);
  EXPECT_GT(bad, 20u);  // about 3 % of 2048
  EXPECT_EQ(u(j["reliability"]["ftl"]["factory_bad_blocks"]), bad);
  // a program or erase on a factory bad block would fail: none was tried
  EXPECT_EQ(u(j["reliability"]["flash"]["program_failures"]), 0u);
  EXPECT_EQ(u(j["reliability"]["flash"]["erase_failures"]), 0u);
}

Sets read_heavy() {
  return {"workload.synthetic.pattern=uniform", "workload.synthetic.requests=20000",
          "workload.synthetic.read_fraction=0.9"};
}

TEST(MediaFaults, ReadRetriesCostTime) {
  const auto r0 = run("retry0", read_heavy());
  // about 59 errors per 4 KiB codeword: ECC (72) fails now and then
  const auto r1 = run("retry1", with(read_heavy(), {"flash.ecc.rber=0.0018"}));
  ASSERT_TRUE(r0.ok && r1.ok);
  EXPECT_EQ(u(r1.summary["integrity"]["mismatches"]), 0u);
  const auto& fw = r1.summary["reliability"]["ftl"];
  EXPECT_GT(u(fw["reads_retried"]), 100u);
  EXPECT_GE(u(fw["read_retries"]), u(fw["reads_retried"]));
  EXPECT_EQ(u(fw["uncorrectable_reads"]), 0u);  // retry level 1 halves the RBER
  EXPECT_EQ(u(r1.summary["host"]["errors"]), 0u);
  EXPECT_GT(r1.summary["latency_us"]["read"]["mean"].get<double>(),
            r0.summary["latency_us"]["read"]["mean"].get<double>());
}

TEST(MediaFaults, UncorrectableReadsCompleteWithUnrecoveredReadError) {
  // no retry: what ECC cannot correct is lost to the read
  const auto r = run("uncorrectable", with(read_heavy(), {"flash.ecc.rber=0.0018", "flash.ecc.retry_levels=0"}));
  ASSERT_TRUE(r.ok);
  const auto& j = r.summary;
  EXPECT_EQ(u(j["integrity"]["mismatches"]), 0u);  // no wrong data is ever returned as good
  const uint64_t errs = u(j["host"]["errors"]);
  EXPECT_GT(errs, 0u);
  ASSERT_TRUE(j["host"]["errors_by_status"].contains("0x281"));
  EXPECT_EQ(u(j["host"]["errors_by_status"]["0x281"]), errs);  // and nothing else
  EXPECT_GT(u(j["reliability"]["ftl"]["uncorrectable_reads"]), 0u);
  EXPECT_EQ(u(j["reliability"]["flash"]["reads_retried"]), 0u);
}

TEST(MediaFaults, ReadDisturbRefreshesBlocks) {
  const auto r = run("disturb", with(read_heavy(), {"workload.synthetic.pattern=hotcold",
                                                    "flash.ecc.rber_per_read=0.000001", "ftl.refresh.read_limit=20"}));
  ASSERT_TRUE(r.ok);
  const auto& j = r.summary;
  EXPECT_EQ(u(j["integrity"]["mismatches"]), 0u);
  EXPECT_EQ(u(j["host"]["errors"]), 0u);
  EXPECT_GT(u(j["reliability"]["ftl"]["refreshes"]), 0u);
}

TEST(MediaFaults, BadFailBlockListNamesTheKey) {
  const auto dir = ssdvp_test::scratch("reliability", "badlist");
  const auto r =
      ssdvp_test::run_command(dir, std::string(SSDVP_BIN) + " run -q -c " SSDVP_SOURCE_DIR "/configs/small.yaml -o '" +
                                       dir.string() + "' --set flash.fault.fail_blocks=3,x");
  EXPECT_NE(r.code, 0);
  EXPECT_NE(r.err.find("flash.fault.fail_blocks"), std::string::npos) << r.err;
}

}  // namespace
