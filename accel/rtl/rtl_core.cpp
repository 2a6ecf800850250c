// rtl_core.cpp - see rtl_core.h.
#include "rtl/rtl_core.h"

#include "Vkmeans_core.h"
#include "rtl/rtl_driver.h"

namespace ssdvp {

AccelShape rtl_built_shape() {
  AccelShape s;
  s.lanes = SSDVP_RTL_LANES;
  s.dividers = SSDVP_RTL_NDIV;
  s.divider_latency = 10;  // kmeans_div.v: 1 load + 9 quotient bits
  s.sram_points = SSDVP_RTL_SRAM_POINTS;
  return s;
}

RtlCore::RtlCore(const AccelShape& s, const std::string& vcd_path) {
  const AccelShape b = rtl_built_shape();
  auto mismatch = [](const char* key, uint32_t want, uint32_t built) {
    throw ConfigError(std::string("accel.impl=rtl: ") + key + "=" + std::to_string(want) +
                      " but the RTL was verilated with " + std::to_string(built) +
                      " (rebuild with -DSSDVP_RTL_* or use accel.impl=tlm)");
  };
  if (s.lanes != b.lanes) mismatch("accel.lanes", s.lanes, b.lanes);
  if (s.dividers != b.dividers) mismatch("accel.dividers", s.dividers, b.dividers);
  if (s.divider_latency != b.divider_latency) mismatch("accel.divider_latency", s.divider_latency, b.divider_latency);
  if (s.sram_points != b.sram_points) mismatch("accel.sram_points", s.sram_points, b.sram_points);
  rtl_ = std::make_unique<RtlDriver<Vkmeans_core>>(b, vcd_path);
}

RtlCore::~RtlCore() = default;

void RtlCore::run(const std::vector<uint32_t>& points, uint32_t k, uint32_t max_iter, AccelResult& out) {
  rtl_->run(points, k, max_iter, out);
}

uint64_t RtlCore::rtl_cycles() const { return rtl_->ticks(); }

}  // namespace ssdvp
