// Bench for Intc: raw pending levels, the enable mask, the output line.
#include <gtest/gtest.h>

#include "common/config.h"
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
  sc_core::sc_signal<bool> line[IRQ_COUNT];
  sc_core::sc_signal<bool> out{"out"};
  Bench() {
    ini.isock.bind(intc.regs);
    for (unsigned i = 0; i < IRQ_COUNT; ++i) intc.irq_in[i].bind(line[i]);
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
