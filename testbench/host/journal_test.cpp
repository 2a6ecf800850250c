// The ext4-like journal over the file model: mke2fs's journal size, a layout
// files never overlap, ordered commits (data before descriptors, metadata
// copies and the commit block; fsync's barriers and flushes), the commit
// timer, checkpoints when the log is full, stream tags, bad configuration.
#include <gtest/gtest.h>

#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <map>
#include <set>

#include "common/config.h"
#include "ext4_layout.h"
#include "file_model.h"
#include "journal.h"
#include "personalities.h"
#include "request_recorder.h"

using namespace ssdvp;
using namespace ssdvp::fs;

namespace {

constexpr uint64_t kBs = 4096;
constexpr uint64_t kS = 1000000000000ull;  // 1 s in ps

bool inside(const host::IoRequest& r, Extent e) {
  return r.offset / kBs >= e.start && (r.offset + r.length) / kBs <= e.start + e.len;
}

JournalSpec spec(uint8_t stream = 0) {
  JournalSpec s;
  s.enable = true;
  s.stream = stream;
  return s;
}

}  // namespace

TEST(Journal, DefaultSizeIsMke2fsTable) {
  EXPECT_EQ(ext4_default_journal_blocks(2047), 0u);
  EXPECT_EQ(ext4_default_journal_blocks(2048), 1024u);
  EXPECT_EQ(ext4_default_journal_blocks(32767), 1024u);
  EXPECT_EQ(ext4_default_journal_blocks(32768), 4096u);      // 128 MiB: 16 MiB journal
  EXPECT_EQ(ext4_default_journal_blocks(229376), 4096u);     // the small config's 896 MiB
  EXPECT_EQ(ext4_default_journal_blocks(262144), 8192u);     // 1 GiB: 32 MiB
  EXPECT_EQ(ext4_default_journal_blocks(4u << 20), 32768u);  // 16 GiB: 128 MiB
  EXPECT_EQ(ext4_default_journal_blocks(1ull << 30), 262144u);
}

TEST(Journal, LayoutIsMke2fsAndFilesNeverOverlapIt) {
  Rec rec;
  const uint64_t blocks = 229376;  // 896 MiB of 4 KiB blocks: 7 groups, one flex group
  FileSystem fs(blocks, kBs, 1 << 20, rec.sink());
  Journal j(spec(), fs, 256, rec.sink());
  fs.set_observer(&j);
  EXPECT_EQ(j.groups(), 7u);
  EXPECT_EQ(j.journal_extent().len, 4096u);
  // Where mkfs.ext4 put it on the same 896 MiB namespace (the real session recorded over NBD):
  // group 2, the emptiest of groups 2..4 (group 3 holds a backup superblock).
  EXPECT_EQ(j.journal_extent().start, 2u * 32768);
  // group 0: superblock, 1 descriptor block, 111 reserved GDT blocks, 7 + 7 bitmaps, 7 x 512 inode
  // table blocks, 448 directory blocks; backup superblock copies (1 + 1 + 111) in groups 1, 3 and 5
  EXPECT_EQ(j.metadata_blocks(), 1u + 1 + 111 + 14 + 7 * 512 + 448 + 3 * 113);
  EXPECT_EQ(fs.allocator().free_blocks(), blocks - j.metadata_blocks() - j.journal_extent().len);
  std::vector<FileSystem::FileId> ids;
  try {
    for (;;) ids.push_back(fs.create(8 << 20));
  } catch (const FileSystemFull&) {
  }
  ASSERT_GT(ids.size(), 20u);
  // the first file's inode (12) is in inode table block 127, where the real kernel wrote it
  EXPECT_EQ(j.inode_block(ids[0]), 127u);
  const Extent je = j.journal_extent();
  auto overlap = [](Extent a, Extent b) { return a.start < b.start + b.len && b.start < a.start + a.len; };
  for (auto id : ids)
    for (const Extent& e : fs.extents(id)) {
      EXPECT_FALSE(overlap(e, je));
      for (const Extent& m : j.metadata_extents()) EXPECT_FALSE(overlap(e, m)) << e.start << " " << m.start;
    }
}

