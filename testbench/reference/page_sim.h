// page_sim.h - a minimal page-level FTL simulator written for the test tree,
// independent of firmware/ (no shared code or data structures): the second
// reference the firmware's GC is checked against, for what the analytic
// models (gc_models.h) only approximate (finite drives, open blocks, the
// free-block threshold).
//
// One LBA per page, N blocks of b pages, U logical pages. Writes go to the
// open block of a frontier; GC runs whenever fewer than `threshold` blocks
// are free and relocates the victim's valid pages to the frontier relocated
// data goes to. Victims: greedy (fewest valid; ties: the oldest closed),
// FIFO (oldest closed), random, d-choices (fewest valid of d drawn with
// replacement). Greedy's ties (blocks with as many valid pages) are broken by
// the oldest close, the latest change of the valid count (the firmware's
// bucket lists), or uniformly at random among the tied blocks: under skewed
// writes the choice moves WAF. Frontiers: single (host and GC share one), host_gc (one
// each), by_class (hot and cold, relocated pages stay with their class).
#pragma once

#include <cstdint>
#include <deque>
#include <random>
#include <set>
#include <stdexcept>
#include <utility>
#include <vector>

#include "gc_models.h"

namespace ref {

enum class SimVictim { greedy, fifo, random, dchoices };
enum class TieBreak { oldest_closed, latest_change, random };

class PageSim {
 public:
  struct Config {
    uint32_t blocks = 16384;
    uint32_t pages_per_block = 64;
    uint64_t logical_pages = 0;
    uint32_t threshold = 4;  // GC while free blocks < threshold
    SimVictim victim = SimVictim::greedy;
    uint32_t d = 10;
    TieBreak tie = TieBreak::oldest_closed;
    Frontiers frontiers = Frontiers::host_gc;
    uint64_t hot_lbas = 0;  // LBAs [0, hot_lbas) are hot (by_class frontiers)
    uint64_t seed = 1;
  };

  explicit PageSim(const Config& c)
      : c_(c),
        rng_(c.seed),
        valid_(c.blocks, 0),
        key_(c.blocks, 0),
        pos_(c.blocks, -1),
        owner_(uint64_t(c.blocks) * c.pages_per_block, kNone),
        where_(c.logical_pages, kNone) {
    if (c.logical_pages == 0 || c.logical_pages >= uint64_t(c.blocks) * c.pages_per_block)
      throw std::invalid_argument("PageSim: logical_pages must be in (0, physical pages)");
    if (c.threshold < 3) throw std::invalid_argument("PageSim: threshold must be >= 3 (frontiers refill during GC)");
    for (uint32_t i = 0; i < c.blocks; ++i) free_.push_back(i);
    for (auto& f : open_) f = {kNoBlock, 0};
    level_.resize(c.pages_per_block + 1);
  }

  // Host write of one LBA.
  void write(uint64_t lba) {
    invalidate(lba);
    append(lba, host_frontier(lba));
    ++host_writes_;
    while (free_.size() < c_.threshold) collect();
  }

  uint64_t host_writes() const { return host_writes_; }
  uint64_t gc_writes() const { return gc_writes_; }
  size_t free_blocks() const { return free_.size(); }

 private:
  static constexpr uint64_t kNone = ~uint64_t(0);
  static constexpr uint32_t kNoBlock = ~uint32_t(0);
  struct Open {
    uint32_t block, next;
  };

  int host_frontier(uint64_t lba) const {
    if (c_.frontiers == Frontiers::by_class) return lba < c_.hot_lbas ? 0 : 1;
    return 0;
  }
  int gc_frontier(uint64_t lba) const {
    if (c_.frontiers == Frontiers::single) return 0;
    if (c_.frontiers == Frontiers::host_gc) return 2;
    return host_frontier(lba);
  }

  void invalidate(uint64_t lba) {
    const uint64_t p = where_[lba];
    if (p == kNone) return;
    owner_[p] = kNone;
    where_[lba] = kNone;
    const uint32_t blk = uint32_t(p / c_.pages_per_block);
    const bool tracked = pos_[blk] >= 0 && c_.victim == SimVictim::greedy;
    if (tracked) untrack(blk);
    --valid_[blk];
    if (tracked) {
      if (c_.tie == TieBreak::latest_change) key_[blk] = ~++seq_;
      track(blk);
    }
  }

  void append(uint64_t lba, int fr) {
    Open& o = open_[fr];
    if (o.block == kNoBlock) {
      if (free_.empty()) throw std::runtime_error("PageSim: out of free blocks");
      o = {free_.front(), 0};
      free_.pop_front();
    }
    const uint64_t p = uint64_t(o.block) * c_.pages_per_block + o.next++;
    owner_[p] = lba;
    where_[lba] = p;
    ++valid_[o.block];
    if (o.next == c_.pages_per_block) {
      close(o.block);
      o.block = kNoBlock;
    }
  }

