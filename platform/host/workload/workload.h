// workload.h - host-side I/O workloads: streaming trace readers and the
// common Workload interface (synthetic generators are in synthetic.h).
//
// A Workload yields IoRequests one at a time. Trace readers never hold more
// than one buffer of the file (1 MiB, grown only for a longer line), so a
// multi-GB MSR or SYSTOR trace costs no memory. Times are exact: every
// timestamp is parsed as a decimal into integer picoseconds (no double on the
// way), so a SYSTOR Unix timestamp with microsecond fraction or a FILETIME in
// 100 ns ticks arrives at the model exactly.
//
// Formats, units and mapping rules are documented for users in docs/traces.md.
// No SystemC here: this library is usable from plain tools and tests.
#pragma once

#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>

namespace ssdvp::host {

enum class IoOp : uint8_t { read, write, trim, flush };
const char* to_string(IoOp op);  // "read", "write", "trim", "flush"

struct IoRequest {
  uint64_t time_ps = 0;  // arrival time relative to the first record of the trace (rebased to 0)
  uint64_t offset = 0;   // bytes
  uint64_t length = 0;   // bytes (0 only for flush)
  IoOp op = IoOp::read;
  uint32_t device = 0;  // device / disk number / LUN / ASU field (0 if the format has none)
  uint64_t line = 0;    // 1-based source line (0 for synthetic)
  uint8_t stream = 0;   // write: NVMe stream ID to send (0: none; set by host.streams)
  uint8_t flags = 0;    // IoFlag bits (the file-level host's journal: ordering and fsync timing)
};

// IoRequest::flags. barrier: not issued before every earlier request has
// completed (a file system waiting for its ordered writes); fsync_begin /
// fsync_end: the first and last request of one fsync, whose span the host
// driver records as fsync latency.
enum IoFlag : uint8_t { kIoBarrier = 1, kIoFsyncBegin = 2, kIoFsyncEnd = 4 };

// A malformed trace. Message: "<file>:<line>: expected <what>, got '<text>'"
// (or "<file>: <problem>" when no line is involved, e.g. the file cannot be
// opened or its format cannot be detected).
class TraceError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Counters of one workload. They are cumulative over rewind() (a looped trace
// reports the totals of all passes).
struct WorkloadStats {
  uint64_t lines = 0;    // source lines read, including blank and header lines (0 for synthetic)
  uint64_t records = 0;  // requests returned by next()
  uint64_t reads = 0, writes = 0, trims = 0, flushes = 0;  // records by op
  uint64_t read_bytes = 0, write_bytes = 0, trim_bytes = 0;
  uint64_t skipped_zero_length = 0;  // zero-length read/write/trim (skip_zero_length)
  uint64_t skipped_device = 0;       // records of another device (TraceOptions::device)
  uint64_t skipped_unsupported = 0;  // unsupported ops and non-request lines (blkparse other
                                     // actions and summaries, fio add/open/close/wait lines)
  uint64_t clamped = 0;              // timestamps earlier than the previous record's, clamped to it
  uint64_t skipped_dropped = 0;      // records a view dropped (workload.leading_discards: drop)
  uint64_t skipped() const { return skipped_zero_length + skipped_device + skipped_unsupported + skipped_dropped; }
};

class Workload {
 public:
  virtual ~Workload() = default;
  // The next request; false at the end. Throws TraceError on malformed input.
  virtual bool next(IoRequest& out) = 0;
  // Starts again from the first record (for looping); times restart at 0.
  virtual void rewind() = 0;
  // One line: format, file, options.
  virtual std::string describe() const = 0;
  virtual const WorkloadStats& stats() const = 0;
};

enum class TraceFormat { mqsim, disksim, msr, systor, spc, blkparse, fio };
const char* to_string(TraceFormat f);  // the name parse_trace_format accepts

struct TraceOptions {
  TraceFormat format = TraceFormat::mqsim;
  bool detect = false;                // ignore `format` and sniff the file (detect_trace_format)
  int64_t device = -1;                // keep only this device / disk / LUN / ASU / fio file index; -1: all
  double time_scale = 1.0;            // multiplies inter-arrival times (2.0 = half the rate); >= 0
  bool skip_zero_length = true;       // zero-length read/write/trim: skip and count (true) or TraceError
  std::string blkparse_action = "Q";  // the blkparse action whose lines are requests
  // Unit of the fio v3 iolog timestamp column, in ps. 0 (the default): from
  // the log: ps when its first request names the file "ssdvp" (a recording of
  // ssdvp serve --record), else microseconds, what fio's own writer (iolog.c,
  // log_io_u: utime_since_now()) prints.
  uint64_t fio_time_unit_ps = 0;
};

// "mqsim", "disksim", "msr", "systor", "spc", "blkparse", "fio"; throws
// std::invalid_argument listing the valid names.
TraceFormat parse_trace_format(const std::string& name);

// Sniffs the first non-empty lines (see docs/traces.md, "Detection"). Throws
// TraceError saying it could not tell and which formats it tried (and why
// each was rejected).
TraceFormat detect_trace_format(const std::string& path);

// Opens a streaming reader. Throws TraceError if the file cannot be opened
// (or, with opt.detect, its format cannot be told) and std::invalid_argument
// for bad options (negative or non-finite time_scale, empty blkparse_action).
std::unique_ptr<Workload> open_trace(const std::string& path, const TraceOptions& opt);

// Replays `inner` `loops` times (0 = forever). Each pass's times continue
// after the previous pass's last time plus the mean inter-arrival gap of the
// first pass (last_time / (records - 1), 0 for a one-record pass), plus
// `quiet_ps` (workload.loop_gap: an open-loop replay's idle time between
// passes). An empty inner workload ends at once.
std::unique_ptr<Workload> make_looped(std::unique_ptr<Workload> inner, uint64_t loops, uint64_t quiet_ps = 0);
// Replays inner's reads as writes and its writes as reads (trims and flushes
// as they are): workload.swap_reads_writes.
std::unique_ptr<Workload> make_swapped(std::unique_ptr<Workload> inner);
// The trace without its discards before its first write (each pass, after a
// rewind, again): a recording's mkfs discard dropped, the file system as made
// with nodiscard on a used drive. workload.leading_discards: drop.
std::unique_ptr<Workload> make_without_leading_discards(std::unique_ptr<Workload> inner);

}  // namespace ssdvp::host
