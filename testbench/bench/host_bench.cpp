// host_bench.cpp - host-side pieces on the per-I/O path.
//
//   BM_LatencyHistogram_Add       items = samples recorded (log-normal-ish ns values)
//   BM_TraceParse/<trace>         items = trace lines parsed (format auto-detected;
//                                 both bundled traces are mqsim ASCII)
//   BM_Config_Get/<kind>          items = one declare-and-read lookup (u64, size, time)
#include <benchmark/benchmark.h>

#include <cmath>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "common/config.h"
#include "host/latency_histogram.h"
#include "workload.h"

namespace {

void BM_LatencyHistogram_Add(benchmark::State& state) {
  std::mt19937_64 rng(1);
  std::lognormal_distribution<double> dist(std::log(100000.0), 1.5);  // median 100 us, long tail
  std::vector<uint64_t> v(1 << 16);
  for (auto& x : v) x = uint64_t(dist(rng));
  ssdvp::LatencyHistogram h;
  size_t i = 0;
  for (auto _ : state) {
    h.add(v[i]);
    i = (i + 1) & (v.size() - 1);
  }
  benchmark::DoNotOptimize(h.count());
  state.SetItemsProcessed(int64_t(state.iterations()));
}
BENCHMARK(BM_LatencyHistogram_Add);

void BM_TraceParse(benchmark::State& state, const char* file) {
  ssdvp::host::TraceOptions o;
  o.detect = true;
  auto w = ssdvp::host::open_trace(std::string(SSDVP_SOURCE_DIR) + "/traces/" + file, o);
  ssdvp::host::IoRequest q;
  uint64_t sum = 0;
  for (auto _ : state) {
    w->rewind();
    while (w->next(q)) sum += q.offset;
  }
  benchmark::DoNotOptimize(sum);
  state.SetItemsProcessed(int64_t(w->stats().lines));  // cumulative over rewinds
  state.SetLabel(w->describe());
}
BENCHMARK_CAPTURE(BM_TraceParse, msr_heimdall, "msr_heimdall_rw20_80_105.ascii")->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_TraceParse, tpcc_small, "tpcc-small.ascii")->Unit(benchmark::kMicrosecond);

void BM_Config_Get(benchmark::State& state, int kind) {
  ssdvp::Config c = ssdvp::Config::from_yaml_file(std::string(SSDVP_SOURCE_DIR) + "/configs/small.yaml");
  uint64_t sum = 0;
  for (auto _ : state) {
    switch (kind) {
      case 0: sum += c.get_u64("flash.channels", 8, "flash channels per controller"); break;
      case 1: sum += c.get_size("flash.page_size", "8KiB", "bytes of user data per flash page"); break;
      default: sum += c.get_time_ps("flash.timing.program", "200us", "tPROG: page program time"); break;
    }
  }
  benchmark::DoNotOptimize(sum);
  state.SetItemsProcessed(int64_t(state.iterations()));
}
BENCHMARK_CAPTURE(BM_Config_Get, u64, 0);
BENCHMARK_CAPTURE(BM_Config_Get, size, 1);
BENCHMARK_CAPTURE(BM_Config_Get, time, 2);

}  // namespace
