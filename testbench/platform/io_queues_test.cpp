// io_queues_test.cpp - the whole SoC (configs/small.yaml) creating I/O
// queues from admin commands (Create I/O CQ 05h, Create I/O SQ 01h; the
// firmware's queues.c and the controller's Q_* registers): every bad
// argument gets its NVMe status, never a crash; completions of an SQ go to
// the CQ it named, with its SQ id; the Arbitration feature reads back.
#include <gtest/gtest.h>

#include <cstring>
#include <functional>

#include "common/tlm_access.h"
#include "host/host_memory.h"
#include "soc/ssd_soc.h"
#include "ssdvp_hw.h"

using namespace ssdvp;
using sc_core::sc_time;

namespace {

constexpr uint32_t kDepth = 8;
constexpr uint16_t kTimedOut = 0xffff;

struct Sq {
  uint16_t qid;
  uint64_t addr;
  uint32_t tail = 0;
  uint16_t cid = 0;
};
struct Cq {
  uint64_t addr;
  uint32_t head = 0;
  uint16_t qid;
  bool phase = true;
};

struct Host : sc_core::sc_module {
  tlm_utils::simple_initiator_socket<Host> pcie{"pcie"};
  HostMemory& mem;
  std::function<void()> body, on_done;
  bool done = false;
  uint16_t last_sq_id = 0;
  uint32_t last_dw0 = 0;

  SC_HAS_PROCESS(Host);
  Host(sc_core::sc_module_name n, HostMemory& m) : sc_module(n), mem(m) { SC_THREAD(run); }
  void run() {
    if (body) body();
    done = true;
    if (on_done) on_done();
  }
  void doorbell(uint32_t off, uint32_t v) {
    tlm::tlm_generic_payload tx;
    sc_time d = sc_core::SC_ZERO_TIME;
    prepare_access(tx, true, off, &v, 4);
    pcie->b_transport(tx, d);
    wait(d);
  }
  // One command on sq; its completion is expected on cq.
  uint16_t exec(Sq& sq, Cq& cq, nvme_sqe e) {
    const uint16_t cid = sq.cid++;
    e.cdw0 = (e.cdw0 & 0xffff) | (uint32_t(cid) << 16);
    std::memcpy(mem.data() + sq.addr + sq.tail * sizeof(nvme_sqe), &e, sizeof e);
    sq.tail = (sq.tail + 1) % kDepth;
    doorbell(NvmeCtrl::kDoorbellBase + 8 * sq.qid, sq.tail);
    const sc_time deadline = sc_core::sc_time_stamp() + sc_time(50, sc_core::SC_MS);
    for (;;) {
      nvme_cqe c;
      std::memcpy(&c, mem.data() + cq.addr + cq.head * sizeof(nvme_cqe), sizeof c);
      if (bool(c.status & 1) == cq.phase) {
        cq.head = (cq.head + 1) % kDepth;
        if (cq.head == 0) cq.phase = !cq.phase;
        doorbell(NvmeCtrl::kDoorbellBase + 8 * cq.qid + 4, cq.head);
        EXPECT_EQ(c.cid, cid);
        last_sq_id = c.sq_id;
        last_dw0 = c.dw0;
        return uint16_t(c.status >> 1);
      }
      if (sc_core::sc_time_stamp() >= deadline) {
        ADD_FAILURE() << "no completion for command " << cid << " of SQ " << sq.qid << " on CQ " << cq.qid;
        return kTimedOut;
      }
      wait(deadline - sc_core::sc_time_stamp(), mem.msi_event());
    }
  }
};

struct Platform {
  Config cfg;
  std::unique_ptr<SsdSoc> soc;
  HostMemory mem{"host_mem", 16u << 20};
  Host host{"host", mem};
  Sq asq{0, 0};
  Cq acq{0, 0, 0};

  Platform() {
    cfg = Config::from_yaml_file(SSDVP_SOURCE_DIR "/configs/small.yaml");
    cfg.set("log.level", "error");
    cfg.set("nvme.max_queue_entries", "16");
    soc = std::make_unique<SsdSoc>("ssd0", cfg);
    host.pcie.bind(soc->nvme.host_regs);
    soc->nvme.host_dma.bind(mem.tsock);
    asq.addr = mem.alloc(kDepth * sizeof(nvme_sqe));
    acq.addr = mem.alloc(kDepth * sizeof(nvme_cqe));
    EXPECT_TRUE(soc->nvme.create_admin_queue(asq.addr, acq.addr, kDepth, HostMemory::kMsiBase));
    host.on_done = [this] {
      soc->stop();
      sc_core::sc_stop();
    };
  }
  void run(std::function<void()> body) {
    host.body = std::move(body);
    sc_core::sc_start(sc_core::SC_ZERO_TIME);
    soc->boot();
    soc->start();
    sc_core::sc_start(sc_time(10, sc_core::SC_SEC));
    EXPECT_TRUE(host.done);
    EXPECT_EQ(soc->nvme.stats().ring_errors, 0u);
    EXPECT_EQ(soc->nvme.stats().invalid_doorbells, 0u);
  }
  uint16_t admin(nvme_sqe e) { return host.exec(asq, acq, e); }
  // entries: the queue's size (the command carries it 0's based).
  uint16_t create_cq(uint32_t qid, uint64_t addr, uint32_t entries, bool pc = true) {
    nvme_sqe e{};
    e.cdw0 = NVME_ADMIN_CREATE_CQ;
    e.prp1 = addr;
    e.cdw10 = (entries - 1) << 16 | qid;
    e.cdw11 = qid << 16 | 1u << 1 | (pc ? 1u : 0u);
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
    Sq s2{2, sq2}, s3{3, sq3};
    Cq c2{cq2, 0, 2};
    const uint32_t token = 0x5eed;
    std::memcpy(p.mem.data() + data, &token, 4);
    EXPECT_EQ(p.host.exec(s2, c2, io(NVME_OP_WRITE, 7, data)), NVME_SC_SUCCESS);
    EXPECT_EQ(p.host.last_sq_id, 2);
    std::memset(p.mem.data() + data, 0, 4);
    EXPECT_EQ(p.host.exec(s3, c2, io(NVME_OP_READ, 7, data)), NVME_SC_SUCCESS);  // completes on CQ 2
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
