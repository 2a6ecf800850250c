// hostif_test.cpp - the firmware's NVMe host interface (ftl/hostif.c) on the
// fake HAL's functional NVMe rings: commands go in the CMD ring as the
// controller would fetch them, data moves through the XFER/DONE rings, and
// every command ends in exactly one completion with the right status.
#include <gtest/gtest.h>

#include <cstring>
#include <vector>

#include "ftl_device.h"

namespace {

using ftltest::Device;

constexpr uint32_t kHostBuf = 0x1000;  // byte address of the data buffer in host memory

struct Host {
  Device d;
  uint16_t next_cid = 1;
  explicit Host(void (*tune)(ftl_config&) = nullptr) : d(tune) {
    EXPECT_EQ(d.init(), 0);
    d.hal->host_words.assign(64 * 1024, 0);
  }
  // Submits one command, runs the firmware until it is idle, and returns
  // the status of its completion (or -1 if none came).
  int run(nvme_sqe q) {
    const uint16_t cid = next_cid++;
    q.cdw0 |= SSDVP_FIELD_PUT(NVME_CDW0_CID, cid);
    d.hal->nvme_submit(q);
    for (int i = 0; i < 10000 && (ftl_poll(d.f) || ftl_busy(d.f)); ++i) {
    }
    int status = -1, n = 0;
    for (const auto& c : d.hal->completions)
      if (c.cid == cid) status = c.status, ++n;
    EXPECT_LE(n, 1) << "command " << cid << " completed twice";
    return status;
  }
  static nvme_sqe rw(uint8_t opc, uint64_t slba, uint32_t nlb, uint32_t nsid = 1) {
    nvme_sqe q{};
    q.cdw0 = SSDVP_FIELD_PUT(NVME_CDW0_OPC, opc);
    q.nsid = nsid;
    q.prp1 = kHostBuf;
    q.cdw10 = uint32_t(slba);
    q.cdw11 = uint32_t(slba >> 32);
    q.cdw12 = SSDVP_FIELD_PUT(NVME_CDW12_NLB, nlb - 1);
    return q;
  }
  uint32_t* buf() { return d.hal->host_words.data() + kHostBuf / 4; }
};

}  // namespace

TEST(HostIf, WriteThenReadReturnsTheTokensThroughTheRings) {
  Host h;
  for (uint32_t i = 0; i < 16; ++i) h.buf()[i] = 0x1000 + i;
  ASSERT_EQ(h.run(Host::rw(NVME_OP_WRITE, 100, 16)), NVME_SC_SUCCESS);
  ASSERT_EQ(h.run(nvme_sqe{SSDVP_FIELD_PUT(NVME_CDW0_OPC, NVME_OP_FLUSH), 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}),
            NVME_SC_SUCCESS);
  for (uint32_t i = 0; i < 16; ++i) h.buf()[i] = 0;
  ASSERT_EQ(h.run(Host::rw(NVME_OP_READ, 100, 16)), NVME_SC_SUCCESS);
  for (uint32_t i = 0; i < 16; ++i) EXPECT_EQ(h.buf()[i], 0x1000 + i) << i;
  ASSERT_EQ(h.run(Host::rw(NVME_OP_READ, 200, 2)), NVME_SC_SUCCESS);  // never written
  EXPECT_EQ(h.buf()[0], SSDVP_TOKEN_DEALLOCATED);
  EXPECT_EQ(h.d.hal->xfer_errors, 0u);
  EXPECT_EQ(h.d.hal->violations, 0u);
}

TEST(HostIf, BadCommandsCompleteWithTheirStatus) {
  Host h;
  const uint64_t lbas = h.d.cfg.logical_lbas;
  nvme_sqe bad_op{};
  bad_op.cdw0 = SSDVP_FIELD_PUT(NVME_CDW0_OPC, 0x7f);
  bad_op.nsid = 1;
  EXPECT_EQ(h.run(bad_op), NVME_SC_INVALID_OPCODE);
  EXPECT_EQ(h.run(Host::rw(NVME_OP_READ, 0, 1, 2)), NVME_SC_INVALID_NS);
  EXPECT_EQ(h.run(Host::rw(NVME_OP_WRITE, lbas - 1, 2)), NVME_SC_LBA_OUT_OF_RANGE);
  EXPECT_EQ(h.run(Host::rw(NVME_OP_READ, lbas, 1)), NVME_SC_LBA_OUT_OF_RANGE);
  EXPECT_EQ(h.run(Host::rw(NVME_OP_WRITE, 0, h.d.cfg.max_transfer_lbas + 1)), NVME_SC_INVALID_FIELD);
  nvme_sqe stream = Host::rw(NVME_OP_WRITE, 0, 1);
  stream.cdw12 |= SSDVP_FIELD_PUT(NVME_CDW12_DTYPE, NVME_DTYPE_STREAMS);  // stream ID 0: invalid
  EXPECT_EQ(h.run(stream), NVME_SC_INVALID_FIELD);
  stream.cdw13 = SSDVP_FIELD_PUT(NVME_CDW13_DSPEC, FTL_MAX_CLASSES + 1);
  EXPECT_EQ(h.run(stream), NVME_SC_INVALID_FIELD);
  stream.cdw13 = SSDVP_FIELD_PUT(NVME_CDW13_DSPEC, 1);
  EXPECT_EQ(h.run(stream), NVME_SC_INVALID_FIELD);  // the Streams directive is not enabled (directives.c)
  h.d.f->streams.enabled = 1;  // as Directive Send / Receive leave it (testbench/platform/streams_directive_test.cpp)
  h.d.f->streams.allocated = 1;
  EXPECT_EQ(h.run(stream), NVME_SC_SUCCESS);
  EXPECT_EQ(ftl_get_stats(h.d.f)->host_errors, 8u);  // one per refused command
}

