// main.cpp - the ssdvp command.
//
//   ssdvp run [-c CONFIG] [--set key=value]... [--trace FILE] [--trace-format F] [-o OUTDIR] [--quiet]
//             [--save-state DIR [--precondition-only] | --load-state DIR]   a saved drive (docs/state.md)
//   ssdvp params [-c CONFIG] [--set key=value]... [--format text|markdown|json]
//   ssdvp params --rules
//   ssdvp serve [-c CONFIG] [--set key=value]... [--listen unix:PATH|tcp:HOST:PORT] [--record FILE] [-o OUTDIR]
//   ssdvp registers                 the register map with its fields (markdown)
//   ssdvp hostile [-c CONFIG] [--set key=value]... [--quiet]   hostile NVMe host (run/hostile.h)
//   ssdvp --version
//
// Exit codes: 0 success; 1 internal error; 2 usage, config or trace error
// (the message names the key or file:line); 3 the run finished but found
// integrity mismatches, NAND rule violations or firmware bus errors.
#include <systemc>

#include <unistd.h>

#include <boost/program_options.hpp>
#include <algorithm>
#include <cstdio>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <nlohmann/json.hpp>

#include "common/config.h"
#include "common/param_table.h"
#include "array/array_sim.h"
#include "common/register_bank.h"
#include "host/flows.h"
#include "run/hostile.h"
#include "run/device_state.h"
#include "host/ftl/host_ftl_block.h"
#include "run/journal_summary.h"
#include "run/mapping_summary.h"
#include "run/reliability.h"
#include "run/simulation.h"
#include "nbd/nbd_export.h"
#include "workload.h"

namespace po = boost::program_options;
using ssdvp::Config;

namespace {

const char* kUsage =
    "usage: ssdvp run [-c CONFIG] [--set key=value]... [--trace FILE] [--trace-format FMT] [-o OUTDIR] [--quiet]\n"
    "                 [--save-state DIR [--precondition-only] | --load-state DIR]\n"
    "       ssdvp params [-c CONFIG] [--set key=value]... [--format text|markdown|json]\n"
    "       ssdvp params --rules\n"
    "       ssdvp serve [-c CONFIG] [--set key=value]... [--listen unix:PATH|tcp:127.0.0.1:PORT] [--record FILE] [-o "
    "OUTDIR]\n"
    "       ssdvp registers\n"
    "       ssdvp hostile [-c CONFIG] [--set key=value]... [--quiet]\n"
    "       ssdvp --version\n";

// A message for the terminal: control bytes (ESC, BEL, ...) from a key name,
// a path or yaml-cpp's text as \xNN, never raw (a newline stays).
std::string printable(const std::string& s) {
  std::string r;
  for (const char ch : s) {
    const auto c = static_cast<unsigned char>(ch);
    if ((c >= 0x20 && c != 0x7f) || c == '\n' || c == '\t') {
      r += ch;
    } else {
      char b[5];
      std::snprintf(b, sizeof b, "\\x%02x", c);
      r += b;
    }
  }
  return r;
}

void print_error(const char* prefix, const std::string& what) {
  std::fprintf(stderr, "ssdvp: %s%s\n", prefix, printable(what).c_str());
}

// A directory the run will write into, made and tried before the run (a bad
// -o or --save-state must fail in a second, not after the whole simulation).
void check_writable_dir(const std::string& option, const std::string& dir) {
  namespace fs = std::filesystem;
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec || !fs::is_directory(dir))
    throw ssdvp::ConfigError(option + " " + dir + ": cannot create the directory" +
                             (ec ? " (" + ec.message() + ")" : " (a file of that name exists)"));
  const fs::path probe = fs::path(dir) / ".ssdvp-write-test";
  std::FILE* f = std::fopen(probe.c_str(), "w");
  if (!f) throw ssdvp::ConfigError(option + " " + dir + ": cannot write there (" + std::strerror(errno) + ")");
  std::fclose(f);
  fs::remove(probe, ec);
}

// A file the run will create: its directory must exist.
void check_file_dir(const std::string& option, const std::string& file) {
  namespace fs = std::filesystem;
  const fs::path parent = fs::path(file).parent_path();
  if (!parent.empty() && !fs::is_directory(parent))
    throw ssdvp::ConfigError(option + " " + file + ": the directory " + parent.string() + " does not exist");
}

