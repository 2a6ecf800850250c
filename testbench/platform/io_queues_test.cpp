// io_queues_test.cpp - the whole SoC (configs/small.yaml) creating I/O
// queues from admin commands (Create I/O CQ 05h, Create I/O SQ 01h; the
// firmware's queues.c and the controller's Q_* registers): every bad
// argument gets its NVMe status, never a crash; completions of an SQ go to
// the CQ it named, with its SQ id; the Arbitration feature reads back.
#include <gtest/gtest.h>

#include <cstring>
#include <functional>
#include <vector>

#include "nvme_test_host.h"
#include "soc/ssd_soc.h"

using namespace ssdvp;
using namespace nvme_test;
using sc_core::sc_time;

namespace {

struct Platform : SmallSoc {
  Platform() : Platform([](Config&) {}) {}
  explicit Platform(const std::function<void(Config&)>& tune)
      : SmallSoc([&](Config& c) {
          c.set("nvme.max_queue_entries", "16");
          tune(c);
        }) {}
  // entries: the queue's size (the command carries it 0's based).
  // iv: its interrupt vector (default: the qid); ien: interrupts enabled.
  uint16_t create_cq(uint32_t qid, uint64_t addr, uint32_t entries, bool pc = true, int iv = -1, bool ien = true) {
    nvme_sqe e{};
    e.cdw0 = NVME_ADMIN_CREATE_CQ;
    e.prp1 = addr;
    e.cdw10 = (entries - 1) << 16 | qid;
    e.cdw11 = uint32_t(iv < 0 ? qid : uint32_t(iv)) << 16 | (ien ? 1u : 0u) << 1 | (pc ? 1u : 0u);
    return admin(e);
  }
  uint16_t create_sq(uint32_t qid, uint64_t addr, uint32_t entries, uint32_t cqid, uint32_t prio = 2) {
    nvme_sqe e{};
    e.cdw0 = NVME_ADMIN_CREATE_SQ;
    e.prp1 = addr;
    e.cdw10 = (entries - 1) << 16 | qid;
    e.cdw11 = cqid << 16 | prio << 1 | 1u;
    return admin(e);
  }
  uint16_t delete_queue(bool cq, uint32_t qid) {
    nvme_sqe e{};
    e.cdw0 = cq ? NVME_ADMIN_DELETE_CQ : NVME_ADMIN_DELETE_SQ;
    e.cdw10 = qid;
    return admin(e);
  }
  // Writes the commands into q's SQ and rings its doorbell once.
  void submit(QueuePair& q, const std::vector<nvme_sqe>& cmds) {
    for (nvme_sqe e : cmds) {
      e.cdw0 = (e.cdw0 & 0xffff) | uint32_t(q.next_cid++) << 16;
      std::memcpy(mem.data() + q.sq + q.sq_tail * sizeof(nvme_sqe), &e, sizeof e);
      q.sq_tail = (q.sq_tail + 1) % kDepth;
    }
    host.doorbell(NvmeCtrl::kDoorbellBase + 8 * q.qid, q.sq_tail);
  }
  // The completion entries in q's CQ now (without consuming them).
  std::vector<nvme_cqe> posted(const QueuePair& q) {
    std::vector<nvme_cqe> out;
    for (uint32_t i = 0; i < kDepth; ++i) {
      nvme_cqe c;
      std::memcpy(&c, mem.data() + q.cq + i * sizeof(nvme_cqe), sizeof c);
      if (!(c.status & 1)) break;  // phase 1: written in the first pass
      out.push_back(c);
    }
    return out;
  }
};

nvme_sqe io(uint8_t op, uint64_t lba, uint64_t prp) {
  nvme_sqe e{};
  e.cdw0 = op;
  e.nsid = 1;
  e.prp1 = prp;
  e.cdw10 = uint32_t(lba);
  return e;
}

}  // namespace

