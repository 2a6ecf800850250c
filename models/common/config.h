// config.h - typed, self-documenting configuration for ssdvp.
//
// A Config holds the flat key/value pairs of a YAML file (nested maps become
// dotted keys) plus command-line overrides. A model reads a parameter by its
// key alone, get_*(key): type, default, range and description come from the
// key's row in the parameter table (platform/run/params.def, param_table.h).
// Reading a key without a row, or as another type, is a ConfigError naming
// the key. The reads that take a default and a description are for the
// tables of their own (firmware/api/ftl_params.def, the CPU cost table) and
// for per-instance keys (log.<instance>).
//
// The registry: before any model reads, the platform declares every key it
// knows (declare_all(), from platform/run/params.def and the firmware's
// tables), so the parameter list and the unknown-key check do not depend on
// which model read a key first. A read of a key the registry lacks, or with
// another type or default, is recorded as drift() (a test keeps it empty).
// Without a registry (a model built alone in a test) a read declares its key.
// check_unknown() names any key present that is not declared, with its near
// misses. There is no global registry: two platforms in one process keep
// separate Configs.
#pragma once

#include <cstdint>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

namespace ssdvp {

struct ParamRow;  // param_table.h

class ConfigError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct ParamInfo {
  std::string key;
  std::string type;  // u64, i64, double, bool, string, time, size
  std::string default_value;
  std::string description;
  std::string value;   // resolved value, as text
  std::string unit;    // optional: the unit of the value in the firmware ("blocks", "LBAs")
  std::string range;   // optional: the valid range with its unit, as text ("1 to 64 blocks")
  unsigned flags = 0;  // param_flags (param_table.h): shapes_drive, per_flow, per_device, ...
};

class Config {
 public:
  Config() = default;

  // Loads a YAML file (a map of maps of scalars). Throws ConfigError with the
  // file name on a syntax error or a non-scalar leaf.
  static Config from_yaml_file(const std::string& path);
  static Config from_yaml_string(const std::string& text, const std::string& origin = "<string>");

  // Overrides or adds one key ("a.b.c=value" on the command line).
  void set(const std::string& key, const std::string& value);
  void set_assignment(const std::string& key_eq_value);
  // Merges another config over this one (its keys win).
  void merge(const Config& other);

  bool has(const std::string& key) const { return values_.count(key) != 0; }

  // Reads by key: type, default, range (a choice's names) and description
  // from the key's row in platform/run/params.def. A value outside the range
  // is an error naming the key.
  uint64_t get_u64(const std::string& key);
  int64_t get_i64(const std::string& key);
  double get_double(const std::string& key);
  bool get_bool(const std::string& key);
  std::string get_string(const std::string& key);
  std::string get_choice(const std::string& key);
  uint64_t get_time_ps(const std::string& key);
  uint64_t get_size(const std::string& key);
  // A row whose default is computed (<in angle brackets> in params.def): the
  // model passes the value it computed; the rest comes from the row.
  uint64_t get_u64(const std::string& key, uint64_t computed_default);
  std::string get_string(const std::string& key, const std::string& computed_default);
  uint64_t get_size(const std::string& key, uint64_t computed_default);

  // Declare-and-read with the default and description given here: for keys
  // of another table (ftl_params.def, the CPU cost table) and per-instance
  // keys. Ranges are inclusive; a value outside them is an error naming the
  // key.
  uint64_t get_u64(const std::string& key, uint64_t def, const std::string& desc, uint64_t min = 0,
                   uint64_t max = UINT64_MAX);
  int64_t get_i64(const std::string& key, int64_t def, const std::string& desc);
  double get_double(const std::string& key, double def, const std::string& desc, double min = -1e300,
                    double max = 1e300);
  bool get_bool(const std::string& key, bool def, const std::string& desc);
  std::string get_string(const std::string& key, const std::string& def, const std::string& desc);
  // One of `choices`; the error lists them.
  std::string get_choice(const std::string& key, const std::string& def, const std::vector<std::string>& choices,
                         const std::string& desc);
  // A time with a unit ("20us", "2 ms", "1.5ns", "6h"); returned in picoseconds.
  uint64_t get_time_ps(const std::string& key, const std::string& def, const std::string& desc);
  // A size with an optional unit ("8KiB", "300GB", "4096"); returned in bytes.
  // KB/MB/GB/TB are decimal, KiB/MiB/GiB/TiB binary.
  uint64_t get_size(const std::string& key, const std::string& def, const std::string& desc);

  // Declares parameters up front, in order (the registry). A key declared
  // twice keeps its first declaration.
  void declare_all(const std::vector<ParamInfo>& params);
  // Keys under this prefix ("log.") are declared by the read that uses them
  // (per-instance keys), not by the registry.
  static bool is_instance_key(const std::string& key);
  // Reads that disagree with the registry: a key it lacks, another type or
  // another default ("key: ..." each). Empty without a registry.
  const std::vector<std::string>& drift() const { return drift_; }
  // Registry keys no model has read so far (a key only another mode reads).
  std::vector<std::string> unread() const;

  // Throws ConfigError naming every key present in the config that is not
  // declared (a typo, or a key of another version), each with its near
  // misses among the declared keys. With skip_instance_keys, keys under
  // "log." are left for a later call (they are declared when read).
  void check_unknown(bool skip_instance_keys = false) const;
  // The keys present but not declared so far.
  std::vector<std::string> undeclared() const;
  // Declared keys close to `key` (a typo of it): a small edit distance, or
  // the same last component under another section. At most `most`, best
  // first; empty if nothing is close.
  std::vector<std::string> near_misses(const std::string& key, size_t most = 3) const;

  // Every declared parameter, in declaration order, with its resolved value.
  const std::vector<ParamInfo>& params() const { return declared_; }
  // The raw key/value pairs as loaded (for the run's config echo).
  const std::map<std::string, std::string>& values() const { return values_; }
  const std::string& origin() const { return origin_; }

  // Parsers, exposed for tests and for the host side.
  static uint64_t parse_time_ps(const std::string& text);  // throws std::invalid_argument
  static uint64_t parse_size(const std::string& text);     // throws std::invalid_argument

 private:
  // The row of `key` in the parameter table, read as `type` (a ConfigError
  // if there is none or it has another type or, unless `computed`, a
  // computed default).
  const ParamRow& row_for(const std::string& key, const std::string& type, bool computed = false) const;
  const std::string* lookup(const std::string& key, const std::string& type, const std::string& def,
                            const std::string& desc);
  void record_value(const std::string& key, const std::string& value);
  [[noreturn]] void fail(const std::string& key, const std::string& what) const;

  std::map<std::string, std::string> values_;
  std::map<std::string, std::string> value_origin_;
  std::vector<ParamInfo> declared_;
  std::map<std::string, size_t> declared_index_;
  std::vector<bool> from_registry_;
  std::vector<bool> read_;
  bool registry_ = false;
  std::vector<std::string> drift_;
  std::string origin_ = "<defaults>";
};

// Formats picoseconds as the shortest exact text with a unit ("20us").
std::string format_time_ps(uint64_t ps);
// Formats bytes as the shortest exact text with a unit ("8KiB", "100MB").
std::string format_size(uint64_t bytes);

}  // namespace ssdvp
