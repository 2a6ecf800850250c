// oracle_test.cpp - the oracle's death-time classes and the streams its
// pre-pass puts on each write (platform/host/oracle.h).
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
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

// Single-LBA writes over many distinct LBAs (the pre-pass's table grows
// several times): each write's stream is the class of the distance to the
// next write of its LBA, found here by scanning forward.
TEST(Oracle, StreamsMatchAForwardScanOverManyLbas) {
  const uint64_t L = 1ull << 16;  // class bounds at distances 4096, 8192, 16384, 32768
  std::mt19937_64 rng(7);
  std::vector<uint64_t> lbas;
  for (int i = 0; i < 30000; ++i)  // half to a hot set of 2,000 LBAs, half to the rest
    lbas.push_back(rng() % 2 ? rng() % 2000 : 2000 + rng() % (L - 2000));
  std::vector<IoRequest> v;
  for (uint64_t l : lbas) v.push_back(req(IoOp::write, l, 1));
  auto w = ssdvp::make_oracle_streams(std::make_unique<VectorWorkload>(v), L, 4096, 6, v.size());
  IoRequest r;
  std::vector<int> per_class(6);
  for (size_t i = 0; i < lbas.size(); ++i) {
    ASSERT_TRUE(w->next(r));
    const auto nx = std::find(lbas.begin() + i + 1, lbas.end(), lbas[i]);
    const uint64_t d = nx == lbas.end() ? UINT64_MAX : uint64_t(nx - lbas.begin()) - i;
    ASSERT_EQ(r.stream, oracle_class(d, L, 6) + 1) << "write " << i << " of LBA " << lbas[i];
    per_class[r.stream - 1]++;
  }
  EXPECT_FALSE(w->next(r));
  for (int c : {0, 1, 2, 3, 5}) EXPECT_GT(per_class[c], 100) << "class " << c;  // the classes are exercised
}

TEST(Oracle, AnEndlessWorkloadIsRefused) {
  std::vector<IoRequest> v(20, req(IoOp::write, 0, 1));
  EXPECT_THROW(ssdvp::make_oracle_streams(std::make_unique<VectorWorkload>(v), 1600, 4096, 6, 10), std::runtime_error);
}

}  // namespace
