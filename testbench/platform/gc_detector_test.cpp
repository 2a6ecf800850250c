// gc_detector_test.cpp - the file-level host, the TRIM policies, the iostat
// sampler and the detector through the real ssdvp and ssdvp_c45 binaries:
// integrity under every policy, the GC label read from the firmware's debug
// register agrees with the firmware's own GC time, a tree trained offline
// drives the detector policy, and bad input names the key or file.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "ssdvp_run.h"

namespace fs = std::filesystem;
using ssdvp_test::contains;

namespace {

fs::path scratch(const std::string& name) { return ssdvp_test::scratch("ssdvp_gcdet", name); }

// A quick version of configs/gcdet.yaml: 2 s of simulated time, 100 ms samples.
std::string ssdvp(const std::string& extra) {
  return ssdvp_test::ssdvp_run("gcdet.yaml", "--set host.time_limit=2s --set log.level=error " + extra);
}

std::vector<std::vector<std::string>> csv(const fs::path& p) {
  std::vector<std::vector<std::string>> rows;
  std::ifstream f(p);
  std::string line;
  while (std::getline(f, line)) {
    std::vector<std::string> r;
    std::stringstream ss(line);
    std::string c;
    while (std::getline(ss, c, ',')) r.push_back(c);
    rows.push_back(r);
  }
  return rows;
}

}  // namespace

TEST(GcDetector, PoliciesKeepIntegrityAndTrimOnlyWhenTheySay) {
  const fs::path d = scratch("policies");
  double none_waf = 0;
  for (const std::string p : {"none", "discard", "oracle", "idle"}) {
    const fs::path out = d / p;
    const auto r = ssdvp_test::run_command(d, ssdvp("--set host.trim.policy=" + p + " -o '" + out.string() + "'"));
    ASSERT_EQ(r.code, 0) << p << ": " << r.err;
    const auto j = ssdvp_test::summary(out);
    EXPECT_EQ(j["integrity"]["mismatches"], 0) << p;
    EXPECT_EQ(j["trim"]["policy"], p);
    const uint64_t trimmed = j["trim"]["files"]["trimmed_bytes"];
    if (p == "none" || p == "idle") {  // a sustained load is never idle
      EXPECT_EQ(trimmed, 0u) << p;
      EXPECT_EQ(j["host"]["trims"], 0) << p;
    } else {
      EXPECT_GT(trimmed, 0u) << p;
      EXPECT_GT(j["host"]["trims"].get<uint64_t>(), 0u) << p;
    }
    if (p == "none") none_waf = j["ftl"]["waf"];
    if (p == "discard") {
      EXPECT_LT(j["ftl"]["waf"].get<double>(), none_waf);  // trimmed free space is spare
    }
  }
}

TEST(GcDetector, IdlePolicyTrimsWhenTheHostPauses) {
  // Open loop at 2 fio writes per second: the drive is idle most of the time,
  // so the idle policy sends the pending discards; closed loop it never does
  // (previous test).
  const fs::path d = scratch("idle");
  const auto r = ssdvp_test::run_command(d, ssdvp("--set host.mode=auto --set host.files.rate=2 --set "
                                                  "host.trim.policy=idle --set host.trim.idle_time=200ms -o '" +
                                                  (d / "o").string() + "'"));
  ASSERT_EQ(r.code, 0) << r.err;
  const auto j = ssdvp_test::summary(d / "o");
  EXPECT_GE(j["trim"]["batches"].get<uint64_t>(), 1u);
  EXPECT_GT(j["trim"]["policy_bytes"].get<uint64_t>(), 0u);
  EXPECT_GT(j["host"]["trims"].get<uint64_t>(), 0u);
  EXPECT_EQ(j["integrity"]["mismatches"], 0);
  EXPECT_LE(j["host"]["writes"].get<uint64_t>(), 6u);  // paced: about 2 per second over 2 s
}

TEST(GcDetector, LabelFromTheDebugRegisterMatchesTheFirmware) {
  const fs::path d = scratch("label");
  const auto r = ssdvp_test::run_command(d, ssdvp("-o '" + (d / "o").string() + "'"));
  ASSERT_EQ(r.code, 0) << r.err;
  const auto rows = csv(d / "o" / "iostat.csv");
  ASSERT_GE(rows.size(), 20u);
  ASSERT_EQ(rows[0].size(), 1u + 34u + 3u);
  EXPECT_EQ(rows[0][1], "r/s");
  EXPECT_EQ(rows[0][35], "gc_frac");
  double gc_s = 0;
  bool some_gc = false, some_idle = false;
  for (size_t i = 1; i < rows.size(); ++i) {
    const double g = std::stod(rows[i][35]);
    EXPECT_GE(g, 0.0);
    EXPECT_LE(g, 1.0 + 1e-9);
    gc_s += g * 0.1;
    some_gc |= g > 0.5;
    some_idle |= g < 0.5;
  }
  EXPECT_TRUE(some_gc);
  EXPECT_TRUE(some_idle);  // the first samples, before free blocks run out
  // The firmware's own count covers the timed part up to the last
  // completion; the samples end at the last full 100 ms.
  const double fw = ssdvp_test::summary(d / "o")["ftl"]["gc_active_s"];
  EXPECT_NEAR(gc_s, fw, 0.1 + 0.02 * fw);
}

