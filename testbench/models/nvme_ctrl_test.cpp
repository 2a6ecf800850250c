// Bench for NvmeCtrl: host queues, the three firmware rings, link timing
// checked against hand computation from the config values, and every guest
// mistake (host doorbells, ring programming, transfer descriptors) counted,
// never a crash.
//
// Platform: a test driver with two initiators:
//   cpu  -> Bus -> {NVME regs, DRAM};  NvmeCtrl.dma -> Bus
//   host -> NvmeCtrl.host_regs (doorbells); NvmeCtrl.host_dma -> HostMem
// HostMem is a plain memory that logs every write with its time and records
// MSIs (writes to 0xfee00000).
#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include "common/config.h"
#include "dram/dram.h"
#include "interconnect/bus.h"
#include "nvme/nvme_ctrl.h"
#include "ssdvp_hw.h"

using namespace ssdvp;
using sc_core::sc_time;
using sc_core::SC_ZERO_TIME;

namespace {

// The figures of the config below, in ps, written out by hand.
constexpr uint64_t kNs = 1000;
constexpr uint64_t L = 400 * kNs;                             // pcie.latency (one way)
constexpr uint64_t x(uint64_t bytes) { return bytes * 250; }  // at 4000 MB/s: 0.25 ns per byte
constexpr uint64_t kFetch = 20 * kNs;                         // nvme.fetch
constexpr uint64_t kCqe = 30 * kNs;                           // nvme.completion
constexpr uint64_t kRegWrite = 2 * kNs + 10 * kNs;            // bus (2 cycles at 1 GHz) + nvme.access
constexpr uint64_t kLba = 4096;

const char* kConfig = R"(
pcie: {latency: 400ns, mbps: 4000}
nvme: {lba_size: 4KiB, access: 10ns, fetch: 20ns, completion: 30ns, fetch_burst: 8}
dram: {size: 16MiB, latency: 50ns}
bus: {latency_cycles: 2, clock_hz: 1e9}
log: {level: error}
)";

constexpr uint32_t kCmdRing = SSDVP_DRAM_BASE + 0x1000, kXferRing = SSDVP_DRAM_BASE + 0x4000,
                   kDoneRing = SSDVP_DRAM_BASE + 0x5000, kStaging = SSDVP_DRAM_BASE + 0x10000;
constexpr uint64_t kSq = 0x1000, kCq = 0x3000, kHostBuf = 0x10000, kMsi = 0xfee00000ull;

sc_time ps(uint64_t v) { return sc_time::from_value(v); }
uint64_t now() { return sc_core::sc_time_stamp().value(); }

// Host memory with a write log and an MSI window.
struct HostMem : sc_core::sc_module {
  tlm_utils::simple_target_socket<HostMem> tsock{"tsock"};
  std::vector<uint8_t> mem = std::vector<uint8_t>(1 << 20);
  struct Write {
    uint64_t addr, time;
    std::vector<uint8_t> data;
  };
  std::vector<Write> writes;
  struct Msi {
    uint64_t time;
    uint32_t vector;
    size_t after_writes;  // data writes logged before it
  };
  std::vector<Msi> msis;

  explicit HostMem(sc_core::sc_module_name n) : sc_module(n) {
    tsock.register_b_transport(this, &HostMem::b_transport);
  }
  void b_transport(tlm::tlm_generic_payload& tx, sc_time& delay) {
    const uint64_t a = tx.get_address(), len = tx.get_data_length();
    if (a >= kMsi && a < kMsi + 0x1000 && tx.is_write() && len == 4) {
      uint32_t v;
      std::memcpy(&v, tx.get_data_ptr(), 4);
      msis.push_back({now() + delay.value(), v, writes.size()});
      tx.set_response_status(tlm::TLM_OK_RESPONSE);
      return;
    }
    if (a > mem.size() || len > mem.size() - a) {
      tx.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
      return;
    }
    if (tx.is_read()) std::memcpy(tx.get_data_ptr(), &mem[a], len);
    if (tx.is_write()) {
      std::memcpy(&mem[a], tx.get_data_ptr(), len);
      writes.push_back({a, now() + delay.value(), std::vector<uint8_t>(tx.get_data_ptr(), tx.get_data_ptr() + len)});
    }
    tx.set_response_status(tlm::TLM_OK_RESPONSE);
  }
  // The log entries that wrote into [addr, addr + len).
  std::vector<Write> writes_to(uint64_t addr, uint64_t len) const {
    std::vector<Write> out;
    for (const Write& w : writes)
      if (w.addr < addr + len && addr < w.addr + w.data.size()) out.push_back(w);
    return out;
  }
};

// The test driver: firmware-side CPU and host-side doorbells, one thread;
// records every edge of the two interrupt lines with its time.
struct Driver : sc_core::sc_module {
  tlm_utils::simple_initiator_socket<Driver> cpu{"cpu"}, host{"host"};
  sc_core::sc_in<bool> irq_cmd{"irq_cmd"}, irq_done{"irq_done"};
  std::function<void()> body;
  bool done = false;
  std::vector<std::pair<uint64_t, bool>> cmd_edges, done_edges;

