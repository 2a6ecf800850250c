// trace_readers.cpp - the streaming readers of the seven trace formats,
// open_trace() and detect_trace_format(). Units and rules: docs/traces.md.
#include <cmath>
#include <limits>
#include <sstream>
#include <unordered_map>

#include "trace_parse.h"
#include "workload.h"

namespace ssdvp::host {
namespace {

using detail::u128;

constexpr uint64_t kSector = 512;
constexpr uint64_t kPsPerNs = 1000;
constexpr uint64_t kPsPerUs = 1000000;
constexpr uint64_t kPsPerFiletimeTick = 100000;  // 100 ns

// What one source line turned out to be.
enum class LineKind {
  record,  // a request (may still be filtered by device or zero length)
  ignore,  // a header line: neither a record nor counted as skipped
  skip,    // a non-request line or an unsupported op: counted in skipped_unsupported
};

// A parsed record before filtering and rebasing; the time is absolute, in ps.
struct RawRecord {
  u128 time_ps = 0;
  uint64_t offset = 0;
  uint64_t length = 0;
  IoOp op = IoOp::read;
  uint32_t device = 0;
};

std::string shorten(std::string_view s) { return detail::excerpt(s); }

std::string format_double(double d) {
  std::ostringstream o;
  o << d;
  return o.str();
}

// The shared machinery: line loop, filters, rebasing, clamping, scaling,
// statistics. A format implements parse() and, if it keeps state across
// lines, reset().
class TraceReader : public Workload {
 public:
  TraceReader(const std::string& path, const TraceOptions& opt) : lines_(path), opt_(opt) {}

  bool next(IoRequest& out) override {
    std::string_view line;
    while (lines_.next(line)) {
      ++stats_.lines;
      if (line_limit_ && lines_.line_number() > line_limit_) return false;
      if (detail::is_blank(line)) continue;
      RawRecord r;
      const LineKind kind = parse(line, r);
      if (kind == LineKind::ignore) continue;
      if (kind == LineKind::skip) {
        ++stats_.skipped_unsupported;
        continue;
      }
      ++recognized_;
      if (opt_.device >= 0 && static_cast<int64_t>(r.device) != opt_.device) {
        ++stats_.skipped_device;
        continue;
      }
      if (r.length == 0 && r.op != IoOp::flush) {
        if (opt_.skip_zero_length) {
          ++stats_.skipped_zero_length;
          continue;
        }
        fail("a non-zero request size (or skip_zero_length to skip such records)", line);
      }
      if (r.offset > UINT64_MAX - r.length) fail("offset + size below 2^64 bytes", line);
      if (!have_base_) {
        have_base_ = true;
        base_ = prev_ = r.time_ps;
      }
      if (r.time_ps < prev_) {
        ++stats_.clamped;
        r.time_ps = prev_;
      }
      prev_ = r.time_ps;
      const u128 rel = r.time_ps - base_;
      if (rel > UINT64_MAX) fail("a time less than 2^64 ps (213 days) after the first record" + time_hint(), line);
      out.time_ps = scale_time(static_cast<uint64_t>(rel), line);
      out.offset = r.offset;
      out.length = r.length;
      out.op = r.op;
      out.device = r.device;
      out.line = lines_.line_number();
      count(out);
      return true;
    }
    return false;
  }

  void rewind() override {
    lines_.rewind();
    have_base_ = false;
    base_ = prev_ = 0;
    reset();
  }

  std::string describe() const override {
    std::string d = std::string(to_string(format())) + " trace '" + lines_.path() +
                    "' (device=" + (opt_.device < 0 ? std::string("all") : std::to_string(opt_.device)) +
                    ", time_scale=" + format_double(opt_.time_scale) +
                    ", skip_zero_length=" + (opt_.skip_zero_length ? "true" : "false");
    const std::string extra = describe_extra();
    if (!extra.empty()) d += ", " + extra;
    return d + ")";
  }

  const WorkloadStats& stats() const override { return stats_; }

  // For detection: stop after `n` source lines (0 = no limit).
  void set_line_limit(uint64_t n) { line_limit_ = n; }
  // Lines parsed as records (before filters): detection evidence.
  uint64_t recognized() const { return recognized_; }

  virtual TraceFormat format() const = 0;

