// Bench for CpuNative: the HAL back-end the firmware runs on. The "firmware"
// here is a lambda calling the HAL; times are checked against hand
// computation from the config values.
//
// Platform: CpuNative.bus -> Bus -> {DRAM, Probe at the NVME region}.
// Probe answers reads with 0x1000 + offset, adds 7 ns, records the delay each
// access arrived with, and answers offset 0x100 with a TLM generic error.
// The CPU's irq comes from a signal the test drives at chosen times.
#include <gtest/gtest.h>

#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include "common/config.h"
#include "cpu/cpu_native.h"
#include "dram/dram.h"
#include "interconnect/bus.h"
#include "ssdvp_hw.h"

using namespace ssdvp;
using sc_core::sc_time;
using sc_core::SC_ZERO_TIME;

namespace {

constexpr uint64_t kNs = 1000, kUs = 1000000;
constexpr uint64_t kCycle = 2 * kNs;             // cpu.clock_hz 500 MHz
constexpr uint64_t kQuantum = 1 * kUs;           // cpu.quantum
constexpr uint64_t kBus = 2 * kNs;               // 2 cycles at 1 GHz
constexpr uint64_t kProbe = 7 * kNs;             // the probe's own access time
constexpr uint64_t kDecode = 100, kLookup = 25;  // cycles, as configured

const char* kConfig = R"(
cpu:
  clock_hz: 5e8
  quantum: 1us
  cost: {cmd_decode: 100, l2p_lookup: 25}
dram: {size: 1MiB, latency: 50ns}
bus: {latency_cycles: 2, clock_hz: 1e9}
log: {level: error}
)";

uint64_t now() { return sc_core::sc_time_stamp().value(); }

struct Probe : sc_core::sc_module {
  tlm_utils::simple_target_socket<Probe> tsock{"tsock"};
  struct Access {
    bool write;
    uint64_t offset;
    uint32_t value;
    uint64_t delay_in;  // the initiator's local time offset as it arrived (after the bus)
    uint64_t at;        // sc_time_stamp() of the call
  };
  std::vector<Access> log;
  explicit Probe(sc_core::sc_module_name n) : sc_module(n) { tsock.register_b_transport(this, &Probe::b_transport); }
  void b_transport(tlm::tlm_generic_payload& tx, sc_time& delay) {
    uint32_t v = 0;
    if (tx.is_write()) std::memcpy(&v, tx.get_data_ptr(), 4);
    log.push_back({tx.is_write(), tx.get_address(), v, delay.value(), now()});
    if (tx.get_address() == 0x100) {
      tx.set_response_status(tlm::TLM_GENERIC_ERROR_RESPONSE);
      return;
    }
    if (tx.is_read()) {
      v = uint32_t(0x1000 + tx.get_address());
      std::memcpy(tx.get_data_ptr(), &v, 4);
    }
    delay += sc_time::from_value(kProbe);
    tx.set_response_status(tlm::TLM_OK_RESPONSE);
  }
};

// Drives the irq signal: (time, level) steps.
struct IrqDriver : sc_core::sc_module {
  sc_core::sc_out<bool> out{"out"};
  std::vector<std::pair<uint64_t, bool>> steps;
  SC_HAS_PROCESS(IrqDriver);
  explicit IrqDriver(sc_core::sc_module_name n) : sc_module(n) { SC_THREAD(run); }
  void run() {
    for (const auto& s : steps) {
      if (s.first > now()) wait(sc_time::from_value(s.first - now()));
      out.write(s.second);
    }
  }
};

struct Bench {
  Bench() : cfg(Config::from_yaml_string(kConfig)) {
    cpu.bus.bind(bus.tsock);
    bus.attach("DRAM", dram.tsock);
    bus.attach("NVME", probe.tsock);
    cpu.irq(irq);
    irqd.out(irq);
  }
  Config cfg;
  Bus bus{"bus", cfg};
  Dram dram{"dram", cfg};
  Probe probe{"probe"};
  CpuNative cpu{"cpu", cfg};
  IrqDriver irqd{"irqd"};
  sc_core::sc_signal<bool> irq{"irq"};
  struct hal* h() {
    return cpu.hal();
  }
  bool ran = false;

  // Runs `fw` as the firmware in the CPU thread until the simulation starves.
  void run(std::function<void()> fw) {
    cpu.set_firmware([this, fw] {
      fw();
      ran = true;
    });
    if (sc_core::sc_get_status() == sc_core::SC_ELABORATION) sc_core::sc_start(SC_ZERO_TIME);
    cpu.start();
    sc_core::sc_start();
    EXPECT_TRUE(ran);
  }
};

}  // namespace

