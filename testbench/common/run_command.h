// run_command.h - for tests that run a program (the ssdvp binary, a tool)
// in its own process (one SystemC simulation per process): a fresh scratch
// directory per test, and a command's exit code, stdout and stderr.
#pragma once

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

namespace ssdvp_test {

inline std::string slurp(const std::filesystem::path& p) {
  std::ifstream f(p);
  std::stringstream s;
  s << f.rdbuf();
  return s.str();
}

// A fresh, empty directory under the test temporary directory,
// <prefix>_<name>_<pid> (ctest runs tests in parallel processes).
inline std::filesystem::path scratch(const std::string& prefix, const std::string& name) {
  const std::filesystem::path d =
      std::filesystem::path(testing::TempDir()) / (prefix + "_" + name + "_" + std::to_string(::getpid()));
  std::filesystem::remove_all(d);
  std::filesystem::create_directories(d);
  return d;
}

struct CommandResult {
  int code = -1;  // exit status; -1 if the process did not exit normally
  std::string out, err;
};

// Runs `cmd` in a shell, its stdout and stderr kept in dir/stdout.txt and
// dir/stderr.txt. SystemC's banner is turned off.
inline CommandResult run_command(const std::filesystem::path& dir, const std::string& cmd) {
  const std::filesystem::path out = dir / "stdout.txt", err = dir / "stderr.txt";
  const std::string line =
      "SYSTEMC_DISABLE_COPYRIGHT_MESSAGE=1 " + cmd + " >'" + out.string() + "' 2>'" + err.string() + "'";
  const int st = std::system(line.c_str());
  CommandResult r;
  r.code = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
  r.out = slurp(out);
  r.err = slurp(err);
  return r;
}

// `BINARY run -q ARGS -o <a fresh scratch directory>` and the text of its
// summary.json; "{}" (and a test failure naming the command and its stderr)
// if the run failed.
inline std::string run_summary(const std::string& binary, const std::string& prefix, const std::string& name,
                               const std::string& args) {
  const auto dir = scratch(prefix, name);
  const std::string cmd = binary + " run -q " + args + " -o '" + dir.string() + "'";
  const CommandResult r = run_command(dir, cmd);
  EXPECT_EQ(r.code, 0) << cmd << "\n" << r.err;
  return r.code == 0 ? slurp(dir / "summary.json") : "{}";
}

// The summary's run.* fields that measure the process rather than the
// simulation (docs/outputs.md): a comparison of two runs leaves them out, as
// scripts/compare-summaries.py does (with ssdvp_version).
inline constexpr const char* kProcessRunFields[] = {"wall_s", "cpu_s", "host_ios_per_s", "peak_rss_mb"};

inline bool contains(const std::string& hay, const std::string& needle) {
  return hay.find(needle) != std::string::npos;
}

}  // namespace ssdvp_test
