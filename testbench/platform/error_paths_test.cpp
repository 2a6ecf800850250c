// error_paths_test.cpp - the whole SoC (configs/small.yaml) answering raw NVMe
// commands that a host driver would never send: each completes with the
// status a drive returns (firmware/ftl/hostif.c), nothing crashes, and the
// device keeps serving valid commands afterwards.
//
// The host is minimal and built here: HostMemory, one I/O queue pair created
// on soc.nvme, and a thread that writes SQEs and rings doorbells itself
// (SQ tail at kDoorbellBase + 8 qid, CQ head at + 4).
#include <gtest/gtest.h>

#include <cstring>
#include <functional>
#include <vector>

#include "host/host_memory.h"
#include "soc/ssd_soc.h"
#include "ssdvp_hw.h"

using namespace ssdvp;
using sc_core::sc_time;

namespace {

constexpr uint32_t kDepth = 16;
constexpr uint16_t kTimedOut = 0xffff;

Config small_config() {
  Config c = Config::from_yaml_file(SSDVP_SOURCE_DIR "/configs/small.yaml");
  c.set("log.level", "error");
  return c;
}

struct RawHost : sc_core::sc_module {
  tlm_utils::simple_initiator_socket<RawHost> pcie{"pcie"};
  HostMemory& mem;
  std::function<void()> body, on_done;
  bool done = false;
  uint64_t sq = 0, cq = 0;
  uint32_t sq_tail = 0, cq_head = 0;
  bool phase = true;
  uint16_t next_cid = 0;

  SC_HAS_PROCESS(RawHost);
  RawHost(sc_core::sc_module_name n, HostMemory& m) : sc_module(n), mem(m) {
    sq = mem.alloc(kDepth * sizeof(nvme_sqe));
    cq = mem.alloc(kDepth * sizeof(nvme_cqe));
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
    tx.set_command(tlm::TLM_WRITE_COMMAND);
    tx.set_address(off);
    tx.set_data_ptr(reinterpret_cast<unsigned char*>(&v));
    tx.set_data_length(4);
    tx.set_streaming_width(4);
    pcie->b_transport(tx, d);
    EXPECT_TRUE(tx.is_response_ok());
    wait(d);
  }
  // Submits one command and waits for its completion; returns its status field
  // (kTimedOut if none came within 50 ms of simulated time).
  uint16_t exec(nvme_sqe e) {
    const uint16_t cid = next_cid++;
    e.cdw0 = (e.cdw0 & 0xffff) | (uint32_t(cid) << 16);
    std::memcpy(mem.data() + sq + sq_tail * sizeof(nvme_sqe), &e, sizeof e);
    sq_tail = (sq_tail + 1) % kDepth;
    doorbell(NvmeCtrl::kDoorbellBase + 8, sq_tail);
    const sc_time deadline = sc_core::sc_time_stamp() + sc_time(50, sc_core::SC_MS);
    for (;;) {
      nvme_cqe c;
      std::memcpy(&c, mem.data() + cq + cq_head * sizeof(nvme_cqe), sizeof c);
      if (bool(c.status & 1) == phase) {
        cq_head = (cq_head + 1) % kDepth;
        if (cq_head == 0) phase = !phase;
        doorbell(NvmeCtrl::kDoorbellBase + 12, cq_head);
        EXPECT_EQ(c.cid, cid);
        EXPECT_EQ(c.sq_id, 1u);
        EXPECT_EQ(c.sq_head, sq_tail);  // everything submitted has been fetched
        return uint16_t(c.status >> 1);
      }
      if (sc_core::sc_time_stamp() >= deadline) {
        ADD_FAILURE() << "no completion for command " << cid << " (opcode " << (e.cdw0 & 0xff) << ")";
        return kTimedOut;
      }
      wait(deadline - sc_core::sc_time_stamp(), mem.msi_event());
    }
  }
  uint32_t* buf(uint64_t host_addr) { return reinterpret_cast<uint32_t*>(mem.data() + host_addr); }
};

nvme_sqe rw(uint8_t op, uint64_t slba, uint32_t nlb, uint64_t prp, uint32_t nsid = 1) {
  nvme_sqe e{};
  e.cdw0 = op;
  e.nsid = nsid;
  e.prp1 = prp;
  e.cdw10 = uint32_t(slba);
  e.cdw11 = uint32_t(slba >> 32);
  e.cdw12 = (nlb - 1) & 0xffff;
  return e;
}

nvme_sqe dsm(uint64_t ranges_addr, uint32_t nranges, uint32_t nsid = 1) {
  nvme_sqe e{};
  e.cdw0 = NVME_OP_DSM;
  e.nsid = nsid;
  e.prp1 = ranges_addr;
  e.cdw10 = nranges - 1;
  e.cdw11 = 1u << 2;  // AD
  return e;
}

struct Platform {
  Config cfg = small_config();
  SsdSoc soc{"ssd0", cfg};
  HostMemory mem{"host_mem", 16u << 20};
  RawHost host{"host", mem};
  uint64_t data = 0, data2 = 0;
  uint64_t lbas = 0;
  uint32_t mdts = 0;

