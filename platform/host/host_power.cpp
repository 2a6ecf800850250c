// host_power.cpp - HostDriver::power_loss and power_up (see host_driver.h):
// what the host does when the drive loses power under it and comes back
// (power.cuts, platform/run/power_cuts.h).
#include "host/host_driver.h"
#include "nvme/nvme_ctrl.h"

namespace ssdvp {
namespace {

// NVMe generic status 05h: Command Aborted due to Power Loss Notification.
constexpr uint16_t kAbortedPowerLoss = 0x005;

}  // namespace

void HostDriver::power_loss() {
  const uint64_t now = sc_core::sc_time_stamp().value();
  for (uint32_t cid = 0; cid < slots_.size(); ++cid) {
    Slot& sl = slots_[cid];
    if (!sl.busy) continue;
    sl.busy = false;
    inflight_.remove(cid, sl.op != host::IoOp::flush, sl.op == host::IoOp::write || sl.op == host::IoOp::trim, sl.lba,
                     sl.nlb);
    occupancy_advance(now);
    --busy_slots_;
    ++power_aborted_;
    ++res_.errors;
    ++res_.errors_by_status[kAbortedPowerLoss];
    auto it = live_.find(sl.request);
    if (it == live_.end()) continue;
    it->second.error = true;
    if (--it->second.outstanding == 0 && it->second.issued >= std::max<uint64_t>(it->second.nlb, 1)) {
      complete_request(it->second, now);
      live_.erase(it);
    }
  }
  // The controller forgot the queues: both rings start empty again.
  io_q_.reset();
  admin_q_.reset();  // the admin queue too (made again if it is used)
  if (hq_.create && !io_q_.create(nvme_))
    throw std::runtime_error(std::string(name()) + ": could not create the I/O queue again after power loss");
  pacer_.progress(now);
}

void HostDriver::power_up() {
  pacer_.progress(sc_core::sc_time_stamp().value());
  mem_.wake(hq_.qid);  // the thread (waiting on its CQ's vector) goes on at once, not at its next sample
}

}  // namespace ssdvp
