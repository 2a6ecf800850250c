// simulation_power.cpp - Simulation::run_power_cuts (power.cuts, see
// power_loss.h): the timed part runs from cut to cut; at each, the cut, the
// recovery in simulated time and the check of every LBA, then the host goes
// on. The instants count the drive's time powered up: the time recoveries
// took is added, so every cut falls on a drive that has been up a while.
#include "host/host_driver.h"
#include "run/cut_counters.h"
#include "run/simulation.h"
#include "soc/ssd_soc.h"

namespace ssdvp {

std::vector<nlohmann::json> Simulation::run_power_cuts() {
  std::vector<nlohmann::json> cuts;
  sb_->track_durability();
  const uint64_t t0 = sc_core::sc_time_stamp().value();
  uint64_t down = 0;  // simulated time spent recovering so far
  for (const uint64_t at : plan_.power.instants()) {
    const uint64_t now = sc_core::sc_time_stamp().value();
    if (t0 + at + down > now) sc_core::sc_start(sc_core::sc_time::from_value(t0 + at + down - now));
    if (host_->finished() || host_->error() != nullptr || !soc_->cpu().fault().empty() ||
        sc_core::sc_get_status() == sc_core::SC_STOPPED)
      break;  // the run ended first: the cuts left do not happen
    for (auto c = components_.rbegin(); c != components_.rend(); ++c) (*c)->halt();
    const uint64_t cut = sc_core::sc_time_stamp().value();
    Controller& fw = soc_->cpu();
    const ftl_stats at_cut = fw.stats();
    const uint64_t gc_ns_at_cut = fw.gc_active_ns(fw.firmware_time_ns());
    cuts.push_back(power_cut_and_recover(*soc_, *host_, *sb_, plan_.power, true));
    // The recovered firmware counts from 0: what it lost is carried (cut_counters.h).
    add_counter_difference(cut_carry_, at_cut, fw.stats());
    at_start_gc_active_ns_ += fw.gc_active_ns(fw.firmware_time_ns()) - gc_ns_at_cut;
    down += sc_core::sc_time_stamp().value() - cut;
    for (auto& c : components_) c->resume();
  }
  if (sc_core::sc_get_status() != sc_core::SC_STOPPED && !host_->finished() && host_->error() == nullptr)
    sc_core::sc_start();
  return cuts;
}

}  // namespace ssdvp
