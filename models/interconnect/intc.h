// intc.h - level-sensitive interrupt controller.
//
// Models: IRQ_COUNT input lines, a raw PENDING view, an ENABLE mask and one
// output line = any(pending & enable). No priorities, no edge latching, no
// acknowledge: a line stays pending while its source holds it high (the
// sources clear it when the firmware drains their ring).
#pragma once

#include <systemc>

#include "common/bus_device.h"
#include "ssdvp_hw.h"

namespace ssdvp {

class Intc : public BusDevice {  // regs: INTC registers
 public:
  sc_core::sc_in<bool> irq_in[IRQ_COUNT];  // bit i of PENDING
  sc_core::sc_out<bool> irq_out;           // to the CPU

  Intc(sc_core::sc_module_name name, Config& cfg);

  uint32_t pending() const;  // raw input levels
  uint32_t enabled() const { return bank_.get(INTC_ENABLE); }

 private:
  SC_HAS_PROCESS(Intc);
  uint32_t read_pending() const { return pending(); }
  void write_enable(uint32_t v);
  void update();  // SC_METHOD: drives irq_out

  sc_core::sc_event enable_changed_;
};

}  // namespace ssdvp
