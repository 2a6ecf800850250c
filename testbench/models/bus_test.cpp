// Bench for Bus: routing by region name, address errors, DMI translation,
// overlap detection.
#include <gtest/gtest.h>

#include "common/config.h"
#include "dram/dram.h"
#include "interconnect/bus.h"
#include "common/bus_device.h"
#include "ssdvp_hw.h"
#include "test_initiator.h"

using namespace ssdvp;
using sc_core::SC_NS;
using sc_core::sc_time;

namespace {
// A register block with the INTC rows and no ports: something to route to.
struct Regs : BusDevice {
  Regs(sc_core::sc_module_name nm, Config& cfg) : BusDevice(nm, cfg, "INTC", "intc.access") {}
};

struct Bench {
  Config cfg = Config::from_yaml_string("dram: {size: 1MiB, latency: 40ns}\nbus: {latency_cycles: 3, clock_hz: 5e8}");
  test::TestInitiator ini{"ini"};
  Bus bus{"bus", cfg};
  Dram dram{"dram", cfg};
  Regs intc{"intc", cfg};
  // direct: INTC attached as a register block, with a direct register window
  explicit Bench(bool direct = false) {
    ini.isock.bind(bus.tsock);
    bus.attach("DRAM", dram.tsock);
    if (direct)
      bus.attach("INTC", intc);
    else
      bus.attach("INTC", intc.regs);
  }
};
}  // namespace

TEST(Bus, RoutesByRegionWithRelativeAddressesAndLatency) {
  Bench b;
  b.ini.body = [&](test::TestInitiator& t) {
    EXPECT_EQ(t.write32(SSDVP_DRAM_BASE + 0x10, 0xa5a5a5a5u), tlm::TLM_OK_RESPONSE);
    uint32_t v;
    std::memcpy(&v, b.dram.data() + 0x10, 4);
    EXPECT_EQ(v, 0xa5a5a5a5u);
    // 3 cycles at 500 MHz + DRAM latency + 4 bytes at 12800 MB/s
    EXPECT_EQ(t.local, sc_time(6, SC_NS) + sc_time(40, SC_NS) + sc_time::from_value(std::llround(4e6 / 12800)));
    t.local = sc_core::SC_ZERO_TIME;
    EXPECT_EQ(t.read32(SSDVP_INTC_BASE + INTC_ENABLE), 0u);
    EXPECT_EQ(t.local, sc_time(6, SC_NS) + sc_time(10, SC_NS));  // bus latency + intc.access
  };
  sc_core::sc_start();
  EXPECT_EQ(b.bus.accesses(), 2u);
  EXPECT_EQ(b.bus.address_errors(), 0u);
}

// The direct register path (common/register_path.h) against the TLM path to
// the same block: for each access, the same response, value, added time,
// bank error count and bus access count.
TEST(Bus, DirectRegisterPathIsTheSameAccessAsTheTlmPath) {
  Bench b(true);
  RegisterWindow w;
  EXPECT_FALSE(b.bus.register_window(SSDVP_DRAM_BASE, &w)) << "DRAM is not a register block";
  EXPECT_FALSE(b.bus.register_window(SSDVP_NVME_BASE, &w)) << "nothing attached there";
  ASSERT_TRUE(b.bus.register_window(SSDVP_INTC_BASE + INTC_ENABLE, &w));
  EXPECT_EQ(w.base, uint64_t(SSDVP_INTC_BASE));
  EXPECT_EQ(w.size, uint64_t(SSDVP_INTC_SIZE));
  EXPECT_TRUE(w.holds(SSDVP_INTC_BASE + SSDVP_INTC_SIZE - 4));
  EXPECT_FALSE(w.holds(SSDVP_INTC_BASE + SSDVP_INTC_SIZE - 3)) << "runs past the region's end";
  struct Access {
    bool write;
    uint32_t offset, value;
    tlm::tlm_response_status want;
  };
  const Access accesses[] = {
      {true, INTC_ENABLE, 0x5u, tlm::TLM_OK_RESPONSE},
      {false, INTC_ENABLE, 0, tlm::TLM_OK_RESPONSE},
      {true, INTC_PENDING, 1, tlm::TLM_COMMAND_ERROR_RESPONSE},    // read-only
      {false, INTC_ENABLE + 2, 0, tlm::TLM_BURST_ERROR_RESPONSE},  // misaligned
      {false, 0x40, 0, tlm::TLM_ADDRESS_ERROR_RESPONSE},           // no register there
  };
  b.ini.body = [&](test::TestInitiator& t) {
    for (const Access& a : accesses) {
      SCOPED_TRACE(a.offset);
      uint32_t via_tlm = a.value, via_direct = a.value;
      const uint64_t errors0 = b.intc.bank().errors(), n0 = b.bus.accesses();
      t.local = sc_time(3, SC_NS);
      const tlm::tlm_response_status st_tlm =
          t.access(a.write ? tlm::TLM_WRITE_COMMAND : tlm::TLM_READ_COMMAND, SSDVP_INTC_BASE + a.offset, &via_tlm, 4);
      const uint64_t tlm_ps = t.local.value(), tlm_errors = b.intc.bank().errors() - errors0;
      ASSERT_TRUE(w.holds(SSDVP_INTC_BASE + a.offset));
      uint64_t delay = sc_time(3, SC_NS).value() + w.latency_ps;
      ++*w.accesses;  // what an initiator on the direct path does for the bus
      const tlm::tlm_response_status st_direct = w.target->direct_access(a.write, a.offset, &via_direct, &delay);
      EXPECT_EQ(st_tlm, a.want);
      EXPECT_EQ(st_direct, a.want);
      EXPECT_EQ(via_direct, via_tlm);
      EXPECT_EQ(delay, tlm_ps);
      EXPECT_EQ(b.intc.bank().errors() - errors0, 2 * tlm_errors);
      EXPECT_EQ(b.bus.accesses() - n0, 2u);
    }
    EXPECT_EQ(b.intc.bank().get(INTC_ENABLE), 0x5u);
  };
  sc_core::sc_start();
}

