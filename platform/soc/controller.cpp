// controller.cpp - see controller.h.
#include "soc/controller.h"

#include <algorithm>
#include <cstddef>
#include <cstring>
#include <stdexcept>

#include "cpu/cpu_native.h"
#ifdef SSDVP_HAVE_ISS
#include "cpu/cpu_iss.h"
extern "C" {
#include "iss_boot.h"
}
#endif

namespace ssdvp {
namespace {

// What both CPU models share: their busy and trace callbacks forward to the
// controller's, and their ports bind the same way.
template <class Cpu>
void forward_callbacks(Controller& c, Cpu& cpu) {
  cpu.on_busy = [&c](uint64_t a, uint64_t b) {
    if (c.on_busy) c.on_busy(a, b);
  };
  cpu.on_trace = [&c](enum hal_trace_event ev, uint32_t arg, uint64_t at) {
    if (c.on_trace) c.on_trace(ev, arg, at);
  };
}
// Functional mode with the firmware's clock frozen where it is (both models).
template <class Cpu>
void freeze_clock(Cpu& cpu) {
  cpu.set_functional_time_ns(cpu.firmware_time_ns());
  cpu.set_functional(true);
}
// The time and op counts both models' statistics have under the same names.
template <class Stats>
Controller::Usage time_usage(const Stats& s) {
  Controller::Usage u;
  u.compute_ps = s.compute_ps;
  u.bus_ps = s.bus_ps;
  u.idle_ps = s.idle_ps;
  u.ops = s.ops;
  return u;
}
template <class Cpu>
void bind_cpu(Cpu& cpu, Bus& bus, sc_core::sc_signal<bool>& irq) {
  cpu.bus.bind(bus.tsock);
  cpu.irq(irq);
}

}  // namespace

namespace {

class NativeController : public Controller {
 public:
  explicit NativeController(Config& cfg)
      : cpu_("cpu", cfg), mem_(new uint8_t[ftl_size()]), direct_registers_(cfg.get_bool("cpu.direct_registers")) {
    fw_ = reinterpret_cast<struct ftl*>(mem_.get());
    cpu_.set_firmware([this] {
      ftl_main(fw_);
      if (on_stop) on_stop();
    });
    forward_callbacks(*this, cpu_);
  }
  void bind(Bus& bus, sc_core::sc_signal<bool>& irq) override {
    bind_cpu(cpu_, bus, irq);
    if (direct_registers_) cpu_.set_register_router(&bus);
  }
  void boot(const ftl_config& cfg) override {
    cpu_.set_functional(true);
    if (ftl_init(fw_, cpu_.hal(), &cfg) != 0)
      throw std::runtime_error("firmware initialisation failed (see the log above)");
  }
  int func_write(uint64_t lba, uint32_t n, const uint32_t* t, uint32_t stream) override {
    return ftl_func_write_stream(fw_, lba, n, t, stream);
  }
  int func_trim(uint64_t lba, uint64_t n) override { return ftl_func_trim(fw_, lba, n); }
  int func_set_gc_threshold(uint32_t blocks) override { return ftl_func_set_gc_threshold(fw_, blocks); }
  void func_prefetch(uint64_t lba, int stage) override { ftl_func_prefetch(fw_, lba, stage); }
  void set_functional_time_ns(uint64_t ns) override { cpu_.set_functional_time_ns(ns); }
  uint32_t power_fail(uint32_t budget_pages) override {
    pause_functional();
    return ftl_power_fail(fw_, budget_pages);
  }
  void pause_functional() override { freeze_clock(cpu_); }
  void power_up(const ftl_config& cfg, std::function<void(bool)> on_ready) override {
    pause_functional();
    cpu_.power_cycle([this, cfg, on_ready] {
      const bool ok = ftl_recover(fw_, cpu_.hal(), &cfg) == 0;
      on_ready(ok);
      if (!ok) return;
      sc_core::wait(resume_ev_);
      ftl_main(fw_);
      if (on_stop) on_stop();
    });
  }
  void resume() override {
    cpu_.set_functional(false);
    resume_ev_.notify(sc_core::SC_ZERO_TIME);
  }
  int func_read(uint64_t lba, uint32_t n, uint32_t* t) override { return ftl_func_read(fw_, lba, n, t); }
  std::vector<uint8_t> save_firmware() override {
    std::vector<uint8_t> v(ftl_state_bytes());
    if (ftl_state_save(fw_, v.data()) != 0)
      throw std::runtime_error("the firmware refused to save its state (see the log)");
    return v;
  }
  void load_firmware(const std::vector<uint8_t>& v) override {
    if (ftl_state_load(fw_, v.data(), v.size()) != 0)
      throw std::runtime_error("the firmware refused the saved state (see the log)");
  }
  void start() override {
    cpu_.set_functional(false);
    cpu_.start();
  }
  void request_stop() override { ftl_request_stop(fw_); }
  const ftl_stats& stats() override { return *ftl_get_stats(fw_); }
  uint64_t firmware_time_ns() const override { return cpu_.firmware_time_ns(); }
  uint64_t gc_active_ns(uint64_t now) override { return ftl_gc_active_ns(fw_, now); }
  uint32_t classes() override { return ftl_classes(fw_); }
  void erase_spread(uint32_t* lo, double* mean, uint32_t* hi) override { ftl_erase_spread(fw_, lo, mean, hi); }
  std::string fault() const override { return {}; }
  Usage usage() const override {
    const auto& s = cpu_.stats();
    Usage u = time_usage(s);
    u.wakeups = s.wakeups;
    u.syncs = s.syncs;
    u.bus_errors = s.bus_errors;
    for (int op = 0; op < FW_OP_COUNT; ++op)
      u.op_ps[op] = s.ops[op] * cpu_.cost_cycles(static_cast<enum fw_op>(op)) * cpu_.cycle_ps();
    return u;
  }
  const char* mode() const override { return "native"; }

