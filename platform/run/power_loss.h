// power_loss.h - power cuts in the middle of a timed run, power-up with
// recovery, and the host's durability check of every LBA (issue 20 section 1).
//
// power.cut_at: the simulation stops that long after the timed part starts
// and the run ends after the check. power.cuts: N: N instants drawn with
// power.seed in [0, power.cuts_span) of the timed part's time powered up
// (the recoveries' time not counted); after each cut,
// recovery and check the host goes on (the scoreboard takes what was read
// back) until the next cut or the end of the workload.
//
// A cut, as a drive would see it: the flash controller drops what was in
// flight (power.plp: operations in flight finish and the firmware's
// power-fail handler programs its partly filled pages, at most
// power.plp_pages of them; without it, programs and erases in flight are
// torn); the NVMe controller forgets its queues and everything not yet
// published; the host's outstanding commands fail (00h/05h, never
// acknowledged) and it creates its queue again; DRAM is lost. Power-up at
// the same instant: the firmware starts from ftl_init and rebuilds its
// tables from the flash (ftl_recover) in simulated time: its reads go to the
// dies through the flash controller, its CPU work is charged, and the host
// interface does not fetch commands until it is done (the host waits, as for
// CSTS.RDY). Then every LBA is read functionally and checked against the
// scoreboard's durability rules (scoreboard.h, check_recovered).
#pragma once

#include <systemc>

#include <cstdint>
#include <nlohmann/json.hpp>
#include <vector>

#include "common/config.h"

namespace ssdvp {

class HostDriver;
class Scoreboard;
class SsdSoc;

struct PowerKeys {
  uint64_t cut_ps = 0;  // 0: no cut
  bool plp = true;
  uint32_t plp_pages = 0;
  uint64_t cuts = 0, seed = 1, span_ps = 0;
  uint64_t check_budget = 0;  // most LBAs all cuts' checks may read back
  static PowerKeys read(Config& cfg);
  // Refuses power.cuts whose checks (each reads every one of lbas back)
  // would pass power.check_budget_lbas: ConfigError naming how many fit.
  void check_cost(uint64_t lbas) const;
  // power.cuts: the instants (ps after the timed part starts), ascending.
  std::vector<uint64_t> instants() const;
};

// Every process under root (a module) never runs again until
// resume_processes(root): suspended where it waits (the host at a cut).
void halt_processes(sc_core::sc_object& root);
void resume_processes(sc_core::sc_object& root);

// After the simulation stopped at the cut (the host not finished): the cut,
// the recovery and the check. Returns the cut's part of the summary's
// "power" section; its "violations" (durable data lost, or data that was
// never this LBA's) must be 0. go_on: the scoreboard takes what was read as
// every LBA's content, the firmware's event loop and the host go on
// (sc_start again to continue).
nlohmann::json power_cut_and_recover(SsdSoc& soc, HostDriver& host, Scoreboard& sb, const PowerKeys& keys,
                                     bool go_on = false);

// The "power" section of a run with power.cuts: every cut and their totals.
nlohmann::json power_cuts_summary(const std::vector<nlohmann::json>& cuts, const PowerKeys& keys);

}  // namespace ssdvp