  SC_HAS_PROCESS(Driver);
  explicit Driver(sc_core::sc_module_name n) : sc_module(n) {
    SC_THREAD(run);
    SC_METHOD(on_cmd);
    sensitive << irq_cmd;
    dont_initialize();
    SC_METHOD(on_done);
    sensitive << irq_done;
    dont_initialize();
  }
  void on_cmd() { cmd_edges.emplace_back(now(), irq_cmd.read()); }
  void on_done() { done_edges.emplace_back(now(), irq_done.read()); }
  void run() {
    if (body) body();
    done = true;
    sc_core::sc_stop();
  }

  static tlm::tlm_response_status go(tlm_utils::simple_initiator_socket<Driver>& s, tlm::tlm_command c, uint64_t a,
                                     void* d, unsigned len, sc_time& delay) {
    tlm::tlm_generic_payload tx;
    tx.set_command(c);
    tx.set_address(a);
    tx.set_data_ptr(static_cast<unsigned char*>(d));
    tx.set_data_length(len);
    tx.set_streaming_width(len);
    tx.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
    s->b_transport(tx, delay);
    return tx.get_response_status();
  }
  // Register write from the CPU; returns when (and the time at which) it arrived.
  uint64_t reg_write(uint32_t off, uint32_t v) {
    sc_time d = SC_ZERO_TIME;
    EXPECT_EQ(go(cpu, tlm::TLM_WRITE_COMMAND, SSDVP_NVME_BASE + off, &v, 4, d), tlm::TLM_OK_RESPONSE) << off;
    wait(d);
    return now();
  }
  // Register read from the CPU with its time discarded: the value at now().
  uint32_t peek(uint32_t off) {
    uint32_t v = 0;
    sc_time d = SC_ZERO_TIME;
    EXPECT_EQ(go(cpu, tlm::TLM_READ_COMMAND, SSDVP_NVME_BASE + off, &v, 4, d), tlm::TLM_OK_RESPONSE) << off;
    return v;
  }
  // A host write to the doorbell BAR; returns its arrival time at the device.
  uint64_t doorbell(uint32_t off, uint32_t v, tlm::tlm_response_status* st = nullptr) {
    sc_time d = SC_ZERO_TIME;
    const auto s = go(host, tlm::TLM_WRITE_COMMAND, off, &v, 4, d);
    if (st) *st = s;
    wait(d);
    return now();
  }
  // Waits until absolute time t (ps), then lets the delta cycles of t settle.
  void until(uint64_t t) {
    if (t > now()) wait(ps(t - now()));
    for (int i = 0; i < 4; ++i) wait(SC_ZERO_TIME);
  }
};

struct Bench {
  explicit Bench(const std::string& extra = "") : cfg(with(extra)) {
    drv.cpu.bind(bus.tsock);
    nvme.dma.bind(bus.tsock);
    bus.attach("NVME", nvme.regs);
    bus.attach("DRAM", dram.tsock);
    drv.host.bind(nvme.host_regs);
    nvme.host_dma.bind(hmem.tsock);
    nvme.irq_cmd(irq_cmd);
    nvme.irq_done(irq_done);
    drv.irq_cmd(irq_cmd);
    drv.irq_done(irq_done);
  }
  static Config with(const std::string& extra) {
    Config c = Config::from_yaml_string(kConfig);
    if (!extra.empty()) c.merge(Config::from_yaml_string(extra));
    return c;
  }
  Config cfg;
  Driver drv{"drv"};
  Bus bus{"bus", cfg};
  Dram dram{"dram", cfg};
  NvmeCtrl nvme{"nvme", cfg};
  HostMem hmem{"hmem"};
  sc_core::sc_signal<bool> irq_cmd{"irq_cmd_sig"}, irq_done{"irq_done_sig"};
  uint32_t sq_tail = 0, xfer_tail = 0, depth = 0;
  uint32_t cmd_size = 0, xfer_size = 0, done_size = 0;

