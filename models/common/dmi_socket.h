// dmi_socket.h - an initiator socket with a DMI cache, for the blocks that
// reach DRAM (CPU, NVMe and flash controllers).
//
// The direct-memory pointer is requested once, at the address given at
// construction (the DRAM region's base), on first use, and requested again
// after the target (through the bus) invalidates it: a range that is
// invalidated is never used again from the old pointer. on_invalidate, if
// set, is told (a CPU that mapped the pointer elsewhere unmaps it there).
// copy() moves bytes through the pointer when the range is inside it and
// falls back to b_transport otherwise.
#pragma once

#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>

#include <cstdint>
#include <cstring>
#include <functional>

namespace ssdvp {

class DmiSocket : public tlm_utils::simple_initiator_socket<DmiSocket> {
 public:
  DmiSocket(const char* name, uint64_t dmi_addr);

  // The DMI region (requested if needed), or null if the target gives none.
  const tlm::tlm_dmi* region() { return acquire() ? &dmi_ : nullptr; }
  // A pointer to [addr, addr + len) if the DMI region holds it, else null.
  // Inline: the firmware's every hal_dram() window comes through here.
  uint8_t* dmi_ptr(uint64_t addr, uint64_t len) {
    if (!acquire() || addr < dmi_.get_start_address() || addr + len - 1 > dmi_.get_end_address()) return nullptr;
    return dmi_.get_dmi_ptr() + (addr - dmi_.get_start_address());
  }
  // Reads or writes n bytes at addr, through the DMI region if it holds them
  // (latency: its read or write latency), else by b_transport (latency: the
  // annotated delay). False if the target answered with an error.
  // Inline: the flash controller's every descriptor, page buffer and
  // completion goes through it; only the fallback is out of line.
  bool copy(bool write, uint64_t addr, void* data, uint32_t n, uint64_t* latency_ps) {
    uint8_t* p = n > 0 ? dmi_ptr(addr, n) : nullptr;
    if (!p) return copy_transport(write, addr, data, n, latency_ps);
    if (write)
      std::memcpy(p, data, n);
    else
      std::memcpy(data, p, n);
    if (latency_ps) *latency_ps = write ? write_latency_ps_ : read_latency_ps_;
    return true;
  }
  uint64_t invalidations() const { return invalidations_; }

  std::function<void(uint64_t start, uint64_t end)> on_invalidate;

 private:
  bool acquire() { return tried_ ? valid_ : request(); }
  bool request();  // asks the target for the region
  void invalidate(sc_dt::uint64 start, sc_dt::uint64 end);
  bool copy_transport(bool write, uint64_t addr, void* data, uint32_t n, uint64_t* latency_ps);

  uint64_t dmi_addr_;
  tlm::tlm_dmi dmi_;
  uint64_t read_latency_ps_ = 0, write_latency_ps_ = 0;  // dmi_'s, read once per request
  bool tried_ = false, valid_ = false;
  uint64_t invalidations_ = 0;
};

}  // namespace ssdvp
