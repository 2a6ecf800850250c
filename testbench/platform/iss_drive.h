// iss_drive.h - the drive the iss-mode platform tests run (iss_mode_test.cpp,
// iss_power_test.cpp): 256 MiB of flash, aged functionally (a fill and half a
// drive-write of random overwrites; in iss mode every functional write runs on
// the ISS), and the quiet workload: 4,000 requests at 20 per second, GC runs
// during the timed part, and each request finds the drive idle. The config is
// iss_quiet.yaml beside this file, which the dftl and reliability pages' scripts
// run too (scripts/runpoint.py, ISS_QUIET_YAML).
#pragma once

#include <string>

#include "run_command.h"

namespace ssdvp_test {

inline const std::string kIssQuiet = slurp(SSDVP_SOURCE_DIR "/testbench/platform/iss_quiet.yaml");

}  // namespace ssdvp_test
