// timer.cpp - see timer.h.
#include "interconnect/timer.h"

#include "ssdvp_hw.h"

namespace ssdvp {
namespace {}  // namespace

Timer::Timer(sc_core::sc_module_name nm, Config& cfg)
    : sc_module(nm),
      regs("regs"),
      log_(name(), log_level_from(cfg, name())),
      bank_("TIMER"),
      access_(sc_core::sc_time::from_value(cfg.get_time_ps("timer.access", "10ns", "timer register access time"))) {
  regs.register_b_transport(this, &Timer::b_transport);
  regs.register_transport_dbg(this, &Timer::transport_dbg);
  bank_.on_read(TIMER_TIME_LO, [this] { return read_time_lo(); });
  bank_.on_read(TIMER_TIME_HI, [this] { return latched_hi_; });
}

uint32_t Timer::read_time_lo() {
  const uint64_t ns = local_.value() / sc_core::sc_time(1, sc_core::SC_NS).value();
  latched_hi_ = static_cast<uint32_t>(ns >> 32);
  return static_cast<uint32_t>(ns);
}

void Timer::b_transport(tlm::tlm_generic_payload& tx, sc_core::sc_time& delay) {
  local_ = sc_core::sc_time_stamp() + delay;
  delay += access_;
  if (!bank_.transport(tx))
    SSDVP_LOG(log_, warn, "rejected access at offset 0x%llx", static_cast<unsigned long long>(tx.get_address()));
}

unsigned Timer::transport_dbg(tlm::tlm_generic_payload& tx) {
  local_ = sc_core::sc_time_stamp();
  return bank_.transport(tx) ? 4 : 0;
}

}  // namespace ssdvp
