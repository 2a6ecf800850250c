// power_loss.h - a power cut in the middle of a timed run, power-up with
// recovery, and the host's durability check of every LBA (issue 20 section 1).
//
// power.cut_at: the simulation stops that long after the timed part starts.
// Then, as a drive would see it: the flash controller drops what was in
// flight (power.plp: operations in flight finish and the firmware's
// power-fail handler programs its partly filled pages, at most
// power.plp_pages of them; without it, programs and erases in flight are
// torn); the host's outstanding commands fail (never acknowledged); DRAM is
// lost (the firmware starts from ftl_init and rebuilds its tables from the
// flash, ftl_recover); the host reads every LBA and checks it against the
// scoreboard's durability rules (scoreboard.h, check_recovered).
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>

#include "common/config.h"

namespace ssdvp {

class HostDriver;
class Scoreboard;
class SsdSoc;

struct PowerKeys {
  uint64_t cut_ps = 0;  // 0: no cut
  bool plp = true;
  uint32_t plp_pages = 0;
  static PowerKeys read(Config& cfg);
};

// After the simulation stopped at the cut (the host not finished): the cut,
// the recovery and the check. Returns the summary's "power" section; its
// "violations" (durable data lost, or data that was never this LBA's) must
// be 0.
nlohmann::json power_cut_and_recover(SsdSoc& soc, HostDriver& host, Scoreboard& sb, const PowerKeys& keys);

}  // namespace ssdvp
