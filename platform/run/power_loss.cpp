// power_loss.cpp - see power_loss.h.
#include "run/power_loss.h"

#include <algorithm>
#include <chrono>
#include <vector>

#include "host/host_driver.h"
#include "host/scoreboard.h"
#include "soc/ssd_soc.h"

namespace ssdvp {

PowerKeys PowerKeys::read(Config& cfg) {
  PowerKeys k;
  k.cut_ps = cfg.get_time_ps(
      "power.cut_at", "0s",
      "power cut this long after the timed part starts, then recovery and a check of every LBA (0: none)");
  k.plp = cfg.get_bool("power.plp", true,
                       "power-loss protection: operations in flight finish and buffered pages are programmed at a cut");
  k.plp_pages = static_cast<uint32_t>(
      cfg.get_u64("power.plp_pages", 64,
                  "power-loss protection: pages the capacitor's energy can still program at a cut", 0, 1u << 20));
  return k;
}

nlohmann::json power_cut_and_recover(SsdSoc& soc, HostDriver& host, Scoreboard& sb, const PowerKeys& k) {
  const auto w0 = std::chrono::steady_clock::now();
  const uint64_t cut_ps = sc_core::sc_time_stamp().value();
  const uint32_t outstanding = host.outstanding_commands();
  Controller& fw0 = soc.cpu();
  const ftl_stats at_cut = fw0.stats();
  const uint64_t now_ns = fw0.firmware_time_ns();
  const bool gc_at_cut = fw0.gc_active_ns(now_ns) != at_cut.gc_active_ns;  // a victim open: GC relocating
  const bool ckpt_at_cut = at_cut.ckpt_in_progress != 0;
  const FlashCtrl::CutResult torn = soc.flash.power_cut(k.plp);
  soc.flash.set_functional(true);
  Controller& fw = soc.cpu();
  const uint32_t unflushed = k.plp ? fw.power_fail(k.plp_pages) : 0;
  fw.recover(soc.fw_config());
  const ftl_stats rs = fw.stats();

  // The host reads every LBA back.
  const uint64_t lbas = soc.logical_lbas();
  const uint32_t chunk = std::max<uint32_t>(1, std::min<uint32_t>(soc.fw_config().max_transfer_lbas, 256));
  std::vector<uint32_t> tok(chunk);
  uint64_t latest = 0, older = 0, lost = 0, foreign = 0, unchecked = 0, unreadable = 0;
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
      switch (sb.check_recovered(lba + i, tok[i], k.plp)) {
        case Scoreboard::Recovered::latest: ++latest; break;
        case Scoreboard::Recovered::older: ++older; break;
        case Scoreboard::Recovered::lost: ++lost; break;
        case Scoreboard::Recovered::foreign: ++foreign; break;
        case Scoreboard::Recovered::unchecked: ++unchecked; break;
      }
    }
  }
  // Recovery time: the page reads (checkpoint and scan) spread over the
  // dies, each a command, tR and a page over its channel (an estimate: the
  // recovery ran functionally).
  const auto& t = soc.flash.timing();
  const auto& g = soc.geometry();
  const uint64_t read_pages = rs.recovery_pages + rs.recovery_ckpt_pages;
  const uint64_t per_die = (read_pages + g.dies() - 1) / g.dies();
  const uint64_t xfer = t.channel_ps(g.page_size);
  const uint64_t die_ps = per_die * (t.cmd_ps + t.read_ps + xfer);
  const uint64_t ch_ps = per_die * g.dies_per_channel * (t.cmd_ps + xfer);
  return {{"cut_at_s", double(cut_ps) * 1e-12},
          {"plp", k.plp},
          {"during_gc", gc_at_cut},
          {"during_checkpoint", ckpt_at_cut},
          {"host_commands_failed", outstanding},
          {"flash_completions_dropped", torn.dropped},
          {"torn_programs", torn.torn_programs},
          {"torn_erases", torn.torn_erases},
          {"plp_pages_not_programmed", unflushed},
          {"recovery",
           {{"pages_read", rs.recovery_pages},
            {"torn_pages", rs.recovery_torn},
            {"checkpoint_generation", rs.recovery_ckpt_gen},
            {"checkpoint_pages_read", rs.recovery_ckpt_pages},
            {"checkpoints_torn", rs.recovery_ckpt_torn},
            {"checkpoint_entries_dropped", rs.recovery_dropped},
            {"lbas_mapped", rs.recovery_lbas},
            {"free_blocks", rs.free_blocks},
            {"time_s_estimate", double(std::max(die_ps, ch_ps)) * 1e-12}}},
          {"check",
           {{"lbas", lbas},
            {"latest", latest},
            {"older_allowed", older},
            {"durable_lost", lost},
            {"foreign", foreign},
            {"unreadable", unreadable},
            {"deallocated_unchecked", unchecked}}},
          {"violations", lost + foreign + unreadable},
          {"wall_s", std::chrono::duration<double>(std::chrono::steady_clock::now() - w0).count()}};
}

}  // namespace ssdvp
