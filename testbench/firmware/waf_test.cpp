// waf_test.cpp - steady-state write amplification of the firmware's GC
// against published analysis (shared/design/VALIDATION.md), not against
// figures the code produced:
//  - FIFO victims: WAF = alpha / (alpha + W0(-alpha e^-alpha)), alpha = 1/(1-S_f)
//    (Desnoyers, SYSTOR 2012);
//  - random victims: WAF = 1/S_f;
//  - greedy below FIFO, rising with pages per block; greedy <= d-choices <= FIFO.
// Uniform random single-LBA writes, one LBA per page, >= 16k blocks, run
// functionally (same firmware, no timing). The spare factor is the effective
// one: blocks held free by the GC threshold and the unwritten part of open
// blocks cannot hold data, so they are taken out of T.
#include <gtest/gtest.h>

#include <boost/math/special_functions/lambert_w.hpp>
#include <cmath>
#include <memory>
#include <random>

#include "fake_hal.h"

extern "C" {
#include "ftl_internal.h"
}

namespace {

struct WafResult {
  double waf;
  double sf_eff;
};

double fifo_waf(double sf) {
  const double a = 1.0 / (1.0 - sf);
  return a / (a + boost::math::lambert_w0(-a * std::exp(-a)));
}

// Physical blocks fixed at 16384 x 64 pages (1 Mi pages) unless ppb changes,
// in which case the block count scales to keep T constant.
WafResult measure(int policy, uint32_t ppb, double sf, uint32_t dchoices = 10, double warm_drive_writes = 3.0,
                  double measure_drive_writes = 2.0) {
  const uint64_t T = 1ull << 20;
  ftl_config c;
  ftl_config_default(&c);
  c.channels = 1;
  c.dies_per_channel = 2;
  c.pages_per_block = ppb;
  c.blocks_per_die = uint32_t(T / ppb / 2);
  c.slots_per_page = 1;
  c.logical_lbas = uint64_t(std::llround(T * (1.0 - sf)));
  c.gc_policy = uint32_t(policy);
  c.gc_threshold_blocks = 4;
  c.gc_reserve_blocks = 2;
  c.gc_max_active = 1;
  c.gc_dchoices = dchoices;
  c.cmd_slots = 4;
  c.write_buffer_pages = 4;
  c.read_buffer_pages = 2;
  c.gc_buffer_pages = 8;
  c.max_transfer_lbas = 256;
  c.dram_size = uint32_t(ftl_dram_bytes(&c) + 4096);
  FakeHal hal(c.dram_size, c.channels * c.dies_per_channel * c.blocks_per_die, ppb, 1);
  std::unique_ptr<uint8_t[]> mem(new uint8_t[ftl_size()]);
  auto* f = reinterpret_cast<ftl*>(mem.get());
  EXPECT_EQ(ftl_init(f, hal.hal(), &c), 0);

  std::vector<uint32_t> t(256, 7);
  for (uint64_t l = 0; l < c.logical_lbas; l += 256)
    EXPECT_EQ(ftl_func_write(f, l, uint32_t(std::min<uint64_t>(256, c.logical_lbas - l)), t.data()), 0);
  std::mt19937_64 rng(12345);
  const uint64_t warm = uint64_t(warm_drive_writes * c.logical_lbas);
  for (uint64_t i = 0; i < warm; ++i) ftl_func_write(f, rng() % c.logical_lbas, 1, t.data());
  const ftl_stats s0 = *ftl_get_stats(f);
  const uint64_t n = uint64_t(measure_drive_writes * c.logical_lbas);
  double free_sum = 0;
  for (uint64_t i = 0; i < n; ++i) {
    ftl_func_write(f, rng() % c.logical_lbas, 1, t.data());
    free_sum += f->free_total;
  }
  const ftl_stats& s1 = *ftl_get_stats(f);
  const double host = double(s1.host_lba_writes - s0.host_lba_writes);
  const double gc = double(s1.gc_lba_writes - s0.gc_lba_writes);
  // Blocks unable to hold data: the mean free pool, plus half of each open
  // frontier block (2 frontiers x dies), on average half written.
  const double held = free_sum / double(n) + 0.5 * 2 * c.channels * c.dies_per_channel;
  const double t_eff = double(T) - held * ppb;
  EXPECT_EQ(ftl_self_check(f), 0u);
  EXPECT_EQ(hal.violations, 0u);
  return {(host + gc) / host, (t_eff - double(c.logical_lbas)) / t_eff};
}

TEST(Waf, FormulaReferenceValues) {
  // The figures VALIDATION.md quotes, so the test's formula is the paper's.
  EXPECT_NEAR(fifo_waf(0.125), 4.182, 0.001);
  EXPECT_NEAR(fifo_waf(0.28), 1.992, 0.001);
}

TEST(Waf, FifoMatchesLambertWFormula) {
  for (double sf : {0.125, 0.28}) {
    const WafResult r = measure(FTL_GC_FIFO, 64, sf);
    const double want = fifo_waf(r.sf_eff);
    EXPECT_NEAR(r.waf / want, 1.0, 0.01) << "S_f=" << sf << " (effective " << r.sf_eff << "): measured " << r.waf
                                         << ", formula " << want;
    std::printf("FIFO S_f=%.3f (effective %.4f): measured %.4f, Lambert-W formula %.4f\n", sf, r.sf_eff, r.waf, want);
  }
}

TEST(Waf, RandomMatchesInverseSpareFactor) {
  const WafResult r = measure(FTL_GC_RANDOM, 64, 0.28);
  EXPECT_NEAR(r.waf * r.sf_eff, 1.0, 0.01) << "measured " << r.waf << ", 1/S_f " << 1.0 / r.sf_eff;
  std::printf("random S_f=0.28 (effective %.4f): measured %.4f, 1/S_f %.4f\n", r.sf_eff, r.waf, 1.0 / r.sf_eff);
}

TEST(Waf, GreedyBelowFifoAndRisingWithPagesPerBlock) {
  const double sf = 0.125;
  const WafResult g16 = measure(FTL_GC_GREEDY, 16, sf);
  const WafResult g64 = measure(FTL_GC_GREEDY, 64, sf);
  const WafResult g256 = measure(FTL_GC_GREEDY, 256, sf);
  const double fifo = fifo_waf(g64.sf_eff);
  EXPECT_LT(g16.waf, g64.waf);
  EXPECT_LT(g64.waf, g256.waf);
  EXPECT_LT(g256.waf, fifo);
  std::printf("greedy WAF b=16 %.3f, b=64 %.3f, b=256 %.3f; FIFO formula %.3f\n", g16.waf, g64.waf, g256.waf, fifo);
}

TEST(Waf, PolicyOrderGreedyDchoicesFifoRandom) {
  // d = 10: with small d, d-choices drifts toward random and can be worse
  // than FIFO (Van Houdt, SIGMETRICS 2013); DChoicesApproachesRandomAsDShrinks
  // shows that end.
  const double sf = 0.125;
  const double greedy = measure(FTL_GC_GREEDY, 64, sf).waf;
  const double dch = measure(FTL_GC_DCHOICES, 64, sf, 10).waf;
  const double fifo = measure(FTL_GC_FIFO, 64, sf).waf;
  const double rnd = measure(FTL_GC_RANDOM, 64, sf).waf;
  std::printf("S_f=%.3f greedy %.3f <= d-choices(10) %.3f <= FIFO %.3f < random %.3f\n", sf, greedy, dch, fifo, rnd);
  EXPECT_LE(greedy, dch);
  EXPECT_LE(dch, fifo);
  EXPECT_LT(fifo, rnd);
}

TEST(Waf, DChoicesApproachesRandomAsDShrinks) {
  const double sf = 0.28;
  const WafResult d1 = measure(FTL_GC_DCHOICES, 64, sf, 1);
  const double d3 = measure(FTL_GC_DCHOICES, 64, sf, 3).waf;
  const double d30 = measure(FTL_GC_DCHOICES, 64, sf, 30).waf;
  std::printf("S_f=%.2f d-choices d=1 %.3f (1/S_f %.3f), d=3 %.3f, d=30 %.3f\n", sf, d1.waf, 1 / d1.sf_eff, d3, d30);
  EXPECT_NEAR(d1.waf * d1.sf_eff, 1.0, 0.01);  // d = 1 is random
  EXPECT_GT(d1.waf, d3);
  EXPECT_GT(d3, d30);
}

}  // namespace
