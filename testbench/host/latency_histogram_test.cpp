// latency_histogram_test.cpp - LatencyHistogram against exact order
// statistics: quantiles within 1/128 relative, count/min/max/mean exact,
// merge equal to adding everything to one histogram.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

#include "host/latency_histogram.h"

using ssdvp::LatencyHistogram;

namespace {

const double kQs[] = {0.0, 0.001, 0.01, 0.1, 0.25, 0.5, 0.75, 0.9, 0.99, 0.999, 0.9999, 1.0};

// The exact order statistic the histogram approximates: the smallest v with
// at least q * n samples <= v.
uint64_t exact_quantile(const std::vector<uint64_t>& sorted, double q) {
  const uint64_t n = sorted.size();
  const uint64_t rank = std::max<uint64_t>(1, uint64_t(std::ceil(q * double(n))));
  return sorted[rank - 1];
}

void check_against_exact(const LatencyHistogram& h, std::vector<uint64_t> v, const char* what) {
  std::sort(v.begin(), v.end());
  ASSERT_EQ(h.count(), v.size()) << what;
  EXPECT_EQ(h.min(), v.front()) << what;
  EXPECT_EQ(h.max(), v.back()) << what;
  long double sum = 0;
  for (uint64_t x : v) sum += x;
  EXPECT_DOUBLE_EQ(h.mean(), double(sum / v.size())) << what;
  for (double q : kQs) {
    const uint64_t e = exact_quantile(v, q), got = h.quantile(q);
    EXPECT_LE(std::fabs(double(got) - double(e)), double(e) / 128.0)
        << what << ": q=" << q << " exact " << e << " histogram " << got;
  }
}

}  // namespace

TEST(LatencyHistogram, EmptyReportsZeros) {
  LatencyHistogram h;
  EXPECT_EQ(h.count(), 0u);
  EXPECT_EQ(h.min(), 0u);
  EXPECT_EQ(h.max(), 0u);
  EXPECT_EQ(h.mean(), 0.0);
  EXPECT_EQ(h.quantile(0.5), 0u);
  EXPECT_EQ(h.quantile(1.0), 0u);
}

TEST(LatencyHistogram, SmallValuesAreExact) {
  LatencyHistogram h;
  std::vector<uint64_t> v;
  for (uint64_t x = 0; x < 128; ++x)
    for (uint64_t k = 0; k <= x % 3; ++k) {
      h.add(x);
      v.push_back(x);
    }
  std::sort(v.begin(), v.end());
  for (double q : kQs) EXPECT_EQ(h.quantile(q), exact_quantile(v, q)) << q;
}

TEST(LatencyHistogram, SingleValueIsReportedExactly) {
  for (uint64_t x : {uint64_t(0), uint64_t(1), uint64_t(127), uint64_t(128), uint64_t(25684), uint64_t(999999937),
                     uint64_t(1) << 40, UINT64_MAX / 4}) {
    LatencyHistogram h;
    h.add(x);
    h.add(x);
    for (double q : kQs) EXPECT_EQ(h.quantile(q), x) << x << " q=" << q;  // clamped to [min, max]
    EXPECT_EQ(h.mean(), double(x));
  }
}