  uint8_t* dram_at(uint32_t bus_addr) { return dram.data() + (bus_addr - SSDVP_DRAM_BASE); }
  void rings(uint32_t cmd_n = 8, uint32_t xfer_n = 16, uint32_t done_n = 16) {
    drv.reg_write(NVME_CMD_BASE, kCmdRing);
    drv.reg_write(NVME_CMD_SIZE, cmd_n);
    drv.reg_write(NVME_XFER_BASE, kXferRing);
    drv.reg_write(NVME_XFER_SIZE, xfer_n);
    drv.reg_write(NVME_DONE_BASE, kDoneRing);
    drv.reg_write(NVME_DONE_SIZE, done_n);
    drv.reg_write(NVME_ENABLE, 1);
    cmd_size = cmd_n, xfer_size = xfer_n, done_size = done_n;
  }
  void queue(uint32_t d) {
    depth = d;
    ASSERT_TRUE(nvme.create_io_queue(1, kSq, kCq, d, kMsi));
  }
  // Puts an SQE in host SQ 1 (backdoor); the doorbell is separate.
  nvme_sqe put_sqe(uint16_t cid, uint8_t opcode = NVME_OP_READ) {
    nvme_sqe e{};
    e.cdw0 = opcode | (uint32_t(cid) << 16);
    e.nsid = 1;
    e.prp1 = kHostBuf;
    e.cdw10 = 100 + cid;
    e.cdw12 = 3;
    std::memcpy(&hmem.mem[kSq + sq_tail * sizeof(nvme_sqe)], &e, sizeof e);
    sq_tail = (sq_tail + 1) % depth;
    return e;
  }
  uint64_t ring_sq() { return drv.doorbell(NvmeCtrl::kDoorbellBase + 8, sq_tail); }
  // Puts a transfer descriptor in the XFER ring (backdoor); then xfer_doorbell().
  void put_xfer(uint8_t op, uint32_t tag, uint32_t dram, uint64_t host, uint32_t nlb, uint16_t cid = 0,
                uint16_t status = 0, uint16_t sqid = 1) {
    nvme_xfer xf{};
    xf.op = op, xf.sqid = sqid, xf.cid = cid, xf.status = status, xf.tag = tag, xf.dram = dram, xf.host = host,
    xf.nlb = nlb;
    std::memcpy(dram_at(kXferRing + xfer_tail * sizeof(nvme_xfer)), &xf, sizeof xf);
    xfer_tail = (xfer_tail + 1) % xfer_size;
  }
  uint64_t xfer_doorbell() { return drv.reg_write(NVME_XFER_TAIL, xfer_tail); }
  nvme_done done_entry(uint32_t i) {
    nvme_done d;
    std::memcpy(&d, dram_at(kDoneRing + i * sizeof(nvme_done)), sizeof d);
    return d;
  }
  nvme_cmd_entry cmd_entry(uint32_t i) {
    nvme_cmd_entry e;
    std::memcpy(&e, dram_at(kCmdRing + i * sizeof(nvme_cmd_entry)), sizeof e);
    return e;
  }
  nvme_cqe cqe(uint32_t i) {
    nvme_cqe c;
    std::memcpy(&c, &hmem.mem[kCq + i * sizeof(nvme_cqe)], sizeof c);
    return c;
  }
  void run(std::function<void()> body) {
    drv.body = std::move(body);
    sc_core::sc_start(sc_time(1, sc_core::SC_SEC));
    EXPECT_TRUE(drv.done);
  }
};

}  // namespace

// ---- command fetch -----------------------------------------------------------

TEST(NvmeCtrl, CommandAppearsInCmdRingAfterHandComputedFetchTime) {
  Bench b;
  b.queue(8);
  b.run([&] {
    b.rings();
    const nvme_sqe e = b.put_sqe(0x42, NVME_OP_WRITE);
    const uint64_t t0 = now();
    const uint64_t arrive = b.ring_sq();
    EXPECT_EQ(arrive, t0 + L);  // the doorbell crosses the link
    // read request up (L), 64 B back (x(64) + L), parse (fetch)
    const uint64_t visible = t0 + L + L + x(64) + L + kFetch;
    b.drv.until(visible - 1);
    EXPECT_EQ(b.drv.peek(NVME_CMD_TAIL), 0u);
    EXPECT_FALSE(b.irq_cmd.read());
    b.drv.until(visible);
    EXPECT_EQ(b.drv.peek(NVME_CMD_TAIL), 1u);
    EXPECT_TRUE(b.irq_cmd.read());
    ASSERT_EQ(b.drv.cmd_edges.size(), 1u);
    EXPECT_EQ(b.drv.cmd_edges[0], std::make_pair(visible, true));
    const nvme_cmd_entry c = b.cmd_entry(0);
    EXPECT_EQ(std::memcmp(&c.sqe, &e, sizeof e), 0);
    EXPECT_EQ(c.sqid, 1u);
    EXPECT_EQ(b.nvme.stats().commands_fetched, 1u);
  });
}

TEST(NvmeCtrl, IrqCmdFollowsTheRingLevel) {
  Bench b;
  b.queue(8);
  b.run([&] {
    b.rings();
    for (uint16_t i = 0; i < 3; ++i) b.put_sqe(i);
    const uint64_t t0 = now();
    b.ring_sq();
    // Three reads of 64 B share the downstream link: the k-th lands at 2L + k x(64) after the doorbell.
    for (uint64_t k = 1; k <= 3; ++k) {
      const uint64_t vis = t0 + L + 2 * L + k * x(64) + kFetch;
      b.drv.until(vis - 1);
      EXPECT_EQ(b.drv.peek(NVME_CMD_TAIL), k - 1) << k;
      b.drv.until(vis);
      EXPECT_EQ(b.drv.peek(NVME_CMD_TAIL), k) << k;
    }
    EXPECT_TRUE(b.irq_cmd.read());
    b.drv.reg_write(NVME_CMD_HEAD, 1);  // consumed one: still pending
    b.drv.until(now());
    EXPECT_TRUE(b.irq_cmd.read());
    const uint64_t fall = b.drv.reg_write(NVME_CMD_HEAD, 3);
    b.drv.until(now());
    EXPECT_FALSE(b.irq_cmd.read());
    ASSERT_EQ(b.drv.cmd_edges.size(), 2u);
    EXPECT_EQ(b.drv.cmd_edges[0], std::make_pair(t0 + 3 * L + x(64) + kFetch, true));
    EXPECT_EQ(b.drv.cmd_edges[1], std::make_pair(fall, false));
    for (uint16_t i = 0; i < 3; ++i) EXPECT_EQ(b.cmd_entry(i).sqe.cdw0 >> 16, i);
  });
}