// A relative timeline.file lands in the output directory, beside summary.json.
void timeline_into(Config& cfg, const std::string& out) {
  if (!cfg.has("timeline.file")) return;
  const std::string t = cfg.values().at("timeline.file");
  if (!t.empty() && std::filesystem::path(t).is_relative())
    cfg.set("timeline.file", (std::filesystem::path(out) / t).string());
}

// Why a finished run is not clean (exit 3): only the findings it has.
std::string unclean_reasons(const nlohmann::json& j) {
  std::string r;
  auto add = [&r](uint64_t n, const char* what) {
    if (n) r += (r.empty() ? "" : ", ") + std::to_string(n) + " " + what;
  };
  auto get = [&j](const char* a, const char* b) {
    return j.contains(a) && j[a].contains(b) && j[a][b].is_number() ? j[a][b].get<uint64_t>() : uint64_t(0);
  };
  add(get("integrity", "mismatches"), "integrity mismatches");
  if (j.contains("array")) {
    add(j["array"]["integrity"].value("mismatches", uint64_t(0)), "integrity mismatches");
    add(j["array"]["integrity"].value("device_mismatches", uint64_t(0)), "device integrity mismatches");
  }
  add(get("flash", "violations"), "NAND rule violations");
  add(get("cpu", "bus_errors"), "firmware bus errors");
  if (j.contains("power")) {
    add(get("power", "violations"), "power-cut violations (data a cut must not lose was lost: see summary.json power)");
  }
  if (j.contains("nbd") && j["nbd"].contains("store"))
    add(j["nbd"]["store"].value("poisoned_reads", uint64_t(0)), "poisoned reads");
  if (j.contains("run") && !j["run"].value("finished", true))
    r += std::string(r.empty() ? "" : ", ") + "the run did not finish";
  return r.empty() ? "problems (see summary.json)" : r;
}

// The summary's warnings (summary.json "warnings"), on stderr even with --quiet.
void print_warnings(const nlohmann::json& j) {
  if (j.contains("warnings"))
    for (const auto& w : j["warnings"]) print_error("warning: ", w.get<std::string>());
}

Config load(const po::variables_map& vm) {
  Config cfg = vm.count("config") ? Config::from_yaml_file(vm["config"].as<std::string>()) : Config();
  if (vm.count("set"))
    for (const auto& kv : vm["set"].as<std::vector<std::string>>()) cfg.set_assignment(kv);
  return cfg;
}

void print_summary(const nlohmann::json& j, const std::string& out) {
  auto lat = [&](const char* op) {
    const auto& l = j["latency_us"][op];
    std::printf("  %-5s %9llu ios  mean %9.1f us  p50 %9.1f  p99 %9.1f  p99.9 %9.1f  p99.99 %9.1f\n", op,
                (unsigned long long)l["count"].get<uint64_t>(), l["mean"].get<double>(), l["p50"].get<double>(),
                l["p99"].get<double>(), l["p999"].get<double>(), l["p9999"].get<double>());
  };
  std::printf("ssdvp %s\n", j["ssdvp_version"].get<std::string>().c_str());
  std::printf("workload: %s\n", j["workload"]["description"].get<std::string>().c_str());
  if (const uint64_t back = j["workload"].value("backwards_timestamps", uint64_t(0)))
    std::printf(
        "  %llu records had a timestamp earlier than the previous one: issued at the previous one's time, "
        "in file order\n",
        (unsigned long long)back);
  std::printf("simulated %.3f s: %.0f IOPS, %.1f MB/s\n", j["host"]["sim_time_s"].get<double>(),
              j["host"]["iops"].get<double>(), j["host"]["bandwidth_mbps"].get<double>());
  lat("read");
  lat("write");
  ssdvp::print_flows_summary(j);  // per-flow lines (flows.count > 0)
  const auto& f = j["ftl"];
  std::printf(
      "WAF %.3f  (host %llu LBAs, GC %llu LBAs), GC victims %llu, erases %llu, erase count min/mean/max %u/%.2f/%u\n",
      f["waf"].get<double>(), (unsigned long long)f["host_lba_writes"].get<uint64_t>(),
      (unsigned long long)f["gc_lba_writes"].get<uint64_t>(), (unsigned long long)f["gc_runs"].get<uint64_t>(),
      (unsigned long long)f["erases"].get<uint64_t>(), f["erase_count"]["min"].get<uint32_t>(),
      f["erase_count"]["mean"].get<double>(), f["erase_count"]["max"].get<uint32_t>());
  const std::string warn = ssdvp::DeviceState::steady_state_warning(f["spare"]);
  if (!warn.empty()) std::printf("%s\n", warn.c_str());
  if (const std::string jl = ssdvp::journal_summary_line(j); !jl.empty()) std::printf("%s\n", jl.c_str());
  if (const std::string ml = ssdvp::mapping_summary_line(j); !ml.empty()) std::printf("%s\n", ml.c_str());
  if (const std::string hl = ssdvp::host_ftl_summary_line(j); !hl.empty()) std::printf("%s\n", hl.c_str());
  std::printf("integrity: %llu reads checked, %llu mismatches; NAND violations %llu; host errors %llu\n",
              (unsigned long long)j["integrity"]["reads_checked"].get<uint64_t>(),
              (unsigned long long)j["integrity"]["mismatches"].get<uint64_t>(),
              (unsigned long long)j["flash"]["violations"].get<uint64_t>(),
              (unsigned long long)j["host"]["errors"].get<uint64_t>());
  if (j.contains("reliability") && !ssdvp::reliability_line(j["reliability"]).empty())
    std::printf("%s\n", ssdvp::reliability_line(j["reliability"]).c_str());
  std::printf("wall %.2f s (%.0f host I/Os per second), peak RSS %.0f MB; outputs in %s/\n",
              j["run"]["wall_s"].get<double>(), j["run"]["host_ios_per_s"].get<double>(),
              j["run"]["peak_rss_mb"].get<double>(), out.c_str());
}

