// Bench for FlashCtrl: ring protocol, NAND rules through descriptors, and
// completion times checked against hand computation from the config values.
//
// Platform: test CPU -> Bus -> {FLASH regs, DRAM}; FlashCtrl.dma -> Bus.
// Geometry: 2 channels x 2 dies, 8 blocks x 16 pages of 8 KiB, 4 KiB LBAs
// (2 slots). Dies 0 and 2 share channel 0, dies 1 and 3 channel 1.
#include <gtest/gtest.h>

#include <cstring>
#include <map>
#include <vector>

#include "common/config.h"
#include "dram/dram.h"
#include "flash/flash_ctrl.h"
#include "interconnect/bus.h"
#include "ssdvp_hw.h"
#include "test_initiator.h"

using namespace ssdvp;
using sc_core::sc_time;
using sc_core::SC_ZERO_TIME;

namespace {

// The timing figures of the config below, in ps, written out by hand.
constexpr uint64_t kNs = 1000, kUs = 1000000;
constexpr uint64_t tR = 25 * kUs, tPROG = 300 * kUs, tBERS = 3000 * kUs, tCMD = 150 * kNs;
constexpr uint64_t kBus = 2 * kNs;               // 2 cycles at 1 GHz
constexpr uint64_t kDramLat = 50 * kNs + kBus;   // DMI latency seen through the bus
constexpr uint64_t kFetch = 30 * kNs;            // flash.sq_fetch
constexpr uint64_t kChan4K = 4096 * kUs / 400;   // 4096 B at 400 MB/s = 10.24 us
constexpr uint64_t kChan8K = 8192 * kUs / 400;   // 20.48 us
constexpr uint64_t kDma4K = 4096 * kUs / 10000;  // 4096 B at 10000 MB/s = 409.6 ns
constexpr uint64_t kDma8K = 8192 * kUs / 10000;  // 819.2 ns

const char* kConfig = R"(
flash:
  channels: 2
  dies_per_channel: 2
  blocks_per_plane: 8
  pages_per_block: 16
  page_size: 8KiB
  channel: {mbps: 400}
  dma: {mbps: 10000}
  sq_fetch: 30ns
  timing: {read: 25us, program: 300us, erase: 3ms, cmd: 150ns}
dram: {size: 16MiB, latency: 50ns}
bus: {latency_cycles: 2, clock_hz: 1e9}
log: {level: error}
)";

constexpr uint32_t kSq = SSDVP_DRAM_BASE + 0x1000, kCq = SSDVP_DRAM_BASE + 0x2000;
constexpr uint32_t kBuf = SSDVP_DRAM_BASE + 0x10000;
constexpr uint32_t S = 2;
constexpr uint32_t kPpb = 16, kBpd = 8;

uint32_t buf_addr(uint32_t i) { return kBuf + i * 0x100; }
uint32_t page_row(uint32_t die, uint32_t block, uint32_t page) { return (die * kBpd + block) * kPpb + page; }
uint32_t block_row(uint32_t die, uint32_t block) { return die * kBpd + block; }

struct Done {
  fc_cqe cqe;
  uint64_t time;  // ps, when the test CPU saw it
};

struct Bench {
  explicit Bench(const std::string& extra = "") : cfg(with(extra)) { wire(); }
  static Config with(const std::string& extra) {
    Config c = Config::from_yaml_string(kConfig);
    c.merge(Config::from_yaml_string(extra));
    return c;
  }
  Config cfg;
  test::TestInitiator cpu{"cpu"};
  Bus bus{"bus", cfg};
  Dram dram{"dram", cfg};
  FlashCtrl fc{"flash", cfg};
  sc_core::sc_signal<bool> irq{"irq"};
  uint32_t sq_tail = 0, sq_size = 0, cq_head = 0, cq_size = 0;
  std::vector<FlashOpRecord> ops;

  void wire() {
    cpu.isock.bind(bus.tsock);
    fc.dma.bind(bus.tsock);
    bus.attach("FLASH", fc.regs);
    bus.attach("DRAM", dram.tsock);
    fc.irq.bind(irq);
    fc.set_observer([this](const FlashOpRecord& r) { ops.push_back(r); });
  }
  uint8_t* dram_at(uint32_t bus_addr) { return dram.data() + (bus_addr - SSDVP_DRAM_BASE); }
  uint32_t reg(uint32_t off) { return cpu.read32(SSDVP_FLASH_BASE + off); }
  void set(uint32_t off, uint32_t v) { cpu.write32(SSDVP_FLASH_BASE + off, v); }
  void setup_rings(uint32_t sqn = 16, uint32_t cqn = 16) {
    set(FLASH_SQ_BASE, kSq);
    set(FLASH_SQ_SIZE, sqn);
    set(FLASH_CQ_BASE, kCq);
    set(FLASH_CQ_SIZE, cqn);
    sq_size = sqn, cq_size = cqn, sq_tail = cq_head = 0;
    cpu.sync();
  }
  // Writes descriptors into the SQ (backdoor) and rings the doorbell once.
  // Returns the doorbell's arrival time at the controller (ps).
  uint64_t submit(const std::vector<fc_sqe>& ds) {
    for (const fc_sqe& d : ds) {
      std::memcpy(dram_at(kSq + sq_tail * sizeof(fc_sqe)), &d, sizeof d);
      sq_tail = (sq_tail + 1) % sq_size;
    }
    cpu.sync();
    const uint64_t t = sc_core::sc_time_stamp().value() + kBus;
    set(FLASH_SQ_TAIL, sq_tail);
    cpu.sync();
    return t;
  }
  // Waits until n completions have been seen; consumes them as they come.
  std::vector<Done> collect(size_t n) {
    std::vector<Done> out;
    while (out.size() < n) {
      const uint32_t tail = reg(FLASH_CQ_TAIL);
      if (tail == cq_head) {
        cpu.sync();  // the level now reflects our head write; a rise may have come meanwhile
        if (!irq.read()) sc_core::wait(irq.posedge_event());
        continue;
      }
      while (cq_head != tail) {
        Done d;
        std::memcpy(&d.cqe, dram_at(kCq + cq_head * sizeof(fc_cqe)), sizeof(fc_cqe));
        d.time = sc_core::sc_time_stamp().value();
        out.push_back(d);
        cq_head = (cq_head + 1) % cq_size;
      }
      set(FLASH_CQ_HEAD, cq_head);
      cpu.sync();
    }
    return out;
  }
  void fill_buffer(uint32_t i, uint32_t token0, uint32_t lpn0, uint32_t seq) {
    uint32_t b[2 * S + 1] = {token0, token0 + 1, lpn0, lpn0 + 1, seq};
    std::memcpy(dram_at(buf_addr(i)), b, sizeof b);
  }
  uint32_t buf_word(uint32_t i, uint32_t w) {
    uint32_t v;
    std::memcpy(&v, dram_at(buf_addr(i)) + 4 * w, 4);
    return v;
  }
  void run(std::function<void()> body) {
    cpu.body = [body](test::TestInitiator&) { body(); };
    sc_core::sc_start();
    EXPECT_TRUE(cpu.done);
  }
};

fc_sqe read_op(uint32_t tag, uint32_t row, uint32_t mask, uint32_t buf) {
  fc_sqe d{};
  d.op = FC_OP_READ, d.tag = tag, d.row = row, d.slot_mask = mask, d.buf = buf;
  return d;
}
fc_sqe program_op(uint32_t tag, uint32_t row, uint32_t buf) {
  fc_sqe d{};
  d.op = FC_OP_PROGRAM, d.tag = tag, d.row = row, d.buf = buf;
  return d;
}
fc_sqe erase_op(uint32_t tag, uint32_t row) {
  fc_sqe d{};
  d.op = FC_OP_ERASE, d.tag = tag, d.row = row;
  return d;
}

// Latency of one read of `slots` LBAs on an idle die, from descriptor arrival.
constexpr uint64_t read_service(uint64_t chan, uint64_t dma) { return tCMD + tR + chan + kDramLat + dma; }

}  // namespace

TEST(FlashCtrl, ReadLatencyQd1EqualsHandComputation) {
  Bench b;
  b.run([&] {
    b.setup_rings();
    const uint64_t t0 = b.submit({read_op(7, page_row(1, 3, 5), 0b01, buf_addr(0))});
    auto d = b.collect(1);
    ASSERT_EQ(d.size(), 1u);
    EXPECT_EQ(d[0].cqe.tag, 7u);
    EXPECT_EQ(d[0].cqe.status, FC_OK);
    EXPECT_EQ(d[0].cqe.flags, FC_FLAG_ERASED);
    EXPECT_EQ(b.buf_word(0, 0), SSDVP_TOKEN_ERASED);
    // doorbell + first DRAM access + fetch, then cmd + tR + 1 LBA out + DRAM write
    EXPECT_EQ(d[0].time, t0 + kDramLat + kFetch + tCMD + tR + kChan4K + kDramLat + kDma4K);
    ASSERT_EQ(b.ops.size(), 1u);
    EXPECT_EQ(b.ops[0].die, 1u);
    EXPECT_EQ(b.ops[0].channel, 1u);
    EXPECT_EQ(b.ops[0].end - b.ops[0].start, tCMD + tR + kChan4K);
    EXPECT_EQ(b.fc.die_busy_ps(1), tCMD + tR + kChan4K);
    EXPECT_EQ(b.fc.channel_busy_ps(1), tCMD + kChan4K);
    EXPECT_EQ(b.fc.reads(), 1u);
  });
}

