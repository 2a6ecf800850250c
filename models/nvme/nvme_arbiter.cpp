// nvme_arbiter.cpp - see nvme_arbiter.h.
#include "nvme/nvme_arbiter.h"

#include <algorithm>

namespace ssdvp {

void NvmeArbiter::set_feature(uint32_t dw11) {
  const uint32_t ab = dw11 & 7;
  burst_ = ab == 7 ? UINT32_MAX : 1u << ab;
  weight_[low] = ((dw11 >> 8) & 0xff) + 1;
  weight_[medium] = ((dw11 >> 16) & 0xff) + 1;
  weight_[high] = ((dw11 >> 24) & 0xff) + 1;
  std::fill(std::begin(credit_), std::end(credit_), 0);  // a new round with the new weights
  cur_ = high;
}

uint32_t NvmeArbiter::feature() const {
  uint32_t ab = 7;
  if (burst_ != UINT32_MAX)
    for (ab = 0; ab < 6 && (2u << ab) <= burst_;) ++ab;
  return ab | (weight_[low] - 1) << 8 | (weight_[medium] - 1) << 16 | (weight_[high] - 1) << 24;
}

void NvmeArbiter::add(uint16_t qid, Priority p) {
  remove(qid);
  all_.push_back(Entry{qid, p});
  if (qid == 0)
    admin_ = true;
  else
    cls_[p].push_back(qid);
}

void NvmeArbiter::remove(uint16_t qid) {
  auto it = std::find_if(all_.begin(), all_.end(), [qid](const Entry& e) { return e.qid == qid; });
  if (it == all_.end()) return;
  if (qid == 0) {
    admin_ = false;
  } else {
    auto& l = cls_[it->prio];
    l.erase(std::find(l.begin(), l.end(), qid));
  }
  all_.erase(it);
}

int NvmeArbiter::next_in(const std::vector<uint16_t>& list, uint32_t* pos,
                         const std::function<uint32_t(uint16_t)>& waiting) {
  const uint32_t n = uint32_t(list.size());
  for (uint32_t k = 0; k < n; ++k) {
    const uint32_t i = (*pos + k) % n;
    if (waiting(list[i])) {
      *pos = (i + 1) % n;
      return list[i];
    }
  }
  return -1;
}

bool NvmeArbiter::pick(const std::function<uint32_t(uint16_t)>& waiting, uint16_t* qid, uint32_t* quota) {
  if (mech_ == Mechanism::rr) {
    const uint32_t n = uint32_t(all_.size());
    for (uint32_t idle = 0; idle < n; ++idle) {
      rr_ = rr_ % n;
      const uint16_t q = all_[rr_++].qid;
      if (waiting(q)) {
        *qid = q;
        *quota = burst_;
        return true;
      }
    }
    return false;
  }
  if (admin_ && waiting(0)) {  // strict priority: admin, then urgent
    *qid = 0;
    *quota = burst_;
    return true;
  }
  int q = next_in(cls_[urgent], &cls_pos_[urgent], waiting);
  if (q >= 0) {
    *qid = uint16_t(q);
    *quota = burst_;
    return true;
  }
  for (int round = 0; round < 2; ++round) {
    for (int k = 0; k < 3; ++k) {
      const int c = high + (cur_ - high + k) % 3;
      if (credit_[c] == 0) continue;
      q = next_in(cls_[c], &cls_pos_[c], waiting);
      if (q < 0) continue;
      cur_ = c;
      *qid = uint16_t(q);
      *quota = std::min(burst_, credit_[c]);
      return true;
    }
    // No class with a waiting command has credit: a new round.
    for (int c = high; c <= low; ++c) credit_[c] = weight_[c];
    cur_ = high;
  }
  return false;  // no weighted queue has a command
}

void NvmeArbiter::took(uint16_t qid, uint32_t n) {
  if (mech_ != Mechanism::wrr || qid == 0) return;
  for (int c = high; c <= low; ++c)
    if (std::find(cls_[c].begin(), cls_[c].end(), qid) != cls_[c].end()) {
      credit_[c] -= std::min(n, credit_[c]);
      if (credit_[c] == 0) cur_ = c == low ? int(high) : c + 1;
      return;
    }
}

}  // namespace ssdvp
