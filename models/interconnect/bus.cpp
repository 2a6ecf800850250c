// bus.cpp - see bus.h.
#include "interconnect/bus.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <stdexcept>

#include "common/bus_device.h"

namespace ssdvp {
namespace {

std::string hex(uint64_t v) {
  char b[24];
  std::snprintf(b, sizeof b, "0x%llx", static_cast<unsigned long long>(v));
  return b;
}

}  // namespace

Bus::Bus(sc_core::sc_module_name nm, Config& cfg)
    : sc_module(nm), tsock("tsock"), isock("isock"), log_(name(), log_level_from(cfg, name())) {
  const double hz = cfg.get_double("bus.clock_hz");
  const uint64_t cycles = cfg.get_u64("bus.latency_cycles");
  latency_ps_ = static_cast<uint64_t>(std::llround(double(cycles) * 1e12 / hz));
  tsock.register_b_transport(this, &Bus::b_transport);
  tsock.register_transport_dbg(this, &Bus::transport_dbg);
  tsock.register_get_direct_mem_ptr(this, &Bus::get_direct_mem_ptr);
  isock.register_invalidate_direct_mem_ptr(this, &Bus::invalidate_direct_mem_ptr);
}

void Bus::attach(const std::string& name_of_region, tlm::tlm_base_target_socket<32>& target) {
  attach(region(name_of_region), target);
}

void Bus::attach(const RegionInfo& r, tlm::tlm_base_target_socket<32>& target) {
  for (const Route& x : routes_)
    if (x.region.name == r.name)
      throw std::runtime_error(std::string(name()) + ": region " + r.name + " attached twice");
  const int port = static_cast<int>(isock.size());
  isock.bind(target);
  routes_.push_back(Route{r, port});
}

void Bus::attach(const std::string& name_of_region, BusDevice& block) {
  attach(region(name_of_region), block.regs);
  routes_.back().direct = &block;
}

bool Bus::register_window(uint64_t addr, RegisterWindow* w) {
  for (const Route& r : routes_)
    if (r.direct && addr >= r.region.base && addr - r.region.base < r.region.size) {
      *w = RegisterWindow{r.region.base, r.region.size, latency_ps_, r.direct, &accesses_};
      return true;
    }
  return false;
}

void Bus::validate() const {
  for (size_t i = 0; i < routes_.size(); ++i)
    for (size_t j = i + 1; j < routes_.size(); ++j) {
      const RegionInfo& a = routes_[i].region;
      const RegionInfo& b = routes_[j].region;
      if (a.base < b.base + b.size && b.base < a.base + a.size)
        throw std::runtime_error(std::string(name()) + ": regions " + a.name + " [" + hex(a.base) + ", +" +
                                 hex(a.size) + ") and " + b.name + " [" + hex(b.base) + ", +" + hex(b.size) +
                                 ") overlap");
    }
}

void Bus::end_of_elaboration() {
  validate();
  std::sort(routes_.begin(), routes_.end(),
            [](const Route& a, const Route& b) { return a.region.base < b.region.base; });
}

const Bus::Route* Bus::decode(uint64_t addr, uint64_t len) {
  // routes_ is sorted by base after elaboration; a handful of regions.
  for (const Route& r : routes_)
    if (addr >= r.region.base && addr - r.region.base < r.region.size) {
      if (len > r.region.size - (addr - r.region.base)) break;  // runs past the region's end
      return &r;
    }
  ++address_errors_;
  SSDVP_LOG(log_, debug, "address error: %s + %llu", hex(addr).c_str(), static_cast<unsigned long long>(len));
  return nullptr;
}

void Bus::b_transport(int, tlm::tlm_generic_payload& tx, sc_core::sc_time& delay) {
  ++accesses_;
  const uint64_t addr = tx.get_address();
  const Route* r = decode(addr, tx.get_data_length());
  if (!r) {
    tx.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
    return;
  }
  delay += sc_core::sc_time::from_value(latency_ps_);
  tx.set_address(addr - r->region.base);
  isock[r->port]->b_transport(tx, delay);
  tx.set_address(addr);
}

unsigned Bus::transport_dbg(int, tlm::tlm_generic_payload& tx) {
  const uint64_t addr = tx.get_address();
  const Route* r = decode(addr, tx.get_data_length());
  if (!r) {
    tx.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
    return 0;
  }
  tx.set_address(addr - r->region.base);
  const unsigned n = isock[r->port]->transport_dbg(tx);
  tx.set_address(addr);
  return n;
}

bool Bus::get_direct_mem_ptr(int, tlm::tlm_generic_payload& tx, tlm::tlm_dmi& dmi) {
  const uint64_t addr = tx.get_address();
  const Route* r = decode(addr, 1);
  if (!r) {
    // Deny DMI for the hole around addr: the initiator keeps using
    // b_transport there and gets the address error.
    uint64_t lo = 0, hi = ~uint64_t(0);
    for (const Route& x : routes_) {
      const uint64_t xe = x.region.base + x.region.size - 1;
      if (xe < addr) lo = std::max(lo, xe + 1);
      if (x.region.base > addr) hi = std::min(hi, x.region.base - 1);
    }
    dmi.set_start_address(lo);
    dmi.set_end_address(hi);
    return false;
  }
  const uint64_t base = r->region.base, last = base + r->region.size - 1;
  tx.set_address(addr - base);
  const bool ok = isock[r->port]->get_direct_mem_ptr(tx, dmi);
  tx.set_address(addr);
  // Back to bus addresses, clipped to the region.
  dmi.set_start_address(std::min<uint64_t>(dmi.get_start_address() + base, last));
  dmi.set_end_address(std::min<uint64_t>(dmi.get_end_address(), r->region.size - 1) + base);
  if (ok) {
    const sc_core::sc_time lat = sc_core::sc_time::from_value(latency_ps_);
    dmi.set_read_latency(dmi.get_read_latency() + lat);
    dmi.set_write_latency(dmi.get_write_latency() + lat);
  }
  return ok;
}

void Bus::invalidate_direct_mem_ptr(int port, sc_dt::uint64 start, sc_dt::uint64 end) {
  for (const Route& r : routes_) {
    if (r.port != port) continue;
    const uint64_t s = std::min<uint64_t>(start, r.region.size - 1) + r.region.base;
    const uint64_t e = std::min<uint64_t>(end, r.region.size - 1) + r.region.base;
    for (unsigned i = 0; i < tsock.size(); ++i) tsock[i]->invalidate_direct_mem_ptr(s, e);
  }
}

}  // namespace ssdvp
