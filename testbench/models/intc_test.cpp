// Bench for Intc: raw pending levels, the enable mask, the output line.
#include <gtest/gtest.h>

#include "common/config.h"
#include "common/wire.h"
#include "interconnect/intc.h"
#include "ssdvp_hw.h"
#include "test_initiator.h"

using namespace ssdvp;
using sc_core::SC_ZERO_TIME;

namespace {
struct Bench {
  Config cfg;
  test::TestInitiator ini{"ini"};
  Intc intc{"intc", cfg};
  sc_core::sc_signal<bool> line[IRQ_INPUTS];
  sc_core::sc_signal<bool> out{"out"};
  Bench() {
    ini.isock.bind(intc.regs);
    for (unsigned i = 0; i < IRQ_INPUTS; ++i) intc.irq_in[i].bind(line[i]);
    intc.irq_out.bind(out);
  }
};
}  // namespace

TEST(Intc, EnableMaskGatesOutput) {
  Bench b;
  b.ini.body = [&](test::TestInitiator& t) {
    b.line[IRQ_FLASH].write(true);
    wait(SC_ZERO_TIME);
    wait(SC_ZERO_TIME);
    EXPECT_EQ(t.read32(INTC_PENDING), 1u << IRQ_FLASH);
    EXPECT_EQ(t.read32(INTC_ENABLE), 0u);  // reset value
    EXPECT_FALSE(b.out.read());
    t.write32(INTC_ENABLE, 1u << IRQ_NVME_CMD);  // another line: still masked
    t.sync();
    wait(SC_ZERO_TIME);
    EXPECT_FALSE(b.out.read());
    t.write32(INTC_ENABLE, (1u << IRQ_NVME_CMD) | (1u << IRQ_FLASH));
    t.sync();
    wait(SC_ZERO_TIME);
    wait(SC_ZERO_TIME);
    EXPECT_TRUE(b.out.read());
    b.line[IRQ_FLASH].write(false);  // level-sensitive: follows the source
    wait(SC_ZERO_TIME);
    wait(SC_ZERO_TIME);
    EXPECT_FALSE(b.out.read());
    EXPECT_EQ(t.read32(INTC_PENDING), 0u);
    b.line[IRQ_NVME_CMD].write(true);
    wait(SC_ZERO_TIME);
    wait(SC_ZERO_TIME);
    EXPECT_TRUE(b.out.read());
    t.write32(INTC_ENABLE, 0);
    t.sync();
    wait(SC_ZERO_TIME);
    wait(SC_ZERO_TIME);
    EXPECT_FALSE(b.out.read());
  };
  sc_core::sc_start();
  EXPECT_TRUE(b.ini.done);
}

TEST(Intc, PendingIsReadOnlyAndAccessCostsTime) {
  Bench b;
  b.ini.body = [&](test::TestInitiator& t) {
    EXPECT_EQ(t.write32(INTC_PENDING, 1), tlm::TLM_COMMAND_ERROR_RESPONSE);
    t.local = SC_ZERO_TIME;
    t.read32(INTC_ENABLE);
    EXPECT_EQ(t.local, sc_core::sc_time(10, sc_core::SC_NS));
    tlm::tlm_response_status st;
    t.read32(0x40, &st);
    EXPECT_EQ(st, tlm::TLM_ADDRESS_ERROR_RESPONSE);
  };
  sc_core::sc_start();
  EXPECT_TRUE(b.ini.done);
}

// The timer: a TIMER_HI write arms it at HI:LO ns; its line rises at the
// deadline (not before), stays high while armed (a level: the firmware
// disarms it), falls when disarmed; a deadline already past fires at once.
TEST(Intc, TimerRaisesItsLineAtTheDeadlineUntilDisarmed) {
  Bench b;
  b.ini.body = [&](test::TestInitiator& t) {
    t.write32(INTC_ENABLE, 1u << IRQ_TIMER);
    t.write32(INTC_TIMER_LO, 5000);  // 5 us
    t.write32(INTC_TIMER_HI, 0);     // arms it
    t.sync();
    const sc_core::sc_time armed_at = sc_core::sc_time_stamp();
    EXPECT_LT(armed_at, sc_core::sc_time(5, sc_core::SC_US));
    EXPECT_EQ(t.read32(INTC_PENDING) & (1u << IRQ_TIMER), 0u);
    EXPECT_EQ(b.intc.timer_arms(), 1u);
    t.sync();
    wait(b.out.posedge_event());
    EXPECT_EQ(sc_core::sc_time_stamp(), sc_core::sc_time(5, sc_core::SC_US));
    EXPECT_EQ(t.read32(INTC_PENDING), 1u << IRQ_TIMER);
    wait(sc_core::sc_time(1, sc_core::SC_US));
    EXPECT_TRUE(b.out.read()) << "a level: high until the firmware disarms it";
    t.write32(INTC_TIMER_LO, 0);
    t.write32(INTC_TIMER_HI, 0);  // 0:0 disarms
    t.sync();
    wait(SC_ZERO_TIME);
    wait(SC_ZERO_TIME);
    EXPECT_FALSE(b.out.read());
    EXPECT_EQ(t.read32(INTC_PENDING), 0u);
    t.write32(INTC_TIMER_LO, 1000);  // 1 us: already past
    t.write32(INTC_TIMER_HI, 0);
    t.sync();
    wait(SC_ZERO_TIME);
    wait(SC_ZERO_TIME);
    EXPECT_TRUE(b.out.read());
    t.write32(INTC_ENABLE, 0);  // masked: pending stays, the output falls
    t.sync();
    wait(SC_ZERO_TIME);
    wait(SC_ZERO_TIME);
    EXPECT_FALSE(b.out.read());
    EXPECT_EQ(t.read32(INTC_PENDING), 1u << IRQ_TIMER);
  };
  sc_core::sc_start();
  EXPECT_TRUE(b.ini.done);
}

