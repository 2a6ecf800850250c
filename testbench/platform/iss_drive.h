// iss_drive.h - the drive the iss-mode platform tests run (iss_mode_test.cpp,
// iss_power_test.cpp): 256 MiB of flash, aged functionally (a fill and half a
// drive-write of random overwrites; in iss mode every functional write runs on
// the ISS), and the quiet workload: 4,000 requests at 20 per second, GC runs
// during the timed part, and each request finds the drive idle.
#pragma once

#include <string>

namespace ssdvp_test {

inline const std::string kIssDrive = R"(
flash: {channels: 4, dies_per_channel: 2, blocks_per_plane: 64, pages_per_block: 64, page_size: 8KiB}
nvme: {namespace_size: 224MiB}
dram: {size: 32MiB}
ftl:
  gc: {policy: greedy, threshold_blocks: 8, reserve_blocks: 4}
  buffers: {write_pages: 64, read_pages: 32, gc_pages: 32}
precondition: {fill: 1.0, random_drive_writes: 0.5}
log: {level: warn}
)";

inline const std::string kIssQuiet = kIssDrive + R"(
workload:
  source: synthetic
  synthetic: {pattern: uniform, requests: 4000, io_size: 4KiB, read_fraction: 0.3, seed: 3, iops: 20}
)";

}  // namespace ssdvp_test
