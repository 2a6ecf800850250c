// file_model.cpp - see file_model.h.
#include "file_model.h"

#include <algorithm>

namespace ssdvp::fs {

void ExtentSet::add(Extent e) {
  if (!e.len) return;
  remove(e);  // keep the count exact if e overlaps what is there
  uint64_t s = e.start, end = e.start + e.len;
  auto it = m_.lower_bound(s);
  if (it != m_.begin()) {
    auto p = std::prev(it);
    if (p->first + p->second == s) {
      s = p->first;
      m_.erase(p);
    }
  }
  it = m_.find(end);
  if (it != m_.end()) {
    end += it->second;
    m_.erase(it);
  }
  m_[s] = end - s;
  blocks_ += e.len;
}

void ExtentSet::remove(Extent e) {
  if (!e.len || m_.empty()) return;
  const uint64_t s = e.start, end = e.start + e.len;
  auto it = m_.upper_bound(s);
  if (it != m_.begin()) --it;
  while (it != m_.end() && it->first < end) {
    const uint64_t a = it->first, b = it->first + it->second;
    if (b <= s) {
      ++it;
      continue;
    }
    it = m_.erase(it);
    const uint64_t cut_a = std::max(a, s), cut_b = std::min(b, end);
    blocks_ -= cut_b - cut_a;
    if (a < cut_a) m_[a] = cut_a - a;
    if (cut_b < b) it = m_.emplace(cut_b, b - cut_b).first, ++it;
  }
}

std::vector<Extent> ExtentSet::take(uint64_t max_blocks) {
  std::vector<Extent> out;
  uint64_t got = 0;
  while (!m_.empty() && (max_blocks == 0 || got < max_blocks)) {
    auto it = m_.begin();
    const uint64_t n = max_blocks ? std::min(it->second, max_blocks - got) : it->second;
    out.push_back({it->first, n});
    got += n;
    remove({it->first, n});
  }
  return out;
}

ExtentAllocator::ExtentAllocator(uint64_t blocks) : total_(blocks) { free_.add({0, blocks}); }

bool ExtentAllocator::alloc(uint64_t n, std::vector<Extent>* out) {
  if (n > free_.blocks()) return false;
  uint64_t need = n;
  while (need) {
    const auto it = free_.map().begin();  // first fit: lowest free extent
    const Extent e{it->first, std::min(it->second, need)};
    free_.remove(e);
    if (!out->empty() && out->back().start + out->back().len == e.start)
      out->back().len += e.len;
    else
      out->push_back(e);
    need -= e.len;
  }
  return true;
}

void ExtentAllocator::free(Extent e) { free_.add(e); }

bool ExtentAllocator::reserve(Extent e) {
  if (e.start + e.len > total_) return false;
  ExtentSet probe = free_;
  const uint64_t before = probe.blocks();
  probe.remove(e);
  if (before - probe.blocks() != e.len) return false;
  free_ = std::move(probe);
  return true;
}

FileSystem::FileSystem(uint64_t blocks, uint32_t block_bytes, uint64_t max_io_bytes, Sink sink)
    : alloc_(blocks),
      block_(block_bytes),
      max_io_blocks_(std::max<uint64_t>(1, max_io_bytes / block_bytes)),
      sink_(std::move(sink)) {}

void FileSystem::mark_free_pending() {
  for (const auto& kv : alloc_.free_set().map()) pending_.add({kv.first, kv.second});
}

void FileSystem::emit(host::IoOp op, Extent e) {
  const uint64_t step = op == host::IoOp::trim ? e.len : max_io_blocks_;
  for (uint64_t o = 0; o < e.len; o += step) {
    host::IoRequest r;
    r.op = op;
    r.offset = (e.start + o) * block_;
    r.length = std::min(step, e.len - o) * block_;
    sink_(r);
  }
}

FileSystem::File& FileSystem::get(FileId f) {
  auto it = files_.find(f);
  if (it == files_.end()) throw std::logic_error("fs: no file " + std::to_string(f));
  return it->second;
}

uint64_t FileSystem::size(FileId f) const {
  auto it = files_.find(f);
  return it == files_.end() ? 0 : it->second.blocks * block_;
}

const std::vector<Extent>& FileSystem::extents(FileId f) const { return files_.at(f).ext; }

void FileSystem::take(uint64_t n, File& f) {
  std::vector<Extent> got;
  if (!alloc_.alloc(n, &got))
    throw FileSystemFull("file system full: " + std::to_string(n) + " blocks needed, " +
                         std::to_string(alloc_.free_blocks()) + " free");
  for (const Extent& e : got) {
    const uint64_t before = pending_.blocks();
    pending_.remove(e);
    st_.reclaimed_pending_blocks += before - pending_.blocks();
    emit(host::IoOp::write, e);
    if (!f.ext.empty() && f.ext.back().start + f.ext.back().len == e.start)
      f.ext.back().len += e.len;
    else
      f.ext.push_back(e);
    f.blocks += e.len;
  }
  taken_ = std::move(got);
}

FileSystem::FileId FileSystem::create(uint64_t bytes) {
  File f;
  take(std::max<uint64_t>(1, bytes_to_blocks(bytes)), f);
  const FileId id = next_id_++;
  f.pos = ids_.size();
  ids_.push_back(id);
  files_.emplace(id, std::move(f));
  ++st_.creates;
  if (obs_) {
    obs_->on_create(id);
    for (const Extent& e : taken_) obs_->on_alloc(id, e);
  }
  return id;
}

void FileSystem::append(FileId id, uint64_t bytes) {
  File& f = get(id);
  take(std::max<uint64_t>(1, bytes_to_blocks(bytes)), f);
  ++st_.appends;
  if (obs_)
    for (const Extent& e : taken_) obs_->on_alloc(id, e);
}

template <class Fn>
void FileSystem::walk(const File& f, uint64_t first, uint64_t n, Fn fn) const {
  uint64_t skip = first, left = n;
  for (const Extent& e : f.ext) {
    if (!left) break;
    if (skip >= e.len) {
      skip -= e.len;
      continue;
    }
    const uint64_t k = std::min(e.len - skip, left);
    fn(Extent{e.start + skip, k});
    left -= k;
    skip = 0;
  }
}

void FileSystem::overwrite(FileId id, uint64_t offset, uint64_t bytes) {
  File& f = get(id);
  const uint64_t first = offset / block_;
  if (first >= f.blocks || !bytes) return;
  const uint64_t n = std::min(f.blocks - first, (offset + bytes + block_ - 1) / block_ - first);
  walk(f, first, n, [&](Extent e) { emit(host::IoOp::write, e); });
  ++st_.overwrites;
  if (obs_) obs_->on_overwrite(id);
}

void FileSystem::read(FileId id, uint64_t offset, uint64_t bytes) {
  File& f = get(id);
  const uint64_t first = offset / block_;
  if (first >= f.blocks || !bytes) return;
  const uint64_t last = bytes == UINT64_MAX ? f.blocks : std::min(f.blocks, (offset + bytes + block_ - 1) / block_);
  walk(f, first, last - first, [&](Extent e) { emit(host::IoOp::read, e); });
  ++st_.reads;
}

void FileSystem::remove(FileId id) {
  File& f = get(id);
  if (obs_) obs_->on_remove(id, f.ext);
  for (const Extent& e : f.ext) {
    alloc_.free(e);
    st_.deleted_blocks += e.len;
    if (discard_on_delete_) {
      emit(host::IoOp::trim, e);
      st_.trimmed_blocks += e.len;
    } else {
      pending_.add(e);
    }
  }
  const size_t pos = f.pos;
  ids_[pos] = ids_.back();
  files_.at(ids_[pos]).pos = pos;
  ids_.pop_back();
  files_.erase(id);
  ++st_.deletes;
}

void FileSystem::fsync() {
  if (obs_ && obs_->on_fsync()) {
    ++st_.fsyncs;
    return;
  }
  host::IoRequest r;
  r.op = host::IoOp::flush;
  sink_(r);
  ++st_.fsyncs;
}

uint64_t FileSystem::trim_pending(uint64_t max_bytes) {
  uint64_t sent = 0;
  for (const Extent& e : pending_.take_bytes(max_bytes, block_)) {
    emit(host::IoOp::trim, e);
    sent += e.len;
  }
  st_.trimmed_blocks += sent;
  return sent * block_;
}

}  // namespace ssdvp::fs
