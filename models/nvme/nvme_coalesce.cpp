// nvme_coalesce.cpp - NvmeCtrl's interrupts (see nvme_ctrl.h): one MSI per
// completion, or the Interrupt Coalescing feature (NVMe base specification,
// Set Features 08h; the firmware writes its dword 11 to register IRQ_COAL).
//
// With an aggregation threshold THR (0's based) and an aggregation time TIME
// (units of nvme.coalesce_time_unit) both non-zero, a vector's MSI is sent
// once THR + 1 completion entries are posted that it has not signalled yet,
// or TIME units after the first of them, whichever comes first. TIME 0 (the
// time condition is met at once) or THR 0 (every entry meets the threshold)
// is one MSI per completion, as without the feature. The admin queue's
// completions are never coalesced (as NVMe says).
#include "nvme/nvme_ctrl.h"

namespace ssdvp {

void NvmeCtrl::send_msi(const Queue& cq) {
  uint32_t vec = cq.msi_vec;
  ++stats_.msis;
  if (!host_access(true, cq.msi_addr, &vec, 4)) ++stats_.completion_errors;  // MSI (vector = IV)
}

void NvmeCtrl::interrupt(uint16_t cqid) {
  const Queue& cq = q_[cqid];
  if (!cq.ien) return;
  const uint32_t feature = bank_.get(NVME_IRQ_COAL);
  const uint32_t thr = SSDVP_FIELD_GET(NVME_IRQ_COAL_THR, feature);
  const uint32_t time = SSDVP_FIELD_GET(NVME_IRQ_COAL_TIME, feature);
  if (cqid == 0 || thr == 0 || time == 0 || cq.msi_vec >= coalesce_.size()) {
    send_msi(cq);
    return;
  }
  Coalesce& c = coalesce_[cq.msi_vec];
  if (++c.pending <= thr) {  // below THR + 1 entries: the timer signals them
    if (c.pending == 1) {
      Event ev{};
      ev.kind = EvKind::coalesce_timer;
      ev.qid = cqid;
      ev.time = sc_core::sc_time_stamp().value() + uint64_t(time) * coalesce_unit_ps_;
      c.deadline_ps = ev.time;
      schedule(std::move(ev));
    }
    return;
  }
  c.pending = 0;  // the pending timer finds nothing to signal
  send_msi(cq);
}

void NvmeCtrl::coalesce_timer(uint16_t cqid, uint64_t due_ps) {
  const Queue& cq = q_[cqid];
  if (!cq.cq || cq.msi_vec >= coalesce_.size()) return;  // deleted meanwhile: nothing to signal
  Coalesce& c = coalesce_[cq.msi_vec];
  if (c.pending == 0 || c.deadline_ps != due_ps) return;  // signalled by the threshold already
  c.pending = 0;
  send_msi(cq);
}

}  // namespace ssdvp
