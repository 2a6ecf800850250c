// streams_cli_test.cpp - the ssdvp command with host streams: the host's
// stream setup failing clearly (device limit below what the host needs, a
// stream count above the classes, a model file for other features), and a
// small LSTM run that trains, writes its report and model, and reloads the
// model in a second run.
#include <gtest/gtest.h>

#include <filesystem>
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
  r = run(d, common + "--set host.predict.model='" + (d / "m.txt").string() + "'");
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_FALSE(contains(r.err, "stream predictor: selected")) << "a loaded model is not trained again";
  r = run(d,
          common + "--set host.predict.model='" + (d / "m.txt").string() + "' --set host.predict.features=reads,trims");
  EXPECT_EQ(r.code, 2);
  EXPECT_TRUE(contains(r.err, (d / "m.txt").string() + ":2")) << r.err;
}

}  // namespace
