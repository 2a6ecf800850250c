// flows.h - several hosts (MQSim's "flows") sharing one SSD, each with its
// own NVMe I/O queue pair, workload, queue depth, priority class, start and
// stop time, and its own statistics.
//
// Configuration: flows.count N (0: one host, the platform's default) and
// per flow i in 0..N-1:
//   flows.<i>.name      label in the summary (default flow<i>)
//   flows.<i>.priority  urgent|high|medium|low: QPRIO of its SQ (used when
//                       the controller arbitrates with nvme.arbitration: wrr)
//   flows.<i>.start     first arrival no earlier than this (open loop only)
//   flows.<i>.stop      no new request after this (0: the whole workload)
//   flows.<i>.share     fraction of the namespace it owns (0: an equal part
//                       of what the others leave); flows own disjoint LBA
//                       ranges in flow order, so every read has one
//                       expected content
//   flows.<i>.offset    where its LBAs begin (fraction of the namespace;
//                       unset: after the flow before): placed flows may
//                       overlap others, and then reads are checked by
//                       shared_lbas.h's rule (share 0: to the end)
//   flows.<i>.stop_queues keep|drain|abort: at its stop, keep its queue
//                       pair (default), or delete it (Delete I/O SQ then CQ)
//                       once its commands completed, or at once with them
//                       outstanding (host_stop.cpp states the rule)
//   flows.<i>.<key>     any workload.* key, host.queue_depth, host.mode or
//                       host.submit, for this flow only (the rest of the
//                       configuration is shared)
// Flow i uses I/O queue pair i + 1, created by flow 0's driver over the admin
// queue (Create I/O CQ, Create I/O SQ with the flow's QPRIO) before any flow
// starts; with any of flows.arbitration_burst, flows.weight_{high,medium,low}
// set it also sends Set Features Arbitration (01h).
#pragma once

#include <systemc>
#include <tlm>
#include <tlm_utils/multi_passthrough_target_socket.h>
#include <tlm_utils/simple_initiator_socket.h>

#include <exception>
#include <functional>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "common/config.h"
#include "host/host_driver.h"
#include "nvme/nvme_arbiter.h"
#include "workload.h"

namespace ssdvp {

class HostMemory;
class NvmeCtrl;
class Scoreboard;

struct FlowSpec {
  std::string name;
  NvmeArbiter::Priority priority = NvmeArbiter::medium;
  uint64_t start_ps = 0, stop_ps = 0;
  enum class StopQueues { keep, drain, abort } stop_queues = StopQueues::keep;
  HostQueue queue;
  std::unique_ptr<Config> cfg;  // the shared configuration with this flow's keys
};

// Reads flows.*; empty when flows.count is 0. A bad flow key is a
// ConfigError naming it.
std::vector<FlowSpec> read_flows(Config& cfg, uint64_t lbas);

// Every doorbell write of several drivers into the controller's one BAR.
class DoorbellFanIn : public sc_core::sc_module {
 public:
  tlm_utils::multi_passthrough_target_socket<DoorbellFanIn> in;
  tlm_utils::simple_initiator_socket<DoorbellFanIn> out;
  explicit DoorbellFanIn(sc_core::sc_module_name n);

 private:
  void b_transport(int /*id*/, tlm::tlm_generic_payload& tx, sc_core::sc_time& delay) { out->b_transport(tx, delay); }
};

class FlowSet {
 public:
  using WorkloadFactory = std::function<std::unique_ptr<host::Workload>(Config& cfg, uint64_t bytes)>;
  // `first` is flow 0's driver (the runner's own); the others are built
  // here with their workloads. All doorbells go through one fan-in.
  FlowSet(std::vector<FlowSpec> specs, Config& cfg, HostDriver& first, HostMemory& mem, NvmeCtrl& nvme, Scoreboard& sb,
          uint32_t lba_size, uint32_t max_transfer, const WorkloadFactory& make);
  ~FlowSet();

  // Before start: every driver's finish ends in `all_done` once all have
  // finished; flows other than 0 sample the device with `sampler`.
  // Flow 0 replays `first_workload` (set on its driver by the runner).
  void prepare(std::function<void()> all_done, host::Workload* first_workload, std::function<DeviceSample()> sampler);
  size_t size() const { return specs_.size(); }
  const std::string& name(size_t i) const { return specs_[i].name; }
  HostDriver& driver(size_t i) { return i ? *drivers_[i - 1] : first_; }
  const HostDriver& driver(size_t i) const { return i ? *drivers_[i - 1] : first_; }
  bool finished() const;
  std::exception_ptr error() const;
  // Every flow's results summed (histograms merged; the time series row by
  // row, the device columns from the flow that ran longest).
  const HostResults& totals() const;
  // The per-flow section of summary.json.
  nlohmann::json summary() const;

 private:
  void create_queues();             // in flow 0's thread
  void use_shared(Scoreboard& sb);  // every driver checks reads by shared_lbas.h's rule
  bool overlap_ = false;            // some flows' LBA ranges overlap
  sc_core::sc_mutex admin_lock_;    // flows deleting their queues share flow 0's admin queue
  std::unique_ptr<SharedLbas> shared_;

  std::vector<FlowSpec> specs_;
  HostDriver& first_;
  NvmeCtrl& nvme_;
  bool set_arbitration_ = false;
  uint32_t arbitration_dw11_ = 0;
  bool user_interval_histograms_ = false;
  DoorbellFanIn fan_;
  std::vector<std::unique_ptr<HostDriver>> drivers_;        // flows 1..N-1
  std::vector<std::unique_ptr<host::Workload>> workloads_;  // theirs
  std::vector<std::unique_ptr<host::Workload>> wrapped_;    // rebased and delayed
  std::function<void()> all_done_;
  size_t done_ = 0;
  mutable std::unique_ptr<HostResults> totals_;
};

// The per-flow lines of the text summary (nothing without flows).
void print_flows_summary(const nlohmann::json& summary);

}  // namespace ssdvp
