// Bench for KMeansAccel: registers, DMA over the bus, IRQ, completion time,
// every bad-programming case, and the firmware driver on the CPU model.
//
// Platform: test CPU (or CpuNative) -> Bus -> {ACCEL regs, DRAM, INTC};
// KMeansAccel.dma -> Bus; accel.irq -> signal (-> INTC for the driver).
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <vector>

#include "common/config.h"
#include "cpu/cpu_native.h"
#include "dram/dram.h"
#include "interconnect/bus.h"
#include "interconnect/intc.h"
#include "ssdvp_hw.h"
#include "test_initiator.h"
#include "tlm/accel_datasets.h"
#include "tlm/kmeans_accel.h"

#include "reference.h"

extern "C" {
#include "accel_drv.h"
}

using namespace ssdvp;
using accel_data::Kind;

namespace {

constexpr uint64_t kNs = 1000;
constexpr uint64_t kBus = 2 * kNs;  // 2 cycles at 1 GHz
const char* kConfig = R"(
dram: {size: 4MiB, latency: 50ns}
bus: {latency_cycles: 2, clock_hz: 1e9}
accel: {sram_points: 30000}
log: {level: error}
)";
constexpr uint32_t kPts = SSDVP_DRAM_BASE + 0x1000, kLab = SSDVP_DRAM_BASE + 0x100000;

Config config(const std::string& extra) {
  Config c = Config::from_yaml_string(kConfig);
  c.merge(Config::from_yaml_string(extra));
  return c;
}

struct Bench {
  explicit Bench(const std::string& extra = "{}") : cfg(config(extra)) {
    cpu.isock.bind(bus.tsock);
    acc.dma.bind(bus.tsock);
    bus.attach("ACCEL", acc.regs);
    bus.attach("DRAM", dram.tsock);
    acc.irq.bind(irq);
  }
  Config cfg;
  test::TestInitiator cpu{"cpu"};
  Bus bus{"bus", cfg};
  Dram dram{"dram", cfg};
  KMeansAccel acc{"accel", cfg};
  sc_core::sc_signal<bool> irq{"irq"};

  uint8_t* at(uint32_t a) { return dram.data() + (a - SSDVP_DRAM_BASE); }
  uint32_t reg(uint32_t off) { return cpu.read32(SSDVP_ACCEL_BASE + off); }
  void set(uint32_t off, uint32_t v) { cpu.write32(SSDVP_ACCEL_BASE + off, v); }
  void program(uint32_t n, uint32_t k, uint32_t max_iter, uint32_t src = kPts, uint32_t dst = kLab) {
    set(ACCEL_N, n), set(ACCEL_K, k), set(ACCEL_MAX_ITER, max_iter), set(ACCEL_SRC, src), set(ACCEL_DST, dst);
  }
  // Starts and waits for the interrupt; returns the start access's arrival time (ps).
  uint64_t start_and_wait() {
    cpu.sync();
    const uint64_t t = sc_core::sc_time_stamp().value() + kBus;
    set(ACCEL_CTRL, ACCEL_CTRL_START | ACCEL_CTRL_IRQ_EN);
    cpu.sync();
    if (!irq.read()) sc_core::wait(irq.posedge_event());
    return t;
  }
  void run(std::function<void(Bench&)> body) {
    cpu.body = [this, body](test::TestInitiator&) { body(*this); };
    sc_core::sc_start();
    ASSERT_TRUE(cpu.done);
  }
};

