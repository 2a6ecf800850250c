// apps.cpp - see apps.h.
#include "apps.h"

#include <algorithm>
#include <cmath>
#include <deque>
#include <sstream>
#include <stdexcept>
#include <vector>

#include "common/config.h"
#include "random.h"

namespace ssdvp::host {
namespace {

constexpr uint64_t kKiB = 1024;

// Requests are produced in batches into a queue; next() pops.
class AppBase : public Workload {
 public:
  explicit AppBase(const AppSpec& s) : s_(s) {}
  bool next(IoRequest& out) override {
    while (q_.empty()) {
      if (ops_ >= s_.operations) return false;
      step();
    }
    out = q_.front();
    q_.pop_front();
    stats_.records++;
    switch (out.op) {
      case IoOp::read: stats_.reads++, stats_.read_bytes += out.length; break;
      case IoOp::write: stats_.writes++, stats_.write_bytes += out.length; break;
      case IoOp::trim: stats_.trims++, stats_.trim_bytes += out.length; break;
      case IoOp::flush: stats_.flushes++; break;
    }
    return true;
  }
  const WorkloadStats& stats() const override { return stats_; }
  std::string describe() const override { return s_.describe(); }

 protected:
  virtual void step() = 0;  // one operation: pushes its requests
  void push(IoOp op, uint64_t off, uint64_t len) {
    IoRequest r;
    r.time_ps = now_ps();
    r.op = op;
    r.offset = off;
    r.length = len;
    q_.push_back(r);
  }
  uint64_t now_ps() const { return uint64_t(double(ops_) * 1e12 / s_.iops); }
  void reset_base() {
    q_.clear();
    ops_ = 0;
  }
  AppSpec s_;
  std::deque<IoRequest> q_;
  uint64_t ops_ = 0;
  WorkloadStats stats_;
};

// ---- fio -------------------------------------------------------------------
class FioApp final : public AppBase {
 public:
  explicit FioApp(const AppSpec& s) : AppBase(s) { rewind(); }
  void rewind() override {
    reset_base();
    rng_.reseed(s_.seed);
    const uint64_t fp = uint64_t(double(s_.device_bytes) * s_.footprint);
    area_ = fp / s_.fio_jobs / (64 * kKiB) * (64 * kKiB);
    if (area_ < 256 * kKiB) throw std::invalid_argument("workload.app: footprint too small for the fio jobs");
    job_ = 0;
  }

 private:
  void step() override {
    const uint32_t j = job_;
    job_ = (job_ + 1) % s_.fio_jobs;
    const uint64_t size = 4 * kKiB << (j % 3), qd = 1u << (j % 4);
    const uint64_t base = j * area_, slots = area_ / size;
    const uint64_t hot = std::max<uint64_t>(1, uint64_t(double(slots) * s_.fio_hot_space));
    const uint64_t shifts = s_.fio_shift_s > 0 ? uint64_t(double(now_ps()) * 1e-12 / s_.fio_shift_s) : 0;
    const uint64_t hot_start = (shifts * hot) % slots;
    for (uint64_t k = 0; k < qd && ops_ < s_.operations; ++k) {
      const uint64_t slot =
          rng_.uniform() < s_.fio_hot_requests ? (hot_start + rng_.below(hot)) % slots : rng_.below(slots);
      push(IoOp::write, base + slot * size, size);
      ++ops_;
    }
  }
  Xoshiro256 rng_;
  uint64_t area_ = 0;
  uint32_t job_ = 0;
};

// ---- rocksdb ---------------------------------------------------------------
// One LSM instance on [base, base + bytes); shares the caller's queue.
class Lsm {
 public:
  Lsm(const AppSpec& s, uint64_t base, uint64_t bytes, uint64_t seed) : s_(s), base_(base) {
    wal_bytes_ = 2 * s.sst_bytes;
    if (bytes < wal_bytes_ + 8 * s.sst_bytes)
      throw std::invalid_argument("workload.app: footprint too small for rocksdb (sst_size)");
    const uint64_t slots = (bytes - wal_bytes_) / s.sst_bytes;
    for (uint64_t i = 0; i < slots; ++i) free_.push_back(i);
    cap_last_ = std::max<uint64_t>(4, uint64_t(double(slots) * s.db_fraction));
    levels_.assign(1, {});
    rng_.reseed(seed);
  }
  // One put: a WAL append; a full memtable flushes and may compact.
  template <class Push>
  void put(Push&& push) {
    const uint64_t value = 4 * kKiB;
    push(IoOp::write, base_ + wal_pos_ % wal_bytes_, value);
    wal_pos_ += value;
    mem_ += value;
    if (mem_ < s_.sst_bytes) return;
    mem_ = 0;
    write_sst(push, 0);
    // the log up to here is no longer needed: trim the half it used
    const uint64_t seg = (wal_pos_ - 1) / s_.sst_bytes % 2;
    push(IoOp::trim, base_ + seg * s_.sst_bytes, s_.sst_bytes);
    compact(push);
  }