TEST(FlashCtrl, ProgramThenReadRoundTripsTokens) {
  Bench b;
  b.run([&] {
    b.setup_rings();
    b.fill_buffer(0, 1000, 50, 99);
    b.submit({program_op(1, page_row(2, 0, 0), buf_addr(0))});
    ASSERT_EQ(b.collect(1)[0].cqe.status, FC_OK);
    std::memset(b.dram_at(buf_addr(1)), 0, 64);
    b.submit({read_op(2, page_row(2, 0, 0), 0b10, buf_addr(1))});
    auto d = b.collect(1);
    EXPECT_EQ(d[0].cqe.status, FC_OK);
    EXPECT_EQ(d[0].cqe.flags, 0u);
    EXPECT_EQ(b.buf_word(1, 0), 0u);     // slot 0 not selected: untouched
    EXPECT_EQ(b.buf_word(1, 1), 1001u);  // token[1]
    EXPECT_EQ(b.buf_word(1, 3), 51u);    // lpn[1]
    EXPECT_EQ(b.buf_word(1, 4), 99u);    // seq
    EXPECT_TRUE(b.fc.die(2).is_programmed(0, 0));
  });
}

TEST(FlashCtrl, ProgramLatency) {
  Bench b;
  b.run([&] {
    b.setup_rings();
    b.fill_buffer(0, 1, 1, 1);
    const uint64_t t0 = b.submit({program_op(3, page_row(0, 1, 0), buf_addr(0))});
    auto d = b.collect(1);
    EXPECT_EQ(d[0].cqe.status, FC_OK);
    // arrival, DRAM read of the page, cmd + data-in on the channel, tPROG
    EXPECT_EQ(d[0].time, t0 + kDramLat + kFetch + kDramLat + kDma8K + tCMD + kChan8K + tPROG);
    EXPECT_EQ(b.fc.programs(), 1u);
  });
}

TEST(FlashCtrl, EraseLatency) {
  Bench b;
  b.run([&] {
    b.setup_rings();
    const uint64_t t0 = b.submit({erase_op(4, block_row(3, 7))});
    auto d = b.collect(1);
    EXPECT_EQ(d[0].cqe.status, FC_OK);
    EXPECT_EQ(d[0].time, t0 + kDramLat + kFetch + tCMD + tBERS);
    EXPECT_EQ(b.fc.die(3).erase_count(7), 1u);
    EXPECT_EQ(b.fc.erases(), 1u);
  });
}

TEST(FlashCtrl, ReadsOnDifferentChannelsOverlap) {
  Bench b;
  b.run([&] {
    b.setup_rings();
    const uint64_t t0 =
        b.submit({read_op(1, page_row(0, 0, 0), 0b11, buf_addr(0)), read_op(2, page_row(1, 0, 0), 0b11, buf_addr(1))});
    auto d = b.collect(2);
    const uint64_t a1 = t0 + kDramLat + kFetch, a2 = a1 + kFetch;
    const uint64_t svc = read_service(kChan8K, kDma8K);
    EXPECT_EQ(d[0].time, a1 + svc);
    ASSERT_EQ(b.ops.size(), 2u);
    EXPECT_EQ(b.ops[0].done, a1 + svc);
    EXPECT_EQ(b.ops[1].done, a2 + svc);  // only the fetch apart
    EXPECT_EQ(b.ops[1].channel, 1u);
  });
}

TEST(FlashCtrl, ReadsOnSameDieSerialise) {
  Bench b;
  b.run([&] {
    b.setup_rings();
    const uint64_t t0 =
        b.submit({read_op(1, page_row(2, 0, 0), 0b11, buf_addr(0)), read_op(2, page_row(2, 5, 3), 0b11, buf_addr(1))});
    auto d = b.collect(2);
    const uint64_t a1 = t0 + kDramLat + kFetch;
    const uint64_t die_free = a1 + tCMD + tR + kChan8K;  // after the first data-out
    EXPECT_EQ(d[0].time, die_free + kDramLat + kDma8K);
    EXPECT_EQ(d[1].time, die_free + read_service(kChan8K, kDma8K));
    EXPECT_EQ(b.ops[1].start, die_free);
  });
}

TEST(FlashCtrl, ProgramTransferFillsChannelGap) {
  Bench b;
  b.run([&] {
    b.setup_rings();
    b.fill_buffer(1, 5, 5, 5);
    // die 0 read: cmd now, data-out reserved ~tR later on channel 0;
    // die 2 program (also channel 0) fits its data-in in between.
    const uint64_t t0 =
        b.submit({read_op(1, page_row(0, 0, 0), 0b11, buf_addr(0)), program_op(2, page_row(2, 0, 0), buf_addr(1))});
    auto d = b.collect(2);
    const uint64_t a1 = t0 + kDramLat + kFetch, a2 = a1 + kFetch;
    ASSERT_LT(a2 + kDramLat + kDma8K + tCMD + kChan8K, a1 + tCMD + tR) << "test premise: the gap is big enough";
    std::map<uint32_t, uint64_t> at;
    for (auto& x : d) at[x.cqe.tag] = x.time;
    EXPECT_EQ(at[1], a1 + read_service(kChan8K, kDma8K));               // read undisturbed
    EXPECT_EQ(at[2], a2 + kDramLat + kDma8K + tCMD + kChan8K + tPROG);  // program not behind the read
  });
}

TEST(FlashCtrl, ProgramTransferWaitsWhenGapTooSmall) {
  Bench b;
  b.run([&] {
    b.setup_rings();
    b.fill_buffer(1, 5, 5, 5);
    // Two reads on dies 0 and 2 (channel 0), then a program on die 0 behind them.
    const uint64_t t0 =
        b.submit({read_op(1, page_row(0, 0, 0), 0b11, buf_addr(0)), read_op(2, page_row(2, 0, 0), 0b11, buf_addr(2)),
                  program_op(3, page_row(0, 1, 0), buf_addr(1))});
    auto d = b.collect(3);
    const uint64_t a1 = t0 + kDramLat + kFetch, a2 = a1 + kFetch;
    const uint64_t r1_out = a1 + tCMD + tR;  // read 1 data-out start
    std::map<uint32_t, uint64_t> at;
    for (auto& x : d) at[x.cqe.tag] = x.time;
    // the program on die 0 waits for read 1 (die busy), then for read 2's data-out on the channel
    const uint64_t r2_cmd = std::max(a2, a1 + tCMD);  // read 2's command after read 1's on the channel
    const uint64_t r2_out = std::max(r2_cmd + tCMD + tR, r1_out + kChan8K);
    EXPECT_EQ(at[2], r2_out + kChan8K + kDramLat + kDma8K);
    EXPECT_EQ(at[3], r2_out + kChan8K + tCMD + kChan8K + tPROG);
  });
}

TEST(FlashCtrl, CompletionRingFullStalls) {
  Bench b;
  b.run([&] {
    b.setup_rings(16, 4);  // room for 3
    std::vector<fc_sqe> ds;
    for (uint32_t i = 0; i < 5; ++i) ds.push_back(erase_op(10 + i, block_row(i % 4, i)));
    b.submit(ds);
    sc_core::wait(sc_time(10, sc_core::SC_MS));  // all done long ago
    EXPECT_EQ(b.reg(FLASH_CQ_TAIL), 3u);
    EXPECT_EQ(b.fc.completions_waiting(), 2u);
    EXPECT_TRUE(b.irq.read());
    auto d = b.collect(5);
    ASSERT_EQ(d.size(), 5u);
    for (uint32_t i = 0; i < 5; ++i) EXPECT_EQ(d[i].cqe.tag, 10 + i);  // in order
    EXPECT_GT(d[3].time, d[2].time);                                   // posted only after the head moved
    EXPECT_EQ(b.fc.completions_waiting(), 0u);
  });
}

TEST(FlashCtrl, ViolationCompletesWithStatusAndCounts) {
  Bench b;
  b.run([&] {
    b.setup_rings();
    b.fill_buffer(0, 1, 1, 1);
    const uint64_t t0 = b.submit({
        program_op(1, page_row(0, 0, 1), buf_addr(0)),  // skips page 0
        program_op(2, page_row(0, 0, 0), buf_addr(0)),  // ok
        program_op(3, page_row(0, 0, 0), buf_addr(0)),  // again: not erased
        read_op(4, 4 * kBpd * kPpb, 0b1, buf_addr(1)),  // beyond the geometry
        erase_op(5, 4 * kBpd),                          // block beyond the geometry
        [] {
          fc_sqe d{};
          d.op = 9;
          d.tag = 6;
          return d;
        }(),  // bad opcode
        [] {
          fc_sqe d{};
          d.op = FC_OP_COPY;  // a host FTL's HAL's opcode, not the controller's
          d.tag = 12;
          d.buf = buf_addr(1);
          return d;
        }(),
        read_op(7, page_row(0, 0, 0), 0, buf_addr(1)),                       // empty mask
        read_op(8, page_row(0, 0, 0), 0b100, buf_addr(1)),                   // slot 2 of 2
        read_op(9, page_row(0, 0, 0), 0b1, 0x1000),                          // buffer in SRAM
        read_op(10, page_row(0, 0, 0), 0b1, SSDVP_DRAM_BASE + (16u << 20)),  // past the DRAM model
        read_op(11, page_row(0, 0, 0), 0b1, buf_addr(1) + 2),                // unaligned
    });
    auto d = b.collect(12);
    std::map<uint32_t, Done> by;
    for (auto& x : d) by[x.cqe.tag] = x;
    EXPECT_EQ(by[1].cqe.status, FC_ERR_ORDER);
    EXPECT_EQ(by[2].cqe.status, FC_OK);
    EXPECT_EQ(by[3].cqe.status, FC_ERR_NOT_ERASED);
    EXPECT_EQ(by[4].cqe.status, FC_ERR_ADDRESS);
    EXPECT_EQ(by[5].cqe.status, FC_ERR_ADDRESS);
    EXPECT_EQ(by[6].cqe.status, FC_ERR_OPCODE);
    EXPECT_EQ(by[12].cqe.status, FC_ERR_OPCODE);
    EXPECT_EQ(by[7].cqe.status, FC_ERR_MASK);
    EXPECT_EQ(by[8].cqe.status, FC_ERR_MASK);
    EXPECT_EQ(by[9].cqe.status, FC_ERR_DMA);
    EXPECT_EQ(by[10].cqe.status, FC_ERR_DMA);
    EXPECT_EQ(by[11].cqe.status, FC_ERR_DMA);
    EXPECT_EQ(b.reg(FLASH_ERRORS), 11u);
    EXPECT_EQ(b.fc.violations(), 11u);
    EXPECT_EQ(b.reg(FLASH_LAST_ERR_CODE), uint32_t(FC_ERR_DMA));
    EXPECT_EQ(b.reg(FLASH_LAST_ERR_ROW), page_row(0, 0, 0));
    // a violation completes at its arrival (no die or channel time)
    EXPECT_EQ(by[1].time, t0 + kDramLat + kFetch);
    EXPECT_EQ(b.fc.die(0).write_pointer(0), 1u);
  });
}