TEST(GcDetector, FilebenchReadsAreChecked) {
  const fs::path d = scratch("varmail");
  const auto r = ssdvp_test::run_command(
      d, ssdvp("--set host.files.personality=varmail --set host.time_limit=300ms --set host.trim.policy=discard -o '" +
               (d / "o").string() + "'"));
  ASSERT_EQ(r.code, 0) << r.err;
  const auto j = ssdvp_test::summary(d / "o");
  EXPECT_GT(j["integrity"]["reads_checked"].get<uint64_t>(), 1000u);
  EXPECT_EQ(j["integrity"]["mismatches"], 0);
  EXPECT_GT(j["host"]["flushes"].get<uint64_t>(), 0u);
}

TEST(GcDetector, TrainedTreeDrivesTheDetector) {
  const fs::path d = scratch("detector");
  auto r = ssdvp_test::run_command(d, ssdvp("--set host.trim.policy=oracle -o '" + (d / "train").string() + "'"));
  ASSERT_EQ(r.code, 0) << r.err;
  const fs::path tree = d / "tree.txt";
  r = ssdvp_test::run_command(d, std::string("'") + SSDVP_C45 + "' train -o '" + tree.string() + "' '" +
                                     (d / "train" / "iostat.csv").string() + "'");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_TRUE(contains(r.out, "Number of leaves"));
  r = ssdvp_test::run_command(d, ssdvp("--set host.trim.policy=detector --set host.detector.tree='" + tree.string() +
                                       "' --set host.files.seed=5 -o '" + (d / "det").string() + "'"));
  ASSERT_EQ(r.code, 0) << r.err;
  const auto j = ssdvp_test::summary(d / "det");
  EXPECT_GE(j["trim"]["classifications"].get<uint64_t>(), 19u);
  EXPECT_EQ(j["integrity"]["mismatches"], 0);
  r = ssdvp_test::run_command(
      d, std::string("'") + SSDVP_C45 + "' eval '" + tree.string() + "' '" + (d / "det" / "iostat.csv").string() + "'");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_TRUE(contains(r.out, "F1"));
}

TEST(GcDetector, BadInputNamesTheKeyOrFile) {
  const fs::path d = scratch("bad");
  {
    std::ofstream(d / "bad.tree")
        << "c45-tree 1\nclasses idle gc\nattributes 1\nattr w/s continuous\nsplit 0 x 0 1 0\n";
    const auto r = ssdvp_test::run_command(
        d, ssdvp("--set host.trim.policy=detector --set host.detector.tree='" + (d / "bad.tree").string() + "'"));
    EXPECT_EQ(r.code, 2);
    EXPECT_TRUE(contains(r.err, "host.detector.tree")) << r.err;
    EXPECT_TRUE(contains(r.err, "bad.tree:5")) << r.err;
  }
  {
    const auto r = ssdvp_test::run_command(d, ssdvp("--set ftl.debug.gc_register=0"));
    EXPECT_EQ(r.code, 2);
    EXPECT_TRUE(contains(r.err, "ftl.debug.gc_register")) << r.err;
  }
  {
    const auto r = ssdvp_test::run_command(d, ssdvp("--set host.trim.policy=detector"));
    EXPECT_EQ(r.code, 2);
    EXPECT_TRUE(contains(r.err, "host.detector.tree")) << r.err;
  }
  {
    const auto r = ssdvp_test::run_command(d, ssdvp("--set host.files.personality=fileserver"));
    EXPECT_EQ(r.code, 2);
    EXPECT_TRUE(contains(r.err, "host.files.nfiles")) << r.err;
    EXPECT_TRUE(contains(r.err, "more space than the namespace")) << r.err;
  }
  {
    const auto r = ssdvp_test::run_command(d, ssdvp("--set workload.source=synthetic --set host.trim.policy=discard"));
    EXPECT_EQ(r.code, 2);
    EXPECT_TRUE(contains(r.err, "host.trim.policy")) << r.err;
  }
  {
    std::ofstream(d / "short.csv") << "time_s,r/s,gc_frac\n0.1,5,1\n";
    std::ofstream(d / "t.tree") << "c45-tree 1\nclasses idle gc\nattributes 1\nattr w/s continuous\nleaf 1 1 0\n";
    const auto r = ssdvp_test::run_command(d, std::string("'") + SSDVP_C45 + "' eval '" + (d / "t.tree").string() +
                                                  "' '" + (d / "short.csv").string() + "'");
    EXPECT_EQ(r.code, 2);
    EXPECT_TRUE(contains(r.err, "short.csv: missing column 'w/s'")) << r.err;
  }
}

