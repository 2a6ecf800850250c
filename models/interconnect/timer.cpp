// timer.cpp - see timer.h.
#include "interconnect/timer.h"

#include "ssdvp_hw.h"

namespace ssdvp {

Timer::Timer(sc_core::sc_module_name nm, Config& cfg)
    : BusDevice(nm, cfg, "TIMER", "timer.access", "timer register access time") {
  bank_.on_read(TIMER_TIME_LO, [this] { return read_time_lo(); });
  bank_.on_read(TIMER_TIME_HI, [this] { return latched_hi_; });
}

uint32_t Timer::read_time_lo() {
  const uint64_t ns = access_at_ps() / 1000;
  latched_hi_ = static_cast<uint32_t>(ns >> 32);
  return static_cast<uint32_t>(ns);
}

}  // namespace ssdvp
