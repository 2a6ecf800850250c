// reliability.h - the summary's "reliability" section: media faults as the
// flash controller saw them and what the firmware did about them (retired
// blocks, rewrites, read retries, uncorrectable reads, refreshes).
#pragma once

#include <nlohmann/json.hpp>
#include <string>

extern "C" {
#include "ftl.h"
}

namespace ssdvp {

class FlashCtrl;

// Firmware counters over the timed part (s minus at_start), flash counters
// since time 0 (as the summary's "flash" section).
nlohmann::json reliability_json(const FlashCtrl& flash, const ftl_stats& s, const ftl_stats& at_start);
// One line for the printed summary, or "" when no fault happened.
std::string reliability_line(const nlohmann::json& reliability);

}  // namespace ssdvp
