// cpu_iss.h - the controller CPU as an RV32IMAC instruction-set simulator
// (Unicorn 2) inside a SystemC module: the iss CPU mode's core.
//
// Memory seen by the program: SRAM (code, data, stack) is the ISS's own RAM;
// DRAM is mapped onto the DRAM model's storage through the bus's DMI pointer
// (devices' DMA and the program see the same bytes); INTC, NVME, FLASH
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
// Faults (illegal instruction, an access outside the map, a bus error, a
// stack overflow into the guard page under the stack) and the watchdog
// (cpu.iss.watchdog instructions without a wait for interrupt) stop the
// program with a message naming the PC, its symbol and the cause. Nothing
// here asserts on anything the program does.
//
// Power loss (CpuIss::power_cycle, as CpuNative's): the program is abandoned
// where its thread stands at the cut, SRAM outside the image's segments and
// the core's registers are lost, and the program starts again at its entry
// point in a new thread, in timed mode; the block-length cache is kept (it
// depends only on the code, which is the same image reloaded). A program
// that parks in timed mode (after recovery) calls on_park and waits for
// start() to go on.
//
// Functional mode (boot and preconditioning, from outside any SystemC
// process): the program runs in the caller until it parks (SYSCTL.PARK),
// exits or faults, or a function of it is called with call(); no simulated
// time passes and wait-for-interrupt returns at once. The firmware's cost
// markers (SYSCTL.CHARGE_*) count operations and attribute to each the
// instructions retired since the previous marker (docs/models/cpu_iss.md).
#pragma once

#include <systemc>
#include <tlm>

#include <array>
#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <unordered_map>
#include <vector>

#include "common/config.h"
#include "common/dmi_socket.h"
#include "common/log.h"
#include "cpu/quantum_keeper.h"
#include "hal.h"

struct uc_struct;
struct uc_context;

namespace ssdvp {

class CpuIss : public sc_core::sc_module {
 public:
  DmiSocket bus;             // to the SoC bus (DRAM mapped through its DMI pointer)
  sc_core::sc_in<bool> irq;  // from the interrupt controller

  CpuIss(sc_core::sc_module_name name, Config& cfg);
  ~CpuIss() override;

  // Loads an RV32 ELF executable's PT_LOAD segments (by physical address)
  // into SRAM or DRAM and sets the entry point. Throws std::runtime_error
  // naming the file and what is wrong (missing, not ELF32 RISC-V, a segment
  // outside SRAM and DRAM). Call after elaboration.
  void load_elf(const std::string& path);
  // Starts the program (in the CPU thread) at the next delta cycle: at its
  // entry point, or where it parked.
  void start() { start_ev_.notify(sc_core::SC_ZERO_TIME); }
  // Power loss in timed simulation (call while the simulation is paused,
  // with set_functional(true) and the clock frozen to keep it continuous):
  // the thread running the program never runs again (suspended where it
  // waits), the core is reset (registers, CSRs, pending requests, the local
  // time offset), SRAM is overwritten with kLostByte except the image's
  // segments, which are loaded again, and the program starts at its entry
  // point in a new thread at the current time, in timed mode. Throws
  // std::runtime_error if no image is loaded or the program is inside an
  // emulation slice (it never is while the kernel is paused).
  void power_cycle();
  static constexpr uint8_t kLostByte = 0xa5;  // what SRAM holds after a power cycle

  // Functional mode (see above). Leaving it, the CPU's clock continues from
  // the functional clock (set_functional_time_ns), as CpuNative's does.
  void set_functional(bool on);
  void set_functional_time_ns(uint64_t ns) { qk_.clock.set_functional_time_ns(ns); }
  uint64_t firmware_time_ns() const;
  // Functional: runs the program from its entry point (or where it parked)
  // until it parks, exits or faults; returns the state it stopped in.
  enum class State { loaded, running, parked, exited, faulted };
  State run_functional();
  // Functional: calls the program's function at `fn` with a0 = arg, as if
  // from a parked or waiting program, until it returns to `ret` (an address
  // the program never reaches otherwise); returns a0. The program's own
  // context is restored afterwards. On a fault the program stays faulted and
  // the result is -1.
  int32_t call(uint32_t fn, uint32_t arg, uint32_t ret);
  // Memory as the program sees it (SRAM and DRAM); false outside them.
  bool read_mem(uint32_t addr, void* out, size_t bytes);
  bool write_mem(uint32_t addr, const void* in, size_t bytes);
  // Address of a symbol of the loaded ELF (0 if absent), and "name+0xoff"
  // for an address inside a function (empty if none).
  uint32_t symbol(const std::string& name) const;
  std::string symbolize(uint32_t addr) const;

  State state() const { return state_; }
  int exit_code() const { return exit_code_; }
  const std::string& fault() const { return fault_; }
  const std::string& console() const { return console_; }
  // Called in the CPU thread when the program exits or faults.
  std::function<void()> on_stop;
  // Called in the CPU thread when the program parks in timed mode; the
  // program goes on at the next start().
  std::function<void()> on_park;

