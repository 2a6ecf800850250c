// random.cpp - see random.h.
#include "random.h"

#include <stdexcept>

namespace ssdvp::host {
namespace {

// log1p(x)/x, continuous at 0.
double helper1(double x) {
  return std::fabs(x) > 1e-8 ? std::log1p(x) / x : 1.0 - x * (0.5 - x * (1.0 / 3.0 - 0.25 * x));
}
// expm1(x)/x, continuous at 0.
double helper2(double x) {
  return std::fabs(x) > 1e-8 ? std::expm1(x) / x : 1.0 + x * 0.5 * (1.0 + x * (1.0 / 3.0) * (1.0 + 0.25 * x));
}

}  // namespace

// h(x) = x^-theta; H(x) = integral of h from 1 to x = (x^(1-theta) - 1)/(1-theta)
// (log x at theta = 1), written with helper2 so that theta near 1 is exact.
double ZipfSampler::H(double x) const {
  const double lx = std::log(x);
  return helper2((1.0 - theta_) * lx) * lx;
}

double ZipfSampler::H_inv(double x) const {
  double t = x * (1.0 - theta_);
  if (t < -1.0) t = -1.0;  // rounding guard at the upper end
  return std::exp(helper1(t) * x);
}

ZipfSampler::ZipfSampler(uint64_t n, double theta) : n_(n), theta_(theta) {
  if (n == 0) throw std::invalid_argument("ZipfSampler: n must be > 0");
  if (n > (1ull << 53)) throw std::invalid_argument("ZipfSampler: n must be <= 2^53");
  if (!(theta > 0) || !std::isfinite(theta)) throw std::invalid_argument("ZipfSampler: theta must be > 0");
  h_x1_ = H(1.5) - 1.0;
  h_n_ = H(static_cast<double>(n) + 0.5);
  s_ = 2.0 - H_inv(H(2.5) - h(2.0));
}

uint64_t ZipfSampler::operator()(Xoshiro256& rng) const {
  // Invert the continuous hat H over (0.5, n + 0.5]; accept k when the point
  // falls under the discrete probability mass (squeeze first, then exact test).
  for (;;) {
    const double u = h_n_ + rng.uniform() * (h_x1_ - h_n_);
    const double x = H_inv(u);
    double kd = std::floor(x + 0.5);
    if (kd < 1.0)
      kd = 1.0;
    else if (kd > static_cast<double>(n_))
      kd = static_cast<double>(n_);
    if (kd - x <= s_ || u >= H(kd + 0.5) - h(kd)) return static_cast<uint64_t>(kd) - 1;
  }
}

ScatterPermutation::ScatterPermutation(uint64_t n, uint64_t key) : n_(n) {
  if (n == 0) throw std::invalid_argument("ScatterPermutation: n must be > 0");
  unsigned bits = 0;
  while (bits < 64 && (1ull << bits) < n) ++bits;
  if (bits < 2) bits = 2;
  if (bits & 1) ++bits;
  half_bits_ = bits / 2;
  half_mask_ = (1ull << half_bits_) - 1;
  uint64_t sm = key ^ 0x5ca77e85ca77e85cull;
  for (auto& k : keys_) k = splitmix64(sm);
}

uint64_t ScatterPermutation::encrypt(uint64_t x) const {
  uint64_t left = x >> half_bits_, right = x & half_mask_;
  for (uint64_t k : keys_) {
    uint64_t z = right ^ k;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    z ^= z >> 31;
    const uint64_t next = left ^ (z & half_mask_);
    left = right;
    right = next;
  }
  return (left << half_bits_) | right;
}

uint64_t ScatterPermutation::operator()(uint64_t x) const {
  if (n_ == 1) return 0;
  uint64_t y = encrypt(x);
  while (y >= n_) y = encrypt(y);  // cycle walking: the cycle through x < n returns below n
  return y;
}

}  // namespace ssdvp::host
