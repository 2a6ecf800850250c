// log.cpp - see log.h.
#include "log.h"

#include <cinttypes>
#include <cstdio>
#include <cstring>
#include <stdexcept>
#include <systemc>
#include <vector>

#include "config.h"

namespace ssdvp {

namespace {

const char* const kNames[] = {"error", "warn", "info", "debug", "trace"};
const char kPrefix[] = "ssdvp/";

// Verbosity of SC_INFO reports per level (sc_report_handler filters above
// its verbosity level; ssdvp's own level is checked first, so these only
// keep SystemC from dropping debug and trace lines).
int verbosity(LogLevel l) {
  return l == LogLevel::info ? sc_core::SC_MEDIUM : l == LogLevel::debug ? sc_core::SC_HIGH : sc_core::SC_DEBUG;
}

LogLevel level_of(const sc_core::sc_report& r) {
  switch (r.get_severity()) {
    case sc_core::SC_ERROR:
    case sc_core::SC_FATAL: return LogLevel::error;
    case sc_core::SC_WARNING: return LogLevel::warn;
    default: break;
  }
  return r.get_verbosity() >= sc_core::SC_DEBUG  ? LogLevel::trace
         : r.get_verbosity() >= sc_core::SC_HIGH ? LogLevel::debug
                                                 : LogLevel::info;
}

// ssdvp's reports in its format (and to the log file, if one is set);
// everything else as SystemC would.
void handler(const sc_core::sc_report& r, const sc_core::sc_actions& actions) {
  if (std::strncmp(r.get_msg_type(), kPrefix, sizeof kPrefix - 1) != 0) {
    sc_core::sc_report_handler::default_handler(r, actions);
    return;
  }
  const std::string line =
      format_log_line(level_of(r), r.get_time().value(), r.get_msg_type() + sizeof kPrefix - 1, r.get_msg());
  if (actions & sc_core::SC_DISPLAY) std::fprintf(stderr, "%s\n", line.c_str());
  if ((actions & sc_core::SC_LOG) && sc_core::sc_report_handler::get_log_file_name()) {
    static std::FILE* log = nullptr;
    static std::string log_name;
    if (!log || log_name != sc_core::sc_report_handler::get_log_file_name()) {
      if (log) std::fclose(log);
      log_name = sc_core::sc_report_handler::get_log_file_name();
      log = std::fopen(log_name.c_str(), "a");
    }
    if (log) {
      std::fprintf(log, "%s\n", line.c_str());
      std::fflush(log);
    }
  }
}

void install_handler() {
  static const bool done = [] {
    sc_core::sc_report_handler::set_handler(handler);
    return true;
  }();
  (void)done;
}

}  // namespace

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
  std::string l = cfg.get_choice("log.level");
  if (cfg.has("log." + inst)) l = cfg.get_choice("log." + inst, l, levels, "log level of " + inst);
  return parse_log_level(l);
}

std::string format_log_line(LogLevel l, unsigned long long ps, const std::string& inst, const std::string& text) {
  char head[96];
  std::snprintf(head, sizeof head, "[%s] %llu.%06llu us ", kNames[static_cast<int>(l)], ps / 1000000ULL,
                ps % 1000000ULL);
  return head + inst + ": " + text;
}

void Logger::log(LogLevel l, const char* fmt, ...) const {
  va_list ap;
  va_start(ap, fmt);
  vlog(l, fmt, ap);
  va_end(ap);
}

void Logger::vlog(LogLevel l, const char* fmt, va_list ap) const {
  char buf[1024];
  vsnprintf(buf, sizeof buf, fmt, ap);
  install_handler();
  const std::string type = kPrefix + name_;
  using sc_core::sc_report_handler;
  if (l == LogLevel::error) {
    // SystemC's default for SC_ERROR is to throw; a model's error message
    // only reports (the model decides what fails). Once per instance.
    static thread_local std::string last;
    if (last != type) {
      sc_report_handler::set_actions(type.c_str(), sc_core::SC_ERROR, sc_core::SC_DISPLAY | sc_core::SC_LOG);
      last = type;
    }
    sc_report_handler::report(sc_core::SC_ERROR, type.c_str(), buf, __FILE__, __LINE__);
  } else if (l == LogLevel::warn) {
    sc_report_handler::report(sc_core::SC_WARNING, type.c_str(), buf, __FILE__, __LINE__);
  } else {
    if (sc_report_handler::get_verbosity_level() < verbosity(l)) sc_report_handler::set_verbosity_level(verbosity(l));
    sc_report_handler::report(sc_core::SC_INFO, type.c_str(), buf, verbosity(l), __FILE__, __LINE__);
  }
}

}  // namespace ssdvp
