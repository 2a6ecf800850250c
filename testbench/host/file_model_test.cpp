// The file model: first-fit allocation, coalescing, pending discards that
// never cover live data, the requests file operations emit, and the
// personalities' space check.
#include <gtest/gtest.h>

#include <map>
#include <set>

#include "common/config.h"
#include "file_model.h"
#include "personalities.h"
#include "request_recorder.h"

using namespace ssdvp;
using namespace ssdvp::fs;

TEST(ExtentSet, AddCoalescesRemoveSplits) {
  ExtentSet s;
  s.add({10, 5});
  s.add({20, 5});
  s.add({15, 5});  // bridges both
  EXPECT_EQ(s.extents(), 1u);
  EXPECT_EQ(s.blocks(), 15u);
  s.remove({12, 3});
  EXPECT_EQ(s.extents(), 2u);
  EXPECT_EQ(s.blocks(), 12u);
  s.add({11, 10});  // overlapping add counts each block once
  EXPECT_EQ(s.blocks(), 15u);
  const auto t = s.take(4);
  ASSERT_EQ(t.size(), 1u);
  EXPECT_EQ(t[0].start, 10u);
  EXPECT_EQ(t[0].len, 4u);
  EXPECT_EQ(s.blocks(), 11u);
}

TEST(ExtentAllocator, FirstFitTakesLowestFreeExtents) {
  ExtentAllocator a(100);
  std::vector<Extent> x, y, z;
  ASSERT_TRUE(a.alloc(10, &x));
  ASSERT_TRUE(a.alloc(10, &y));
  ASSERT_TRUE(a.alloc(10, &z));
  a.free(x[0]);  // hole [0,10)
  std::vector<Extent> w;
  ASSERT_TRUE(a.alloc(15, &w));  // first fit: the hole, then [30,35)
  ASSERT_EQ(w.size(), 2u);
  EXPECT_EQ(w[0].start, 0u);
  EXPECT_EQ(w[0].len, 10u);
  EXPECT_EQ(w[1].start, 30u);
  EXPECT_EQ(w[1].len, 5u);
  std::vector<Extent> big;
  EXPECT_FALSE(a.alloc(66, &big));
  EXPECT_TRUE(big.empty());
  EXPECT_EQ(a.free_blocks(), 65u);
  EXPECT_FALSE(a.reserve({0, 5}));
  EXPECT_TRUE(a.reserve({90, 10}));
  EXPECT_EQ(a.free_blocks(), 55u);
}

TEST(FileSystem, OperationsEmitTheRightBlocks) {
  Rec rec;
  FileSystem fs(1000, 4096, 8 * 4096, rec.sink());
  const auto a = fs.create(10 * 4096);  // blocks [0,10): writes of 8 + 2
  ASSERT_EQ(rec.v.size(), 2u);
  EXPECT_EQ(rec.v[0].offset, 0u);
  EXPECT_EQ(rec.v[0].length, 8 * 4096u);
  EXPECT_EQ(rec.v[1].length, 2 * 4096u);
  const auto b = fs.create(4096);  // [10,11)
  fs.append(a, 4096 * 3);          // [11,14): a is now fragmented
  ASSERT_EQ(fs.extents(a).size(), 2u);
  rec.v.clear();
  fs.read_whole(a);  // 13 blocks in 2 extents: 8 + 2 + 3
  ASSERT_EQ(rec.v.size(), 3u);
  uint64_t bytes = 0;
  for (auto& r : rec.v) {
    EXPECT_EQ(r.op, host::IoOp::read);
    bytes += r.length;
  }
  EXPECT_EQ(bytes, 13 * 4096u);
  rec.v.clear();
  fs.overwrite(a, 9 * 4096, 2 * 4096);  // file blocks 9, 10 -> LBA 9 and LBA 11
  ASSERT_EQ(rec.v.size(), 2u);
  EXPECT_EQ(rec.v[0].offset, 9 * 4096u);
  EXPECT_EQ(rec.v[1].offset, 11 * 4096u);
  rec.v.clear();
  fs.remove(b);
  EXPECT_TRUE(rec.v.empty());  // pending, not trimmed
  EXPECT_EQ(fs.pending().blocks(), 1u);
  fs.create(4096);  // reuses block 10: no longer pending
  EXPECT_EQ(fs.pending().blocks(), 0u);
  EXPECT_EQ(fs.stats().reclaimed_pending_blocks, 1u);
}

