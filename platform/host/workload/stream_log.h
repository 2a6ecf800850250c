// stream_log.h - two Workload wrappers for measuring what a stream
// assignment buys (docs/results/streams.md): one records the stream ID each
// write was given (host.streams_log), so that the separation an assignment
// achieves can be measured offline against the data's real lifetimes
// (scripts/streams_lifetimes.py); the other gives every write a uniformly
// random stream (host.streams: random), the cost of open streams without
// any information about lifetimes.
//
// One CSV line per write and trim, in the order the host takes them:
// time_ps,op,offset,length,stream (op: write or trim; offset and length in
// bytes; stream 0: none). Reads and flushes are not recorded.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "workload.h"

namespace ssdvp::host {

// Passes `inner`'s requests through unchanged and appends each write and
// trim to the CSV file `path` (created or truncated). Throws
// std::runtime_error naming the key host.streams_log if the file cannot be
// opened or written.
std::unique_ptr<Workload> make_stream_log(std::unique_ptr<Workload> inner, const std::string& path);

// Sets every write's stream to one of 1..streams drawn uniformly at random
// (splitmix64 of seed and the write's number: the same run gives the same
// streams). Throws std::invalid_argument if streams is 0 or above 255.
std::unique_ptr<Workload> make_random_streams(std::unique_ptr<Workload> inner, uint32_t streams, uint64_t seed);

}  // namespace ssdvp::host
