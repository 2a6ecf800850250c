// nvme_power.cpp - NvmeCtrl::power_loss (see nvme_ctrl.h): what a power cut
// leaves of the controller.
#include "nvme/nvme_ctrl.h"

namespace ssdvp {

void NvmeCtrl::power_loss() {
  events_.clear();  // fetched commands, DONE entries and completions not yet published: gone
  for (Queue& q : q_) q = Queue{};
  live_.clear();
  const NvmeArbiter::Mechanism m = arb_.mechanism();
  arb_ = NvmeArbiter(fetch_burst_);
  arb_.set_mechanism(m);
  cmd_ = xfer_ = done_ = Ring{};
  cmd_visible_tail_ = 0;
  bank_.set(NVME_ENABLE, 0);  // not ready: no fetch until the firmware enables it again
  dbg_gc_on_ = false;
  for (Coalesce& c : coalesce_) c = Coalesce{};  // IRQ_COAL stays, as a feature saved across resets (SV)
  irq_ev_.notify(sc_core::SC_ZERO_TIME);         // the interrupt lines fall
}

}  // namespace ssdvp