TEST(FlashCtrl, BadRingConfigCountsError) {
  Bench b;
  b.run([&] {
    b.set(FLASH_SQ_BASE, kSq);
    b.set(FLASH_SQ_SIZE, 3);  // not a power of two
    EXPECT_EQ(b.reg(FLASH_ERRORS), 1u);
    b.set(FLASH_SQ_SIZE, 16);
    b.set(FLASH_SQ_BASE, kSq + 2);  // unaligned
    EXPECT_EQ(b.reg(FLASH_ERRORS), 2u);
    b.set(FLASH_SQ_BASE, SSDVP_SRAM_BASE + 0x100);  // not DRAM
    EXPECT_EQ(b.reg(FLASH_ERRORS), 3u);
    b.set(FLASH_SQ_BASE, SSDVP_DRAM_BASE + (16u << 20) - 64);  // runs past the DRAM model
    EXPECT_EQ(b.reg(FLASH_ERRORS), 4u);
    b.set(FLASH_SQ_TAIL, 1);  // doorbell on a disabled ring
    EXPECT_EQ(b.reg(FLASH_ERRORS), 5u);
    EXPECT_EQ(b.reg(FLASH_SQ_HEAD), 0u);
    b.set(FLASH_CQ_HEAD, 1);
    EXPECT_EQ(b.reg(FLASH_ERRORS), 6u);
    // recovers once programmed correctly
    b.setup_rings(16, 16);
    b.set(FLASH_SQ_TAIL, 17);  // index beyond the ring
    EXPECT_EQ(b.reg(FLASH_ERRORS), 7u);
    b.submit({erase_op(1, 0)});
    EXPECT_EQ(b.collect(1)[0].cqe.status, FC_OK);
    EXPECT_EQ(b.fc.violations(), 0u);
  });
}

TEST(FlashCtrl, IrqLevelFollowsRing) {
  Bench b;
  b.run([&] {
    b.setup_rings();
    EXPECT_FALSE(b.irq.read());
    const uint64_t t0 = b.submit({erase_op(1, block_row(0, 0)), erase_op(2, block_row(0, 1))});
    sc_core::wait(b.irq.posedge_event());
    EXPECT_EQ(sc_core::sc_time_stamp().value(), t0 + kDramLat + kFetch + tCMD + tBERS);
    EXPECT_EQ(b.reg(FLASH_CQ_TAIL), 1u);
    b.set(FLASH_CQ_HEAD, 1);
    b.cpu.sync();
    sc_core::wait(SC_ZERO_TIME);
    sc_core::wait(SC_ZERO_TIME);
    EXPECT_FALSE(b.irq.read());
    sc_core::wait(b.irq.posedge_event());  // the second erase, same die: after the first
    EXPECT_EQ(sc_core::sc_time_stamp().value(), t0 + kDramLat + kFetch + 2 * (tCMD + tBERS));
    EXPECT_TRUE(b.irq.read());
  });
}

TEST(FlashCtrl, SameTimeCompletionsBatched) {
  Bench b("flash: {sq_fetch: 0ns}");
  b.run([&] {
    b.setup_rings();
    // Erases on dies 0 and 1 (two channels) arrive and finish together.
    const uint64_t t0 = b.submit({erase_op(1, block_row(0, 0)), erase_op(2, block_row(1, 0))});
    b.cpu.sync();
    sc_core::wait(b.irq.posedge_event());
    EXPECT_EQ(sc_core::sc_time_stamp().value(), t0 + kDramLat + tCMD + tBERS);
    EXPECT_EQ(b.reg(FLASH_CQ_TAIL), 2u);  // both in one activation
    auto d = b.collect(2);
    EXPECT_EQ(d[0].cqe.tag, 1u);
    EXPECT_EQ(d[1].cqe.tag, 2u);
  });
}

TEST(FlashCtrl, FunctionalModeCompletesImmediately) {
  Bench b;
  sc_core::sc_event release;
  b.cpu.body = [&](test::TestInitiator&) { sc_core::wait(release); };  // an idle CPU
  sc_core::sc_start(SC_ZERO_TIME);
  b.fc.set_functional(true);
  // From outside any SystemC process, as preconditioning does.
  b.set(FLASH_SQ_BASE, kSq);
  b.set(FLASH_SQ_SIZE, 16);
  b.set(FLASH_CQ_BASE, kCq);
  b.set(FLASH_CQ_SIZE, 16);
  b.fill_buffer(0, 77, 7, 3);
  std::vector<fc_sqe> ds;
  for (uint32_t p = 0; p < 4; ++p) ds.push_back(program_op(p, page_row(1, 2, p), buf_addr(0)));
  ds.push_back(erase_op(9, block_row(3, 0)));
  for (size_t i = 0; i < ds.size(); ++i) std::memcpy(b.dram_at(kSq + i * sizeof(fc_sqe)), &ds[i], sizeof(fc_sqe));
  b.set(FLASH_SQ_TAIL, 5);
  EXPECT_EQ(sc_core::sc_time_stamp(), SC_ZERO_TIME);
  EXPECT_EQ(b.reg(FLASH_SQ_HEAD), 5u);
  EXPECT_EQ(b.reg(FLASH_CQ_TAIL), 5u);  // all posted at once
  EXPECT_EQ(b.fc.die(1).write_pointer(2), 4u);
  EXPECT_EQ(b.fc.die(3).erase_count(0), 1u);
  EXPECT_TRUE(b.ops.empty());  // no timing, no observer
  EXPECT_EQ(b.fc.die_busy_ps(1), 0u);
  EXPECT_FALSE(b.irq.read());  // not driven in functional mode
  b.fc.set_functional(false);
  sc_core::sc_start(sc_time(1, sc_core::SC_NS));
  EXPECT_TRUE(b.irq.read());
  // timed again: a read of what was programmed functionally
  b.set(FLASH_CQ_HEAD, 5);
  std::memset(b.dram_at(buf_addr(1)), 0, 64);
  fc_sqe r = read_op(20, page_row(1, 2, 3), 0b11, buf_addr(1));
  std::memcpy(b.dram_at(kSq + 5 * sizeof(fc_sqe)), &r, sizeof r);
  b.set(FLASH_SQ_TAIL, 6);
  sc_core::sc_start(sc_time(1, sc_core::SC_MS));
  EXPECT_EQ(b.reg(FLASH_CQ_TAIL), 6u);
  EXPECT_EQ(b.buf_word(1, 0), 77u);
  EXPECT_EQ(b.ops.size(), 1u);
  release.notify();
  sc_core::sc_start();
  EXPECT_TRUE(b.cpu.done);
}

// ---- read priority and program/erase suspend (flash.read_priority, flash.suspend.*) ----

namespace {
constexpr uint64_t kSus = 7 * kUs, kRes = 4 * kUs;  // flash.suspend.latency / resume below
const char* kSuspend = "flash: {priority_reads: all, suspend: {enable: true, latency: 7us, resume: 4us}}";
const char* kPriority = "flash: {priority_reads: all, read_priority: true}";
const char* kBoth =
    "flash: {read_priority: true, suspend: {enable: true, latency: 7us, resume: 4us}}";  // host reads only
}  // namespace

TEST(FlashCtrlSuspend, ReadSuspendsEraseAndEraseResumes) {
  Bench b(kSuspend);
  b.run([&] {
    b.setup_rings();
    const uint64_t a = b.submit({erase_op(1, block_row(0, 1))}) + kDramLat + kFetch;
    sc_core::wait(sc_time(1, sc_core::SC_MS));  // the erase is in its array phase
    const uint64_t a2 = b.submit({read_op(2, page_row(0, 2, 0), 0b01, buf_addr(0))}) + kDramLat + kFetch;
    ASSERT_LT(a2 + kSus, a + tCMD + tBERS) << "test premise: the read arrives during the erase";
    auto d = b.collect(2);
    ASSERT_EQ(d[0].cqe.tag, 2u);
    const uint64_t read_die_end = a2 + kSus + tCMD + tR + kChan4K;
    EXPECT_EQ(d[0].time, read_die_end + kDramLat + kDma4K);
    EXPECT_EQ(d[1].time, read_die_end + kRes + (a + tCMD + tBERS - a2));  // what was left, after the resume
    EXPECT_EQ(b.fc.suspends(), 1u);
    EXPECT_EQ(b.fc.die_busy_ps(0), tCMD + tBERS + kSus + tCMD + tR + kChan4K + kRes);
  });
}

