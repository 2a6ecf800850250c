// device_state.h - what the summary says about where the drive's time and
// free blocks went: per-die idle time and free blocks (section "dies"), and
// the spare factor the timed part ran at (ftl.spare).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace ssdvp {

class SsdSoc;
struct HostResults;

class DeviceState {
 public:
  explicit DeviceState(SsdSoc& soc) : soc_(soc) {}
  // The timed part starts with free_blocks free blocks.
  void start(uint32_t free_blocks);
  // Reads each die's free-block count from the firmware's table in DRAM (at
  // every stats.interval, with the host's other device samples).
  void sample();
  // Per die over the timed part: idle seconds, free blocks (mean and least
  // over the samples). span_ps: the timed part's length.
  nlohmann::json dies_json(uint64_t span_ps) const;
  // The spare factor: nominal, and effective at the free-pool level the timed
  // part held (its samples' mean); whether the part was long enough for the
  // pool's move from its starting level not to show in the WAF.
  nlohmann::json spare_json(const HostResults& h, uint64_t host_lbas) const;
  // The same at a given mean free pool (a run without a host time series,
  // such as an array's devices: free_pool_mean()).
  nlohmann::json spare_json(double pool, uint64_t host_lbas) const;
  // The free pool's mean over this object's samples (the start level if none).
  double free_pool_mean() const;
  // A warning for the run's printout, or "" (from spare_json's figures).
  static std::string steady_state_warning(const nlohmann::json& spare);

 private:
  SsdSoc& soc_;
  uint32_t start_free_ = 0;
  uint64_t samples_ = 0;
  bool started_ = false;
  std::vector<double> free_sum_;
  std::vector<uint32_t> free_min_;
};

}  // namespace ssdvp
