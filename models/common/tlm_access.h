// tlm_access.h - filling a generic payload for a plain single access.
#pragma once

#include <tlm>

#include <cstdint>

namespace ssdvp {

// Sets up tx for one read or write of len bytes at addr from/to data, with no
// byte enables, a streaming width of len and an incomplete response status.
inline void prepare_access(tlm::tlm_generic_payload& tx, bool write, uint64_t addr, void* data, uint32_t len) {
  tx.set_command(write ? tlm::TLM_WRITE_COMMAND : tlm::TLM_READ_COMMAND);
  tx.set_address(addr);
  tx.set_data_ptr(static_cast<unsigned char*>(data));
  tx.set_data_length(len);
  tx.set_streaming_width(len);
  tx.set_byte_enable_ptr(nullptr);
  tx.set_byte_enable_length(0);
  tx.set_dmi_allowed(false);
  tx.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
}

}  // namespace ssdvp
