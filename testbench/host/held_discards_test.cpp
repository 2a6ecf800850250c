// held_discards_test.cpp - a replayed trace's discards held for the host's
// TRIM policy (platform/host/fs/held_discards.h): held trims leave the
// request stream, a write takes its LBAs back, a release comes out first,
// coalesced, lowest address first, at most the bytes asked for.
#include "held_discards.h"

#include <gtest/gtest.h>

#include <memory>
#include <vector>

#include "vector_workload.h"

using ssdvp::fs::HeldDiscards;
using ssdvp::host::IoOp;
using ssdvp::host::IoRequest;
using ssdvp::host::VectorWorkload;

namespace {

constexpr uint32_t kLba = 4096;

IoRequest req(uint64_t t, IoOp op, uint64_t off, uint64_t len) {
  IoRequest r;
  r.time_ps = t;
  r.op = op;
  r.offset = off;
  r.length = len;
  return r;
}

HeldDiscards held(std::vector<IoRequest> v) {
  return HeldDiscards(std::make_unique<VectorWorkload>(std::move(v)), kLba);
}

std::vector<IoRequest> drain(HeldDiscards& h) {
  std::vector<IoRequest> out;
  IoRequest r;
  while (h.next(r)) out.push_back(r);
  return out;
}

}  // namespace

TEST(HeldDiscards, TrimsLeaveTheStreamAndBecomePending) {
  auto h = held({req(1, IoOp::write, 0, 8 * kLba), req(2, IoOp::trim, 0, 8 * kLba), req(3, IoOp::read, 0, kLba),
                 req(4, IoOp::trim, 100 * kLba, 4 * kLba)});
  const auto out = drain(h);
  ASSERT_EQ(out.size(), 2u);  // the write and the read
  EXPECT_EQ(out[0].op, IoOp::write);
  EXPECT_EQ(out[1].op, IoOp::read);
  EXPECT_EQ(h.pending_bytes(), 12u * kLba);
  EXPECT_EQ(h.held_stats().held, 2u);
  EXPECT_EQ(h.held_stats().held_bytes, 12u * kLba);
}

TEST(HeldDiscards, AWriteTakesItsLbasBackSoNoDiscardHitsLiveData) {
  // Trim 0..15, then the file system reuses 4..5 (a write of 1.5 LBAs from 4 touches 4 and 5).
  auto h = held({req(1, IoOp::trim, 0, 16 * kLba), req(2, IoOp::write, 4 * kLba, kLba + kLba / 2)});
  IoRequest r;
  ASSERT_TRUE(h.next(r));
  EXPECT_EQ(r.op, IoOp::write);
  EXPECT_EQ(h.pending_bytes(), 14u * kLba);
  EXPECT_EQ(h.held_stats().reused_bytes, 2u * kLba);
  EXPECT_EQ(h.trim_pending(0), 14u * kLba);
  const auto out = drain(h);
  ASSERT_EQ(out.size(), 2u);  // 0..3 and 6..15: never the rewritten 4..5
  EXPECT_EQ(out[0].op, IoOp::trim);
  EXPECT_EQ(out[0].offset, 0u);
  EXPECT_EQ(out[0].length, 4u * kLba);
  EXPECT_EQ(out[1].offset, 6u * kLba);
  EXPECT_EQ(out[1].length, 10u * kLba);
  EXPECT_EQ(out[0].time_ps, 2u);  // at the last request's time: an open-loop host sends them at once
  EXPECT_EQ(h.pending_bytes(), 0u);
}

TEST(HeldDiscards, AReleaseComesFirstLowestAddressFirstAndAtMostTheBytesAsked) {
  auto h = held({req(1, IoOp::trim, 50 * kLba, 10 * kLba), req(2, IoOp::trim, 10 * kLba, 10 * kLba),
                 req(3, IoOp::trim, 20 * kLba, 5 * kLba), req(4, IoOp::read, 0, kLba), req(5, IoOp::read, kLba, kLba)});
  IoRequest r;
  ASSERT_TRUE(h.next(r));  // the first read; every trim before it held
  EXPECT_EQ(r.time_ps, 4u);
  EXPECT_EQ(h.trim_pending(12 * kLba), 12u * kLba);  // of 10..24 (coalesced) and 50..59: 10..21
  ASSERT_TRUE(h.next(r));
  EXPECT_EQ(r.op, IoOp::trim);
  EXPECT_EQ(r.offset, 10u * kLba);
  EXPECT_EQ(r.length, 12u * kLba);
  ASSERT_TRUE(h.next(r));
  EXPECT_EQ(r.op, IoOp::read);
  EXPECT_EQ(h.pending_bytes(), 13u * kLba);  // 22..24 and 50..59
  EXPECT_EQ(h.trim_pending(0), 13u * kLba);
  EXPECT_EQ(h.held_stats().released, 3u);
  EXPECT_EQ(h.held_stats().released_bytes, 25u * kLba);
}

TEST(HeldDiscards, PartialLbasOfATrimAreNotHeld) {
  // A trim from the middle of LBA 1 to the middle of LBA 4 covers only LBAs 2 and 3 whole.
  auto h = held({req(1, IoOp::trim, kLba + 512, 3 * kLba)});
  drain(h);
  EXPECT_EQ(h.pending_bytes(), 2u * kLba);
  EXPECT_EQ(h.trim_pending(0), 2u * kLba);
}
