// run_workload.cpp - see run_workload.h.
#include "run/run_workload.h"

#include <cstdio>
#include <functional>
#include <stdexcept>
#include <vector>

#include "fs/ext4_layout.h"
#include "fs/personalities.h"
#include "host/gc_monitor.h"
#include "host/workload_views.h"
#include "apps.h"
#include "stream_log.h"
#include "stream_predict.h"
#include "synthetic.h"

namespace ssdvp {

namespace {

// The trace keys (read whichever source is used: a config may hold both).
struct TraceKeys {
  std::string path, fmt, blk_action;
  int64_t device = -1;
  bool skip_zero = true, flush_order = false, swap_rw = false, allow_empty = false;
  bool drop_leading_discards = false;  // workload.leading_discards: drop
  double scale = 1.0;
  uint64_t fio_unit = 1000000, loops = 1, loop_gap_ps = 0;
  static TraceKeys read(Config& cfg);
};

TraceKeys TraceKeys::read(Config& cfg) {
  TraceKeys k;
  k.path = cfg.get_string("workload.trace");
  k.fmt = cfg.get_choice("workload.format");
  k.device = cfg.get_i64("workload.device");
  k.skip_zero = cfg.get_bool("workload.skip_zero_length");
  k.blk_action = cfg.get_string("workload.blkparse_action");
  k.scale = cfg.get_double("workload.time_scale");
  k.fio_unit = cfg.get_u64("workload.fio_time_unit_ps");
  k.loops = cfg.get_u64("workload.loops");
  k.loop_gap_ps = cfg.get_time_ps("workload.loop_gap");
  k.flush_order = cfg.get_bool("workload.flush_order");
  k.swap_rw = cfg.get_bool("workload.swap_reads_writes");
  k.drop_leading_discards = cfg.get_choice("workload.leading_discards") == "drop";
  k.allow_empty = cfg.get_bool("workload.allow_empty");
  return k;
}

// Reads the whole trace once before simulating: a malformed line fails now,
// with its file:line, not hours into a run (and no exception is then thrown
// while SystemC threads run); warns of records it will round or cut; refuses
// a trace with nothing to replay. Returns its records.
uint64_t check_trace(const TraceKeys& k, const host::TraceOptions& o, uint64_t device_bytes, uint32_t lba_size) {
  const std::string& path = k.path;
  auto check = host::open_trace(path, o);
  if (k.drop_leading_discards) check = host::make_without_leading_discards(std::move(check));
  host::IoRequest r;
  uint64_t unaligned = 0, too_long = 0;  // rounded out to whole LBAs; cut to the namespace
  while (check->next(r)) {
    if (r.op == host::IoOp::flush) continue;
    unaligned += r.length && (r.offset % lba_size || r.length % lba_size);
    too_long += r.length > device_bytes;
  }
  // Said before the run, not found afterwards in a rounded MB/s.
  if (unaligned)
    std::fprintf(stderr,
                 "ssdvp: warning: %s: %llu records are not whole %u-byte LBAs: each is rounded out to whole LBAs "
                 "(bytes and MB/s count the LBAs moved)\n",
                 path.c_str(), (unsigned long long)unaligned, lba_size);
  if (too_long)
    std::fprintf(stderr,
                 "ssdvp: warning: %s: %llu records are longer than the %llu-byte namespace: each is cut to it\n",
                 path.c_str(), (unsigned long long)too_long, (unsigned long long)device_bytes);
  // A trace with nothing to replay is almost always a mistake (the wrong
  // file, device or format): say why instead of reporting zero I/Os.
  const host::WorkloadStats& st = check->stats();
  if (st.records == 0 && !k.allow_empty)
    throw host::TraceError(path + ": no requests to replay (" + std::to_string(st.lines) +
                           " lines; skipped: " + std::to_string(st.skipped_zero_length) + " of zero length, " +
                           std::to_string(st.skipped_device) + " of another device, " +
                           std::to_string(st.skipped_unsupported) +
                           " unsupported); set workload.allow_empty: true to run it anyway");
  return st.records;
}

// workload.source trace: checked (check_trace), then opened for the run with
// its views (swapped, looped, flush-ordered).
std::unique_ptr<host::Workload> open_trace_workload(const TraceKeys& k, uint64_t device_bytes, uint32_t lba_size,
                                                    uint64_t* expected) {
  if (k.path.empty()) throw ConfigError("config key 'workload.trace': required when workload.source is trace");
  host::TraceOptions o;
  o.detect = k.fmt == "auto";
  if (!o.detect) o.format = host::parse_trace_format(k.fmt);
  o.device = k.device;
  o.time_scale = k.scale;
  o.fio_time_unit_ps = k.fio_unit;
  o.skip_zero_length = k.skip_zero;
  o.blkparse_action = k.blk_action;
  const uint64_t records = check_trace(k, o, device_bytes, lba_size);
  if (expected) *expected = k.loops ? records * k.loops : 0;
  auto w = host::open_trace(k.path, o);
  if (k.drop_leading_discards) w = host::make_without_leading_discards(std::move(w));
  if (k.swap_rw) w = host::make_swapped(std::move(w));
  if (k.loops != 1) w = host::make_looped(std::move(w), k.loops, k.loop_gap_ps);
  if (k.flush_order) w = host::make_flush_order(std::move(w));
  return w;
}

// One row per workload.source: its name, and `read`, which reads the
// source's keys and returns what makes it. Every row is read whichever source
// the run uses (one file may hold several sources' keys, and a build reads
// every key of the registry); a new source is one row and its choice in
// params.def.
struct SourceArgs {
  uint64_t device_bytes;
  uint32_t lba_size;
  const host::ZoneGeometry* zones;  // nvme.command_set zns: the namespace's zones
};
using MakeSource = std::function<std::unique_ptr<host::Workload>(uint64_t* expected)>;
struct WorkloadSource {
  const char* name;
  std::function<MakeSource(Config&, const SourceArgs&)> read;
};

const std::vector<WorkloadSource>& workload_sources() {
  static const std::vector<WorkloadSource> rows = {
      {"trace",
       [](Config& cfg, const SourceArgs& a) -> MakeSource {
         const TraceKeys k = TraceKeys::read(cfg);
         return [k, a](uint64_t* expected) { return open_trace_workload(k, a.device_bytes, a.lba_size, expected); };
       }},
      {"synthetic",
       [](Config& cfg, const SourceArgs& a) -> MakeSource {
         const host::SyntheticSpec spec = host::SyntheticSpec::from_config(cfg, a.device_bytes);
         return [spec](uint64_t* expected) {
           if (expected) *expected = spec.requests;
           return host::make_synthetic(spec);
         };
       }},
      {"files",  // docs/models/host_files.md
       [](Config& cfg, const SourceArgs& a) -> MakeSource {
         const fs::FilesSpec files = fs::FilesSpec::from_config(
             cfg, a.device_bytes, a.lba_size, GcMonitor::parse_policy(cfg) == GcMonitor::Policy::discard);
         return
             [files](uint64_t*) { return std::unique_ptr<host::Workload>(std::make_unique<fs::FileWorkload>(files)); };
       }},
      {"app",
       [](Config& cfg, const SourceArgs& a) -> MakeSource {
         const host::AppSpec app = host::AppSpec::from_config(cfg, a.device_bytes);
         return [app](uint64_t*) { return host::make_app(app); };
       }},
      {"zoned",  // zns_run.h
       [](Config& cfg, const SourceArgs& a) -> MakeSource {
         const host::ZonedSpec zoned = host::ZonedSpec::from_config(cfg, a.zones ? *a.zones : host::ZoneGeometry());
         const bool has_zones = a.zones != nullptr;
         return [zoned, has_zones](uint64_t* expected) {
           if (!has_zones)  // refused before: the run plan (run_plan.cpp)
             throw std::logic_error("workload.source zoned without a zoned namespace");
           if (expected) *expected = zoned.requests;
           return host::make_zoned(zoned);
         };
       }},
  };
  return rows;
}

}  // namespace

std::unique_ptr<host::Workload> make_workload(Config& cfg, uint64_t device_bytes, uint32_t lba_size,
                                              const host::ZoneGeometry* zones, uint64_t* expected) {
  if (expected) *expected = 0;
  const std::string src = cfg.get_choice("workload.source");
  const SourceArgs args{device_bytes, lba_size, zones};
  MakeSource make;
  for (const WorkloadSource& row : workload_sources()) {
    MakeSource m = row.read(cfg, args);
    if (src == row.name) make = std::move(m);
  }
  if (!make) throw std::logic_error("workload.source " + src + " has no row in workload_sources()");
  return make(expected);
}

// host.streams: journal: a recorded ext4's journal writes (the journal inode's
// blocks in host.files.ext4.layout, a real dumpe2fs/debugfs output) on stream
// host.files.journal_stream, every other write on none.
std::unique_ptr<host::Workload> make_journal_streams(Config& cfg, std::unique_ptr<host::Workload> w, uint32_t streams) {
  const std::string key = "host.files.ext4.layout";
  const std::string path = cfg.get_string(key);  // given: the run plan (run_plan.cpp)
  const uint64_t stream = cfg.get_u64("host.files.journal_stream");
  if (stream == 0 || stream > streams)
    throw ConfigError("config key 'host.files.journal_stream': host.streams: journal needs a stream in 1.." +
                      std::to_string(streams) + " (ftl.hot.classes), got " + std::to_string(stream));
  const fs::Ext4Layout L = fs::read_ext4_layout(path, key);
  std::vector<std::pair<uint64_t, uint64_t>> ranges;
  for (const fs::Extent& e : L.journal) ranges.emplace_back(e.start * L.block_size, (e.start + e.len) * L.block_size);
  if (ranges.empty())
    throw ConfigError("config key '" + key + "': " + path + ": no journal extents (debugfs stat <8>)");
  return host::make_range_streams(std::move(w), std::move(ranges), uint8_t(stream), "the journal of " + path);
}

}  // namespace ssdvp