TEST(IoQueues, CreateWithBadArgumentsGetsTheNvmeStatusAndGoodOnesCarryIo) {
  Platform p;
  const uint64_t sq2 = p.mem.alloc(kDepth * sizeof(nvme_sqe)), cq2 = p.mem.alloc(kDepth * sizeof(nvme_cqe));
  const uint64_t sq3 = p.mem.alloc(kDepth * sizeof(nvme_sqe)), data = p.mem.alloc(64);
  p.run([&] {
    EXPECT_EQ(p.create_cq(0, cq2, kDepth), NVME_SC_INVALID_QID);           // the admin queue's id
    EXPECT_EQ(p.create_cq(65, cq2, kDepth), NVME_SC_INVALID_QID);          // above the controller's 64
    EXPECT_EQ(p.create_cq(2, cq2, 1), NVME_SC_INVALID_QSIZE);              // a queue holds at least 2
    EXPECT_EQ(p.create_cq(2, cq2, 17), NVME_SC_INVALID_QSIZE);             // nvme.max_queue_entries 16
    EXPECT_EQ(p.create_cq(2, cq2, kDepth, false), NVME_SC_INVALID_FIELD);  // not contiguous
    EXPECT_EQ(p.create_sq(2, sq2, kDepth, 2), NVME_SC_CQ_INVALID);         // CQ 2 does not exist yet
    EXPECT_EQ(p.create_sq(2, sq2, kDepth, 0), NVME_SC_CQ_INVALID);         // the admin CQ is not an I/O CQ
    EXPECT_EQ(p.create_cq(2, cq2, kDepth), NVME_SC_SUCCESS);
    EXPECT_EQ(p.create_cq(2, cq2, kDepth), NVME_SC_INVALID_QID);  // exists
    EXPECT_EQ(p.create_sq(2, sq2, 17, 2), NVME_SC_INVALID_QSIZE);
    EXPECT_EQ(p.create_sq(0, sq2, kDepth, 2), NVME_SC_INVALID_QID);
    EXPECT_EQ(p.create_sq(2, sq2, kDepth, 2, 1), NVME_SC_SUCCESS);
    EXPECT_EQ(p.create_sq(2, sq2, kDepth, 2), NVME_SC_INVALID_QID);                        // exists
    EXPECT_EQ(p.create_sq(3, sq3, kDepth, 2, 0), NVME_SC_SUCCESS);                         // a second SQ on CQ 2
    EXPECT_FALSE(p.soc->nvme.create_io_queue(2, sq2, cq2, kDepth, HostMemory::kMsiBase));  // taken
    QueuePair s2, s3;  // SQs 2 and 3 share CQ 2 (held by s2)
    s2.qid = 2, s2.sq = sq2, s2.cq = cq2;
    s3.qid = 3, s3.sq = sq3;
    const uint32_t token = 0x5eed;
    std::memcpy(p.mem.data() + data, &token, 4);
    EXPECT_EQ(p.host.exec(s2, io(NVME_OP_WRITE, 7, data)), NVME_SC_SUCCESS);
    EXPECT_EQ(p.host.last_sq_id, 2);
    std::memset(p.mem.data() + data, 0, 4);
    EXPECT_EQ(p.host.exec(s3, io(NVME_OP_READ, 7, data), &s2), NVME_SC_SUCCESS);  // completes on CQ 2
    EXPECT_EQ(p.host.last_sq_id, 3);
    uint32_t back = 0;
    std::memcpy(&back, p.mem.data() + data, 4);
    EXPECT_EQ(back, token);
  });
  EXPECT_TRUE(p.soc->nvme.queue_live(2));
  EXPECT_TRUE(p.soc->nvme.queue_live(3));
}

TEST(IoQueues, ArbitrationFeatureIsSetAndReadBackThroughTheAdminQueue) {
  Platform p;
  const uint32_t dw11 = 2u | 3u << 8 | 5u << 16 | 9u << 24;  // AB 2, LPW 3, MPW 5, HPW 9
  p.run([&] {
    nvme_sqe e{};
    e.cdw0 = 0x09;  // Set Features
    e.cdw10 = NVME_FEAT_ARBITRATION;
    e.cdw11 = dw11;
    EXPECT_EQ(p.admin(e), NVME_SC_SUCCESS);
    e = nvme_sqe{};
    e.cdw0 = NVME_ADMIN_GET_FEATURES;
    e.cdw10 = NVME_FEAT_ARBITRATION;
    EXPECT_EQ(p.admin(e), NVME_SC_SUCCESS);
    EXPECT_EQ(p.host.last_dw0, dw11);
    e.cdw10 = 0x7f;  // a feature the firmware does not have
    EXPECT_EQ(p.admin(e), NVME_SC_INVALID_FIELD);
  });
  EXPECT_EQ(p.soc->nvme.arbiter().burst(), 4u);
  EXPECT_EQ(p.soc->nvme.arbiter().weight(NvmeArbiter::high), 10u);
  EXPECT_EQ(p.soc->nvme.arbiter().weight(NvmeArbiter::low), 4u);
}

