// host_memory.h - host DRAM as seen by the SSD's DMA, and the MSI window.
//
// Plain memory at [0, host.memory) for submission/completion rings and data
// buffers (tokens), and an MSI doorbell window: a 4-byte write there notifies
// msi_event() (after the transaction's annotated delay) and the event of the
// vector written (the 4-byte value: the CQ's interrupt vector, MSI-X style).
// No timing of its own: the PCIe link model in the NVMe controller charges
// transfers.
#pragma once

#include <systemc>
#include <tlm>
#include <tlm_utils/simple_target_socket.h>

#include <cstdint>
#include <map>
#include <memory>
#include <vector>

#include "common/config.h"

namespace ssdvp {

class HostMemory : public sc_core::sc_module {
 public:
  tlm_utils::simple_target_socket<HostMemory> tsock;
  static constexpr uint64_t kMsiBase = 0xfee00000ull;

  HostMemory(sc_core::sc_module_name name, uint64_t bytes);

  uint8_t* data() { return mem_.data(); }
  uint64_t size() const { return mem_.size(); }
  // Bump allocation of host memory (64-byte aligned); throws if exhausted.
  uint64_t alloc(uint64_t bytes);
  const sc_core::sc_event& msi_event() const { return msi_; }
  // Wakes whoever waits for an MSI on `vector` (or on any MSI), as one would,
  // without counting one (power-up: the host driver waits on its CQ's vector).
  void wake(uint32_t vector) {
    msi_.notify(sc_core::SC_ZERO_TIME);
    vector_(vector).event.notify(sc_core::SC_ZERO_TIME);
  }
  uint64_t msis() const { return msis_; }
  // An interrupt raised on the host itself (the host-level FTL's block layer
  // completing a command on queue `vector`: host/ftl/host_ftl_block.h), as an
  // MSI write of that vector would.
  void notify_msi(uint32_t vector) { raise(vector, sc_core::SC_ZERO_TIME); }
  // One interrupt vector: its event and how many MSIs it got.
  const sc_core::sc_event& msi_event(uint32_t vector) { return vector_(vector).event; }
  uint64_t msis(uint32_t vector) { return vector_(vector).count; }

 private:
  void b_transport(tlm::tlm_generic_payload& tx, sc_core::sc_time& delay);
  // One MSI of `vector` after `delay`: counted, its event and the any-MSI event.
  void raise(uint32_t vector, const sc_core::sc_time& delay);
  std::vector<uint8_t> mem_;
  uint64_t next_ = 0;
  sc_core::sc_event msi_;
  uint64_t msis_ = 0;
  struct Vector {
    sc_core::sc_event event;
    uint64_t count = 0;
  };
  Vector& vector_(uint32_t v);
  std::map<uint32_t, std::unique_ptr<Vector>> vectors_;
};

}  // namespace ssdvp