TEST(HostIf, DeallocateReadsBackDeallocatedAndHintsAreIgnored) {
  Host h;
  for (uint32_t i = 0; i < 8; ++i) h.buf()[i] = 0x2000 + i;
  ASSERT_EQ(h.run(Host::rw(NVME_OP_WRITE, 40, 8)), NVME_SC_SUCCESS);
  // one range: LBAs 42..45
  nvme_dsm_range r{0, 4, 42};
  std::memcpy(h.buf(), &r, sizeof r);
  nvme_sqe dsm{};
  dsm.cdw0 = SSDVP_FIELD_PUT(NVME_CDW0_OPC, NVME_OP_DSM);
  dsm.nsid = 1;
  dsm.prp1 = kHostBuf;
  dsm.cdw10 = SSDVP_FIELD_PUT(NVME_CDW10_DSM_NR, 0);
  EXPECT_EQ(h.run(dsm), NVME_SC_SUCCESS);  // no AD: hints only, nothing deallocated
  EXPECT_EQ(ftl_get_stats(h.d.f)->trim_lbas, 0u);
  dsm.cdw11 = SSDVP_FIELD_PUT(NVME_CDW11_DSM_AD, 1);
  EXPECT_EQ(h.run(dsm), NVME_SC_SUCCESS);
  EXPECT_EQ(ftl_get_stats(h.d.f)->trim_lbas, 4u);
  ASSERT_EQ(h.run(Host::rw(NVME_OP_READ, 40, 8)), NVME_SC_SUCCESS);
  for (uint32_t i = 0; i < 8; ++i) EXPECT_EQ(h.buf()[i], i >= 2 && i < 6 ? SSDVP_TOKEN_DEALLOCATED : 0x2000 + i) << i;
}

TEST(HostIf, ATransferOutsideHostMemoryFailsTheCommand) {
  Host h;
  nvme_sqe q = Host::rw(NVME_OP_WRITE, 0, 4);
  q.prp1 = uint64_t(h.d.hal->host_words.size()) * 4;  // just past the end
  const int st = h.run(q);
  EXPECT_NE(st, NVME_SC_SUCCESS);
  EXPECT_NE(st, -1) << "no completion";
  EXPECT_GT(h.d.hal->xfer_errors, 0u);
}

TEST(HostIf, FusedOrSglCommandsCompleteWithInvalidField) {
  Host h;
  nvme_sqe q = Host::rw(NVME_OP_WRITE, 0, 1);
  q.cdw0 |= SSDVP_FIELD_PUT(NVME_CDW0_FUSE, 1);  // first command of a fused pair
  EXPECT_EQ(h.run(q), NVME_SC_INVALID_FIELD);
  q = Host::rw(NVME_OP_READ, 0, 1);
  q.cdw0 |= SSDVP_FIELD_PUT(NVME_CDW0_PSDT, 1);  // SGL: not supported
  EXPECT_EQ(h.run(q), NVME_SC_INVALID_FIELD);
  EXPECT_EQ(h.run(Host::rw(NVME_OP_READ, 0, 1)), NVME_SC_SUCCESS);  // the same read with PRPs
  EXPECT_EQ(ftl_get_stats(h.d.f)->host_errors, 2u);
}