 protected:
  virtual LineKind parse(std::string_view line, RawRecord& r) = 0;
  virtual void reset() {}
  virtual std::string describe_extra() const { return {}; }
  // Appended to a time-overflow error: what may be wrong with the time unit.
  virtual std::string time_hint() const { return {}; }

  [[noreturn]] void fail(const std::string& what, std::string_view got) const {
    throw TraceError(lines_.path() + ":" + std::to_string(lines_.line_number()) + ": expected " + what + ", got '" +
                     shorten(got) + "'");
  }

  uint64_t u64(std::string_view field, const char* what) const {
    uint64_t v;
    if (!detail::parse_u64(field, v)) fail(std::string("a non-negative integer ") + what, field);
    return v;
  }
  uint32_t u32(std::string_view field, const char* what) const {
    uint32_t v;
    if (!detail::parse_u32(field, v)) fail(std::string("a non-negative integer below 2^32 ") + what, field);
    return v;
  }
  // A decimal number of `unit_pow10`-second units, returned in ps.
  u128 decimal_time(std::string_view field, int ps_pow10, const char* what) const {
    u128 v;
    if (!detail::parse_decimal_scaled(field, ps_pow10, v)) fail(std::string("a non-negative number ") + what, field);
    return v;
  }
  uint64_t sectors_to_bytes(uint64_t sectors, std::string_view field, const char* what) const {
    if (sectors > UINT64_MAX / kSector) fail(std::string("a ") + what + " below 2^55 sectors", field);
    return sectors * kSector;
  }

  const TraceOptions& options() const { return opt_; }

 private:
  uint64_t scale_time(uint64_t rel, std::string_view line) const {
    if (opt_.time_scale == 1.0) return rel;
    const long double t = static_cast<long double>(rel) * static_cast<long double>(opt_.time_scale) + 0.5L;
    if (t >= 18446744073709551616.0L) fail("a scaled time less than 2^64 ps" + time_hint(), line);
    return static_cast<uint64_t>(t);
  }

  void count(const IoRequest& q) {
    ++stats_.records;
    switch (q.op) {
      case IoOp::read:
        ++stats_.reads;
        stats_.read_bytes += q.length;
        break;
      case IoOp::write:
        ++stats_.writes;
        stats_.write_bytes += q.length;
        break;
      case IoOp::trim:
        ++stats_.trims;
        stats_.trim_bytes += q.length;
        break;
      case IoOp::flush: ++stats_.flushes; break;
    }
  }

  detail::LineReader lines_;
  TraceOptions opt_;
  WorkloadStats stats_;
  bool have_base_ = false;
  u128 base_ = 0, prev_ = 0;
  uint64_t line_limit_ = 0;
  uint64_t recognized_ = 0;
};

// ---------------------------------------------------------------------------
// mqsim: "arrival_time_ns device start_lba size_sectors type(0=write,1=read)"
class MqsimReader final : public TraceReader {
 public:
  using TraceReader::TraceReader;
  TraceFormat format() const override { return TraceFormat::mqsim; }

 protected:
  LineKind parse(std::string_view line, RawRecord& r) override {
    std::string_view f[5];
    const size_t n = detail::split_ws(line, f, 5);
    if (n != 5) fail("5 blank-separated fields 'arrival_time_ns device start_lba size_sectors type'", line);
    r.time_ps = static_cast<u128>(u64(f[0], "arrival time (ns, field 1)")) * kPsPerNs;
    r.device = u32(f[1], "device (field 2)");
    r.offset = sectors_to_bytes(u64(f[2], "start LBA (512-byte sectors, field 3)"), f[2], "start LBA");
    r.length = sectors_to_bytes(u64(f[3], "size (512-byte sectors, field 4)"), f[3], "size");
    if (f[4] == "0")
      r.op = IoOp::write;
    else if (f[4] == "1")
      r.op = IoOp::read;
    else
      fail("type 0 (write) or 1 (read) in field 5", f[4]);
    return LineKind::record;
  }
};

// ---------------------------------------------------------------------------
// disksim: "arrival_time_ms devno blkno size_blocks flags(hex; bit 0 = read)"
class DisksimReader final : public TraceReader {
 public:
  using TraceReader::TraceReader;
  TraceFormat format() const override { return TraceFormat::disksim; }
  bool saw_fraction() const { return saw_fraction_; }

