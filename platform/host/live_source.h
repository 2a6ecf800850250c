// live_source.h - a request source that is not known in advance (the NBD
// export, platform/nbd), and the data path behind the host's tokens.
//
// HostDriver replays a Workload read ahead; a live source instead hands over
// requests as they arrive from outside the simulation, and may want the
// tokens the host sends and receives, to keep real bytes behind them. All
// calls come from the host driver's thread (simulated time); none throws.
#pragma once

#include <cstdint>
#include <string>

#include <systemc>

#include "workload.h"

namespace ssdvp {

class LiveSource {
 public:
  virtual ~LiveSource() = default;
  // A request that has arrived, if any: io.time_ps is its arrival time
  // relative to rel0 (the replay's start), never earlier than rel_now; io.line
  // is the source's tag, passed back in the calls below.
  virtual bool poll(host::IoRequest& io, uint64_t rel_now) = 0;
  // The host has nothing outstanding and no request in hand.
  enum class Idle { end, again, wait };
  // end: finish the replay; again: a request may have arrived (poll again);
  // wait: wait for arrival() (or the host's own timers).
  virtual Idle idle() = 0;
  // Notified when a request arrives while the host waits.
  virtual const sc_core::sc_event& arrival() const = 0;

  // The data path (tag = io.line of the request).
  virtual void on_write_tokens(uint64_t tag, uint64_t lba, const uint32_t* tokens, uint32_t n) = 0;
  virtual void on_read_tokens(uint64_t tag, uint64_t lba, const uint32_t* tokens, uint32_t n) = 0;
  virtual void on_complete(uint64_t tag, bool error, uint64_t arrival_ps, uint64_t done_ps) = 0;
};

// The innermost workload of a live run (ssdvp serve): the one request the
// live source has just handed over, so that the workload layers a run wraps
// around its workload (run_component.cpp: the journal, random, AutoStream and
// LSTM stream layers, the stream log) see and tag live requests as they do a
// trace's. The host driver puts each polled request in and takes it out
// through the layers at once.
class LiveFeed : public host::Workload {
 public:
  void put(const host::IoRequest& io) {
    io_ = io;
    full_ = true;
  }
  bool next(host::IoRequest& out) override {
    if (!full_) return false;
    out = io_;
    full_ = false;
    ++stats_.records;
    return true;
  }
  void rewind() override { full_ = false; }
  std::string describe() const override { return "live requests"; }
  const host::WorkloadStats& stats() const override { return stats_; }

 private:
  host::IoRequest io_{};
  bool full_ = false;
  host::WorkloadStats stats_{};
};

}  // namespace ssdvp
