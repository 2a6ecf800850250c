// cmt_test.cpp - the cached mapping table (ftl.mapping: cached, cmt.c) on a
// tiny drive: hits, misses, evictions and write-back by hand; integrity and
// translation GC under data GC with a small cache; the entries as bytes in
// flash and the DRAM they no longer take; trims through the log; configuration.
#include <gtest/gtest.h>

#include <cinttypes>
#include <cstdio>
#include <cstring>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "ftl_device.h"

using ftltest::Device;
using ftltest::token_of;

namespace {

// 8 entries per translation page, 4 cached entries.
void tiny_cache(ftl_config& c) {
  c.mapping = FTL_MAP_CACHED;
  c.cmt_entries = 4;
  c.cmt_tp_entries = 8;
  c.logical_lbas = 2000;  // 250 translation pages, 16 blocks of them
}

// 32 entries per translation page (188 pages on 6000 LBAs, 26 translation
// blocks of 16 pages), 32 cached entries: translation GC runs often.
void small_cache(ftl_config& c) {
  c.mapping = FTL_MAP_CACHED;
  c.cmt_entries = 32;
  c.cmt_tp_entries = 32;
}

}  // namespace

TEST(Cmt, HitsMissesEvictionAndBatchedWriteBackByHand) {
  Device d(tiny_cache);
  ASSERT_EQ(d.init(), 0);
  const ftl_stats* s = ftl_get_stats(d.f);
  // Four LBAs of translation page 0, never written: cold misses, no flash read.
  d.write(0, 4);
  EXPECT_EQ(s->cmt_misses, 4u);
  EXPECT_EQ(s->cmt_cold_misses, 4u);
  EXPECT_EQ(s->tp_reads, 0u);
  EXPECT_EQ(s->tp_writes, 0u);
  EXPECT_EQ(s->cmt_evictions, 0u);
  // Reading them back: four hits (LRU order now 3, 2, 1, 0; 0 is the oldest).
  EXPECT_EQ(d.mismatches(0, 4), 0u);
  EXPECT_EQ(s->cmt_hits, 4u);
  // LBA 8 (page 1) evicts LBA 0, dirty: page 0 is written back with all four
  // of its dirty entries (one program), and entries 1..3 are clean after it.
  d.write(8, 1);
  EXPECT_EQ(s->cmt_evictions, 1u);
  EXPECT_EQ(s->cmt_dirty_evictions, 1u);
  EXPECT_EQ(s->tp_writeback_entries, 4u);
  EXPECT_EQ(s->tp_writes, 1u);
  EXPECT_EQ(s->tp_reads, 0u) << "page 0 had no copy in flash: nothing to merge";
  // LBAs 9 and 10 evict LBAs 1 and 2: clean, no write-back.
  d.write(9, 2);
  EXPECT_EQ(s->cmt_evictions, 3u);
  EXPECT_EQ(s->cmt_dirty_evictions, 1u);
  EXPECT_EQ(s->tp_writes, 1u);
  // LBA 0 again: a miss that reads translation page 0 from flash.
  const uint64_t misses = s->cmt_misses;
  EXPECT_EQ(d.mismatches(0, 1), 0u);
  EXPECT_EQ(s->cmt_misses, misses + 1);
  EXPECT_EQ(s->tp_reads, 1u);
  EXPECT_EQ(ftl_self_check(d.f), 0u);
  // The write-back of page 1 (8, 9, 10 dirty) when they go: overwrite 16..19.
  d.write(16, 4);
  EXPECT_EQ(s->tp_writes, 2u);
  EXPECT_EQ(s->tp_writeback_entries, 7u);
  EXPECT_EQ(d.mismatches(0, 24), 0u);
}

