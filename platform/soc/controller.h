// controller.h - the controller CPU with its firmware, as the platform drives
// it in either CPU mode (cpu.mode):
//  - native: the firmware compiled into the simulator, on CpuNative (time from
//    the cycle-cost table);
//  - iss: the same firmware sources cross-compiled for RV32IMAC, on CpuIss
//    (time from the instructions it retires), talking to the platform through
//    the boot block (firmware/iss/iss_boot.h).
// Both give the platform the same view: boot, functional preconditioning,
// the firmware's statistics, end-of-run queries and the CPU's usage.
#pragma once

#include <systemc>
#include <tlm>

#include <array>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "common/config.h"
#include "interconnect/bus.h"
#include "hal.h"

extern "C" {
#include "ftl.h"
}

namespace ssdvp {

class Controller {
 public:
  virtual ~Controller() = default;

  // Binding (elaboration).
  virtual void bind(Bus& bus, sc_core::sc_signal<bool>& irq) = 0;

  // Functional (after elaboration, outside any process). boot() throws
  // std::runtime_error if the firmware refuses its configuration or faults.
  virtual void boot(const ftl_config& cfg) = 0;
  virtual int func_write(uint64_t lba, uint32_t n, const uint32_t* tokens, uint32_t stream) = 0;
  virtual int func_trim(uint64_t lba, uint64_t n) = 0;
  virtual int func_set_gc_threshold(uint32_t blocks) = 0;
  // A functional write to lba comes soon: host-speed prefetch hint (ftl_func_prefetch), no state changes.
  virtual void func_prefetch(uint64_t /*lba*/, int /*stage*/) {}
  virtual void set_functional_time_ns(uint64_t ns) = 0;
  // Power loss (both modes; iss: functional calls on the core): the
  // power-fail handler with a capacitor budget in pages (returns the pages it
  // could not program; functional, the clock frozen), and functional reads
  // (the check after recovery).
  virtual uint32_t power_fail(uint32_t budget_pages) = 0;
  virtual int func_read(uint64_t lba, uint32_t n, uint32_t* tokens) = 0;
  // Power-up after a cut, in timed simulation (call while it is paused): the
  // firmware that ran is gone (its thread never runs again; iss: its
  // registers and SRAM too); a new one starts now (iss: the program from its
  // entry point) and recovers (ftl_recover) in simulated time: its reads go
  // to the dies through the flash controller, its CPU work is charged as
  // anywhere else (cost table, or instructions), and the host interface
  // stays disabled (no command fetched) until the tables are rebuilt. Then
  // on_ready(ok) is called in its thread (iss: when the program parks, or
  // with false if it stops) and it waits for resume() before its event loop
  // (the platform checks every LBA in between, functionally).
  virtual void power_up(const ftl_config& cfg, std::function<void(bool ok)> on_ready) = 0;
  virtual void resume() = 0;
  // Functional mode with the firmware's clock frozen where it is (between
  // timed phases: the PLP handler, the check after recovery).
  virtual void pause_functional() = 0;
  // A saved drive: the firmware's state outside DRAM after preconditioning,
  // and its load after boot() with the DRAM image restored
  // (platform/run/saved_state.h). Throw std::runtime_error if the firmware
  // refuses.
  virtual std::vector<uint8_t> save_firmware() = 0;
  virtual void load_firmware(const std::vector<uint8_t>& state) = 0;

  // Timed simulation: leaves functional mode and starts the event loop; the
  // loop returns at its next wake-up after request_stop().
  virtual void start() = 0;
  virtual void request_stop() = 0;

  // At any time (also from processes during the run).
  virtual const ftl_stats& stats() = 0;
  virtual uint64_t firmware_time_ns() const = 0;
  // After the run (or between functional calls).
  virtual uint64_t gc_active_ns(uint64_t now_ns) = 0;
  virtual uint32_t classes() = 0;
  virtual void erase_spread(uint32_t* min, double* mean, uint32_t* max) = 0;
  // Non-empty once the firmware stopped on a fault (iss mode: PC, symbol, cause).
  virtual std::string fault() const = 0;

  struct Usage {
    uint64_t compute_ps = 0;  // time executing (cost table, or instructions)
    uint64_t bus_ps = 0;      // time in device accesses
    uint64_t idle_ps = 0;     // time waiting for an interrupt
    uint64_t wakeups = 0;
    uint64_t syncs = 0;  // timed waits of the CPU's thread for its local offset (quantum, before idling)
    uint64_t bus_errors = 0;
    uint64_t instructions = 0;                  // iss: retired in timed mode (native: 0)
    uint64_t mmio_reads = 0, mmio_writes = 0;   // iss: device register accesses, functional calls too (native: 0)
    std::array<uint64_t, FW_OP_COUNT> ops{};    // firmware operations, both modes
    std::array<uint64_t, FW_OP_COUNT> op_ps{};  // their time (native: cost x count; iss: attributed instructions)
  };
  virtual Usage usage() const = 0;
  virtual const char* mode() const = 0;

  // Timeline hooks (set before start).
  std::function<void(uint64_t start_ps, uint64_t end_ps)> on_busy;
  std::function<void(enum hal_trace_event ev, uint32_t arg, uint64_t at_ps)> on_trace;
  // Called in the CPU thread if the firmware stops on its own (fault, exit).
  std::function<void()> on_stop;
};

// Builds the controller cpu.mode names ("cpu" is the module name).
std::unique_ptr<Controller> make_controller(Config& cfg);

}  // namespace ssdvp
