// hotness_test.cpp - the hotness monitor on hand-made sequences, and the
// fixed-point K-Means against a double-precision reference (Eigen).
#include <gtest/gtest.h>

#include <Eigen/Dense>
#include <algorithm>
#include <random>
#include <set>
#include <vector>

#include "fake_hal.h"

extern "C" {
#include "hotness.h"
}

namespace {

struct Mon {
  std::vector<uint64_t> mem;
  hot_monitor m{};
  Mon(uint32_t slices, uint64_t T, uint32_t rule) : mem(hot_mem_bytes(slices) / 8 + 1) {
    EXPECT_EQ(hot_init(&m, nullptr, slices, T, rule, 0, mem.data()), 0);
  }
};

// T = 100 ns, 3 slices: slice 0 written at 10, 30, 70; slice 1 at 50; slice 2 never.
void replay(hot_monitor& m) {
  hot_record(&m, 0, 10);
  hot_record(&m, 0, 30);
  hot_record(&m, 1, 50);
  hot_record(&m, 0, 70);
}

TEST(HotMonitor, PerSliceIntervalsAndNineBitScaling) {
  Mon mon(3, 100, HOT_INTERVAL_PER_SLICE);
  replay(mon.m);
  uint16_t f9[3], t9[3];
  uint32_t f[3];
  uint64_t t[3];
  hot_close_period(&mon.m, 100, f9, t9, f, t);
  // UpdateF = 3, 1, 0; UpdateT = (10 + 20 + 40) / 3 = 23, 50 / 1 = 50, none -> T = 100
  EXPECT_EQ(f[0], 3u);
  EXPECT_EQ(f[1], 1u);
  EXPECT_EQ(f[2], 0u);
  EXPECT_EQ(t[0], 23u);
  EXPECT_EQ(t[1], 50u);
  EXPECT_EQ(t[2], 100u);
  // scaled: v * 511 / max (max F = 3, max T = 100)
  EXPECT_EQ(f9[0], 511);
  EXPECT_EQ(f9[1], 170);
  EXPECT_EQ(f9[2], 0);
  EXPECT_EQ(t9[0], 117);
  EXPECT_EQ(t9[1], 255);
  EXPECT_EQ(t9[2], 511);
}

TEST(HotMonitor, GlobalRuleFollowsAlgorithmOneLineSixteen) {
  Mon mon(3, 100, HOT_INTERVAL_GLOBAL);
  replay(mon.m);  // gaps since the previous request of any slice: s0 10, 20, 20; s1 20
  uint32_t f[3];
  uint64_t t[3];
  hot_close_period(&mon.m, 100, nullptr, nullptr, f, t);
  EXPECT_EQ(t[0], 50u / 3);
  EXPECT_EQ(t[1], 20u);
  EXPECT_EQ(t[2], 100u);
}

TEST(HotMonitor, PeriodsResetAndCountFromTheirStart) {
  Mon mon(2, 100, HOT_INTERVAL_PER_SLICE);
  EXPECT_FALSE(hot_period_due(&mon.m, 99));
  EXPECT_TRUE(hot_period_due(&mon.m, 100));
  hot_record(&mon.m, 0, 40);
  hot_close_period(&mon.m, 100, nullptr, nullptr, nullptr, nullptr);
  hot_record(&mon.m, 0, 130);  // first update of the new period: 30 after its start
  hot_record(&mon.m, 5, 131);  // beyond the slices: ignored
  uint32_t f[2];
  uint64_t t[2];
  hot_close_period(&mon.m, 200, nullptr, nullptr, f, t);
  EXPECT_EQ(f[0], 1u);
  EXPECT_EQ(t[0], 30u);
  EXPECT_EQ(f[1], 0u);
  EXPECT_EQ(t[1], 100u);
}

TEST(HotMonitor, AllZeroScalesToZeroAndBadArgumentsAreRefused) {
  Mon mon(4, 100, HOT_INTERVAL_PER_SLICE);
  uint16_t f9[4], t9[4];
  hot_close_period(&mon.m, 100, f9, t9, nullptr, nullptr);
  for (int s = 0; s < 4; ++s) {
    EXPECT_EQ(f9[s], 0);
    EXPECT_EQ(t9[s], 511);  // no updates: UpdateT = T, the maximum
  }
  hot_monitor m{};
  uint64_t mem[8];
  EXPECT_NE(hot_init(&m, nullptr, 0, 100, 0, 0, mem), 0);
  EXPECT_NE(hot_init(&m, nullptr, 2, 0, 0, 0, mem), 0);
  EXPECT_NE(hot_init(&m, nullptr, 2, 100, 7, 0, mem), 0);
}

// The same algorithm in double precision: mean instead of floor division.
struct Reference {
  std::vector<int> labels;
  Eigen::MatrixXd centroids;  // k x 2
  uint32_t iterations = 0;
};
Reference reference(const std::vector<uint16_t>& x, const std::vector<uint16_t>& y, uint32_t k, uint32_t max_iter) {
  const size_t n = x.size();
  Eigen::MatrixXd p(n, 2);
  for (size_t i = 0; i < n; ++i) p.row(i) << x[i], y[i];
  Reference r;
  r.centroids.resize(k, 2);
  for (uint32_t c = 0; c < k; ++c) r.centroids.row(c).setConstant(kmeans_initial(c, k));
  r.labels.assign(n, -1);
  while (r.iterations < max_iter) {
    bool changed = false;
    for (size_t i = 0; i < n; ++i) {
      Eigen::Index best;
      (r.centroids.rowwise() - p.row(i)).rowwise().squaredNorm().minCoeff(&best);  // first minimum
      changed |= r.labels[i] != int(best);
      r.labels[i] = int(best);
    }
    for (uint32_t c = 0; c < k; ++c) {
      Eigen::RowVector2d s(0, 0);
      int m = 0;
      for (size_t i = 0; i < n; ++i)
        if (r.labels[i] == int(c)) s += p.row(i), ++m;
      if (m) r.centroids.row(c) = s / m;
    }
    ++r.iterations;
    if (!changed) break;
  }
  return r;
}

std::vector<uint16_t> blob(std::mt19937& rng, int c, int n, int spread) {
  std::vector<uint16_t> v;
  for (int i = 0; i < n; ++i) v.push_back(uint16_t(std::clamp(c + int(rng() % (2 * spread + 1)) - spread, 0, 511)));
  return v;
}

// Each blob sits near its own initial centroid, so every point is far from
// any decision boundary at every iteration: floor division cannot flip an
// assignment, and the fixed-point run must equal the double one exactly.
TEST(KMeans, MatchesDoubleReferenceExactlyWhenNoPointIsNearABoundary) {
  for (uint32_t k = 3; k <= 8; ++k) {
    std::mt19937 rng(k);
    std::vector<uint16_t> x, y;
    for (uint32_t b = 0; b < k; ++b) {
      const int c = kmeans_initial(b, k), off = int(rng() % 15) - 7;
      const int cc = std::clamp(c + off, 8, 503);
      auto bx = blob(rng, cc, 200, 5), by = blob(rng, cc, 200, 5);
      x.insert(x.end(), bx.begin(), bx.end());
      y.insert(y.end(), by.begin(), by.end());
    }
    const uint32_t n = uint32_t(x.size());
    std::vector<uint8_t> labels(n);
    uint16_t cx[8], cy[8];
    uint32_t it = 0;
    ASSERT_EQ(kmeans2d(nullptr, x.data(), y.data(), n, k, 10, labels.data(), cx, cy, &it), KMEANS_OK);
    const Reference r = reference(x, y, k, 10);
    EXPECT_EQ(it, r.iterations) << "k=" << k;
    for (uint32_t i = 0; i < n; ++i) ASSERT_EQ(int(labels[i]), r.labels[i]) << "point " << i << " k=" << k;
    for (uint32_t c = 0; c < k; ++c) {
      EXPECT_LE(std::abs(double(cx[c]) - r.centroids(c, 0)), 1.0);  // floor of the mean
      EXPECT_LE(std::abs(double(cy[c]) - r.centroids(c, 1)), 1.0);
    }
  }
}

// Blobs anywhere: blobs may touch, or a start on the diagonal may split one,
// which puts points near boundaries where the floor and the true mean
// legitimately disagree. Agreement must still be near total.
TEST(KMeans, RandomBlobsAgreeWithReferenceAlmostEverywhere) {
  size_t same = 0, total = 0;
  for (uint32_t k = 3; k <= 8; ++k)
    for (uint32_t seed = 1; seed <= 3; ++seed) {
      std::mt19937 rng(seed * 100 + k);
      std::vector<uint16_t> x, y;
      for (uint32_t b = 0; b < k; ++b) {
        auto bx = blob(rng, 20 + int(rng() % 470), 200, 5), by = blob(rng, 20 + int(rng() % 470), 200, 5);
        x.insert(x.end(), bx.begin(), bx.end());
        y.insert(y.end(), by.begin(), by.end());
      }
      std::vector<uint8_t> labels(x.size());
      uint16_t cx[8], cy[8];
      uint32_t it;
      ASSERT_EQ(kmeans2d(nullptr, x.data(), y.data(), uint32_t(x.size()), k, 10, labels.data(), cx, cy, &it),
                KMEANS_OK);
      const Reference r = reference(x, y, k, 10);
      for (size_t i = 0; i < x.size(); ++i) same += int(labels[i]) == r.labels[i];
      total += x.size();
    }
  EXPECT_GE(double(same) / double(total), 0.99);
}

TEST(KMeans, UniformDataAgreesWithReferenceAlmostEverywhere) {
  std::mt19937 rng(7);
  std::vector<uint16_t> x(2560), y(2560);
  for (auto& v : x) v = uint16_t(rng() % 512);
  for (auto& v : y) v = uint16_t(rng() % 512);
  std::vector<uint8_t> labels(x.size());
  uint16_t cx[8], cy[8];
  uint32_t it;
  ASSERT_EQ(kmeans2d(nullptr, x.data(), y.data(), uint32_t(x.size()), 6, 10, labels.data(), cx, cy, &it), KMEANS_OK);
  const Reference r = reference(x, y, 6, 10);
  size_t same = 0;
  for (size_t i = 0; i < x.size(); ++i) same += int(labels[i]) == r.labels[i];
  EXPECT_GE(double(same) / double(x.size()), 0.97) << "fixed point drifted from the reference";
}

TEST(KMeans, AllPointsEqualGoToTheNearestInitialCentroidOthersKeepTheirs) {
  std::vector<uint16_t> x(100, 300), y(100, 300);
  std::vector<uint8_t> labels(100);
  uint16_t cx[6], cy[6];
  uint32_t it;
  ASSERT_EQ(kmeans2d(nullptr, x.data(), y.data(), 100, 6, 10, labels.data(), cx, cy, &it), KMEANS_OK);
  // initial diagonal: 0, 102, 204, 306, 408, 511 -> nearest to 300 is cluster 3
  for (uint8_t l : labels) EXPECT_EQ(l, 3);
  EXPECT_EQ(cx[3], 300);
  EXPECT_EQ(cy[3], 300);
  for (uint32_t c : {0u, 1u, 2u, 4u, 5u}) EXPECT_EQ(cx[c], kmeans_initial(c, 6));
  EXPECT_EQ(it, 2u);  // the second iteration changes nothing
}

TEST(KMeans, FewerDistinctPointsThanClusters) {
  std::vector<uint16_t> x = {10, 10, 10, 500, 500}, y = {10, 10, 10, 500, 500};
  std::vector<uint8_t> labels(5);
  uint16_t cx[8], cy[8];
  uint32_t it;
  ASSERT_EQ(kmeans2d(nullptr, x.data(), y.data(), 5, 8, 10, labels.data(), cx, cy, &it), KMEANS_OK);
  EXPECT_EQ(std::set<uint8_t>(labels.begin(), labels.end()).size(), 2u);
  EXPECT_EQ(labels[0], labels[2]);
  EXPECT_EQ(labels[3], labels[4]);
  EXPECT_EQ(cx[labels[0]], 10);
  EXPECT_EQ(cx[labels[3]], 500);
}

TEST(KMeans, TiesGoToTheLowestIndex) {
  // With K = 3 the initial centroids are 0, 255, 511 on the diagonal; the point
  // (127, 128) is at squared distance 127^2 + 128^2 from both (0,0) and (255,255).
  std::vector<uint16_t> x = {127}, y = {128};
  uint8_t label;
  uint16_t cx[3], cy[3];
  uint32_t it;
  ASSERT_EQ(kmeans2d(nullptr, x.data(), y.data(), 1, 3, 1, &label, cx, cy, &it), KMEANS_OK);
  EXPECT_EQ(label, 0);
}

TEST(KMeans, BadInputIsRefusedWithACode) {
  uint16_t x[2] = {1, 512}, y[2] = {1, 1}, cx[8], cy[8];
  uint8_t l[2];
  uint32_t it = 99;
  EXPECT_EQ(kmeans2d(nullptr, x, y, 0, 3, 10, l, cx, cy, &it), KMEANS_ERR_N);
  EXPECT_EQ(it, 0u);
  EXPECT_EQ(kmeans2d(nullptr, x, y, 1, 0, 10, l, cx, cy, &it), KMEANS_ERR_K);
  EXPECT_EQ(kmeans2d(nullptr, x, y, 1, 9, 10, l, cx, cy, &it), KMEANS_ERR_K);
  EXPECT_EQ(kmeans2d(nullptr, x, y, 2, 3, 10, l, cx, cy, &it), KMEANS_ERR_RANGE);
}

TEST(KMeans, StopsAtMaxIterationsAndChargesPerPointPerCluster) {
  FakeHal hal(4096, 2, 1, 1);
  std::mt19937 rng(3);
  std::vector<uint16_t> x(640), y(640);
  for (auto& v : x) v = uint16_t(rng() % 512);
  for (auto& v : y) v = uint16_t(rng() % 512);
  std::vector<uint8_t> labels(640);
  uint16_t cx[6], cy[6];
  uint32_t it;
  ASSERT_EQ(kmeans2d(hal.hal(), x.data(), y.data(), 640, 6, 3, labels.data(), cx, cy, &it), KMEANS_OK);
  EXPECT_EQ(it, 3u);
  EXPECT_EQ(hal.cycles[FW_OP_kmeans_distance], 3u * 640 * 6);
  EXPECT_EQ(hal.cycles[FW_OP_kmeans_accumulate], 3u * 640);
  EXPECT_EQ(hal.cycles[FW_OP_kmeans_divide], 3u * 2 * 6);
}

}  // namespace
