// multiplane_test.cpp - ftl.multiplane and ftl.multiplane_hold on the fake
// HAL, which checks multi-plane groups against the flash model's NAND rules
// (FakeHal::set_geometry): the rules themselves on hand-made groups, then the
// firmware's groups under random writes and GC, with and without holding
// pages for their plane siblings.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdio>
#include <random>

#include "ftl_device.h"

using ftltest::Device;

namespace {

// The small test drive with two planes per die (32 blocks per plane).
void two_planes(ftl_config& c) {
  c.planes_per_die = 2;
  c.multiplane = 1;
}
void two_planes_no_hold(ftl_config& c) {
  two_planes(c);
  c.mp_hold_ns = 0;
}
void two_planes_off(ftl_config& c) { c.planes_per_die = 2; }
void two_planes_paired(ftl_config& c) {
  two_planes(c);
  c.gc_pair_planes = 1;
}
// Little spare: GC works at its reserve, where a relocated victim does not wait for its group.
void two_planes_paired_tight(ftl_config& c) {
  two_planes_paired(c);
  c.logical_lbas = 7000;
}

// flash.multiplane_same_block: the NAND groups blocks at one block index only.
void two_planes_same_block(ftl_config& c) {
  two_planes(c);
  c.mp_same_block = 1;
}
void two_planes_same_block_paired(ftl_config& c) {
  two_planes_same_block(c);
  c.gc_pair_planes = 1;
}
void two_planes_same_block_tight(ftl_config& c) {
  two_planes_same_block_paired(c);
  c.logical_lbas = 7000;
}

struct Outcome {
  uint64_t groups, violations, mismatches, programs, self_check, erases, mp_erases, paired;
  uint64_t index_fallbacks, index_splits;
};

// Random single-LBA writes, two drive-writes' worth (GC runs), then reads of
// every LBA against the scoreboard.
Outcome random_writes(void (*tune)(ftl_config&)) {
  Device d(tune);
  EXPECT_EQ(d.init(), 0);
  std::mt19937_64 rng(7);
  const uint64_t n = d.cfg.logical_lbas;
  for (uint64_t i = 0; i < 2 * n; ++i) {
    d.write(rng() % n, 1);
    d.hal->now_ns += 5000;  // 5 us between writes: the hold bound is measured in firmware time
  }
  EXPECT_EQ(ftl_func_flush(d.f), 0);
  const ftl_stats* st = ftl_get_stats(d.f);
  Outcome o{d.hal->multiplane_groups,      d.hal->violations,  d.mismatches(0, n),       st->programs,
            uint64_t(ftl_self_check(d.f)), st->erases,         d.hal->multiplane_erases, st->gc_paired,
            st->mp_index_fallbacks,        st->mp_index_splits};
  for (uint32_t i = 0; i < d.cfg.gc_max_active; ++i) EXPECT_EQ(d.f->jobs[i].pair_wait, 0u) << "job " << i;
  EXPECT_EQ(d.f->mp_held, 0u) << "a flush leaves no page held";
  EXPECT_EQ(d.f->programs_inflight, 0u);
  return o;
}

}  // namespace

// A group the rules allow runs as one; one that names a plane twice, mixes
// page offsets or has more members than the die has planes completes every
// member with its status and counts one violation, as in the flash model.
// (A group cannot span dies: plane descriptors wait per die for the plain
// descriptor of that die, in the model as here.)
TEST(MultiplaneFakeHal, ChecksTheNandRulesOfAGroup) {
  Device d(two_planes_off);
  ASSERT_EQ(d.init(), 0);
  const uint32_t ppb = d.cfg.pages_per_block, buf = d.f->bufs[0].dram;
  // Free blocks 0 and 1 of die 0 are on planes 0 and 1: a legal erase pair.
  flash_submit(d.f, FC_OP_PLANE_ERASE, TAG(TAG_ERASE, 0), 0, 0, 0);
  flash_submit(d.f, FC_OP_ERASE, TAG(TAG_ERASE, 1), 1, 0, 0);
  flash_doorbell(d.f);
  EXPECT_EQ(d.hal->multiplane_groups, 1u);
  EXPECT_EQ(d.hal->violations, 0u);
  // The same plane twice (blocks 2 and 4 of die 0 are both on plane 0).
  flash_submit(d.f, FC_OP_PLANE_ERASE, TAG(TAG_ERASE, 2), 2, 0, 0);
  flash_submit(d.f, FC_OP_ERASE, TAG(TAG_ERASE, 4), 4, 0, 0);
  flash_doorbell(d.f);
  EXPECT_EQ(d.hal->multiplane_violations, 1u);
  // Reads at different page offsets (page 0 of block 0, page 1 of block 1).
  flash_submit(d.f, FC_OP_PLANE_READ, TAG(TAG_GC_READ, 0), 0 * ppb + 0, 1, buf);
  flash_submit(d.f, FC_OP_READ, TAG(TAG_GC_READ, 0), 1 * ppb + 1, 1, buf);
  flash_doorbell(d.f);
  EXPECT_EQ(d.hal->multiplane_violations, 2u);
  // The same pages at one offset are legal.
  flash_submit(d.f, FC_OP_PLANE_READ, TAG(TAG_GC_READ, 0), 0 * ppb + 1, 1, buf);
  flash_submit(d.f, FC_OP_READ, TAG(TAG_GC_READ, 0), 1 * ppb + 1, 1, buf);
  flash_doorbell(d.f);
  EXPECT_EQ(d.hal->multiplane_groups, 2u);
  // More members than planes: three plane opcodes on one die.
  for (uint32_t b : {2u, 3u, 5u}) flash_submit(d.f, FC_OP_PLANE_ERASE, TAG(TAG_ERASE, b), b, 0, 0);
  flash_doorbell(d.f);
  EXPECT_EQ(d.hal->multiplane_violations, 3u);
  EXPECT_EQ(d.hal->violations, 3u);
  EXPECT_EQ(d.hal->multiplane_groups, 2u);
}

