// array_sim.cpp - see array_sim.h.
#include "array/array_sim.h"

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <random>

#include "common/param_table.h"
#include "host/host_driver.h"
#include "host/workload_views.h"
#include "run/device.h"
#include "run/run_plan.h"
#include "run/run_summary.h"
#include "run/run_workload.h"
#include "run/params.h"
#include "run/timeline.h"
#include "soc/ssd_soc.h"
#include "workload.h"

namespace ssdvp::array {
namespace {

std::string geometry_text(const SsdSoc& s) {
  const FlashGeometry& g = s.geometry();
  char b[200];
  std::snprintf(b, sizeof b, "%u ch x %u dies x %u blocks x %u pages x %u B, LBA %u B, %llu LBAs", g.channels,
                g.dies_per_channel, g.blocks_per_die(), g.pages_per_block, g.page_size, g.lba_size,
                (unsigned long long)s.logical_lbas());
  return b;
}

// array.dev<i>.<key>: a key of the device's SSD (the flag per_device).
const InstanceKind kDevice = {"array.dev",
                              "device",
                              "array.devices",
                              "a per-device override is array.dev<i>.<key>",
                              "a device overrides the keys of its SSD (flash.*, ftl.*, nvme.*, dram.*, cpu.*, ...)",
                              param_flags::per_device};

}  // namespace

bool array_requested(Config& cfg) { return cfg.get_choice("array.level") == "raid5"; }

ArraySimulation::ArraySimulation(Config& cfg) : cfg_(cfg) {
  cfg.declare_all(param_registry());  // every key known before any model reads one (run/params.def)
  try {
    RunPlan::read(cfg, RunEntry::array).check();  // the combinations refused (run/run_plan.h)
    build();
  } catch (const ConfigError& e) {
    std::string hint;
    for (const auto& k : cfg.undeclared()) hint += (hint.empty() ? "" : ", ") + k;
    if (hint.empty()) throw;
    throw ConfigError(std::string(e.what()) + "\n  (keys not known so far, perhaps misspelt: " + hint + ")");
  }
}

ArraySimulation::~ArraySimulation() = default;

void ArraySimulation::build() {
  Config& cfg = cfg_;
  array_requested(cfg);
  const ArrayParams p = ArrayParams::from_config(cfg);
  // Per-device overrides: array.dev<i>.<key> = value, of the keys flagged
  // per_device (platform/run/params.def).
  const InstanceOverrides o = read_instance_overrides(cfg, kDevice, p.devices);
  std::vector<std::vector<std::pair<std::string, std::string>>> over = o.keys;
  std::vector<std::string> first_key = o.first;
  Config base = cfg;  // before device 0's overrides
  for (const auto& o : over[0]) cfg.set(o.first, o.second);
  devs_.push_back(std::make_unique<Device>("ssd0", cfg));
  const uint32_t built = p.devices + (p.spare ? 1 : 0);  // a hot spare after the members
  over.resize(built);
  first_key.resize(built);
  for (uint32_t i = 1; i < built; ++i) {
    dev_cfgs_.push_back(std::make_unique<Config>(base));
    for (const auto& o : over[i]) dev_cfgs_.back()->set(o.first, o.second);
    try {
      devs_.push_back(std::make_unique<Device>("ssd" + std::to_string(i), *dev_cfgs_.back()));
    } catch (const ConfigError& e) {
      if (first_key[i].empty()) throw;
      throw ConfigError("config key '" + first_key[i] + "': device " + std::to_string(i) +
                        " cannot be built with its overrides: " + e.what());
    }
  }
  const SsdSoc& s0 = devs_[0]->soc();
  for (uint32_t i = 1; i < built; ++i) {
    const SsdSoc& si = devs_[i]->soc();
    if (geometry_text(si) != geometry_text(s0) || si.fw_config().max_transfer_lbas != s0.fw_config().max_transfer_lbas)
      throw ConfigError("config key '" + (first_key[i].empty() ? std::string("array.devices") : first_key[i]) +
                        "': device " + std::to_string(i) + " (" + geometry_text(si) + ") differs from device 0 (" +
                        geometry_text(s0) + "); a RAID-5 array needs devices of one geometry");
  }
  const uint32_t lba = s0.lba_size();
  if (p.chunk_bytes == 0 || p.chunk_bytes % lba != 0)
    throw ConfigError("config key 'array.chunk': " + std::to_string(p.chunk_bytes) +
                      " bytes is not a multiple of the LBA size (" + std::to_string(lba) + " bytes)");
  if (p.chunk_bytes / lba > s0.logical_lbas()) throw ConfigError("config key 'array.chunk': larger than a device");
  const uint64_t mem = cfg.get_size("array.host_memory");
  for (uint32_t i = 0; i < built; ++i) devs_[i]->attach_memory("ssd" + std::to_string(i) + "_mem", mem);
  std::vector<Device*> raw;
  for (auto& d : devs_) raw.push_back(d.get());
  ctrl_ = std::make_unique<ArrayController>("raid", p, raw, lba, s0.fw_config().max_transfer_lbas);

  keys_ = RunKeys::read(cfg);
  if (!keys_.timeline.empty()) {
    timeline_ = std::make_unique<Timeline>(keys_.timeline, keys_.timeline_start, keys_.timeline_len);
    ctrl_->set_timeline(timeline_.get());
  }
  const uint64_t interval = cfg.get_time_ps("stats.interval");
  if (interval == 0) throw ConfigError("config key 'stats.interval': must be positive");
  ctrl_->set_sampler(
      [this] {
        for (auto& d : devs_) d->sample();
      },
      interval);
  workload_ = make_workload(cfg, ctrl_->map().array_lbas() * lba, lba);
  workload_desc_ = workload_->describe();
  cfg.check_unknown();
}

void ArraySimulation::precondition() {
  ArrayController& c = *ctrl_;
  const uint64_t lbas = c.map().array_lbas();
  const uint64_t fill = uint64_t(double(lbas) * keys_.fill);
  for (uint64_t l = 0; l < fill; l += c.map().stripe_lbas())
    c.precondition_write(l, std::min(c.map().stripe_lbas(), fill - l));
  std::mt19937_64 rng(keys_.seed);
  const uint64_t rw = uint64_t(double(lbas) * keys_.random_dw);
  for (uint64_t i = 0; i < rw; ++i) c.precondition_write(rng() % lbas, 1);
  const uint64_t n = keys_.workload_requests(*workload_);
  host::IoRequest r;
  const uint32_t lba_size = devs_[0]->soc().lba_size();
  uint64_t written = fill + rw;
  for (uint64_t i = 0; i < n && workload_->next(r); ++i) {
    if (r.op != host::IoOp::write) continue;
    for (auto& d : devs_) d->soc().cpu().set_functional_time_ns(r.time_ps / 1000);
    uint64_t lba, cnt;
    if (lba_range(r.offset, r.length, lba_size, lbas, true, &lba, &cnt)) {
      c.precondition_write(lba, cnt);
      written += cnt;
    }
  }
  // precondition.free_pool, as a single run (Simulation::settle_free_pool):
  // each device's free pool brought down to the level its timed part holds
  // (the GC threshold, or the reserve for a closed loop), here by random
  // one-LBA array writes (each a data and a parity LBA), so every device
  // starts without a transient.
  if (keys_.free_pool == "asis" || written == 0) return;
  const bool reserve = keys_.free_pool == "reserve" || (keys_.free_pool == "auto" && ctrl_->closed_loop());
  std::vector<uint32_t> target;
  for (auto& d : devs_) {
    const ftl_config& fc = d->soc().fw_config();
    target.push_back(reserve ? fc.gc_reserve_blocks + 1 : fc.gc_threshold_blocks);
    if (d->soc().cpu().func_set_gc_threshold(target.back()) != 0)
      throw std::runtime_error("preconditioning: the firmware refused a GC threshold");
  }
  auto above = [&] {
    for (size_t i = 0; i < devs_.size(); ++i)
      if (devs_[i]->soc().cpu().stats().free_blocks > target[i]) return true;
    return false;
  };
  for (uint64_t i = 0; above() && i < 2 * lbas; ++i) c.precondition_write(rng() % lbas, 1);
  for (auto& d : devs_) d->soc().cpu().func_set_gc_threshold(d->soc().fw_config().gc_threshold_blocks);
}

RunOutcome ArraySimulation::run() {
  const auto t0 = std::chrono::steady_clock::now();
  sc_core::sc_start(sc_core::SC_ZERO_TIME);
  for (auto& d : devs_) d->soc().boot();
  precondition();
  for (auto& d : devs_) d->mark_start();
  timed_ = make_rebased(*workload_);
  ctrl_->set_workload(timed_.get());
  ctrl_->set_on_finish([this] {
    for (auto& d : devs_) d->soc().stop();
    sc_core::sc_stop();
  });
  for (uint32_t i = 0; i < devs_.size(); ++i) {
    Controller& fw = devs_[i]->soc().cpu();
    fw.on_trace = [this, i](enum hal_trace_event ev, uint32_t, uint64_t at) {
      if (ev == HAL_TRACE_GC_VICTIM_START || ev == HAL_TRACE_GC_VICTIM_END)
        ctrl_->gc_trace(i, ev == HAL_TRACE_GC_VICTIM_START, at);
    };
    fw.on_stop = [this, i] {
      if (!devs_[i]->soc().cpu().fault().empty()) sc_core::sc_stop();
    };
  }
  for (auto& d : devs_) d->soc().start();
  ctrl_->start();
  sc_core::sc_start();
  RunOutcome out;
  for (uint32_t i = 0; i < devs_.size(); ++i)
    if (!devs_[i]->soc().cpu().fault().empty()) {
      out.clean = false;
      out.error = "device " + std::to_string(i) + ": firmware fault: " + devs_[i]->soc().cpu().fault();
      return out;
    }
  if (ctrl_->error()) {
    out.clean = false;
    try {
      std::rethrow_exception(ctrl_->error());
    } catch (const std::exception& e) {
      out.error = e.what();
    }
    return out;
  }
  if (timeline_) timeline_->close();
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  uint64_t violations = 0;
  out.summary = summarize(wall, violations);
  out.clean = ctrl_->mismatches() == 0 && violations == 0 && ctrl_->finished();
  return out;
}

// summary.json: the array's controller, each device (Device::timed_summary)
// and their mean; violations: the devices' flash violations.
nlohmann::json ArraySimulation::summarize(double wall, uint64_t& violations) const {
  using nlohmann::json;
  json j;
  j["ssdvp_version"] = ssdvp_version();
  json c = json::object();
  for (const auto& prm : cfg_.params()) c[prm.key] = prm.value;
  j["config"] = c;
  j["workload"] = {{"description", workload_desc_}, {"records_read", workload_->stats().records}};
  j["array"] = ctrl_->summary();
  json devs = json::array();
  uint64_t forced = 0;
  double waf = 0, gc_s = 0;
  uint64_t erases = 0;
  for (uint32_t i = 0; i < devs_.size(); ++i) {
    json d = devs_[i]->timed_summary(uint64_t(ctrl_->sim_seconds() * 1e12));
    d["io"] = j["array"]["devices_io"][i];
    forced += d["gc_forced"].get<uint64_t>();
    violations += d["flash"]["violations"].get<uint64_t>();
    waf += d["waf"].get<double>();
    gc_s += d["gc_active_s"].get<double>();
    erases += d["erases"].get<uint64_t>();
    devs.push_back(d);
  }
  j["array"].erase("devices_io");
  j["array"]["forced_collisions"] = forced;
  j["array"]["device_mean"] = {{"waf", waf / double(devs.size())},
                               {"gc_active_s", gc_s / double(devs.size())},
                               {"erases", double(erases) / double(devs.size())}};
  j["devices"] = devs;
  const ProcessUsage use = process_usage();
  j["run"] = {{"wall_s", wall},
              {"cpu_s", use.cpu_s},
              {"host_ios_per_s", wall > 0 ? double(ctrl_->requests()) / wall : 0.0},
              {"peak_rss_mb", use.peak_rss_mb},
              {"finished", ctrl_->finished()}};
  return j;
}

void ArraySimulation::write_outputs(const std::string& dir, const RunOutcome& out) const {
  namespace fs = std::filesystem;
  fs::create_directories(dir);
  const fs::path d(dir);
  auto put = [&](const std::string& name, const std::string& text) {
    const fs::path tmp = d / ("." + name + ".tmp");
    {
      std::ofstream f(tmp);
      f << text;
      if (!f) throw std::runtime_error("cannot write " + (d / name).string());
    }
    fs::rename(tmp, d / name);
  };
  put("summary.json", out.summary.dump(2) + "\n");
  std::string csv =
      "device,host_reads,host_writes,reconstruction_reads,max_queue,waf,erases,gc_runs,gc_active_s,gc_forced,gc_"
      "reported\n";
  const auto& devs = out.summary["devices"];
  for (size_t i = 0; i < devs.size(); ++i) {
    const auto& x = devs[i];
    char line[320];
    std::snprintf(line, sizeof line, "%zu,%llu,%llu,%llu,%llu,%.4f,%llu,%llu,%.6f,%llu,%llu\n", i,
                  (unsigned long long)x["io"]["reads"].get<uint64_t>(),
                  (unsigned long long)x["io"]["writes"].get<uint64_t>(),
                  (unsigned long long)x["io"]["reconstruction_reads"].get<uint64_t>(),
                  (unsigned long long)x["io"]["max_queue"].get<uint64_t>(), x["waf"].get<double>(),
                  (unsigned long long)x["erases"].get<uint64_t>(), (unsigned long long)x["gc_runs"].get<uint64_t>(),
                  x["gc_active_s"].get<double>(), (unsigned long long)x["gc_forced"].get<uint64_t>(),
                  (unsigned long long)x["io"]["gc_reported"].get<uint64_t>());
    csv += line;
  }
  put("devices.csv", csv);
  std::string h = "gc_devices,reads,mean_us,p99_us,p999_us\n";
  const auto& a = out.summary["array"];
  for (const auto& kv : a["reads_by_gc_devices"].items()) {
    const auto& lat = a["read_latency_by_gc_devices_us"];
    const bool has = lat.contains(kv.key());
    char line[200];
    std::snprintf(line, sizeof line, "%s,%llu,%.3f,%.3f,%.3f\n", kv.key().c_str(),
                  (unsigned long long)kv.value().get<uint64_t>(), has ? lat[kv.key()]["mean"].get<double>() : 0.0,
                  has ? lat[kv.key()]["p99"].get<double>() : 0.0, has ? lat[kv.key()]["p999"].get<double>() : 0.0);
    h += line;
  }
  put("gc_histogram.csv", h);
}

}  // namespace ssdvp::array
