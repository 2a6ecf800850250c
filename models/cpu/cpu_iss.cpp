// cpu_iss.cpp - see cpu_iss.h.
#include "cpu/cpu_iss.h"

#include <unicorn/unicorn.h>

#include <cmath>
#include <cstring>
#include <fstream>
#include <iterator>
#include <sstream>
#include <stdexcept>
#include <vector>

#include "common/tlm_access.h"

extern "C" {
#include "ssdvp_hw.h"
}

namespace ssdvp {

namespace {

constexpr uint32_t kMstatusMie = 1u << 3, kMstatusMpie = 1u << 7, kMstatusMpp = 3u << 11;
constexpr uint32_t kMieMeie = 1u << 11;
constexpr uint32_t kCauseMachineExternal = 0x8000000Bu;

sc_core::sc_time ps(uint64_t v) { return sc_core::sc_time::from_value(v); }

std::string hex(uint64_t v) {
  char b[24];
  std::snprintf(b, sizeof b, "0x%08llx", static_cast<unsigned long long>(v));
  return b;
}

// Little-endian fields of an ELF32 file.
uint32_t rd32(const std::vector<uint8_t>& f, size_t at) {
  return uint32_t(f[at]) | uint32_t(f[at + 1]) << 8 | uint32_t(f[at + 2]) << 16 | uint32_t(f[at + 3]) << 24;
}
uint16_t rd16(const std::vector<uint8_t>& f, size_t at) { return uint16_t(f[at] | f[at + 1] << 8); }

bool inside(uint64_t addr, uint64_t len, uint64_t base, uint64_t size) {
  return addr >= base && len <= size && addr - base <= size - len;
}

}  // namespace

CpuIss::CpuIss(sc_core::sc_module_name nm, Config& cfg)
    : sc_module(nm), bus("bus"), irq("irq"), log_(name(), log_level_from(cfg, name())) {
  const double hz = cfg.get_double("cpu.clock_hz", 1e9, "controller CPU clock in Hz", 1e3, 1e11);
  cycle_ps_ = uint64_t(std::llround(1e12 / hz));
  cpi_ = cfg.get_double("cpu.iss.cpi", 1.0, "iss mode: cycles per retired instruction", 0.01, 100.0);
  quantum_insns_ = cfg.get_u64("cpu.iss.quantum", 10000,
                               "iss mode: instructions between synchronisations with the kernel (and interrupt checks)", 1,
                               1u << 30);
  watchdog_insns_ = cfg.get_u64("cpu.iss.watchdog", 2000000000ull,
                                "iss mode: stop the program after this many instructions without a wait for interrupt (0: never)");
  uc_err e = uc_open(UC_ARCH_RISCV, UC_MODE_RISCV32, &uc_);
  if (e != UC_ERR_OK) throw std::runtime_error(std::string(name()) + ": Unicorn: " + uc_strerror(e));
  e = uc_mem_map(uc_, SSDVP_SRAM_BASE, SSDVP_SRAM_SIZE, UC_PROT_ALL);
  const struct {
    uint32_t base, size;
  } devices[] = {{SSDVP_INTC_BASE, SSDVP_INTC_SIZE},
                 {SSDVP_TIMER_BASE, SSDVP_TIMER_SIZE},
                 {SSDVP_NVME_BASE, SSDVP_NVME_SIZE},
                 {SSDVP_FLASH_BASE, SSDVP_FLASH_SIZE},
                 {SSDVP_ACCEL_BASE, SSDVP_ACCEL_SIZE}};
  static_assert(sizeof devices / sizeof devices[0] == sizeof windows_ / sizeof windows_[0], "one window per device");
  for (size_t i = 0; e == UC_ERR_OK && i < sizeof devices / sizeof devices[0]; ++i) {
    windows_[i] = {this, devices[i].base};
    e = uc_mmio_map(uc_, devices[i].base, devices[i].size, &CpuIss::mmio_read, &windows_[i], &CpuIss::mmio_write,
                    &windows_[i]);
  }
  if (e == UC_ERR_OK)
    e = uc_mmio_map(uc_, SSDVP_SYSCTL_BASE, SSDVP_SYSCTL_SIZE, &CpuIss::sysctl_read, this, &CpuIss::sysctl_write, this);
  uc_hook hook;
  if (e == UC_ERR_OK) e = uc_hook_add(uc_, &hook, UC_HOOK_BLOCK, reinterpret_cast<void*>(&CpuIss::block_hook), this, 1, 0);
  if (e != UC_ERR_OK) {
    uc_close(uc_);
    uc_ = nullptr;
    throw std::runtime_error(std::string(name()) + ": Unicorn memory map: " + uc_strerror(e));
  }
  SC_THREAD(run);
}

CpuIss::~CpuIss() {
  if (uc_) uc_close(uc_);
}

void CpuIss::map_dram() {
  if (dram_mapped_) return;
  tlm::tlm_generic_payload tx;
  tlm::tlm_dmi dmi;
  tx.set_address(SSDVP_DRAM_BASE);
  tx.set_command(tlm::TLM_READ_COMMAND);
  if (!bus->get_direct_mem_ptr(tx, dmi) || !dmi.is_read_write_allowed())
    throw std::runtime_error(std::string(name()) + ": the bus gives no direct pointer to DRAM");
  const uint64_t start = dmi.get_start_address(), size = dmi.get_end_address() - start + 1;
  if (start != SSDVP_DRAM_BASE || size % 4096)
    throw std::runtime_error(std::string(name()) + ": DRAM of " + std::to_string(size) + " bytes at " + hex(start) +
                             " cannot be mapped (needs the region start and a multiple of 4 KiB)");
  const uc_err e = uc_mem_map_ptr(uc_, start, size, UC_PROT_ALL, dmi.get_dmi_ptr());
  if (e != UC_ERR_OK) throw std::runtime_error(std::string(name()) + ": Unicorn DRAM map: " + uc_strerror(e));
  dram_mapped_ = true;
}

void CpuIss::load_elf(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error(path + ": cannot open the firmware ELF");
  const std::vector<uint8_t> f((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  auto bad = [&](const std::string& what) { return std::runtime_error(path + ": " + what); };
  if (f.size() < 52 || std::memcmp(f.data(), "\x7f" "ELF", 4) != 0) throw bad("not an ELF file");
  if (f[4] != 1 || f[5] != 1) throw bad("not a 32-bit little-endian ELF (expected RV32)");
  if (rd16(f, 18) != 243) throw bad("ELF machine " + std::to_string(rd16(f, 18)) + " is not RISC-V (243)");
  if (rd16(f, 16) != 2) throw bad("not an executable ELF (e_type " + std::to_string(rd16(f, 16)) + ")");
  const uint32_t phoff = rd32(f, 28), phentsize = rd16(f, 42), phnum = rd16(f, 44);
  if (phentsize < 32 || uint64_t(phoff) + uint64_t(phnum) * phentsize > f.size()) throw bad("truncated program headers");
  // Check every segment before touching memory: a bad file changes nothing.
  struct Segment {
    uint32_t off, paddr, filesz, memsz;
  };
  std::vector<Segment> segs;
  for (uint32_t i = 0; i < phnum; ++i) {
    const size_t ph = phoff + size_t(i) * phentsize;
    if (rd32(f, ph) != 1) continue;  // PT_LOAD
    const uint32_t off = rd32(f, ph + 4), paddr = rd32(f, ph + 12), filesz = rd32(f, ph + 16), memsz = rd32(f, ph + 20);
    if (memsz == 0) continue;
    if (filesz > memsz || uint64_t(off) + filesz > f.size()) throw bad("segment " + std::to_string(i) + " is truncated");
    if (!inside(paddr, memsz, SSDVP_SRAM_BASE, SSDVP_SRAM_SIZE) && !inside(paddr, memsz, SSDVP_DRAM_BASE, SSDVP_DRAM_SIZE))
      throw bad("segment " + std::to_string(i) + " at " + hex(paddr) + " (" + std::to_string(memsz) +
                " bytes) is outside SRAM and DRAM");
    segs.push_back({off, paddr, filesz, memsz});
  }
  if (segs.empty()) throw bad("no loadable segment");
  map_dram();
  for (const Segment& g : segs) {
    std::vector<uint8_t> img(g.memsz, 0);
    std::memcpy(img.data(), f.data() + g.off, g.filesz);
    if (uc_mem_write(uc_, g.paddr, img.data(), img.size()) != UC_ERR_OK)
      throw bad("segment at " + hex(g.paddr) + " (" + std::to_string(g.memsz) + " bytes) is beyond the mapped DRAM");
  }
  entry_ = rd32(f, 24);
  state_ = State::loaded;
}

uint32_t CpuIss::peek32(uint32_t addr) {
  uint32_t v = 0;
  uc_mem_read(uc_, addr, &v, 4);
  return v;
}

uint32_t CpuIss::pc() {
  uint32_t v = 0;
  uc_reg_read(uc_, UC_RISCV_REG_PC, &v);
  return v;
}

void CpuIss::sync() {
  if (local_ps_ == 0) return;
  wait(ps(local_ps_));
  local_ps_ = 0;
}

bool CpuIss::inject_interrupt() {
  if (!irq.read()) return false;
  uint32_t mstatus = 0, mie = 0, mtvec = 0;
  uc_reg_read(uc_, UC_RISCV_REG_MSTATUS, &mstatus);
  uc_reg_read(uc_, UC_RISCV_REG_MIE, &mie);
  if (!(mstatus & kMstatusMie) || !(mie & kMieMeie)) return false;
  uc_reg_read(uc_, UC_RISCV_REG_MTVEC, &mtvec);
  uint32_t epc = pc(), cause = kCauseMachineExternal;
  mstatus = (mstatus & ~(kMstatusMie | kMstatusMpie)) | kMstatusMpie | kMstatusMpp;
  uc_reg_write(uc_, UC_RISCV_REG_MEPC, &epc);
  uc_reg_write(uc_, UC_RISCV_REG_MCAUSE, &cause);
  uc_reg_write(uc_, UC_RISCV_REG_MSTATUS, &mstatus);
  uint32_t target = mtvec & ~3u;  // direct mode
  uc_reg_write(uc_, UC_RISCV_REG_PC, &target);
  ++stats_.interrupts;
  return true;
}

void CpuIss::stop_with_fault(const std::string& why) {
  if (state_ == State::faulted) return;
  state_ = State::faulted;
  fault_ = why;
  want_stop_ = true;
  SSDVP_LOG(log_, error, "%s", why.c_str());
}

void CpuIss::run() {
  wait(start_ev_);
  state_ = State::running;
  uint32_t start = entry_;
  uc_reg_write(uc_, UC_RISCV_REG_PC, &start);
  const double insn_ps = cpi_ * double(cycle_ps_);
  while (state_ == State::running) {
    inject_interrupt();
    block_insns_ = 0;
    const uint32_t from = pc();
    const uc_err e = uc_emu_start(uc_, from, 0xffffffffull, 0, 0);
    stats_.instructions += block_insns_;
    insns_since_wait_ += block_insns_;
    local_ps_ += uint64_t(std::llround(double(block_insns_) * insn_ps));
    if (e != UC_ERR_OK && state_ == State::running)
      stop_with_fault(std::string("program fault at pc ") + hex(pc()) + ": " + uc_strerror(e));
    if (state_ != State::running) break;
    if (watchdog_insns_ && insns_since_wait_ > watchdog_insns_) {
      stop_with_fault("watchdog: " + std::to_string(insns_since_wait_) + " instructions without waiting for an interrupt (pc " +
                      hex(pc()) + ", cpu.iss.watchdog)");
      break;
    }
    sync();
    if (want_wait_) {
      want_wait_ = false;
      insns_since_wait_ = 0;
      ++stats_.waits;
      const uint64_t t0 = sc_core::sc_time_stamp().value();
      while (!irq.read()) wait(irq.value_changed_event());
      stats_.idle_ps += sc_core::sc_time_stamp().value() - t0;
    }
  }
  want_stop_ = false;
  sync();
  if (on_stop) on_stop();
}

void CpuIss::block_hook(uc_struct* uc, uint64_t address, uint32_t size, void* user) {
  auto* self = static_cast<CpuIss*>(user);
  if (self->want_stop_ || self->want_wait_ || self->block_insns_ >= self->quantum_insns_) {
    uc_emu_stop(uc);  // the block at `address` has not run: pc stays on it
    return;
  }
  auto it = self->block_len_.find(uint32_t(address));
  if (it == self->block_len_.end()) {
    // RISC-V lengths: low bits 11 = 32-bit instruction, else 16-bit (C).
    std::vector<uint8_t> code(size);
    uint32_t n = 0;
    if (uc_mem_read(uc, address, code.data(), size) == UC_ERR_OK)
      for (uint32_t at = 0; at < size; at += (code[at] & 3) == 3 ? 4 : 2) ++n;
    it = self->block_len_.emplace(uint32_t(address), n).first;
  }
  self->block_insns_ += it->second;
}

uint64_t CpuIss::bus_access(bool write, uint32_t addr, uint64_t value, unsigned size) {
  tlm::tlm_generic_payload& tx = tx_;  // reused: constructing one per access costs an allocation
  uint32_t data = uint32_t(value);
  const uint64_t now_ps = local_ps_ + uint64_t(std::llround(double(block_insns_) * cpi_ * double(cycle_ps_)));
  sc_core::sc_time delay = ps(now_ps);
  prepare_access(tx, write, addr, &data, size > 4 ? 4 : size);
  bus->b_transport(tx, delay);
  local_ps_ += delay.value() > now_ps ? delay.value() - now_ps : 0;
  if (!tx.is_response_ok())
    stop_with_fault(std::string("bus error: ") + (write ? "write to " : "read of ") + hex(addr) + " at pc " + hex(pc()));
  return write ? 0 : data;
}

uint64_t CpuIss::mmio_read(uc_struct*, uint64_t offset, unsigned size, void* user) {
  auto* w = static_cast<Window*>(user);
  ++w->cpu->stats_.mmio_reads;
  return w->cpu->bus_access(false, uint32_t(w->base + offset), 0, size);
}

void CpuIss::mmio_write(uc_struct*, uint64_t offset, unsigned size, uint64_t value, void* user) {
  auto* w = static_cast<Window*>(user);
  ++w->cpu->stats_.mmio_writes;
  w->cpu->bus_access(true, uint32_t(w->base + offset), value, size);
}

uint64_t CpuIss::sysctl_read(uc_struct*, uint64_t, unsigned, void*) { return 0; }

void CpuIss::sysctl_write(uc_struct*, uint64_t offset, unsigned, uint64_t value, void* user) {
  auto* self = static_cast<CpuIss*>(user);
  switch (offset) {
    case SYSCTL_EXIT:
      if (self->state_ == State::running) {
        self->state_ = State::exited;
        self->exit_code_ = int(int32_t(uint32_t(value)));
      }
      self->want_stop_ = true;
      break;
    case SYSCTL_PUTC: {
      const char c = char(value & 0xff);
      self->console_ += c;
      if (c == '\n') {
        SSDVP_LOG(self->log_, info, "%s", self->line_.c_str());
        self->line_.clear();
      } else {
        self->line_ += c;
      }
      break;
    }
    case SYSCTL_WFI:
      self->want_wait_ = true;
      break;
    default:
      break;
  }
}

}  // namespace ssdvp
