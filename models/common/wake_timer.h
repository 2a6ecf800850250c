// A thread's "wake me at this time, or when that event comes" as one event
// armed at an absolute time and kept while the time stays the same.
//
// wait(t, e) puts a timed notification in the kernel's queue on every call;
// when e wakes the thread first, the kernel cancels the notification but keeps
// its entry until its time comes. A host that waits for "the next completion,
// or the next statistics sample" once per I/O leaves one dead entry per I/O
// until the sample time (a second away, thousands of I/Os), and every timed
// notification of the run then pays a deeper queue. WakeTimer notifies its
// event once per distinct wake time instead, so the waits in between add
// nothing to the queue; the thread wakes at the same times as with wait(t, e).
//
//   timer.arm(wake_ps, now_ps);              // UINT64_MAX: no time, the event alone
//   wait(list);  // timer.event() | msi_event, the list built once
#pragma once

#include <systemc>

#include <cstdint>

namespace ssdvp {

class WakeTimer {
 public:
  explicit WakeTimer(const char* name) : ev_(name) {}

  // The event fires at wake_ps (absolute, ps; at or before now_ps: in the
  // next delta cycle; kNever: not at all), notified again only when the time
  // differs from the one it is armed for.
  void arm(uint64_t wake_ps, uint64_t now_ps) {
    if (wake_ps == armed_ps_ && wake_ps > now_ps) return;
    ev_.cancel();  // sc_event::notify alone would keep the earlier of the two
    armed_ps_ = wake_ps;
    if (wake_ps != kNever) ev_.notify(sc_core::sc_time::from_value(wake_ps > now_ps ? wake_ps - now_ps : 0));
  }
  void disarm() { arm(kNever, 0); }
  const sc_core::sc_event& event() const { return ev_; }

  static constexpr uint64_t kNever = UINT64_MAX;

 private:
  sc_core::sc_event ev_;
  uint64_t armed_ps_ = kNever;
};

}  // namespace ssdvp
