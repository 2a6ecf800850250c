// device_summary.h - one drive's write figures over the timed part of a run:
// host and GC writes, metadata slots, erases, GC victims, GC time, and the
// write amplification they make. The single drive's "ftl" section
// (run_summary.cpp) and each of an array's "devices" (Device::timed_summary)
// are built from one of these, so both compute WAF the same way.
#pragma once

#include <cstdint>

#include <nlohmann/json.hpp>

extern "C" {
#include "ftl.h"
}

namespace ssdvp {

class Controller;

struct DeviceSummary {
  uint64_t host = 0;     // LBAs the host wrote
  uint64_t gc = 0;       // LBAs GC relocated
  uint64_t meta = 0;     // metadata slots written (checkpoints; 0 when not counted)
  uint64_t erases = 0;   // block erases
  uint64_t gc_runs = 0;  // GC victims
  double gc_active_s = 0;

  // The firmware's counters between the start of the timed part and now,
  // checkpoint programs counted as metadata slots (slots_per_page each);
  // gc_active_ns_at_start: Controller::gc_active_ns then.
  static DeviceSummary between(Controller& fw, const ftl_stats& now, const ftl_stats& at_start,
                               uint64_t gc_active_ns_at_start, uint32_t slots_per_page);
  // The GC time since the start of the timed part.
  static double gc_active_since(Controller& fw, uint64_t gc_active_ns_at_start);

  // (host + GC + metadata writes) / host writes; 0 without host writes.
  double waf() const { return host ? double(host + gc + meta) / double(host) : 0.0; }
  // waf, host_lba_writes, gc_lba_writes, gc_runs, erases, gc_active_s, and
  // metadata_lba_writes when there were any.
  nlohmann::json json() const;
};

}  // namespace ssdvp
