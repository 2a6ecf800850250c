// log.h - one logger per instance with its own level, through SystemC's
// report handler.
//
// Every message goes to sc_core::sc_report_handler as message type
// "ssdvp/<instance>" (severity SC_ERROR, SC_WARNING or SC_INFO with the
// verbosity of info, debug or trace) and is printed to stderr as
//
//   [level] <simulated time> <instance>: text        e.g.
//   [warn] 1234.567890 us ssd0.flash: die 3: program on a bad block
//
// (simulated time with picosecond resolution). Because the messages are
// ordinary SystemC reports, SystemC's own controls apply to them: an
// sc_report_handler::set_log_file_name() copies them to a file, and
// set_actions("ssdvp/<instance>", ...) silences or redirects one instance.
// An ssdvp error message never throws (SystemC's default for SC_ERROR):
// models report the error and carry on, as before. Per-transaction detail
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

// The text of a log line: "[level] <time> us <instance>: text" (no newline).
std::string format_log_line(LogLevel level, unsigned long long time_ps, const std::string& instance,
                            const std::string& text);

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

#define SSDVP_LOG(logger, lvl, ...)                                                                  \
  do {                                                                                               \
    if ((logger).enabled(::ssdvp::LogLevel::lvl)) (logger).log(::ssdvp::LogLevel::lvl, __VA_ARGS__); \
  } while (0)

}  // namespace ssdvp
