// run_workload.h - the run's workload from workload.* (a trace read once
// through to check it, a synthetic or application generator, the file-level
// host, a zoned log), shared by every kind of run, and the stream layer that
// tags a recorded ext4's journal writes.
#pragma once

#include <cstdint>
#include <memory>

#include "common/config.h"
#include "workload.h"
#include "zoned.h"

namespace ssdvp {

// device_bytes: the namespace the workload folds into; zones: the namespace's
// zones (nvme.command_set zns), for workload.source zoned; expected: set to
// the requests the workload will yield when known beforehand (a trace's
// records times its loops, a generator's count; 0: not known).
std::unique_ptr<host::Workload> make_workload(Config& cfg, uint64_t device_bytes, uint32_t lba_size,
                                              const host::ZoneGeometry* zones = nullptr, uint64_t* expected = nullptr);

// host.streams: journal: a recorded ext4's journal writes (the journal inode's
// blocks in host.files.ext4.layout, a real dumpe2fs/debugfs output) on stream
// host.files.journal_stream, every other write on none.
std::unique_ptr<host::Workload> make_journal_streams(Config& cfg, std::unique_ptr<host::Workload> w, uint32_t streams);

}  // namespace ssdvp