TEST(FileSystem, PendingDiscardsNeverCoverLiveData) {
  Rec rec;
  FileSystem fs(2000, 4096, 1 << 20, rec.sink());
  std::mt19937_64 rng(5);
  std::vector<FileSystem::FileId> live;
  for (int i = 0; i < 3000; ++i) {
    if (live.size() < 20 || rng() % 2) {
      try {
        live.push_back(fs.create((1 + rng() % 40) * 4096));
      } catch (const FileSystemFull&) {
      }
    } else {
      const size_t k = rng() % live.size();
      fs.remove(live[k]);
      live.erase(live.begin() + long(k));
    }
    if (i % 97 == 0) fs.trim_pending(rng() % 2 ? 0 : 64 * 4096);
  }
  std::set<uint64_t> used;
  for (auto f : live)
    for (const auto& e : fs.extents(f))
      for (uint64_t b = e.start; b < e.start + e.len; ++b) EXPECT_TRUE(used.insert(b).second);
  for (const auto& kv : fs.pending().map())
    for (uint64_t b = kv.first; b < kv.first + kv.second; ++b) EXPECT_EQ(used.count(b), 0u) << b;
  EXPECT_EQ(used.size() + fs.allocator().free_blocks(), 2000u);
  EXPECT_GT(fs.stats().trimmed_blocks, 0u);
}

TEST(FileWorkload, NeedsMoreSpaceThanTheNamespaceIsAnError) {
  Config cfg;
  cfg.set("host.files.personality", "fileserver");  // Filebench default 10000 x 128 KiB
  const auto s = FilesSpec::from_config(cfg, 256ull << 20, 4096, false);
  try {
    FileWorkload w(s);
    FAIL() << "no error";
  } catch (const ConfigError& e) {
    EXPECT_NE(std::string(e.what()).find("host.files.nfiles"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("more space than the namespace"), std::string::npos) << e.what();
  }
  Config c2;
  c2.set("host.files.fill", "0.9");
  c2.set("host.files.fio.nrfiles", "2");  // 2 x 45 % + one being replaced > 100 %
  const auto s2 = FilesSpec::from_config(c2, 256ull << 20, 4096, false);
  EXPECT_THROW(FileWorkload w2(s2), ConfigError);
}

TEST(FileWorkload, FioReplacesFilesAndLeavesPendingDiscards) {
  Config cfg;
  cfg.set("host.files.fio.nrfiles", "4");
  cfg.set("host.files.fill", "0.6");
  cfg.set("host.files.fio.loops", "0.5");
  const auto s = FilesSpec::from_config(cfg, 64ull << 20, 4096, false);
  FileWorkload w(s);
  EXPECT_GT(w.setup_requests(), 0u);
  host::IoRequest r;
  uint64_t writes = 0, trims = 0;
  for (int i = 0; i < 2000 && w.next(r); ++i) {
    writes += r.op == host::IoOp::write;
    trims += r.op == host::IoOp::trim;
    EXPECT_LE(r.offset + r.length, 64ull << 20);
  }
  EXPECT_EQ(trims, 0u);
  EXPECT_GT(w.fs().stats().deletes, 0u);
  EXPECT_GT(w.fs().pending().blocks(), 0u);
  const uint64_t pend = w.fs().pending().blocks() * 4096;
  EXPECT_EQ(w.trim_pending(), pend);
  ASSERT_TRUE(w.next(r));
  EXPECT_EQ(r.op, host::IoOp::trim);  // discards go ahead of the queue
}

TEST(FileWorkload, FilebenchPersonalitiesRun) {
  for (const char* p : {"fileserver", "varmail", "webserver"}) {
    Config cfg;
    cfg.set("host.files.personality", p);
    cfg.set("host.files.nfiles", "200");
    cfg.set("host.files.loops", "300");
    const auto s = FilesSpec::from_config(cfg, 128ull << 20, 4096, true);
    FileWorkload w(s);
    host::IoRequest r;
    std::map<host::IoOp, uint64_t> ops;
    while (w.next(r)) ops[r.op]++;
    EXPECT_EQ(w.loops_run(), 300u) << p;
    EXPECT_GT(ops[host::IoOp::read], 0u) << p;
    EXPECT_GT(ops[host::IoOp::write], 0u) << p;
    if (std::string(p) != "webserver") {
      EXPECT_GT(ops[host::IoOp::trim], 0u) << p;  // discard at delete
    }
    if (std::string(p) == "varmail") {
      EXPECT_GT(ops[host::IoOp::flush], 0u);
    }
  }
}
