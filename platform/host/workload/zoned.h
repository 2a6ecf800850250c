// zoned.h - a zoned host workload (workload.source: zoned, for nvme.command_set
// zns; docs/models/zns.md): a log-structured writer on a zoned namespace.
//
// The host keeps workload.zoned.open_zones zones open and writes them round
// robin, each sequentially from its start (io_size per write), as a zoned
// log (an LSM tree's SSTables, a log-structured cache) does. A zone that
// fills joins a FIFO of full zones; when the next zone to open finds no
// empty one, the oldest full zone is reset first (a trim request of the whole
// zone, which the host driver sends as Zone Management Send Reset). That
// reset is the host's "garbage collection": its data has expired (a cache, a
// log with a retention window), so nothing is copied and the drive never
// relocates a page: the write amplification is 1 by construction. Reads
// (read_fraction) pick an io_size-aligned piece below a random zone's write
// pointer among the full and open zones. Deterministic for a seed.
#pragma once

#include <cstdint>
#include <deque>
#include <memory>
#include <string>
#include <vector>

#include "random.h"
#include "workload.h"

namespace ssdvp {
class Config;
}

namespace ssdvp::host {

// The namespace's zones, as the drive reports them (Identify, Report Zones).
struct ZoneGeometry {
  uint64_t zones = 0;       // zones in the namespace
  uint32_t zone_bits = 0;   // the zone size is 2^zone_bits LBAs
  uint64_t zone_cap = 0;    // writable LBAs of a zone (its capacity)
  uint32_t write_unit = 1;  // LBAs a write must be a multiple of (a flash page)
  uint32_t lba_size = 4096;
};

struct ZonedSpec {
  ZoneGeometry geo;
  uint64_t requests = 100000;  // requests (writes, reads and resets); 0: unlimited
  uint64_t io_size = 8192;     // bytes per write and read, a multiple of the write unit
  uint32_t open_zones = 8;     // zones written at once, round robin
  uint64_t zones_used = 0;     // zones the log cycles through (0: all)
  double read_fraction = 0.3;  // share of reads among reads and writes
  uint64_t seed = 1;

  // Reads workload.zoned.* (declaring each key) and, for a zoned namespace
  // (geo.zones > 0), validates them (ConfigError naming the key).
  static ZonedSpec from_config(Config& cfg, const ZoneGeometry& geo);
  std::string describe() const;
};

std::unique_ptr<Workload> make_zoned(const ZonedSpec& spec);

}  // namespace ssdvp::host
