// shared_lbas.cpp - see shared_lbas.h.
#include "host/shared_lbas.h"

#include <algorithm>
#include <iterator>

namespace ssdvp {
namespace {
constexpr uint64_t kNot = UINT64_MAX;  // not yet done / not dead
}  // namespace

void SharedLbas::write(uint64_t cmd, uint64_t lba, uint32_t before, uint32_t token) {
  auto it = map_.find(lba);
  if (it == map_.end()) it = map_.emplace(lba, Entry{Cand{before, 0, 0, kNot}}).first;  // completed long ago
  Entry& e = it->second;
  races_ += std::any_of(e.begin(), e.end(), [](const Cand& c) { return c.done == kNot; });
  e.push_back(Cand{token, cmd, kNot, kNot});
}

void SharedLbas::write_done(uint64_t cmd, uint64_t lba, bool never_executed) {
  auto it = map_.find(lba);
  if (it == map_.end()) return;
  Entry& e = it->second;
  auto w = std::find_if(e.begin(), e.end(), [cmd](const Cand& c) { return c.submit == cmd && c.done == kNot; });
  if (w == e.end()) return;
  if (never_executed) {
    e.erase(w);
  } else {
    w->done = ++seq_;
    for (Cand& u : e)  // ordered before w: gone for every read submitted from now on
      if (&u != &*w && u.dead == kNot && u.done != kNot && u.done < w->submit) u.dead = w->done;
  }
  tidy(lba, e);
  if (e.empty()) map_.erase(it);
}

void SharedLbas::read_end(uint64_t cmd) {
  auto it = reads_.find(cmd);
  if (it != reads_.end()) reads_.erase(it);
  // Entries are tidied when their LBA is written; one left with candidates
  // that only reads then in flight could return would stay until its next
  // write: sweep them all once per max(4096, 2 x entries) reads.
  if (++reads_since_sweep_ >= std::max<uint64_t>(4096, 2 * map_.size())) sweep();
}

void SharedLbas::sweep() {
  reads_since_sweep_ = 0;
  for (auto it = map_.begin(); it != map_.end();) {
    tidy(it->first, it->second);
    it = it->second.empty() ? map_.erase(it) : std::next(it);
  }
}

bool SharedLbas::check(uint64_t cmd, uint64_t lba, uint32_t token, uint32_t* expected) {
  auto it = map_.find(lba);
  if (it == map_.end()) {
    if (expected) *expected = sb_.expected(lba);
    return sb_.check(lba, token);
  }
  Entry& e = it->second;
  bool ok = false, settled = true, any = false, several = false;
  uint32_t first = 0;
  for (const Cand& c : e) {
    if (c.dead <= cmd) continue;  // ordered before a write that completed before this read was submitted
    if (!any) first = c.token;
    several = several || c.token != first;
    any = true;
    ok = ok || c.token == token;
    settled = settled && c.done < cmd && c.dead == kNot;
  }
  if (expected) *expected = first;
  ambiguous_ += several;
  older_ += ok && token != sb_.expected(lba);
  if (ok && settled) {  // nothing raced this read: the drive holds what it returned
    const uint64_t now = ++seq_;
    for (Cand& c : e)
      if (c.dead == kNot && c.token != token) c.dead = now;
  }
  return sb_.count_check(ok);
}

void SharedLbas::tidy(uint64_t lba, Entry& e) {
  const uint64_t oldest = reads_.empty() ? kNot : *reads_.begin();
  e.erase(std::remove_if(e.begin(), e.end(), [oldest](const Cand& c) { return c.dead != kNot && c.dead <= oldest; }),
          e.end());
  if (e.size() == 1 && e[0].done != kNot && e[0].dead == kNot && e[0].token == sb_.expected(lba)) e.clear();
}

}  // namespace ssdvp
