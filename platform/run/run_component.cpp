// run_component.cpp - the component and workload-layer tables (run_component.h),
// and the components small enough to live beside them.
#include "run/run_component.h"

#include "fs/held_discards.h"
#include "host/ftl/host_ftl_block.h"
#include "host/host_driver.h"
#include "host/oracle.h"
#include "run/checkpoints.h"
#include "run/mapping_summary.h"
#include "run/power_loss.h"
#include "run/run_workload.h"
#include "soc/ssd_soc.h"
#include "stream_log.h"
#include "stream_predict.h"

namespace ssdvp {

namespace {

// flows.count > 0: several hosts on one drive, the host driver is flow 0 (host/flows.h).
class FlowsComponent : public RunComponent {
 public:
  void attach(RunContext& x) override {
    SsdSoc& soc = x.soc;
    set_ = std::make_unique<FlowSet>(std::move(x.flow_specs), x.cfg, x.host, x.mem, soc.nvme, x.sb, soc.lba_size(),
                                     soc.fw_config().max_transfer_lbas, [&soc](Config& c, uint64_t bytes) {
                                       return make_workload(c, bytes, soc.lba_size());
                                     });
    x.flows = set_.get();
    x.host_bound = true;
    x.contribute("flows", [this](const SummaryInput&) { return set_->summary(); });  // per flow
  }
  void halt() override {
    for (size_t i = 1; i < set_->size(); ++i) halt_processes(set_->driver(i));
  }
  void resume() override {
    for (size_t i = 1; i < set_->size(); ++i) resume_processes(set_->driver(i));
  }

 private:
  std::unique_ptr<FlowSet> set_;
};

// The firmware's optional parts that report a section of their own.
class FirmwareSections : public RunComponent {
 public:
  void attach(RunContext& x) override {
    const ftl_config& fc = x.soc.fw_config();
    const ftl_stats& a = x.at_start;
    if (fc.mapping == FTL_MAP_CACHED)
      x.contribute("mapping", [&a](const SummaryInput& s) {  // cmt.c
        return mapping_summary(s.soc.fw_config(), *s.s, a, s.host_timed, s.gc_timed);
      });
    if (fc.ckpt_interval_ns || fc.ckpt_interval_lbas)
      x.contribute("checkpoints", [&a](const SummaryInput& s) { return checkpoint_json(s.soc.fw_config(), *s.s, a); });
    else if (ftl_trims_persistent(&fc))  // its own areas (trimlog.c)
      x.contribute("trim_log", [&a](const SummaryInput& s) { return trim_log_json(s.soc.fw_config(), *s.s, a); });
  }
};

template <class C>
std::unique_ptr<RunComponent> make() {
  return std::make_unique<C>();
}

bool always(const RunPlan&, const SsdSoc&) { return true; }

host::PredictSpec predict_spec(RunContext& x) {
  return host::PredictSpec::from_config(x.cfg, x.soc.logical_lbas(), x.soc.lba_size(), x.soc.fw_config().hot_classes);
}

// A stream policy: its layer, and the Streams directive enabled before the replay.
std::unique_ptr<host::Workload> streams_on(RunContext& x, std::unique_ptr<host::Workload> w) {
  x.host.set_streams(x.soc.fw_config().hot_classes);
  return w;
}

bool streams_are(RunContext& x, const char* policy) { return x.plan.streams == policy; }

}  // namespace

const std::vector<ComponentRow>& run_components() {
  using P = ComponentRow::Phase;
  static const std::vector<ComponentRow> rows = {
      {"host_ftl", P::drive, [](Config& c) { HostFtlBlock::Keys::read(c); },
       [](const RunPlan&, const SsdSoc& soc) { return soc.fw_config().command_set == FTL_CMDSET_OPEN_CHANNEL; },
       make_host_ftl_run},
      {"zns", P::drive, nullptr,
       [](const RunPlan&, const SsdSoc& soc) { return soc.fw_config().command_set == FTL_CMDSET_ZNS; }, make_zns_run},
      {"flows", P::drive, nullptr, [](const RunPlan& p, const SsdSoc&) { return p.flows > 0; }, make<FlowsComponent>},
      {"firmware_sections", P::drive, nullptr, always, make<FirmwareSections>},
      {"files", P::host, nullptr, always, make_files_run},
  };
  return rows;
}

const std::vector<WorkloadLayer>& workload_layers() {
  using W = std::unique_ptr<host::Workload>;
  static const std::vector<WorkloadLayer> rows = {
      {"held_discards", nullptr, [](RunContext& x) { return x.plan.hold_discards; },
       [](RunContext& x, W w) {  // workload.trace_discards: hold (a trace's: the run plan checked it)
         auto held = std::make_unique<fs::HeldDiscards>(std::move(w), x.soc.lba_size());
         x.held = held.get();
         return W(std::move(held));
       }},
      {"predicted", [](RunContext& x) { predict_spec(x); },
       [](RunContext& x) { return streams_are(x, "autostream") || streams_are(x, "lstm"); },
       [](RunContext& x, W w) {
         host::PredictSpec predict = predict_spec(x);
         predict.mode = x.plan.streams;
         w = host::make_predicted_streams(std::move(w), predict);
         x.predictor = w.get();  // (owned by the workload, whatever wraps it later)
         return streams_on(x, std::move(w));
       }},
      {"oracle", [](RunContext& x) { x.cfg.get_u64("host.oracle.max_requests"); },
       [](RunContext& x) { return streams_are(x, "oracle"); },
       [](RunContext& x, W w) {
         const SsdSoc& soc = x.soc;
         return streams_on(
             x, make_oracle_streams(std::move(w), soc.logical_lbas(), soc.lba_size(), soc.fw_config().hot_classes,
                                    x.cfg.get_u64("host.oracle.max_requests")));
       }},
      {"random", nullptr, [](RunContext& x) { return streams_are(x, "random"); },
       [](RunContext& x, W w) {
         const host::PredictSpec predict = predict_spec(x);
         return streams_on(x, host::make_random_streams(std::move(w), predict.streams, predict.seed));
       }},
      {"journal", nullptr, [](RunContext& x) { return streams_are(x, "journal"); },
       [](RunContext& x, W w) {
         return streams_on(x, make_journal_streams(x.cfg, std::move(w), x.soc.fw_config().hot_classes));
       }},
      {"stream_log", nullptr, [](RunContext& x) { return !x.cfg.get_string("host.streams_log").empty(); },
       [](RunContext& x, W w) { return host::make_stream_log(std::move(w), x.cfg.get_string("host.streams_log")); }},
  };
  return rows;
}

}  // namespace ssdvp
