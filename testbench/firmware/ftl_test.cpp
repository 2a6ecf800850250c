// ftl_test.cpp - firmware units on the host against the fake HAL.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <memory>
#include <random>
#include <set>
#include <vector>

#include "fake_hal.h"
#include "ftl_device.h"

extern "C" {
#include "ftl_internal.h"
}

namespace {

using ftltest::Device;
using ftltest::token_of;

TEST(FtlConfig, DefaultsAreValid) {
  ftl_config c;
  ftl_config_default(&c);
  c.dram_size = 0x7fffffff;  // the default device's tables need ~300 MB
  char msg[256] = "";
  EXPECT_EQ(ftl_config_check(&c, msg, sizeof msg), 0) << msg;
  EXPECT_LT(ftl_dram_bytes(&c), 512ull << 20);
}

TEST(FtlConfig, RejectsOverprovisioningBelowGcNeeds) {
  Device d([](ftl_config& c) { c.logical_lbas = 64 * 4 * 16 * 2 - 10; });
  char msg[256] = "";
  EXPECT_NE(ftl_config_check(&d.cfg, msg, sizeof msg), 0);
  EXPECT_NE(std::string(msg).find("over-provisioning"), std::string::npos) << msg;
  EXPECT_NE(d.init(), 0);
}

TEST(FtlConfig, RejectsReserveNotBelowThreshold) {
  ftl_config c;
  ftl_config_default(&c);
  c.gc_reserve_blocks = c.gc_threshold_blocks;
  char msg[256] = "";
  EXPECT_NE(ftl_config_check(&c, msg, sizeof msg), 0);
  EXPECT_NE(std::string(msg).find("gc_reserve_blocks"), std::string::npos) << msg;
}

TEST(FtlConfig, RejectsTooLittleDram) {
  Device d;
  d.cfg.dram_size = 4096;
  char msg[256] = "";
  EXPECT_NE(ftl_config_check(&d.cfg, msg, sizeof msg), 0);
  EXPECT_NE(std::string(msg).find("dram.size"), std::string::npos) << msg;
}

TEST(Ftl, UnwrittenLbasReadDeallocated) {
  Device d;
  ASSERT_EQ(d.init(), 0);
  EXPECT_EQ(d.mismatches(0, 100), 0u);
}

TEST(Ftl, WriteThenReadBack) {
  Device d;
  ASSERT_EQ(d.init(), 0);
  d.write(10, 37);
  d.write(3000, 64);
  EXPECT_EQ(d.mismatches(0, d.cfg.logical_lbas), 0u);
  EXPECT_EQ(ftl_get_stats(d.f)->host_lba_writes, 101u);
  EXPECT_EQ(d.hal->violations, 0u);
}

TEST(Ftl, OverwriteReturnsNewestVersion) {
  Device d;
  ASSERT_EQ(d.init(), 0);
  for (int i = 0; i < 5; ++i) d.write(100, 10);
  EXPECT_EQ(d.mismatches(90, 30), 0u);
  EXPECT_EQ(ftl_self_check(d.f), 0u);
}

TEST(Ftl, TrimmedLbasReadDeallocated) {
  Device d;
  ASSERT_EQ(d.init(), 0);
  d.write(0, 64);
  ASSERT_EQ(ftl_func_trim(d.f, 8, 16), 0);
  for (int i = 8; i < 24; ++i) d.version[i] = 0;
  EXPECT_EQ(d.mismatches(0, 64), 0u);
  EXPECT_EQ(ftl_get_stats(d.f)->trim_lbas, 16u);
  EXPECT_EQ(ftl_self_check(d.f), 0u);
}

TEST(Ftl, OutOfRangeFunctionalAccessFails) {
  Device d;
  ASSERT_EQ(d.init(), 0);
  uint32_t t[4] = {1, 2, 3, 4};
  EXPECT_NE(ftl_func_write(d.f, d.cfg.logical_lbas - 2, 4, t), 0);
  EXPECT_NE(ftl_func_trim(d.f, d.cfg.logical_lbas, 1), 0);
}

TEST(Ftl, ConsecutivePagesStripeOverChannelsThenDies) {
  Device d;
  ASSERT_EQ(d.init(), 0);
  d.write(0, 2 * 8);  // 8 pages of 2 slots
  ASSERT_GE(d.hal->program_rows.size(), 8u);
  const uint32_t bpd = d.cfg.blocks_per_die, ppb = d.cfg.pages_per_block, ch = d.cfg.channels;
  std::vector<uint32_t> dies;
  for (size_t i = 0; i < 8; ++i) dies.push_back(d.hal->program_rows[i] / ppb / bpd);
  for (size_t i = 0; i + 1 < 4; ++i) EXPECT_NE(dies[i] % ch, dies[i + 1] % ch) << "page " << i;
  EXPECT_EQ(std::set<uint32_t>(dies.begin(), dies.begin() + 4).size(), 4u);  // all dies before reuse
  EXPECT_EQ(dies[4], dies[0]);
}

TEST(Ftl, FlushPadsTheOpenPage) {
  Device d;
  ASSERT_EQ(d.init(), 0);
  d.write(0, 3);  // a page and a half
  const size_t before = d.hal->program_rows.size();
  ASSERT_EQ(ftl_func_flush(d.f), 0);
  EXPECT_EQ(d.hal->program_rows.size(), before + 1);
  EXPECT_EQ(ftl_get_stats(d.f)->pad_slots, 1u);
  EXPECT_EQ(d.mismatches(0, 8), 0u);
}

class FtlGcPolicy : public ::testing::TestWithParam<int> {};

TEST_P(FtlGcPolicy, RandomOverwritesKeepIntegrityAndCollect) {
  static int policy;
  policy = GetParam();
  Device d([](ftl_config& c) { c.gc_policy = uint32_t(policy); });
  ASSERT_EQ(d.init(), 0);
  d.write(0, uint32_t(d.cfg.logical_lbas));
  std::mt19937_64 rng(7);
  for (int i = 0; i < 60000; ++i) {
    const uint64_t lba = rng() % (d.cfg.logical_lbas - 4);
    d.write(lba, 1 + uint32_t(rng() % 4));
    if (i % 20000 == 0) {
      ASSERT_EQ(ftl_func_trim(d.f, lba, 2), 0);
      d.version[lba] = d.version[lba + 1] = 0;
    }
  }
  const ftl_stats* s = ftl_get_stats(d.f);
  EXPECT_GT(s->gc_victims, 100u);
  EXPECT_GT(s->gc_lba_writes, 0u);
  EXPECT_EQ(s->flash_errors, 0u);
  EXPECT_EQ(d.hal->violations, 0u);
  EXPECT_GE(s->free_blocks_min, d.cfg.gc_reserve_blocks - 1);
  EXPECT_EQ(d.mismatches(0, d.cfg.logical_lbas), 0u);
  EXPECT_EQ(ftl_self_check(d.f), 0u);
  uint32_t lo, hi;
  double mean;
  ftl_erase_spread(d.f, &lo, &mean, &hi);
  EXPECT_GT(mean, 1.0);
  EXPECT_LE(lo, hi);
}

std::string policy_name(const ::testing::TestParamInfo<int>& info) {
  static const char* names[] = {"greedy", "fifo", "random", "cost_benefit", "dchoices"};
  return names[info.param];
}
INSTANTIATE_TEST_SUITE_P(AllPolicies, FtlGcPolicy,
                         ::testing::Values(FTL_GC_GREEDY, FTL_GC_FIFO, FTL_GC_RANDOM, FTL_GC_COST_BENEFIT,
                                           FTL_GC_DCHOICES),
                         policy_name);

uint64_t victim_bins_sum(const ftl_stats* s) {
  uint64_t n = 0;
  for (uint32_t b = 0; b < FTL_GC_INVALID_BINS; ++b) n += s->gc_victim_invalid[b];
  return n;
}

// Every victim is counted once, in the bin of its invalid share at choice;
// random overwrites leave greedy's victims partly valid, so not all in the
// top bin.
TEST(FtlGcVictimHistogram, CountsEveryVictimOnce) {
  Device d;
  ASSERT_EQ(d.init(), 0);
  d.write(0, uint32_t(d.cfg.logical_lbas));
  std::mt19937_64 rng(11);
  for (int i = 0; i < 60000; ++i) d.write(rng() % d.cfg.logical_lbas, 1);
  const ftl_stats* s = ftl_get_stats(d.f);
  ASSERT_GT(s->gc_victims, 100u);
  EXPECT_EQ(victim_bins_sum(s), s->gc_victims);
  EXPECT_LT(s->gc_victim_invalid[FTL_GC_INVALID_BINS - 1], s->gc_victims) << "uniform overwrites: partly valid victims";
  EXPECT_EQ(d.mismatches(0, d.cfg.logical_lbas), 0u);
}

// Perfectly separated death times: whole-drive sequential passes, so every
// block's LBAs die together and greedy's victims are entirely invalid.
TEST(FtlGcVictimHistogram, SequentialPassesPutVictimsInTheTopBin) {
  Device d;
  ASSERT_EQ(d.init(), 0);
  for (int pass = 0; pass < 4; ++pass)
    for (uint64_t l = 0; l < d.cfg.logical_lbas; l += 8)
      d.write(l, uint32_t(std::min<uint64_t>(8, d.cfg.logical_lbas - l)));
  const ftl_stats* s = ftl_get_stats(d.f);
  ASSERT_GT(s->gc_victims, 100u);
  EXPECT_EQ(victim_bins_sum(s), s->gc_victims);
  EXPECT_EQ(s->gc_victim_invalid[FTL_GC_INVALID_BINS - 1], s->gc_victims);
  EXPECT_EQ(s->gc_lba_writes, 0u);
  EXPECT_EQ(d.mismatches(0, d.cfg.logical_lbas), 0u);
}

TEST(FtlGc, GreedyCollectsTheBlockWithFewestValidFirst) {
  Device d;
  ASSERT_EQ(d.init(), 0);
  d.write(0, uint32_t(d.cfg.logical_lbas));
  // Trim all but one LBA of the block holding LBA 2000: it becomes the
  // emptiest closed block by far.
  const uint32_t spp = d.cfg.slots_per_page, ppb = d.cfg.pages_per_block;
  const uint32_t target = ftl_lookup(d.f, 2000) / spp / ppb;
  uint32_t kept = 0;
  for (uint64_t l = 0; l < d.cfg.logical_lbas; ++l)
    if (ftl_lookup(d.f, l) / spp / ppb == target && kept++ > 0) {
      ASSERT_EQ(ftl_func_trim(d.f, l, 1), 0);
      d.version[l] = 0;
    }
  ASSERT_EQ(d.hal->erase_count(target), 0u);
  // Overwrite LBAs elsewhere until the first erase happens.
  uint64_t l = 0;
  for (int guard = 0; ftl_get_stats(d.f)->erases == 0 && guard < 100000 && !HasFatalFailure(); ++guard) {
    if (ftl_lookup(d.f, l) / spp / ppb != target) d.write(l, 1);
    l = (l + 7) % d.cfg.logical_lbas;
  }
  EXPECT_EQ(d.hal->erase_count(target), 1u);
  EXPECT_EQ(d.mismatches(0, d.cfg.logical_lbas), 0u);
}

TEST(Ftl, TwoInstancesDoNotInterfere) {
  Device a, b;
  ASSERT_EQ(a.init(), 0);
  ASSERT_EQ(b.init(), 0);
  std::mt19937 rng(3);
  for (int i = 0; i < 20000; ++i) {
    a.write(rng() % a.cfg.logical_lbas, 1);
    b.write(rng() % 100, 1);  // b stays small and hot
  }
  EXPECT_EQ(a.mismatches(0, a.cfg.logical_lbas), 0u);
  EXPECT_EQ(b.mismatches(0, b.cfg.logical_lbas), 0u);
  EXPECT_EQ(ftl_get_stats(b.f)->host_lba_writes, 20000u);
  EXPECT_EQ(ftl_get_stats(a.f)->host_lba_writes, 20000u);
}

// ftl.flash_cq_phase: the firmware finds flash completions by their phase
// tag in DRAM (the fake HAL tags them as the controller does, flipping at
// every wrap of the ring) and never reads CQ_TAIL; with it off it reads the
// tail on every pass. Completions come at once on the fake HAL, so the same
// writes make the same decisions either way.
TEST(Ftl, PhaseTaggedFlashRingNeedsNoTailReads) {
  Device off, on([](ftl_config&c) { c.flash_cq_phase = 1; });
  ASSERT_EQ(off.init(), 0);
  ASSERT_EQ(on.init(), 0);
  for (Device* d : {&off, &on}) {
    std::mt19937_64 rng(5);
    d->write(0, uint32_t(d->cfg.logical_lbas));
    for (int i = 0; i < 20000; ++i) d->write(rng() % (d->cfg.logical_lbas - 4), 1 + uint32_t(rng() % 4));
    EXPECT_EQ(d->mismatches(0, d->cfg.logical_lbas), 0u);
    EXPECT_EQ(d->hal->violations, 0u);
    EXPECT_EQ(ftl_self_check(d->f), 0u);
  }
  const ftl_stats *a = ftl_get_stats(off.f), *b = ftl_get_stats(on.f);
  EXPECT_GT(a->gc_victims, 50u);
  EXPECT_EQ(a->gc_victims, b->gc_victims);
  EXPECT_EQ(a->gc_lba_writes, b->gc_lba_writes);
  EXPECT_EQ(a->flash_errors + b->flash_errors, 0u);
  // many wraps of the completion ring, none read through the register
  EXPECT_GT(on.hal->cycles[FW_OP_flash_complete], 100u * on.f->fcq.size);
  EXPECT_GT(off.hal->cq_tail_reads, 0u);
  EXPECT_EQ(on.hal->cq_tail_reads, 0u);
}

TEST(Ftl, ChargesCpuTimePerOperation) {
  Device d;
  ASSERT_EQ(d.init(), 0);
  d.write(0, 10);
  EXPECT_EQ(d.hal->cycles[FW_OP_l2p_update], 10u);
  EXPECT_EQ(d.hal->cycles[FW_OP_flash_submit], 5u);  // 10 LBAs = 5 pages
}

}  // namespace
