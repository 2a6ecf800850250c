// host_write_buffer.h - the host FTL's pblk-like write buffer
// (host.ftl.write_buffer, docs/models/host_ftl.md "The write buffer"): a ring
// of host writes in host memory, in arrival order, with an index of the
// newest buffered token of each LBA for reads. HostFtlBlock completes a
// write once it is in here, hands the oldest entries to the FTL (the writer)
// one at a time, and releases an entry once the FTL has placed it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <deque>
#include <unordered_map>
#include <vector>

namespace ssdvp {

class HostWriteBuffer {
 public:
  struct Entry {
    uint64_t seq = 0, lba = 0;
    uint32_t stream = 0;
    std::vector<uint32_t> tokens;
  };

  // capacity in LBAs (0: no buffer)
  explicit HostWriteBuffer(uint64_t capacity_lbas = 0) : cap_(capacity_lbas) {}
  bool on() const { return cap_ > 0; }
  uint64_t capacity() const { return cap_; }
  bool room(uint32_t n) const { return used_ + n <= cap_; }
  // LBAs in the buffer (sent or not), and those not handed to the FTL yet.
  uint64_t used() const { return used_; }
  uint64_t unsent() const { return unsent_; }
  uint64_t max_used() const { return max_used_; }
  bool empty() const { return ring_.empty(); }
  // Writes are numbered as they come: the next one's number, and whether
  // every write numbered below `seq` has been placed by the FTL (released).
  uint64_t next_seq() const { return next_seq_; }
  bool placed_before(uint64_t seq) const { return ring_.empty() || ring_.front().seq >= seq; }

  // Appends a write (room(n) must hold): its tokens are copied.
  void put(uint64_t lba, uint32_t n, const uint32_t* tokens, uint32_t stream);
  // The oldest entry not handed to the FTL yet (null when none), and marking it
  // handed. Entries are handed in order, so the handed ones are a prefix of the ring.
  Entry* next_unsent() { return sent_ < ring_.size() ? &ring_[sent_] : nullptr; }
  void mark_sent(const Entry& e);  // e: next_unsent()
  // The oldest entry is placed by the FTL: its room and its index entries freed.
  void release_oldest();
  // The newest buffered token of lba.
  bool lookup(uint64_t lba, uint32_t* token) const;
  bool overlaps(uint64_t lba, uint64_t n) const;

 private:
  uint64_t cap_, used_ = 0, unsent_ = 0, max_used_ = 0, next_seq_ = 0;
  std::deque<Entry> ring_;
  size_t sent_ = 0;  // the ring's first sent_ entries are handed to the FTL
  struct Newest {
    uint64_t seq;
    uint32_t token;
  };
  std::unordered_map<uint64_t, Newest> index_;
};

}  // namespace ssdvp
