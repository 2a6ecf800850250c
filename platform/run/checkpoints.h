// checkpoints.h - the summary's "checkpoints" section (power.checkpoint.*,
// firmware/ftl/ckpt.c): checkpoints taken over the timed part and what they
// wrote. Present only when checkpoints are configured.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>

#include "ftl.h"

namespace ssdvp {

// LBA-sized slots the checkpoints programmed between a and s (metadata
// writes, added to WAF beside host and GC writes).
uint64_t checkpoint_slots(const ftl_stats& s, const ftl_stats& a, uint32_t slots_per_page);
nlohmann::json checkpoint_json(const ftl_config& c, const ftl_stats& s, const ftl_stats& a);

}  // namespace ssdvp