// " (range: 1 to 64 blocks)" for a parameter with a range, " (cycles)" for one
// with only a unit, else "".
std::string unit_range(const ssdvp::ParamInfo& p) {
  if (!p.range.empty()) return " (range: " + p.range + ")";
  return p.unit.empty() ? "" : " (" + p.unit + ")";
}

int cmd_params(const po::variables_map& vm) {
  if (vm.count("rules")) {  // the combinations a run refuses, as a markdown table (docs/params.md)
    std::cout << ssdvp::plan_rules_markdown();
    return 0;
  }
  const std::string fmt = vm.count("format") ? vm["format"].as<std::string>() : "text";
  if (fmt != "text" && fmt != "markdown" && fmt != "json")
    throw ssdvp::ConfigError("--format '" + fmt + "': params prints text, markdown or json");
  Config cfg = load(vm);
  if (cfg.has("array.level") && ssdvp::array::array_requested(cfg)) {
    ssdvp::array::ArraySimulation sim(cfg);  // declares every parameter, and the per-device overrides
  } else {
    ssdvp::Simulation sim(cfg);  // declares every parameter
  }
  if (fmt == "json") {
    nlohmann::json a = nlohmann::json::array();
    for (const auto& p : cfg.params()) {
      nlohmann::json e = {{"key", p.key},
                          {"type", p.type},
                          {"default", p.default_value},
                          {"description", p.description},
                          {"value", p.value}};
      if (!p.unit.empty()) e["unit"] = p.unit;
      if (!p.range.empty()) e["range"] = p.range;
      if (p.flags) e["flags"] = ssdvp::param_flag_names(p.flags);
      a.push_back(e);
    }
    std::cout << a.dump(2) << "\n";
  } else if (fmt == "markdown") {
    std::cout << "| key | type | default | flags | description |\n|---|---|---|---|---|\n";
    for (const auto& p : cfg.params()) {
      std::string flags;
      for (const auto& f : ssdvp::param_flag_names(p.flags)) flags += (flags.empty() ? "" : " ") + f;
      std::cout << "| `" << p.key << "` | " << p.type << " | `" << p.default_value << "` | " << flags << " | "
                << p.description << unit_range(p) << " |\n";
    }
  } else {
    for (const auto& p : cfg.params())
      std::cout << p.key << " = " << p.value << "    # " << p.type << ", default " << p.default_value << ": "
                << p.description << "\n";
  }
  return 0;
}

