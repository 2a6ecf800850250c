// bus_device.cpp - see bus_device.h.
#include "common/bus_device.h"

namespace ssdvp {

BusDevice::BusDevice(sc_core::sc_module_name nm, Config& cfg, const char* block, const char* access_key,
                     const char* access_desc)
    : sc_module(nm),
      regs("regs"),
      log_(name(), log_level_from(cfg, name())),
      bank_(block),
      access_ps_(cfg.get_time_ps(access_key, "10ns", access_desc)) {
  regs.register_b_transport(this, &BusDevice::b_transport);
  regs.register_transport_dbg(this, &BusDevice::transport_dbg);
}

void BusDevice::b_transport(tlm::tlm_generic_payload& tx, sc_core::sc_time& delay) {
  access_delay_ps_ = delay.value();
  delay += sc_core::sc_time::from_value(access_ps_);
  if (!bank_.transport(tx))
    SSDVP_LOG(log_, warn, "rejected register access at offset 0x%llx",
              static_cast<unsigned long long>(tx.get_address()));
}

unsigned BusDevice::transport_dbg(tlm::tlm_generic_payload& tx) { return bank_.transport_dbg(tx); }

}  // namespace ssdvp
