// accel_core.cpp - see accel_core.h.
#include "tlm/accel_core.h"

#include "common/config.h"
#include "ssdvp_hw.h"
#ifdef SSDVP_HAVE_RTL
#include "rtl/rtl_core.h"
#endif

namespace ssdvp {
namespace {
uint64_t ceil_div(uint64_t a, uint64_t b) { return (a + b - 1) / b; }
}  // namespace

AccelShape AccelShape::from_config(Config& cfg) {
  AccelShape s;
  s.sram_points = uint32_t(cfg.get_u64("accel.sram_points", 25600, "capacity of the accelerator's point SRAM in points (4 bytes each)", 1, 1u << 20));
  s.lanes = uint32_t(cfg.get_u64("accel.lanes", 1, "points per cycle in the assignment step (each lane has 8 distance units, K of them in use)", 1, 64));
  s.dividers = uint32_t(cfg.get_u64("accel.dividers", 2, "sequential dividers time-multiplexed over the 2K centroid divisions of an iteration", 1, 16));
  s.divider_latency = uint32_t(cfg.get_u64("accel.divider_latency", 10, "cycles per centroid division (1 load + 9 quotient bits in the RTL)", 1, 64));
  s.dma_bytes_per_cycle = uint32_t(cfg.get_u64("accel.dma_bytes_per_cycle", 16, "accelerator DMA bytes per accelerator cycle (points in, labels out)", 1, 256));
  s.dma_setup_cycles = uint32_t(cfg.get_u64("accel.dma_setup_cycles", 64, "cycles before the first beat of each DMA transfer (DRAM access latency)", 0, 100000));
  s.clock_hz = cfg.get_double("accel.clock_hz", 1.3e9, "accelerator clock in Hz", 1e6, 1e11);
  return s;
}

uint64_t accel_compute_cycles(const AccelShape& s, uint32_t n, uint32_t k, uint32_t iterations) {
  const uint64_t per_iter = ceil_div(n, s.lanes) + kAccelPipelineDrain +
                            ceil_div(2ull * k, s.dividers) * s.divider_latency + kAccelCommitCycles;
  return kAccelStartCycles + uint64_t(iterations) * per_iter;
}
uint64_t accel_dma_in_cycles(const AccelShape& s, uint32_t n) {
  return s.dma_setup_cycles + ceil_div(4ull * n, s.dma_bytes_per_cycle);
}
uint64_t accel_dma_out_cycles(const AccelShape& s, uint32_t n) {
  return s.dma_setup_cycles + ceil_div(n, s.dma_bytes_per_cycle);
}

// The hardware's view of kmeans2d: the same integer arithmetic, organised as
// the RTL is (assignment pass with accumulators, then 2K floor divisions).
void TlmCore::run(const std::vector<uint32_t>& points, uint32_t k, uint32_t max_iter, AccelResult& out) {
  const uint32_t n = uint32_t(points.size());
  out.labels.assign(n, uint8_t(ACCEL_LABEL_NONE));
  for (uint32_t c = 0; c < 8; ++c) out.cx[c] = out.cy[c] = 0;
  for (uint32_t c = 0; c < k; ++c) out.cx[c] = out.cy[c] = k <= 1 ? 0 : uint16_t(c * 511u / (k - 1));
  uint32_t it = 0;
  while (it < max_iter) {
    uint64_t sx[8] = {0}, sy[8] = {0};
    uint32_t cnt[8] = {0};
    bool changed = false;
    for (uint32_t i = 0; i < n; ++i) {
      const int32_t x = ACCEL_POINT_X(points[i]), y = ACCEL_POINT_Y(points[i]);
      uint32_t best = 0, bestd = UINT32_MAX;
      for (uint32_t c = 0; c < k; ++c) {
        const int32_t dx = x - out.cx[c], dy = y - out.cy[c];
        const uint32_t d = uint32_t(dx * dx + dy * dy);
        if (d < bestd) bestd = d, best = c;
      }
      changed |= out.labels[i] != best;
      out.labels[i] = uint8_t(best);
      sx[best] += uint32_t(x);
      sy[best] += uint32_t(y);
      cnt[best]++;
    }
    for (uint32_t c = 0; c < k; ++c)
      if (cnt[c]) out.cx[c] = uint16_t(sx[c] / cnt[c]), out.cy[c] = uint16_t(sy[c] / cnt[c]);
    ++it;
    if (!changed) break;
  }
  out.iterations = it;
  out.compute_cycles = accel_compute_cycles(shape_, n, k, it);
}

std::unique_ptr<AccelCore> make_accel_core(Config& cfg, const AccelShape& s) {
  const std::string impl = cfg.get_choice("accel.impl", "tlm", {"tlm", "rtl"},
                                          "K-Means core of the accelerator: tlm (C++ model) or rtl (verilated Verilog)");
  const std::string vcd = cfg.get_string("accel.vcd", "", "rtl core: write a VCD of every job to this path (empty: none)");
  if (impl == "tlm") return std::make_unique<TlmCore>(s);
#ifdef SSDVP_HAVE_RTL
  return std::make_unique<RtlCore>(s, vcd);
#else
  throw ConfigError("accel.impl=rtl: this build has no RTL core (configure with verilator and -DSSDVP_RTL=ON)");
#endif
}

}  // namespace ssdvp
