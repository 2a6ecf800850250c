// journal_run_test.cpp - the ext4-like journal through the real ssdvp binary
// (configs/journal.yaml, shortened): every read checked with zero mismatches
// under GC with the journal untagged and tagged, the tagged run's journal
// writes land on their own stream's frontier, fsync latencies are recorded,
// and a bad journal stream names its key.
#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>

#include "ssdvp_run.h"

namespace fs = std::filesystem;

namespace {

fs::path scratch(const std::string& name) { return ssdvp_test::scratch("ssdvp_journal", name); }

std::string ssdvp(const std::string& extra) {
  return ssdvp_test::ssdvp_run("journal.yaml",
                               "--set host.time_limit=3s --set host.files.nfiles=4000 --set log.level=error " + extra);
}

}  // namespace

TEST(JournalRun, UntaggedAndTaggedKeepIntegrityUnderGc) {
  const fs::path d = scratch("arms");
  for (const int stream : {0, 1}) {
    const fs::path out = d / ("stream" + std::to_string(stream));
    const auto r = ssdvp_test::run_command(
        d, ssdvp("--set host.files.journal_stream=" + std::to_string(stream) + " -o '" + out.string() + "'"));
    ASSERT_EQ(r.code, 0) << r.err;
    const auto j = ssdvp_test::summary(out);
    EXPECT_EQ(j["integrity"]["mismatches"], 0) << stream;
    EXPECT_GT(j["integrity"]["reads_checked"].get<uint64_t>(), 1000u) << stream;
    EXPECT_GT(j["ftl"]["gc_lba_writes"].get<uint64_t>(), 0u) << stream;  // under GC
    EXPECT_EQ(j["host"]["errors"], 0) << stream;
    const auto& jn = j["journal"];
    EXPECT_GT(jn["commits_fsync"].get<uint64_t>(), 100u) << stream;
    EXPECT_EQ(jn["journal_bytes"].get<uint64_t>(), 16u << 20);  // ext4's default for 896 MiB
    const auto& f = jn["fsync_latency_us"];
    // every fsync the workload made completed, but those the time limit left in its queue (a loop's two at most)
    const uint64_t made = jn["commits_fsync"].get<uint64_t>() + jn["empty_fsyncs"].get<uint64_t>();
    EXPECT_LE(f["count"].get<uint64_t>(), made);
    EXPECT_GE(f["count"].get<uint64_t>() + 3, made);
    EXPECT_GT(f["p50"].get<double>(), 0.0);
    EXPECT_GE(f["p99"].get<double>(), f["p50"].get<double>());
    // placement: class 0 is stream 1's frontier, class 1 the untagged writes
    const auto& cls = j["placement"]["class_lba_writes"];
    if (stream == 0) {
      EXPECT_EQ(cls[0].get<uint64_t>(), 0u);
    } else {
      // every journal block written in the timed part went to class 0
      EXPECT_GT(cls[0].get<uint64_t>(), 0u);
      EXPECT_LE(cls[0].get<uint64_t>(), jn["log_bytes"].get<uint64_t>() / 4096);
    }
  }
}

TEST(JournalRun, BadJournalStreamNamesTheKey) {
  const fs::path d = scratch("bad");
  const auto r = ssdvp_test::run_command(d, ssdvp("--set host.files.journal_stream=3 -o '" + (d / "o").string() + "'"));
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("host.files.journal_stream"), std::string::npos) << r.err;
}

// An fsync spans from its first request's admission to its last's
// completion, and the journal ends every fsync with a flush (the commit's
// FUA, or the flush of an empty fsync), so none is shorter than the shortest
// flush. With the host FTL the next fsync's first request is often admitted
// before the one before it ends (it waits behind the barrier): each end closes
// the oldest open fsync, not the newest.
TEST(JournalRun, NoFsyncIsShorterThanTheFlushThatEndsIt) {
  const fs::path d = scratch("fsync");
  for (const std::string set : {"", "--set nvme.command_set=open_channel --set host.files.journal_stream=0"}) {
    const fs::path out = d / (set.empty() ? "device" : "host");
    const auto r = ssdvp_test::run_command(d, ssdvp(set + " -o '" + out.string() + "'"));
    ASSERT_EQ(r.code, 0) << r.err;
    const auto j = ssdvp_test::summary(out);
    const auto& flush = j["latency_us"]["flush"];
    const auto& f = j["journal"]["fsync_latency_us"];
    ASSERT_GT(f["count"].get<uint64_t>(), 100u) << out;
    ASSERT_GE(flush["count"].get<uint64_t>(), f["count"].get<uint64_t>()) << out;
    // the lowest non-empty histogram buckets [lo, hi, count]: fsync's at or above the flushes'
    EXPECT_GE(f["histogram"][0][0].get<double>(), flush["histogram"][0][0].get<double>()) << out;
    EXPECT_GE(f["p50"].get<double>(), flush["p50"].get<double>()) << out;
  }
}
