// bus_device.h - the base of every bus-attached block with registers.
//
// A BusDevice is an sc_module with what each register block used to build
// for itself:
//   - `regs`, the target socket the bus attaches by region name, bound to a
//     RegisterBank of the block's rows of firmware/include/ssdvp_regs.def;
//   - the access time (config key `<block>.access`), added to the annotated
//     delay of every access;
//   - the local time of the access being served (access_at_ps(): the
//     initiator's time, kernel time plus the annotated delay, as it arrived),
//     so that a doorbell takes effect at the writer's local time;
//   - the logger (log.<instance>), which also reports rejected accesses;
//   - one debug-transport rule (RegisterBank::transport_dbg): debug reads see
//     live values (read handlers have no side effects: no clear-on-read),
//     debug writes change only registers without a write handler (never a
//     doorbell, never a ring reset).
// No reset hook: nothing resets a block in a run (a power cut is the flash
// controller's own power_cut()), and a register-only reset would leave the
// controllers' ring state behind.
// Guest mistakes get a TLM error response, never an assert.
#pragma once

#include <systemc>
#include <tlm>
#include <tlm_utils/simple_target_socket.h>

#include <cstdint>
#include <string>

#include "common/config.h"
#include "common/log.h"
#include "common/register_bank.h"

namespace ssdvp {

class BusDevice : public sc_core::sc_module {
 public:
  tlm_utils::simple_target_socket<BusDevice> regs;  // the block's registers

  const RegisterBank& bank() const { return bank_; }
  uint64_t access_ps() const { return access_ps_; }

 protected:
  // block: the register table's block name (e.g. "FLASH"); access_key and
  // access_desc: the access-time parameter (default 10 ns, as in params.def).
  BusDevice(sc_core::sc_module_name name, Config& cfg, const char* block, const char* access_key,
            const char* access_desc);
  // The initiator's local time (ps) when the access being served arrived:
  // the kernel's time plus the access's annotated delay, read only by the
  // handlers that need it (one time read per access at most).
  uint64_t access_at_ps() const { return sc_core::sc_time_stamp().value() + access_delay_ps_; }
  // How far the access being served lies ahead of the kernel's time (ps).
  uint64_t access_delay_ps() const { return access_delay_ps_; }

  Logger log_;
  RegisterBank bank_;

 private:
  void b_transport(tlm::tlm_generic_payload& tx, sc_core::sc_time& delay);
  unsigned transport_dbg(tlm::tlm_generic_payload& tx);

  uint64_t access_ps_;
  uint64_t access_delay_ps_ = 0;  // the annotated delay of the access being served
};

}  // namespace ssdvp
