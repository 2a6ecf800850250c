// journal.h - an ext4-like journaling layer (jbd2, data=ordered) over the
// shared file model (file_model.h), for the journal/data separation
// experiments (docs/models/host_journal.md).
//
// The Journal lays out the volume as mke2fs would (superblock and group
// descriptors at block 0, each flex group's block bitmaps, inode bitmaps and
// inode tables packed at its start, a directory region, the journal at the
// middle group) and reserves those blocks from the file model's free space,
// so files never land there. It observes every file operation
// (FileSystemObserver) and dirties the metadata blocks ext4 would dirty; the
// running transaction is committed every `commit` interval or on fsync as
// descriptor blocks + one copy of each dirty metadata block + a commit block,
// written sequentially into the circular log. Data blocks reach their home
// locations before the commit (the file model emits them at the operation:
// ordered mode). When the log has no room for a commit, the oldest
// transactions are checkpointed: their metadata blocks (those not relogged by
// a later transaction) are written to their home locations and the journal
// superblock records the new tail.
//
// Journal writes carry `stream` as their NVMe stream ID (0: untagged), the
// device-FTL arm of the separation experiment.
#pragma once

#include <cstdint>
#include <deque>
#include <functional>
#include <set>
#include <unordered_map>
#include <vector>

#include "file_model.h"

namespace ssdvp {
class Config;
}

namespace ssdvp::fs {

// e2fsprogs' ext2fs_default_journal_size(): journal blocks mke2fs gives a
// file system of `fs_blocks` blocks (0 below 2048 blocks: no journal).
uint64_t ext4_default_journal_blocks(uint64_t fs_blocks);

struct JournalSpec {
  bool enable = false;                             // host.files.journal: ordered
  uint64_t size_bytes = 0;                         // 0: ext4's default for the volume
  uint64_t commit_ps = 5000000000000ull;           // jbd2's commit interval (the `commit=` mount option)
  uint8_t stream = 0;                              // NVMe stream ID on journal writes (0: untagged)
  uint64_t inode_size = 256, inode_ratio = 16384;  // mke2fs.conf defaults
  uint32_t flex_bg = 16;                           // groups whose metadata is packed together (mke2fs default)
  std::string layout;  // host.files.ext4.layout: a real mkfs.ext4's dumpe2fs/debugfs output (empty: computed)
  // Reads the host.files.journal* and host.files.ext4.* keys.
  static JournalSpec from_config(Config& cfg);
};

struct JournalStats {
  uint64_t commits = 0, commits_timer = 0, commits_fsync = 0, commits_full = 0;
  uint64_t empty_fsyncs = 0;  // fsync with nothing to commit: a flush only
  uint64_t log_blocks = 0;    // all journal writes: descriptors + metadata copies + commits + superblock
  uint64_t descriptor_blocks = 0, commit_blocks = 0, metadata_logged = 0, superblock_writes = 0;
  uint64_t checkpoints = 0, checkpoint_blocks = 0;  // transactions checkpointed, metadata blocks written home
  uint64_t setup_blocks = 0;                        // metadata written home at the end of the fileset's layout
  uint64_t wraps = 0;                               // times the log head wrapped
};

class Journal : public FileSystemObserver {
 public:
  using Sink = FileSystem::Sink;
  // Lays the volume out and reserves metadata and journal from fs's free
  // space: build it before any file exists. Throws ConfigError (naming the
  // key) if the volume is too small. max_io_blocks: largest request emitted.
  Journal(const JournalSpec& s, FileSystem& fs, uint64_t max_io_blocks, Sink sink);

  // The clock: commits the running transaction once it is `commit` old.
  void tick(uint64_t now_ps);
  // End of the fileset's layout (mkfs, files copied in, sync): every dirty
  // metadata block is written home, no journal traffic.
  void end_setup(uint64_t now_ps);

  void on_create(uint64_t file) override;
  void on_alloc(uint64_t file, const Extent& e) override;
  void on_overwrite(uint64_t file) override;
  void on_remove(uint64_t file, const std::vector<Extent>& ext) override;
  bool on_fsync() override;

  const JournalStats& stats() const { return st_; }
  const JournalSpec& spec() const { return s_; }
  Extent journal_extent() const { return jext_; }                        // journal superblock + log
  uint64_t metadata_blocks() const { return meta_blocks_; }              // reserved besides the journal
  const std::vector<Extent>& metadata_extents() const { return meta_; }  // superblock copies, group metadata, directory
  uint64_t groups() const { return groups_; }
  size_t running_blocks() const { return running_.size(); }
  uint64_t log_used() const { return used_; }
  uint64_t log_capacity() const { return log_len_; }
  // Home block of a file's inode (for tests); UINT64_MAX if it has none.
  uint64_t inode_block(uint64_t file) const;

 private:
  enum class Why { timer, fsync, full };
  struct Txn {
    uint64_t id, len;              // log blocks it occupies
    std::vector<uint64_t> blocks;  // metadata blocks it logged
  };
  void dirty(uint64_t block);
  void dirty_groups(const Extent& e);  // block bitmaps and descriptors of the groups e spans
  void commit(Why why);
  void make_space(uint64_t need);
  void write_home(std::vector<uint64_t> blocks);
  void emit(uint64_t start, uint64_t len, uint8_t stream, uint8_t flags_first, uint8_t flags_last);
  void emit_log(uint64_t n, uint8_t flags_first, uint8_t flags_last);
  void flush(uint8_t flags);
  uint64_t inode_block_of(uint64_t ino) const;
  uint64_t ibitmap_of(uint64_t ino) const;
  uint64_t dir_block_of(uint64_t ino) const;
  uint64_t gdt_block_of(uint64_t group) const;
  static bool sb_backup(uint64_t group);  // sparse_super: a backup superblock in this group
  // The constructor's layout steps (journal.cpp).
  uint64_t superblock_copy_blocks() const;
  void lay_out_groups(uint64_t sb_copy);
  uint64_t journal_start(uint64_t jblocks) const;

  JournalSpec s_;
  FileSystem& fs_;
  uint64_t max_io_;
  Sink sink_;
  JournalStats st_;
  // layout
  uint64_t bs_, total_, bpg_, ipg_, itb_, groups_, gdt_blocks_, epb_;
  std::vector<uint64_t> bb_, ib_, it_;  // per group: block bitmap, inode bitmap, inode table start
  uint64_t dir_start_ = 0, meta_blocks_ = 0;
  std::vector<Extent> meta_;
  Extent jext_;
  uint64_t log_start_ = 0, log_len_ = 0, tags_per_desc_ = 0, max_txn_ = 0;
  // state
  std::unordered_map<uint64_t, uint64_t> ino_;  // file -> inode number
  std::set<uint64_t> free_inos_;
  uint64_t next_ino_ = 12;  // 1..10 reserved, 11 lost+found (ext4)
  std::set<uint64_t> running_;
  uint64_t txn_start_ps_ = 0, now_ps_ = 0;
  bool in_setup_ = true;
  std::deque<Txn> txns_;
  std::unordered_map<uint64_t, uint64_t> last_txn_;  // metadata block -> newest transaction holding it
  uint64_t next_txn_ = 1, head_ = 0, used_ = 0;
};

}  // namespace ssdvp::fs