  struct Stats {
    uint64_t instructions = 0;             // timed mode
    uint64_t functional_instructions = 0;  // functional mode and calls
    uint64_t mmio_reads = 0, mmio_writes = 0;
    uint64_t interrupts = 0;                  // traps injected
    uint64_t syncs = 0;                       // timed waits for the local offset (after each slice, before idling)
    uint64_t waits = 0;                       // SYSCTL.WFI
    uint64_t idle_ps = 0;                     // time waiting for an interrupt
    uint64_t compute_ps = 0;                  // time of retired instructions (timed mode)
    uint64_t bus_ps = 0;                      // time added by device accesses
    std::array<uint64_t, FW_OP_COUNT> ops{};  // firmware operations marked (both modes)
    std::array<uint64_t, FW_OP_COUNT> op_instructions{};  // instructions attributed to each
  };
  const Stats& stats() const { return stats_; }
  uint64_t cycle_ps() const { return cycle_ps_; }
  double cpi() const { return cpi_; }
  // A 32-bit word of SRAM or DRAM as the program sees it (tests).
  uint32_t peek32(uint32_t addr);

  // Timeline hooks, as CpuNative's: busy spans and the firmware's markers.
  std::function<void(uint64_t start_ps, uint64_t end_ps)> on_busy;
  std::function<void(enum hal_trace_event ev, uint32_t arg, uint64_t at_ps)> on_trace;

 private:
  SC_HAS_PROCESS(CpuIss);
  void run();
  void execute();  // runs the program in the calling thread until it stops (run, power_cycle's thread)
  void sync();
  void map_dram();
  void stop_with_fault(const std::string& why);
  void emulate(uint64_t until, uint64_t* retired);
  void mark(enum fw_op op, uint32_t count);
  uint64_t retired_now() const;
  uint64_t local_now_ps() const;
  uint64_t block_ps() const;  // time of the instructions retired in the running slice
  void read_symbols(const std::vector<uint8_t>& f);
  void set_guard(uint32_t page);
  std::string where(uint32_t at) const;  // "pc 0x... (function+0x...)"
  uint32_t pc();
  bool inject_interrupt();
  uint64_t bus_access(bool write, uint32_t addr, uint64_t value, unsigned size);

  static uint64_t mmio_read(uc_struct* uc, uint64_t offset, unsigned size, void* user);
  static void mmio_write(uc_struct* uc, uint64_t offset, unsigned size, uint64_t value, void* user);
  static uint64_t sysctl_read(uc_struct* uc, uint64_t offset, unsigned size, void* user);
  static void sysctl_write(uc_struct* uc, uint64_t offset, unsigned size, uint64_t value, void* user);
  static void block_hook(uc_struct* uc, uint64_t address, uint32_t size, void* user);
  static void exception_hook(uc_struct* uc, uint32_t cause, void* user);
  static bool unmapped_hook(uc_struct* uc, int type, uint64_t address, int size, int64_t value, void* user);

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
  QuantumKeeper qk_;  // local time offset and the firmware's clock (the quantum is in instructions)
  uint64_t insns_since_wait_ = 0;
  bool functional_ = false;
  bool in_emulation_ = false;  // inside uc_emu_start (callbacks run here)
  uint32_t time_hi_ = 0;
  uint32_t charge_count_ = 1, trace_arg_ = 0;
  uint64_t last_mark_ = 0;  // retired_now() at the last cost marker
  uint64_t busy_since_ps_ = 0;
  static constexpr uint32_t kPageBytes = 4096;  // Unicorn maps whole 4 KiB pages (the guard, DRAM)
  uint32_t guard_ = 0;                          // unmapped stack guard page (0: none)
  bool bad_access_ = false;
  uint64_t bad_addr_ = 0;
  bool bad_write_ = false;
  struct Sym {
    uint32_t size;
    std::string name;
  };
  std::map<uint32_t, Sym> funcs_;                    // function symbols by address
  std::unordered_map<std::string, uint32_t> names_;  // every named symbol
  uint32_t entry_ = 0;
  struct Image {
    uint32_t paddr;
    std::vector<uint8_t> bytes;  // file bytes, then zeros to the segment's memsz
  };
  std::vector<Image> sram_image_;           // the loaded segments in SRAM (power_cycle loads them again)
  struct uc_context* reset_ctx_ = nullptr;  // the core's registers and CSRs at reset
  sc_core::sc_process_handle thread_;       // the thread running the program (power_cycle replaces it)
  bool dram_mapped_ = false;
  bool dram_stale_ = false;
  uint64_t dram_start_ = 0, dram_size_ = 0;  // the DMI pointer was invalidated: map DRAM again before the next slice
  // Requests raised inside callbacks; acted on from the block hook, where the
  // PC is a block boundary (stopping inside an MMIO callback would replay it).
  bool want_wait_ = false, want_stop_ = false;
  uint64_t block_insns_ = 0;  // instructions retired in the current emulation slice
  struct Block {
    uint32_t len = 0;   // instructions in it
    uint64_t runs = 0;  // times it ran (cpu.iss.profile)
  };
  std::unordered_map<uint32_t, Block> block_len_;  // by block start
  // The block hook runs for every block the core executes: a direct-mapped
  // cache in front of block_len_ (whose elements never move) keeps a hash
  // lookup off that path. 2^16 entries by half-word address cover 128 KiB of
  // code without a collision.
  struct BlockSlot {
    uint32_t addr = 1;  // odd: no block starts there
    Block* block = nullptr;
  };
  static constexpr uint32_t kBlockSlots = 1u << 16;
  std::vector<BlockSlot> block_cache_ = std::vector<BlockSlot>(kBlockSlots);
  std::string profile_path_;   // cpu.iss.profile
  void write_profile() const;  // cpu_iss_profile.cpp
  State state_ = State::loaded;
  int exit_code_ = 0;
  std::string fault_, console_, line_;
  Window windows_[4];
  tlm::tlm_generic_payload tx_;  // MMIO transactions (one at a time)
  Stats stats_;
};

}  // namespace ssdvp
