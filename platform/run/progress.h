// progress.h - the timed part run to its end, with a progress line on
// stderr if asked (simulated time, requests done, an estimate of the wall
// time left).
#pragma once

#include <cstdint>
#include <functional>

namespace ssdvp {

// sc_start() until the simulation stops or runs out of events. progress: in
// slices of simulated time adapted to about a fifth of `interval` wall
// seconds (log.progress_interval), with a line at most once an interval;
// expected: the requests the run will complete (0: not known, no estimate).
void run_until_stopped(bool progress, double interval, uint64_t expected,
                       const std::function<uint64_t()>& requests_done);

}  // namespace ssdvp
