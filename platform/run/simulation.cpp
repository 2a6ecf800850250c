// simulation.cpp - see simulation.h.
#include "run/simulation.h"

#include <chrono>
#include <cstdlib>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <random>

#include "host/flows.h"
#include "host/workload_views.h"
#include "host/gc_monitor.h"
#include "host/host_driver.h"
#include "host/host_memory.h"
#include "host/scoreboard.h"
#include "run/cut_counters.h"
#include "run/device.h"
#include "run/device_state.h"
#include "run/params.h"
#include "run/precondition.h"
#include "run/progress.h"
#include "run/reliability.h"
#include "run/run_outputs.h"
#include "run/run_summary.h"
#include "run/run_warnings.h"
#include "run/run_workload.h"
#include "run/timeline.h"
#include "run/timeline_attach.h"
#include "cpu/cpu_native.h"
#include "soc/ssd_soc.h"
#include "synthetic.h"
#include "workload.h"

#include "ssdvp_version.h"

namespace ssdvp {

std::string ssdvp_version() { return std::string(SSDVP_VERSION) + "+" + SSDVP_GIT; }

Simulation::Simulation(Config& cfg, RunEntry entry) : cfg_(cfg) {
  // Every key is known before any model reads one: a misspelt key is named
  // (with its near misses) before its default can make the platform invalid.
  cfg.declare_all(param_registry());
  cfg.check_unknown(true);
  plan_ = RunPlan::read(cfg, entry);  // a refused combination is named before anything is built (run_plan.h)
  plan_.check();
  progress_interval_ = cfg.get_double("log.progress_interval");  // read here: a bad value fails before the run
  build();
}

void Simulation::build() {
  Config& cfg = cfg_;
  // A drive without power-loss protection must not lose flushed data at a
  // cut: with ftl.gc.durable=0 a GC victim is erased while its relocated data
  // is still in page buffers. So power.plp=false implies ftl.gc.durable=1
  // unless that key is given (a deliberate experiment).
  if (!cfg.has("ftl.gc.durable") && !cfg.get_bool("power.plp")) cfg.set("ftl.gc.durable", "1");
  dev_ = std::make_unique<Device>("ssd0", cfg);
  soc_ = &dev_->soc();
  const uint64_t lbas = soc_->logical_lbas();
  dev_->attach_memory("host_mem", cfg.get_size("host.memory"));
  mem_ = &dev_->memory();
  sb_ = std::make_unique<Scoreboard>(lbas);
  auto flows = read_flows(cfg, lbas);  // flows.count > 0: several hosts (host/flows.h)
  Config& hcfg = flows.empty() ? cfg : *flows[0].cfg;
  const uint64_t host_lbas = flows.empty() ? lbas : flows[0].queue.lbas;
  HostQueue hq = flows.empty() ? HostQueue() : flows[0].queue;
  hq.create = hq.create && soc_->fw_config().command_set != FTL_CMDSET_OPEN_CHANNEL;  // served by the host FTL
  host_ = std::make_unique<HostDriver>("host", hcfg, *mem_, soc_->nvme, *sb_, soc_->lba_size(),
                                       soc_->fw_config().max_transfer_lbas, hq);
  keys_ = plan_.keys;  // the fileset's layout may add to its workload_requests (the files component)
  run_ = std::make_unique<RunContext>(
      RunContext{cfg, hcfg, plan_, *soc_, *mem_, *sb_, *host_, keys_, at_start_, std::move(flows),
                 [this](const std::string& s, SummaryFn make) { contributions_.emplace_back(s, std::move(make)); }});
  attach_components(ComponentRow::Phase::drive);  // the personality, flows, the firmware's sections
  if (!run_->host_bound) host_->pcie.bind(soc_->nvme.host_regs);

  plan_.power.check_cost(soc_->logical_lbas());
  if (!keys_.timeline.empty())
    timeline_ = std::make_unique<Timeline>(keys_.timeline, keys_.timeline_start, keys_.timeline_len);
  if (plan_.entry == RunEntry::serve) {  // live requests, through the same layers (LiveFeed)
    auto feed = std::make_unique<LiveFeed>();
    live_feed_ = feed.get();
    workload_ = std::move(feed);
  } else {
    workload_ = make_workload(hcfg, host_lbas * soc_->lba_size(), soc_->lba_size(), run_->zones, &expected_requests_);
  }
  for (const WorkloadLayer& l : workload_layers())
    if (l.read) l.read(*run_);
  for (const WorkloadLayer& l : workload_layers())
    if (l.wanted(*run_)) workload_ = l.wrap(*run_, std::move(workload_));
  run_->workload = workload_.get();
  workload_desc_ = workload_->describe();
  attach_components(ComponentRow::Phase::host);  // the file-level host, the GC monitor
  cfg.check_unknown();
}

// Every component of `phase` the run has, in table order (run_component.h).
void Simulation::attach_components(ComponentRow::Phase phase) {
  for (const ComponentRow& row : run_components()) {
    if (row.phase != phase) continue;
    if (row.read) row.read(cfg_);
    if (!row.wanted(plan_, *soc_)) continue;
    components_.push_back(row.make());
    components_.back()->attach(*run_);
  }
}

Simulation::~Simulation() = default;

const HostResults& Simulation::host_results() const { return run_->flows ? run_->flows->totals() : host_->results(); }
bool Simulation::host_finished() const { return run_->flows ? run_->flows->finished() : host_->finished(); }

uint64_t Simulation::run_timeline_events() const { return timeline_ ? timeline_->events() : 0; }

void Simulation::precondition() {
  const PreconditionTarget t{func_ftl(),
                             *sb_,
                             run_->host_ftl ? nullptr : &soc_->cpu(),
                             soc_->logical_lbas(),
                             soc_->fw_config().max_transfer_lbas,
                             soc_->lba_size(),
                             soc_->fw_config(),
                             host_->closed_loop()};
  precond_writes_ += precondition_drive(keys_, t, *workload_);
}

// nvme.command_set open_channel: the host FTL's init, timed preconditioning
// through it and its start, in the host's thread before its replay.
void Simulation::start_host_ftl() {
  host_->set_before_replay([this] {
    run_->host_ftl->start_timed([this] { precondition(); });
    device_->start(run_->host_ftl->stats().free_blocks);  // the free pool is the host FTL's
    at_start_activations_ = activation_counts();          // its timed preconditioning left out
  });
}

// What preconditioning writes through: the SoC's firmware or the host FTL.
FuncFtl Simulation::func_ftl() {
  if (run_->host_ftl) return run_->host_ftl->func_ftl();
  Controller& fw = soc_->cpu();
  return FuncFtl{[&fw](uint64_t lba, uint32_t n, const uint32_t* t, uint32_t s) { return fw.func_write(lba, n, t, s); },
                 [&fw](uint64_t lba, uint64_t n) { return fw.func_trim(lba, n); },
                 [&fw](uint32_t b) { return fw.func_set_gc_threshold(b); },
                 [&fw]() -> const ftl_stats& { return fw.stats(); },
                 [&fw](uint64_t ns) { fw.set_functional_time_ns(ns); }};
}

// A run's phases, in order: boot; start the drive (RunPlan::Start); begin the
// timed part; drive it to its end or through its power cuts; summarize.
RunOutcome Simulation::run() {
  const auto t0 = std::chrono::steady_clock::now();
  sc_core::sc_start(sc_core::SC_ZERO_TIME);
  soc_->boot();
  if (std::optional<RunOutcome> stopped = start_drive()) return *stopped;
  begin_timed();
  return drive(t0);
}

// The drive as the timed part finds it: loaded from a saved drive, or
// preconditioned (functionally through the firmware, or timed through the
// host FTL), and saved if asked. A value: the run ends here.
std::optional<RunOutcome> Simulation::start_drive() {
  if (state_.load_dir.empty() && state_.save_dir.empty()) {
    if (run_->host_ftl)
      start_host_ftl();  // timed, in the host's thread before its replay
    else
      precondition();
    return std::nullopt;
  }
  try {  // returned, not thrown, once SystemC ran (RunOutcome)
    if (plan_.start() == RunPlan::Start::loaded)
      load_drive_state();
    else
      precondition();
    if (!state_.save_dir.empty()) save_drive_state();
  } catch (const std::exception& e) {
    RunOutcome failed;
    failed.clean = false;
    failed.error = std::string(state_.load_dir.empty() ? "--save-state " : "--load-state ") + e.what();
    failed.input_error = !state_.load_dir.empty();
    return failed;
  }
  if (state_.precondition_only) return RunOutcome{};
  return std::nullopt;
}

// The firmware's figures at the start (the summary reports differences),
// the host's workload and sampler, the timeline, and every process started.
void Simulation::begin_timed() {
  {
    Controller& fw = soc_->cpu();
    at_start_ = fw.stats();
    at_start_gc_active_ns_ = fw.gc_active_ns(fw.firmware_time_ns());
    at_start_usage_ = fw.usage();
    at_start_activations_ = activation_counts();
    device_ = std::make_unique<DeviceState>(*soc_);
    device_->start(at_start_.free_blocks);
  }
  timed_ = make_rebased(*workload_);
  host_->set_workload(timed_.get());
  host_->set_sampler([this] {
    const ftl_stats* s = run_->host_ftl ? &run_->host_ftl->stats() : &soc_->cpu().stats();
    device_->sample();
    const ftl_stats& k = cut_carry_;  // 0 unless power.cuts (cut_counters.h)
    return DeviceSample{s->host_lba_writes + k.host_lba_writes, s->gc_lba_writes + k.gc_lba_writes,
                        s->erases + k.erases, s->gc_victims + k.gc_victims, s->free_blocks};
  });
  host_->set_on_finish([this] {
    soc_->stop();
    sc_core::sc_stop();
  });
  if (run_->flows)
    run_->flows->prepare(
        [this] { soc_->stop(), sc_core::sc_stop(); }, timed_.get(),
        [this] {
          const ftl_stats* s = &soc_->cpu().stats();
          return DeviceSample{s->host_lba_writes, s->gc_lba_writes, s->erases, s->gc_victims, s->free_blocks};
        });
  if (timeline_) attach_timeline(*timeline_, *soc_, *host_, run_->flows);
  soc_->cpu().on_stop = [this] {
    if (!soc_->cpu().fault().empty()) sc_core::sc_stop();  // a firmware fault ends the run
  };
  soc_->start();
  host_->start();
  for (auto& c : components_) c->start();
}

// The timed part to its end (or through power.cuts, or to power.cut_at),
// then the outcome: a failure, or the summary and whether the run was clean.
RunOutcome Simulation::drive(std::chrono::steady_clock::time_point t0) {
  std::vector<nlohmann::json> cuts;
  RunWarningFacts facts;
  facts.open_loop = !host_->closed_loop();
  facts.queue_depth = host_->queue_depth();
  if (plan_.power.cut_ps) {
    sb_->track_durability();
    sc_core::sc_start(sc_core::sc_time::from_value(plan_.power.cut_ps));
    if (!host_->finished() && host_->error() == nullptr && soc_->cpu().fault().empty()) return run_power_cut(t0);
    facts.cut_missed = true;
    facts.cut_at_s = double(plan_.power.cut_ps) * 1e-12;
  } else if (plan_.power.cuts) {
    cuts = run_power_cuts();
  } else {
    // the requests preconditioning took from the workload are not in the timed part
    const uint64_t pre =
        keys_.wl_requests ? keys_.wl_requests : uint64_t(keys_.wl_fraction * double(expected_requests_));
    run_until_stopped(progress_, progress_interval_, expected_requests_ > pre ? expected_requests_ - pre : 0,
                      [this] { return host_results().requests; });
  }
  if (!soc_->cpu().fault().empty()) {
    RunOutcome failed;
    failed.clean = false;
    failed.error = "firmware fault: " + soc_->cpu().fault();
    return failed;
  }
  if (const std::exception_ptr herr = run_->flows ? run_->flows->error() : host_->error()) {
    RunOutcome failed;
    failed.clean = false;
    try {
      std::rethrow_exception(herr);
    } catch (const std::exception& e) {
      failed.error = e.what();
    }
    return failed;
  }
  if (timeline_) timeline_->close();
  RunOutcome out;
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  out.summary = summarize(wall);
  out.clean = out.summary["integrity"]["mismatches"] == 0 && out.summary["flash"]["violations"] == 0 &&
              out.summary["cpu"]["bus_errors"] == 0 && host_finished();
  if (plan_.power.cuts) {
    out.summary["power"] = power_cuts_summary(cuts, plan_.power);
    out.clean = out.clean && out.summary["power"]["violations"] == 0;
  }
  add_run_warnings(out.summary, facts);
  return out;
}

// The run stopped at power.cut_at: its summary so far, then the cut, the
// recovery and the check (power_loss.h) in a "power" section.
RunOutcome Simulation::run_power_cut(std::chrono::steady_clock::time_point t0) {
  if (timeline_) timeline_->close();
  RunOutcome out;
  out.summary = summarize(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
  for (auto c = components_.rbegin(); c != components_.rend(); ++c) (*c)->halt();
  out.summary["power"] = power_cut_and_recover(*soc_, *host_, *sb_, plan_.power);
  out.clean = out.summary["integrity"]["mismatches"] == 0 && out.summary["flash"]["violations"] == 0 &&
              out.summary["cpu"]["bus_errors"] == 0 && out.summary["power"]["violations"] == 0;
  return out;
}

// One function per section: a new section is one function and one line here.
nlohmann::json Simulation::summarize(double wall_s) const {
  ftl_stats carried = soc_->cpu().stats();  // with power.cuts, what the cuts' recoveries lost added back
  add_counter_difference(carried, cut_carry_, ftl_stats{});
  SummaryInput x{host_results(), soc_->cpu(), &carried, *soc_, at_start_, at_start_gc_active_ns_, at_start_usage_};
  // FTL figures over the timed part only: subtract what preconditioning did.
  for (const auto& row : x.h.timeseries) {
    x.gc_timed += row.gc_lba_moves;
    x.erases_timed += row.erases;
    x.victims_timed += row.gc_victims;
  }
  x.host_timed = x.h.write_bytes / x.soc.lba_size();
  x.span = x.h.end_ps > 0 ? x.h.end_ps : 1;
  nlohmann::json j;
  j["ssdvp_version"] = ssdvp_version();
  j["config"] = summary_config(cfg_);
  j["workload"] = summary_workload(x, *workload_, workload_desc_, precond_writes_);
  j["host"] = summary_host(x, run_->predictor);
  j["latency_us"] = {{"read", latency_json(x.h.read_latency)}, {"write", latency_json(x.h.write_latency)}};
  if (x.h.flushes) j["latency_us"]["flush"] = latency_json(x.h.flush_latency);
  j["ftl"] = summary_ftl(x, *device_);
  j["placement"] = summary_placement(x);
  j["utilization"] = summary_utilization(x);
  j["dies"] = device_->dies_json(x.span);
  j["flash"] = summary_flash(x);
  j["cpu"] = summary_cpu(x);
  j["accel"] = summary_accel(x);
  j["nvme"] = summary_nvme(x);
  j["integrity"] = {{"reads_checked", sb_->checked()}, {"mismatches", sb_->mismatches()}};
  j["reliability"] = reliability_json(x.soc.flash, *x.s, at_start_);
  j["run"] = summary_run(x, wall_s);
  for (const auto& c : contributions_) j[c.first] = c.second(x);  // the features' own sections
  return j;
}

void Simulation::write_outputs(const std::string& dir, const RunOutcome& out) const {
  write_run_outputs(dir, out.summary, host_results(),
                    run_->monitor && run_->monitor->enabled() ? run_->monitor : nullptr);
}

nlohmann::json Simulation::summary_run(const SummaryInput& x, double wall_s) const {
  const ProcessUsage use = process_usage();
  return {{"wall_s", wall_s},
          {"cpu_s", use.cpu_s},
          {"host_ios_per_s", wall_s > 0 ? double(x.h.requests) / wall_s : 0.0},
          {"peak_rss_mb", use.peak_rss_mb},
          {"finished", host_finished()},
          {"delta_cycles", uint64_t(sc_core::sc_delta_count())},
          {"activations", activations(x)},
          {"time_limited", x.h.time_limited}};
}

// The models' own process activations since the timed replay began, stage
// by stage (docs/outputs.md): where the kernel's events go, without a
// profiler. A preconditioning that runs timed (the host FTL's) is left out.
nlohmann::json Simulation::activation_counts() const {
  uint64_t host = host_->thread_wakeups();
  for (size_t i = 1; run_->flows && i < run_->flows->size(); ++i) host += run_->flows->driver(i).thread_wakeups();
  const Controller::Usage u = soc_->cpu().usage();
  const auto& n = soc_->nvme.stats();
  return {{"host_thread", host},
          {"nvme_publish", n.publish_runs},
          {"nvme_irq", n.irq_runs},
          {"intc", soc_->intc.update_runs()},
          {"firmware_wakeups", u.wakeups},
          {"firmware_syncs", u.syncs},
          {"flash_completions", soc_->flash.completion_runs()}};
}

nlohmann::json Simulation::activations(const SummaryInput& x) const {
  nlohmann::json j = activation_counts();
  uint64_t total = 0;
  for (auto& [k, v] : j.items()) {
    const uint64_t at_start = at_start_activations_.contains(k) ? at_start_activations_[k].get<uint64_t>() : 0;
    v = v.get<uint64_t>() - at_start;
    total += v.get<uint64_t>();
  }
  j["total"] = total;
  j["per_host_io"] = x.h.requests ? double(total) / double(x.h.requests) : 0.0;
  return j;
}

}  // namespace ssdvp
