// personalities.h - file-level workloads over the file model, and the
// host::Workload that feeds their block requests to the host driver.
//
// A personality runs one "flowop loop" at a time on a FileSystem (as one
// Filebench thread does); every file operation becomes block requests in the
// workload's queue. Personalities (docs/models/host_files.md has the flowops
// and their defaults):
//  - fio:        the seed's job: 512 KiB random overwrites inside nrfiles
//                files that fill host.files.fill of the namespace, sustained;
//                after each file has been overwritten `loops` times over, a
//                new file is laid out and the old one deleted (fio's unlink
//                of a finished job), so there is something to trim.
//  - fileserver, varmail, webserver: Filebench's personalities, with nfiles,
//                meanfilesize, meanappendsize and iosize defaulting to
//                Filebench's own (file sizes gamma-distributed, shape 1.5,
//                as Filebench's filesets).
//
// The workload is endless (stop it with host.time_limit) unless
// host.files.loops is set. Its first setup_requests() requests lay out the
// fileset (run as preconditioning). Discards: with TRIM policy `discard` the
// file system trims at delete; other policies call trim_pending() (the
// requests go ahead of the queue).
#pragma once

#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <random>
#include <string>

#include "discard_source.h"
#include "file_model.h"
#include "journal.h"
#include "workload.h"

namespace ssdvp {
class Config;
}

namespace ssdvp::fs {

struct FilesSpec {
  std::string personality = "fio";  // fio | fileserver | varmail | webserver
  uint64_t device_bytes = 0;
  uint32_t block_bytes = 4096;
  double fill = 0.8;   // fio: fraction of the namespace the files fill; others: most the fileset may need
  uint64_t loops = 0;  // flowop loops to run (0: endless)
  double rate = 0;     // flowop loops per second (open loop; 0: closed loop)
  uint64_t seed = 1;
  bool discard_on_delete = false;
  bool initial_free_pending = true;
  // fio
  uint64_t fio_nrfiles = 4, fio_bs = 512 * 1024;
  double fio_loops = 1.0;
  uint64_t fio_fsync = 0;       // fsync after every n writes (fio's fsync=n; 0: never)
  bool fio_sequential = false;  // fio's rw=write (each file overwritten in order) instead of randwrite
  // filebench
  uint64_t nfiles = 0, meanfilesize = 0, meanappendsize = 16 * 1024, iosize = 1024 * 1024;
  JournalSpec journal;  // ext4-like journal (journal.h); off by default
  // Reads the host.files.* keys (and errors naming them).
  static FilesSpec from_config(Config& cfg, uint64_t device_bytes, uint32_t block_bytes, bool discard_on_delete);
};

class FileWorkload : public host::Workload, public DiscardSource {
 public:
  // Throws ConfigError (naming the key) if the fileset cannot fit.
  explicit FileWorkload(const FilesSpec& s);
  bool next(host::IoRequest& out) override;
  void rewind() override;  // not supported: throws
  std::string describe() const override;
  const host::WorkloadStats& stats() const override { return stats_; }

  uint64_t setup_requests() const { return setup_; }
  // Queues the pending discards (at most max_bytes; 0: all) ahead of the
  // workload's own requests; returns the bytes.
  uint64_t trim_pending(uint64_t max_bytes = 0) override;
  uint64_t pending_bytes() const override { return fs_.pending().blocks() * s_.block_bytes; }
  FileSystem& fs() { return fs_; }
  const FileSystem& fs() const { return fs_; }
  uint64_t loops_run() const { return loops_run_; }
  // The journal (host.files.journal: ordered), or null.
  const Journal* journal() const { return journal_.get(); }
  // Simulated time in ps, read at each request (the journal's commit timer).
  void set_clock(std::function<uint64_t()> c) { clock_ = std::move(c); }

 private:
  void push(const host::IoRequest& r);
  void step();  // one flowop loop
  void step_fio();
  void step_fileserver();
  void step_varmail();
  void step_webserver();
  uint64_t file_size();  // gamma(1.5) with mean meanfilesize, at least one block
  void make_room(uint64_t bytes);

  FilesSpec s_;
  std::mt19937_64 rng_;
  std::deque<host::IoRequest> q_, trims_;
  FileSystem fs_;
  std::unique_ptr<Journal> journal_;
  std::function<uint64_t()> clock_;
  host::WorkloadStats stats_;
  uint64_t setup_ = 0, loops_run_ = 0;
  bool ended_ = false;
  // fio: per file, bytes overwritten since it was laid out
  std::vector<FileSystem::FileId> fio_files_;
  std::vector<uint64_t> fio_written_;
  uint64_t fio_writes_ = 0;  // writes since the last fsync
  uint64_t fio_file_bytes_ = 0;
  FileSystem::FileId logfile_ = 0;  // webserver
};

}  // namespace ssdvp::fs
