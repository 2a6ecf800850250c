// iostat.h - the host's view of a drive as `iostat -x` shows it.
//
// BlockStats keeps the counters the Linux block layer keeps per disk
// (/proc/diskstats; block/blk-core.c, block/genhd.c): per direction (read,
// write, discard, flush) completed I/Os, merges, sectors (512 B) and the sum
// of their service times, plus io_ticks (time with at least one request in
// flight) and time_in_queue (the sum of all completed requests' times, as
// kernels since 5.0 report field 11). Times are kept exactly in ps (the
// kernel rounds to jiffies or ms; that rounding is not modelled).
//
// iostat_fields() computes the 17 fields of `iostat -x` for an NVMe device
// from two snapshots, as sysstat's iostat (rd_stats.c compute_ext_disk_stats,
// iostat.c write_ext_stat) does; the formulas are in docs/models/host_files.md
// and next to each field below. RollingDeviation adds the seed's rolling
// figure: each field's average absolute deviation over the last W samples.
// No SystemC: used by the sampler module and by tests.
#pragma once

#include <array>
#include <cstdint>
#include <deque>
#include <string>
#include <vector>

namespace ssdvp::gcdetect {

enum Dir { kRead = 0, kWrite = 1, kDiscard = 2, kFlush = 3, kDirs = 4 };

struct DiskCounters {
  std::array<uint64_t, kDirs> ios{}, merges{}, sectors{}, ticks_ps{};
  uint64_t io_ticks_ps = 0;       // time with >= 1 request in flight
  uint64_t time_in_queue_ps = 0;  // sum of completed requests' times (field 11)
  uint64_t in_flight = 0;
};

class BlockStats {
 public:
  // A request enters the device's queue (blk_account_io_start).
  void start(uint64_t now_ps) {
    tick(now_ps);
    ++c_.in_flight;
  }
  // It completes (blk_account_io_done): `bytes` of direction d, started at start_ps.
  void done(Dir d, uint64_t bytes, uint64_t start_ps, uint64_t now_ps) {
    tick(now_ps);
    if (c_.in_flight) --c_.in_flight;
    c_.ios[d] += 1;
    c_.sectors[d] += bytes / 512;
    const uint64_t t = now_ps > start_ps ? now_ps - start_ps : 0;
    c_.ticks_ps[d] += t;
    c_.time_in_queue_ps += t;
  }
  // The counters as of now_ps (io_ticks brought up to date).
  DiskCounters snapshot(uint64_t now_ps) {
    tick(now_ps);
    return c_;
  }

 private:
  void tick(uint64_t now) {  // update_io_ticks, exactly
    if (c_.in_flight && now > stamp_) c_.io_ticks_ps += now - stamp_;
    if (now > stamp_) stamp_ = now;
  }
  DiskCounters c_;
  uint64_t stamp_ = 0;
};

// The 17 `iostat -x` fields of an NVMe device, in iostat's column order.
constexpr size_t kIostatFields = 17;
extern const std::array<const char*, kIostatFields> kIostatNames;
// r/s w/s rkB/s wkB/s rrqm/s wrqm/s r_await w_await aqu-sz rareq-sz wareq-sz
// svctm %util d/s dkB/s d_await dareq-sz
std::array<double, kIostatFields> iostat_fields(const DiskCounters& prev, const DiskCounters& cur,
                                                uint64_t interval_ps);

// Average absolute deviation of each field over the last `window` samples
// (mean |x - mean|; over the samples so far while fewer than `window`).
class RollingDeviation {
 public:
  explicit RollingDeviation(size_t window) : w_(window ? window : 1) {}
  std::array<double, kIostatFields> push(const std::array<double, kIostatFields>& x);

 private:
  size_t w_;
  std::deque<std::array<double, kIostatFields>> q_;
};

// The feature names of one sample row: the 17 fields, then each with the
// suffix "_avgdev".
std::vector<std::string> feature_names();

}  // namespace ssdvp::gcdetect
