// Bench for the target base (common/bus_target.h): the window and
// granularity checks, the DMI grant or denial, and the timing annotation
// (fixed access time; access time after a transfer at a shared bandwidth),
// on small targets built here, and the same rules as Dram and a register
// block see them.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <vector>

#include "common/bus_device.h"
#include "common/bus_target.h"
#include "common/config.h"
#include "dram/dram.h"
#include "ssdvp_hw.h"
#include "test_initiator.h"

using namespace ssdvp;
using sc_core::SC_NS;
using sc_core::sc_time;

namespace {

// A memory target of `bytes` bytes at granularity `align`, with an access
// time and optionally a bandwidth and a DMI grant; counts what reaches it.
struct Mem : BusTarget {
  std::vector<uint8_t> store;
  int served = 0, served_dbg = 0;
  Mem(sc_core::sc_module_name nm, Config& cfg, uint64_t bytes, unsigned align, uint64_t access_ps, double mbps,
      bool dmi)
      : BusTarget(nm, cfg, "tsock"), store(bytes) {
    set_window(bytes, align);
    set_timing(access_ps, mbps);
    if (dmi) grant_dmi(store.data());
  }
  void serve(tlm::tlm_generic_payload& tx, sc_core::sc_time& delay) override {
    ++served;
    uint8_t* m = store.data() + tx.get_address();
    if (tx.is_read())
      std::memcpy(tx.get_data_ptr(), m, tx.get_data_length());
    else
      std::memcpy(m, tx.get_data_ptr(), tx.get_data_length());
    tx.set_response_status(tlm::TLM_OK_RESPONSE);
    annotate(delay, tx.get_data_length());
  }
  unsigned serve_dbg(tlm::tlm_generic_payload& tx) override {
    ++served_dbg;
    tx.set_response_status(tlm::TLM_OK_RESPONSE);
    return tx.get_data_length();
  }
};

struct Bench {
  Config cfg;
  test::TestInitiator ini{"ini"};
  Mem mem;
  Bench(uint64_t bytes, unsigned align, uint64_t access_ps, double mbps, bool dmi)
      : mem("mem", cfg, bytes, align, access_ps, mbps, dmi) {
    ini.isock.bind(mem.tsock);
  }
};

unsigned debug_read(tlm::tlm_fw_transport_if<>& t, uint64_t addr, void* data, unsigned len) {
  tlm::tlm_generic_payload tx;
  tx.set_command(tlm::TLM_READ_COMMAND);
  tx.set_address(addr);
  tx.set_data_ptr(static_cast<unsigned char*>(data));
  tx.set_data_length(len);
  tx.set_streaming_width(len);
  return t.transport_dbg(tx);
}

}  // namespace

TEST(BusTarget, OutOfRangeAndMisalignedAccessesNeverReachTheBlockNorCostTime) {
  Bench b(256, 4, 7000, 0, false);
  b.ini.body = [&](test::TestInitiator& t) {
    uint8_t buf[16] = {};
    const sc_time t0(3, SC_NS);
    t.local = t0;
    EXPECT_EQ(t.access(tlm::TLM_READ_COMMAND, 256, buf, 4), tlm::TLM_ADDRESS_ERROR_RESPONSE);  // past the end
    EXPECT_EQ(t.access(tlm::TLM_READ_COMMAND, 252, buf, 8), tlm::TLM_ADDRESS_ERROR_RESPONSE);  // runs past it
    EXPECT_EQ(t.access(tlm::TLM_WRITE_COMMAND, ~uint64_t(0) - 1, buf, 4), tlm::TLM_ADDRESS_ERROR_RESPONSE);
    EXPECT_EQ(t.access(tlm::TLM_READ_COMMAND, 2, buf, 4), tlm::TLM_BURST_ERROR_RESPONSE);  // misaligned address
    EXPECT_EQ(t.access(tlm::TLM_READ_COMMAND, 4, buf, 6), tlm::TLM_BURST_ERROR_RESPONSE);  // length not a multiple
    EXPECT_EQ(t.local, t0);  // refused accesses cost no time
    EXPECT_EQ(b.mem.served, 0);
    EXPECT_EQ(b.mem.rejected(), 5u);
    // The last word and a two-word access are inside: served.
    EXPECT_EQ(t.access(tlm::TLM_WRITE_COMMAND, 252, buf, 4), tlm::TLM_OK_RESPONSE);
    EXPECT_EQ(t.access(tlm::TLM_READ_COMMAND, 8, buf, 8), tlm::TLM_OK_RESPONSE);
    EXPECT_EQ(b.mem.served, 2);
    // A streaming width below the length is a burst error too.
    tlm::tlm_generic_payload tx;
    tx.set_command(tlm::TLM_READ_COMMAND);
    tx.set_address(0);
    tx.set_data_ptr(buf);
    tx.set_data_length(8);
    tx.set_streaming_width(4);
    sc_time d = sc_core::SC_ZERO_TIME;
    t.isock->b_transport(tx, d);
    EXPECT_EQ(tx.get_response_status(), tlm::TLM_BURST_ERROR_RESPONSE);
    EXPECT_EQ(b.mem.rejected(), 6u);
    // Debug accesses: the same checks, nothing counted.
    EXPECT_EQ(debug_read(*t.isock.operator->(), 256, buf, 4), 0u);
    EXPECT_EQ(debug_read(*t.isock.operator->(), 1, buf, 4), 0u);
    EXPECT_EQ(debug_read(*t.isock.operator->(), 0, buf, 16), 16u);
    EXPECT_EQ(b.mem.served_dbg, 1);
    EXPECT_EQ(b.mem.rejected(), 6u);
  };
  sc_core::sc_start();
  EXPECT_TRUE(b.ini.done);
}

