// gc_monitor.cpp - see gc_monitor.h.
#include "host/gc_monitor.h"

#include <cstdio>
#include <fstream>
#include <stdexcept>

#include "fs/discard_source.h"
#include "nvme/nvme_ctrl.h"

extern "C" {
#include "ftl.h"
}

namespace ssdvp {

const char* to_string(GcMonitor::Policy p) {
  switch (p) {
    case GcMonitor::Policy::none: return "none";
    case GcMonitor::Policy::discard: return "discard";
    case GcMonitor::Policy::idle: return "idle";
    case GcMonitor::Policy::detector: return "detector";
    case GcMonitor::Policy::oracle: return "oracle";
  }
  return "?";
}

GcMonitor::Policy GcMonitor::parse_policy(Config& cfg) {
  const std::string p = cfg.get_choice("host.trim.policy");
  if (p == "discard") return Policy::discard;
  if (p == "idle") return Policy::idle;
  if (p == "detector") return Policy::detector;
  if (p == "oracle") return Policy::oracle;
  return Policy::none;
}

GcMonitor::GcMonitor(sc_core::sc_module_name nm, Config& cfg, NvmeCtrl& nvme, gcdetect::BlockStats& block,
                     fs::DiscardSource* discards)
    : sc_module(nm), nvme_(nvme), block_(block), discards_(discards), policy_(parse_policy(cfg)), dev_(1) {
  const bool want = cfg.get_bool("host.iostat.enable");
  interval_ps_ = cfg.get_time_ps("host.iostat.interval");
  const uint64_t window = cfg.get_u64("host.iostat.window");
  idle_ps_ = cfg.get_time_ps("host.trim.idle_time");
  batch_max_ = cfg.get_size("host.trim.batch_max");
  cpu_cost_ps_ = cfg.get_time_ps("host.detector.cpu_cost");
  label_threshold_ = cfg.get_double("host.detector.label_threshold");
  const std::string tree = cfg.get_string("host.detector.tree");
  if (interval_ps_ == 0) throw ConfigError("config key 'host.iostat.interval': must be positive");
  dev_ = gcdetect::RollingDeviation(window);
  if (policy_ != Policy::none && !discards_)
    throw ConfigError(std::string("config key 'host.trim.policy': ") + to_string(policy_) +
                      " needs discards to hold: the file-level host (workload.source: files) or a trace's "
                      "(workload.trace_discards: hold)");
  if (policy_ == Policy::detector) {
    try {
      tree_ = std::make_unique<c45::Tree>(c45::Tree::load_file(tree));
    } catch (const c45::C45Error& e) {
      throw ConfigError(std::string("config key 'host.detector.tree': ") + e.what());
    }
    const auto names = gcdetect::feature_names();
    for (const auto& a : tree_->attributes()) {
      int k = -1;
      for (size_t i = 0; i < names.size(); ++i)
        if (names[i] == a.name) k = int(i);
      if (k < 0 || a.nominal)
        throw ConfigError("config key 'host.detector.tree': " + tree + ": attribute '" + a.name +
                          "' is not an iostat feature of the sampler");
      tree_cols_.push_back(k);
    }
    if (tree_->classes() != std::vector<std::string>{"idle", "gc"})
      throw ConfigError("config key 'host.detector.tree': " + tree + ": classes must be 'idle gc'");
  }
  enabled_ = want || policy_ == Policy::idle || policy_ == Policy::detector || policy_ == Policy::oracle;
  ftl_config fw;  // the firmware's defaults: its table, firmware/api/ftl_params.def
  ftl_config_default(&fw);
  if (enabled_ && cfg.get_u64("ftl.debug.gc_register", fw.debug_gc_register, "", 0, 1) == 0)
    throw ConfigError(
        "config key 'ftl.debug.gc_register': must be 1 when the iostat sampler runs (host.iostat.enable "
        "or host.trim.policy idle/detector/oracle): it is the firmware's GC label");
  if (enabled_) {
    SC_THREAD(run);
  }
}

GcMonitor::~GcMonitor() = default;

int GcMonitor::classify_step(const gcdetect::DiskCounters& cur, uint64_t interval_ps) {
  Row r{};
  return step(cur, interval_ps, &r);
}

int GcMonitor::step(const gcdetect::DiskCounters& cur, uint64_t interval_ps, Row* row) {
  Row& r = *row;
  r.f = gcdetect::iostat_fields(prev_, cur, interval_ps);
  r.dev = dev_.push(r.f);
  prev_ = cur;
  if (!tree_) return -1;
  feat_.resize(tree_cols_.size());
  for (size_t i = 0; i < tree_cols_.size(); ++i) {
    const size_t k = size_t(tree_cols_[i]);
    feat_[i] = k < gcdetect::kIostatFields ? r.f[k] : r.dev[k - gcdetect::kIostatFields];
  }
  ++classifications_;
  return tree_->classify(feat_.data());
}

void GcMonitor::run() {
  wait(start_ev_);
  const uint64_t t0 = sc_core::sc_time_stamp().value();
  prev_ = block_.snapshot(t0);
  prev_gc_ps_ = nvme_.debug_gc_active_ps(t0);
  last_ps_ = t0;
  for (uint64_t k = 1;; ++k) {
    const uint64_t due = t0 + k * interval_ps_;
    const uint64_t now = sc_core::sc_time_stamp().value();
    if (due > now) wait(sc_core::sc_time::from_value(due - now));
    sample(due);
  }
}

void GcMonitor::sample(uint64_t now) {
  const uint64_t itv = now - last_ps_;
  const gcdetect::DiskCounters cur = block_.snapshot(now);
  const uint64_t gc = nvme_.debug_gc_active_ps(now);
  Row r{};
  r.time_s = double(rows_.size() + 1) * double(interval_ps_) * 1e-12;
  r.gc_frac = itv ? double(gc - prev_gc_ps_) / double(itv) : 0;
  const uint64_t util_ps = cur.io_ticks_ps - prev_.io_ticks_ps;
  r.predicted = step(cur, itv, &r);  // the fields against prev_, which it advances
  prev_gc_ps_ = gc;
  last_ps_ = now;
  bool trigger = false;
  switch (policy_) {
    case Policy::idle:
      idle_run_ps_ = util_ps == 0 ? idle_run_ps_ + itv : 0;
      trigger = idle_run_ps_ >= idle_ps_;
      if (trigger) idle_run_ps_ = 0;
      break;
    case Policy::detector: trigger = r.predicted == 1; break;
    case Policy::oracle: trigger = r.gc_frac >= label_threshold_ && r.gc_frac > 0; break;
    default: break;
  }
  if (trigger && discards_) {
    if (policy_ == Policy::detector && cpu_cost_ps_) wait(sc_core::sc_time::from_value(cpu_cost_ps_));
    r.trim_bytes = discards_->trim_pending(batch_max_);
    if (r.trim_bytes) {
      ++trim_batches_;
      trim_bytes_ += r.trim_bytes;
    }
  }
  rows_.push_back(r);
}

void GcMonitor::write_csv(const std::string& path) const {
  std::ofstream f(path);
  f << "time_s";
  for (const auto& n : gcdetect::feature_names()) f << ',' << n;
  f << ",gc_frac,predicted,trim_bytes\n";
  char b[64];
  for (const Row& r : rows_) {
    std::snprintf(b, sizeof b, "%.6f", r.time_s);
    f << b;
    for (double v : r.f) {
      std::snprintf(b, sizeof b, ",%.6g", v);
      f << b;
    }
    for (double v : r.dev) {
      std::snprintf(b, sizeof b, ",%.6g", v);
      f << b;
    }
    std::snprintf(b, sizeof b, ",%.6f,%d,%llu\n", r.gc_frac, r.predicted, (unsigned long long)r.trim_bytes);
    f << b;
  }
  if (!f) throw std::runtime_error("cannot write " + path);
}

}  // namespace ssdvp
