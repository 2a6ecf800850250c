// latency_histogram.cpp - see latency_histogram.h.
#include "host/latency_histogram.h"

#include <algorithm>
#include <cmath>

#include <nlohmann/json.hpp>

namespace ssdvp {

int LatencyHistogram::index(uint64_t v) {
  if (v < (1u << kSubBits)) return int(v);
  const int msb = 63 - __builtin_clzll(v);
  const int shift = msb - kSubBits;
  return ((shift + 1) << kSubBits) + int((v >> shift) & ((1u << kSubBits) - 1));
}

uint64_t LatencyHistogram::lower(int idx) {
  if (idx < (1 << kSubBits)) return uint64_t(idx);
  const int shift = (idx >> kSubBits) - 1;
  return (uint64_t((1u << kSubBits) | (idx & ((1 << kSubBits) - 1)))) << shift;
}

void LatencyHistogram::add(uint64_t ns) {
  n_[index(ns)]++;
  count_++;
  sum_ += ns;
  min_ = std::min(min_, ns);
  max_ = std::max(max_, ns);
}

uint64_t LatencyHistogram::quantile(double q) const {
  if (!count_) return 0;
  const uint64_t rank = std::max<uint64_t>(1, uint64_t(std::ceil(q * double(count_))));
  uint64_t seen = 0;
  for (int i = index(min_); i < kBuckets; ++i) {
    seen += n_[i];
    if (seen >= rank) {
      const uint64_t lo = lower(i), hi = i + 1 < kBuckets ? lower(i + 1) : lo;
      const uint64_t mid = lo + (hi > lo ? (hi - lo - 1) / 2 : 0);
      return std::clamp(mid, min(), max_);
    }
  }
  return max_;
}

std::vector<LatencyHistogram::Bucket> LatencyHistogram::buckets() const {
  std::vector<Bucket> out;
  if (!count_) return out;
  for (int i = index(min_); i <= index(max_); ++i)
    if (n_[i]) out.push_back({lower(i), i + 1 < kBuckets ? lower(i + 1) : UINT64_MAX, n_[i]});
  return out;
}

void LatencyHistogram::clear() {
  if (count_) std::fill(n_.begin() + index(min_), n_.begin() + index(max_) + 1, 0);
  count_ = sum_ = max_ = 0;
  min_ = UINT64_MAX;
}

void LatencyHistogram::merge(const LatencyHistogram& o) {
  if (o.count_)
    for (int i = index(o.min_), end = index(o.max_); i <= end; ++i) n_[i] += o.n_[i];
  count_ += o.count_;
  sum_ += o.sum_;
  min_ = std::min(min_, o.min_);
  max_ = std::max(max_, o.max_);
}

// The whole distribution: the non-empty histogram buckets as [lo, hi, count]
// (us; values v with lo <= v < hi), so a CDF can be drawn at 1/128 resolution.
static nlohmann::json histogram_json(const LatencyHistogram& h) {
  nlohmann::json b = nlohmann::json::array();
  for (const auto& k : h.buckets())
    b.push_back(
        {double(k.lo) / 1000.0, k.hi == UINT64_MAX ? double(h.max() + 1) / 1000.0 : double(k.hi) / 1000.0, k.count});
  return b;
}

nlohmann::json latency_json(const LatencyHistogram& h) {
  auto us = [](uint64_t ns) { return double(ns) / 1000.0; };
  return {{"count", h.count()},          {"mean", h.mean() / 1000.0},     {"p50", us(h.quantile(0.5))},
          {"p99", us(h.quantile(0.99))}, {"p999", us(h.quantile(0.999))}, {"p9999", us(h.quantile(0.9999))},
          {"max", us(h.max())},          {"histogram", histogram_json(h)}};
}

}  // namespace ssdvp
