// dram.h - the SoC's DRAM: a byte store with latency and shared bandwidth.
//
// Models: a fixed access latency plus a transfer time at a peak bandwidth,
// with one busy-until reservation so that concurrent bulk transfers share the
// bandwidth. Does not model banks, rows, refresh or read/write turnaround.
// The store is an anonymous MAP_NORESERVE mapping: untouched memory costs
// nothing. Addresses are relative to the DRAM region (the bus translates).
// The socket, the window check, the timing and the DMI grant are the model
// base's (common/bus_target.h): Dram is the base's memory target, with a byte
// granularity, a bandwidth and a DMI grant for its whole store.
#pragma once

#include <systemc>
#include <tlm>

#include <cstdint>

#include "common/bus_target.h"
#include "common/config.h"

namespace ssdvp {

class Dram : public BusTarget {  // tsock: the DRAM region
 public:
  Dram(sc_core::sc_module_name name, Config& cfg);
  ~Dram() override;

  uint8_t* data() { return mem_; }
  uint64_t size() const { return size_; }

  // Timing figures (picoseconds), as read from the config.
  // (bandwidth_mbps() and transfer_ps(bytes), bytes at the peak bandwidth,
  // are the base's.)
  uint64_t latency_ps() const { return access_ps(); }

  uint64_t reads() const { return reads_; }
  uint64_t writes() const { return writes_; }
  uint64_t bytes_moved() const { return bytes_; }
  // Accesses refused: outside [0, size) or a streaming width below the
  // length (the base's rejected()).
  uint64_t address_errors() const { return rejected(); }

 private:
  void serve(tlm::tlm_generic_payload& tx, sc_core::sc_time& delay) override;
  unsigned serve_dbg(tlm::tlm_generic_payload& tx) override;
  // Copies the payload's data (byte enables honoured); false for a command
  // that is neither a read nor a write.
  bool copy(tlm::tlm_generic_payload& tx);

  uint64_t size_;
  uint8_t* mem_ = nullptr;
  uint64_t reads_ = 0, writes_ = 0, bytes_ = 0;
};

}  // namespace ssdvp
