// intc.cpp - see intc.h.
#include "interconnect/intc.h"

namespace ssdvp {

Intc::Intc(sc_core::sc_module_name nm, Config& cfg) : BusDevice(nm, cfg, "INTC", "intc.access"), irq_out("irq_out") {
  bank_.on_read(INTC_PENDING, [this] { return read_pending(); });
  bank_.on_write(INTC_ENABLE, [this](uint32_t v) { write_enable(v); });
  bank_.on_write(INTC_TIMER_HI, [this](uint32_t v) { write_timer_hi(v); });
}

void Intc::end_of_elaboration() {
  BusDevice::end_of_elaboration();
  // The output's one process: ENABLE writes, the timer and the inputs that are
  // not Wires wake it; a Wire calls wire_changed() instead.
  sc_core::sc_spawn_options opts;
  opts.spawn_method();
  opts.set_sensitivity(&enable_changed_);
  opts.set_sensitivity(&timer_due_);
  for (unsigned i = 0; i < IRQ_INPUTS; ++i) {
    auto* in = dynamic_cast<sc_core::sc_signal_in_if<bool>*>(irq_in[i].get_interface());
    if (!in) continue;
    inputs_[n_inputs_++] = {in, i};
    auto* w = dynamic_cast<Wire*>(in);
    if (w && !w->listener())  // a Wire already listened to (bound to two inputs) wakes the method
      w->listen(this);
    else
      opts.set_sensitivity(&in->value_changed_event());
  }
  sc_core::sc_spawn([this] { update(); }, "update", &opts);
}

void Intc::wire_changed() {
  ++direct_updates_;
  irq_out.write((pending() & enabled()) != 0);
}

bool Intc::timer_line() const { return timer_armed_ && sc_core::sc_time_stamp().value() >= timer_ps_; }

uint32_t Intc::pending() const {
  uint32_t p = 0;
  for (unsigned k = 0; k < n_inputs_; ++k)
    if (inputs_[k].in->read()) p |= 1u << inputs_[k].line;
  if (timer_line()) p |= 1u << IRQ_TIMER;
  return p;
}

void Intc::write_enable(uint32_t v) {
  bank_.set(INTC_ENABLE, v & ((1u << IRQ_COUNT) - 1));
  enable_changed_.notify(sc_core::SC_ZERO_TIME);
}

void Intc::write_timer_hi(uint32_t v) {
  bank_.set(INTC_TIMER_HI, v);
  const uint64_t ns = (uint64_t(v) << 32) | bank_.get(INTC_TIMER_LO);
  timer_due_.cancel();
  timer_armed_ = ns != 0;
  if (timer_armed_) {
    ++timer_arms_;
    const uint64_t max_ns = UINT64_MAX / 1000;  // sc_time's picoseconds: a later deadline never comes
    timer_ps_ = ns > max_ns ? UINT64_MAX : ns * 1000;
    const uint64_t now = sc_core::sc_time_stamp().value();
    if (timer_ps_ != UINT64_MAX)
      timer_due_.notify(timer_ps_ > now ? sc_core::sc_time::from_value(timer_ps_ - now) : sc_core::SC_ZERO_TIME);
  }
  enable_changed_.notify(sc_core::SC_ZERO_TIME);  // a disarmed line falls
}

void Intc::update() {
  ++update_runs_;
  irq_out.write((pending() & enabled()) != 0);
}

}  // namespace ssdvp
