// The accelerator's TLM core against the firmware reference kmeans2d
// (firmware/ftl/hotness.c) on random and edge datasets, and its cycle count
// against the formula of docs/models/accel.md written out by hand.
#include <gtest/gtest.h>

#include <vector>

#include "common/config.h"
#include "tlm/accel_core.h"
#include "reference.h"
#include "tlm/accel_datasets.h"

using namespace ssdvp;
using accel_data::Kind;

namespace {

using Ref = test::KmeansRef;
using test::kmeans_reference;

void expect_same(const Ref& r, const AccelResult& a, uint32_t k, const std::string& what) {
  ASSERT_EQ(r.iterations, a.iterations) << what;
  for (uint32_t c = 0; c < k; ++c) {
    EXPECT_EQ(r.cx[c], a.cx[c]) << what << " cluster " << c;
    EXPECT_EQ(r.cy[c], a.cy[c]) << what << " cluster " << c;
  }
  ASSERT_EQ(r.labels.size(), a.labels.size());
  size_t diff = 0;
  for (size_t i = 0; i < r.labels.size(); ++i) diff += r.labels[i] != a.labels[i];
  EXPECT_EQ(0u, diff) << what << ": labels differ";
}

TEST(AccelCore, BitExactWithKmeans2dOnRandomAndEdgeData) {
  AccelShape s;
  TlmCore core(s);
  const Kind kinds[] = {Kind::uniform, Kind::blobs,    Kind::all_equal, Kind::duplicates,
                        Kind::corner,  Kind::extremes, Kind::ties};
  const uint32_t ns[] = {1, 2, 7, 640, 2560};
  uint32_t seed = 1, cases = 0, iters_above_1 = 0;
  for (Kind kind : kinds)
    for (uint32_t n : ns)
      for (uint32_t k = 1; k <= 8; ++k)
        for (uint32_t max_iter : {0u, 1u, 10u, 100u}) {
          const auto pts = accel_data::make(kind, n, seed++);
          AccelResult a;
          core.run(pts, k, max_iter, a);
          const Ref r = kmeans_reference(pts, k, max_iter);
          expect_same(r, a, k,
                      std::string(accel_data::kind_name(kind)) + " n=" + std::to_string(n) + " k=" + std::to_string(k) +
                          " max_iter=" + std::to_string(max_iter));
          ++cases;
          iters_above_1 += a.iterations > 1;
        }
  EXPECT_EQ(7u * 5 * 8 * 4, cases);
  EXPECT_GT(iters_above_1, 100u);  // the data exercises real iterations, not just the first pass
}

TEST(AccelCore, LargestSramFillIsBitExact) {
  AccelShape s;
  TlmCore core(s);
  for (uint32_t k : {3u, 8u}) {
    const auto pts = accel_data::make(Kind::blobs, 25600, 77 + k);
    AccelResult a;
    core.run(pts, k, 50, a);
    expect_same(kmeans_reference(pts, k, 50), a, k, "n=25600 k=" + std::to_string(k));
  }
}

TEST(AccelCore, CornerDataLeavesClustersEmptyAndTheyKeepTheirCentroid) {
  TlmCore core(AccelShape{});
  const auto pts = accel_data::make(Kind::corner, 500, 5);
  AccelResult a;
  core.run(pts, 8, 20, a);
  // all points lie in [0,40]^2: clusters 2..7 (initial centroids 146..511) never win
  for (uint32_t c = 2; c < 8; ++c) {
    EXPECT_EQ(kmeans_initial(c, 8), a.cx[c]);
    EXPECT_EQ(kmeans_initial(c, 8), a.cy[c]);
  }
  for (uint8_t l : a.labels) EXPECT_LT(l, 2);
}

TEST(AccelCore, CycleCountFollowsTheFormula) {
  AccelShape s;  // lanes 1, 2 dividers of 10 cycles
  TlmCore core(s);
  const auto pts = accel_data::make(Kind::uniform, 2560, 3);
  AccelResult a;
  core.run(pts, 6, 10, a);
  // 1 start + it * (2560 assign + 2 drain + ceil(12/2)*10 divide + 1 commit)
  EXPECT_EQ(1 + uint64_t(a.iterations) * (2560 + 2 + 60 + 1), a.compute_cycles);
  EXPECT_EQ(1u + 10u * 2623u, accel_compute_cycles(s, 2560, 6, 10));
  s.lanes = 4, s.dividers = 3, s.divider_latency = 7;
  // ceil(1001/4) = 251, ceil(2*5/3) = 4 rounds of 7
  EXPECT_EQ(1u + 3u * (251 + 2 + 28 + 1), accel_compute_cycles(s, 1001, 5, 3));
  EXPECT_EQ(1u, accel_compute_cycles(s, 1001, 5, 0));
  s.dma_bytes_per_cycle = 16, s.dma_setup_cycles = 64;
  EXPECT_EQ(64u + 251u, accel_dma_in_cycles(s, 1001));  // ceil(4004/16)
  EXPECT_EQ(64u + 63u, accel_dma_out_cycles(s, 1001));  // ceil(1001/16)
}

TEST(AccelCore, ShapeComesFromConfigKeys) {
  Config cfg =
      Config::from_yaml_string("accel: {lanes: 4, dividers: 3, divider_latency: 12, sram_points: 100, clock_hz: 1e9}");
  const AccelShape s = AccelShape::from_config(cfg);
  EXPECT_EQ(4u, s.lanes);
  EXPECT_EQ(3u, s.dividers);
  EXPECT_EQ(12u, s.divider_latency);
  EXPECT_EQ(100u, s.sram_points);
  EXPECT_DOUBLE_EQ(1e9, s.clock_hz);
  Config bad = Config::from_yaml_string("accel: {lanes: 0}");
  EXPECT_THROW(AccelShape::from_config(bad), ConfigError);
}

TEST(AccelCore, RtlChoiceIsRefusedWithAClearErrorWhenNotBuiltOrMismatched) {
  Config cfg = Config::from_yaml_string("accel: {impl: rtl, lanes: 3}");
  const AccelShape s = AccelShape::from_config(cfg);
  EXPECT_THROW(make_accel_core(cfg, s), ConfigError);  // no RTL, or an RTL of 1 lane
  Config bad = Config::from_yaml_string("accel: {impl: verilog}");
  EXPECT_THROW(make_accel_core(bad, AccelShape{}), ConfigError);
}

}  // namespace
