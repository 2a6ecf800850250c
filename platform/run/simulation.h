// simulation.h - one ssdvp run: the SoC, the host, preconditioning, the timed
// replay, and the summary.
//
// Construct once per process (SystemC elaborates once), then run(). All
// parameters come from the Config; unknown keys are rejected before any
// simulated time passes.
#pragma once

#include <array>
#include <chrono>
#include <functional>
#include <memory>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "common/config.h"
#include "run/power_loss.h"
#include "run/precondition.h"
#include "run/run_component.h"
#include "run/run_plan.h"
#include "run/run_summary.h"
#include "run/run_workload.h"
#include "run/saved_state.h"
#include "run/zns_run.h"
#include "soc/controller.h"

extern "C" {
#include "ftl.h"
}

namespace ssdvp {

class SsdSoc;
class Device;
class LatencyHistogram;
class HostMemory;
class HostDriver;
class Scoreboard;
class FlowSet;
struct HostResults;
class Timeline;
class GcMonitor;
namespace host {
class Workload;
}

struct RunOutcome {
  nlohmann::json summary;
  bool clean = true;  // no integrity mismatch, NAND violation or firmware bus error
  // Set (and summary empty) when the run could not finish, e.g. the device
  // stopped completing commands (host.stall_timeout). Returned rather than
  // thrown: unwinding after SystemC's coroutines ran confuses AddressSanitizer.
  std::string error;
  bool input_error = false;  // the error lies in the user's input (a damaged saved drive): exit 2, not 1
};

class DeviceState;

class Simulation {
 public:
  explicit Simulation(Config& cfg, RunEntry entry = RunEntry::run);
  ~Simulation();
  RunOutcome run();
  // --save-state / --load-state / --precondition-only (saved_state.h); call
  // before run(). Throws ConfigError naming the key a saved drive disagrees on.
  void set_state_options(const StateOptions& o);
  // A progress line on stderr while the timed part runs (simulated time,
  // requests done, an estimate of the wall time left): on a terminal, unless
  // --quiet.
  void set_progress(bool on) { progress_ = on; }

  SsdSoc& soc() { return *soc_; }
  // Events written to the timeline (0 when timeline.file is empty).
  uint64_t run_timeline_events() const;
  HostDriver& host() { return *host_; }
  // ssdvp serve: the innermost workload live requests are put into, and the
  // workload layers around it (HostDriver::set_live).
  LiveFeed* live_feed() { return live_feed_; }
  host::Workload* live_workload() { return workload_.get(); }
  Scoreboard& scoreboard() { return *sb_; }

  // Writes summary.json and timeseries.csv into dir atomically (temporary
  // files renamed into place); creates dir.
  void write_outputs(const std::string& dir, const RunOutcome& out) const;

 private:
  void build();
  // run()'s phases (simulation.cpp).
  std::optional<RunOutcome> start_drive();
  void begin_timed();
  RunOutcome drive(std::chrono::steady_clock::time_point t0);
  void precondition();
  nlohmann::json summarize(double wall_s) const;
  // summarize()'s sections every run has are in run_summary.h; this one needs the run itself.
  nlohmann::json summary_run(const SummaryInput& x, double wall_s) const;
  nlohmann::json activations(const SummaryInput& x) const;
  nlohmann::json activation_counts() const;
  // The features built into this run (run_component.h), and the summary
  // sections they contribute (computed at the end).
  std::vector<std::pair<std::string, SummaryFn>> contributions_;
  void attach_components(ComponentRow::Phase phase);

  Config& cfg_;
  RunPlan plan_;                 // what the run is made of, checked (run_plan.h)
  std::unique_ptr<Device> dev_;  // the SoC and its host memory (device.h)
  SsdSoc* soc_ = nullptr;
  HostMemory* mem_ = nullptr;
  std::unique_ptr<Scoreboard> sb_;
  std::unique_ptr<HostDriver> host_;
  std::unique_ptr<host::Workload> workload_;
  LiveFeed* live_feed_ = nullptr;  // ssdvp serve: the innermost of workload_
  std::unique_ptr<host::Workload> timed_;
  std::unique_ptr<Timeline> timeline_;
  std::unique_ptr<DeviceState> device_;  // per-die figures, spare factor
  std::string workload_desc_;
  uint64_t precond_writes_ = 0;
  // Firmware figures when the timed part starts (the summary reports the difference).
  ftl_stats at_start_{};
  ftl_stats cut_carry_{};  // power.cuts: what the firmware's counters lost at the cuts (cut_counters.h)
  uint64_t at_start_gc_active_ns_ = 0;
  Controller::Usage at_start_usage_{};
  nlohmann::json at_start_activations_;  // activation_counts() when the timed replay began
  RunKeys keys_;  // plan_.keys, with what the run itself adds (the file-level host's layout requests)
  const HostResults& host_results() const;
  bool host_finished() const;
  RunOutcome run_power_cut(std::chrono::steady_clock::time_point t0);
  // power.cuts (simulation_power.cpp): runs the timed part through every
  // cut, recovery and check; their records for the summary's "power".
  std::vector<nlohmann::json> run_power_cuts();
  // A saved drive (saved_state.cpp).
  StateOptions state_;
  bool progress_ = false;
  double progress_interval_ = 1.0;  // log.progress_interval
  uint64_t expected_requests_ = 0;  // the timed part's requests if known beforehand (0: not known)
  nlohmann::json loaded_header_;
  nlohmann::json state_keys() const;
  void save_drive_state();
  void load_drive_state();
  void start_host_ftl();  // before the host's replay: init, precondition, start
  // What preconditioning writes through: the SoC's firmware or the host FTL.
  FuncFtl func_ftl();
  // Last, so destroyed first: the components refer to the drive, the host and the workload above.
  // What the components made that the run's phases use is read from here (run_->host_ftl: what
  // preconditioning writes through; run_->flows: whose results the summary totals; run_->monitor:
  // whose samples go to the outputs), not copied into members of its own.
  std::unique_ptr<RunContext> run_;
  std::vector<std::unique_ptr<RunComponent>> components_;
};

std::string ssdvp_version();

}  // namespace ssdvp