 protected:
  LineKind parse(std::string_view line, RawRecord& r) override {
    std::string_view f[5];
    const size_t n = detail::split_ws(line, f, 5);
    if (n != 5) fail("5 blank-separated fields 'arrival_time_ms devno blkno size_blocks flags'", line);
    r.time_ps = decimal_time(f[0], 9, "arrival time (ms, field 1)");
    if (f[0].find_first_of(".eE") != std::string_view::npos) saw_fraction_ = true;
    r.device = u32(f[1], "device number (field 2)");
    r.offset = sectors_to_bytes(u64(f[2], "block number (512-byte blocks, field 3)"), f[2], "block number");
    r.length = sectors_to_bytes(u64(f[3], "size (512-byte blocks, field 4)"), f[3], "size");
    uint64_t flags;
    if (!detail::parse_hex_u64(f[4], flags)) fail("hexadecimal request flags (field 5)", f[4]);
    r.op = (flags & 1) ? IoOp::read : IoOp::write;
    return LineKind::record;
  }

 private:
  bool saw_fraction_ = false;
};

// ---------------------------------------------------------------------------
// msr: "Timestamp,Hostname,DiskNumber,Type,Offset,Size,ResponseTime"
class MsrReader final : public TraceReader {
 public:
  using TraceReader::TraceReader;
  TraceFormat format() const override { return TraceFormat::msr; }

 protected:
  LineKind parse(std::string_view line, RawRecord& r) override {
    std::string_view f[7];
    const size_t n = detail::split_csv(line, f, 7);
    if (n != 7) fail("7 comma-separated fields 'Timestamp,Hostname,DiskNumber,Type,Offset,Size,ResponseTime'", line);
    r.time_ps =
        static_cast<u128>(u64(f[0], "Timestamp (Windows FILETIME, 100 ns ticks, field 1)")) * kPsPerFiletimeTick;
    if (f[1].empty()) fail("a Hostname (field 2)", line);
    r.device = u32(f[2], "DiskNumber (field 3)");
    if (detail::iequals(f[3], "read"))
      r.op = IoOp::read;
    else if (detail::iequals(f[3], "write"))
      r.op = IoOp::write;
    else
      fail("Type Read or Write (field 4)", f[3]);
    r.offset = u64(f[4], "Offset (bytes, field 5)");
    r.length = u64(f[5], "Size (bytes, field 6)");
    u64(f[6], "ResponseTime (100 ns ticks, field 7)");
    return LineKind::record;
  }
};

// ---------------------------------------------------------------------------
// systor: "Timestamp,Response,IOType,LUN,Offset,Size"
constexpr std::string_view kSystorHeader = "Timestamp,Response,IOType,LUN,Offset,Size";

class SystorReader final : public TraceReader {
 public:
  using TraceReader::TraceReader;
  TraceFormat format() const override { return TraceFormat::systor; }

 protected:
  LineKind parse(std::string_view line, RawRecord& r) override {
    if (detail::trim(line) == kSystorHeader) return LineKind::ignore;
    std::string_view f[6];
    const size_t n = detail::split_csv(line, f, 6);
    if (n != 6) fail("6 comma-separated fields 'Timestamp,Response,IOType,LUN,Offset,Size'", line);
    r.time_ps = decimal_time(f[0], 12, "Timestamp (Unix seconds, field 1)");
    // f[1] (Response, seconds) is not used and may be empty.
    if (f[2] == "R" || f[2] == "r")
      r.op = IoOp::read;
    else if (f[2] == "W" || f[2] == "w")
      r.op = IoOp::write;
    else
      fail("IOType R or W (field 3)", f[2]);
    r.device = u32(f[3], "LUN (field 4)");
    r.offset = u64(f[4], "Offset (bytes, field 5)");
    r.length = u64(f[5], "Size (bytes, field 6)");
    return LineKind::record;
  }
};

// ---------------------------------------------------------------------------
// spc: "ASU,LBA,Size,Opcode,Timestamp[,...]"
class SpcReader final : public TraceReader {
 public:
  using TraceReader::TraceReader;
  TraceFormat format() const override { return TraceFormat::spc; }