  Platform() {
    host.pcie.bind(soc.nvme.host_regs);
    soc.nvme.host_dma.bind(mem.tsock);
    EXPECT_TRUE(soc.nvme.create_io_queue(1, host.sq, host.cq, kDepth, HostMemory::kMsiBase));
    lbas = soc.logical_lbas();
    mdts = soc.fw_config().max_transfer_lbas;
    data = mem.alloc(4 * 65536);
    data2 = mem.alloc(4 * 65536);
    host.on_done = [this] {
      soc.stop();
      sc_core::sc_stop();
    };
  }
  void run(std::function<void()> body) {
    host.body = std::move(body);
    sc_core::sc_start(sc_core::SC_ZERO_TIME);
    soc.boot();
    soc.start();
    sc_core::sc_start(sc_time(10, sc_core::SC_SEC));
    EXPECT_TRUE(host.done);
    EXPECT_EQ(soc.flash.violations(), 0u);
    EXPECT_EQ(soc.cpu().usage().bus_errors, 0u);
    EXPECT_EQ(soc.nvme.stats().ring_errors, 0u);
    EXPECT_EQ(soc.nvme.stats().invalid_doorbells, 0u);
  }
  // A valid write of n LBAs at lba, then a read of them; true if the tokens match.
  bool round_trip(uint64_t lba, uint32_t n, uint32_t seed) {
    for (uint32_t i = 0; i < n; ++i) host.buf(data)[i] = seed + i;
    EXPECT_EQ(host.exec(rw(NVME_OP_WRITE, lba, n, data)), NVME_SC_SUCCESS);
    std::memset(host.buf(data2), 0xee, 4 * n);
    EXPECT_EQ(host.exec(rw(NVME_OP_READ, lba, n, data2)), NVME_SC_SUCCESS);
    for (uint32_t i = 0; i < n; ++i)
      if (host.buf(data2)[i] != seed + i) return false;
    return true;
  }
};

}  // namespace

TEST(PlatformErrors, UnknownOpcodeCompletesWithInvalidOpcode) {
  Platform p;
  p.run([&] {
    for (uint8_t op : {0x7f, 0x05, 0x80, 0xff}) {
      nvme_sqe e = rw(op, 0, 1, p.data);
      EXPECT_EQ(p.host.exec(e), NVME_SC_INVALID_OPCODE) << int(op);
    }
    EXPECT_TRUE(p.round_trip(10, 4, 0x1000));
  });
  EXPECT_EQ(p.soc.nvme.stats().error_completions, 4u);
}

TEST(PlatformErrors, ReadOrWriteBeyondTheNamespaceCompletesWithLbaOutOfRange) {
  Platform p;
  p.run([&] {
    EXPECT_EQ(p.host.exec(rw(NVME_OP_READ, p.lbas, 1, p.data)), NVME_SC_LBA_OUT_OF_RANGE);
    EXPECT_EQ(p.host.exec(rw(NVME_OP_WRITE, p.lbas, 1, p.data)), NVME_SC_LBA_OUT_OF_RANGE);
    EXPECT_EQ(p.host.exec(rw(NVME_OP_WRITE, p.lbas - 1, 2, p.data)), NVME_SC_LBA_OUT_OF_RANGE);  // crosses the end
    EXPECT_EQ(p.host.exec(rw(NVME_OP_READ, p.lbas - 3, 8, p.data)), NVME_SC_LBA_OUT_OF_RANGE);
    EXPECT_EQ(p.host.exec(rw(NVME_OP_WRITE, 1ull << 32, 1, p.data)), NVME_SC_LBA_OUT_OF_RANGE);  // upper dword
    EXPECT_EQ(p.host.exec(rw(NVME_OP_READ, ~0ull, 1, p.data)), NVME_SC_LBA_OUT_OF_RANGE);
    // the last LBA itself is fine
    EXPECT_TRUE(p.round_trip(p.lbas - 1, 1, 0x2000));
  });
}

