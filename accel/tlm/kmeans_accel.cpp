// kmeans_accel.cpp - see kmeans_accel.h.
#include "tlm/kmeans_accel.h"

#include <cmath>
#include <stdexcept>

#include "common/tlm_access.h"

namespace ssdvp {

KMeansAccel::KMeansAccel(sc_core::sc_module_name nm, Config& cfg)
    : BusDevice(nm, cfg, "ACCEL", "accel.access"),
      dma("dma"),
      irq("irq"),
      shape_(AccelShape::from_config(cfg)),
      core_(make_accel_core(cfg, shape_)) {
  if (sc_core::sc_get_time_resolution() != sc_core::sc_time(1, sc_core::SC_PS))
    throw std::runtime_error(std::string(name()) + ": needs the SystemC time resolution of 1 ps");

  bank_.on_read(ACCEL_CTRL, [this] { return irq_en_ ? ACCEL_CTRL_IRQ_EN : 0u; });
  bank_.on_write(ACCEL_CTRL, [this](uint32_t v) { write_ctrl(v); });
  bank_.on_read(ACCEL_STATUS, [this] {
    return (busy_ ? ACCEL_STATUS_BUSY : 0u) | (done_ ? ACCEL_STATUS_DONE : 0u) | (error_ ? ACCEL_STATUS_ERROR : 0u);
  });
  bank_.on_read(ACCEL_ERROR_CODE, [this] { return error_code_; });
  bank_.set(ACCEL_SRAM_POINTS, shape_.sram_points);

  SC_METHOD(done_method);
  sensitive << done_ev_;
  dont_initialize();
  SC_METHOD(irq_method);
  sensitive << irq_ev_;
  dont_initialize();
}

uint64_t KMeansAccel::cycles_to_ps(uint64_t cycles) const {
  return uint64_t(std::llround(double(cycles) * 1e12 / shape_.clock_hz));
}

void KMeansAccel::notify_at(sc_core::sc_event& ev, uint64_t at_ps) {
  const uint64_t now = sc_core::sc_time_stamp().value();
  ev.notify(sc_core::sc_time::from_value(at_ps > now ? at_ps - now : 0));
}

void KMeansAccel::write_ctrl(uint32_t v) {
  at_ps_ = access_at_ps();
  irq_en_ = v & ACCEL_CTRL_IRQ_EN;
  if (v & ACCEL_CTRL_CLEAR) {
    done_ = error_ = false;
    error_code_ = ACCEL_ERR_NONE;
  }
  if (v & ACCEL_CTRL_START) start();
  notify_at(irq_ev_, at_ps_);
}

void KMeansAccel::fail(accel_error code, const char* what) {
  ++errors_;
  if (!error_) error_code_ = code;  // the first error since CLEAR
  error_ = true;
  SSDVP_LOG(log_, warn, "%s (error %u)", what, unsigned(code));
  notify_at(irq_ev_, at_ps_);
}

bool KMeansAccel::dma_access(bool write, uint32_t addr, void* data, uint32_t bytes) {
  tlm::tlm_generic_payload tx;
  prepare_access(tx, write, addr, data, bytes);
  sc_core::sc_time delay = sc_core::SC_ZERO_TIME;  // DMA time comes from the cycle model
  dma->b_transport(tx, delay);
  return tx.is_response_ok();
}

void KMeansAccel::start() {
  if (busy_) return fail(ACCEL_ERR_BUSY, "START while busy; the running job goes on");
  const uint32_t n = bank_.get(ACCEL_N), k = bank_.get(ACCEL_K), max_iter = bank_.get(ACCEL_MAX_ITER);
  const uint32_t src = bank_.get(ACCEL_SRC), dst = bank_.get(ACCEL_DST);
  done_ = error_ = false;
  error_code_ = ACCEL_ERR_NONE;
  if (n == 0) return fail(ACCEL_ERR_N_ZERO, "N is 0");
  if (n > shape_.sram_points) return fail(ACCEL_ERR_N_TOO_LARGE, "N exceeds the point SRAM");
  if (k < 1 || k > ACCEL_MAX_K) return fail(ACCEL_ERR_K_RANGE, "K outside 1..8");
  if (src % 4 || dst % 4) return fail(ACCEL_ERR_UNALIGNED, "SRC or DST not 4-byte aligned");
  const uint64_t lo = SSDVP_DRAM_BASE, hi = lo + uint64_t(SSDVP_DRAM_SIZE);
  if (src < lo || src + 4ull * n > hi || dst < lo || dst + uint64_t(n) > hi)
    return fail(ACCEL_ERR_ADDRESS, "SRC or DST range outside the DRAM region");
  sram_.resize(n);
  if (!dma_access(false, src, sram_.data(), 4 * n))
    return fail(ACCEL_ERR_DMA, "DMA read of the points refused by the bus");
  for (uint32_t w : sram_)
    if (ACCEL_POINT_X(w) > 511 || ACCEL_POINT_Y(w) > 511)
      return fail(ACCEL_ERR_POINT_RANGE, "a point coordinate above 511");
  core_->run(sram_, k, max_iter, result_);
  job_n_ = n;
  job_dst_ = dst;
  job_cycles_ = accel_dma_in_cycles(shape_, n) + result_.compute_cycles + accel_dma_out_cycles(shape_, n);
  busy_ = true;
  ++jobs_;
  busy_ps_ += cycles_to_ps(job_cycles_);
  // Functional mode (the firmware run from outside the kernel, e.g. while
  // preconditioning): no time passes, so the job completes at once.
  if (sc_core::sc_get_status() != sc_core::SC_RUNNING) return finish();
  notify_at(done_ev_, at_ps_ + cycles_to_ps(job_cycles_));
}

void KMeansAccel::done_method() {
  at_ps_ = sc_core::sc_time_stamp().value();
  finish();
}

void KMeansAccel::finish() {
  busy_ = false;
  bank_.set(ACCEL_ITERS, result_.iterations);
  bank_.set(ACCEL_CYCLES, uint32_t(job_cycles_));
  bank_.set(ACCEL_COMPUTE_CYCLES, uint32_t(result_.compute_cycles));
  const FieldInfo& x = bank_.field(ACCEL_CENT0, "X");  // CENT1..CENT7 have CENT0's layout
  const FieldInfo& y = bank_.field(ACCEL_CENT0, "Y");
  for (uint32_t c = 0; c < ACCEL_MAX_K; ++c)
    bank_.set(ACCEL_CENT0 + 4 * c, y.put(x.put(0, result_.cx[c]), result_.cy[c]));
  if (!dma_access(true, job_dst_, result_.labels.data(), job_n_))
    return fail(ACCEL_ERR_DMA, "DMA write of the labels refused by the bus");
  done_ = true;
  irq_ev_.notify(sc_core::SC_ZERO_TIME);
}

void KMeansAccel::irq_method() { irq.write(irq_en_ && (done_ || error_)); }

}  // namespace ssdvp
