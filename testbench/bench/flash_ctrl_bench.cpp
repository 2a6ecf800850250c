// flash_ctrl_bench.cpp - the flash controller's timed path and the register
// path every firmware MMIO access takes.
//
//   BM_FlashCtrl_Reads      items = timed flash reads: descriptors fetched from
//                           the SQ in DRAM, executed on NandDie, timed by the
//                           die/channel calendar (FlashCtrl::reserve), completed
//                           by the SC_METHOD into the CQ. 32 reads (one per die
//                           of the bench32g geometry) per doorbell.
//   BM_Bus_Read32/fresh     one 32-bit register read through the Bus into the
//                           FlashCtrl register bank with a payload constructed
//                           per access (exactly what CpuNative::access does)
//   BM_Bus_Read32/reused    the same with one reused payload
//   BM_Bus_Read32/direct    the same read on the direct register path (the
//                           bus's window for FLASH, common/register_path.h:
//                           what CpuNative::access does by default)
#include <benchmark/benchmark.h>

#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>

#include <cstdint>
#include <cstring>
#include <random>

#include "bench_fixtures.h"
#include "common/config.h"
#include "dram/dram.h"
#include "flash/flash_ctrl.h"
#include "interconnect/bus.h"
#include "ssdvp_hw.h"

namespace ssdvp::bench {
namespace {

// configs/bench32g.yaml's flash geometry and timing.
const char* kConfig = R"(
flash:
  channels: 8
  dies_per_channel: 4
  blocks_per_plane: 1024
  pages_per_block: 256
  page_size: 4KiB
dram: {size: 16MiB}
log: {level: error}
)";

constexpr uint32_t kDies = 32, kBlocks = 1024, kPpb = 256;
constexpr uint32_t kSqN = 64, kCqN = 64;
constexpr uint32_t kSq = SSDVP_DRAM_BASE + 0x1000, kCq = SSDVP_DRAM_BASE + 0x2000, kBuf = SSDVP_DRAM_BASE + 0x10000;

struct Cpu : sc_core::sc_module {
  tlm_utils::simple_initiator_socket<Cpu> isock;
  sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
  tlm::tlm_generic_payload reused;
  explicit Cpu(sc_core::sc_module_name n) : sc_module(n), isock("isock") {}
  uint32_t access(bool write, uint32_t addr, uint32_t v, bool fresh) {
    auto go = [&](tlm::tlm_generic_payload& tx) {
      tx.set_command(write ? tlm::TLM_WRITE_COMMAND : tlm::TLM_READ_COMMAND);
      tx.set_address(addr);
      tx.set_data_ptr(reinterpret_cast<unsigned char*>(&v));
      tx.set_data_length(4);
      tx.set_streaming_width(4);
      tx.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
      isock->b_transport(tx, delay);
    };
    if (fresh) {
      tlm::tlm_generic_payload tx;
      go(tx);
    } else {
      go(reused);
    }
    return v;
  }
  uint32_t rd(uint32_t off) { return access(false, SSDVP_FLASH_BASE + off, 0, false); }
  void wr(uint32_t off, uint32_t v) { access(true, SSDVP_FLASH_BASE + off, v, false); }
};

struct FlashFixture {
  Config cfg = Config::from_yaml_string(kConfig);
  Cpu cpu{"fb_cpu"};
  Bus bus{"fb_bus", cfg};
  Dram dram{"fb_dram", cfg};
  FlashCtrl fc{"fb_flash", cfg};
  sc_core::sc_signal<bool> irq{"fb_irq"};
  uint32_t sq_tail = 0, cq_head = 0;
  bool rings = false;
  FlashFixture() {
    cpu.isock.bind(bus.tsock);
    fc.dma.bind(bus.tsock);
    bus.attach("FLASH", fc);  // a register block: TLM and the direct path
    bus.attach("DRAM", dram.tsock);
    fc.irq.bind(irq);
  }
  uint8_t* at(uint32_t a) { return dram.data() + (a - SSDVP_DRAM_BASE); }
};

FlashFixture* g_fx = nullptr;

void BM_FlashCtrl_Reads(benchmark::State& state) {
  FlashFixture& x = *g_fx;
  if (!x.rings) {
    x.cpu.wr(FLASH_SQ_BASE, kSq);
    x.cpu.wr(FLASH_SQ_SIZE, kSqN);
    x.cpu.wr(FLASH_CQ_BASE, kCq);
    x.cpu.wr(FLASH_CQ_SIZE, kCqN);
    x.rings = true;
  }
  std::mt19937 rng(1);
  uint64_t ops = 0;
  for (auto _ : state) {
    for (uint32_t d = 0; d < kDies; ++d) {
      fc_sqe e{};
      e.op = FC_OP_READ;
      e.tag = d;
      e.row = (d * kBlocks + rng() % kBlocks) * kPpb + rng() % kPpb;
      e.slot_mask = 1;
      e.buf = kBuf + d * 0x100;
      std::memcpy(x.at(kSq + x.sq_tail * sizeof(fc_sqe)), &e, sizeof e);
      x.sq_tail = (x.sq_tail + 1) % kSqN;
    }
    x.cpu.delay = sc_core::SC_ZERO_TIME;
    x.cpu.wr(FLASH_SQ_TAIL, x.sq_tail);  // fetch, execute, calendar
    sc_core::sc_start();                 // completion method posts the CQEs
    const uint32_t tail = x.cpu.rd(FLASH_CQ_TAIL);
    const uint32_t n = (tail + kCqN - x.cq_head) % kCqN;
    if (n != kDies) {
      state.SkipWithError("flash bench: completions missing");
      break;
    }
    x.cq_head = tail;
    x.cpu.wr(FLASH_CQ_HEAD, x.cq_head);
    ops += n;
  }
  state.SetItemsProcessed(int64_t(ops));
  state.counters["violations"] = double(x.fc.violations());
}
BENCHMARK(BM_FlashCtrl_Reads);

// Arg: 0 payload reused, 1 payload constructed per access, 2 the direct register path.
void BM_Bus_Read32(benchmark::State& state) {
  const int64_t mode = state.range(0);
  const uint32_t addr = SSDVP_FLASH_BASE + FLASH_SQ_HEAD;
  if (mode == 2) {
    RegisterWindow w;
    if (!g_fx->bus.register_window(addr, &w)) {
      state.SkipWithError("no register window for FLASH");
      return;
    }
    for (auto _ : state) {
      uint32_t v = 0;
      uint64_t delay = g_fx->cpu.delay.value() + w.latency_ps;
      ++*w.accesses;
      benchmark::DoNotOptimize(w.target->direct_access(false, static_cast<uint32_t>(addr - w.base), &v, &delay));
      benchmark::DoNotOptimize(v);
    }
  } else {
    for (auto _ : state) benchmark::DoNotOptimize(g_fx->cpu.access(false, addr, 0, mode == 1));
  }
  state.SetItemsProcessed(int64_t(state.iterations()));
  state.SetLabel(mode == 2   ? "direct register path (as CpuNative)"
                 : mode == 1 ? "payload constructed per access"
                             : "payload reused");
}
BENCHMARK(BM_Bus_Read32)->ArgName("mode")->Arg(1)->Arg(0)->Arg(2);

}  // namespace

void elaborate_flash_fixture() { g_fx = new FlashFixture(); }

}  // namespace ssdvp::bench
