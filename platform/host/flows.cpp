// flows.cpp - see flows.h.
#include "host/flows.h"

#include <algorithm>
#include <cstdio>
#include <stdexcept>

#include "common/param_table.h"
#include "host/host_memory.h"
#include "host/scoreboard.h"
#include "host/workload_views.h"
#include "nvme/nvme_ctrl.h"

namespace ssdvp {
namespace {

constexpr uint32_t kAdminSetFeatures = 0x09;  // NVMe admin opcode
const char* const kPriorities[] = {"urgent", "high", "medium", "low"};

// flows.<i>.<key>: a key of the flow's workload or host (the flag per_flow
// of its row in platform/run/params.def).
const InstanceKind kFlow = {"flows.",
                            "flow",
                            "flows.count",
                            "a flow's key is flows.<i>.<key>",
                            "a flow sets name, priority, start, stop, stop_queues, share, offset, workload.* and "
                            "host.queue_depth/mode/submit",
                            param_flags::per_flow};

}  // namespace

std::vector<FlowSpec> read_flows(Config& cfg, uint64_t lbas) {
  const uint64_t n = cfg.get_u64("flows.count");
  // The host's Arbitration feature (FlowSet sends it): read here so that the
  // registry's keys are read whether or not there are flows.
  cfg.get_u64("flows.arbitration_burst");
  for (const char* c : {"high", "medium", "low"}) cfg.get_u64(std::string("flows.weight_") + c);
  std::vector<FlowSpec> flows;
  if (n == 0) {
    for (const auto& kv : cfg.values())
      if (kv.first.rfind("flows.", 0) == 0 && kv.first != "flows.count")
        throw ConfigError("config key '" + kv.first + "': flows.count is 0 (set it to the number of flows)");
    return flows;
  }
  // host.streams, power cuts and host.lba_wrap false are refused by the run plan (run/run_plan.cpp).
  const auto over = read_instance_overrides(cfg, kFlow, n).keys;
  double claimed = 0;
  uint64_t unclaimed = 0;
  std::vector<double> share(n), offset(n, -1.0);  // offset < 0: laid out after the flow before
  for (uint64_t i = 0; i < n; ++i) {
    const std::string p = "flows." + std::to_string(i) + ".";
    FlowSpec f;
    f.name = cfg.get_string(p + "name", "flow" + std::to_string(i));
    f.priority = NvmeArbiter::Priority(
        std::find(std::begin(kPriorities), std::end(kPriorities), cfg.get_choice(p + "priority")) -
        std::begin(kPriorities));
    f.start_ps = cfg.get_time_ps(p + "start");
    f.stop_ps = cfg.get_time_ps(p + "stop");
    const std::string sq = cfg.get_choice(p + "stop_queues");
    f.stop_queues = sq == "drain"   ? FlowSpec::StopQueues::drain
                    : sq == "abort" ? FlowSpec::StopQueues::abort
                                    : FlowSpec::StopQueues::keep;
    if (f.stop_ps && f.stop_ps <= f.start_ps)
      throw ConfigError("config key '" + p + "stop': at or before " + p + "start");
    share[i] = cfg.get_double(p + "share");
    if (cfg.has(p + "offset")) {  // placed: may overlap other flows' LBAs (shared_lbas.h)
      offset[i] = cfg.get_double(p + "offset");
      if (offset[i] + share[i] > 1.0 + 1e-9)
        throw ConfigError("config key '" + p + "share': offset + share is " + std::to_string(offset[i] + share[i]) +
                          ", beyond the namespace");
    } else {
      claimed += share[i];
      unclaimed += share[i] == 0;
    }
    f.cfg = std::make_unique<Config>(cfg);
    for (const auto& o : over[i]) f.cfg->set(o.first, o.second);
    // The totals' time series are merged from the flows' interval histograms.
    f.cfg->set("stats.interval_histograms", "true");
    if (f.stop_ps) f.cfg->set("host.time_limit", format_time_ps(f.stop_ps));
    f.queue.qid = uint16_t(i + 1);
    f.queue.create = false;
    flows.push_back(std::move(f));
  }
  if (claimed > 1.0 + 1e-9 || (unclaimed && claimed >= 1.0))
    throw ConfigError("config key 'flows.0.share': the flows' shares add up to " + std::to_string(claimed) +
                      (unclaimed ? " and leave nothing for the flows without one" : ", more than the namespace"));
  uint64_t base = 0, last_laid = n;  // the last flow laid out in order gets what rounding leaves
  for (uint64_t i = 0; i < n; ++i)
    if (offset[i] < 0) last_laid = i;
  for (uint64_t i = 0; i < n; ++i) {
    if (offset[i] >= 0) {  // placed: [offset, offset + share), share 0: to the end
      const uint64_t b = std::min(lbas - 1, uint64_t(double(lbas) * offset[i]));
      const uint64_t len = share[i] ? std::min(lbas - b, uint64_t(double(lbas) * share[i])) : lbas - b;
      if (len == 0) throw ConfigError("config key 'flows." + std::to_string(i) + ".share': the flow gets no LBA");
      flows[i].queue.lba_base = b;
      flows[i].queue.lbas = len;
      continue;
    }
    const double s = share[i] ? share[i] : (1.0 - claimed) / double(unclaimed);
    uint64_t len = i == last_laid && unclaimed && share[i] == 0 ? lbas - base : uint64_t(double(lbas) * s);
    len = std::min(len, lbas - base);
    if (len == 0) throw ConfigError("config key 'flows." + std::to_string(i) + ".share': the flow gets no LBA");
    flows[i].queue.lba_base = base;
    flows[i].queue.lbas = len;
    base += len;
  }
  return flows;
}

DoorbellFanIn::DoorbellFanIn(sc_core::sc_module_name n) : sc_module(n), in("in"), out("out") {
  in.register_b_transport(this, &DoorbellFanIn::b_transport);
}

FlowSet::FlowSet(std::vector<FlowSpec> specs, Config& cfg, HostDriver& first, HostMemory& mem, NvmeCtrl& nvme,
                 Scoreboard& sb, uint32_t lba_size, uint32_t max_transfer, const WorkloadFactory& make)
    : specs_(std::move(specs)), first_(first), nvme_(nvme), fan_("flows_doorbells") {
  user_interval_histograms_ = cfg.get_bool("stats.interval_histograms");
  const uint64_t ab = cfg.get_u64("flows.arbitration_burst");  // read_flows declared these
  const uint64_t hpw = cfg.get_u64("flows.weight_high");
  const uint64_t mpw = cfg.get_u64("flows.weight_medium");
  const uint64_t lpw = cfg.get_u64("flows.weight_low");
  set_arbitration_ = cfg.has("flows.arbitration_burst") || cfg.has("flows.weight_high") ||
                     cfg.has("flows.weight_medium") || cfg.has("flows.weight_low");
  arbitration_dw11_ = uint32_t(ab | (lpw - 1) << 8 | (mpw - 1) << 16 | (hpw - 1) << 24);
  fan_.out.bind(nvme.host_regs);
  first_.pcie.bind(fan_.in);
  for (size_t i = 1; i < specs_.size(); ++i) {
    FlowSpec& f = specs_[i];
    drivers_.push_back(std::make_unique<HostDriver>(("host_flow" + std::to_string(i)).c_str(), *f.cfg, mem, nvme, sb,
                                                    lba_size, max_transfer, f.queue));
    drivers_.back()->pcie.bind(fan_.in);
    drivers_.back()->feed_block_stats(first.block_stats());  // the GC monitor sees every flow's I/O
    workloads_.push_back(make(*f.cfg, f.queue.lbas * lba_size));
    if (f.start_ps && drivers_.back()->closed_loop())
      throw ConfigError("config key 'flows." + std::to_string(i) + ".start': a closed-loop flow starts at once");
  }
  if (specs_[0].start_ps && first_.closed_loop())
    throw ConfigError("config key 'flows.0.start': a closed-loop flow starts at once");
  first_.set_before_replay([this] { create_queues(); });
  for (size_t i = 0; i < specs_.size() && !overlap_; ++i)
    for (size_t j = i + 1; j < specs_.size() && !overlap_; ++j) {
      const HostQueue &a = specs_[i].queue, &b = specs_[j].queue;
      if (a.lba_base < b.lba_base + b.lbas && b.lba_base < a.lba_base + a.lbas) overlap_ = true;
    }
  bool aborts = false;
  for (size_t i = 0; i < specs_.size(); ++i) {
    if (specs_[i].stop_queues == FlowSpec::StopQueues::keep) continue;
    aborts = aborts || specs_[i].stop_queues == FlowSpec::StopQueues::abort;
    const NvmeQueuePair& q = driver(i).queue_pair();
    driver(i).set_queue_deleter(
        [this, &q](bool cq) {
          const nvme_sqe e = q.delete_command(cq);
          admin_lock_.lock();  // from this flow's thread, on flow 0's admin queue
          struct Unlock {
            sc_core::sc_mutex& m;
            ~Unlock() { m.unlock(); }
          } unlock{admin_lock_};
          return first_.admin(e);
        },
        specs_[i].stop_queues == FlowSpec::StopQueues::abort);
  }
  if (overlap_ || aborts) use_shared(sb);  // an aborted write never happened
}

void FlowSet::use_shared(Scoreboard& sb) {
  if (shared_) return;
  shared_ = std::make_unique<SharedLbas>(sb);
  for (size_t i = 0; i < size(); ++i) driver(i).set_shared(shared_.get());
}

FlowSet::~FlowSet() = default;

void FlowSet::create_queues() {
  auto fail = [](const std::string& what, uint16_t st) {
    char b[8];
    std::snprintf(b, sizeof b, "%03x", st);
    throw std::runtime_error("flows: " + what + " failed with NVMe status 0x" + b);
  };
  if (set_arbitration_) {
    nvme_sqe e{};
    e.cdw0 = kAdminSetFeatures;
    e.cdw10 = NVME_FEAT_ARBITRATION;
    e.cdw11 = arbitration_dw11_;
    if (uint16_t st = first_.admin(e)) fail("Set Features (Arbitration)", st);
  }
  for (size_t i = 0; i < specs_.size(); ++i) {
    const NvmeQueuePair& q = driver(i).queue_pair();
    if (uint16_t st = first_.admin(q.create_cq_command())) fail("Create I/O CQ " + std::to_string(q.qid()), st);
    if (uint16_t st = first_.admin(q.create_sq_command(uint32_t(specs_[i].priority))))
      fail("Create I/O SQ " + std::to_string(q.qid()), st);
  }
  for (auto& d : drivers_) d->start();  // in this time step, as flow 0 starts its replay
}

void FlowSet::prepare(std::function<void()> all_done, host::Workload* first_workload,
                      std::function<DeviceSample()> sampler) {
  all_done_ = std::move(all_done);
  if (specs_[0].start_ps && first_workload) {
    wrapped_.push_back(make_delayed(*first_workload, specs_[0].start_ps));
    first_.set_workload(wrapped_.back().get());
  }
  auto one_done = [this] {
    if (++done_ == specs_.size() || error()) all_done_();
  };
  first_.set_on_finish(one_done);
  for (size_t i = 1; i < specs_.size(); ++i) {
    HostDriver& d = *drivers_[i - 1];
    wrapped_.push_back(make_rebased(*workloads_[i - 1]));
    if (specs_[i].start_ps) wrapped_.push_back(make_delayed(*wrapped_.back(), specs_[i].start_ps));
    d.set_workload(wrapped_.back().get());
    d.set_sampler(sampler);
    d.set_on_finish(one_done);
  }
}

bool FlowSet::finished() const {
  for (size_t i = 0; i < size(); ++i)
    if (!driver(i).finished()) return false;
  return true;
}

std::exception_ptr FlowSet::error() const {
  for (size_t i = 0; i < size(); ++i)
    if (driver(i).error()) return driver(i).error();
  return nullptr;
}

namespace {

IntervalLatency merge_interval(const std::vector<const IntervalLatency*>& parts, bool keep_buckets) {
  LatencyHistogram h;  // rebuilt from the buckets' lower bounds
  IntervalLatency out{};
  std::vector<LatencyHistogram::Bucket> all;
  for (const IntervalLatency* p : parts) {
    out.count += p->count;
    out.max = std::max(out.max, p->max);
    all.insert(all.end(), p->buckets.begin(), p->buckets.end());
  }
  std::sort(all.begin(), all.end(), [](const auto& a, const auto& b) { return a.lo < b.lo; });
  auto q = [&](double f) {
    const uint64_t want = uint64_t(f * double(out.count) + 0.999999);
    uint64_t seen = 0;
    for (const auto& b : all)
      if ((seen += b.count) >= want) return std::min(double(b.lo + b.hi) / 2000.0, out.max);
    return out.max;
  };
  if (out.count) {
    out.p50 = q(0.5);
    out.p99 = q(0.99);
    out.p999 = q(0.999);
  }
  if (keep_buckets) {  // same-bounds buckets of different flows summed
    for (const auto& b : all)
      if (!out.buckets.empty() && out.buckets.back().lo == b.lo)
        out.buckets.back().count += b.count;
      else
        out.buckets.push_back(b);
  }
  return out;
}

}  // namespace

const HostResults& FlowSet::totals() const {
  if (totals_) return *totals_;
  totals_ = std::make_unique<HostResults>();
  HostResults& t = *totals_;
  t.start_ps = UINT64_MAX;
  size_t longest = 0;
  for (size_t i = 0; i < size(); ++i) {
    const HostResults& r = driver(i).results();
    t.requests += r.requests;
    t.reads += r.reads;
    t.writes += r.writes;
    t.trims += r.trims;
    t.flushes += r.flushes;
    t.read_bytes += r.read_bytes;
    t.write_bytes += r.write_bytes;
    t.trim_bytes += r.trim_bytes;
    t.commands += r.commands;
    t.errors += r.errors;
    t.wrapped += r.wrapped;
    t.dropped += r.dropped;
    t.time_limited = t.time_limited || r.time_limited;
    for (const auto& kv : r.errors_by_status) t.errors_by_status[kv.first] += kv.second;
    t.read_latency.merge(r.read_latency);
    t.write_latency.merge(r.write_latency);
    t.fsync_latency.merge(r.fsync_latency);
    t.flush_latency.merge(r.flush_latency);
    t.start_ps = std::min(t.start_ps, r.start_ps);
    t.end_ps = std::max(t.end_ps, r.end_ps);
    for (int k = 0; k < 3; ++k) t.in_system_ps[k] += r.in_system_ps[k];
    t.device_commands_ps += r.device_commands_ps;
    if (r.timeseries.size() > driver(longest).results().timeseries.size()) longest = i;
  }
  t.interval_histograms = user_interval_histograms_;
  const auto& base = driver(longest).results().timeseries;
  for (size_t row = 0; row < base.size(); ++row) {
    TimeseriesRow m = base[row];  // device columns and time from the longest flow
    m.read_mbps = m.write_mbps = m.read_iops = m.write_iops = 0;
    std::vector<const IntervalLatency*> rd, wr;
    for (size_t i = 0; i < size(); ++i) {
      const auto& ts = driver(i).results().timeseries;
      if (row >= ts.size()) continue;
      m.read_mbps += ts[row].read_mbps;
      m.write_mbps += ts[row].write_mbps;
      m.read_iops += ts[row].read_iops;
      m.write_iops += ts[row].write_iops;
      rd.push_back(&ts[row].read_latency);
      wr.push_back(&ts[row].write_latency);
    }
    m.read_latency = merge_interval(rd, user_interval_histograms_);
    m.write_latency = merge_interval(wr, user_interval_histograms_);
    t.timeseries.push_back(m);
  }
  if (t.start_ps == UINT64_MAX) t.start_ps = 0;
  return t;
}

nlohmann::json FlowSet::summary() const {
  nlohmann::json a = nlohmann::json::array();
  for (size_t i = 0; i < size(); ++i) {
    const HostDriver& d = driver(i);
    const HostResults& r = d.results();
    const FlowSpec& f = specs_[i];
    const uint64_t begin = r.start_ps + f.start_ps;
    const double secs = r.end_ps > begin ? double(r.end_ps - begin) * 1e-12 : 0.0;
    a.push_back({{"name", f.name},
                 {"qid", d.queue().qid},
                 {"priority", kPriorities[f.priority]},
                 {"queue_depth", d.queue_depth()},
                 {"closed_loop", d.closed_loop()},
                 {"lba_base", d.queue().lba_base},
                 {"lbas", d.queue().lbas},
                 {"start_s", double(f.start_ps) * 1e-12},
                 {"stop_s", double(f.stop_ps) * 1e-12},
                 {"active_s", secs},
                 {"requests", r.requests},
                 {"reads", r.reads},
                 {"writes", r.writes},
                 {"trims", r.trims},
                 {"flushes", r.flushes},
                 {"read_bytes", r.read_bytes},
                 {"write_bytes", r.write_bytes},
                 {"errors", r.errors},
                 {"dropped", r.dropped},
                 {"queues_deleted", d.queues_deleted()},
                 {"iops", secs > 0 ? double(r.requests) / secs : 0.0},
                 {"bandwidth_mbps", secs > 0 ? double(r.read_bytes + r.write_bytes) / 1e6 / secs : 0.0},
                 {"latency_us", {{"read", latency_json(r.read_latency)}, {"write", latency_json(r.write_latency)}}}});
    for (const char* op : {"read", "write"}) a.back()["latency_us"][op].erase("histogram");
  }
  nlohmann::json j = {{"arbitration", nvme_.arbiter().mechanism() == NvmeArbiter::Mechanism::wrr ? "wrr" : "rr"},
                      {"arbitration_feature", nvme_.arbiter().feature()},
                      {"flows", a}};
  if (shared_)
    j["shared_lbas"] = {{"overlap", overlap_},
                        {"races", shared_->races()},
                        {"ambiguous_reads", shared_->ambiguous_reads()},
                        {"older_accepted", shared_->older_accepted()},
                        {"tracked_at_end", shared_->tracked()}};
  return j;
}

void print_flows_summary(const nlohmann::json& j) {
  if (!j.contains("flows")) return;
  const auto& s = j["flows"];
  std::printf("flows (%s arbitration):\n", s["arbitration"].get<std::string>().c_str());
  for (const auto& f : s["flows"]) {
    std::printf("  %s: qid %u, %s, QD %llu, %.0f IOPS, %.1f MB/s\n", f["name"].get<std::string>().c_str(),
                f["qid"].get<unsigned>(), f["priority"].get<std::string>().c_str(),
                (unsigned long long)f["queue_depth"].get<uint64_t>(), f["iops"].get<double>(),
                f["bandwidth_mbps"].get<double>());
    for (const char* op : {"read", "write"}) {
      const auto& l = f["latency_us"][op];
      if (l["count"].get<uint64_t>() == 0) continue;
      std::printf("    %-5s %9llu ios  mean %9.1f us  p50 %9.1f  p99 %9.1f  p99.9 %9.1f\n", op,
                  (unsigned long long)l["count"].get<uint64_t>(), l["mean"].get<double>(), l["p50"].get<double>(),
                  l["p99"].get<double>(), l["p999"].get<double>());
    }
  }
}

}  // namespace ssdvp
