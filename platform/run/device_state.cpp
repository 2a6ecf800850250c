#include "run/device_state.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>

#include "host/host_driver.h"
#include "soc/ssd_soc.h"

namespace ssdvp {

void DeviceState::start(uint32_t free_blocks) {
  start_free_ = free_blocks;
  samples_ = 0;
  started_ = false;
  free_sum_.assign(soc_.geometry().dies(), 0.0);
  free_min_.assign(soc_.geometry().dies(), UINT32_MAX);
}

void DeviceState::sample() {
  const ftl_config& c = soc_.fw_config();
  const uint64_t at = uint64_t(c.dram_base - SSDVP_DRAM_BASE) + ftl_die_free_offset(&c);
  const uint32_t dies = soc_.geometry().dies();
  if (free_sum_.size() != dies || at + uint64_t(dies) * 4 > soc_.dram.size()) return;
  if (!started_) {  // the host's first sample marks the start, as in the time series
    started_ = true;
    return;
  }
  for (uint32_t d = 0; d < dies; ++d) {
    uint32_t n;
    std::memcpy(&n, soc_.dram.data() + at + uint64_t(d) * 4, 4);
    free_sum_[d] += n;
    free_min_[d] = std::min(free_min_[d], n);
  }
  ++samples_;
}

nlohmann::json DeviceState::dies_json(uint64_t span_ps) const {
  nlohmann::json idle = nlohmann::json::array(), mean = nlohmann::json::array(), least = nlohmann::json::array();
  const uint32_t dies = soc_.geometry().dies();
  for (uint32_t d = 0; d < dies; ++d) {
    const uint64_t busy = std::min(soc_.flash.die_busy_ps(d), span_ps);  // busy counters run from time 0
    idle.push_back(double(span_ps - busy) * 1e-12);
    mean.push_back(samples_ ? free_sum_[d] / double(samples_) : 0.0);
    least.push_back(samples_ ? free_min_[d] : 0);
  }
  return {{"idle_s", idle}, {"free_blocks_mean", mean}, {"free_blocks_min", least}, {"samples", samples_}};
}

nlohmann::json DeviceState::spare_json(const HostResults& h, uint64_t host_lbas) const {
  double pool = start_free_;  // the free pool's mean over the timed part's samples
  if (!h.timeseries.empty()) {
    double sum = 0;
    for (const auto& r : h.timeseries) sum += r.free_blocks;
    pool = sum / double(h.timeseries.size());
  }
  return spare_json(pool, host_lbas);
}

double DeviceState::free_pool_mean() const {
  if (!samples_) return start_free_;
  double sum = 0;
  for (double v : free_sum_) sum += v;
  return sum / double(samples_);
}

nlohmann::json DeviceState::spare_json(double pool, uint64_t host_lbas) const {
  const ftl_config& c = soc_.fw_config();
  const double slots_per_block = double(c.pages_per_block) * c.slots_per_page;
  const double blocks = double(soc_.geometry().total_blocks());
  const double physical = blocks * slots_per_block, logical = double(c.logical_lbas);
  // Blocks that hold no data: the free pool, and half of each frontier's open
  // block per die (on average half written), as testbench/firmware/waf_test.cpp.
  const double held = pool + 0.5 * ftl_frontiers(&c) * soc_.geometry().dies();
  const double t_eff = physical - held * slots_per_block;
  // Until the pool reaches the level it holds, the blocks it gives up (or
  // takes) are writes without (or GC without) host writes: their share of
  // the host writes is about how far the timed part's WAF is from steady.
  const double transient =
      host_lbas ? std::fabs(double(start_free_) - pool) * slots_per_block / double(host_lbas) : 0.0;
  return {{"nominal", (physical - logical) / physical},
          {"effective", t_eff > 0 ? (t_eff - logical) / t_eff : 0.0},
          {"free_blocks_start", start_free_},
          {"free_blocks_mean", pool},
          {"transient_share", transient},
          {"steady_state", transient <= 0.01}};
}

std::string DeviceState::steady_state_warning(const nlohmann::json& spare) {
  if (spare.value("steady_state", true)) return "";
  char line[256];
  std::snprintf(line, sizeof line,
                "warning: the timed part is too short for steady state: the free pool went from %u to %.1f blocks on "
                "average, %.1f %% of the host writes (lengthen the run or see precondition.free_pool)",
                spare["free_blocks_start"].get<uint32_t>(), spare["free_blocks_mean"].get<double>(),
                100.0 * spare["transient_share"].get<double>());
  return line;
}

}  // namespace ssdvp
