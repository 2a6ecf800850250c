// host_write_buffer_test.cpp - the host FTL's write buffer as a data
// structure (platform/host/ftl/host_write_buffer.h): room, the index of the
// newest buffered token per LBA for reads, and release in arrival order. Its
// use by the block layer (flushes, the writer, reads through the FTL) is
// tested on the real binary in host_ftl_run_test.cpp (HostFtlWriteBuffer.*).
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "ftl/host_write_buffer.h"

using ssdvp::HostWriteBuffer;

TEST(HostWriteBufferData, RoomIsCountedInLbasUntilTheFtlHasPlacedAWrite) {
  HostWriteBuffer b(8);
  EXPECT_TRUE(b.on());
  const std::vector<uint32_t> t(5, 7);
  EXPECT_TRUE(b.room(5));
  b.put(100, 5, t.data(), 0);
  EXPECT_EQ(b.used(), 5u);
  EXPECT_EQ(b.unsent(), 5u);
  EXPECT_FALSE(b.room(4));  // 5 + 4 > 8
  EXPECT_TRUE(b.room(3));
  HostWriteBuffer::Entry* e = b.next_unsent();
  ASSERT_NE(e, nullptr);
  b.mark_sent(*e);
  EXPECT_EQ(b.unsent(), 0u);
  EXPECT_FALSE(b.room(4));  // handed over, not yet placed: still in the buffer
  EXPECT_EQ(b.next_unsent(), nullptr);
  b.release_oldest();
  EXPECT_EQ(b.used(), 0u);
  EXPECT_TRUE(b.room(8));
  EXPECT_EQ(b.max_used(), 5u);
  EXPECT_FALSE(HostWriteBuffer(0).on());
}

TEST(HostWriteBufferData, AReadSeesTheNewestBufferedWriteOfEachLba) {
  HostWriteBuffer b(64);
  const uint32_t old_tokens[4] = {1, 2, 3, 4}, new_tokens[2] = {20, 30};
  b.put(10, 4, old_tokens, 0);  // LBAs 10..13
  b.put(11, 2, new_tokens, 1);  // LBAs 11..12 again
  uint32_t t = 0;
  ASSERT_TRUE(b.lookup(10, &t));
  EXPECT_EQ(t, 1u);
  ASSERT_TRUE(b.lookup(11, &t));
  EXPECT_EQ(t, 20u);
  ASSERT_TRUE(b.lookup(12, &t));
  EXPECT_EQ(t, 30u);
  EXPECT_FALSE(b.lookup(14, &t));
  EXPECT_TRUE(b.overlaps(0, 11));
  EXPECT_FALSE(b.overlaps(0, 10));
  EXPECT_FALSE(b.overlaps(14, 1000));
  // the older write placed: its LBAs that a newer write holds stay buffered, the others leave the index
  b.mark_sent(*b.next_unsent());
  b.release_oldest();
  EXPECT_FALSE(b.lookup(10, &t));
  EXPECT_FALSE(b.lookup(13, &t));
  ASSERT_TRUE(b.lookup(11, &t));
  EXPECT_EQ(t, 20u);
  b.release_oldest();
  EXPECT_FALSE(b.lookup(11, &t));
  EXPECT_TRUE(b.empty());
}

TEST(HostWriteBufferData, WritesAreNumberedSoThatAFlushKnowsWhatCameBeforeIt) {
  HostWriteBuffer b(64);
  const uint32_t t[1] = {9};
  b.put(1, 1, t, 0);
  b.put(2, 1, t, 0);
  const uint64_t flush_point = b.next_seq();  // a flush after two writes
  b.put(3, 1, t, 0);
  EXPECT_FALSE(b.placed_before(flush_point));
  b.mark_sent(*b.next_unsent());
  b.release_oldest();
  EXPECT_FALSE(b.placed_before(flush_point));
  b.mark_sent(*b.next_unsent());
  b.release_oldest();
  EXPECT_TRUE(b.placed_before(flush_point));  // the write after it does not hold it up
  EXPECT_FALSE(b.placed_before(b.next_seq()));
}
