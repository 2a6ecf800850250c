// fuzz_trace.cpp - libFuzzer harness: every trace reader (host/workload).
//
// Input: one option byte, then the trace text. The option byte picks the
// format (its low 3 bits: the seven formats, or 7 = detect the format) and
// two options (bit 3: skip_zero_length off, bit 4: keep only device 0). The
// text goes to a file (the readers stream files) and the whole trace is read,
// twice over through make_looped.
//
// A malformed trace must end in TraceError (or std::invalid_argument for a
// bad option); anything else thrown, a crash or a sanitizer report is a bug.
// Properties checked on every record: times never go backwards, a length is
// 0 only for a flush, offset + length fits in 64 bits; an error message is
// short and printable (the input is quoted as an escaped excerpt).
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <stdexcept>
#include <string>

#include "workload.h"

using namespace ssdvp::host;

namespace {

constexpr uint64_t kMaxRecords = 100000;  // a bound on one input's work

void check(bool ok, const char* what) {
  if (!ok) {
    std::fprintf(stderr, "fuzz_trace: property broken: %s\n", what);
    std::abort();
  }
}

std::string temp_path() {
  const char* dir = std::getenv("TMPDIR");
  return std::string(dir && *dir ? dir : "/tmp") + "/ssdvp-fuzz-trace-" + std::to_string(getpid()) + ".txt";
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < 1) return 0;
  static const std::string path = temp_path();
  {
    std::FILE* f = std::fopen(path.c_str(), "wb");
    if (!f) return 0;
    std::fwrite(data + 1, 1, size - 1, f);
    std::fclose(f);
  }
  TraceOptions opt;
  const unsigned sel = data[0] & 7;
  static const TraceFormat formats[] = {TraceFormat::mqsim,  TraceFormat::disksim, TraceFormat::msr,
                                        TraceFormat::systor, TraceFormat::spc,     TraceFormat::blkparse,
                                        TraceFormat::fio};
  if (sel == 7)
    opt.detect = true;
  else
    opt.format = formats[sel];
  opt.skip_zero_length = !(data[0] & 8);
  if (data[0] & 16) opt.device = 0;
  try {
    auto w = make_looped(open_trace(path, opt), 2);
    IoRequest r;
    uint64_t prev_time = 0, n = 0;
    while (n < kMaxRecords && w->next(r)) {
      if (n > 0 && r.time_ps < prev_time) {
        // A new pass of the loop starts later than the previous one ended.
        check(false, "request times go backwards");
      }
      check(r.length > 0 || r.op == IoOp::flush, "a zero-length request other than a flush");
      check(r.offset <= UINT64_MAX - r.length, "offset + length overflows");
      check(r.line > 0, "a trace record without its line number");
      prev_time = r.time_ps;
      ++n;
    }
    const WorkloadStats& s = w->stats();
    check(s.records == n || n == kMaxRecords, "stats.records differs from the records returned");
    check(s.reads + s.writes + s.trims + s.flushes == s.records, "records by op do not add up");
    (void)w->describe();
  } catch (const TraceError& e) {
    // A bad line is quoted as a short escaped excerpt, never echoed whole.
    const std::string m = e.what();
    // (detection lists one reason per format tried: up to 8 quoted excerpts)
    check(m.size() <= 8 * (path.size() + 512), "a trace error message longer than its excerpts allow");
    for (unsigned char c : m)
      check(c == '\n' || (c >= 0x20 && c < 0x7f), "a trace error message with unprintable bytes");
  } catch (const std::invalid_argument&) {
  }
  return 0;
}
