// scoreboard_test.cpp - the power-cut check's durability rules
// (Scoreboard::check_recovered): the two histories of the varmail cuts'
// durable_lost violations (docs/results/reliability.md), for a drive that
// does not persist deallocations and for one that does, and the control case
// without a deallocation, whose lost write must still be caught.
#include <gtest/gtest.h>

#include <cstdint>

#include "host/scoreboard.h"

using ssdvp::Scoreboard;
using ssdvp::token_of;
using R = Scoreboard::Recovered;

namespace {

constexpr uint64_t kLba = 5;
uint32_t flush_id = 0;

void write(Scoreboard& sb, bool flush) {
  sb.write(kLba);
  sb.acked(kLba);
  if (flush) {
    sb.flush_submitted(++flush_id);
    sb.flush_completed(flush_id);
  }
}

void trim(Scoreboard& sb, bool flush) {
  sb.trim(kLba);
  sb.trim_acked(kLba);
  if (flush) {
    sb.flush_submitted(++flush_id);
    sb.flush_completed(flush_id);
  }
}

// Versions 1 and 2 written and flushed; the caller goes on from there.
Scoreboard flushed_twice() {
  Scoreboard sb(16);
  sb.track_durability();
  write(sb, true);
  write(sb, true);
  return sb;
}

}  // namespace

// LBA 1851 of the varmail cuts: v2 durable, deallocated without a flush (GC
// then erased v2's block), v3 written without a flush; the scan found v1.
TEST(ScoreboardDurability, OlderThanTheDurableWriteAfterAnUnflushedDeallocation) {
  Scoreboard sb = flushed_twice();
  trim(sb, false);
  write(sb, false);
  // not persisted: the deallocation may read any older data, so may the LBA falling back to it
  EXPECT_EQ(sb.check_recovered(kLba, token_of(kLba, 1), false, false), R::unchecked);
  // persisted (the trim log): v1 is older than the durable v2, and the deallocation was not durable
  EXPECT_EQ(sb.check_recovered(kLba, token_of(kLba, 1), false, true), R::lost);
  // what stays allowed or required either way
  EXPECT_EQ(sb.check_recovered(kLba, token_of(kLba, 3), false, false), R::latest);
  EXPECT_EQ(sb.check_recovered(kLba, token_of(kLba, 2), false, false), R::older);
  EXPECT_EQ(sb.check_recovered(kLba, token_of(kLba + 1, 2), false, false), R::foreign);
}

// LBA 1096: the flushed state is a deallocation (of v2), then v3 without a
// flush; the writes since the last copy on flash were deallocated in their
// page buffers, so the scan found an old copy (v1).
TEST(ScoreboardDurability, OlderDataAfterAFlushedDeallocation) {
  Scoreboard sb = flushed_twice();
  trim(sb, true);
  write(sb, false);
  EXPECT_EQ(sb.check_recovered(kLba, token_of(kLba, 1), false, false), R::unchecked);
  EXPECT_EQ(sb.check_recovered(kLba, token_of(kLba, 1), false, true), R::lost);
  EXPECT_EQ(sb.check_recovered(kLba, SSDVP_TOKEN_DEALLOCATED, false, true), R::older);
}

// Without a deallocation since the durable write, an older version is lost
// whether or not the drive persists deallocations.
TEST(ScoreboardDurability, OlderThanTheDurableWriteWithoutADeallocationIsLost) {
  Scoreboard sb = flushed_twice();
  write(sb, false);
  EXPECT_EQ(sb.check_recovered(kLba, token_of(kLba, 1), false, false), R::lost);
  EXPECT_EQ(sb.check_recovered(kLba, token_of(kLba, 1), false, true), R::lost);
  // a deallocation before the durable write does not relax it
  Scoreboard sb2(16);
  sb2.track_durability();
  write(sb2, true);
  trim(sb2, true);
  write(sb2, true);
  write(sb2, false);
  EXPECT_EQ(sb2.check_recovered(kLba, token_of(kLba, 1), false, false), R::lost);
}
