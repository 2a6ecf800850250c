// streams_directive_test.cpp - the whole SoC (configs/small.yaml) answering
// the NVMe Streams directive over the admin queue: Identify / Enable,
// Streams Return Parameters, Get Status, Allocate Resources, Release
// Identifier and Release Resources (firmware/ftl/directives.c), and the
// status of writes whose stream is not enabled, not allocated, released or
// above the limit.
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

constexpr uint32_t kIdentify = 0, kStreams = 1;

nvme_sqe directive(uint8_t opcode, uint32_t dtype, uint32_t doper, uint32_t dspec = 0, uint32_t cdw12 = 0,
                   uint64_t prp = 0, uint32_t bytes = 0, uint32_t nsid = 1) {
  nvme_sqe e{};
  e.cdw0 = opcode;
  e.nsid = nsid;
  e.prp1 = prp;
  e.cdw10 = bytes ? bytes / 4 - 1 : 0;
  e.cdw11 = (dspec << 16) | (dtype << 8) | doper;
  e.cdw12 = cdw12;
  return e;
}

nvme_sqe write(uint64_t slba, uint32_t nlb, uint64_t prp, uint32_t stream) {
  nvme_sqe e{};
  e.cdw0 = NVME_OP_WRITE;
  e.nsid = 1;
  e.prp1 = prp;
  e.cdw10 = uint32_t(slba);
  e.cdw12 = (nlb - 1) | (stream ? uint32_t(NVME_DTYPE_STREAMS) << 20 : 0u);
  e.cdw13 = stream << 16;
  return e;
}

struct Platform : SmallSoc {
  uint64_t data = 0, buf = 0;

  explicit Platform(uint32_t limit = 8)
      : SmallSoc([limit](Config& c) { c.set("ftl.streams.limit", std::to_string(limit)); }) {
    EXPECT_FALSE(soc->nvme.create_admin_queue(host.admin.sq, host.admin.cq, kDepth, HostMemory::kMsiBase));  // once
    EXPECT_TRUE(soc->nvme.create_io_queue(1, host.io.sq, host.io.cq, kDepth, HostMemory::kMsiBase));
    data = mem.alloc(4 * 64);
    buf = mem.alloc(4096);
  }
  uint16_t io(nvme_sqe e) { return host.exec(host.io, e); }
  uint16_t u16(uint32_t off) {
    uint16_t v;
    std::memcpy(&v, mem.data() + buf + off, 2);
    return v;
  }
  uint16_t enable(bool on) {
    return admin(
        directive(NVME_ADMIN_DIRECTIVE_SEND, kIdentify, NVME_DIR_SND_ID_ENABLE, 0, (kStreams << 8) | (on ? 1 : 0)));
  }
  uint16_t allocate(uint32_t nsr) {
    return admin(directive(NVME_ADMIN_DIRECTIVE_RECV, kStreams, NVME_DIR_RCV_ST_ALLOCATE, 0, nsr));
  }
  // Get Status: the open stream identifiers.
  std::vector<uint16_t> open_streams() {
    std::memset(mem.data() + buf, 0xee, 64);
    EXPECT_EQ(admin(directive(NVME_ADMIN_DIRECTIVE_RECV, kStreams, NVME_DIR_RCV_ST_STATUS, 0, 0, buf, 64)),
              NVME_SC_SUCCESS);
    std::vector<uint16_t> ids;
    for (uint32_t i = 0; i < u16(0); ++i) ids.push_back(u16(2 + 2 * i));
    return ids;
  }
};

}  // namespace