void print_array_summary(const nlohmann::json& j, const std::string& out) {
  const auto& a = j["array"];
  std::printf("ssdvp %s\n", j["ssdvp_version"].get<std::string>().c_str());
  std::printf("workload: %s\n", j["workload"]["description"].get<std::string>().c_str());
  std::printf("RAID-5, %u devices, chunk %llu LBAs, gc_coordination %s, reconstruct %s\n", a["devices"].get<uint32_t>(),
              (unsigned long long)a["chunk_lbas"].get<uint64_t>(), a["gc_coordination"].get<std::string>().c_str(),
              a["reconstruct"].get<std::string>().c_str());
  std::printf("simulated %.3f s: %.0f IOPS, %.1f MB/s\n", a["sim_time_s"].get<double>(), a["iops"].get<double>(),
              a["bandwidth_mbps"].get<double>());
  for (const char* op : {"read", "write"}) {
    const auto& l = a["latency_us"][op];
    std::printf("  %-5s %9llu ios  mean %9.1f us  p99 %9.1f  p99.9 %9.1f  p99.99 %9.1f\n", op,
                (unsigned long long)l["count"].get<uint64_t>(), l["mean"].get<double>(), l["p99"].get<double>(),
                l["p999"].get<double>(), l["p9999"].get<double>());
  }
  std::printf("reads by devices in GC:");
  for (uint32_t g = 0; g <= a["devices"].get<uint32_t>(); ++g) {
    const std::string k = std::to_string(g) + "GC";
    std::printf(" %s %llu", k.c_str(), (unsigned long long)a["reads_by_gc_devices"][k].get<uint64_t>());
  }
  std::printf("\ncollisions %llu, forced collections %llu, reconstructions %llu\n",
              (unsigned long long)a["collisions"].get<uint64_t>(),
              (unsigned long long)a["forced_collisions"].get<uint64_t>(),
              (unsigned long long)a["reconstructions"].get<uint64_t>());
  const auto& devs = j["devices"];
  for (size_t i = 0; i < devs.size(); ++i)
    std::printf("  ssd%zu: WAF %.3f, erases %llu, GC %.3f s, forced %llu\n", i, devs[i]["waf"].get<double>(),
                (unsigned long long)devs[i]["erases"].get<uint64_t>(), devs[i]["gc_active_s"].get<double>(),
                (unsigned long long)devs[i]["gc_forced"].get<uint64_t>());
  std::printf("integrity: %llu reads checked, %llu mismatches; %llu device reads checked, %llu mismatches\n",
              (unsigned long long)a["integrity"]["reads_checked"].get<uint64_t>(),
              (unsigned long long)a["integrity"]["mismatches"].get<uint64_t>(),
              (unsigned long long)a["integrity"]["device_reads_checked"].get<uint64_t>(),
              (unsigned long long)a["integrity"]["device_mismatches"].get<uint64_t>());
  std::printf("wall %.2f s, peak RSS %.0f MB; outputs in %s/\n", j["run"]["wall_s"].get<double>(),
              j["run"]["peak_rss_mb"].get<double>(), out.c_str());
}

int run_array(Config& cfg, const std::string& out, bool quiet) {
  ssdvp::array::ArraySimulation sim(cfg);
  const ssdvp::RunOutcome r = sim.run();
  if (!r.error.empty()) {
    print_error("error: ", r.error);
    return r.input_error ? 2 : 1;
  }
  sim.write_outputs(out, r);
  if (!quiet) print_array_summary(r.summary, out);
  print_warnings(r.summary);
  if (!r.clean) {
    std::fprintf(stderr, "ssdvp: the run found %s\n", unclean_reasons(r.summary).c_str());
    return 3;
  }
  return 0;
}

