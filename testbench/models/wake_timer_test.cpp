// WakeTimer (models/common/wake_timer.h): a thread waiting on its event or
// another wakes at the same times as with wait(t, e), whichever arm() came
// before: the same time again, an earlier one, a later one, none.
#include <gtest/gtest.h>

#include <systemc>

#include <cstdint>
#include <functional>
#include <utility>
#include <vector>

#include "common/wake_timer.h"

using sc_core::sc_time;
using sc_core::SC_US;
using ssdvp::WakeTimer;

namespace {

uint64_t now_ps() { return sc_core::sc_time_stamp().value(); }
constexpr uint64_t us(uint64_t v) { return v * 1'000'000; }

// Runs body in a thread beside a timer and an event the test notifies.
struct Bench : sc_core::sc_module {
  WakeTimer timer{"timer"};
  sc_core::sc_event other{"other"};
  std::function<void(Bench&)> body;
  std::vector<uint64_t> woke;  // ps
  SC_HAS_PROCESS(Bench);
  explicit Bench(sc_core::sc_module_name n) : sc_module(n) { SC_THREAD(run); }
  void run() { body(*this); }
  void wait_timer_or_other() {
    wait(timer.event() | other);
    woke.push_back(now_ps());
  }
};

using Times = std::vector<uint64_t>;

// The times (ps) at which body's waits returned, the simulation run to its end.
Times woke_at(std::function<void(Bench&)> body) {
  Bench b("b");
  b.body = std::move(body);
  sc_core::sc_start();
  return b.woke;
}

}  // namespace

TEST(WakeTimer, FiresAtTheArmedTime) {
  EXPECT_EQ(woke_at([](Bench& t) {
              t.timer.arm(us(10), now_ps());
              t.wait_timer_or_other();
            }),
            (Times{us(10)}));
}

TEST(WakeTimer, ArmedAgainForTheSameTimeAfterAnotherWakeStillFiresThen) {
  EXPECT_EQ(woke_at([](Bench& t) {
              t.other.notify(sc_time(2, SC_US));
              t.timer.arm(us(10), now_ps());
              t.wait_timer_or_other();  // the other event, at 2 us
              t.timer.arm(us(10), now_ps());
              t.wait_timer_or_other();  // the timer, at 10 us
            }),
            (Times{us(2), us(10)}));
}

TEST(WakeTimer, AnEarlierTimeReplacesTheArmedOne) {
  EXPECT_EQ(woke_at([](Bench& t) {
              t.timer.arm(us(10), now_ps());
              t.timer.arm(us(5), now_ps());
              t.wait_timer_or_other();  // at 5 us
              t.other.notify(sc_time(15, SC_US));
              t.wait_timer_or_other();  // not at 10 us (cancelled): the other event at 20 us
            }),
            (Times{us(5), us(20)}));
}

TEST(WakeTimer, ALaterTimeReplacesTheArmedOne) {
  // sc_event::notify alone keeps the earlier of two notifications; the timer
  // must not fire at the time it was armed for first.
  EXPECT_EQ(woke_at([](Bench& t) {
              t.timer.arm(us(10), now_ps());
              t.timer.arm(us(15), now_ps());
              t.wait_timer_or_other();
            }),
            (Times{us(15)}));
}

TEST(WakeTimer, ArmedAgainAfterItFiredFiresAgain) {
  EXPECT_EQ(woke_at([](Bench& t) {
              t.timer.arm(us(4), now_ps());
              t.wait_timer_or_other();
              t.timer.arm(us(9), now_ps());
              t.wait_timer_or_other();
            }),
            (Times{us(4), us(9)}));
}

TEST(WakeTimer, DisarmedItDoesNotFire) {
  EXPECT_EQ(woke_at([](Bench& t) {
              t.timer.arm(us(10), now_ps());
              t.timer.disarm();
              t.other.notify(sc_time(30, SC_US));
              t.wait_timer_or_other();
            }),
            (Times{us(30)}));
}

TEST(WakeTimer, ATimeAlreadyPastFiresInTheNextDeltaCycle) {
  uint64_t deltas = 0;
  EXPECT_EQ(woke_at([&deltas](Bench& t) {
              wait(sc_time(3, SC_US));
              const uint64_t d0 = sc_core::sc_delta_count();
              t.timer.arm(us(1), now_ps());
              t.wait_timer_or_other();
              deltas = sc_core::sc_delta_count() - d0;
            }),
            (Times{us(3)}));
  EXPECT_EQ(deltas, 1u);
}
