// held_discards.cpp - see held_discards.h.
#include "held_discards.h"

#include <stdexcept>

namespace ssdvp::fs {

HeldDiscards::HeldDiscards(std::unique_ptr<host::Workload> inner, uint32_t lba_bytes)
    : inner_(std::move(inner)), lba_(lba_bytes) {
  if (!inner_ || lba_ == 0) throw std::invalid_argument("HeldDiscards: needs a workload and an LBA size");
}

bool HeldDiscards::next(host::IoRequest& out) {
  for (;;) {
    if (!out_.empty()) {
      out = out_.front();
      out_.pop_front();
      return true;
    }
    if (!inner_->next(out)) return false;
    last_time_ = out.time_ps;
    if (out.op == host::IoOp::trim) {
      const uint64_t first = (out.offset + lba_ - 1) / lba_, end = (out.offset + out.length) / lba_;
      ++st_.held;
      if (end > first) {
        const uint64_t before = pending_.blocks();
        pending_.add({first, end - first});
        st_.held_bytes += (pending_.blocks() - before) * lba_;
      }
      continue;  // held: not sent
    }
    if (out.op == host::IoOp::write && !pending_.empty()) {
      const uint64_t first = out.offset / lba_, end = (out.offset + out.length + lba_ - 1) / lba_;
      const uint64_t before = pending_.blocks();
      pending_.remove({first, end - first});
      st_.reused_bytes += (before - pending_.blocks()) * lba_;
    }
    return true;
  }
}

uint64_t HeldDiscards::trim_pending(uint64_t max_bytes) {
  uint64_t sent = 0;
  for (const Extent& e : pending_.take_bytes(max_bytes, lba_)) {
    host::IoRequest r;
    r.time_ps = last_time_;
    r.op = host::IoOp::trim;
    r.offset = e.start * lba_;
    r.length = e.len * lba_;
    out_.push_back(r);
    sent += e.len;
    ++st_.released;
  }
  st_.released_bytes += sent * lba_;
  return sent * lba_;
}

void HeldDiscards::rewind() {
  inner_->rewind();
  last_time_ = 0;  // released discards not yet taken still come first
}

std::string HeldDiscards::describe() const { return inner_->describe() + ", its discards held (host.trim.policy)"; }

}  // namespace ssdvp::fs
