// zns_run.cpp - a run with nvme.command_set zns (zns_run.h).
#include "run/zns_run.h"

#include <string>

#include "host/host_driver.h"
#include "run/run_component.h"
#include "soc/ssd_soc.h"

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

bool zns_setup(const ftl_config& c, HostDriver& host) {
  if (c.command_set != FTL_CMDSET_ZNS) return false;
  // Flows, power cuts and functional preconditioning are refused by the run plan (run_plan.cpp).
  if (c.max_transfer_lbas > OCSSD_MAX_VECTOR)
    throw ConfigError("config key 'ftl.max_transfer': " + std::to_string(c.max_transfer_lbas) +
                      " LBAs; a zoned command names at most " + std::to_string(OCSSD_MAX_VECTOR));
  const host::ZoneGeometry g = zns_geometry(c);
  host.set_zones(g.zone_bits, g.zone_cap);
  return true;
}

namespace {

// The zones for the host driver and for workload.source zoned.
class ZnsComponent : public RunComponent {
 public:
  void attach(RunContext& x) override {
    zns_setup(x.soc.fw_config(), x.host);
    zones_ = zns_geometry(x.soc.fw_config());
    x.zones = &zones_;
  }

 private:
  host::ZoneGeometry zones_;
};

}  // namespace

std::unique_ptr<RunComponent> make_zns_run() { return std::make_unique<ZnsComponent>(); }

}  // namespace ssdvp
