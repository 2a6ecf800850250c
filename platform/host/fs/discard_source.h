// discard_source.h - what the host's TRIM policy (host.trim.policy,
// host/gc_monitor.h) releases: discards a file system has made pending and
// the host holds until the policy sends them. Two sources: the file-level
// host's own file system (personalities.h) and a replayed trace's discards
// held back (held_discards.h, workload.trace_discards: hold).
#pragma once

#include <cstdint>

namespace ssdvp::fs {

class DiscardSource {
 public:
  virtual ~DiscardSource() = default;
  // Queues pending discards (lowest address first, at most max_bytes; 0:
  // all) ahead of the workload's own requests; returns the bytes queued.
  virtual uint64_t trim_pending(uint64_t max_bytes) = 0;
  // Bytes still pending.
  virtual uint64_t pending_bytes() const = 0;
};

}  // namespace ssdvp::fs