TEST(BusTarget, DmiGrantedForTheWholeWindowWithTheAccessTimeOrDeniedForIt) {
  Config cfg;
  test::TestInitiator to_granted{"to_granted"}, to_denied{"to_denied"};
  Mem granted("granted", cfg, 4096, 1, 25000, 0, true), denied("denied", cfg, 4096, 4, 25000, 0, false);
  to_granted.isock.bind(granted.tsock);
  to_denied.isock.bind(denied.tsock);
  to_granted.body = [&](test::TestInitiator& t) {
    tlm::tlm_dmi d;
    ASSERT_TRUE(t.dmi(100, d));
    EXPECT_EQ(d.get_dmi_ptr(), granted.store.data());
    EXPECT_EQ(d.get_start_address(), 0u);
    EXPECT_EQ(d.get_end_address(), 4095u);
    EXPECT_TRUE(d.is_read_write_allowed());
    EXPECT_EQ(d.get_read_latency(), sc_time::from_value(25000));
    EXPECT_EQ(d.get_write_latency(), sc_time::from_value(25000));
  };
  to_denied.body = [&](test::TestInitiator& t) {
    tlm::tlm_dmi d;
    EXPECT_FALSE(t.dmi(100, d));
    EXPECT_EQ(d.get_start_address(), 0u);  // for the whole window: b_transport only
    EXPECT_EQ(d.get_end_address(), 4095u);
    EXPECT_FALSE(d.is_read_allowed() || d.is_write_allowed());
  };
  sc_core::sc_start();
  EXPECT_TRUE(to_granted.done);
  EXPECT_TRUE(to_denied.done);
}

TEST(BusTarget, FixedAccessTimeIsAddedToTheAnnotatedDelay) {
  const uint64_t access = 7000;
  Bench b(256, 4, access, 0, false);
  b.ini.body = [&](test::TestInitiator& t) {
    uint8_t buf[64] = {};
    t.local = sc_time(5, SC_NS);
    EXPECT_EQ(t.access(tlm::TLM_WRITE_COMMAND, 0, buf, 64), tlm::TLM_OK_RESPONSE);
    EXPECT_EQ(t.local, sc_time(5, SC_NS) + sc_time::from_value(access));  // whatever the length
    // Without a bandwidth there is no reservation: an access whose local
    // time lies before the previous one's is not held behind it.
    t.local = sc_core::SC_ZERO_TIME;
    EXPECT_EQ(t.access(tlm::TLM_READ_COMMAND, 0, buf, 4), tlm::TLM_OK_RESPONSE);
    EXPECT_EQ(t.local, sc_time::from_value(access));
  };
  sc_core::sc_start();
  EXPECT_TRUE(b.ini.done);
}

TEST(BusTarget, SharedBandwidthHoldsAnAccessBehindTheTransfersBeforeIt) {
  const uint64_t access = 40000;
  const double mbps = 2000;
  Bench b(1 << 16, 1, access, mbps, false);
  // Hand computation from the figures above: bytes at MB/s -> ps.
  auto xfer = [&](uint64_t n) { return uint64_t(std::llround(double(n) * 1e6 / mbps)); };
  EXPECT_EQ(b.mem.transfer_ps(4096), xfer(4096));
  b.ini.body = [&](test::TestInitiator& t) {
    std::vector<uint8_t> buf(4096);
    t.local = sc_time(1, SC_NS);
    t.access(tlm::TLM_WRITE_COMMAND, 0, buf.data(), 4096);
    EXPECT_EQ(t.local.value(), 1000 + xfer(4096) + access);
    t.local = sc_core::SC_ZERO_TIME;  // another initiator, earlier local time
    t.access(tlm::TLM_READ_COMMAND, 4096, buf.data(), 100);
    EXPECT_EQ(t.local.value(), 1000 + xfer(4096) + xfer(100) + access);
    wait(sc_time(1, sc_core::SC_MS));  // the bandwidth is free again
    t.local = sc_core::SC_ZERO_TIME;
    t.access(tlm::TLM_READ_COMMAND, 0, buf.data(), 10);
    EXPECT_EQ(t.local.value(), xfer(10) + access);
  };
  sc_core::sc_start();
  EXPECT_TRUE(b.ini.done);
}

