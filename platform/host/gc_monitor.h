// gc_monitor.h - the host's iostat sampler, GC detector and TRIM policy.
//
// Once per host.iostat.interval of simulated time it computes the `iostat -x`
// fields of the device from the host driver's block-layer counters, their
// rolling average deviation, and the label: the fraction of the interval the
// firmware reported GC active on its debug register (NVME DBG_GC). The label
// is recorded for training and scoring; only the `oracle` policy acts on it.
// Then the TRIM policy (host.trim.policy) decides whether to send the file
// system's pending discards (the file-level host's, or a replayed trace's
// held back: fs/held_discards.h):
//   none      never;  discard   at delete (done by the file system itself);
//   idle      when %util was 0 for host.trim.idle_time;
//   detector  when the C4.5 tree (host.detector.tree) classifies the sample as GC;
//   oracle    when the label says GC was active (an upper bound for detector).
// The classification is charged host.detector.cpu_cost of simulated time
// before its TRIMs are queued.
#pragma once

#include <systemc>

#include <array>
#include <memory>
#include <string>
#include <vector>

#include "common/config.h"
#include "host/gcdetect/c45.h"
#include "host/gcdetect/iostat.h"

namespace ssdvp {

class NvmeCtrl;
namespace fs {
class DiscardSource;
}

class GcMonitor : public sc_core::sc_module {
 public:
  enum class Policy { none, discard, idle, detector, oracle };

  struct Row {
    double time_s;
    std::array<double, gcdetect::kIostatFields> f, dev;
    double gc_frac;
    int predicted;        // detector's class (1 gc, 0 idle), -1 without a detector
    uint64_t trim_bytes;  // pending discards queued after this sample
  };

  // Reads host.trim.*, host.iostat.*, host.detector.*; a policy other than
  // none needs `discards`: the file-level host (workload.source: files) or a
  // trace's held discards (workload.trace_discards: hold).
  GcMonitor(sc_core::sc_module_name name, Config& cfg, NvmeCtrl& nvme, gcdetect::BlockStats& block,
            fs::DiscardSource* discards);
  ~GcMonitor() override;

  // Whether the sampler runs at all (host.iostat.enable, or a policy that needs it).
  bool enabled() const { return enabled_; }
  static Policy parse_policy(Config& cfg);
  // Starts sampling at the current simulated time.
  void start() { start_ev_.notify(sc_core::SC_ZERO_TIME); }

  const std::vector<Row>& rows() const { return rows_; }
  // Writes the rows as CSV (header: time_s, the 34 features, gc_frac, predicted, trim_bytes).
  void write_csv(const std::string& path) const;
  uint64_t trims_sent() const { return trim_batches_; }
  uint64_t trim_bytes() const { return trim_bytes_; }
  uint64_t classifications() const { return classifications_; }
  const c45::Tree* tree() const { return tree_.get(); }
  Policy policy() const { return policy_; }

  // One sample step without SystemC (benchmarks, tests): features of `cur`
  // against the previous snapshot, classification; returns the predicted class.
  int classify_step(const gcdetect::DiskCounters& cur, uint64_t interval_ps);

 private:
  SC_HAS_PROCESS(GcMonitor);
  void run();
  void sample(uint64_t now);
  int step(const gcdetect::DiskCounters& cur, uint64_t interval_ps, Row* row);

  NvmeCtrl& nvme_;
  gcdetect::BlockStats& block_;
  fs::DiscardSource* discards_;
  Policy policy_;
  bool enabled_ = false;
  uint64_t interval_ps_, idle_ps_, cpu_cost_ps_, batch_max_;
  double label_threshold_;
  std::unique_ptr<c45::Tree> tree_;
  std::vector<int> tree_cols_;  // tree attribute -> feature index
  gcdetect::RollingDeviation dev_;
  gcdetect::DiskCounters prev_{};
  uint64_t prev_gc_ps_ = 0, last_ps_ = 0, idle_run_ps_ = 0;
  std::vector<Row> rows_;
  std::vector<double> feat_;
  sc_core::sc_event start_ev_;
  uint64_t trim_batches_ = 0, trim_bytes_ = 0, classifications_ = 0;
};

const char* to_string(GcMonitor::Policy p);

}  // namespace ssdvp