TEST(AccelDevice, JobGivesReferenceLabelsCentroidsAndCyclesAtTheRightTime) {
  Bench b;
  const uint32_t n = 2560, k = 6;
  const auto pts = accel_data::make(Kind::blobs, n, 11);
  std::memcpy(b.at(kPts), pts.data(), 4 * n);
  b.run([&](Bench& b) {
    EXPECT_EQ(30000u, b.reg(ACCEL_SRAM_POINTS));
    b.program(n, k, 10);
    const uint64_t t0 = b.start_and_wait();
    const uint64_t t1 = sc_core::sc_time_stamp().value();
    EXPECT_EQ(ACCEL_STATUS_DONE, b.reg(ACCEL_STATUS));
    EXPECT_EQ(ACCEL_ERR_NONE, b.reg(ACCEL_ERROR_CODE));
    const uint32_t it = b.reg(ACCEL_ITERS), cycles = b.reg(ACCEL_CYCLES);
    const uint32_t compute = 1 + it * (n + 2 + 60 + 1);
    EXPECT_EQ(compute, b.reg(ACCEL_COMPUTE_CYCLES));
    EXPECT_EQ((64 + 4 * n / 16) + compute + (64 + n / 16), cycles);
    EXPECT_EQ(uint64_t(std::llround(cycles * 1e12 / 1.3e9)), t1 - t0);
    const test::KmeansRef r = test::kmeans_reference(pts, k, 10);
    EXPECT_EQ(r.iterations, it);
    EXPECT_EQ(0, std::memcmp(r.labels.data(), b.at(kLab), n));
    for (uint32_t c = 0; c < k; ++c) EXPECT_EQ(ACCEL_POINT(r.cx[c], r.cy[c]), b.reg(ACCEL_CENT0 + 4 * c));
    b.set(ACCEL_CTRL, ACCEL_CTRL_CLEAR);
    b.cpu.sync();
    sc_core::wait(sc_core::SC_ZERO_TIME);
    EXPECT_FALSE(b.irq.read());
    EXPECT_EQ(0u, b.reg(ACCEL_STATUS));
  });
}

struct BadCase {
  const char* what;
  uint32_t n, k, src, dst;
  accel_error code;
};

