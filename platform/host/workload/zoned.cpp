// zoned.cpp - the zoned host workload (zoned.h).
#include "zoned.h"

#include <algorithm>
#include <sstream>

#include "common/config.h"

namespace ssdvp::host {

namespace {
const std::string kPrefix = "workload.zoned.";

class ZonedWorkload : public Workload {
 public:
  explicit ZonedWorkload(const ZonedSpec& s) : s_(s) { rewind(); }

  bool next(IoRequest& out) override {
    if (s_.requests && stats_.records >= s_.requests) return false;
    if (pending_.empty()) generate();
    out = pending_.front();
    pending_.pop_front();
    stats_.records++;
    switch (out.op) {
      case IoOp::read: stats_.reads++, stats_.read_bytes += out.length; break;
      case IoOp::write: stats_.writes++, stats_.write_bytes += out.length; break;
      default: stats_.trims++, stats_.trim_bytes += out.length; break;
    }
    return true;
  }
  void rewind() override {
    rng_.reseed(s_.seed);
    pending_.clear();
    empty_.clear();
    full_.clear();
    open_.clear();
    written_.assign(used(), 0);
    for (uint64_t z = 0; z < used(); ++z) empty_.push_back(z);
    next_open_ = 0;  // (stats_ stay cumulative over passes, workload.h)
  }
  std::string describe() const override { return s_.describe(); }
  const WorkloadStats& stats() const override { return stats_; }

 private:
  uint64_t used() const { return s_.zones_used ? s_.zones_used : s_.geo.zones; }
  uint64_t io_lbas() const { return s_.io_size / s_.geo.lba_size; }
  uint64_t zslba(uint64_t z) const { return z << s_.geo.zone_bits; }
  IoRequest request(IoOp op, uint64_t lba, uint64_t lbas) const {
    IoRequest r;
    r.op = op;
    r.offset = lba * s_.geo.lba_size;
    r.length = lbas * s_.geo.lba_size;
    return r;
  }
  // A zone to write next: an empty one, after resetting the oldest full zone if none is left.
  uint64_t take_zone() {
    if (empty_.empty()) {
      const uint64_t z = full_.front();
      full_.pop_front();
      pending_.push_back(request(IoOp::trim, zslba(z), s_.geo.zone_cap));  // the zone reset
      written_[z] = 0;
      empty_.push_back(z);
    }
    const uint64_t z = empty_.front();
    empty_.pop_front();
    return z;
  }
  void generate() {
    const bool have_data =
        !full_.empty() || std::any_of(open_.begin(), open_.end(), [&](uint64_t z) { return written_[z] >= io_lbas(); });
    if (have_data && rng_.uniform() < s_.read_fraction) {
      // a zone with data, uniformly among full and open ones (open ones with a whole piece written)
      for (;;) {
        const uint64_t k = rng_.below(full_.size() + open_.size());
        const uint64_t z = k < full_.size() ? full_[k] : open_[k - full_.size()];
        const uint64_t pieces = written_[z] / io_lbas();
        if (!pieces) continue;
        pending_.push_back(request(IoOp::read, zslba(z) + rng_.below(pieces) * io_lbas(), io_lbas()));
        return;
      }
    }
    while (open_.size() < s_.open_zones) open_.push_back(take_zone());
    const size_t i = next_open_++ % open_.size();
    const uint64_t z = open_[i];
    const uint64_t n = std::min(io_lbas(), s_.geo.zone_cap - written_[z]);
    pending_.push_back(request(IoOp::write, zslba(z) + written_[z], n));
    written_[z] += n;
    if (written_[z] == s_.geo.zone_cap) {  // full: the next write of this slot opens another zone
      full_.push_back(z);
      open_[i] = take_zone();
    }
  }

  ZonedSpec s_;
  Xoshiro256 rng_;
  WorkloadStats stats_;
  std::deque<IoRequest> pending_;
  std::deque<uint64_t> empty_, full_;
  std::vector<uint64_t> open_;
  std::vector<uint64_t> written_;  // LBAs written per zone since its reset
  uint64_t next_open_ = 0;
};
}  // namespace

ZonedSpec ZonedSpec::from_config(Config& cfg, const ZoneGeometry& geo) {
  ZonedSpec s;
  s.geo = geo;
  s.requests = cfg.get_u64(kPrefix + "requests");
  s.io_size = cfg.get_size(kPrefix + "io_size");
  s.open_zones = uint32_t(cfg.get_u64(kPrefix + "open_zones"));
  s.zones_used = cfg.get_u64(kPrefix + "zones");
  s.read_fraction = cfg.get_double(kPrefix + "read_fraction");
  s.seed = cfg.get_u64(kPrefix + "seed");
  if (geo.zones == 0) return s;  // not a zoned namespace: the keys are read, not used
  const uint64_t unit = uint64_t(geo.write_unit) * geo.lba_size;
  if (s.io_size == 0 || s.io_size % unit)
    throw ConfigError("config key '" + kPrefix + "io_size': " + std::to_string(s.io_size) +
                      " bytes is not a whole number of the drive's write units (" + std::to_string(unit) + " bytes)");
  // a read is one whole io_size piece of a zone's data: a zone must hold one
  // (else the reader would look for a piece forever)
  if (s.io_size / geo.lba_size > geo.zone_cap)
    throw ConfigError("config key '" + kPrefix + "io_size': " + std::to_string(s.io_size) +
                      " bytes is larger than a zone's capacity (" + std::to_string(geo.zone_cap * geo.lba_size) +
                      " bytes)");
  if (s.zones_used > geo.zones)
    throw ConfigError("config key '" + kPrefix + "zones': " + std::to_string(s.zones_used) + " exceeds the " +
                      std::to_string(geo.zones) + " zones of the namespace");
  if (s.open_zones >= (s.zones_used ? s.zones_used : geo.zones))
    throw ConfigError("config key '" + kPrefix + "open_zones': must be below the zones the log uses (" +
                      std::to_string(s.zones_used ? s.zones_used : geo.zones) + ")");
  return s;
}

std::string ZonedSpec::describe() const {
  std::ostringstream o;
  o << "zoned log: " << open_zones << " open zones of " << (zones_used ? zones_used : geo.zones) << " (" << geo.zone_cap
    << " LBAs each), " << io_size << " B writes, read fraction " << read_fraction
    << ", oldest zone reset when none is empty, " << requests << " requests, seed " << seed;
  return o.str();
}

std::unique_ptr<Workload> make_zoned(const ZonedSpec& spec) { return std::make_unique<ZonedWorkload>(spec); }

}  // namespace ssdvp::host
