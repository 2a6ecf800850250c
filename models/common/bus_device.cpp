// bus_device.cpp - see bus_device.h.
#include "common/bus_device.h"

namespace ssdvp {

BusDevice::BusDevice(sc_core::sc_module_name nm, Config& cfg, const char* block, const char* access_key)
    : BusTarget(nm, cfg, "regs", static_cast<BTransport>(&BusDevice::b_transport)), regs(tsock), bank_(block) {
  set_window(region(block).size, 4);
  set_timing(cfg.get_time_ps(access_key));
}

void BusDevice::b_transport(tlm::tlm_generic_payload& tx, sc_core::sc_time& delay) {
  note_arrival(delay);
  BusDevice::serve(tx, delay);
}

void BusDevice::serve(tlm::tlm_generic_payload& tx, sc_core::sc_time& delay) {
  annotate(delay, 4);
  if (!bank_.transport(tx))
    SSDVP_LOG(log_, warn, "rejected register access at offset 0x%llx",
              static_cast<unsigned long long>(tx.get_address()));
}

tlm::tlm_response_status BusDevice::direct_access(bool write, uint32_t offset, uint32_t* value, uint64_t* delay_ps) {
  note_arrival_ps(*delay_ps);
  *delay_ps = annotated_ps(*delay_ps, 4);
  const tlm::tlm_response_status st = bank_.access(write, offset, value);
  if (st != tlm::TLM_OK_RESPONSE) SSDVP_LOG(log_, warn, "rejected register access at offset 0x%x", offset);
  return st;
}

}  // namespace ssdvp
