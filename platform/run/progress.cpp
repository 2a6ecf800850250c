// progress.cpp - see progress.h.
#include "run/progress.h"

#include <chrono>
#include <cstdio>
#include <string>
#include <systemc>

namespace ssdvp {

void run_until_stopped(bool progress, double interval, uint64_t expected,
                       const std::function<uint64_t()>& requests_done) {
  if (!progress) {
    sc_core::sc_start();
    return;
  }
  using clock = std::chrono::steady_clock;
  const auto w0 = clock::now();
  auto shown = w0;
  uint64_t slice = 1000000;  // ps of simulated time per step, adapted to about a fifth of an interval
  bool printed = false;
  while (sc_core::sc_get_status() != sc_core::SC_STOPPED && sc_core::sc_pending_activity()) {
    const auto s0 = clock::now();
    sc_core::sc_start(sc_core::sc_time::from_value(slice));
    const double step = std::chrono::duration<double>(clock::now() - s0).count();
    if (step < 0.1 * interval && slice < (uint64_t(1) << 50)) slice *= 2;
    if (step > 0.4 * interval && slice > 1) slice /= 2;
    const double wall = std::chrono::duration<double>(clock::now() - w0).count();
    if (std::chrono::duration<double>(clock::now() - shown).count() < interval) continue;
    shown = clock::now();
    const uint64_t done = requests_done();
    std::string eta;
    if (expected && done > 0 && done < expected) {
      char b[64];
      std::snprintf(b, sizeof b, " of %llu (%.0f %%), about %.0f s left", (unsigned long long)expected,
                    100.0 * double(done) / double(expected), wall * double(expected - done) / double(done));
      eta = b;
    }
    std::fprintf(stderr, "\r\033[Kssdvp: simulated %.3f s, %llu requests done%s (wall %.0f s)",
                 sc_core::sc_time_stamp().to_seconds(), (unsigned long long)done, eta.c_str(), wall);
    printed = true;
  }
  if (printed) std::fprintf(stderr, "\r\033[K");
}

}  // namespace ssdvp
