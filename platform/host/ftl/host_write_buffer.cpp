// host_write_buffer.cpp - see host_write_buffer.h.
#include "ftl/host_write_buffer.h"

#include <algorithm>

namespace ssdvp {

void HostWriteBuffer::put(uint64_t lba, uint32_t n, const uint32_t* tokens, uint32_t stream) {
  Entry e;
  e.seq = next_seq_++;
  e.lba = lba;
  e.stream = stream;
  e.tokens.assign(tokens, tokens + n);
  for (uint32_t i = 0; i < n; ++i) index_[lba + i] = Newest{e.seq, tokens[i]};
  ring_.push_back(std::move(e));
  used_ += n;
  unsent_ += n;
  max_used_ = std::max(max_used_, used_);
}

void HostWriteBuffer::mark_sent(const Entry& e) {
  ++sent_;
  unsent_ -= e.tokens.size();
}

void HostWriteBuffer::release_oldest() {
  if (ring_.empty()) return;
  const Entry& e = ring_.front();
  for (uint64_t i = 0; i < e.tokens.size(); ++i) {
    auto it = index_.find(e.lba + i);
    if (it != index_.end() && it->second.seq == e.seq) index_.erase(it);  // a newer write keeps its own
  }
  used_ -= e.tokens.size();
  if (sent_)  // the oldest is handed when any is
    --sent_;
  else
    unsent_ -= e.tokens.size();
  ring_.pop_front();
}

bool HostWriteBuffer::lookup(uint64_t lba, uint32_t* token) const {
  const auto it = index_.find(lba);
  if (it == index_.end()) return false;
  *token = it->second.token;
  return true;
}

bool HostWriteBuffer::overlaps(uint64_t lba, uint64_t n) const {
  if (index_.empty()) return false;
  if (n > index_.size()) {
    for (const auto& [l, v] : index_)
      if (l >= lba && l - lba < n) return true;
    return false;
  }
  for (uint64_t i = 0; i < n; ++i)
    if (index_.count(lba + i)) return true;
  return false;
}

}  // namespace ssdvp
