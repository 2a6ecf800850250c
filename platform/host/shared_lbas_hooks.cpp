// shared_lbas_hooks.cpp - the host driver's side of flows sharing LBAs
// (shared_lbas.h): a command's completion ends its writes' or read's life.
#include "host/host_driver.h"

namespace ssdvp {

void HostDriver::shared_done(const Slot& sl, uint16_t status) {
  if (sl.op == host::IoOp::read) {
    shared_->read_end(sl.seq);
    return;
  }
  if (sl.op == host::IoOp::flush || sl.lba + sl.nlb > lba_end_) return;
  // Aborted due to SQ deletion: the controller never fetched it (nvme_ctrl.md).
  const bool never = status == NVME_SC_ABORTED_SQ_DELETION;
  for (uint32_t i = 0; i < sl.nlb; ++i) shared_->write_done(sl.seq, sl.lba + i, never);
}

}  // namespace ssdvp
