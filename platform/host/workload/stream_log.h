// stream_log.h - a Workload wrapper that records the stream ID each write
// was given (host.streams_log), so that the separation a stream assignment
// achieves can be measured offline against the data's real lifetimes
// (scripts/streams_lifetimes.py, docs/results/streams.md).
//
// One CSV line per write and trim, in the order the host takes them:
// time_ps,op,offset,length,stream (op: write or trim; offset and length in
// bytes; stream 0: none). Reads and flushes are not recorded.
#pragma once

#include <memory>
#include <string>

#include "workload.h"

namespace ssdvp::host {

// Passes `inner`'s requests through unchanged and appends each write and
// trim to the CSV file `path` (created or truncated). Throws
// std::runtime_error naming the key host.streams_log if the file cannot be
// opened or written.
std::unique_ptr<Workload> make_stream_log(std::unique_ptr<Workload> inner, const std::string& path);

}  // namespace ssdvp::host