TEST(AccelDevice, BadProgrammingGivesTheNamedErrorAndAnIrqAndTheDeviceStaysUsable) {
  Bench b;
  const auto pts = accel_data::make(Kind::uniform, 100, 3);
  std::memcpy(b.at(kPts), pts.data(), 4 * 100);
  const uint32_t big = SSDVP_DRAM_BASE + 0x100;  // point words with x = 600
  for (uint32_t i = 0; i < 4; ++i) {
    const uint32_t w = ACCEL_POINT(600, 1);
    std::memcpy(b.at(big) + 4 * i, &w, 4);
  }
  const BadCase cases[] = {
      {"N = 0", 0, 3, kPts, kLab, ACCEL_ERR_N_ZERO},
      {"N beyond the SRAM", 30001, 3, kPts, kLab, ACCEL_ERR_N_TOO_LARGE},
      {"K = 0", 100, 0, kPts, kLab, ACCEL_ERR_K_RANGE},
      {"K = 9", 100, 9, kPts, kLab, ACCEL_ERR_K_RANGE},
      {"SRC unaligned", 100, 3, kPts + 2, kLab, ACCEL_ERR_UNALIGNED},
      {"DST unaligned", 100, 3, kPts, kLab + 1, ACCEL_ERR_UNALIGNED},
      {"SRC outside the map", 100, 3, SSDVP_FLASH_BASE, kLab, ACCEL_ERR_ADDRESS},
      {"DST past the DRAM region", 100, 3, kPts, 0xfffffff0u, ACCEL_ERR_ADDRESS},
      {"SRC beyond the DRAM fitted", 100, 3, SSDVP_DRAM_BASE + 0x01000000, kLab, ACCEL_ERR_DMA},
      {"DST beyond the DRAM fitted", 100, 3, kPts, SSDVP_DRAM_BASE + 0x01000000, ACCEL_ERR_DMA},
      {"a coordinate above 511", 4, 3, big, kLab, ACCEL_ERR_POINT_RANGE},
  };
  b.run([&](Bench& b) {
    for (const BadCase& c : cases) {
      b.program(c.n, c.k, 10, c.src, c.dst);
      b.start_and_wait();
      EXPECT_TRUE(b.irq.read()) << c.what;
      EXPECT_EQ(ACCEL_STATUS_ERROR, b.reg(ACCEL_STATUS)) << c.what;
      EXPECT_EQ(uint32_t(c.code), b.reg(ACCEL_ERROR_CODE)) << c.what;
      b.set(ACCEL_CTRL, ACCEL_CTRL_CLEAR);
      // still usable: a good job right after
      b.program(100, 3, 10);
      b.start_and_wait();
      EXPECT_EQ(ACCEL_STATUS_DONE, b.reg(ACCEL_STATUS)) << "after " << c.what;
      EXPECT_EQ(ACCEL_ERR_NONE, b.reg(ACCEL_ERROR_CODE)) << "after " << c.what;
      b.set(ACCEL_CTRL, ACCEL_CTRL_CLEAR);
    }
    // START while busy: error BUSY at once, the running job still completes
    b.program(100, 3, 10);
    b.set(ACCEL_CTRL, ACCEL_CTRL_START | ACCEL_CTRL_IRQ_EN);
    b.set(ACCEL_CTRL, ACCEL_CTRL_START | ACCEL_CTRL_IRQ_EN);
    b.cpu.sync();
    sc_core::wait(sc_core::SC_ZERO_TIME);
    EXPECT_TRUE(b.irq.read());
    EXPECT_EQ(ACCEL_STATUS_BUSY | ACCEL_STATUS_ERROR, b.reg(ACCEL_STATUS));
    EXPECT_EQ(uint32_t(ACCEL_ERR_BUSY), b.reg(ACCEL_ERROR_CODE));
    while (b.reg(ACCEL_STATUS) & ACCEL_STATUS_BUSY) b.cpu.sync(), sc_core::wait(sc_core::sc_time(1, sc_core::SC_US));
    EXPECT_EQ(ACCEL_STATUS_DONE | ACCEL_STATUS_ERROR, b.reg(ACCEL_STATUS));
    // wrong access size and a write to a read-only register: TLM errors, no crash
    uint16_t half = 0;
    EXPECT_NE(tlm::TLM_OK_RESPONSE, b.cpu.access(tlm::TLM_READ_COMMAND, SSDVP_ACCEL_BASE + ACCEL_N, &half, 2));
    EXPECT_NE(tlm::TLM_OK_RESPONSE, b.cpu.write32(SSDVP_ACCEL_BASE + ACCEL_CYCLES, 5));
  });
  EXPECT_EQ(uint64_t(std::size(cases)) + 1, b.acc.errors());
}

TEST(AccelDevice, NoIrqWhenNotEnabled) {
  Bench b;
  const auto pts = accel_data::make(Kind::uniform, 64, 3);
  std::memcpy(b.at(kPts), pts.data(), 4 * 64);
  b.run([&](Bench& b) {
    b.program(64, 3, 10);
    b.set(ACCEL_CTRL, ACCEL_CTRL_START);
    b.cpu.sync();
    sc_core::wait(sc_core::sc_time(10, sc_core::SC_US));
    EXPECT_EQ(ACCEL_STATUS_DONE, b.reg(ACCEL_STATUS));
    EXPECT_FALSE(b.irq.read());
  });
}

// The driver, compiled firmware C, on the CPU model with the INTC in between.
struct DriverBench {
  explicit DriverBench(const std::string& extra = "{}") : cfg(config(extra)) {
    cpu.bus.bind(bus.tsock);
    acc.dma.bind(bus.tsock);
    bus.attach("ACCEL", acc.regs);
    bus.attach("DRAM", dram.tsock);
    bus.attach("INTC", intc.regs);
    acc.irq(irq_accel);
    for (uint32_t i = 0; i < IRQ_INPUTS; ++i) intc.irq_in[i](i == IRQ_ACCEL ? irq_accel : low[i]);
    intc.irq_out(irq_cpu);
    cpu.irq(irq_cpu);
  }
  Config cfg;
  Bus bus{"bus", cfg};
  Dram dram{"dram", cfg};
  Intc intc{"intc", cfg};
  KMeansAccel acc{"accel", cfg};
  CpuNative cpu{"cpu", cfg};
  sc_core::sc_signal<bool> irq_accel{"irq_accel"}, irq_cpu{"irq_cpu"}, low[IRQ_INPUTS];
};

