// dram.cpp - see dram.h.
#include "dram/dram.h"

#include <sys/mman.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <stdexcept>

namespace ssdvp {
namespace {}  // namespace

Dram::Dram(sc_core::sc_module_name nm, Config& cfg)
    : sc_module(nm),
      tsock("tsock"),
      log_(name(), log_level_from(cfg, name())),
      size_(cfg.get_size("dram.size", "512MiB", "DRAM capacity in bytes")),
      latency_ps_(cfg.get_time_ps("dram.latency", "60ns", "DRAM access latency (per transaction, and per DMI access)")),
      mbps_(cfg.get_double("dram.bandwidth_mbps", 12800,
                           "DRAM peak bandwidth in MB/s (10^6 bytes/s), shared by all initiators", 1e-3)) {
  if (size_ == 0 || size_ > region("DRAM").size)
    throw ConfigError("config key 'dram.size': must be between 1 byte and the DRAM region (" +
                      std::to_string(region("DRAM").size) + " bytes)");
  void* p = mmap(nullptr, size_, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (p == MAP_FAILED) throw std::runtime_error(std::string(name()) + ": cannot reserve DRAM: " + std::strerror(errno));
  mem_ = static_cast<uint8_t*>(p);
  madvise(p, size_, MADV_HUGEPAGE);  // L2P and bitmaps are looked up at random: fewer TLB misses (a hint; may fail)
  tsock.register_b_transport(this, &Dram::b_transport);
  tsock.register_transport_dbg(this, &Dram::transport_dbg);
  tsock.register_get_direct_mem_ptr(this, &Dram::get_direct_mem_ptr);
}

Dram::~Dram() {
  if (mem_) munmap(mem_, size_);
}

uint64_t Dram::transfer_ps(uint64_t bytes) const {
  return static_cast<uint64_t>(std::llround(double(bytes) * 1e6 / mbps_));
}

bool Dram::access(tlm::tlm_generic_payload& tx) {
  const uint64_t a = tx.get_address();
  const uint64_t n = tx.get_data_length();
  if (a >= size_ || n > size_ - a) {
    ++address_errors_;
    SSDVP_LOG(log_, debug, "access outside DRAM: 0x%llx + %llu", (unsigned long long)a, (unsigned long long)n);
    tx.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
    return false;
  }
  if (tx.get_streaming_width() < n) {
    tx.set_response_status(tlm::TLM_BURST_ERROR_RESPONSE);
    return false;
  }
  if (!tx.is_read() && !tx.is_write()) {
    tx.set_response_status(tlm::TLM_OK_RESPONSE);  // TLM_IGNORE_COMMAND
    return true;
  }
  uint8_t* m = mem_ + a;
  uint8_t* d = tx.get_data_ptr();
  const uint8_t* be = tx.get_byte_enable_ptr();
  const unsigned bel = tx.get_byte_enable_length();
  if (!be) {
    if (tx.is_read())
      std::memcpy(d, m, n);
    else
      std::memcpy(m, d, n);
  } else {
    for (uint64_t i = 0; i < n; ++i) {
      if (be[i % bel] != TLM_BYTE_ENABLED) continue;
      if (tx.is_read())
        d[i] = m[i];
      else
        m[i] = d[i];
    }
  }
  tx.set_dmi_allowed(true);
  tx.set_response_status(tlm::TLM_OK_RESPONSE);
  return true;
}

void Dram::b_transport(tlm::tlm_generic_payload& tx, sc_core::sc_time& delay) {
  if (!access(tx)) return;
  const uint64_t n = tx.get_data_length();
  if (tx.is_read())
    ++reads_;
  else if (tx.is_write())
    ++writes_;
  bytes_ += n;
  // The transfer starts when the bus is free and this request has arrived.
  const uint64_t now = sc_core::sc_time_stamp().value();
  const uint64_t arrive = now + delay.value();
  const uint64_t start = std::max(arrive, busy_until_ps_);
  busy_until_ps_ = start + transfer_ps(n);
  delay = sc_core::sc_time::from_value(busy_until_ps_ + latency_ps_ - now);
}

unsigned Dram::transport_dbg(tlm::tlm_generic_payload& tx) { return access(tx) ? tx.get_data_length() : 0; }

bool Dram::get_direct_mem_ptr(tlm::tlm_generic_payload&, tlm::tlm_dmi& dmi) {
  dmi.set_dmi_ptr(mem_);
  dmi.set_start_address(0);
  dmi.set_end_address(size_ - 1);
  dmi.allow_read_write();
  dmi.set_read_latency(sc_core::sc_time::from_value(latency_ps_));
  dmi.set_write_latency(sc_core::sc_time::from_value(latency_ps_));
  return true;
}

}  // namespace ssdvp
