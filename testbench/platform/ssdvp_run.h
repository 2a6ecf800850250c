// ssdvp_run.h - for the platform tests that run the ssdvp binary on one of
// the bundled configurations (SSDVP_BIN and SSDVP_SOURCE_DIR come from
// testbench/platform/CMakeLists.txt): the command, its summary and the
// check that a bad configuration is refused naming its key.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>

#include "run_command.h"

namespace ssdvp_test {

// `ssdvp run -c configs/<config> --quiet <options>`.
inline std::string ssdvp_run(const std::string& config, const std::string& options) {
  return std::string("'") + SSDVP_BIN + "' run -c '" SSDVP_SOURCE_DIR "/configs/" + config + "' --quiet " + options;
}

// The summary.json a run wrote into `out`.
inline nlohmann::json summary(const std::filesystem::path& out) {
  return nlohmann::json::parse(slurp(out / "summary.json"));
}

// What every clean run shows: its reads checked (more than `min_reads`)
// without a mismatch, no host error, no NAND rule broken, the run finished.
inline void expect_clean_run(const nlohmann::json& j, uint64_t min_reads) {
  EXPECT_EQ(j["integrity"]["mismatches"], 0);
  EXPECT_GT(j["integrity"]["reads_checked"].get<uint64_t>(), min_reads);
  EXPECT_EQ(j["host"]["errors"], 0);
  EXPECT_EQ(j["flash"]["violations"], 0);
  EXPECT_TRUE(j["run"]["finished"].get<bool>());
}

// `cmd` exits 2 (a configuration error) and its message names `key`.
inline void expect_refused(const std::filesystem::path& dir, const std::string& cmd, const std::string& key) {
  const CommandResult r = run_command(dir, cmd);
  EXPECT_EQ(r.code, 2) << cmd;
  EXPECT_TRUE(contains(r.err, key)) << cmd << ": " << r.err;
}

}  // namespace ssdvp_test