  void close(uint32_t blk) {
    ++seq_;
    key_[blk] = c_.tie == TieBreak::oldest_closed ? seq_ : ~seq_;
    pos_[blk] = int64_t(closed_.size());
    closed_.push_back(blk);
    if (c_.victim == SimVictim::greedy) track(blk);
    if (c_.victim == SimVictim::fifo) fifo_.push_back(blk);
  }

  // greedy's candidates: ordered by (valid, key), or per valid count for
  // uniform tie-breaking
  void track(uint32_t blk) {
    if (c_.tie != TieBreak::random) {
      by_valid_.insert({valid_[blk], {key_[blk], blk}});
      return;
    }
    auto& l = level_[valid_[blk]];
    key_[blk] = l.size();
    l.push_back(blk);
  }
  void untrack(uint32_t blk) {
    if (c_.tie != TieBreak::random) {
      by_valid_.erase({valid_[blk], {key_[blk], blk}});
      return;
    }
    auto& l = level_[valid_[blk]];
    const uint32_t last = l.back();
    l[key_[blk]] = last;
    key_[last] = key_[blk];
    l.pop_back();
  }

  uint32_t pick() {
    switch (c_.victim) {
      case SimVictim::greedy: {
        if (c_.tie != TieBreak::random) return by_valid_.begin()->second.second;
        uint32_t v = 0;
        while (level_[v].empty()) ++v;
        return level_[v][rng_() % level_[v].size()];
      }
      case SimVictim::fifo: return fifo_.front();
      case SimVictim::random: return closed_[rng_() % closed_.size()];
      case SimVictim::dchoices: {
        uint32_t best = kNoBlock;
        for (uint32_t i = 0; i < c_.d; ++i) {
          const uint32_t b = closed_[rng_() % closed_.size()];
          if (best == kNoBlock || valid_[b] < valid_[best]) best = b;
        }
        return best;
      }
    }
    return kNoBlock;
  }

  void collect() {
    if (closed_.empty()) throw std::runtime_error("PageSim: nothing to collect");
    const uint32_t v = pick();
    // take v out of the candidates
    if (c_.victim == SimVictim::greedy) untrack(v);
    if (c_.victim == SimVictim::fifo) fifo_.pop_front();  // the victim is always the head
    const int64_t i = pos_[v];
    closed_[i] = closed_.back();
    pos_[closed_[i]] = i;
    closed_.pop_back();
    pos_[v] = -1;
    for (uint32_t k = 0; k < c_.pages_per_block; ++k) {
      const uint64_t p = uint64_t(v) * c_.pages_per_block + k;
      const uint64_t lba = owner_[p];
      if (lba == kNone) continue;
      owner_[p] = kNone;
      --valid_[v];
      append(lba, gc_frontier(lba));
      ++gc_writes_;
    }
    free_.push_back(v);
  }

  Config c_;
  std::mt19937_64 rng_;
  std::vector<uint32_t> valid_;
  std::vector<uint64_t> key_;  // greedy's tie-break key (smallest first)
  std::vector<int64_t> pos_;   // index in closed_, -1 if not closed
  std::vector<uint64_t> owner_, where_;
  std::vector<uint32_t> closed_;
  std::deque<uint32_t> fifo_, free_;
  std::set<std::pair<uint32_t, std::pair<uint64_t, uint32_t>>> by_valid_;
  std::vector<std::vector<uint32_t>> level_;  // [valid count] -> blocks (random ties); key_ is the index
  Open open_[3];
  uint64_t seq_ = 0, host_writes_ = 0, gc_writes_ = 0;
};

// The WAF of a two-temperature workload (hot share r of writes to the first
// f of the LBAs; f = 1 is uniform) after a sequential fill and warm_dw drive
// writes, measured over measure_dw drive writes.
inline double page_sim_waf(PageSim::Config c, double f, double r, double warm_dw, double measure_dw,
                           uint64_t seed = 7) {
  const uint64_t U = c.logical_pages;
  const uint64_t hot = f >= 1 ? U : uint64_t(f * double(U));
  c.hot_lbas = hot;
  PageSim s(c);
  for (uint64_t l = 0; l < U; ++l) s.write(l);
  std::mt19937_64 g(seed);
  std::uniform_real_distribution<double> u01(0, 1);
  auto next = [&]() -> uint64_t {
    if (hot == U || u01(g) < r) return g() % hot;
    return hot + g() % (U - hot);
  };
  for (uint64_t i = 0, n = uint64_t(warm_dw * double(U)); i < n; ++i) s.write(next());
  const uint64_t h0 = s.host_writes(), g0 = s.gc_writes();
  for (uint64_t i = 0, n = uint64_t(measure_dw * double(U)); i < n; ++i) s.write(next());
  const double host = double(s.host_writes() - h0), gc = double(s.gc_writes() - g0);
  return (host + gc) / host;
}

}  // namespace ref
