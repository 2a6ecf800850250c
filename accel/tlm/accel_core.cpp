// accel_core.cpp - see accel_core.h.
#include "tlm/accel_core.h"

#include "common/config.h"
#include "ssdvp_hw.h"

#include <stdexcept>

#include "hotness.h"
#ifdef SSDVP_HAVE_RTL
#include "rtl/rtl_core.h"
#endif

namespace ssdvp {
namespace {
uint64_t ceil_div(uint64_t a, uint64_t b) { return (a + b - 1) / b; }
}  // namespace

AccelShape AccelShape::from_config(Config& cfg) {
  AccelShape s;
  s.sram_points = uint32_t(cfg.get_u64("accel.sram_points"));
  s.lanes = uint32_t(cfg.get_u64("accel.lanes"));
  s.dividers = uint32_t(cfg.get_u64("accel.dividers"));
  s.divider_latency = uint32_t(cfg.get_u64("accel.divider_latency"));
  s.dma_bytes_per_cycle = uint32_t(cfg.get_u64("accel.dma_bytes_per_cycle"));
  s.dma_setup_cycles = uint32_t(cfg.get_u64("accel.dma_setup_cycles"));
  s.clock_hz = cfg.get_double("accel.clock_hz");
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

// The TLM core runs the firmware's own kmeans2d (firmware/ftl/hotness.c), so
// the software path and the accelerator's functional model cannot drift; the
// RTL core stays the independent check. The hardware-specific part is only
// the cycle formula above. kmeans2d charges firmware costs through a HAL:
// here nothing is charged (the device's time is compute_cycles).
namespace {
void no_charge(void*, enum fw_op, uint32_t) {}
const hal_ops kNoCostOps = {nullptr, nullptr, nullptr, nullptr, no_charge, nullptr, nullptr, nullptr};
}  // namespace

void TlmCore::run(const std::vector<uint32_t>& points, uint32_t k, uint32_t max_iter, AccelResult& out) {
  const uint32_t n = uint32_t(points.size());
  std::vector<uint16_t> x(n), y(n);
  for (uint32_t i = 0; i < n; ++i) {
    x[i] = uint16_t(ACCEL_POINT_X(points[i]));
    y[i] = uint16_t(ACCEL_POINT_Y(points[i]));
  }
  out.labels.assign(n, uint8_t(ACCEL_LABEL_NONE));
  for (uint32_t c = 0; c < 8; ++c) out.cx[c] = out.cy[c] = 0;
  hal no_cost{&kNoCostOps, nullptr};
  uint32_t it = 0;
  // The device model checks n, k and the coordinate range before it starts a
  // core (AccelCore's contract); a refusal here would be a model defect.
  const int rc = kmeans2d(&no_cost, x.data(), y.data(), n, k, max_iter, out.labels.data(), out.cx, out.cy, &it);
  if (rc != KMEANS_OK) throw std::logic_error("TlmCore: kmeans2d refused a job the device model accepted");
  out.iterations = it;
  out.compute_cycles = accel_compute_cycles(shape_, n, k, it);
}

std::unique_ptr<AccelCore> make_accel_core(Config& cfg, const AccelShape& s) {
  const std::string impl = cfg.get_choice("accel.impl");
  const std::string vcd = cfg.get_string("accel.vcd");
  if (impl == "tlm") return std::make_unique<TlmCore>(s);
#ifdef SSDVP_HAVE_RTL
  return std::make_unique<RtlCore>(s, vcd);
#else
  throw ConfigError("accel.impl=rtl: this build has no RTL core (configure with verilator and -DSSDVP_RTL=ON)");
#endif
}

}  // namespace ssdvp
