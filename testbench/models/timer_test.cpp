// Bench for Timer: simulated time in ns, including the annotated delay.
#include <gtest/gtest.h>

#include "common/config.h"
#include "interconnect/timer.h"
#include "ssdvp_hw.h"
#include "test_initiator.h"

using namespace ssdvp;
using sc_core::SC_NS;
using sc_core::sc_time;

TEST(Timer, ReadsTimeIncludingAnnotatedDelay) {
  Config cfg = Config::from_yaml_string("timer: {access: 7ns}");
  test::TestInitiator ini("ini");
  Timer timer("timer", cfg);
  ini.isock.bind(timer.regs);
  ini.body = [&](test::TestInitiator& t) {
    wait(sc_time(1, sc_core::SC_US));
    t.local = sc_time(250, SC_NS);
    EXPECT_EQ(t.read32(TIMER_TIME_LO), 1250u);
    EXPECT_EQ(t.local, sc_time(257, SC_NS));
    EXPECT_EQ(t.read32(TIMER_TIME_HI), 0u);
  };
  sc_core::sc_start();
  EXPECT_TRUE(ini.done);
}

TEST(Timer, HighWordIsLatchedByLowRead) {
  Config cfg;
  test::TestInitiator ini("ini");
  Timer timer("timer", cfg);
  ini.isock.bind(timer.regs);
  ini.body = [&](test::TestInitiator& t) {
    const uint64_t ns = 5000000123ull;  // > 2^32 ns
    wait(sc_time(double(ns), SC_NS));
    t.local = sc_core::SC_ZERO_TIME;
    const uint32_t lo = t.read32(TIMER_TIME_LO);
    wait(sc_time(1, sc_core::SC_SEC));  // time moves on; HI stays as latched
    const uint32_t hi = t.read32(TIMER_TIME_HI);
    EXPECT_EQ((uint64_t(hi) << 32) | lo, ns);
    EXPECT_EQ(t.write32(TIMER_TIME_LO, 0), tlm::TLM_COMMAND_ERROR_RESPONSE);
  };
  sc_core::sc_start();
  EXPECT_TRUE(ini.done);
}
