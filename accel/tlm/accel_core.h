// accel_core.h - the K-Means core of the accelerator, behind one interface.
//
// The device model (kmeans_accel.h) owns the registers, the DMA and the
// interrupt; a core owns the clustering of the points already in the point
// SRAM and says how many cycles it took between start and done. Two cores:
//  - TlmCore: the firmware's own kmeans2d (firmware/ftl/hotness.c), called
//    directly, plus the cycle formula of the microarchitecture;
//  - RtlCore (accel/rtl/, when built with SSDVP_RTL): the Verilog, verilated.
// Both see the same AccelShape, so co-simulation compares like with like.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace ssdvp {

class Config;

// The structural parameters of the accelerator (config keys accel.*).
struct AccelShape {
  uint32_t sram_points = 25600;   // point SRAM capacity
  uint32_t lanes = 1;             // points per cycle in the assignment step
  uint32_t dividers = 2;          // sequential dividers shared by the 2K divisions
  uint32_t divider_latency = 10;  // cycles per division (1 load + 9 quotient bits)
  uint32_t dma_bytes_per_cycle = 16;
  uint32_t dma_setup_cycles = 64;  // per DMA burst sequence (first access latency)
  double clock_hz = 1.3e9;

  static AccelShape from_config(Config& cfg);
};

// Microarchitectural constants of the RTL (accel/rtl/kmeans_core.v): cycles
// that are structure, not tunables.
constexpr uint32_t kAccelStartCycles = 1;    // IDLE -> ASSIGN: load initial centroids
constexpr uint32_t kAccelPipelineDrain = 2;  // SRAM read and distance/argmin stages after the last issue
constexpr uint32_t kAccelCommitCycles = 1;   // commit centroids, count the iteration, test convergence

// Cycles of the core between start and done for `iterations` iterations.
uint64_t accel_compute_cycles(const AccelShape& s, uint32_t n, uint32_t k, uint32_t iterations);
// Cycles of the DMA-in of n points and of the DMA-out of n labels.
uint64_t accel_dma_in_cycles(const AccelShape& s, uint32_t n);
uint64_t accel_dma_out_cycles(const AccelShape& s, uint32_t n);

struct AccelResult {
  std::vector<uint8_t> labels;  // n
  uint16_t cx[8] = {0}, cy[8] = {0};
  uint32_t iterations = 0;
  uint64_t compute_cycles = 0;
};

class AccelCore {
 public:
  virtual ~AccelCore() = default;
  // Clusters points (x in bits 8:0, y in bits 24:16, all coordinates <= 511,
  // 1 <= n <= sram_points, 1 <= k <= 8). Never fails on such input.
  virtual void run(const std::vector<uint32_t>& points, uint32_t k, uint32_t max_iter, AccelResult& out) = 0;
  virtual const char* kind() const = 0;
};

class TlmCore : public AccelCore {
 public:
  explicit TlmCore(const AccelShape& s) : shape_(s) {}
  void run(const std::vector<uint32_t>& points, uint32_t k, uint32_t max_iter, AccelResult& out) override;
  const char* kind() const override { return "tlm"; }

 private:
  AccelShape shape_;
};

// accel.impl: "tlm" or "rtl" (ConfigError if rtl was not built). vcd_path
// empty: no waveform.
std::unique_ptr<AccelCore> make_accel_core(Config& cfg, const AccelShape& s);

}  // namespace ssdvp
