// request_pacer.h - when a host issues its workload's requests and when it
// gives up on the device: one rule for the host driver (host_driver.h) and
// the RAID controller (array/array_ctrl.h).
//
// Open loop: a request is due at its timestamp, counted from the replay's
// start (t0), and its latency runs from then. Closed loop: a request is due
// as soon as the host holds fewer than host.queue_depth requests (the host
// driver counts the ones admitted and not wholly issued, the array the ones
// not complete), and its latency runs from its issue. host.mode auto is
// closed for a workload that has no arrival rate (a synthetic one without
// workload.synthetic.iops, a file-level one without host.files.rate), open
// otherwise. No request is read once host.time_limit has passed since t0.
// Stall detection: the host notes progress (a completion, or nothing
// outstanding); with something outstanding and no progress for
// host.stall_timeout the device counts as stuck.
#pragma once

#include <cstdint>

#include "common/config.h"

namespace ssdvp {

class RequestPacer {
 public:
  // host.queue_depth, host.mode (and what auto looks at), host.time_limit and
  // host.stall_timeout.
  static RequestPacer from_config(Config& cfg);

  bool closed_loop() const { return closed_loop_; }
  uint32_t depth() const { return depth_; }
  uint64_t limit_ps() const { return limit_ps_; }
  uint64_t stall_ps() const { return stall_ps_; }

  // The replay starts at t0 (request times count from it).
  void start(uint64_t t0) { t0_ = t0; }
  uint64_t t0() const { return t0_; }
  // host.time_limit has passed: read no more requests.
  bool past_limit(uint64_t now) const { return limit_ps_ && now - t0_ >= limit_ps_; }
  // Whether a request of trace time `time_ps` is due now, the host holding
  // `backlog` requests; and its arrival (where its latency starts).
  bool due(uint64_t time_ps, uint64_t backlog, uint64_t now) const {
    return closed_loop_ ? backlog < depth_ : t0_ + time_ps <= now;
  }
  uint64_t arrival(uint64_t time_ps, uint64_t now) const { return closed_loop_ ? now : t0_ + time_ps; }

  // Stall detection.
  void progress(uint64_t now) { last_progress_ps_ = now; }
  bool stalled(uint64_t now, bool outstanding) const {
    return stall_ps_ && outstanding && now - last_progress_ps_ >= stall_ps_;
  }
  uint64_t stall_at() const { return last_progress_ps_ + stall_ps_; }  // with stall_ps() set

 private:
  bool closed_loop_ = false;
  uint32_t depth_ = 32;
  uint64_t limit_ps_ = 0, stall_ps_ = 0;
  uint64_t t0_ = 0, last_progress_ps_ = 0;
};

}  // namespace ssdvp