TEST(StreamsDirective, IdentifyReportsStreamsSupportedAndEnabledOnlyAfterEnable) {
  Platform p;
  p.run([&] {
    auto identify = [&] {
      std::memset(p.mem.data() + p.buf, 0xee, 4096);
      EXPECT_EQ(p.admin(directive(NVME_ADMIN_DIRECTIVE_RECV, kIdentify, NVME_DIR_RCV_ID_PARAMS, 0, 0, p.buf, 4096)),
                NVME_SC_SUCCESS);
    };
    identify();
    EXPECT_EQ(p.mem.data()[p.buf + 0], 0x3);   // supported: Identify, Streams
    EXPECT_EQ(p.mem.data()[p.buf + 32], 0x1);  // enabled: Identify only (reset state)
    EXPECT_EQ(p.mem.data()[p.buf + 4095], 0);  // reserved bytes are zero
    EXPECT_EQ(p.enable(true), NVME_SC_SUCCESS);
    identify();
    EXPECT_EQ(p.mem.data()[p.buf + 32], 0x3);
    EXPECT_EQ(p.enable(false), NVME_SC_SUCCESS);
    identify();
    EXPECT_EQ(p.mem.data()[p.buf + 32], 0x1);
    // Identify cannot be disabled; an unknown type cannot be enabled
    EXPECT_EQ(p.admin(directive(NVME_ADMIN_DIRECTIVE_SEND, kIdentify, NVME_DIR_SND_ID_ENABLE, 0, (kIdentify << 8))),
              NVME_SC_INVALID_FIELD);
    EXPECT_EQ(p.admin(directive(NVME_ADMIN_DIRECTIVE_SEND, kIdentify, NVME_DIR_SND_ID_ENABLE, 0, (2u << 8) | 1)),
              NVME_SC_INVALID_FIELD);
  });
}

TEST(StreamsDirective, DirectivesOnANamespaceWithoutStreamsAreRefused) {
  Platform p;
  p.run([&] {
    EXPECT_EQ(p.io(write(0, 1, p.data, 1)), NVME_SC_INVALID_FIELD);
    EXPECT_EQ(p.allocate(4), NVME_SC_INVALID_FIELD);
    EXPECT_EQ(p.admin(directive(NVME_ADMIN_DIRECTIVE_SEND, kStreams, NVME_DIR_SND_ST_RELEASE_RES)),
              NVME_SC_INVALID_FIELD);
    EXPECT_EQ(p.admin(directive(NVME_ADMIN_DIRECTIVE_RECV, kStreams, NVME_DIR_RCV_ST_PARAMS, 0, 0, p.buf, 32)),
              NVME_SC_INVALID_FIELD);
    // other namespaces, opcodes and types
    EXPECT_EQ(p.admin(directive(NVME_ADMIN_DIRECTIVE_SEND, kIdentify, NVME_DIR_SND_ID_ENABLE, 0, (kStreams << 8) | 1, 0,
                                0, 2)),
              NVME_SC_INVALID_NS);
    nvme_sqe e{};
    e.cdw0 = 0x7e;
    EXPECT_EQ(p.admin(e), NVME_SC_INVALID_OPCODE);
    EXPECT_EQ(p.admin(directive(NVME_ADMIN_DIRECTIVE_RECV, 5, 1, 0, 0, p.buf, 32)), NVME_SC_INVALID_FIELD);
    // plain writes still work
    EXPECT_EQ(p.io(write(0, 4, p.data, 0)), NVME_SC_SUCCESS);
  });
  EXPECT_EQ(p.soc->nvme.stats().error_completions, 7u);
}

TEST(StreamsDirective, AllocateGrantsUpToTheLimitAndParametersReportIt) {
  Platform p(5);
  p.run([&] {
    ASSERT_EQ(p.enable(true), NVME_SC_SUCCESS);
    EXPECT_EQ(p.allocate(20), NVME_SC_SUCCESS);
    EXPECT_EQ(p.host.last_dw0 & 0xffff, 5u);          // NSA = min(NSR, MSL)
    EXPECT_EQ(p.allocate(2), NVME_SC_CMD_SEQ_ERROR);  // already holds streams
    std::memset(p.mem.data() + p.buf, 0xee, 64);
    ASSERT_EQ(p.admin(directive(NVME_ADMIN_DIRECTIVE_RECV, kStreams, NVME_DIR_RCV_ST_PARAMS, 0, 0, p.buf, 32)),
              NVME_SC_SUCCESS);
    EXPECT_EQ(p.u16(0), 5u);                    // MSL
    EXPECT_EQ(p.u16(22), 5u);                   // NSA
    EXPECT_EQ(p.u16(24), 0u);                   // NSO
    EXPECT_EQ(p.mem.data()[p.buf + 32], 0xee);  // nothing beyond the 32 bytes
    EXPECT_EQ(p.io(write(0, 1, p.data, 2)), NVME_SC_SUCCESS);
    ASSERT_EQ(p.admin(directive(NVME_ADMIN_DIRECTIVE_RECV, kStreams, NVME_DIR_RCV_ST_PARAMS, 0, 0, p.buf, 32)),
              NVME_SC_SUCCESS);
    EXPECT_EQ(p.u16(24), 1u);  // NSO: stream 2 opened by the write
  });
}

