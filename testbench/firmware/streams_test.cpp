// streams_test.cpp - the stream placement keeps one open block per stream
// per die while GC and wear levelling run (firmware/ftl/place.c, alloc.c),
// and the Streams directive's admission rules and Release Identifier
// (firmware/ftl/directives.c).
#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "ftl_device.h"

namespace {

using ftltest::Device;

void stream_tune(ftl_config& c) {
  c.placement = FTL_PLACE_STREAM;
  c.hot_classes = 8;
  c.write_buffer_pages = 20;
  c.blocks_per_die = 96;
  c.block_choice = FTL_BLOCK_ERASE_COUNT;
  c.wear_threshold = 4;
  c.wear_check_erases = 8;
}

// Checks, for every host stream frontier: per die at most one open block, on
// that die, in state OPEN, no block shared between two (frontier, die)
// slots, every OPEN block owned by one slot, and every valid LBA in a
// stream's open block last written with that stream. Returns the number of
// violations (and reports the first few).
uint32_t check_open_blocks(const Device& d, const std::vector<uint8_t>& last_stream) {
  const ftl* f = d.f;
  uint32_t bad = 0;
  std::map<uint32_t, std::pair<uint32_t, uint32_t>> owner;  // block -> (frontier, die)
  const uint32_t nfr = f->classes + (f->gc_fr != FTL_NONE && f->gc_fr == f->classes ? 1u : 0u);
  for (uint32_t i = 0; i < nfr; ++i)
    for (uint32_t die = 0; die < f->dies; ++die) {
      const uint32_t b = f->fr[i].open_block[die];
      if (b == FTL_NONE) continue;
      if (block_die(f, b) != die) {
        ++bad;
        ADD_FAILURE() << "frontier " << i << " die " << die << " holds block " << b << " of die " << block_die(f, b);
      }
      if (f->blk_state[b] != BLK_OPEN) {
        ++bad;
        ADD_FAILURE() << "frontier " << i << " open block " << b << " is in state " << int(f->blk_state[b]);
      }
      if (!owner.emplace(b, std::make_pair(i, die)).second) {
        ++bad;
        ADD_FAILURE() << "block " << b << " open in two frontiers (" << owner[b].first << " and " << i << ")";
      }
    }
  for (uint32_t b = 0; b < f->total_blocks; ++b)
    if (f->blk_state[b] == BLK_OPEN && !owner.count(b) && f->blk_wp[b] < f->cfg.pages_per_block) {
      ++bad;
      ADD_FAILURE() << "block " << b << " is open but no frontier writes it";
    }
  // segregation: a host stream's open block holds only that stream's data
  for (uint64_t lba = 0; lba < d.cfg.logical_lbas; ++lba) {
    const uint32_t p = f->l2p[lba];
    if (p == FTL_UNMAPPED) continue;
    auto it = owner.find(row_block(f, ppa_row(f, p)));
    if (it == owner.end() || it->second.first >= f->classes) continue;
    if (last_stream[lba] != it->second.first + 1) {
      ++bad;
      if (bad < 5)
        ADD_FAILURE() << "LBA " << lba << " of stream " << int(last_stream[lba]) << " sits in the open block of stream "
                      << it->second.first + 1;
    }
  }
  return bad;
}

TEST(StreamPlacement, OneOpenBlockPerStreamPerDieUnderGcAndWearLevelling) {
  Device d(stream_tune);
  ASSERT_EQ(d.init(), 0);
  std::vector<uint8_t> last(d.cfg.logical_lbas, 0);
  for (uint64_t l = 0; l < d.cfg.logical_lbas; l += 64) {
    const uint32_t n = uint32_t(std::min<uint64_t>(64, d.cfg.logical_lbas - l));
    d.write(l, n, 8);
    for (uint32_t i = 0; i < n; ++i) last[l + i] = 8;
  }
  std::mt19937_64 rng(5);
  uint32_t violations = 0;
  for (int i = 0; i < 60000; ++i) {
    // stream s writes its own region; hot streams (low IDs) get most writes
    const uint32_t s =
        1 + uint32_t(std::min<uint64_t>(7, uint64_t(-std::log(1.0 - double(rng() % 1000) / 1000.0) * 2)));
    const uint64_t region = d.cfg.logical_lbas / 8;
    const uint64_t lba = (s - 1) * region + rng() % (region - 4);
    const uint32_t n = 1 + uint32_t(rng() % 4);
    d.write(lba, n, s);
    for (uint32_t k = 0; k < n; ++k) last[lba + k] = uint8_t(s);
    if (i % 2000 == 1999) violations += check_open_blocks(d, last);
    if (violations > 10) break;
  }
  const ftl_stats* st = ftl_get_stats(d.f);
  EXPECT_EQ(violations, 0u);
  EXPECT_GT(st->gc_victims, 200u);  // GC ran
  EXPECT_GT(st->wear_victims, 0u);  // and wear levelling moved data
  EXPECT_EQ(d.hal->violations, 0u);
  EXPECT_EQ(d.mismatches(0, d.cfg.logical_lbas), 0u);
  EXPECT_EQ(ftl_self_check(d.f), 0u);
  for (uint32_t c = 0; c < 8; ++c) EXPECT_GT(st->class_lba_writes[c], 0u) << "class " << c;
}

TEST(StreamsDirective, WriteAdmissionFollowsEnableAllocateAndRelease) {
  Device d(stream_tune);
  d.cfg.streams_limit = 4;
  ASSERT_EQ(d.init(), 0);
  ftl* f = d.f;
  EXPECT_EQ(streams_write_check(f, 1), NVME_SC_INVALID_FIELD);  // not enabled
  f->streams.enabled = 1;
  EXPECT_EQ(streams_write_check(f, 1), NVME_SC_STREAM_ALLOC_FAILED);  // nothing allocated
  f->streams.allocated = 2;
  EXPECT_EQ(streams_write_check(f, 0), NVME_SC_INVALID_FIELD);
  EXPECT_EQ(streams_write_check(f, 5), NVME_SC_INVALID_FIELD);  // above the limit
  EXPECT_EQ(streams_write_check(f, 4), NVME_SC_SUCCESS);
  EXPECT_EQ(streams_write_check(f, 2), NVME_SC_SUCCESS);
  EXPECT_EQ(streams_write_check(f, 4), NVME_SC_SUCCESS);              // already open
  EXPECT_EQ(streams_write_check(f, 3), NVME_SC_STREAM_ALLOC_FAILED);  // two of two open
  EXPECT_EQ(f->streams.open_mask, (1u << 3) | (1u << 1));
}

// Preconditioning's functional writes: the identifier's range is checked
// against ftl.streams.limit (an error above it, named in the log), the
// directive's state is neither consulted nor changed (no NVMe command: the
// host enables and allocates streams when its replay starts), and a write
// with a valid identifier goes to that stream's frontier.
TEST(StreamsDirective, FunctionalWritesCheckTheLimitOnly) {
  Device d(stream_tune);
  d.cfg.streams_limit = 4;
  ASSERT_EQ(d.init(), 0);
  ftl* f = d.f;
  std::vector<uint32_t> t(4, 7);
  EXPECT_NE(ftl_func_write_stream(f, 0, 4, t.data(), 5), 0);
  ASSERT_FALSE(d.hal->log_lines.empty());
  EXPECT_NE(d.hal->log_lines.back().find("ftl.streams.limit"), std::string::npos) << d.hal->log_lines.back();
  d.write(0, 4, 3);  // directive not enabled, nothing allocated: placed all the same
  EXPECT_EQ(f->streams.enabled, 0u);
  EXPECT_EQ(f->streams.open_mask, 0u);
  EXPECT_EQ(ftl_get_stats(f)->class_lba_writes[2], 4u);
  EXPECT_EQ(d.mismatches(0, 4), 0u);
}

// Directive Send, Streams / Release Identifier, through the admin path.
uint16_t release_identifier(ftl* f, uint32_t dspec) {
  fw_cmd* cmd = &f->nt.cmds[0];
  cmd->opcode = NVME_ADMIN_DIRECTIVE_SEND;
  nvme_sqe q{};
  q.nsid = 1;
  q.cdw11 = NVME_DIR_SND_ST_RELEASE_ID | (1u << 8) | (dspec << 16);
  uint32_t send = 0;
  return admin_execute(f, cmd, &q, &send);
}

std::set<uint32_t> open_blocks(const ftl* f, uint32_t frontier) {
  std::set<uint32_t> out;
  for (uint32_t die = 0; die < f->dies; ++die)
    if (f->fr[frontier].open_block[die] != FTL_NONE) out.insert(f->fr[frontier].open_block[die]);
  return out;
}

// Release Identifier closes the released stream's open blocks (they become GC
// candidates with their unwritten pages left erased, and GC later collects
// them), leaves the other streams' blocks open, and the stream can be opened
// again on fresh blocks; no data is lost and the NAND rules hold.
TEST(StreamsDirective, ReleaseIdentifierClosesTheStreamsOpenBlocks) {
  Device d(stream_tune);
  ASSERT_EQ(d.init(), 0);
  ftl* f = d.f;
  f->streams.enabled = 1;
  f->streams.allocated = 8;
  const uint64_t region = d.cfg.logical_lbas / 8;
  // streams 2 and 3 each write part of a block on every die
  for (uint32_t s : {2u, 3u})
    for (uint64_t l = 0; l < 3 * d.cfg.pages_per_block; l += 5) {
      ASSERT_EQ(streams_write_check(f, s), NVME_SC_SUCCESS);
      d.write((s - 1) * region + l, 5, s);
    }
  const std::set<uint32_t> s3 = open_blocks(f, 2), s2 = open_blocks(f, 1);
  ASSERT_FALSE(s3.empty());
  ASSERT_FALSE(s2.empty());
  for (uint32_t b : s3) ASSERT_LT(f->blk_wp[b], d.cfg.pages_per_block) << "a partly written block";

  EXPECT_EQ(release_identifier(f, 3), NVME_SC_SUCCESS);
  EXPECT_TRUE(open_blocks(f, 2).empty()) << "stream 3 still holds open blocks";
  for (uint32_t b : s3) EXPECT_EQ(f->blk_state[b], BLK_CLOSED) << "block " << b;
  EXPECT_EQ(open_blocks(f, 1), s2) << "stream 2's blocks must stay open";
  EXPECT_EQ(ftl_get_stats(f)->blocks_closed_early, s3.size());
  EXPECT_EQ(f->streams.open_mask & (1u << 2), 0u);
  EXPECT_EQ(d.mismatches(0, d.cfg.logical_lbas), 0u);  // the padded page reads back
  // releasing an identifier that is not open closes nothing
  EXPECT_EQ(release_identifier(f, 3), NVME_SC_SUCCESS);
  EXPECT_EQ(ftl_get_stats(f)->blocks_closed_early, s3.size());

  // stream 3 opens again, on fresh blocks; enough writes that GC collects the closed ones
  std::mt19937_64 rng(11);
  for (int i = 0; i < 40000; ++i) {
    const uint32_t s = 1 + uint32_t(rng() % 8);
    ASSERT_EQ(streams_write_check(f, s), NVME_SC_SUCCESS);
    d.write((s - 1) * region + rng() % (region - 2), 2, s);
  }
  for (uint32_t b : open_blocks(f, 2)) EXPECT_EQ(s3.count(b) && f->blk_erase[b] == 0, false) << "block " << b;
  uint32_t collected = 0;
  for (uint32_t b : s3) collected += f->blk_erase[b] > 0;
  EXPECT_EQ(collected, s3.size()) << "GC collects blocks closed early";
  EXPECT_EQ(d.hal->violations, 0u);
  EXPECT_EQ(d.mismatches(0, d.cfg.logical_lbas), 0u);
  EXPECT_EQ(ftl_self_check(f), 0u);
}

}  // namespace
