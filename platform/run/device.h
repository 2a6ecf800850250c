// device.h - one complete SSD as a host sees it: the SoC with its own
// firmware, the host memory its DMA reaches, and the figures it had when the
// timed part of a run started. A single-device run (Simulation) and a RAID
// array (platform/array) build their devices the same way, so N devices in
// one SystemC process are N of these, each with its own Config (a copy with
// per-device overrides, or the run's own).
#pragma once

#include <memory>
#include <string>

#include <nlohmann/json.hpp>

#include "common/config.h"
#include "host/host_memory.h"
#include "run/device_state.h"
#include "soc/controller.h"
#include "soc/ssd_soc.h"

extern "C" {
#include "ftl.h"
}

namespace ssdvp {

class Device {
 public:
  // Builds the SoC "<soc_name>" from cfg (throws ConfigError naming a key).
  Device(const std::string& soc_name, Config& cfg);
  // Host memory (queues, buffers, MSI window) bound to the SoC's DMA port.
  void attach_memory(const std::string& name, uint64_t bytes);

  SsdSoc& soc() { return *soc_; }
  const SsdSoc& soc() const { return *soc_; }
  HostMemory& memory() { return *mem_; }

  // Records the firmware's figures: the timed part starts here.
  void mark_start();
  // Firmware figures over the timed part (since mark_start): a DeviceSummary
  // (WAF, host and GC writes, erases, GC victims and time, device_summary.h),
  // forced collections, and the flash and NVMe counters;
  // per-die idle time and free blocks ("dies") and the spare factor
  // ("ftl.spare") as a single run reports them. span_ps: the timed part.
  nlohmann::json timed_summary(uint64_t span_ps);
  // Per-die free blocks, sampled at every stats.interval of the timed part.
  void sample() { state_->sample(); }

 private:
  std::unique_ptr<SsdSoc> soc_;
  std::unique_ptr<HostMemory> mem_;
  ftl_stats at_start_{};
  uint64_t at_start_gc_active_ns_ = 0;
  std::unique_ptr<DeviceState> state_;
};

}  // namespace ssdvp