TEST(CpuNative, RegisterAccessCarriesTheLocalTimeAndChargesItsLatency) {
  Bench b;
  b.run([&] {
    hal_charge(b.h(), FW_OP_cmd_decode, 3);  // 300 cycles = 600 ns of local time, below the quantum
    EXPECT_EQ(now(), 0u);
    EXPECT_EQ(hal_read32(b.h(), SSDVP_NVME_BASE + 0x8), 0x1008u);
    ASSERT_EQ(b.probe.log.size(), 1u);
    EXPECT_EQ(b.probe.log[0].delay_in, 3 * kDecode * kCycle + kBus);
    EXPECT_EQ(b.probe.log[0].at, 0u);
    EXPECT_EQ(hal_time_ns(b.h()), (3 * kDecode * kCycle + kBus + kProbe) / kNs);
    hal_write32(b.h(), SSDVP_NVME_BASE + 0x20, 0xcafe);
    ASSERT_EQ(b.probe.log.size(), 2u);
    EXPECT_TRUE(b.probe.log[1].write);
    EXPECT_EQ(b.probe.log[1].value, 0xcafeu);
    EXPECT_EQ(b.probe.log[1].offset, 0x20u);
    EXPECT_EQ(b.probe.log[1].delay_in, 3 * kDecode * kCycle + 2 * kBus + kProbe);
    EXPECT_EQ(now(), 0u);  // still below the quantum: nothing synchronised
    EXPECT_EQ(b.cpu.stats().bus_ps, 2 * (kBus + kProbe));
    EXPECT_EQ(b.cpu.stats().compute_ps, 3 * kDecode * kCycle);
    EXPECT_EQ(b.cpu.stats().bus_errors, 0u);
  });
  // The thread synchronises its local time when the firmware returns.
  EXPECT_EQ(now(), 3 * kDecode * kCycle + 2 * (kBus + kProbe));
}

TEST(CpuNative, RegisterAccessCrossingTheQuantumSynchronises) {
  Bench b;
  b.run([&] {
    hal_charge(b.h(), FW_OP_l2p_lookup, 19);  // 950 ns
    EXPECT_EQ(now(), 0u);
    hal_read32(b.h(), SSDVP_NVME_BASE);  // + 9 ns: 959 ns, below
    EXPECT_EQ(now(), 0u);
    hal_charge(b.h(), FW_OP_l2p_lookup, 0);
    hal_read32(b.h(), SSDVP_NVME_BASE);
    hal_read32(b.h(), SSDVP_NVME_BASE);
    hal_read32(b.h(), SSDVP_NVME_BASE);
    hal_read32(b.h(), SSDVP_NVME_BASE);  // 995 ns
    EXPECT_EQ(now(), 0u);
    hal_read32(b.h(), SSDVP_NVME_BASE);  // 1004 ns >= 1 us: synchronised
    EXPECT_EQ(now(), 19 * kLookup * kCycle + 6 * (kBus + kProbe));
    EXPECT_EQ(hal_time_ns(b.h()), now() / kNs);
  });
}

TEST(CpuNative, TlmErrorCountsABusErrorAndReadsAllOnes) {
  Bench b;
  b.run([&] {
    EXPECT_EQ(hal_read32(b.h(), 0x20000000u), 0xffffffffu);  // no region: the bus answers
    EXPECT_EQ(b.cpu.stats().bus_errors, 1u);
    EXPECT_EQ(hal_read32(b.h(), SSDVP_NVME_BASE + 0x100), 0xffffffffu);  // the target answers
    EXPECT_EQ(b.cpu.stats().bus_errors, 2u);
    hal_write32(b.h(), SSDVP_NVME_BASE + 0x100, 1);
    hal_write32(b.h(), SSDVP_NVME_BASE + 0xffe, 1);  // runs past the region's end
    EXPECT_EQ(b.cpu.stats().bus_errors, 4u);
    EXPECT_EQ(hal_read32(b.h(), SSDVP_NVME_BASE + 4), 0x1004u);  // and carries on
    EXPECT_EQ(b.cpu.stats().bus_errors, 4u);
  });
}

