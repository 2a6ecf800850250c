// journal_summary.h - the `journal` section of summary.json and its summary
// line (the file-level host's ext4-like journal, docs/models/host_journal.md).
#pragma once

#include <cstdint>
#include <string>

#include <nlohmann/json.hpp>

#include "host/latency_histogram.h"

namespace ssdvp {
namespace fs {
class Journal;
}

nlohmann::json journal_summary(const fs::Journal& j, const LatencyHistogram& fsync_latency, uint32_t lba_size);
// One line for the printed summary ("" when the run had no journal).
std::string journal_summary_line(const nlohmann::json& summary);

}  // namespace ssdvp
