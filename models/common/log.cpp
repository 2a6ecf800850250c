// log.cpp - see log.h.
#include "log.h"

#include <cstdio>
#include <stdexcept>
#include <vector>

#include "config.h"

namespace ssdvp {

LogLevel parse_log_level(const std::string& t) {
  if (t == "error") return LogLevel::error;
  if (t == "warn") return LogLevel::warn;
  if (t == "info") return LogLevel::info;
  if (t == "debug") return LogLevel::debug;
  if (t == "trace") return LogLevel::trace;
  throw std::invalid_argument("'" + t + "' is not a log level (error|warn|info|debug|trace)");
}

LogLevel log_level_from(Config& cfg, const std::string& inst) {
  static const std::vector<std::string> levels = {"error", "warn", "info", "debug", "trace"};
  std::string l = cfg.get_choice("log.level", "warn", levels, "default log level of every model");
  if (cfg.has("log." + inst)) l = cfg.get_choice("log." + inst, l, levels, "log level of " + inst);
  return parse_log_level(l);
}

void Logger::log(LogLevel l, const char* fmt, ...) const {
  va_list ap;
  va_start(ap, fmt);
  vlog(l, fmt, ap);
  va_end(ap);
}

void Logger::vlog(LogLevel l, const char* fmt, va_list ap) const {
  static const char* names[] = {"error", "warn", "info", "debug", "trace"};
  char buf[1024];
  vsnprintf(buf, sizeof buf, fmt, ap);
  std::fprintf(stderr, "[%s] %s: %s\n", names[static_cast<int>(l)], name_.c_str(), buf);
}

}  // namespace ssdvp
