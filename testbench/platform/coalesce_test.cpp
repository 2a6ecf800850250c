// coalesce_test.cpp - NVMe Interrupt Coalescing (Set Features 08h; the
// firmware's queues.c, the controller's IRQ_COAL register and
// models/nvme/nvme_coalesce.cpp): the feature reads back; with an
// aggregation threshold a vector gets one MSI per THR + 1 completions; a
// completion that does not reach it is signalled after the aggregation time,
// not before; admin completions are never held. Then the host driver asking
// for it (host.coalesce.*) in a whole run: every request completes, integrity
// holds, and fewer interrupts than completions reach the host.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <cstring>
#include <functional>
#include <vector>

#include "nvme_test_host.h"
#include "run_command.h"
#include "soc/ssd_soc.h"

using namespace ssdvp;
using namespace nvme_test;
using sc_core::sc_time;
namespace fs = std::filesystem;

namespace {

struct Platform : SmallSoc {
  QueuePair s2;
  uint64_t data = 0;

  Platform()
      : SmallSoc([](Config& c) {
          c.set("nvme.interrupt_vectors", "8");
          c.set("nvme.coalesce_time_unit", "100us");
        }) {
    s2.qid = 2;
    s2.sq = mem.alloc(kDepth * sizeof(nvme_sqe));
    s2.cq = mem.alloc(kDepth * sizeof(nvme_cqe));
    data = mem.alloc(4096);
  }
  uint16_t set_coalescing(uint32_t dw11) {
    nvme_sqe e{};
    e.cdw0 = 0x09;  // Set Features
    e.cdw10 = NVME_FEAT_IRQ_COALESCING;
    e.cdw11 = dw11;
    return admin(e);
  }
  // CQ 2 on vector 2, SQ 2 on it.
  void create_pair() {
    nvme_sqe e{};
    e.cdw0 = NVME_ADMIN_CREATE_CQ;
    e.prp1 = s2.cq;
    e.cdw10 = (kDepth - 1) << 16 | 2u;
    e.cdw11 = 2u << 16 | 1u << 1 | 1u;  // IV 2, IEN, PC
    EXPECT_EQ(admin(e), NVME_SC_SUCCESS);
    e = nvme_sqe{};
    e.cdw0 = NVME_ADMIN_CREATE_SQ;
    e.prp1 = s2.sq;
    e.cdw10 = (kDepth - 1) << 16 | 2u;
    e.cdw11 = 2u << 16 | 2u << 1 | 1u;  // CQ 2, medium, PC
    EXPECT_EQ(admin(e), NVME_SC_SUCCESS);
  }
  // n writes of distinct LBAs into SQ 2, one doorbell.
  void submit_writes(uint32_t n, uint64_t lba0) {
    for (uint32_t i = 0; i < n; ++i) {
      nvme_sqe e{};
      e.cdw0 = NVME_OP_WRITE | uint32_t(s2.next_cid++) << 16;
      e.nsid = 1;
      e.prp1 = data;
      e.cdw10 = uint32_t(lba0 + i);
      std::memcpy(mem.data() + s2.sq + s2.sq_tail * sizeof(nvme_sqe), &e, sizeof e);
      s2.sq_tail = (s2.sq_tail + 1) % kDepth;
    }
    host.doorbell(NvmeCtrl::kDoorbellBase + 8 * s2.qid, s2.sq_tail);
  }
  // Completion entries posted in CQ 2 since its head, consumed (head doorbell).
  uint32_t consume() {
    uint32_t n = 0;
    for (;;) {
      nvme_cqe c;
      std::memcpy(&c, mem.data() + s2.cq + s2.cq_head * sizeof(nvme_cqe), sizeof c);
      if (bool(c.status & 1) != s2.phase) break;
      EXPECT_EQ(c.status >> 1, NVME_SC_SUCCESS);
      s2.cq_head = (s2.cq_head + 1) % kDepth;
      if (s2.cq_head == 0) s2.phase = !s2.phase;
      ++n;
    }
    if (n) host.doorbell(NvmeCtrl::kDoorbellBase + 8 * s2.qid + 4, s2.cq_head);
    return n;
  }
  // An entry is posted at CQ 2's head (not consumed).
  bool posted() {
    nvme_cqe c;
    std::memcpy(&c, mem.data() + s2.cq + s2.cq_head * sizeof(nvme_cqe), sizeof c);
    return bool(c.status & 1) == s2.phase;
  }
};

}  // namespace

