// zns_run.h - a run with nvme.command_set zns (docs/models/zns.md): the host
// driver talks to the zoned drive directly; workload.source zoned is a
// zoned log whose zone resets are its only "garbage collection".
#pragma once

#include "common/config.h"
#include "host/workload/zoned.h"

extern "C" {
#include "ftl.h"
}

namespace ssdvp {

class HostDriver;

// The zones of a drive configured with c (zns.h: one zone per block).
host::ZoneGeometry zns_geometry(const ftl_config& c);
// With nvme.command_set zns: tells the host driver the zone size (what a
// zoned run cannot take is refused by the run plan, run_plan.h); otherwise
// nothing. True for a zoned drive.
bool zns_setup(const ftl_config& c, HostDriver& host);

}  // namespace ssdvp
