// held_discards.h - a replayed trace's discards held back by the host
// (workload.trace_discards: hold), for the TRIM policies of the GC detector
// study (host.trim.policy idle, detector, oracle) on recorded file systems.
//
// A recording carries its file system's discards where the file system sent
// them (a `discard` mount, fstrim, mkfs). Held, each becomes pending instead,
// as a file system without `discard` keeps its deleted blocks until fstrim:
// the trace's trims are taken out of the request stream and added to a set of
// pending extents; a later write to a pending LBA takes that LBA out (the
// file system reused the block, so a late discard would destroy live data);
// the policy releases the set through trim_pending(), and the released
// discards come out of next() ahead of the trace's next request, at that
// request's predecessor's time (an open-loop host issues them at once).
// LBA granularity: a trim covers the whole LBAs inside its range, a write
// clears every LBA it touches.
#pragma once

#include <cstdint>
#include <deque>
#include <memory>
#include <string>

#include "discard_source.h"
#include "file_model.h"
#include "workload.h"

namespace ssdvp::fs {

class HeldDiscards : public host::Workload, public DiscardSource {
 public:
  HeldDiscards(std::unique_ptr<host::Workload> inner, uint32_t lba_bytes);

  bool next(host::IoRequest& out) override;
  void rewind() override;  // rewinds the trace; what is pending stays pending
  std::string describe() const override;
  const host::WorkloadStats& stats() const override { return inner_->stats(); }

  uint64_t trim_pending(uint64_t max_bytes) override;
  uint64_t pending_bytes() const override { return pending_.blocks() * lba_; }

  struct Stats {
    uint64_t held = 0, held_bytes = 0;          // the trace's trims taken out of the stream
    uint64_t reused_bytes = 0;                  // pending bytes a later write took back
    uint64_t released = 0, released_bytes = 0;  // discards the policy sent
  };
  const Stats& held_stats() const { return st_; }

 private:
  std::unique_ptr<host::Workload> inner_;
  uint32_t lba_;
  ExtentSet pending_;
  std::deque<host::IoRequest> out_;
  uint64_t last_time_ = 0;
  Stats st_;
};

}  // namespace ssdvp::fs
