// error_paths_test.cpp - the whole SoC (configs/small.yaml) answering raw NVMe
// commands that a host driver would never send: each completes with the
// status a drive returns (firmware/ftl/hostif.c), nothing crashes, and the
// device keeps serving valid commands afterwards.
//
// The host is nvme_test_host.h's (the queues driven by hand from its own
// thread) with one I/O queue pair created on soc.nvme.
#include <gtest/gtest.h>

#include <cstring>
#include <functional>
#include <vector>

#include "nvme_test_host.h"

using namespace ssdvp;

namespace {

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

struct Platform : nvme_test::SmallSoc {
  uint64_t data = 0, data2 = 0;
  uint64_t lbas = 0;
  uint32_t mdts = 0;

  Platform() : SmallSoc([](Config&) {}) {
    EXPECT_TRUE(soc->nvme.create_io_queue(1, host.io.sq, host.io.cq, nvme_test::kDepth, HostMemory::kMsiBase));
    lbas = soc->logical_lbas();
    mdts = soc->fw_config().max_transfer_lbas;
    data = mem.alloc(4 * 65536);
    data2 = mem.alloc(4 * 65536);
  }
  void run(std::function<void()> body) {
    SmallSoc::run(std::move(body));
    EXPECT_EQ(soc->flash.violations(), 0u);
    EXPECT_EQ(soc->cpu().usage().bus_errors, 0u);
  }
  // One command on the I/O queue; its status field (nvme_test::kTimedOut if
  // no completion came within 50 ms of simulated time).
  uint16_t exec(const nvme_sqe& e) {
    const uint16_t st = host.exec(host.io, e);
    EXPECT_EQ(host.last_sq_head, host.io.sq_tail);  // everything submitted has been fetched
    return st;
  }
  uint32_t* buf(uint64_t host_addr) { return reinterpret_cast<uint32_t*>(mem.data() + host_addr); }
  // A valid write of n LBAs at lba, then a read of them; true if the tokens match.
  bool round_trip(uint64_t lba, uint32_t n, uint32_t seed) {
    for (uint32_t i = 0; i < n; ++i) buf(data)[i] = seed + i;
    EXPECT_EQ(exec(rw(NVME_OP_WRITE, lba, n, data)), NVME_SC_SUCCESS);
    std::memset(buf(data2), 0xee, 4 * n);
    EXPECT_EQ(exec(rw(NVME_OP_READ, lba, n, data2)), NVME_SC_SUCCESS);
    for (uint32_t i = 0; i < n; ++i)
      if (buf(data2)[i] != seed + i) return false;
    return true;
  }
};

}  // namespace

TEST(PlatformErrors, UnknownOpcodeCompletesWithInvalidOpcode) {
  Platform p;
  p.run([&] {
    for (uint8_t op : {0x7f, 0x05, 0x80, 0xff}) {
      nvme_sqe e = rw(op, 0, 1, p.data);
      EXPECT_EQ(p.exec(e), NVME_SC_INVALID_OPCODE) << int(op);
    }
    EXPECT_TRUE(p.round_trip(10, 4, 0x1000));
  });
  EXPECT_EQ(p.soc->nvme.stats().error_completions, 4u);
}

TEST(PlatformErrors, ReadOrWriteBeyondTheNamespaceCompletesWithLbaOutOfRange) {
  Platform p;
  p.run([&] {
    EXPECT_EQ(p.exec(rw(NVME_OP_READ, p.lbas, 1, p.data)), NVME_SC_LBA_OUT_OF_RANGE);
    EXPECT_EQ(p.exec(rw(NVME_OP_WRITE, p.lbas, 1, p.data)), NVME_SC_LBA_OUT_OF_RANGE);
    EXPECT_EQ(p.exec(rw(NVME_OP_WRITE, p.lbas - 1, 2, p.data)), NVME_SC_LBA_OUT_OF_RANGE);  // crosses the end
    EXPECT_EQ(p.exec(rw(NVME_OP_READ, p.lbas - 3, 8, p.data)), NVME_SC_LBA_OUT_OF_RANGE);
    EXPECT_EQ(p.exec(rw(NVME_OP_WRITE, 1ull << 32, 1, p.data)), NVME_SC_LBA_OUT_OF_RANGE);  // upper dword
    EXPECT_EQ(p.exec(rw(NVME_OP_READ, ~0ull, 1, p.data)), NVME_SC_LBA_OUT_OF_RANGE);
    // the last LBA itself is fine
    EXPECT_TRUE(p.round_trip(p.lbas - 1, 1, 0x2000));
  });
}