TEST(StreamsDirective, WritesNeedAnAllocatedStreamWithinTheLimit) {
  Platform p;
  p.run([&] {
    ASSERT_EQ(p.enable(true), NVME_SC_SUCCESS);
    EXPECT_EQ(p.io(write(0, 1, p.data, 1)), NVME_SC_STREAM_ALLOC_FAILED);  // nothing allocated
    ASSERT_EQ(p.allocate(2), NVME_SC_SUCCESS);
    EXPECT_EQ(p.host.last_dw0 & 0xffff, 2u);
    EXPECT_EQ(p.io(write(0, 1, p.data, 9)), NVME_SC_INVALID_FIELD);  // above the limit (8)
    EXPECT_EQ(p.io(write(0, 1, p.data, 0xffff)), NVME_SC_INVALID_FIELD);
    nvme_sqe zero = write(0, 1, p.data, 0);
    zero.cdw12 |= uint32_t(NVME_DTYPE_STREAMS) << 20;  // Streams directive, identifier 0
    EXPECT_EQ(p.io(zero), NVME_SC_INVALID_FIELD);
    EXPECT_EQ(p.io(write(0, 4, p.data, 7)), NVME_SC_SUCCESS);               // opens 7
    EXPECT_EQ(p.io(write(8, 4, p.data, 3)), NVME_SC_SUCCESS);               // opens 3
    EXPECT_EQ(p.io(write(16, 4, p.data, 5)), NVME_SC_STREAM_ALLOC_FAILED);  // both allocated streams open
    EXPECT_EQ(p.open_streams(), (std::vector<uint16_t>{3, 7}));
    // Release Identifier: 7 closes, another identifier may open in its place
    EXPECT_EQ(p.admin(directive(NVME_ADMIN_DIRECTIVE_SEND, kStreams, NVME_DIR_SND_ST_RELEASE_ID, 7)), NVME_SC_SUCCESS);
    EXPECT_EQ(p.open_streams(), (std::vector<uint16_t>{3}));
    EXPECT_EQ(p.admin(directive(NVME_ADMIN_DIRECTIVE_SEND, kStreams, NVME_DIR_SND_ST_RELEASE_ID, 9)),
              NVME_SC_INVALID_FIELD);
    EXPECT_EQ(p.io(write(16, 4, p.data, 5)), NVME_SC_SUCCESS);
    EXPECT_EQ(p.io(write(24, 4, p.data, 7)), NVME_SC_STREAM_ALLOC_FAILED);  // released, and no room to reopen
    // Release Resources: no stream may be used until allocated again
    EXPECT_EQ(p.admin(directive(NVME_ADMIN_DIRECTIVE_SEND, kStreams, NVME_DIR_SND_ST_RELEASE_RES)), NVME_SC_SUCCESS);
    EXPECT_TRUE(p.open_streams().empty());
    EXPECT_EQ(p.io(write(0, 1, p.data, 3)), NVME_SC_STREAM_ALLOC_FAILED);
    ASSERT_EQ(p.allocate(8), NVME_SC_SUCCESS);
    EXPECT_EQ(p.io(write(0, 1, p.data, 3)), NVME_SC_SUCCESS);
    // disabling the directive releases everything and refuses stream writes
    EXPECT_EQ(p.enable(false), NVME_SC_SUCCESS);
    EXPECT_EQ(p.io(write(0, 1, p.data, 3)), NVME_SC_INVALID_FIELD);
    // the data written with streams reads back
    nvme_sqe rd = write(0, 4, p.buf, 0);
    rd.cdw0 = NVME_OP_READ;
    for (uint32_t i = 0; i < 4; ++i) reinterpret_cast<uint32_t*>(p.mem.data() + p.data)[i] = 0x900 + i;
    EXPECT_EQ(p.io(write(40, 4, p.data, 0)), NVME_SC_SUCCESS);
    rd.cdw10 = 40;
    EXPECT_EQ(p.io(rd), NVME_SC_SUCCESS);
    for (uint32_t i = 0; i < 4; ++i) EXPECT_EQ(reinterpret_cast<uint32_t*>(p.mem.data() + p.buf)[i], 0x900 + i);
  });
}
