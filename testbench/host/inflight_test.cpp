// inflight_test.cpp - InflightIndex (the host driver's O(1) free-slot and
// overlap bookkeeping) against the O(QD) scans it replaces, on random
// sequences of submissions and completions with colliding LBAs.
#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <vector>

#include "host/inflight.h"

using ssdvp::InflightIndex;

namespace {

struct Cmd {
  bool busy = false, flush = false, write_like = false;
  uint64_t lba = 0, n = 0;
};

// The reference: the scans HostDriver::free_slot and conflicts did.
uint32_t scan_free(const std::vector<Cmd>& s) {
  for (uint32_t i = 0; i < s.size(); ++i)
    if (!s[i].busy) return i;
  return UINT32_MAX;
}
bool scan_conflicts(const std::vector<Cmd>& s, bool write_like, uint64_t lba, uint64_t n) {
  for (const Cmd& c : s) {
    if (!c.busy || c.flush) continue;
    if (!write_like && !c.write_like) continue;
    if (lba < c.lba + c.n && c.lba < lba + n) return true;
  }
  return false;
}

void run(uint32_t qd, uint64_t lbas, double multi_fraction, uint32_t seed) {
  std::mt19937_64 rng(seed);
  InflightIndex idx(qd);
  std::vector<Cmd> slots(qd);
  uint64_t checked = 0, conflicts = 0;
  for (int step = 0; step < 200000; ++step) {
    ASSERT_EQ(idx.free_slot(), scan_free(slots)) << "step " << step;
    const bool write_like = rng() % 2;
    const uint64_t lba = rng() % lbas;
    if (idx.exact()) {
      const bool want = scan_conflicts(slots, write_like, lba, 1);
      ASSERT_EQ(idx.overlaps(write_like, lba), want) << "step " << step;
      ++checked;
      conflicts += want;
    }
    const uint32_t free = idx.free_slot();
    if (free != UINT32_MAX && rng() % 2) {  // submit
      Cmd c;
      c.busy = true;
      c.flush = rng() % 50 == 0;
      c.write_like = write_like;
      c.lba = c.flush ? 0 : lba;
      c.n = c.flush ? 0 : (std::uniform_real_distribution<double>(0, 1)(rng) < multi_fraction ? 2 + rng() % 8 : 1);
      slots[free] = c;
      idx.add(free, !c.flush, c.write_like, c.lba, c.n);
    } else {  // complete a random busy slot
      const uint32_t s = uint32_t(rng() % qd);
      if (!slots[s].busy) continue;
      idx.remove(s, !slots[s].flush, slots[s].write_like, slots[s].lba, slots[s].n);
      slots[s].busy = false;
    }
  }
  // The runs must exercise both answers, or the test proves nothing.
  EXPECT_GT(checked, 10000u);
  EXPECT_GT(conflicts, 100u);
  EXPECT_LT(conflicts, checked);
}

}  // namespace

TEST(InflightIndex, SingleLbaCommandsMatchTheScan) { run(64, 200, 0.0, 1); }
TEST(InflightIndex, OddQueueDepthManyCollisions) { run(37, 50, 0.0, 2); }
TEST(InflightIndex, MultiLbaCommandsFallBack) { run(128, 400, 0.02, 3); }
TEST(InflightIndex, QueueDepthOne) { run(1, 4, 0.0, 4); }
