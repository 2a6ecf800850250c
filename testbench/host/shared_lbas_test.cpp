// shared_lbas_test.cpp - the rule for reads of LBAs that several flows write
// with nothing ordering them (platform/host/shared_lbas.h): what a read may
// return while writes of two queues race, what it may no longer return once a
// later write completed, a read that settles which write the drive kept, an
// aborted write that never happened, entries swept once no read needs them.
#include <gtest/gtest.h>

#include "host/shared_lbas.h"

using ssdvp::Scoreboard;
using ssdvp::SharedLbas;

namespace {

constexpr uint64_t kLba = 7;

// One write of kLba as a driver makes it: the scoreboard's new version.
uint32_t write(SharedLbas& s, Scoreboard& sb, uint64_t cmd) {
  const uint32_t before = sb.expected(kLba);
  const uint32_t tok = sb.write(kLba);
  s.write(cmd, kLba, before, tok);
  return tok;
}

bool read_now(SharedLbas& s, uint32_t token) {
  const uint64_t r = s.begin();
  s.read_begin(r);
  const bool ok = s.check(r, kLba, token);
  s.read_end(r);
  return ok;
}

TEST(SharedLbas, TwoOverlappingWritesLeaveEitherUntilALaterWriteCompletes) {
  Scoreboard sb(16);
  SharedLbas s(sb);
  const uint32_t old = sb.expected(kLba);
  const uint64_t a = s.begin(), b = s.begin();
  const uint32_t ta = write(s, sb, a), tb = write(s, sb, b);
  EXPECT_EQ(s.races(), 1u) << "the second write found the first in flight";
  // in flight: the old data or either write
  EXPECT_TRUE(read_now(s, old));
  EXPECT_TRUE(read_now(s, ta));
  EXPECT_TRUE(read_now(s, tb));
  s.write_done(b, kLba, false);
  s.write_done(a, kLba, false);
  // both completed, their lives overlapped: either, never the old data
  const uint64_t r = s.begin();  // a read racing nothing is not taken yet: keep both open
  s.read_begin(r);
  EXPECT_FALSE(s.check(r, kLba, old));
  s.read_end(r);
  // a write ordered after both (submitted once both completed)
  const uint64_t c = s.begin();
  const uint32_t tc = write(s, sb, c);
  s.write_done(c, kLba, false);
  EXPECT_FALSE(read_now(s, ta));
  EXPECT_FALSE(read_now(s, tb));
  EXPECT_TRUE(read_now(s, tc));
  EXPECT_EQ(s.tracked(), 0u) << "one candidate, the scoreboard's: nothing left to track";
  EXPECT_EQ(sb.mismatches(), 3u);
  EXPECT_EQ(sb.checked(), 7u);
}

TEST(SharedLbas, AReadNothingRacedSettlesWhichWriteTheDriveKept) {
  Scoreboard sb(16);
  SharedLbas s(sb);
  const uint64_t a = s.begin(), b = s.begin();
  const uint32_t ta = write(s, sb, a), tb = write(s, sb, b);
  s.write_done(a, kLba, false);
  s.write_done(b, kLba, false);
  EXPECT_TRUE(read_now(s, ta)) << "the drive may have applied b first";
  EXPECT_GE(s.ambiguous_reads(), 1u);
  EXPECT_FALSE(read_now(s, tb)) << "a read without a race said the drive holds a's data";
  EXPECT_TRUE(read_now(s, ta));
  EXPECT_EQ(s.tracked(), 1u) << "a's version is older than the scoreboard's latest";
}

TEST(SharedLbas, AReadInFlightKeepsWhatItCouldSeeWhenItWasSubmitted) {
  Scoreboard sb(16);
  SharedLbas s(sb);
  const uint64_t a = s.begin();
  const uint32_t ta = write(s, sb, a);
  s.write_done(a, kLba, false);
  const uint64_t r = s.begin();  // submitted while the LBA held a's data
  s.read_begin(r);
  const uint64_t b = s.begin();
  const uint32_t tb = write(s, sb, b);
  s.write_done(b, kLba, false);  // b completed while r was in flight
  EXPECT_TRUE(s.check(r, kLba, ta)) << "r may have run before b";
  s.read_end(r);
  EXPECT_FALSE(read_now(s, ta)) << "a read submitted after b completed";
  EXPECT_TRUE(read_now(s, tb));
}

TEST(SharedLbas, AWriteAbortedBeforeItWasFetchedNeverHappened) {
  Scoreboard sb(16);
  SharedLbas s(sb);
  const uint64_t a = s.begin();
  const uint32_t ta = write(s, sb, a);
  s.write_done(a, kLba, false);
  const uint64_t b = s.begin();
  const uint32_t tb = write(s, sb, b);
  s.write_done(b, kLba, true);  // 08h
  EXPECT_TRUE(read_now(s, ta));
  EXPECT_FALSE(read_now(s, tb));
  // a deallocation is a write of the deallocated token
  const uint64_t t = s.begin();
  const uint32_t before = sb.expected(kLba);
  sb.trim(kLba);
  s.write(t, kLba, before, SSDVP_TOKEN_DEALLOCATED);
  s.write_done(t, kLba, false);
  EXPECT_TRUE(read_now(s, SSDVP_TOKEN_DEALLOCATED));
  EXPECT_FALSE(read_now(s, ta));
}

// An entry kept for a read that was in flight goes once nothing can need it,
// without another write to its LBA: the map does not grow with every LBA the
// flows ever raced on.
TEST(SharedLbas, EntriesKeptForReadsInFlightAreSweptLater) {
  Scoreboard sb(16);
  SharedLbas s(sb);
  const uint64_t a = s.begin();
  write(s, sb, a);
  s.write_done(a, kLba, false);
  const uint64_t r = s.begin();
  s.read_begin(r);
  const uint64_t b = s.begin();
  const uint32_t tb = write(s, sb, b);
  s.write_done(b, kLba, false);
  s.read_end(r);
  EXPECT_EQ(s.tracked(), 1u) << "a's data was kept for r";
  const uint32_t other = sb.write(3);
  uint64_t reads = 0;
  while (s.tracked() && reads < 100000) {
    const uint64_t q = s.begin();
    s.read_begin(q);
    EXPECT_TRUE(s.check(q, 3, other));
    s.read_end(q);
    ++reads;
  }
  EXPECT_EQ(s.tracked(), 0u);
  EXPECT_LE(reads, 4096u);
  EXPECT_TRUE(read_now(s, tb));
}

TEST(SharedLbas, AnUntouchedLbaIsTheScoreboardsAlone) {
  Scoreboard sb(16);
  SharedLbas s(sb);
  const uint32_t t = sb.write(3);
  const uint64_t r = s.begin();
  s.read_begin(r);
  EXPECT_TRUE(s.check(r, 3, t));
  EXPECT_FALSE(s.check(r, 3, t ^ 1));
  s.read_end(r);
  EXPECT_EQ(sb.mismatches(), 1u);
}

}  // namespace
