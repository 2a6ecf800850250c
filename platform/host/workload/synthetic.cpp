// synthetic.cpp - see synthetic.h.
#include "synthetic.h"

#include <cmath>
#include <optional>
#include <sstream>
#include <stdexcept>

#include "common/config.h"
#include "random.h"

namespace ssdvp::host {
namespace {

const std::string kPrefix = "workload.synthetic.";

// Independent streams so that, e.g., changing read_fraction does not change
// the address sequence.
constexpr uint64_t kStreamOp = 0x6f702d7374726561ull;       // "op-strea"
constexpr uint64_t kStreamAddr = 0x616464722d737472ull;     // "addr-str"
constexpr uint64_t kStreamTime = 0x74696d652d737472ull;     // "time-str"
constexpr uint64_t kStreamScatter = 0x7363617474657221ull;  // "scatter!"

[[noreturn]] void bad(const std::string& key, const std::string& what) {
  throw std::invalid_argument(kPrefix + key + ": " + what);
}

std::string fmt(double d) {
  std::ostringstream o;
  o << d;
  return o.str();
}

std::string bytes_text(uint64_t b) {
  static const char* units[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB"};
  int u = 0;
  while (u < 5 && b >= 1024 && b % 1024 == 0) {
    b /= 1024;
    ++u;
  }
  return std::to_string(b) + units[u];
}

class SyntheticWorkload final : public Workload {
 public:
  explicit SyntheticWorkload(const SyntheticSpec& spec)
      : spec_(spec), slots_(spec.slots()), period_ps_(spec.iops > 0 ? 1e12L / spec.iops : 0) {
    if (spec_.pattern == SyntheticPattern::zipf) {
      zipf_.emplace(slots_, spec_.zipf_theta);
      if (spec_.zipf_scatter) scatter_.emplace(slots_, spec_.seed ^ kStreamScatter);
    }
    if (spec_.pattern == SyntheticPattern::hotcold) hot_slots_ = fraction_of(slots_, spec_.hot_space);
    if (spec_.pattern == SyntheticPattern::shifting) {
      // [0, active): written; [active, slots): the cold set, never written.
      active_ = slots_ - (spec_.cold_space > 0 ? std::min(slots_ - 1, fraction_of(slots_, spec_.cold_space)) : 0);
      hot_slots_ = fraction_of(active_, spec_.hot_space);
    }
    const uint64_t step = (spec_.io_size + spec_.align - 1) / spec_.align;  // slots per sequential step
    seq_stride_ = step;
    rewind();
  }

  bool next(IoRequest& out) override {
    if (spec_.requests != 0 && issued_ >= spec_.requests) return false;
    out.op = op_rng_.uniform() < spec_.read_fraction ? IoOp::read : IoOp::write;
    out.offset = next_slot() * spec_.align;
    out.length = spec_.io_size;
    out.device = 0;
    out.line = 0;
    out.time_ps = next_time();
    ++issued_;
    ++stats_.records;
    if (out.op == IoOp::read) {
      ++stats_.reads;
      stats_.read_bytes += out.length;
    } else {
      ++stats_.writes;
      stats_.write_bytes += out.length;
    }
    return true;
  }

  void rewind() override {
    op_rng_.reseed(spec_.seed ^ kStreamOp);
    addr_rng_.reseed(spec_.seed ^ kStreamAddr);
    time_rng_.reseed(spec_.seed ^ kStreamTime);
    issued_ = 0;
    seq_cursor_ = 0;
    poisson_t_ = 0;
  }

  std::string describe() const override { return spec_.describe(); }
  const WorkloadStats& stats() const override { return stats_; }

 private:
  static uint64_t fraction_of(uint64_t n, double f) {
    const long double h = std::floor(static_cast<long double>(n) * f + 0.5L);
    return h < 1 ? 1 : (h > n ? n : static_cast<uint64_t>(h));
  }

  uint64_t next_slot() {
    switch (spec_.pattern) {
      case SyntheticPattern::shifting: {
        // The hot window starts at phase * hot_slots (mod active) and moves
        // on every shift_requests requests; the rest of the active part is warm.
        const uint64_t phase = spec_.shift_requests ? issued_ / spec_.shift_requests : 0;
        const uint64_t start = (phase % active_) * hot_slots_ % active_;
        const uint64_t warm = active_ - hot_slots_;
        if (warm == 0 || addr_rng_.uniform() < spec_.hot_requests)
          return (start + addr_rng_.below(hot_slots_)) % active_;
        return (start + hot_slots_ + addr_rng_.below(warm)) % active_;
      }
      case SyntheticPattern::uniform: return addr_rng_.below(slots_);
      case SyntheticPattern::hotcold: {
        const uint64_t cold = slots_ - hot_slots_;
        if (cold == 0 || addr_rng_.uniform() < spec_.hot_requests) return addr_rng_.below(hot_slots_);
        return hot_slots_ + addr_rng_.below(cold);
      }
      case SyntheticPattern::zipf: {
        const uint64_t rank = (*zipf_)(addr_rng_);
        return scatter_ ? (*scatter_)(rank) : rank;
      }
      case SyntheticPattern::sequential: {
        const uint64_t s = seq_cursor_;
        seq_cursor_ += seq_stride_;
        if (seq_cursor_ >= slots_) seq_cursor_ = 0;  // wrap: the next request would leave the footprint
        return s;
      }
    }
    return 0;
  }

  uint64_t next_time() {
    if (spec_.iops <= 0) return 0;
    if (spec_.arrival == ArrivalProcess::fixed)
      return static_cast<uint64_t>(static_cast<long double>(issued_) * period_ps_ + 0.5L);
    if (spec_.arrival == ArrivalProcess::bursts) {  // every burst after a quiet gap, the first one too
      const uint64_t n = spec_.burst_requests, b = issued_ / n, k = issued_ % n;
      const long double gap = static_cast<long double>(spec_.burst_gap_ps);
      const long double burst = static_cast<long double>(n) * period_ps_ + gap;
      return static_cast<uint64_t>(gap + static_cast<long double>(b) * burst +
                                   static_cast<long double>(k) * period_ps_ + 0.5L);
    }
    if (issued_ > 0) poisson_t_ += -std::log1p(-time_rng_.uniform()) * period_ps_;  // Exp(mean = period)
    return static_cast<uint64_t>(poisson_t_ + 0.5L);
  }

  SyntheticSpec spec_;
  uint64_t slots_;
  long double period_ps_;
  uint64_t hot_slots_ = 0;
  uint64_t active_ = 0;
  uint64_t seq_stride_ = 1;
  std::optional<ZipfSampler> zipf_;
  std::optional<ScatterPermutation> scatter_;
  Xoshiro256 op_rng_, addr_rng_, time_rng_;
  uint64_t issued_ = 0;
  uint64_t seq_cursor_ = 0;
  long double poisson_t_ = 0;
  WorkloadStats stats_;
};

}  // namespace

const char* to_string(SyntheticPattern p) {
  switch (p) {
    case SyntheticPattern::uniform: return "uniform";
    case SyntheticPattern::hotcold: return "hotcold";
    case SyntheticPattern::zipf: return "zipf";
    case SyntheticPattern::sequential: return "sequential";
    case SyntheticPattern::shifting: return "shifting";
  }
  return "?";
}

const char* to_string(ArrivalProcess a) {
  return a == ArrivalProcess::fixed ? "fixed" : a == ArrivalProcess::poisson ? "poisson" : "bursts";
}

uint64_t SyntheticSpec::slots() const {
  const uint64_t fp = effective_footprint();
  if (align == 0 || fp < io_size) return 0;
  return (fp - io_size) / align + 1;
}

void SyntheticSpec::validate() const {
  if (io_size == 0 || io_size % 512 != 0)
    bad("io_size", "must be a positive multiple of 512 bytes, got " + std::to_string(io_size));
  if (align == 0 || align % 512 != 0)
    bad("align", "must be a positive multiple of 512 bytes, got " + std::to_string(align));
  if (device_bytes == 0) bad("footprint", "the device size is 0 bytes");
  if (footprint > device_bytes)
    bad("footprint",
        std::to_string(footprint) + " bytes is larger than the device (" + std::to_string(device_bytes) + " bytes)");
  if (effective_footprint() < io_size)
    bad("footprint", std::to_string(effective_footprint()) + " bytes is smaller than io_size (" +
                         std::to_string(io_size) + " bytes)");
  if (!(read_fraction >= 0 && read_fraction <= 1)) bad("read_fraction", "must be in [0, 1], got " + fmt(read_fraction));
  if (!(hot_requests >= 0 && hot_requests <= 1)) bad("hot_requests", "must be in [0, 1], got " + fmt(hot_requests));
  if (!(hot_space > 0 && hot_space <= 1)) bad("hot_space", "must be in (0, 1], got " + fmt(hot_space));
  if (!(cold_space >= 0 && cold_space < 1)) bad("cold_space", "must be in [0, 1), got " + fmt(cold_space));
  if (!(zipf_theta > 0 && zipf_theta <= 100)) bad("zipf_theta", "must be in (0, 100], got " + fmt(zipf_theta));
  if (!(iops >= 0 && std::isfinite(iops))) bad("iops", "must be a finite number >= 0, got " + fmt(iops));
  if (arrival == ArrivalProcess::bursts && iops <= 0) bad("iops", "must be above 0 with arrival bursts");
  if (arrival == ArrivalProcess::bursts && burst_requests == 0) bad("burst_requests", "must be at least 1");
  if (pattern == SyntheticPattern::zipf && slots() > (1ull << 53))
    bad("align", "gives " + std::to_string(slots()) + " Zipf items; at most 2^53 are supported");
}

std::string SyntheticSpec::describe() const {
  std::ostringstream o;
  o << "synthetic " << to_string(pattern);
  if (pattern == SyntheticPattern::hotcold)
    o << " (" << hot_requests << " of requests to " << hot_space << " of space)";
  if (pattern == SyntheticPattern::shifting)
    o << " (" << hot_requests << " of requests to a window of " << hot_space << " of the written part, moving every "
      << shift_requests << " requests; " << cold_space << " of space never written)";
  if (pattern == SyntheticPattern::zipf)
    o << " (theta=" << zipf_theta << (zipf_scatter ? ", scattered)" : ", unscattered)");
  o << ": " << (requests ? std::to_string(requests) : std::string("unlimited")) << " requests of "
    << bytes_text(io_size) << " aligned to " << bytes_text(align) << " over " << bytes_text(effective_footprint())
    << ", read_fraction=" << read_fraction << ", ";
  if (iops > 0) {
    o << iops << " IOPS " << to_string(arrival);
    if (arrival == ArrivalProcess::bursts)
      o << " (" << burst_requests << " per burst, each after " << burst_gap_ps / 1000000 << " us of quiet)";
  } else {
    o << "closed loop";
  }
  o << ", seed=" << seed;
  return o.str();
}

SyntheticSpec SyntheticSpec::from_config(ssdvp::Config& cfg, uint64_t device_bytes) {
  SyntheticSpec s;
  const std::string p = cfg.get_choice(kPrefix + "pattern");
  s.pattern = p == "uniform"    ? SyntheticPattern::uniform
              : p == "hotcold"  ? SyntheticPattern::hotcold
              : p == "zipf"     ? SyntheticPattern::zipf
              : p == "shifting" ? SyntheticPattern::shifting
                                : SyntheticPattern::sequential;
  s.requests = cfg.get_u64(kPrefix + "requests");
  s.io_size = cfg.get_size(kPrefix + "io_size");
  s.align = cfg.get_size(kPrefix + "align", s.io_size);
  s.read_fraction = cfg.get_double(kPrefix + "read_fraction");
  s.footprint = cfg.get_size(kPrefix + "footprint");
  s.hot_requests = cfg.get_double(kPrefix + "hot_requests");
  s.hot_space = cfg.get_double(kPrefix + "hot_space");
  s.cold_space = cfg.get_double(kPrefix + "cold_space");
  s.shift_requests = cfg.get_u64(kPrefix + "shift_requests");
  s.zipf_theta = cfg.get_double(kPrefix + "zipf_theta");
  s.zipf_scatter = cfg.get_bool(kPrefix + "zipf_scatter");
  s.iops = cfg.get_double(kPrefix + "iops");
  const std::string a = cfg.get_choice(kPrefix + "arrival");
  s.arrival = a == "fixed" ? ArrivalProcess::fixed : a == "poisson" ? ArrivalProcess::poisson : ArrivalProcess::bursts;
  s.burst_requests = cfg.get_u64(kPrefix + "burst_requests");
  s.burst_gap_ps = cfg.get_time_ps(kPrefix + "burst_gap");
  s.seed = cfg.get_u64(kPrefix + "seed");
  s.device_bytes = device_bytes;
  try {
    s.validate();
  } catch (const std::invalid_argument& e) {
    const std::string msg = e.what();
    const size_t colon = msg.find(':');
    throw ConfigError(cfg.origin() + ": config key '" + msg.substr(0, colon) + "':" + msg.substr(colon + 1));
  }
  return s;
}

std::unique_ptr<Workload> make_synthetic(const SyntheticSpec& spec) {
  spec.validate();
  return std::make_unique<SyntheticWorkload>(spec);
}

}  // namespace ssdvp::host