// Segmented LRU (ftl.cmt.policy: slru) by hand, 4 entries, half protected:
// LBAs hit again while cached are protected and outlive newer entries seen
// once, which plain LRU evicts in order; the protected segment's least
// recent is demoted when it overflows.
TEST(Cmt, SegmentedLruKeepsEntriesHitAgainWhereLruEvictsThem) {
  for (const uint32_t policy : {uint32_t(FTL_CMT_LRU), uint32_t(FTL_CMT_SLRU)}) {
    SCOPED_TRACE(policy == FTL_CMT_SLRU ? "slru" : "lru");
    static uint32_t pol;
    pol = policy;
    Device d([](ftl_config& c) {
      tiny_cache(c);
      c.cmt_policy = pol;
      c.cmt_protected_pct = 50;
    });
    ASSERT_EQ(d.init(), 0);
    const ftl_stats* s = ftl_get_stats(d.f);
    const bool slru = policy == FTL_CMT_SLRU;
    EXPECT_EQ(d.f->cmt.prot_cap, slru ? 2u : 0u);
    d.write(0, 2);                      // 0, 1: cold misses
    EXPECT_EQ(d.mismatches(0, 2), 0u);  // hit again: protected with slru
    EXPECT_EQ(d.f->cmt.prot_used, slru ? 2u : 0u);
    d.write(8, 2);   // 8, 9: the cache is full
    d.write(16, 1);  // evicts 0 (lru) or 8 (slru: the probationary tail)
    uint64_t hits = s->cmt_hits;
    EXPECT_EQ(d.mismatches(0, 1), 0u);
    EXPECT_EQ(s->cmt_hits, hits + (slru ? 1 : 0)) << "LBA 0 still cached";
    if (slru) {
      EXPECT_EQ(d.mismatches(9, 1), 0u);  // 9 protected: 1, the least recent protected, is demoted
      EXPECT_EQ(d.f->cmt.prot_used, 2u);
      d.write(24, 1);  // evicts 16, the probationary tail, not 1 (probationary head)
      hits = s->cmt_hits;
      EXPECT_EQ(d.mismatches(1, 1), 0u);
      EXPECT_EQ(s->cmt_hits, hits + 1) << "LBA 1, demoted, still cached";
    }
    EXPECT_EQ(d.mismatches(0, 32), 0u);
    EXPECT_EQ(ftl_self_check(d.f), 0u);
  }
}

TEST(Cmt, FullTableIsUntouched) {
  Device d;
  ASSERT_EQ(d.init(), 0);
  d.write(0, 64);
  EXPECT_EQ(d.mismatches(0, 64), 0u);
  const ftl_stats* s = ftl_get_stats(d.f);
  EXPECT_EQ(s->cmt_hits + s->cmt_misses + s->tp_reads + s->tp_writes, 0u);
  ftl_config c;
  ftl_config_default(&c);
  EXPECT_EQ(c.mapping, uint32_t(FTL_MAP_FULL));
}

TEST(Cmt, IntegrityAndTranslationGcUnderDataGcWithASmallCache) {
  Device d(small_cache);
  ASSERT_EQ(d.init(), 0);
  const uint64_t n = d.cfg.logical_lbas;
  d.write(0, uint32_t(std::min<uint64_t>(n, 64)));
  for (uint64_t at = 64; at < n; at += 64) d.write(at, uint32_t(std::min<uint64_t>(64, n - at)));
  std::mt19937_64 rng(7);
  for (int i = 0; i < 4000; ++i) {
    const uint32_t len = 1 + uint32_t(rng() % 8);
    const uint64_t lba = rng() % (n - len);
    d.write(lba, len);
    if (::testing::Test::HasFailure()) return;
    if (i % 500 == 0) {
      ASSERT_EQ(d.mismatches(rng() % (n - 64), 64), 0u);
    }
  }
  const ftl_stats* s = ftl_get_stats(d.f);
  EXPECT_GT(s->gc_victims, 0u) << "data GC must run";
  EXPECT_GT(s->tp_gc_updates, 0u) << "relocated LBAs outside the cache update their translation pages";
  EXPECT_GT(s->tgc_victims, 0u) << "translation GC must run";
  EXPECT_GT(s->tgc_moves, 0u) << "its victims held current translation pages";
  EXPECT_GT(s->tgc_erases, 0u);
  EXPECT_GT(s->tp_reads, 0u);
  EXPECT_EQ(ftl_self_check(d.f), 0u);
  EXPECT_EQ(d.mismatches(0, n), 0u);
  // Every translation page holding a mapped LBA has a current copy in the region.
  const cmt& m = d.f->cmt;
  uint32_t orphans = 0;
  for (uint32_t tp = 0; tp < m.tps; ++tp) {
    const uint32_t row = m.gtd[tp];
    if (row == FTL_NONE) continue;
    const uint32_t r = m.rindex[row / d.cfg.pages_per_block];
    orphans += r == FTL_NONE || m.rtp[uint64_t(r) * d.cfg.pages_per_block + row % d.cfg.pages_per_block] != tp;
  }
  EXPECT_EQ(orphans, 0u);
}

