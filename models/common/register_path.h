// register_path.h - a direct path for 32-bit register accesses, beside TLM.
//
// The native CPU's firmware reads and writes registers several times per
// host I/O; through TLM each is a generic payload filled in, a call through
// the CPU's socket, the bus's route search, another socket, and the block's
// decode. A register path does the same access with the same effects and the
// same annotated time, without the payload and the sockets:
//   - a DirectRegisters target (a BusDevice: a block of registers) serves one
//     4-byte access at an offset in its region, exactly as its b_transport
//     would (arrival time noted for the handlers, access time added, the
//     bank's decode and access checks, the same errors counted and logged);
//   - a RegisterRouter (the bus) hands an initiator a RegisterWindow for an
//     address: the region's bounds, the target, the bus's per-access latency
//     and the bus's access counter, once, after which the initiator calls the
//     target itself for every access inside the window.
// A window exists only for a region whose target is a register block; every
// other access (DRAM, an unmapped address, an access the window does not
// wholly hold) keeps the TLM path, so errors are answered as before. Routes
// are fixed at elaboration, so a window never goes stale. Like DMI, this is a
// simulation-speed path: the cpu.direct_registers key turns it off, and a
// test checks that a run is the same with and without it.
#pragma once

#include <tlm>

#include <cstdint>

namespace ssdvp {

class DirectRegisters {
 public:
  // One 4-byte access at `offset` in the block's region: reads into or
  // writes from *value; *delay_ps is the initiator's annotated delay on
  // arrival (its local time plus the bus's latency) and on return includes
  // the block's access time. Returns the response status a b_transport would
  // have set (TLM_OK_RESPONSE, or the error the block answers).
  virtual tlm::tlm_response_status direct_access(bool write, uint32_t offset, uint32_t* value, uint64_t* delay_ps) = 0;

 protected:
  ~DirectRegisters() = default;
};

struct RegisterWindow {
  uint64_t base = 0;                  // bus address of the region's first byte
  uint64_t size = 0;                  // the region's size in bytes
  uint64_t latency_ps = 0;            // the bus's per-access latency, added before the target's
  DirectRegisters* target = nullptr;  // the block
  uint64_t* accesses = nullptr;       // the bus's access counter (counts direct accesses too)

  // True if a 4-byte access at addr lies wholly inside the window.
  bool holds(uint64_t addr) const { return addr >= base && addr - base < size && size - (addr - base) >= 4; }
};

class RegisterRouter {
 public:
  // The window of the register block holding addr, or false if addr is not
  // in a register block's region (the access keeps the TLM path).
  virtual bool register_window(uint64_t addr, RegisterWindow* window) = 0;

 protected:
  ~RegisterRouter() = default;
};

}  // namespace ssdvp
