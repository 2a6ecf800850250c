// ssdvp-accel-sweep - the K-Means accelerator against software clustering on
// the modelled controller CPU (HAML-SSD Table V, Fig. 9).
//
// For each N and K: the firmware's kmeans2d runs on the same points with a
// HAL that sums the cycles it charges (cpu.cost.kmeans_* at cpu.clock_hz,
// read from a CpuNative built on the same config, so overrides apply); the
// accelerator's cycles come from its cycle model (accel.* keys; with the RTL
// built and lanes/dividers as verilated, the RTL core's own counter is
// checked against it). Output: CSV on stdout.
//
//   ssdvp-accel-sweep [--iters 10] [--data uniform|blobs] [--lanes 1,2,4] [--rtl-check] [key=value ...]
#include <systemc>

#include <chrono>
#include <cstdio>
#include <cstring>
#include <sstream>
#include <string>
#include <vector>

#include "common/config.h"
#include "cpu/cpu_native.h"
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
  std::fprintf(stderr, "usage: ssdvp-accel-sweep [--iters N] [--data uniform|blobs] [--lanes L1,L2,..] [--rtl-check] [key=value ...]\n");
  return 2;
}

}  // namespace

int sc_main(int argc, char** argv) {
  uint32_t max_iter = 10;
  std::string data = "uniform";
  std::vector<uint32_t> lanes = {1, 2, 4};
  bool rtl_check = false;
  Config cfg;
  try {
    for (int i = 1; i < argc; ++i) {
      const std::string a = argv[i];
      if (a == "--iters" && i + 1 < argc) max_iter = uint32_t(std::stoul(argv[++i]));
      else if (a == "--data" && i + 1 < argc) data = argv[++i];
      else if (a == "--lanes" && i + 1 < argc) lanes = parse_list(argv[++i]);
      else if (a == "--rtl-check") rtl_check = true;
      else if (a.find('=') != std::string::npos) cfg.set_assignment(a);
      else return usage();
    }
    if (data != "uniform" && data != "blobs") return usage();
    CpuNative cpu("cpu", cfg);
    const AccelShape base = AccelShape::from_config(cfg);
    cfg.check_unknown();
    Meter meter{&cpu};
    struct hal h = {&kMeterOps, &meter};
    const double cpu_ps = double(cpu.cycle_ps());
    std::printf("n,k,iterations,sw_cycles,sw_us");
    for (uint32_t l : lanes) std::printf(",accel_l%u_compute_cycles,accel_l%u_total_cycles,accel_l%u_compute_us,accel_l%u_total_us", l, l, l, l);
    std::printf(",speedup_l%u_total,rtl_cycles_match\n", lanes.front());
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
        const auto pts = accel_data::make(data == "uniform" ? accel_data::Kind::uniform : accel_data::Kind::blobs, n,
                                          1000 * n + k);
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
        std::printf(",%s\n", match);
      }
#ifdef SSDVP_HAVE_RTL
    if (rtl) std::fprintf(stderr, "RTL: %llu cycles in %.2f s = %.2f M cycles/s\n",
                          static_cast<unsigned long long>(rtl_cycles), rtl_s, rtl_cycles / rtl_s / 1e6);
#endif
  } catch (const std::exception& e) {
    std::fprintf(stderr, "ssdvp-accel-sweep: %s\n", e.what());
    return 1;
  }
  return 0;
}