TEST(Journal, FsyncCommitsOrderedWithBarriersAndStreamTags) {
  Rec rec;
  FileSystem fs(229376, kBs, 1 << 20, rec.sink());
  Journal j(spec(1), fs, 256, rec.sink());
  fs.set_observer(&j);
  j.end_setup(0);
  rec.v.clear();
  const auto f = fs.create(64 * 1024);
  fs.fsync();
  // the file's 16 data blocks first, untagged, outside the journal
  ASSERT_GE(rec.v.size(), 5u);
  const auto& d = rec.v[0];
  EXPECT_EQ(d.op, host::IoOp::write);
  EXPECT_EQ(d.length, 64u * 1024);
  EXPECT_EQ(d.stream, 0u);
  EXPECT_FALSE(inside(d, j.journal_extent()));
  // then: descriptor + metadata (barrier, fsync begins), flush, commit block, flush (fsync ends)
  const size_t k = rec.v.size();
  const auto& log = rec.v[1];
  EXPECT_EQ(log.op, host::IoOp::write);
  EXPECT_EQ(log.flags, host::kIoBarrier | host::kIoFsyncBegin);
  EXPECT_EQ(log.stream, 1u);
  EXPECT_TRUE(inside(log, j.journal_extent()));
  // create dirtied: inode table block, inode bitmap, group descriptor, directory block, block bitmap
  EXPECT_EQ(log.length / kBs, 1u + 5);
  EXPECT_EQ(j.stats().metadata_logged, 5u);
  EXPECT_EQ(rec.v[k - 3].op, host::IoOp::flush);
  EXPECT_EQ(rec.v[k - 2].op, host::IoOp::write);  // the commit block, right after the log blocks
  EXPECT_EQ(rec.v[k - 2].offset, log.offset + log.length);
  EXPECT_EQ(rec.v[k - 2].flags, host::kIoBarrier);
  EXPECT_EQ(rec.v[k - 1].op, host::IoOp::flush);
  EXPECT_EQ(rec.v[k - 1].flags, host::kIoBarrier | host::kIoFsyncEnd);
  EXPECT_EQ(j.stats().commits_fsync, 1u);
  EXPECT_NE(j.inode_block(f), UINT64_MAX);
  // an fsync with nothing dirty is one flush that begins and ends the fsync
  rec.v.clear();
  fs.fsync();
  ASSERT_EQ(rec.v.size(), 1u);
  EXPECT_EQ(rec.v[0].op, host::IoOp::flush);
  EXPECT_EQ(rec.v[0].flags, host::kIoBarrier | host::kIoFsyncBegin | host::kIoFsyncEnd);
}

TEST(Journal, TimerCommitsAfterTheInterval) {
  Rec rec;
  FileSystem fs(229376, kBs, 1 << 20, rec.sink());
  Journal j(spec(), fs, 256, rec.sink());
  fs.set_observer(&j);
  j.end_setup(0);
  j.tick(1 * kS);
  const auto f = fs.create(4096);  // the transaction starts at 1 s
  fs.overwrite(f, 0, 4096);
  j.tick(5 * kS);
  EXPECT_EQ(j.stats().commits, 0u);
  EXPECT_GT(j.running_blocks(), 0u);
  j.tick(6 * kS);
  EXPECT_EQ(j.stats().commits_timer, 1u);
  EXPECT_EQ(j.running_blocks(), 0u);
  // a timer commit does not block the application: no barrier, no fsync marks
  for (const auto& r : rec.v) EXPECT_EQ(r.flags & (host::kIoBarrier | host::kIoFsyncBegin), 0) << r.offset;
}

