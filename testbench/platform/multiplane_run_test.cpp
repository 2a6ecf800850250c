// multiplane_run_test.cpp - ftl.multiplane through the real ssdvp binary:
// a small drive with two or four planes per die, aged so that GC runs in the
// timed part, must keep every LBA's data (the host's scoreboard), never break
// a NAND rule (the flash model checks every multi-plane group), and actually
// issue multi-plane operations; with the switch off it issues none.
#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>

#include "run_command.h"

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

const std::string kSmall = SSDVP_SOURCE_DIR "/configs/small.yaml";

// 8 dies x 256 blocks of 64 pages whatever the planes: 1 GiB of flash.
json run(
    const std::string& name, uint32_t planes, const std::string& extra,
    const std::string& load = " --set workload.synthetic.requests=6000 --set workload.synthetic.read_fraction=0.3 ") {
  const fs::path d = ssdvp_test::scratch("ssdvp_multiplane", name);
  const std::string args = "run -c '" + kSmall + "' -q -o '" + (d / "out").string() +
                           "' --set flash.planes_per_die=" + std::to_string(planes) +
                           " --set flash.blocks_per_plane=" + std::to_string(256 / planes) +
                           " --set precondition.fill=1 --set precondition.random_drive_writes=0.5" + load + extra;
  const ssdvp_test::CommandResult r = ssdvp_test::run_command(d, std::string("'") + SSDVP_BIN + "' " + args);
  EXPECT_EQ(r.code, 0) << r.err;
  if (r.code != 0) return json::object();
  return json::parse(ssdvp_test::slurp(d / "out" / "summary.json"));
}

void expect_clean(const json& s) {
  ASSERT_TRUE(s.contains("integrity"));
  EXPECT_EQ(s["integrity"]["mismatches"], 0);
  EXPECT_GT(s["integrity"]["reads_checked"].get<uint64_t>(), 0u);
  EXPECT_EQ(s["host"]["errors"], 0);
  EXPECT_EQ(s["flash"]["violations"], 0);
  EXPECT_EQ(s["flash"]["errors"], 0);
  EXPECT_GT(s["flash"]["erases"].get<uint64_t>(), 0u) << "test premise: GC runs in the timed part";
}

}  // namespace

TEST(MultiplaneRun, TwoPlanesKeepsDataAndGroupsPrograms) {
  const json on = run("p2-on", 2, "--set ftl.multiplane=1");
  expect_clean(on);
  EXPECT_GT(on["flash"]["multiplane_ops"].get<uint64_t>(), on["flash"]["programs"].get<uint64_t>() / 8);
  const json off = run("p2-off", 2, "");
  expect_clean(off);
  EXPECT_EQ(off["flash"]["multiplane_ops"], 0);
}

TEST(MultiplaneRun, FourPlanesWithSuspendAndPriorityKeepsData) {
  const json s =
      run("p4-sched", 4, "--set ftl.multiplane=1 --set flash.read_priority=true --set flash.suspend.enable=true");
  expect_clean(s);
  EXPECT_GT(s["flash"]["multiplane_ops"].get<uint64_t>(), 0u);
}

// Saturating random writes (QD32, GC-bound): a die's planes fill their pages
// in different loop passes, so without holding a full page for its siblings
// (ftl.multiplane_hold) and realigning planes whose offsets drifted apart
// (ftl.multiplane_align) most programs go alone and the second plane's page
// waits a tPROG behind the first: fewer groups and less write bandwidth.
TEST(MultiplaneRun, HoldingAndAligningPagesGroupMoreProgramsUnderSaturatingWrites) {
  const std::string writes = " --set workload.synthetic.requests=8000 --set workload.synthetic.read_fraction=0 ";
  auto mbps = [](const json& s) {
    return s["host"]["write_bytes"].get<double>() / s["host"]["sim_time_s"].get<double>() / 1e6;
  };
  const json on = run("w-hold", 2, "--set ftl.multiplane=1", writes);
  const json off =
      run("w-nohold", 2, "--set ftl.multiplane=1 --set ftl.multiplane_hold=0ns --set ftl.multiplane_align=0", writes);
  for (const json* s : {&on, &off}) {
    ASSERT_TRUE(s->contains("flash"));
    EXPECT_EQ((*s)["flash"]["violations"], 0);
    EXPECT_EQ((*s)["integrity"]["mismatches"], 0);
    EXPECT_EQ((*s)["host"]["errors"], 0);
  }
  EXPECT_GT(on["flash"]["multiplane_ops"].get<double>(), 1.2 * off["flash"]["multiplane_ops"].get<double>());
  EXPECT_GT(mbps(on), mbps(off));
}

