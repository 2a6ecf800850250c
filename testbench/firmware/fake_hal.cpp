// fake_hal.cpp - see fake_hal.h.
#include "fake_hal.h"

#include <algorithm>
#include <cstring>

#include "flash/copyback_rules.h"
#include "flash/multiplane_rules.h"

const hal_ops FakeHal::ops_ = {&FakeHal::read32, &FakeHal::write32, &FakeHal::dram, &FakeHal::wait_irq,
                               &FakeHal::charge, &FakeHal::time_ns, &FakeHal::log,  &FakeHal::trace};

namespace {
ssdvp::FlashGeometry one_die(uint32_t blocks, uint32_t ppb, uint32_t slots) {
  ssdvp::FlashGeometry g;
  g.channels = g.dies_per_channel = g.planes_per_die = 1;
  g.blocks_per_plane = blocks;
  g.pages_per_block = ppb;
  g.lba_size = 4096;
  g.page_size = slots * g.lba_size;
  return g;
}
}  // namespace

FakeHal::FakeHal(uint32_t dram_bytes, uint32_t blocks, uint32_t ppb, uint32_t slots)
    : hal_{&ops_, this},
      dram_(dram_bytes),
      blocks_(blocks),
      ppb_(ppb),
      slots_(slots),
      nand_(one_die(blocks, ppb, slots)),
      rings_(dram_port_, [this](const std::string& what, uint32_t) {
        ++ring_errors;
        log_lines.push_back("flash controller: " + what);
      }) {
  geo_ = one_die(blocks, ppb, slots);
}

uint32_t FakeHal::read32(void* ctx, uint32_t addr) {
  auto* self = static_cast<FakeHal*>(ctx);
  if (addr == SSDVP_FLASH_BASE + FLASH_CQ_TAIL) ++self->cq_tail_reads;
  if (addr >= SSDVP_FLASH_BASE && ssdvp::FlashRingEngine::holds(addr - SSDVP_FLASH_BASE))
    return self->rings_.read(addr - SSDVP_FLASH_BASE);
  auto it = self->regs_.find(addr);
  return it == self->regs_.end() ? 0 : it->second;
}

void FakeHal::write32(void* ctx, uint32_t addr, uint32_t value) {
  auto* self = static_cast<FakeHal*>(ctx);
  if (addr >= SSDVP_FLASH_BASE && ssdvp::FlashRingEngine::holds(addr - SSDVP_FLASH_BASE)) {
    const uint32_t off = addr - SSDVP_FLASH_BASE;
    if (off == FLASH_CTRL) {
      bool held = false;  // plane descriptors waiting for their group's end
      for (const auto& g : self->groups_) held = held || !g.empty();
      self->rings_.write_ctrl(value, held);
    } else if (self->rings_.write(off, value) && off == FLASH_SQ_TAIL) {
      self->flash_doorbell();
    } else if (off == FLASH_CQ_HEAD) {
      self->rings_.post_ready();
    }
    return;
  }
  self->regs_[addr] = value;
  if (addr == SSDVP_NVME_BASE + NVME_CMD_BASE) self->regs_[SSDVP_NVME_BASE + NVME_CMD_TAIL] = 0;  // (NVMe's too)
  if (addr == SSDVP_NVME_BASE + NVME_XFER_BASE) self->xfer_head_ = 0;
  if (addr == SSDVP_NVME_BASE + NVME_DONE_BASE) self->regs_[SSDVP_NVME_BASE + NVME_DONE_TAIL] = 0;
  if (addr == SSDVP_NVME_BASE + NVME_XFER_TAIL) self->xfer_doorbell(value);
}

void* FakeHal::dram(void* ctx, uint32_t addr, uint32_t bytes) {
  auto* self = static_cast<FakeHal*>(ctx);
  if (addr < SSDVP_DRAM_BASE) return nullptr;
  const uint64_t off = uint64_t(addr) - SSDVP_DRAM_BASE;
  if (off + bytes > self->dram_.size()) return nullptr;
  return self->dram_.data() + off;
}

void FakeHal::wait_irq(void*) {}
void FakeHal::charge(void* ctx, enum fw_op op, uint32_t count) { static_cast<FakeHal*>(ctx)->cycles[op] += count; }
uint64_t FakeHal::time_ns(void* ctx) { return static_cast<FakeHal*>(ctx)->now_ns; }
void FakeHal::trace(void* ctx, enum hal_trace_event ev, uint32_t) {
  if (ev == HAL_TRACE_GC_VICTIM_START) static_cast<FakeHal*>(ctx)->gc_victims_traced++;
}
void FakeHal::log(void* ctx, int, const char* msg) { static_cast<FakeHal*>(ctx)->log_lines.emplace_back(msg); }

