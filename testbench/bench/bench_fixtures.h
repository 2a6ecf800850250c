// bench_fixtures.h - SystemC fixtures of ssdvp_bench, elaborated in sc_main
// before the first sc_start (SystemC elaborates once per process).
#pragma once

namespace ssdvp::bench {

void elaborate_kernel_fixtures();
void elaborate_flash_fixture();

}  // namespace ssdvp::bench
