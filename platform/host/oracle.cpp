// oracle.cpp - see oracle.h.
#include "host/oracle.h"

#include <algorithm>
#include <array>
#include <stdexcept>
#include <vector>

#include "host/host_driver.h"

namespace ssdvp {

uint32_t oracle_class(uint64_t distance, uint64_t logical_lbas, uint32_t classes) {
  if (classes <= 1) return 0;
  if (distance == UINT64_MAX) return classes - 1;
  // floor(log2(d * 2^(K-1) / L)) without overflow: the largest c with
  // d * 2^(K-1) >= L * 2^c, i.e. count the doublings of L that d * 2^(K-1) reaches.
  const unsigned __int128 x = static_cast<unsigned __int128>(distance) << (classes - 1);
  uint32_t c = 0;
  unsigned __int128 t = static_cast<unsigned __int128>(logical_lbas) * 2;
  while (c < classes - 2 && x >= t) {
    ++c;
    t <<= 1;
  }
  return c;
}

namespace {

// LBA -> logical time of its next write or trim: open addressing with linear
// probing in two flat arrays, grown at 3/4 full. Large arrays go back to the
// system when the pre-pass ends; a node per LBA (std::unordered_map) left its
// pages in the heap for the rest of the run (about 170 MB after 10 M writes
// at Table III scale, docs/results/haml.md).
class NextTable {
 public:
  // The time of LBA l (*found false: a new slot, to be set by the caller).
  uint64_t& at(uint64_t l, bool* found) {
    if ((used_ + 1) * 4 > keys_.size() * 3) grow();
    size_t i = slot(l);
    *found = keys_[i] == l;
    if (!*found) {
      keys_[i] = l;
      ++used_;
    }
    return vals_[i];
  }

 private:
  static constexpr uint64_t kEmpty = UINT64_MAX;  // not an LBA
  size_t slot(uint64_t l) const {
    const size_t mask = keys_.size() - 1;
    size_t i = size_t((l * 0x9E3779B97F4A7C15ull) >> shift_) & mask;
    while (keys_[i] != kEmpty && keys_[i] != l) i = (i + 1) & mask;
    return i;
  }
  void grow() {
    std::vector<uint64_t> k(std::max<size_t>(keys_.size() * 2, 1024), kEmpty), v(k.size());
    keys_.swap(k);
    vals_.swap(v);
    shift_ = 64;
    for (size_t n = keys_.size(); n > 1; n >>= 1) --shift_;
    for (size_t j = 0; j < k.size(); ++j)
      if (k[j] != kEmpty) {
        const size_t i = slot(k[j]);
        keys_[i] = k[j];
        vals_[i] = v[j];
      }
  }
  std::vector<uint64_t> keys_, vals_;
  size_t used_ = 0;
  unsigned shift_ = 64;
};

class OracleStreams final : public host::Workload {
 public:
  OracleStreams(std::unique_ptr<host::Workload> inner, uint64_t lbas, uint32_t lba_size, uint32_t classes,
                uint64_t max_requests)
      : in_(std::move(inner)) {
    struct Req {
      uint64_t lba, pos;  // pos: LBAs written before it
      uint32_t cnt;
      bool trim;
    };
    std::vector<Req> reqs;        // writes and trims, in order
    std::vector<uint64_t> index;  // request number of each
    uint64_t n = 0, pos = 0;
    host::IoRequest r;
    while (in_->next(r)) {
      if (++n > max_requests)
        throw std::runtime_error("host.streams: oracle needs a finite workload (more than " +
                                 std::to_string(max_requests) +
                                 " requests; raise host.oracle.max_requests or set workload.loops)");
      if (r.op != host::IoOp::write && r.op != host::IoOp::trim) continue;
      uint64_t lba, cnt;
      if (!lba_range(r.offset, r.length, lba_size, lbas, true, &lba, &cnt)) continue;
      reqs.push_back({lba, pos, uint32_t(cnt), r.op == host::IoOp::trim});
      index.push_back(n - 1);
      if (r.op == host::IoOp::write) pos += cnt;
    }
    in_->rewind();
    stream_.assign(n, 0);
    // Backwards: the next write or trim of each LBA.
    NextTable next;  // LBA -> logical time of its next write/trim
    std::vector<uint64_t> votes(classes);
    for (size_t i = reqs.size(); i-- > 0;) {
      const Req& q = reqs[i];
      std::fill(votes.begin(), votes.end(), 0);
      for (uint64_t k = 0; k < q.cnt; ++k) {
        const uint64_t l = q.lba + k, at = q.pos + (q.trim ? 0 : k);
        bool seen;
        uint64_t& t = next.at(l, &seen);
        if (!q.trim) votes[oracle_class(seen ? t - at : UINT64_MAX, lbas, classes)]++;
        t = at;
      }
      if (q.trim) continue;
      const auto best = std::max_element(votes.begin(), votes.end());  // first maximum: the hotter class
      stream_[index[i]] = uint8_t(best - votes.begin() + 1);
    }
  }

  bool next(host::IoRequest& out) override {
    if (!in_->next(out)) return false;
    out.stream = at_ < stream_.size() ? stream_[at_] : 0;
    ++at_;
    return true;
  }
  void rewind() override {
    in_->rewind();
    at_ = 0;
  }
  std::string describe() const override { return in_->describe() + ", oracle streams"; }
  const host::WorkloadStats& stats() const override { return in_->stats(); }

 private:
  std::unique_ptr<host::Workload> in_;
  std::vector<uint8_t> stream_;  // per request (0 for reads and trims)
  uint64_t at_ = 0;
};

}  // namespace

std::unique_ptr<host::Workload> make_oracle_streams(std::unique_ptr<host::Workload> inner, uint64_t logical_lbas,
                                                    uint32_t lba_size, uint32_t classes, uint64_t max_requests) {
  if (classes < 1 || classes > 255) throw std::invalid_argument("oracle: classes must be in [1, 255]");
  return std::make_unique<OracleStreams>(std::move(inner), logical_lbas, lba_size, classes, max_requests);
}

}  // namespace ssdvp