TEST(Cmt, CacheLargerThanTheTableIsClampedAndZeroIsAnError) {
  Device big([](ftl_config& c) {
    c.mapping = FTL_MAP_CACHED;
    c.cmt_entries = 1u << 30;
  });
  ASSERT_EQ(big.init(), 0);
  EXPECT_EQ(big.f->cmt.entries, uint32_t(big.cfg.logical_lbas));
  big.write(0, 64);
  EXPECT_EQ(big.mismatches(0, 64), 0u);

  char msg[256] = "";
  ftl_config c = big.cfg;
  c.cmt_entries = 0;
  EXPECT_NE(ftl_config_check(&c, msg, sizeof msg), 0);
  EXPECT_NE(std::string(msg).find("ftl.cmt.entries"), std::string::npos) << msg;
  c = big.cfg;
  c.cmt_tp_entries = 8;
  c.cmt_translation_blocks = 3;
  EXPECT_NE(ftl_config_check(&c, msg, sizeof msg), 0);
  EXPECT_NE(std::string(msg).find("ftl.cmt.translation_blocks"), std::string::npos) << msg;
  // In full mode the cache keys are not looked at.
  c = big.cfg;
  c.mapping = FTL_MAP_FULL;
  c.cmt_translation_blocks = 3;
  EXPECT_EQ(ftl_config_check(&c, msg, sizeof msg), 0) << msg;
}

// The table the drive holds, put together as a reader of its flash would: an
// entry from the cache or the log if there, else from the bytes its
// translation page's last program stored (the fake HAL keeps the metadata
// payloads); unmapped if the page was never written.
std::vector<uint32_t> table_from_flash(const ftltest::Device& d) {
  const cmt& m = d.f->cmt;
  std::vector<uint32_t> t(d.cfg.logical_lbas, FTL_UNMAPPED);
  for (uint64_t l = 0; l < d.cfg.logical_lbas; ++l) {
    const uint32_t v = cmt_get(d.f, uint32_t(l));
    if (v != FTL_NONE) {
      t[l] = v;
      continue;
    }
    const uint32_t row = m.gtd[l / m.tp_entries];
    if (row == FTL_NONE) continue;
    const auto it = d.hal->meta.find(row);
    EXPECT_NE(it, d.hal->meta.end()) << "translation page " << l / m.tp_entries << " has no bytes on flash";
    if (it == d.hal->meta.end()) continue;
    EXPECT_EQ(it->second.size(), size_t(m.tp_entries) * 4);
    std::memcpy(&t[l], it->second.data() + (l % m.tp_entries) * 4, 4);
  }
  return t;
}

// The mapped entries of that table are exactly the valid slots of the drive.
void expect_table_matches_valid_slots(const ftltest::Device& d) {
  const std::vector<uint32_t> t = table_from_flash(d);
  uint64_t mapped = 0, valid = 0, bad = 0;
  for (const uint32_t p : t) {
    if (p >= FTL_LOST) continue;
    ++mapped;
    bad += !ppa_valid(d.f, p);
  }
  for (uint32_t b = 0; b < d.f->total_blocks; ++b) valid += d.f->blk_valid[b];
  EXPECT_EQ(bad, 0u);
  EXPECT_EQ(mapped, valid);
}

TEST(Cmt, DramHoldsNoTableAndTranslationPagesCarryTheEntries) {
  Device d([](ftl_config& c) {
    small_cache(c);
    c.cmt_log_entries = 64;  // the default 4,096 alone is larger than this tiny drive's table
  });
  ASSERT_EQ(d.init(), 0);
  EXPECT_EQ(d.f->l2p, nullptr);
  ftl_config full = d.cfg;
  full.mapping = FTL_MAP_FULL;
  // The cache (32 entries), the log (64) and the directory take less than
  // the 6000-entry table they replace.
  EXPECT_LT(ftl_dram_bytes(&d.cfg), ftl_dram_bytes(&full));
  std::mt19937_64 rng(5);
  const uint64_t n = d.cfg.logical_lbas;
  for (uint64_t at = 0; at < n; at += 64) d.write(at, uint32_t(std::min<uint64_t>(64, n - at)));
  for (int i = 0; i < 1500; ++i) {
    const uint32_t len = 1 + uint32_t(rng() % 8);
    d.write(rng() % (n - len), len);
  }
  EXPECT_EQ(d.mismatches(0, n), 0u);
  EXPECT_FALSE(d.hal->meta.empty());
  expect_table_matches_valid_slots(d);
  EXPECT_EQ(ftl_self_check(d.f), 0u);
}

