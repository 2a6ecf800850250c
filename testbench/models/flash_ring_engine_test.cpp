// flash_ring_engine_test.cpp - the flash rings' protocol, once for every
// producer (FlashCtrl, the firmware tests' fake HAL, the host FTL's HAL):
// register programming, fetch, completions waiting for room, phase tags,
// CTRL, and the descriptor checks per producer.
#include "flash/flash_ring_engine.h"
#include "tiny_flash.h"

#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

namespace ssdvp {
namespace {

// DRAM: a buffer at SSDVP_DRAM_BASE.
struct Buffer : FlashDram {
  std::vector<uint8_t> bytes = std::vector<uint8_t>(64 * 1024);
  uint8_t* at(uint64_t a, uint64_t n) {
    if (a < SSDVP_DRAM_BASE || a - SSDVP_DRAM_BASE + n > bytes.size()) return nullptr;
    return bytes.data() + (a - SSDVP_DRAM_BASE);
  }
  bool read(uint64_t a, void* d, uint32_t n, uint64_t* lat) override {
    const uint8_t* p = at(a, n);
    if (p) std::memcpy(d, p, n);
    if (lat) *lat += 7;
    return p != nullptr;
  }
  bool write(uint64_t a, const void* s, uint32_t n, uint64_t*) override {
    uint8_t* p = at(a, n);
    if (p) std::memcpy(p, s, n);
    return p != nullptr;
  }
  bool reachable(uint64_t a, uint64_t n) override { return at(a, n) != nullptr; }
};

constexpr uint32_t kSq = SSDVP_DRAM_BASE, kCq = SSDVP_DRAM_BASE + 0x1000;

struct FlashRings : ::testing::Test {
  Buffer dram;
  std::vector<std::string> errors;
  FlashRingEngine e{dram, [this](const std::string& what, uint32_t) { errors.push_back(what); }};

