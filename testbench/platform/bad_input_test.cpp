// bad_input_test.cpp - input a user gets wrong, through the real binary
// (SSDVP_BIN): a YAML key given twice, a trace with nothing to replay, binary
// or huge lines quoted back, timestamps that go backwards; and --help and
// --version without SystemC's banner.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <random>
#include <string>

#include "run_command.h"

namespace fs = std::filesystem;
using ssdvp_test::contains;
using ssdvp_test::slurp;
using Result = ssdvp_test::CommandResult;

namespace {

const std::string kSmall = SSDVP_SOURCE_DIR "/configs/small.yaml";

fs::path scratch(const std::string& name) { return ssdvp_test::scratch("ssdvp_bad_input", name); }

Result run_ssdvp(const fs::path& dir, const std::string& args) {
  return ssdvp_test::run_command(dir, std::string("'") + SSDVP_BIN + "' " + args);
}

Result replay(const fs::path& dir, const fs::path& trace, const std::string& extra = "") {
  return run_ssdvp(dir, "run -c '" + kSmall + "' --trace '" + trace.string() +
                            "' --format mqsim --set precondition.fill=0 " + extra + " -o '" + (dir / "out").string() +
                            "'");
}

bool printable(const std::string& s) {
  for (unsigned char c : s)
    if ((c < 0x20 && c != '\n') || c > 0x7e) return false;
  return true;
}

}  // namespace

TEST(BadInput, HelpAndVersionPrintNoSystemCBanner) {
  const fs::path d = scratch("banner");
  for (const std::string& args : {std::string("--version"), std::string("--help"), std::string("")}) {
    // run_command turns the banner off; take that away again
    const Result r =
        ssdvp_test::run_command(d, std::string("env -u SYSTEMC_DISABLE_COPYRIGHT_MESSAGE '") + SSDVP_BIN + "' " + args);
    EXPECT_FALSE(contains(r.out + r.err, "SystemC")) << args << ": " << r.out << r.err;
    EXPECT_FALSE(contains(r.out + r.err, "Copyright")) << args;
  }
  const Result v =
      ssdvp_test::run_command(d, std::string("env -u SYSTEMC_DISABLE_COPYRIGHT_MESSAGE '") + SSDVP_BIN + "' --version");
  EXPECT_EQ(v.code, 0);
  EXPECT_EQ(v.out.rfind("ssdvp ", 0), 0u) << v.out;
  EXPECT_TRUE(v.err.empty()) << v.err;
}

TEST(BadInput, DuplicateYamlKeyIsRejectedNamingBothLines) {
  const fs::path d = scratch("dup_yaml");
  std::ofstream(d / "dup.yaml") << "flash:\n  channels: 4\n  dies_per_channel: 2\n  channels: 8\n";
  Result r = run_ssdvp(d, "params -c '" + (d / "dup.yaml").string() + "'");
  EXPECT_EQ(r.code, 2) << r.err;
  EXPECT_TRUE(contains(r.err, "dup.yaml:4")) << r.err;
  EXPECT_TRUE(contains(r.err, "flash.channels")) << r.err;
  EXPECT_TRUE(contains(r.err, "line 2")) << r.err;
  // the same key as a dotted key and inside a map
  std::ofstream(d / "dup2.yaml") << "ftl:\n  gc:\n    policy: fifo\nftl.gc.policy: greedy\n";
  r = run_ssdvp(d, "params -c '" + (d / "dup2.yaml").string() + "'");
  EXPECT_EQ(r.code, 2) << r.err;
  EXPECT_TRUE(contains(r.err, "dup2.yaml:4")) << r.err;
  EXPECT_TRUE(contains(r.err, "line 3")) << r.err;
  // dotted and nested spellings of different keys are fine
  std::ofstream(d / "mixed.yaml") << "ftl.seed: 3\nftl:\n  gc:\n    policy: fifo\n";
  r = run_ssdvp(d, "params -c '" + (d / "mixed.yaml").string() + "'");
  EXPECT_EQ(r.code, 0) << r.err;
  // a section given twice
  std::ofstream(d / "dup3.yaml") << "host:\n  queue_depth: 4\nflash:\n  channels: 2\nhost:\n  submit: 1us\n";
  r = run_ssdvp(d, "params -c '" + (d / "dup3.yaml").string() + "'");
  EXPECT_EQ(r.code, 2) << r.err;
  EXPECT_TRUE(contains(r.err, "dup3.yaml:5")) << r.err;
  EXPECT_TRUE(contains(r.err, "line 1")) << r.err;
}