// Delete I/O SQ (00h) and Delete I/O CQ (04h): the statuses, and an SQ
// deleted with commands in it. With two command slots in the firmware and a
// burst of 1 the delete is fetched while most of SQ 2's writes still sit in
// the SQ: those complete with Command Aborted due to SQ Deletion (08h), the
// fetched ones complete normally, and the delete's own completion comes only
// after every one of them is in CQ 2.
TEST(IoQueues, DeleteQueuesGetTheNvmeStatusesAndAnSqIsDrainedBeforeItsDeleteCompletes) {
  Platform p([](Config& c) {
    c.set("ftl.cmd_slots", "2");
    c.set("nvme.fetch_burst", "1");
  });
  const uint64_t sq2 = p.mem.alloc(kDepth * sizeof(nvme_sqe)), cq2 = p.mem.alloc(kDepth * sizeof(nvme_cqe));
  const uint64_t sq3 = p.mem.alloc(kDepth * sizeof(nvme_sqe)), data = p.mem.alloc(4096);
  const uint32_t writes = kDepth - 1;
  std::vector<nvme_cqe> cqes;
  p.run([&] {
    EXPECT_EQ(p.delete_queue(false, 0), NVME_SC_INVALID_QID);  // the admin SQ
    EXPECT_EQ(p.delete_queue(true, 0), NVME_SC_INVALID_QID);   // the admin CQ
    EXPECT_EQ(p.delete_queue(false, 65), NVME_SC_INVALID_QID);
    EXPECT_EQ(p.delete_queue(false, 2), NVME_SC_INVALID_QID);  // not created
    EXPECT_EQ(p.delete_queue(true, 2), NVME_SC_INVALID_QID);
    EXPECT_EQ(p.create_cq(2, cq2, kDepth), NVME_SC_SUCCESS);
    EXPECT_EQ(p.create_sq(2, sq2, kDepth, 2), NVME_SC_SUCCESS);
    EXPECT_EQ(p.create_sq(3, sq3, kDepth, 2), NVME_SC_SUCCESS);
    EXPECT_EQ(p.delete_queue(true, 2), NVME_SC_INVALID_QDELETION);  // SQs 2 and 3 use it
    QueuePair s2;
    s2.qid = 2, s2.sq = sq2, s2.cq = cq2;
    std::vector<nvme_sqe> cmds;
    for (uint32_t i = 0; i < writes; ++i) cmds.push_back(io(NVME_OP_WRITE, i, data));
    p.submit(s2, cmds);
    EXPECT_EQ(p.delete_queue(false, 2), NVME_SC_SUCCESS);
    cqes = p.posted(s2);  // every write completed before the delete did
    EXPECT_FALSE(p.soc->nvme.queue_live(2));
    EXPECT_EQ(p.delete_queue(false, 2), NVME_SC_INVALID_QID);       // gone
    EXPECT_EQ(p.delete_queue(true, 2), NVME_SC_INVALID_QDELETION);  // SQ 3 still uses it
    EXPECT_EQ(p.delete_queue(false, 3), NVME_SC_SUCCESS);
    EXPECT_EQ(p.delete_queue(true, 2), NVME_SC_SUCCESS);
    EXPECT_EQ(p.delete_queue(true, 2), NVME_SC_INVALID_QID);
    EXPECT_EQ(p.create_cq(2, cq2, kDepth), NVME_SC_SUCCESS);  // the id is free again
  });
  ASSERT_EQ(cqes.size(), writes);
  uint32_t aborted = 0, done = 0;
  for (uint32_t i = 0; i < cqes.size(); ++i) {
    EXPECT_EQ(cqes[i].sq_id, 2);
    const uint16_t sc = uint16_t(cqes[i].status >> 1);
    aborted += sc == NVME_SC_ABORTED_SQ_DELETION;
    done += sc == NVME_SC_SUCCESS;
  }
  EXPECT_EQ(aborted + done, writes);
  EXPECT_GE(aborted, 1u);
  EXPECT_GE(done, 1u);
  EXPECT_EQ(p.soc->nvme.stats().aborted_sq_deletion, aborted);
}

