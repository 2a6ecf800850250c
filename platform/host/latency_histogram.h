// latency_histogram.h - fixed-memory latency histogram with bounded error.
//
// Values (ns) fall into log-linear buckets: 2^7 sub-buckets per power of two,
// so a reported percentile is within 1/128 (0.8 %) of the exact order
// statistic; count, min, max and mean are exact. 58 KiB per histogram
// whatever the number of samples; every bucket outside [index(min), index(max)]
// is zero, so clearing, merging and quantiles touch only that range.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include <nlohmann/json_fwd.hpp>

namespace ssdvp {

class LatencyHistogram {
 public:
  void add(uint64_t ns);
  uint64_t count() const { return count_; }
  uint64_t min() const { return count_ ? min_ : 0; }
  uint64_t max() const { return max_; }
  double mean() const { return count_ ? double(sum_) / double(count_) : 0.0; }
  // The smallest recorded value v with at least q * count samples <= v,
  // reported as its bucket's midpoint (clamped to [min, max]).
  uint64_t quantile(double q) const;
  void merge(const LatencyHistogram& o);
  // Zeroes only the buckets between min and max (the others are zero): a
  // histogram cleared every statistics interval does not pay for all 58 KiB.
  void clear();
  // The non-empty buckets in ascending order: values v with lo <= v < hi
  // (ns); hi - lo is at most lo / 128.
  struct Bucket {
    uint64_t lo, hi, count;
  };
  std::vector<Bucket> buckets() const;

 private:
  static constexpr int kSubBits = 7;
  static constexpr int kBuckets = (64 - kSubBits + 1) << kSubBits;
  static int index(uint64_t v);
  static uint64_t lower(int idx);
  std::array<uint64_t, kBuckets> n_{};
  uint64_t count_ = 0, sum_ = 0, min_ = UINT64_MAX, max_ = 0;
};

// Latency figures (us) of a histogram in the summary's form.
nlohmann::json latency_json(const LatencyHistogram& h);

}  // namespace ssdvp
