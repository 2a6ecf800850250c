// zns_run.cpp - a run with nvme.command_set zns (zns_run.h).
#include "run/zns_run.h"

#include <string>

#include "host/host_driver.h"

extern "C" {
#include "ocssd.h"
#include "zns.h"
}

namespace ssdvp {

host::ZoneGeometry zns_geometry(const ftl_config& c) {
  host::ZoneGeometry g;
  g.zone_cap = uint64_t(c.pages_per_block) * c.slots_per_page;
  g.zone_bits = zns_zone_bits(uint32_t(g.zone_cap));
  g.zones = c.logical_lbas >> g.zone_bits;
  g.write_unit = c.slots_per_page;
  g.lba_size = c.lba_bytes;
  return g;
}

bool zns_setup(Config& cfg, const ftl_config& c, HostDriver& host) {
  if (c.command_set != FTL_CMDSET_ZNS) return false;
  auto refuse = [](const std::string& key, const std::string& why) {
    throw ConfigError("config key '" + key + "': not with nvme.command_set zns (" + why + ")");
  };
  if (cfg.get_u64("flows.count", 0, "") != 0) refuse("flows.count", "one host writes the zones");
  if (cfg.get_time_ps("power.cut_at", "0s", "") != 0) refuse("power.cut_at", "no zone-state recovery yet");
  if (cfg.get_u64("power.cuts", 0, "") != 0) refuse("power.cuts", "no zone-state recovery yet");
  for (const char* k : {"precondition.fill", "precondition.random_drive_writes", "precondition.workload_fraction"})
    if (cfg.get_double(k, std::string(k) == "precondition.fill" ? 1.0 : 0.0, "") != 0)
      refuse(k, "the drive has no LBA map to fill functionally; set it to 0");
  if (cfg.get_u64("precondition.workload_requests", 0, "") != 0)
    refuse("precondition.workload_requests", "the drive has no LBA map to fill functionally");
  if (c.max_transfer_lbas > OCSSD_MAX_VECTOR)
    throw ConfigError("config key 'ftl.max_transfer': " + std::to_string(c.max_transfer_lbas) +
                      " LBAs; a zoned command names at most " + std::to_string(OCSSD_MAX_VECTOR));
  const host::ZoneGeometry g = zns_geometry(c);
  host.set_zones(g.zone_bits, g.zone_cap);
  return true;
}

}  // namespace ssdvp