// Arming again moves the deadline: the earlier one never fires.
TEST(Intc, TimerRearmedMovesTheDeadline) {
  Bench b;
  b.ini.body = [&](test::TestInitiator& t) {
    t.write32(INTC_ENABLE, 1u << IRQ_TIMER);
    t.write32(INTC_TIMER_LO, 2000);
    t.write32(INTC_TIMER_HI, 0);
    t.write32(INTC_TIMER_LO, 9000);
    t.write32(INTC_TIMER_HI, 0);
    t.sync();
    wait(b.out.posedge_event());
    EXPECT_EQ(sc_core::sc_time_stamp(), sc_core::sc_time(9, sc_core::SC_US));
    EXPECT_EQ(b.intc.timer_arms(), 2u);
  };
  sc_core::sc_start();
  EXPECT_TRUE(b.ini.done);
}

// Inputs bound to Wires are followed without the intc's method: the output
// changes inside the source's write, before the source's process yields, and
// the method never runs for them. A plain-signal input beside them still
// wakes the method (one driver of irq_out either way).
TEST(Intc, WireInputsDriveTheOutputInTheWritersProcess) {
  Config cfg;
  test::TestInitiator ini{"ini"};
  Intc intc{"intc", cfg};
  Wire line[IRQ_INPUTS];
  sc_core::sc_signal<bool> slow{"slow"};
  Wire out{"out"};
  ini.isock.bind(intc.regs);
  for (unsigned i = 0; i < IRQ_INPUTS; ++i) {
    if (i == IRQ_ACCEL)
      intc.irq_in[i].bind(slow);
    else
      intc.irq_in[i].bind(line[i]);
  }
  intc.irq_out.bind(out);
  ini.body = [&](test::TestInitiator& t) {
    t.write32(INTC_ENABLE, (1u << IRQ_FLASH) | (1u << IRQ_ACCEL));
    t.sync();
    wait(SC_ZERO_TIME);
    wait(SC_ZERO_TIME);
    const uint64_t runs = intc.update_runs();
    line[IRQ_FLASH].write(true);
    EXPECT_TRUE(out.read()) << "combinational: no delta cycle between the source and the output";
    EXPECT_EQ(t.read32(INTC_PENDING), 1u << IRQ_FLASH);
    line[IRQ_NVME_CMD].write(true);  // masked: pending, the output unchanged
    EXPECT_EQ(t.read32(INTC_PENDING), (1u << IRQ_FLASH) | (1u << IRQ_NVME_CMD));
    line[IRQ_FLASH].write(false);
    EXPECT_FALSE(out.read());
    line[IRQ_NVME_CMD].write(false);
    EXPECT_EQ(intc.update_runs(), runs) << "a Wire input woke the output's method";
    EXPECT_EQ(intc.direct_updates(), 4u);
    slow.write(true);  // a plain signal: the method, a delta cycle later
    wait(SC_ZERO_TIME);
    wait(SC_ZERO_TIME);
    EXPECT_TRUE(out.read());
    EXPECT_GT(intc.update_runs(), runs);
    slow.write(false);
    wait(SC_ZERO_TIME);
    wait(SC_ZERO_TIME);
    EXPECT_FALSE(out.read());
  };
  sc_core::sc_start();
  EXPECT_TRUE(ini.done);
}

// A Wire has one listener: bound to two inputs, the second takes the method's
// path, and both bits still follow it.
TEST(Intc, AWireOnTwoInputsSetsBothBits) {
  Config cfg;
  test::TestInitiator ini{"ini"};
  Intc intc{"intc", cfg};
  Wire line[IRQ_INPUTS];
  Wire out{"out"};
  ini.isock.bind(intc.regs);
  for (unsigned i = 0; i < IRQ_INPUTS; ++i) intc.irq_in[i].bind(i == IRQ_NVME_CMD ? line[IRQ_FLASH] : line[i]);
  intc.irq_out.bind(out);
  ini.body = [&](test::TestInitiator& t) {
    t.write32(INTC_ENABLE, 1u << IRQ_NVME_CMD);
    t.sync();
    wait(SC_ZERO_TIME);
    line[IRQ_FLASH].write(true);
    wait(SC_ZERO_TIME);
    EXPECT_EQ(t.read32(INTC_PENDING), (1u << IRQ_FLASH) | (1u << IRQ_NVME_CMD));
    EXPECT_TRUE(out.read());
    line[IRQ_FLASH].write(false);
    wait(SC_ZERO_TIME);
    EXPECT_EQ(t.read32(INTC_PENDING), 0u);
    EXPECT_FALSE(out.read());
  };
  sc_core::sc_start();
  EXPECT_TRUE(ini.done);
}