namespace {
// An erase running, then an unmarked read (no FC_HINT_HOST) on the same die: it waits for the erase.
void read_waits_for_erase(const char* cfg) {
  Bench b(cfg);
  b.run([&] {
    b.setup_rings();
    const uint64_t a = b.submit({erase_op(1, block_row(0, 1))}) + kDramLat + kFetch;
    sc_core::wait(sc_time(1, sc_core::SC_MS));
    b.submit({read_op(2, page_row(0, 2, 0), 0b01, buf_addr(0))});
    auto d = b.collect(2);
    EXPECT_EQ(d[0].cqe.tag, 1u);
    EXPECT_EQ(d[1].time, a + tCMD + tBERS + read_service(kChan4K, kDma4K));
    EXPECT_EQ(b.fc.suspends(), 0u);
  });
}
}  // namespace

TEST(FlashCtrlSuspend, OffByDefaultReadWaitsForErase) { read_waits_for_erase(""); }
TEST(FlashCtrlSuspend, UnmarkedReadsKeepTheirPlaceWhenOnlyHostReadsArePriority) { read_waits_for_erase(kBoth); }

TEST(FlashCtrlSuspend, LimitPerOperation) {
  Bench b("flash: {priority_reads: all, suspend: {enable: true, latency: 7us, resume: 4us, max_per_op: 1}}");
  b.run([&] {
    b.setup_rings();
    b.submit({erase_op(1, block_row(0, 1))});
    sc_core::wait(sc_time(500, sc_core::SC_US));
    b.submit({read_op(2, page_row(0, 2, 0), 0b01, buf_addr(0))});
    sc_core::wait(sc_time(500, sc_core::SC_US));  // the first read is long done, the erase resumed
    b.submit({read_op(3, page_row(0, 3, 0), 0b01, buf_addr(1))});
    auto d = b.collect(3);
    std::map<uint32_t, uint64_t> at;
    for (auto& x : d) at[x.cqe.tag] = x.time;
    EXPECT_EQ(b.fc.suspends(), 1u);
    EXPECT_EQ(at[3], at[1] + read_service(kChan4K, kDma4K));  // the second read waited for the erase
  });
}

TEST(FlashCtrlSuspend, NoSuspendOnTheSameBlockOrNearTheEnd) {
  Bench b(kSuspend);
  b.run([&] {
    b.setup_rings();
    b.fill_buffer(0, 1, 1, 1);
    b.submit({program_op(1, page_row(0, 1, 0), buf_addr(0))});
    sc_core::wait(sc_time(100, sc_core::SC_US));
    b.submit({read_op(2, page_row(0, 1, 0), 0b01, buf_addr(1))});  // the block being programmed
    auto d = b.collect(2);
    EXPECT_EQ(d[0].cqe.tag, 1u);
    EXPECT_EQ(d[1].time, d[0].time + read_service(kChan4K, kDma4K));
    // an erase with less than the suspend latency left is not suspended
    const uint64_t a = b.submit({erase_op(3, block_row(0, 4))}) + kDramLat + kFetch;
    sc_core::wait(sc_time::from_value(a + tCMD + tBERS - kSus / 2 - sc_core::sc_time_stamp().value()));
    b.submit({read_op(4, page_row(0, 2, 0), 0b01, buf_addr(1))});
    auto e = b.collect(2);
    EXPECT_EQ(e[0].cqe.tag, 3u);
    EXPECT_EQ(e[1].time, a + tCMD + tBERS + read_service(kChan4K, kDma4K));
    EXPECT_EQ(b.fc.suspends(), 0u);
  });
}

namespace {
// Die 0: an erase of block 1 and a program of block 3 behind it; returns the
// erase's arrival, 1 ms later (the erase in its array phase, the program queued).
uint64_t erase_then_queued_program(Bench& b) {
  b.setup_rings();
  b.fill_buffer(1, 5, 5, 5);
  const uint64_t a =
      b.submit({erase_op(1, block_row(0, 1)), program_op(2, page_row(0, 3, 0), buf_addr(1))}) + kDramLat + kFetch;
  sc_core::wait(sc_time(1, sc_core::SC_MS));
  return a;
}

// An erase running, a program queued behind it, then a read on the same die.
void erase_program_read(const char* cfg) {
  {
    Bench b(cfg);
    b.run([&] {
      const uint64_t a = erase_then_queued_program(b);
      b.submit({read_op(3, page_row(0, 2, 0), 0b01, buf_addr(0))});
      auto d = b.collect(3);
      std::map<uint32_t, uint64_t> at;
      for (auto& x : d) at[x.cqe.tag] = x.time;
      const uint64_t erase_end = a + tCMD + tBERS;
      const uint64_t prog = tCMD + kChan8K + tPROG, read_die = tCMD + tR + kChan4K;
      if (*cfg) {
        EXPECT_EQ(at[3], erase_end + read_service(kChan4K, kDma4K));
        EXPECT_EQ(at[2], erase_end + read_die + prog);
        EXPECT_EQ(b.fc.read_bypasses(), 1u);
      } else {
        EXPECT_EQ(at[2], erase_end + prog);
        EXPECT_EQ(at[3], erase_end + prog + read_service(kChan4K, kDma4K));
        EXPECT_EQ(b.fc.read_bypasses(), 0u);
      }
      EXPECT_EQ(b.fc.channel_busy_ps(0),
                tCMD + tCMD + kChan8K + tCMD + kChan4K);  // re-timing keeps one reservation each
    });
  }
}
}  // namespace

TEST(FlashCtrlSuspend, ReadWaitsForQueuedProgramByDefault) { erase_program_read(""); }
TEST(FlashCtrlSuspend, ReadPriorityOvertakesQueuedProgram) { erase_program_read(kPriority); }

TEST(FlashCtrlSuspend, PriorityAndSuspendTogether) {
  Bench b(kBoth);
  b.run([&] {
    const uint64_t a = erase_then_queued_program(b);
    fc_sqe r = read_op(3, page_row(0, 2, 0), 0b01, buf_addr(0));
    r.hint = FC_HINT_HOST;
    const uint64_t a2 = b.submit({r}) + kDramLat + kFetch;
    auto d = b.collect(3);
    std::map<uint32_t, uint64_t> at;
    for (auto& x : d) at[x.cqe.tag] = x.time;
    const uint64_t read_die_end = a2 + kSus + tCMD + tR + kChan4K;
    const uint64_t erase_end = read_die_end + kRes + (a + tCMD + tBERS - a2);
    EXPECT_EQ(at[3], read_die_end + kDramLat + kDma4K);
    EXPECT_EQ(at[1], erase_end);
    EXPECT_EQ(at[2], erase_end + tCMD + kChan8K + tPROG);  // the queued program after the resumed erase
    // the data is the program's, whichever order the die ran them in
    EXPECT_TRUE(b.fc.die(0).is_programmed(3, 0));
  });
}

// ---- page types (flash.cell.*, flash.timing.read_types / program_types) ----

TEST(FlashCtrlPageTypes, QlcReadAndProgramTimePerPageType) {
  Bench b(
      "flash: {cell: {bits: 4}, timing: {read_types: '30us, 40us, 60us, 90us', "
      "program_types: '100us,200us, 400us,800us'}}");
  const uint64_t rt[4] = {30 * kUs, 40 * kUs, 60 * kUs, 90 * kUs}, pt[4] = {100 * kUs, 200 * kUs, 400 * kUs, 800 * kUs};
  b.run([&] {
    b.setup_rings();
    b.fill_buffer(1, 5, 5, 5);
    for (uint32_t p = 0; p < 8; ++p) {  // two word lines of block 1 on die 1, page by page
      const uint64_t t0 = b.submit({program_op(p, page_row(1, 1, p), buf_addr(1))});
      auto d = b.collect(1);
      EXPECT_EQ(d[0].cqe.status, FC_OK);
      EXPECT_EQ(d[0].time, t0 + kDramLat + kFetch + kDramLat + kDma8K + tCMD + kChan8K + pt[p % 4]) << "page " << p;
    }
    for (uint32_t p = 0; p < 8; ++p) {
      const uint64_t t0 = b.submit({read_op(10 + p, page_row(1, 1, p), 0b01, buf_addr(0))});
      auto d = b.collect(1);
      EXPECT_EQ(d[0].time, t0 + kDramLat + kFetch + tCMD + rt[p % 4] + kChan4K + kDramLat + kDma4K) << "page " << p;
    }
  });
}

TEST(FlashCtrlPageTypes, OneShotProgramsTheWordLineOnItsLastPage) {
  Bench b("flash: {cell: {bits: 2, program_order: oneshot}, timing: {program_types: '150us, 450us'}}");
  b.run([&] {
    b.setup_rings();
    b.fill_buffer(1, 5, 5, 5);
    uint64_t t[2];
    for (uint32_t p = 0; p < 2; ++p) {
      const uint64_t t0 = b.submit({program_op(p, page_row(0, 0, p), buf_addr(1))});
      t[p] = b.collect(1)[0].time - (t0 + kDramLat + kFetch + kDramLat + kDma8K + tCMD + kChan8K);
    }
    EXPECT_EQ(t[0], 0u);         // loaded only
    EXPECT_EQ(t[1], 600 * kUs);  // the word line: 150 + 450 us
    EXPECT_EQ(b.fc.die(0).write_pointer(0), 2u);
  });
}

