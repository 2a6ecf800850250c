// intc.cpp - see intc.h.
#include "interconnect/intc.h"

namespace ssdvp {

Intc::Intc(sc_core::sc_module_name nm, Config& cfg) : BusDevice(nm, cfg, "INTC", "intc.access"), irq_out("irq_out") {
  bank_.on_read(INTC_PENDING, [this] { return read_pending(); });
  bank_.on_write(INTC_ENABLE, [this](uint32_t v) { write_enable(v); });
  bank_.on_write(INTC_TIMER_HI, [this](uint32_t v) { write_timer_hi(v); });
  SC_METHOD(update);
  sensitive << enable_changed_ << timer_due_ << signal_changed_;
}

void Intc::end_of_elaboration() {
  BusDevice::end_of_elaboration();
  sc_core::sc_spawn_options opts;
  for (unsigned i = 0; i < IRQ_INPUTS; ++i) {
    auto* in = dynamic_cast<sc_core::sc_signal_in_if<bool>*>(irq_in[i].get_interface());
    if (!in) continue;
    auto* w = dynamic_cast<Wire*>(in);
    if (w && !w->listener()) {  // a Wire already listened to (bound to two inputs) takes the method's path
      w->listen(this, i);
      if (w->read()) wire_levels_ |= 1u << i;
    } else {
      opts.set_sensitivity(&in->value_changed_event());
      signals_[n_signals_++] = {in, i};
    }
  }
  if (n_signals_ == 0) return;
  opts.spawn_method();
  opts.dont_initialize();  // update() itself runs at initialisation
  // Wakes update() in the same evaluation phase: irq_out keeps one driver.
  sc_core::sc_spawn([this] { signal_changed_.notify(); }, sc_core::sc_gen_unique_name("signal_inputs"), &opts);
}

void Intc::wire_changed(unsigned line, bool level) {
  ++direct_updates_;
  wire_levels_ = level ? wire_levels_ | 1u << line : wire_levels_ & ~(1u << line);
  irq_out.write((pending() & enabled()) != 0);
}

bool Intc::timer_line() const { return timer_armed_ && sc_core::sc_time_stamp().value() >= timer_ps_; }

uint32_t Intc::pending() const {
  uint32_t p = wire_levels_;
  for (unsigned k = 0; k < n_signals_; ++k)
    if (signals_[k].in->read()) p |= 1u << signals_[k].line;
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
