// checkpoints.cpp - see checkpoints.h.
#include "run/checkpoints.h"

namespace ssdvp {

uint64_t checkpoint_slots(const ftl_stats& s, const ftl_stats& a, uint32_t slots_per_page) {
  return (s.ckpt_programs - a.ckpt_programs) * slots_per_page;
}

nlohmann::json checkpoint_json(const ftl_config& c, const ftl_stats& s, const ftl_stats& a) {
  return {{"interval_s", double(c.ckpt_interval_ns) * 1e-9},
          {"interval_lba_writes", c.ckpt_interval_lbas},
          {"taken", s.ckpt_taken - a.ckpt_taken},
          {"failed", s.ckpt_failed - a.ckpt_failed},
          {"programs", s.ckpt_programs - a.ckpt_programs},
          {"erases", s.ckpt_erases - a.ckpt_erases},
          {"metadata_lba_writes", checkpoint_slots(s, a, c.slots_per_page)},
          {"drain_s", double(s.ckpt_drain_ns - a.ckpt_drain_ns) * 1e-9}};
}

nlohmann::json trim_log_json(const ftl_config& c, const ftl_stats& s, const ftl_stats& a) {
  return {{"blocks_per_area", c.trim_log_blocks},
          {"gc_barrier", c.trim_log_gc_barrier},
          {"programs", s.trim_log_programs - a.trim_log_programs},
          {"moves", s.trim_log_rotations - a.trim_log_rotations},
          {"erases", s.trim_log_erases - a.trim_log_erases},
          {"gc_erases_waited", s.trim_log_gc_waits - a.trim_log_gc_waits},
          {"metadata_lba_writes", checkpoint_slots(s, a, c.slots_per_page)}};
}

}  // namespace ssdvp
