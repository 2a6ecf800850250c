// cut_counters.h - the timed part's firmware counters across power cuts
// (power.cuts; docs/results/reliability.md, "Summary counters across cuts").
//
// The summary's ftl, mapping, reliability and checkpoint figures are the
// firmware's counters at the end minus their values when the timed part
// started (Simulation::at_start_), and the host's per-interval samples (where
// the GC and erase totals come from) are differences of the same counters. A
// cut loses the firmware's DRAM: the recovered firmware counts from 0 again,
// so those differences would wrap. At each cut the simulation carries what
// the recovery lost, carry += at_cut - after_recovery for every counter
// field, and adds it to what the firmware reports (the samples, the summary):
// the timed figures are then the sums over the segments the drive was
// powered up. What the recovery itself did (its scan reads, its erases) is
// not in them: the cut's own entry (power.each[].recovery) reports it.
// Gauges (free blocks and their minimum, bad-block counts, a checkpoint in
// progress, the recovery_* fields of the last recovery) are not counters and
// are left as the firmware reports them now.
#pragma once

extern "C" {
#include "ftl.h"
}

namespace ssdvp {

// acc += plus - minus, for every counter field (modulo 2^64; gauges left alone).
void add_counter_difference(ftl_stats& acc, const ftl_stats& plus, const ftl_stats& minus);

}  // namespace ssdvp
