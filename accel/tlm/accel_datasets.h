// accel_datasets.h - point sets for the accelerator's tests and its sweep:
// packed point words (ACCEL_POINT), deterministic for a seed.
#pragma once

#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "ssdvp_hw.h"

namespace ssdvp::accel_data {

enum class Kind { uniform, blobs, all_equal, duplicates, corner, extremes, ties };

inline const char* kind_name(Kind k) {
  switch (k) {
    case Kind::uniform: return "uniform";
    case Kind::blobs: return "blobs";
    case Kind::all_equal: return "all_equal";
    case Kind::duplicates: return "duplicates";
    case Kind::corner: return "corner";
    case Kind::extremes: return "extremes";
    case Kind::ties: return "ties";
  }
  return "?";
}

// uniform: anywhere in [0,511]^2; blobs: 6 clusters of spread +-40 (needs
// several iterations); all_equal: one point n times; duplicates: 5 distinct
// points repeated; corner: all in [0,40]^2 (most of K clusters stay empty);
// extremes: coordinates 0 or 511 only; ties: points half-way between
// diagonal centroids (equal distances, lowest index wins).
inline std::vector<uint32_t> make(Kind kind, uint32_t n, uint32_t seed) {
  std::mt19937 rng(seed);
  auto u = [&](uint32_t m) { return uint32_t(rng() % m); };
  auto clamp = [](int v) { return uint32_t(v < 0 ? 0 : v > 511 ? 511 : v); };
  std::vector<uint32_t> p(n);
  uint32_t cxs[6], cys[6];
  for (int b = 0; b < 6; ++b) cxs[b] = 40 + u(432), cys[b] = 40 + u(432);
  const uint32_t ex = u(512), ey = u(512);
  for (uint32_t i = 0; i < n; ++i) {
    uint32_t x = 0, y = 0;
    switch (kind) {
      case Kind::uniform: x = u(512), y = u(512); break;
      case Kind::blobs: {
        const uint32_t b = u(6);
        x = clamp(int(cxs[b]) + int(u(81)) - 40), y = clamp(int(cys[b]) + int(u(81)) - 40);
        break;
      }
      case Kind::all_equal: x = ex, y = ey; break;
      case Kind::duplicates: x = (u(5) * 97) % 512, y = (x * 3) % 512; break;
      case Kind::corner: x = u(41), y = u(41); break;
      case Kind::extremes: x = u(2) * 511, y = u(2) * 511; break;
      case Kind::ties: {
        // (c+36, c+37) is equally far from the K = 8 diagonal centroids c
        // and c+73 (36^2 + 37^2 both ways)
        const uint32_t c = u(7) * 73, b = u(2);
        x = c + 36 + b, y = c + 37 - b;
        x = x > 511 ? 511 : x, y = y > 511 ? 511 : y;
        break;
      }
    }
    p[i] = ACCEL_POINT(x, y);
  }
  return p;
}

}  // namespace ssdvp::accel_data
