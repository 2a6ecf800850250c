// oracle.h - the oracle stream assignment: a host-side pre-pass over the
// whole workload that gives every write the class of its data's real death
// time, sent as an NVMe stream ID. It is the lower bound the placement
// policies are measured against (docs/firmware.md, "Placement").
//
// Death time is logical: the LBAs the host writes between this write of an
// LBA and the next write or trim of the same LBA (d). With K classes and L
// logical LBAs, class = clamp(floor(log2(d * 2^(K-1) / L)), 0, K-2); data
// never overwritten in the workload is class K-1 (the coldest). For K = 6:
// d < L/16, < L/8, < L/4, < L/2, >= L/2, never. A request of several LBAs
// takes the most common class of its LBAs (ties: the hotter). Stream ID =
// class + 1.
#pragma once

#include <cstdint>
#include <memory>

#include "workload/workload.h"

namespace ssdvp {

// The class of a death distance (UINT64_MAX: never), as above.
uint32_t oracle_class(uint64_t distance, uint64_t logical_lbas, uint32_t classes);

// Reads `inner` to its end (at most max_requests requests, else throws
// std::runtime_error: the oracle needs a finite workload), then replays it
// with each write's stream set. LBAs fold into the namespace as in
// preconditioning (lba_range with wrap).
std::unique_ptr<host::Workload> make_oracle_streams(std::unique_ptr<host::Workload> inner, uint64_t logical_lbas,
                                                    uint32_t lba_size, uint32_t classes, uint64_t max_requests);

}  // namespace ssdvp