TEST(BusTarget, ABadWindowIsAModelBug) {
  Config cfg;
  EXPECT_THROW(Mem("zero", cfg, 0, 1, 0, 0, false), std::invalid_argument);
  EXPECT_THROW(Mem("three", cfg, 64, 3, 0, 0, false), std::invalid_argument);
}

// The same base under Dram and a register block.
namespace {
struct Regs : BusDevice {
  Regs(sc_core::sc_module_name nm, Config& cfg) : BusDevice(nm, cfg, "INTC", "intc.access") {}
};
struct Both {
  Config cfg = Config::from_yaml_string("dram: {size: 1MiB, latency: 20ns}\nintc: {access: 3ns}");
  test::TestInitiator a{"a"}, r{"r"};
  Dram dram{"dram", cfg};
  Regs regs{"regs", cfg};
  Both() {
    a.isock.bind(dram.tsock);
    r.isock.bind(regs.regs);
  }
};
}  // namespace

TEST(BusTarget, DramAndARegisterBlockShareTheRules) {
  Both b;
  EXPECT_EQ(b.dram.window(), 1u << 20);
  EXPECT_EQ(b.dram.align(), 1u);
  EXPECT_EQ(b.regs.window(), region("INTC").size);
  EXPECT_EQ(b.regs.align(), 4u);
  EXPECT_EQ(&b.regs.regs, &b.regs.tsock);
  b.a.body = [&](test::TestInitiator& t) {
    uint8_t buf[3] = {1, 2, 3};
    EXPECT_EQ(t.access(tlm::TLM_WRITE_COMMAND, 5, buf, 3), tlm::TLM_OK_RESPONSE);  // any byte, any length
    EXPECT_EQ(t.access(tlm::TLM_WRITE_COMMAND, 1u << 20, buf, 1), tlm::TLM_ADDRESS_ERROR_RESPONSE);
    tlm::tlm_dmi d;
    EXPECT_TRUE(t.dmi(0, d));
    EXPECT_EQ(d.get_read_latency(), sc_time(20, SC_NS));
  };
  b.r.body = [&](test::TestInitiator& t) {
    // A register block decodes accesses itself (its own b_transport): the
    // bank answers misaligned and out-of-range accesses, each at the
    // access time, counted by the bank, not the base.
    tlm::tlm_response_status st;
    t.local = sc_core::SC_ZERO_TIME;
    t.read32(2, &st);
    EXPECT_EQ(st, tlm::TLM_BURST_ERROR_RESPONSE);
    EXPECT_EQ(t.local, sc_time(3, SC_NS));
    t.read32(region("INTC").size, &st);
    EXPECT_EQ(st, tlm::TLM_ADDRESS_ERROR_RESPONSE);
    EXPECT_EQ(b.regs.rejected(), 0u);
    EXPECT_EQ(b.regs.bank().errors(), 2u);
    t.read32(INTC_PENDING, &st);
    EXPECT_EQ(st, tlm::TLM_OK_RESPONSE);
    EXPECT_EQ(t.local, sc_time(9, SC_NS));
    // Debug accesses pass the base's window check first.
    uint32_t v = 0;
    tlm::tlm_generic_payload tx;
    tx.set_command(tlm::TLM_READ_COMMAND);
    tx.set_address(region("INTC").size);
    tx.set_data_ptr(reinterpret_cast<unsigned char*>(&v));
    tx.set_data_length(4);
    tx.set_streaming_width(4);
    EXPECT_EQ(t.isock->transport_dbg(tx), 0u);
    EXPECT_EQ(tx.get_response_status(), tlm::TLM_ADDRESS_ERROR_RESPONSE);
    tlm::tlm_dmi d;
    EXPECT_FALSE(t.dmi(0, d));  // registers: no DMI
    EXPECT_EQ(d.get_end_address(), region("INTC").size - 1);
  };
  sc_core::sc_start();
  EXPECT_TRUE(b.a.done);
  EXPECT_TRUE(b.r.done);
  EXPECT_EQ(b.dram.data()[6], 2);
  EXPECT_EQ(b.dram.address_errors(), 1u);
}
