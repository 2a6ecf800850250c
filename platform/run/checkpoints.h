// checkpoints.h - the summary's "checkpoints" section (power.checkpoint.*,
// firmware/ftl/ckpt.c): checkpoints taken over the timed part and what they
// wrote. Present only when checkpoints are configured. Also the "trim_log"
// section of the trim log's own areas (power.trim_log.*, trimlog.c).
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>

#include "ftl.h"

namespace ssdvp {

// LBA-sized slots the checkpoints programmed between a and s (metadata
// writes, added to WAF beside host and GC writes).
uint64_t checkpoint_slots(const ftl_stats& s, const ftl_stats& a, uint32_t slots_per_page);
nlohmann::json checkpoint_json(const ftl_config& c, const ftl_stats& s, const ftl_stats& a);
// The summary's "trim_log" section: present when deallocations are
// persistent without checkpoints (power.trim_log.mode on: the log's own
// areas; its programs are in checkpoint_slots too).
nlohmann::json trim_log_json(const ftl_config& c, const ftl_stats& s, const ftl_stats& a);

}  // namespace ssdvp
