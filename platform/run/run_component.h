// run_component.h - the parts of a run that not every run has, each one
// component, and the layers that wrap the run's workload, each one row.
//
// Simulation::build() makes the drive, its host memory, the scoreboard and
// the host driver, then walks run_components() in order: a row whose `wanted`
// holds for the plan makes its component, which attaches itself to the run
// (RunContext), may start with the timed part, may halt before a power cut (and resume after one),
// and contributes its own summary section. Between the drive's components and
// the host's, the workload is built (make_workload) and wrapped by every row
// of workload_layers() whose `wanted` holds, in order. A new feature is one
// component and its rows; a new stream policy or workload layer is one row.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "common/config.h"
#include "host/flows.h"
#include "run/precondition.h"
#include "run/run_plan.h"
#include "run/run_summary.h"
#include "workload.h"
#include "zoned.h"

namespace ssdvp {

class SsdSoc;
class HostMemory;
class HostDriver;
class Scoreboard;
class GcMonitor;
class HostFtlRun;
namespace fs {
class HeldDiscards;
}

using SummaryFn = std::function<nlohmann::json(const SummaryInput&)>;

// What a component attaches to, and what components leave for the run's
// phases and for one another.
struct RunContext {
  Config& cfg;       // the run's config
  Config& host_cfg;  // flow 0's (the run's own without flows)
  const RunPlan& plan;
  SsdSoc& soc;
  HostMemory& mem;
  Scoreboard& sb;
  HostDriver& host;
  RunKeys& keys;                     // what preconditioning takes (the file-level host's layout adds to it)
  const ftl_stats& at_start;         // the firmware's counters when the timed part starts (set by then)
  std::vector<FlowSpec> flow_specs;  // flows.*: empty unless flows.count > 0 (taken by the flows component)
  std::function<void(const std::string& section, SummaryFn make)> contribute;  // a summary section, made at the end

  // Set by the drive's components (Phase::drive).
  bool host_bound = false;  // the host driver's queue is served (else it is bound to the drive itself)
  const host::ZoneGeometry* zones = nullptr;  // nvme.command_set zns: the namespace's zones
  HostFtlRun* host_ftl = nullptr;             // nvme.command_set open_channel: the host-level FTL
  FlowSet* flows = nullptr;                   // flows.count > 0: the host driver is flow 0
  // Set by the workload's layers.
  host::Workload* workload = nullptr;         // the run's workload, wrapped (set before Phase::host)
  const host::Workload* predictor = nullptr;  // host.streams autostream/lstm: the predicting layer
  fs::HeldDiscards* held = nullptr;           // workload.trace_discards: hold
  // Set by the host's components (Phase::host).
  GcMonitor* monitor = nullptr;  // the iostat/TRIM monitor (its time series goes to the outputs)
};

class RunComponent {
 public:
  virtual ~RunComponent() = default;
  // At build time, in table order: attach to the run, contribute a section.
  virtual void attach(RunContext& x) = 0;
  // The timed part begins: the SoC and the host driver have started.
  virtual void start() {}
  // A power cut (power.cut_at or each of power.cuts): stop this component's
  // processes before the cut; resume() restarts them after the recovery
  // (power.cuts only: power.cut_at ends the run).
  virtual void halt() {}
  virtual void resume() {}
};

// A row's `read` (if any) reads the component's keys whether or not the run
// has it: a build reads every key of the registry (params_test), so a bad
// value is refused whatever the run is made of.
struct ComponentRow {
  enum class Phase { drive, host };  // attached before the workload is built, or after
  const char* name;
  Phase phase;
  std::function<void(Config&)> read;
  std::function<bool(const RunPlan&, const SsdSoc&)> wanted;
  std::function<std::unique_ptr<RunComponent>()> make;
};

// The components, in the order they attach.
const std::vector<ComponentRow>& run_components();

struct WorkloadLayer {
  const char* name;
  std::function<void(RunContext&)> read;  // as ComponentRow::read
  std::function<bool(RunContext&)> wanted;
  std::function<std::unique_ptr<host::Workload>(RunContext&, std::unique_ptr<host::Workload>)> wrap;
};

// The workload's layers, innermost first.
const std::vector<WorkloadLayer>& workload_layers();

// nvme.command_set open_channel (host_ftl_run.cpp): the host-level FTL serves
// the host driver's queue and talks Open-Channel to the drive.
std::unique_ptr<RunComponent> make_host_ftl_run();
// nvme.command_set zns (zns_run.cpp): the host driver learns the zones.
std::unique_ptr<RunComponent> make_zns_run();
// The file-level host and its iostat/TRIM monitor (files_run.cpp).
std::unique_ptr<RunComponent> make_files_run();

// The host-level FTL as the run's phases use it (host_ftl_run.cpp).
class HostFtlRun : public RunComponent {
 public:
  virtual const ftl_stats& stats() const = 0;
  // In the host driver's thread before its replay: the FTL's init, then
  // `precondition` (timed, through the FTL), then the FTL starts.
  virtual void start_timed(const std::function<void()>& precondition) = 0;
  // What functional preconditioning writes through.
  virtual FuncFtl func_ftl() = 0;
};

}  // namespace ssdvp
