// run_warnings.h - what a finished run's summary should warn about: results
// that are easy to misread when only the headline figures are looked at
// (requests that failed, folded or waited in an overrun host queue, a
// power.cut_at that never came). They go into summary.json "warnings" (only
// when there is one) and on stderr, even with --quiet.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace ssdvp {

struct RunWarningFacts {
  bool open_loop = false;       // the host issues at arrival times (host.mode)
  uint64_t queue_depth = 0;     // host.queue_depth
  bool cut_missed = false;      // power.cut_at lies after the end of the run
  double cut_at_s = 0;          // power.cut_at
  uint64_t short_requests = 0;  // requests shorter than an LBA, rounded up to one
};

std::vector<std::string> run_warnings(const nlohmann::json& summary, const RunWarningFacts& facts);

// Adds summary["warnings"] when run_warnings() has any.
void add_run_warnings(nlohmann::json& summary, const RunWarningFacts& facts);

}  // namespace ssdvp
