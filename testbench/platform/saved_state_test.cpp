// saved_state_test.cpp - a saved drive through the ssdvp command (the real
// binary, SSDVP_BIN; docs/state.md): a run that loads the drive another run
// preconditioned and saved gives the summary of a run that preconditioned
// itself, field by field; a key that shapes the drive and differs is a clear
// error naming it; timing keys may differ; a missing or damaged drive is an
// error, not a crash.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

#include "run_command.h"

namespace fs = std::filesystem;
using ssdvp_test::contains;

namespace {

const std::string kSmall = SSDVP_SOURCE_DIR "/configs/small.yaml";

ssdvp_test::CommandResult ssdvp(const fs::path& d, const std::string& args) {
  return ssdvp_test::run_command(d, std::string("'") + SSDVP_BIN + "' run -c '" + kSmall + "' --quiet " + args);
}

nlohmann::json summary(const fs::path& out) {
  std::ifstream f(out / "summary.json");
  nlohmann::json j;
  f >> j;
  return j;
}

// Every leaf of a and b equal, except the process's own figures.
void expect_same(const nlohmann::json& a, const nlohmann::json& b, const std::string& path, int* compared) {
  for (const char* k : ssdvp_test::kProcessRunFields)
    if (path == std::string("/run/") + k) return;
  if (a.is_object() && b.is_object()) {
    for (auto it = a.begin(); it != a.end(); ++it) {
      EXPECT_TRUE(b.contains(it.key())) << path << "/" << it.key() << " missing";
      if (b.contains(it.key())) expect_same(it.value(), b[it.key()], path + "/" + it.key(), compared);
    }
    for (auto it = b.begin(); it != b.end(); ++it) EXPECT_TRUE(a.contains(it.key())) << path << "/" << it.key();
    return;
  }
  if (a.is_array() && b.is_array() && a.size() == b.size()) {
    for (size_t i = 0; i < a.size(); ++i) expect_same(a[i], b[i], path + "/" + std::to_string(i), compared);
    return;
  }
  ++*compared;
  EXPECT_EQ(a, b) << path;
}

// The same timeseries.csv, line by line, with more than two rows.
void expect_same_timeseries(const fs::path& a_dir, const fs::path& b_dir) {
  std::ifstream a(a_dir / "timeseries.csv"), b(b_dir / "timeseries.csv");
  std::string la, lb;
  int rows = 0;
  while (std::getline(a, la)) {
    ASSERT_TRUE(std::getline(b, lb));
    EXPECT_EQ(la, lb);
    ++rows;
  }
  EXPECT_GT(rows, 2);
}

// GC in steady state from the first timed write: a full drive with a drive-write
// of random overwrites, then 20,000 timed requests (30 % reads, checked).
const std::string kAged =
    "--set precondition.random_drive_writes=1 --set workload.synthetic.requests=20000 --set stats.interval=5ms ";

}  // namespace

TEST(SavedState, LoadedRunEqualsARunThatPreconditionedItselfFieldByField) {
  const fs::path d = ssdvp_test::scratch("saved_state", "equal");
  auto r = ssdvp(d, kAged + "-o '" + (d / "ref").string() + "'");
  ASSERT_EQ(r.code, 0) << r.err;
  r = ssdvp(d, kAged + "--save-state '" + (d / "drive").string() + "' --precondition-only");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_TRUE(fs::exists(d / "drive" / "state.json"));
  EXPECT_FALSE(fs::exists(d / "out" / "summary.json"));  // no timed part
  r = ssdvp(d, kAged + "--load-state '" + (d / "drive").string() + "' -o '" + (d / "loaded").string() + "'");
  ASSERT_EQ(r.code, 0) << r.err;
  // Saving on the way does not change the run either.
  r = ssdvp(d, kAged + "--save-state '" + (d / "drive2").string() + "' -o '" + (d / "saved").string() + "'");
  ASSERT_EQ(r.code, 0) << r.err;
  const auto ref = summary(d / "ref");
  ASSERT_GT(ref["ftl"]["gc_lba_writes"].get<uint64_t>(), 0u);  // GC active
  ASSERT_GT(ref["integrity"]["reads_checked"].get<uint64_t>(), 0u);
  int compared = 0;
  expect_same(ref, summary(d / "loaded"), "", &compared);
  expect_same(ref, summary(d / "saved"), "", &compared);
  EXPECT_GT(compared, 200);
  // The same time series.
  expect_same_timeseries(d / "ref", d / "loaded");
}

