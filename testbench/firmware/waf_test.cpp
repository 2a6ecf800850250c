// waf_test.cpp - steady-state write amplification of the firmware's GC
// against published analysis (docs/results/fidelity.md), not against
// figures the code produced:
//  - FIFO victims: WAF = alpha / (alpha + W0(-alpha e^-alpha)), alpha = 1/(1-S_f)
//    (Desnoyers, SYSTOR 2012);
//  - random victims: WAF = 1/S_f;
//  - greedy below FIFO, rising with pages per block; greedy <= d-choices <= FIFO.
//  - greedy and d-choices to within 0.4-0.5 % of the mean-field model, FIFO
//    against the nominal spare factor (testbench/reference/gc_models.h);
//  - two-temperature workloads (a fraction f of the LBAs gets a fraction r of
//    the writes), with and without hot/cold frontiers: FIFO against
//    Desnoyers' non-uniform model, d-choices against the hot/cold mean-field
//    model, greedy against the page-level simulator (testbench/reference)
//    and Desnoyers' greedy models (one frontier; hot/cold pools), 80/20 and
//    90/10 (at 90/10 with one frontier the page-level simulator arbitrates
//    between the firmware and Eq. 16: greedy's tie rule).
// Single-LBA writes, one LBA per page, >= 16k blocks, run functionally (same
// firmware, no timing; waf_measure.h). The spare factor is the effective
// one unless said otherwise: blocks held free by the GC threshold and the
// unwritten part of open blocks cannot hold data, so they are taken out of T.
#include <gtest/gtest.h>

#include <cmath>
#include <utility>

#include "gc_models.h"
#include "page_sim.h"
#include "waf_measure.h"