// The firmware's groups are legal and data survives GC, with and without
// holding pages for their plane siblings; with the switch off no group is
// formed. (Here every completion is posted at the doorbell, so a die is
// rarely still programming when the next page fills and few pages are held:
// what holding does to timing is checked on the flash model,
// testbench/platform/multiplane_run_test.cpp.)
TEST(MultiplaneFakeHal, GroupsAreLegalAndKeepData) {
  const Outcome hold = random_writes(two_planes);
  const Outcome nohold = random_writes(two_planes_no_hold);
  const Outcome off = random_writes(two_planes_off);
  for (const Outcome* o : {&hold, &nohold, &off}) {
    EXPECT_EQ(o->violations, 0u);
    EXPECT_EQ(o->mismatches, 0u);
    EXPECT_EQ(o->self_check, 0u);
    EXPECT_GT(o->programs, 6000u) << "test premise: GC relocates (6,000 pages of host data)";
  }
  EXPECT_EQ(off.groups, 0u);
  EXPECT_GT(nohold.groups, 0u);
  EXPECT_GT(hold.groups, 0u);
}

// ftl.gc.pair_planes: a victim's siblings at its block offset in the die's
// other planes are collected with it and erased together, as one
// multi-plane erase the fake HAL checks against the NAND rules; the data
// survives. Without it, multi-plane erases form only by chance.
TEST(MultiplaneFakeHal, PairedVictimsEraseTogether) {
  const Outcome on = random_writes(two_planes_paired);
  const Outcome off = random_writes(two_planes);
  const Outcome tight = random_writes(two_planes_paired_tight);
  for (const Outcome* o : {&on, &off, &tight}) {
    EXPECT_EQ(o->violations, 0u);
    EXPECT_EQ(o->mismatches, 0u);
    EXPECT_EQ(o->self_check, 0u);
    EXPECT_GT(o->erases, 100u) << "test premise: GC runs";
  }
  EXPECT_EQ(off.paired, 0u);
  EXPECT_GT(on.paired, 0u);
  EXPECT_GT(on.mp_erases, 2 * off.mp_erases + 10) << "paired victims' erases go as multi-plane erases";
}

// flash.multiplane_same_block: with the rule, the fake HAL refuses groups
// whose blocks are at different block indices (as the flash model does), and
// the firmware's frontiers open a die's planes at one index, so none of its
// groups breaks it; data survives GC, victim pairing and a nearly full drive
// (where a matching free block is sometimes missing: the frontier then opens
// another and counts it). The same firmware without the rule, on a NAND that
// has it, is refused: the check can fail.
TEST(MultiplaneFakeHal, SameBlockIndexRuleIsHonoured) {
  const Outcome on = random_writes(two_planes_same_block);
  const Outcome paired = random_writes(two_planes_same_block_paired);
  const Outcome tight = random_writes(two_planes_same_block_tight);
  const Outcome off = random_writes(two_planes);
  for (const Outcome* o : {&on, &paired, &tight}) {
    EXPECT_EQ(o->violations, 0u);
    EXPECT_EQ(o->mismatches, 0u);
    EXPECT_EQ(o->self_check, 0u);
    EXPECT_GT(o->erases, 100u) << "test premise: GC runs";
    EXPECT_GT(o->groups, 20u) << "the planes still program together";
  }
  EXPECT_GT(paired.mp_erases, 0u);
  EXPECT_EQ(off.index_fallbacks + off.index_splits, 0u) << "counted only under the rule";
  EXPECT_GT(tight.index_fallbacks, 0u) << "nearly full: a matching free block is sometimes missing";
  std::printf(
      "same block index: groups %llu/%llu/%llu (rule off %llu), fallbacks %llu/%llu/%llu, splits %llu/%llu/%llu\n",
      (unsigned long long)on.groups, (unsigned long long)paired.groups, (unsigned long long)tight.groups,
      (unsigned long long)off.groups, (unsigned long long)on.index_fallbacks,
      (unsigned long long)paired.index_fallbacks, (unsigned long long)tight.index_fallbacks,
      (unsigned long long)on.index_splits, (unsigned long long)paired.index_splits,
      (unsigned long long)tight.index_splits);

  Device d(two_planes);  // the firmware does not know the rule; the NAND has it
  ASSERT_EQ(d.init(), 0);
  ftl_config nand = d.cfg;
  nand.mp_same_block = 1;
  d.hal->set_geometry(nand);
  std::mt19937_64 rng(7);
  for (uint64_t i = 0; i < 4 * d.cfg.logical_lbas && d.hal->multiplane_violations == 0; ++i) {
    const uint64_t lba = rng() % d.cfg.logical_lbas;
    const uint32_t t = ftltest::token_of(lba, 1);
    if (ftl_func_write_stream(d.f, lba, 1, &t, 0) != 0) break;
  }
  EXPECT_GT(d.hal->multiplane_violations, 0u);
}
