// small_run.h - the power-cut tests' run: configs/small.yaml with the drive
// written over once before the timed part, plus the test's --set options.
#pragma once

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "run_command.h"

namespace ssdvp_test {

// Runs ssdvp in scratch directory <tag>_<name>; returns its summary.json, or
// an empty object (and a test failure naming the command) if it failed.
inline nlohmann::json small_run(const std::string& tag, const std::string& name, const std::vector<std::string>& sets) {
  const auto dir = scratch(tag, name);
  std::string cmd = std::string(SSDVP_BIN) + " run -q -c " SSDVP_SOURCE_DIR "/configs/small.yaml -o '" + dir.string() +
                    "' --set precondition.random_drive_writes=1.0";
  for (const auto& s : sets) cmd += " --set " + s;
  const auto r = run_command(dir, cmd);
  EXPECT_EQ(r.code, 0) << cmd << "\n" << r.err;
  if (r.code != 0) return nlohmann::json::object();
  return nlohmann::json::parse(slurp(dir / "summary.json"));
}

}  // namespace ssdvp_test