// The register map of firmware/include/ssdvp_regs.def as a markdown table:
// every register of every region, each followed by its fields.
int cmd_registers() {
  using ssdvp::RegAccess;
  auto acc = [](RegAccess a) { return a == RegAccess::ro ? "RO" : a == RegAccess::wo ? "WO" : "RW"; };
  std::cout << "| region | base | register | offset | bits | access | description |\n|---|---|---|---|---|---|---|\n";
  for (const auto& g : ssdvp::region_table()) {
    std::vector<ssdvp::RegisterInfo> regs;
    for (const auto& r : ssdvp::register_table())
      if (r.block == g.name) regs.push_back(r);
    std::stable_sort(regs.begin(), regs.end(), [](const auto& a, const auto& b) { return a.offset < b.offset; });
    char base[16];
    std::snprintf(base, sizeof base, "0x%08llx", (unsigned long long)g.base);
    std::cout << "| " << g.name << " | `" << base << "` | | | | | " << g.description << " |\n";
    for (const auto& r : regs) {
      char off[8];
      std::snprintf(off, sizeof off, "0x%02x", r.offset);
      std::cout << "| | | " << r.name << " | `" << off << "` | 31:0 | " << acc(r.access) << " | " << r.description
                << " |\n";
      for (const auto& f : ssdvp::field_table())
        if (f.block == r.block && f.offset == r.offset)
          std::cout << "| | | " << r.name << "." << f.name << " | | " << f.msb << ":" << f.lsb << " | " << acc(f.access)
                    << " | " << f.description << " |\n";
    }
  }
  return 0;
}

int cmd_run(const po::variables_map& vm) {
  Config cfg = load(vm);
  if (vm.count("trace")) {
    cfg.set("workload.source", "trace");
    cfg.set("workload.trace", vm["trace"].as<std::string>());
  }
  // --trace-format names the trace's format. `run --format` is its older
  // spelling (kept so existing scripts work, with a warning): --format is
  // params' output format.
  if (vm.count("trace-format")) {
    cfg.set("workload.format", vm["trace-format"].as<std::string>());
  } else if (vm.count("format")) {
    std::fprintf(stderr,
                 "ssdvp: warning: `run --format` is deprecated, use --trace-format (--format is the output "
                 "format of `ssdvp params`)\n");
    cfg.set("workload.format", vm["format"].as<std::string>());
  }
  const std::string out = vm["out"].as<std::string>();
  timeline_into(cfg, out);
  if (cfg.has("array.level") && ssdvp::array::array_requested(cfg)) {
    ssdvp::RunPlan plan;  // an array's devices are checked by ArraySimulation; here, what the command line adds
    plan.entry = ssdvp::RunEntry::array;
    plan.save_state = vm.count("save-state") != 0;
    plan.load_state = vm.count("load-state") != 0;
    plan.check();
    check_writable_dir("-o", out);
    return run_array(cfg, out, vm.count("quiet") != 0);
  }
  ssdvp::Simulation sim(cfg);
  if (!vm.count("precondition-only")) check_writable_dir("-o", out);
  if (vm.count("save-state")) check_writable_dir("--save-state", vm["save-state"].as<std::string>());
  ssdvp::StateOptions state;
  if (vm.count("save-state")) state.save_dir = vm["save-state"].as<std::string>();
  if (vm.count("load-state")) state.load_dir = vm["load-state"].as<std::string>();
  state.precondition_only = vm.count("precondition-only") != 0;
  sim.set_state_options(state);
  sim.set_progress(!vm.count("quiet") && ::isatty(STDERR_FILENO));
  const ssdvp::RunOutcome r = sim.run();
  if (!r.error.empty()) {
    print_error("error: ", r.error);
    return r.input_error ? 2 : 1;
  }
  if (state.precondition_only) {
    if (!vm.count("quiet"))
      std::printf("drive saved in %s/ (no timed part: --precondition-only)\n", state.save_dir.c_str());
    return 0;
  }
  sim.write_outputs(out, r);
  if (!vm.count("quiet")) print_summary(r.summary, out);
  print_warnings(r.summary);
  if (!r.clean) {
    std::fprintf(stderr, "ssdvp: the run found %s\n", unclean_reasons(r.summary).c_str());
    return 3;
  }
  return 0;
}

// ssdvp serve: the drive as an NBD export (platform/nbd, docs/models/nbd.md).
int cmd_serve(const po::variables_map& vm) {
  Config cfg = load(vm);
  const std::string out = vm["out"].as<std::string>();
  timeline_into(cfg, out);
  check_writable_dir("-o", out);
  if (vm.count("record")) check_file_dir("--record", vm["record"].as<std::string>());
  const auto r = ssdvp::nbd::serve(cfg, vm.count("listen") ? vm["listen"].as<std::string>() : "",
                                   vm.count("record") ? vm["record"].as<std::string>() : "", out);
  if (!r.error.empty()) {
    print_error("error: ", r.error);
    return 1;
  }
  if (!vm.count("quiet")) {
    print_summary(r.summary, out);
    ssdvp::nbd::print_nbd_summary(r.summary);
  }
  print_warnings(r.summary);
  if (!r.clean) {
    std::fprintf(stderr, "ssdvp: the session found %s\n", unclean_reasons(r.summary).c_str());
    return 3;
  }
  return 0;
}

}  // namespace

