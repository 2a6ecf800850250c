// cpu_native.cpp - see cpu_native.h.
#include "cpu/cpu_native.h"

#include <cmath>
#include <cstring>

#include "common/tlm_access.h"
#include "ssdvp_hw.h"

namespace ssdvp {
namespace {

sc_core::sc_time ps(uint64_t v) { return sc_core::sc_time::from_value(v); }

struct OpInfo {
  const char* name;
  uint64_t cycles;  // the estimate in fw_ops.def
  const char* desc;
};
const OpInfo kOps[FW_OP_COUNT] = {
#define FW_OP(name, cycles, desc) {#name, cycles, desc},
#include "fw_ops.def"
};

// The calibrated table (configs/cpu_cost.yaml, measured on the ISS by
// scripts/calibrate.sh); ops it does not list keep their estimate.
struct Calibrated {
  const char* name;
  uint64_t cycles;
};
const Calibrated kCalibrated[] = {
#include "fw_cost_calibrated.inc"
    {nullptr, 0}};

// The calibrated row for op, or null if the table does not list it.
const Calibrated* calibrated_row(enum fw_op op) {
  for (const Calibrated* c = kCalibrated; c->name; ++c)
    if (std::strcmp(c->name, kOps[op].name) == 0) return c;
  return nullptr;
}

}  // namespace

uint64_t CpuNative::default_cost(enum fw_op op) {
  const Calibrated* c = calibrated_row(op);
  return c ? c->cycles : kOps[op].cycles;
}

std::string CpuNative::cost_description(enum fw_op op) {
  return std::string("cycles: ") + kOps[op].desc + (calibrated_row(op) ? " (calibrated on the ISS)" : " (estimate)");
}

const hal_ops CpuNative::ops_ = {&CpuNative::hal_read32,   &CpuNative::hal_write32, &CpuNative::hal_dram,
                                 &CpuNative::hal_wait_irq, &CpuNative::hal_charge,  &CpuNative::hal_time_ns,
                                 &CpuNative::hal_log,      &CpuNative::hal_trace};

const char* CpuNative::op_name(enum fw_op op) { return kOps[op].name; }

CpuNative::CpuNative(sc_core::sc_module_name nm, Config& cfg)
    : sc_module(nm),
      bus("bus", SSDVP_DRAM_BASE),
      irq("irq"),
      log_(name(), log_level_from(cfg, name())),
      hal_{&ops_, this} {
  const double hz = cfg.get_double("cpu.clock_hz");
  cycle_ps_ = uint64_t(std::llround(1e12 / hz));
  qk_.set_quantum_ps(cfg.get_time_ps("cpu.quantum"));
  for (int op = 0; op < FW_OP_COUNT; ++op)
    cost_[op] = cfg.get_u64(std::string("cpu.cost.") + kOps[op].name, default_cost(static_cast<enum fw_op>(op)),
                            cost_description(static_cast<enum fw_op>(op)));
  SC_THREAD(run);
}

void CpuNative::run() {
  thread_ = sc_core::sc_get_current_process_handle();
  wait(start_ev_);
  if (entry_) entry_();
  sync();
}

void CpuNative::power_cycle(std::function<void()> entry) {
  if (thread_.valid() && !thread_.terminated()) thread_.suspend();
  qk_.set(0);  // what the old thread had not waited off is gone with it
  set_functional(false);
  busy_since_ps_ = sc_core::sc_time_stamp().value();
  thread_ = sc_core::sc_spawn(
      [this, entry] {
        entry();
        sync();
      },
      sc_core::sc_gen_unique_name("firmware_after_power_up"));
}

void CpuNative::sync() {
  if (!functional_ && qk_.sync()) ++stats_.syncs;
}

uint32_t CpuNative::access(bool write, uint32_t addr, uint32_t value) {
  uint64_t delay = functional_ ? 0 : qk_.local_ps();
  const uint64_t before = delay;
  tlm::tlm_response_status st;
  if (const RegisterWindow* w = router_ ? window(addr) : nullptr) {
    ++*w->accesses;  // what the bus's b_transport would have counted and added
    delay += w->latency_ps;
    st = w->target->direct_access(write, static_cast<uint32_t>(addr - w->base), &value, &delay);
  } else {
    st = transport(write, addr, &value, &delay);
  }
  if (st != tlm::TLM_OK_RESPONSE) {
    ++stats_.bus_errors;
    tx_.set_response_status(st);
    SSDVP_LOG(log_, error, "firmware bug: %s of 0x%08x answered %s", write ? "write" : "read", addr,
              tx_.get_response_string().c_str());
    value = 0xffffffffu;
  }
  if (!functional_) {
    stats_.bus_ps += delay - before;
    qk_.set(delay);
    if (qk_.need_sync()) sync();
  }
  return value;
}

tlm::tlm_response_status CpuNative::transport(bool write, uint32_t addr, uint32_t* value, uint64_t* delay_ps) {
  tlm::tlm_generic_payload& tx = tx_;  // reused: constructing one costs an allocation
  sc_core::sc_time delay = ps(*delay_ps);
  prepare_access(tx, write, addr, value, 4);
  bus->b_transport(tx, delay);
  *delay_ps = delay.value();
  return tx.get_response_status();
}

const RegisterWindow* CpuNative::window(uint32_t addr) {
  for (size_t i = 0; i < n_windows_; ++i)
    if (windows_[i].holds(addr)) return &windows_[i];
  RegisterWindow w;
  if (n_windows_ == windows_.size() || !router_->register_window(addr, &w) || !w.holds(addr)) return nullptr;
  windows_[n_windows_] = w;
  return &windows_[n_windows_++];
}

uint32_t CpuNative::hal_read32(void* ctx, uint32_t addr) {
  return static_cast<CpuNative*>(ctx)->access(false, addr, 0);
}
void CpuNative::hal_write32(void* ctx, uint32_t addr, uint32_t v) {
  static_cast<CpuNative*>(ctx)->access(true, addr, v);
}

void* CpuNative::hal_dram(void* ctx, uint32_t addr, uint32_t bytes) {
  return static_cast<CpuNative*>(ctx)->bus.dmi_ptr(addr, bytes);
}

void CpuNative::hal_wait_irq(void* ctx) {
  auto* self = static_cast<CpuNative*>(ctx);
  if (self->functional_) return;
  const bool time_passes = self->qk_.local_ps() > 0;
  self->sync();
  ++self->stats_.wakeups;
  // A line the firmware has just serviced falls a few delta cycles after the
  // register write that cleared it (model method -> signal -> intc -> signal).
  // sync() waited for time, so those have run; if it did not (a CPU that
  // charged no time), let them settle before trusting a high level.
  for (int d = 0; !time_passes && d < 4 && self->irq.read(); ++d) self->wait(sc_core::SC_ZERO_TIME);
  if (self->irq.read()) return;
  const uint64_t t0 = sc_core::sc_time_stamp().value();
  if (self->on_busy) self->on_busy(self->busy_since_ps_, t0);
  do self->wait(self->irq.value_changed_event());
  while (!self->irq.read());
  self->stats_.idle_ps += sc_core::sc_time_stamp().value() - t0;
  self->busy_since_ps_ = sc_core::sc_time_stamp().value();
}

void CpuNative::hal_charge(void* ctx, enum fw_op op, uint32_t count) {
  auto* self = static_cast<CpuNative*>(ctx);
  self->stats_.ops[op] += count;
  if (self->functional_) return;
  const uint64_t t = self->cost_[op] * count * self->cycle_ps_;
  self->stats_.compute_ps += t;
  self->qk_.inc(t);
  if (self->qk_.need_sync()) self->sync();
}

uint64_t CpuNative::hal_time_ns(void* ctx) { return static_cast<CpuNative*>(ctx)->firmware_time_ns(); }

uint64_t CpuNative::firmware_time_ns() const { return qk_.firmware_time_ns(functional_); }

void CpuNative::set_functional(bool on) {
  if (functional_ && !on) qk_.clock.continue_from_functional(sc_core::sc_time_stamp().value());
  functional_ = on;
}

void CpuNative::hal_trace(void* ctx, enum hal_trace_event ev, uint32_t arg) {
  auto* self = static_cast<CpuNative*>(ctx);
  if (self->on_trace && !self->functional_) self->on_trace(ev, arg, self->qk_.now_ps());
}

void CpuNative::hal_log(void* ctx, int level, const char* msg) {
  auto* self = static_cast<CpuNative*>(ctx);
  const LogLevel l = level <= HAL_LOG_ERROR  ? LogLevel::error
                     : level == HAL_LOG_WARN ? LogLevel::warn
                     : level == HAL_LOG_INFO ? LogLevel::info
                                             : LogLevel::debug;
  if (self->log_.enabled(l)) self->log_.log(l, "fw: %s", msg);
}

}  // namespace ssdvp
