// flash_ring_engine.cpp - see flash_ring_engine.h.
#include "flash/flash_ring_engine.h"

#include <cstdio>
#include <cstring>

#include "common/ring.h"

namespace ssdvp {

fc_status flash_check_descriptor(const FlashGeometry& geo, const FlashOpcodes& ops, const fc_sqe& d, const char** why) {
  const uint32_t S = geo.slots_per_page();
  const bool known = d.op == FC_OP_READ || d.op == FC_OP_PROGRAM || d.op == FC_OP_ERASE ||
                     (d.op == FC_OP_COPYBACK && ops.copyback) || (d.op == FC_OP_COPY && ops.copy);
  if (!known) {
    *why = d.op == FC_OP_COPY       ? "FC_OP_COPY: this flash controller has no copy across the flash (a host FTL's)"
           : d.op == FC_OP_COPYBACK ? "FC_OP_COPYBACK: this flash controller has no on-die copy"
                                    : "unknown opcode";
    return FC_ERR_OPCODE;
  }
  if (d.op == FC_OP_COPYBACK && FC_COPYBACK_SRC(d) >= geo.pages_total()) {
    *why = "copyback source page row outside the geometry";
    return FC_ERR_ADDRESS;
  }
  if (d.op == FC_OP_ERASE ? d.row >= geo.total_blocks() : d.row >= geo.pages_total()) {
    *why = d.op == FC_OP_ERASE ? "block row outside the geometry" : "page row outside the geometry";
    return FC_ERR_ADDRESS;
  }
  if (d.op == FC_OP_READ && (d.slot_mask == 0 || (S < 32 && (d.slot_mask >> S) != 0))) {
    *why = d.slot_mask ? "slot mask beyond the slots of a page" : "empty slot mask";
    return FC_ERR_MASK;
  }
  if (d.op != FC_OP_ERASE && (d.buf % 4 != 0 || d.buf < uint64_t(SSDVP_DRAM_BASE))) {
    *why = "page buffer outside DRAM or unaligned";
    return FC_ERR_DMA;
  }
  if (d.meta && (d.op == FC_OP_ERASE || d.op == FC_OP_COPYBACK || d.op == FC_OP_COPY || d.meta_bytes > geo.page_size)) {
    *why = "metadata payload larger than a page, or on an erase or a copy";
    return FC_ERR_DMA;
  }
  return FC_OK;
}

void* HalDram::at(uint64_t addr, uint64_t bytes) const {
  return addr <= UINT32_MAX && bytes <= UINT32_MAX ? resolve_(ctx_, uint32_t(addr), uint32_t(bytes)) : nullptr;
}
bool HalDram::read(uint64_t addr, void* dst, uint32_t n, uint64_t*) {
  const void* p = at(addr, n);
  if (p) std::memcpy(dst, p, n);
  return p != nullptr;
}
bool HalDram::write(uint64_t addr, const void* src, uint32_t n, uint64_t*) {
  void* p = at(addr, n);
  if (p) std::memcpy(p, src, n);
  return p != nullptr;
}
bool HalDram::reachable(uint64_t addr, uint64_t bytes) { return at(addr, bytes) != nullptr; }

uint32_t FlashRingEngine::read(uint32_t offset) const {
  switch (offset) {
    case FLASH_SQ_BASE: return sq_.base;
    case FLASH_SQ_SIZE: return sq_.size;
    case FLASH_SQ_HEAD: return sq_.head;
    case FLASH_SQ_TAIL: return sq_.tail;
    case FLASH_CQ_BASE: return cq_.base;
    case FLASH_CQ_SIZE: return cq_.size;
    case FLASH_CQ_HEAD: return cq_.head;
    case FLASH_CQ_TAIL: return cq_.tail;
    case FLASH_CTRL: return ctrl_;
    default: return 0;
  }
}

bool FlashRingEngine::write(uint32_t offset, uint32_t v) {
  switch (offset) {
    case FLASH_SQ_BASE: sq_.base = v; return program(sq_, "SQ", sizeof(fc_sqe)), true;
    case FLASH_SQ_SIZE: sq_.size = v; return program(sq_, "SQ", sizeof(fc_sqe)), true;
    case FLASH_CQ_BASE: cq_.base = v; return program(cq_, "CQ", sizeof(fc_cqe)), true;
    case FLASH_CQ_SIZE: cq_.size = v; return program(cq_, "CQ", sizeof(fc_cqe)), true;
    case FLASH_SQ_TAIL: return doorbell(sq_, sq_.tail, v, "SQ_TAIL", "submission");
    case FLASH_CQ_HEAD: return doorbell(cq_, cq_.head, v, "CQ_HEAD", "completion");
    default: return false;
  }
}

// A doorbell (the producer's SQ_TAIL, the consumer's CQ_HEAD): an index below
// SIZE on an enabled ring, else reported and ignored.
bool FlashRingEngine::doorbell(const Ring& r, uint32_t& index, uint32_t v, const char* reg, const char* ring) {
  if (!ring_index_ok(r.enabled, v, r.size)) {
    on_error_(std::string(reg) + (r.enabled ? " beyond the " + std::string(ring) + " ring"
                                            : " written with the " + std::string(ring) + " ring disabled"),
              v);
    return false;
  }
  index = v;
  return true;
}

// CTRL.CQ_PHASE: completions carry a phase tag. A write restarts the
// completion ring (indices 0, tag 1 next); with completions in flight or not
// taken it would lose or misplace them, so it is refused then, as a write of
// reserved bits is.
bool FlashRingEngine::write_ctrl(uint32_t v, bool completions_in_flight) {
  if ((v & ~(FLASH_CTRL_CQ_PHASE | FLASH_CTRL_PREEMPT_GC | SSDVP_FIELD_MASK(FLASH_CTRL_HOLD_GC))) ||
      SSDVP_FIELD_GET(FLASH_CTRL_HOLD_GC, v) > FLASH_HOLD_GC_CHANNEL) {
    on_error_("CTRL: reserved bits set", v);
    return false;
  }
  if (completions_in_flight || !ready_.empty() || cq_.tail != cq_.head) {
    on_error_("CTRL written while flash completions are in flight or not taken", v);
    return false;
  }
  ctrl_ = v;
  cq_.head = cq_.tail = 0;
  cq_.phase = true;  // (the interrupt line is low: head == tail)
  return true;
}

void FlashRingEngine::program(Ring& r, const char* which, uint32_t entry) {
  r.enabled = false;
  r.head = r.tail = 0;
  r.phase = true;
  if (r.size == 0 || r.base == 0) return;  // not configured (yet)
  const uint64_t dram_end = uint64_t(SSDVP_DRAM_BASE) + uint64_t(SSDVP_DRAM_SIZE);
  const char* bad = ring_layout_fault(r.base, r.size, entry, 1, [&](uint64_t base, uint64_t bytes) {
    return base >= uint64_t(SSDVP_DRAM_BASE) && base + bytes <= dram_end && dram_.reachable(base, bytes);
  });
  if (bad) {
    char b[16];
    std::snprintf(b, sizeof b, "%x", r.base);
    on_error_(std::string(which) + " ring (base 0x" + b + ", " + std::to_string(r.size) + " entries): " + bad +
                  "; ring disabled",
              r.size);
    return;
  }
  r.enabled = true;
}

bool FlashRingEngine::read_head(fc_sqe* d, uint64_t* latency_ps) {
  if (!sq_.enabled || sq_.head == sq_.tail) return false;
  if (!dram_.read(uint64_t(sq_.base) + uint64_t(sq_.head) * sizeof *d, d, sizeof *d, latency_ps)) {
    on_error_("submission ring became unreadable; ring disabled", sq_.base);
    sq_.enabled = false;
    return false;
  }
  return true;
}

bool FlashRingEngine::next(fc_sqe* d, uint64_t* latency_ps) {
  if (!read_head(d, latency_ps)) return false;
  sq_.head = ring_next(sq_.head, sq_.size);
  return true;
}

void FlashRingEngine::post_ready() {
  while (!ready_.empty() && cq_.enabled && !ring_full(cq_.head, cq_.tail, cq_.size)) {
    fc_cqe& c = ready_.front();
    if (phase_tags()) c.flags = FC_FLAGS_WITH_PHASE(c.flags, cq_.phase);
    if (!dram_.write(uint64_t(cq_.base) + uint64_t(cq_.tail) * sizeof(fc_cqe), &c, sizeof(fc_cqe), nullptr)) {
      on_error_("completion ring became unwritable; ring disabled", cq_.base);
      cq_.enabled = false;
      return;
    }
    ready_.pop_front();
    cq_.tail = ring_next(cq_.tail, cq_.size);
    if (cq_.tail == 0) cq_.phase = !cq_.phase;
  }
}

size_t FlashRingEngine::power_cut() {
  const size_t dropped = ready_.size();
  ready_.clear();
  cq_.head = cq_.tail;  // what the firmware had not taken is gone (power-up programs the rings again)
  return dropped;
}

}  // namespace ssdvp
