// Bench for Dram: latency, shared bandwidth, DMI, address errors.
#include <gtest/gtest.h>

#include <cmath>

#include "common/config.h"
#include "dram/dram.h"
#include "test_initiator.h"

using namespace ssdvp;
using sc_core::sc_time;
using sc_core::SC_ZERO_TIME;

namespace {
struct Bench {
  Config cfg = Config::from_yaml_string("dram: {size: 4MiB, latency: 50ns, bandwidth_mbps: 1000}");
  test::TestInitiator ini{"ini"};
  Dram dram{"dram", cfg};
  Bench() { ini.isock.bind(dram.tsock); }
  // Hand computation from the config values: bytes at MB/s -> ps.
  static uint64_t xfer_ps(uint64_t bytes, double mbps) { return std::llround(bytes * 1e6 / mbps); }
};
}  // namespace

TEST(Dram, LatencyPlusTransferTime) {
  Bench b;
  b.ini.body = [&](test::TestInitiator& t) {
    uint8_t buf[256] = {1, 2, 3};
    ASSERT_EQ(t.access(tlm::TLM_WRITE_COMMAND, 0x100, buf, sizeof buf), tlm::TLM_OK_RESPONSE);
    EXPECT_EQ(t.local, sc_time(50, sc_core::SC_NS) + sc_time::from_value(Bench::xfer_ps(256, 1000)));
    EXPECT_EQ(b.dram.data()[0x101], 2);
  };
  sc_core::sc_start();
  EXPECT_TRUE(b.ini.done);
}

TEST(Dram, ConcurrentBulkTransfersShareBandwidth) {
  Bench b;
  b.ini.body = [&](test::TestInitiator& t) {
    std::vector<uint8_t> buf(1 << 20);
    const sc_time x = sc_time::from_value(Bench::xfer_ps(buf.size(), 1000)), lat(50, sc_core::SC_NS);
    t.local = SC_ZERO_TIME;
    t.access(tlm::TLM_READ_COMMAND, 0, buf.data(), buf.size());
    EXPECT_EQ(t.local, x + lat);
    t.local = SC_ZERO_TIME;  // a second initiator asking at the same time
    t.access(tlm::TLM_READ_COMMAND, 0x100000, buf.data(), buf.size());
    EXPECT_EQ(t.local, x + x + lat);
    // Once the bandwidth is free again, a transfer costs its own time only.
    wait(sc_time(1, sc_core::SC_SEC));
    t.local = SC_ZERO_TIME;
    t.access(tlm::TLM_READ_COMMAND, 0, buf.data(), 1000);
    EXPECT_EQ(t.local, sc_time::from_value(Bench::xfer_ps(1000, 1000)) + lat);
  };
  sc_core::sc_start();
  EXPECT_TRUE(b.ini.done);
}

TEST(Dram, OutOfRangeIsAddressError) {
  Bench b;
  b.ini.body = [&](test::TestInitiator& t) {
    uint8_t buf[8] = {};
    EXPECT_EQ(t.access(tlm::TLM_READ_COMMAND, (4u << 20) - 4, buf, 8), tlm::TLM_ADDRESS_ERROR_RESPONSE);
    EXPECT_EQ(t.access(tlm::TLM_WRITE_COMMAND, 4u << 20, buf, 1), tlm::TLM_ADDRESS_ERROR_RESPONSE);
    EXPECT_EQ(t.access(tlm::TLM_READ_COMMAND, (4u << 20) - 8, buf, 8), tlm::TLM_OK_RESPONSE);
  };
  sc_core::sc_start();
  EXPECT_EQ(b.dram.address_errors(), 2u);
}

TEST(Dram, DmiCoversWholeStoreWithLatency) {
  Bench b;
  b.ini.body = [&](test::TestInitiator& t) {
    tlm::tlm_dmi d;
    ASSERT_TRUE(t.dmi(0x1234, d));
    EXPECT_EQ(d.get_dmi_ptr(), b.dram.data());
    EXPECT_EQ(d.get_start_address(), 0u);
    EXPECT_EQ(d.get_end_address(), (4u << 20) - 1);
    EXPECT_TRUE(d.is_read_write_allowed());
    EXPECT_EQ(d.get_read_latency(), sc_time(50, sc_core::SC_NS));
    EXPECT_EQ(d.get_write_latency(), sc_time(50, sc_core::SC_NS));
  };
  sc_core::sc_start();
  EXPECT_TRUE(b.ini.done);
}

TEST(Dram, UntouchedMemoryIsNotResident) {
  Config cfg = Config::from_yaml_string("dram: {size: 1GiB}");
  Dram d("dram", cfg);
  EXPECT_EQ(d.size(), 1ull << 30);
  EXPECT_EQ(d.data()[(1ull << 30) - 1], 0);  // reads as zero; one page touched
}
