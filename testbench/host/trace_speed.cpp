// ssdvp_trace_speed - measures trace parse throughput.
//   ssdvp_trace_speed <trace> [format|detect] [repeat]
// Reads the whole trace `repeat` times (default 1) and prints lines/s.
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <string>

#include "workload.h"

int main(int argc, char** argv) {
  using namespace ssdvp::host;
  if (argc < 2) {
    std::fprintf(stderr, "usage: %s <trace> [format|detect] [repeat]\n", argv[0]);
    return 2;
  }
  try {
    TraceOptions o;
    const std::string f = argc > 2 ? argv[2] : "detect";
    if (f == "detect")
      o.detect = true;
    else
      o.format = parse_trace_format(f);
    const int repeat = argc > 3 ? std::atoi(argv[3]) : 1;
    auto w = open_trace(argv[1], o);
    IoRequest q;
    uint64_t checksum = 0;
    const auto t0 = std::chrono::steady_clock::now();
    for (int r = 0; r < repeat; ++r) {
      if (r) w->rewind();
      while (w->next(q)) checksum += q.offset ^ q.time_ps;
    }
    const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    const auto& st = w->stats();
    std::printf("%s\n%llu lines, %llu records in %.3f s: %.2f M lines/s (checksum %llx)\n", w->describe().c_str(),
                static_cast<unsigned long long>(st.lines), static_cast<unsigned long long>(st.records), s,
                st.lines / s / 1e6, static_cast<unsigned long long>(checksum));
  } catch (const std::exception& e) {
    std::fprintf(stderr, "error: %s\n", e.what());
    return 1;
  }
  return 0;
}