 protected:
  LineKind parse(std::string_view line, RawRecord& r) override {
    std::string_view f[5];
    const size_t n = detail::split_csv(line, f, 5);
    if (n < 5) fail("at least 5 comma-separated fields 'ASU,LBA,Size,Opcode,Timestamp'", line);
    r.device = u32(f[0], "ASU (field 1)");
    r.offset = sectors_to_bytes(u64(f[1], "LBA (512-byte blocks, field 2)"), f[1], "LBA");
    r.length = u64(f[2], "Size (bytes, field 3)");
    if (f[3] == "r" || f[3] == "R")
      r.op = IoOp::read;
    else if (f[3] == "w" || f[3] == "W")
      r.op = IoOp::write;
    else
      fail("Opcode r, R, w or W (field 4)", f[3]);
    r.time_ps = decimal_time(f[4], 12, "Timestamp (seconds, field 5)");
    return LineKind::record;
  }
};

// ---------------------------------------------------------------------------
// blkparse default text output:
//   "dev(M,m) cpu seq time(s.ns) pid action rwbs [sector + count] [comm]"
class BlkparseReader final : public TraceReader {
 public:
  using TraceReader::TraceReader;
  TraceFormat format() const override { return TraceFormat::blkparse; }

 protected:
  std::string describe_extra() const override { return "action=" + options().blkparse_action; }

  LineKind parse(std::string_view line, RawRecord& r) override {
    std::string_view f[10];
    const size_t n = detail::split_ws(line, f, 10);
    // An event line starts with "major,minor"; anything else (the per-CPU
    // and total summaries blkparse prints at the end) is not a request.
    uint32_t major, minor;
    if (n == 0) return LineKind::skip;
    if (!parse_dev(f[0], major, minor)) {
      // A summary line starts with a word; a first field that starts with a
      // digit and has a comma (a NUL inside "8,0") is a damaged event line:
      // an error, not a line dropped silently.
      if (f[0][0] >= '0' && f[0][0] <= '9' && f[0].find(',') != std::string_view::npos)
        fail("a device 'major,minor' (field 1)", f[0]);
      return LineKind::skip;
    }
    if (n < 6) fail("blkparse event fields 'dev cpu sequence time pid action'", line);
    if (f[5] != options().blkparse_action) return LineKind::skip;
    if (major >= (1u << 12) || minor >= (1u << 20)) fail("a device major < 4096 and minor < 2^20", f[0]);
    r.device = (major << 20) | minor;
    r.time_ps = decimal_time(f[3], 12, "time (seconds, field 4)");
    if (n < 7) fail("an RWBS field after the action", line);
    const std::string_view rwbs = f[6];
    const bool discard = rwbs.find('D') != std::string_view::npos;
    const bool write = rwbs.find('W') != std::string_view::npos;
    const bool read = rwbs.find('R') != std::string_view::npos;
    const bool flush = rwbs.find('F') != std::string_view::npos;
    // "sector + count" follows the RWBS when the request carries sectors.
    const bool has_range = n >= 10 && f[8] == "+";
    uint64_t sector = 0, count = 0;
    if (has_range) {
      sector = u64(f[7], "start sector (field 8)");
      count = u64(f[9], "sector count (field 10)");
    }
    if (discard)
      r.op = IoOp::trim;
    else if (flush && (!has_range || count == 0))
      r.op = IoOp::flush;  // "F", "FN", "FWS" without data
    else if (write)
      r.op = IoOp::write;
    else if (read)
      r.op = IoOp::read;
    else
      return LineKind::skip;  // "N" and other no-data requests
    if (r.op != IoOp::flush && !has_range) fail("'sector + count' after the RWBS field '" + shorten(rwbs) + "'", line);
    r.offset = sectors_to_bytes(sector, f[7], "start sector");
    r.length = r.op == IoOp::flush ? 0 : sectors_to_bytes(count, f[9], "sector count");
    return LineKind::record;
  }

 private:
  static bool parse_dev(std::string_view s, uint32_t& major, uint32_t& minor) {
    const size_t c = s.find(',');
    if (c == std::string_view::npos) return false;
    return detail::parse_u32(s.substr(0, c), major) && detail::parse_u32(s.substr(c + 1), minor);
  }
};

// ---------------------------------------------------------------------------
// fio iolog v2 ("filename action [offset length]") and v3 ("timestamp ...")
class FioReader final : public TraceReader {
 public:
  using TraceReader::TraceReader;
  TraceFormat format() const override { return TraceFormat::fio; }

 protected:
  void reset() override {
    version_ = 0;
    files_.clear();
    wait_ps_ = 0;
    last_file_.clear();
  }

