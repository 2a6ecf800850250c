// intc.h - level-sensitive interrupt controller.
//
// Models: IRQ_COUNT input lines, a raw PENDING view, an ENABLE mask and one
// output line = any(pending & enable). No priorities, no edge latching, no
// acknowledge: a line stays pending while its source holds it high (the
// sources clear it when the firmware drains their ring).
#pragma once

#include <systemc>
#include <tlm>
#include <tlm_utils/simple_target_socket.h>

#include "common/config.h"
#include "common/log.h"
#include "common/register_bank.h"
#include "ssdvp_hw.h"

namespace ssdvp {

class Intc : public sc_core::sc_module {
 public:
  tlm_utils::simple_target_socket<Intc> regs;  // INTC registers
  sc_core::sc_in<bool> irq_in[IRQ_COUNT];      // bit i of PENDING
  sc_core::sc_out<bool> irq_out;               // to the CPU

  Intc(sc_core::sc_module_name name, Config& cfg);

  uint32_t pending() const;  // raw input levels
  uint32_t enabled() const { return bank_.get(INTC_ENABLE); }

 private:
  SC_HAS_PROCESS(Intc);
  void b_transport(tlm::tlm_generic_payload& tx, sc_core::sc_time& delay);
  unsigned transport_dbg(tlm::tlm_generic_payload& tx);
  uint32_t read_pending() const { return pending(); }
  void write_enable(uint32_t v);
  void update();  // SC_METHOD: drives irq_out

  Logger log_;
  RegisterBank bank_;
  sc_core::sc_time access_;
  sc_core::sc_event enable_changed_;
};

}  // namespace ssdvp