 private:
  CpuNative cpu_;
  std::unique_ptr<uint8_t[]> mem_;
  bool direct_registers_;  // cpu.direct_registers
  struct ftl* fw_;
  sc_core::sc_event resume_ev_;  // power_up: the recovered firmware's event loop may start
};

#ifdef SSDVP_HAVE_ISS
class IssController : public Controller {
 public:
  IssController(Config& cfg) : cpu_("cpu", cfg), elf_(cfg.get_string("cpu.iss.firmware", SSDVP_FW_ELF)) {
    cpu_.on_stop = [this] {
      if (on_ready_) {  // the program stopped (exited, faulted) while recovering
        auto ready = std::move(on_ready_);
        on_ready_ = nullptr;
        ready(false);
        return;
      }
      if (on_stop) on_stop();
    };
    // The recovered program parked: its boot block says how ftl_recover went.
    cpu_.on_park = [this] {
      iss_boot b{};
      get(0, &b, sizeof b);
      stats_addr_ = b.stats_addr;
      stop_addr_ = b.stop_addr;
      entry_ = b.call_entry;
      ret_ = b.call_return;
      auto ready = std::move(on_ready_);
      on_ready_ = nullptr;
      if (ready) ready(b.init_result == 0);
    };
    forward_callbacks(*this, cpu_);
  }
  void bind(Bus& bus, sc_core::sc_signal<bool>& irq) override { bind_cpu(cpu_, bus, irq); }
  void boot(const ftl_config& cfg) override {
    cpu_.load_elf(elf_);
    put_boot_block(cfg, ISS_POWER_UP_FIRST);
    iss_boot b{};
    cpu_.set_functional(true);
    const CpuIss::State st = cpu_.run_functional();
    get(0, &b, sizeof b);
    if (st == CpuIss::State::faulted)
      throw std::runtime_error(elf_ + ": the firmware faulted at boot: " + cpu_.fault());
    if (b.init_result == -2)
      throw std::runtime_error(elf_ + ": the firmware's boot block does not match the platform's (config " +
                               std::to_string(b.fw_config_bytes) + " vs " + std::to_string(sizeof(ftl_config)) +
                               " bytes, stats " + std::to_string(b.fw_stats_bytes) + " vs " +
                               std::to_string(sizeof(ftl_stats)) + "): rebuild it");
    if (st == CpuIss::State::parked && b.init_result == 0) {
      // booted
    } else if (b.init_result == 1 || b.magic != ISS_BOOT_MAGIC) {
      throw std::runtime_error(elf_ + ": the program " +
                               (st == CpuIss::State::exited ? "exited (code " + std::to_string(cpu_.exit_code()) + ")"
                                                            : std::string("parked")) +
                               " without booting by the boot block (firmware/iss/iss_boot.h): is it the ssdvp firmware "
                               "image?");
    } else {
      throw std::runtime_error(elf_ + ": firmware initialisation failed (ftl_init returned " +
                               std::to_string(b.init_result) + "; see the log above)");
    }
    stats_addr_ = b.stats_addr;
    stop_addr_ = b.stop_addr;
    entry_ = b.call_entry;
    ret_ = b.call_return;
  }
  int func_write(uint64_t lba, uint32_t n, const uint32_t* t, uint32_t stream) override {
    while (n) {
      const uint32_t k = std::min(n, ISS_BOOT_TOKENS);
      put(offsetof(iss_boot, tokens), t, size_t(k) * 4);
      set_args(lba, 0, k, stream);
      if (call(ISS_CALL_WRITE) != 0) return -1;
      lba += k, n -= k, t += k;
    }
    return 0;
  }
  int func_trim(uint64_t lba, uint64_t n) override {
    set_args(lba, n, 0, 0);
    return call(ISS_CALL_TRIM);
  }
  int func_set_gc_threshold(uint32_t blocks) override {
    set_args(0, 0, blocks, 0);
    return call(ISS_CALL_SET_GC_THRESHOLD);
  }
  void set_functional_time_ns(uint64_t ns) override { cpu_.set_functional_time_ns(ns); }
  // Power loss, as NativeController's: the power-fail handler and the
  // check's reads are functional calls on the core; power-up starts the
  // program again at its entry point (CpuIss::power_cycle) with the boot
  // block asking for ftl_recover, which runs in simulated time and parks.
  uint32_t power_fail(uint32_t budget_pages) override {
    pause_functional();
    set_args(0, 0, budget_pages, 0);
    if (call(ISS_CALL_POWER_FAIL) != 0)
      throw std::runtime_error("the firmware's power-fail handler failed" +
                               (fault().empty() ? std::string(" (see the log above)") : ": " + fault()));
    uint32_t left = 0;
    get(offsetof(iss_boot, ret_u32), &left, sizeof left);
    return left;
  }
  void pause_functional() override { freeze_clock(cpu_); }
  void power_up(const ftl_config& cfg, std::function<void(bool)> on_ready) override {
    pause_functional();
    cpu_.power_cycle();  // SRAM, the boot block with it, is lost: written again below
    put_boot_block(cfg, ISS_POWER_UP_RECOVER);
    on_ready_ = std::move(on_ready);
  }
  void resume() override { start(); }
  int func_read(uint64_t lba, uint32_t n, uint32_t* t) override {
    while (n) {
      const uint32_t k = std::min(n, ISS_BOOT_TOKENS);
      set_args(lba, 0, k, 0);
      if (call(ISS_CALL_READ) != 0) return -1;
      get(offsetof(iss_boot, tokens), t, size_t(k) * 4);
      lba += k, n -= k, t += k;
    }
    return 0;
  }
  void start() override {
    cpu_.set_functional(false);
    cpu_.start();
  }
  void request_stop() override {
    const int32_t one = 1;
    if (stop_addr_) cpu_.write_mem(stop_addr_, &one, sizeof one);
  }
  const ftl_stats& stats() override {
    // Not while recovering: SRAM holds what the power cut left until the
    // program's start-up clears it (the last statistics read stand).
    if (stats_addr_ && !on_ready_) cpu_.read_mem(stats_addr_, &stats_, sizeof stats_);
    return stats_;
  }
  uint64_t firmware_time_ns() const override { return cpu_.firmware_time_ns(); }
  uint64_t gc_active_ns(uint64_t now) override {
    set_args(now, 0, 0, 0);
    if (call(ISS_CALL_GC_ACTIVE_NS) != 0) return 0;
    uint64_t v = 0;
    get(offsetof(iss_boot, ret64), &v, sizeof v);
    return v;
  }
  uint32_t classes() override {
    const int32_t k = call(ISS_CALL_CLASSES);
    return k > 0 ? uint32_t(k) : 1;
  }
  void erase_spread(uint32_t* lo, double* mean, uint32_t* hi) override {
    *lo = *hi = 0;
    *mean = 0;
    if (call(ISS_CALL_ERASE_SPREAD) != 0) return;
    uint32_t r[2];
    get(offsetof(iss_boot, ret_u32), r, sizeof r);
    get(offsetof(iss_boot, ret_double), mean, sizeof *mean);
    *lo = r[0];
    *hi = r[1];
  }
  // A saved drive: the firmware's ftl_state_save/_load run on the core
  // (functional calls), their image passing through the boot block's tokens.
  // DRAM holds the program's own addresses, which are the same in every
  // process, so a drive saved in iss mode loads in iss mode (docs/state.md).
  std::vector<uint8_t> save_firmware() override {
    const int32_t n = call(ISS_CALL_STATE_SAVE);
    if (n <= 0) throw std::runtime_error("the firmware refused to save its state (see the log)");
    std::vector<uint8_t> v(static_cast<size_t>(n));
    get(offsetof(iss_boot, tokens), v.data(), v.size());
    return v;
  }
  void load_firmware(const std::vector<uint8_t>& v) override {
    if (v.size() > sizeof(iss_boot::tokens))
      throw std::runtime_error("the saved firmware state (" + std::to_string(v.size()) +
                               " bytes) is larger than the iss boot block can pass: another build or CPU mode");
    put(offsetof(iss_boot, tokens), v.data(), v.size());
    set_args(0, 0, uint32_t(v.size()), 0);
    if (call(ISS_CALL_STATE_LOAD) != 0) throw std::runtime_error("the firmware refused the saved state (see the log)");
  }
  std::string fault() const override { return cpu_.state() == CpuIss::State::faulted ? cpu_.fault() : std::string(); }
  Usage usage() const override {
    const auto& s = cpu_.stats();
    Usage u = time_usage(s);
    u.wakeups = s.waits;
    u.syncs = s.syncs;
    u.instructions = s.instructions;
    u.mmio_reads = s.mmio_reads;
    u.mmio_writes = s.mmio_writes;
    const double insn_ps = cpu_.cpi() * double(cpu_.cycle_ps());
    for (int op = 0; op < FW_OP_COUNT; ++op) u.op_ps[op] = uint64_t(double(s.op_instructions[op]) * insn_ps);
    return u;
  }
  const char* mode() const override { return "iss"; }

