// oracle_test.cpp - the oracle's death-time classes and the streams its
// pre-pass puts on each write (platform/host/oracle.h).
#include <gtest/gtest.h>

#include <vector>

#include "host/oracle.h"
#include "vector_workload.h"

using ssdvp::oracle_class;
using namespace ssdvp::host;

namespace {

TEST(Oracle, ClassBoundariesAreLogScaledInLogicalCapacity) {
  const uint64_t L = 1600;  // K = 6: d < 100, < 200, < 400, < 800, >= 800, never
  EXPECT_EQ(oracle_class(0, L, 6), 0u);
  EXPECT_EQ(oracle_class(99, L, 6), 0u);
  EXPECT_EQ(oracle_class(100, L, 6), 1u);
  EXPECT_EQ(oracle_class(199, L, 6), 1u);
  EXPECT_EQ(oracle_class(200, L, 6), 2u);
  EXPECT_EQ(oracle_class(400, L, 6), 3u);
  EXPECT_EQ(oracle_class(799, L, 6), 3u);
  EXPECT_EQ(oracle_class(800, L, 6), 4u);
  EXPECT_EQ(oracle_class(1ull << 60, L, 6), 4u);
  EXPECT_EQ(oracle_class(UINT64_MAX, L, 6), 5u);
  EXPECT_EQ(oracle_class(UINT64_MAX, L, 1), 0u);
  EXPECT_EQ(oracle_class(5, L, 2), 0u);
  EXPECT_EQ(oracle_class(UINT64_MAX, L, 2), 1u);
}

IoRequest req(IoOp op, uint64_t lba, uint64_t n) {
  IoRequest r;
  r.op = op;
  r.offset = lba * 4096;
  r.length = n * 4096;
  return r;
}

TEST(Oracle, StreamsFollowTheNextOverwrite) {
  // 1600 LBAs, K = 6. LBA 0 is rewritten right away (class 0), LBA 10 after
  // 300 written LBAs (class 2), LBA 20 is trimmed after 900 (class 4), LBA 30
  // never again (class 5). Reads and trims carry no stream.
  std::vector<IoRequest> v;
  v.push_back(req(IoOp::write, 0, 1));
  v.push_back(req(IoOp::write, 10, 1));
  v.push_back(req(IoOp::write, 20, 1));
  v.push_back(req(IoOp::write, 30, 1));
  v.push_back(req(IoOp::write, 0, 1));  // distance 4 - 0 = 4: class 0 for the first
  v.push_back(req(IoOp::read, 0, 1));
  v.push_back(req(IoOp::write, 100, 296));  // positions 5..300
  v.push_back(req(IoOp::write, 10, 1));     // position 301: distance 300
  v.push_back(req(IoOp::write, 500, 600));  // positions 302..901
  v.push_back(req(IoOp::trim, 20, 1));      // at 902: distance 900
  auto w = ssdvp::make_oracle_streams(std::make_unique<VectorWorkload>(v), 1600, 4096, 6, 1000);
  std::vector<uint8_t> got;
  IoRequest r;
  while (w->next(r)) got.push_back(r.stream);
  ASSERT_EQ(got.size(), v.size());
  EXPECT_EQ(got[0], 1);  // class 0
  EXPECT_EQ(got[1], 3);  // class 2
  EXPECT_EQ(got[2], 5);  // class 4
  EXPECT_EQ(got[3], 6);  // class 5
  EXPECT_EQ(got[5], 0);  // read
  EXPECT_EQ(got[9], 0);  // trim
  w->rewind();
  ASSERT_TRUE(w->next(r));
  EXPECT_EQ(r.stream, 1);
}

TEST(Oracle, AnEndlessWorkloadIsRefused) {
  std::vector<IoRequest> v(20, req(IoOp::write, 0, 1));
  EXPECT_THROW(ssdvp::make_oracle_streams(std::make_unique<VectorWorkload>(v), 1600, 4096, 6, 10), std::runtime_error);
}

}  // namespace
