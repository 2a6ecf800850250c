// Bench for CpuIss: RV32 programs (testbench/iss/programs, cross-compiled at
// build time) on Unicorn inside SystemC. Platform: CpuIss.bus -> Bus ->
// {DRAM, INTC}; INTC line 0 is driven by the test; INTC -> CpuIss.irq.
#include <gtest/gtest.h>

#include <fstream>
#include <initializer_list>
#include <string>

#include "common/config.h"
#include "cpu/cpu_iss.h"
#include "dram/dram.h"
#include "interconnect/bus.h"
#include "interconnect/intc.h"
#include "ssdvp_hw.h"

using namespace ssdvp;
using sc_core::sc_time;

namespace {

const char* kConfig = R"(
cpu:
  clock_hz: 5e8
  iss: {cpi: 1.5, quantum: 1000, watchdog: 5000000}
dram: {size: 1MiB, latency: 50ns}
bus: {latency_cycles: 2, clock_hz: 1e9}
log: {level: error}
)";

std::string program(const char* name) { return std::string(SSDVP_ISS_PROGRAMS) + "/" + name + ".elf"; }
uint64_t now() { return sc_core::sc_time_stamp().value(); }

// Raises one interrupt line at a chosen time.
struct LineDriver : sc_core::sc_module {
  sc_core::sc_out<bool> out{"out"};
  uint64_t at_ps = 0;  // 0: never
  SC_HAS_PROCESS(LineDriver);
  explicit LineDriver(sc_core::sc_module_name n) : sc_module(n) { SC_THREAD(run); }
  void run() {
    if (!at_ps) return;
    wait(sc_time::from_value(at_ps));
    out.write(true);
  }
};

struct Bench {
  Bench() : cfg(Config::from_yaml_string(kConfig)) {
    cpu.bus.bind(bus.tsock);
    bus.attach("DRAM", dram.tsock);
    bus.attach("INTC", intc.regs);
    intc.irq_in[0](line);
    for (int i = 1; i < IRQ_INPUTS; ++i) intc.irq_in[i](idle[i]);
    intc.irq_out(cpu_irq);
    cpu.irq(cpu_irq);
    drv.out(line);
    cpu.on_stop = [] { sc_core::sc_stop(); };
  }
  void run(const char* name) {
    sc_core::sc_start(sc_core::SC_ZERO_TIME);
    cpu.load_elf(program(name));
    cpu.start();
    sc_core::sc_start();
  }
  Config cfg;
  Bus bus{"bus", cfg};
  Dram dram{"dram", cfg};
  Intc intc{"intc", cfg};
  CpuIss cpu{"cpu", cfg};
  LineDriver drv{"drv"};
  sc_core::sc_signal<bool> line{"line"}, cpu_irq{"cpu_irq"}, idle[IRQ_INPUTS];
};

// The program stopped on a fault whose message names every part.
void expect_fault(const Bench& b, std::initializer_list<const char*> parts) {
  ASSERT_EQ(b.cpu.state(), CpuIss::State::faulted) << "state " << int(b.cpu.state());
  for (const char* p : parts) EXPECT_NE(b.cpu.fault().find(p), std::string::npos) << p << " not in: " << b.cpu.fault();
}

}  // namespace

TEST(CpuIss, RunsAProgramThroughDramAndTheBusAndCountsItsTime) {
  Bench b;
  b.run("compute");
  ASSERT_EQ(b.cpu.state(), CpuIss::State::exited) << b.cpu.fault();
  EXPECT_EQ(b.cpu.exit_code(), 7);
  uint32_t sum = 0;
  for (uint32_t i = 1; i <= 1000; ++i) sum += i * i % 7;
  EXPECT_EQ(b.cpu.peek32(SSDVP_DRAM_BASE + 0x100), sum);   // the program's store, in the DRAM model
  EXPECT_EQ(b.cpu.peek32(SSDVP_DRAM_BASE + 0x104), 0x5u);  // INTC.ENABLE written and read back over the bus
  EXPECT_EQ(b.intc.enabled(), 0x5u);
  const auto& s = b.cpu.stats();
  EXPECT_GT(s.instructions, 5000u);  // the loop alone retires several per iteration
  EXPECT_EQ(s.mmio_writes, 1u);
  EXPECT_EQ(s.mmio_reads, 1u);
  // Time = instructions x CPI x 2 ns, plus the two bus accesses (2 cycles at 1 GHz each way
  // and the INTC's own access time) -- at least the instruction part, and not much more.
  const uint64_t insn_ps = uint64_t(double(s.instructions) * 1.5 * 2000);
  EXPECT_GE(now(), insn_ps);
  EXPECT_LT(now(), insn_ps + 1000000);
}