 private:
  uint64_t sst_off(uint64_t slot) const { return base_ + wal_bytes_ + slot * s_.sst_bytes; }
  template <class Push>
  void write_sst(Push&& push, size_t level) {
    if (free_.empty())
      throw std::runtime_error("workload.app rocksdb: no room for an SST (lower db_fraction or sst_size)");
    const uint64_t slot = free_.front();
    free_.pop_front();
    for (uint64_t o = 0; o < s_.sst_bytes; o += s_.io_bytes)
      push(IoOp::write, sst_off(slot) + o, std::min(s_.io_bytes, s_.sst_bytes - o));
    if (levels_.size() <= level) levels_.resize(level + 1);
    levels_[level].push_back(slot);
  }
  template <class Push>
  void read_trim(Push&& push, uint64_t slot) {
    for (uint64_t o = 0; o < s_.sst_bytes; o += s_.io_bytes)
      push(IoOp::read, sst_off(slot) + o, std::min(s_.io_bytes, s_.sst_bytes - o));
    push(IoOp::trim, sst_off(slot), s_.sst_bytes);
    free_.push_back(slot);
  }
  uint64_t limit(size_t level) const {
    uint64_t l = s_.l1_files;
    for (size_t i = 1; i < level; ++i) l *= s_.ratio;
    return l;
  }
  template <class Push>
  void merge(Push&& push, size_t from, std::vector<uint64_t> in) {
    const size_t to = from + 1;
    if (levels_.size() <= to) levels_.resize(to + 1);
    auto& dst = levels_[to];
    const size_t take = from == 0 ? dst.size() : std::min<size_t>(s_.ratio, dst.size());
    const size_t at =
        take && dst.size() > take ? rng_.below(dst.size() - take + 1) : 0;  // a key range of the next level
    std::vector<uint64_t> old(dst.begin() + at, dst.begin() + at + take);
    dst.erase(dst.begin() + at, dst.begin() + at + take);
    const uint64_t total = in.size() + old.size();
    uint64_t out = total - uint64_t(std::llround(double(total) * s_.dedup));
    // the live data is bounded: past db_fraction, new keys only replace old ones
    if (dst.size() + out > cap_last_)
      out = std::max<uint64_t>(old.size(), cap_last_ > dst.size() ? cap_last_ - dst.size() : 0);
    out = std::max<uint64_t>(out, 1);
    for (uint64_t slot : in) read_trim(push, slot);
    for (uint64_t slot : old) read_trim(push, slot);
    for (uint64_t i = 0; i < out; ++i) write_sst(push, to);
  }
  template <class Push>
  void compact(Push&& push) {
    if (levels_[0].size() >= s_.l0_trigger) {
      std::vector<uint64_t> in(levels_[0].begin(), levels_[0].end());
      levels_[0].clear();
      merge(push, 0, in);
    }
    for (size_t l = 1; l < levels_.size(); ++l) {
      if (levels_[l].size() <= limit(l)) continue;
      const size_t pick = rng_.below(levels_[l].size());
      std::vector<uint64_t> in{levels_[l][pick]};
      levels_[l].erase(levels_[l].begin() + pick);
      merge(push, l, in);
    }
  }
  const AppSpec& s_;
  uint64_t base_, wal_bytes_, wal_pos_ = 0, mem_ = 0, cap_last_ = 0;
  std::deque<uint64_t> free_;
  std::vector<std::vector<uint64_t>> levels_;
  Xoshiro256 rng_;
};

class RocksApp final : public AppBase {
 public:
  RocksApp(const AppSpec& s, uint32_t instances) : AppBase(s), n_(instances) { rewind(); }
  void rewind() override {
    reset_base();
    dbs_.clear();
    const uint64_t fp = uint64_t(double(s_.device_bytes) * s_.footprint) / n_ / (1 << 20) * (1 << 20);
    for (uint32_t i = 0; i < n_; ++i) dbs_.emplace_back(std::make_unique<Lsm>(s_, i * fp, fp, s_.seed * 7919 + i));
  }

