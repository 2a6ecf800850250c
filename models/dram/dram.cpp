// dram.cpp - see dram.h.
#include "dram/dram.h"

#include <sys/mman.h>

#include <cerrno>
#include <cstring>
#include <stdexcept>
#include <string>

#include "common/register_bank.h"

namespace ssdvp {

Dram::Dram(sc_core::sc_module_name nm, Config& cfg) : BusTarget(nm, cfg, "tsock"), size_(cfg.get_size("dram.size")) {
  const uint64_t latency_ps = cfg.get_time_ps("dram.latency");
  const double mbps = cfg.get_double("dram.bandwidth_mbps");
  if (size_ == 0 || size_ > region("DRAM").size)
    throw ConfigError("config key 'dram.size': must be between 1 byte and the DRAM region (" +
                      std::to_string(region("DRAM").size) + " bytes)");
  set_window(size_, 1);
  set_timing(latency_ps, mbps);
  void* p = mmap(nullptr, size_, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (p == MAP_FAILED) throw std::runtime_error(std::string(name()) + ": cannot reserve DRAM: " + std::strerror(errno));
  mem_ = static_cast<uint8_t*>(p);
  madvise(p, size_, MADV_HUGEPAGE);  // L2P and bitmaps are looked up at random: fewer TLB misses (a hint; may fail)
  grant_dmi(mem_);
}

Dram::~Dram() {
  if (mem_) munmap(mem_, size_);
}

bool Dram::copy(tlm::tlm_generic_payload& tx) {
  tx.set_response_status(tlm::TLM_OK_RESPONSE);
  if (!tx.is_read() && !tx.is_write()) return false;  // TLM_IGNORE_COMMAND
  const uint64_t n = tx.get_data_length();
  uint8_t* m = mem_ + tx.get_address();
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
  return true;
}

void Dram::serve(tlm::tlm_generic_payload& tx, sc_core::sc_time& delay) {
  copy(tx);
  const uint64_t n = tx.get_data_length();
  if (tx.is_read())
    ++reads_;
  else if (tx.is_write())
    ++writes_;
  bytes_ += n;
  annotate(delay, n);  // latency after the transfer at the shared bandwidth
}

unsigned Dram::serve_dbg(tlm::tlm_generic_payload& tx) {
  copy(tx);
  return tx.get_data_length();
}

}  // namespace ssdvp