TEST(NvmeCtrl, FullCmdRingHoldsFetchUntilFirmwareConsumes) {
  Bench b;
  b.queue(8);
  b.run([&] {
    b.rings(4);  // holds 3
    for (uint16_t i = 0; i < 5; ++i) b.put_sqe(i);
    b.ring_sq();
    b.drv.until(now() + 10 * L);
    EXPECT_EQ(b.nvme.stats().commands_fetched, 3u);
    EXPECT_EQ(b.drv.peek(NVME_CMD_TAIL), 3u);
    const uint64_t at = b.drv.reg_write(NVME_CMD_HEAD, 3);  // frees 3 entries: the last 2 are fetched
    const uint64_t last = at + 2 * L + 2 * x(64) + kFetch;
    b.drv.until(last - 1);
    EXPECT_EQ(b.drv.peek(NVME_CMD_TAIL), 0u);
    b.drv.until(last);
    EXPECT_EQ(b.drv.peek(NVME_CMD_TAIL), 1u);
    EXPECT_EQ(b.nvme.stats().commands_fetched, 5u);
    EXPECT_EQ(b.cmd_entry(3).sqe.cdw0 >> 16, 3u);
    EXPECT_EQ(b.cmd_entry(0).sqe.cdw0 >> 16, 4u);
    EXPECT_EQ(b.drv.peek(NVME_ERRORS), 0u);
  });
}

TEST(NvmeCtrl, NoFetchWhileEnableIsClear) {
  Bench b;
  b.queue(8);
  b.run([&] {
    b.drv.reg_write(NVME_CMD_BASE, kCmdRing);
    b.drv.reg_write(NVME_CMD_SIZE, 8);
    b.put_sqe(1);
    b.ring_sq();
    b.drv.until(now() + 10 * L);
    EXPECT_EQ(b.nvme.stats().commands_fetched, 0u);
    EXPECT_EQ(b.drv.peek(NVME_CMD_TAIL), 0u);
    const uint64_t at = b.drv.reg_write(NVME_ENABLE, 1);
    b.drv.until(at + 2 * L + x(64) + kFetch);
    EXPECT_EQ(b.drv.peek(NVME_CMD_TAIL), 1u);
  });
}

// ---- transfers -------------------------------------------------------------

TEST(NvmeCtrl, XferH2DCopiesTokensAndPostsDoneAtLinkTime) {
  Bench b;
  b.run([&] {
    b.rings();
    const uint32_t tok[2] = {0xa1a1a1a1, 0xb2b2b2b2};
    std::memcpy(&b.hmem.mem[kHostBuf], tok, sizeof tok);
    b.put_xfer(XFER_H2D, 0xbeef, kStaging, kHostBuf, 2);
    const uint64_t at = b.xfer_doorbell();
    EXPECT_EQ(b.drv.peek(NVME_XFER_HEAD), 1u);
    // read request up (L), 2 LBAs modelled as 8 KiB down (x + L)
    const uint64_t done = at + L + x(2 * kLba) + L;
    b.drv.until(done - 1);
    EXPECT_EQ(b.drv.peek(NVME_DONE_TAIL), 0u);
    EXPECT_FALSE(b.irq_done.read());
    b.drv.until(done);
    EXPECT_EQ(b.drv.peek(NVME_DONE_TAIL), 1u);
    EXPECT_TRUE(b.irq_done.read());
    EXPECT_EQ(b.done_entry(0).tag, 0xbeefu);
    EXPECT_EQ(b.done_entry(0).status, 0u);
    EXPECT_EQ(std::memcmp(b.dram_at(kStaging), tok, sizeof tok), 0);
    EXPECT_EQ(b.nvme.stats().bytes_h2d, 2 * kLba);
    const uint64_t fall = b.drv.reg_write(NVME_DONE_HEAD, 1);
    b.drv.until(now());
    EXPECT_FALSE(b.irq_done.read());
    ASSERT_EQ(b.drv.done_edges.size(), 2u);
    EXPECT_EQ(b.drv.done_edges[0], std::make_pair(done, true));
    EXPECT_EQ(b.drv.done_edges[1], std::make_pair(fall, false));
  });
}

TEST(NvmeCtrl, XferH2DRawMovesAByteCount) {
  Bench b;
  b.run([&] {
    b.rings();
    nvme_dsm_range r[2] = {{0, 8, 100}, {0, 1, 7}};
    std::memcpy(&b.hmem.mem[kHostBuf], r, sizeof r);
    b.put_xfer(XFER_H2D_RAW, 3, kStaging, kHostBuf, sizeof r);
    const uint64_t at = b.xfer_doorbell();
    const uint64_t done = at + L + x(sizeof r) + L;
    b.drv.until(done - 1);
    EXPECT_EQ(b.drv.peek(NVME_DONE_TAIL), 0u);
    b.drv.until(done);
    EXPECT_EQ(b.drv.peek(NVME_DONE_TAIL), 1u);
    EXPECT_EQ(std::memcmp(b.dram_at(kStaging), r, sizeof r), 0);
    EXPECT_EQ(b.nvme.stats().bytes_h2d, sizeof r);
  });
}