  std::string describe_extra() const override {
    const uint64_t u = options().fio_time_unit_ps;
    return "fio_time_unit=" + (u ? std::to_string(u) + "ps" : std::string("auto"));
  }
  std::string time_hint() const override {
    if (version_ != 3 || unit_ps_ == 1) return {};
    return " (timestamps read as units of " + std::to_string(unit_ps_) +
           " ps; a recording of ssdvp serve --record counts ps: set workload.fio_time_unit_ps: 1)";
  }

  LineKind parse(std::string_view line, RawRecord& r) override {
    if (version_ == 0) {
      const std::string_view t = detail::trim(line);
      if (t == "fio version 2 iolog")
        version_ = 2;
      else if (t == "fio version 3 iolog")
        version_ = 3;
      else
        fail("the header 'fio version 2 iolog' or 'fio version 3 iolog'", line);
      unit_ps_ = options().fio_time_unit_ps;  // 0: told at the first request
      return LineKind::ignore;
    }
    std::string_view f[5];
    const size_t n = detail::split_ws(line, f, 5);
    size_t i = 0;
    if (version_ == 3) {
      if (n < 3) fail("'timestamp filename action [offset length]'", line);
      const uint64_t ts = u64(f[0], "timestamp (field 1)");
      if (unit_ps_ == 0) unit_ps_ = f[1] == "ssdvp" ? 1 : kPsPerUs;  // auto: ssdvp serve --record writes ps
      r.time_ps = static_cast<u128>(ts) * unit_ps_;
      i = 1;
    } else {
      if (n < 2) fail("'filename action [offset length]'", line);
      r.time_ps = wait_ps_;
    }
    const std::string_view file = f[i], action = f[i + 1];
    const size_t args = (n > 5 ? 5 : n) - (i + 2);  // offset/length present
    r.device = device_of(file);
    if (action == "add" || action == "open" || action == "close") return LineKind::skip;
    if (action == "wait") {
      if (version_ == 3) return LineKind::skip;  // not allowed in v3; fio ignores it too
      if (args < 1) fail("a wait time in microseconds after 'wait'", line);
      wait_ps_ += static_cast<u128>(u64(f[i + 2], "wait time (microseconds)")) * kPsPerUs;
      return LineKind::skip;
    }
    if (action == "sync" || action == "datasync") {
      r.op = IoOp::flush;
      r.offset = args >= 1 ? u64(f[i + 2], "offset (bytes)") : 0;
      r.length = 0;
      return LineKind::record;
    }
    if (action == "read")
      r.op = IoOp::read;
    else if (action == "write")
      r.op = IoOp::write;
    else if (action == "trim")
      r.op = IoOp::trim;
    else
      fail("a fio action (read, write, trim, sync, datasync, add, open, close, wait)", action);
    if (args < 2) fail("'offset length' after '" + shorten(action) + "'", line);
    r.offset = u64(f[i + 2], "offset (bytes)");
    r.length = u64(f[i + 3], "length (bytes)");
    return LineKind::record;
  }

 private:
  uint32_t device_of(std::string_view file) {
    if (!last_file_.empty() && file == last_file_) return last_id_;
    last_file_.assign(file.data(), file.size());
    last_id_ = lookup(file);
    return last_id_;
  }
  uint32_t lookup(std::string_view file) {
    auto it = files_.find(std::string(file));
    if (it != files_.end()) return it->second;
    const uint32_t id = static_cast<uint32_t>(files_.size());
    files_.emplace(std::string(file), id);
    return id;
  }

