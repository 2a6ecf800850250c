// ssdvp-accel-sweep - the K-Means accelerator against software clustering on
// the modelled controller CPU (HAML-SSD Table V, Fig. 9).
//
// For each N and K: the firmware's kmeans2d runs on the same points with a
// HAL that sums the cycles it charges (cpu.cost.kmeans_* at cpu.clock_hz,
// read from a CpuNative built on the same config, so overrides apply); the
// accelerator's cycles come from its cycle model (accel.* keys; with the RTL
// built and lanes/dividers as verilated, the RTL core's own counter is
// checked against it). Where the ISS is built, the same kmeans2d also runs
// cross-compiled on the controller's RV32 core (tools/kmeans_iss.c on
// CpuIss): its retired instructions x cpu.iss.cpi at cpu.clock_hz are the
// measured software time, and its labels and iteration count must equal the
// host's (column iss_match). Output: CSV on stdout.
//
//   ssdvp-accel-sweep [--iters 10] [--data uniform|blobs] [--lanes 1,2,4] [--rtl-check]
//                     [--no-iss | --iss-elf PATH] [key=value ...]
#include <systemc>

#include <chrono>
#include <cstdio>
#include <cstring>
#include <memory>
#include <stdexcept>
#include <sstream>
#include <string>
#include <vector>

#include "common/config.h"
#include "cpu/cpu_native.h"
#ifdef SSDVP_HAVE_ISS
#include "cpu/cpu_iss.h"
#include "dram/dram.h"
#include "interconnect/bus.h"
#endif
#include "tlm/accel_core.h"
#include "tlm/accel_datasets.h"
#ifdef SSDVP_HAVE_RTL
#include "rtl/rtl_core.h"
#endif

extern "C" {
#include "hotness.h"
}

using namespace ssdvp;

namespace {

struct Meter {
  const CpuNative* cpu;
  uint64_t cycles = 0;
};
void charge(void* ctx, enum fw_op op, uint32_t count) {
  auto* m = static_cast<Meter*>(ctx);
  m->cycles += m->cpu->cost_cycles(op) * count;
}
uint32_t no_read(void*, uint32_t) { return 0; }
void no_write(void*, uint32_t, uint32_t) {}
void* no_dram(void*, uint32_t, uint32_t) { return nullptr; }
void no_wait(void*) {}
uint64_t no_time(void*) { return 0; }
void no_log(void*, int, const char*) {}
void no_trace(void*, enum hal_trace_event, uint32_t) {}
const hal_ops kMeterOps = {no_read, no_write, no_dram, no_wait, charge, no_time, no_log, no_trace};

std::vector<uint32_t> parse_list(const std::string& s) {
  std::vector<uint32_t> v;
  std::stringstream ss(s);
  std::string item;
  while (std::getline(ss, item, ',')) v.push_back(uint32_t(std::stoul(item)));
  return v;
}

int usage() {
  std::fprintf(stderr,
               "usage: ssdvp-accel-sweep [--iters N] [--data uniform|blobs] [--lanes L1,L2,..] [--rtl-check] "
               "[--no-iss | --iss-elf PATH] [key=value ...]\n");
  return 2;
}

#ifdef SSDVP_HAVE_ISS
// kmeans2d on the RV32 core: a CpuIss on a bus with DRAM (the program uses
// neither, but simulation needs every socket bound, the cost-table CpuNative's
// too), the program parked after its start.
class IssKmeans {
 public:
  IssKmeans(Config& cfg, const std::string& elf, CpuNative& native)
      : bus_("iss_bus", cfg), dram_("iss_dram", cfg), cpu_("iss", cfg), elf_(elf) {
    cpu_.bus.bind(bus_.tsock);
    native.bus.bind(bus_.tsock);
    bus_.attach("DRAM", dram_.tsock);
    cpu_.irq(irq_);
    native.irq(irq_);
  }
  // After elaboration (sc_start(SC_ZERO_TIME)).
  void boot() {
    cpu_.load_elf(elf_);
    cpu_.set_functional(true);
    const CpuIss::State st = cpu_.run_functional();
    if (st == CpuIss::State::exited)
      throw std::runtime_error(elf_ + ": the program exited (code " + std::to_string(cpu_.exit_code()) +
                               ") instead of parking: is it kmeans_iss.elf?");
    if (st != CpuIss::State::parked) throw std::runtime_error(elf_ + ": the program did not park: " + cpu_.fault());
    for (const char* s : {"kmeans_iss_args", "kmeans_iss_x", "kmeans_iss_y", "kmeans_iss_labels", "kmeans_iss_entry"})
      if (!cpu_.symbol(s)) throw std::runtime_error(elf_ + ": no symbol " + s + " (is it kmeans_iss.elf?)");
    cpu_.read_mem(cpu_.symbol("kmeans_iss_entry"), entry_, sizeof entry_);
  }
  struct Result {
    uint64_t instructions;
    uint32_t iterations;
    int32_t status;
    std::vector<uint8_t> labels;
  };
  Result run(const std::vector<uint16_t>& x, const std::vector<uint16_t>& y, uint32_t k, uint32_t max_iter) {
    const uint32_t n = uint32_t(x.size());
    uint32_t args[5] = {n, k, max_iter, 0, 0};
    if (!cpu_.write_mem(cpu_.symbol("kmeans_iss_x"), x.data(), 2 * n) ||
        !cpu_.write_mem(cpu_.symbol("kmeans_iss_y"), y.data(), 2 * n) ||
        !cpu_.write_mem(cpu_.symbol("kmeans_iss_args"), args, sizeof args))
      throw std::runtime_error("kmeans_iss: cannot load " + std::to_string(n) + " points");
    const uint64_t i0 = cpu_.stats().functional_instructions;
    Result r{};
    r.status = cpu_.call(entry_[0], 0, entry_[1]);
    if (cpu_.state() == CpuIss::State::faulted) throw std::runtime_error("kmeans_iss: " + cpu_.fault());
    r.instructions = cpu_.stats().functional_instructions - i0;
    r.labels.resize(n);
    cpu_.read_mem(cpu_.symbol("kmeans_iss_args"), args, sizeof args);
    cpu_.read_mem(cpu_.symbol("kmeans_iss_labels"), r.labels.data(), n);
    r.iterations = args[3];
    return r;
  }
  double us_per_instruction() const { return cpu_.cpi() * double(cpu_.cycle_ps()) / 1e6; }

