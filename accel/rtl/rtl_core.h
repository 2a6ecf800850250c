// rtl_core.h - the accelerator's K-Means core as RTL: accel/rtl/kmeans_core.v
// verilated (C++ mode) and clocked by RtlDriver (rtl_driver.h), one job at a time.
//
// The SystemC device (tlm/kmeans_accel.h) keeps the registers, the DMA and
// the interrupt; for accel.impl=rtl it hands each job to this core, which
// writes the points through the RTL's load port, pulses start, clocks the
// RTL until done and reads labels, centroids, iterations and the RTL's own
// cycle counter back. The RTL's clock is private to the core (the SoC's time
// advances by the cycles the RTL counted), so a job costs wall time only.
#pragma once

#include <memory>
#include <string>

#include "tlm/accel_core.h"

class Vkmeans_core;

namespace ssdvp {

template <class V>
class RtlDriver;

// The parameters the RTL was verilated with (accel/CMakeLists.txt).
AccelShape rtl_built_shape();

class RtlCore : public AccelCore {
 public:
  // Throws ConfigError if `s` asks for a structure the RTL was not built
  // with (lanes, dividers, divider latency, SRAM size). vcd_path: "" or a
  // file that receives a VCD of every job.
  RtlCore(const AccelShape& s, const std::string& vcd_path);
  ~RtlCore() override;
  void run(const std::vector<uint32_t>& points, uint32_t k, uint32_t max_iter, AccelResult& out) override;
  const char* kind() const override { return "rtl"; }
  uint64_t rtl_cycles() const;  // every clock of the RTL so far (load included)

 private:
  std::unique_ptr<RtlDriver<Vkmeans_core>> rtl_;
};

}  // namespace ssdvp
