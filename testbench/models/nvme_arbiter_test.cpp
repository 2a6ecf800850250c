// NvmeArbiter: the fetch order of round robin and of weighted round robin
// with urgent priority class, each worked out by hand from the NVMe rules
// (nvme_arbiter.h). The driver below takes min(quota, waiting) commands at
// each pick, as the controller does when its CMD ring has room.
#include <gtest/gtest.h>

#include <map>
#include <utility>
#include <vector>

#include "nvme/nvme_arbiter.h"

using namespace ssdvp;

namespace {

using Turns = std::vector<std::pair<uint16_t, uint32_t>>;  // (qid, commands launched)

Turns run(NvmeArbiter& a, std::map<uint16_t, uint32_t>& waiting, size_t picks) {
  Turns out;
  auto w = [&waiting](uint16_t q) { return waiting.count(q) ? waiting[q] : 0u; };
  for (size_t i = 0; i < picks; ++i) {
    uint16_t q;
    uint32_t quota;
    if (!a.pick(w, &q, &quota)) break;
    const uint32_t n = std::min(quota, waiting[q]);
    EXPECT_GE(n, 1u) << "picked a queue with nothing waiting: " << q;
    waiting[q] -= n;
    a.took(q, n);
    out.emplace_back(q, n);
  }
  return out;
}

// dword 11 of Set Features Arbitration: AB, LPW, MPW, HPW (0's based weights).
uint32_t arb(uint32_t ab, uint32_t lpw, uint32_t mpw, uint32_t hpw) { return ab | lpw << 8 | mpw << 16 | hpw << 24; }

TEST(NvmeArbiter, RoundRobinTakesEachQueueInCreationOrderUpToTheBurst) {
  NvmeArbiter a(4);
  for (uint16_t q : {1, 2, 3}) a.add(q, NvmeArbiter::medium);
  std::map<uint16_t, uint32_t> w{{1, 10}, {2, 3}, {3, 9}};
  // 1:4 2:3 3:4 | 1:4 (2 empty) 3:4 | 1:2 3:1
  EXPECT_EQ(run(a, w, 20), (Turns{{1, 4}, {2, 3}, {3, 4}, {1, 4}, {3, 4}, {1, 2}, {3, 1}}));
}

TEST(NvmeArbiter, RoundRobinIgnoresPriorityAndIncludesTheAdminQueue) {
  NvmeArbiter a(2);
  a.add(0, NvmeArbiter::urgent);
  a.add(1, NvmeArbiter::low);
  a.add(2, NvmeArbiter::urgent);
  std::map<uint16_t, uint32_t> w{{0, 1}, {1, 4}, {2, 4}};
  EXPECT_EQ(run(a, w, 20), (Turns{{0, 1}, {1, 2}, {2, 2}, {1, 2}, {2, 2}}));
}

TEST(NvmeArbiter, WeightedRoundRobinSplitsByWeightAndBurst) {
  NvmeArbiter a;
  a.set_mechanism(NvmeArbiter::Mechanism::wrr);
  a.set_feature(arb(1, 0, 1, 2));  // burst 2; weights high 3, medium 2, low 1
  EXPECT_EQ(a.burst(), 2u);
  EXPECT_EQ(a.weight(NvmeArbiter::high), 3u);
  EXPECT_EQ(a.weight(NvmeArbiter::medium), 2u);
  EXPECT_EQ(a.weight(NvmeArbiter::low), 1u);
  a.add(3, NvmeArbiter::low);  // creation order does not matter across classes
  a.add(2, NvmeArbiter::medium);
  a.add(1, NvmeArbiter::high);
  std::map<uint16_t, uint32_t> w{{1, 100}, {2, 100}, {3, 100}};
  // A round: high 3 commands (a burst of 2, then its last credit), medium 2, low 1.
  EXPECT_EQ(run(a, w, 8), (Turns{{1, 2}, {1, 1}, {2, 2}, {3, 1}, {1, 2}, {1, 1}, {2, 2}, {3, 1}}));
}

TEST(NvmeArbiter, WeightedRoundRobinIsRoundRobinWithinAClass) {
  NvmeArbiter a;
  a.set_mechanism(NvmeArbiter::Mechanism::wrr);
  a.set_feature(arb(1, 0, 0, 3));  // burst 2; high 4, medium 1, low 1
  a.add(1, NvmeArbiter::high);
  a.add(4, NvmeArbiter::high);
  a.add(2, NvmeArbiter::medium);
  std::map<uint16_t, uint32_t> w{{1, 100}, {4, 100}, {2, 100}};
  EXPECT_EQ(run(a, w, 6), (Turns{{1, 2}, {4, 2}, {2, 1}, {1, 2}, {4, 2}, {2, 1}}));
}

TEST(NvmeArbiter, AdminThenUrgentComeFirstUnderWeightedRoundRobin) {
  NvmeArbiter a;
  a.set_mechanism(NvmeArbiter::Mechanism::wrr);
  a.set_feature(arb(0, 0, 0, 0));  // burst 1, all weights 1
  a.add(1, NvmeArbiter::high);
  a.add(2, NvmeArbiter::urgent);
  a.add(0, NvmeArbiter::urgent);
  a.add(3, NvmeArbiter::urgent);
  std::map<uint16_t, uint32_t> w{{1, 2}, {2, 2}, {3, 1}, {0, 2}};
  // admin drains first, then the urgent queues round robin, then high.
  EXPECT_EQ(run(a, w, 10), (Turns{{0, 1}, {0, 1}, {2, 1}, {3, 1}, {2, 1}, {1, 1}, {1, 1}}));
}

TEST(NvmeArbiter, AnEmptyClassLeavesTheRoundToTheOthers) {
  NvmeArbiter a;
  a.set_mechanism(NvmeArbiter::Mechanism::wrr);
  a.set_feature(arb(7, 1, 3, 15));  // no burst limit; high 16, medium 4, low 2
  EXPECT_EQ(a.burst(), UINT32_MAX);
  a.add(1, NvmeArbiter::high);
  a.add(2, NvmeArbiter::medium);
  a.add(3, NvmeArbiter::low);
  std::map<uint16_t, uint32_t> w{{2, 10}, {3, 10}};  // high idle
  EXPECT_EQ(run(a, w, 4), (Turns{{2, 4}, {3, 2}, {2, 4}, {3, 2}}));
  // High arrives: it still holds this round's credit (it had no command when
  // its turn came), spends it, opens the next round, then medium and low go.
  w[1] = 20;
  EXPECT_EQ(run(a, w, 4), (Turns{{1, 16}, {1, 4}, {2, 2}, {3, 2}}));
}

TEST(NvmeArbiter, FeatureReadsBackAndRemovedQueuesAreNotPicked) {
  NvmeArbiter a(8);
  EXPECT_EQ(a.feature() & 7, 3u);  // burst 8 = 2^3
  a.set_feature(arb(2, 5, 6, 7));
  EXPECT_EQ(a.feature(), arb(2, 5, 6, 7));
  a.add(1, NvmeArbiter::medium);
  a.add(2, NvmeArbiter::medium);
  a.remove(1);
  std::map<uint16_t, uint32_t> w{{1, 5}, {2, 5}};
  EXPECT_EQ(run(a, w, 5), (Turns{{2, 4}, {2, 1}}));
}

}  // namespace
