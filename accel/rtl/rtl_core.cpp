// rtl_core.cpp - see rtl_core.h.
#include "rtl/rtl_core.h"

#include <verilated.h>
#include <verilated_vcd_c.h>

#include "Vkmeans_core.h"
#include "common/config.h"
#include "ssdvp_hw.h"

namespace ssdvp {

AccelShape rtl_built_shape() {
  AccelShape s;
  s.lanes = SSDVP_RTL_LANES;
  s.dividers = SSDVP_RTL_NDIV;
  s.divider_latency = 10;  // kmeans_div.v: 1 load + 9 quotient bits
  s.sram_points = SSDVP_RTL_SRAM_POINTS;
  return s;
}

RtlCore::RtlCore(const AccelShape& s, const std::string& vcd_path) : shape_(s) {
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
  ctx_ = std::make_unique<VerilatedContext>();
  if (!vcd_path.empty()) ctx_->traceEverOn(true);
  top_ = std::make_unique<Vkmeans_core>(ctx_.get(), "kmeans_core");
  if (!vcd_path.empty()) {
    vcd_ = std::make_unique<VerilatedVcdC>();
    top_->trace(vcd_.get(), 99);
    vcd_->open(vcd_path.c_str());
    if (!vcd_->isOpen()) throw ConfigError("accel.vcd: cannot open " + vcd_path);
  }
  top_->clk = 0;
  top_->rst = 1;
  top_->eval();
  tick();
  top_->rst = 0;
}

RtlCore::~RtlCore() {
  if (vcd_) vcd_->close();
  top_->final();
}

void RtlCore::tick() {
  top_->clk = 1;
  top_->eval();
  ctx_->timeInc(1);
  if (vcd_) vcd_->dump(ctx_->time());
  top_->clk = 0;
  top_->eval();
  ctx_->timeInc(1);
  if (vcd_) vcd_->dump(ctx_->time());
  ++ticks_;
}

void RtlCore::run(const std::vector<uint32_t>& points, uint32_t k, uint32_t max_iter, AccelResult& out) {
  const uint32_t n = uint32_t(points.size());
  top_->ld_we = 1;
  for (uint32_t i = 0; i < n; ++i) {
    top_->ld_addr = i;
    top_->ld_x = ACCEL_POINT_X(points[i]) & 0x1ff;
    top_->ld_y = ACCEL_POINT_Y(points[i]) & 0x1ff;
    tick();
  }
  top_->ld_we = 0;
  top_->n = n;
  top_->k = k;
  top_->max_iter = max_iter;
  top_->start = 1;
  tick();
  top_->start = 0;
  // The RTL finishes within the formula's count; the bound only keeps a
  // broken RTL from hanging the simulator (then the result is what it is).
  const uint64_t bound = 2 * accel_compute_cycles(shape_, n, k, max_iter) + 64;
  for (uint64_t c = 0; !top_->done && c < bound; ++c) tick();
  out.labels.resize(n);
  for (uint32_t i = 0; i < n; ++i) {
    top_->rd_addr = i;
    top_->eval();
    out.labels[i] = uint8_t(top_->rd_label);
  }
  for (uint32_t c = 0; c < ACCEL_MAX_K; ++c) {
    top_->cent_sel = c;
    top_->eval();
    out.cx[c] = c < k ? uint16_t(top_->cent_x) : 0;
    out.cy[c] = c < k ? uint16_t(top_->cent_y) : 0;
  }
  out.iterations = top_->iters;
  out.compute_cycles = top_->done ? top_->cycles : UINT64_MAX;
}

}  // namespace ssdvp
