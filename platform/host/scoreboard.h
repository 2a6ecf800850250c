// scoreboard.h - the host's record of what every LBA must read back.
//
// Each LBA has a write version (4 bytes); a written LBA reads back the token
// token_of(lba, version), a never-written or deallocated one the deallocated
// token. Tokens mix the LBA in, so data returned for the wrong LBA is caught
// as well as stale data.
#pragma once

#include <cstdint>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

#include "common/huge_pages.h"
#include "ssdvp_hw.h"

namespace ssdvp {

inline uint32_t token_of(uint64_t lba, uint32_t version) {
  uint64_t x = (lba + 1) * 0x9E3779B97F4A7C15ull ^ (uint64_t(version) * 0xD1B54A32D192ED03ull);
  x ^= x >> 31;
  x *= 0xBF58476D1CE4E5B9ull;
  x ^= x >> 29;
  const uint32_t t = uint32_t(x);
  return t == SSDVP_TOKEN_DEALLOCATED || t == SSDVP_TOKEN_ERASED ? 0x5a5a5a5au : t;
}

class Scoreboard {
 public:
  explicit Scoreboard(uint64_t lbas) : v_(lbas, 0) {}
  uint64_t lbas() const { return v_.size(); }
  // Every LBA's write version (a saved drive: platform/run/saved_state.h).
  uint32_t* versions() { return v_.data(); }
  // Records a write and returns the token to send.
  uint32_t write(uint64_t lba) {
    if (!unknown_.empty()) unknown_.erase(lba);
    uint32_t& v = v_[lba];
    v = (v & kVersionMask) + 1;
    return token_of(lba, v);
  }
  // A write to lba comes soon (host speed only).
  void prefetch(uint64_t lba) const { __builtin_prefetch(&v_[lba], 1); }
  void trim(uint64_t lba) {
    if (!unknown_.empty()) unknown_.erase(lba);
    v_[lba] |= kTrimmed;
    if (tracking()) trim_at_[lba] = v_[lba];
  }
  uint32_t expected(uint64_t lba) const {
    const uint32_t v = v_[lba];
    return (v == 0 || (v & kTrimmed)) ? SSDVP_TOKEN_DEALLOCATED : token_of(lba, v);
  }
  // Checks one token; counts and returns false on a mismatch.
  bool check(uint64_t lba, uint32_t token) {
    if (!unknown_.empty() && unknown_.count(lba)) return true;  // its last write failed: not checked
    ++checked_;
    if (token == expected(lba)) return true;
    ++mismatches_;
    return false;
  }
  // A check decided elsewhere (host/shared_lbas.h: flows sharing LBAs), counted as check() counts.
  bool count_check(bool ok) {
    ++checked_;
    mismatches_ += !ok;
    return ok;
  }
  // A write to lba failed (an error status): the LBA may hold the old data or
  // the new, so its reads are not checked until it is written or deallocated
  // again (a ZNS write beyond the open zones' limit is no "mismatch").
  void write_failed(uint64_t lba) { unknown_.insert(lba); }
  uint64_t checked() const { return checked_; }
  uint64_t mismatches() const { return mismatches_; }

