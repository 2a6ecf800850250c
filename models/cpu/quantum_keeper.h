// quantum_keeper.h - temporal decoupling for both CPU models, in the spirit
// of TLM-2.0's tlm_utils::tlm_quantumkeeper, and the firmware's one clock.
//
// The CPU thread runs ahead of the kernel by a local offset (ps): charged
// work adds to it (inc), a bus access carries it as the annotated delay and
// comes back with the target's time added (set), and the thread waits it
// off (sync) once it reaches the quantum, or before it waits for an
// interrupt. CpuNative's quantum is cpu.quantum (time); CpuIss counts
// cpu.iss.quantum instructions itself and syncs after each slice.
// The firmware's clock (hal_time_ns in native mode, SYSCTL TIME in iss mode)
// is `clock` read at now_ps(): one rule for both (firmware_clock.h).
#pragma once

#include <systemc>

#include <cstdint>

#include "cpu/firmware_clock.h"

namespace ssdvp {

class QuantumKeeper {
 public:
  explicit QuantumKeeper(uint64_t quantum_ps = UINT64_MAX) : quantum_ps_(quantum_ps) {}

  uint64_t local_ps() const { return local_ps_; }
  sc_core::sc_time local_time() const { return sc_core::sc_time::from_value(local_ps_); }
  void inc(uint64_t ps) { local_ps_ += ps; }
  void set(uint64_t ps) { local_ps_ = ps; }
  void set_quantum_ps(uint64_t q) { quantum_ps_ = q; }
  bool need_sync() const { return local_ps_ >= quantum_ps_; }
  // The kernel's time plus the local offset (plus `pending_ps` not yet added).
  uint64_t now_ps(uint64_t pending_ps = 0) const { return sc_core::sc_time_stamp().value() + local_ps_ + pending_ps; }
  // Waits off the local offset (in the CPU's thread). False if there was none.
  bool sync() {
    if (local_ps_ == 0) return false;
    sc_core::wait(local_time());
    local_ps_ = 0;
    return true;
  }

  // The firmware's clock at the CPU's local time (functional: the
  // functional clock).
  uint64_t firmware_time_ns(bool functional, uint64_t pending_ps = 0) const {
    return clock.now_ns(functional, now_ps(pending_ps));
  }
  FirmwareClock clock;

 private:
  uint64_t quantum_ps_;
  uint64_t local_ps_ = 0;
};

}  // namespace ssdvp
