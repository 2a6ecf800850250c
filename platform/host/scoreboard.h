// scoreboard.h - the host's record of what every LBA must read back.
//
// Each LBA has a write version (4 bytes); a written LBA reads back the token
// token_of(lba, version), a never-written or deallocated one the deallocated
// token. Tokens mix the LBA in, so data returned for the wrong LBA is caught
// as well as stale data.
#pragma once

#include <cstdint>
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
  // Records a write and returns the token to send.
  uint32_t write(uint64_t lba) {
    uint32_t& v = v_[lba];
    v = (v & kVersionMask) + 1;
    return token_of(lba, v);
  }
  void trim(uint64_t lba) { v_[lba] |= kTrimmed; }
  uint32_t expected(uint64_t lba) const {
    const uint32_t v = v_[lba];
    return (v == 0 || (v & kTrimmed)) ? SSDVP_TOKEN_DEALLOCATED : token_of(lba, v);
  }
  // Checks one token; counts and returns false on a mismatch.
  bool check(uint64_t lba, uint32_t token) {
    ++checked_;
    if (token == expected(lba)) return true;
    ++mismatches_;
    return false;
  }
  uint64_t checked() const { return checked_; }
  uint64_t mismatches() const { return mismatches_; }

 private:
  static constexpr uint32_t kTrimmed = 0x80000000u, kVersionMask = 0x7fffffffu;
  std::vector<uint32_t, HugePageAllocator<uint32_t>> v_;  // random access at scale (huge_pages.h)
  uint64_t checked_ = 0, mismatches_ = 0;
};

}  // namespace ssdvp
