// timer.h - the system timer: simulated time in nanoseconds.
//
// A read of TIME_LO returns the low 32 bits of the initiator's local time
// (sc_time_stamp() plus the annotated delay, i.e. temporal decoupling is
// honoured) and latches the high 32 bits for the next TIME_HI read.
// No alarms, no interrupt.
#pragma once

#include <systemc>

#include "common/bus_device.h"

namespace ssdvp {

class Timer : public BusDevice {  // regs: TIMER registers
 public:
  Timer(sc_core::sc_module_name name, Config& cfg);

 private:
  uint32_t read_time_lo();

  uint32_t latched_hi_ = 0;
};

}  // namespace ssdvp
