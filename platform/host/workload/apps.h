// apps.h - application-like workload generators for the multi-stream
// experiment (docs/results/streams.md): the four workloads of the LSTM
// stream-prediction paper, as parameterised generators, not traces.
//
//   fio       several jobs, each with its own area, request size and queue
//             depth (a burst of QD requests at one timestamp); all writes; in
//             each job a hot window takes most writes and moves regularly
//   rocksdb   an LSM tree: a sequential write-ahead log (4 KiB appends,
//             trimmed after each flush), memtable flushes written as SST
//             files to L0, compactions that read their inputs and rewrite
//             them one level down (level sizes grow by a ratio), old SSTs
//             deallocated (TRIM)
//   mysql     random 16 KiB page updates over a table space whose hot pages
//             are stable chunks, plus a sequential circular redo log
//   rocksdb2  two rocksdb instances, each on half of the footprint,
//             interleaved in time (the paper's two containers)
//
// Keys under workload.app.*; documented in docs/traces.md ("Application
// workloads"). Deterministic for a seed; open loop at workload.app.iops
// operations per second.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "workload.h"

namespace ssdvp {
class Config;
}

namespace ssdvp::host {

struct AppSpec {
  std::string kind = "fio";      // fio, rocksdb, mysql, rocksdb2
  uint64_t operations = 200000;  // operations (fio: requests; rocksdb: puts; mysql: page updates)
  double iops = 2000;            // operations per second
  double footprint = 0.9;        // fraction of the device the application uses
  uint64_t seed = 1;
  uint64_t device_bytes = 0;
  // fio
  uint32_t fio_jobs = 4;          // job j: area footprint/jobs, size 4 KiB << (j % 3), QD 1 << (j % 4)
  double fio_hot_space = 0.1;     // fraction of a job's area in its hot window
  double fio_hot_requests = 0.8;  // fraction of a job's writes that go to the window
  double fio_shift_s = 20;        // the window moves by its own length every this many seconds
  // rocksdb
  uint64_t sst_bytes = 4u << 20;   // SST file (and memtable) size
  uint64_t io_bytes = 128u << 10;  // request size of flush and compaction I/O
  uint32_t l0_trigger = 4;         // L0 files that start an L0 -> L1 compaction
  uint32_t l1_files = 8;           // L1 target size in files; level i: l1_files * ratio^(i-1)
  uint32_t ratio = 4;              // level size ratio (and files a compaction takes from the next level)
  double dedup = 0.1;              // fraction of a compaction's input dropped as overwritten keys
  double db_fraction = 0.6;        // live data the last level holds at most, a fraction of the SST area
  // mysql
  double hot_space = 0.1;       // fraction of the table space in hot chunks
  double hot_requests = 0.8;    // fraction of page updates that go to them
  double read_fraction = 0.3;   // page reads per operation
  double redo_fraction = 0.05;  // redo log area, a fraction of the footprint

  static AppSpec from_config(ssdvp::Config& cfg, uint64_t device_bytes);
  std::string describe() const;
};

std::unique_ptr<Workload> make_app(const AppSpec& spec);

}  // namespace ssdvp::host