// A replayed trace's discards held for the TRIM policy
// (workload.trace_discards: hold, platform/host/fs/held_discards.h), on a
// file system's trace written here: 50 files of 16 MiB on the full drive,
// each step deletes one (a trim of its extent) and writes a new one into a
// free slot in 512 KiB writes, as fio's delete-and-recreate job does. Sent
// as recorded, the deletes free the space GC collects; held and never sent,
// every file ever written stays valid to the drive; held and sent when the
// firmware collects (oracle), most of the difference comes back.
TEST(GcDetector, ATracesHeldDiscardsAreSentOnlyWhenThePolicySays) {
  const fs::path d = scratch("held");
  const fs::path trace = d / "fs.iolog";
  {
    std::ofstream f(trace);
    f << "fio version 3 iolog\n";
    const uint64_t slot = 16ull << 20, piece = 512 << 10, slots = 50;
    std::vector<bool> live(slots, true);
    for (uint64_t s = 40; s < slots; ++s) live[s] = false;  // 10 free slots (deleted before the trace)
    uint64_t x = 12345, t = 0;
    auto pick = [&](bool want) {
      for (;;) {
        x = x * 6364136223846793005ull + 1442695040888963407ull;
        const uint64_t s = (x >> 33) % slots;
        if (live[s] == want) return s;
      }
    };
    for (int step = 0; step < 60; ++step) {
      const uint64_t del = pick(true), put = pick(false);
      f << t++ << " fs trim " << del * slot << ' ' << slot << '\n';
      live[del] = false;
      for (uint64_t o = 0; o < slot; o += piece) f << t++ << " fs write " << put * slot + o << ' ' << piece << '\n';
      live[put] = true;
      f << t++ << " fs read " << put * slot << ' ' << piece << '\n';  // read back: the integrity check's sample
    }
  }
  const std::string base = "--set workload.source=trace --set workload.format=fio --set workload.trace='" +
                           trace.string() + "' --set host.time_limit=0s ";
  double waf_sent = 0, waf_held = 0, waf_oracle = 0;
  for (const std::string arm : {"send", "none", "oracle"}) {
    const fs::path out = d / arm;
    const std::string opts = arm == "send" ? "--set workload.trace_discards=send"
                                           : "--set workload.trace_discards=hold --set host.trim.policy=" + arm;
    const auto r = ssdvp_test::run_command(d, ssdvp(base + opts + " -o '" + out.string() + "'"));
    ASSERT_EQ(r.code, 0) << arm << ": " << r.err;
    const auto j = ssdvp_test::summary(out);
    ssdvp_test::expect_clean_run(j, 30);
    const double waf = j["ftl"]["waf"];
    const uint64_t sent = j["host"]["trims"];
    if (arm == "send") {
      waf_sent = waf;
      EXPECT_EQ(sent, 60u);  // each delete, as recorded
      continue;
    }
    const auto& h = j["trim"]["held"];
    EXPECT_EQ(h["trace_trims"], 60u) << arm;
    if (arm == "none") {
      waf_held = waf;
      EXPECT_EQ(sent, 0u);
      EXPECT_EQ(h["released_bytes"], 0u);
      EXPECT_GT(h["pending_bytes_at_end"].get<uint64_t>(), 0u);
      EXPECT_GT(h["reused_bytes"].get<uint64_t>(), 0u);  // deleted slots written again: taken back, never trimmed
    } else {
      waf_oracle = waf;
      EXPECT_GT(sent, 0u);
      EXPECT_EQ(h["released_bytes"], j["trim"]["policy_bytes"]);
      EXPECT_GT(j["trim"]["batches"].get<uint64_t>(), 0u);
    }
  }
  EXPECT_GT(waf_held, 1.3 * waf_sent) << waf_held << " vs " << waf_sent;
  EXPECT_LT(waf_oracle, waf_held) << waf_oracle << " vs " << waf_held;
}
