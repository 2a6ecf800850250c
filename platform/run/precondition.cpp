// precondition.cpp - see precondition.h.
#include "run/precondition.h"

#include <algorithm>
#include <random>
#include <stdexcept>
#include <vector>

#include "host/host_driver.h"
#include "host/scoreboard.h"
#include "soc/controller.h"
#include "workload.h"

namespace ssdvp {

RunKeys RunKeys::read(Config& cfg) {
  RunKeys k;
  k.fill = cfg.get_double("precondition.fill");
  k.random_dw = cfg.get_double("precondition.random_drive_writes");
  k.wl_requests = cfg.get_u64("precondition.workload_requests");
  k.wl_fraction = cfg.get_double("precondition.workload_fraction");
  k.seed = cfg.get_u64("precondition.seed");
  k.free_pool = cfg.get_choice("precondition.free_pool");
  k.timeline = cfg.get_string("timeline.file");
  k.timeline_start = cfg.get_time_ps("timeline.start");
  k.timeline_len = cfg.get_time_ps("timeline.duration");
  return k;
}

uint64_t RunKeys::workload_requests(host::Workload& w) const {
  if (wl_fraction <= 0) return wl_requests;
  uint64_t count = 0;
  host::IoRequest r;
  while (w.next(r)) ++count;
  w.rewind();
  return uint64_t(double(count) * wl_fraction);
}

namespace {

// Random single-LBA overwrites each touch a random line of three large tables:
// the scoreboard, the firmware's L2P and its validity bitmap. A copy of the
// generator draws the LBAs kFar writes ahead; each is prefetched then (the
// scoreboard entry and the L2P entry) and again kNear writes ahead (what the
// slot it maps to touches when invalidated), so the misses overlap instead of
// coming one after another. Host speed only: the writes, their LBAs and their
// order are the generator's, unchanged.
class Lookahead {
 public:
  Lookahead(const std::mt19937_64& rng, uint64_t lbas, const Scoreboard& sb, Controller* fw)
      : peek_(rng), lbas_(lbas), sb_(sb), fw_(fw) {
    for (unsigned i = 0; i < kFar; ++i) far(ahead_[i] = peek_() % lbas_);
  }
  // Before each write: its LBA is the next the real generator draws.
  void step() {
    far(ahead_[pos_] = peek_() % lbas_);  // the slot of this write now holds the one kFar later
    if (fw_) fw_->func_prefetch(ahead_[(pos_ + kNear) % kFar], 1);
    pos_ = (pos_ + 1) % kFar;
  }

 private:
  static constexpr unsigned kFar = 16, kNear = 4;
  void far(uint64_t lba) {
    sb_.prefetch(lba);
    if (fw_) fw_->func_prefetch(lba, 0);
  }
  std::mt19937_64 peek_;
  const uint64_t lbas_;
  const Scoreboard& sb_;
  Controller* const fw_;  // null: the host FTL takes the writes
  uint64_t ahead_[kFar];
  unsigned pos_ = 0;
};

// A saturating host keeps free blocks at the GC reserve (its writes wait
// there), one that leaves GC time at the threshold; functional GC keeps up
// at once, so preconditioning alone leaves the pool at the threshold or
// above (after a fill with GC never started). Uniform random single-LBA
// overwrites with the threshold lowered to the target bring it there, so the
// timed part does not start with a transient (docs/outputs.md, ftl.spare).
void settle_free_pool(const RunKeys& keys, const PreconditionTarget& t, std::mt19937_64& rng,
                      const std::function<void(uint64_t, uint32_t, uint32_t)>& write) {
  const FuncFtl& fw = t.fw;
  const ftl_config& c = t.fc;
  const bool reserve = keys.free_pool == "reserve" || (keys.free_pool == "auto" && t.closed_loop);
  const uint32_t target = reserve ? c.gc_reserve_blocks + 1 : c.gc_threshold_blocks;
  if (fw.set_gc_threshold(target) != 0)
    throw std::runtime_error("preconditioning: the firmware refused a GC threshold");
  const uint64_t lbas = t.lbas;
  Lookahead ahead(rng, lbas, t.sb, t.prefetch);
  for (uint64_t i = 0; fw.stats().free_blocks > target && i < 2 * lbas; ++i) {
    ahead.step();
    write(rng() % lbas, 1, 0);
  }
  fw.set_gc_threshold(c.gc_threshold_blocks);
}

}  // namespace

uint64_t precondition_drive(const RunKeys& keys, const PreconditionTarget& t, host::Workload& w) {
  const FuncFtl& fw = t.fw;
  const uint64_t lbas = t.lbas;
  const uint32_t chunk = t.chunk;
  uint64_t written = 0;
  std::vector<uint32_t> tok(chunk);
  auto fwrite = [&](uint64_t lba, uint32_t n, uint32_t stream) {
    for (uint32_t i = 0; i < n; ++i) tok[i] = t.sb.write(lba + i);
    if (fw.write(lba, n, tok.data(), stream) != 0)
      throw std::runtime_error("preconditioning: the firmware failed a functional write (see the log)");
    written += n;
  };
  const uint64_t fill = uint64_t(double(lbas) * keys.fill);
  for (uint64_t l = 0; l < fill; l += chunk) fwrite(l, uint32_t(std::min<uint64_t>(chunk, fill - l)), 0);
  std::mt19937_64 rng(keys.seed);
  const uint64_t rw = uint64_t(double(lbas) * keys.random_dw);
  if (rw) {
    Lookahead ahead(rng, lbas, t.sb, t.prefetch);
    for (uint64_t i = 0; i < rw; ++i) {
      ahead.step();
      fwrite(rng() % lbas, 1, 0);
    }
  }

  const uint64_t n = keys.workload_requests(w);
  host::IoRequest r;
  const uint32_t lba_size = t.lba_size;
  for (uint64_t i = 0; i < n && w.next(r); ++i) {
    if (r.op != host::IoOp::write && r.op != host::IoOp::trim) continue;
    fw.set_time_ns(r.time_ps / 1000);  // the firmware's clock follows the trace
    uint64_t lba, cnt;                 // preconditioning always folds into the namespace
    if (!lba_range(r.offset, r.length, lba_size, lbas, true, &lba, &cnt)) continue;
    if (r.op == host::IoOp::trim) {
      for (uint64_t k = 0; k < cnt; ++k) t.sb.trim(lba + k);
      fw.trim(lba, cnt);
    } else {
      for (uint64_t k = 0; k < cnt; k += chunk) fwrite(lba + k, uint32_t(std::min<uint64_t>(chunk, cnt - k)), r.stream);
    }
  }
  if (keys.free_pool != "asis" && written) settle_free_pool(keys, t, rng, fwrite);  // a fresh drive stays fresh
  return written;
}

}  // namespace ssdvp
