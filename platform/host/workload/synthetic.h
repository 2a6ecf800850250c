// synthetic.h - synthetic workload generators: uniform, hot/cold, Zipf and
// sequential address patterns, open-loop (fixed or Poisson arrivals) or
// closed-loop (all requests at time 0). Deterministic for a seed on every
// platform (random.h). Config keys live under "workload.synthetic."; see
// docs/traces.md ("Synthetic workloads").
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "workload.h"

namespace ssdvp {
class Config;
}

namespace ssdvp::host {

enum class SyntheticPattern { uniform, hotcold, zipf, sequential, shifting };
enum class ArrivalProcess { fixed, poisson, bursts };
const char* to_string(SyntheticPattern p);
const char* to_string(ArrivalProcess a);

struct SyntheticSpec {
  SyntheticPattern pattern = SyntheticPattern::uniform;
  uint64_t requests = 100000;        // requests per pass; 0 = unlimited (the driver stops the run)
  uint64_t io_size = 4096;           // bytes per request, a multiple of 512
  uint64_t align = 4096;             // request offsets are multiples of this (a multiple of 512)
  double read_fraction = 0.5;        // probability that a request is a read (else a write)
  uint64_t footprint = 0;            // bytes addressed from offset 0; 0 = the whole device
  double hot_requests = 0.8;         // hotcold: fraction of requests that go to the hot set
  double hot_space = 0.2;            // hotcold: fraction of the footprint's slots that are hot (the first ones)
  double cold_space = 0.5;           // shifting: fraction of the footprint (its end) never written
  uint64_t shift_requests = 100000;  // shifting: the hot window moves on every this many requests (0: never)
  double zipf_theta = 0.99;          // zipf: P(rank k) ~ 1/k^theta
  bool zipf_scatter = true;          // zipf: scatter ranks over the footprint with a keyed permutation
  double iops = 0;                   // open-loop arrival rate; 0 = all at time 0 (closed loop)
  ArrivalProcess arrival = ArrivalProcess::fixed;  // inter-arrival: fixed 1/iops, exponential, or bursts
  uint64_t burst_requests = 1000;                  // bursts: requests per burst (at iops within it)
  uint64_t burst_gap_ps = 100000000000ull;         // bursts: quiet time before each burst
  uint64_t seed = 1;
  uint64_t device_bytes = 0;  // capacity the footprint must fit in

  // Reads workload.synthetic.* (declaring each key with its default and
  // description) and validates; throws ConfigError naming the key.
  static SyntheticSpec from_config(ssdvp::Config& cfg, uint64_t device_bytes);

  // Throws std::invalid_argument naming the offending key
  // ("workload.synthetic.<key>: ...").
  void validate() const;

  uint64_t effective_footprint() const { return footprint ? footprint : device_bytes; }
  // Request slots: offsets 0, align, 2*align, ... such that the whole request
  // fits in the footprint: (footprint - io_size) / align + 1.
  uint64_t slots() const;
  std::string describe() const;
};

// Validates the spec (std::invalid_argument) and returns the generator.
// rewind() restarts the identical sequence.
std::unique_ptr<Workload> make_synthetic(const SyntheticSpec& spec);

}  // namespace ssdvp::host
