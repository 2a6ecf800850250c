// device_summary.cpp - see device_summary.h.
#include "run/device_summary.h"

#include "run/checkpoints.h"
#include "soc/controller.h"

namespace ssdvp {

double DeviceSummary::gc_active_since(Controller& fw, uint64_t gc_active_ns_at_start) {
  return double(fw.gc_active_ns(fw.firmware_time_ns()) - gc_active_ns_at_start) * 1e-9;
}

DeviceSummary DeviceSummary::between(Controller& fw, const ftl_stats& now, const ftl_stats& at_start,
                                     uint64_t gc_active_ns_at_start, uint32_t slots_per_page) {
  DeviceSummary d;
  d.host = now.host_lba_writes - at_start.host_lba_writes;
  d.gc = now.gc_lba_writes - at_start.gc_lba_writes;
  d.meta = checkpoint_slots(now, at_start, slots_per_page);
  d.erases = now.erases - at_start.erases;
  d.gc_runs = now.gc_victims - at_start.gc_victims;
  d.gc_active_s = gc_active_since(fw, gc_active_ns_at_start);
  return d;
}

nlohmann::json DeviceSummary::json() const {
  nlohmann::json j = {{"waf", waf()},       {"host_lba_writes", host}, {"gc_lba_writes", gc},
                      {"gc_runs", gc_runs}, {"erases", erases},        {"gc_active_s", gc_active_s}};
  if (meta) j["metadata_lba_writes"] = meta;  // what makes waf more than (host + gc) / host
  return j;
}

}  // namespace ssdvp