TEST(CpuNative, ChargeAdvancesTimeByCountTimesCyclesTimesPeriodAndSyncsAtTheQuantum) {
  Bench b;
  b.run([&] {
    hal_charge(b.h(), FW_OP_l2p_lookup, 10);  // 10 x 25 x 2 ns = 500 ns
    EXPECT_EQ(now(), 0u);
    EXPECT_EQ(hal_time_ns(b.h()), 500u);
    hal_charge(b.h(), FW_OP_l2p_lookup, 9);  // 950 ns
    EXPECT_EQ(now(), 0u);
    hal_charge(b.h(), FW_OP_l2p_lookup, 1);  // exactly 1 us: synchronised
    EXPECT_EQ(now(), kQuantum);
    EXPECT_EQ(hal_time_ns(b.h()), 1000u);
    hal_charge(b.h(), FW_OP_cmd_decode, 7);  // 1.4 us in one go
    EXPECT_EQ(now(), kQuantum + 7 * kDecode * kCycle);
    hal_charge(b.h(), FW_OP_cmd_decode, 1);  // 200 ns
    EXPECT_EQ(now(), kQuantum + 7 * kDecode * kCycle);
    EXPECT_EQ(hal_time_ns(b.h()), (kQuantum + 8 * kDecode * kCycle) / kNs);
    EXPECT_EQ(b.cpu.stats().compute_ps, 20 * kLookup * kCycle + 8 * kDecode * kCycle);
    EXPECT_EQ(b.cpu.stats().ops[FW_OP_l2p_lookup], 20u);
    EXPECT_EQ(b.cpu.stats().ops[FW_OP_cmd_decode], 8u);
    EXPECT_EQ(b.cpu.stats().bus_ps, 0u);
    EXPECT_EQ(b.cpu.cycle_ps(), kCycle);
    EXPECT_EQ(b.cpu.cost_cycles(FW_OP_cmd_decode), kDecode);
    EXPECT_EQ(b.cpu.cost_cycles(FW_OP_irq_entry), CpuNative::default_cost(FW_OP_irq_entry));  // configs/cpu_cost.yaml
  });
  EXPECT_EQ(now(), kQuantum + 8 * kDecode * kCycle);
}

TEST(CpuNative, LargeChargeDoesNotOverflow) {
  Bench b;
  b.run([&] {
    hal_charge(b.h(), FW_OP_cmd_decode, 0xffffffffu);  // 2^32 x 100 cycles x 2 ns ~ 859 s
    EXPECT_EQ(now(), uint64_t(0xffffffffu) * kDecode * kCycle);
  });
}

TEST(CpuNative, WaitIrqReturnsAtOnceWhenTheLineIsHigh) {
  Bench b;
  b.irqd.steps = {{0, true}};
  b.run([&] {
    hal_charge(b.h(), FW_OP_cmd_decode, 1);  // 200 ns of local time
    hal_wait_irq(b.h());
    EXPECT_EQ(now(), kDecode * kCycle);  // synchronised, then no wait
    hal_wait_irq(b.h());
    EXPECT_EQ(now(), kDecode * kCycle);
    EXPECT_EQ(b.cpu.stats().idle_ps, 0u);
    EXPECT_EQ(b.cpu.stats().wakeups, 2u);
  });
}

TEST(CpuNative, WaitIrqWaitsForTheRisingEdgeAndAccountsIdleTime) {
  Bench b;
  // A pulse while the CPU computes (missed: level-sensitive), then a rise at 5 us.
  b.irqd.steps = {{100 * kNs, true}, {200 * kNs, false}, {5 * kUs, true}, {6 * kUs, false}, {9 * kUs, true}};
  b.run([&] {
    hal_charge(b.h(), FW_OP_cmd_decode, 3);  // 600 ns
    hal_wait_irq(b.h());
    EXPECT_EQ(now(), 5 * kUs);
    EXPECT_EQ(b.cpu.stats().idle_ps, 5 * kUs - 600 * kNs);
    hal_charge(b.h(), FW_OP_cmd_decode, 1);  // 200 ns: line still high
    hal_wait_irq(b.h());
    EXPECT_EQ(now(), 5 * kUs + 200 * kNs);
    EXPECT_EQ(b.cpu.stats().idle_ps, 5 * kUs - 600 * kNs);
    hal_charge(b.h(), FW_OP_l2p_lookup, 40);  // 2 us: line falls at 6 us meanwhile
    hal_wait_irq(b.h());
    EXPECT_EQ(now(), 9 * kUs);
    EXPECT_EQ(b.cpu.stats().idle_ps, 5 * kUs - 600 * kNs + 9 * kUs - 7200 * kNs);
    EXPECT_EQ(b.cpu.stats().wakeups, 3u);
  });
}