TEST(IrqCoalescing, FeatureReadsBackAndAdminCompletionsAreNotHeld) {
  Platform p;
  p.run([&] {
    const uint32_t dw11 = 7u | 3u << 8;                                // THR 7 (8 entries), TIME 3 (300 us)
    EXPECT_EQ(p.set_coalescing(dw11 | 0xabcd0000u), NVME_SC_SUCCESS);  // reserved bits 31:16 dropped
    const uint64_t admin_msis = p.mem.msis(0);
    const sc_time t0 = sc_core::sc_time_stamp();
    nvme_sqe e{};
    e.cdw0 = NVME_ADMIN_GET_FEATURES;
    e.cdw10 = NVME_FEAT_IRQ_COALESCING;
    EXPECT_EQ(p.admin(e), NVME_SC_SUCCESS);
    EXPECT_EQ(p.host.last_dw0, dw11);
    EXPECT_EQ(p.mem.msis(0), admin_msis + 1);  // the admin CQ's own MSI, not held
    EXPECT_LT(sc_core::sc_time_stamp() - t0, sc_time(300, sc_core::SC_US));
  });
  EXPECT_EQ(p.soc->nvme.stats().msis, p.soc->nvme.stats().completions);  // admin only: one MSI each
}

TEST(IrqCoalescing, OneInterruptPerThresholdOfCompletions) {
  Platform p;
  p.run([&] {
    EXPECT_EQ(p.set_coalescing(3u | 255u << 8), NVME_SC_SUCCESS);  // 4 entries, or 25.5 ms
    p.create_pair();
    const sc_time limit(20, sc_core::SC_MS), t0 = sc_core::sc_time_stamp();
    p.submit_writes(4, 100);
    sc_core::wait(limit, p.mem.msi_event(2));
    EXPECT_LT(sc_core::sc_time_stamp() - t0, limit);  // the threshold, long before the time
    EXPECT_EQ(p.mem.msis(2), 1u);
    EXPECT_EQ(p.consume(), 4u);
    // Three more: below the threshold, so the timer (25.5 ms) signals them.
    const sc_time t1 = sc_core::sc_time_stamp();
    p.submit_writes(3, 200);
    sc_core::wait(sc_time(50, sc_core::SC_MS), p.mem.msi_event(2));
    EXPECT_GE(sc_core::sc_time_stamp() - t1, sc_time(25.5, sc_core::SC_MS));
    EXPECT_EQ(p.mem.msis(2), 2u);
    EXPECT_EQ(p.consume(), 3u);
  });
}

TEST(IrqCoalescing, ALoneCompletionIsSignalledAfterTheAggregationTime) {
  Platform p;
  p.run([&] {
    EXPECT_EQ(p.set_coalescing(7u | 4u << 8), NVME_SC_SUCCESS);  // 8 entries, or 400 us
    p.create_pair();
    // Without the wait for an MSI: when does the completion reach the CQ?
    const sc_time t0 = sc_core::sc_time_stamp();
    p.submit_writes(1, 300);
    while (!p.posted()) sc_core::wait(sc_time(1, sc_core::SC_US));
    const sc_time posted_at = sc_core::sc_time_stamp();
    EXPECT_LT(posted_at - t0, sc_time(400, sc_core::SC_US));
    EXPECT_EQ(p.mem.msis(2), 0u);  // posted, not signalled
    sc_core::wait(sc_time(50, sc_core::SC_MS), p.mem.msi_event(2));
    const sc_time msi_at = sc_core::sc_time_stamp();
    EXPECT_EQ(p.mem.msis(2), 1u);
    // 400 us after the entry was posted (within the 1 us polling step and the link's latency).
    EXPECT_GE(msi_at - posted_at, sc_time(399, sc_core::SC_US));
    EXPECT_LE(msi_at - posted_at, sc_time(402, sc_core::SC_US));
    EXPECT_EQ(p.consume(), 1u);
  });
}

// The host driver asking for coalescing in a run of configs/small.yaml.
TEST(IrqCoalescing, HostDriverRunCompletesEveryRequestWithFewerInterrupts) {
  const fs::path d = ssdvp_test::scratch("coalesce", "run");
  auto run = [&](const std::string& name, const std::string& args) {
    const auto r = ssdvp_test::run_command(
        d, std::string("'") + SSDVP_BIN + "' run -q -c '" SSDVP_SOURCE_DIR "/configs/small.yaml' -o '" +
               (d / name).string() + "' --set workload.synthetic.requests=4000 --set precondition.fill=0.5 " + args);
    EXPECT_EQ(r.code, 0) << r.err;
    return nlohmann::json::parse(ssdvp_test::slurp(d / name / "summary.json"));
  };
  const auto off = run("off", "");
  const auto on = run("on", "--set host.coalesce.entries=8 --set host.coalesce.time=1");
  for (const auto* j : {&off, &on}) {
    EXPECT_EQ((*j)["host"]["reads"].get<int>() + (*j)["host"]["writes"].get<int>(), 4000);
    EXPECT_EQ((*j)["host"]["errors"], 0);
    EXPECT_EQ((*j)["integrity"]["mismatches"], 0);
  }
  // Without the feature: one MSI per completion.
  EXPECT_EQ(off["nvme"]["interrupts"], off["nvme"]["completions"]);
  const double per_irq = on["nvme"]["completions"].get<double>() / on["nvme"]["interrupts"].get<double>();
  EXPECT_GT(per_irq, 1.5);
  EXPECT_LE(per_irq, 8.0);
}