TEST(Journal, FullLogCheckpointsMetadataHome) {
  Rec rec;
  JournalSpec s = spec();
  s.size_bytes = 1024 * kBs;  // the smallest journal jbd2 takes
  FileSystem fs(229376, kBs, 1 << 20, rec.sink());
  Journal j(s, fs, 256, rec.sink());
  fs.set_observer(&j);
  j.end_setup(0);
  rec.v.clear();
  std::vector<FileSystem::FileId> ids;
  for (int i = 0; i < 3000; ++i) {
    ids.push_back(fs.create(4096));
    if (i % 3 == 2) fs.remove(ids[ids.size() - 2]);
    fs.fsync();
    EXPECT_LE(j.log_used(), j.log_capacity());
  }
  EXPECT_GT(j.stats().checkpoints, 0u);
  EXPECT_GT(j.stats().checkpoint_blocks, 0u);
  EXPECT_GT(j.stats().wraps, 0u);
  // home writes of checkpointed metadata: outside the journal, inside the metadata area, untagged
  uint64_t home = 0;
  for (const auto& r : rec.v)
    if (r.op == host::IoOp::write && !inside(r, j.journal_extent()) && r.offset / kBs < j.metadata_blocks()) {
      ++home;
      EXPECT_EQ(r.stream, 0u);
    }
  EXPECT_GT(home, 0u);
  EXPECT_LE(j.stats().checkpoint_blocks, j.stats().metadata_logged);
}

TEST(Journal, TooSmallVolumeIsAConfigErrorNamingTheKey) {
  Rec rec;
  FileSystem fs(2048, kBs, 1 << 20, rec.sink());  // 8 MiB: a 1024-block journal and the metadata exceed half
  try {
    Journal j(spec(), fs, 256, rec.sink());
    FAIL() << "no error";
  } catch (const ConfigError& e) {
    EXPECT_NE(std::string(e.what()).find("host.files.journal"), std::string::npos) << e.what();
  }
  Config cfg;
  cfg.set("host.files.commit", "0s");
  EXPECT_THROW(JournalSpec::from_config(cfg), ConfigError);
  Config c2;
  c2.set("host.files.ext4.inode_size", "300");
  c2.set("host.files.journal", "ordered");
  const auto bad = JournalSpec::from_config(c2);
  FileSystem fs2(229376, kBs, 1 << 20, rec.sink());
  EXPECT_THROW(Journal(bad, fs2, 256, rec.sink()), ConfigError);
}

TEST(Journal, VarmailWithJournalTagsOnlyJournalWrites) {
  Config cfg;
  cfg.set("host.files.personality", "varmail");
  cfg.set("host.files.nfiles", "500");
  cfg.set("host.files.loops", "400");
  cfg.set("host.files.journal", "ordered");
  cfg.set("host.files.journal_stream", "2");
  const auto s = FilesSpec::from_config(cfg, 896ull << 20, 4096, false);
  FileWorkload w(s);
  uint64_t now = 0;
  w.set_clock([&now] { return now; });
  ASSERT_NE(w.journal(), nullptr);
  const Extent je = w.journal()->journal_extent();
  host::IoRequest r;
  uint64_t tagged = 0, begins = 0, ends = 0, n = 0;
  while (w.next(r)) {
    now += 1000000000;  // 1 ms per request
    if (r.op == host::IoOp::write) {
      EXPECT_EQ(r.stream == 2, inside(r, je)) << r.offset;
      tagged += r.stream == 2;
    }
    begins += (r.flags & host::kIoFsyncBegin) != 0;
    ends += (r.flags & host::kIoFsyncEnd) != 0;
    ++n;
  }
  EXPECT_GT(tagged, 0u);
  EXPECT_EQ(begins, ends);
  EXPECT_EQ(w.journal()->stats().commits_fsync + w.journal()->stats().empty_fsyncs, 800u);  // two fsyncs a loop
  EXPECT_EQ(begins, 800u);
  EXPECT_EQ(w.fs().stats().fsyncs, 800u);
}