// Trims of entries that are not cached wait in the log until their page is
// merged (the slot they had is invalidated then, or by GC); a small log makes
// long deallocations wait for write-backs, functionally and by NVMe command.
TEST(Cmt, TrimsOfEntriesNotCachedThroughASmallLog) {
  Device d([](ftl_config& c) {
    small_cache(c);
    c.cmt_log_entries = 16;
  });
  ASSERT_EQ(d.init(), 0);
  const uint64_t n = d.cfg.logical_lbas;
  for (uint64_t at = 0; at < n; at += 64) d.write(at, uint32_t(std::min<uint64_t>(64, n - at)));
  std::mt19937_64 rng(3);
  for (int i = 0; i < 300; ++i) {
    const uint64_t lba = rng() % (n - 300), len = 1 + rng() % 299;
    if (i % 3 == 0) {
      ASSERT_EQ(ftl_func_trim(d.f, lba, len), 0);
      for (uint64_t l = lba; l < lba + len; ++l) d.version[l] = 0;
    } else {
      d.write(lba, uint32_t(std::min<uint64_t>(len, 8)));
    }
    ASSERT_LE(d.f->cmt.lused, d.f->cmt.lcap);
  }
  ASSERT_EQ(ftl_func_flush(d.f), 0);
  const ftl_stats* s = ftl_get_stats(d.f);
  EXPECT_GT(s->gc_victims, 0u);
  EXPECT_EQ(d.mismatches(0, n), 0u);
  EXPECT_EQ(ftl_self_check(d.f), 0u);
  expect_table_matches_valid_slots(d);
  // A deallocate command of 2000 LBAs, none cached: it waits for room in the
  // log, and completes.
  d.hal->host_words.assign(1024, 0);
  nvme_dsm_range r{0, 2000, 3000};  // attributes, LBAs, first LBA
  std::memcpy(d.hal->host_words.data(), &r, sizeof r);
  nvme_sqe q{};
  q.cdw0 = SSDVP_FIELD_PUT(NVME_CDW0_OPC, NVME_OP_DSM) | SSDVP_FIELD_PUT(NVME_CDW0_CID, 7);
  q.nsid = 1;
  q.prp1 = 0;
  q.cdw10 = SSDVP_FIELD_PUT(NVME_CDW10_DSM_NR, 0);
  q.cdw11 = SSDVP_FIELD_PUT(NVME_CDW11_DSM_AD, 1);
  d.hal->nvme_submit(q);
  bool waited = false;
  for (int i = 0; i < 100000 && (ftl_poll(d.f) || ftl_busy(d.f)); ++i) waited |= d.f->cmt.trim_head != FTL_NONE;
  EXPECT_TRUE(waited) << "2000 deallocations through a 16-entry log wait for write-backs";
  ASSERT_EQ(d.hal->completions.size(), 1u);
  EXPECT_EQ(d.hal->completions[0].status, 0u);
  for (uint64_t l = 3000; l < 5000; ++l) d.version[l] = 0;
  EXPECT_EQ(d.mismatches(0, n), 0u);
  EXPECT_EQ(ftl_self_check(d.f), 0u);
}

// Power loss with the cached mapping (cmt_recover.c): the recovered drive is
// d.f (the old firmware's memory stays in `old`); the numbers its log line
// gives: LBAs newer than their translation page, LBAs looked for again.
struct Recovered {
  uint64_t newer = 0, again = 0;
};
Recovered cut_and_recover(Device& d, uint32_t plp_pages) {
  Recovered r;
  ftl_power_fail(d.f, plp_pages);
  std::unique_ptr<uint8_t[]> mem(new uint8_t[ftl_size()]);
  ftl* g = reinterpret_cast<ftl*>(mem.get());
  const int rc = ftl_recover(g, d.hal->hal(), &d.cfg);
  EXPECT_EQ(rc, 0) << d.hal->log_lines.back();
  if (rc) return r;
  d.mem.swap(mem);
  d.f = g;
  const std::string& l = d.hal->log_lines.back();
  const size_t at = l.find("translation blocks found, ");
  EXPECT_NE(at, std::string::npos) << l;
  if (at != std::string::npos) {
    EXPECT_EQ(std::sscanf(l.c_str() + at,
                          "translation blocks found, %" SCNu64 " LBAs newer than their translation page, %" SCNu64,
                          &r.newer, &r.again),
              2)
        << l;
  }
  return r;
}

void fill_and_churn(Device& d, uint32_t seed, int writes) {
  const uint64_t n = d.cfg.logical_lbas;
  for (uint64_t at = 0; at < n; at += 64) d.write(at, uint32_t(std::min<uint64_t>(64, n - at)));
  std::mt19937_64 rng(seed);
  for (int i = 0; i < writes && !::testing::Test::HasFailure(); ++i) {
    const uint32_t len = 1 + uint32_t(rng() % 8);
    d.write(rng() % (n - len), len);
  }
}

