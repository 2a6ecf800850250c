// fuzz_accel_regs.cpp - libFuzzer harness: the K-Means accelerator's register
// programming (accel/tlm/kmeans_accel, TLM core).
//
// One SystemC elaboration for the whole run: the accelerator, its interrupt
// line and 64 KiB of DRAM at the start of the DRAM region (points the DMA
// can read; any other DRAM address answers with a bus error). Each input is a
// list of 6-byte steps: byte 0 bits 1:0 the action (0 register write, 1
// register read, 2 a word of DRAM poked, 3 nothing), bits 4:2 a wait after
// it (0: none, k: 10^(k-1) ns of simulated time); byte 1 the register
// (offset byte1 & 0x3f times 4, including holes and read-only registers) or
// the DRAM word; bytes 2-5 the value. After the last step the harness waits
// for a running job, clears DONE/ERROR and zeroes the registers, so inputs
// do not depend on each other.
//
// Properties: nothing crashes or hangs; STATUS is never BUSY and DONE at
// once; once settled, the interrupt line is IRQ_EN && (DONE || ERROR); a job
// ends within its bound.
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <vector>

#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>

#include "common/tlm_access.h"
#include "ssdvp_hw.h"
#include "tlm/kmeans_accel.h"

using namespace ssdvp;

namespace {

constexpr uint32_t kMemBytes = 64 * 1024;

void check(bool ok, const char* what, uint32_t arg = 0) {
  if (!ok) {
    std::fprintf(stderr, "fuzz_accel_regs: property broken: %s (0x%x)\n", what, arg);
    std::abort();
  }
}

struct Bench : sc_core::sc_module {
  tlm_utils::simple_initiator_socket<Bench> bus{"bus"};
  tlm_utils::simple_target_socket<Bench> mem_port{"mem_port"};
  sc_core::sc_signal<bool> irq{"irq"};
  std::vector<uint32_t> mem = std::vector<uint32_t>(kMemBytes / 4);
  Config cfg;
  std::unique_ptr<KMeansAccel> accel;

  explicit Bench(sc_core::sc_module_name n) : sc_module(n) {
    cfg.set("log.level", "error");
    cfg.set("accel.sram_points", "2048");  // small, so that N can exceed it
    accel = std::make_unique<KMeansAccel>("accel", cfg);
    bus.bind(accel->regs);
    accel->dma.bind(mem_port);
    accel->irq.bind(irq);
    mem_port.register_b_transport(this, &Bench::mem_access);
  }
  void mem_access(tlm::tlm_generic_payload& tx, sc_core::sc_time&) {
    const uint64_t a = tx.get_address() - SSDVP_DRAM_BASE, n = tx.get_data_length();
    if (tx.get_address() < SSDVP_DRAM_BASE || a > kMemBytes || n > kMemBytes - a) {
      tx.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
      return;
    }
    auto* bytes = reinterpret_cast<uint8_t*>(mem.data()) + a;
    if (tx.is_write())
      std::memcpy(bytes, tx.get_data_ptr(), n);
    else
      std::memcpy(tx.get_data_ptr(), bytes, n);
    tx.set_response_status(tlm::TLM_OK_RESPONSE);
  }
  bool access(bool write, uint32_t offset, uint32_t& v) {
    tlm::tlm_generic_payload tx;
    sc_core::sc_time d = sc_core::SC_ZERO_TIME;
    prepare_access(tx, write, offset, &v, 4);
    bus->b_transport(tx, d);
    return tx.is_response_ok();
  }
  uint32_t status() {
    uint32_t v = 0;
    access(false, ACCEL_STATUS, v);
    return v;
  }
  void fill_points() {
    for (uint32_t i = 0; i < mem.size(); ++i) mem[i] = (i * 37u % 512u) | (i * 91u % 512u) << 16;
  }
};

Bench* bench() {
  static Bench* b = [] {
    sc_core::sc_report_handler::set_actions(sc_core::SC_INFO, sc_core::SC_DO_NOTHING);
    sc_core::sc_report_handler::set_actions(sc_core::SC_WARNING, sc_core::SC_DO_NOTHING);
    sc_core::sc_set_time_resolution(1, sc_core::SC_PS);
    auto* x = new Bench("bench");
    sc_core::sc_start(sc_core::SC_ZERO_TIME);
    return x;
  }();
  return b;
}

void settle_and_check(Bench& b) {
  sc_core::sc_start(sc_core::sc_time(1, sc_core::SC_NS));
  const uint32_t st = b.status();
  check(!((st & ACCEL_STATUS_BUSY) && (st & ACCEL_STATUS_DONE)), "STATUS BUSY and DONE at once", st);
  uint32_t ctrl = 0;
  b.access(false, 0, ctrl);
  const bool want = (ctrl & ACCEL_CTRL_IRQ_EN) && (st & (ACCEL_STATUS_DONE | ACCEL_STATUS_ERROR));
  check(b.irq.read() == want, "the interrupt line disagrees with IRQ_EN, DONE and ERROR", st);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  Bench& b = *bench();
  b.fill_points();
  for (size_t i = 0; i + 6 <= size && i < 6 * 256; i += 6) {
    const uint8_t act = data[i] & 3, wait = (data[i] >> 2) & 7, sel = data[i + 1];
    uint32_t v;
    std::memcpy(&v, data + i + 2, 4);
    switch (act) {
      case 0: b.access(true, uint32_t(sel & 0x3f) * 4, v); break;
      case 1: b.access(false, uint32_t(sel & 0x3f) * 4, v); break;
      case 2: b.mem[(uint32_t(sel) * 257u + (v >> 16)) % b.mem.size()] = v; break;
      default: break;
    }
    if (wait) {
      sc_core::sc_start(sc_core::sc_time(std::pow(10.0, wait - 1), sc_core::SC_NS));
      settle_and_check(b);
    }
  }
  // A job of the largest N and K ends well within a second of simulated time.
  for (int i = 0; i < 1000 && (b.status() & ACCEL_STATUS_BUSY); ++i)
    sc_core::sc_start(sc_core::sc_time(1, sc_core::SC_MS));
  check(!(b.status() & ACCEL_STATUS_BUSY), "a job still runs after a second");
  settle_and_check(b);
  uint32_t v = ACCEL_CTRL_CLEAR;
  b.access(true, ACCEL_CTRL, v);
  for (uint32_t reg : {ACCEL_N, ACCEL_K, ACCEL_MAX_ITER, ACCEL_SRC, ACCEL_DST}) {
    v = 0;
    b.access(true, reg, v);
  }
  settle_and_check(b);
  check(b.status() == 0, "STATUS after CLEAR", b.status());
  return 0;
}
