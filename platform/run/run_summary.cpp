// run_summary.cpp - see run_summary.h.
#include "run/run_summary.h"

#include <sys/resource.h>

#include <algorithm>
#include <cstdio>

#include "cpu/cpu_native.h"
#include "fs/held_discards.h"
#include "fs/personalities.h"
#include "host/gc_monitor.h"
#include "host/host_driver.h"
#include "run/checkpoints.h"
#include "run/device_state.h"
#include "run/device_summary.h"
#include "soc/ssd_soc.h"
#include "stream_predict.h"
#include "workload.h"

namespace ssdvp {

ProcessUsage process_usage() {
  struct rusage ru {};
  getrusage(RUSAGE_SELF, &ru);
  const auto secs = [](const timeval& t) { return double(t.tv_sec) + double(t.tv_usec) / 1e6; };
  return {secs(ru.ru_utime) + secs(ru.ru_stime), double(ru.ru_maxrss) / 1024.0};
}

nlohmann::json summary_config(const Config& cfg) {
  nlohmann::json c = nlohmann::json::object();
  for (const auto& p : cfg.params()) c[p.key] = p.value;
  return c;
}

nlohmann::json summary_workload(const SummaryInput& x, const host::Workload& w, const std::string& desc,
                                uint64_t precondition_lba_writes) {
  return {{"description", desc},
          {"requests", x.h.requests},
          {"records_read", w.stats().records},
          {"skipped", w.stats().skipped()},
          // earlier than the previous record's time: issued at that time, in file order
          {"backwards_timestamps", w.stats().clamped},
          {"wrapped_requests", x.h.wrapped},
          {"precondition_lba_writes", precondition_lba_writes}};
}

nlohmann::json summary_host(const SummaryInput& x, const host::Workload* predictor) {
  using nlohmann::json;
  const HostResults& h = x.h;
  const double sim_s = double(h.end_ps - h.start_ps) * 1e-12;
  json errs = json::object();
  for (const auto& kv : h.errors_by_status) {
    char k[16];
    std::snprintf(k, sizeof k, "0x%03x", kv.first);
    errs[k] = kv.second;
  }
  const uint64_t ios = h.reads + h.writes;
  json j = {{"reads", h.reads},
            {"writes", h.writes},
            {"trims", h.trims},
            {"flushes", h.flushes},
            {"commands", h.commands},
            {"errors", h.errors},
            {"errors_by_status", errs},
            {"read_bytes", h.read_bytes},
            {"write_bytes", h.write_bytes},
            {"sim_time_s", sim_s},
            {"iops", sim_s > 0 ? double(ios) / sim_s : 0.0},
            {"bandwidth_mbps", sim_s > 0 ? double(h.read_bytes + h.write_bytes) / 1e6 / sim_s : 0.0}};
  // Little's law: time-weighted mean requests in the system per class (from
  // the start of their latency to completion) = throughput x mean latency.
  const double run_ps = double(h.end_ps - h.start_ps);
  auto per_run = [run_ps](double area) { return run_ps > 0 ? area / run_ps : 0.0; };
  if (predictor) j["predictor"] = host::predictor_summary(*predictor);
  j["in_system_mean"] = {{"read", per_run(h.in_system_ps[0])},
                         {"write", per_run(h.in_system_ps[1])},
                         {"other", per_run(h.in_system_ps[2])}};
  j["device_commands_mean"] = per_run(h.device_commands_ps);
  if (h.timeseries_truncated) j["timeseries_truncated"] = true;  // stats.max_rows reached
  return j;
}

nlohmann::json summary_ftl(const SummaryInput& x, const DeviceState& device) {
  const ftl_stats* s = x.s;
  Controller& fw = x.fw;
  uint32_t emin, emax;
  double emean;
  fw.erase_spread(&emin, &emean, &emax);
  DeviceSummary d;  // the host's writes, GC's from the time series (with power.cuts, across the cuts)
  d.host = x.host_timed;
  d.gc = x.gc_timed;
  d.meta = checkpoint_slots(*s, x.at_start, x.soc.fw_config().slots_per_page);  // 0: no checkpoints
  d.erases = x.erases_timed;
  d.gc_runs = x.victims_timed;
  d.gc_active_s = DeviceSummary::gc_active_since(fw, x.at_start_gc_active_ns);
  nlohmann::json invalid = nlohmann::json::array();  // GC victims by invalid share at choice, 20 % bins
  for (uint32_t b = 0; b < FTL_GC_INVALID_BINS; ++b)
    invalid.push_back(s->gc_victim_invalid[b] - x.at_start.gc_victim_invalid[b]);
  nlohmann::json j = d.json();
  j.update({{"gc_victim_invalid", invalid},
            {"erase_count", {{"min", emin}, {"mean", emean}, {"max", emax}}},
            {"free_blocks_min", s->free_blocks_min},
            {"dram_bytes", ftl_dram_bytes(&x.soc.fw_config())},  // the firmware's tables in the controller's DRAM
            {"write_stalls", s->write_stalls},                   // each retry of a waiting write
            {"write_stalled_commands", s->write_stalled_cmds},   // write commands that waited at least once
            {"pad_slots", s->pad_slots},
            {"blocks_closed_early", s->blocks_closed_early},
            {"trim_lbas", s->trim_lbas},
            {"gc_copybacks", s->gc_copybacks},  // ftl.gc.copyback (all of the run, preconditioning included)
            {"gc_copyback_capped", s->gc_copyback_capped},
            {"gc_paired", s->gc_paired},  // ftl.gc.pair_planes: victims started as a sibling of another
            {"mp_index_fallbacks", s->mp_index_fallbacks},    // flash.multiplane_same_block: blocks opened off index
            {"mp_index_splits", s->mp_index_splits},          // descriptors kept out of a group by the block index
            {"gc_copyback_partial", s->gc_copyback_partial},  // ftl.gc.copyback_min_valid: partly valid pages copied
            {"gc_copyback_stale", s->gc_copyback_stale},      // the stale slots they carried
            {"gc_schedule", summary_gc_schedule(x)},
            {"spare", device.spare_json(x.h, d.host)},
            {"lifetime",
             {{"host_lba_writes", s->host_lba_writes},
              {"gc_lba_writes", s->gc_lba_writes},
              {"erases", s->erases},
              {"gc_runs", s->gc_victims}}}});
  return j;
}

// ftl.gc.trigger over the timed part: GC episodes (a victim open from none to
// none), idle-time GC, AutoSSD's share (docs/outputs.md).
nlohmann::json summary_gc_schedule(const SummaryInput& x) {
  const ftl_stats* s = x.s;
  static const char* triggers[] = {"threshold", "watermarks", "idle", "autossd"};
  const uint32_t trig = x.soc.fw_config().gc_trigger;
  const uint64_t episodes = s->gc_episodes - x.at_start.gc_episodes;
  const uint64_t closed = s->gc_episodes_closed - x.at_start.gc_episodes_closed;
  const double closed_s = double(s->gc_episode_ns - x.at_start.gc_episode_ns) * 1e-9;
  const uint64_t updates = s->gc_auto_updates - x.at_start.gc_auto_updates;
  return {{"trigger", trig < 4 ? triggers[trig] : "?"},
          {"episodes", episodes},
          {"episodes_closed", closed},
          {"episode_mean_s", closed ? closed_s / double(closed) : 0.0},
          {"episode_max_s_since_power_on", double(s->gc_episode_max_ns) * 1e-9},
          {"idle_victims", s->gc_idle_victims - x.at_start.gc_idle_victims},
          {"idle_wakeups", s->gc_idle_wakeups - x.at_start.gc_idle_wakeups},
          {"autossd_updates", updates},
          {"autossd_share_mean",
           updates ? double(s->gc_auto_share_sum - x.at_start.gc_auto_share_sum) / double(updates) / 1000.0 : 0.0}};
}

// Placement over the timed part: host LBAs per class, classification
// rounds, wear migration, and the CPU time clustering took.
nlohmann::json summary_placement(const SummaryInput& x) {
  using nlohmann::json;
  const ftl_stats* s = x.s;
  json cls = json::array();
  json conf = json::array();
  const uint32_t classes = x.fw.classes();
  const Controller::Usage use = x.fw.usage();
  for (uint32_t i = 0; i < classes; ++i) {
    cls.push_back(s->class_lba_writes[i] - x.at_start.class_lba_writes[i]);
    json row = json::array();
    for (uint32_t k = 0; k <= FTL_MAX_CLASSES; ++k)
      row.push_back(s->class_by_stream[i][k] - x.at_start.class_by_stream[i][k]);
    conf.push_back(row);
  }
  double cluster_s = 0;
  for (enum fw_op op : {FW_OP_hot_record, FW_OP_hot_close_slice, FW_OP_kmeans_distance, FW_OP_kmeans_accumulate,
                        FW_OP_kmeans_divide, FW_OP_accel_pack})
    cluster_s += double(use.op_ps[op] - x.at_start_usage.op_ps[op]) * 1e-12;
  return {{"classes", classes},
          {"class_lba_writes", cls},
          {"class_by_stream", conf},
          {"cluster_runs", s->cluster_runs - x.at_start.cluster_runs},
          {"cluster_runs_total", s->cluster_runs},
          {"kmeans_iterations", s->kmeans_iterations - x.at_start.kmeans_iterations},
          {"monitor_cpu_s", cluster_s},
          {"wear_victims", s->wear_victims - x.at_start.wear_victims},
          {"wear_lba_writes", s->wear_lba_writes - x.at_start.wear_lba_writes}};
}

nlohmann::json summary_utilization(const SummaryInput& x) {
  const FlashCtrl& fl = x.soc.flash;
  const FlashGeometry& g = x.soc.geometry();
  double dsum = 0, dmax = 0, csum = 0;
  for (uint32_t d = 0; d < g.dies(); ++d) {
    const double u = double(fl.die_busy_ps(d)) / double(x.span);
    dsum += u;
    dmax = std::max(dmax, u);
  }
  for (uint32_t ch = 0; ch < g.channels; ++ch) csum += double(fl.channel_busy_ps(ch)) / double(x.span);
  return {{"die_mean", dsum / g.dies()},
          {"die_max", dmax},
          {"channel_mean", csum / g.channels},
          {"cpu", 1.0 - double(x.fw.usage().idle_ps) / double(x.span)}};
}

nlohmann::json summary_flash(const SummaryInput& x) {
  const FlashCtrl& fl = x.soc.flash;
  return {{"reads", fl.reads()},
          {"programs", fl.programs()},
          {"erases", fl.erases()},
          {"violations", fl.violations()},
          {"errors", fl.errors()},
          {"suspends", fl.suspends()},
          {"read_bypasses", fl.read_bypasses()},
          {"gc_preemptions", fl.gc_preemptions()},
          {"gc_holds", fl.gc_holds()},
          {"gc_held_ops", fl.gc_held_ops()},
          {"gc_held_wait_s", double(fl.gc_held_wait_ps()) * 1e-12},
          {"multiplane_ops", fl.multiplane_ops()},
          {"copybacks", fl.copybacks()},
          {"copybacks_dropping", fl.copybacks_dropping()}};
}

nlohmann::json summary_cpu(const SummaryInput& x) {
  const Controller::Usage cs = x.fw.usage();
  nlohmann::json ops = nlohmann::json::object();
  for (int op = 0; op < FW_OP_COUNT; ++op) {
    const uint64_t n = cs.ops[op] - x.at_start_usage.ops[op];
    if (n)
      ops[CpuNative::op_name(static_cast<enum fw_op>(op))] = {
          {"count", n}, {"time_s", double(cs.op_ps[op] - x.at_start_usage.op_ps[op]) * 1e-12}};
  }
  nlohmann::json j = {{"mode", x.fw.mode()},
                      {"compute_s", double(cs.compute_ps) * 1e-12},
                      {"bus_s", double(cs.bus_ps) * 1e-12},
                      {"idle_s", double(cs.idle_ps) * 1e-12},
                      {"wakeups", cs.wakeups},
                      {"bus_errors", cs.bus_errors},
                      {"instructions", cs.instructions},
                      {"ops", ops}};
  if (std::string(x.fw.mode()) == "iss") {  // the ISS counts its MMIO exits (native mode's summary unchanged)
    j["mmio_reads"] = cs.mmio_reads - x.at_start_usage.mmio_reads;
    j["mmio_writes"] = cs.mmio_writes - x.at_start_usage.mmio_writes;
  }
  return j;
}

nlohmann::json summary_accel(const SummaryInput& x) {
  return {{"core", x.soc.accel.core_kind()},
          {"jobs", x.soc.accel.jobs()},
          {"errors", x.soc.accel.errors()},
          {"busy_s", double(x.soc.accel.busy_ps()) * 1e-12}};
}

nlohmann::json summary_nvme(const SummaryInput& x) {
  const auto& ns = x.soc.nvme.stats();
  return {{"commands", ns.commands_fetched},           {"completions", ns.completions},
          {"error_completions", ns.error_completions}, {"interrupts", ns.msis},
          {"invalid_doorbells", ns.invalid_doorbells}, {"ring_errors", ns.ring_errors}};
}

// The file-level host and its TRIM/iostat monitor.
nlohmann::json summary_trim(const GcMonitor& monitor, const fs::FileWorkload* files, const fs::HeldDiscards* held,
                            uint32_t lba) {
  nlohmann::json t = {{"policy", to_string(monitor.policy())},
                      {"batches", monitor.trims_sent()},
                      {"policy_bytes", monitor.trim_bytes()},
                      {"classifications", monitor.classifications()},
                      {"samples", monitor.rows().size()}};
  if (files) {
    const auto& st = files->fs().stats();
    t["files"] = {{"personality_loops", files->loops_run()},
                  {"creates", st.creates},
                  {"deletes", st.deletes},
                  {"appends", st.appends},
                  {"overwrites", st.overwrites},
                  {"reads", st.reads},
                  {"deleted_bytes", st.deleted_blocks * lba},
                  {"trimmed_bytes", st.trimmed_blocks * lba},
                  {"pending_bytes_at_end", files->fs().pending().blocks() * lba},
                  {"free_bytes_at_end", files->fs().allocator().free_blocks() * lba}};
  }
  if (held) {
    const auto& st = held->held_stats();
    t["held"] = {{"trace_trims", st.held},
                 {"held_bytes", st.held_bytes},
                 {"reused_bytes", st.reused_bytes},
                 {"released", st.released},
                 {"released_bytes", st.released_bytes},
                 {"pending_bytes_at_end", held->pending_bytes()}};
  }
  return t;
}

}  // namespace ssdvp