TEST(CpuNative, HalDramPointsInsideDramAndIsNullOutside) {
  Bench b;
  b.run([&] {
    const uint32_t size = 1u << 20;
    EXPECT_EQ(hal_dram(b.h(), SSDVP_DRAM_BASE + 0x100, 16), b.dram.data() + 0x100);
    EXPECT_EQ(hal_dram(b.h(), SSDVP_DRAM_BASE, size), b.dram.data());
    EXPECT_EQ(hal_dram(b.h(), SSDVP_DRAM_BASE + size - 4, 4), b.dram.data() + size - 4);
    EXPECT_EQ(hal_dram(b.h(), SSDVP_DRAM_BASE + size - 4, 8), nullptr);  // runs past the DRAM model
    EXPECT_EQ(hal_dram(b.h(), SSDVP_DRAM_BASE + size, 4), nullptr);      // inside the region, beyond the model
    EXPECT_EQ(hal_dram(b.h(), SSDVP_DRAM_BASE - 4, 8), nullptr);         // starts below DRAM
    EXPECT_EQ(hal_dram(b.h(), SSDVP_NVME_BASE, 4), nullptr);             // a device
    EXPECT_EQ(hal_dram(b.h(), 0xfffffff0u, 0x20), nullptr);              // wraps the address space
    // A pointer is a window: writes through it are what the bus sees.
    auto* p = static_cast<uint32_t*>(hal_dram(b.h(), SSDVP_DRAM_BASE + 0x200, 4));
    ASSERT_NE(p, nullptr);
    *p = 0x12345678;
    EXPECT_EQ(b.dram.data()[0x200], 0x78);
    EXPECT_EQ(now(), 0u);  // costs nothing by itself
    EXPECT_EQ(b.cpu.stats().bus_ps, 0u);
  });
}

TEST(CpuNative, FunctionalModeChargesNothingAndNeverWaits) {
  Bench b;
  sc_core::sc_start(SC_ZERO_TIME);  // elaborated; HAL calls come from outside any process
  b.cpu.set_functional(true);
  struct hal* h = b.h();
  hal_charge(h, FW_OP_cmd_decode, 1000000);
  EXPECT_EQ(b.cpu.stats().ops[FW_OP_cmd_decode], 1000000u);  // counted
  EXPECT_EQ(b.cpu.stats().compute_ps, 0u);
  EXPECT_EQ(hal_time_ns(h), 0u);
  EXPECT_EQ(hal_read32(h, SSDVP_NVME_BASE + 0x10), 0x1010u);
  ASSERT_EQ(b.probe.log.size(), 1u);
  EXPECT_EQ(b.probe.log[0].delay_in, kBus);  // the access starts at local time 0
  EXPECT_EQ(hal_read32(h, SSDVP_NVME_BASE + 0x100), 0xffffffffu);
  EXPECT_EQ(b.cpu.stats().bus_errors, 1u);
  EXPECT_EQ(b.probe.log[1].delay_in, kBus);
  hal_wait_irq(h);  // low line, but functional: returns
  EXPECT_NE(hal_dram(h, SSDVP_DRAM_BASE, 64), nullptr);
  EXPECT_EQ(b.cpu.stats().bus_ps, 0u);
  EXPECT_EQ(b.cpu.stats().idle_ps, 0u);
  EXPECT_EQ(hal_time_ns(h), 0u);
  EXPECT_EQ(now(), 0u);
  // Back to timed: the next charge costs time again (nothing was stored up).
  b.cpu.set_functional(false);
  b.run([&] {
    hal_charge(h, FW_OP_cmd_decode, 1);
    EXPECT_EQ(hal_time_ns(h), kDecode * kCycle / kNs);
  });
  EXPECT_EQ(now(), kDecode * kCycle);
}

TEST(CpuNative, LogLevelsMapToTheModelLogger) {
  Bench b;
  b.run([&] {
    b.h()->ops->log(b.h()->ctx, HAL_LOG_DEBUG, "debug 1");  // below the level: dropped, no crash
    b.h()->ops->log(b.h()->ctx, 99, "unknown level");
    EXPECT_STREQ(CpuNative::op_name(FW_OP_cmd_decode), "cmd_decode");
  });
}
