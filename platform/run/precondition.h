// precondition.h - functional preconditioning (docs/user-guide.md
// "Preconditioning"): the keys every kind of run reads, and the stages a
// single drive runs before its timed part, through its firmware or the host
// FTL, with no simulated time passing.
#pragma once

#include <cstdint>
#include <functional>
#include <string>

#include "common/config.h"

extern "C" {
#include "ftl.h"
}

namespace ssdvp {

class Controller;
class Scoreboard;
namespace host {
class Workload;
}

// The preconditioning and timeline keys every kind of run reads (one SSD or
// an array), declared in this order.
struct RunKeys {
  double fill = 1.0, random_dw = 0, wl_fraction = 0;
  uint64_t wl_requests = 0, seed = 1;
  std::string free_pool = "auto";  // precondition.free_pool
  std::string timeline;
  uint64_t timeline_start = 0, timeline_len = 0;
  static RunKeys read(Config& cfg);
  // How many of w's first requests run functionally (a fraction counts them
  // first, then rewinds w).
  uint64_t workload_requests(host::Workload& w) const;
};

// What preconditioning writes through: the SoC's firmware (functional) or the host FTL.
struct FuncFtl {
  std::function<int(uint64_t, uint32_t, const uint32_t*, uint32_t)> write;
  std::function<int(uint64_t, uint64_t)> trim;
  std::function<int(uint32_t)> set_gc_threshold;
  std::function<const ftl_stats&()> stats;
  std::function<void(uint64_t)> set_time_ns;
};

// The drive preconditioning writes.
struct PreconditionTarget {
  FuncFtl fw;
  Scoreboard& sb;        // what every LBA should read back
  Controller* prefetch;  // the firmware, whose tables random overwrites prefetch (null: the host FTL)
  uint64_t lbas;         // the namespace
  uint32_t chunk;        // LBAs one write carries at most (ftl.max_transfer)
  uint32_t lba_size;     // bytes
  const ftl_config& fc;  // its GC threshold and reserve
  bool closed_loop;      // the host that follows is closed-loop (precondition.free_pool: auto)
};

// The stages in order: a sequential fill (precondition.fill), random
// single-LBA overwrites (precondition.random_drive_writes), the workload's
// first requests (precondition.workload_*; w is left after them), then the
// free pool settled where the timed part holds it (precondition.free_pool).
// Returns the LBAs written.
uint64_t precondition_drive(const RunKeys& keys, const PreconditionTarget& t, host::Workload& w);

}  // namespace ssdvp