TEST(FlashCtrlPageTypes, DefaultIsOneTimeAndBadTablesAreConfigErrors) {
  {
    Config c = Bench::with("");
    FlashCtrl fc("fc_default", c);
    EXPECT_EQ(fc.timing().read_ps, tR);
  }
  auto error_of = [](const std::string& extra) {
    Config c = Bench::with(extra);
    try {
      FlashCtrl fc("fc_bad", c);
    } catch (const ConfigError& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  EXPECT_NE(error_of("flash: {cell: {bits: 2}, timing: {read_types: '30us'}}").find("flash.timing.read_types"),
            std::string::npos);
  EXPECT_NE(
      error_of("flash: {cell: {bits: 2}, timing: {program_types: '30us, fast'}}").find("flash.timing.program_types"),
      std::string::npos);
  EXPECT_NE(error_of("flash: {cell: {bits: 3}}").find("flash.cell.bits"), std::string::npos);  // 16 pages per block
  EXPECT_NE(error_of("flash: {cell: {bits: 5}}").find("flash.cell.bits"), std::string::npos);
  EXPECT_NE(error_of("flash: {cell: {program_order: zigzag}}").find("flash.cell.program_order"), std::string::npos);
}

TEST(FlashCtrlSuspend, HostReadOvertakesQueuedGcRead) {
  Bench b("flash: {read_priority: true}");
  b.run([&] {
    b.setup_rings();
    const uint64_t a =
        b.submit({erase_op(1, block_row(0, 1)), read_op(2, page_row(0, 3, 0), 0b01, buf_addr(1))}) + kDramLat + kFetch;
    sc_core::wait(sc_time(1, sc_core::SC_MS));
    fc_sqe h = read_op(3, page_row(0, 2, 0), 0b01, buf_addr(0));
    h.hint = FC_HINT_HOST;
    b.submit({h});
    auto d = b.collect(3);
    std::map<uint32_t, uint64_t> at;
    for (auto& x : d) at[x.cqe.tag] = x.time;
    const uint64_t erase_end = a + tCMD + tBERS;
    EXPECT_EQ(at[3], erase_end + read_service(kChan4K, kDma4K));
    EXPECT_EQ(at[2], erase_end + tCMD + tR + kChan4K + read_service(kChan4K, kDma4K));
    EXPECT_EQ(b.fc.read_bypasses(), 1u);
  });
}

// ---- multi-plane operations (FC_OP_PLANE_*) ----
// Two planes per die: 16 blocks per die, block-in-die i in plane i % 2.

namespace {
const char* kTwoPlanes = "flash: {planes_per_die: 2}";
constexpr uint32_t kBpd2 = 16;
uint32_t row2(uint32_t die, uint32_t block, uint32_t page) { return (die * kBpd2 + block) * kPpb + page; }
uint32_t blk2(uint32_t die, uint32_t block) { return die * kBpd2 + block; }
fc_sqe plane(fc_sqe d) {
  d.op = static_cast<uint8_t>(d.op + 3);  // READ/PROGRAM/ERASE -> PLANE_READ/PLANE_PROGRAM/PLANE_ERASE
  return d;
}
constexpr uint64_t kIn8K = tCMD + kChan8K;  // command + data-in of one plane's page
}  // namespace

TEST(FlashCtrlMultiplane, ProgramTakesOneTprogAndReadOneTr) {
  Bench b(kTwoPlanes);
  b.run([&] {
    b.setup_rings();
    b.fill_buffer(0, 100, 10, 5);
    b.fill_buffer(1, 200, 20, 6);
    const uint64_t t0 =
        b.submit({plane(program_op(1, row2(0, 4, 0), buf_addr(0))), program_op(2, row2(0, 7, 0), buf_addr(1))});
    auto d = b.collect(2);
    const uint64_t s0 = t0 + kDramLat + kFetch + kDramLat + kDma8K;  // first plane's data ready
    // plane 0 data-in, plane 1 data-in right after it (its own data was ready earlier), one tPROG
    for (auto& x : d) {
      EXPECT_EQ(x.cqe.status, FC_OK);
      EXPECT_EQ(x.time, s0 + 2 * kIn8K + tPROG);
    }
    EXPECT_EQ(b.fc.die_busy_ps(0), 2 * kIn8K + tPROG);
    EXPECT_EQ(b.fc.programs(), 2u);
    EXPECT_EQ(b.fc.multiplane_ops(), 1u);
    EXPECT_TRUE(b.fc.die(0).is_programmed(4, 0));
    EXPECT_TRUE(b.fc.die(0).is_programmed(7, 0));

    // Read both back as one multi-plane read: one slot of plane 0, both of plane 1.
    const uint64_t t1 =
        b.submit({plane(read_op(3, row2(0, 4, 0), 0b10, buf_addr(2))), read_op(4, row2(0, 7, 0), 0b11, buf_addr(3))});
    auto r = b.collect(2);
    std::map<uint32_t, Done> by;
    for (auto& x : r) by[x.cqe.tag] = x;
    const uint64_t a = t1 + kDramLat + 2 * kFetch;  // the group starts with its last descriptor
    const uint64_t out0 = a + 2 * tCMD + tR + kChan4K;
    EXPECT_EQ(by[3].time, out0 + kDramLat + kDma4K);
    EXPECT_EQ(by[4].time, out0 + kChan8K + kDramLat + kDma8K);
    EXPECT_EQ(b.buf_word(2, 1), 101u);  // plane 0: token[1]
    EXPECT_EQ(b.buf_word(3, 0), 200u);  // plane 1: token[0], token[1], lpn[0]
    EXPECT_EQ(b.buf_word(3, 1), 201u);
    EXPECT_EQ(b.buf_word(3, 2), 20u);
    EXPECT_EQ(b.fc.reads(), 2u);
  });
}

namespace {
// With or without the read-priority scheduler (which times a group as one queued operation).
void erase_takes_one_tbers(const std::string& extra) {
  Bench b("flash: {planes_per_die: 2" + extra + "}");
  b.run([&] {
    b.setup_rings();
    const uint64_t t0 = b.submit({plane(erase_op(1, blk2(1, 2))), erase_op(2, blk2(1, 5))});
    auto d = b.collect(2);
    for (auto& x : d) EXPECT_EQ(x.time, t0 + kDramLat + 2 * kFetch + 2 * tCMD + tBERS);
    EXPECT_EQ(b.fc.die(1).erase_count(2), 1u);
    EXPECT_EQ(b.fc.die(1).erase_count(5), 1u);
    EXPECT_EQ(b.fc.die_busy_ps(1), 2 * tCMD + tBERS);
  });
}
}  // namespace

TEST(FlashCtrlMultiplane, EraseTakesOneTbers) { erase_takes_one_tbers(""); }
TEST(FlashCtrlMultiplane, EraseTakesOneTbersUnderTheScheduler) {
  erase_takes_one_tbers(", read_priority: true, suspend: {enable: true}");
}

TEST(FlashCtrlMultiplane, RuleViolationsAreAStatusAndChangeNothing) {
  Bench b(kTwoPlanes);
  b.run([&] {
    b.setup_rings();
    b.fill_buffer(0, 1, 1, 1);
    struct Case {
      const char* what;
      std::vector<fc_sqe> group;
      uint16_t status;
    };
    const std::vector<Case> cases = {
        {"same plane twice",
         {plane(program_op(1, row2(0, 0, 0), buf_addr(0))), program_op(2, row2(0, 2, 0), buf_addr(0))},
         FC_ERR_MULTIPLANE},
        {"different page offsets",
         {plane(program_op(3, row2(0, 0, 0), buf_addr(0))), program_op(4, row2(0, 1, 1), buf_addr(0))},
         FC_ERR_MULTIPLANE},
        {"mixed operations",
         {plane(read_op(5, row2(0, 0, 0), 0b1, buf_addr(1))), program_op(6, row2(0, 1, 0), buf_addr(0))},
         FC_ERR_MULTIPLANE},
        {"more members than planes",
         {plane(erase_op(9, blk2(0, 0))), plane(erase_op(10, blk2(0, 1))), plane(erase_op(11, blk2(0, 3))),
          erase_op(12, blk2(0, 5))},
         FC_ERR_MULTIPLANE},
        {"a legal group",
         {plane(program_op(13, row2(0, 0, 0), buf_addr(0))), program_op(14, row2(0, 1, 0), buf_addr(0))},
         FC_OK},
        {"then one not at its write pointer",
         {plane(program_op(15, row2(0, 2, 0), buf_addr(0))), program_op(16, row2(0, 1, 0), buf_addr(0))},
         FC_ERR_NOT_ERASED},
        {"empty read mask",
         {plane(read_op(17, row2(0, 0, 0), 0, buf_addr(1))), read_op(18, row2(0, 1, 0), 0b1, buf_addr(1))},
         FC_ERR_MASK},
    };
    uint32_t errors = 0;
    for (const Case& c : cases) {
      SCOPED_TRACE(c.what);
      const uint64_t t = b.submit(c.group);
      auto d = b.collect(c.group.size() == 4 ? 4 : 2);
      for (auto& x : d) {
        if (x.cqe.tag == 12) {  // after the refused three: a plain erase of its own
          EXPECT_EQ(x.cqe.status, FC_OK);
          continue;
        }
        EXPECT_EQ(x.cqe.status, c.status);
        if (c.status != FC_OK) {
          EXPECT_EQ(x.time, t + kDramLat + (c.group.size() == 4 ? 3 : 2) * kFetch);
        }
      }
      if (c.status != FC_OK) ++errors;
    }
    // "more members than planes" is refused at its third descriptor; the fourth is then a plain erase alone
    EXPECT_EQ(b.fc.die(0).erase_count(5), 1u);
    EXPECT_EQ(b.fc.die(0).erase_count(0), 0u);
    EXPECT_EQ(b.reg(FLASH_ERRORS), errors);
    EXPECT_EQ(b.reg(FLASH_LAST_ERR_CODE), uint32_t(FC_ERR_MASK));
    EXPECT_EQ(b.fc.die(0).write_pointer(2), 0u);  // the refused group left plane 0 alone
    EXPECT_EQ(b.fc.die(0).write_pointer(0), 1u);
    EXPECT_EQ(b.fc.die(0).write_pointer(1), 1u);
    EXPECT_EQ(b.fc.multiplane_ops(), 1u);
  });
}

// flash.multiplane_same_block: the vendors' rule that a group's blocks sit at
// one block index in every plane. Blocks 4 and 7 of a die are in planes 0 and
// 1 but at indices 2 and 3: legal without the rule, refused with it (a
// status, counted, nothing changed); blocks 12 and 13 (index 6) are legal with it.
// (One Bench per test: SystemC elaborates once per process.)
namespace {
void same_block_index(bool rule) {
  {
    Bench b(std::string("flash: {planes_per_die: 2, multiplane_same_block: ") + (rule ? "true" : "false") + "}");
    b.run([&] {
      b.setup_rings();
      b.fill_buffer(0, 1, 1, 1);
      b.submit({plane(program_op(1, row2(0, 4, 0), buf_addr(0))), program_op(2, row2(0, 7, 0), buf_addr(0))});
      for (auto& x : b.collect(2)) EXPECT_EQ(x.cqe.status, rule ? FC_ERR_MULTIPLANE : FC_OK);
      EXPECT_EQ(b.fc.die(0).write_pointer(4), rule ? 0u : 1u);
      EXPECT_EQ(b.fc.die(0).write_pointer(7), rule ? 0u : 1u);
      EXPECT_EQ(b.fc.violations(), rule ? 1u : 0u);
      b.submit({plane(erase_op(3, blk2(0, 8))), erase_op(4, blk2(0, 11))});  // indices 4 and 5
      for (auto& x : b.collect(2)) EXPECT_EQ(x.cqe.status, rule ? FC_ERR_MULTIPLANE : FC_OK);
      b.submit({plane(program_op(5, row2(0, 12, 0), buf_addr(0))), program_op(6, row2(0, 13, 0), buf_addr(0))});
      for (auto& x : b.collect(2)) EXPECT_EQ(x.cqe.status, FC_OK);
      EXPECT_EQ(b.fc.violations(), rule ? 2u : 0u);
      EXPECT_EQ(b.fc.multiplane_ops(), rule ? 1u : 3u);
    });
  }
}
}  // namespace

TEST(FlashCtrlMultiplane, SameBlockIndexRuleOffByDefault) { same_block_index(false); }
TEST(FlashCtrlMultiplane, SameBlockIndexRuleRefusesOtherIndices) { same_block_index(true); }

TEST(FlashCtrlMultiplane, GroupsAreHeldPerDieWhileOtherDiesGoOn) {
  Bench b(kTwoPlanes);
  b.run([&] {
    b.setup_rings();
    b.fill_buffer(0, 1, 1, 1);
    // die 0 plane 0, then a program on die 1 (alone), then die 0 plane 1 ends die 0's group
    const uint64_t t0 =
        b.submit({plane(program_op(1, row2(0, 0, 0), buf_addr(0))), program_op(2, row2(1, 0, 0), buf_addr(0)),
                  program_op(3, row2(0, 1, 0), buf_addr(0))});
    auto d = b.collect(3);
    std::map<uint32_t, Done> by;
    for (auto& x : d) by[x.cqe.tag] = x;
    const uint64_t a1 = t0 + kDramLat + kFetch, in = kDramLat + kDma8K;
    EXPECT_EQ(by[2].time, a1 + kFetch + in + kIn8K + tPROG);  // die 1 (channel 1): a plain program
    // die 0 (channel 0): plane 0's data-in from its own arrival, plane 1's after it, one tPROG
    EXPECT_EQ(by[1].time, a1 + in + 2 * kIn8K + tPROG);
    EXPECT_EQ(by[3].time, by[1].time);
    for (auto& x : d) EXPECT_EQ(x.cqe.status, FC_OK);
    EXPECT_EQ(b.fc.multiplane_ops(), 1u);
    EXPECT_EQ(b.reg(FLASH_ERRORS), 0u);
  });
}

TEST(FlashCtrlSuspend, MaxReadsPerSuspensionSendsTheNextReadBehindTheResume) {
  Bench b(
      "flash: {priority_reads: all, read_priority: true, suspend: {enable: true, latency: 7us, resume: 4us, "
      "max_reads: 2}}");
  b.run([&] {
    b.setup_rings();
    const uint64_t a = b.submit({erase_op(1, block_row(0, 1))}) + kDramLat + kFetch;
    sc_core::wait(sc_time(1, sc_core::SC_MS));  // the erase is in its array phase
    const uint64_t a2 =
        b.submit({read_op(2, page_row(0, 2, 0), 0b01, buf_addr(0)), read_op(3, page_row(0, 3, 0), 0b01, buf_addr(1)),
                  read_op(4, page_row(0, 4, 0), 0b01, buf_addr(2))}) +
        kDramLat + kFetch;
    auto d = b.collect(4);
    std::map<uint32_t, uint64_t> at;
    for (auto& x : d) at[x.cqe.tag] = x.time;
    const uint64_t r = tCMD + tR + kChan4K;  // die time of a 1-LBA read
    const uint64_t end1 = a2 + kSus + r, end2 = end1 + r;
    EXPECT_EQ(at[2], end1 + kDramLat + kDma4K);
    EXPECT_EQ(at[3], end2 + kDramLat + kDma4K);  // the second read is served in the suspension
    const uint64_t erase_end = end2 + kRes + (a + tCMD + tBERS - a2);
    EXPECT_EQ(at[1], erase_end);
    EXPECT_EQ(at[4], erase_end + r + kDramLat + kDma4K);  // the third waits for the resumed erase
    EXPECT_EQ(b.fc.suspends(), 1u);
  });
}

namespace {
fc_sqe copyback_op(uint32_t tag, uint32_t dst, uint32_t src, uint32_t buf, uint32_t seq) {
  fc_sqe d{};
  d.op = FC_OP_COPYBACK, d.tag = tag, d.row = dst, d.buf = buf, d.seq = seq;
  FC_COPYBACK_SRC(d) = src;
  return d;
}
constexpr uint64_t kChanOob = 12 * kUs / 400;  // the source's LPNs and sequence number: 12 B at 400 MB/s
}  // namespace

// A copyback costs tR and tPROG on the die and only command cycles and the
// spare bytes on the channel; the copy holds the source's data with the new
// sequence number and one more hop, and the buffer gets the source's OOB.
TEST(FlashCtrlCopyback, TakesTrAndTprogWithoutThePageOnTheChannel) {
  Bench b(kTwoPlanes);
  b.run([&] {
    b.setup_rings();
    b.fill_buffer(0, 100, 10, 5);
    b.submit({program_op(1, row2(0, 4, 0), buf_addr(0))});
    b.collect(1);
    const uint64_t ch0 = b.fc.channel_busy_ps(0), die0 = b.fc.die_busy_ps(0);
    const uint64_t t = b.submit({copyback_op(2, row2(0, 6, 0), row2(0, 4, 0), buf_addr(1), 9)});
    auto d = b.collect(1);
    EXPECT_EQ(d[0].cqe.status, FC_OK);
    EXPECT_EQ(FC_FLAG_HOPS(d[0].cqe.flags), 1u);
    EXPECT_EQ(d[0].time, t + kDramLat + kFetch + tCMD + tR + tCMD + kChanOob + tPROG);
    EXPECT_EQ(b.fc.channel_busy_ps(0) - ch0, 2 * tCMD + kChanOob);
    EXPECT_EQ(b.fc.die_busy_ps(0) - die0, 2 * tCMD + kChanOob + tR + tPROG);
    EXPECT_EQ(b.buf_word(1, 2), 10u);  // the source's lpn[0], lpn[1], seq
    EXPECT_EQ(b.buf_word(1, 3), 11u);
    EXPECT_EQ(b.buf_word(1, 4), 5u);
    EXPECT_EQ(b.fc.copybacks(), 1u);
    EXPECT_EQ(b.fc.die(0).hops(6, 0), 1u);
    b.submit({read_op(3, row2(0, 6, 0), 0b11, buf_addr(2))});
    EXPECT_EQ(b.collect(1)[0].cqe.status, FC_OK);
    EXPECT_EQ(b.buf_word(2, 0), 100u);
    EXPECT_EQ(b.buf_word(2, 1), 101u);
    EXPECT_EQ(b.buf_word(2, 4), 9u);
    b.submit({copyback_op(4, row2(0, 4, 1), row2(0, 6, 0), buf_addr(1), 10)});
    EXPECT_EQ(FC_FLAG_HOPS(b.collect(1)[0].cqe.flags), 2u);
  });
}

// The rules: same die, same plane, same page type, a programmed source, the
// destination at its write pointer; a violation is a status, counts, and
// changes nothing.
TEST(FlashCtrlCopyback, RuleViolationsAreAStatusAndChangeNothing) {
  Bench b("flash: {planes_per_die: 2, cell: {bits: 2}}");
  b.run([&] {
    b.setup_rings();
    b.fill_buffer(0, 1, 1, 1);
    b.submit({program_op(1, row2(0, 0, 0), buf_addr(0)), program_op(2, row2(0, 2, 0), buf_addr(0))});
    b.collect(2);
    const std::vector<std::pair<fc_sqe, uint16_t>> cases = {
        {copyback_op(3, row2(0, 1, 0), row2(0, 0, 0), buf_addr(1), 1), FC_ERR_COPYBACK},  // another plane
        {copyback_op(4, row2(1, 0, 0), row2(0, 0, 0), buf_addr(1), 1), FC_ERR_COPYBACK},  // another die
        {copyback_op(5, row2(0, 4, 1), row2(0, 0, 1), buf_addr(1), 1), FC_ERR_COPYBACK},  // source erased
        {copyback_op(6, row2(0, 2, 1), row2(0, 0, 0), buf_addr(1), 1), FC_ERR_COPYBACK},  // LSB into an MSB page
        {copyback_op(7, row2(0, 4, 2), row2(0, 0, 0), buf_addr(1), 1), FC_ERR_ORDER},
        {copyback_op(8, row2(0, 2, 0), row2(0, 0, 0), buf_addr(1), 1), FC_ERR_NOT_ERASED},
        {copyback_op(9, row2(0, 4, 0), 0xfffffff0u, buf_addr(1), 1), FC_ERR_ADDRESS},
    };
    for (const auto& c : cases) {
      b.submit({c.first});
      EXPECT_EQ(b.collect(1)[0].cqe.status, c.second) << "tag " << c.first.tag;
    }
    EXPECT_EQ(b.fc.violations(), cases.size());
    EXPECT_EQ(b.fc.copybacks(), 0u);
    EXPECT_EQ(b.fc.die(0).write_pointer(4), 0u);
    EXPECT_EQ(b.fc.die(0).write_pointer(1), 0u);
    EXPECT_EQ(b.fc.die(1).write_pointer(0), 0u);
    b.submit({copyback_op(10, row2(0, 4, 0), row2(0, 0, 0), buf_addr(1), 1)});  // LSB into LSB, plane 0
    EXPECT_EQ(b.collect(1)[0].cqe.status, FC_OK);
  });
}

// No ECC check on the way: each copy keeps the bit errors its source read
// had. A page read back fine from its own block; copied three times, its
// copy holds about three reads' worth of errors, more than ECC corrects, and
// read retry cannot help (they are in the data).
TEST(FlashCtrlCopyback, CopiesCarryTheirBitErrorsForward) {
  Bench b("flash: {planes_per_die: 2, ecc: {rber: 0.001, correctable_bits: 72}}");
  b.run([&] {
    b.setup_rings();
    b.fill_buffer(0, 100, 10, 5);
    b.submit({program_op(1, row2(0, 0, 0), buf_addr(0))});
    b.collect(1);
    b.submit({read_op(2, row2(0, 0, 0), 0b11, buf_addr(1))});
    EXPECT_EQ(b.collect(1)[0].cqe.status, FC_OK) << "about 33 raw errors per codeword: ECC corrects them";
    b.submit({copyback_op(3, row2(0, 2, 0), row2(0, 0, 0), buf_addr(1), 6)});
    b.submit({copyback_op(4, row2(0, 4, 0), row2(0, 2, 0), buf_addr(1), 7)});
    b.submit({copyback_op(5, row2(0, 6, 0), row2(0, 4, 0), buf_addr(1), 8)});
    for (const Done& x : b.collect(3)) EXPECT_EQ(x.cqe.status, FC_OK) << "a copyback checks nothing";
    EXPECT_GT(b.fc.faults().inherited(row2(0, 2, 0)), 0u);
    EXPECT_GT(b.fc.faults().inherited(row2(0, 6, 0)), 72u);
    b.submit({read_op(6, row2(0, 6, 0), 0b11, buf_addr(2))});
    const Done r = b.collect(1)[0];
    EXPECT_EQ(r.cqe.status, FC_ERR_UNCORRECTABLE);
    b.submit({read_op(7, row2(0, 0, 0), 0b11, buf_addr(1))});
    EXPECT_EQ(b.collect(1)[0].cqe.status, FC_OK) << "the original still reads";
    b.submit({erase_op(8, blk2(0, 6))});
    b.collect(1);
    EXPECT_EQ(b.fc.faults().inherited(row2(0, 6, 0)), 0u) << "an erase clears what the copy carried";
  });
}

// ---- phase-tagged completion ring (CTRL.CQ_PHASE) ----

namespace {
// The k-th completion since the ring (re)started lands in slot k % n on pass
// k / n: its tag is 1 on even passes, 0 on odd ones.
bool tag_of(const Done& d) { return (d.cqe.flags & FC_FLAG_PHASE) != 0; }
}  // namespace

TEST(FlashCtrlPhase, TagFlipsAtEveryWrapAndOtherFlagsStay) {
  Bench b;
  b.run([&] {
    b.set(FLASH_CTRL, FLASH_CTRL_CQ_PHASE);
    b.setup_rings(16, 4);
    EXPECT_EQ(b.reg(FLASH_CTRL), FLASH_CTRL_CQ_PHASE);
    std::vector<Done> all;
    for (uint32_t round = 0; round < 3; ++round) {  // 3 x 3 completions: slots 0..3, 0..3, 0
      std::vector<fc_sqe> ds;
      for (uint32_t i = 0; i < 3; ++i) ds.push_back(read_op(3 * round + i, page_row(i, 0, 0), 0b1, buf_addr(i)));
      b.submit(ds);
      for (const Done& d : b.collect(3)) all.push_back(d);
    }
    ASSERT_EQ(all.size(), 9u);
    for (uint32_t k = 0; k < all.size(); ++k) {
      EXPECT_EQ(tag_of(all[k]), (k / 4) % 2 == 0) << "completion " << k;
      EXPECT_EQ(all[k].cqe.flags & ~FC_FLAG_PHASE, FC_FLAG_ERASED) << "completion " << k;  // reads of erased pages
    }
  });
}

TEST(FlashCtrlPhase, OffByDefaultNoTag) {
  Bench b;
  b.run([&] {
    b.setup_rings(16, 4);
    EXPECT_EQ(b.reg(FLASH_CTRL), 0u);
    for (uint32_t round = 0; round < 2; ++round) {
      b.submit({erase_op(2 * round, block_row(0, round)), erase_op(2 * round + 1, block_row(1, round))});
      for (const Done& d : b.collect(2)) EXPECT_EQ(d.cqe.flags, 0u);
    }
  });
}

// A power cut leaves the controller's tail where it was (mid-pass, tag 0
// next here); power-up programs CTRL and the rings again, and the ring starts
// over at slot 0 with tag 1, even with an operation torn by the cut.
TEST(FlashCtrlPhase, PowerCycleRestartsTheTag) {
  Bench b;
  b.run([&] {
    b.set(FLASH_CTRL, FLASH_CTRL_CQ_PHASE);
    b.setup_rings(16, 4);
    std::vector<fc_sqe> ds;
    for (uint32_t i = 0; i < 3; ++i) ds.push_back(erase_op(i, block_row(i, 0)));
    b.submit(ds);
    b.collect(3);
    b.submit({erase_op(3, block_row(3, 0)), erase_op(4, block_row(0, 1))});
    b.collect(2);                              // slots 3 (tag 1) and 0 (tag 0)
    b.submit({erase_op(5, block_row(1, 1))});  // in flight at the cut
    b.cpu.sync();
    const FlashCtrl::CutResult cut = b.fc.power_cut(false);
    EXPECT_EQ(cut.dropped, 1u);
    EXPECT_EQ(b.reg(FLASH_CQ_TAIL), 1u);
    b.set(FLASH_CTRL, FLASH_CTRL_CQ_PHASE);  // power-up
    EXPECT_EQ(b.reg(FLASH_ERRORS), 0u);
    EXPECT_EQ(b.reg(FLASH_CQ_TAIL), 0u);
    b.setup_rings(16, 4);
    b.submit({erase_op(6, block_row(2, 1)), erase_op(7, block_row(3, 1))});
    const std::vector<Done> d = b.collect(2);
    EXPECT_TRUE(tag_of(d[0]));
    EXPECT_TRUE(tag_of(d[1]));
    EXPECT_EQ(b.reg(FLASH_CQ_TAIL), 2u);
  });
}

// CTRL restarts the completion ring: a write with completions in flight or
// not taken would lose them, so it is refused as a ring error, as is a write
// of reserved bits; either way CTRL keeps its value.
TEST(FlashCtrlPhase, CtrlWriteWhileCompletionsPendingIsARingError) {
  Bench b;
  b.run([&] {
    b.setup_rings(16, 4);
    b.submit({erase_op(1, block_row(0, 0))});
    b.set(FLASH_CTRL, FLASH_CTRL_CQ_PHASE);  // in flight
    EXPECT_EQ(b.reg(FLASH_ERRORS), 1u);
    EXPECT_EQ(b.reg(FLASH_LAST_ERR_CODE), uint32_t(FC_ERR_DMA));
    sc_core::wait(b.irq.posedge_event());
    b.set(FLASH_CTRL, FLASH_CTRL_CQ_PHASE);  // posted, not taken
    EXPECT_EQ(b.reg(FLASH_ERRORS), 2u);
    EXPECT_EQ(b.reg(FLASH_CTRL), 0u);
    EXPECT_EQ(b.collect(1)[0].cqe.flags, 0u);
    b.set(FLASH_CTRL, 0x10);  // reserved
    EXPECT_EQ(b.reg(FLASH_ERRORS), 3u);
    EXPECT_EQ(b.reg(FLASH_LAST_ERR_ROW), 0x10u);
    b.set(FLASH_CTRL, FLASH_CTRL_CQ_PHASE);  // idle: taken, and the ring starts over
    EXPECT_EQ(b.reg(FLASH_ERRORS), 3u);
    EXPECT_EQ(b.reg(FLASH_CTRL), FLASH_CTRL_CQ_PHASE);
    EXPECT_EQ(b.reg(FLASH_CQ_TAIL), 0u);
    b.cq_head = 0;
    b.submit({erase_op(2, block_row(0, 1))});
    EXPECT_TRUE(tag_of(b.collect(1)[0]));
    EXPECT_EQ(b.fc.violations(), 0u);
  });
}

// A plane descriptor held for the rest of its group is in flight too.
TEST(FlashCtrlPhase, CtrlWriteWhileAPlaneDescriptorIsHeldIsARingError) {
  Bench b(kTwoPlanes);
  b.run([&] {
    b.setup_rings();
    b.submit({plane(erase_op(1, blk2(0, 0)))});  // waits for its group's last member
    b.set(FLASH_CTRL, FLASH_CTRL_CQ_PHASE);
    EXPECT_EQ(b.reg(FLASH_ERRORS), 1u);
    EXPECT_EQ(b.reg(FLASH_CTRL), 0u);
    b.submit({erase_op(2, blk2(0, 1))});  // the group ends (plane 1)
    EXPECT_EQ(b.collect(2)[1].cqe.status, FC_OK);
    b.set(FLASH_CTRL, FLASH_CTRL_CQ_PHASE);
    EXPECT_EQ(b.reg(FLASH_ERRORS), 1u);
    EXPECT_EQ(b.reg(FLASH_CTRL), FLASH_CTRL_CQ_PHASE);
  });
}

// ---- GC victim holds (CTRL.HOLD_GC, flash_hold.cpp) ----
// Channels 2 x dies 2: dies 0 and 2 share channel 0.

namespace {

fc_sqe hinted(fc_sqe d, uint8_t hint) {
  d.hint = hint;
  return d;
}

// Programs page 0 of blocks 2 and 3 of dies 0 and 2, so that reads find data.
void program_pages(Bench& b) {
  b.fill_buffer(0, 100, 10, 1);
  b.submit({program_op(90, page_row(0, 2, 0), buf_addr(0)), program_op(91, page_row(0, 3, 0), buf_addr(0)),
            program_op(92, page_row(2, 2, 0), buf_addr(0))});
  b.collect(3);
}

std::map<uint32_t, uint64_t> by_tag(const std::vector<Done>& d) {
  std::map<uint32_t, uint64_t> at;
  for (auto& x : d) at[x.cqe.tag] = x.time;
  return at;
}

// A GC read of die 0's victim (block 3) holds die 0 (mode die) or channel 0
// (mode channel): host reads for die 0, and for die 2 under channel mode,
// wait until the victim's erase ends; a host read of die 1 does not.
void host_reads_wait_for_the_erase(uint32_t mode) {
  Bench b;
  b.run([&] {
    b.setup_rings();
    b.set(FLASH_CTRL, SSDVP_FIELD_PUT(FLASH_CTRL_HOLD_GC, mode));
    EXPECT_EQ(b.reg(FLASH_ERRORS), 0u);
    program_pages(b);
    b.submit({hinted(read_op(1, page_row(0, 3, 0), 0b01, buf_addr(1)), FC_HINT_GC | FC_HINT_VICTIM)});
    b.collect(1);
    b.submit({hinted(read_op(2, page_row(0, 2, 0), 0b01, buf_addr(2)), FC_HINT_HOST | FC_HINT_USER),
              hinted(read_op(3, page_row(2, 2, 0), 0b01, buf_addr(3)), FC_HINT_HOST | FC_HINT_USER),
              hinted(read_op(4, page_row(1, 2, 0), 0b01, buf_addr(4)), FC_HINT_HOST | FC_HINT_USER)});
    const uint64_t t = sc_core::sc_time_stamp().value();
    auto first = b.collect(mode == FLASH_HOLD_GC_DIE ? 2 : 1);  // die 1's read (and die 2's under mode die)
    for (const Done& d : first) EXPECT_NE(d.cqe.tag, 2u);
    EXPECT_LT(first.back().time, t + 100 * kUs);  // not held: a read's service time
    sc_core::wait(sc_time(2, sc_core::SC_MS));    // the held read does not complete meanwhile
    EXPECT_EQ(b.reg(FLASH_CQ_TAIL), b.cq_head);
    // The host's copy of block 2 page 0 was read at submission: the NAND effect is in order.
    EXPECT_EQ(b.buf_word(2, 0), 100u);
    const uint64_t e =
        b.submit({hinted(erase_op(5, block_row(0, 3)), FC_HINT_GC | FC_HINT_VICTIM)}) + kDramLat + kFetch;
    const auto at = by_tag(b.collect(mode == FLASH_HOLD_GC_DIE ? 2 : 3));
    const uint64_t erase_end = e + tCMD + tBERS;
    EXPECT_EQ(at.at(5), erase_end);
    EXPECT_EQ(at.at(2), erase_end + read_service(kChan4K, kDma4K));  // timed from the erase's end
    if (mode == FLASH_HOLD_GC_CHANNEL) EXPECT_GE(at.at(3), erase_end + read_service(kChan4K, kDma4K));
    EXPECT_EQ(b.fc.gc_holds(), 1u);
    EXPECT_EQ(b.fc.gc_held_ops(), mode == FLASH_HOLD_GC_DIE ? 1u : 2u);
    EXPECT_GT(b.fc.gc_held_wait_ps(), 2 * 1000 * kUs);
  });
}

}  // namespace

TEST(FlashCtrlHold, HostReadsWaitForTheVictimsEraseOnItsDie) { host_reads_wait_for_the_erase(FLASH_HOLD_GC_DIE); }
TEST(FlashCtrlHold, ChannelHoldHoldsTheOtherDiesOfTheChannel) { host_reads_wait_for_the_erase(FLASH_HOLD_GC_CHANNEL); }

// Without CTRL.HOLD_GC the hints change nothing: the host read is served at once.
TEST(FlashCtrlHold, OffByDefaultHintsChangeNothing) {
  Bench b;
  b.run([&] {
    b.setup_rings();
    program_pages(b);
    b.submit({hinted(read_op(1, page_row(0, 3, 0), 0b01, buf_addr(1)), FC_HINT_GC | FC_HINT_VICTIM)});
    b.collect(1);
    const uint64_t a =
        b.submit({hinted(read_op(2, page_row(0, 2, 0), 0b01, buf_addr(2)), FC_HINT_HOST | FC_HINT_USER)}) + kDramLat +
        kFetch;
    EXPECT_EQ(b.collect(1)[0].time, a + read_service(kChan4K, kDma4K));
    EXPECT_EQ(b.fc.gc_holds(), 0u);
  });
}

// HOLD_END ends a hold whose victim is retired without an erase; a host
// program waits as a read does; an out-of-range HOLD_END or HOLD_GC value 3
// is a ring error.
TEST(FlashCtrlHold, HoldEndReleasesAndBadWritesAreRingErrors) {
  Bench b;
  b.run([&] {
    b.setup_rings();
    b.set(FLASH_CTRL, SSDVP_FIELD_PUT(FLASH_CTRL_HOLD_GC, 3u));
    EXPECT_EQ(b.reg(FLASH_ERRORS), 1u);
    b.set(FLASH_CTRL, SSDVP_FIELD_PUT(FLASH_CTRL_HOLD_GC, FLASH_HOLD_GC_DIE));
    program_pages(b);
    b.submit({hinted(read_op(1, page_row(0, 3, 0), 0b01, buf_addr(1)), FC_HINT_GC | FC_HINT_VICTIM)});
    b.collect(1);
    b.fill_buffer(5, 200, 20, 2);
    b.submit({hinted(program_op(2, page_row(0, 2, 1), buf_addr(5)), FC_HINT_USER)});
    sc_core::wait(sc_time(1, sc_core::SC_MS));
    EXPECT_EQ(b.reg(FLASH_CQ_TAIL), b.cq_head);
    b.set(FLASH_HOLD_END, 4 * kBpd);  // beyond the geometry
    EXPECT_EQ(b.reg(FLASH_ERRORS), 2u);
    EXPECT_EQ(b.reg(FLASH_CQ_TAIL), b.cq_head);
    const uint64_t t = sc_core::sc_time_stamp().value();
    b.set(FLASH_HOLD_END, block_row(0, 3));
    const Done d = b.collect(1)[0];
    EXPECT_EQ(d.cqe.tag, 2u);
    EXPECT_EQ(d.cqe.status, FC_OK);
    EXPECT_GE(d.time, t + tPROG);
    EXPECT_LT(d.time, t + tPROG + 100 * kUs);
    EXPECT_EQ(b.fc.gc_held_ops(), 1u);
  });
}
