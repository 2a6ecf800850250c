// files_run.cpp - the file-level host (workload.source files: a file system
// on the drive, fs/personalities.h) and the iostat/TRIM monitor
// (host/gc_monitor.h) every run has, started when enabled.
#include "fs/held_discards.h"
#include "fs/personalities.h"
#include "host/gc_monitor.h"
#include "host/host_driver.h"
#include "run/journal_summary.h"
#include "run/power_loss.h"
#include "run/run_component.h"
#include "soc/ssd_soc.h"

namespace ssdvp {

namespace {

class FilesComponent : public RunComponent {
 public:
  void attach(RunContext& x) override;
  void start() override {
    if (monitor_->enabled()) monitor_->start();
  }
  void halt() override { halt_processes(*monitor_); }
  void resume() override { resume_processes(*monitor_); }

 private:
  void attach_files(RunContext& x);
  fs::FileWorkload* files_ = nullptr;
  fs::HeldDiscards* held_ = nullptr;
  std::unique_ptr<GcMonitor> monitor_;
};

void FilesComponent::attach(RunContext& x) {
  files_ = dynamic_cast<fs::FileWorkload*>(x.workload);
  held_ = x.held;
  if (files_) attach_files(x);
  if (held_) x.host.set_prefetch(1);  // TRIMs released by the policy go out promptly
  fs::DiscardSource* discards = files_;
  if (held_) discards = held_;
  monitor_ = std::make_unique<GcMonitor>("gcmon", x.cfg, x.soc.nvme, x.host.block_stats(), discards);
  x.monitor = monitor_.get();
  if (files_ || held_ || monitor_->enabled())
    x.contribute("trim",
                 [this](const SummaryInput& s) { return summary_trim(*monitor_, files_, held_, s.soc.lba_size()); });
  if (files_ && files_->journal())
    x.contribute("journal", [this](const SummaryInput& s) {
      return journal_summary(*files_->journal(), s.h.fsync_latency, s.soc.lba_size());
    });
}

void FilesComponent::attach_files(RunContext& x) {
  const uint32_t classes = x.soc.fw_config().hot_classes;
  x.keys.wl_requests += files_->setup_requests();  // the fileset is laid out as preconditioning
  x.host.set_prefetch(1);                          // TRIMs queued by the policy go out promptly
  files_->set_clock([] { return uint64_t(sc_core::sc_time_stamp().value()); });  // the journal's commit timer
  if (const fs::Journal* jn = files_->journal(); jn && jn->spec().stream) {      // tagged journal: Streams directive
    if (jn->spec().stream > classes)
      throw ConfigError("config key 'host.files.journal_stream': " + std::to_string(jn->spec().stream) +
                        " is above the device's streams (ftl.hot.classes = " + std::to_string(classes) + ")");
    x.host.set_streams(classes);
  }
}

}  // namespace

std::unique_ptr<RunComponent> make_files_run() { return std::make_unique<FilesComponent>(); }

}  // namespace ssdvp
