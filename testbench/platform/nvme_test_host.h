// nvme_test_host.h - a host that drives NVMe queues by hand from its own
// thread, for SoC-level tests of admin and I/O commands
// (streams_directive_test.cpp, io_queues_test.cpp, error_paths_test.cpp): an admin and an I/O queue
// pair in host memory, doorbells through its pcie socket, and exec(), which
// submits one command and waits (50 ms at most) for its completion on the SQ's
// own CQ or on another one.
#pragma once

#include <gtest/gtest.h>

#include <cstring>
#include <functional>

#include "common/tlm_access.h"
#include "host/host_memory.h"
#include "nvme/nvme_ctrl.h"
#include "soc/ssd_soc.h"
#include "ssdvp_hw.h"

namespace nvme_test {

using namespace ssdvp;
using sc_core::sc_time;

inline constexpr uint32_t kDepth = 8;
inline constexpr uint16_t kTimedOut = 0xffff;

// One submission/completion queue pair driven by hand.
struct QueuePair {
  uint16_t qid = 0;
  uint64_t sq = 0, cq = 0;
  uint32_t sq_tail = 0, cq_head = 0;
  bool phase = true;
  uint16_t next_cid = 0;
};

struct Host : sc_core::sc_module {
  tlm_utils::simple_initiator_socket<Host> pcie{"pcie"};
  HostMemory& mem;
  QueuePair admin, io;
  std::function<void()> body, on_done;
  bool done = false;
  uint32_t last_dw0 = 0;
  uint16_t last_sq_id = 0;
  uint16_t last_sq_head = 0;  // the last completion's SQ head pointer

  SC_HAS_PROCESS(Host);
  Host(sc_core::sc_module_name n, HostMemory& m) : sc_module(n), mem(m) {
    for (QueuePair* q : {&admin, &io}) {
      q->sq = mem.alloc(kDepth * sizeof(nvme_sqe));
      q->cq = mem.alloc(kDepth * sizeof(nvme_cqe));
    }
    io.qid = 1;
    SC_THREAD(run);
  }
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
    EXPECT_TRUE(tx.is_response_ok());
    wait(d);
  }
  // Runs e on SQ q; its completion is expected on q's CQ, or on *cqp (a CQ
  // other SQs share), carrying q's SQ id.
  uint16_t exec(QueuePair& q, nvme_sqe e, QueuePair* cqp = nullptr) {
    QueuePair& cq = cqp ? *cqp : q;
    const uint16_t cid = q.next_cid++;
    e.cdw0 = (e.cdw0 & 0xffff) | (uint32_t(cid) << 16);
    std::memcpy(mem.data() + q.sq + q.sq_tail * sizeof(nvme_sqe), &e, sizeof e);
    q.sq_tail = (q.sq_tail + 1) % kDepth;
    doorbell(NvmeCtrl::kDoorbellBase + 8 * q.qid, q.sq_tail);
    const sc_time deadline = sc_core::sc_time_stamp() + sc_time(50, sc_core::SC_MS);
    for (;;) {
      nvme_cqe c;
      std::memcpy(&c, mem.data() + cq.cq + cq.cq_head * sizeof(nvme_cqe), sizeof c);
      if (bool(c.status & 1) == cq.phase) {
        cq.cq_head = (cq.cq_head + 1) % kDepth;
        if (cq.cq_head == 0) cq.phase = !cq.phase;
        doorbell(NvmeCtrl::kDoorbellBase + 8 * cq.qid + 4, cq.cq_head);
        EXPECT_EQ(c.cid, cid);
        EXPECT_EQ(c.sq_id, q.qid);
        last_dw0 = c.dw0;
        last_sq_id = c.sq_id;
        last_sq_head = c.sq_head;
        return uint16_t(c.status >> 1);
      }
      if (sc_core::sc_time_stamp() >= deadline) {
        ADD_FAILURE() << "no completion for command " << cid << " of SQ " << q.qid << " on CQ " << cq.qid;
        return kTimedOut;
      }
      wait(deadline - sc_core::sc_time_stamp(), mem.msi_event());
    }
  }
};

// configs/small.yaml's SoC (its keys adjusted by `tune`) with the host bound
// to it and the admin queue created; run() boots it and runs `body` in the
// host's thread for at most 10 simulated seconds.
struct SmallSoc {
  Config cfg;
  std::unique_ptr<SsdSoc> soc;
  HostMemory mem{"host_mem", 16u << 20};
  Host host{"host", mem};

  explicit SmallSoc(const std::function<void(Config&)>& tune) {
    cfg = Config::from_yaml_file(SSDVP_SOURCE_DIR "/configs/small.yaml");
    cfg.set("log.level", "error");
    tune(cfg);
    soc = std::make_unique<SsdSoc>("ssd0", cfg);
    host.pcie.bind(soc->nvme.host_regs);
    soc->nvme.host_dma.bind(mem.tsock);
    EXPECT_TRUE(soc->nvme.create_admin_queue(host.admin.sq, host.admin.cq, kDepth, HostMemory::kMsiBase));
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
  uint16_t admin(nvme_sqe e) { return host.exec(host.admin, e); }
};

}  // namespace nvme_test
