// stream_log_test.cpp - host.streams_log: the wrapper passes requests through
// unchanged and records every write and trim with its stream ID, in order;
// a path it cannot create is refused naming the key. host.streams: random:
// every write on a stream of 1..n, evenly and the same each run.
#include <gtest/gtest.h>

#include <stdlib.h>

#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "stream_log.h"
#include "vector_workload.h"
#include "workload.h"

using namespace ssdvp::host;

namespace {

IoRequest req(uint64_t t, IoOp op, uint64_t off, uint64_t len, uint8_t stream) {
  IoRequest r;
  r.time_ps = t;
  r.op = op;
  r.offset = off;
  r.length = len;
  r.stream = stream;
  return r;
}

std::filesystem::path temp_dir() {
  std::string t = (std::filesystem::temp_directory_path() / "stream_log_test_XXXXXX").string();
  if (!mkdtemp(t.data())) throw std::runtime_error("mkdtemp failed");
  return t;
}

}  // namespace

TEST(StreamLog, PassesRequestsAndRecordsWritesAndTrims) {
  const auto dir = temp_dir();
  const std::vector<IoRequest> in = {req(5, IoOp::write, 8192, 4096, 3), req(7, IoOp::read, 0, 4096, 0),
                                     req(9, IoOp::trim, 4096, 8192, 0), req(11, IoOp::write, 0, 16384, 0)};
  {
    auto w = make_stream_log(std::make_unique<VectorWorkload>(in), (dir / "s.csv").string());
    IoRequest r;
    for (const IoRequest& want : in) {
      ASSERT_TRUE(w->next(r));
      EXPECT_EQ(r.op, want.op);
      EXPECT_EQ(r.offset, want.offset);
      EXPECT_EQ(r.length, want.length);
      EXPECT_EQ(r.stream, want.stream);
      EXPECT_EQ(r.time_ps, want.time_ps);
    }
    EXPECT_FALSE(w->next(r));
  }
  std::ifstream f(dir / "s.csv");
  std::vector<std::string> lines;
  for (std::string l; std::getline(f, l);) lines.push_back(l);
  const std::vector<std::string> want = {"time_ps,op,offset,length,stream", "5,write,8192,4096,3", "9,trim,4096,8192,0",
                                         "11,write,0,16384,0"};
  EXPECT_EQ(lines, want);
  std::filesystem::remove_all(dir);
}

TEST(StreamLog, UncreatableFileNamesTheKey) {
  const auto dir = temp_dir();
  try {
    make_stream_log(std::make_unique<VectorWorkload>(std::vector<IoRequest>{}),
                    (dir / "no" / "such" / "s.csv").string());
    FAIL() << "expected an error";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("host.streams_log"), std::string::npos) << e.what();
  }
  std::filesystem::remove_all(dir);
}

TEST(RandomStreams, WritesGetEveryStreamEvenlyAndTheSameEachRun) {
  std::vector<IoRequest> in;
  for (uint64_t i = 0; i < 8000; ++i) in.push_back(req(i, i % 4 == 0 ? IoOp::read : IoOp::write, i * 4096, 4096, 0));
  auto streams_of = [&](uint64_t seed) {
    auto w = make_random_streams(std::make_unique<VectorWorkload>(in), 4, seed);
    std::vector<int> s;
    IoRequest r;
    while (w->next(r)) s.push_back(r.stream);
    return s;
  };
  const auto a = streams_of(1), b = streams_of(1), c = streams_of(2);
  ASSERT_EQ(a.size(), in.size());
  EXPECT_EQ(a, b);
  EXPECT_NE(a, c);
  std::vector<int> count(6, 0);
  for (size_t i = 0; i < a.size(); ++i) {
    if (in[i].op == IoOp::read) {
      EXPECT_EQ(a[i], 0);
      continue;
    }
    ASSERT_GE(a[i], 1);
    ASSERT_LE(a[i], 4);
    ++count[size_t(a[i])];
  }
  for (int s = 1; s <= 4; ++s) EXPECT_NEAR(count[size_t(s)], 1500, 150) << "stream " << s;
  EXPECT_THROW(make_random_streams(std::make_unique<VectorWorkload>(in), 0, 1), std::invalid_argument);
}

// host.streams: journal: a write starting inside one of the ranges gets the
// stream, every other write none (a stream the trace carried is cleared);
// reads keep theirs (none), boundaries are [begin, end).
TEST(RangeStreams, WritesIntoTheRangesGetTheStreamOthersNone) {
  const std::vector<IoRequest> in = {req(1, IoOp::write, 0, 4096, 0),
                                     req(2, IoOp::write, 65536, 4096, 0),
                                     req(3, IoOp::write, 131068 + 4, 4096, 2),
                                     req(4, IoOp::write, 131072 + 4096, 8192, 0),
                                     req(5, IoOp::read, 65536, 4096, 0),
                                     req(6, IoOp::write, 1 << 20, 4096, 0),
                                     req(7, IoOp::write, (1 << 20) - 4096, 8192, 0)};
  // two ranges, given out of order: [64 KiB, 128 KiB) and [1 MiB, 1 MiB + 4 KiB)
  auto w = make_range_streams(std::make_unique<VectorWorkload>(in), {{1 << 20, (1 << 20) + 4096}, {65536, 131072}}, 1,
                              "test");
  std::vector<int> got;
  IoRequest r;
  while (w->next(r)) got.push_back(r.stream);
  EXPECT_EQ(got, (std::vector<int>{0, 1, 0, 0, 0, 1, 0}));
  EXPECT_NE(w->describe().find("stream 1 on writes into test"), std::string::npos);
  EXPECT_THROW(make_range_streams(std::make_unique<VectorWorkload>(in), {{0, 1}}, 0, "x"), std::invalid_argument);
  EXPECT_THROW(make_range_streams(std::make_unique<VectorWorkload>(in), {}, 1, "x"), std::invalid_argument);
}

// workload.flush_order: each flush and the request after it are barriers;
// nothing else is, and a rewind starts clean.
TEST(FlushOrder, FlushesAndTheirSuccessorsAreBarriers) {
  const std::vector<IoRequest> in = {req(1, IoOp::write, 0, 4096, 0),    req(2, IoOp::flush, 0, 0, 0),
                                     req(3, IoOp::write, 4096, 4096, 0), req(4, IoOp::write, 8192, 4096, 0),
                                     req(5, IoOp::flush, 0, 0, 0),       req(6, IoOp::flush, 0, 0, 0),
                                     req(7, IoOp::read, 0, 4096, 0)};
  auto w = make_flush_order(std::make_unique<VectorWorkload>(in));
  for (int pass = 0; pass < 2; ++pass) {
    std::vector<int> got;
    IoRequest r;
    while (w->next(r)) got.push_back(r.flags & kIoBarrier ? 1 : 0);
    EXPECT_EQ(got, (std::vector<int>{0, 1, 1, 0, 1, 1, 1})) << "pass " << pass;
    w->rewind();
  }
}
