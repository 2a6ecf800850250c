// request_pacer.cpp - see request_pacer.h.
#include "host/request_pacer.h"

#include <string>

namespace ssdvp {

RequestPacer RequestPacer::from_config(Config& cfg) {
  RequestPacer p;
  p.depth_ = uint32_t(cfg.get_u64("host.queue_depth"));
  const std::string mode = cfg.get_choice("host.mode");
  const std::string source = cfg.get_choice("workload.source");
  const bool synthetic_unpaced = source == "synthetic" && cfg.get_double("workload.synthetic.iops") == 0.0;
  const bool files_unpaced = source == "files" && cfg.get_double("host.files.rate") == 0.0;
  p.closed_loop_ = mode == "closed" || (mode == "auto" && (synthetic_unpaced || files_unpaced));
  p.limit_ps_ = cfg.get_time_ps("host.time_limit");
  p.stall_ps_ = cfg.get_time_ps("host.stall_timeout");
  return p;
}

}  // namespace ssdvp
