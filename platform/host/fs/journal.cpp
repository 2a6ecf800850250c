// journal.cpp - see journal.h.
#include "journal.h"

#include <algorithm>

#include "common/config.h"
#include "ext4_layout.h"

namespace ssdvp::fs {

namespace {
constexpr uint8_t kIoBarrier = host::kIoBarrier;
constexpr uint8_t kIoFsyncBegin = host::kIoFsyncBegin;
constexpr uint8_t kIoBarrierFsyncEnd = host::kIoBarrier | host::kIoFsyncEnd;
constexpr uint8_t kIoBarrierFsync = host::kIoBarrier | host::kIoFsyncBegin | host::kIoFsyncEnd;
}  // namespace

uint64_t ext4_default_journal_blocks(uint64_t n) {
  if (n < 2048) return 0;
  if (n < 32768) return 1024;
  if (n < 256 * 1024) return 4096;
  if (n < 512 * 1024) return 8192;
  if (n < 4096 * 1024) return 16384;
  if (n < 8192 * 1024) return 32768;
  if (n < 16384 * 1024) return 65536;
  if (n < 32768 * 1024) return 131072;
  return 262144;
}

JournalSpec JournalSpec::from_config(Config& cfg) {
  JournalSpec s;
  s.enable = cfg.get_choice("host.files.journal") == "ordered";
  s.size_bytes = cfg.get_size("host.files.journal_size");
  s.commit_ps = cfg.get_time_ps("host.files.commit");
  s.stream = uint8_t(cfg.get_u64("host.files.journal_stream"));
  s.inode_size = cfg.get_size("host.files.ext4.inode_size");
  s.inode_ratio = cfg.get_size("host.files.ext4.inode_ratio");
  s.flex_bg = uint32_t(cfg.get_u64("host.files.ext4.flex_bg"));
  s.layout = cfg.get_string("host.files.ext4.layout");
  if (s.commit_ps == 0) throw ConfigError("config key 'host.files.commit': must be positive");
  return s;
}

Journal::Journal(const JournalSpec& s, FileSystem& fs, uint64_t max_io_blocks, Sink sink)
    : s_(s), fs_(fs), max_io_(std::max<uint64_t>(1, max_io_blocks)), sink_(std::move(sink)) {
  bs_ = fs.block_bytes();
  total_ = fs.allocator().total_blocks();
  if (s.inode_size == 0 || s.inode_size > bs_ || bs_ % s.inode_size)
    throw ConfigError("config key 'host.files.ext4.inode_size': must divide the block size (" + std::to_string(bs_) +
                      ")");
  if (s.inode_ratio < bs_) throw ConfigError("config key 'host.files.ext4.inode_ratio': must be at least one block");
  bpg_ = 8 * bs_;  // one bitmap block covers a group
  ipg_ = std::max<uint64_t>(bs_ / s.inode_size, bpg_ * bs_ / s.inode_ratio);
  itb_ = ipg_ * s.inode_size / bs_;
  groups_ = (total_ + bpg_ - 1) / bpg_;
  gdt_blocks_ = (groups_ * 64 + bs_ - 1) / bs_;  // 64-byte descriptors (64bit feature)
  epb_ = std::max<uint64_t>(1, bs_ / 32);        // 32-byte directory entries (8-byte header, 24-byte name)
  bb_.resize(groups_);
  ib_.resize(groups_);
  it_.resize(groups_);
  lay_out_groups(superblock_copy_blocks());
  const std::vector<Extent>& meta = meta_;
  uint64_t jblocks = s.size_bytes ? (s.size_bytes + bs_ - 1) / bs_ : ext4_default_journal_blocks(total_);
  if (jblocks < 1024 || meta_blocks_ + jblocks >= total_ / 2)
    throw ConfigError("config key 'host.files.journal': a " + std::to_string(total_) +
                      "-block volume has no room for a " + std::to_string(jblocks) + "-block journal and " +
                      std::to_string(meta_blocks_) +
                      " metadata blocks (jbd2 needs at least 1024 journal blocks; set host.files.journal_size)");
  uint64_t js = journal_start(jblocks);
  if (!s.layout.empty()) {  // where and how large the real file system put it
    const std::string key = "host.files.ext4.layout";
    const Ext4Layout L = read_ext4_layout(s.layout, key);
    auto fail = [&](const std::string& what) {
      throw ConfigError("config key '" + key + "': " + L.path + ": " + what);
    };
    if (L.block_size != bs_)
      fail(std::to_string(L.block_size) + "-byte blocks; the volume has " + std::to_string(bs_) + "-byte blocks");
    if (L.block_count != total_)
      fail("a file system of " + std::to_string(L.block_count) + " blocks; the volume holds " + std::to_string(total_) +
           " (mkfs.ext4 an image of the namespace's size)");
    if (L.journal.size() != 1)
      fail("a journal in " + std::to_string(L.journal.size()) + " extents; the model's journal is one");
    if (s.size_bytes && s.size_bytes != L.journal_blocks * bs_)
      fail("a " + std::to_string(L.journal_blocks) + "-block journal, host.files.journal_size says otherwise");
    const Extent j = L.journal[0];
    if (j.start + j.len > total_) fail("the journal ends past the volume");
    for (const Extent& m : meta)
      if (j.start < m.start + m.len && m.start < j.start + j.len)
        fail("the journal (blocks " + std::to_string(j.start) + "+" + std::to_string(j.len) +
             ") overlaps metadata the model lays out at " + std::to_string(m.start) + "+" + std::to_string(m.len));
    js = j.start;
    jblocks = j.len;
  }
  jext_ = {js, jblocks};
  for (const Extent& m : meta)
    if (!fs.reserve(m)) throw std::logic_error("journal: metadata overlaps files (build the journal before any file)");
  if (!fs.reserve(jext_)) throw std::logic_error("journal: its region is not free");
  log_start_ = js + 1;  // block 0 of the journal is its superblock
  log_len_ = jblocks - 1;
  tags_per_desc_ = (bs_ - 12 - 4) / 16;  // 12-byte header, 4-byte checksum tail, 16-byte tags (csum v3)
  max_txn_ = log_len_ / 4;               // jbd2: a transaction may use a quarter of the journal
  max_txn_ -= (max_txn_ + tags_per_desc_) / (tags_per_desc_ + 1) + 1;  // its descriptors and commit block
}

// A superblock copy's blocks: the superblock, the descriptors and mke2fs's
// reserved GDT blocks.
uint64_t Journal::superblock_copy_blocks() const {
  // mke2fs's reserved GDT blocks (online resize up to 1024 times the size,
  // at most 2^32 blocks), after the descriptors in every superblock copy.
  const uint64_t max_blocks = total_ < 0xffffffffull / 1024 ? total_ * 1024 : 0xffffffffull;
  const uint64_t rsv_groups = (max_blocks + bpg_ - 1) / bpg_, per_gdt = bs_ / 64;
  const uint64_t want = (rsv_groups + per_gdt - 1) / per_gdt;
  const uint64_t rsv_gdt = std::min<uint64_t>(want > gdt_blocks_ ? want - gdt_blocks_ : 0, bs_ / 4);
  return 1 + gdt_blocks_ + rsv_gdt;
}

// The groups' metadata: backup superblocks, then per flex group the block
// and inode bitmaps and inode tables (and, in the first, the directory).
void Journal::lay_out_groups(uint64_t sb_copy) {
  const JournalSpec& s = s_;
  std::vector<Extent>& meta = meta_;
  // sparse_super: backup superblocks in groups 1 and powers of 3, 5 and 7
  for (uint64_t p : {3ull, 5ull, 7ull})
    for (uint64_t g = p; g < groups_; g *= p) meta.push_back({g * bpg_, sb_copy});
  if (groups_ > 1) meta.push_back({bpg_, sb_copy});
  std::sort(meta.begin(), meta.end(), [](const Extent& a, const Extent& b) { return a.start < b.start; });
  meta.erase(std::unique(meta.begin(), meta.end(), [](const Extent& a, const Extent& b) { return a.start == b.start; }),
             meta.end());
  for (const Extent& m : meta) meta_blocks_ += m.len;
  for (uint64_t f = 0; f * s.flex_bg < groups_; ++f) {
    const uint64_t g0 = f * s.flex_bg, n = std::min<uint64_t>(s.flex_bg, groups_ - g0);
    uint64_t at = g0 * bpg_ + (g0 == 0 || sb_backup(g0) ? sb_copy : 0);
    const uint64_t start = g0 == 0 ? 0 : at;
    for (uint64_t k = 0; k < n; ++k) bb_[g0 + k] = at + k;
    at += n;
    for (uint64_t k = 0; k < n; ++k) ib_[g0 + k] = at + k;
    at += n;
    for (uint64_t k = 0; k < n; ++k) it_[g0 + k] = at + k * itb_;
    at += n * itb_;
    if (g0 == 0) {  // the directory holding every file: one entry per inode
      dir_start_ = at;
      at += (groups_ * ipg_ + epb_ - 1) / epb_;
    }
    meta.push_back({start, at - start});
    meta_blocks_ += at - start;
  }
}

// Where a jblocks-block journal starts: mke2fs's midpoint rule, then past
// any metadata it would overlap.
uint64_t Journal::journal_start(uint64_t jblocks) const {
  const JournalSpec& s = s_;
  const std::vector<Extent>& meta = meta_;
  // mke2fs's midpoint rule: of the groups around the middle one, the one
  // with the most free blocks (the first on a tie); the journal starts at its
  // first free block.
  auto free_in = [&](uint64_t g) {
    const uint64_t a = g * bpg_, b = std::min(total_, a + bpg_);
    uint64_t used = 0;
    for (const Extent& m : meta) {
      const uint64_t lo = std::max(a, m.start), hi = std::min(b, m.start + m.len);
      used += hi > lo ? hi - lo : 0;
    }
    return b - a - used;
  };
  uint64_t mid = (total_ / 2) / bpg_, start;
  if (s.flex_bg > 1 && mid > s.flex_bg) {
    mid &= ~uint64_t(s.flex_bg - 1);
    while (mid < groups_ && free_in(mid) == 0) ++mid;
    if (mid == groups_) mid = 0;
    start = mid;
  } else {
    start = mid > 0 ? mid - 1 : mid;
  }
  const uint64_t end = mid + 1 < groups_ ? mid + 1 : mid;
  uint64_t jg = start;
  for (uint64_t g = start + 1; g <= end; ++g)
    if (free_in(g) > free_in(jg)) jg = g;
  uint64_t js = jg * bpg_;
  for (bool moved = true; moved;) {
    moved = false;
    for (const Extent& m : meta)
      if (js < m.start + m.len && m.start < js + jblocks) {
        js = m.start + m.len;
        moved = true;
      }
  }
  if (js + jblocks > total_) js = total_ - jblocks;
  return js;
}

bool Journal::sb_backup(uint64_t g) {
  if (g <= 1) return true;
  for (uint64_t p : {3ull, 5ull, 7ull}) {
    uint64_t x = g;
    while (x % p == 0) x /= p;
    if (x == 1) return true;
  }
  return false;
}

uint64_t Journal::gdt_block_of(uint64_t g) const { return 1 + g * 64 / bs_; }
uint64_t Journal::inode_block_of(uint64_t ino) const {
  const uint64_t i = ino - 1;
  return it_[(i / ipg_) % groups_] + (i % ipg_) * s_.inode_size / bs_;
}
uint64_t Journal::ibitmap_of(uint64_t ino) const { return ib_[((ino - 1) / ipg_) % groups_]; }
uint64_t Journal::dir_block_of(uint64_t ino) const { return dir_start_ + (ino - 1) / epb_; }

uint64_t Journal::inode_block(uint64_t file) const {
  auto it = ino_.find(file);
  return it == ino_.end() ? UINT64_MAX : inode_block_of(it->second);
}

void Journal::dirty(uint64_t b) {
  if (running_.empty()) txn_start_ps_ = now_ps_;
  running_.insert(b);
  if (!in_setup_ && running_.size() >= max_txn_) commit(Why::full);
}

void Journal::dirty_groups(const Extent& e) {
  if (!e.len) return;
  for (uint64_t g = e.start / bpg_; g <= (e.start + e.len - 1) / bpg_ && g < groups_; ++g) {
    dirty(bb_[g]);
    dirty(gdt_block_of(g));
  }
}

void Journal::on_create(uint64_t file) {
  uint64_t ino;
  if (!free_inos_.empty()) {
    ino = *free_inos_.begin();
    free_inos_.erase(free_inos_.begin());
  } else {
    if (next_ino_ > groups_ * ipg_)
      throw FileSystemFull("file system out of inodes: " + std::to_string(groups_ * ipg_) +
                           " (host.files.ext4.inode_ratio)");
    ino = next_ino_++;
  }
  ino_[file] = ino;
  dirty(inode_block_of(ino));
  dirty(ibitmap_of(ino));
  dirty(gdt_block_of((ino - 1) / ipg_));
  dirty(dir_block_of(ino));
}

void Journal::on_alloc(uint64_t file, const Extent& e) {
  auto it = ino_.find(file);
  if (it != ino_.end()) dirty(inode_block_of(it->second));  // i_size, i_blocks, extent tree
  dirty_groups(e);
}

void Journal::on_overwrite(uint64_t file) {
  auto it = ino_.find(file);
  if (it != ino_.end()) dirty(inode_block_of(it->second));  // mtime, ctime
}

void Journal::on_remove(uint64_t file, const std::vector<Extent>& ext) {
  auto it = ino_.find(file);
  if (it == ino_.end()) return;
  const uint64_t ino = it->second;
  dirty(inode_block_of(ino));
  dirty(ibitmap_of(ino));
  dirty(gdt_block_of((ino - 1) / ipg_));
  dirty(dir_block_of(ino));
  dirty(0);  // the orphan list head (s_last_orphan) in the superblock
  for (const Extent& e : ext) dirty_groups(e);
  free_inos_.insert(ino);
  ino_.erase(it);
}

bool Journal::on_fsync() {
  if (running_.empty()) {
    ++st_.empty_fsyncs;
    flush(kIoBarrierFsync);
    return true;
  }
  commit(Why::fsync);
  return true;
}

void Journal::tick(uint64_t now_ps) {
  now_ps_ = now_ps;
  if (!in_setup_ && !running_.empty() && now_ps - txn_start_ps_ >= s_.commit_ps) commit(Why::timer);
}

void Journal::end_setup(uint64_t now_ps) {
  std::vector<uint64_t> b(running_.begin(), running_.end());
  st_.setup_blocks += b.size();
  write_home(std::move(b));
  emit(jext_.start, 1, s_.stream, 0, 0);  // mke2fs writes the journal superblock
  st_.superblock_writes++;
  st_.log_blocks++;
  running_.clear();
  in_setup_ = false;
  now_ps_ = txn_start_ps_ = now_ps;
}

void Journal::emit(uint64_t start, uint64_t len, uint8_t stream, uint8_t flags_first, uint8_t flags_last) {
  for (uint64_t o = 0; o < len; o += max_io_) {
    host::IoRequest r;
    r.op = host::IoOp::write;
    r.offset = (start + o) * bs_;
    const uint64_t n = std::min(max_io_, len - o);
    r.length = n * bs_;
    r.stream = stream;
    if (o == 0) r.flags |= flags_first;
    if (o + n >= len) r.flags |= flags_last;
    sink_(r);
  }
}

void Journal::emit_log(uint64_t n, uint8_t flags_first, uint8_t flags_last) {
  st_.log_blocks += n;
  while (n) {
    const uint64_t k = std::min(n, log_len_ - head_);
    n -= k;
    emit(log_start_ + head_, k, s_.stream, flags_first, n ? 0 : flags_last);
    flags_first = 0;
    head_ += k;
    if (head_ == log_len_) {
      head_ = 0;
      ++st_.wraps;
    }
  }
}

void Journal::flush(uint8_t flags) {
  host::IoRequest r;
  r.op = host::IoOp::flush;
  r.flags = flags;
  sink_(r);
}

void Journal::write_home(std::vector<uint64_t> b) {
  std::sort(b.begin(), b.end());
  for (size_t i = 0; i < b.size();) {
    size_t j = i + 1;
    while (j < b.size() && b[j] == b[j - 1] + 1) ++j;
    emit(b[i], b[j - 1] - b[i] + 1, 0, 0, 0);  // home metadata travels untagged, like data
    i = j;
  }
}

void Journal::make_space(uint64_t need) {
  bool moved = false;
  while (log_len_ - used_ < need && !txns_.empty()) {
    Txn& t = txns_.front();
    std::vector<uint64_t> home;
    for (uint64_t b : t.blocks) {
      auto it = last_txn_.find(b);
      if (it != last_txn_.end() && it->second == t.id) {
        home.push_back(b);
        last_txn_.erase(it);
      }
    }
    st_.checkpoint_blocks += home.size();
    ++st_.checkpoints;
    write_home(std::move(home));
    used_ -= t.len;
    txns_.pop_front();
    moved = true;
  }
  if (moved) {  // the new tail, once the checkpointed blocks are home
    emit(jext_.start, 1, s_.stream, kIoBarrier, 0);
    st_.superblock_writes++;
    st_.log_blocks++;
  }
}

void Journal::commit(Why why) {
  const bool sync = why == Why::fsync;
  Txn t{next_txn_++, 0, std::vector<uint64_t>(running_.begin(), running_.end())};
  running_.clear();
  const uint64_t n = t.blocks.size();
  const uint64_t desc = (n + tags_per_desc_ - 1) / tags_per_desc_;
  t.len = desc + n + 1;
  make_space(t.len);
  // Ordered mode: the data already queued reaches the drive first (an fsync
  // waits for it: barrier), then descriptors and metadata copies; the commit
  // block goes with PREFLUSH and FUA (flush, write, flush).
  emit_log(desc + n, sync ? uint8_t(kIoBarrier | kIoFsyncBegin) : 0, 0);
  flush(sync ? kIoBarrier : 0);
  emit_log(1, sync ? kIoBarrier : 0, 0);
  flush(sync ? kIoBarrierFsyncEnd : 0);
  for (uint64_t b : t.blocks) last_txn_[b] = t.id;
  used_ += t.len;
  st_.descriptor_blocks += desc;
  st_.metadata_logged += n;
  st_.commit_blocks++;
  st_.commits++;
  (why == Why::timer ? st_.commits_timer : why == Why::fsync ? st_.commits_fsync : st_.commits_full)++;
  txns_.push_back(std::move(t));
  txn_start_ps_ = now_ps_;
}

}  // namespace ssdvp::fs
