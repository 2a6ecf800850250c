// oracle.cpp - see oracle.h.
#include "host/oracle.h"

#include <algorithm>
#include <array>
#include <stdexcept>
#include <unordered_map>
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

class OracleStreams final : public host::Workload {
 public:
  OracleStreams(std::unique_ptr<host::Workload> inner, uint64_t lbas, uint32_t lba_size, uint32_t classes,
                uint64_t max_requests)
      : in_(std::move(inner)) {
    struct Req {
      uint64_t lba, cnt, pos;  // pos: LBAs written before it
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
      reqs.push_back({lba, cnt, pos, r.op == host::IoOp::trim});
      index.push_back(n - 1);
      if (r.op == host::IoOp::write) pos += cnt;
    }
    in_->rewind();
    stream_.assign(n, 0);
    // Backwards: the next write or trim of each LBA.
    std::unordered_map<uint64_t, uint64_t> next;  // LBA -> logical time of its next write/trim
    next.reserve(std::min<uint64_t>(lbas, pos + 1));
    std::vector<uint64_t> votes(classes);
    for (size_t i = reqs.size(); i-- > 0;) {
      const Req& q = reqs[i];
      std::fill(votes.begin(), votes.end(), 0);
      for (uint64_t k = 0; k < q.cnt; ++k) {
        const uint64_t l = q.lba + k, at = q.pos + (q.trim ? 0 : k);
        if (!q.trim) {
          auto it = next.find(l);
          votes[oracle_class(it == next.end() ? UINT64_MAX : it->second - at, lbas, classes)]++;
        }
        next[l] = at;
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
