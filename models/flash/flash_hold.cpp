// flash_hold.cpp - GC victim holds (FLASH CTRL.HOLD_GC; the firmware's
// ftl.gc.hold), see flash_ctrl.h and docs/models/flash_ctrl.md.
//
// Off (CTRL.HOLD_GC 0, the default) nothing here runs and host operations
// interleave with GC's page moves on every die. With HOLD_GC 1 (die) a READ
// marked FC_HINT_VICTIM opens a hold of its block's die; the ERASE of that
// block marked FC_HINT_VICTIM (or a HOLD_END write naming it, for a victim
// retired without an erase) closes it, and the die is held while any of its
// victims' holds is open. An operation marked FC_HINT_USER (host data) for a
// held die does its NAND array part at submission, in submission order as
// every operation does, but its die and channel time is taken only when the
// last hold of its die closes: after the erase's end (or at the HOLD_END
// write). HOLD_GC 2 (channel) holds every die of the victim's channel.
// Operations not marked FC_HINT_USER (GC's own, checkpoints, translation
// pages) are never held, so GC, which never waits for host data, always gets
// to its erase.
#include <algorithm>

#include "flash/flash_ctrl.h"

namespace ssdvp {

bool FlashCtrl::hold_back(const fc_sqe& d, uint64_t arrival) {
  if (d.op != FC_OP_READ && d.op != FC_OP_PROGRAM) return false;
  const char* why = nullptr;
  if (flash_check_descriptor(geo_, kOpcodes, d, &why) != FC_OK) return false;  // execute() reports it
  const OpTarget at = target(d);
  if (hold_.victims[hold_key(at)].empty()) return false;
  Parked p{d, at, arrival, fc_cqe{}, ReadDone{}, 0};
  p.cqe.tag = d.tag;
  p.cqe.status = FC_OK;
  const bool ok =
      d.op == FC_OP_READ ? read_page(d, at, arrival, p.cqe, p.r) : program_page(d, at, arrival, p.cqe, &p.lat);
  if (!ok) {  // failed in its functional part: completes at arrival, as execute() does
    complete(arrival, p.cqe, d.op, d.row);
    return true;
  }
  hold_.parked.push_back(p);
  return true;
}

void FlashCtrl::hold_track(const fc_sqe& d, uint64_t done) {
  const OpTarget at = target(d);
  auto& v = hold_.victims[hold_key(at)];
  if (d.op == FC_OP_READ) {
    if (std::find(v.begin(), v.end(), at.block) == v.end()) {
      v.push_back(at.block);
      ++hold_.holds;
    }
  } else if (d.op == FC_OP_ERASE) {
    hold_end(hold_key(at), at.block, done);
  }
}

void FlashCtrl::hold_end(uint32_t key, uint32_t block, uint64_t at) {
  auto& v = hold_.victims[key];
  const auto it = std::find(v.begin(), v.end(), block);
  if (it == v.end()) return;  // a block no victim read held (e.g. a victim with nothing to relocate)
  v.erase(it);
  if (!v.empty()) return;
  for (auto p = hold_.parked.begin(); p != hold_.parked.end();) {
    if (hold_key(p->at) != key) {
      ++p;
      continue;
    }
    const uint64_t a = std::max(p->arrival, at);
    const uint64_t done =
        p->d.op == FC_OP_READ ? read_timing(p->d, p->at, a, p->r) : program_timing(p->d, p->at, a, p->lat);
    ++hold_.ops;
    hold_.wait_ps += a - p->arrival;
    complete(done, p->cqe, p->d.op, p->d.row);
    p = hold_.parked.erase(p);
  }
}

// A power cut: the waiting operations never started. With power held their
// NAND effect stands (operations in flight finish); without, a waiting
// program's page is torn, as a program cut short is.
void FlashCtrl::hold_cut(bool hold_power, CutResult& r) {
  for (const Parked& p : hold_.parked) {
    ++r.dropped;
    if (hold_power || p.d.op != FC_OP_PROGRAM || p.cqe.status != FC_OK) continue;
    dies_[p.at.die].tear_page(p.at.bid, p.at.page);
    ++r.torn_programs;
  }
  hold_.parked.clear();
  for (auto& v : hold_.victims) v.clear();
}

}  // namespace ssdvp
