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
#include <utility>
#include <vector>

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

// Sets the stream of every write whose first byte lies in one of `ranges`
// ([begin, end) in bytes) to `stream`, and clears it on every other write
// (host.streams: journal: a recorded file system's journal, its blocks from a
// real dumpe2fs/debugfs layout, on its own stream). `what` names the ranges
// in describe(). Throws std::invalid_argument if stream is 0 or ranges is
// empty.
std::unique_ptr<Workload> make_range_streams(std::unique_ptr<Workload> inner,
                                             std::vector<std::pair<uint64_t, uint64_t>> ranges, uint8_t stream,
                                             const std::string& what);

// A recorded file system's ordering around its cache flushes
// (workload.flush_order): every flush waits for every earlier request
// (kIoBarrier) and the request after a flush waits for the flush, as a
// journal's commit waits for its PREFLUSH. For closed-loop replays of a
// block trace, whose timestamps no longer order its requests.
std::unique_ptr<Workload> make_flush_order(std::unique_ptr<Workload> inner);

}  // namespace ssdvp::host