TEST(HostIf, NamespaceNotReadyUntilItsTimeThenServes) {
  Host h([](ftl_config& c) { c.ns_ready_ns = 5000; });
  nvme_sqe flush{};
  flush.cdw0 = SSDVP_FIELD_PUT(NVME_CDW0_OPC, NVME_OP_FLUSH);
  flush.nsid = 1;
  nvme_dsm_range r{0, 4, 42};
  std::memcpy(h.buf(), &r, sizeof r);
  nvme_sqe dsm = Host::rw(NVME_OP_DSM, 0, 1);
  dsm.cdw10 = 0;
  dsm.cdw11 = SSDVP_FIELD_PUT(NVME_CDW11_DSM_AD, 1);
  h.d.hal->now_ns = 4999;
  for (const nvme_sqe& q : {Host::rw(NVME_OP_READ, 0, 1), Host::rw(NVME_OP_WRITE, 0, 1), flush, dsm})
    EXPECT_EQ(h.run(q), NVME_SC_NS_NOT_READY) << "opcode " << (q.cdw0 & 0xff);
  EXPECT_EQ(h.run(Host::rw(NVME_OP_READ, 0, 1, 2)), NVME_SC_INVALID_NS);  // a bad NSID is still that
  h.d.hal->now_ns = 5000;
  for (const nvme_sqe& q : {dsm, Host::rw(NVME_OP_READ, 0, 1), Host::rw(NVME_OP_WRITE, 0, 1), flush})
    EXPECT_EQ(h.run(q), NVME_SC_SUCCESS) << "opcode " << (q.cdw0 & 0xff);
}

// ---- what a flush waits for (ftl.flush.scope) --------------------------------
// The fake HAL holds every program's completion until the test releases it,
// so a flush can be watched while programs issued before it and after it
// are in flight.

namespace {

// A drive with room for many commands and page buffers in flight at once.
void roomy(ftl_config& c) {
  c.cmd_slots = 64;
  c.write_buffer_pages = 64;
}
void roomy_drain(ftl_config& c) {
  roomy(c);
  c.flush_scope = FTL_FLUSH_DRAIN;
}

nvme_sqe flush_cmd() {
  nvme_sqe q{};
  q.cdw0 = SSDVP_FIELD_PUT(NVME_CDW0_OPC, NVME_OP_FLUSH);
  q.nsid = 1;
  return q;
}

// The status of command cid's completion so far (-1: none), after polling the firmware.
int status_of(Host& h, uint16_t cid) {
  for (int i = 0; i < 1000 && ftl_poll(h.d.f); ++i) {
  }
  int status = -1;
  for (const auto& c : h.d.hal->completions)
    if (c.cid == cid) status = c.status;
  return status;
}

// A write of n LBAs at lba carrying tokens base, base + 1, ...: its status (-1: not completed).
int write_tokens(Host& h, uint64_t lba, uint32_t n, uint32_t base, bool fua = false) {
  for (uint32_t i = 0; i < n; ++i) h.buf()[i] = base + i;
  nvme_sqe q = Host::rw(NVME_OP_WRITE, lba, n);
  if (fua) q.cdw12 |= SSDVP_FIELD_PUT(NVME_CDW12_FUA, 1);
  return h.run(q);
}
// LBAs of [lba, lba + n) not reading back base, base + 1, ...
int misread(Host& h, uint64_t lba, uint32_t n, uint32_t base) {
  EXPECT_EQ(h.run(Host::rw(NVME_OP_READ, lba, n)), NVME_SC_SUCCESS);
  int bad = 0;
  for (uint32_t i = 0; i < n; ++i) bad += h.buf()[i] != base + i;
  return bad;
}

// Submits a flush (with `fua`: a one-LBA FUA write instead) that must
// wait for programs, then a page's worth of writes whose program is issued
// after it; the test then releases programs. Returns the flush's cid and the
// number of programs held before it was submitted plus those of its padding.
struct FlushThenWrite {
  uint16_t cid = 0;
  size_t before = 0;
};
FlushThenWrite flush_then_write(Host& h, bool fua) {
  h.d.hal->hold_programs = true;
  FlushThenWrite r;
  EXPECT_EQ(write_tokens(h, 0, 1, 0xa000), NVME_SC_SUCCESS);  // half a page, in DRAM
  EXPECT_EQ(fua ? write_tokens(h, 8, 1, 0xb000, true) : h.run(flush_cmd()), -1) << "it waits for its programs";
  r.cid = uint16_t(h.next_cid - 1);
  r.before = h.d.hal->held_programs.size();
  EXPECT_GE(r.before, 1u);
  EXPECT_EQ(write_tokens(h, 100, 2 * h.d.cfg.slots_per_page, 0xc000), NVME_SC_SUCCESS);
  EXPECT_GT(h.d.hal->held_programs.size(), r.before) << "a program issued after the flush";
  return r;
}

}  // namespace