TEST(PlatformErrors, TransferBeyondMdtsCompletesWithInvalidField) {
  Platform p;
  p.run([&] {
    EXPECT_EQ(p.exec(rw(NVME_OP_WRITE, 0, p.mdts + 1, p.data)), NVME_SC_INVALID_FIELD);
    EXPECT_EQ(p.exec(rw(NVME_OP_READ, 0, p.mdts + 1, p.data)), NVME_SC_INVALID_FIELD);
    EXPECT_EQ(p.exec(rw(NVME_OP_READ, 0, 65536, p.data)), NVME_SC_INVALID_FIELD);
    // exactly MDTS is fine
    EXPECT_TRUE(p.round_trip(1000, p.mdts, 0x3000));
  });
}

TEST(PlatformErrors, WrongNamespaceCompletesWithInvalidNamespace) {
  Platform p;
  p.run([&] {
    EXPECT_EQ(p.exec(rw(NVME_OP_READ, 0, 1, p.data, 2)), NVME_SC_INVALID_NS);
    EXPECT_EQ(p.exec(rw(NVME_OP_WRITE, 0, 1, p.data, 0)), NVME_SC_INVALID_NS);
    EXPECT_EQ(p.exec(rw(NVME_OP_WRITE, 0, 1, p.data, 0xffffffffu)), NVME_SC_INVALID_NS);
    EXPECT_EQ(p.exec(dsm(p.data, 1, 7)), NVME_SC_INVALID_NS);
    EXPECT_TRUE(p.round_trip(0, 2, 0x4000));
  });
}

TEST(PlatformErrors, BadWriteDirectiveCompletesWithInvalidField) {
  Platform p;
  p.run([&] {
    nvme_sqe e = rw(NVME_OP_WRITE, 0, 1, p.data);
    e.cdw12 |= 2u << 20;  // DTYPE 2 (data placement): not supported
    EXPECT_EQ(p.exec(e), NVME_SC_INVALID_FIELD);
    e = rw(NVME_OP_WRITE, 0, 1, p.data);
    e.cdw12 |= uint32_t(NVME_DTYPE_STREAMS) << 20;  // stream ID 0
    EXPECT_EQ(p.exec(e), NVME_SC_INVALID_FIELD);
    e.cdw13 = (FTL_MAX_CLASSES + 1) << 16;  // beyond the streams the drive has
    EXPECT_EQ(p.exec(e), NVME_SC_INVALID_FIELD);
    e.cdw13 = 3u << 16;  // a stream, but the Streams directive is not enabled (streams_directive_test)
    EXPECT_EQ(p.exec(e), NVME_SC_INVALID_FIELD);
    EXPECT_TRUE(p.round_trip(0, 2, 0x4400));
  });
  EXPECT_EQ(p.soc->nvme.stats().error_completions, 4u);
}

TEST(PlatformErrors, DeallocateBeyondTheNamespaceCompletesWithLbaOutOfRange) {
  Platform p;
  p.run([&] {
    EXPECT_TRUE(p.round_trip(500, 4, 0x5000));
    // Two ranges, the second beyond the end: nothing is deallocated (the first range is checked too).
    nvme_dsm_range r[2] = {{0, 4, 500}, {0, 8, p.lbas - 4}};
    std::memcpy(p.mem.data() + p.data2, r, sizeof r);
    EXPECT_EQ(p.exec(dsm(p.data2, 2)), NVME_SC_LBA_OUT_OF_RANGE);
    nvme_dsm_range far{0, 1, p.lbas};
    std::memcpy(p.mem.data() + p.data2, &far, sizeof far);
    EXPECT_EQ(p.exec(dsm(p.data2, 1)), NVME_SC_LBA_OUT_OF_RANGE);
    nvme_dsm_range huge{0, 0xffffffffu, 1};
    std::memcpy(p.mem.data() + p.data2, &huge, sizeof huge);
    EXPECT_EQ(p.exec(dsm(p.data2, 1)), NVME_SC_LBA_OUT_OF_RANGE);
    std::memset(p.buf(p.data), 0, 16);
    EXPECT_EQ(p.exec(rw(NVME_OP_READ, 500, 4, p.data)), NVME_SC_SUCCESS);
    for (uint32_t i = 0; i < 4; ++i) EXPECT_EQ(p.buf(p.data)[i], 0x5000 + i) << "LBA " << 500 + i;
    // A valid deallocation reads back as deallocated.
    nvme_dsm_range ok{0, 2, 501};
    std::memcpy(p.mem.data() + p.data2, &ok, sizeof ok);
    EXPECT_EQ(p.exec(dsm(p.data2, 1)), NVME_SC_SUCCESS);
    EXPECT_EQ(p.exec(rw(NVME_OP_READ, 500, 4, p.data)), NVME_SC_SUCCESS);
    const uint32_t want[4] = {0x5000, SSDVP_TOKEN_DEALLOCATED, SSDVP_TOKEN_DEALLOCATED, 0x5003};
    for (uint32_t i = 0; i < 4; ++i) EXPECT_EQ(p.buf(p.data)[i], want[i]) << "LBA " << 500 + i;
  });
}