 private:
  void put(size_t off, const void* p, size_t n) { cpu_.write_mem(uint32_t(ISS_BOOT_ADDR + off), p, n); }
  // What the platform writes before the program starts (boot and power-up).
  void put_boot_block(const ftl_config& cfg, enum iss_power_up how) {
    iss_boot b{};
    b.magic = ISS_BOOT_MAGIC;
    b.version = ISS_BOOT_VERSION;
    b.config_bytes = sizeof(ftl_config);
    b.stats_bytes = sizeof(ftl_stats);
    b.power_up = how;
    b.config = cfg;
    b.init_result = 1;
    put(0, &b, sizeof b);
  }
  void get(size_t off, void* p, size_t n) { cpu_.read_mem(uint32_t(ISS_BOOT_ADDR + off), p, n); }
  void set_args(uint64_t a0, uint64_t a1, uint32_t b0, uint32_t b1) {
    const uint64_t a[2] = {a0, a1};
    const uint32_t b[2] = {b0, b1};
    put(offsetof(iss_boot, arg), a, sizeof a);
    put(offsetof(iss_boot, arg32), b, sizeof b);
  }
  int32_t call(uint32_t op) { return entry_ ? cpu_.call(entry_, op, ret_) : -1; }

  CpuIss cpu_;
  std::string elf_;
  uint32_t stats_addr_ = 0, stop_addr_ = 0, entry_ = 0, ret_ = 0;
  ftl_stats stats_{};
  std::function<void(bool)> on_ready_;  // power_up: called when the recovered program parks (or stops)
};
#endif

}  // namespace

std::unique_ptr<Controller> make_controller(Config& cfg) {
  const std::string mode = cfg.get_choice("cpu.mode");
  if (mode == "native") return std::make_unique<NativeController>(cfg);
#ifdef SSDVP_HAVE_ISS
  return std::make_unique<IssController>(cfg);
#else
  throw ConfigError(
      "config key 'cpu.mode': iss is not built in (needs libunicorn-dev and gcc-riscv64-unknown-elf with "
      "picolibc at configure time: bash scripts/install-deps.sh)");
#endif
}

}  // namespace ssdvp