TEST(SavedState, WorkloadPreconditioningContinuesTheWorkloadWhereItStopped) {
  const fs::path d = ssdvp_test::scratch("saved_state", "workload");
  const std::string cfg =
      "--set precondition.workload_requests=30000 --set workload.synthetic.requests=40000 "
      "--set workload.synthetic.pattern=hotcold ";
  auto r = ssdvp(d, cfg + "-o '" + (d / "ref").string() + "'");
  ASSERT_EQ(r.code, 0) << r.err;
  r = ssdvp(d, cfg + "--save-state '" + (d / "drive").string() + "' --precondition-only");
  ASSERT_EQ(r.code, 0) << r.err;
  r = ssdvp(d, cfg + "--load-state '" + (d / "drive").string() + "' -o '" + (d / "loaded").string() + "'");
  ASSERT_EQ(r.code, 0) << r.err;
  int compared = 0;
  expect_same(summary(d / "ref"), summary(d / "loaded"), "", &compared);
  EXPECT_GT(compared, 200);
  // The workload's keys shape this drive (its first requests aged it).
  r = ssdvp(d, cfg + "--set workload.synthetic.seed=2 --load-state '" + (d / "drive").string() + "' -o '" +
                   (d / "x").string() + "'");
  EXPECT_EQ(r.code, 2) << r.err;
  EXPECT_TRUE(contains(r.err, "workload.synthetic.seed")) << r.err;
}

TEST(SavedState, AKeyThatShapesTheDriveIsNamedTimingKeysMayDiffer) {
  const fs::path d = ssdvp_test::scratch("saved_state", "keys");
  const std::string base = "--set workload.synthetic.requests=2000 ";
  auto r = ssdvp(d, base + "--save-state '" + (d / "drive").string() + "' --precondition-only");
  ASSERT_EQ(r.code, 0) << r.err;
  for (const std::string& kv : {std::string("ftl.gc.policy=fifo"), std::string("flash.pages_per_block=128"),
                                std::string("precondition.random_drive_writes=0.5")}) {
    const std::string key = kv.substr(0, kv.find('='));
    r = ssdvp(d,
              base + "--set " + kv + " --load-state '" + (d / "drive").string() + "' -o '" + (d / "x").string() + "'");
    EXPECT_EQ(r.code, 2) << kv << ": " << r.err;
    EXPECT_TRUE(contains(r.err, "'" + key + "'")) << kv << ": " << r.err;
    EXPECT_FALSE(fs::exists(d / "x" / "summary.json")) << kv;
  }
  r = ssdvp(d, base + "--set flash.timing.program=300us --set host.queue_depth=8 --load-state '" +
                   (d / "drive").string() + "' -o '" + (d / "slow").string() + "'");
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_TRUE(fs::exists(d / "slow" / "summary.json"));
}

TEST(SavedState, MissingOrDamagedDriveIsAnErrorNotACrash) {
  const fs::path d = ssdvp_test::scratch("saved_state", "damaged");
  const std::string base = "--set workload.synthetic.requests=1000 ";
  auto r = ssdvp(d, base + "--load-state '" + (d / "nothing").string() + "' -o '" + (d / "x").string() + "'");
  EXPECT_EQ(r.code, 2) << r.err;
  EXPECT_TRUE(contains(r.err, "no saved drive")) << r.err;
  r = ssdvp(d, base + "--precondition-only -o '" + (d / "x").string() + "'");
  EXPECT_EQ(r.code, 2) << r.err;
  EXPECT_TRUE(contains(r.err, "--save-state")) << r.err;
  r = ssdvp(d, base + "--save-state '" + (d / "drive").string() + "' --precondition-only");
  ASSERT_EQ(r.code, 0) << r.err;
  fs::resize_file(d / "drive" / "dram.img", fs::file_size(d / "drive" / "dram.img") / 2);
  r = ssdvp(d, base + "--load-state '" + (d / "drive").string() + "' -o '" + (d / "x").string() + "'");
  EXPECT_EQ(r.code, 2) << r.err;  // a damaged input, not an internal error (issue 35)
  EXPECT_TRUE(contains(r.err, "dram.img")) << r.err;
  EXPECT_FALSE(fs::exists(d / "x" / "summary.json"));
  std::ofstream(d / "drive" / "state.json") << "{\"format\": \"ssdvp-saved-drive\", \"version\": 99, \"keys\": {}}";
  r = ssdvp(d, base + "--load-state '" + (d / "drive").string() + "' -o '" + (d / "x").string() + "'");
  EXPECT_EQ(r.code, 2) << r.err;
  EXPECT_TRUE(contains(r.err, "version 99")) << r.err;
}