  void setup(uint32_t sq_entries, uint32_t cq_entries) {
    ASSERT_TRUE(e.write(FLASH_SQ_BASE, kSq));
    ASSERT_TRUE(e.write(FLASH_SQ_SIZE, sq_entries));
    ASSERT_TRUE(e.write(FLASH_CQ_BASE, kCq));
    ASSERT_TRUE(e.write(FLASH_CQ_SIZE, cq_entries));
  }
  void put(uint32_t slot, uint32_t tag) {
    fc_sqe d{};
    d.op = FC_OP_READ;
    d.tag = tag;
    std::memcpy(dram.at(kSq + slot * sizeof d, sizeof d), &d, sizeof d);
  }
  fc_cqe cq(uint32_t slot) {
    fc_cqe c;
    std::memcpy(&c, dram.at(kCq + slot * sizeof c, sizeof c), sizeof c);
    return c;
  }
};

TEST_F(FlashRings, DescriptorsComeInOrderUpToTheTailWithTheFirstReadsLatency) {
  setup(4, 4);
  for (uint32_t i = 0; i < 3; ++i) put(i, 10 + i);
  ASSERT_TRUE(e.write(FLASH_SQ_TAIL, 3));
  fc_sqe d;
  uint64_t lat = 0;
  std::vector<uint32_t> tags;
  ASSERT_TRUE(e.peek(&d));
  EXPECT_EQ(d.tag, 10u);  // peek does not take it
  while (e.next(&d, &lat)) tags.push_back(d.tag);
  EXPECT_EQ(tags, (std::vector<uint32_t>{10, 11, 12}));
  EXPECT_EQ(lat, 21u);  // each read's time added
  EXPECT_EQ(e.read(FLASH_SQ_HEAD), 3u);
  put(3, 13);
  put(0, 14);
  ASSERT_TRUE(e.write(FLASH_SQ_TAIL, 1));  // wraps
  tags.clear();
  while (e.next(&d)) tags.push_back(d.tag);
  EXPECT_EQ(tags, (std::vector<uint32_t>{13, 14}));
  EXPECT_TRUE(errors.empty());
}

TEST_F(FlashRings, CompletionsWaitForRoomAndCarryAPhaseTagThatFlipsAtEveryWrap) {
  setup(4, 4);
  ASSERT_TRUE(e.write_ctrl(FLASH_CTRL_CQ_PHASE, false));
  for (uint16_t t = 1; t <= 5; ++t) e.complete(fc_cqe{t, FC_OK, 0});
  e.post_ready();
  EXPECT_EQ(e.cq_tail(), 3u);  // a ring of 4 holds 3
  EXPECT_EQ(e.completions_waiting(), 2u);
  EXPECT_TRUE(e.irq());
  EXPECT_EQ(cq(0).flags & FC_FLAG_PHASE, FC_FLAG_PHASE);  // tag 1 on the first pass
  ASSERT_TRUE(e.write(FLASH_CQ_HEAD, 3));                 // all taken: room for two more
  e.post_ready();
  EXPECT_EQ(e.completions_waiting(), 0u);
  EXPECT_EQ(cq(3).tag, 4u);
  EXPECT_EQ(cq(3).flags & FC_FLAG_PHASE, FC_FLAG_PHASE);
  EXPECT_EQ(cq(0).tag, 5u);  // after the wrap: tag 0
  EXPECT_EQ(cq(0).flags & FC_FLAG_PHASE, 0u);
  EXPECT_TRUE(errors.empty());
}

TEST_F(FlashRings, WithoutPhaseTagsTheFlagsAreThoseCompleted) {
  setup(4, 4);
  e.complete(fc_cqe{1, FC_ERR_ORDER, FC_FLAG_ERASED});
  e.post_ready();
  EXPECT_EQ(cq(0).flags, FC_FLAG_ERASED);
  EXPECT_EQ(cq(0).status, FC_ERR_ORDER);
}

TEST_F(FlashRings, BadProgrammingIsReportedAndDisablesTheRingWithoutACrash) {
  ASSERT_TRUE(e.write(FLASH_SQ_BASE, kSq));
  e.write(FLASH_SQ_SIZE, 3);  // not a power of two
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_NE(errors[0].find("SQ ring"), std::string::npos) << errors[0];
  EXPECT_NE(errors[0].find("power of two"), std::string::npos) << errors[0];
  EXPECT_FALSE(e.write(FLASH_SQ_TAIL, 1));  // disabled
  EXPECT_NE(errors.back().find("disabled"), std::string::npos);
  fc_sqe d;
  EXPECT_FALSE(e.next(&d));
  e.write(FLASH_CQ_BASE, SSDVP_DRAM_BASE + 0x20000);  // beyond this DRAM
  e.write(FLASH_CQ_SIZE, 4);
  EXPECT_NE(errors.back().find("not inside DRAM"), std::string::npos) << errors.back();
  setup(4, 4);
  EXPECT_FALSE(e.write(FLASH_SQ_TAIL, 4));  // beyond the ring
  EXPECT_NE(errors.back().find("SQ_TAIL beyond"), std::string::npos);
  EXPECT_FALSE(e.write(FLASH_CQ_HEAD, 9));
  EXPECT_NE(errors.back().find("CQ_HEAD beyond"), std::string::npos);
}

TEST_F(FlashRings, CtrlRestartsTheCompletionRingOnlyWhenNothingIsInFlight) {
  setup(4, 4);
  e.complete(fc_cqe{1, FC_OK, 0});
  e.post_ready();
  EXPECT_FALSE(e.write_ctrl(FLASH_CTRL_CQ_PHASE, false));  // an entry not taken
  ASSERT_TRUE(e.write(FLASH_CQ_HEAD, 1));
  EXPECT_FALSE(e.write_ctrl(FLASH_CTRL_CQ_PHASE, true));  // the producer has some in flight
  EXPECT_FALSE(e.write_ctrl(0x80000000u, false));         // reserved bits
  EXPECT_EQ(errors.size(), 3u);
  EXPECT_TRUE(e.write_ctrl(FLASH_CTRL_CQ_PHASE, false));
  EXPECT_EQ(e.cq_head(), 0u);
  EXPECT_EQ(e.cq_tail(), 0u);
  EXPECT_EQ(e.ctrl(), FLASH_CTRL_CQ_PHASE);
}

TEST_F(FlashRings, APowerCutDropsWhatWaitsAndWhatWasNotTaken) {
  setup(4, 2);
  for (uint16_t t = 1; t <= 3; ++t) e.complete(fc_cqe{t, FC_OK, 0});
  e.post_ready();
  EXPECT_EQ(e.power_cut(), 2u);
  EXPECT_FALSE(e.irq());
  EXPECT_EQ(e.completions_waiting(), 0u);
}

// A HAL's DRAM through its own resolver (the fake HAL's and the host FTL's).
TEST(HalDram, ReadsWritesAndRefusesWhatTheResolverRefuses) {
  static std::vector<uint8_t> mem(64);
  HalDram d(
      [](void*, uint32_t addr, uint32_t bytes) -> void* {
        if (addr < SSDVP_DRAM_BASE || uint64_t(addr - SSDVP_DRAM_BASE) + bytes > mem.size()) return nullptr;
        return mem.data() + (addr - SSDVP_DRAM_BASE);
      },
      nullptr);
  const uint32_t v = 0xdeadbeef;
  uint32_t back = 0;
  EXPECT_TRUE(d.write(SSDVP_DRAM_BASE + 8, &v, 4, nullptr));
  EXPECT_TRUE(d.read(SSDVP_DRAM_BASE + 8, &back, 4, nullptr));
  EXPECT_EQ(back, v);
  EXPECT_TRUE(d.reachable(SSDVP_DRAM_BASE, 64));
  EXPECT_FALSE(d.reachable(SSDVP_DRAM_BASE, 65));
  EXPECT_FALSE(d.read(SSDVP_DRAM_BASE + 62, &back, 4, nullptr));
  EXPECT_FALSE(d.write(uint64_t(1) << 33, &v, 4, nullptr));  // beyond 32-bit addresses
}

FlashGeometry small() { return ssdvp::testing::tiny_flash(); }

fc_status check(const FlashOpcodes& ops, uint8_t op, uint32_t row = 0, uint32_t mask = 1,
                uint32_t buf = SSDVP_DRAM_BASE) {
  fc_sqe d{};
  d.op = op;
  d.row = row;
  d.slot_mask = mask;
  d.buf = buf;
  const char* why = nullptr;
  const fc_status st = flash_check_descriptor(small(), ops, d, &why);
  if (st != FC_OK) EXPECT_NE(why, nullptr);
  return st;
}

TEST(FlashCheckDescriptor, EachProducerHasItsOwnOpcodesAndTheSameRules) {
  const FlashOpcodes soc{true, false}, host_ftl{false, true};
  EXPECT_EQ(check(soc, FC_OP_COPY), FC_ERR_OPCODE);
  EXPECT_EQ(check(host_ftl, FC_OP_COPY), FC_OK);
  EXPECT_EQ(check(soc, FC_OP_COPYBACK), FC_OK);
  EXPECT_EQ(check(host_ftl, FC_OP_COPYBACK), FC_ERR_OPCODE);
  EXPECT_EQ(check(soc, 0), FC_ERR_OPCODE);
  for (const FlashOpcodes& ops : {soc, host_ftl}) {
    EXPECT_EQ(check(ops, FC_OP_READ, 32), FC_ERR_ADDRESS);    // 32 pages
    EXPECT_EQ(check(ops, FC_OP_ERASE, 4), FC_ERR_ADDRESS);    // 4 blocks
    EXPECT_EQ(check(ops, FC_OP_ERASE, 3, 0, 0), FC_OK);       // an erase has no buffer
    EXPECT_EQ(check(ops, FC_OP_READ, 0, 0), FC_ERR_MASK);     // empty
    EXPECT_EQ(check(ops, FC_OP_READ, 0, 0x10), FC_ERR_MASK);  // slot 4 of 4
    EXPECT_EQ(check(ops, FC_OP_PROGRAM, 0, 0, 0x1000), FC_ERR_DMA);
    EXPECT_EQ(check(ops, FC_OP_PROGRAM, 0, 0, SSDVP_DRAM_BASE + 2), FC_ERR_DMA);
    EXPECT_EQ(check(ops, FC_OP_PROGRAM, 31, 0), FC_OK);
  }
}

}  // namespace
}  // namespace ssdvp
