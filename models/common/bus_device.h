// bus_device.h - the base of every bus-attached block with registers.
//
// A BusDevice is a BusTarget (common/bus_target.h: socket, access timing,
// the access's clock, DMI denial, debug checks, logger) with a register bank
// on top, which is what each register block used to build for itself:
//   - `regs`, the target socket the bus attaches by region name (the base's
//     `tsock`, under the name its users know), served by a RegisterBank of
//     the block's rows of firmware/include/ssdvp_regs.def. The bank decodes
//     every access itself (an unmapped offset: TLM_ADDRESS_ERROR_RESPONSE; a
//     size other than 4, a misaligned address or byte enables:
//     TLM_BURST_ERROR_RESPONSE; counted in bank().errors()), so the block
//     gives the base its own b_transport, which skips the base's window
//     check; the window (the block's region, 4-byte granularity) still
//     bounds debug accesses and DMI denial;
//   - the access time (config key `<block>.access`), added to the annotated
//     delay of every access, rejected by the bank or not;
//   - access_at_ps() (the base's): the initiator's local time when the access
//     arrived, so that a doorbell takes effect at the writer's local time;
//   - the logger (log.<instance>), which also reports accesses the bank
//     rejects;
//   - the direct register path (DirectRegisters, common/register_path.h):
//     the same access, time and errors as b_transport for a 4-byte access,
//     called by an initiator that holds the bus's window for the block;
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

#include "common/bus_target.h"
#include "common/config.h"
#include "common/log.h"
#include "common/register_bank.h"
#include "common/register_path.h"

namespace ssdvp {

class BusDevice : public BusTarget, public DirectRegisters {
 public:
  tlm_utils::simple_target_socket<BusTarget>& regs;  // the block's registers: tsock

  const RegisterBank& bank() const { return bank_; }

  // The direct register path (common/register_path.h): what b_transport does
  // for a 4-byte access at offset, without a payload.
  tlm::tlm_response_status direct_access(bool write, uint32_t offset, uint32_t* value, uint64_t* delay_ps) override;

 protected:
  // block: the register table's block name (e.g. "FLASH"), also its region's
  // name; access_key: the access-time parameter (its row in params.def).
  BusDevice(sc_core::sc_module_name name, Config& cfg, const char* block, const char* access_key);

  RegisterBank bank_;

 private:
  // The socket's b_transport: the bank's decode is the check.
  void b_transport(tlm::tlm_generic_payload& tx, sc_core::sc_time& delay);
  void serve(tlm::tlm_generic_payload& tx, sc_core::sc_time& delay) override;
  unsigned serve_dbg(tlm::tlm_generic_payload& tx) override { return bank_.transport_dbg(tx); }
};

}  // namespace ssdvp