 private:
  Bus bus_;
  Dram dram_;
  CpuIss cpu_;
  sc_core::sc_signal<bool> irq_{"iss_irq"};
  const std::string elf_;
  uint32_t entry_[2] = {0, 0};  // kmeans_iss_run, iss_call_return
};
#endif

}  // namespace

int sc_main(int argc, char** argv) {
  uint32_t max_iter = 10;
  std::string data = "uniform";
  std::vector<uint32_t> lanes = {1, 2, 4};
  bool rtl_check = false;
#ifdef SSDVP_HAVE_ISS
  std::string iss_elf = SSDVP_KMEANS_ISS_ELF;
#else
  std::string iss_elf;
#endif
  Config cfg;
  try {
    for (int i = 1; i < argc; ++i) {
      const std::string a = argv[i];
      if (a == "--iters" && i + 1 < argc)
        max_iter = uint32_t(std::stoul(argv[++i]));
      else if (a == "--data" && i + 1 < argc)
        data = argv[++i];
      else if (a == "--lanes" && i + 1 < argc)
        lanes = parse_list(argv[++i]);
      else if (a == "--rtl-check")
        rtl_check = true;
      else if (a == "--no-iss")
        iss_elf.clear();
      else if (a == "--iss-elf" && i + 1 < argc)
        iss_elf = argv[++i];
      else if (a.find('=') != std::string::npos)
        cfg.set_assignment(a);
      else
        return usage();
    }
    if (data != "uniform" && data != "blobs") return usage();
    CpuNative cpu("cpu", cfg);
    const AccelShape base = AccelShape::from_config(cfg);
#ifdef SSDVP_HAVE_ISS
    std::unique_ptr<IssKmeans> iss;
    if (!iss_elf.empty()) iss = std::make_unique<IssKmeans>(cfg, iss_elf, cpu);
    double iss_s = 0;  // wall time in the ISS calls, and their instructions
    uint64_t iss_insns = 0;
#else
    if (!iss_elf.empty()) throw ConfigError("--iss-elf: this build has no ISS (Unicorn or the RV32 toolchain missing)");
#endif
    cfg.check_unknown();
#ifdef SSDVP_HAVE_ISS
    // Elaborate only with the ISS: without it the cost-table CpuNative stays
    // unbound (it is only asked for its costs), and SystemC would refuse that.
    if (iss) {
      sc_core::sc_start(sc_core::SC_ZERO_TIME);
      iss->boot();
    }
#endif
    Meter meter{&cpu};
    struct hal h = {&kMeterOps, &meter};
    const double cpu_ps = double(cpu.cycle_ps());
    std::printf("n,k,iterations,sw_cycles,sw_us");
    for (uint32_t l : lanes)
      std::printf(",accel_l%u_compute_cycles,accel_l%u_total_cycles,accel_l%u_compute_us,accel_l%u_total_us", l, l, l,
                  l);
    std::printf(",speedup_l%u_total,rtl_cycles_match,sw_iss_instructions,sw_iss_us,iss_vs_table,iss_match\n",
                lanes.front());
#ifdef SSDVP_HAVE_RTL
    std::unique_ptr<RtlCore> rtl;
    if (rtl_check) rtl = std::make_unique<RtlCore>(rtl_built_shape(), "");
    double rtl_s = 0;
    uint64_t rtl_cycles = 0;
#else
    if (rtl_check) throw ConfigError("--rtl-check: this build has no RTL core");
#endif
    for (uint32_t n : {640u, 1280u, 2560u, 5120u, 12800u, 25600u})
      for (uint32_t k = 3; k <= 8; ++k) {
        const auto pts =
            accel_data::make(data == "uniform" ? accel_data::Kind::uniform : accel_data::Kind::blobs, n, 1000 * n + k);
        std::vector<uint16_t> x(n), y(n), cx(k), cy(k);
        std::vector<uint8_t> lab(n);
        for (uint32_t i = 0; i < n; ++i) x[i] = ACCEL_POINT_X(pts[i]), y[i] = ACCEL_POINT_Y(pts[i]);
        uint32_t it = 0;
        meter.cycles = 0;
        if (kmeans2d(&h, x.data(), y.data(), n, k, max_iter, lab.data(), cx.data(), cy.data(), &it) != KMEANS_OK)
          throw std::runtime_error("kmeans2d refused the data");
        const double sw_us = double(meter.cycles) * cpu_ps / 1e6;
        std::printf("%u,%u,%u,%llu,%.3f", n, k, it, static_cast<unsigned long long>(meter.cycles), sw_us);
        double first_total_us = 0;
        for (uint32_t l : lanes) {
          AccelShape s = base;
          s.lanes = l;
          const uint64_t comp = accel_compute_cycles(s, n, k, it);
          const uint64_t total = accel_dma_in_cycles(s, n) + comp + accel_dma_out_cycles(s, n);
          const double cu = double(comp) / s.clock_hz * 1e6, tu = double(total) / s.clock_hz * 1e6;
          if (l == lanes.front()) first_total_us = tu;
          std::printf(",%llu,%llu,%.3f,%.3f", static_cast<unsigned long long>(comp),
                      static_cast<unsigned long long>(total), cu, tu);
        }
        std::printf(",%.1f", sw_us / first_total_us);
        const char* match = "-";
#ifdef SSDVP_HAVE_RTL
        if (rtl) {
          AccelResult r;
          const auto t0 = std::chrono::steady_clock::now();
          const uint64_t c0 = rtl->rtl_cycles();
          rtl->run(pts, k, max_iter, r);
          rtl_s += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
          rtl_cycles += rtl->rtl_cycles() - c0;
          const bool ok = r.iterations == it && r.labels == lab &&
                          r.compute_cycles == accel_compute_cycles(rtl_built_shape(), n, k, it);
          match = ok ? "yes" : "NO";
        }
#endif
        std::printf(",%s", match);
#ifdef SSDVP_HAVE_ISS
        if (iss) {
          const auto t0 = std::chrono::steady_clock::now();
          const IssKmeans::Result r = iss->run(x, y, k, max_iter);
          iss_s += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
          iss_insns += r.instructions;
          const double us = double(r.instructions) * iss->us_per_instruction();
          const bool same = r.status == KMEANS_OK && r.iterations == it && r.labels == lab;
          std::printf(",%llu,%.3f,%.3f,%s\n", static_cast<unsigned long long>(r.instructions), us, us / sw_us,
                      same ? "yes" : "NO");
          continue;
        }
#endif
        std::printf(",-,-,-,-\n");
      }
#ifdef SSDVP_HAVE_ISS
    if (iss)
      std::fprintf(stderr, "ISS: %llu instructions in %.2f s = %.1f M instructions/s\n",
                   static_cast<unsigned long long>(iss_insns), iss_s, iss_insns / iss_s / 1e6);
#endif
#ifdef SSDVP_HAVE_RTL
    if (rtl)
      std::fprintf(stderr, "RTL: %llu cycles in %.2f s = %.2f M cycles/s\n",
                   static_cast<unsigned long long>(rtl_cycles), rtl_s, rtl_cycles / rtl_s / 1e6);
#endif
  } catch (const std::exception& e) {
    std::fprintf(stderr, "ssdvp-accel-sweep: %s\n", e.what());
    return 1;
  }
  return 0;
}
