// Bench for the model base (common/bus_device.h) and the DMI socket
// (common/dmi_socket.h): access time and local time, the debug-transport
// rule, the reset hook, DMI invalidation; and the shared helpers: the
// due-time queue, the ring rules, the quantum keeper.
#include <gtest/gtest.h>

#include <vector>

#include "common/bus_device.h"
#include "common/config.h"
#include "common/dmi_socket.h"
#include "common/due_queue.h"
#include "common/ring.h"
#include "cpu/quantum_keeper.h"
#include "dram/dram.h"
#include "ssdvp_hw.h"
#include "test_initiator.h"

using namespace ssdvp;
using sc_core::SC_NS;
using sc_core::sc_time;

namespace {

// A block with the FLASH rows: SQ_TAIL is a doorbell (a write handler),
// SQ_BASE a plain register, SQ_HEAD a live value (a read handler).
struct Probe : BusDevice {
  Probe(sc_core::sc_module_name nm, Config& cfg) : BusDevice(nm, cfg, "FLASH", "flash.access") {
    bank_.on_write(FLASH_SQ_TAIL, [this](uint32_t v) {
      ++doorbells;
      rung_at_ps = access_at_ps();
      head = v;
    });
    bank_.on_read(FLASH_SQ_HEAD, [this] { return head; });
  }
  int doorbells = 0;
  uint64_t rung_at_ps = 0;
  uint32_t head = 0;
};

unsigned debug(tlm::tlm_fw_transport_if<>& t, bool write, uint32_t addr, uint32_t& v) {
  tlm::tlm_generic_payload tx;
  tx.set_command(write ? tlm::TLM_WRITE_COMMAND : tlm::TLM_READ_COMMAND);
  tx.set_address(addr);
  tx.set_data_ptr(reinterpret_cast<unsigned char*>(&v));
  tx.set_data_length(4);
  tx.set_streaming_width(4);
  return t.transport_dbg(tx);
}

struct Bench {
  Config cfg;
  test::TestInitiator ini{"ini"};
  Probe probe{"probe", cfg};
  Bench() { ini.isock.bind(probe.regs); }
};

}  // namespace

TEST(BusDevice, AccessTimeAndTheWritersLocalTime) {
  Bench b;
  b.ini.body = [&](test::TestInitiator& t) {
    t.local = sc_time(5, SC_NS);
    EXPECT_EQ(t.write32(FLASH_SQ_TAIL, 3), tlm::TLM_OK_RESPONSE);
    EXPECT_EQ(b.probe.rung_at_ps, sc_time(5, SC_NS).value());  // the doorbell takes effect at the writer's time
    EXPECT_EQ(t.local, sc_time(5 + 10, SC_NS));                // plus the access time (flash.access)
    EXPECT_EQ(t.read32(FLASH_SQ_HEAD), 3u);
    tlm::tlm_response_status st;
    t.read32(0xffc, &st);
    EXPECT_EQ(st, tlm::TLM_ADDRESS_ERROR_RESPONSE);
    EXPECT_EQ(b.probe.bank().errors(), 1u);
  };
  sc_core::sc_start();
  EXPECT_TRUE(b.ini.done);
}

TEST(BusDevice, DebugAccessesHaveNoSideEffects) {
  Bench b;
  b.ini.body = [&](test::TestInitiator& t) {
    uint32_t v = 9;
    EXPECT_EQ(debug(*t.isock.operator->(), true, FLASH_SQ_TAIL, v), 0u);  // a doorbell: refused
    EXPECT_EQ(b.probe.doorbells, 0);
    v = 0x80001000u;
    EXPECT_EQ(debug(*t.isock.operator->(), true, FLASH_SQ_BASE, v), 4u);  // a plain register: written
    EXPECT_EQ(t.read32(FLASH_SQ_BASE), 0x80001000u);
    t.write32(FLASH_SQ_TAIL, 5);
    v = 0;
    EXPECT_EQ(debug(*t.isock.operator->(), false, FLASH_SQ_HEAD, v), 4u);  // a live value
    EXPECT_EQ(v, 5u);
    EXPECT_EQ(debug(*t.isock.operator->(), false, 0xffc, v), 0u);  // unmapped: refused, not counted
    EXPECT_EQ(b.probe.bank().errors(), 0u);
    EXPECT_EQ(b.probe.doorbells, 1);
  };
  sc_core::sc_start();
  EXPECT_TRUE(b.ini.done);
}

namespace {
struct DmiBench : sc_core::sc_module {
  Config cfg;
  DmiSocket sock{"sock", 0};
  Dram dram{"dram", cfg};
  explicit DmiBench(sc_core::sc_module_name n) : sc_module(n) { sock.bind(dram.tsock); }
};
}  // namespace

