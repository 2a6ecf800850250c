// log.h - one logger per instance with its own level.
//
// Messages go to stderr as "[level] name: text". Per-transaction detail
// belongs at Level::trace only. Levels come from config (log.level and
// log.<instance> overrides), so a noisy block can be silenced alone.
#pragma once

#include <cstdarg>
#include <string>

namespace ssdvp {

enum class LogLevel { error = 0, warn = 1, info = 2, debug = 3, trace = 4 };

LogLevel parse_log_level(const std::string& text);  // throws std::invalid_argument

class Config;
// The level for one instance: log.<instance> if present, else log.level.
LogLevel log_level_from(Config& cfg, const std::string& instance);

class Logger {
 public:
  explicit Logger(std::string name = "ssdvp", LogLevel level = LogLevel::warn)
      : name_(std::move(name)), level_(level) {}
  void set_level(LogLevel l) { level_ = l; }
  LogLevel level() const { return level_; }
  bool enabled(LogLevel l) const { return static_cast<int>(l) <= static_cast<int>(level_); }
  const std::string& name() const { return name_; }

  void log(LogLevel l, const char* fmt, ...) const __attribute__((format(printf, 3, 4)));
  void vlog(LogLevel l, const char* fmt, va_list ap) const;

 private:
  std::string name_;
  LogLevel level_;
};

#define SSDVP_LOG(logger, lvl, ...)                                      \
  do {                                                                   \
    if ((logger).enabled(::ssdvp::LogLevel::lvl)) (logger).log(::ssdvp::LogLevel::lvl, __VA_ARGS__); \
  } while (0)

}  // namespace ssdvp
