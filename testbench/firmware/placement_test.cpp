// placement_test.cpp - write classes: the hotness policies, host streams,
// erase-count block choice and wear migration (firmware/ftl/place.c).
#include <gtest/gtest.h>

#include <random>
#include <set>
#include <string>
#include <vector>

#include "ftl_device.h"

namespace {

using ftltest::Device;

// 6000 LBAs in 30 slices of 200; periods of 1 ms of fake time.
void haml_tune(ftl_config& c) {
  c.placement = FTL_PLACE_HAML;
  c.hot_classes = 3;
  c.hot_slice_lbas = 200;
  c.hot_period_ns = 1000000;
  c.write_buffer_pages = 16;
}

// The blocks currently holding LBAs [lba, lba + n).
std::set<uint32_t> blocks_of(const Device& d, uint64_t lba, uint64_t n) {
  std::set<uint32_t> out;
  for (uint64_t l = lba; l < lba + n; ++l) {
    const uint32_t p = ftl_lookup(d.f, l);
    if (p != 0xffffffffu) out.insert(row_block(d.f, ppa_row(d.f, p)));
  }
  return out;
}

bool disjoint(const std::set<uint32_t>& a, const std::set<uint32_t>& b) {
  for (uint32_t x : a)
    if (b.count(x)) return false;
  return true;
}

TEST(PlacementConfig, FrontiersNeedWriteBuffers) {
  ftl_config c;
  ftl_config_default(&c);
  c.placement = FTL_PLACE_HAML;
  c.hot_classes = 8;
  c.write_buffer_pages = 17;  // 8 classes + GC = 9 frontiers: 18 needed
  char msg[256];
  ASSERT_NE(ftl_config_check(&c, msg, sizeof msg), 0);
  EXPECT_NE(std::string(msg).find("write_buffer_pages"), std::string::npos) << msg;
  c.write_buffer_pages = 18;
  EXPECT_EQ(ftl_config_check(&c, msg, sizeof msg), 0) << msg;
  c.hot_classes = 9;
  ASSERT_NE(ftl_config_check(&c, msg, sizeof msg), 0);
  EXPECT_NE(std::string(msg).find("hot_classes"), std::string::npos) << msg;
  c.hot_classes = 6;
  c.placement = 6;
  EXPECT_NE(ftl_config_check(&c, msg, sizeof msg), 0);
}

TEST(Placement, HamlSeparatesHotFromColdSlicesAfterAPeriod) {
  Device d(haml_tune);
  ASSERT_EQ(d.init(), 0);
  EXPECT_EQ(ftl_classes(d.f), 3u);
  d.write(0, 6000);  // fill: before the first period ends everything is cold
  EXPECT_EQ(ftl_class_of(d.f, 0), 2u);
  d.hal->now_ns += 1000000;
  d.write(5990, 1);  // closes the fill's period (every slice written at t=0)
  ASSERT_EQ(ftl_get_stats(d.f)->cluster_runs, 1u);
  // Period 1: slices 0-1 rewritten often and at short intervals; 10-11 once.
  for (int i = 0; i < 200; ++i) {
    d.hal->now_ns += 4000;
    d.write(uint64_t(i * 2 % 400), 1);
  }
  d.write(2000, 4);
  d.write(2200, 4);
  d.hal->now_ns += 1000000;
  d.write(5990, 1);  // the first write after T closes the period and clusters
  EXPECT_EQ(ftl_get_stats(d.f)->cluster_runs, 2u);
  EXPECT_EQ(ftl_class_of(d.f, 0), 0u) << "the most updated slice is the hottest class";
  EXPECT_EQ(ftl_class_of(d.f, 250), 0u);
  EXPECT_EQ(ftl_class_of(d.f, 5000), 2u) << "an untouched slice is the coldest class";
  // New writes of hot and cold slices land in different blocks.
  d.write(0, 64);
  d.write(5000, 64);
  EXPECT_TRUE(disjoint(blocks_of(d, 0, 64), blocks_of(d, 5000, 64)));
  const ftl_stats* s = ftl_get_stats(d.f);
  EXPECT_GE(s->class_lba_writes[0], 64u);
  EXPECT_GE(s->class_lba_writes[2], 64u);
  EXPECT_EQ(d.mismatches(0, 6000), 0u);
  EXPECT_EQ(ftl_self_check(d.f), 0u);
}

TEST(Placement, HotisUsesConstantThresholds) {
  Device d([](ftl_config& c) {
    haml_tune(c);
    c.placement = FTL_PLACE_HOTIS;
    c.hotis_min_writes = 3;
    c.hotis_max_interval_ns = 100000;
  });
  ASSERT_EQ(d.init(), 0);
  EXPECT_EQ(ftl_classes(d.f), 2u);
  // slice 0: 5 writes 10 us apart (hot); slice 1: 5 writes 300 us apart
  // (frequent but too slow); slice 2: 2 writes 1 us apart (too few).
  for (int i = 0; i < 5; ++i) {
    d.hal->now_ns += 10000;
    d.write(0, 1);
  }
  for (int i = 0; i < 2; ++i) {
    d.hal->now_ns += 1000;
    d.write(400, 1);
  }
  d.hal->now_ns = 0;
  for (int i = 0; i < 3; ++i) {
    d.hal->now_ns += 300000;
    d.write(200, 1);
  }
  d.hal->now_ns = 1000001;
  d.write(5990, 1);
  EXPECT_EQ(ftl_class_of(d.f, 0), 0u);
  EXPECT_EQ(ftl_class_of(d.f, 200), 1u);
  EXPECT_EQ(ftl_class_of(d.f, 400), 1u);
}

TEST(Placement, AsaClustersOnFrequencyOnly) {
  Device d([](ftl_config& c) {
    haml_tune(c);
    c.placement = FTL_PLACE_ASA;
  });
  ASSERT_EQ(d.init(), 0);
  EXPECT_EQ(ftl_classes(d.f), 3u);
  // Three frequency levels: slice 0 x60, slice 1 x30, others x0-1.
  for (int i = 0; i < 60; ++i) {
    d.hal->now_ns += 1000;
    d.write(0, 1);
    if (i % 2 == 0) d.write(200, 1);
  }
  d.hal->now_ns = 2000000;
  d.write(5990, 1);
  EXPECT_EQ(ftl_class_of(d.f, 0), 0u);
  EXPECT_EQ(ftl_class_of(d.f, 200), 1u);
  EXPECT_EQ(ftl_class_of(d.f, 3000), 2u);
}

// Slices 0-3 and 4-7 take four writes each in the period, 0-3 at its start
// (UpdateT 1 us), 4-7 near its end (UpdateT 240 us); the others none. On
// (UpdateF, UpdateT) K-Means puts the two groups in different classes; with
// ftl.hot.features freq (UpdateF alone) equal frequencies share a class.
class HamlFeatures : public ::testing::TestWithParam<uint32_t> {};

TEST_P(HamlFeatures, EqualFrequencyDifferentIntervals) {
  static uint32_t features;
  features = GetParam();
  Device d([](ftl_config& c) {
    haml_tune(c);
    c.hot_features = features;
  });
  ASSERT_EQ(d.init(), 0);
  for (int w = 1; w <= 4; ++w) {
    d.hal->now_ns = uint64_t(w) * 1000;
    for (uint64_t s = 0; s < 4; ++s) d.write(s * 200, 1);
  }
  for (int w = 1; w <= 4; ++w) {
    d.hal->now_ns = 900000 + uint64_t(w) * 15000;
    for (uint64_t s = 4; s < 8; ++s) d.write(s * 200, 1);
  }
  d.hal->now_ns = 1000001;
  d.write(5990, 1);  // closes the period
  ASSERT_EQ(ftl_get_stats(d.f)->cluster_runs, 1u);
  EXPECT_EQ(ftl_class_of(d.f, 0), 0u) << "frequent and short intervals: the hottest class";
  EXPECT_EQ(ftl_class_of(d.f, 600), ftl_class_of(d.f, 0));
  EXPECT_EQ(ftl_class_of(d.f, 1400), ftl_class_of(d.f, 800));
  EXPECT_EQ(ftl_class_of(d.f, 5000), 2u) << "an untouched slice is the coldest class";
  if (features == FTL_HOT_FREQ)
    EXPECT_EQ(ftl_class_of(d.f, 800), ftl_class_of(d.f, 0)) << "UpdateF alone: equal frequencies, one class";
  else
    EXPECT_EQ(ftl_class_of(d.f, 800), 1u) << "UpdateT separates the late writers";
}

INSTANTIATE_TEST_SUITE_P(Features, HamlFeatures, ::testing::Values(FTL_HOT_FREQ_INTERVAL, FTL_HOT_FREQ),
                         [](const ::testing::TestParamInfo<uint32_t>& i) {
                           return std::string(i.param == FTL_HOT_FREQ ? "freq" : "freq_interval");
                         });

TEST(Placement, StreamsPickTheClassAndBadStreamsAreRefused) {
  Device d([](ftl_config& c) {
    c.placement = FTL_PLACE_STREAM;
    c.hot_classes = 4;
    c.write_buffer_pages = 10;
  });
  ASSERT_EQ(d.init(), 0);
  d.write(0, 64, 1);
  d.write(1000, 64, 4);
  d.write(2000, 64, 0);  // no stream: the coldest class
  EXPECT_TRUE(disjoint(blocks_of(d, 0, 64), blocks_of(d, 1000, 64)));
  const ftl_stats* s = ftl_get_stats(d.f);
  EXPECT_EQ(s->class_lba_writes[0], 64u);
  EXPECT_EQ(s->class_lba_writes[3], 128u);
  uint32_t t = 5;
  EXPECT_EQ(ftl_func_write_stream(d.f, 0, 1, &t, FTL_MAX_CLASSES + 1), -1);
}

// Every placement keeps data intact under random overwrites with GC.
struct PlaceCase {
  const char* name;
  uint32_t placement, gc_placement, block_choice, wear_threshold;
};
class PlacementIntegrity : public ::testing::TestWithParam<PlaceCase> {};

TEST_P(PlacementIntegrity, RandomOverwritesWithMovingTimeKeepIntegrity) {
  static PlaceCase pc;
  pc = GetParam();
  Device d([](ftl_config& c) {
    haml_tune(c);
    c.placement = pc.placement;
    c.gc_placement = pc.gc_placement;
    c.block_choice = pc.block_choice;
    c.wear_threshold = pc.wear_threshold;
    c.wear_check_erases = 16;
    c.hot_period_ns = 200000;
    c.blocks_per_die = 72;
  });
  ASSERT_EQ(d.init(), 0);
  d.write(0, uint32_t(d.cfg.logical_lbas));
  std::mt19937_64 rng(11);
  for (int i = 0; i < 40000; ++i) {
    d.hal->now_ns += 1000;
    // 80 % of writes to the first 1,200 LBAs
    const uint64_t lba = rng() % 10 < 8 ? rng() % 1200 : rng() % (d.cfg.logical_lbas - 4);
    d.write(lba, 1 + uint32_t(rng() % 4), uint32_t(rng() % 4));
  }
  const ftl_stats* s = ftl_get_stats(d.f);
  EXPECT_GT(s->gc_victims, 100u);
  EXPECT_EQ(s->flash_errors, 0u);
  EXPECT_EQ(d.hal->violations, 0u);
  EXPECT_EQ(d.mismatches(0, d.cfg.logical_lbas), 0u);
  EXPECT_EQ(ftl_self_check(d.f), 0u);
  if (pc.wear_threshold) {
    EXPECT_GT(s->wear_victims, 0u);
  }
}

INSTANTIATE_TEST_SUITE_P(AllPlacements, PlacementIntegrity,
                         ::testing::Values(PlaceCase{"single", FTL_PLACE_SINGLE, 0, 0, 0},
                                           PlaceCase{"double", FTL_PLACE_DOUBLE, 0, 0, 0},
                                           PlaceCase{"hotis", FTL_PLACE_HOTIS, 0, 0, 0},
                                           PlaceCase{"asa", FTL_PLACE_ASA, 0, 0, 0},
                                           PlaceCase{"haml", FTL_PLACE_HAML, 0, 0, 0},
                                           PlaceCase{"haml_gc_cluster", FTL_PLACE_HAML, FTL_GC_PLACE_CLUSTER, 0, 0},
                                           PlaceCase{"haml_wear", FTL_PLACE_HAML, 0, FTL_BLOCK_ERASE_COUNT, 4},
                                           PlaceCase{"stream", FTL_PLACE_STREAM, 0, FTL_BLOCK_ERASE_COUNT, 0}),
                         [](const ::testing::TestParamInfo<PlaceCase>& i) { return std::string(i.param.name); });

// Wear levelling: with erase-count block choice and migration the erase
// counts stay within the threshold plus what one check interval can add;
// without either, a hot/cold workload spreads them much further.
uint32_t spread_after_hot_cold(uint32_t block_choice, uint32_t threshold) {
  static uint32_t bc, th;
  bc = block_choice;
  th = threshold;
  Device d([](ftl_config& c) {
    haml_tune(c);
    c.placement = FTL_PLACE_DOUBLE;
    c.block_choice = bc;
    c.wear_threshold = th;
    c.wear_check_erases = 8;
    c.blocks_per_die = 72;
  });
  EXPECT_EQ(d.init(), 0);
  d.write(0, uint32_t(d.cfg.logical_lbas));
  std::mt19937_64 rng(3);
  for (int i = 0; i < 120000; ++i) d.write(rng() % 600, 1);  // 10 % of the space takes every write
  uint32_t lo, hi;
  double mean;
  ftl_erase_spread(d.f, &lo, &mean, &hi);
  EXPECT_EQ(d.mismatches(0, d.cfg.logical_lbas), 0u);
  return hi - lo;
}

TEST(Wear, MigrationBoundsTheEraseCountSpread) {
  const uint32_t without = spread_after_hot_cold(FTL_BLOCK_FIFO, 0);
  const uint32_t with = spread_after_hot_cold(FTL_BLOCK_ERASE_COUNT, 10);
  RecordProperty("spread_without", std::to_string(without));
  RecordProperty("spread_with", std::to_string(with));
  EXPECT_GT(without, 30u);
  EXPECT_LE(with, 10u + 4u) << "spread without levelling: " << without;
}

}  // namespace