TEST(NvmeCtrl, XferD2HCopiesTokensToHostAndPostsDoneAtLinkTime) {
  Bench b;
  b.run([&] {
    b.rings();
    const uint32_t tok[3] = {1, 2, 3};
    std::memcpy(b.dram_at(kStaging), tok, sizeof tok);
    b.put_xfer(XFER_D2H, 0x77, kStaging, kHostBuf, 3);
    b.put_xfer(XFER_D2H, 0x78, kStaging, kHostBuf + 0x100, 1);
    const uint64_t at = b.xfer_doorbell();
    // posted writes: 3 LBAs then 1 LBA on the upstream link, each + L
    const uint64_t d1 = at + x(3 * kLba) + L, d2 = at + x(4 * kLba) + L;
    b.drv.until(d1 - 1);
    EXPECT_EQ(b.drv.peek(NVME_DONE_TAIL), 0u);
    b.drv.until(d1);
    EXPECT_EQ(b.drv.peek(NVME_DONE_TAIL), 1u);
    b.drv.until(d2 - 1);
    EXPECT_EQ(b.drv.peek(NVME_DONE_TAIL), 1u);
    b.drv.until(d2);
    EXPECT_EQ(b.drv.peek(NVME_DONE_TAIL), 2u);
    EXPECT_EQ(b.done_entry(0).tag, 0x77u);
    EXPECT_EQ(b.done_entry(1).tag, 0x78u);
    EXPECT_EQ(std::memcmp(&b.hmem.mem[kHostBuf], tok, sizeof tok), 0);
    EXPECT_EQ(std::memcmp(&b.hmem.mem[kHostBuf + 0x100], tok, 4), 0);
    EXPECT_EQ(b.nvme.stats().bytes_d2h, 4 * kLba);
  });
}

TEST(NvmeCtrl, TransferToUnmappedAddressCompletesWithDataTransferError) {
  Bench b;
  b.run([&] {
    b.rings();
    b.put_xfer(XFER_H2D, 1, kStaging, 0x40000000ull, 1);                      // host address beyond host memory
    b.put_xfer(XFER_D2H, 2, 0x10000000u, kHostBuf, 1);                        // not DRAM
    b.put_xfer(XFER_H2D, 3, SSDVP_DRAM_BASE + (16u << 20) - 2, kHostBuf, 1);  // runs past the DRAM model
    b.xfer_doorbell();
    b.drv.until(now() + 10 * L + x(3 * kLba));
    ASSERT_EQ(b.drv.peek(NVME_DONE_TAIL), 3u);
    uint32_t tags = 0;  // DONE entries come in completion-time order, not submission order
    for (uint32_t i = 0; i < 3; ++i) {
      tags |= 1u << b.done_entry(i).tag;
      EXPECT_EQ(b.done_entry(i).status, uint32_t(NVME_SC_DATA_XFER_ERROR)) << i;
    }
    EXPECT_EQ(tags, 0b1110u);
    EXPECT_EQ(b.drv.peek(NVME_ERRORS), 0u);  // a transfer error is not a ring error
  });
}

// ---- completions -----------------------------------------------------------

TEST(NvmeCtrl, XferCompleteWritesCqeWithPhaseCidSqHeadStatusThenMsi) {
  Bench b;
  b.queue(4);
  b.run([&] {
    b.rings();
    b.put_sqe(5);
    b.put_sqe(6);
    b.ring_sq();
    b.drv.until(now() + 4 * L);  // both fetched: SQ head 2
    b.put_xfer(XFER_COMPLETE, 0, 0, 0, 0, /*cid*/ 0x1234, NVME_SC_LBA_OUT_OF_RANGE);
    b.put_xfer(XFER_COMPLETE, 0, 0, 0, 0, /*cid*/ 6, NVME_SC_SUCCESS);
    const uint64_t at = b.xfer_doorbell();
    // build (completion) then 16 B upstream + L; the second queues behind the first on the link
    const uint64_t c1 = at + kCqe + x(16) + L, c2 = at + kCqe + 2 * x(16) + L;
    b.drv.until(c2);
    const auto w0 = b.hmem.writes_to(kCq, sizeof(nvme_cqe));
    const auto w1 = b.hmem.writes_to(kCq + sizeof(nvme_cqe), sizeof(nvme_cqe));
    ASSERT_EQ(w0.size(), 1u);
    ASSERT_EQ(w1.size(), 1u);
    EXPECT_EQ(w0[0].time, c1);
    EXPECT_EQ(w1[0].time, c2);
    const nvme_cqe e0 = b.cqe(0), e1 = b.cqe(1);
    EXPECT_EQ(e0.cid, 0x1234u);
    EXPECT_EQ(e0.sq_id, 1u);
    EXPECT_EQ(e0.sq_head, 2u);
    EXPECT_EQ(e0.status, (NVME_SC_LBA_OUT_OF_RANGE << 1) | 1);
    EXPECT_EQ(e1.cid, 6u);
    EXPECT_EQ(e1.status, 1u);  // success, phase 1
    // one MSI per completion, after its entry, carrying the queue's vector
    ASSERT_EQ(b.hmem.msis.size(), 2u);
    EXPECT_EQ(b.hmem.msis[0].time, c1);
    EXPECT_EQ(b.hmem.msis[0].vector, 1u);
    EXPECT_EQ(b.hmem.msis[0].after_writes, 1u);
    EXPECT_EQ(b.hmem.msis[1].time, c2);
    EXPECT_EQ(b.hmem.msis[1].after_writes, 2u);
    EXPECT_EQ(b.nvme.stats().completions, 2u);
    EXPECT_EQ(b.nvme.stats().error_completions, 1u);
    EXPECT_EQ(b.drv.peek(NVME_DONE_TAIL), 0u);  // XFER_COMPLETE posts no DONE entry
  });
}

