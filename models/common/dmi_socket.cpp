// dmi_socket.cpp - see dmi_socket.h.
#include "common/dmi_socket.h"

#include "common/tlm_access.h"

namespace ssdvp {

DmiSocket::DmiSocket(const char* name, uint64_t dmi_addr)
    : tlm_utils::simple_initiator_socket<DmiSocket>(name), dmi_addr_(dmi_addr) {
  register_invalidate_direct_mem_ptr(this, &DmiSocket::invalidate);
}

bool DmiSocket::request() {
  tried_ = true;
  tlm::tlm_generic_payload tx;
  tx.set_address(dmi_addr_);
  tx.set_command(tlm::TLM_READ_COMMAND);
  dmi_ = tlm::tlm_dmi();
  valid_ = (*this)->get_direct_mem_ptr(tx, dmi_) && dmi_.is_read_write_allowed();
  read_latency_ps_ = dmi_.get_read_latency().value();
  write_latency_ps_ = dmi_.get_write_latency().value();
  return valid_;
}

bool DmiSocket::copy_transport(bool write, uint64_t addr, void* data, uint32_t n, uint64_t* latency_ps) {
  tlm::tlm_generic_payload tx;
  prepare_access(tx, write, addr, data, n);
  sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
  (*this)->b_transport(tx, delay);
  if (latency_ps) *latency_ps = delay.value();
  return tx.is_response_ok();
}

void DmiSocket::invalidate(sc_dt::uint64 start, sc_dt::uint64 end) {
  ++invalidations_;
  valid_ = tried_ = false;
  if (on_invalidate) on_invalidate(start, end);
}

}  // namespace ssdvp