TEST(PlatformErrors, TransferBeyondMdtsCompletesWithInvalidField) {
  Platform p;
  p.run([&] {
    EXPECT_EQ(p.host.exec(rw(NVME_OP_WRITE, 0, p.mdts + 1, p.data)), NVME_SC_INVALID_FIELD);
    EXPECT_EQ(p.host.exec(rw(NVME_OP_READ, 0, p.mdts + 1, p.data)), NVME_SC_INVALID_FIELD);
    EXPECT_EQ(p.host.exec(rw(NVME_OP_READ, 0, 65536, p.data)), NVME_SC_INVALID_FIELD);
    // exactly MDTS is fine
    EXPECT_TRUE(p.round_trip(1000, p.mdts, 0x3000));
  });
}

TEST(PlatformErrors, WrongNamespaceCompletesWithInvalidNamespace) {
  Platform p;
  p.run([&] {
    EXPECT_EQ(p.host.exec(rw(NVME_OP_READ, 0, 1, p.data, 2)), NVME_SC_INVALID_NS);
    EXPECT_EQ(p.host.exec(rw(NVME_OP_WRITE, 0, 1, p.data, 0)), NVME_SC_INVALID_NS);
    EXPECT_EQ(p.host.exec(rw(NVME_OP_WRITE, 0, 1, p.data, 0xffffffffu)), NVME_SC_INVALID_NS);
    EXPECT_EQ(p.host.exec(dsm(p.data, 1, 7)), NVME_SC_INVALID_NS);
    EXPECT_TRUE(p.round_trip(0, 2, 0x4000));
  });
}

TEST(PlatformErrors, BadWriteDirectiveCompletesWithInvalidField) {
  Platform p;
  p.run([&] {
    nvme_sqe e = rw(NVME_OP_WRITE, 0, 1, p.data);
    e.cdw12 |= 2u << 20;  // DTYPE 2 (data placement): not supported
    EXPECT_EQ(p.host.exec(e), NVME_SC_INVALID_FIELD);
    e = rw(NVME_OP_WRITE, 0, 1, p.data);
    e.cdw12 |= uint32_t(NVME_DTYPE_STREAMS) << 20;  // stream ID 0
    EXPECT_EQ(p.host.exec(e), NVME_SC_INVALID_FIELD);
    e.cdw13 = (FTL_MAX_CLASSES + 1) << 16;  // beyond the streams the drive has
    EXPECT_EQ(p.host.exec(e), NVME_SC_INVALID_FIELD);
    e.cdw13 = 3u << 16;  // a stream, but the Streams directive is not enabled (streams_directive_test)
    EXPECT_EQ(p.host.exec(e), NVME_SC_INVALID_FIELD);
    EXPECT_TRUE(p.round_trip(0, 2, 0x4400));
  });
  EXPECT_EQ(p.soc.nvme.stats().error_completions, 4u);
}

TEST(PlatformErrors, DeallocateBeyondTheNamespaceCompletesWithLbaOutOfRange) {
  Platform p;
  p.run([&] {
    EXPECT_TRUE(p.round_trip(500, 4, 0x5000));
    // Two ranges, the second beyond the end: nothing is deallocated (the first range is checked too).
    nvme_dsm_range r[2] = {{0, 4, 500}, {0, 8, p.lbas - 4}};
    std::memcpy(p.mem.data() + p.data2, r, sizeof r);
    EXPECT_EQ(p.host.exec(dsm(p.data2, 2)), NVME_SC_LBA_OUT_OF_RANGE);
    nvme_dsm_range far{0, 1, p.lbas};
    std::memcpy(p.mem.data() + p.data2, &far, sizeof far);
    EXPECT_EQ(p.host.exec(dsm(p.data2, 1)), NVME_SC_LBA_OUT_OF_RANGE);
    nvme_dsm_range huge{0, 0xffffffffu, 1};
    std::memcpy(p.mem.data() + p.data2, &huge, sizeof huge);
    EXPECT_EQ(p.host.exec(dsm(p.data2, 1)), NVME_SC_LBA_OUT_OF_RANGE);
    std::memset(p.host.buf(p.data), 0, 16);
    EXPECT_EQ(p.host.exec(rw(NVME_OP_READ, 500, 4, p.data)), NVME_SC_SUCCESS);
    for (uint32_t i = 0; i < 4; ++i) EXPECT_EQ(p.host.buf(p.data)[i], 0x5000 + i) << "LBA " << 500 + i;
    // A valid deallocation reads back as deallocated.
    nvme_dsm_range ok{0, 2, 501};
    std::memcpy(p.mem.data() + p.data2, &ok, sizeof ok);
    EXPECT_EQ(p.host.exec(dsm(p.data2, 1)), NVME_SC_SUCCESS);
    EXPECT_EQ(p.host.exec(rw(NVME_OP_READ, 500, 4, p.data)), NVME_SC_SUCCESS);
    const uint32_t want[4] = {0x5000, SSDVP_TOKEN_DEALLOCATED, SSDVP_TOKEN_DEALLOCATED, 0x5003};
    for (uint32_t i = 0; i < 4; ++i) EXPECT_EQ(p.host.buf(p.data)[i], want[i]) << "LBA " << 500 + i;
  });
}

