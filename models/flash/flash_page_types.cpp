// flash_page_types.cpp - per-page-type array times (see flash_ctrl.h,
// docs/models/flash_ctrl.md "Page types").
//
// A block's word lines hold flash.cell.bits pages each; page p is on word
// line p / bits and of type p % bits (0 LSB, 1 CSB, 2 MSB, 3 TSB for QLC).
// flash.timing.read_types / program_types give tR and tPROG per type (LSB
// first; empty: flash.timing.read / program for every type). Programming
// order `page` programs each page with its own tPROG; `oneshot` programs a
// word line at once: its lower pages are only loaded into the die (no array
// time) and its last page takes the sum of the word line's tPROG entries.
// With one bit per cell (the default) nothing here changes any time.
#include <sstream>

#include "flash/flash_ctrl.h"

namespace ssdvp {
namespace {

std::vector<uint64_t> time_list(Config& cfg, const std::string& key, uint32_t n, uint64_t fallback) {
  const std::string text = cfg.get_string(key);
  if (text.empty()) return std::vector<uint64_t>(n, fallback);
  std::vector<uint64_t> out;
  std::stringstream ss(text);
  std::string item;
  while (std::getline(ss, item, ',')) {
    const size_t a = item.find_first_not_of(" \t"), b = item.find_last_not_of(" \t");
    const std::string t = a == std::string::npos ? "" : item.substr(a, b - a + 1);
    try {
      out.push_back(Config::parse_time_ps(t));
    } catch (const std::exception&) {
      throw ConfigError(key + ": '" + t + "' is not a time (expected e.g. 50us)");
    }
    if (out.back() == 0) throw ConfigError(key + ": a page type's time must be more than 0");
  }
  if (out.size() != n)
    throw ConfigError(key + ": " + std::to_string(out.size()) + " times given, flash.cell.bits = " + std::to_string(n) +
                      " needs one per page type");
  return out;
}

}  // namespace

void FlashCtrl::page_types_config(Config& cfg) {
  cell_.bits = static_cast<uint32_t>(cfg.get_u64("flash.cell.bits"));
  cell_.oneshot = cfg.get_choice("flash.cell.program_order") == "oneshot";
  cell_.read_ps = time_list(cfg, "flash.timing.read_types", cell_.bits, t_.read_ps);
  cell_.program_ps = time_list(cfg, "flash.timing.program_types", cell_.bits, t_.program_ps);
  if (cell_.bits > 1 && geo_.pages_per_block % cell_.bits != 0)
    throw ConfigError("flash.cell.bits: " + std::to_string(cell_.bits) + " does not divide flash.pages_per_block (" +
                      std::to_string(geo_.pages_per_block) + "): a block holds whole word lines");
}

uint64_t FlashCtrl::program_time(uint32_t page) const {
  if (cell_.bits == 1) return cell_.program_ps[0];
  const uint32_t type = page % cell_.bits;
  if (!cell_.oneshot) return cell_.program_ps[type];
  if (type + 1 < cell_.bits) return 0;  // loaded into the die's page registers; programmed with the last page
  uint64_t sum = 0;
  for (uint64_t v : cell_.program_ps) sum += v;
  return sum;
}

}  // namespace ssdvp