void FakeHal::flash_doorbell() {
  fc_sqe e;
  while (rings_.next(&e)) {
    const uint32_t kind = FC_OP_KIND(e.op);
    const bool erase = kind == FC_OP_ERASE;
    const bool in_range =
        (kind == FC_OP_READ || kind == FC_OP_PROGRAM || erase) && (erase ? e.row < blocks_ : e.row / ppb_ < blocks_);
    if (geo_.planes_per_die > 1 && in_range) {
      std::vector<fc_sqe>& g = groups_[geo_.die_of_block(erase ? e.row : e.row / ppb_)];
      if (FC_OP_IS_PLANE(e.op) || !g.empty()) {
        g.push_back(e);
        if (!FC_OP_IS_PLANE(e.op) || g.size() > geo_.planes_per_die) run_group(g);
        continue;
      }
    }
    uint16_t flags = 0;
    const uint16_t status = execute(e, &flags);
    post(e, status, flags);
  }
  rings_.post_ready();
}

void FakeHal::release_program(size_t i, int status) {
  const HeldCompletion h = held_programs.at(i);
  held_programs.erase(held_programs.begin() + std::ptrdiff_t(i));
  rings_.complete(fc_cqe{h.sqe.tag, status < 0 ? h.status : uint16_t(status), h.flags});
  rings_.post_ready();
}

void FakeHal::set_geometry(const ftl_config& cfg) {
  geo_.channels = cfg.channels;
  geo_.dies_per_channel = cfg.dies_per_channel;
  geo_.planes_per_die = cfg.planes_per_die > 1 ? cfg.planes_per_die : 1;
  geo_.blocks_per_plane = cfg.blocks_per_die / geo_.planes_per_die;
  geo_.pages_per_block = cfg.pages_per_block;
  geo_.lba_size = 4096;
  geo_.page_size = cfg.slots_per_page * geo_.lba_size;
  cell_bits_ = cfg.cell_bits > 1 ? cfg.cell_bits : 1;
  same_block_ = cfg.mp_same_block != 0;
  groups_.assign(geo_.dies(), {});
}

// A group as the flash model runs it (flash_multiplane.cpp): the rules before
// anything changes, then each plane as a plain operation.
void FakeHal::run_group(std::vector<fc_sqe>& g) {
  std::vector<fc_sqe> members;
  members.swap(g);
  ssdvp::MultiplaneVerdict v = ssdvp::multiplane_check(geo_, members.data(), members.size(), same_block_);
  if (v.status == FC_OK && FC_OP_IS_PLANE(members.back().op)) v.status = FC_ERR_MULTIPLANE;  // too many members
  if (v.status != FC_OK) {
    ++violations;
    ++multiplane_violations;
    for (const fc_sqe& e : members) post(e, uint16_t(v.status), 0);
    return;
  }
  if (members.size() > 1) ++multiplane_groups;
  if (members.size() > 1 && FC_OP_KIND(members.back().op) == FC_OP_ERASE) multiplane_erases += members.size();
  for (const fc_sqe& e : members) {
    uint16_t flags = 0;
    const uint16_t status = execute(e, &flags);
    post(e, status, flags);
  }
}

// The flash controller's checks (FlashCtrl::execute) around the NAND
// model's rules; a rejected operation is a violation, as in the model.
uint16_t FakeHal::execute(const fc_sqe& in, uint16_t* flags) {
  fc_sqe e = in;
  e.op = static_cast<uint8_t>(FC_OP_KIND(e.op));  // a multi-plane group: its planes one by one (no timing here)
  const char* why = nullptr;                      // the controller's own checks first (flash_ring_engine.h)
  if (const fc_status bad = ssdvp::flash_check_descriptor(geo_, ssdvp::FlashOpcodes{true, false}, e, &why);
      bad != FC_OK) {
    ++violations;
    return uint16_t(bad);
  }
  auto* buf = static_cast<uint32_t*>(dram(this, e.buf, FC_PAGE_BUF_BYTES(slots_)));
  fc_status st = FC_ERR_OPCODE;
  if (e.op == FC_OP_ERASE) {
    st = e.row < blocks_ ? nand_.erase(e.row) : FC_ERR_ADDRESS;
    if (st == FC_OK) meta.erase(meta.lower_bound(e.row * ppb_), meta.lower_bound((e.row + 1) * ppb_));
  } else if (e.op == FC_OP_PROGRAM || e.op == FC_OP_READ) {
    const uint32_t blk = e.row / ppb_, page = e.row % ppb_;
    if (blk >= blocks_) {
      st = FC_ERR_ADDRESS;
    } else if (!buf) {
      st = FC_ERR_DMA;
    } else if (e.op == FC_OP_PROGRAM) {
      st = nand_.program(blk, page, buf, buf + slots_, buf[2 * slots_]);
      if (st == FC_OK) program_rows.push_back(e.row);
      const auto* m = e.meta ? static_cast<const uint8_t*>(dram(this, e.meta, e.meta_bytes)) : nullptr;
      if (st == FC_OK && m) meta[e.row].assign(m, m + e.meta_bytes);
    } else {
      uint32_t f = 0;
      st = nand_.read(blk, page, e.slot_mask, buf, buf + slots_, buf + 2 * slots_, &f);
      *flags = uint16_t(f);
      const auto it = meta.find(e.row);
      auto* m = e.meta ? static_cast<uint8_t*>(dram(this, e.meta, e.meta_bytes)) : nullptr;
      if (st == FC_OK && m && it != meta.end())
        std::memcpy(m, it->second.data(), std::min<size_t>(e.meta_bytes, it->second.size()));
    }
  }
  if (e.op == FC_OP_COPYBACK) st = copyback(e, buf, flags);
  if (st != FC_OK) ++violations;
  if (st == FC_ERR_UNCORRECTABLE && e.op == FC_OP_READ) ++uncorrectable_reads;
  return uint16_t(st);
}

