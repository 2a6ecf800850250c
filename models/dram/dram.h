// dram.h - the SoC's DRAM: a byte store with latency and shared bandwidth.
//
// Models: a fixed access latency plus a transfer time at a peak bandwidth,
// with one busy-until reservation so that concurrent bulk transfers share the
// bandwidth. Does not model banks, rows, refresh or read/write turnaround.
// The store is an anonymous MAP_NORESERVE mapping: untouched memory costs
// nothing. Addresses are relative to the DRAM region (the bus translates).
#pragma once

#include <systemc>
#include <tlm>
#include <tlm_utils/simple_target_socket.h>

#include <cstdint>

#include "common/config.h"
#include "common/log.h"
#include "common/register_bank.h"

namespace ssdvp {

class Dram : public sc_core::sc_module {
 public:
  tlm_utils::simple_target_socket<Dram> tsock;

  Dram(sc_core::sc_module_name name, Config& cfg);
  ~Dram() override;

  uint8_t* data() { return mem_; }
  uint64_t size() const { return size_; }

  // Timing figures (picoseconds), as read from the config.
  uint64_t latency_ps() const { return latency_ps_; }
  double bandwidth_mbps() const { return mbps_; }
  uint64_t transfer_ps(uint64_t bytes) const;  // bytes at the peak bandwidth

  uint64_t reads() const { return reads_; }
  uint64_t writes() const { return writes_; }
  uint64_t bytes_moved() const { return bytes_; }
  uint64_t address_errors() const { return address_errors_; }

 private:
  void b_transport(tlm::tlm_generic_payload& tx, sc_core::sc_time& delay);
  unsigned transport_dbg(tlm::tlm_generic_payload& tx);
  bool get_direct_mem_ptr(tlm::tlm_generic_payload& tx, tlm::tlm_dmi& dmi);
  // Copies the payload's data; false (response set) on a guest error.
  bool access(tlm::tlm_generic_payload& tx);

  Logger log_;
  uint8_t* mem_ = nullptr;
  uint64_t size_;
  uint64_t latency_ps_;
  double mbps_;
  uint64_t busy_until_ps_ = 0;
  uint64_t reads_ = 0, writes_ = 0, bytes_ = 0, address_errors_ = 0;
};

}  // namespace ssdvp
