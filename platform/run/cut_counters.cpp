// cut_counters.cpp - see cut_counters.h.
#include "run/cut_counters.h"

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>

namespace ssdvp {

namespace {

static_assert(sizeof(ftl_stats) % sizeof(uint64_t) == 0, "ftl_stats: 64-bit words");
static_assert(std::is_trivially_copyable<ftl_stats>::value, "ftl_stats: a plain C struct");

// The 64-bit words of ftl_stats that are gauges, not counters.
bool is_gauge(size_t off) {
  static const size_t gauges[] = {
      offsetof(ftl_stats, free_blocks),  // with free_blocks_min: one word
      offsetof(ftl_stats, retired_blocks),      offsetof(ftl_stats, factory_bad_blocks),
      offsetof(ftl_stats, recovery_pages),      offsetof(ftl_stats, recovery_torn),
      offsetof(ftl_stats, recovery_lbas),       offsetof(ftl_stats, recovery_ns),
      offsetof(ftl_stats, ckpt_in_progress),    offsetof(ftl_stats, recovery_ckpt_gen),
      offsetof(ftl_stats, recovery_ckpt_pages), offsetof(ftl_stats, recovery_ckpt_torn),
      offsetof(ftl_stats, recovery_dropped),    offsetof(ftl_stats, recovery_reopened),
      offsetof(ftl_stats, recovery_trimmed),
  };
  static_assert(offsetof(ftl_stats, free_blocks) % sizeof(uint64_t) == 0 &&
                    offsetof(ftl_stats, free_blocks_min) == offsetof(ftl_stats, free_blocks) + 4,
                "free_blocks and free_blocks_min share one 64-bit word");
  for (const size_t g : gauges)
    if (g == off) return true;
  return false;
}

}  // namespace

void add_counter_difference(ftl_stats& acc, const ftl_stats& plus, const ftl_stats& minus) {
  constexpr size_t words = sizeof(ftl_stats) / sizeof(uint64_t);
  uint64_t r[words], p[words], m[words];
  std::memcpy(r, &acc, sizeof r);
  std::memcpy(p, &plus, sizeof p);
  std::memcpy(m, &minus, sizeof m);
  for (size_t i = 0; i < words; ++i)
    if (!is_gauge(i * sizeof(uint64_t))) r[i] += p[i] - m[i];  // modulo 2^64
  std::memcpy(&acc, r, sizeof r);
}

}  // namespace ssdvp