int sc_main(int argc, char* argv[]) {
  std::setvbuf(stdout, nullptr, _IOLBF, 0);  // piped stdout shows each line when printed, not at exit
  sc_core::sc_report_handler::set_actions("/OSCI/SystemC", sc_core::SC_INFO, sc_core::SC_DO_NOTHING);
  po::options_description opts("options");
  opts.add_options()("help,h", "this help")("version", "print the version")(
      "config,c", po::value<std::string>(), "YAML config file")("set", po::value<std::vector<std::string>>(),
                                                                "override one key: --set key=value (repeatable)")(
      "trace", po::value<std::string>(), "replay this trace (sets workload.source=trace, workload.trace)")(
      "trace-format", po::value<std::string>(), "run: the trace's format (sets workload.format)")(
      "format", po::value<std::string>(), "params: output format, text|markdown|json (default text)")(
      "rules", "params: list the combinations of keys and options a run refuses, and why (markdown)")(
      "out,o", po::value<std::string>()->default_value("out"), "output directory")("quiet,q", "no summary on stdout")(
      "listen", po::value<std::string>(), "serve: unix:PATH or tcp:127.0.0.1:PORT (sets nbd.listen)")(
      "record", po::value<std::string>(), "serve: record every request to this fio v3 iolog (and FILE.times.csv)")(
      "save-state", po::value<std::string>(), "run: save the drive after preconditioning into DIR (docs/state.md)")(
      "load-state", po::value<std::string>(), "run: start from the drive saved in DIR instead of preconditioning")(
      "precondition-only", "run: with --save-state, stop after saving (no timed part)")(
      "command", po::value<std::string>(), "run | serve | params | registers | hostile");
  po::positional_options_description pos;
  pos.add("command", 1);
  try {
    po::variables_map vm;
    po::store(po::command_line_parser(argc, argv).options(opts).positional(pos).run(), vm);
    po::notify(vm);
    if (vm.count("version")) {
      std::printf("ssdvp %s\n", ssdvp::ssdvp_version().c_str());
      return 0;
    }
    if (vm.count("help") || !vm.count("command")) {
      std::fputs(kUsage, vm.count("help") ? stdout : stderr);
      if (vm.count("help")) std::cout << opts;
      return vm.count("help") ? 0 : 2;
    }
    const std::string cmd = vm["command"].as<std::string>();
    if (cmd == "run") return cmd_run(vm);
    if (cmd == "params") return cmd_params(vm);
    if (cmd == "serve") return cmd_serve(vm);
    if (cmd == "registers") return cmd_registers();
    if (cmd == "hostile") return ssdvp::hostile_command(load(vm), vm.count("quiet") != 0);
    std::fprintf(stderr, "ssdvp: unknown command '%s'\n%s", printable(cmd).c_str(), kUsage);
    return 2;
  } catch (const po::error& e) {
    std::fprintf(stderr, "ssdvp: %s\n%s", printable(e.what()).c_str(), kUsage);
    return 2;
  } catch (const ssdvp::ConfigError& e) {
    print_error("", e.what());
    return 2;
  } catch (const ssdvp::host::TraceError& e) {
    print_error("trace error: ", e.what());
    return 2;
  } catch (const std::invalid_argument& e) {
    print_error("", e.what());
    return 2;
  } catch (const std::exception& e) {
    print_error("error: ", e.what());
    return 1;
  }
}

// ssdvp's own entry point (it replaces the one libsystemc provides): --help,
// --version and a usage error print only ssdvp's text, so SystemC's banner,
// which sc_elab_and_sim prints before sc_main, is turned off for them.
int main(int argc, char* argv[]) {
  bool simulates = false;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--help" || a == "-h" || a == "--version") {
      simulates = false;
      break;
    }
    if (a == "run" || a == "params" || a == "serve") simulates = true;
  }
  if (!simulates) setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1", 1);
  return sc_core::sc_elab_and_sim(argc, argv);
}
