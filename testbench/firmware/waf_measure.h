// waf_measure.h - steady-state WAF of the firmware's GC, run functionally on
// the fake HAL (same firmware, no timing): the measurement the WAF tests and
// the fidelity table (testbench/reference/fidelity_table.cpp) share.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <memory>
#include <random>
#include <vector>

#include "fake_hal.h"

extern "C" {
#include "ftl_internal.h"
}

namespace waf {

struct WafResult {
  double waf;
  double sf_eff;
  bool clean;  // init and writes succeeded, self-check and NAND rules clean
};

// One measurement: a drive of T pages (2^20: 16384 blocks of 64 pages; the
// block count scales with ppb), filled sequentially, warmed up and measured
// with single-LBA writes. A fraction hot_lbas of the LBAs (the first ones)
// receives a fraction hot_writes of the writes (1, 1: uniform).
struct WafSetup {
  uint64_t T = 1ull << 20;  // physical pages
  int policy = FTL_GC_GREEDY;
  uint32_t ppb = 64;
  double sf = 0.125;
  uint32_t dchoices = 10;
  double warm_drive_writes = 3.0;
  double measure_drive_writes = 2.0;
  uint32_t dies = 2;
  double hot_lbas = 1.0, hot_writes = 1.0;
  // FTL_PLACE_DOUBLE: host and GC frontiers; FTL_PLACE_SINGLE: one;
  // FTL_PLACE_HOTIS with oracle classes: hot and cold frontiers, relocated
  // LBAs stay in their class (the test sets the slice classes to the true
  // split and time never advances, so the monitor never reclassifies).
  uint32_t placement = FTL_PLACE_DOUBLE;
  bool oracle_classes = false;
  // ftl.gc.trigger: threshold (GC keeps 4 blocks free), or watermarks from 4
  // up to high_blocks (episodes; the free pool swings between the marks)
  uint32_t trigger = FTL_GC_TRIGGER_THRESHOLD;
  uint32_t high_blocks = 0;
};

inline WafResult measure(const WafSetup& s) {
  const uint64_t T = s.T;
  ftl_config c;
  ftl_config_default(&c);
  c.channels = 1;
  c.dies_per_channel = s.dies;
  c.pages_per_block = s.ppb;
  c.blocks_per_die = uint32_t(T / s.ppb / s.dies);
  c.slots_per_page = 1;
  c.logical_lbas = uint64_t(std::llround(T * (1.0 - s.sf)));
  c.gc_policy = uint32_t(s.policy);
  c.gc_threshold_blocks = 4;
  c.gc_reserve_blocks = 2;
  c.gc_max_active = 1;
  c.gc_trigger = s.trigger;
  if (s.high_blocks) c.gc_high_blocks = s.high_blocks;
  c.gc_dchoices = s.dchoices;
  c.cmd_slots = 4;
  c.placement = s.oracle_classes ? uint32_t(FTL_PLACE_HOTIS) : s.placement;
  c.gc_placement = FTL_GC_PLACE_CLUSTER;
  c.hot_slice_lbas = 64;
  c.write_buffer_pages = 8;
  c.read_buffer_pages = 2;
  c.gc_buffer_pages = 8;
  c.max_transfer_lbas = 256;
  c.dram_size = uint32_t(ftl_dram_bytes(&c) + 4096);
  FakeHal hal(c.dram_size, c.channels * c.dies_per_channel * c.blocks_per_die, s.ppb, 1);
  std::unique_ptr<uint8_t[]> mem(new uint8_t[ftl_size()]);
  auto* f = reinterpret_cast<ftl*>(mem.get());
  bool ok = ftl_init(f, hal.hal(), &c) == 0;
  if (!ok) return {0, 0, false};
  // the hot set, rounded to whole slices for the oracle classes
  const uint64_t hot = s.hot_lbas >= 1
                           ? c.logical_lbas
                           : uint64_t(s.hot_lbas * double(c.logical_lbas)) / c.hot_slice_lbas * c.hot_slice_lbas;
  if (s.oracle_classes)
    for (uint32_t i = 0; i < f->slices; ++i) f->slice_class[i] = uint64_t(i) * c.hot_slice_lbas < hot ? 0 : 1;

  std::vector<uint32_t> t(256, 7);
  for (uint64_t l = 0; l < c.logical_lbas; l += 256)
    ok &= ftl_func_write(f, l, uint32_t(std::min<uint64_t>(256, c.logical_lbas - l)), t.data()) == 0;
  std::mt19937_64 rng(12345);
  std::uniform_real_distribution<double> u01(0, 1);
  auto next = [&]() -> uint64_t {
    if (hot == c.logical_lbas) return rng() % c.logical_lbas;
    return u01(rng) < s.hot_writes ? rng() % hot : hot + rng() % (c.logical_lbas - hot);
  };
  const uint64_t warm = uint64_t(s.warm_drive_writes * c.logical_lbas);
  for (uint64_t i = 0; i < warm; ++i) ok &= ftl_func_write(f, next(), 1, t.data()) == 0;
  const ftl_stats s0 = *ftl_get_stats(f);
  const uint64_t n = uint64_t(s.measure_drive_writes * c.logical_lbas);
  double free_sum = 0;
  for (uint64_t i = 0; i < n; ++i) {
    ok &= ftl_func_write(f, next(), 1, t.data()) == 0;
    free_sum += f->free_total;
  }
  const ftl_stats& s1 = *ftl_get_stats(f);
  const double host = double(s1.host_lba_writes - s0.host_lba_writes);
  const double gc = double(s1.gc_lba_writes - s0.gc_lba_writes);
  // Blocks unable to hold data: the mean free pool, plus half of each open
  // frontier block (frontiers x dies), on average half written.
  const double held = free_sum / double(n) + 0.5 * place_frontiers(&c) * c.channels * c.dies_per_channel;
  const double t_eff = double(T) - held * s.ppb;
  ok &= ftl_self_check(f) == 0 && hal.violations == 0;
  return {(host + gc) / host, (t_eff - double(c.logical_lbas)) / t_eff, ok};
}

}  // namespace waf