TEST(PlatformErrors, WriteThenReadReturnsTheWrittenTokensAndFlushCompletes) {
  Platform p;
  p.run([&] {
    std::memset(p.host.buf(p.data), 0xee, 64);
    EXPECT_EQ(p.host.exec(rw(NVME_OP_READ, 77, 8, p.data)), NVME_SC_SUCCESS);  // never written
    for (uint32_t i = 0; i < 8; ++i) EXPECT_EQ(p.host.buf(p.data)[i], SSDVP_TOKEN_DEALLOCATED);
    EXPECT_TRUE(p.round_trip(77, 8, 0x6000));
    nvme_sqe f{};
    f.cdw0 = NVME_OP_FLUSH;
    f.nsid = 1;
    EXPECT_EQ(p.host.exec(f), NVME_SC_SUCCESS);
    f.nsid = 0xffffffffu;  // all namespaces
    EXPECT_EQ(p.host.exec(f), NVME_SC_SUCCESS);
    // After the flush the data is in flash; still the same tokens.
    std::memset(p.host.buf(p.data2), 0, 64);
    EXPECT_EQ(p.host.exec(rw(NVME_OP_READ, 77, 8, p.data2)), NVME_SC_SUCCESS);
    for (uint32_t i = 0; i < 8; ++i) EXPECT_EQ(p.host.buf(p.data2)[i], 0x6000 + i);
    // DSM without the AD bit is only a hint: success, nothing deallocated.
    nvme_sqe hint = dsm(p.data2, 1);
    hint.cdw11 = 0;
    EXPECT_EQ(p.host.exec(hint), NVME_SC_SUCCESS);
    EXPECT_EQ(p.host.exec(rw(NVME_OP_READ, 77, 1, p.data2)), NVME_SC_SUCCESS);
    EXPECT_EQ(p.host.buf(p.data2)[0], 0x6000u);
  });
  EXPECT_EQ(p.soc.nvme.stats().error_completions, 0u);
}

TEST(PlatformErrors, DataBufferOutsideHostMemoryCompletesWithDataTransferError) {
  Platform p;
  p.run([&] {
    EXPECT_EQ(p.host.exec(rw(NVME_OP_WRITE, 5, 1, 1ull << 40)), NVME_SC_DATA_XFER_ERROR);
    EXPECT_EQ(p.host.exec(rw(NVME_OP_READ, 5, 1, 1ull << 40)), NVME_SC_DATA_XFER_ERROR);
    EXPECT_TRUE(p.round_trip(5, 1, 0x7000));
  });
}

TEST(PlatformErrors, MixOfBadCommandsLeavesTheDeviceServingValidOnes) {
  Platform p;
  p.run([&] {
    nvme_sqe bad[] = {rw(0x42, 0, 1, p.data), rw(NVME_OP_READ, p.lbas, 1, p.data),
                      rw(NVME_OP_WRITE, 0, p.mdts + 1, p.data), rw(NVME_OP_WRITE, 0, 1, p.data, 3)};
    for (int round = 0; round < 4; ++round) {
      for (const nvme_sqe& e : bad) EXPECT_NE(p.host.exec(e), NVME_SC_SUCCESS);
      EXPECT_TRUE(p.round_trip(100 + 16 * round, 16, 0x8000 + 0x100 * round)) << round;
    }
  });
  EXPECT_EQ(p.soc.nvme.stats().error_completions, 16u);
  EXPECT_EQ(p.soc.nvme.stats().completions, 16u + 8u);
}