TEST(Bus, UnmappedAccessGivesAddressError) {
  Bench b;
  b.ini.body = [&](test::TestInitiator& t) {
    tlm::tlm_response_status st;
    t.read32(0x20000000u, &st);  // in no region
    EXPECT_EQ(st, tlm::TLM_ADDRESS_ERROR_RESPONSE);
    t.read32(SSDVP_NVME_BASE, &st);  // a region with nothing attached
    EXPECT_EQ(st, tlm::TLM_ADDRESS_ERROR_RESPONSE);
    uint8_t buf[8];
    // starts inside INTC, runs past its end
    EXPECT_EQ(t.access(tlm::TLM_READ_COMMAND, SSDVP_INTC_BASE + SSDVP_INTC_SIZE - 4, buf, 8),
              tlm::TLM_ADDRESS_ERROR_RESPONSE);
    // beyond the DRAM model's size but inside the DRAM region: the target says no
    t.read32(SSDVP_DRAM_BASE + (1u << 20), &st);
    EXPECT_EQ(st, tlm::TLM_ADDRESS_ERROR_RESPONSE);
  };
  sc_core::sc_start();
  EXPECT_EQ(b.bus.address_errors(), 3u);
  EXPECT_EQ(b.dram.address_errors(), 1u);
}

TEST(Bus, DmiThroughBusInBusAddresses) {
  Bench b;
  b.ini.body = [&](test::TestInitiator& t) {
    tlm::tlm_dmi d;
    ASSERT_TRUE(t.dmi(SSDVP_DRAM_BASE + 0x400, d));
    EXPECT_EQ(d.get_start_address(), uint64_t(SSDVP_DRAM_BASE));
    EXPECT_EQ(d.get_end_address(), uint64_t(SSDVP_DRAM_BASE) + (1u << 20) - 1);
    EXPECT_EQ(d.get_dmi_ptr(), b.dram.data());
    EXPECT_EQ(d.get_read_latency(), sc_time(46, SC_NS));  // DRAM + bus
    tlm::tlm_dmi hole;
    EXPECT_FALSE(t.dmi(0x20000000u, hole));
    EXPECT_LE(hole.get_start_address(), 0x20000000u);
    EXPECT_GE(hole.get_end_address(), 0x20000000u);
    EXPECT_LT(hole.get_end_address(), uint64_t(SSDVP_DRAM_BASE));
    EXPECT_GT(hole.get_start_address(), uint64_t(SSDVP_INTC_BASE));
  };
  sc_core::sc_start();
  EXPECT_TRUE(b.ini.done);
}

TEST(Bus, DebugTransportTranslates) {
  Bench b;
  b.dram.data()[0x20] = 0x5a;
  b.ini.body = [&](test::TestInitiator& t) {
    uint8_t v = 0;
    tlm::tlm_generic_payload tx;
    tx.set_read();
    tx.set_address(SSDVP_DRAM_BASE + 0x20);
    tx.set_data_ptr(&v);
    tx.set_data_length(1);
    tx.set_streaming_width(1);
    EXPECT_EQ(t.isock->transport_dbg(tx), 1u);
    EXPECT_EQ(v, 0x5a);
    EXPECT_EQ(tx.get_address(), uint64_t(SSDVP_DRAM_BASE) + 0x20);
  };
  sc_core::sc_start();
  EXPECT_TRUE(b.ini.done);
}

TEST(Bus, OverlappingRegionsDetected) {
  Config cfg = Config::from_yaml_string("dram: {size: 64KiB}");
  Bus bus("bus", cfg);
  Dram a("a", cfg), c("c", cfg);
  bus.attach(RegionInfo{"LOW", 0x1000, 0x2000, ""}, a.tsock);
  bus.attach(RegionInfo{"HIGH", 0x2800, 0x1000, ""}, c.tsock);
  try {
    bus.validate();
    FAIL() << "overlap not detected";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("LOW"), std::string::npos);
    EXPECT_NE(std::string(e.what()).find("HIGH"), std::string::npos);
  }
}

TEST(Bus, OverlapFailsElaboration) {
  Config cfg = Config::from_yaml_string("dram: {size: 64KiB}");
  Bus bus("bus", cfg);
  Dram a("a", cfg), c("c", cfg);
  bus.attach(RegionInfo{"LOW", 0x1000, 0x2000, ""}, a.tsock);
  bus.attach(RegionInfo{"HIGH", 0x2800, 0x1000, ""}, c.tsock);
  test::TestInitiator ini("ini");
  ini.isock.bind(bus.tsock);
  try {
    sc_core::sc_start();
    FAIL() << "elaboration passed";
  } catch (const std::exception& e) {
    EXPECT_NE(std::string(e.what()).find("overlap"), std::string::npos) << e.what();
  }
}

TEST(Bus, RegionAttachedTwiceOrUnknownIsRejected) {
  Config cfg = Config::from_yaml_string("dram: {size: 64KiB}");
  Bus bus("bus", cfg);
  Dram a("a", cfg), c("c", cfg);
  bus.attach("DRAM", a.tsock);
  EXPECT_THROW(bus.attach("DRAM", c.tsock), std::runtime_error);
  EXPECT_THROW(bus.attach("NOSUCH", c.tsock), std::out_of_range);
}
