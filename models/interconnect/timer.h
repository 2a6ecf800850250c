// timer.h - the system timer: simulated time in nanoseconds.
//
// A read of TIME_LO returns the low 32 bits of the initiator's local time
// (sc_time_stamp() plus the annotated delay, i.e. temporal decoupling is
// honoured) and latches the high 32 bits for the next TIME_HI read.
// No alarms, no interrupt.
#pragma once

#include <systemc>
#include <tlm>
#include <tlm_utils/simple_target_socket.h>

#include "common/config.h"
#include "common/log.h"
#include "common/register_bank.h"

namespace ssdvp {

class Timer : public sc_core::sc_module {
 public:
  tlm_utils::simple_target_socket<Timer> regs;  // TIMER registers

  Timer(sc_core::sc_module_name name, Config& cfg);

 private:
  void b_transport(tlm::tlm_generic_payload& tx, sc_core::sc_time& delay);
  unsigned transport_dbg(tlm::tlm_generic_payload& tx);
  uint32_t read_time_lo();

  Logger log_;
  RegisterBank bank_;
  sc_core::sc_time access_;
  sc_core::sc_time local_;  // initiator's local time during an access
  uint32_t latched_hi_ = 0;
};

}  // namespace ssdvp