 private:
  void step() override {
    auto push = [this](IoOp op, uint64_t off, uint64_t len) { AppBase::push(op, off, len); };
    dbs_[ops_ % n_]->put(push);
    ++ops_;
  }
  uint32_t n_;
  std::vector<std::unique_ptr<Lsm>> dbs_;
};

// ---- mysql -----------------------------------------------------------------
class MysqlApp final : public AppBase {
 public:
  explicit MysqlApp(const AppSpec& s) : AppBase(s) { rewind(); }
  void rewind() override {
    reset_base();
    rng_.reseed(s_.seed);
    const uint64_t fp = uint64_t(double(s_.device_bytes) * s_.footprint);
    redo_ = std::max<uint64_t>(64 * kKiB, uint64_t(double(fp) * s_.redo_fraction) / (64 * kKiB) * (64 * kKiB));
    pages_ = (fp - redo_) / kPage;
    if (pages_ < 64) throw std::invalid_argument("workload.app: footprint too small for mysql");
    chunks_ = pages_ / kChunkPages;
    hot_chunks_ = std::max<uint64_t>(1, uint64_t(double(chunks_) * s_.hot_space));
    redo_pos_ = 0;
  }

 private:
  static constexpr uint64_t kPage = 16 * kKiB, kChunkPages = 64;  // 1 MiB chunks of pages
  uint64_t pick_page() {
    if (rng_.uniform() < s_.hot_requests) {
      // hot chunks: every (chunks / hot_chunks)-th chunk, stable for the run
      const uint64_t c = rng_.below(hot_chunks_) * (chunks_ / hot_chunks_);
      return c * kChunkPages + rng_.below(kChunkPages);
    }
    return rng_.below(pages_);
  }
  void step() override {
    if (rng_.uniform() < s_.read_fraction) push(IoOp::read, redo_ + pick_page() * kPage, kPage);
    push(IoOp::write, redo_ + pick_page() * kPage, kPage);
    push(IoOp::write, redo_pos_ % redo_, 4 * kKiB);  // the redo record, appended
    redo_pos_ += 4 * kKiB;
    ++ops_;
  }
  Xoshiro256 rng_;
  uint64_t redo_ = 0, pages_ = 0, chunks_ = 0, hot_chunks_ = 0, redo_pos_ = 0;
};

}  // namespace

std::string AppSpec::describe() const {
  std::ostringstream o;
  o << "app " << kind << ", " << operations << " operations at " << iops << "/s, footprint " << footprint << ", seed "
    << seed;
  return o.str();
}

AppSpec AppSpec::from_config(ssdvp::Config& cfg, uint64_t device_bytes) {
  const std::string p = "workload.app.";
  AppSpec s;
  s.kind = cfg.get_choice(p + "kind");
  s.operations = cfg.get_u64(p + "operations");
  s.iops = cfg.get_double(p + "iops");
  s.footprint = cfg.get_double(p + "footprint");
  s.seed = cfg.get_u64(p + "seed");
  s.fio_jobs = uint32_t(cfg.get_u64(p + "fio.jobs"));
  s.fio_hot_space = cfg.get_double(p + "fio.hot_space");
  s.fio_hot_requests = cfg.get_double(p + "fio.hot_requests");
  s.fio_shift_s = double(cfg.get_time_ps(p + "fio.shift")) * 1e-12;
  s.sst_bytes = cfg.get_size(p + "rocksdb.sst_size");
  s.io_bytes = cfg.get_size(p + "rocksdb.io_size");
  s.l0_trigger = uint32_t(cfg.get_u64(p + "rocksdb.l0_trigger"));
  s.l1_files = uint32_t(cfg.get_u64(p + "rocksdb.l1_files"));
  s.ratio = uint32_t(cfg.get_u64(p + "rocksdb.ratio"));
  s.dedup = cfg.get_double(p + "rocksdb.dedup");
  s.db_fraction = cfg.get_double(p + "rocksdb.db_fraction");
  s.hot_space = cfg.get_double(p + "mysql.hot_space");
  s.hot_requests = cfg.get_double(p + "mysql.hot_requests");
  s.read_fraction = cfg.get_double(p + "mysql.read_fraction");
  s.redo_fraction = cfg.get_double(p + "mysql.redo_fraction");
  s.device_bytes = device_bytes;
  if (s.sst_bytes < s.io_bytes || s.io_bytes == 0 || s.io_bytes % 4096)
    throw ConfigError(
        "config key 'workload.app.rocksdb.io_size': must be a positive multiple of 4 KiB, at most rocksdb.sst_size");
  return s;
}

std::unique_ptr<Workload> make_app(const AppSpec& s) {
  if (s.kind == "fio") return std::make_unique<FioApp>(s);
  if (s.kind == "rocksdb") return std::make_unique<RocksApp>(s, 1);
  if (s.kind == "rocksdb2") return std::make_unique<RocksApp>(s, 2);
  if (s.kind == "mysql") return std::make_unique<MysqlApp>(s);
  throw std::invalid_argument("workload.app.kind: unknown '" + s.kind + "'");
}

}  // namespace ssdvp::host