TEST(DmiSocket, PointerCopyAndInvalidation) {
  DmiBench b("b");
  uint8_t* p = b.sock.dmi_ptr(64, 16);
  ASSERT_NE(p, nullptr);
  EXPECT_EQ(p, b.dram.data() + 64);
  EXPECT_EQ(b.sock.dmi_ptr(b.dram.size() - 4, 8), nullptr);  // beyond the region
  uint32_t v = 0xabcd, back = 0;
  uint64_t lat = 0;
  EXPECT_TRUE(b.sock.copy(true, 128, &v, 4, &lat));
  EXPECT_EQ(lat, b.dram.latency_ps());
  EXPECT_TRUE(b.sock.copy(false, 128, &back, 4, nullptr));
  EXPECT_EQ(back, 0xabcdu);
  EXPECT_EQ(b.dram.reads() + b.dram.writes(), 0u);  // both through the pointer
  // Beyond the DMI region: b_transport, which the DRAM refuses.
  EXPECT_FALSE(b.sock.copy(false, b.dram.size(), &back, 4, nullptr));
  std::pair<uint64_t, uint64_t> told{1, 1};
  b.sock.on_invalidate = [&](uint64_t s, uint64_t e) { told = {s, e}; };
  b.dram.tsock->invalidate_direct_mem_ptr(0, 255);
  EXPECT_EQ(b.sock.invalidations(), 1u);
  EXPECT_EQ(told, std::make_pair(uint64_t(0), uint64_t(255)));
  EXPECT_EQ(b.sock.dmi_ptr(64, 16), b.dram.data() + 64);  // requested again
}

// ---- the due-time queue, the ring rules, the quantum keeper ----------------

TEST(DueQueue, EarliestFirstAndPushOrderAtOneTime) {
  DueQueue<int> q;
  EXPECT_EQ(q.next_time(), UINT64_MAX);
  q.push(30, 1);
  const uint64_t moved = q.push(20, 2);
  q.push(20, 3);
  q.push(10, 4);
  EXPECT_EQ(q.next_time(), 10u);
  EXPECT_TRUE(q.retime(moved, 40));  // 2 now last
  EXPECT_FALSE(q.retime(moved, 40));
  q.reorder();
  std::vector<int> got;
  q.pop_due(30, [&](const DueQueue<int>::Entry& e) { got.push_back(e.item); });
  EXPECT_EQ(got, (std::vector<int>{4, 3, 1}));
  EXPECT_EQ(q.size(), 1u);
  EXPECT_EQ(q.pop().item, 2);
  EXPECT_TRUE(q.empty());
}

TEST(Ring, IndicesAndLayoutRules) {
  EXPECT_EQ(ring_next(7, 8), 0u);
  EXPECT_EQ(ring_used(6, 2, 8), 4u);
  EXPECT_EQ(ring_room(6, 2, 8), 3u);  // N entries hold N - 1
  EXPECT_TRUE(ring_full(3, 2, 8));
  EXPECT_FALSE(ring_index_ok(false, 0, 8));
  EXPECT_FALSE(ring_index_ok(true, 8, 8));
  auto dram = [](uint64_t base, uint64_t bytes) { return base >= 0x1000 && base + bytes <= 0x2000; };
  EXPECT_EQ(ring_layout_fault(0x1000, 16, 32, 2, dram), nullptr);
  EXPECT_STREQ(ring_layout_fault(0x1000, 12, 32, 2, dram), "size is not a power of two");
  EXPECT_STREQ(ring_layout_fault(0x1000, 1, 32, 2, dram), "too few entries");
  EXPECT_STREQ(ring_layout_fault(0x1002, 16, 32, 2, dram), "base is not 4-byte aligned");
  EXPECT_STREQ(ring_layout_fault(0x1f00, 16, 32, 2, dram), "ring is not inside DRAM");
}

TEST(QuantumKeeper, RunsAheadThenWaitsTheOffsetOff) {
  struct Cpu : sc_core::sc_module {
    QuantumKeeper qk{sc_time(100, SC_NS).value()};
    std::vector<uint64_t> seen;
    SC_HAS_PROCESS(Cpu);
    explicit Cpu(sc_core::sc_module_name n) : sc_module(n) { SC_THREAD(run); }
    void run() {
      qk.inc(sc_time(60, SC_NS).value());
      EXPECT_FALSE(qk.need_sync());
      EXPECT_EQ(qk.now_ps(), sc_time(60, SC_NS).value());  // the kernel has not moved
      EXPECT_EQ(sc_core::sc_time_stamp(), sc_core::SC_ZERO_TIME);
      qk.inc(sc_time(50, SC_NS).value());
      EXPECT_TRUE(qk.need_sync());
      EXPECT_TRUE(qk.sync());
      EXPECT_EQ(sc_core::sc_time_stamp(), sc_time(110, SC_NS));
      EXPECT_EQ(qk.local_ps(), 0u);
      EXPECT_FALSE(qk.sync());
      EXPECT_EQ(qk.firmware_time_ns(false, 5000), 115u);  // kernel + offset + pending, in ns
      qk.clock.set_functional_time_ns(7);
      EXPECT_EQ(qk.firmware_time_ns(true), 7u);
    }
  } cpu("cpu");
  sc_core::sc_start();
  EXPECT_EQ(sc_core::sc_time_stamp(), sc_time(110, SC_NS));
}