  // ---- durability (power loss, docs/results/reliability.md) ----
  // From now on, remember per LBA the state its last completed write or
  // deallocation left (acknowledged) and the state a completed flush made
  // durable. A state is a version, with kTrimmed if deallocated after it;
  // states are ordered by version, then deallocated after not (order()).
  // What is written now counts as acknowledged, nothing as flushed.
  void track_durability() {
    acked_.assign(v_.begin(), v_.end());
    durable_.assign(v_.size(), 0);
    trim_at_.resize(v_.size());
    for (size_t i = 0; i < v_.size(); ++i) trim_at_[i] = (v_[i] & kTrimmed) ? v_[i] : 0;
  }
  bool tracking() const { return !acked_.empty(); }
  // durable: a write with FUA (durable at its completion, no flush needed).
  void acked(uint64_t lba, bool durable = false) {
    if (!tracking()) return;
    acked_[lba] = v_[lba] & kVersionMask;
    if (durable && order(acked_[lba]) > order(durable_[lba])) durable_[lba] = acked_[lba];
    since_flush_.emplace_back(lba, acked_[lba]);
  }
  // A deallocation completed (durable only once a flush after it completes).
  void trim_acked(uint64_t lba) {
    if (!tracking() || !(v_[lba] & kTrimmed)) return;  // written again since: that write's state counts
    acked_[lba] = v_[lba];
    since_flush_.emplace_back(lba, acked_[lba]);
  }
  // What was acknowledged before a flush was submitted is durable once it completes.
  void flush_submitted(uint32_t id) {
    if (tracking()) flushes_[id] = std::move(since_flush_);
    since_flush_.clear();
  }
  void flush_completed(uint32_t id) {
    auto it = flushes_.find(id);
    if (it == flushes_.end()) return;
    for (const auto& lv : it->second)
      if (order(lv.second) > order(durable_[lv.first])) durable_[lv.first] = lv.second;
    flushes_.erase(it);
  }
  enum class Recovered { latest, older, lost, foreign, unchecked };
  // A read after recovery: the latest state; an older one no earlier than
  // the floor (acknowledged with power-loss protection, flushed without);
  // an older one below it (a durable write or deallocation lost); anything
  // else (another LBA's data, garbage). Deallocated reads as deallocated
  // (NVMe's DLFEAT: the deallocated token), and as the data it had before
  // only where that deallocation was not durable, as for a write. With
  // trims_durable false (the drive does not persist deallocations:
  // ftl_trims_persistent() is 0, i.e. no trim log: no checkpoints and
  // power.trim_log.mode not on) an LBA deallocated last is unchecked, and so is one
  // deallocated since (or by) its durable state and written again without a
  // flush: the state it may fall back to is a deallocation, which such a
  // drive reads as any older data of the LBA (the GC of the deallocated
  // copy can leave an older one as the newest on flash; reliability.md,
  // "the 7 durable_lost violations").
  // *found (if given): the version read (0: deallocated), or kForeign.
  Recovered check_recovered(uint64_t lba, uint32_t token, bool plp, bool trims_durable,
                            uint32_t* found = nullptr) const {
    const uint32_t v = v_[lba];
    const uint32_t cur = v & kVersionMask;
    uint32_t floor = plp ? acked_[lba] : durable_[lba];
    if (!trims_durable) floor &= kVersionMask;  // a deallocation is never a durable state then
    auto tok = [lba](uint32_t ver) { return ver == 0 ? SSDVP_TOKEN_DEALLOCATED : token_of(lba, ver); };
    uint32_t ver = cur + 1;
    while (ver-- > 0 && token != tok(ver)) {
    }
    if (found) *found = ver <= cur ? ver : kForeign;
    if (ver > cur) return Recovered::foreign;
    const bool trimmed = v & kTrimmed;
    if (trimmed && !trims_durable) return Recovered::unchecked;
    if (!trims_durable && ver != 0 && ver < floor && order(trim_at_[lba]) > order(floor))
      return Recovered::unchecked;  // older than the floor, past a deallocation the drive does not persist
    if (trimmed ? ver == 0 : ver == cur) return Recovered::latest;
    if (ver == 0)  // deallocated (or never written): a state between the floor and now?
      return floor == 0 || (floor & kTrimmed) || order(trim_at_[lba]) > order(floor) ? Recovered::older
                                                                                     : Recovered::lost;
    const uint32_t fv = floor & kVersionMask;
    return ((floor & kTrimmed) ? ver > fv : ver >= fv) ? Recovered::older : Recovered::lost;
  }
  static constexpr uint32_t kForeign = 0xffffffffu;
  // After the check of a cut the host goes on (power.cuts): what was read is
  // what the LBA holds now, and it is on the flash (durable). An LBA that
  // reads deallocated stays at its version, marked deallocated, so that its
  // next write's token is new; one that reads an older version is set back
  // to it (its lost versions are nowhere readable: recovery maps the newest
  // readable copy), so its next write reuses the first lost version's token.
  void recovered(uint64_t lba, uint32_t found) {
    if (found == kForeign) return;  // a violation, counted; left as it was
    uint32_t& v = v_[lba];
    v = found == 0 ? ((v & kVersionMask) | (v & kVersionMask ? kTrimmed : 0u)) : found;
    if (tracking()) {
      acked_[lba] = durable_[lba] = v;
      trim_at_[lba] = (v & kTrimmed) ? v : 0;
    }
  }
  // After every LBA's recovered(): nothing is in flight any more.
  void recovered_all() {
    since_flush_.clear();
    flushes_.clear();
  }

 private:
  static constexpr uint32_t kTrimmed = 0x80000000u, kVersionMask = 0x7fffffffu;
  // States in the order they happen: version, then deallocated after it.
  static uint64_t order(uint32_t state) { return (uint64_t(state & kVersionMask) << 1) | (state >> 31); }
  std::vector<uint32_t, HugePageAllocator<uint32_t>> v_;  // random access at scale (huge_pages.h)
  uint64_t checked_ = 0, mismatches_ = 0;
  std::unordered_set<uint64_t> unknown_;   // LBAs whose last write failed (write_failed())
  std::vector<uint32_t> acked_, durable_;  // states (order()); empty unless tracking durability
  std::vector<uint32_t> trim_at_;          // the last deallocation's state (0: none since tracking)
  std::vector<std::pair<uint64_t, uint32_t>> since_flush_;
  std::unordered_map<uint32_t, std::vector<std::pair<uint64_t, uint32_t>>> flushes_;
};

}  // namespace ssdvp
