// ftl_params.cpp - see ftl_params.h.
#include "soc/ftl_params.h"

#include <sstream>

#include "common/param_table.h"

extern "C" {
#include "hotness.h"
}

namespace ssdvp {
namespace {

enum Kind { FTL_INT, FTL_SIZE, FTL_TIME, FTL_CHOICE };
using namespace param_flags;

struct Row {
  const char* key;
  Kind kind;
  uint64_t def, min, max;
  const char* unit;  // FTL_CHOICE: the names, "a|b|c"
  unsigned flags;    // param_flags
  const char* desc;
  void (*set)(ftl_config&, uint64_t);
};

const Row kRows[] = {
#define FTL_PARAM(key, field, kind, def, min, max, unit, flags, desc) \
  {key,           kind,          uint64_t(def),                       \
   uint64_t(min), uint64_t(max), unit,                                \
   flags,         desc,          [](ftl_config& c, uint64_t v) { c.field = static_cast<decltype(c.field)>(v); }},
#include "ftl_params.def"
};

std::vector<std::string> names_of(const Row& r) {
  std::vector<std::string> out;
  std::stringstream ss(r.unit);
  for (std::string n; std::getline(ss, n, '|');) out.push_back(n);
  return out;
}

// format_time_ps, but whole minutes below an hour as "90min".
std::string format_time(uint64_t ps) {
  constexpr uint64_t kMin = 60000000000000ull;
  if (ps && ps % kMin == 0 && ps % (60 * kMin) != 0) return std::to_string(ps / kMin) + "min";
  return format_time_ps(ps);
}

std::string default_text(const Row& r) {
  switch (r.kind) {
    case FTL_SIZE: return format_size(r.def);
    case FTL_TIME: return format_time(r.def * 1000);
    case FTL_CHOICE: return names_of(r).at(r.def);
    case FTL_INT: break;
  }
  return std::to_string(r.def);
}

// "1 to 64 blocks", "1 ns or more"; empty for a choice or an unbounded value.
std::string range_text(const Row& r) {
  if (r.kind == FTL_CHOICE || (r.min == 0 && r.max == UINT64_MAX)) return "";
  const std::string unit = *r.unit ? std::string(" ") + r.unit : "";
  if (r.max == UINT64_MAX) return std::to_string(r.min) + unit + " or more";
  return std::to_string(r.min) + " to " + std::to_string(r.max) + unit;
}

std::string type_of(Kind k) {
  switch (k) {
    case FTL_SIZE: return "size";
    case FTL_TIME: return "time";
    case FTL_CHOICE: return "string";
    case FTL_INT: break;
  }
  return "u64";
}

// A size or time converted to firmware units must still be in range.
void check_converted(const Row& r, uint64_t raw, uint64_t v, const std::string& what) {
  if (v >= r.min && v <= r.max) return;
  throw ConfigError("config key '" + std::string(r.key) + "': " + std::to_string(raw) + " " + what + " is " +
                    std::to_string(v) + " " + r.unit + ", outside [" + std::to_string(r.min) + ", " +
                    std::to_string(r.max) + "] " + r.unit);
}

}  // namespace

std::vector<ParamInfo> ftl_param_registry() {
  std::vector<ParamInfo> out;
  for (const Row& r : kRows) {
    std::string desc = r.desc;
    if (r.kind == FTL_CHOICE) desc += std::string(" (") + r.unit + ")";  // as Config::get_choice shows it
    out.push_back(ParamInfo{r.key, type_of(r.kind), default_text(r), desc, default_text(r),
                            r.kind == FTL_INT ? r.unit : "", range_text(r),
                            r.flags});  // a size or time has its own unit
  }
  return out;
}

std::string read_ftl_choice(Config& cfg, const std::string& key) {
  for (const Row& r : kRows)
    if (r.kind == FTL_CHOICE && key == r.key) {
      const auto names = names_of(r);
      return cfg.get_choice(r.key, names.at(r.def), names, r.desc);
    }
  throw ConfigError("config key '" + key + "': not a choice of firmware/api/ftl_params.def");
}

std::map<std::string, uint64_t> read_ftl_params(Config& cfg, uint32_t lba_size, ftl_config& c) {
  std::map<std::string, uint64_t> sizes;
  for (const Row& r : kRows) {
    uint64_t v = 0;
    switch (r.kind) {
      case FTL_INT: v = cfg.get_u64(r.key, r.def, r.desc, r.min, r.max); break;
      case FTL_SIZE: {
        const uint64_t bytes = cfg.get_size(r.key, default_text(r), r.desc);
        // A size the user gave is whole LBAs; the defaults (the papers'
        // decimal figures, 100 MB slices) round down, as the table says.
        if (cfg.has(r.key) && bytes % lba_size)
          throw ConfigError("config key '" + std::string(r.key) + "': " + format_size(bytes) +
                            " is not a whole number of nvme.lba_size (" + format_size(lba_size) + ") LBAs; " +
                            format_size(bytes / lba_size * lba_size) + " or " +
                            format_size((bytes / lba_size + 1) * lba_size) + " is");
        sizes[r.key] = bytes;
        v = bytes / lba_size;
        check_converted(r, bytes, v, "bytes (LBAs of " + std::to_string(lba_size) + " bytes)");
        break;
      }
      case FTL_TIME: {
        const uint64_t ps = cfg.get_time_ps(r.key, default_text(r), r.desc);
        v = ps / 1000;
        check_converted(r, ps, v, "ps");
        break;
      }
      case FTL_CHOICE: {
        const auto names = names_of(r);
        const std::string n = cfg.get_choice(r.key, names.at(r.def), names, r.desc);
        while (names[v] != n) ++v;
        break;
      }
    }
    r.set(c, v);
  }
  return sizes;
}

}  // namespace ssdvp
