// config.cpp - see config.h.
#include "config.h"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <sstream>

#include "common/param_table.h"

namespace ssdvp {
namespace {

std::string quoted(const std::string& s);

// The parsed tree's bounds. A YAML alias may name a node that contains
// itself (`a: &f {b: *f}`: yaml-cpp builds a cycle) or be nested so that a
// few hundred bytes expand to billions of keys (an "alias bomb"); without a
// bound the first overflows the stack and the second runs for hours. No
// real config nests deeper than 8 or has more than a few hundred keys.
constexpr int kMaxDepth = 32;
constexpr size_t kMaxNodes = 20000;

struct FlattenState {
  std::map<std::string, int> lines;  // every leaf key given so far, with its line
  size_t nodes = 0;
};

// A key given before under another spelling: the same leaf, a leaf that is a
// prefix of `full` ("a" before "a.b"), or one that `full` is a prefix of.
const std::pair<const std::string, int>* clashing(const std::map<std::string, int>& lines, const std::string& full) {
  if (auto it = lines.find(full); it != lines.end()) return &*it;
  for (size_t dot = full.find('.'); dot != std::string::npos; dot = full.find('.', dot + 1))
    if (auto it = lines.find(full.substr(0, dot)); it != lines.end()) return &*it;
  const std::string under = full + ".";
  if (auto it = lines.lower_bound(under); it != lines.end() && it->first.rfind(under, 0) == 0) return &*it;
  return nullptr;
}

// Flattens nested maps into dotted keys. A key given twice (the same key in
// one map, or "a.b" next to a: {b: ...}) is an error naming both lines:
// YAML leaves duplicates undefined and yaml-cpp silently keeps the last.
void flatten(const YAML::Node& node, const std::string& prefix, std::map<std::string, std::string>& out,
             const std::string& origin, FlattenState& st, int depth) {
  if (depth > kMaxDepth)
    throw ConfigError(origin + ": key " + quoted(prefix) + " is nested more than " + std::to_string(kMaxDepth) +
                      " levels deep (a YAML alias that contains itself?)");
  if (++st.nodes > kMaxNodes)
    throw ConfigError(origin + ": the config expands to more than " + std::to_string(kMaxNodes) +
                      " keys (YAML aliases nested into an alias bomb?)");
  if (node.IsMap()) {
    std::map<std::string, int> here;  // this map's own keys (a map value counts too)
    for (const auto& kv : node) {
      if (!kv.first.IsScalar())  // "[a, b]: 1" or "? {a: 1}": yaml-cpp's as<string>() would throw its own error
        throw ConfigError(origin + ":" + std::to_string(kv.first.Mark().line + 1) +
                          ": a key must be a plain name, not a list or map" +
                          (prefix.empty() ? std::string() : " (under " + quoted(prefix) + ")"));
      const std::string key = kv.first.as<std::string>();
      const std::string full = prefix.empty() ? key : prefix + "." + key;
      const int line = kv.first.Mark().line + 1;
      if (!here.emplace(key, line).second)
        throw ConfigError(origin + ":" + std::to_string(line) + ": key " + quoted(full) + " is already given at line " +
                          std::to_string(here[key]) + " (a key may appear only once)");
      const bool leaf = !kv.second.IsMap() || kv.second.size() == 0;
      // across spellings ("a.b: 1" and "a: {b: 2}"): the same leaf, or a leaf
      // that the other spelling makes a map
      if (leaf) {
        if (const auto* c = clashing(st.lines, full))
          throw ConfigError(origin + ":" + std::to_string(line) + ": key " + quoted(full) +
                            " is already given at line " + std::to_string(c->second) +
                            (c->first == full ? "" : " (as " + quoted(c->first) + ")") +
                            " (a key may appear only once)");
        st.lines[full] = line;
      }
      flatten(kv.second, full, out, origin, st, depth + 1);
    }
  } else if (node.IsScalar()) {
    out[prefix] = node.Scalar();
  } else if (node.IsNull()) {
    if (!prefix.empty()) out[prefix] = "";
  } else {
    throw ConfigError(origin + ": key " + quoted(prefix) + " must be a scalar value (a list or other node was given)");
  }
}

void flatten(const YAML::Node& node, std::map<std::string, std::string>& out, const std::string& origin) {
  FlattenState st;
  flatten(node, "", out, origin, st, 0);
}

// A value in an error message: quoted, at most 80 characters, a byte outside
// printable ASCII as \xNN, and when cut "..." and the whole length. A binary
// or huge value never reaches the terminal raw.
std::string quoted(const std::string& s) {
  constexpr size_t kMax = 80;
  std::string out = "'";
  for (size_t i = 0; i < s.size() && i < kMax; ++i) {
    const unsigned char c = static_cast<unsigned char>(s[i]);
    if (c >= 0x20 && c < 0x7f) {
      out += static_cast<char>(c);
    } else {
      static const char* hex = "0123456789abcdef";
      out += "\\x";
      out += hex[c >> 4];
      out += hex[c & 15];
    }
  }
  out += "'";
  if (s.size() > kMax) out += "... (" + std::to_string(s.size()) + " bytes)";
  return out;
}

std::string trim(const std::string& s) {
  size_t a = 0, b = s.size();
  while (a < b && std::isspace(static_cast<unsigned char>(s[a]))) ++a;
  while (b > a && std::isspace(static_cast<unsigned char>(s[b - 1]))) --b;
  return s.substr(a, b - a);
}

// Splits "12.5 us" into 12.5 and "us".
void split_number_unit(const std::string& text, double& number, std::string& unit) {
  const std::string t = trim(text);
  size_t pos = 0;
  try {
    number = std::stod(t, &pos);
  } catch (const std::exception&) {
    throw std::invalid_argument(quoted(text) + " does not start with a number");
  }
  if (!std::isfinite(number) || number < 0) throw std::invalid_argument(quoted(text) + " is not a non-negative number");
  unit = trim(t.substr(pos));
}

}  // namespace

Config Config::from_yaml_file(const std::string& path) {
  YAML::Node root;
  try {
    root = YAML::LoadFile(path);
  } catch (const YAML::BadFile&) {
    throw ConfigError(path + ": cannot open config file");
  } catch (const YAML::Exception& e) {
    throw ConfigError(path + ":" + std::to_string(e.mark.line + 1) + ": YAML error: " + e.msg);
  }
  Config c;
  c.origin_ = path;
  if (!root.IsNull() && !root.IsMap()) throw ConfigError(path + ": the top level must be a map of keys");
  std::map<std::string, std::string> flat;
  flatten(root, flat, path);
  for (auto& kv : flat) c.record_value(kv.first, kv.second);
  for (auto& kv : flat) c.value_origin_[kv.first] = path;
  return c;
}

Config Config::from_yaml_string(const std::string& text, const std::string& origin) {
  YAML::Node root;
  try {
    root = YAML::Load(text);
  } catch (const YAML::Exception& e) {
    throw ConfigError(origin + ":" + std::to_string(e.mark.line + 1) + ": YAML error: " + e.msg);
  }
  Config c;
  c.origin_ = origin;
  if (!root.IsNull() && !root.IsMap()) throw ConfigError(origin + ": the top level must be a map of keys");
  std::map<std::string, std::string> flat;
  flatten(root, flat, origin);
  for (auto& kv : flat) {
    c.record_value(kv.first, kv.second);
    c.value_origin_[kv.first] = origin;
  }
  return c;
}

void Config::record_value(const std::string& key, const std::string& value) { values_[key] = value; }

void Config::set(const std::string& key, const std::string& value) {
  if (key.empty()) throw ConfigError("empty config key in override");
  values_[key] = value;
  value_origin_[key] = "--set";
  auto it = declared_index_.find(key);
  if (it != declared_index_.end()) declared_[it->second].value = value;
}

void Config::set_assignment(const std::string& kv) {
  const auto eq = kv.find('=');
  if (eq == std::string::npos || eq == 0) throw ConfigError("override " + quoted(kv) + " is not of the form key=value");
  set(trim(kv.substr(0, eq)), trim(kv.substr(eq + 1)));
}

void Config::merge(const Config& other) {
  for (const auto& kv : other.values_) {
    values_[kv.first] = kv.second;
    auto o = other.value_origin_.find(kv.first);
    value_origin_[kv.first] = o == other.value_origin_.end() ? other.origin_ : o->second;
    auto di = declared_index_.find(kv.first);
    if (di != declared_index_.end()) declared_[di->second].value = kv.second;
  }
}

void Config::fail(const std::string& key, const std::string& what) const {
  auto o = value_origin_.find(key);
  const std::string where = o == value_origin_.end() ? origin_ : o->second;
  throw ConfigError(where + ": config key '" + key + "': " + what);
}

void Config::declare_all(const std::vector<ParamInfo>& params) {
  for (const auto& p : params) {
    if (declared_index_.count(p.key)) continue;
    declared_index_[p.key] = declared_.size();
    declared_.push_back(p);
    auto v = values_.find(p.key);
    declared_.back().value = v == values_.end() ? p.default_value : v->second;
    from_registry_.push_back(true);
    read_.push_back(false);
  }
  registry_ = true;
}

std::vector<std::string> Config::unread() const {
  std::vector<std::string> r;
  for (size_t i = 0; i < declared_.size(); ++i)
    if (!read_[i]) r.push_back(declared_[i].key);
  return r;
}

bool Config::is_instance_key(const std::string& key) {
  // log.<instance>, and a flow's keys flows.<i>.* (platform/host/flows.h)
  return (key.rfind("log.", 0) == 0 && key != "log.level") ||
         (key.rfind("flows.", 0) == 0 && key.size() > 6 && key[6] >= '0' && key[6] <= '9');
}

const std::string* Config::lookup(const std::string& key, const std::string& type, const std::string& def,
                                  const std::string& desc) {
  auto it = values_.find(key);
  const std::string* v = it == values_.end() ? nullptr : &it->second;
  auto di = declared_index_.find(key);
  if (di == declared_index_.end()) {
    if (registry_ && !is_instance_key(key)) drift_.push_back(key + ": read but not in the registry");
    declared_index_[key] = declared_.size();
    declared_.push_back(ParamInfo{key, type, def, desc, v ? *v : def, "", "", 0});
    from_registry_.push_back(false);
    read_.push_back(true);
    return v;
  }
  ParamInfo& p = declared_[di->second];
  if (p.type != type) fail(key, "declared twice with different types (" + p.type + ", " + type + ")");
  // A registry default in <angle brackets> depends on other keys or the build.
  if (from_registry_[di->second] && p.default_value != def && p.default_value.rfind('<', 0) != 0) {
    const std::string d = key + ": read with default '" + def + "', the registry says '" + p.default_value + "'";
    if (std::find(drift_.begin(), drift_.end(), d) == drift_.end()) drift_.push_back(d);
  }
  p.value = v ? *v : def;
  read_[di->second] = true;
  return v;
}

uint64_t Config::get_u64(const std::string& key, uint64_t def, const std::string& desc, uint64_t min, uint64_t max) {
  const std::string* v = lookup(key, "u64", std::to_string(def), desc);
  uint64_t r = def;
  if (v) {
    const std::string t = trim(*v);
    size_t pos = 0;
    try {
      if (t.empty() || t[0] == '-') throw std::invalid_argument("neg");
      r = std::stoull(t, &pos, 0);
    } catch (const std::exception&) {
      fail(key, "expected a non-negative integer, got " + quoted(*v));
    }
    if (pos != t.size()) fail(key, "expected a non-negative integer, got " + quoted(*v));
  }
  if (r < min || r > max)
    fail(key, "value " + std::to_string(r) + " is outside [" + std::to_string(min) + ", " + std::to_string(max) + "]");
  return r;
}

int64_t Config::get_i64(const std::string& key, int64_t def, const std::string& desc) {
  const std::string* v = lookup(key, "i64", std::to_string(def), desc);
  if (!v) return def;
  const std::string t = trim(*v);
  size_t pos = 0;
  int64_t r = 0;
  try {
    r = std::stoll(t, &pos, 0);
  } catch (const std::exception&) {
    fail(key, "expected an integer, got " + quoted(*v));
  }
  if (pos != t.size()) fail(key, "expected an integer, got " + quoted(*v));
  return r;
}

double Config::get_double(const std::string& key, double def, const std::string& desc, double min, double max) {
  std::ostringstream d;
  d << def;
  const std::string* v = lookup(key, "double", d.str(), desc);
  double r = def;
  if (v) {
    const std::string t = trim(*v);
    size_t pos = 0;
    try {
      r = std::stod(t, &pos);
    } catch (const std::exception&) {
      fail(key, "expected a number, got " + quoted(*v));
    }
    if (pos != t.size() || !std::isfinite(r)) fail(key, "expected a number, got " + quoted(*v));
  }
  if (r < min || r > max) {
    std::ostringstream m;
    m << "value " << r << " is outside [" << min << ", " << max << "]";
    fail(key, m.str());
  }
  return r;
}

bool Config::get_bool(const std::string& key, bool def, const std::string& desc) {
  const std::string* v = lookup(key, "bool", def ? "true" : "false", desc);
  if (!v) return def;
  std::string t = trim(*v);
  for (auto& ch : t) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
  if (t == "true" || t == "yes" || t == "on" || t == "1") return true;
  if (t == "false" || t == "no" || t == "off" || t == "0") return false;
  fail(key, "expected true or false, got " + quoted(*v));
}

std::string Config::get_string(const std::string& key, const std::string& def, const std::string& desc) {
  const std::string* v = lookup(key, "string", def, desc);
  return v ? *v : def;
}

std::string Config::get_choice(const std::string& key, const std::string& def, const std::vector<std::string>& choices,
                               const std::string& desc) {
  std::string all;
  for (const auto& c : choices) all += (all.empty() ? "" : "|") + c;
  const std::string* v = lookup(key, "string", def, desc + " (" + all + ")");
  const std::string r = v ? trim(*v) : def;
  for (const auto& c : choices)
    if (c == r) return r;
  fail(key, quoted(r) + " is not one of " + all);
}

uint64_t Config::parse_time_ps(const std::string& text) {
  double n = 0;
  std::string unit;
  split_number_unit(text, n, unit);
  double mult = 0;
  if (unit == "ps")
    mult = 1;
  else if (unit == "ns")
    mult = 1e3;
  else if (unit == "us")
    mult = 1e6;
  else if (unit == "ms")
    mult = 1e9;
  else if (unit == "s")
    mult = 1e12;
  else if (unit == "min")
    mult = 60e12;
  else if (unit == "h")
    mult = 3600e12;
  else
    throw std::invalid_argument(quoted(text) + " needs a time unit (ps, ns, us, ms, s, min, h)");
  const double ps = n * mult;
  if (ps > 1.8e19) throw std::invalid_argument(quoted(text) + " is too large");
  return static_cast<uint64_t>(std::llround(ps));
}

uint64_t Config::parse_size(const std::string& text) {
  double n = 0;
  std::string unit;
  split_number_unit(text, n, unit);
  double mult = 0;
  if (unit.empty() || unit == "B")
    mult = 1;
  else if (unit == "KB")
    mult = 1e3;
  else if (unit == "MB")
    mult = 1e6;
  else if (unit == "GB")
    mult = 1e9;
  else if (unit == "TB")
    mult = 1e12;
  else if (unit == "KiB")
    mult = 1024.0;
  else if (unit == "MiB")
    mult = 1024.0 * 1024;
  else if (unit == "GiB")
    mult = 1024.0 * 1024 * 1024;
  else if (unit == "TiB")
    mult = 1024.0 * 1024 * 1024 * 1024;
  else
    throw std::invalid_argument(quoted(text) + " has an unknown size unit (B, KB, MB, GB, TB, KiB, MiB, GiB, TiB)");
  const double b = n * mult;
  if (b != std::floor(b)) throw std::invalid_argument(quoted(text) + " is not a whole number of bytes");
  if (b > 1.8e19) throw std::invalid_argument(quoted(text) + " is too large");
  return static_cast<uint64_t>(b);
}

uint64_t Config::get_time_ps(const std::string& key, const std::string& def, const std::string& desc) {
  const std::string* v = lookup(key, "time", def, desc);
  try {
    return parse_time_ps(v ? *v : def);
  } catch (const std::invalid_argument& e) {
    fail(key, e.what());
  }
}

uint64_t Config::get_size(const std::string& key, const std::string& def, const std::string& desc) {
  const std::string* v = lookup(key, "size", def, desc);
  try {
    return parse_size(v ? *v : def);
  } catch (const std::invalid_argument& e) {
    fail(key, e.what());
  }
}

const ParamRow& Config::row_for(const std::string& key, const std::string& type, bool computed) const {
  const ParamRow* r = param_row(key);
  if (!r) fail(key, "read by its key, but platform/run/params.def has no row for it");
  const bool choice = type == "choice";
  if ((choice ? "string" : type) != std::string(r->type) || choice != r->is_choice())
    fail(key, "read as " + type + ", but its row in platform/run/params.def is a " +
                  (r->is_choice() ? std::string("choice") : std::string(r->type)));
  if (computed != r->computed_default())
    fail(key, computed ? "read with a computed default, but its row in platform/run/params.def has a fixed one"
                       : "its default is computed (" + std::string(r->def) + " in platform/run/params.def): pass it");
  return *r;
}

uint64_t Config::get_u64(const std::string& key) {
  const ParamRow& r = row_for(key, "u64");
  uint64_t min = 0, max = UINT64_MAX;
  param_range_u64(r, min, max);
  return get_u64(key, std::stoull(r.def, nullptr, 0), r.desc, min, max);
}

uint64_t Config::get_u64(const std::string& key, uint64_t computed_default) {
  const ParamRow& r = row_for(key, "u64", true);
  uint64_t min = 0, max = UINT64_MAX;
  param_range_u64(r, min, max);
  return get_u64(key, computed_default, r.desc, min, max);
}

int64_t Config::get_i64(const std::string& key) {
  const ParamRow& r = row_for(key, "i64");
  return get_i64(key, std::stoll(r.def, nullptr, 0), r.desc);
}

double Config::get_double(const std::string& key) {
  const ParamRow& r = row_for(key, "double");
  double min = 0, max = 0;
  param_range_double(r, min, max);
  return get_double(key, std::stod(r.def), r.desc, min, max);
}

bool Config::get_bool(const std::string& key) {
  const ParamRow& r = row_for(key, "bool");
  return get_bool(key, std::string(r.def) == "true", r.desc);
}

std::string Config::get_string(const std::string& key) {
  const ParamRow& r = row_for(key, "string");
  return get_string(key, r.def, r.desc);
}

std::string Config::get_string(const std::string& key, const std::string& computed_default) {
  const ParamRow& r = row_for(key, "string", true);
  return get_string(key, computed_default, r.desc);
}

std::string Config::get_choice(const std::string& key) {
  const ParamRow& r = row_for(key, "choice");
  return get_choice(key, r.def, r.choices(), r.desc);
}

uint64_t Config::get_time_ps(const std::string& key) {
  const ParamRow& r = row_for(key, "time");
  return get_time_ps(key, r.def, r.desc);
}

uint64_t Config::get_size(const std::string& key) {
  const ParamRow& r = row_for(key, "size");
  return get_size(key, r.def, r.desc);
}

uint64_t Config::get_size(const std::string& key, uint64_t computed_default) {
  const ParamRow& r = row_for(key, "size", true);
  return get_size(key, std::to_string(computed_default), r.desc);
}

std::vector<std::string> Config::undeclared() const {
  std::vector<std::string> r;
  for (const auto& kv : values_)
    if (!declared_index_.count(kv.first)) r.push_back(kv.first);
  return r;
}

namespace {

size_t edit_distance(const std::string& a, const std::string& b) {
  std::vector<size_t> row(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    size_t diag = row[0];
    row[0] = i;
    for (size_t j = 1; j <= b.size(); ++j) {
      const size_t up = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diag + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diag = up;
    }
  }
  return row[b.size()];
}

std::string leaf_of(const std::string& key) {
  const auto dot = key.rfind('.');
  return dot == std::string::npos ? key : key.substr(dot + 1);
}

}  // namespace

std::vector<std::string> Config::near_misses(const std::string& key, size_t most) const {
  // Close enough to be a typo: one edit in a short key, up to three in a
  // long one; or the same last component (4+ characters) in another section.
  const size_t limit = key.size() < 8 ? 1 : key.size() < 16 ? 2 : 3;
  const std::string leaf = leaf_of(key);
  std::vector<std::pair<size_t, std::string>> hits;
  for (const auto& p : declared_) {
    if (p.key == key) continue;
    const size_t d = edit_distance(key, p.key);
    if (d <= limit || (leaf.size() >= 4 && leaf_of(p.key) == leaf)) hits.emplace_back(d, p.key);
  }
  std::sort(hits.begin(), hits.end());
  std::vector<std::string> r;
  for (size_t i = 0; i < hits.size() && i < most; ++i) r.push_back(hits[i].second);
  return r;
}

void Config::check_unknown(bool skip_instance_keys) const {
  // At most kListed keys are named (with their near misses), then a count:
  // a config of thousands of wrong keys (an alias expanded) gets a short message.
  constexpr size_t kListed = 20;
  std::string unknown;
  size_t n = 0;
  for (const auto& kv : values_) {
    if (declared_index_.count(kv.first) || (skip_instance_keys && is_instance_key(kv.first))) continue;
    if (++n > kListed) continue;
    auto o = value_origin_.find(kv.first);
    unknown += "\n  " + quoted(kv.first) + " (from " + (o == value_origin_.end() ? origin_ : o->second) + ")";
    const auto near = near_misses(kv.first);
    for (size_t i = 0; i < near.size(); ++i) unknown += (i ? ", " : ": perhaps misspelt ") + near[i];
  }
  if (n > kListed) unknown += "\n  ... and " + std::to_string(n - kListed) + " more";
  if (!unknown.empty()) throw ConfigError("unknown config key(s); see `ssdvp params` for the valid ones:" + unknown);
}

std::string format_time_ps(uint64_t ps) {
  static const struct {
    uint64_t mult;
    const char* unit;
  } units[] = {{3600000000000000ull, "h"}, {1000000000000ull, "s"}, {1000000000ull, "ms"},
               {1000000ull, "us"},         {1000ull, "ns"},         {1ull, "ps"}};
  if (ps == 0) return "0ns";
  for (const auto& u : units)
    if (ps % u.mult == 0) return std::to_string(ps / u.mult) + u.unit;
  return std::to_string(ps) + "ps";
}

}  // namespace ssdvp

namespace ssdvp {

std::string format_size(uint64_t bytes) {
  static const struct {
    uint64_t mult;
    const char* unit;
  } units[] = {{1ull << 40, "TiB"}, {1000000000000ull, "TB"}, {1ull << 30, "GiB"}, {1000000000ull, "GB"},
               {1ull << 20, "MiB"}, {1000000ull, "MB"},       {1ull << 10, "KiB"}, {1000ull, "KB"}};
  if (bytes == 0) return "0";
  for (const auto& u : units)
    if (bytes % u.mult == 0) return std::to_string(bytes / u.mult) + u.unit;
  return std::to_string(bytes);
}

}  // namespace ssdvp