TEST(LatencyHistogram, QuantilesWithinOnePart128OfExactOrderStatisticsOnRandomData) {
  std::mt19937_64 rng(12345);
  {  // uniform over six decades
    LatencyHistogram h;
    std::vector<uint64_t> v;
    std::uniform_real_distribution<double> e(0, 6);
    for (int i = 0; i < 200000; ++i) {
      const uint64_t x = uint64_t(std::pow(10.0, e(rng)));
      h.add(x);
      v.push_back(x);
    }
    check_against_exact(h, v, "log-uniform");
  }
  {  // lognormal latencies around 100 us with a heavy tail
    LatencyHistogram h;
    std::vector<uint64_t> v;
    std::lognormal_distribution<double> d(std::log(100000.0), 1.0);
    for (int i = 0; i < 200000; ++i) {
      const uint64_t x = uint64_t(d(rng));
      h.add(x);
      v.push_back(x);
    }
    check_against_exact(h, v, "lognormal");
  }
  {  // a few distinct values (bimodal: buffer hits and flash reads)
    LatencyHistogram h;
    std::vector<uint64_t> v;
    std::bernoulli_distribution hit(0.7);
    std::uniform_int_distribution<uint64_t> jitter(0, 50);
    for (int i = 0; i < 50000; ++i) {
      const uint64_t x = (hit(rng) ? 8200 : 25684) + jitter(rng);
      h.add(x);
      v.push_back(x);
    }
    check_against_exact(h, v, "bimodal");
  }
  {  // values up to 2^63: no overflow in the bucket index
    LatencyHistogram h;
    std::vector<uint64_t> v;
    for (int i = 0; i < 10000; ++i) {
      const uint64_t x = (rng() >> (rng() % 60)) | 1;
      h.add(x);
      v.push_back(x);
    }
    std::sort(v.begin(), v.end());
    EXPECT_EQ(h.min(), v.front());
    EXPECT_EQ(h.max(), v.back());
    for (double q : kQs) {
      const uint64_t e = exact_quantile(v, q), got = h.quantile(q);
      EXPECT_LE(std::fabs(double(got) - double(e)), double(e) / 128.0) << "q=" << q;
    }
  }
}

TEST(LatencyHistogram, MergeEqualsAddingEverythingToOne) {
  std::mt19937_64 rng(7);
  std::lognormal_distribution<double> d(std::log(20000.0), 1.5);
  LatencyHistogram a, b, all, empty;
  std::vector<uint64_t> v;
  for (int i = 0; i < 30000; ++i) {
    const uint64_t x = uint64_t(d(rng));
    (i % 3 ? a : b).add(x);
    all.add(x);
    v.push_back(x);
  }
  LatencyHistogram m = a;
  m.merge(b);
  m.merge(empty);  // merging an empty histogram changes nothing (its min is "none")
  EXPECT_EQ(m.count(), all.count());
  EXPECT_EQ(m.min(), all.min());
  EXPECT_EQ(m.max(), all.max());
  EXPECT_DOUBLE_EQ(m.mean(), all.mean());
  for (double q : kQs) EXPECT_EQ(m.quantile(q), all.quantile(q)) << q;
  check_against_exact(m, v, "merged");
  // Into an empty one.
  LatencyHistogram e2;
  e2.merge(a);
  EXPECT_EQ(e2.count(), a.count());
  EXPECT_EQ(e2.min(), a.min());
  EXPECT_EQ(e2.max(), a.max());
  EXPECT_EQ(e2.quantile(0.5), a.quantile(0.5));
}

// clear() zeroes only the buckets between min and max: a cleared histogram
// must be an empty one, and what is added next must read as in a new one
// (values outside the first range too, above and below it).
TEST(LatencyHistogram, ClearedIsTheSameAsNew) {
  LatencyHistogram h;
  for (uint64_t x : {50'000u, 70'000u, 900'000u, 1'200'000u}) h.add(x);
  h.clear();
  EXPECT_EQ(h.count(), 0u);
  EXPECT_EQ(h.min(), 0u);
  EXPECT_EQ(h.max(), 0u);
  EXPECT_EQ(h.quantile(0.5), 0u);
  EXPECT_TRUE(h.buckets().empty());
  LatencyHistogram fresh;
  for (uint64_t x : {30u, 60'000u, 60'000u, 5'000'000u}) {
    h.add(x);
    fresh.add(x);
  }
  for (double q : kQs) EXPECT_EQ(h.quantile(q), fresh.quantile(q)) << q;
  ASSERT_EQ(h.buckets().size(), fresh.buckets().size());
  for (size_t i = 0; i < h.buckets().size(); ++i) EXPECT_EQ(h.buckets()[i].count, fresh.buckets()[i].count) << i;
  h.clear();
  h.add(900'000u);  // in the first range's bucket: left zero by the clear before
  EXPECT_EQ(h.buckets().size(), 1u);
  EXPECT_EQ(h.buckets()[0].count, 1u);
}
