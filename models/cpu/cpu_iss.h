// cpu_iss.h - the controller CPU as an RV32IMAC instruction-set simulator
// (Unicorn 2) inside a SystemC module: the iss CPU mode's core.
//
// Memory seen by the program: SRAM (code, data, stack) is the ISS's own RAM;
// DRAM is mapped onto the DRAM model's storage through the bus's DMI pointer
// (devices' DMA and the program see the same bytes); INTC, TIMER, NVME, FLASH
// and ACCEL are MMIO that becomes TLM transactions on the SoC bus, as in
// native mode; SYSCTL (exit code, console, wait-for-interrupt) is served here.
//
// Time: retired instructions x cpu.iss.cpi cycles at cpu.clock_hz, kept as a
// local offset carried by every bus access and synchronised with the kernel
// every cpu.iss.quantum instructions, on wait-for-interrupt and at exit.
// Interrupts are injected at quantum boundaries (Unicorn has no CLINT/PLIC
// and ignores writes to mip): with mstatus.MIE and mie.MEIE set and the
// interrupt line high, mepc <- pc, mcause <- 0x8000000B (machine external),
// mstatus.MPIE <- MIE, MIE <- 0, MPP <- 3, pc <- mtvec.
//
// Faults (illegal instruction, an access outside the map, a bus error) and
// the watchdog (cpu.iss.watchdog instructions without a wait for interrupt)
// stop the program with a message naming the PC and the cause. Nothing here
// asserts on anything the program does.
#pragma once

#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>

#include <cstdint>
#include <functional>
#include <string>
#include <unordered_map>

#include "common/config.h"
#include "common/log.h"

struct uc_struct;

namespace ssdvp {

class CpuIss : public sc_core::sc_module {
 public:
  tlm_utils::simple_initiator_socket<CpuIss> bus;  // to the SoC bus
  sc_core::sc_in<bool> irq;                        // from the interrupt controller

  CpuIss(sc_core::sc_module_name name, Config& cfg);
  ~CpuIss() override;

  // Loads an RV32 ELF executable's PT_LOAD segments (by physical address)
  // into SRAM or DRAM and sets the entry point. Throws std::runtime_error
  // naming the file and what is wrong (missing, not ELF32 RISC-V, a segment
  // outside SRAM and DRAM). Call after elaboration.
  void load_elf(const std::string& path);
  // Starts the program (in the CPU thread) at the next delta cycle.
  void start() { start_ev_.notify(sc_core::SC_ZERO_TIME); }

  enum class State { loaded, running, exited, faulted };
  State state() const { return state_; }
  int exit_code() const { return exit_code_; }
  const std::string& fault() const { return fault_; }
  const std::string& console() const { return console_; }
  // Called in the CPU thread when the program exits or faults.
  std::function<void()> on_stop;

  struct Stats {
    uint64_t instructions = 0;
    uint64_t mmio_reads = 0, mmio_writes = 0;
    uint64_t interrupts = 0;  // traps injected
    uint64_t waits = 0;       // SYSCTL.WFI
    uint64_t idle_ps = 0;     // time waiting for an interrupt
  };
  const Stats& stats() const { return stats_; }
  uint64_t cycle_ps() const { return cycle_ps_; }
  double cpi() const { return cpi_; }
  // A 32-bit word of SRAM or DRAM as the program sees it (tests).
  uint32_t peek32(uint32_t addr);

 private:
  SC_HAS_PROCESS(CpuIss);
  void run();
  void sync();
  void map_dram();
  void stop_with_fault(const std::string& why);
  uint32_t pc();
  bool inject_interrupt();
  uint64_t bus_access(bool write, uint32_t addr, uint64_t value, unsigned size);

  static uint64_t mmio_read(uc_struct* uc, uint64_t offset, unsigned size, void* user);
  static void mmio_write(uc_struct* uc, uint64_t offset, unsigned size, uint64_t value, void* user);
  static uint64_t sysctl_read(uc_struct* uc, uint64_t offset, unsigned size, void* user);
  static void sysctl_write(uc_struct* uc, uint64_t offset, unsigned size, uint64_t value, void* user);
  static void block_hook(uc_struct* uc, uint64_t address, uint32_t size, void* user);

  struct Window {
    CpuIss* cpu;
    uint32_t base;
  };

  Logger log_;
  uc_struct* uc_ = nullptr;
  sc_core::sc_event start_ev_;
  uint64_t cycle_ps_;
  double cpi_;
  uint64_t quantum_insns_;
  uint64_t watchdog_insns_;
  uint64_t local_ps_ = 0;
  uint64_t insns_since_wait_ = 0;
  uint32_t entry_ = 0;
  bool dram_mapped_ = false;
  // Requests raised inside callbacks; acted on from the block hook, where the
  // PC is a block boundary (stopping inside an MMIO callback would replay it).
  bool want_wait_ = false, want_stop_ = false;
  uint64_t block_insns_ = 0;  // instructions retired in the current emulation slice
  std::unordered_map<uint32_t, uint32_t> block_len_;  // block start -> instructions in it
  State state_ = State::loaded;
  int exit_code_ = 0;
  std::string fault_, console_, line_;
  Window windows_[5];
  tlm::tlm_generic_payload tx_;  // MMIO transactions (one at a time)
  Stats stats_;
};

}  // namespace ssdvp
