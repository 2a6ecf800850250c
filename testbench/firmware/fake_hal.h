// fake_hal.h - a HAL back-end for firmware unit tests.
//
// DRAM is a plain buffer at SSDVP_DRAM_BASE. The flash controller is
// functional: a doorbell on FLASH SQ_TAIL executes every new descriptor at
// once against an in-memory NAND that enforces the NAND rules (program only
// erased pages, in order; erase whole blocks) and posts completions. NVMe
// registers are plain storage. Time is a counter the test advances.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

extern "C" {
#include "ftl.h"
#include "hal.h"
#include "ssdvp_hw.h"
}

class FakeHal {
 public:
  FakeHal(uint32_t dram_bytes, uint32_t blocks, uint32_t pages_per_block, uint32_t slots_per_page);

  struct hal* hal() { return &hal_; }
  uint64_t now_ns = 0;
  uint64_t cycles[FW_OP_COUNT] = {};
  std::vector<std::string> log_lines;
  uint64_t violations = 0;
  uint64_t gc_victims_traced = 0;
  std::vector<uint32_t> program_rows;  // every programmed row, in order
  uint32_t erase_count(uint32_t block) const { return erases_[block]; }

 private:
  static uint32_t read32(void* ctx, uint32_t addr);
  static void write32(void* ctx, uint32_t addr, uint32_t value);
  static void* dram(void* ctx, uint32_t addr, uint32_t bytes);
  static void wait_irq(void* ctx);
  static void charge(void* ctx, enum fw_op op, uint32_t count);
  static uint64_t time_ns(void* ctx);
  static void log(void* ctx, int level, const char* msg);
  static void trace(void* ctx, enum hal_trace_event ev, uint32_t arg);
  void flash_doorbell(uint32_t tail);
  uint16_t execute(const fc_sqe& e);

  static const hal_ops ops_;
  struct hal hal_;
  std::vector<uint8_t> dram_;
  std::map<uint32_t, uint32_t> regs_;
  uint32_t blocks_, ppb_, slots_;
  std::vector<uint32_t> token_, lpn_, wp_, erases_;
  uint32_t sq_head_ = 0, cq_tail_ = 0;
};
