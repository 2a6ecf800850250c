// bus_target.cpp - see bus_target.h.
#include "common/bus_target.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

namespace ssdvp {

BusTarget::BusTarget(sc_core::sc_module_name nm, Config& cfg, const char* socket_name, BTransport own_b_transport)
    : sc_module(nm), tsock(socket_name), log_(name(), log_level_from(cfg, name())) {
  tsock.register_b_transport(this, own_b_transport ? own_b_transport : &BusTarget::b_transport);
  tsock.register_transport_dbg(this, &BusTarget::transport_dbg);
  tsock.register_get_direct_mem_ptr(this, &BusTarget::get_direct_mem_ptr);
}

void BusTarget::set_window(uint64_t bytes, unsigned align) {
  if (bytes == 0 || align == 0 || (align & (align - 1)))
    throw std::invalid_argument(std::string(name()) + ": window of " + std::to_string(bytes) +
                                " bytes at a granularity of " + std::to_string(align));  // a model bug
  window_ = bytes;
  align_ = align;
}

void BusTarget::set_timing(uint64_t access_ps, double mbps) {
  access_ps_ = access_ps;
  access_time_ = sc_core::sc_time::from_value(access_ps);
  mbps_ = mbps;
}

void BusTarget::annotate_shared(sc_core::sc_time& delay, uint64_t n) {
  const uint64_t now = sc_core::sc_time_stamp().value();
  const uint64_t arrive = now + delay.value();
  const uint64_t start = std::max(arrive, busy_until_ps_);
  busy_until_ps_ = start + transfer_ps(n);
  delay = sc_core::sc_time::from_value(busy_until_ps_ + access_ps_ - now);
}

uint64_t BusTarget::transfer_ps(uint64_t bytes) const {
  return mbps_ > 0 ? static_cast<uint64_t>(std::llround(double(bytes) * 1e6 / mbps_)) : 0;
}

void BusTarget::b_transport(tlm::tlm_generic_payload& tx, sc_core::sc_time& delay) {
  note_arrival(delay);
  const tlm::tlm_response_status st = check(tx);
  if (st != tlm::TLM_OK_RESPONSE) {
    ++rejected_;
    SSDVP_LOG(log_, debug, "%s access at 0x%llx + %u",
              st == tlm::TLM_ADDRESS_ERROR_RESPONSE ? "out-of-range" : "misaligned",
              static_cast<unsigned long long>(tx.get_address()), tx.get_data_length());
    tx.set_response_status(st);
    return;
  }
  serve(tx, delay);
}

unsigned BusTarget::transport_dbg(tlm::tlm_generic_payload& tx) {
  const tlm::tlm_response_status st = check(tx);
  if (st != tlm::TLM_OK_RESPONSE) {
    tx.set_response_status(st);
    return 0;
  }
  return serve_dbg(tx);
}

bool BusTarget::get_direct_mem_ptr(tlm::tlm_generic_payload&, tlm::tlm_dmi& dmi) {
  dmi.set_start_address(0);
  dmi.set_end_address(window_ - 1);
  if (!dmi_store_) return false;  // denied for the whole window: b_transport only
  dmi.set_dmi_ptr(dmi_store_);
  dmi.allow_read_write();
  dmi.set_read_latency(sc_core::sc_time::from_value(access_ps_));
  dmi.set_write_latency(sc_core::sc_time::from_value(access_ps_));
  return true;
}

}  // namespace ssdvp
