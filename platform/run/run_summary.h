// run_summary.h - the sections of a single drive's summary.json that every
// run has, one function each, computed at the end of the run from one
// SummaryInput (docs/outputs.md describes every field). A feature's own
// section is contributed by the feature's component (RunContext::contribute, run_component.h).
#pragma once

#include <cstdint>
#include <string>

#include <nlohmann/json.hpp>

#include "common/config.h"
#include "soc/controller.h"

extern "C" {
#include "ftl.h"
}

namespace ssdvp {

class SsdSoc;
class DeviceState;
class GcMonitor;
struct HostResults;
namespace fs {
class FileWorkload;
class HeldDiscards;
}  // namespace fs
namespace host {
class Workload;
}

// The run's end state, the timed part's totals, and the firmware's state when
// the timed part started (the sections report differences from it).
struct SummaryInput {
  const HostResults& h;
  Controller& fw;
  const ftl_stats* s;  // the firmware's counters (with power.cuts, what the cuts' recoveries lost added back)
  const SsdSoc& soc;
  const ftl_stats& at_start;
  uint64_t at_start_gc_active_ns = 0;
  const Controller::Usage& at_start_usage;
  uint64_t host_timed = 0, gc_timed = 0, erases_timed = 0, victims_timed = 0;  // LBAs, erases, GC victims
  uint64_t span = 1;  // ps from time 0 to the last completion (busy counters run from time 0)
};

// What the process has used so far (getrusage): user + system CPU seconds of
// every thread, and the peak resident set. A run's summary reports both
// beside its wall time (run.cpu_s, run.peak_rss_mb).
struct ProcessUsage {
  double cpu_s;
  double peak_rss_mb;
};
ProcessUsage process_usage();

nlohmann::json summary_config(const Config& cfg);
nlohmann::json summary_workload(const SummaryInput& x, const host::Workload& w, const std::string& desc,
                                uint64_t precondition_lba_writes);
nlohmann::json summary_host(const SummaryInput& x, const host::Workload* predictor);
nlohmann::json summary_ftl(const SummaryInput& x, const DeviceState& device);
nlohmann::json summary_gc_schedule(const SummaryInput& x);
nlohmann::json summary_placement(const SummaryInput& x);
nlohmann::json summary_utilization(const SummaryInput& x);
nlohmann::json summary_flash(const SummaryInput& x);
nlohmann::json summary_cpu(const SummaryInput& x);
nlohmann::json summary_accel(const SummaryInput& x);
nlohmann::json summary_nvme(const SummaryInput& x);
// The file-level host and its TRIM/iostat monitor (files: null without the file-level host).
nlohmann::json summary_trim(const GcMonitor& monitor, const fs::FileWorkload* files, const fs::HeldDiscards* held,
                            uint32_t lba);

}  // namespace ssdvp
