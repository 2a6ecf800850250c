// cpu_native.h - the controller CPU running host-compiled firmware.
//
// The firmware C runs in this module's thread and sees only its HAL
// (firmware/hal/hal.h), which this model implements: register accesses
// become TLM transactions on the SoC bus (or, with a register router set, the
// same accesses on the direct register path, common/register_path.h), DRAM
// windows come from DMI,
// wait-for-interrupt suspends the thread until the interrupt line rises, and
// CPU time is charged from a cycle-cost table per firmware operation
// (cpu.cost.<op>) at cpu.clock_hz. Temporal decoupling: time accumulates in
// a local offset carried by every transaction and is synchronised with the
// kernel only when it exceeds cpu.quantum or the CPU goes idle.
#pragma once

#include <systemc>
#include <tlm>

#include <array>
#include <cstdint>
#include <functional>

#include "common/config.h"
#include "common/dmi_socket.h"
#include "common/log.h"
#include "common/register_path.h"
#include "cpu/quantum_keeper.h"
#include "hal.h"

namespace ssdvp {

class CpuNative : public sc_core::sc_module {
 public:
  DmiSocket bus;             // to the SoC bus (DMI to DRAM for hal_dram)
  sc_core::sc_in<bool> irq;  // from the interrupt controller

  CpuNative(sc_core::sc_module_name name, Config& cfg);

  // The HAL the firmware runs on (valid for the module's lifetime).
  struct hal* hal() {
    return &hal_;
  }
  // The firmware's entry point, run in the CPU thread once start() is called.
  void set_firmware(std::function<void()> entry) { entry_ = std::move(entry); }
  // Register accesses inside a register block's window take the direct path
  // the router (the bus `bus` is bound to) hands out; null (the default):
  // every access is a generic payload through `bus`.
  void set_register_router(RegisterRouter* router) {
    router_ = router;
    n_windows_ = 0;
  }
  void start() { start_ev_.notify(sc_core::SC_ZERO_TIME); }
  // Power loss in timed simulation (call while the simulation is paused):
  // the firmware thread running now never runs again (suspended where it
  // waits; its frames are abandoned, not unwound) and `entry` runs from the
  // start in a new thread at the current time, in timed mode. Call
  // set_functional(true) with the clock frozen first to keep it continuous.
  void power_cycle(std::function<void()> entry);
  // Functional mode: the HAL charges no time and never waits (preconditioning
  // and boot run from outside any SystemC process).
  void set_functional(bool on);
  // The firmware's clock (hal_time_ns). In functional mode it stands still
  // unless set here (preconditioning replays a trace's first half at its
  // timestamps so that time-based firmware, e.g. the hotness monitor, sees
  // them); timed simulation continues from it.
  void set_functional_time_ns(uint64_t ns) { qk_.clock.set_functional_time_ns(ns); }
  uint64_t firmware_time_ns() const;

  struct Stats {
    uint64_t idle_ps = 0;     // time waiting for an interrupt
    uint64_t compute_ps = 0;  // time charged from the cost table
    uint64_t bus_ps = 0;      // time in register accesses
    uint64_t bus_errors = 0;  // accesses answered with a TLM error (firmware bugs)
    uint64_t wakeups = 0;
    uint64_t syncs = 0;                       // timed waits that waited the local offset off (cpu.quantum, idle)
    std::array<uint64_t, FW_OP_COUNT> ops{};  // operations charged, per kind
  };
  const Stats& stats() const { return stats_; }
  uint64_t cycle_ps() const { return cycle_ps_; }
  uint64_t cost_cycles(enum fw_op op) const { return cost_[op]; }
  static const char* op_name(enum fw_op op);
  // Default cost of op: the calibrated table (configs/cpu_cost.yaml) if it
  // lists op, else fw_ops.def's estimate.
  static uint64_t default_cost(enum fw_op op);
  // The description of cpu.cost.<op> (says whether its default is calibrated).
  static std::string cost_description(enum fw_op op);

  // Timeline hooks (null by default, no cost): busy spans between waking and
  // going idle (ps), and the firmware's trace markers (at local time, ps).
  std::function<void(uint64_t start_ps, uint64_t end_ps)> on_busy;
  std::function<void(enum hal_trace_event ev, uint32_t arg, uint64_t at_ps)> on_trace;

 private:
  SC_HAS_PROCESS(CpuNative);
  void run();
  void sync();
  uint32_t access(bool write, uint32_t addr, uint32_t value);
  // The access through `bus` as a generic payload; returns its response.
  tlm::tlm_response_status transport(bool write, uint32_t addr, uint32_t* value, uint64_t* delay_ps);
  // The cached window holding a 4-byte access at addr (asked of the router
  // on a miss), or null: the access keeps the TLM path.
  const RegisterWindow* window(uint32_t addr);

  static uint32_t hal_read32(void* ctx, uint32_t addr);
  static void hal_write32(void* ctx, uint32_t addr, uint32_t value);
  static void* hal_dram(void* ctx, uint32_t addr, uint32_t bytes);
  static void hal_wait_irq(void* ctx);
  static void hal_charge(void* ctx, enum fw_op op, uint32_t count);
  static uint64_t hal_time_ns(void* ctx);
  static void hal_log(void* ctx, int level, const char* msg);
  static void hal_trace(void* ctx, enum hal_trace_event ev, uint32_t arg);
  static const hal_ops ops_;

  Logger log_;
  struct hal hal_;
  std::function<void()> entry_;
  sc_core::sc_event start_ev_;
  sc_core::sc_process_handle thread_;  // the thread running the firmware (power_cycle replaces it)
  bool functional_ = false;
  uint64_t cycle_ps_;
  QuantumKeeper qk_;  // local time offset, cpu.quantum, the firmware's clock
  uint64_t busy_since_ps_ = 0;
  std::array<uint64_t, FW_OP_COUNT> cost_{};
  tlm::tlm_generic_payload tx_;
  RegisterRouter* router_ = nullptr;
  std::array<RegisterWindow, 8> windows_;  // the register blocks' windows met so far
  size_t n_windows_ = 0;
  Stats stats_;
};

}  // namespace ssdvp
