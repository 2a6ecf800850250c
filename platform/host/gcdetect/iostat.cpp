// iostat.cpp - see iostat.h.
#include "iostat.h"

#include <algorithm>
#include <cmath>

namespace ssdvp::gcdetect {

const std::array<const char*, kIostatFields> kIostatNames = {
    "r/s",      "w/s",      "rkB/s", "wkB/s", "rrqm/s", "wrqm/s", "r_await", "w_await", "aqu-sz",
    "rareq-sz", "wareq-sz", "svctm", "%util", "d/s",    "dkB/s",  "d_await", "dareq-sz"};

std::array<double, kIostatFields> iostat_fields(const DiskCounters& p, const DiskCounters& c, uint64_t interval_ps) {
  std::array<double, kIostatFields> f{};
  const double itv_s = double(interval_ps) * 1e-12;
  if (itv_s <= 0) return f;
  auto d = [](uint64_t a, uint64_t b) { return double(b >= a ? b - a : 0); };
  const double ms_per_ps = 1e-9;
  const double rd = d(p.ios[kRead], c.ios[kRead]), wr = d(p.ios[kWrite], c.ios[kWrite]),
               dc = d(p.ios[kDiscard], c.ios[kDiscard]);
  const double rsec = d(p.sectors[kRead], c.sectors[kRead]), wsec = d(p.sectors[kWrite], c.sectors[kWrite]),
               dsec = d(p.sectors[kDiscard], c.sectors[kDiscard]);
  const double rtk = d(p.ticks_ps[kRead], c.ticks_ps[kRead]) * ms_per_ps,
               wtk = d(p.ticks_ps[kWrite], c.ticks_ps[kWrite]) * ms_per_ps,
               dtk = d(p.ticks_ps[kDiscard], c.ticks_ps[kDiscard]) * ms_per_ps;
  const double util_ms = d(p.io_ticks_ps, c.io_ticks_ps) * ms_per_ps;
  const double rq_ms = d(p.time_in_queue_ps, c.time_in_queue_ps) * ms_per_ps;
  const double itv_ms = itv_s * 1e3;
  f[0] = rd / itv_s;                                      // r/s = d(rd_ios) / itv
  f[1] = wr / itv_s;                                      // w/s = d(wr_ios) / itv
  f[2] = rsec / 2 / itv_s;                                // rkB/s = d(rd_sec) / 2 / itv
  f[3] = wsec / 2 / itv_s;                                // wkB/s = d(wr_sec) / 2 / itv
  f[4] = d(p.merges[kRead], c.merges[kRead]) / itv_s;     // rrqm/s = d(rd_merges) / itv
  f[5] = d(p.merges[kWrite], c.merges[kWrite]) / itv_s;   // wrqm/s = d(wr_merges) / itv
  f[6] = rd ? rtk / rd : 0;                               // r_await = d(rd_ticks) / d(rd_ios)  [ms]
  f[7] = wr ? wtk / wr : 0;                               // w_await = d(wr_ticks) / d(wr_ios)  [ms]
  f[8] = rq_ms / itv_ms;                                  // aqu-sz = d(rq_ticks) / itv  [ms/ms]
  f[9] = rd ? rsec / 2 / rd : 0;                          // rareq-sz = d(rd_sec) / d(rd_ios) / 2  [kB]
  f[10] = wr ? wsec / 2 / wr : 0;                         // wareq-sz = d(wr_sec) / d(wr_ios) / 2  [kB]
  f[11] = (rd + wr + dc) ? util_ms / (rd + wr + dc) : 0;  // svctm = d(tot_ticks) / d(nr_ios)  [ms]
  f[12] = std::min(100.0, util_ms / itv_ms * 100);        // %util = d(tot_ticks) / itv * 100
  f[13] = dc / itv_s;                                     // d/s = d(dc_ios) / itv
  f[14] = dsec / 2 / itv_s;                               // dkB/s = d(dc_sec) / 2 / itv
  f[15] = dc ? dtk / dc : 0;                              // d_await = d(dc_ticks) / d(dc_ios)  [ms]
  f[16] = dc ? dsec / 2 / dc : 0;                         // dareq-sz = d(dc_sec) / d(dc_ios) / 2  [kB]
  return f;
}

std::array<double, kIostatFields> RollingDeviation::push(const std::array<double, kIostatFields>& x) {
  q_.push_back(x);
  if (q_.size() > w_) q_.pop_front();
  std::array<double, kIostatFields> out{};
  const double n = double(q_.size());
  for (size_t k = 0; k < kIostatFields; ++k) {
    double mean = 0;
    for (const auto& s : q_) mean += s[k];
    mean /= n;
    double dev = 0;
    for (const auto& s : q_) dev += std::fabs(s[k] - mean);
    out[k] = dev / n;
  }
  return out;
}

std::vector<std::string> feature_names() {
  std::vector<std::string> v;
  for (const char* n : kIostatNames) v.push_back(n);
  for (const char* n : kIostatNames) v.push_back(std::string(n) + "_avgdev");
  return v;
}

}  // namespace ssdvp::gcdetect
