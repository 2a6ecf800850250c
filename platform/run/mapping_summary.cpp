// mapping_summary.cpp - see mapping_summary.h.
#include "run/mapping_summary.h"

#include <algorithm>
#include <cstdio>

namespace ssdvp {

nlohmann::json mapping_summary(const ftl_config& cfg, const ftl_stats& now, const ftl_stats& start, uint64_t host_lbas,
                               uint64_t gc_lbas) {
  const auto d = [&](uint64_t ftl_stats::*field) { return now.*field - start.*field; };
  const uint64_t hits = d(&ftl_stats::cmt_hits), misses = d(&ftl_stats::cmt_misses);
  const uint64_t tp_writes = d(&ftl_stats::tp_writes);
  const uint64_t trans_lbas = tp_writes * cfg.slots_per_page;
  const double host = double(std::max<uint64_t>(host_lbas, 1));
  const uint64_t entries = std::min<uint64_t>(cfg.cmt_entries, cfg.logical_lbas);
  ftl_config full = cfg;
  full.mapping = FTL_MAP_FULL;
  return {{"mode", "cached"},
          {"dram_bytes", ftl_dram_bytes(&cfg)},
          {"dram_bytes_full_table", ftl_dram_bytes(&full)},
          {"l2p_bytes_full_table", cfg.logical_lbas * 4},
          {"cache_entries", entries},
          {"cache_fraction", double(entries) / double(cfg.logical_lbas)},
          {"tp_entries", cfg.cmt_tp_entries ? cfg.cmt_tp_entries : cfg.slots_per_page * 1024u},
          {"lookups", hits + misses},
          {"hits", hits},
          {"misses", misses},
          {"cold_misses", d(&ftl_stats::cmt_cold_misses)},
          {"hit_rate", hits + misses ? double(hits) / double(hits + misses) : 0.0},
          {"evictions", d(&ftl_stats::cmt_evictions)},
          {"dirty_evictions", d(&ftl_stats::cmt_dirty_evictions)},
          {"tp_reads", d(&ftl_stats::tp_reads)},
          {"tp_writes", tp_writes},
          {"tp_writeback_entries", d(&ftl_stats::tp_writeback_entries)},
          {"tp_gc_updates", d(&ftl_stats::tp_gc_updates)},
          {"tgc_victims", d(&ftl_stats::tgc_victims)},
          {"tgc_moves", d(&ftl_stats::tgc_moves)},
          {"tgc_erases", d(&ftl_stats::tgc_erases)},
          {"waf",
           {{"host", host_lbas ? 1.0 : 0.0},
            {"gc", double(gc_lbas) / host},
            {"translation", double(trans_lbas) / host},
            {"total", host_lbas ? double(host_lbas + gc_lbas + trans_lbas) / host : 0.0}}}};
}

std::string mapping_summary_line(const nlohmann::json& summary) {
  if (!summary.contains("mapping")) return "";
  const auto& m = summary["mapping"];
  char b[512];
  std::snprintf(b, sizeof b,
                "mapping: cached, %llu entries (%.4f of the table), FTL DRAM %.2f MiB (%.2f MiB with the full table), "
                "hit rate %.4f (%llu misses, %llu cold); "
                "translation pages %llu read, %llu written; translation GC %llu victims, %llu moves; "
                "WAF %.3f = 1 + GC %.3f + translation %.3f",
                (unsigned long long)m["cache_entries"].get<uint64_t>(), m["cache_fraction"].get<double>(),
                m["dram_bytes"].get<double>() / 1048576.0, m["dram_bytes_full_table"].get<double>() / 1048576.0,
                m["hit_rate"].get<double>(), (unsigned long long)m["misses"].get<uint64_t>(),
                (unsigned long long)m["cold_misses"].get<uint64_t>(), (unsigned long long)m["tp_reads"].get<uint64_t>(),
                (unsigned long long)m["tp_writes"].get<uint64_t>(),
                (unsigned long long)m["tgc_victims"].get<uint64_t>(),
                (unsigned long long)m["tgc_moves"].get<uint64_t>(), m["waf"]["total"].get<double>(),
                m["waf"]["gc"].get<double>(), m["waf"]["translation"].get<double>());
  return b;
}

}  // namespace ssdvp
