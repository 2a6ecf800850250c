// page_store.h - the bytes behind the host's tokens: one page of real data
// per LBA written through the NBD export.
//
// The simulated drive moves 32-bit tokens, not data: the host's token for
// (LBA, write version) travels through host memory, the controller's DRAM
// buffers, NAND pages and GC relocations, and a read returns whatever token
// the firmware's mapping leads to. This store keeps, per LBA, the token of
// its latest write and that write's bytes; a read is answered with the bytes
// that belong to the token the drive returned:
//   - the deallocated token (never written, trimmed)  -> zeros
//   - the token of the LBA's latest write             -> its bytes
//   - an LBA never written through the export         -> zeros (preconditioned content)
//   - any other token (a wrong or stale mapping)      -> a poison pattern, counted
// so a wrong mapping shows up as wrong bytes at the client as well as a
// scoreboard mismatch. Cost: lba_size bytes plus about 80 bytes of map and
// allocation overhead per LBA written (docs/models/nbd.md). Not thread-safe:
// used from the simulation thread only.
#pragma once

#include <cstdint>
#include <cstring>
#include <unordered_map>
#include <vector>

namespace ssdvp::nbd {

class PageStore {
 public:
  explicit PageStore(uint32_t lba_size) : lba_size_(lba_size) {}
  uint32_t lba_size() const { return lba_size_; }
  // Records a write of `lba` with `token`; data null: a page of zeros.
  void write(uint64_t lba, uint32_t token, const uint8_t* data) {
    Entry& e = map_[lba];
    e.token = token;
    if (data)
      e.bytes.assign(data, data + lba_size_);
    else
      e.bytes.clear();  // zeros, stored as nothing
  }
  void forget(uint64_t lba) { map_.erase(lba); }
  // Fills out[0..lba_size) with what a read of lba returning `token` holds;
  // false for a poisoned (wrong-token) page.
  bool read(uint64_t lba, uint32_t token, uint8_t* out) {
    if (token == 0) {  // SSDVP_TOKEN_DEALLOCATED
      std::memset(out, 0, lba_size_);
      return true;
    }
    auto it = map_.find(lba);
    if (it == map_.end()) {
      std::memset(out, 0, lba_size_);
      return true;
    }
    if (it->second.token != token) {
      ++poisoned_;
      for (uint32_t i = 0; i < lba_size_; ++i) out[i] = uint8_t(kPoison[i % (sizeof kPoison - 1)]);
      return false;
    }
    if (it->second.bytes.empty())
      std::memset(out, 0, lba_size_);
    else
      std::memcpy(out, it->second.bytes.data(), lba_size_);
    return true;
  }
  uint64_t pages() const { return map_.size(); }
  uint64_t data_pages() const {
    uint64_t n = 0;
    for (const auto& kv : map_) n += !kv.second.bytes.empty();
    return n;
  }
  uint64_t poisoned() const { return poisoned_; }
  static constexpr char kPoison[] = "SSDVP WRONG MAPPING ";

 private:
  struct Entry {
    uint32_t token = 0;
    std::vector<uint8_t> bytes;
  };
  uint32_t lba_size_;
  std::unordered_map<uint64_t, Entry> map_;
  uint64_t poisoned_ = 0;
};

}  // namespace ssdvp::nbd