  int version_ = 0;
  std::unordered_map<std::string, uint32_t> files_;  // file name -> device index, in order of appearance
  u128 wait_ps_ = 0;
  uint64_t unit_ps_ = 0;  // v3 timestamp unit: the option, or decided at the first request (auto)
  std::string last_file_;
  uint32_t last_id_ = 0;
};

std::unique_ptr<TraceReader> make_reader(const std::string& path, TraceFormat f, const TraceOptions& opt) {
  switch (f) {
    case TraceFormat::mqsim: return std::make_unique<MqsimReader>(path, opt);
    case TraceFormat::disksim: return std::make_unique<DisksimReader>(path, opt);
    case TraceFormat::msr: return std::make_unique<MsrReader>(path, opt);
    case TraceFormat::systor: return std::make_unique<SystorReader>(path, opt);
    case TraceFormat::spc: return std::make_unique<SpcReader>(path, opt);
    case TraceFormat::blkparse: return std::make_unique<BlkparseReader>(path, opt);
    case TraceFormat::fio: return std::make_unique<FioReader>(path, opt);
  }
  throw std::invalid_argument("unknown trace format");
}

constexpr TraceFormat kAllFormats[] = {TraceFormat::mqsim, TraceFormat::disksim,  TraceFormat::msr, TraceFormat::systor,
                                       TraceFormat::spc,   TraceFormat::blkparse, TraceFormat::fio};
// Detection order: the most specific first; mqsim (all-integer columns) last.
constexpr TraceFormat kDetectOrder[] = {TraceFormat::fio,  TraceFormat::systor,   TraceFormat::msr,
                                        TraceFormat::spc,  TraceFormat::blkparse, TraceFormat::disksim,
                                        TraceFormat::mqsim};
constexpr uint64_t kSniffLines = 64;

void validate(const TraceOptions& opt) {
  if (!std::isfinite(opt.time_scale) || opt.time_scale < 0)
    throw std::invalid_argument("trace option time_scale must be a finite number >= 0, got " +
                                format_double(opt.time_scale));
  if (opt.blkparse_action.empty()) throw std::invalid_argument("trace option blkparse_action must not be empty");
  if (opt.device < -1 || opt.device > static_cast<int64_t>(UINT32_MAX))
    throw std::invalid_argument("trace option device must be -1 (all) or a device number, got " +
                                std::to_string(opt.device));
}

}  // namespace

const char* to_string(IoOp op) {
  switch (op) {
    case IoOp::read: return "read";
    case IoOp::write: return "write";
    case IoOp::trim: return "trim";
    case IoOp::flush: return "flush";
  }
  return "?";
}

const char* to_string(TraceFormat f) {
  switch (f) {
    case TraceFormat::mqsim: return "mqsim";
    case TraceFormat::disksim: return "disksim";
    case TraceFormat::msr: return "msr";
    case TraceFormat::systor: return "systor";
    case TraceFormat::spc: return "spc";
    case TraceFormat::blkparse: return "blkparse";
    case TraceFormat::fio: return "fio";
  }
  return "?";
}

TraceFormat parse_trace_format(const std::string& name) {
  std::string all;
  for (TraceFormat f : kAllFormats) {
    if (name == to_string(f)) return f;
    all += (all.empty() ? "" : ", ") + std::string(to_string(f));
  }
  throw std::invalid_argument("unknown trace format '" + name + "' (valid: " + all + ")");
}

TraceFormat detect_trace_format(const std::string& path) {
  std::string first_line;
  {
    detail::LineReader lr(path);
    std::string_view l;
    while (lr.next(l) && lr.line_number() <= kSniffLines)
      if (!detail::is_blank(l)) {
        first_line = std::string(l);
        break;
      }
  }
  if (first_line.empty())
    throw TraceError(path + ": could not tell the trace format: no non-empty line in the first " +
                     std::to_string(kSniffLines) + " lines");
  TraceOptions probe;
  std::string why;
  for (TraceFormat f : kDetectOrder) {
    auto reader = make_reader(path, f, probe);
    reader->set_line_limit(kSniffLines);
    std::string reason;
    try {
      IoRequest q;
      while (reader->next(q)) {
      }
      if (reader->recognized() == 0)
        reason = "no request line in the first " + std::to_string(kSniffLines) + " lines";
      else if (f == TraceFormat::disksim && !static_cast<DisksimReader&>(*reader).saw_fraction())
        reason = "no fractional millisecond time (integer times are read as mqsim nanoseconds)";
    } catch (const TraceError& e) {
      reason = e.what();
    }
    if (reason.empty()) return f;
    why += std::string("\n  ") + to_string(f) + ": " + reason;
  }
  throw TraceError(path + ": could not tell the trace format from its first lines (first line '" + shorten(first_line) +
                   "'); tried fio, systor, msr, spc, blkparse, disksim, mqsim; "
                   "pass the format explicitly:" +
                   why);
}

std::unique_ptr<Workload> open_trace(const std::string& path, const TraceOptions& opt) {
  validate(opt);
  const TraceFormat f = opt.detect ? detect_trace_format(path) : opt.format;
  TraceOptions o = opt;
  o.format = f;
  return make_reader(path, f, o);
}

}  // namespace ssdvp::host