TEST(CpuIss, WaitForInterruptLetsTimePassAndTheInterruptIsTaken) {
  Bench b;
  b.drv.at_ps = 50000000;  // 50 us
  b.run("irq");
  ASSERT_EQ(b.cpu.state(), CpuIss::State::exited) << b.cpu.fault();
  EXPECT_EQ(b.cpu.exit_code(), 0);
  EXPECT_EQ(b.cpu.peek32(SSDVP_DRAM_BASE + 0x200), 0x8000000Bu);  // mcause: machine external interrupt
  EXPECT_EQ(b.cpu.stats().interrupts, 1u);
  EXPECT_GE(b.cpu.stats().waits, 1u);
  EXPECT_GE(now(), 50000000u);
  EXPECT_GE(b.cpu.stats().idle_ps, 40000000u);  // most of the 50 us waiting, not executing
}

TEST(CpuIss, AnIllegalInstructionStopsTheProgramNamingThePcItsFunctionAndTheCause) {
  Bench b;
  b.run("fault");
  expect_fault(b, {"pc 0x", "(main+0x", "illegal instruction"});
}

TEST(CpuIss, TheWatchdogEndsAProgramThatNeverWaits) {
  Bench b;
  b.run("spin");
  expect_fault(b, {"cpu.iss.watchdog"});
  EXPECT_GE(b.cpu.stats().instructions, 5000000u);
}

TEST(CpuIss, BadElfFilesAreRefusedWithTheirName) {
  // Files are checked before any memory is touched, so this needs no
  // elaboration (and throws before SystemC's coroutines ever ran, which
  // AddressSanitizer cannot follow).
  Bench b;
  const std::string dir = testing::TempDir();
  EXPECT_THROW(
      try { b.cpu.load_elf(dir + "/missing.elf"); } catch (const std::runtime_error& e) {
        EXPECT_NE(std::string(e.what()).find("missing.elf"), std::string::npos);
        throw;
      },
      std::runtime_error);
  std::ofstream(dir + "/text.elf") << "not an elf at all, just text long enough to have a header..................";
  EXPECT_THROW(b.cpu.load_elf(dir + "/text.elf"), std::runtime_error);
  // A host (x86-64) executable: wrong class and machine.
  EXPECT_THROW(b.cpu.load_elf("/bin/true"), std::runtime_error);
}

TEST(CpuIss, AStackOverflowHitsTheGuardPageAndIsNamed) {
  Bench b;
  b.run("stack");
  expect_fault(b, {"stack overflow", "(recurse+0x"});
}

TEST(CpuIss, AStoreOutsideTheMapIsNamedWithItsAddressAndFunction) {
  Bench b;
  b.run("wild");
  expect_fault(b, {"write to 0x20000000, outside the memory map", "(scribble+0x"});
}

// A power cycle (CpuIss::power_cycle) abandons the program where it waits,
// loses SRAM outside the image and the core's registers, and starts the
// program again at its entry point: C start-up initialises .data and .bss
// again, mstatus is out of reset (the first start had enabled interrupts),
// and a program that parks in timed mode waits for start() to go on.
TEST(CpuIss, APowerCycleStartsTheProgramAgainFromResetWithItsCStartUp) {
  Bench b;
  int parks = 0;
  b.cpu.on_park = [&] {
    ++parks;
    b.cpu.start();
  };
  sc_core::sc_start(sc_core::SC_ZERO_TIME);
  b.cpu.load_elf(program("restart"));
  b.cpu.start();
  sc_core::sc_start(sc_time(100, sc_core::SC_US));
  ASSERT_EQ(b.cpu.state(), CpuIss::State::running) << b.cpu.fault();  // waiting for an interrupt
  const uint32_t out = SSDVP_DRAM_BASE + 0x300;
  ASSERT_EQ(b.cpu.peek32(out), 1u);
  const uint64_t before = b.cpu.stats().instructions, cut = now();
  const uint32_t stack_top = b.cpu.symbol("__stack");
  ASSERT_NE(stack_top, 0u);
  EXPECT_NE(b.cpu.peek32(stack_top - 4), 0xa5a5a5a5u);
  b.cpu.power_cycle();
  EXPECT_EQ(b.cpu.peek32(stack_top - 4), 0xa5a5a5a5u);  // SRAM outside the image is lost
  sc_core::sc_start();
  ASSERT_EQ(b.cpu.state(), CpuIss::State::exited) << b.cpu.fault();
  EXPECT_EQ(b.cpu.exit_code(), 5);
  EXPECT_EQ(parks, 1);
  EXPECT_EQ(b.cpu.peek32(out), 2u);  // DRAM kept its contents; the program ran twice
  for (uint32_t run = 0; run < 2; ++run) {
    EXPECT_EQ(b.cpu.peek32(out + 4 * (1 + 3 * run)), 0x1234abcdu) << "run " << run;     // .data
    EXPECT_EQ(b.cpu.peek32(out + 4 * (2 + 3 * run)), 0u) << "run " << run;              // .bss
    EXPECT_EQ(b.cpu.peek32(out + 4 * (3 + 3 * run)) & (1u << 3), 0u) << "run " << run;  // mstatus.MIE
  }
  EXPECT_GT(b.cpu.stats().instructions, before);
  EXPECT_GE(now(), cut);
}
