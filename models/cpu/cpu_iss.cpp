// cpu_iss.cpp - see cpu_iss.h.
#include "cpu/cpu_iss.h"

#include <unicorn/unicorn.h>

#include <algorithm>
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
    : sc_module(nm), bus("bus", SSDVP_DRAM_BASE), irq("irq"), log_(name(), log_level_from(cfg, name())) {
  const double hz = cfg.get_double("cpu.clock_hz");
  cycle_ps_ = uint64_t(std::llround(1e12 / hz));
  cpi_ = cfg.get_double("cpu.iss.cpi");
  quantum_insns_ = cfg.get_u64("cpu.iss.quantum");
  profile_path_ = cfg.get_string("cpu.iss.profile");
  watchdog_insns_ = cfg.get_u64("cpu.iss.watchdog");
  uc_err e = uc_open(UC_ARCH_RISCV, UC_MODE_RISCV32, &uc_);
  if (e != UC_ERR_OK) throw std::runtime_error(std::string(name()) + ": Unicorn: " + uc_strerror(e));
  e = uc_mem_map(uc_, SSDVP_SRAM_BASE, SSDVP_SRAM_SIZE, UC_PROT_ALL);
  const struct {
    uint32_t base, size;
  } devices[] = {{SSDVP_INTC_BASE, SSDVP_INTC_SIZE},
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
  if (e == UC_ERR_OK)
    e = uc_hook_add(uc_, &hook, UC_HOOK_BLOCK, reinterpret_cast<void*>(&CpuIss::block_hook), this, 1, 0);
  if (e == UC_ERR_OK)
    e = uc_hook_add(uc_, &hook, UC_HOOK_INTR, reinterpret_cast<void*>(&CpuIss::exception_hook), this, 1, 0);
  if (e == UC_ERR_OK)
    e = uc_hook_add(uc_, &hook, UC_HOOK_MEM_UNMAPPED | UC_HOOK_MEM_PROT,
                    reinterpret_cast<void*>(&CpuIss::unmapped_hook), this, 1, 0);
  // The core as it comes out of reset (power_cycle restores it).
  if (e == UC_ERR_OK) e = uc_context_alloc(uc_, &reset_ctx_);
  if (e == UC_ERR_OK) e = uc_context_save(uc_, reset_ctx_);
  if (e != UC_ERR_OK) {
    if (reset_ctx_) uc_context_free(reset_ctx_);
    reset_ctx_ = nullptr;
    uc_close(uc_);
    uc_ = nullptr;
    throw std::runtime_error(std::string(name()) + ": Unicorn memory map: " + uc_strerror(e));
  }
  // The DMI pointer DRAM is mapped through honours invalidation: the slice
  // running stops at the next block boundary (block_hook), and DRAM is
  // mapped again (from a new pointer) before the next slice.
  bus.on_invalidate = [this](uint64_t, uint64_t) { dram_stale_ = dram_mapped_; };
  SC_THREAD(run);
}

CpuIss::~CpuIss() {
  if (!profile_path_.empty()) write_profile();
  if (reset_ctx_) uc_context_free(reset_ctx_);
  if (uc_) uc_close(uc_);
}

void CpuIss::map_dram() {
  if (dram_stale_ && dram_mapped_) {
    uc_mem_unmap(uc_, dram_start_, dram_size_);
    dram_mapped_ = false;
  }
  dram_stale_ = false;
  if (dram_mapped_) return;
  const tlm::tlm_dmi* dmi = bus.region();
  if (!dmi) throw std::runtime_error(std::string(name()) + ": the bus gives no direct pointer to DRAM");
  const uint64_t start = dmi->get_start_address(), size = dmi->get_end_address() - start + 1;
  if (start != SSDVP_DRAM_BASE || size % kPageBytes)
    throw std::runtime_error(std::string(name()) + ": DRAM of " + std::to_string(size) + " bytes at " + hex(start) +
                             " cannot be mapped (needs the region start and a multiple of 4 KiB)");
  const uc_err e = uc_mem_map_ptr(uc_, start, size, UC_PROT_ALL, dmi->get_dmi_ptr());
  if (e != UC_ERR_OK) throw std::runtime_error(std::string(name()) + ": Unicorn DRAM map: " + uc_strerror(e));
  dram_start_ = start;
  dram_size_ = size;
  dram_mapped_ = true;
}

void CpuIss::load_elf(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error(path + ": cannot open the firmware ELF");
  const std::vector<uint8_t> f((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  auto bad = [&](const std::string& what) { return std::runtime_error(path + ": " + what); };
  if (f.size() < 52 || std::memcmp(f.data(),
                                   "\x7f"
                                   "ELF",
                                   4) != 0)
    throw bad("not an ELF file");
  if (f[4] != 1 || f[5] != 1) throw bad("not a 32-bit little-endian ELF (expected RV32)");
  if (rd16(f, 18) != 243) throw bad("ELF machine " + std::to_string(rd16(f, 18)) + " is not RISC-V (243)");
  if (rd16(f, 16) != 2) throw bad("not an executable ELF (e_type " + std::to_string(rd16(f, 16)) + ")");
  const uint32_t phoff = rd32(f, 28), phentsize = rd16(f, 42), phnum = rd16(f, 44);
  if (phentsize < 32 || uint64_t(phoff) + uint64_t(phnum) * phentsize > f.size())
    throw bad("truncated program headers");
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
    if (filesz > memsz || uint64_t(off) + filesz > f.size())
      throw bad("segment " + std::to_string(i) + " is truncated");
    if (!inside(paddr, memsz, SSDVP_SRAM_BASE, SSDVP_SRAM_SIZE) &&
        !inside(paddr, memsz, SSDVP_DRAM_BASE, SSDVP_DRAM_SIZE))
      throw bad("segment " + std::to_string(i) + " at " + hex(paddr) + " (" + std::to_string(memsz) +
                " bytes) is outside SRAM and DRAM");
    segs.push_back({off, paddr, filesz, memsz});
  }
  if (segs.empty()) throw bad("no loadable segment");
  read_symbols(f);
  // A stack guard: the page under the stack picolibc's linker script
  // reserves (__stack - __stack_size), unless a segment lives there.
  uint32_t guard = 0;
  const uint32_t top = symbol("__stack"), size = symbol("__stack_size");
  if (top && size && top > size + kPageBytes && (top - size) % kPageBytes == 0) {
    guard = top - size - kPageBytes;
    for (const Segment& g : segs)
      if (g.paddr < guard + kPageBytes && guard < uint64_t(g.paddr) + g.memsz) guard = 0;
    if (!inside(guard, kPageBytes, SSDVP_SRAM_BASE, SSDVP_SRAM_SIZE)) guard = 0;
  }
  map_dram();
  sram_image_.clear();
  for (const Segment& g : segs) {
    std::vector<uint8_t> img(g.memsz, 0);
    std::memcpy(img.data(), f.data() + g.off, g.filesz);
    if (uc_mem_write(uc_, g.paddr, img.data(), img.size()) != UC_ERR_OK)
      throw bad("segment at " + hex(g.paddr) + " (" + std::to_string(g.memsz) + " bytes) is beyond the mapped DRAM");
    if (inside(g.paddr, g.memsz, SSDVP_SRAM_BASE, SSDVP_SRAM_SIZE)) sram_image_.push_back({g.paddr, std::move(img)});
  }
  set_guard(guard);
  entry_ = rd32(f, 24);
  state_ = State::loaded;
}

void CpuIss::set_guard(uint32_t page) {
  if (guard_ == page) return;
  if (guard_) uc_mem_map(uc_, guard_, kPageBytes, UC_PROT_ALL);
  guard_ = 0;
  if (page && uc_mem_unmap(uc_, page, kPageBytes) == UC_ERR_OK) guard_ = page;
}

void CpuIss::read_symbols(const std::vector<uint8_t>& f) {
  funcs_.clear();
  names_.clear();
  const uint32_t shoff = rd32(f, 32), shentsize = rd16(f, 46), shnum = rd16(f, 48);
  if (!shoff || shentsize < 40 || uint64_t(shoff) + uint64_t(shnum) * shentsize > f.size())
    return;  // stripped: no names
  for (uint32_t i = 0; i < shnum; ++i) {
    const size_t sh = shoff + size_t(i) * shentsize;
    if (rd32(f, sh + 4) != 2) continue;  // SHT_SYMTAB
    const uint32_t off = rd32(f, sh + 16), size = rd32(f, sh + 20), link = rd32(f, sh + 24);
    if (link >= shnum || uint64_t(off) + size > f.size()) continue;
    const size_t strh = shoff + size_t(link) * shentsize;
    const uint32_t stroff = rd32(f, strh + 16), strsize = rd32(f, strh + 20);
    if (uint64_t(stroff) + strsize > f.size()) continue;
    for (uint32_t at = off; at + 16 <= off + size; at += 16) {
      const uint32_t name = rd32(f, at), value = rd32(f, at + 4), sz = rd32(f, at + 8);
      const uint8_t type = f[at + 12] & 0xf;
      if (name == 0 || name >= strsize) continue;
      const char* str = reinterpret_cast<const char*>(f.data() + stroff + name);
      const std::string nm(str, strnlen(str, strsize - name));
      names_.emplace(nm, value);
      if (type == 2) funcs_[value] = {sz, nm};  // STT_FUNC
    }
  }
}

uint32_t CpuIss::symbol(const std::string& name) const {
  auto it = names_.find(name);
  return it == names_.end() ? 0 : it->second;
}

std::string CpuIss::where(uint32_t at) const {
  const std::string sym = symbolize(at);
  return "pc " + hex(at) + (sym.empty() ? "" : " (" + sym + ")");
}

std::string CpuIss::symbolize(uint32_t addr) const {
  auto it = funcs_.upper_bound(addr);
  if (it == funcs_.begin()) return {};
  --it;
  if (addr - it->first >= std::max<uint32_t>(it->second.size, 1)) return {};
  char off[16];
  std::snprintf(off, sizeof off, "+0x%x", addr - it->first);
  return it->second.name + off;
}

bool CpuIss::read_mem(uint32_t addr, void* out, size_t bytes) {
  return uc_mem_read(uc_, addr, out, bytes) == UC_ERR_OK;
}

bool CpuIss::write_mem(uint32_t addr, const void* in, size_t bytes) {
  return uc_mem_write(uc_, addr, in, bytes) == UC_ERR_OK;
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

uint64_t CpuIss::retired_now() const { return stats_.instructions + stats_.functional_instructions + block_insns_; }

uint64_t CpuIss::block_ps() const { return uint64_t(std::llround(double(block_insns_) * cpi_ * double(cycle_ps_))); }

uint64_t CpuIss::local_now_ps() const { return qk_.local_ps() + block_ps(); }

uint64_t CpuIss::firmware_time_ns() const { return qk_.firmware_time_ns(functional_, block_ps()); }

void CpuIss::set_functional(bool on) {
  if (functional_ && !on) {
    qk_.clock.continue_from_functional(sc_core::sc_time_stamp().value());
    // The timed part's first cost marker is charged the instructions retired
    // since the timed part began, not the functional ones before it (which
    // depend on how the drive got there: preconditioned, or loaded).
    last_mark_ = retired_now();
  }
  functional_ = on;
}

void CpuIss::sync() {
  if (qk_.sync()) ++stats_.syncs;
}

void CpuIss::mark(enum fw_op op, uint32_t count) {
  const uint64_t now = retired_now();
  stats_.op_instructions[op] += now - last_mark_;
  stats_.ops[op] += count;
  last_mark_ = now;
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

// One emulation slice from the current PC: until a stop request, the quantum,
// or `until` (0: none). Adds the instructions retired to *retired and checks
// the result and the watchdog.
void CpuIss::emulate(uint64_t until, uint64_t* retired) {
  if (dram_stale_) map_dram();
  block_insns_ = 0;
  bad_access_ = false;
  const uint32_t from = pc();
  in_emulation_ = true;
  const uc_err e = uc_emu_start(uc_, from, until ? until : 0xffffffffull, 0, 0);
  in_emulation_ = false;
  *retired += block_insns_;
  insns_since_wait_ += block_insns_;
  block_insns_ = 0;
  if (e != UC_ERR_OK && state_ != State::faulted) {
    const uint32_t at = pc();
    std::string why = "program fault at " + where(at) + ": ";
    if (bad_access_ && guard_ && bad_addr_ >= guard_ && bad_addr_ < guard_ + kPageBytes)
      why += "stack overflow (" + std::string(bad_write_ ? "write to " : "read of ") + hex(bad_addr_) +
             ", the guard page under the stack)";
    else if (bad_access_)
      why += std::string(bad_write_ ? "write to " : "access to ") + hex(bad_addr_) + ", outside the memory map";
    else
      why += uc_strerror(e);
    stop_with_fault(why);
  }
  if (state_ == State::running && watchdog_insns_ && insns_since_wait_ > watchdog_insns_) {
    stop_with_fault("watchdog (cpu.iss.watchdog): " + std::to_string(insns_since_wait_) +
                    " instructions without waiting for an interrupt, at " + where(pc()));
  }
}

CpuIss::State CpuIss::run_functional() {
  if (state_ != State::loaded && state_ != State::parked) return state_;
  const bool was = functional_;
  functional_ = true;
  uint32_t start = state_ == State::loaded ? entry_ : pc();
  uc_reg_write(uc_, UC_RISCV_REG_PC, &start);
  state_ = State::running;
  insns_since_wait_ = 0;
  while (state_ == State::running) emulate(0, &stats_.functional_instructions);
  want_stop_ = false;
  functional_ = was;
  return state_;
}

int32_t CpuIss::call(uint32_t fn, uint32_t arg, uint32_t ret) {
  // Not from inside the program's own accesses (re-entry), nor on a program
  // that has stopped for good. A running program is suspended in its thread
  // (waiting for time or an interrupt) whenever anyone else runs.
  if (in_emulation_ || state_ == State::faulted || state_ == State::exited) return -1;
  uc_context* ctx = nullptr;
  if (uc_context_alloc(uc_, &ctx) != UC_ERR_OK) return -1;
  uc_context_save(uc_, ctx);
  const State saved_state = state_;
  const bool saved_functional = functional_, saved_wait = want_wait_;
  const uint64_t saved_since_wait = insns_since_wait_;
  uint32_t sp = 0;
  uc_reg_read(uc_, UC_RISCV_REG_SP, &sp);
  sp = (sp - 64) & ~15u;  // below the interrupted frame (RV32 has no red zone)
  uc_reg_write(uc_, UC_RISCV_REG_SP, &sp);
  uc_reg_write(uc_, UC_RISCV_REG_A0, &arg);
  uc_reg_write(uc_, UC_RISCV_REG_RA, &ret);
  uc_reg_write(uc_, UC_RISCV_REG_PC, &fn);
  functional_ = true;
  want_wait_ = false;
  state_ = State::running;
  insns_since_wait_ = 0;
  while (state_ == State::running && pc() != ret) emulate(ret, &stats_.functional_instructions);
  int32_t result = -1;
  if (state_ == State::running) {
    uc_reg_read(uc_, UC_RISCV_REG_A0, &result);
    uc_context_restore(uc_, ctx);
    state_ = saved_state;
  } else if (state_ != State::faulted) {
    stop_with_fault("a functional call to " + hex(fn) + " stopped the program (it exited or parked)");
  }
  uc_context_free(ctx);
  want_stop_ = false;
  functional_ = saved_functional;
  want_wait_ = saved_wait;
  insns_since_wait_ = saved_since_wait;
  return result;
}

void CpuIss::run() {
  thread_ = sc_core::sc_get_current_process_handle();
  wait(start_ev_);
  execute();
}

void CpuIss::power_cycle() {
  if (entry_ == 0 && sram_image_.empty())
    throw std::runtime_error(std::string(name()) + ": power cycle without a program loaded");
  if (in_emulation_)
    throw std::runtime_error(std::string(name()) + ": power cycle inside an emulation slice (at " + where(pc()) + ")");
  if (thread_.valid() && !thread_.terminated()) thread_.suspend();
  // SRAM's contents are lost: every byte outside the image's segments (and
  // the unmapped guard page) is overwritten; the segments, the image a boot
  // loader copies in, are loaded again. DRAM is left as it is, as in native
  // mode (the firmware rebuilds its tables there).
  std::vector<std::pair<uint32_t, uint32_t>> keep;  // [from, to) not to overwrite
  for (const Image& g : sram_image_) keep.push_back({g.paddr, uint32_t(g.paddr + g.bytes.size())});
  if (guard_) keep.push_back({guard_, guard_ + kPageBytes});
  std::sort(keep.begin(), keep.end());
  const std::vector<uint8_t> lost(64 * 1024, kLostByte);
  auto scrub = [&](uint32_t from, uint32_t to) {
    for (uint32_t at = from; at < to;) {
      const uint32_t n = std::min<uint32_t>(to - at, uint32_t(lost.size()));
      uc_mem_write(uc_, at, lost.data(), n);
      at += n;
    }
  };
  uint32_t at = SSDVP_SRAM_BASE;
  for (const auto& [from, to] : keep) {
    if (from > at) scrub(at, from);
    at = std::max(at, to);
  }
  if (at < uint64_t(SSDVP_SRAM_BASE) + SSDVP_SRAM_SIZE) scrub(at, uint32_t(SSDVP_SRAM_BASE + SSDVP_SRAM_SIZE));
  for (const Image& g : sram_image_) uc_mem_write(uc_, g.paddr, g.bytes.data(), g.bytes.size());
  // The core: registers and CSRs (interrupt enables, trap state) from reset;
  // requests raised by the lost program dropped; what it had not waited off
  // of its local time is gone with it. The block-length cache stays: it
  // depends on the code only, which is the same image.
  uc_context_restore(uc_, reset_ctx_);
  want_wait_ = want_stop_ = false;
  bad_access_ = false;
  block_insns_ = 0;
  insns_since_wait_ = 0;
  time_hi_ = 0;
  charge_count_ = 1;
  trace_arg_ = 0;
  line_.clear();
  qk_.set(0);
  set_functional(false);
  last_mark_ = retired_now();  // the lost program's instructions since its last marker are charged to nothing
  state_ = State::loaded;
  thread_ = sc_core::sc_spawn([this] { execute(); }, sc_core::sc_gen_unique_name("program_after_power_up"));
}

void CpuIss::execute() {
  if (state_ != State::loaded && state_ != State::parked) return;
  uint32_t start = state_ == State::loaded ? entry_ : pc();
  uc_reg_write(uc_, UC_RISCV_REG_PC, &start);
  state_ = State::running;
  insns_since_wait_ = 0;
  busy_since_ps_ = sc_core::sc_time_stamp().value();
  const double insn_ps = cpi_ * double(cycle_ps_);
  for (;;) {
    inject_interrupt();
    uint64_t retired = 0;
    emulate(0, &retired);
    stats_.instructions += retired;
    const uint64_t t = uint64_t(std::llround(double(retired) * insn_ps));
    qk_.inc(t);
    stats_.compute_ps += t;
    if (state_ == State::parked) {
      // Parked in timed mode (the recovered firmware, before its event
      // loop): the platform checks the drive, then start() lets it go on.
      want_stop_ = false;
      sync();
      const uint64_t t0 = sc_core::sc_time_stamp().value();
      if (on_busy) on_busy(busy_since_ps_, t0);
      if (on_park) on_park();
      wait(start_ev_);
      stats_.idle_ps += sc_core::sc_time_stamp().value() - t0;
      busy_since_ps_ = sc_core::sc_time_stamp().value();
      insns_since_wait_ = 0;
      state_ = State::running;
      continue;
    }
    if (state_ != State::running) break;
    sync();
    if (want_wait_) {
      want_wait_ = false;
      insns_since_wait_ = 0;
      ++stats_.waits;
      const uint64_t t0 = sc_core::sc_time_stamp().value();
      if (!irq.read()) {
        if (on_busy) on_busy(busy_since_ps_, t0);
        while (!irq.read()) wait(irq.value_changed_event());
        busy_since_ps_ = sc_core::sc_time_stamp().value();
      }
      stats_.idle_ps += sc_core::sc_time_stamp().value() - t0;
    }
  }
  want_stop_ = false;
  sync();
  if (on_stop) on_stop();
}

void CpuIss::block_hook(uc_struct* uc, uint64_t address, uint32_t size, void* user) {
  auto* self = static_cast<CpuIss*>(user);
  if (self->want_stop_ || self->want_wait_ || self->dram_stale_ || self->block_insns_ >= self->quantum_insns_) {
    uc_emu_stop(uc);  // the block at `address` has not run: pc stays on it
    return;
  }
  BlockSlot& slot = self->block_cache_[(uint32_t(address) >> 1) & (kBlockSlots - 1)];
  if (slot.addr != uint32_t(address)) {
    auto it = self->block_len_.find(uint32_t(address));
    if (it == self->block_len_.end()) {
      // RISC-V lengths: low bits 11 = 32-bit instruction, else 16-bit (C).
      std::vector<uint8_t> code(size);
      uint32_t n = 0;
      if (uc_mem_read(uc, address, code.data(), size) == UC_ERR_OK)
        for (uint32_t at = 0; at < size; at += (code[at] & 3) == 3 ? 4 : 2) ++n;
      it = self->block_len_.emplace(uint32_t(address), Block{n, 0}).first;
    }
    slot = {uint32_t(address), &it->second};
  }
  self->block_insns_ += slot.block->len;
  ++slot.block->runs;
}

// A synchronous exception (Unicorn raises it instead of trapping to mtvec:
// the firmware has no trap handler, and none of these is recoverable).
void CpuIss::exception_hook(uc_struct* uc, uint32_t cause, void* user) {
  auto* self = static_cast<CpuIss*>(user);
  static const char* const kCauses[] = {"instruction address misaligned",
                                        "instruction access fault",
                                        "illegal instruction",
                                        "breakpoint",
                                        "load address misaligned",
                                        "load access fault",
                                        "store address misaligned",
                                        "store access fault",
                                        "environment call from U-mode",
                                        "environment call from S-mode",
                                        "exception 10",
                                        "environment call from M-mode"};
  self->stop_with_fault(
      "program fault at " + self->where(self->pc()) + ": " +
      (cause < sizeof kCauses / sizeof kCauses[0] ? kCauses[cause] : "exception " + std::to_string(cause)));
  uc_emu_stop(uc);
}

bool CpuIss::unmapped_hook(uc_struct*, int type, uint64_t address, int, int64_t, void* user) {
  auto* self = static_cast<CpuIss*>(user);
  self->bad_access_ = true;
  self->bad_addr_ = address;
  self->bad_write_ = type == UC_MEM_WRITE_UNMAPPED || type == UC_MEM_WRITE_PROT;
  return false;  // not handled: the emulation stops with an error
}

uint64_t CpuIss::bus_access(bool write, uint32_t addr, uint64_t value, unsigned size) {
  tlm::tlm_generic_payload& tx = tx_;  // reused: constructing one per access costs an allocation
  uint32_t data = uint32_t(value);
  const uint64_t now_ps = functional_ ? 0 : local_now_ps();
  sc_core::sc_time delay = ps(now_ps);
  prepare_access(tx, write, addr, &data, size > 4 ? 4 : size);
  bus->b_transport(tx, delay);
  if (!functional_ && delay.value() > now_ps) {
    qk_.inc(delay.value() - now_ps);
    stats_.bus_ps += delay.value() - now_ps;
  }
  if (!tx.is_response_ok()) {
    stop_with_fault(std::string("bus error: ") + (write ? "write to " : "read of ") + hex(addr) + " at " + where(pc()) +
                    ": " + tx.get_response_string());
  }
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

uint64_t CpuIss::sysctl_read(uc_struct*, uint64_t offset, unsigned, void* user) {
  auto* self = static_cast<CpuIss*>(user);
  switch (offset) {
    case SYSCTL_TIME_LO: {
      const uint64_t t = self->firmware_time_ns();
      self->time_hi_ = uint32_t(t >> 32);
      return uint32_t(t);
    }
    case SYSCTL_TIME_HI: return self->time_hi_;
    default: return 0;
  }
}

void CpuIss::sysctl_write(uc_struct*, uint64_t offset, unsigned, uint64_t value, void* user) {
  auto* self = static_cast<CpuIss*>(user);
  const uint32_t v = uint32_t(value);
  switch (offset) {
    case SYSCTL_EXIT:
      if (self->state_ == State::running) {
        self->state_ = State::exited;
        self->exit_code_ = int(int32_t(v));
      }
      self->want_stop_ = true;
      break;
    case SYSCTL_PARK:
      if (self->state_ == State::running) self->state_ = State::parked;
      self->want_stop_ = true;
      break;
    case SYSCTL_PUTC: {
      const char c = char(v & 0xff);
      self->console_ += c;
      if (c == '\n') {
        SSDVP_LOG(self->log_, info, "%s", self->line_.c_str());
        self->line_.clear();
      } else {
        self->line_ += c;
      }
      break;
    }
    case SYSCTL_LOG: {
      const LogLevel l = v <= HAL_LOG_ERROR  ? LogLevel::error
                         : v == HAL_LOG_WARN ? LogLevel::warn
                         : v == HAL_LOG_INFO ? LogLevel::info
                                             : LogLevel::debug;
      if (self->log_.enabled(l)) self->log_.log(l, "fw: %s", self->line_.c_str());
      self->console_ += '\n';
      self->line_.clear();
      break;
    }
    case SYSCTL_WFI:
      // The instructions since the last marker are the event loop's: charged
      // to taking the next interrupt (native mode's irq_entry).
      self->mark(FW_OP_irq_entry, 0);
      if (!self->functional_) self->want_wait_ = true;
      break;
    case SYSCTL_CHARGE_COUNT: self->charge_count_ = v; break;
    case SYSCTL_CHARGE_OP:
      if (v < FW_OP_COUNT) self->mark(static_cast<enum fw_op>(v), self->charge_count_);
      self->charge_count_ = 1;
      break;
    case SYSCTL_TRACE_ARG: self->trace_arg_ = v; break;
    case SYSCTL_TRACE_EVENT:
      if (self->on_trace && !self->functional_)
        self->on_trace(static_cast<enum hal_trace_event>(v), self->trace_arg_,
                       sc_core::sc_time_stamp().value() + self->local_now_ps());
      break;
    default: break;
  }
}

}  // namespace ssdvp
