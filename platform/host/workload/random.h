// random.h - self-contained, portable random primitives for the synthetic
// workloads. Every result depends only on the seed (no std:: distributions,
// whose output differs between standard libraries). The integer paths
// (uniform, hot/cold, sequential, permutation) are bit-exact everywhere; the
// Zipf and Poisson paths use log/exp/log1p/expm1 from libm.
#pragma once

#include <cmath>
#include <cstdint>

namespace ssdvp::host {

// splitmix64 (Steele, Lea, Flood 2014): seeds the generators and mixes keys.
inline uint64_t splitmix64(uint64_t& state) {
  uint64_t z = (state += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

// xoshiro256** 1.0 (Blackman, Vigna 2018).
class Xoshiro256 {
 public:
  explicit Xoshiro256(uint64_t seed = 0) { reseed(seed); }
  void reseed(uint64_t seed) {
    uint64_t sm = seed;
    for (auto& w : s_) w = splitmix64(sm);
  }
  uint64_t next() {
    const uint64_t result = rotl(s_[1] * 5, 7) * 9;
    const uint64_t t = s_[1] << 17;
    s_[2] ^= s_[0];
    s_[3] ^= s_[1];
    s_[1] ^= s_[2];
    s_[0] ^= s_[3];
    s_[2] ^= t;
    s_[3] = rotl(s_[3], 45);
    return result;
  }
  // Uniform in [0, 1) with 53 random bits.
  double uniform() { return static_cast<double>(next() >> 11) * 0x1.0p-53; }
  // Uniform in [0, n), unbiased (Lemire 2019); n > 0.
  uint64_t below(uint64_t n) {
    unsigned __int128 m = static_cast<unsigned __int128>(next()) * n;
    uint64_t low = static_cast<uint64_t>(m);
    if (low < n) {
      const uint64_t threshold = (0 - n) % n;
      while (low < threshold) {
        m = static_cast<unsigned __int128>(next()) * n;
        low = static_cast<uint64_t>(m);
      }
    }
    return static_cast<uint64_t>(m >> 64);
  }

 private:
  static uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
  uint64_t s_[4];
};

// Zipf ranks in [0, n): P(rank k) proportional to 1 / (k + 1)^theta, theta > 0,
// by rejection-inversion (W. Hormann, G. Derflinger, "Rejection-inversion to
// generate variates from monotone discrete distributions", ACM TOMACS 6(3),
// 1996). O(1) setup and O(1) expected time per sample (fewer than 1.1 uniform
// draws on average), exact for any n up to 2^53.
class ZipfSampler {
 public:
  ZipfSampler(uint64_t n, double theta);
  uint64_t operator()(Xoshiro256& rng) const;
  uint64_t n() const { return n_; }
  double theta() const { return theta_; }

 private:
  double h(double x) const { return std::exp(-theta_ * std::log(x)); }
  double H(double x) const;
  double H_inv(double x) const;

  uint64_t n_;
  double theta_;
  double h_x1_, h_n_, s_;
};

// A keyed bijection of [0, n): a balanced Feistel network over the next even
// power of two >= n, with cycle walking (Black, Rogaway 2002) to stay inside
// [0, n). O(1) state, fewer than 4 network evaluations per call on average.
// Scatters Zipf ranks so that the hot items are not adjacent.
class ScatterPermutation {
 public:
  ScatterPermutation(uint64_t n, uint64_t key);
  uint64_t operator()(uint64_t x) const;
  uint64_t n() const { return n_; }

 private:
  uint64_t encrypt(uint64_t x) const;
  uint64_t n_;
  unsigned half_bits_ = 1;
  uint64_t half_mask_ = 1;
  uint64_t keys_[4] = {};
};

}  // namespace ssdvp::host
