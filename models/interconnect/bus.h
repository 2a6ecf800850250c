// bus.h - the SoC interconnect: one routing table built from the address map.
//
// Models: address decoding and a fixed per-transaction latency (cycles at the
// bus clock). Does not model arbitration or contention (DRAM models its own
// bandwidth sharing). Targets are attached by region name from
// ssdvp_regs.def and see addresses relative to their region base.
// An access outside every attached region is a guest mistake:
// TLM_ADDRESS_ERROR_RESPONSE, counted. Overlapping routes are a platform bug:
// std::runtime_error at end of elaboration.
// A register block attached as a BusDevice also gets a direct register path
// (common/register_path.h): register_window() hands an initiator the block's
// window, and the initiator's accesses there skip the payload and sockets
// with the same latency, effects, errors and access count.
#pragma once

#include <systemc>
#include <tlm>
#include <tlm_utils/multi_passthrough_initiator_socket.h>
#include <tlm_utils/multi_passthrough_target_socket.h>

#include <cstdint>
#include <string>
#include <vector>

#include "common/config.h"
#include "common/log.h"
#include "common/register_bank.h"
#include "common/register_path.h"

namespace ssdvp {

class BusDevice;

class Bus : public sc_core::sc_module, public RegisterRouter {
 public:
  tlm_utils::multi_passthrough_target_socket<Bus> tsock;     // initiators bind here
  tlm_utils::multi_passthrough_initiator_socket<Bus> isock;  // bound by attach()

  Bus(sc_core::sc_module_name name, Config& cfg);

  // Binds isock to `target` and routes the region of that name (from the
  // address map) to it. Throws std::out_of_range for an unknown region and
  // std::runtime_error for a region attached twice.
  void attach(const std::string& region, tlm::tlm_base_target_socket<32>& target);
  // The same for a region not in the address map (test platforms, variants).
  void attach(const RegionInfo& region, tlm::tlm_base_target_socket<32>& target);
  // A register block: binds its `regs` socket as above and offers its
  // region as a direct register window (register_window()).
  void attach(const std::string& region, BusDevice& block);

  bool register_window(uint64_t addr, RegisterWindow* window) override;

  // Throws std::runtime_error naming both regions if two routes overlap.
  // Called at end of elaboration.
  void validate() const;

  uint64_t latency_ps() const { return latency_ps_; }
  uint64_t accesses() const { return accesses_; }
  uint64_t address_errors() const { return address_errors_; }

 private:
  struct Route {
    RegionInfo region;
    int port;                           // index of isock
    DirectRegisters* direct = nullptr;  // the block, if attached as a BusDevice
  };

  void b_transport(int id, tlm::tlm_generic_payload& tx, sc_core::sc_time& delay);
  unsigned transport_dbg(int id, tlm::tlm_generic_payload& tx);
  bool get_direct_mem_ptr(int id, tlm::tlm_generic_payload& tx, tlm::tlm_dmi& dmi);
  void invalidate_direct_mem_ptr(int port, sc_dt::uint64 start, sc_dt::uint64 end);
  void end_of_elaboration() override;

  // The route holding [addr, addr+len), or null (counts an address error).
  const Route* decode(uint64_t addr, uint64_t len);

  Logger log_;
  uint64_t latency_ps_;
  std::vector<Route> routes_;
  uint64_t accesses_ = 0, address_errors_ = 0;
};

}  // namespace ssdvp
