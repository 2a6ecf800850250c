// latency_test.cpp - queue-depth-1 latency on an idle drive, computed by hand
// from the configuration (the independent checks of docs/results/fidelity.md), to the nanosecond;
// then overlap across channels and serialisation on one die.
//
// Firmware time is set to zero (cost table and register access times) for
// the exact check, so the hand computation covers the hardware path:
//   SQ fetch:  doorbell crosses the link (L), read request (L), 64 B back (x64 + L), parse (fetch)
//   flash:     DRAM read of the descriptor (Lr) + sq_fetch + tCMD + tR + channel transfer of 4 KiB
//              + DRAM write (Lw + 4 KiB at the DMA rate)
//   data:      4 KiB to the host (x4096 + L)
//   completion: build (cqe) + 16 B (x16 + L), then the MSI reaches the host
// A second check turns on one firmware cost and expects exactly its time more.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <fstream>
#include <string>

#include "host/host_driver.h"
#include "run/simulation.h"

using ssdvp::Config;

namespace {

std::string write_trace(const std::string& name, const std::string& body) {
  const std::string path = testing::TempDir() + name;
  std::ofstream(path) << body;
  return path;
}

Config zero_firmware_cost_config(const std::string& trace) {
  Config c = Config::from_yaml_file(SSDVP_SOURCE_DIR "/configs/small.yaml");
  for (const char* op : {"irq_entry", "cmd_decode", "l2p_lookup", "l2p_update", "buffer_alloc", "page_alloc",
                         "block_alloc", "flash_submit", "flash_complete", "xfer_submit", "xfer_complete",
                         "gc_victim_select", "gc_page_move", "trim_lba"})
    c.set(std::string("cpu.cost.") + op, "0");
  for (const char* k : {"flash.access", "nvme.access", "intc.access"}) c.set(k, "0ns");
  c.set("bus.latency_cycles", "0");
  c.set("workload.source", "trace");
  c.set("workload.trace", trace);
  c.set("workload.format", "mqsim");
  c.set("host.mode", "open");
  c.set("precondition.fill", "1.0");  // LBAs live in flash, not in a write buffer
  return c;
}

uint64_t xfer_ps(double bytes, double mbps) { return uint64_t(std::llround(bytes * 1e6 / mbps)); }

// A resolved parameter (after the platform declared it) as text.
std::string param(const Config& c, const std::string& key) {
  for (const auto& p : c.params())
    if (p.key == key) return p.value;
  ADD_FAILURE() << "no parameter " << key;
  return "0";
}
uint64_t t(const Config& c, const std::string& key) { return Config::parse_time_ps(param(c, key)); }
double d(const Config& c, const std::string& key) { return std::stod(param(c, key)); }

// The hand computation, from the values in the config.
uint64_t expected_read_ps(const Config& c) {
  const uint64_t L = t(c, "pcie.latency");
  const double pcie = d(c, "pcie.mbps"), ch = d(c, "flash.channel.mbps"), dma = d(c, "flash.dma.mbps");
  const double lba = double(Config::parse_size(param(c, "nvme.lba_size")));
  const uint64_t Lr = t(c, "dram.latency"), Lw = Lr;  // bus latency set to 0
  const uint64_t sqe = 3 * L + xfer_ps(64, pcie) + t(c, "nvme.fetch");
  const uint64_t flash = Lr + t(c, "flash.sq_fetch") + t(c, "flash.timing.cmd") + t(c, "flash.timing.read") +
                         xfer_ps(lba, ch) + Lw + xfer_ps(lba, dma);
  const uint64_t data = xfer_ps(lba, pcie) + L;
  const uint64_t completion = t(c, "nvme.completion") + xfer_ps(16, pcie) + L;
  return sqe + flash + data + completion;
}

TEST(Latency, Qd1ReadEqualsHandComputation) {
  Config c = zero_firmware_cost_config(write_trace("qd1_read.ascii", "0 0 0 8 1\n"));
  ssdvp::Simulation sim(c);
  const ssdvp::RunOutcome r = sim.run();
  ASSERT_TRUE(r.clean);
  const auto& h = sim.host().results().read_latency;
  ASSERT_EQ(h.count(), 1u);
  const uint64_t want_ns = expected_read_ps(c) / 1000;
  EXPECT_EQ(h.max(), want_ns) << "model " << h.max() << " ns, hand computation " << want_ns << " ns";
}

TEST(Latency, Qd1ReadGrowsByExactlyTheChargedFirmwareTime) {
  Config c = zero_firmware_cost_config(write_trace("qd1_read_cost.ascii", "0 0 0 8 1\n"));
  c.set("cpu.clock_hz", "1.3e9");
  c.set("cpu.cost.cmd_decode", "1300");  // 1 us, once per command, on the critical path
  ssdvp::Simulation sim(c);
  ASSERT_TRUE(sim.run().clean);
  EXPECT_EQ(sim.host().results().read_latency.max(), expected_read_ps(c) / 1000 + 1000);
}

// Sequential fill stripes page k on die k % 8 (die d on channel d % 4), two
// LBAs per 8 KiB page: LBA 0 -> die 0 (channel 0), LBA 2 -> die 1 (channel 1),
// LBA 16 -> die 0 again.
TEST(Latency, ReadsOnDifferentChannelsOverlap) {
  Config c = zero_firmware_cost_config(write_trace("two_channels.ascii", "0 0 0 8 1\n0 0 16 8 1\n"));
  ssdvp::Simulation sim(c);
  ASSERT_TRUE(sim.run().clean);
  const auto& h = sim.host().results().read_latency;
  const double single = double(expected_read_ps(c)) / 1000;
  ASSERT_EQ(h.count(), 2u);
  // Both finish within one extra link transfer of a lone read, far below two tR.
  EXPECT_LT(double(h.max()), single + 5000) << "single " << single << " ns";
}

TEST(Latency, ReadsOnOneDieSerialise) {
  Config c = zero_firmware_cost_config(write_trace("one_die.ascii", "0 0 0 8 1\n0 0 128 8 1\n"));
  ssdvp::Simulation sim(c);
  ASSERT_TRUE(sim.run().clean);
  const auto& h = sim.host().results().read_latency;
  const double single = double(expected_read_ps(c)) / 1000;
  ASSERT_EQ(h.count(), 2u);
  EXPECT_GE(double(h.max()), single + 20000 + 5120) << "the second read waits for the first's tR and transfer";
  EXPECT_LT(double(h.max()), 2 * single);
}

TEST(Latency, Qd1WriteCompletesFromTheBufferAndProgramsLater) {
  // Write-back: the completion follows the data transfer into DRAM, not tPROG.
  Config c = zero_firmware_cost_config(write_trace("qd1_write.ascii", "0 0 0 8 0\n"));
  ssdvp::Simulation sim(c);
  ASSERT_TRUE(sim.run().clean);
  const uint64_t L = t(c, "pcie.latency");
  const double pcie = d(c, "pcie.mbps");
  const uint64_t want = 3 * L + xfer_ps(64, pcie) + t(c, "nvme.fetch")      // SQ fetch
                        + 2 * L + xfer_ps(4096, pcie)                       // data: read request, data back
                        + t(c, "nvme.completion") + xfer_ps(16, pcie) + L;  // completion
  EXPECT_LT(sim.host().results().write_latency.max(), 200000u) << "a write must not wait for tPROG (200 us)";
  EXPECT_EQ(sim.host().results().write_latency.max(), want / 1000);
}

// flash.completion_quantum: the read's flash completion is posted at the
// first multiple of the quantum at or after it finishes, so the QD1 read is
// late by that rounding and by nothing else (7 us: not a divisor of the
// exact time, so the rounding shows).
TEST(Latency, CompletionQuantumDelaysAReadToTheNextMultiple) {
  Config c = zero_firmware_cost_config(write_trace("qd1_read_quantum.ascii", "0 0 0 8 1\n"));
  c.set("flash.completion_quantum", "7us");
  ssdvp::Simulation sim(c);
  ASSERT_TRUE(sim.run().clean);
  // Where the flash completion falls: the exact read less the data's way to the host and the completion.
  const uint64_t L = t(c, "pcie.latency");
  const double pcie = d(c, "pcie.mbps");
  const uint64_t lba = Config::parse_size(param(c, "nvme.lba_size"));
  const uint64_t after_ps = xfer_ps(double(lba), pcie) + L + t(c, "nvme.completion") + xfer_ps(16, pcie) + L;
  const uint64_t flash_done_ps = expected_read_ps(c) - after_ps;
  const uint64_t q = t(c, "flash.completion_quantum");
  ASSERT_NE(flash_done_ps % q, 0u);
  const uint64_t posted = (flash_done_ps + q - 1) / q * q;
  EXPECT_EQ(sim.host().results().read_latency.max(), (posted + after_ps) / 1000);
}

}  // namespace
