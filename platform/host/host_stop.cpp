// host_stop.cpp - a flow's host deleting its I/O queue pair at its stop
// (flows.<i>.stop_queues; host_driver.h, set_queue_deleter).
//
// The driver's rule for what is outstanding: with drain, nothing is (the
// replay has ended: every command completed), so Delete I/O SQ and Delete
// I/O CQ find the queues empty. With abort, at the stop time: requests not
// yet wholly issued are given up (the ones with no command outstanding are
// dropped at once, counted in HostResults::dropped; the others finish with
// an error when their last command completes), then Delete I/O SQ: the
// controller completes what it has not fetched with Command Aborted due to
// SQ Deletion (08h; such a write never happened, shared_lbas.h), lets the
// fetched ones finish, and completes the delete only once every CQE of the
// SQ is posted, so the host reaps them all before Delete I/O CQ.
#include <algorithm>
#include <cstdio>
#include <stdexcept>

#include "host/host_driver.h"

namespace ssdvp {

void HostDriver::delete_queues(uint64_t now) {
  auto fail = [this](const char* what, uint16_t st) {
    char b[8];
    std::snprintf(b, sizeof b, "%03x", st);
    throw std::runtime_error(std::string(name()) + ": " + what + " " + std::to_string(hq_.qid) +
                             " at the flow's stop failed with NVMe status 0x" + b);
  };
  for (uint64_t id : waiting_) {  // abort: give up what is not issued (drain: none)
    auto it = live_.find(id);
    if (it == live_.end()) continue;
    Request& r = it->second;
    if (r.outstanding) {
      r.error = true;
      r.issued = std::max<uint64_t>(r.nlb, 1);  // complete_request with its last command
      continue;
    }
    occupancy_leave(r, now);
    block_feed_->done(gcdetect::Dir(int(r.io.op)), 0, r.arrival_ps, now);
    ++res_.dropped;
    live_.erase(it);
  }
  waiting_.clear();
  if (const uint16_t st = deleter_(false)) fail("Delete I/O SQ", st);
  reap();  // every CQE of the SQ was posted before the delete completed
  if (busy_slots_)
    throw std::runtime_error(std::string(name()) + ": " + std::to_string(busy_slots_) +
                             " commands without a completion after Delete I/O SQ " + std::to_string(hq_.qid));
  if (const uint16_t st = deleter_(true)) fail("Delete I/O CQ", st);
  queues_deleted_ = true;
}

}  // namespace ssdvp