TEST(PlatformErrors, WriteThenReadReturnsTheWrittenTokensAndFlushCompletes) {
  Platform p;
  p.run([&] {
    std::memset(p.buf(p.data), 0xee, 64);
    EXPECT_EQ(p.exec(rw(NVME_OP_READ, 77, 8, p.data)), NVME_SC_SUCCESS);  // never written
    for (uint32_t i = 0; i < 8; ++i) EXPECT_EQ(p.buf(p.data)[i], SSDVP_TOKEN_DEALLOCATED);
    EXPECT_TRUE(p.round_trip(77, 8, 0x6000));
    nvme_sqe f{};
    f.cdw0 = NVME_OP_FLUSH;
    f.nsid = 1;
    EXPECT_EQ(p.exec(f), NVME_SC_SUCCESS);
    f.nsid = 0xffffffffu;  // all namespaces
    EXPECT_EQ(p.exec(f), NVME_SC_SUCCESS);
    // After the flush the data is in flash; still the same tokens.
    std::memset(p.buf(p.data2), 0, 64);
    EXPECT_EQ(p.exec(rw(NVME_OP_READ, 77, 8, p.data2)), NVME_SC_SUCCESS);
    for (uint32_t i = 0; i < 8; ++i) EXPECT_EQ(p.buf(p.data2)[i], 0x6000 + i);
    // DSM without the AD bit is only a hint: success, nothing deallocated.
    nvme_sqe hint = dsm(p.data2, 1);
    hint.cdw11 = 0;
    EXPECT_EQ(p.exec(hint), NVME_SC_SUCCESS);
    EXPECT_EQ(p.exec(rw(NVME_OP_READ, 77, 1, p.data2)), NVME_SC_SUCCESS);
    EXPECT_EQ(p.buf(p.data2)[0], 0x6000u);
  });
  EXPECT_EQ(p.soc->nvme.stats().error_completions, 0u);
}

TEST(PlatformErrors, DataBufferOutsideHostMemoryCompletesWithDataTransferError) {
  Platform p;
  p.run([&] {
    EXPECT_EQ(p.exec(rw(NVME_OP_WRITE, 5, 1, 1ull << 40)), NVME_SC_DATA_XFER_ERROR);
    EXPECT_EQ(p.exec(rw(NVME_OP_READ, 5, 1, 1ull << 40)), NVME_SC_DATA_XFER_ERROR);
    EXPECT_TRUE(p.round_trip(5, 1, 0x7000));
  });
}

TEST(PlatformErrors, MixOfBadCommandsLeavesTheDeviceServingValidOnes) {
  Platform p;
  p.run([&] {
    nvme_sqe bad[] = {rw(0x42, 0, 1, p.data), rw(NVME_OP_READ, p.lbas, 1, p.data),
                      rw(NVME_OP_WRITE, 0, p.mdts + 1, p.data), rw(NVME_OP_WRITE, 0, 1, p.data, 3)};
    for (int round = 0; round < 4; ++round) {
      for (const nvme_sqe& e : bad) EXPECT_NE(p.exec(e), NVME_SC_SUCCESS);
      EXPECT_TRUE(p.round_trip(100 + 16 * round, 16, 0x8000 + 0x100 * round)) << round;
    }
  });
  EXPECT_EQ(p.soc->nvme.stats().error_completions, 16u);
  EXPECT_EQ(p.soc->nvme.stats().completions, 16u + 8u);
}
