// file_model.h - a small file system model over a namespace, for host
// workloads that create, append, overwrite and delete files.
//
// This is the shared file/extent layer: it knows files, extents and free
// space and turns file operations into block requests (host::IoRequest) handed
// to a sink; it knows nothing of workloads (personalities.h) or of when
// discards are sent (the TRIM policy). A journaling model can sit on the same
// layer: reserve the journal's blocks with reserve(), write it with
// write_blocks(), and route data writes through the FileSystem as here.
//
// Units: the file system's block is one device LBA (block_bytes); sizes and
// offsets in the interface are in bytes, rounded up to whole blocks.
//  - ExtentAllocator: free extents kept coalesced in a map; allocation is
//    first fit: it takes the lowest free extents in address order until the
//    request is met (a file may therefore be fragmented).
//  - Deleted extents become pending discards (a set kept as coalesced
//    extents). Allocation removes what it takes from the pending set, so a
//    pending discard always covers free blocks only (as fstrim trims only
//    free space) and a discard can never hit live data.
//  - Reads of a file cover exactly the blocks it holds; the host driver's
//    scoreboard checks every block read against what was last written there
//    (a trimmed block reads as deallocated).
#pragma once

#include <algorithm>
#include <cstdint>
#include <functional>
#include <map>
#include <random>
#include <stdexcept>
#include <string>
#include <unordered_map>
#include <vector>

#include "workload.h"

namespace ssdvp::fs {

struct Extent {
  uint64_t start = 0, len = 0;  // blocks
};

// A set of blocks kept as disjoint, coalesced extents.
class ExtentSet {
 public:
  void add(Extent e);
  void remove(Extent e);  // removes the intersection
  uint64_t blocks() const { return blocks_; }
  bool empty() const { return m_.empty(); }
  size_t extents() const { return m_.size(); }
  const std::map<uint64_t, uint64_t>& map() const { return m_; }  // start -> len
  // Takes extents from the lowest address until `max_blocks` (0: all).
  std::vector<Extent> take(uint64_t max_blocks);
  // The same capped in bytes of `block_bytes` blocks (0: all; a cap under one block takes one).
  std::vector<Extent> take_bytes(uint64_t max_bytes, uint64_t block_bytes) {
    return take(max_bytes ? std::max<uint64_t>(1, max_bytes / block_bytes) : 0);
  }

 private:
  std::map<uint64_t, uint64_t> m_;
  uint64_t blocks_ = 0;
};

class ExtentAllocator {
 public:
  explicit ExtentAllocator(uint64_t blocks);
  // First fit: appends to *out the lowest free extents totalling n blocks.
  // Returns false (allocating nothing) if fewer than n blocks are free.
  bool alloc(uint64_t n, std::vector<Extent>* out);
  void free(Extent e);
  // Takes a specific range out of free space (e.g. a journal); false if any
  // of it is not free.
  bool reserve(Extent e);
  uint64_t free_blocks() const { return free_.blocks(); }
  uint64_t total_blocks() const { return total_; }
  const ExtentSet& free_set() const { return free_; }

 private:
  uint64_t total_;
  ExtentSet free_;
};

class FileSystemFull : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// What a file system's metadata layer (the journal, journal.h) is told of
// each operation, after its data requests have been emitted.
class FileSystemObserver {
 public:
  virtual ~FileSystemObserver() = default;
  virtual void on_create(uint64_t file) = 0;                                  // a new inode and directory entry
  virtual void on_alloc(uint64_t file, const Extent& e) = 0;                  // blocks taken (bitmaps, inode)
  virtual void on_overwrite(uint64_t file) = 0;                               // data rewritten in place (mtime)
  virtual void on_remove(uint64_t file, const std::vector<Extent>& ext) = 0;  // before the blocks are freed
  // true: the observer made the fsync durable itself (no plain flush).
  virtual bool on_fsync() = 0;
};

class FileSystem {
 public:
  using Sink = std::function<void(const host::IoRequest&)>;
  using FileId = uint64_t;
  // blocks: namespace size in blocks; max_io_bytes: largest request emitted.
  FileSystem(uint64_t blocks, uint32_t block_bytes, uint64_t max_io_bytes, Sink sink);

  // With discard_on_delete, a deleted file's blocks are trimmed at once (the
  // `discard` mount option) instead of becoming pending.
  void set_discard_on_delete(bool on) { discard_on_delete_ = on; }
  // Marks all currently free space as pending discards (an aged drive whose
  // free space was never trimmed).
  void mark_free_pending();
  // Metadata layer told of every operation (null: none).
  void set_observer(FileSystemObserver* o) { obs_ = o; }

  // Creates a file of `bytes` and writes it whole. Throws FileSystemFull.
  FileId create(uint64_t bytes);
  // Appends `bytes` (allocated at the tail, written). Throws FileSystemFull.
  void append(FileId f, uint64_t bytes);
  // Writes [offset, offset + bytes) of the file in place (clamped to its size).
  void overwrite(FileId f, uint64_t offset, uint64_t bytes);
  // Reads [offset, offset + bytes) (clamped), or the whole file.
  void read(FileId f, uint64_t offset, uint64_t bytes);
  void read_whole(FileId f) { read(f, 0, UINT64_MAX); }
  void remove(FileId f);
  void fsync();
  // Sends pending discards (lowest address first, at most max_bytes; 0: all)
  // as trim requests; returns the bytes sent.
  uint64_t trim_pending(uint64_t max_bytes = 0);

  bool exists(FileId f) const { return files_.count(f) != 0; }
  uint64_t size(FileId f) const;
  size_t files() const { return ids_.size(); }
  // A uniformly chosen live file (files() must be > 0).
  FileId random_file(std::mt19937_64& rng) const { return ids_[rng() % ids_.size()]; }
  const ExtentAllocator& allocator() const { return alloc_; }
  const ExtentSet& pending() const { return pending_; }
  uint32_t block_bytes() const { return block_; }
  uint64_t bytes_to_blocks(uint64_t bytes) const { return (bytes + block_ - 1) / block_; }
  // The blocks a file holds, in file order (for tests and the journal layer).
  const std::vector<Extent>& extents(FileId f) const;
  // Low level, for layers on top: emits requests over a block range.
  void write_blocks(Extent e) { emit(host::IoOp::write, e); }
  bool reserve(Extent e) { return alloc_.reserve(e); }

  struct Stats {
    uint64_t creates = 0, appends = 0, overwrites = 0, reads = 0, deletes = 0, fsyncs = 0;
    uint64_t deleted_blocks = 0, trimmed_blocks = 0, reclaimed_pending_blocks = 0;
  };
  const Stats& stats() const { return st_; }

 private:
  struct File {
    std::vector<Extent> ext;
    uint64_t blocks = 0;
    size_t pos = 0;  // index in ids_
  };
  void emit(host::IoOp op, Extent e);
  void take(uint64_t n, File& f);
  File& get(FileId f);
  template <class Fn>
  void walk(const File& f, uint64_t first, uint64_t n, Fn fn) const;  // fn(Extent) over file blocks

  ExtentAllocator alloc_;
  ExtentSet pending_;
  uint32_t block_;
  uint64_t max_io_blocks_;
  Sink sink_;
  bool discard_on_delete_ = false;
  FileSystemObserver* obs_ = nullptr;
  std::vector<Extent> taken_;  // what the last take() allocated
  std::unordered_map<FileId, File> files_;
  std::vector<FileId> ids_;
  FileId next_id_ = 1;
  Stats st_;
};

}  // namespace ssdvp::fs