namespace {

using namespace waf;
using ref::fifo_waf;

// A measurement whose run must be clean (writes, self-check, NAND rules).
WafResult checked(const WafSetup& s) {
  const WafResult r = waf::measure(s);
  EXPECT_TRUE(r.clean) << "a write failed, or the self-check or NAND rules found a fault";
  return r;
}

// The original interface: uniform writes, 2 dies, host and GC frontiers.
WafResult measure(int policy, uint32_t ppb, double sf, uint32_t dchoices = 10, double warm_drive_writes = 3.0,
                  double measure_drive_writes = 2.0) {
  WafSetup s;
  s.policy = policy;
  s.ppb = ppb;
  s.sf = sf;
  s.dchoices = dchoices;
  s.warm_drive_writes = warm_drive_writes;
  s.measure_drive_writes = measure_drive_writes;
  return checked(s);
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

// ---- absolute checks against the reference models (testbench/reference) ----
// One die: the models have no dies, and a victim choice that looks at per-die
// free blocks must not move these figures.

WafSetup one_die(int policy, uint32_t ppb, double sf) {
  WafSetup s;
  s.policy = policy;
  s.ppb = ppb;
  s.sf = sf;
  s.dies = 1;
  return s;
}

TEST(WafReference, GreedyMatchesMeanFieldModel) {
  // The mean-field fixed point is exact as the block count grows; at 32k
  // blocks its error and the sampling error are below 0.1 %. 0.4 % leaves
  // room for the effective-spare estimate and fails "best of 30 random
  // candidates", which the model puts 0.8-1.1 % above greedy here.
  for (auto [ppb, sf] : {std::pair<uint32_t, double>{32, 0.125}, {64, 0.2}}) {
    const WafResult r = checked(one_die(FTL_GC_GREEDY, ppb, sf));
    const double want = ref::greedy_waf_uniform(r.sf_eff, int(ppb));
    std::printf("greedy b=%u S_f=%.3f (effective %.4f): measured %.4f, mean-field model %.4f (%+.2f %%)\n", ppb, sf,
                r.sf_eff, r.waf, want, 100 * (r.waf / want - 1));
    EXPECT_NEAR(r.waf / want, 1.0, 0.004) << "b=" << ppb << " S_f=" << sf;
    // Desnoyers' closed form (his Eq. 12), "nearly exact" for these b and
    // S_f: 1 % (it sits 0.3 % below the mean-field fixed point here).
    const double desn = ref::desnoyers_greedy_waf(r.sf_eff, int(ppb));
    std::printf("  Desnoyers' greedy model %.4f (%+.2f %%)\n", desn, 100 * (r.waf / desn - 1));
    EXPECT_NEAR(r.waf / desn, 1.0, 0.01) << "b=" << ppb << " S_f=" << sf;
  }
}

// ftl.gc.trigger watermarks: GC runs in episodes from 4 free blocks up to 68,
// so the free pool swings over 64 blocks instead of sitting at 4. In steady
// state greedy still matches the mean-field model at the effective spare
// factor (the mean pool taken out of T): the trigger changes when victims are
// collected, not which. Its episodes collect about high - low victims each.
TEST(WafReference, WatermarksMatchMeanFieldModelAtTheirMeanPool) {
  WafSetup s = one_die(FTL_GC_GREEDY, 32, 0.125);
  s.trigger = FTL_GC_TRIGGER_WATERMARKS;
  s.high_blocks = 68;
  const WafResult r = checked(s);
  const double want = ref::greedy_waf_uniform(r.sf_eff, 32);
  std::printf("greedy, watermarks 4..68, b=32 S_f=0.125 (effective %.4f): measured %.4f, mean-field %.4f (%+.2f %%)\n",
              r.sf_eff, r.waf, want, 100 * (r.waf / want - 1));
  EXPECT_NEAR(r.waf / want, 1.0, 0.005);
  WafSetup t = one_die(FTL_GC_GREEDY, 32, 0.125);
  const WafResult th = checked(t);
  EXPECT_LT(r.sf_eff, th.sf_eff) << "the pool held between the marks is spare that holds no data";
  EXPECT_GT(r.waf, th.waf);
}

TEST(WafReference, DChoicesMatchesMeanFieldModel) {
  for (uint32_t d : {2u, 10u}) {
    WafSetup s = one_die(FTL_GC_DCHOICES, 32, 0.125);
    s.dchoices = d;
    const WafResult r = checked(s);
    const double want =
        ref::MeanField(r.sf_eff, 32, 1, 1, ref::Victim::dchoices, int(d), ref::Frontiers::host_gc).solve(40, 0.02);
    std::printf("d-choices d=%u b=32 S_f=0.125 (effective %.4f): measured %.4f, mean-field model %.4f (%+.2f %%)\n", d,
                r.sf_eff, r.waf, want, 100 * (r.waf / want - 1));
    EXPECT_NEAR(r.waf / want, 1.0, 0.005) << "d=" << d;
  }
}

TEST(WafReference, FifoAtNominalSpareFactor) {
  // Against the nominal S_f, not one measured inside the run: the threshold
  // and open blocks hold 6 of 32768 blocks (0.02 % of T, +0.15 % WAF), so an
  // accounting error that moves the spare by a tenth moves WAF by > 5 %.
  const double sf = 0.125;
  const WafResult r = checked(one_die(FTL_GC_FIFO, 32, sf));
  std::printf("FIFO S_f=%.3f nominal: measured %.4f, formula %.4f\n", sf, r.waf, ref::fifo_waf(sf));
  EXPECT_NEAR(r.waf / ref::fifo_waf(sf), 1.0, 0.01);
}

// ---- skewed workloads: a fraction f of the LBAs gets a fraction r of the writes ----
// 80/20 (f = 0.2, r = 0.8) on 16384 blocks of 32 pages.

// The page simulator set up as the firmware drive s: same blocks, pages per
// block and logical space, greedy with the firmware's tie rule.
ref::PageSim::Config greedy_page_sim(const WafSetup& s, ref::Frontiers frontiers) {
  ref::PageSim::Config c;
  c.blocks = uint32_t(s.T / s.ppb);
  c.pages_per_block = s.ppb;
  c.logical_pages = uint64_t(std::llround(double(s.T) * (1.0 - s.sf)));
  c.victim = ref::SimVictim::greedy;
  c.tie = ref::TieBreak::latest_change;
  c.frontiers = frontiers;
  return c;
}

WafSetup skewed(int policy, bool separate) {
  WafSetup s = one_die(policy, 32, 0.125);
  s.T = 1ull << 19;
  s.hot_lbas = 0.2;
  s.hot_writes = 0.8;
  s.oracle_classes = separate;
  // cold LBAs are rewritten once every 4 drive writes: warm up long enough
  // for the cold blocks to turn over
  s.warm_drive_writes = 12;
  s.measure_drive_writes = 4;
  return s;
}

TEST(WafSkewed, FifoMatchesDesnoyersWithAndWithoutSeparation) {
  // Desnoyers' non-uniform LRU model; exact for a FIFO queue of many blocks,
  // and blind to whether classes share blocks.
  for (bool sep : {false, true}) {
    const WafResult r = checked(skewed(FTL_GC_FIFO, sep));
    const double want = ref::fifo_waf_classes(r.sf_eff, {0.2, 0.8}, {0.8, 0.2});
    std::printf("FIFO 80/20 %s (effective S_f %.4f): measured %.4f, Desnoyers %.4f (%+.2f %%)\n",
                sep ? "hot/cold frontiers" : "host+GC frontiers", r.sf_eff, r.waf, want, 100 * (r.waf / want - 1));
    EXPECT_NEAR(r.waf / want, 1.0, 0.01) << (sep ? "separated" : "mixed");
  }
}

TEST(WafSkewed, DChoicesSeparatedMatchesMeanField) {
  // Van Houdt's hot/cold mean-field model with one frontier per temperature:
  // every block holds one class, so the model's state is exact (with host and
  // GC frontiers it takes a GC block's hot share as binomial and is 3 % off,
  // docs/results/fidelity.md). d = 10: ties among the d draws go to the first.
  WafSetup s = skewed(FTL_GC_DCHOICES, true);
  s.dchoices = 10;
  const WafResult r = checked(s);
  const double want =
      ref::MeanField(r.sf_eff, 32, 0.2, 0.8, ref::Victim::dchoices, 10, ref::Frontiers::by_class).solve(60, 0.05);
  std::printf(
      "d-choices(10) 80/20 hot/cold frontiers (effective S_f %.4f): measured %.4f, mean-field %.4f (%+.2f %%)\n",
      r.sf_eff, r.waf, want, 100 * (r.waf / want - 1));
  EXPECT_NEAR(r.waf / want, 1.0, 0.01);
}

TEST(WafSkewed, GreedyMatchesPageSimulatorWithAndWithoutSeparation) {
  // Under skew, greedy's WAF depends on how ties between blocks with as many
  // valid pages are broken (the firmware takes the block whose count changed
  // last, which is usually hot: about 3.5 % above random ties at 80/20,
  // docs/results/fidelity.md), so the reference is the page-level simulator
  // with the same rule, run through the same protocol (fill, 8 + 3 drive
  // writes; steady state is not needed for a like-for-like comparison).
  // Different random draws, so 1 %.
  for (bool sep : {false, true}) {
    WafSetup s = skewed(FTL_GC_GREEDY, sep);
    s.warm_drive_writes = 8;
    s.measure_drive_writes = 3;
    const WafResult r = checked(s);
    const ref::PageSim::Config c = greedy_page_sim(s, sep ? ref::Frontiers::by_class : ref::Frontiers::host_gc);
    const double want = ref::page_sim_waf(c, s.hot_lbas, s.hot_writes, s.warm_drive_writes, s.measure_drive_writes);
    std::printf("greedy 80/20 %s: measured %.4f, page-level simulator %.4f (%+.2f %%)\n",
                sep ? "hot/cold frontiers" : "host+GC frontiers", r.waf, want, 100 * (r.waf / want - 1));
    EXPECT_NEAR(r.waf / want, 1.0, 0.01) << (sep ? "separated" : "mixed");
    if (sep) {
      // Desnoyers' two-pool greedy model (Eq. 20-22) at the spare split a
      // single greedy choice settles at (p = f: the skew costs nothing),
      // within his stated 2 %.
      const double desn = ref::desnoyers_greedy_waf_pools(r.sf_eff, int(s.ppb), s.hot_lbas, s.hot_writes);
      std::printf("  Desnoyers' separated greedy model %.4f (%+.2f %%)\n", desn, 100 * (r.waf / desn - 1));
      EXPECT_NEAR(r.waf / desn, 1.0, 0.02);
    }
  }
}

// Desnoyers' non-uniform greedy model (Eq. 16) assumes relocated pages are
// written with host pages: one frontier (FTL_PLACE_SINGLE). He states it
// accurate to 2 % against his simulator; the same bound here. (With a GC
// frontier of its own, relocated pages, mostly cold, gather in GC blocks and
// the firmware lands 1-4 % below the model: docs/results/fidelity.md.)
TEST(WafSkewed, GreedySingleFrontierMatchesDesnoyers) {
  WafSetup s = skewed(FTL_GC_GREEDY, false);
  s.placement = FTL_PLACE_SINGLE;
  const WafResult r = checked(s);
  const double want = ref::desnoyers_greedy_waf_classes(r.sf_eff, int(s.ppb), {0.2, 0.8}, {0.8, 0.2});
  std::printf("greedy 80/20 one frontier (effective S_f %.4f): measured %.4f, Desnoyers %.4f (%+.2f %%)\n", r.sf_eff,
              r.waf, want, 100 * (r.waf / want - 1));
  EXPECT_NEAR(r.waf / want, 1.0, 0.02);
}

// 90/10: a tenth of the LBAs gets 90 % of the writes, so cold data turns over
// once every 9 drive writes; warm up over two of those. The most skewed
// point, where a wrong model of cold data shows most: FIFO against
// Desnoyers' non-uniform LRU model (exact: 1 %), greedy with hot/cold
// frontiers against his two-pool model (2 %).
TEST(WafSkewed, NinetyTenAgainstDesnoyers) {
  for (int pol : {FTL_GC_FIFO, FTL_GC_GREEDY}) {
    WafSetup s = skewed(pol, pol == FTL_GC_GREEDY);
    s.hot_lbas = 0.1;
    s.hot_writes = 0.9;
    s.warm_drive_writes = 18;
    s.measure_drive_writes = 4.5;
    const WafResult r = checked(s);
    const double want = pol == FTL_GC_FIFO
                            ? ref::fifo_waf_classes(r.sf_eff, {0.1, 0.9}, {0.9, 0.1})
                            : ref::desnoyers_greedy_waf_pools(r.sf_eff, int(s.ppb), s.hot_lbas, s.hot_writes);
    std::printf("%s 90/10 (effective S_f %.4f): measured %.4f, Desnoyers %.4f (%+.2f %%)\n",
                pol == FTL_GC_FIFO ? "FIFO, host+GC frontiers" : "greedy, hot/cold frontiers", r.sf_eff, r.waf, want,
                100 * (r.waf / want - 1));
    EXPECT_NEAR(r.waf / want, 1.0, pol == FTL_GC_FIFO ? 0.01 : 0.02);
  }
}

// 90/10 greedy with one frontier, the setting of Desnoyers' Eq. 16: the
// firmware is 4.5 % above the model, beyond the 2 % he states. The page-level
// simulator arbitrates (same drive, spare, threshold and protocol): with the
// firmware's tie-breaking among blocks with as many valid pages (the one
// whose count changed last, usually a hot block that would have lost more)
// it lands on the firmware (1 %); with the oldest block first, the LRW order
// Eq. 16 is built on, it lands within the model's 2 % (+0.9 % when this was
// written; random ties +2.1 %). So the gap is the firmware's tie rule, which
// costs a few per cent at this skew, not an error in the model or the
// firmware (docs/results/fidelity.md).
TEST(WafSkewed, NinetyTenOneFrontierAgainstDesnoyersAndPageSimulator) {
  WafSetup s = skewed(FTL_GC_GREEDY, false);
  s.placement = FTL_PLACE_SINGLE;
  s.hot_lbas = 0.1;
  s.hot_writes = 0.9;
  s.warm_drive_writes = 18;
  s.measure_drive_writes = 4.5;
  const WafResult r = checked(s);
  ref::PageSim::Config c = greedy_page_sim(s, ref::Frontiers::single);
  const double sim_fw = ref::page_sim_waf(c, s.hot_lbas, s.hot_writes, s.warm_drive_writes, s.measure_drive_writes);
  c.tie = ref::TieBreak::oldest_closed;
  const double sim_old = ref::page_sim_waf(c, s.hot_lbas, s.hot_writes, s.warm_drive_writes, s.measure_drive_writes);
  const double desn = ref::desnoyers_greedy_waf_classes(r.sf_eff, int(s.ppb), {0.1, 0.9}, {0.9, 0.1});
  std::printf(
      "greedy 90/10 one frontier (effective S_f %.4f): measured %.4f, page-level simulator with the firmware's ties "
      "%.4f (%+.2f %%), with the oldest first %.4f; Desnoyers (Eq. 16) %.4f: firmware %+.2f %%, simulator with the "
      "oldest first %+.2f %%\n",
      r.sf_eff, r.waf, sim_fw, 100 * (r.waf / sim_fw - 1), sim_old, desn, 100 * (r.waf / desn - 1),
      100 * (sim_old / desn - 1));
  EXPECT_NEAR(r.waf / sim_fw, 1.0, 0.01) << "the firmware against the simulator with the same rule";
  EXPECT_NEAR(sim_old / desn, 1.0, 0.02) << "Eq. 16 within its stated accuracy where its ordering holds";
  EXPECT_GT(sim_fw / sim_old, 1.02) << "the tie rule is what moves the firmware off the model";
}

}  // namespace
