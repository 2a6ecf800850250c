// device.cpp - see device.h.
#include "run/device.h"

#include "run/device_summary.h"

namespace ssdvp {

Device::Device(const std::string& soc_name, Config& cfg) : soc_(std::make_unique<SsdSoc>(soc_name.c_str(), cfg)) {}

void Device::attach_memory(const std::string& name, uint64_t bytes) {
  mem_ = std::make_unique<HostMemory>(name.c_str(), bytes);
  soc_->nvme.host_dma.bind(mem_->tsock);
}

void Device::mark_start() {
  Controller& fw = soc_->cpu();
  at_start_ = fw.stats();
  at_start_gc_active_ns_ = fw.gc_active_ns(fw.firmware_time_ns());
  state_ = std::make_unique<DeviceState>(*soc_);
  state_->start(at_start_.free_blocks);
}

nlohmann::json Device::timed_summary(uint64_t span_ps) {
  Controller& fw = soc_->cpu();
  const ftl_stats s = fw.stats();
  const DeviceSummary d =
      DeviceSummary::between(fw, s, at_start_, at_start_gc_active_ns_, soc_->fw_config().slots_per_page);
  const FlashCtrl& fl = soc_->flash;
  nlohmann::json j = d.json();
  j.update({{"host_lba_reads", s.host_lba_reads - at_start_.host_lba_reads},
            {"gc_forced", s.gc_forced - at_start_.gc_forced},
            {"gc_events_lost", s.gc_events_lost - at_start_.gc_events_lost},
            {"free_blocks_min", s.free_blocks_min},
            {"write_stalls", s.write_stalls - at_start_.write_stalls},
            {"host_commands", s.host_cmds - at_start_.host_cmds},
            {"flash",
             {{"reads", fl.reads()},
              {"programs", fl.programs()},
              {"erases", fl.erases()},
              {"violations", fl.violations()},
              {"errors", fl.errors()}}},
            {"ftl", {{"spare", state_->spare_json(state_->free_pool_mean(), d.host)}}},
            {"dies", state_->dies_json(span_ps ? span_ps : 1)},
            {"fault", fw.fault()}});
  return j;
}

}  // namespace ssdvp