// A copyback as the flash model runs it (flash_copyback.cpp), without faults:
// the geometry rules, the pages' rules, the copy, the source's OOB out.
fc_status FakeHal::copyback(const fc_sqe& e, uint32_t* buf, uint16_t* flags) {
  const uint32_t src = FC_COPYBACK_SRC(e);
  const ssdvp::CopybackVerdict v = ssdvp::copyback_check(geo_, cell_bits_, src, e.row);
  if (v.status != FC_OK) return v.status;
  if (!buf) return FC_ERR_DMA;
  if (e.meta || (slots_ < 32 && FC_COPYBACK_DROP(e) >> slots_)) return e.meta ? FC_ERR_DMA : FC_ERR_MASK;
  uint32_t hops = 0;
  const fc_status st = nand_.copy_page(src / ppb_, src % ppb_, e.row / ppb_, e.row % ppb_, e.seq, &hops,
                                       ignore_copyback_drop ? 0 : FC_COPYBACK_DROP(e));
  if (st != FC_OK) return st;
  const uint32_t all = slots_ >= 32 ? 0xffffffffu : (1u << slots_) - 1;
  const bool torn = nand_.read(src / ppb_, src % ppb_, all, nullptr, buf + slots_, buf + 2 * slots_, nullptr) != FC_OK;
  meta.erase(e.row);
  program_rows.push_back(e.row);
  ++copybacks;
  if (FC_COPYBACK_DROP(e)) ++copybacks_dropping;
  *flags = uint16_t(std::min<uint32_t>(hops, 255) << FC_FLAG_RETRIES_SHIFT);
  return torn ? FC_ERR_UNCORRECTABLE : FC_OK;
}

void FakeHal::nvme_submit(const nvme_sqe& sqe, uint16_t sqid) {
  const uint32_t size = reg(NVME_CMD_SIZE), tail = reg(NVME_CMD_TAIL);
  auto* ring = static_cast<nvme_cmd_entry*>(dram(this, reg(NVME_CMD_BASE), size * sizeof(nvme_cmd_entry)));
  if (!ring || size == 0) {
    ++xfer_errors;
    return;
  }
  nvme_cmd_entry e{};
  e.sqe = sqe;
  e.sqid = sqid;
  ring[tail] = e;
  regs_[SSDVP_NVME_BASE + NVME_CMD_TAIL] = (tail + 1) % size;
}

void FakeHal::xfer_doorbell(uint32_t tail) {
  const uint32_t xs = reg(NVME_XFER_SIZE), ds = reg(NVME_DONE_SIZE);
  auto* xr = static_cast<nvme_xfer*>(dram(this, reg(NVME_XFER_BASE), xs * sizeof(nvme_xfer)));
  auto* dr = static_cast<nvme_done*>(dram(this, reg(NVME_DONE_BASE), ds * sizeof(nvme_done)));
  if (!xr || !dr || xs == 0 || ds == 0) {
    ++xfer_errors;
    return;
  }
  while (xfer_head_ != tail) {
    const nvme_xfer x = xr[xfer_head_];
    xfer_head_ = (xfer_head_ + 1) % xs;
    regs_[SSDVP_NVME_BASE + NVME_XFER_HEAD] = xfer_head_;
    if (x.op == XFER_COMPLETE) {
      completions.push_back({x.cid, x.status, x.dw0});
      continue;
    }
    const uint64_t bytes = x.op == XFER_H2D_RAW || x.op == XFER_D2H_RAW ? x.nlb : uint64_t(x.nlb) * 4;
    void* d = dram(this, x.dram, uint32_t(bytes));
    const uint64_t host_bytes = host_words.size() * 4;  // (x.host + bytes could wrap: a fuzzed PRP)
    const bool host_ok = x.host % 4 == 0 && x.host <= host_bytes && bytes <= host_bytes - x.host;
    uint32_t status = 0;
    if (!d || !host_ok) {
      status = NVME_SC_DATA_XFER_ERROR;
      ++xfer_errors;
    } else if (x.op == XFER_D2H || x.op == XFER_D2H_RAW) {
      std::memcpy(host_words.data() + x.host / 4, d, bytes);
    } else {
      std::memcpy(d, host_words.data() + x.host / 4, bytes);
    }
    const uint32_t dt = reg(NVME_DONE_TAIL);
    dr[dt] = nvme_done{x.tag, status};
    regs_[SSDVP_NVME_BASE + NVME_DONE_TAIL] = (dt + 1) % ds;
  }
}
