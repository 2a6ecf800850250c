// inflight.h - the host driver's command slots in O(1): which slot is free
// (the lowest-numbered, as a scan from 0 finds it) and whether a new command
// overlaps one in flight (the ordering rule: a write or trim waits for every
// command on its LBAs, a read for writes and trims).
//
// Single-LBA commands are kept in an open-addressing hash of LBAs (linear
// probing, backward-shift deletion); a multi-LBA command in flight makes the
// caller fall back to its scan. Sized for the queue depth: at most qd
// entries in 4 qd buckets (at least 16).
#pragma once

#include <cstdint>
#include <vector>

namespace ssdvp {

class InflightIndex {
 public:
  explicit InflightIndex(uint32_t slots) : free_((slots + 63) / 64, 0) {
    for (uint32_t s = 0; s < slots; ++s) free_[s / 64] |= uint64_t(1) << (s % 64);
    uint32_t cap = 16;
    while (cap < 4 * slots) cap *= 2;
    table_.assign(cap, Entry{});
    mask_ = cap - 1;
  }

  // The lowest free slot, or UINT32_MAX.
  uint32_t free_slot() const {
    for (size_t w = 0; w < free_.size(); ++w)
      if (free_[w]) return uint32_t(w * 64 + unsigned(__builtin_ctzll(free_[w])));
    return UINT32_MAX;
  }

  // A command now holds slot s. indexed: false for a command without LBAs
  // (flush); write_like: a write or trim.
  void add(uint32_t s, bool indexed, bool write_like, uint64_t lba, uint64_t n) {
    free_[s / 64] &= ~(uint64_t(1) << (s % 64));
    if (!indexed) return;
    if (n != 1) {
      ++multi_;
      return;
    }
    Entry& e = find_or_insert(lba);
    ++(write_like ? e.writes : e.reads);
  }
  // The command in slot s is done (same arguments as its add()).
  void remove(uint32_t s, bool indexed, bool write_like, uint64_t lba, uint64_t n) {
    free_[s / 64] |= uint64_t(1) << (s % 64);
    if (!indexed) return;
    if (n != 1) {
      --multi_;
      return;
    }
    size_t i = find(lba);
    if (i == SIZE_MAX) return;
    Entry& e = table_[i];
    --(write_like ? e.writes : e.reads);
    if (e.reads == 0 && e.writes == 0) erase_at(i);
  }

  // Whether the answer of overlaps() is complete: no multi-LBA command is in flight.
  bool exact() const { return multi_ == 0; }
  // With exact(): whether a new single-LBA command on lba must wait.
  bool overlaps(bool write_like, uint64_t lba) const {
    const size_t i = find(lba);
    if (i == SIZE_MAX) return false;
    return write_like ? (table_[i].reads + table_[i].writes) != 0 : table_[i].writes != 0;
  }

 private:
  struct Entry {
    uint64_t lba = 0;
    uint32_t reads = 0, writes = 0;
    bool used = false;
  };
  size_t home(uint64_t lba) const { return size_t((lba * 0x9E3779B97F4A7C15ull) >> 32) & mask_; }
  size_t find(uint64_t lba) const {
    for (size_t i = home(lba);; i = (i + 1) & mask_) {
      if (!table_[i].used) return SIZE_MAX;
      if (table_[i].lba == lba) return i;
    }
  }
  Entry& find_or_insert(uint64_t lba) {
    size_t i = home(lba);
    for (; table_[i].used; i = (i + 1) & mask_)
      if (table_[i].lba == lba) return table_[i];
    table_[i] = Entry{lba, 0, 0, true};
    return table_[i];
  }
  void erase_at(size_t i) {  // backward-shift deletion keeps every probe chain unbroken
    for (size_t j = (i + 1) & mask_; table_[j].used; j = (j + 1) & mask_) {
      const size_t h = home(table_[j].lba);
      // move j into the hole at i if its home is not in (i, j] (cyclically)
      if (((j - h) & mask_) >= ((j - i) & mask_)) {
        table_[i] = table_[j];
        i = j;
      }
    }
    table_[i] = Entry{};
  }

  std::vector<uint64_t> free_;  // bit set: slot free
  std::vector<Entry> table_;
  size_t mask_ = 0;
  uint32_t multi_ = 0;  // multi-LBA commands in flight
};

}  // namespace ssdvp