// host.files.ext4.layout: the journal where a real mkfs.ext4 of the same 896
// MiB volume put it, read from dumpe2fs and debugfs output (the bundled
// traces/ext4-896MiB.layout): the same place and size as the model computes.
// A file of another volume, a journal in two extents, or a line that is not
// the tools' output is a configuration error naming the key and the file.
TEST(Journal, LayoutFromARealMkfsPlacesTheJournalWhereTheFileSystemHasIt) {
  const std::string real = std::string(SSDVP_SOURCE_DIR) + "/traces/ext4-896MiB.layout";
  const Ext4Layout L = read_ext4_layout(real, "host.files.ext4.layout");
  EXPECT_EQ(L.block_size, kBs);
  EXPECT_EQ(L.block_count, 229376u);
  ASSERT_EQ(L.journal.size(), 1u);
  Rec rec;
  FileSystem fs(229376, kBs, 1 << 20, rec.sink());
  JournalSpec s = spec();
  s.layout = real;
  Journal j(s, fs, 256, rec.sink());
  EXPECT_EQ(j.journal_extent().start, L.journal[0].start);
  EXPECT_EQ(j.journal_extent().len, L.journal_blocks);
  FileSystem fs2(229376, kBs, 1 << 20, rec.sink());
  Journal computed(spec(), fs2, 256, rec.sink());
  EXPECT_EQ(computed.journal_extent().start, j.journal_extent().start);  // mke2fs's rule, reproduced
  EXPECT_EQ(computed.journal_extent().len, j.journal_extent().len);

  const std::string dir = testing::TempDir() + "ext4_layout_" + std::to_string(::getpid());
  auto file = [&](const std::string& name, const std::string& text) {
    const std::string p = dir + "_" + name;
    std::ofstream(p) << text;
    return p;
  };
  const std::string head = "Block size:               4096\nTotal journal blocks:     4096\n";
  auto error = [&](const std::string& path, uint64_t blocks) -> std::string {
    Rec r2;
    FileSystem f3(blocks, kBs, 1 << 20, r2.sink());
    JournalSpec bad = spec();
    bad.layout = path;
    try {
      Journal jj(bad, f3, 256, r2.sink());
    } catch (const ConfigError& e) {
      return e.what();
    }
    return "";
  };
  // another volume's file system
  const std::string other = file("other", head + "Block count: 262144\nEXTENTS:\n(0-4095):65536-69631\n");
  EXPECT_NE(error(other, 229376).find("host.files.ext4.layout"), std::string::npos);
  EXPECT_NE(error(other, 229376).find("262144 blocks"), std::string::npos) << error(other, 229376);
  // a journal in two extents
  const std::string two =
      file("two", head + "Block count: 229376\nEXTENTS:\n(0-2047):65536-67583, (2048-4095):70000-72047\n");
  EXPECT_NE(error(two, 229376).find("2 extents"), std::string::npos) << error(two, 229376);
  // a journal over the metadata the model lays out
  const std::string over = file("over", head + "Block count: 229376\nEXTENTS:\n(0-4095):0-4095\n");
  EXPECT_NE(error(over, 229376).find("overlaps metadata"), std::string::npos) << error(over, 229376);
  // not the tools' output: the line is named
  const std::string junk = file("junk", head + "Block count: 229376\nEXTENTS:\n(0-4095)65536-69631\n");
  EXPECT_NE(error(junk, 229376).find("_junk:5"), std::string::npos) << error(junk, 229376);
  const std::string none = file("none", "Block size: 4096\n");
  EXPECT_NE(error(none, 229376).find("Block count"), std::string::npos) << error(none, 229376);
  EXPECT_NE(error(dir + "_missing", 229376).find("cannot be read"), std::string::npos);
  for (const char* n : {"other", "two", "over", "junk", "none"}) std::remove((dir + "_" + n).c_str());
}
