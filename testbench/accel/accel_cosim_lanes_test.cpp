// Co-simulation of a second RTL variant (LANES=4, NDIV=3) against the TLM
// core of the same shape: labels, centroids, iterations and cycle counts,
// N not a multiple of the lanes, 2K not a multiple of the dividers.
#include <gtest/gtest.h>

#include <string>

#include "Vkmeans_core_l4d3.h"
#include "rtl/rtl_driver.h"
#include "tlm/accel_core.h"
#include "tlm/accel_datasets.h"

using namespace ssdvp;
using accel_data::Kind;

namespace {

AccelShape shape() {
  AccelShape s;
  s.lanes = 4;
  s.dividers = 3;
  return s;
}

TEST(AccelCosimLanes, FourLanesThreeDividersMatchTheTlmCore) {
  RtlDriver<Vkmeans_core_l4d3> rtl(shape(), "");
  TlmCore tlm(shape());
  const Kind kinds[] = {Kind::uniform, Kind::blobs,    Kind::all_equal, Kind::duplicates,
                        Kind::corner,  Kind::extremes, Kind::ties};
  uint32_t seed = 500;
  auto check = [&](const std::vector<uint32_t>& pts, uint32_t k, uint32_t max_iter, const std::string& what) {
    AccelResult a, b;
    tlm.run(pts, k, max_iter, a);
    rtl.run(pts, k, max_iter, b);
    ASSERT_EQ(a.iterations, b.iterations) << what;
    ASSERT_EQ(a.compute_cycles, b.compute_cycles) << what;
    EXPECT_EQ(a.labels, b.labels) << what;
    for (uint32_t c = 0; c < 8; ++c) EXPECT_TRUE(a.cx[c] == b.cx[c] && a.cy[c] == b.cy[c]) << what << " cluster " << c;
  };
  for (Kind kind : kinds)
    for (uint32_t n : {1u, 5u, 98u, 643u})
      for (uint32_t k = 1; k <= 8; ++k)
        check(accel_data::make(kind, n, seed++), k, 10,
              std::string(accel_data::kind_name(kind)) + " n=" + std::to_string(n) + " k=" + std::to_string(k));
  check(accel_data::make(Kind::blobs, 25600, 3), 7, 10, "blobs n=25600 k=7");
  // ceil(25600/4) = 6400 rows, ceil(14/3) = 5 rounds of 10
  EXPECT_EQ(1u + 10u * (6400 + 2 + 50 + 1), accel_compute_cycles(shape(), 25600, 7, 10));
}

}  // namespace
