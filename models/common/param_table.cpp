// param_table.cpp - see param_table.h.
#include "common/param_table.h"

#include "common/config.h"

#include <cstdint>
#include <map>
#include <sstream>
#include <stdexcept>
#include <unordered_map>

namespace ssdvp {
namespace {

using namespace param_flags;

const std::vector<ParamRow> kRows = {
#define SSDVP_PARAM(key, type, def, range, flags, desc) {key, type, def, range, flags, desc},
#define SSDVP_PARAM_GROUP(name) {#name, "group", "", "", 0, ""},
#define SSDVP_INSTANCE_PARAM(key, type, def, range, flags, desc)
#include "run/params.def"
};

const std::vector<ParamRow> kInstanceRows = {
#define SSDVP_PARAM(key, type, def, range, flags, desc)
#define SSDVP_PARAM_GROUP(name)
#define SSDVP_INSTANCE_PARAM(key, type, def, range, flags, desc) {key, type, def, range, flags, desc},
#include "run/params.def"
};

bool all_digits(const std::string& s) { return !s.empty() && s.find_first_not_of("0123456789") == std::string::npos; }

// "flows.3.name" -> "flows.<i>.name": every part that is a number; "" if none.
std::string instance_pattern(const std::string& key) {
  std::string out;
  bool any = false;
  size_t a = 0;
  for (;;) {
    const size_t dot = key.find('.', a);
    const std::string part = key.substr(a, dot == std::string::npos ? std::string::npos : dot - a);
    const bool n = all_digits(part);
    any = any || n;
    out += n ? "<i>" : part;
    if (dot == std::string::npos) break;
    out += '.';
    a = dot + 1;
  }
  return any ? out : "";
}

// "min..max" split at the dots; either side may be empty.
void split_range(const ParamRow& r, std::string& lo, std::string& hi) {
  const std::string s = r.range;
  const auto dots = s.find("..");
  if (dots == std::string::npos) throw std::logic_error(std::string("params.def: ") + r.key + ": range '" + s + "'");
  lo = s.substr(0, dots);
  hi = s.substr(dots + 2);
}

}  // namespace

bool ParamRow::is_choice() const { return std::string(type) == "string" && *range; }

std::vector<std::string> ParamRow::choices() const {
  std::vector<std::string> out;
  if (!is_choice()) return out;
  std::stringstream ss(range);
  for (std::string n; std::getline(ss, n, '|');) out.push_back(n);
  return out;
}

std::string ParamRow::description() const {
  return is_choice() ? std::string(desc) + " (" + range + ")" : std::string(desc);
}

std::string ParamRow::range_text() const {
  const std::string t = type;
  if (!*range || (t != "u64" && t != "double")) return "";
  std::string lo, hi;
  split_range(*this, lo, hi);
  auto show = [&](const std::string& v) {
    if (t == "u64") return std::to_string(std::stoull(v, nullptr, 0));
    std::ostringstream o;
    o << std::stod(v);
    return o.str();
  };
  if (hi.empty()) return show(lo) + " or more";
  return show(lo.empty() ? "0" : lo) + " to " + show(hi);
}

std::vector<std::string> param_flag_names(unsigned flags) {
  static const char* const kNames[] = {"shapes_drive", "shapes_preconditioned", "per_flow", "per_device"};
  std::vector<std::string> out;
  for (unsigned b = 0; b < sizeof kNames / sizeof kNames[0]; ++b)
    if (flags & (1u << b)) out.push_back(kNames[b]);
  return out;
}

const std::vector<ParamRow>& param_rows() { return kRows; }
const std::vector<ParamRow>& param_instance_rows() { return kInstanceRows; }

const ParamRow* param_row(const std::string& key) {
  static const std::unordered_map<std::string, const ParamRow*> index = [] {
    std::unordered_map<std::string, const ParamRow*> m;
    for (const auto& r : kRows)
      if (std::string(r.type) != "group") m.emplace(r.key, &r);
    for (const auto& r : kInstanceRows) m.emplace(r.key, &r);
    return m;
  }();
  auto it = index.find(key);
  if (it == index.end()) {
    const std::string pattern = instance_pattern(key);
    if (!pattern.empty()) it = index.find(pattern);
  }
  return it == index.end() ? nullptr : it->second;
}

InstanceOverrides read_instance_overrides(Config& cfg, const InstanceKind& kind, uint64_t count) {
  const std::string prefix = kind.prefix;
  InstanceOverrides out;
  out.keys.resize(count);
  out.first.resize(count);
  std::map<std::string, unsigned> flags;  // every declared key (the registry, another table's rows too)
  for (const auto& p : cfg.params()) flags.emplace(p.key, p.flags);
  std::vector<std::pair<std::string, std::string>> found;  // copied: reading declares keys
  for (const auto& kv : cfg.values()) {
    const ParamRow* r = param_row(kv.first);
    if (kv.first.rfind(prefix, 0) == 0 && !(r && r->key == kv.first)) found.push_back(kv);  // not flows.count
  }
  for (const auto& [k, value] : found) {
    const size_t dot = k.find('.', prefix.size());
    const std::string index = dot == std::string::npos ? "" : k.substr(prefix.size(), dot - prefix.size());
    if (!all_digits(index) || index.size() > 9)
      throw ConfigError("config key '" + k + "': " + kind.syntax + ", i in 0.." + std::to_string(count - 1));
    const uint64_t i = std::stoull(index);
    if (i >= count)
      throw ConfigError("config key '" + k + "': " + kind.noun + " " + std::to_string(i) + " does not exist (" +
                        kind.count_key + ": " + std::to_string(count) + ")");
    if (param_row(k)) continue;  // an instance's own key (flows.<i>.name): its owner reads it
    const std::string sub = k.substr(dot + 1);
    auto f = flags.find(sub);
    if (f == flags.end()) {
      const auto near = cfg.near_misses(sub, 1);
      throw ConfigError("config key '" + k + "': '" + sub + "' is not a parameter" +
                        (near.empty() ? std::string() : " (perhaps " + near[0] + ")"));
    }
    if (!(f->second & kind.flag))
      throw ConfigError("config key '" + k + "': " + kind.sets + "; '" + sub + "' is shared by all " + kind.noun + "s");
    cfg.get_string(k, "", std::string(kind.noun) + " " + std::to_string(i) + "'s " + sub);  // declares it
    out.keys[i].emplace_back(sub, value);
    if (out.first[i].empty()) out.first[i] = k;
  }
  return out;
}

void param_range_u64(const ParamRow& r, uint64_t& min, uint64_t& max) {
  min = 0;
  max = UINT64_MAX;
  if (!*r.range) return;
  std::string lo, hi;
  split_range(r, lo, hi);
  if (!lo.empty()) min = std::stoull(lo, nullptr, 0);
  if (!hi.empty()) max = std::stoull(hi, nullptr, 0);
}

void param_range_double(const ParamRow& r, double& min, double& max) {
  min = -1e300;
  max = 1e300;
  if (!*r.range) return;
  std::string lo, hi;
  split_range(r, lo, hi);
  if (!lo.empty()) min = std::stod(lo);
  if (!hi.empty()) max = std::stod(hi);
}

}  // namespace ssdvp
