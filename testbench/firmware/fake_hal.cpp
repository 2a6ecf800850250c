// fake_hal.cpp - see fake_hal.h.
#include "fake_hal.h"

#include <cstring>

const hal_ops FakeHal::ops_ = {&FakeHal::read32, &FakeHal::write32, &FakeHal::dram, &FakeHal::wait_irq,
                               &FakeHal::charge, &FakeHal::time_ns, &FakeHal::log, &FakeHal::trace};

FakeHal::FakeHal(uint32_t dram_bytes, uint32_t blocks, uint32_t ppb, uint32_t slots)
    : hal_{&ops_, this},
      dram_(dram_bytes),
      blocks_(blocks),
      ppb_(ppb),
      slots_(slots),
      token_(size_t(blocks) * ppb * slots, SSDVP_TOKEN_ERASED),
      lpn_(size_t(blocks) * ppb * slots, SSDVP_LPN_NONE),
      wp_(blocks, 0),
      erases_(blocks, 0) {}

uint32_t FakeHal::read32(void* ctx, uint32_t addr) {
  auto* self = static_cast<FakeHal*>(ctx);
  if (addr == SSDVP_FLASH_BASE + FLASH_SQ_HEAD) return self->sq_head_;
  if (addr == SSDVP_FLASH_BASE + FLASH_CQ_TAIL) return self->cq_tail_;
  auto it = self->regs_.find(addr);
  return it == self->regs_.end() ? 0 : it->second;
}

void FakeHal::write32(void* ctx, uint32_t addr, uint32_t value) {
  auto* self = static_cast<FakeHal*>(ctx);
  self->regs_[addr] = value;
  if (addr == SSDVP_FLASH_BASE + FLASH_SQ_TAIL) self->flash_doorbell(value);
}

void* FakeHal::dram(void* ctx, uint32_t addr, uint32_t bytes) {
  auto* self = static_cast<FakeHal*>(ctx);
  if (addr < SSDVP_DRAM_BASE) return nullptr;
  const uint64_t off = uint64_t(addr) - SSDVP_DRAM_BASE;
  if (off + bytes > self->dram_.size()) return nullptr;
  return self->dram_.data() + off;
}

void FakeHal::wait_irq(void*) {}
void FakeHal::charge(void* ctx, enum fw_op op, uint32_t count) {
  static_cast<FakeHal*>(ctx)->cycles[op] += count;
}
uint64_t FakeHal::time_ns(void* ctx) { return static_cast<FakeHal*>(ctx)->now_ns; }
void FakeHal::trace(void* ctx, enum hal_trace_event ev, uint32_t) {
  if (ev == HAL_TRACE_GC_VICTIM_START) static_cast<FakeHal*>(ctx)->gc_victims_traced++;
}
void FakeHal::log(void* ctx, int, const char* msg) { static_cast<FakeHal*>(ctx)->log_lines.emplace_back(msg); }

void FakeHal::flash_doorbell(uint32_t tail) {
  const uint32_t sqb = regs_[SSDVP_FLASH_BASE + FLASH_SQ_BASE], sqs = regs_[SSDVP_FLASH_BASE + FLASH_SQ_SIZE];
  const uint32_t cqb = regs_[SSDVP_FLASH_BASE + FLASH_CQ_BASE], cqs = regs_[SSDVP_FLASH_BASE + FLASH_CQ_SIZE];
  auto* sq = static_cast<fc_sqe*>(dram(this, sqb, sqs * sizeof(fc_sqe)));
  auto* cq = static_cast<fc_cqe*>(dram(this, cqb, cqs * sizeof(fc_cqe)));
  while (sq_head_ != tail) {
    const fc_sqe e = sq[sq_head_];
    sq_head_ = (sq_head_ + 1) % sqs;
    cq[cq_tail_] = fc_cqe{e.tag, execute(e), 0};
    cq_tail_ = (cq_tail_ + 1) % cqs;
  }
}

uint16_t FakeHal::execute(const fc_sqe& e) {
  auto* buf = static_cast<uint32_t*>(dram(this, e.buf, FC_PAGE_BUF_BYTES(slots_)));
  if (e.op == FC_OP_ERASE) {
    if (e.row >= blocks_) return ++violations, FC_ERR_ADDRESS;
    wp_[e.row] = 0;
    erases_[e.row]++;
    for (uint32_t i = 0; i < ppb_ * slots_; ++i) token_[size_t(e.row) * ppb_ * slots_ + i] = SSDVP_TOKEN_ERASED;
    return FC_OK;
  }
  const uint32_t blk = e.row / ppb_, page = e.row % ppb_;
  if (blk >= blocks_ || !buf) return ++violations, FC_ERR_ADDRESS;
  const size_t base = size_t(e.row) * slots_;
  if (e.op == FC_OP_PROGRAM) {
    if (page < wp_[blk]) return ++violations, FC_ERR_NOT_ERASED;
    if (page > wp_[blk]) return ++violations, FC_ERR_ORDER;
    wp_[blk]++;
    program_rows.push_back(e.row);
    for (uint32_t s = 0; s < slots_; ++s) {
      token_[base + s] = buf[s];
      lpn_[base + s] = buf[slots_ + s];
    }
    return FC_OK;
  }
  if (e.op == FC_OP_READ) {
    for (uint32_t s = 0; s < slots_; ++s)
      if (e.slot_mask & (1u << s)) {
        buf[s] = token_[base + s];
        buf[slots_ + s] = lpn_[base + s];
      }
    return FC_OK;
  }
  return ++violations, FC_ERR_OPCODE;
}
