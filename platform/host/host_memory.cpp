// host_memory.cpp - see host_memory.h.
#include "host/host_memory.h"

#include <cstring>
#include <stdexcept>

namespace ssdvp {

HostMemory::HostMemory(sc_core::sc_module_name nm, uint64_t bytes) : sc_module(nm), tsock("tsock"), mem_(bytes) {
  tsock.register_b_transport(this, &HostMemory::b_transport);
}

uint64_t HostMemory::alloc(uint64_t bytes) {
  const uint64_t at = (next_ + 63) & ~uint64_t(63);
  if (at + bytes > mem_.size())
    throw std::runtime_error(std::string(name()) + ": host memory exhausted (raise host.memory)");
  next_ = at + bytes;
  return at;
}

HostMemory::Vector& HostMemory::vector_(uint32_t v) {
  auto& slot = vectors_[v];
  if (!slot) slot = std::make_unique<Vector>();
  return *slot;
}

void HostMemory::raise(uint32_t vector, const sc_core::sc_time& delay) {
  ++msis_;
  msi_.notify(delay);
  Vector& vec = vector_(vector);
  ++vec.count;
  vec.event.notify(delay);
}

void HostMemory::b_transport(tlm::tlm_generic_payload& tx, sc_core::sc_time& delay) {
  const uint64_t a = tx.get_address(), n = tx.get_data_length();
  if (a >= kMsiBase && a < kMsiBase + 0x1000 && tx.is_write()) {
    uint32_t v = 0;
    if (n == 4) std::memcpy(&v, tx.get_data_ptr(), 4);
    raise(v, delay);
    tx.set_response_status(tlm::TLM_OK_RESPONSE);
    return;
  }
  if (a + n > mem_.size() || a + n < a) {
    tx.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
    return;
  }
  if (tx.is_read())
    std::memcpy(tx.get_data_ptr(), &mem_[a], n);
  else if (tx.is_write())
    std::memcpy(&mem_[a], tx.get_data_ptr(), n);
  tx.set_response_status(tlm::TLM_OK_RESPONSE);
}

}  // namespace ssdvp
