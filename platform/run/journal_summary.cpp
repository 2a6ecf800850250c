// journal_summary.cpp - see journal_summary.h.
#include "run/journal_summary.h"

#include <cstdio>

#include "fs/journal.h"
#include "run/simulation.h"

namespace ssdvp {

nlohmann::json journal_summary(const fs::Journal& j, const LatencyHistogram& fsync_latency, uint32_t lba_size) {
  const fs::JournalStats& s = j.stats();
  const auto bytes = [lba_size](uint64_t blocks) { return blocks * lba_size; };
  return {{"mode", "ordered"},
          {"journal_bytes", bytes(j.journal_extent().len)},
          {"journal_start_lba", j.journal_extent().start},
          {"metadata_reserved_bytes", bytes(j.metadata_blocks())},
          {"groups", j.groups()},
          {"commit_s", double(j.spec().commit_ps) * 1e-12},
          {"stream", j.spec().stream},
          {"commits", s.commits},
          {"commits_timer", s.commits_timer},
          {"commits_fsync", s.commits_fsync},
          {"commits_full", s.commits_full},
          {"empty_fsyncs", s.empty_fsyncs},
          {"log_bytes", bytes(s.log_blocks)},
          {"descriptor_blocks", s.descriptor_blocks},
          {"commit_blocks", s.commit_blocks},
          {"metadata_logged_blocks", s.metadata_logged},
          {"superblock_writes", s.superblock_writes},
          {"checkpoints", s.checkpoints},
          {"checkpoint_bytes", bytes(s.checkpoint_blocks)},
          {"setup_metadata_bytes", bytes(s.setup_blocks)},
          {"wraps", s.wraps},
          {"fsync_latency_us", latency_json(fsync_latency)}};
}

std::string journal_summary_line(const nlohmann::json& summary) {
  if (!summary.contains("journal")) return "";
  const auto& j = summary["journal"];
  const auto& f = j["fsync_latency_us"];
  char b[512];
  std::snprintf(
      b, sizeof b,
      "journal: %llu commits (%llu timer, %llu fsync, %llu full), %.1f MB logged, %llu checkpoints (%.1f MB "
      "home), stream %u; fsync %llu  p50 %.1f us  p99 %.1f us",
      (unsigned long long)j["commits"].get<uint64_t>(), (unsigned long long)j["commits_timer"].get<uint64_t>(),
      (unsigned long long)j["commits_fsync"].get<uint64_t>(), (unsigned long long)j["commits_full"].get<uint64_t>(),
      double(j["log_bytes"].get<uint64_t>()) / 1e6, (unsigned long long)j["checkpoints"].get<uint64_t>(),
      double(j["checkpoint_bytes"].get<uint64_t>()) / 1e6, j["stream"].get<unsigned>(),
      (unsigned long long)f["count"].get<uint64_t>(), f["p50"].get<double>(), f["p99"].get<double>());
  return b;
}

}  // namespace ssdvp
