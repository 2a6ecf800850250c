// run_warnings.cpp - see run_warnings.h.
#include "run/run_warnings.h"

#include <cstdio>

namespace ssdvp {

namespace {

std::string fmt(const char* f, double a, double b = 0, double c = 0) {
  char buf[256];
  std::snprintf(buf, sizeof buf, f, a, b, c);
  return buf;
}

uint64_t u64(const nlohmann::json& j, const char* section, const char* key) {
  if (!j.contains(section) || !j[section].is_object()) return 0;
  const auto& s = j[section];
  return s.contains(key) && s[key].is_number_unsigned() ? s[key].get<uint64_t>() : 0;
}

}  // namespace

std::vector<std::string> run_warnings(const nlohmann::json& j, const RunWarningFacts& facts) {
  std::vector<std::string> w;
  const uint64_t requests = u64(j, "workload", "requests");
  if (const uint64_t errors = u64(j, "host", "errors")) {
    std::string by;
    for (const auto& [status, n] : j["host"]["errors_by_status"].items())
      by += (by.empty() ? "" : ", ") + status + ": " + std::to_string(n.get<uint64_t>());
    std::string why;
    if (j["host"]["errors_by_status"].contains("0x080"))
      why = "; 0x080 is LBA out of range: the workload reaches beyond the namespace (host.lba_wrap=true folds it in)";
    w.push_back(std::to_string(errors) + " commands failed (" + by + ") of " + std::to_string(requests) +
                " requests; IOPS, bandwidth, latency and WAF above include them" + why);
  }
  if (const uint64_t wrapped = u64(j, "workload", "wrapped_requests"))
    w.push_back(
        fmt("%.0f of the requests (%.1f %%) reached beyond the namespace and were folded into it "
            "(host.lba_wrap): they do not land where the trace put them",
            double(wrapped), requests ? 100.0 * double(wrapped) / double(requests) : 0.0));
  if (facts.short_requests)
    w.push_back(
        fmt("%.0f requests were shorter than an LBA and were rounded up to one LBA (bytes and MB/s count "
            "the whole LBA)",
            double(facts.short_requests)));
  if (j.contains("host") && j["host"].value("timeseries_truncated", false))
    w.push_back(
        "timeseries.csv stops at stats.max_rows rows: its last row covers the rest of the run (raise stats.interval)");
  if (j.contains("power") && j["power"].contains("cuts_asked") &&
      j["power"]["cuts"].get<uint64_t>() < j["power"]["cuts_asked"].get<uint64_t>())
    w.push_back(
        fmt("power.cuts asked for %.0f cuts, %.0f came before the run ended (power.cuts_span is longer than "
            "the run)",
            double(j["power"]["cuts_asked"].get<uint64_t>()), double(j["power"]["cuts"].get<uint64_t>())));
  if (facts.cut_missed)
    w.push_back(fmt("power.cut_at (%.6g s) is after the end of the run (%.6g s simulated): no power cut happened",
                    facts.cut_at_s, j["host"].value("sim_time_s", 0.0)));
  if (facts.open_loop && facts.queue_depth && j.contains("host") && j["host"].contains("in_system_mean")) {
    const auto& m = j["host"]["in_system_mean"];
    const double in_system = m.value("read", 0.0) + m.value("write", 0.0) + m.value("other", 0.0);
    const double waiting = in_system - j["host"].value("device_commands_mean", 0.0);
    if (waiting > double(facts.queue_depth))
      w.push_back(
          fmt("the open-loop arrivals outran the drive: on average %.0f requests waited in the host for one "
              "of the %.0f queue slots; the host queue grew with the trace, and the latencies above are "
              "mostly that wait (the drive is saturated: a larger workload.time_scale slows the trace down)",
              waiting, double(facts.queue_depth)));
  }
  return w;
}

void add_run_warnings(nlohmann::json& summary, const RunWarningFacts& facts) {
  const std::vector<std::string> w = run_warnings(summary, facts);
  if (!w.empty()) summary["warnings"] = w;
}

}  // namespace ssdvp