// With power-loss protection (the partly filled pages programmed) every
// write reads back: the directory from the translation pages, the LBAs whose
// entries were dirty in the cache or pending in the log from the data pages'
// OOB. The recovered drive goes on (data GC, translation GC) and is cut again.
TEST(CmtRecovery, WithPlpEveryLbaReadsItsLatestVersionAndTheDriveGoesOn) {
  Device d(small_cache, 512 * 1024);
  ASSERT_EQ(d.init(), 0);
  const uint64_t n = d.cfg.logical_lbas;
  for (uint32_t round = 0; round < 2; ++round) {
    fill_and_churn(d, 11 + round, 2000);
    const uint64_t tgc = ftl_get_stats(d.f)->tgc_victims;
    EXPECT_GT(tgc, 0u);
    const Recovered r = cut_and_recover(d, 64);
    if (::testing::Test::HasFailure()) return;
    const ftl_stats* s = ftl_get_stats(d.f);
    EXPECT_GT(r.newer, 0u) << "the cache held dirty entries at the cut";
    EXPECT_EQ(r.again, 0u) << "every page was programmed: no entry names a lost one";
    EXPECT_EQ(s->recovery_dropped, 0u);
    EXPECT_GT(s->tp_writes, 0u) << "translation pages with newer LBAs are written anew";
    EXPECT_EQ(ftl_self_check(d.f), 0u);
    expect_table_matches_valid_slots(d);
    EXPECT_EQ(d.mismatches(0, n), 0u);
  }
  fill_and_churn(d, 99, 1500);
  EXPECT_GT(ftl_get_stats(d.f)->gc_victims, 0u);
  EXPECT_EQ(d.mismatches(0, n), 0u);
  EXPECT_EQ(ftl_self_check(d.f), 0u);
}

// Without it the pages in buffers are lost: an LBA written since the last
// flush reads that write or an older one, never less than what the flush
// made durable and never another LBA's data. A translation page written back
// while a write it maps was still in a buffer names a page that is not there:
// recovery looks for the LBA's newest older copy in the data pages.
TEST(CmtRecovery, WithoutPlpAWriteLostReadsAnOlderVersionNeverLessThanFlushed) {
  Device d(tiny_cache, 512 * 1024);
  ASSERT_EQ(d.init(), 0);
  const uint64_t n = d.cfg.logical_lbas;
  uint64_t again = 0;
  for (uint32_t round = 0; round < 3; ++round) {
    fill_and_churn(d, 21 + round, 300);
    ASSERT_EQ(ftl_func_flush(d.f), 0);
    const std::vector<uint32_t> flushed = d.version;
    std::mt19937_64 rng(31 + round);
    for (int i = 0; i < 41; ++i) d.write(rng() % (n - 1), 1);  // the last one waits in a page buffer
    // Reads of other translation pages evict its dirty entry: its page is
    // written back naming the slot in the buffer.
    for (int i = 0; i < 8; ++i) EXPECT_EQ(d.mismatches(rng() % (n - 1), 1), 0u);
    const Recovered r = cut_and_recover(d, 0);
    if (::testing::Test::HasFailure()) return;
    again += r.again;
    EXPECT_EQ(ftl_self_check(d.f), 0u);
    expect_table_matches_valid_slots(d);
    uint64_t older = 0, bad = 0;
    std::vector<uint32_t> t(64);
    for (uint64_t at = 0; at < n; at += 64) {
      const uint32_t k = uint32_t(std::min<uint64_t>(64, n - at));
      ASSERT_EQ(ftl_func_read(d.f, at, k, t.data()), 0);
      for (uint32_t i = 0; i < k; ++i) {
        const uint64_t l = at + i;
        const auto want = [&](uint32_t v) { return v ? token_of(l, v) : SSDVP_TOKEN_DEALLOCATED; };
        uint32_t v = d.version[l];
        while (v > flushed[l] && t[i] != want(v)) --v;
        if (t[i] != want(v)) {
          ++bad;
          continue;
        }
        older += v != d.version[l];
        d.version[l] = v;  // what the drive holds now
      }
    }
    EXPECT_EQ(bad, 0u);
    EXPECT_GT(older, 0u) << "writes in buffers were lost";
  }
  EXPECT_GT(again, 0u) << "a translation page named a write that was lost";
}

TEST(Cmt, CheckpointsAreAnErrorWithTheCachedMapping) {
  Device d(small_cache, 64 * 1024);
  ASSERT_EQ(d.init(), 0);
  char msg[256] = "";
  ftl_config c = d.cfg;
  c.ckpt_interval_lbas = 1000;
  EXPECT_NE(ftl_config_check(&c, msg, sizeof msg), 0);
  EXPECT_NE(std::string(msg).find("power.checkpoint"), std::string::npos) << msg;
}
