// run_outputs.h - a single drive's output files (docs/outputs.md):
// summary.json, timeseries.csv, and latency_histograms.csv and iostat.csv
// when the run made them.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

namespace ssdvp {

struct HostResults;
class GcMonitor;

// Writes them into dir (created) atomically: temporary files renamed into
// place; an earlier run's optional files this run did not make are removed.
// monitor: the iostat/TRIM monitor when it ran (null: no iostat.csv).
void write_run_outputs(const std::string& dir, const nlohmann::json& summary, const HostResults& h,
                       const GcMonitor* monitor);

}  // namespace ssdvp