// One interrupt vector per CQ (MSI-X style): Create I/O CQ's IV (CDW11 31:16)
// at or above nvme.interrupt_vectors gets Invalid Interrupt Vector (108h);
// two CQs on vectors 3 and 5 each raise only their own vector, a host
// waiting on vector 3 wakes with CQ 2's completion, and a CQ created with IEN
// clear raises none (its completion is still posted).
TEST(IoQueues, EachCqRaisesItsOwnInterruptVector) {
  Platform p([](Config& c) { c.set("nvme.interrupt_vectors", "8"); });
  const uint64_t sq2 = p.mem.alloc(kDepth * sizeof(nvme_sqe)), cq2 = p.mem.alloc(kDepth * sizeof(nvme_cqe));
  const uint64_t sq4 = p.mem.alloc(kDepth * sizeof(nvme_sqe)), cq4 = p.mem.alloc(kDepth * sizeof(nvme_cqe));
  const uint64_t sq6 = p.mem.alloc(kDepth * sizeof(nvme_sqe)), cq6 = p.mem.alloc(kDepth * sizeof(nvme_cqe));
  const uint64_t data = p.mem.alloc(4096);
  p.run([&] {
    EXPECT_EQ(p.create_cq(2, cq2, kDepth, true, 8), NVME_SC_INVALID_VECTOR);  // vectors 0..7
    EXPECT_EQ(p.create_cq(2, cq2, kDepth, true, 3), NVME_SC_SUCCESS);
    EXPECT_EQ(p.create_cq(4, cq4, kDepth, true, 5), NVME_SC_SUCCESS);
    EXPECT_EQ(p.create_cq(6, cq6, kDepth, true, 6, false), NVME_SC_SUCCESS);  // IEN clear
    EXPECT_EQ(p.create_sq(2, sq2, kDepth, 2), NVME_SC_SUCCESS);
    EXPECT_EQ(p.create_sq(4, sq4, kDepth, 4), NVME_SC_SUCCESS);
    EXPECT_EQ(p.create_sq(6, sq6, kDepth, 6), NVME_SC_SUCCESS);
    QueuePair s2, s4, s6;
    s2.qid = 2, s2.sq = sq2, s2.cq = cq2;
    s4.qid = 4, s4.sq = sq4, s4.cq = cq4;
    s6.qid = 6, s6.sq = sq6, s6.cq = cq6;
    EXPECT_EQ(p.mem.msis(3) + p.mem.msis(5), 0u);
    // Waiting on CQ 2's vector: woken by its completion, well before the timeout.
    const sc_time limit(50, sc_core::SC_MS), t0 = sc_core::sc_time_stamp();
    p.submit(s2, {io(NVME_OP_WRITE, 1, data)});
    sc_core::wait(limit, p.mem.msi_event(3));
    EXPECT_LT(sc_core::sc_time_stamp() - t0, limit);
    ASSERT_EQ(p.posted(s2).size(), 1u);
    s2.cq_head = 1;
    p.host.doorbell(NvmeCtrl::kDoorbellBase + 8 * 2 + 4, s2.cq_head);
    EXPECT_EQ(p.mem.msis(3), 1u);
    EXPECT_EQ(p.mem.msis(5), 0u);
    EXPECT_EQ(p.host.exec(s4, io(NVME_OP_WRITE, 2, data)), NVME_SC_SUCCESS);
    EXPECT_EQ(p.mem.msis(3), 1u);
    EXPECT_EQ(p.mem.msis(5), 1u);
    const uint64_t before = p.mem.msis();
    EXPECT_EQ(p.host.exec(s6, io(NVME_OP_WRITE, 3, data)), NVME_SC_SUCCESS);  // found when exec polls again
    EXPECT_EQ(p.mem.msis(), before);
    EXPECT_EQ(p.mem.msis(6), 0u);
  });
}
