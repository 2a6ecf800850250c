// personalities.cpp - see personalities.h.
#include "personalities.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "common/config.h"

namespace ssdvp::fs {

FilesSpec FilesSpec::from_config(Config& cfg, uint64_t device_bytes, uint32_t block_bytes, bool discard_on_delete) {
  FilesSpec s;
  s.device_bytes = device_bytes;
  s.block_bytes = block_bytes;
  s.discard_on_delete = discard_on_delete;
  s.personality = cfg.get_choice("host.files.personality");
  s.fill = cfg.get_double("host.files.fill");
  s.loops = cfg.get_u64("host.files.loops");
  s.seed = cfg.get_u64("host.files.seed");
  s.rate = cfg.get_double("host.files.rate");
  s.initial_free_pending = cfg.get_bool("host.files.initial_free_pending");
  s.fio_nrfiles = cfg.get_u64("host.files.fio.nrfiles");
  s.fio_bs = cfg.get_size("host.files.fio.bs");
  s.fio_loops = cfg.get_double("host.files.fio.loops");
  s.fio_fsync = cfg.get_u64("host.files.fio.fsync");
  s.fio_sequential = cfg.get_choice("host.files.fio.rw") == "write";
  // Filebench defaults (workloads/*.f): fileserver nfiles 10000, meanfilesize
  // 128k; varmail and webserver nfiles 1000, meanfilesize 16k; all
  // meanappendsize 16k, iosize 1m.
  const bool fsrv = s.personality == "fileserver";
  s.nfiles = cfg.get_u64("host.files.nfiles");
  if (!s.nfiles) s.nfiles = fsrv ? 10000 : 1000;
  s.meanfilesize = cfg.get_size("host.files.meanfilesize");
  if (!s.meanfilesize) s.meanfilesize = fsrv ? 128 * 1024 : 16 * 1024;
  s.meanappendsize = cfg.get_size("host.files.meanappendsize");
  s.iosize = cfg.get_size("host.files.iosize");
  if (s.fio_bs < block_bytes || s.fio_bs % block_bytes)
    throw ConfigError("config key 'host.files.fio.bs': must be a multiple of the LBA size (" +
                      std::to_string(block_bytes) + ")");
  if (s.iosize < block_bytes) throw ConfigError("config key 'host.files.iosize': must be at least one LBA");
  if (s.meanappendsize == 0) throw ConfigError("config key 'host.files.meanappendsize': must be positive");
  s.journal = JournalSpec::from_config(cfg);
  return s;
}

FileWorkload::FileWorkload(const FilesSpec& s)
    : s_(s),
      rng_(s.seed),
      fs_(s.device_bytes / s.block_bytes, s.block_bytes, s.personality == "fio" ? s.fio_bs : s.iosize,
          [this](const host::IoRequest& r) { push(r); }) {
  const uint64_t ns = s.device_bytes;
  char buf[256];
  if (s.journal.enable) {  // lays out and reserves the metadata and the journal before any file
    const uint64_t io = s.personality == "fio" ? s.fio_bs : s.iosize;
    journal_ = std::make_unique<Journal>(s.journal, fs_, std::max<uint64_t>(1, io / s.block_bytes),
                                         [this](const host::IoRequest& r) { push(r); });
    fs_.set_observer(journal_.get());
  }
  const uint64_t avail = fs_.allocator().free_blocks() * s.block_bytes;  // what files may use
  if (s.personality == "fio") {
    fio_file_bytes_ = uint64_t(double(ns) * s.fill / double(s.fio_nrfiles)) / s.fio_bs * s.fio_bs;
    if (fio_file_bytes_ == 0) {
      std::snprintf(buf, sizeof buf,
                    "config key 'host.files.fio.nrfiles': %llu files of at least one %llu-byte block "
                    "do not fit in %.3g of the %llu-byte namespace (host.files.fill)",
                    (unsigned long long)s.fio_nrfiles, (unsigned long long)s.fio_bs, s.fill, (unsigned long long)ns);
      throw ConfigError(buf);
    }
    // Replacing a file needs room for the new one before the old is deleted.
    if (fio_file_bytes_ * (s.fio_nrfiles + 1) > avail) {
      std::snprintf(
          buf, sizeof buf,
          "config key 'host.files.fill': the workload needs more space than the namespace: "
          "%llu files of %llu bytes plus one being replaced exceed %llu bytes (lower host.files.fill or raise "
          "host.files.fio.nrfiles)",
          (unsigned long long)s.fio_nrfiles, (unsigned long long)fio_file_bytes_, (unsigned long long)avail);
      throw ConfigError(buf);
    }
    for (uint64_t i = 0; i < s.fio_nrfiles; ++i) {
      fio_files_.push_back(fs_.create(fio_file_bytes_));
      fio_written_.push_back(0);
    }
  } else {
    const double need = double(s.nfiles) * double(s.meanfilesize);
    if (need > double(ns) * s.fill) {
      std::snprintf(buf, sizeof buf,
                    "config key 'host.files.nfiles': the workload needs more space than the namespace: "
                    "%llu files of mean %llu bytes = %.0f bytes > %.3g of %llu bytes (host.files.fill)",
                    (unsigned long long)s.nfiles, (unsigned long long)s.meanfilesize, need, s.fill,
                    (unsigned long long)ns);
      throw ConfigError(buf);
    }
    // Filebench preallocates 80 % of the fileset (webserver 100 %).
    const uint64_t pre = s.personality == "webserver" ? s.nfiles : s.nfiles * 8 / 10;
    for (uint64_t i = 0; i < pre; ++i) fs_.create(file_size());
    if (s.personality == "webserver") logfile_ = fs_.create(s.block_bytes);
  }
  if (journal_) journal_->end_setup(0);
  setup_ = q_.size();
  fs_.set_discard_on_delete(s.discard_on_delete);
  if (s.initial_free_pending) {
    fs_.mark_free_pending();
    if (s.discard_on_delete) fs_.trim_pending();  // the discard option trims it all at once (like mkfs/mount)
  }
}

void FileWorkload::push(const host::IoRequest& r) {
  if (r.op == host::IoOp::trim)
    trims_.push_back(r);
  else
    q_.push_back(r);
}

uint64_t FileWorkload::trim_pending(uint64_t max_bytes) { return fs_.trim_pending(max_bytes); }

bool FileWorkload::next(host::IoRequest& out) {
  if (journal_ && clock_ && stats_.records >= setup_) journal_->tick(clock_());
  // Setup requests first, in order; then discards go ahead of the queue.
  if (stats_.records >= setup_ && !trims_.empty()) {
    out = trims_.front();
    trims_.pop_front();
  } else {
    while (q_.empty() && !ended_) {
      if (s_.loops && loops_run_ >= s_.loops) {
        ended_ = true;
        break;
      }
      step();
      ++loops_run_;
      if (q_.empty() && !trims_.empty()) break;
    }
    if (!q_.empty()) {
      out = q_.front();
      q_.pop_front();
    } else if (!trims_.empty()) {
      out = trims_.front();
      trims_.pop_front();
    } else {
      return false;
    }
  }
  // Open loop: a loop's requests (and the discards queued meanwhile) arrive
  // when the loop starts; setup requests at 0.
  out.time_ps = s_.rate > 0 && loops_run_ ? uint64_t(double(loops_run_ - 1) * 1e12 / s_.rate) : 0;
  ++stats_.records;
  switch (out.op) {
    case host::IoOp::read:
      ++stats_.reads;
      stats_.read_bytes += out.length;
      break;
    case host::IoOp::write:
      ++stats_.writes;
      stats_.write_bytes += out.length;
      break;
    case host::IoOp::trim:
      ++stats_.trims;
      stats_.trim_bytes += out.length;
      break;
    case host::IoOp::flush: ++stats_.flushes; break;
  }
  return true;
}

void FileWorkload::rewind() { throw std::logic_error("a file-level workload cannot be rewound"); }

std::string FileWorkload::describe() const {
  char b[256];
  if (s_.personality == "fio")
    std::snprintf(
        b, sizeof b,
        "files: fio, %llu files of %llu bytes (fill %.2f), %llu-byte %s writes, file replaced every %.2fx its size%s",
        (unsigned long long)s_.fio_nrfiles, (unsigned long long)fio_file_bytes_, s_.fill, (unsigned long long)s_.fio_bs,
        s_.fio_sequential ? "sequential" : "random", s_.fio_loops,
        s_.fio_fsync ? (", fsync every " + std::to_string(s_.fio_fsync) + " writes").c_str() : "");
  else
    std::snprintf(b, sizeof b, "files: %s, %llu files of mean %llu bytes, appends up to %llu bytes, iosize %llu",
                  s_.personality.c_str(), (unsigned long long)s_.nfiles, (unsigned long long)s_.meanfilesize,
                  (unsigned long long)s_.meanappendsize, (unsigned long long)s_.iosize);
  std::string d = b;
  if (journal_) {
    std::snprintf(b, sizeof b, "; ext4 journal (ordered) of %llu blocks at %llu, commit %.3g s, journal stream %u",
                  (unsigned long long)journal_->journal_extent().len,
                  (unsigned long long)journal_->journal_extent().start, double(s_.journal.commit_ps) * 1e-12,
                  unsigned(s_.journal.stream));
    d += b;
  }
  return d;
}

uint64_t FileWorkload::file_size() {
  std::gamma_distribution<double> g(1.5, double(s_.meanfilesize) / 1.5);
  return std::max<uint64_t>(s_.block_bytes, uint64_t(g(rng_)));
}

void FileWorkload::make_room(uint64_t bytes) {
  // A full file system: delete random files (not the webserver log) until the request fits.
  const uint64_t need = fs_.bytes_to_blocks(bytes);
  while (fs_.allocator().free_blocks() < need && fs_.files() > 1) {
    auto f = fs_.random_file(rng_);
    if (f == logfile_) continue;
    fs_.remove(f);
  }
}

void FileWorkload::step() {
  if (s_.personality == "fio")
    step_fio();
  else if (s_.personality == "fileserver")
    step_fileserver();
  else if (s_.personality == "varmail")
    step_varmail();
  else
    step_webserver();
}

void FileWorkload::step_fio() {
  const size_t k = rng_() % fio_files_.size();
  const uint64_t blocks = fio_file_bytes_ / s_.fio_bs;
  // rw=write: the file is overwritten in order from where it stands
  const uint64_t off =
      s_.fio_sequential ? (fio_written_[k] / s_.fio_bs % blocks) * s_.fio_bs : (rng_() % blocks) * s_.fio_bs;
  fs_.overwrite(fio_files_[k], off, s_.fio_bs);
  fio_written_[k] += s_.fio_bs;
  if (s_.fio_fsync && ++fio_writes_ >= s_.fio_fsync) {
    fio_writes_ = 0;
    fs_.fsync();
  }
  if (double(fio_written_[k]) >= s_.fio_loops * double(fio_file_bytes_)) {
    // The job's file is done: a new one is laid out, then the old one unlinked.
    const auto old = fio_files_[k];
    fio_files_[k] = fs_.create(fio_file_bytes_);
    fio_written_[k] = 0;
    fs_.remove(old);
  }
}

void FileWorkload::step_fileserver() {
  // createfile, writewholefile, closefile
  uint64_t sz = file_size();
  make_room(sz);
  if (fs_.files() < s_.nfiles) fs_.create(sz);
  if (!fs_.files()) return;
  // openfile, appendfilerand (1 .. meanappendsize), closefile
  const uint64_t app = 1 + rng_() % s_.meanappendsize;
  make_room(app);
  fs_.append(fs_.random_file(rng_), app);
  // openfile, readwholefile, closefile
  fs_.read_whole(fs_.random_file(rng_));
  // deletefile (statfile: no I/O)
  if (fs_.files() > 1) fs_.remove(fs_.random_file(rng_));
}

void FileWorkload::step_varmail() {
  // deletefile
  if (fs_.files() > 1) fs_.remove(fs_.random_file(rng_));
  // createfile, appendfilerand, fsync, closefile
  const uint64_t a1 = 1 + rng_() % s_.meanappendsize;
  make_room(a1);
  const auto f = fs_.create(a1);
  fs_.fsync();
  // openfile, readwholefile, appendfilerand, fsync, closefile
  auto g = fs_.random_file(rng_);
  fs_.read_whole(g);
  const uint64_t a2 = 1 + rng_() % s_.meanappendsize;
  make_room(a2);
  if (fs_.exists(g)) fs_.append(g, a2);
  fs_.fsync();
  // openfile, readwholefile, closefile
  fs_.read_whole(fs_.random_file(rng_));
  (void)f;
}

void FileWorkload::step_webserver() {
  // 10 x (openfile, readwholefile, closefile), appendfilerand on the log
  for (int i = 0; i < 10; ++i) {
    auto f = fs_.random_file(rng_);
    if (f != logfile_) fs_.read_whole(f);
  }
  const uint64_t a = 1 + rng_() % s_.meanappendsize;
  make_room(a);
  fs_.append(logfile_, a);
}

}  // namespace ssdvp::fs
