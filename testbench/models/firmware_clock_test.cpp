// The firmware's clock shared by both CPU models (models/cpu/firmware_clock.h).
#include <gtest/gtest.h>

#include "cpu/firmware_clock.h"

using ssdvp::FirmwareClock;

TEST(FirmwareClock, FunctionalTimeStandsStillUnlessSet) {
  FirmwareClock c;
  EXPECT_EQ(c.now_ns(true, 5'000'000), 0u);  // simulated time does not move it
  c.set_functional_time_ns(42'000);
  EXPECT_EQ(c.now_ns(true, 9'000'000), 42'000u);
}

TEST(FirmwareClock, TimedSimulationContinuesFromTheFunctionalClock) {
  FirmwareClock c;
  c.set_functional_time_ns(10'000'000);  // preconditioning replayed 10 ms of trace
  c.continue_from_functional(0);         // timed simulation starts at 0
  EXPECT_EQ(c.now_ns(false, 0), 10'000'000u);
  EXPECT_EQ(c.now_ns(false, 3'000'000), 10'003'000u);  // 3 us later (ps)
}

TEST(FirmwareClock, NeverRunsBackwardsWhenSimulationIsAlreadyAhead) {
  FirmwareClock c;
  c.set_functional_time_ns(1'000);
  c.continue_from_functional(5'000'000);  // 5 us of simulated time already passed
  EXPECT_EQ(c.now_ns(false, 5'000'000), 5'000u);
  EXPECT_EQ(c.now_ns(false, 6'000'000), 6'000u);
}
