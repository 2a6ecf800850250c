// run_plan.h - what a run is made of, read from its config and command line
// before anything is built, and the one table of combinations ssdvp refuses.
//
// A run has three parts: what starts the drive (a fresh drive, one
// preconditioned functionally, or a saved drive loaded), what drives it (a
// trace, a generator, the file-level host, flows, an NBD client, an array's
// controller) and what interrupts it (one power cut, several, none). Some
// combinations are not built; each is one row of plan_rules() with the key
// it names and why, so a refusal reads the same wherever it is found and
// `ssdvp params --rules` (docs/params.md) lists them all.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "common/config.h"
#include "run/power_loss.h"
#include "run/precondition.h"

namespace ssdvp {

// Which command runs the config.
enum class RunEntry { run, serve, array };

struct RunPlan {
  RunEntry entry = RunEntry::run;
  // What starts the drive.
  enum class Start { fresh, preconditioned, loaded };
  bool save_state = false, load_state = false, precondition_only = false;  // --save-state, --load-state, ...
  RunKeys keys;  // precondition.* (and timeline.*), as the config sets them
  // The drive's personality and what drives it.
  std::string command_set = "nvm";   // nvme.command_set
  std::string source = "synthetic";  // workload.source
  uint64_t flows = 0;                // flows.count
  std::string streams = "none";      // host.streams
  bool ext4_layout = false;          // host.files.ext4.layout given
  std::string trim_policy = "none";  // host.trim.policy
  bool hold_discards = false;        // workload.trace_discards: hold
  bool drop_leading = false;         // workload.leading_discards: drop
  bool detector_tree = false;        // host.detector.tree given
  bool time_limit = false;           // host.time_limit > 0
  bool files_loops = false;          // host.files.loops > 0
  bool lba_wrap = true;              // host.lba_wrap
  uint64_t loops = 1;                // workload.loops
  bool loop_gap = false;             // workload.loop_gap > 0
  // What interrupts it.
  PowerKeys power;  // power.cut_at, power.cuts, ...
  // The media-fault model's keys that are set (a saved drive does not carry its state).
  std::vector<std::string> media_faults;

  // Reads the keys above (cfg has its keys declared: Config::declare_all).
  static RunPlan read(Config& cfg, RunEntry entry = RunEntry::run);
  Start start() const;
  bool preconditions() const {
    return keys.fill > 0 || keys.random_dw > 0 || keys.wl_fraction > 0 || keys.wl_requests > 0;
  }
  // Throws ConfigError for the first row of plan_rules() the plan breaks.
  void check() const;
};

// One combination that is refused (or one key another needs).
struct PlanRule {
  std::string key;      // what the error names: a config key, or a command-line option ("--save-state")
  bool needs;           // false: "KEY: not with WITH (WHY)"; true: "KEY: WITH (WHY)" (a requirement)
  std::string with;     // the other side, as a user writes it
  std::string why;      // the reason, one phrase
  std::string example;  // what breaks it: "k=v" settings, "--option"s, "ssdvp serve" (for docs and tests)
  std::function<bool(const RunPlan&)> broken;
};

const std::vector<PlanRule>& plan_rules();
// The error a rule's breach raises.
std::string plan_rule_message(const PlanRule& r);
// The rules as a markdown table (ssdvp params --rules).
std::string plan_rules_markdown();

}  // namespace ssdvp
