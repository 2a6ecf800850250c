// streams_cli_test.cpp - the ssdvp command with host streams: the host's
// stream setup failing clearly (device limit below what the host needs, a
// stream count above the classes, a model file for other features), and a
// small LSTM run that trains, writes its report and model, and reloads the
// model in a second run; host.streams: journal on the recorded real ext4
// session (its journal's writes on their stream, bad keys named) and
// workload.flush_order (flush latency in the summary).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "run_command.h"

namespace fs = std::filesystem;
using ssdvp_test::contains;

namespace {

const std::string kCfg = SSDVP_SOURCE_DIR "/configs/streams.yaml";

ssdvp_test::CommandResult run(const fs::path& d, const std::string& args) {
  return ssdvp_test::run_command(d, std::string("'") + SSDVP_BIN + "' run -c '" + kCfg + "' -o '" +
                                        (d / "out").string() +
                                        "' --set precondition.fill=0 --set workload.app.operations=3000 " + args);
}

TEST(StreamsCli, DeviceStreamLimitBelowTheHostsNeedIsAClearError) {
  const fs::path d = ssdvp_test::scratch("streams_cli", "limit");
  auto r = run(d, "--set host.streams=oracle --set ftl.streams.limit=4");
  EXPECT_NE(r.code, 0);
  EXPECT_TRUE(contains(r.err, "allocated 4 streams of the 8")) << r.err;
  EXPECT_TRUE(contains(r.err, "ftl.streams.limit")) << r.err;
  r = run(d, "--set host.streams=autostream --set host.predict.streams=8 --set ftl.hot.classes=4");
  EXPECT_EQ(r.code, 2);
  EXPECT_TRUE(contains(r.err, "host.predict.streams")) << r.err;
}

TEST(StreamsCli, LstmTrainsSavesAndReloadsItsModelAndRefusesAMismatch) {
  const fs::path d = ssdvp_test::scratch("streams_cli", "lstm");
  const std::string common =
      "--set host.streams=lstm --set workload.app.operations=12000 --set host.predict.period=1s "
      "--set host.predict.chunks=500 --set host.predict.train_periods=4 --set host.predict.k=2 --set "
      "host.predict.epochs=2 ";
  auto r = run(d, common + "--set host.predict.model_out='" + (d / "m.txt").string() + "' --set host.predict.report='" +
                      (d / "rep.json").string() + "'");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_TRUE(contains(r.err, "stream predictor: selected")) << r.err;
  const std::string rep = ssdvp_test::slurp(d / "rep.json");
  EXPECT_TRUE(contains(rep, "\"pearson\"")) << rep;
  EXPECT_TRUE(contains(rep, "\"trained_at_period\": 4")) << rep;
  EXPECT_TRUE(fs::exists(d / "m.txt"));
  // the report's headline is in the summary too, with the same figures
  const std::string sum = ssdvp_test::slurp(d / "out" / "summary.json");
  EXPECT_TRUE(contains(sum, "\"predictor\"")) << sum.substr(0, 400);
  EXPECT_TRUE(contains(sum, "\"trained_at_period\": 4")) << sum.substr(0, 400);
  EXPECT_TRUE(contains(sum, "\"lstm_periods_scored\"")) << sum.substr(0, 400);
  r = run(d, common + "--set host.predict.model='" + (d / "m.txt").string() + "'");
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_FALSE(contains(r.err, "stream predictor: selected")) << "a loaded model is not trained again";
  r = run(d,
          common + "--set host.predict.model='" + (d / "m.txt").string() + "' --set host.predict.features=reads,trims");
  EXPECT_EQ(r.code, 2);
  EXPECT_TRUE(contains(r.err, (d / "m.txt").string() + ":2")) << r.err;
}

// The bundled guest recording (traces/nbd-ext4-guest.iolog) on the drive it
// was recorded on, with the journal's blocks from a real mkfs.ext4 of that
// volume (traces/ext4-896MiB.layout: blocks 65536..69631): exactly the writes
// that start in the journal go on stream 1, and there are some of each.
TEST(StreamsCli, JournalStreamsTagTheRecordedExt4Journal) {
  const fs::path d = ssdvp_test::scratch("streams_cli", "journal");
  const std::string base = std::string("'") + SSDVP_BIN + "' run -c '" SSDVP_SOURCE_DIR "/configs/nbd.yaml' -o '" +
                           (d / "out").string() +
                           "' --set workload.source=trace --set workload.trace='" SSDVP_SOURCE_DIR
                           "/traces/nbd-ext4-guest.iolog' --set workload.format=fio --set "
                           "workload.fio_time_unit_ps=1 --set precondition.fill=0 --set ftl.placement.policy=stream "
                           "--set ftl.hot.classes=2 --set host.streams=journal ";
  const std::string layout = "--set host.files.ext4.layout='" SSDVP_SOURCE_DIR "/traces/ext4-896MiB.layout' ";
  auto r = ssdvp_test::run_command(d, base + layout + "--set host.files.journal_stream=1 --set host.streams_log='" +
                                          (d / "s.csv").string() +
                                          "' --set host.mode=closed --set "
                                          "workload.flush_order=true");
  ASSERT_EQ(r.code, 0) << r.err;
  std::ifstream f(d / "s.csv");
  std::string line;
  std::getline(f, line);
  uint64_t tagged = 0, untagged = 0;
  const uint64_t lo = 65536ull * 4096, hi = 69632ull * 4096;
  while (std::getline(f, line)) {
    std::stringstream ss(line);
    std::string t, op, off, len, st;
    std::getline(ss, t, ',');
    std::getline(ss, op, ',');
    std::getline(ss, off, ',');
    std::getline(ss, len, ',');
    std::getline(ss, st, ',');
    if (op != "write") continue;
    const uint64_t o = std::stoull(off);
    EXPECT_EQ(st, o >= lo && o < hi ? "1" : "0") << line;
    (st == "1" ? tagged : untagged)++;
  }
  EXPECT_GT(tagged, 10u);
  EXPECT_GT(untagged, 10u);
  const std::string sum = ssdvp_test::slurp(d / "out" / "summary.json");
  EXPECT_TRUE(contains(sum, "\"flush\": {")) << "flush latency in latency_us";
  EXPECT_TRUE(contains(sum, "\"mismatches\": 0")) << sum.substr(0, 2000);
  r = ssdvp_test::run_command(d, base + "--set host.files.journal_stream=1");
  EXPECT_EQ(r.code, 2);
  EXPECT_TRUE(contains(r.err, "host.files.ext4.layout")) << r.err;
  r = ssdvp_test::run_command(d, base + layout);
  EXPECT_EQ(r.code, 2);
  EXPECT_TRUE(contains(r.err, "host.files.journal_stream")) << r.err;
  r = ssdvp_test::run_command(d, base + layout + "--set host.files.journal_stream=3");
  EXPECT_EQ(r.code, 2);
  EXPECT_TRUE(contains(r.err, "host.files.journal_stream")) << r.err;
}

}  // namespace
