// param_table.cpp - see param_table.h.
#include "common/param_table.h"

#include <cstdint>
#include <sstream>
#include <stdexcept>
#include <unordered_map>

namespace ssdvp {
namespace {

using namespace param_flags;

const std::vector<ParamRow> kRows = {
#define SSDVP_PARAM(key, type, def, range, flags, desc) {key, type, def, range, flags, desc},
#define SSDVP_PARAM_GROUP(name) {#name, "group", "", "", 0, ""},
#include "run/params.def"
};

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

const std::vector<ParamRow>& param_rows() { return kRows; }

const ParamRow* param_row(const std::string& key) {
  static const std::unordered_map<std::string, const ParamRow*> index = [] {
    std::unordered_map<std::string, const ParamRow*> m;
    for (const auto& r : kRows)
      if (std::string(r.type) != "group") m.emplace(r.key, &r);
    return m;
  }();
  auto it = index.find(key);
  return it == index.end() ? nullptr : it->second;
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