// iss mode (when the ISS is built in): the firmware saves and restores its own
// state on the RV32 core (ftl_state_save/_load through the boot block), the
// DRAM image holds the program's addresses, the same in every process. A drive
// saved in iss mode and loaded in iss mode continues as the run that
// preconditioned itself; a native drive is not an iss drive (its DRAM holds
// 64-bit pointers), and loading one in the other mode names cpu.mode.
TEST(SavedState, IssModeDriveLoadedContinuesAsARunThatPreconditionedItself) {
  const fs::path d = ssdvp_test::scratch("saved_state", "iss");
  // kAged on a quarter of the drive (256 MiB of flash): every functional write runs on the ISS.
  const std::string small =
      "--set flash.blocks_per_plane=64 --set nvme.namespace_size=224MiB --set precondition.random_drive_writes=1 "
      "--set workload.synthetic.requests=8000 --set stats.interval=2ms ";
  const std::string iss = small + "--set cpu.mode=iss ";
  auto r = ssdvp(d, iss + "-o '" + (d / "ref").string() + "'");
  if (r.code == 2 && contains(r.err, "not built in")) GTEST_SKIP() << "cpu.mode iss is not built in";
  ASSERT_EQ(r.code, 0) << r.err;
  r = ssdvp(d, iss + "--save-state '" + (d / "drive").string() + "' --precondition-only");
  ASSERT_EQ(r.code, 0) << r.err;
  r = ssdvp(d, iss + "--load-state '" + (d / "drive").string() + "' -o '" + (d / "loaded").string() + "'");
  ASSERT_EQ(r.code, 0) << r.err;
  const auto ref = summary(d / "ref");
  ASSERT_EQ(ref["cpu"]["mode"], "iss");
  ASSERT_GT(ref["ftl"]["gc_lba_writes"].get<uint64_t>(), 0u);  // GC active
  ASSERT_GT(ref["integrity"]["reads_checked"].get<uint64_t>(), 0u);
  int compared = 0;
  expect_same(ref, summary(d / "loaded"), "", &compared);
  EXPECT_GT(compared, 200);
  expect_same_timeseries(d / "ref", d / "loaded");
  // Not across modes.
  r = ssdvp(d, small + "--load-state '" + (d / "drive").string() + "' -o '" + (d / "x").string() + "'");
  EXPECT_EQ(r.code, 2) << r.err;
  EXPECT_TRUE(contains(r.err, "'cpu.mode'")) << r.err;
}

// A saved drive with checkpoints on (power.checkpoint.interval): the loaded
// firmware's checkpoint image, buffers and trim log page are its own DRAM
// windows (state.c; before, they were the saving process's addresses), so
// checkpoints taken after the load are whole and power cuts after it recover
// from them with nothing durable lost. A drive whose preconditioning wrote a
// checkpoint (power.checkpoint.writes) is refused: the checkpoint's bytes
// live in the flash controller, which a saved drive does not hold.
TEST(SavedState, WithCheckpointsCutsAfterTheLoadRecoverFromThem) {
  const fs::path d = ssdvp_test::scratch("saved_state", "ckpt");
  const std::string ck =
      "--set precondition.random_drive_writes=1 --set power.checkpoint.interval=250ms --set power.plp=false "
      "--set ftl.gc.durable=1 ";
  auto r = ssdvp(d, ck + "--save-state '" + (d / "drive").string() + "' --precondition-only");
  ASSERT_EQ(r.code, 0) << r.err;
  r = ssdvp(d, ck +
                   "--set workload.synthetic.pattern=hotcold --set workload.synthetic.requests=100000 "
                   "--set power.cuts=3 --set power.cuts_span=1s --set power.seed=5 --load-state '" +
                   (d / "drive").string() + "' -o '" + (d / "cut").string() + "'");
  ASSERT_EQ(r.code, 0) << r.err;
  const auto s = summary(d / "cut");
  ASSERT_TRUE(s.contains("power"));
  EXPECT_EQ(s["power"]["cuts"].get<uint64_t>(), 3u);
  EXPECT_EQ(s["power"]["violations"].get<uint64_t>(), 0u);
  EXPECT_EQ(s["integrity"]["mismatches"].get<uint64_t>(), 0u);
  EXPECT_GT(s["checkpoints"]["taken"].get<uint64_t>(), 0u);
  uint64_t from_checkpoint = 0;
  for (const auto& c : s["power"]["each"])
    from_checkpoint += c["recovery"]["checkpoint_generation"].get<uint64_t>() > 0;
  EXPECT_GT(from_checkpoint, 0u);  // recovered from a checkpoint written after the load
  r = ssdvp(d, "--set precondition.random_drive_writes=1 --set power.checkpoint.writes=20000 --save-state '" +
                   (d / "drive2").string() + "' --precondition-only");
  EXPECT_NE(r.code, 0);
  EXPECT_TRUE(contains(r.err, "power.checkpoint.writes")) << r.err;
}