TEST(HostIfFlush, AFlushWaitsForTheProgramsBeforeItNotForLaterWrites) {
  for (const bool fua : {false, true}) {
    Host h(roomy);
    const FlushThenWrite r = flush_then_write(h, fua);
    for (size_t i = 0; i < r.before; ++i) {
      EXPECT_EQ(status_of(h, r.cid), -1) << "fua " << fua << ": a program before it is still in flight";
      h.d.hal->release_program(0);
    }
    EXPECT_EQ(status_of(h, r.cid), NVME_SC_SUCCESS) << "fua " << fua;
    EXPECT_FALSE(h.d.hal->held_programs.empty()) << "the later write's program is still in flight";
    while (!h.d.hal->held_programs.empty()) h.d.hal->release_program(0);
    EXPECT_EQ(status_of(h, r.cid), NVME_SC_SUCCESS);
    EXPECT_EQ(misread(h, 0, 1, 0xa000) + misread(h, 100, 4, 0xc000), 0);
    if (fua) {
      EXPECT_EQ(misread(h, 8, 1, 0xb000), 0);
    }
  }
}

TEST(HostIfFlush, WithDrainAFlushWaitsUntilNoProgramIsInFlight) {
  for (const bool fua : {false, true}) {
    Host h(roomy_drain);
    const FlushThenWrite r = flush_then_write(h, fua);
    for (size_t i = 0; i < r.before; ++i) h.d.hal->release_program(0);
    EXPECT_EQ(status_of(h, r.cid), -1) << "fua " << fua << ": the later write's program holds it";
    while (!h.d.hal->held_programs.empty()) h.d.hal->release_program(0);
    EXPECT_EQ(status_of(h, r.cid), NVME_SC_SUCCESS) << "fua " << fua;
  }
}

// A program before the flush fails: its data is programmed again, after the
// flush was submitted, and the flush still waits for that program.
TEST(HostIfFlush, AProgramRetriedAfterAFailureIsStillOwedToTheFlush) {
  Host h(roomy);
  const FlushThenWrite r = flush_then_write(h, false);
  const size_t held = h.d.hal->held_programs.size();
  h.d.hal->release_program(0, FC_ERR_PROGRAM_FAIL);
  EXPECT_EQ(status_of(h, r.cid), -1);
  ASSERT_EQ(h.d.hal->held_programs.size(), held) << "the failed page is programmed again";
  EXPECT_EQ(ftl_get_stats(h.d.f)->program_failures, 1u);
  // Every program but the retry (the newest): the flush still waits.
  while (h.d.hal->held_programs.size() > 1) h.d.hal->release_program(0);
  EXPECT_EQ(status_of(h, r.cid), -1) << "completed before its data's second program";
  h.d.hal->release_program(0);
  EXPECT_EQ(status_of(h, r.cid), NVME_SC_SUCCESS);
  EXPECT_EQ(misread(h, 0, 1, 0xa000) + misread(h, 100, 4, 0xc000), 0);
}

// More flushes waiting than the firmware has epoch counters: none completes
// before the programs issued before it, the first FTL_FLUSH_EPOCHS - 1 as
// soon as those are done, and every one in the end.
TEST(HostIfFlush, ManyWaitingFlushesNeverCompleteEarly) {
  Host h(roomy);
  h.d.hal->hold_programs = true;
  constexpr int kFlushes = 24;
  std::vector<uint16_t> cid;
  std::vector<size_t> owed;  // programs submitted before each flush's wait (counted from the first)
  size_t submitted = 0;
  for (int k = 0; k < kFlushes; ++k) {
    ASSERT_EQ(write_tokens(h, uint64_t(k) * 4, 1, 0xd000 + uint32_t(k)), NVME_SC_SUCCESS);
    const size_t held_before = h.d.hal->held_programs.size();
    ASSERT_EQ(h.run(flush_cmd()), -1);
    cid.push_back(uint16_t(h.next_cid - 1));
    submitted += h.d.hal->held_programs.size() - held_before;
    owed.push_back(submitted);
  }
  for (size_t released = 1; released <= submitted; ++released) {
    h.d.hal->release_program(0);
    for (int k = 0; k < kFlushes; ++k) {
      const int st = status_of(h, cid[size_t(k)]);
      if (released < owed[size_t(k)]) {
        EXPECT_EQ(st, -1) << "flush " << k << " after " << released << " programs";
      } else if (k < int(FTL_FLUSH_EPOCHS) - 1) {
        EXPECT_EQ(st, NVME_SC_SUCCESS) << "flush " << k << " after " << released << " programs";
      }
    }
  }
  for (int k = 0; k < kFlushes; ++k) EXPECT_EQ(status_of(h, cid[size_t(k)]), NVME_SC_SUCCESS) << k;
  for (int k = 0; k < kFlushes; ++k) EXPECT_EQ(misread(h, uint64_t(k) * 4, 1, 0xd000 + uint32_t(k)), 0) << k;
}
