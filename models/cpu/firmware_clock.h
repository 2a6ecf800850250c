// firmware_clock.h - the firmware's clock (hal_time_ns) as both CPU models
// keep it.
//
// In functional mode (boot, preconditioning) it stands still unless set:
// preconditioning replays a trace's first half at its timestamps so that
// time-based firmware (the hotness monitor) sees them. Leaving functional
// mode, simulated time continues from the functional clock, so the
// firmware's clock never runs backwards.
#pragma once

#include <cstdint>

namespace ssdvp {

class FirmwareClock {
 public:
  void set_functional_time_ns(uint64_t ns) { functional_ns_ = ns; }
  // Called when timed simulation starts, at simulated time sim_ps.
  void continue_from_functional(uint64_t sim_ps) {
    const uint64_t now_ns = sim_ps / 1000;
    base_ns_ = functional_ns_ > now_ns ? functional_ns_ - now_ns : 0;
  }
  // The firmware's time: the functional clock, or simulated time `sim_ps`
  // (the kernel's plus the CPU's local offset) continued from it.
  uint64_t now_ns(bool functional, uint64_t sim_ps) const {
    return functional ? functional_ns_ : base_ns_ + sim_ps / 1000;
  }

 private:
  uint64_t functional_ns_ = 0;
  uint64_t base_ns_ = 0;
};

}  // namespace ssdvp
