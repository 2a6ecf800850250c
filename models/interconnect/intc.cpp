// intc.cpp - see intc.h.
#include "interconnect/intc.h"

namespace ssdvp {
namespace {}  // namespace

Intc::Intc(sc_core::sc_module_name nm, Config& cfg)
    : BusDevice(nm, cfg, "INTC", "intc.access", "interrupt controller register access time"), irq_out("irq_out") {
  bank_.on_read(INTC_PENDING, [this] { return read_pending(); });
  bank_.on_write(INTC_ENABLE, [this](uint32_t v) { write_enable(v); });
  SC_METHOD(update);
  for (auto& in : irq_in) sensitive << in;
  sensitive << enable_changed_;
}

uint32_t Intc::pending() const {
  uint32_t p = 0;
  for (unsigned i = 0; i < IRQ_COUNT; ++i)
    if (irq_in[i].get_interface() && irq_in[i].read()) p |= 1u << i;
  return p;
}

void Intc::write_enable(uint32_t v) {
  bank_.set(INTC_ENABLE, v & ((1u << IRQ_COUNT) - 1));
  enable_changed_.notify(sc_core::SC_ZERO_TIME);
}

void Intc::update() { irq_out.write((pending() & enabled()) != 0); }

}  // namespace ssdvp
