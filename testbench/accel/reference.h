// reference.h - the firmware's kmeans2d (the bit-exact reference) on packed
// accelerator points, for the accelerator tests.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "ssdvp_hw.h"

extern "C" {
#include "hotness.h"
}

namespace ssdvp::test {

struct KmeansRef {
  std::vector<uint8_t> labels;
  uint16_t cx[8] = {0}, cy[8] = {0};
  uint32_t iterations = 0;
};

inline KmeansRef kmeans_reference(const std::vector<uint32_t>& pts, uint32_t k, uint32_t max_iter) {
  std::vector<uint16_t> x(pts.size()), y(pts.size());
  for (size_t i = 0; i < pts.size(); ++i) x[i] = ACCEL_POINT_X(pts[i]), y[i] = ACCEL_POINT_Y(pts[i]);
  KmeansRef r;
  r.labels.resize(pts.size());
  EXPECT_EQ(KMEANS_OK, kmeans2d(nullptr, x.data(), y.data(), uint32_t(pts.size()), k, max_iter, r.labels.data(), r.cx,
                                r.cy, &r.iterations));
  return r;
}

}  // namespace ssdvp::test
