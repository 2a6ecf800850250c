// rtl_driver.h - clocks one verilated kmeans_core (any parameter set: the
// class Verilator generated for it is V) through a job. RtlCore uses it for
// the RTL built into the platform; tests instantiate it for other variants.
#pragma once

#include <verilated.h>
#include <verilated_vcd_c.h>

#include <memory>
#include <string>
#include <vector>

#include "common/config.h"
#include "ssdvp_hw.h"
#include "tlm/accel_core.h"

namespace ssdvp {

template <class V>
class RtlDriver {
 public:
  // shape: what V was verilated with (bounds the run loop); vcd_path: "" or a VCD file.
  RtlDriver(const AccelShape& shape, const std::string& vcd_path) : shape_(shape) {
    ctx_ = std::make_unique<VerilatedContext>();
    if (!vcd_path.empty()) ctx_->traceEverOn(true);
    top_ = std::make_unique<V>(ctx_.get(), "kmeans_core");
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
  ~RtlDriver() {
    if (vcd_) vcd_->close();
    top_->final();
  }

  void run(const std::vector<uint32_t>& points, uint32_t k, uint32_t max_iter, AccelResult& out) {
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
    // broken RTL from hanging the simulator (compute_cycles then says so).
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
  uint64_t ticks() const { return ticks_; }

 private:
  void tick() {
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

  AccelShape shape_;
  std::unique_ptr<VerilatedContext> ctx_;
  std::unique_ptr<V> top_;
  std::unique_ptr<VerilatedVcdC> vcd_;
  uint64_t ticks_ = 0;
};

}  // namespace ssdvp
