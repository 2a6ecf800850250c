// array_sim.h - a RAID-5 run (array.level: raid5): N devices built as a
// single-device run builds its one (run/device.h), each with its own firmware
// and its own copy of the configuration (array.dev<i>.<key> overrides one key
// for device i), behind the host RAID controller (array_ctrl.h), in one
// SystemC process.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "array/array_ctrl.h"
#include "common/config.h"
#include "run/simulation.h"

namespace ssdvp {
class Device;
class Timeline;
}  // namespace ssdvp

namespace ssdvp::array {

class ArraySimulation {
 public:
  explicit ArraySimulation(Config& cfg);
  ~ArraySimulation();
  RunOutcome run();
  // summary.json, devices.csv and gc_histogram.csv into dir.
  void write_outputs(const std::string& dir, const RunOutcome& out) const;
  ArrayController& controller() { return *ctrl_; }
  Device& device(uint32_t i) { return *devs_[i]; }

 private:
  nlohmann::json summarize(double wall, uint64_t& violations) const;
  void build();
  void precondition();

  Config& cfg_;
  std::vector<std::unique_ptr<Config>> dev_cfgs_;  // devices 1..N-1 (device 0 reads cfg_ itself)
  std::vector<std::unique_ptr<Device>> devs_;
  std::unique_ptr<ArrayController> ctrl_;
  std::unique_ptr<host::Workload> workload_, timed_;
  std::unique_ptr<Timeline> timeline_;
  std::string workload_desc_;
  RunKeys keys_;
};

// True when the config asks for an array (array.level: raid5); declares the key.
bool array_requested(Config& cfg);

}  // namespace ssdvp::array
