// intc.h - level-sensitive interrupt controller with one timer.
//
// Models: IRQ_INPUTS input lines, a raw PENDING view, an ENABLE mask and one
// output line = any(pending & enable). No priorities, no edge latching, no
// acknowledge: a line stays pending while its source holds it high (the
// sources clear it when the firmware drains their ring).
//
// The timer (TIMER_LO/TIMER_HI, line IRQ_TIMER): a write of TIMER_HI arms it
// at the deadline HI:LO, in ns of simulated time (0:0 disarms it). Its line is
// high from the deadline on while it stays armed: the firmware disarms it, or
// arms it again, once it has seen it (a level, like the others). A deadline
// already past raises the line at once.
//
// An input bound to a Wire (common/wire.h) is followed without a process of
// the intc's own: the Wire calls the intc as it changes, and the output is
// driven in the writer's process (bind irq_out to a Wire then too, as an
// sc_signal allows one writer). Other inputs (a plain sc_signal), the enable
// mask and the timer wake the output's method, as for any level source; the
// method is spawned at the end of elaboration, once the bindings are known.
#pragma once

#include <systemc>

#include "common/bus_device.h"
#include "common/wire.h"
#include "ssdvp_hw.h"

namespace ssdvp {

class Intc : public BusDevice, private WireListener {  // regs: INTC registers
 public:
  sc_core::sc_in<bool> irq_in[IRQ_INPUTS];  // bit i of PENDING
  sc_core::sc_out<bool> irq_out;            // to the CPU

  Intc(sc_core::sc_module_name name, Config& cfg);

  uint32_t pending() const;  // raw input levels and the timer's line
  uint32_t enabled() const { return bank_.get(INTC_ENABLE); }
  uint64_t timer_arms() const { return timer_arms_; }          // TIMER_HI writes that armed it
  uint64_t update_runs() const { return update_runs_; }        // activations of the output's method
  uint64_t direct_updates() const { return direct_updates_; }  // outputs driven from a Wire input's change

 private:
  uint32_t read_pending() const { return pending(); }
  void write_enable(uint32_t v);
  void write_timer_hi(uint32_t v);
  bool timer_line() const;
  void update();                       // the output's method: drives irq_out
  void end_of_elaboration() override;  // Wire inputs listened to; the method spawned for the rest
  void wire_changed() override;

  sc_core::sc_event enable_changed_, timer_due_;
  bool timer_armed_ = false;
  uint64_t timer_ps_ = 0;  // the armed deadline
  uint64_t timer_arms_ = 0;
  uint64_t update_runs_ = 0;
  uint64_t direct_updates_ = 0;
  struct Input {  // a bound input line, its channel found once (end_of_elaboration)
    sc_core::sc_signal_in_if<bool>* in;
    unsigned line;
  };
  Input inputs_[IRQ_INPUTS] = {};
  unsigned n_inputs_ = 0;
};

}  // namespace ssdvp
