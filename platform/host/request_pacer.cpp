// request_pacer.cpp - see request_pacer.h.
#include "host/request_pacer.h"

#include <string>

namespace ssdvp {

RequestPacer RequestPacer::from_config(Config& cfg) {
  RequestPacer p;
  p.depth_ = uint32_t(cfg.get_u64("host.queue_depth", 32, "commands outstanding at most on the I/O queue", 1, 65535));
  const std::string mode = cfg.get_choice(
      "host.mode", "auto", {"auto", "open", "closed"},
      "open: issue at trace timestamps; closed: keep host.queue_depth outstanding; auto: closed for a synthetic "
      "workload without an arrival rate (workload.synthetic.iops: 0) or a file-level one without host.files.rate, open "
      "otherwise");
  const std::string source = cfg.get_string("workload.source", "synthetic", "where host requests come from");
  const bool synthetic_unpaced =
      source == "synthetic" &&
      cfg.get_double("workload.synthetic.iops", 0.0, "open-loop arrival rate (0 = closed loop)", 0.0) == 0.0;
  const bool files_unpaced =
      source == "files" &&
      cfg.get_double("host.files.rate", 0.0, "file-level host: flowop loops per second (0: closed loop, flat out)",
                     0.0) == 0.0;
  p.closed_loop_ = mode == "closed" || (mode == "auto" && (synthetic_unpaced || files_unpaced));
  p.limit_ps_ = cfg.get_time_ps("host.time_limit", "0s",
                                "stop issuing new requests after this much simulated time (0: run the whole workload)");
  p.stall_ps_ =
      cfg.get_time_ps("host.stall_timeout", "60s",
                      "fail the run if no command completes for this long while some are outstanding (0: never)");
  return p;
}

}  // namespace ssdvp
