// param_table.h - the parameter table, platform/run/params.def, as data: one
// row per key with its type, default, range, flags and description.
// Config's key-only reads (cfg.get_u64("flash.channels")) take everything but
// the key from here, so a default is written once, in its row.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace ssdvp {

class Config;

// The flags column of params.def and firmware/api/ftl_params.def.
namespace param_flags {
constexpr unsigned shapes_drive = 1u << 0;           // part of a saved drive (run/saved_state.cpp)
constexpr unsigned shapes_preconditioned = 1u << 1;  // part of it when the workload preconditions the drive
constexpr unsigned per_flow = 1u << 2;               // flows.<i>.<key> overrides it (host/flows.cpp)
constexpr unsigned per_device = 1u << 3;             // array.dev<i>.<key> overrides it (array/array_sim.cpp)
}  // namespace param_flags

struct ParamRow {
  const char* key;
  const char* type;   // u64, i64, double, bool, string, time, size; "group": SSDVP_PARAM_GROUP(key)
  const char* def;    // text; "<...>": computed by the model from other keys
  const char* range;  // u64/double "min..max" (either end may be empty); string "a|b|c" (choices); "" none
  unsigned flags;
  const char* desc;

  bool computed_default() const { return def[0] == '<'; }
  bool is_choice() const;
  // The choices of a string row ("a|b|c"); empty if any string goes.
  std::vector<std::string> choices() const;
  // The description as `ssdvp params` shows it (a choice's names appended).
  std::string description() const;
  // The range as `ssdvp params` shows it ("1 to 64", "1 or more"); empty
  // for a choice or no range.
  std::string range_text() const;
};

// The names of the flags set in `flags`, as params.def writes them
// ("shapes_drive", "per_device"), in bit order.
std::vector<std::string> param_flag_names(unsigned flags);

// Every row of params.def, in its order, groups included as rows of type
// "group" (the SSDVP_INSTANCE_PARAM rows are not among them).
const std::vector<ParamRow>& param_rows();
// The SSDVP_INSTANCE_PARAM rows: an instance's own keys ("flows.<i>.name").
const std::vector<ParamRow>& param_instance_rows();
// The row of `key`, or nullptr. A key with an instance number
// ("flows.3.name") finds its instance row ("flows.<i>.name").
const ParamRow* param_row(const std::string& key);

// Per-instance overrides, "<prefix><i>.<key>: value" (flows.<i>.<key>,
// array.dev<i>.<key>), of the keys whose row has `flag`: what the instances
// are and how a bad override is reported.
struct InstanceKind {
  const char* prefix;     // "flows." or "array.dev"
  const char* noun;       // "flow" or "device"
  const char* count_key;  // the key that sets how many there are
  const char* syntax;     // "a flow's key is flows.<i>.<key>"
  const char* sets;       // what an instance may set ("a flow sets name, ...")
  unsigned flag;          // param_flags::per_flow or per_device
};
struct InstanceOverrides {
  std::vector<std::vector<std::pair<std::string, std::string>>> keys;  // per instance: (key, value) in key order
  std::vector<std::string> first;  // per instance: the full key of its first override ("" if none)
};
// Reads every override of `count` instances from cfg (and declares the
// override keys, so that they are known). Keys with a row of their own
// (flows.count, an instance's own keys such as flows.<i>.name) are left to
// their reads. A key under the prefix with no instance number, an instance
// that does not exist, a key that is not a parameter or one without the flag
// is a ConfigError naming the key.
InstanceOverrides read_instance_overrides(Config& cfg, const InstanceKind& kind, uint64_t count);

// A numeric row's range; the bounds not given are the type's limits.
void param_range_u64(const ParamRow& r, uint64_t& min, uint64_t& max);
void param_range_double(const ParamRow& r, double& min, double& max);

}  // namespace ssdvp