TEST(NvmeCtrl, FullCqHoldsCompletionsUntilHostAdvancesHead) {
  Bench b;
  b.queue(4);  // a CQ of 4 entries holds 3
  b.run([&] {
    b.rings();
    for (uint16_t cid = 0; cid < 4; ++cid) b.put_xfer(XFER_COMPLETE, 0, 0, 0, 0, cid);
    const uint64_t at = b.xfer_doorbell();
    b.drv.until(at + kCqe + 4 * x(16) + L + 1000 * kNs);
    EXPECT_EQ(b.nvme.stats().completions, 3u);
    EXPECT_EQ(b.hmem.msis.size(), 3u);
    for (uint32_t i = 0; i < 3; ++i) {
      EXPECT_EQ(b.cqe(i).cid, i);
      EXPECT_EQ(b.cqe(i).status & 1, 1) << i;
    }
    EXPECT_TRUE(b.hmem.writes_to(kCq + 3 * sizeof(nvme_cqe), sizeof(nvme_cqe)).empty());
    // The host consumes two entries: the held completion goes to entry 3 (phase 1).
    const uint64_t arrive = b.drv.doorbell(NvmeCtrl::kDoorbellBase + 12, 2);
    b.drv.until(arrive + kCqe + x(16) + L);
    EXPECT_EQ(b.nvme.stats().completions, 4u);
    const auto w3 = b.hmem.writes_to(kCq + 3 * sizeof(nvme_cqe), sizeof(nvme_cqe));
    ASSERT_EQ(w3.size(), 1u);
    EXPECT_EQ(b.cqe(3).cid, 3u);
    EXPECT_EQ(b.cqe(3).status & 1, 1);
    // The host consumes entries 2 and 3; the next two completions wrap to entries 0 and 1 with phase 0.
    b.drv.doorbell(NvmeCtrl::kDoorbellBase + 12, 0);
    for (uint16_t cid = 4; cid < 6; ++cid) b.put_xfer(XFER_COMPLETE, 0, 0, 0, 0, cid);
    b.xfer_doorbell();
    b.drv.until(now() + kCqe + 2 * x(16) + L);
    EXPECT_EQ(b.cqe(0).cid, 4u);
    EXPECT_EQ(b.cqe(0).status & 1, 0);
    EXPECT_EQ(b.cqe(1).cid, 5u);
    EXPECT_EQ(b.cqe(1).status & 1, 0);
    EXPECT_EQ(b.nvme.stats().completions, 6u);
    EXPECT_EQ(b.hmem.msis.size(), 6u);
    EXPECT_EQ(b.nvme.stats().invalid_doorbells, 0u);
  });
}

TEST(NvmeCtrl, HeldCompletionIsTimedFromTheHeadDoorbell) {
  Bench b;
  b.queue(2);  // holds 1
  b.run([&] {
    b.rings();
    b.put_xfer(XFER_COMPLETE, 0, 0, 0, 0, 1);
    b.put_xfer(XFER_COMPLETE, 0, 0, 0, 0, 2);
    b.xfer_doorbell();
    b.drv.until(now() + 2 * L);
    ASSERT_EQ(b.nvme.stats().completions, 1u);
    const uint64_t arrive = b.drv.doorbell(NvmeCtrl::kDoorbellBase + 12, 1);
    b.drv.until(arrive + kCqe + x(16) + L);
    const auto w = b.hmem.writes_to(kCq + sizeof(nvme_cqe), sizeof(nvme_cqe));
    ASSERT_EQ(w.size(), 1u);
    EXPECT_EQ(w[0].time, arrive + kCqe + x(16) + L);
    ASSERT_EQ(b.hmem.msis.size(), 2u);
    EXPECT_EQ(b.hmem.msis[1].time, arrive + kCqe + x(16) + L);
  });
}

// ---- guest mistakes --------------------------------------------------------

