// mapping_summary.h - the `mapping` section of summary.json and its summary
// line: the cached mapping table of ftl.mapping: cached (firmware/ftl/cmt.c,
// docs/firmware.md "Cached mapping"), over the timed part of the run.
#pragma once

#include <cstdint>
#include <string>

#include <nlohmann/json.hpp>

extern "C" {
#include "ftl.h"
}

namespace ssdvp {

// Hit rate, misses, translation page reads and writes, translation GC, and the
// write amplification split into host, GC data and translation pages
// (translation programs counted as slots_per_page LBAs each). now - start.
nlohmann::json mapping_summary(const ftl_config& cfg, const ftl_stats& now, const ftl_stats& start, uint64_t host_lbas,
                               uint64_t gc_lbas);
// One line for the printed summary ("" when the run has no cached mapping).
std::string mapping_summary_line(const nlohmann::json& summary);

}  // namespace ssdvp
