// bench_main.cpp - sc_main of ssdvp_bench: elaborate the SystemC fixtures,
// then hand over to Google Benchmark (all its --benchmark_* flags work).
#include <benchmark/benchmark.h>

#include <systemc>

#include "bench_fixtures.h"

int sc_main(int argc, char* argv[]) {
  sc_core::sc_report_handler::set_actions("/OSCI/SystemC", sc_core::SC_INFO, sc_core::SC_DO_NOTHING);
  ssdvp::bench::elaborate_kernel_fixtures();
  ssdvp::bench::elaborate_flash_fixture();
  // End elaboration now (the sockets' callbacks are bound then), so that a
  // benchmark that calls b_transport before any sc_start of its own
  // (BM_Bus_Read32, BM_FlashCtrl_Reads) works whatever --benchmark_filter
  // selects.
  sc_core::sc_start(sc_core::SC_ZERO_TIME);
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 2;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