TEST(NvmeCtrl, DoorbellOnUnknownQueueIsIgnoredAndCounted) {
  Bench b;
  b.queue(4);
  b.run([&] {
    b.rings();
    b.put_sqe(1);
    tlm::tlm_response_status st;
    b.drv.doorbell(NvmeCtrl::kDoorbellBase + 8 * 2, 1, &st);  // queue 2 was never created
    EXPECT_EQ(st, tlm::TLM_OK_RESPONSE);                      // NVMe: ignored, not a bus error
    b.drv.doorbell(NvmeCtrl::kDoorbellBase + 0, 1);           // admin queue (not modelled)
    b.drv.doorbell(NvmeCtrl::kDoorbellBase + 8 * 65, 1);      // beyond kMaxQueues
    b.drv.doorbell(NvmeCtrl::kDoorbellBase + 8, 4);           // SQ tail == depth
    b.drv.doorbell(NvmeCtrl::kDoorbellBase + 12, 9);          // CQ head beyond depth
    EXPECT_EQ(b.nvme.stats().invalid_doorbells, 5u);
    // not a doorbell at all: bus errors, also counted
    b.drv.doorbell(0x10, 1, &st);
    EXPECT_EQ(st, tlm::TLM_ADDRESS_ERROR_RESPONSE);
    b.drv.doorbell(NvmeCtrl::kDoorbellBase + 2, 1, &st);
    EXPECT_EQ(st, tlm::TLM_ADDRESS_ERROR_RESPONSE);
    uint32_t v = 0;
    sc_time d = SC_ZERO_TIME;
    EXPECT_EQ(Driver::go(b.drv.host, tlm::TLM_READ_COMMAND, NvmeCtrl::kDoorbellBase + 8, &v, 4, d),
              tlm::TLM_ADDRESS_ERROR_RESPONSE);
    EXPECT_EQ(b.nvme.stats().invalid_doorbells, 8u);
    b.drv.until(now() + 10 * L);
    EXPECT_EQ(b.nvme.stats().commands_fetched, 0u);
    EXPECT_TRUE(b.drv.cmd_edges.empty());
    EXPECT_EQ(b.drv.peek(NVME_ERRORS), 0u);  // host mistakes are not ring errors
    // The device still works.
    b.ring_sq();
    b.drv.until(now() + 3 * L);
    EXPECT_EQ(b.nvme.stats().commands_fetched, 1u);
    EXPECT_EQ(b.drv.peek(NVME_CMD_TAIL), 1u);
  });
}

TEST(NvmeCtrl, CreateIoQueueRejectsBadArguments) {
  Bench b;
  EXPECT_FALSE(b.nvme.create_io_queue(0, kSq, kCq, 4, kMsi));
  EXPECT_FALSE(b.nvme.create_io_queue(NvmeCtrl::kMaxQueues + 1, kSq, kCq, 4, kMsi));
  EXPECT_FALSE(b.nvme.create_io_queue(1, kSq, kCq, 1, kMsi));
  EXPECT_FALSE(b.nvme.create_io_queue(1, kSq, kCq, 65537, kMsi));
  EXPECT_TRUE(b.nvme.create_io_queue(1, kSq, kCq, 2, kMsi));
  EXPECT_FALSE(b.nvme.create_io_queue(1, kSq, kCq, 2, kMsi));  // already live
  EXPECT_TRUE(b.nvme.create_io_queue(NvmeCtrl::kMaxQueues, kSq, kCq, 65536, kMsi));
}

TEST(NvmeCtrl, BadRingProgrammingIsCountedInErrors) {
  Bench b;
  b.queue(4);
  b.run([&] {
    b.drv.reg_write(NVME_CMD_BASE, kCmdRing);
    b.drv.reg_write(NVME_CMD_SIZE, 3);  // not a power of two
    EXPECT_EQ(b.drv.peek(NVME_ERRORS), 1u);
    b.drv.reg_write(NVME_CMD_SIZE, 1);  // too small to hold anything
    EXPECT_EQ(b.drv.peek(NVME_ERRORS), 2u);
    b.drv.reg_write(NVME_XFER_BASE, SSDVP_INTC_BASE);  // not DRAM (size still 0: no check yet)
    EXPECT_EQ(b.drv.peek(NVME_ERRORS), 2u);
    b.drv.reg_write(NVME_XFER_SIZE, 16);
    EXPECT_EQ(b.drv.peek(NVME_ERRORS), 3u);
    b.drv.reg_write(NVME_DONE_BASE, SSDVP_DRAM_BASE + (16u << 20) - 64);  // runs past the 16 MiB DRAM model
    b.drv.reg_write(NVME_DONE_SIZE, 16);
    EXPECT_EQ(b.drv.peek(NVME_ERRORS), 4u);
    b.drv.reg_write(NVME_DONE_BASE, kDoneRing + 2);  // unaligned
    EXPECT_EQ(b.drv.peek(NVME_ERRORS), 5u);
    b.drv.reg_write(NVME_ENABLE, 1);
    // Indices on disabled rings are counted and ignored.
    b.drv.reg_write(NVME_XFER_TAIL, 1);
    b.drv.reg_write(NVME_CMD_HEAD, 1);
    b.drv.reg_write(NVME_DONE_HEAD, 1);
    EXPECT_EQ(b.drv.peek(NVME_ERRORS), 8u);
    EXPECT_EQ(b.nvme.stats().ring_errors, 8u);
    // Commands are not fetched into a disabled ring.
    b.put_sqe(1);
    b.ring_sq();
    b.drv.until(now() + 10 * L);
    EXPECT_EQ(b.nvme.stats().commands_fetched, 0u);
    EXPECT_TRUE(b.drv.cmd_edges.empty());
    // Reprogrammed correctly (SIZE = 0 first, so that BASE is not checked against the old SIZE),
    // everything works; an index beyond SIZE is still an error.
    b.drv.reg_write(NVME_CMD_SIZE, 0);
    b.rings(8, 16, 16);
    b.drv.until(now() + 4 * L);
    EXPECT_EQ(b.nvme.stats().commands_fetched, 1u);
    EXPECT_EQ(b.drv.peek(NVME_CMD_TAIL), 1u);
    b.drv.reg_write(NVME_XFER_TAIL, 16);
    b.drv.reg_write(NVME_CMD_HEAD, 8);
    b.drv.reg_write(NVME_DONE_HEAD, 100);
    EXPECT_EQ(b.drv.peek(NVME_ERRORS), 11u);
    EXPECT_EQ(b.drv.peek(NVME_XFER_HEAD), 0u);
  });
}

