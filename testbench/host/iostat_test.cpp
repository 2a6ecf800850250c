// The iostat -x fields from block-layer counters, computed by hand for a
// known sequence of requests, and the rolling average deviation.
#include <gtest/gtest.h>

#include "iostat.h"

using namespace ssdvp::gcdetect;

namespace {
constexpr uint64_t kMs = 1000000000ull;  // ps
}

TEST(Iostat, FieldsFromCountersByHand) {
  BlockStats b;
  const DiskCounters c0 = b.snapshot(0);
  // Over 1 s: two 512 KiB writes of 4 ms each, overlapping by 2 ms
  // (in flight [10, 14] ms and [12, 16] ms), one 4 KiB read of 1 ms at
  // [100, 101] ms, one 1 MiB discard of 3 ms at [200, 203] ms.
  b.start(10 * kMs);
  b.start(12 * kMs);
  b.done(kWrite, 512 * 1024, 10 * kMs, 14 * kMs);
  b.done(kWrite, 512 * 1024, 12 * kMs, 16 * kMs);
  b.start(100 * kMs);
  b.done(kRead, 4096, 100 * kMs, 101 * kMs);
  b.start(200 * kMs);
  b.done(kDiscard, 1024 * 1024, 200 * kMs, 203 * kMs);
  const DiskCounters c1 = b.snapshot(1000 * kMs);
  const auto f = iostat_fields(c0, c1, 1000 * kMs);
  EXPECT_DOUBLE_EQ(f[0], 1);            // r/s
  EXPECT_DOUBLE_EQ(f[1], 2);            // w/s
  EXPECT_DOUBLE_EQ(f[2], 4);            // rkB/s
  EXPECT_DOUBLE_EQ(f[3], 1024);         // wkB/s
  EXPECT_DOUBLE_EQ(f[4], 0);            // rrqm/s (the host merges nothing)
  EXPECT_DOUBLE_EQ(f[5], 0);            // wrqm/s
  EXPECT_DOUBLE_EQ(f[6], 1);            // r_await ms
  EXPECT_DOUBLE_EQ(f[7], 4);            // w_await ms
  EXPECT_DOUBLE_EQ(f[8], 12.0 / 1000);  // aqu-sz = (4 + 4 + 1 + 3) ms / 1000 ms
  EXPECT_DOUBLE_EQ(f[9], 4);            // rareq-sz kB
  EXPECT_DOUBLE_EQ(f[10], 512);         // wareq-sz kB
  // io_ticks: [10,16] + [100,101] + [200,203] = 10 ms busy over 4 I/Os
  EXPECT_DOUBLE_EQ(f[11], 10.0 / 4);  // svctm ms
  EXPECT_DOUBLE_EQ(f[12], 1.0);       // %util = 10 / 1000 * 100
  EXPECT_DOUBLE_EQ(f[13], 1);         // d/s
  EXPECT_DOUBLE_EQ(f[14], 1024);      // dkB/s
  EXPECT_DOUBLE_EQ(f[15], 3);         // d_await
  EXPECT_DOUBLE_EQ(f[16], 1024);      // dareq-sz
  // Half the interval: rates double.
  const auto g = iostat_fields(c0, c1, 500 * kMs);
  EXPECT_DOUBLE_EQ(g[1], 4);
}

TEST(Iostat, RollingAverageDeviation) {
  RollingDeviation r(3);
  std::array<double, kIostatFields> x{};
  x[0] = 1;
  EXPECT_DOUBLE_EQ(r.push(x)[0], 0);
  x[0] = 3;
  EXPECT_DOUBLE_EQ(r.push(x)[0], 1);  // mean 2, |1-2| + |3-2| over 2
  x[0] = 5;
  EXPECT_NEAR(r.push(x)[0], 4.0 / 3, 1e-12);  // 1,3,5: mean 3 -> (2+0+2)/3
  x[0] = 5;
  EXPECT_NEAR(r.push(x)[0], (4.0 / 3 + 2.0 / 3 + 2.0 / 3) / 3, 1e-12);  // window 3,5,5 mean 13/3
  EXPECT_EQ(feature_names().size(), 2 * kIostatFields);
  EXPECT_EQ(feature_names()[17], "r/s_avgdev");
}
