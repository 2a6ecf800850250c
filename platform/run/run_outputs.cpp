// run_outputs.cpp - see run_outputs.h.
#include "run/run_outputs.h"

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <stdexcept>

#include "host/gc_monitor.h"
#include "host/host_driver.h"

namespace ssdvp {

namespace {

// timeseries.csv: one row per stats.interval; the latency columns are the
// percentiles of the requests completed in that interval (empty when none).
const char* const kTimeseriesHeader =
    "time_s,read_mbps,write_mbps,read_iops,write_iops,gc_lba_moves,erases,free_blocks,"
    "read_p50_us,read_p99_us,read_p999_us,read_max_us,write_p50_us,write_p99_us,write_p999_us,write_max_us";

std::string timeseries_line(const TimeseriesRow& r) {
  char line[512];
  int n = std::snprintf(line, sizeof line, "%.6f,%.3f,%.3f,%.1f,%.1f,%llu,%llu,%u", r.time_s, r.read_mbps, r.write_mbps,
                        r.read_iops, r.write_iops, (unsigned long long)r.gc_lba_moves, (unsigned long long)r.erases,
                        r.free_blocks);
  for (const IntervalLatency* l : {&r.read_latency, &r.write_latency}) {
    if (l->count)
      n += std::snprintf(line + n, sizeof line - size_t(n), ",%.3f,%.3f,%.3f,%.3f", l->p50, l->p99, l->p999, l->max);
    else
      n += std::snprintf(line + n, sizeof line - size_t(n), ",,,,");
  }
  return std::string(line) + "\n";
}

// latency_histograms.csv (stats.interval_histograms): each interval's
// non-empty latency buckets, long form.
void write_interval_histograms(const std::filesystem::path& path, const std::vector<TimeseriesRow>& rows) {
  std::ofstream f(path);
  f << "time_s,op,lo_us,hi_us,count\n";
  char line[128];
  for (const auto& r : rows)
    for (const auto& [op, l] :
         {std::pair<const char*, const IntervalLatency*>{"read", &r.read_latency}, {"write", &r.write_latency}})
      for (const auto& b : l->buckets) {
        std::snprintf(line, sizeof line, "%.6f,%s,%.3f,%.3f,%llu\n", r.time_s, op, double(b.lo) / 1000.0,
                      b.hi == UINT64_MAX ? double(b.lo) / 1000.0 * 2 : double(b.hi) / 1000.0,
                      (unsigned long long)b.count);
        f << line;
      }
  if (!f) throw std::runtime_error("cannot write " + path.string());
}

}  // namespace

void write_run_outputs(const std::string& dir, const nlohmann::json& summary, const HostResults& h,
                       const GcMonitor* monitor) {
  namespace fs = std::filesystem;
  fs::create_directories(dir);
  const fs::path d(dir);
  {
    std::ofstream f(d / ".summary.json.tmp");
    f << summary.dump(2) << "\n";
    if (!f) throw std::runtime_error("cannot write " + (d / "summary.json").string());
  }
  {
    std::ofstream f(d / ".timeseries.csv.tmp");
    f << kTimeseriesHeader << "\n";
    for (const auto& r : h.timeseries) f << timeseries_line(r);
    if (!f) throw std::runtime_error("cannot write " + (d / "timeseries.csv").string());
  }
  const bool hist = h.interval_histograms;
  if (hist) write_interval_histograms(d / ".latency_histograms.csv.tmp", h.timeseries);
  if (monitor) monitor->write_csv((d / "iostat.csv").string());
  // A rerun into the same directory: the optional outputs an earlier run
  // wrote and this one does not would sit beside the new summary as if they
  // were its own. Only ssdvp's own file names, and only in a directory that
  // holds an earlier summary.json, are removed.
  if (fs::exists(d / "summary.json")) {
    std::error_code ec;
    if (!hist) fs::remove(d / "latency_histograms.csv", ec);
    if (!monitor) fs::remove(d / "iostat.csv", ec);
  }
  fs::rename(d / ".summary.json.tmp", d / "summary.json");
  fs::rename(d / ".timeseries.csv.tmp", d / "timeseries.csv");
  if (hist) fs::rename(d / ".latency_histograms.csv.tmp", d / "latency_histograms.csv");
}

}  // namespace ssdvp