TEST(NvmeCtrl, RegisterAccessMistakesGetTlmErrors) {
  Bench b;
  b.run([&] {
    uint32_t v = 5;
    sc_time d = SC_ZERO_TIME;
    EXPECT_EQ(Driver::go(b.drv.cpu, tlm::TLM_WRITE_COMMAND, SSDVP_NVME_BASE + NVME_CMD_TAIL, &v, 4, d),
              tlm::TLM_COMMAND_ERROR_RESPONSE);  // read-only
    EXPECT_EQ(Driver::go(b.drv.cpu, tlm::TLM_READ_COMMAND, SSDVP_NVME_BASE + 0x200, &v, 4, d),
              tlm::TLM_ADDRESS_ERROR_RESPONSE);  // unmapped offset
    uint16_t h = 0;
    EXPECT_NE(Driver::go(b.drv.cpu, tlm::TLM_READ_COMMAND, SSDVP_NVME_BASE + NVME_CMD_TAIL, &h, 2, d),
              tlm::TLM_OK_RESPONSE);  // wrong size
    EXPECT_EQ(b.drv.peek(NVME_CMD_TAIL), 0u);
  });
}

TEST(NvmeCtrl, UnknownTransferOpCompletesWithErrorAndIsCounted) {
  Bench b;
  b.queue(4);
  b.run([&] {
    b.rings();
    b.put_xfer(0, 0x10, kStaging, kHostBuf, 1);
    b.put_xfer(9, 0x11, kStaging, kHostBuf, 1);
    b.put_xfer(XFER_COMPLETE, 0, 0, 0, 0, 1, 0, /*sqid*/ 7);  // queue 7 does not exist: counted, nothing posted
    const uint64_t at = b.xfer_doorbell();
    b.drv.until(at);
    EXPECT_EQ(b.drv.peek(NVME_DONE_TAIL), 2u);  // completes at once
    EXPECT_EQ(b.done_entry(0).tag, 0x10u);
    EXPECT_EQ(b.done_entry(0).status, uint32_t(NVME_SC_DATA_XFER_ERROR));
    EXPECT_EQ(b.done_entry(1).tag, 0x11u);
    EXPECT_EQ(b.done_entry(1).status, uint32_t(NVME_SC_DATA_XFER_ERROR));
    EXPECT_EQ(b.drv.peek(NVME_ERRORS), 3u);
    EXPECT_EQ(b.drv.peek(NVME_XFER_HEAD), 3u);
    b.drv.until(now() + 4 * L);
    EXPECT_EQ(b.nvme.stats().completions, 0u);
    EXPECT_TRUE(b.hmem.msis.empty());
    EXPECT_TRUE(b.hmem.writes.empty());
  });
}

TEST(NvmeCtrl, DebugReadsOfStatusRegistersReturnLiveValues) {
  Bench b;
  b.queue(4);
  b.run([&] {
    b.rings();
    b.put_sqe(1);
    b.ring_sq();
    b.drv.reg_write(NVME_CMD_SIZE, 3);  // one ring error (and the CMD ring is now disabled)
    b.drv.until(now() + 4 * L);
    auto dbg = [&](uint32_t off) {
      uint32_t v = 0xdead;
      tlm::tlm_generic_payload tx;
      tx.set_command(tlm::TLM_READ_COMMAND);
      tx.set_address(SSDVP_NVME_BASE + off);
      tx.set_data_ptr(reinterpret_cast<unsigned char*>(&v));
      tx.set_data_length(4);
      tx.set_streaming_width(4);
      EXPECT_EQ(b.drv.cpu->transport_dbg(tx), 4u);
      return v;
    };
    EXPECT_EQ(dbg(NVME_ERRORS), b.drv.peek(NVME_ERRORS));
    EXPECT_EQ(dbg(NVME_ERRORS), 1u);
  });
}
