// power_loss.cpp - see power_loss.h.
#include "run/power_loss.h"

#include <algorithm>
#include <chrono>
#include <random>
#include <stdexcept>
#include <vector>

#include "cpu/cpu_native.h"
#include "host/host_driver.h"
#include "host/scoreboard.h"
#include "soc/ssd_soc.h"

namespace ssdvp {

PowerKeys PowerKeys::read(Config& cfg) {
  PowerKeys k;
  k.cut_ps = cfg.get_time_ps("power.cut_at");
  k.plp = cfg.get_bool("power.plp");
  k.plp_pages = static_cast<uint32_t>(cfg.get_u64("power.plp_pages"));
  k.cuts = cfg.get_u64("power.cuts");
  k.seed = cfg.get_u64("power.seed");
  k.span_ps = cfg.get_time_ps("power.cuts_span");
  k.check_budget = cfg.get_u64("power.check_budget_lbas");
  if (k.cuts && k.span_ps == 0) throw ConfigError("config key 'power.cuts_span': must be positive with power.cuts");
  return k;
}

void PowerKeys::check_cost(uint64_t lbas) const {
  if (!cuts || lbas == 0 || cuts <= check_budget / lbas) return;
  throw ConfigError("config key 'power.cuts': " + std::to_string(cuts) + " cuts would each read all " +
                    std::to_string(lbas) + " LBAs back, more than power.check_budget_lbas (" +
                    std::to_string(check_budget) + ") allows: ask for at most " + std::to_string(check_budget / lbas) +
                    " cuts, or raise power.check_budget_lbas");
}

std::vector<uint64_t> PowerKeys::instants() const {
  std::mt19937_64 rng(seed);
  std::vector<uint64_t> t(cuts);
  for (auto& x : t) x = 1 + rng() % span_ps;
  std::sort(t.begin(), t.end());
  return t;
}

namespace {

void suspend_or_resume(sc_core::sc_object& root, bool suspend) {
  for (sc_core::sc_object* o : root.get_child_objects()) {
    sc_core::sc_process_handle h(o);
    if (!h.valid())
      suspend_or_resume(*o, suspend);
    else if (!h.terminated())
      suspend ? h.suspend() : h.resume();
  }
}

}  // namespace

void halt_processes(sc_core::sc_object& root) { suspend_or_resume(root, true); }
void resume_processes(sc_core::sc_object& root) { suspend_or_resume(root, false); }

namespace {

// Power-up: the firmware recovers in simulated time from now. Its "recovery"
// section; the functional path is on again after it.
nlohmann::json recover(SsdSoc& soc) {
  Controller& fw = soc.cpu();
  soc.flash.set_functional(false);
  const Controller::Usage u0 = fw.usage();
  const uint64_t up_ns = fw.firmware_time_ns();
  bool done = false, ok = false;
  uint64_t ready_ns = 0;
  fw.power_up(soc.fw_config(), [&](bool good) {
    done = true, ok = good;
    ready_ns = fw.firmware_time_ns();
    sc_core::sc_pause();
  });
  sc_core::sc_start();
  if (!done) throw std::runtime_error("power-up: the firmware's recovery did not finish (nothing left to simulate)");
  if (!ok) throw std::runtime_error("power-up: firmware recovery failed (see the log above)");
  const Controller::Usage u1 = fw.usage();
  fw.pause_functional();
  soc.flash.set_functional(true);
  const ftl_stats rs = fw.stats();
  nlohmann::json ops = nlohmann::json::object();  // what the recovery's CPU time went to
  for (int op = 0; op < FW_OP_COUNT; ++op)
    if (const uint64_t n = u1.ops[op] - u0.ops[op])
      ops[CpuNative::op_name(static_cast<enum fw_op>(op))] = {{"count", n},
                                                              {"time_s", double(u1.op_ps[op] - u0.op_ps[op]) * 1e-12}};
  return {{"pages_read", rs.recovery_pages},
          {"torn_pages", rs.recovery_torn},
          {"checkpoint_generation", rs.recovery_ckpt_gen},
          {"checkpoint_pages_read", rs.recovery_ckpt_pages},
          {"checkpoints_torn", rs.recovery_ckpt_torn},
          {"checkpoint_entries_dropped", rs.recovery_dropped},
          {"lbas_mapped", rs.recovery_lbas},
          {"free_blocks", rs.free_blocks},
          {"blocks_reopened", rs.recovery_reopened},
          {"trim_log_lbas_unmapped", rs.recovery_trimmed},
          {"time_s", double(ready_ns - up_ns) * 1e-9},
          {"scan_time_s", double(rs.recovery_ns) * 1e-9},
          {"cpu_s", double(u1.compute_ps + u1.bus_ps - u0.compute_ps - u0.bus_ps) * 1e-12},
          {"cpu_bus_s", double(u1.bus_ps - u0.bus_ps) * 1e-12},
          {"cpu_instructions", u1.instructions - u0.instructions},  // iss mode (native: 0)
          {"cpu_ops", ops}};
}

// The host reads every LBA back, each checked against the scoreboard (with
// go_on, which then takes what was found as the data). Its "check" section;
// violations: what the check refuses.
nlohmann::json check_read_back(SsdSoc& soc, Scoreboard& sb, const PowerKeys& k, bool trims_durable, bool go_on,
                               uint64_t& violations) {
  Controller& fw = soc.cpu();
  const uint64_t lbas = soc.logical_lbas();
  const uint32_t chunk = std::max<uint32_t>(1, std::min<uint32_t>(soc.fw_config().max_transfer_lbas, 256));
  std::vector<uint32_t> tok(chunk);
  uint64_t latest = 0, older = 0, lost = 0, foreign = 0, unchecked = 0, unreadable = 0, dealloc = 0;
  for (uint64_t lba = 0; lba < lbas; lba += chunk) {
    const uint32_t n = uint32_t(std::min<uint64_t>(chunk, lbas - lba));
    if (fw.func_read(lba, n, tok.data()) != 0) {  // a command failed: read LBA by LBA
      for (uint32_t i = 0; i < n; ++i) {
        uint32_t t = 0;
        if (fw.func_read(lba + i, 1, &t) != 0) ++unreadable, t = 0xffffffffu;
        tok[i] = t;
      }
    }
    for (uint32_t i = 0; i < n; ++i) {
      uint32_t found = 0;
      switch (sb.check_recovered(lba + i, tok[i], k.plp, trims_durable, &found)) {
        case Scoreboard::Recovered::latest:
          ++latest;
          dealloc += found == 0;
          break;
        case Scoreboard::Recovered::older: ++older; break;
        case Scoreboard::Recovered::lost: ++lost; break;
        case Scoreboard::Recovered::foreign: ++foreign; break;
        case Scoreboard::Recovered::unchecked: ++unchecked; break;
      }
      if (go_on) sb.recovered(lba + i, found);
    }
  }
  violations = lost + foreign + unreadable;
  return {{"lbas", lbas},
          {"latest", latest},
          {"older_allowed", older},
          {"durable_lost", lost},
          {"foreign", foreign},
          {"unreadable", unreadable},
          {"deallocated_unchecked", unchecked},
          {"deallocated_latest", dealloc}};
}

}  // namespace

nlohmann::json power_cut_and_recover(SsdSoc& soc, HostDriver& host, Scoreboard& sb, const PowerKeys& k, bool go_on) {
  const auto w0 = std::chrono::steady_clock::now();
  const uint64_t cut_ps = sc_core::sc_time_stamp().value();
  const uint32_t outstanding = host.outstanding_commands();
  Controller& fw = soc.cpu();
  const ftl_stats at_cut = fw.stats();
  const uint64_t now_ns = fw.firmware_time_ns();
  const bool gc_at_cut = fw.gc_active_ns(now_ns) != at_cut.gc_active_ns;  // a victim open: GC relocating
  const bool ckpt_at_cut = at_cut.ckpt_in_progress != 0;
  const FlashCtrl::CutResult torn = soc.flash.power_cut(k.plp);
  soc.nvme.power_loss();  // queues and unpublished completions gone
  halt_processes(host);   // the host waits for the drive to be ready again
  host.power_loss();      // its outstanding commands fail; its queue is created again
  soc.flash.set_functional(true);
  const uint32_t unflushed = k.plp ? fw.power_fail(k.plp_pages) : 0;
  if (!k.plp) fw.pause_functional();
  const nlohmann::json recovery = recover(soc);
  // With the trim log (trimlog.c: with checkpoints unless power.trim_log.mode
  // is off, without them when it is on) deallocations are checked like writes.
  const bool trims_durable = ftl_trims_persistent(&soc.fw_config()) != 0;
  uint64_t violations = 0;
  const nlohmann::json check = check_read_back(soc, sb, k, trims_durable, go_on, violations);
  if (go_on) {  // the drive is ready: the firmware's event loop and the host go on
    sb.recovered_all();
    soc.flash.set_functional(false);
    fw.resume();
    resume_processes(host);
    host.power_up();
  }
  return {{"cut_at_s", double(cut_ps) * 1e-12},
          {"plp", k.plp},
          {"during_gc", gc_at_cut},
          {"during_checkpoint", ckpt_at_cut},
          {"host_commands_failed", outstanding},
          {"flash_completions_dropped", torn.dropped},
          {"torn_programs", torn.torn_programs},
          {"torn_copybacks", torn.torn_copybacks},  // of them copyback destinations (ftl.gc.copyback)
          {"torn_erases", torn.torn_erases},
          {"plp_pages_not_programmed", unflushed},
          {"recovery", recovery},
          {"check", check},
          {"violations", violations},
          {"deallocations_persistent", trims_durable},  // the contract the check applied (scoreboard.h)
          {"ready_at_s", double(sc_core::sc_time_stamp().value()) * 1e-12},
          {"wall_s", std::chrono::duration<double>(std::chrono::steady_clock::now() - w0).count()}};
}

nlohmann::json power_cuts_summary(const std::vector<nlohmann::json>& cuts, const PowerKeys& k) {
  uint64_t violations = 0, during_gc = 0, during_ckpt = 0, torn_p = 0, torn_e = 0, failed = 0, unchecked = 0;
  bool persistent = false;
  double rec_s = 0, rec_max = 0, cpu_s = 0;
  for (const auto& c : cuts) {
    violations += c["violations"].get<uint64_t>();
    unchecked += c["check"]["deallocated_unchecked"].get<uint64_t>();
    persistent = c["deallocations_persistent"].get<bool>();
    during_gc += c["during_gc"].get<bool>();
    during_ckpt += c["during_checkpoint"].get<bool>();
    torn_p += c["torn_programs"].get<uint64_t>();
    torn_e += c["torn_erases"].get<uint64_t>();
    failed += c["host_commands_failed"].get<uint64_t>();
    const double t = c["recovery"]["time_s"].get<double>();
    rec_s += t;
    rec_max = std::max(rec_max, t);
    cpu_s += c["recovery"]["cpu_s"].get<double>();
  }
  const double n = cuts.empty() ? 1.0 : double(cuts.size());
  return {{"plp", k.plp},
          {"cuts_asked", k.cuts},
          {"cuts", cuts.size()},
          {"during_gc", during_gc},
          {"during_checkpoint", during_ckpt},
          {"torn_programs", torn_p},
          {"torn_erases", torn_e},
          {"host_commands_failed", failed},
          {"recovery_time_s_mean", rec_s / n},
          {"recovery_time_s_max", rec_max},
          {"recovery_cpu_s_mean", cpu_s / n},
          {"violations", violations},
          {"deallocations_persistent", persistent},
          {"deallocated_unchecked", unchecked},
          {"each", cuts}};
}

}  // namespace ssdvp