TEST(AccelDriver, ProgramsWaitsForTheIrqAndReturnsTheReferenceResult) {
  DriverBench b;
  const uint32_t n = 1280, k = 5;
  const auto pts = accel_data::make(Kind::blobs, n, 21);
  std::memcpy(b.dram.data() + (kPts - SSDVP_DRAM_BASE), pts.data(), 4 * n);
  std::vector<uint8_t> lab(n);
  uint16_t cx[8], cy[8];
  uint32_t it = 0;
  int rc = -1, rc_bad = -1, rc_k = -1;
  uint64_t t_start = 0, t_end = 0;
  b.cpu.set_firmware([&] {
    struct hal* h = b.cpu.hal();
    hal_write32(h, SSDVP_INTC_BASE + INTC_ENABLE, 1u << IRQ_ACCEL);
    t_start = hal_time_ns(h);
    rc = accel_kmeans2d(h, kPts, kLab, n, k, 10, lab.data(), cx, cy, &it);
    t_end = hal_time_ns(h);
    rc_bad = accel_kmeans2d(h, kPts + 2, kLab, n, k, 10, nullptr, nullptr, nullptr, nullptr);
    rc_k = accel_kmeans2d(h, kPts, kLab, n, 9, 10, nullptr, nullptr, nullptr, nullptr);
    sc_core::sc_stop();
  });
  sc_core::sc_start(sc_core::SC_ZERO_TIME);
  b.cpu.start();
  sc_core::sc_start();
  ASSERT_EQ(ACCEL_DRV_OK, rc);
  EXPECT_EQ(ACCEL_DRV_ERR_BASE + ACCEL_ERR_UNALIGNED, rc_bad);
  EXPECT_EQ(KMEANS_ERR_K, rc_k);
  const test::KmeansRef r = test::kmeans_reference(pts, k, 10);
  const uint32_t rit = r.iterations;
  EXPECT_EQ(rit, it);
  EXPECT_EQ(r.labels, lab);
  for (uint32_t c = 0; c < k; ++c) {
    EXPECT_EQ(r.cx[c], cx[c]);
    EXPECT_EQ(r.cy[c], cy[c]);
  }
  // the CPU slept through the job: at least the job's cycles passed
  const uint64_t cycles = (64 + 4 * n / 16) + (1 + rit * (n + 2 + 50 + 1)) + (64 + n / 16);
  EXPECT_GE(t_end - t_start, uint64_t(cycles / 1.3));
  EXPECT_LT(t_end - t_start, uint64_t(cycles / 1.3) + 2000);
}

}  // namespace

namespace {

TEST(AccelDevice, OutsideTheKernelAJobCompletesAtOnce) {
  // the firmware runs functionally (preconditioning) from outside any process
  Bench b;
  const auto pts = accel_data::make(Kind::blobs, 300, 4);
  std::memcpy(b.at(kPts), pts.data(), 4 * 300);
  sc_core::sc_start(sc_core::SC_ZERO_TIME);
  b.program(300, 4, 10);
  b.set(ACCEL_CTRL, ACCEL_CTRL_START | ACCEL_CTRL_IRQ_EN);
  EXPECT_EQ(ACCEL_STATUS_DONE, b.reg(ACCEL_STATUS));
  const test::KmeansRef r = test::kmeans_reference(pts, 4, 10);
  EXPECT_EQ(0, std::memcmp(r.labels.data(), b.at(kLab), 300));
  EXPECT_EQ(r.iterations, b.reg(ACCEL_ITERS));
}

}  // namespace
