// run_plan.cpp - the run plan and its table of refused combinations (run_plan.h).
#include "run/run_plan.h"

#include "soc/ftl_params.h"

#include <sstream>

namespace ssdvp {

namespace {

bool single(const RunPlan& p) { return p.entry != RunEntry::array; }  // one SSD (run or serve)
bool saved(const RunPlan& p) { return p.save_state || p.load_state; }
bool zns(const RunPlan& p) { return single(p) && p.command_set == "zns"; }
bool open_channel(const RunPlan& p) { return single(p) && p.command_set == "open_channel"; }
bool flows(const RunPlan& p) { return single(p) && p.flows > 0; }

}  // namespace

RunPlan RunPlan::read(Config& cfg, RunEntry entry) {
  RunPlan p;
  p.entry = entry;
  p.keys = RunKeys::read(cfg);
  p.power = PowerKeys::read(cfg);
  p.command_set = read_ftl_choice(cfg, "nvme.command_set");
  p.source = cfg.get_choice("workload.source");
  p.flows = cfg.get_u64("flows.count");
  p.streams = cfg.get_choice("host.streams");
  p.ext4_layout = !cfg.get_string("host.files.ext4.layout").empty();
  p.trim_policy = cfg.get_choice("host.trim.policy");
  p.hold_discards = cfg.get_choice("workload.trace_discards") == "hold";
  p.drop_leading = cfg.get_choice("workload.leading_discards") == "drop";
  p.detector_tree = !cfg.get_string("host.detector.tree").empty();
  p.time_limit = cfg.get_time_ps("host.time_limit") != 0;
  p.files_loops = cfg.get_u64("host.files.loops") != 0;
  p.loops = cfg.get_u64("workload.loops");
  p.loop_gap = cfg.get_time_ps("workload.loop_gap") != 0;
  p.lba_wrap = cfg.get_bool("host.lba_wrap");
  for (const char* k : {"flash.fault.program_fail_rate", "flash.fault.erase_fail_rate", "flash.ecc.rber",
                        "flash.ecc.rber_per_pe", "flash.ecc.rber_per_hour", "flash.ecc.rber_per_read"})
    if (cfg.get_double(k) != 0) p.media_faults.push_back(k);
  if (!cfg.get_string("flash.fault.fail_blocks").empty()) p.media_faults.push_back("flash.fault.fail_blocks");
  return p;
}

RunPlan::Start RunPlan::start() const {
  if (load_state) return Start::loaded;
  return preconditions() ? Start::preconditioned : Start::fresh;
}

namespace {

using P = const RunPlan&;

// The rows, most specific first: a config that breaks several hears of the first.
const PlanRule kRules[] = {
    // What interrupts the run.
    {"power.cuts", false, "power.cut_at", "one or the other", "power.cuts=2 power.cut_at=1ms",
     [](P p) { return p.power.cuts && p.power.cut_ps; }},
    // The zoned personality: the drive has no LBA map and no zone-state recovery.
    {"flows.count", false, "nvme.command_set zns", "one host writes the zones",
     "nvme.command_set=zns precondition.fill=0 flows.count=2", [](P p) { return zns(p) && p.flows; }},
    {"power.cut_at", false, "nvme.command_set zns", "no zone-state recovery yet",
     "nvme.command_set=zns precondition.fill=0 power.cut_at=1ms", [](P p) { return zns(p) && p.power.cut_ps; }},
    {"power.cuts", false, "nvme.command_set zns", "no zone-state recovery yet",
     "nvme.command_set=zns precondition.fill=0 power.cuts=2", [](P p) { return zns(p) && p.power.cuts; }},
    {"precondition.fill", false, "nvme.command_set zns", "the drive has no LBA map to fill functionally; set it to 0",
     "nvme.command_set=zns", [](P p) { return zns(p) && p.keys.fill != 0; }},
    {"precondition.random_drive_writes", false, "nvme.command_set zns",
     "the drive has no LBA map to fill functionally; set it to 0",
     "nvme.command_set=zns precondition.fill=0 precondition.random_drive_writes=1",
     [](P p) { return zns(p) && p.keys.random_dw != 0; }},
    {"precondition.workload_fraction", false, "nvme.command_set zns",
     "the drive has no LBA map to fill functionally; set it to 0",
     "nvme.command_set=zns precondition.fill=0 precondition.workload_fraction=0.5",
     [](P p) { return zns(p) && p.keys.wl_fraction != 0; }},
    {"precondition.workload_requests", false, "nvme.command_set zns", "the drive has no LBA map to fill functionally",
     "nvme.command_set=zns precondition.fill=0 "
     "precondition.workload_requests=10",
     [](P p) { return zns(p) && p.keys.wl_requests != 0; }},
    {"workload.source", true, "zoned needs nvme.command_set zns", "a zoned log writes a zoned namespace's zones",
     "workload.source=zoned", [](P p) { return p.source == "zoned" && (p.entry == RunEntry::array || !zns(p)); }},
    // The open-channel personality: one host FTL on one host; its recovery is functional only.
    {"flows.count", false, "nvme.command_set open_channel", "one host FTL, one host",
     "nvme.command_set=open_channel flows.count=2", [](P p) { return open_channel(p) && p.flows; }},
    {"power.cut_at", false, "nvme.command_set open_channel in a timed run",
     "the host FTL's recovery runs on the functional drive only: firmware_host_ftl_power_test",
     "nvme.command_set=open_channel power.cut_at=1ms", [](P p) { return open_channel(p) && p.power.cut_ps; }},
    {"power.cuts", false, "nvme.command_set open_channel in a timed run",
     "the host FTL's recovery runs on the functional drive only: firmware_host_ftl_power_test",
     "nvme.command_set=open_channel power.cuts=2", [](P p) { return open_channel(p) && p.power.cuts; }},
    {"nvme.command_set", false, "--save-state or --load-state",
     "open_channel keeps its FTL on the host, which a saved drive does not carry",
     "nvme.command_set=open_channel --save-state", [](P p) { return open_channel(p) && saved(p); }},
    // Flows: several hosts, each with its own queues, workload and LBA range.
    {"power.cuts", false, "flows (flows.count > 0)", "each flow's queues would have to be made again",
     "flows.count=2 power.cuts=2", [](P p) { return flows(p) && p.power.cuts; }},
    {"power.cut_at", false, "flows (flows.count > 0)", "each flow's queues would have to be made again",
     "flows.count=2 power.cut_at=1ms", [](P p) { return flows(p) && p.power.cut_ps; }},
    {"host.streams", false, "flows (flows.count > 0)", "the stream layers wrap one host's workload",
     "flows.count=2 host.streams=random", [](P p) { return flows(p) && p.streams != "none"; }},
    {"precondition.workload_requests", false, "flows (flows.count > 0)", "each flow's workload is its own",
     "flows.count=2 precondition.workload_requests=10", [](P p) { return flows(p) && p.keys.wl_requests; }},
    {"precondition.workload_fraction", false, "flows (flows.count > 0)", "each flow's workload is its own",
     "flows.count=2 precondition.workload_fraction=0.5", [](P p) { return flows(p) && p.keys.wl_fraction > 0; }},
    {"host.lba_wrap", false, "flows (flows.count > 0)", "each flow folds its requests into its LBAs",
     "flows.count=2 host.lba_wrap=false", [](P p) { return flows(p) && !p.lba_wrap; }},
    // Streams.
    {"host.streams", false, "workload.source: files",
     "the file-level workload takes no stream IDs: oracle cannot pre-read it, and autostream/lstm would hide it "
     "from its TRIM policy",
     "workload.source=files host.time_limit=1s host.streams=oracle",
     [](P p) { return p.source == "files" && p.streams != "none"; }},
    {"host.files.ext4.layout", true, "required with host.streams: journal",
     "the file system's layout: dumpe2fs -h and debugfs -R \"stat <8>\" output",
     "workload.source=trace host.streams=journal", [](P p) { return p.streams == "journal" && !p.ext4_layout; }},
    {"power.cuts", false, "host.streams", "the Streams directive would have to be enabled again",
     "host.streams=random power.cuts=2", [](P p) { return single(p) && p.power.cuts && p.streams != "none"; }},
    // The file-level host.
    {"precondition.workload_fraction", false, "workload.source: files",
     "the fileset is laid out as preconditioning; use host.files.loops",
     "workload.source=files host.time_limit=1s precondition.workload_fraction=0.5",
     [](P p) { return single(p) && p.source == "files" && p.keys.wl_fraction > 0; }},
    {"host.time_limit", true, "required with workload.source: files unless host.files.loops is set",
     "a file-level host runs its flowops until stopped", "workload.source=files",
     [](P p) { return p.entry == RunEntry::run && p.source == "files" && !p.time_limit && !p.files_loops; }},
    {"host.detector.tree", true, "required with host.trim.policy: detector",
     "the detector's C4.5 tree, from ssdvp_c45 train",
     "workload.source=files host.time_limit=1s host.trim.policy=detector",
     [](P p) { return single(p) && p.trim_policy == "detector" && !p.detector_tree; }},
    // A trace's discards held for the TRIM policy (fs/held_discards.h).
    {"workload.trace_discards", true, "needs workload.source: trace", "only a replayed trace has discards to hold",
     "workload.trace_discards=hold", [](P p) { return p.hold_discards && p.source != "trace"; }},
    {"workload.leading_discards", true, "needs workload.source: trace", "only a replayed trace has discards to drop",
     "workload.leading_discards=drop", [](P p) { return p.drop_leading && p.source != "trace"; }},
    {"workload.trace_discards", false, "flows (flows.count > 0) or an array",
     "the TRIM policy serves one host's workload on one drive",
     "flows.count=2 workload.source=trace workload.trace_discards=hold",
     [](P p) { return p.hold_discards && (flows(p) || p.entry == RunEntry::array); }},
    {"workload.trace_discards", false, "host.trim.policy: discard",
     "discard sends a trace's discards as recorded: use workload.trace_discards: send",
     "workload.source=trace workload.trace_discards=hold host.trim.policy=discard",
     [](P p) { return single(p) && p.hold_discards && p.trim_policy == "discard"; }},
    // A looped trace's quiet time between passes (host/workload/looped.cpp).
    {"workload.loop_gap", true, "needs workload.source: trace with workload.loops other than 1",
     "it is the quiet time between the passes of a looped trace", "workload.source=trace workload.loop_gap=1s",
     [](P p) { return single(p) && !flows(p) && p.loop_gap && (p.source != "trace" || p.loops == 1); }},
    // ssdvp serve: the requests come from NBD clients.
    {"host.time_limit", false, "ssdvp serve", "the requests come from clients", "ssdvp serve host.time_limit=1s",
     [](P p) { return p.entry == RunEntry::serve && p.time_limit; }},
    {"precondition.workload_requests", false, "ssdvp serve", "the requests come from clients",
     "ssdvp serve precondition.workload_requests=10",
     [](P p) { return p.entry == RunEntry::serve && p.keys.wl_requests; }},
    {"precondition.workload_fraction", false, "ssdvp serve", "the requests come from clients",
     "ssdvp serve precondition.workload_fraction=0.5",
     [](P p) { return p.entry == RunEntry::serve && p.keys.wl_fraction > 0; }},
    {"host.streams", false, "ssdvp serve (oracle)", "the oracle reads the whole workload ahead; a client's is unknown",
     "ssdvp serve host.streams=oracle", [](P p) { return p.entry == RunEntry::serve && p.streams == "oracle"; }},
    {"workload.trace_discards", false, "ssdvp serve", "a client's discards are answered as they come",
     "ssdvp serve workload.source=trace workload.trace_discards=hold",
     [](P p) { return p.entry == RunEntry::serve && p.hold_discards; }},
    // Saved drives (docs/state.md).
    {"--save-state/--load-state", false, "array.level", "a saved drive is one SSD", "array.level=raid5 --save-state",
     [](P p) { return p.entry == RunEntry::array && saved(p); }},
    {"--save-state", false, "--load-state", "the loaded drive is already saved", "--save-state --load-state",
     [](P p) { return p.save_state && p.load_state; }},
    {"--precondition-only", true, "needs --save-state DIR", "it saves the drive and stops", "--precondition-only",
     [](P p) { return p.precondition_only && !p.save_state; }},
    {"power.cut_at", false, "--save-state or --load-state", "not built; power.cuts works after a load",
     "power.cut_at=1ms --save-state", [](P p) { return single(p) && saved(p) && p.power.cut_ps; }},
};

// The media-fault model's random-number state and per-block read counts are not saved.
std::vector<PlanRule> media_fault_rules() {
  std::vector<PlanRule> r;
  for (const char* k :
       {"flash.fault.program_fail_rate", "flash.fault.erase_fail_rate", "flash.ecc.rber", "flash.ecc.rber_per_pe",
        "flash.ecc.rber_per_hour", "flash.ecc.rber_per_read", "flash.fault.fail_blocks"}) {
    const std::string key = k;
    r.push_back({key, false, "--save-state or --load-state",
                 "a saved drive does not carry the media-fault model's state",
                 key + (key == "flash.fault.fail_blocks" ? "=7" : "=0.001") + " --save-state", [key](P p) {
                   if (!single(p) || !saved(p)) return false;
                   for (const auto& f : p.media_faults)
                     if (f == key) return true;
                   return false;
                 }});
  }
  return r;
}

}  // namespace

const std::vector<PlanRule>& plan_rules() {
  static const std::vector<PlanRule> rules = [] {
    std::vector<PlanRule> r(std::begin(kRules), std::end(kRules));
    for (auto& m : media_fault_rules()) r.push_back(std::move(m));
    return r;
  }();
  return rules;
}

std::string plan_rule_message(const PlanRule& r) {
  const std::string key = r.key;
  const std::string who = key.rfind("--", 0) == 0 ? key : "config key '" + key + "'";
  return who + ": " + (r.needs ? "" : "not with ") + r.with + " (" + r.why + ")";
}

void RunPlan::check() const {
  for (const auto& r : plan_rules())
    if (r.broken(*this)) throw ConfigError(plan_rule_message(r));
}

std::string plan_rules_markdown() {
  std::ostringstream o;
  o << "| key | refused | why |\n|---|---|---|\n";
  for (const auto& r : plan_rules())
    o << "| `" << r.key << "` | " << (r.needs ? "" : "not with ") << r.with << " | " << r.why << " |\n";
  return o.str();
}

}  // namespace ssdvp
