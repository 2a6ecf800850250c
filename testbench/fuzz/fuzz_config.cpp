// fuzz_config.cpp - libFuzzer harness: the config loader (models/common/config).
//
// The input is read twice: as a YAML config file (Config::from_yaml_string)
// and line by line as command-line overrides (--set key=value). Every value
// found is then read as each type a model may ask for (u64 with a range,
// i64, double, bool, time, size, string), and the unknown-key check runs
// against a small registry so that its near-miss search sees fuzzed keys.
//
// Bad input must end in ConfigError (or std::invalid_argument from the time
// and size parsers); anything else thrown, a crash or a sanitizer report is
// a bug. The message of a ConfigError must stay short: a huge or binary
// value is quoted as a prefix, never echoed whole.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <stdexcept>
#include <string>
#include <vector>

#include "common/config.h"

using ssdvp::Config;
using ssdvp::ConfigError;

namespace {

// A value's error names the key and quotes a bounded part of the value.
void check_message(const std::exception& e, const std::string& key) {
  const size_t n = std::string(e.what()).size();
  if (n > key.size() + 512) {
    std::fprintf(stderr, "fuzz_config: a %zu-byte error message for key '%.80s': %.200s...\n", n, key.c_str(),
                 e.what());
    std::abort();
  }
}

// Reads every present key as one type, in a Config of its own (a key read
// with two types is an error of the reader, not of the input).
void read_all(const Config& loaded, int type) {
  Config c = loaded;
  for (const auto& [key, value] : loaded.values()) {
    try {
      switch (type) {
        case 0: (void)c.get_u64(key, 1, "u64", 1, 1000000); break;
        case 1: (void)c.get_i64(key, 0, "i64"); break;
        case 2: (void)c.get_double(key, 0.5, "double", 0, 1e9); break;
        case 3: (void)c.get_bool(key, false, "bool"); break;
        case 4: (void)c.get_time_ps(key, "1us", "time"); break;
        case 5: (void)c.get_size(key, "4KiB", "size"); break;
        case 6: (void)c.get_choice(key, "a", {"a", "b"}, "choice"); break;
        default: (void)c.get_string(key, "", "string"); break;
      }
    } catch (const ConfigError& e) {
      check_message(e, key);
    }
  }
}

void exercise(Config& c) {
  for (int type = 0; type < 8; ++type) read_all(c, type);
  c.declare_all({{"flash.channels", "u64", "8", "channels", "", "", ""},
                 {"host.mode", "string", "auto", "mode", "", "", ""},
                 {"nvme.lba_size", "size", "4KiB", "lba", "", "", ""}});
  try {
    c.check_unknown();
  } catch (const ConfigError&) {
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  try {
    Config c = Config::from_yaml_string(text, "fuzz.yaml");
    exercise(c);
  } catch (const ConfigError&) {
  }
  Config o;
  size_t begin = 0;
  while (begin <= text.size()) {
    size_t end = text.find('\n', begin);
    if (end == std::string::npos) end = text.size();
    try {
      o.set_assignment(text.substr(begin, end - begin));
    } catch (const ConfigError&) {
    }
    begin = end + 1;
  }
  exercise(o);
  for (const auto& [key, value] : o.values()) {
    try {
      (void)Config::parse_time_ps(value);
    } catch (const std::invalid_argument& e) {
      check_message(e, key);
    }
    try {
      (void)Config::parse_size(value);
    } catch (const std::invalid_argument& e) {
      check_message(e, key);
    }
  }
  return 0;
}