// Found with the config fuzz harness's inputs (testbench/fuzz/regressions/config):
// yaml-cpp's own "bad conversion" escaped as an internal error (exit 1).
TEST(BadInput, ListOrMapAsAYamlKeyIsAConfigErrorNamingTheLine) {
  const fs::path d = scratch("key_yaml");
  std::ofstream(d / "list.yaml") << "flash:\n  channels: 4\n  [a, b]: 1\n";
  Result r = run_ssdvp(d, "params -c '" + (d / "list.yaml").string() + "'");
  EXPECT_EQ(r.code, 2) << r.err;
  EXPECT_TRUE(contains(r.err, "list.yaml:3")) << r.err;
  EXPECT_TRUE(contains(r.err, "under 'flash'")) << r.err;
  std::ofstream(d / "map.yaml") << "? {a: 1}\n: 2\n";
  r = run_ssdvp(d, "params -c '" + (d / "map.yaml").string() + "'");
  EXPECT_EQ(r.code, 2) << r.err;
  EXPECT_TRUE(contains(r.err, "map.yaml:1: a key must be a plain name")) << r.err;
}

// Found by the config fuzz harness: a config value was echoed whole into its error.
TEST(BadInput, HugeOrBinaryConfigValuesAreQuotedShortAndEscaped) {
  const fs::path d = scratch("long_value");
  const std::string huge(100000, '7');
  Result r = run_ssdvp(d, "params --set ftl.seed=" + huge + "x");
  EXPECT_EQ(r.code, 2) << r.err.substr(0, 300);
  EXPECT_TRUE(contains(r.err, "ftl.seed")) << r.err.substr(0, 300);
  EXPECT_TRUE(contains(r.err, "(100001 bytes)")) << r.err.substr(0, 300);
  EXPECT_LT(r.err.size(), 400u);
  std::ofstream(d / "bin.yaml") << "host:\n  queue_depth: \"\\x01\\x02\"\n";
  r = run_ssdvp(d, "params -c '" + (d / "bin.yaml").string() + "'");
  EXPECT_EQ(r.code, 2) << r.err;
  EXPECT_TRUE(contains(r.err, "'\\x01\\x02'")) << r.err;
  EXPECT_TRUE(printable(r.err)) << r.err;
}

TEST(BadInput, TraceWithNothingToReplayIsAnErrorUnlessAllowed) {
  const fs::path d = scratch("empty_trace");
  std::ofstream(d / "empty.trace") << "";
  std::ofstream(d / "zero.trace") << "0 0 0 0 0\n1000 0 8 0 1\n";
  for (const char* t : {"empty.trace", "zero.trace"}) {
    const Result r = replay(d, d / t);
    EXPECT_EQ(r.code, 2) << t << ": " << r.err;
    EXPECT_TRUE(contains(r.err, t)) << r.err;
    EXPECT_TRUE(contains(r.err, "no requests")) << r.err;
    EXPECT_TRUE(contains(r.err, "workload.allow_empty")) << r.err;
    EXPECT_FALSE(fs::exists(d / "out" / "summary.json")) << t;
  }
  const Result ok = replay(d, d / "zero.trace", "--set workload.allow_empty=true");
  EXPECT_EQ(ok.code, 0) << ok.err;
  const auto j = nlohmann::json::parse(slurp(d / "out" / "summary.json"));
  EXPECT_EQ(j["workload"]["requests"].get<uint64_t>(), 0u);
}

TEST(BadInput, BinaryOrHugeLinesAreQuotedShortAndEscaped) {
  const fs::path d = scratch("binary");
  {
    std::mt19937 rng(7);
    std::ofstream f(d / "bin.trace", std::ios::binary);
    for (int i = 0; i < 4000; ++i) f.put(char(rng() & 0xff));
  }
  {
    std::ofstream f(d / "huge.trace");
    f << "0 0 " << std::string(10u << 20, '7') << " 8 0\n";
  }
  for (const char* t : {"bin.trace", "huge.trace"}) {
    for (const char* fmt : {"mqsim", "auto"}) {
      const Result r = run_ssdvp(d, "run -c '" + kSmall + "' --trace '" + (d / t).string() + "' --format " + fmt +
                                        " -o '" + (d / "out").string() + "'");
      EXPECT_EQ(r.code, 2) << t << " " << fmt;
      EXPECT_TRUE(contains(r.err, t)) << r.err.substr(0, 300);
      EXPECT_LT(r.err.size(), 2000u) << t << " " << fmt;
      EXPECT_TRUE(printable(r.err)) << t << " " << fmt << ": " << r.err.substr(0, 300);
    }
  }
}

TEST(BadInput, BackwardsTimestampsAreIssuedInFileOrderAndCounted) {
  const fs::path d = scratch("backwards");
  std::ofstream(d / "back.trace") << "0 0 0 8 0\n3000 0 8 8 0\n1000 0 16 8 1\n500 0 24 8 1\n4000 0 32 8 0\n";
  const Result r = replay(d, d / "back.trace");
  ASSERT_EQ(r.code, 0) << r.err;
  const auto j = nlohmann::json::parse(slurp(d / "out" / "summary.json"));
  EXPECT_EQ(j["workload"]["backwards_timestamps"].get<uint64_t>(), 2u);
  EXPECT_EQ(j["workload"]["requests"].get<uint64_t>(), 5u);
  EXPECT_TRUE(contains(r.out, "2 records had a timestamp earlier than the previous one")) << r.out;
}