// A power cut with power-loss protection during saturating writes: pages held
// for their plane siblings are programs in flight to the power-fail handler,
// which submits them; no write the host saw complete may be lost.
TEST(MultiplaneRun, PowerCutWithPlpKeepsHeldPages) {
  const json s = run("w-cut", 2, "--set ftl.multiplane=1 --set power.cut_at=100ms --set power.plp=true",
                     " --set workload.synthetic.requests=8000 --set workload.synthetic.read_fraction=0 ");
  ASSERT_TRUE(s.contains("power"));
  const json& c = s["power"]["check"];
  EXPECT_GT(c["latest"].get<uint64_t>(), 0u);
  EXPECT_EQ(c["durable_lost"], 0);
  EXPECT_EQ(c["foreign"], 0);
  EXPECT_EQ(c["unreadable"], 0);
  EXPECT_EQ(s["power"]["violations"], 0);
  EXPECT_EQ(s["power"]["plp_pages_not_programmed"], 0);
}

namespace {
const std::string kDefault = SSDVP_SOURCE_DIR "/configs/default.yaml";
// The default job (GC at work all the time) on 8 dies x 4 planes x 64 blocks.
json run_default(const std::string& name, const std::string& extra) {
  const fs::path d = ssdvp_test::scratch("ssdvp_multiplane", name);
  const std::string args = "run -c '" + kDefault + "' -q -o '" + (d / "out").string() +
                           "' --set flash.planes_per_die=4 --set flash.blocks_per_plane=64 --set "
                           "workload.trace=" SSDVP_SOURCE_DIR "/traces/msr_heimdall_rw20_80_105.ascii " +
                           extra;
  const ssdvp_test::CommandResult r = ssdvp_test::run_command(d, std::string("'") + SSDVP_BIN + "' " + args);
  EXPECT_EQ(r.code, 0) << r.err;
  if (r.code != 0) return json::object();
  return json::parse(ssdvp_test::slurp(d / "out" / "summary.json"));
}
}  // namespace

// ftl.gc.pair_planes: victims paired across planes keep every LBA's data in
// timed GC (a relocated victim waits for its group, but never at the GC
// reserve, where erasing a group mate that still relocated lost data).
TEST(MultiplaneRun, PairedVictimsKeepData) {
  const json s = run_default("p4-pair", "--set ftl.multiplane=1 --set ftl.gc.pair_planes=1");
  expect_clean(s);
  EXPECT_GT(s["ftl"]["gc_paired"].get<uint64_t>(), 100u);
}

// ftl.gc.copyback: moves by copyback keep every LBA's data, on four planes
// and with up to 4 hops, and are used.
TEST(MultiplaneRun, CopybackKeepsData) {
  const json s = run_default("p4-copyback", "--set ftl.gc.copyback=1 --set ftl.gc.copyback_max_hops=4");
  expect_clean(s);
  EXPECT_GT(s["flash"]["copybacks"].get<uint64_t>(), 1000u);
}

// flash.multiplane_same_block: on a NAND that groups blocks at one block index
// only (the flash model refuses any other group: a violation), the firmware
// opens a die's planes at one index, keeps every LBA's data, still issues
// multi-plane operations, and counts where the rule made it go single-plane.
TEST(MultiplaneRun, SameBlockIndexRuleKeepsDataAndGroups) {
  const json s =
      run("p2-same", 2, "--set ftl.multiplane=1 --set ftl.gc.pair_planes=1 --set flash.multiplane_same_block=true");
  expect_clean(s);
  EXPECT_GT(s["flash"]["multiplane_ops"].get<uint64_t>(), s["flash"]["programs"].get<uint64_t>() / 8);
  ASSERT_TRUE(s["ftl"].contains("mp_index_fallbacks"));
  ASSERT_TRUE(s["ftl"].contains("mp_index_splits"));
}
