// host_ftl_hal.cpp - see host_ftl_hal.h.
#include "host_ftl_hal.h"

#include <algorithm>
#include <cstring>

namespace ssdvp {

const hal_ops HostFtlHal::ops_ = {&HostFtlHal::read32, &HostFtlHal::write32, &HostFtlHal::dram, &HostFtlHal::wait_irq,
                                  &HostFtlHal::charge, &HostFtlHal::time_ns, &HostFtlHal::log,  &HostFtlHal::trace};

HostCpuCost HostCpuCost::defaults() {
  HostCpuCost c;
#define FW_OP(name, est, desc) c.cycles[FW_OP_##name] = est;
#include "fw_ops.def"
  return c;
}

HostFtlHal::HostFtlHal(OcssdPort& port, const ocssd_geometry& geo, uint32_t dram_bytes, HostCpuCost cost)
    : hal_{&ops_, this},
      port_(port),
      geo_(geo),
      cost_(cost),
      dram_(dram_bytes, 0),
      rings_(dram_port_, [this](const std::string& what, uint32_t) {
        ++failed;
        log_lines.push_back("flash controller: " + what);
      }) {
  flash_geo_.channels = geo.num_grp;
  flash_geo_.dies_per_channel = geo.num_pu;
  flash_geo_.planes_per_die = 1;
  flash_geo_.blocks_per_plane = geo.num_chk;
  flash_geo_.pages_per_block = geo.ws_min ? geo.clba / geo.ws_min : 0;
  flash_geo_.lba_size = 4096;
  flash_geo_.page_size = geo.ws_min * flash_geo_.lba_size;
}

ftl_config HostFtlHal::config() const {
  ftl_config c;
  ftl_config_default(&c);
  c.channels = geo_.num_grp;
  c.dies_per_channel = geo_.num_pu;
  c.blocks_per_die = geo_.num_chk;
  c.slots_per_page = geo_.ws_min;
  c.pages_per_block = geo_.ws_min ? geo_.clba / geo_.ws_min : 0;
  c.dram_base = SSDVP_DRAM_BASE;
  c.dram_size = uint32_t(dram_.size());
  return c;
}

// Firmware die d is group d mod groups, PU d / groups (die d sits on channel d mod channels).
uint64_t HostFtlHal::address(uint32_t row, uint32_t sector) const {
  const uint32_t ppb = geo_.clba / geo_.ws_min;
  const uint32_t block = row / ppb, die = block / geo_.num_chk;
  return ocssd_addr(&geo_.lbaf, die % geo_.num_grp, die / geo_.num_grp, block % geo_.num_chk,
                    (row % ppb) * geo_.ws_min + sector);
}

uint32_t HostFtlHal::read32(void* ctx, uint32_t addr) {
  auto* self = static_cast<HostFtlHal*>(ctx);
  if (addr == SSDVP_FLASH_BASE + FLASH_CQ_TAIL) {
    self->release_resets();  // the firmware's context: a reset whose chunk went idle goes out now
    // blocking calls (set_blocking): nothing new, so wait for the drive
    while (self->blocking_ && !self->queued_.empty() && self->rings_.cq_tail() == self->rings_.cq_head() &&
           self->port_.wait_any()) {
    }
    return self->rings_.cq_tail();
  }
  if (addr >= SSDVP_FLASH_BASE && FlashRingEngine::holds(addr - SSDVP_FLASH_BASE))
    return self->rings_.read(addr - SSDVP_FLASH_BASE);
  auto it = self->regs_.find(addr);
  return it == self->regs_.end() ? 0 : it->second;
}

void HostFtlHal::write32(void* ctx, uint32_t addr, uint32_t value) {
  auto* self = static_cast<HostFtlHal*>(ctx);
  const uint32_t off = addr - SSDVP_FLASH_BASE;
  if (addr >= SSDVP_FLASH_BASE && off == FLASH_CTRL) {
    self->rings_.write_ctrl(value, !self->queued_.empty());
    return;
  }
  if (addr >= SSDVP_FLASH_BASE && FlashRingEngine::holds(off)) {  // the ring registers
    if (self->rings_.write(off, value) && off == FLASH_SQ_TAIL) self->flash_doorbell();
    if (off == FLASH_CQ_HEAD) self->rings_.post_ready();
    return;
  }
  self->regs_[addr] = value;
  if (addr == SSDVP_FLASH_BASE + FLASH_BBT_ADDR) self->fill_bad_block_table(value);
}

void* HostFtlHal::dram(void* ctx, uint32_t addr, uint32_t bytes) {
  auto* self = static_cast<HostFtlHal*>(ctx);
  if (addr < SSDVP_DRAM_BASE) return nullptr;
  const uint64_t off = uint64_t(addr) - SSDVP_DRAM_BASE;
  if (off + bytes > self->dram_.size()) return nullptr;
  return self->dram_.data() + off;
}

void HostFtlHal::wait_irq(void* ctx) {  // functional: every operation completed inside its doorbell
  auto* self = static_cast<HostFtlHal*>(ctx);
  if (!self->queued_.empty()) self->port_.wait_any();
}

void HostFtlHal::charge(void* ctx, enum fw_op op, uint32_t count) {
  auto* self = static_cast<HostFtlHal*>(ctx);
  self->op_count_[op] += count;
  self->busy_ns_ += self->cost_.cycles[op] * count / self->cost_.clock_hz * 1e9;
}

uint64_t HostFtlHal::time_ns(void* ctx) { return static_cast<HostFtlHal*>(ctx)->port_.now_ns(); }

void HostFtlHal::log(void* ctx, int, const char* msg) { static_cast<HostFtlHal*>(ctx)->log_lines.emplace_back(msg); }

void HostFtlHal::trace(void*, enum hal_trace_event, uint32_t) {}

// The drive's offline chunks are the host FTL's bad blocks (ftl_init reads the
// bitmap right after programming its address).
void HostFtlHal::fill_bad_block_table(uint32_t addr) {
  const uint32_t blocks = uint32_t(geo_.num_grp) * geo_.num_pu * geo_.num_chk;
  auto* bbt = static_cast<uint32_t*>(dram(this, addr, (blocks + 31) / 32 * 4));
  if (!bbt) return;
  constexpr uint32_t kPer = 4096 / sizeof(ocssd_chunk_desc);
  std::vector<ocssd_chunk_desc> part(kPer);
  for (uint32_t first = 0; first < blocks; first += kPer) {
    const uint32_t n = std::min(kPer, blocks - first);
    if (port_.chunk_log(uint64_t(first) * sizeof(ocssd_chunk_desc), n * uint32_t(sizeof(ocssd_chunk_desc)),
                        part.data()) != NVME_SC_SUCCESS) {
      ++failed;
      return;
    }
    for (uint32_t i = 0; i < n; ++i) {
      if (part[i].state != OCSSD_CHUNK_OFFLINE) continue;
      const uint32_t idx = first + i;  // group, PU, chunk order
      const uint32_t chk = idx % geo_.num_chk, pu = idx / geo_.num_chk % geo_.num_pu,
                     grp = idx / geo_.num_chk / geo_.num_pu;
      const uint32_t block = (pu * geo_.num_grp + grp) * geo_.num_chk + chk;
      bbt[block / 32] |= 1u << (block % 32);
    }
  }
}

// One flash operation of the host FTL as one Open-Channel command: its
// opcode and sector addresses, counted as sent.
uint32_t HostFtlHal::prepare(const fc_sqe& e, uint8_t* opcode, uint64_t* addrs, uint16_t* st) {
  const uint32_t S = geo_.ws_min;
  const char* why = nullptr;  // the flash controller's checks (flash_ring_engine.h): opcode, rows, mask, buffer
  if (const fc_status bad = flash_check_descriptor(flash_geo_, FlashOpcodes{false, true}, e, &why); bad != FC_OK) {
    *st = uint16_t(bad);
    return 0;
  }
  if (e.op == FC_OP_ERASE) {
    addrs[0] = address(e.row * (geo_.clba / S), 0);
    *opcode = OCSSD_OP_VECTOR_RESET;
    ++resets;
    return 1;
  }
  if (!dram(this, e.buf, FC_PAGE_BUF_BYTES(S)) || S > 32) {
    *st = FC_ERR_DMA;
    return 0;
  }
  const auto* buf = static_cast<const uint32_t*>(dram(this, e.buf, FC_PAGE_BUF_BYTES(S)));
  const uint64_t sector0 = uint64_t(e.row) * S;
  if (e.op == FC_OP_PROGRAM) {
    for (uint32_t k = 0; k < S; ++k) addrs[k] = address(e.row, k);
    if (!lbas_.empty() && sector0 + S <= lbas_.size())
      for (uint32_t k = 0; k < S; ++k) lbas_[sector0 + k] = buf[S + k];
    *opcode = OCSSD_OP_VECTOR_WRITE;
    ++writes;
    return S;
  }
  if (e.op == FC_OP_COPY) {  // token[k]: the source slot of sector k of the row
    if (lbas_.empty() || sector0 + S > lbas_.size()) {
      *st = lbas_.empty() ? FC_ERR_OPCODE : FC_ERR_ADDRESS;
      return 0;
    }
    for (uint32_t k = 0; k < S; ++k)
      if (buf[k] >= sectors()) {
        *st = FC_ERR_ADDRESS;
        return 0;
      }
    for (uint32_t k = 0; k < S; ++k) {
      addrs[k] = address(buf[k] / S, buf[k] % S);
      addrs[S + k] = address(e.row, k);
      lbas_[sector0 + k] = lbas_[buf[k]];  // the OOB travels with the data
    }
    *opcode = OCSSD_OP_VECTOR_COPY;
    return S;
  }
  if (e.op != FC_OP_READ) {
    *st = FC_ERR_OPCODE;
    return 0;
  }
  uint32_t n = 0;
  for (uint32_t k = 0; k < S; ++k)
    if (e.slot_mask & (1u << k)) addrs[n++] = address(e.row, k);
  if (!n) {
    *st = FC_ERR_MASK;
    return 0;
  }
  *opcode = OCSSD_OP_VECTOR_READ;
  ++reads;
  return n;
}

// The drive's status as the flash controller's; a read's sectors into the page buffer.
uint16_t HostFtlHal::finish(const fc_sqe& e, uint16_t st, const uint32_t* data, const uint32_t* meta, uint16_t* flags) {
  const uint32_t S = geo_.ws_min;
  if (e.op == FC_OP_ERASE) {
    if (st == NVME_SC_SUCCESS) return FC_OK;
    ++failed;
    return st == OCSSD_SC_OFFLINE_CHUNK ? FC_ERR_ERASE_FAIL : FC_ERR_ADDRESS;
  }
  auto* buf = static_cast<uint32_t*>(dram(this, e.buf, FC_PAGE_BUF_BYTES(S)));
  if (e.op == FC_OP_COPY) {  // the sources' LBAs (the copy's OOB) into lpn[]
    if (st == NVME_SC_SUCCESS || st == NVME_SC_UNRECOVERED_READ)
      for (uint32_t k = 0; k < S; ++k) buf[S + k] = lbas_[uint64_t(e.row) * S + k];
    if (st == NVME_SC_SUCCESS) return FC_OK;
    ++failed;
    if (st == OCSSD_SC_WRITE_NEXT_UNIT) return FC_ERR_PROGRAM_FAIL;
    if (st == NVME_SC_UNRECOVERED_READ) return FC_ERR_UNCORRECTABLE;
    return st == OCSSD_SC_OUT_OF_ORDER ? FC_ERR_ORDER : FC_ERR_ADDRESS;
  }
  if (e.op == FC_OP_PROGRAM) {
    if (st == NVME_SC_SUCCESS) return FC_OK;
    ++failed;
    if (st == OCSSD_SC_WRITE_NEXT_UNIT) return FC_ERR_PROGRAM_FAIL;
    return st == OCSSD_SC_OUT_OF_ORDER ? FC_ERR_ORDER : FC_ERR_ADDRESS;
  }
  if (st == OCSSD_SC_UNWRITTEN) {  // as the NAND returns an erased page
    *flags |= FC_FLAG_ERASED;
    for (uint32_t k = 0; k < S; ++k)
      if (e.slot_mask & (1u << k)) buf[k] = SSDVP_TOKEN_ERASED, buf[S + k] = SSDVP_LPN_NONE;
    return FC_OK;
  }
  if (st != NVME_SC_SUCCESS) {
    ++failed;
    return st == NVME_SC_UNRECOVERED_READ ? FC_ERR_UNCORRECTABLE : FC_ERR_ADDRESS;
  }
  const uint32_t mw = port_.meta_words;
  for (uint32_t k = 0, i = 0; k < S; ++k)
    if (e.slot_mask & (1u << k)) {
      buf[k] = data[i], buf[S + k] = meta[i * mw];
      if (mw == 2) buf[2 * S] = meta[i * mw + 1];  // the unit's sequence number (the OOB's, once per page)
      ++i;
    }
  return FC_OK;
}

const uint32_t* HostFtlHal::program_meta(const uint32_t* buf, uint32_t n, uint32_t* out) const {
  if (port_.meta_words != 2) return buf + n;  // the LPNs, as they are in the page buffer
  for (uint32_t k = 0; k < n; ++k) out[2 * k] = buf[n + k], out[2 * k + 1] = buf[2 * n];
  return out;
}

uint16_t HostFtlHal::execute(const fc_sqe& e, uint16_t* flags) {
  uint64_t addrs[64];
  uint32_t data[32], meta[64], pmeta[64];
  uint8_t opc = 0;
  uint16_t bad = FC_OK;
  const uint32_t n = prepare(e, &opc, addrs, &bad);
  if (!n) return bad;
  uint32_t* buf = e.op == FC_OP_PROGRAM ? static_cast<uint32_t*>(dram(this, e.buf, FC_PAGE_BUF_BYTES(n))) : nullptr;
  const bool reset = opc == OCSSD_OP_VECTOR_RESET || opc == OCSSD_OP_VECTOR_COPY;  // no data or metadata
  const uint16_t st = port_.vector(opc, addrs, n,
                                   reset ? nullptr
                                   : buf ? buf
                                         : data,
                                   reset ? nullptr
                                   : buf ? const_cast<uint32_t*>(program_meta(buf, n, pmeta))
                                         : meta);  // a program: tokens, OOB LPNs (and sequence number)
  return finish(e, st, data, meta, flags);
}

void HostFtlHal::post(const fc_cqe& c) {
  rings_.complete(c);
  rings_.post_ready();
}

void HostFtlHal::complete(uint32_t id, uint16_t status, const uint32_t* data, const uint32_t* meta) {
  auto it = queued_.find(id);
  if (it == queued_.end()) {
    ++failed;
    return;
  }
  const std::vector<fc_sqe> batch = std::move(it->second);
  queued_.erase(it);
  untrack(batch);
  for (const fc_sqe& e : batch) {  // one descriptor, or the copies of one Vector Chunk Copy
    uint16_t flags = 0;
    const uint16_t st = finish(e, status, data, meta, &flags);
    post(fc_cqe{e.tag, st, flags});
  }
}

// Consecutive COPY descriptors of one doorbell (up to copy_batch_, and 64
// sectors) as one Vector Chunk Copy: fewer commands, and the drive reads a
// source page once per command, so units gathered from the same victim pages
// share their reads.
void HostFtlHal::send_copies(const std::vector<fc_sqe>& batch) {
  const uint32_t S = geo_.ws_min;
  std::vector<fc_sqe> ok;
  uint64_t one[64], addrs[2 * OCSSD_MAX_VECTOR];
  uint32_t n = 0;
  for (const fc_sqe& e : batch) {
    uint8_t opc = 0;
    uint16_t bad = FC_OK;
    if (prepare(e, &opc, one, &bad) != S) {
      post(fc_cqe{e.tag, bad, 0});
      continue;
    }
    for (uint32_t k = 0; k < S; ++k) addrs[n + k] = one[k], addrs[OCSSD_MAX_VECTOR + n + k] = one[S + k];
    n += S;
    ok.push_back(e);
  }
  if (ok.empty()) return;
  std::copy(addrs + OCSSD_MAX_VECTOR, addrs + OCSSD_MAX_VECTOR + n, addrs + n);  // sources, then destinations
  ++copies;
  copy_pages += ok.size();
  if (!port_.queued()) {
    const uint16_t st = port_.vector(OCSSD_OP_VECTOR_COPY, addrs, n, nullptr, nullptr);
    for (const fc_sqe& e : ok) {
      uint16_t flags = 0;
      const uint16_t fst = finish(e, st, nullptr, nullptr, &flags);
      post(fc_cqe{e.tag, fst, flags});
    }
    return;
  }
  const uint32_t id = next_id_++;
  queued_[id] = ok;
  track(ok);
  port_.submit(*this, id, OCSSD_OP_VECTOR_COPY, addrs, n, nullptr, nullptr);
}

// The firmware relies on the flash controller's order: an erase issued after
// a read of the same block runs after it. Open-Channel commands carry no such
// order (the drive starts a one-address reset at once while a read's address
// list is still being fetched, and reads an erasing chunk as erased), so,
// as pblk does for its lines, a reset waits here until every operation sent
// on its chunk has completed. Nothing else needs holding: the firmware only
// uses a block again after its erase completed.
std::vector<uint32_t> HostFtlHal::chunks_of(const std::vector<fc_sqe>& sent) {
  const uint32_t S = geo_.ws_min, rows_per_chunk = geo_.clba / S;
  std::vector<uint32_t> out;
  for (const fc_sqe& e : sent) {
    if (e.op == FC_OP_ERASE) {
      out.push_back(e.row);
      continue;
    }
    out.push_back(e.row / rows_per_chunk);
    if (e.op == FC_OP_COPY)  // token[k]: the source slot of sector k (prepare() checked them)
      if (const auto* buf = static_cast<const uint32_t*>(dram(this, e.buf, FC_PAGE_BUF_BYTES(S))))
        for (uint32_t k = 0; k < S; ++k) out.push_back(buf[k] / geo_.clba);
  }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

// A command's chunks are found again at its completion, from the same
// descriptors: the firmware keeps a descriptor's buffer (a copy's source
// slots) until it has seen the completion.
void HostFtlHal::track(const std::vector<fc_sqe>& sent) {
  for (uint32_t c : chunks_of(sent)) ++busy_[c];
}

void HostFtlHal::untrack(const std::vector<fc_sqe>& done) {
  for (uint32_t c : chunks_of(done))
    if (auto b = busy_.find(c); b != busy_.end() && --b->second == 0) busy_.erase(b);
}

void HostFtlHal::release_resets() {
  for (size_t i = 0; i < held_resets_.size();) {
    if (busy_.count(held_resets_[i].row)) {
      ++i;
      continue;
    }
    const fc_sqe e = held_resets_[i];
    held_resets_.erase(held_resets_.begin() + long(i));
    send(e);
  }
}

void HostFtlHal::send(const fc_sqe& e) {
  uint64_t addrs[64];
  uint8_t opc = 0;
  uint16_t bad = FC_OK;
  const uint32_t n = prepare(e, &opc, addrs, &bad);
  if (!n) {
    post(fc_cqe{e.tag, bad, 0});
    return;
  }
  const uint32_t id = next_id_++;
  queued_[id] = {e};
  track({e});
  const auto* buf = static_cast<const uint32_t*>(dram(this, e.buf, FC_PAGE_BUF_BYTES(geo_.ws_min)));
  const bool program = opc == OCSSD_OP_VECTOR_WRITE;
  uint32_t pmeta[64];
  port_.submit(*this, id, opc, addrs, n, program ? buf : nullptr, program ? program_meta(buf, n, pmeta) : nullptr);
}

void HostFtlHal::flash_doorbell() {
  fc_sqe e, more;
  while (rings_.next(&e)) {
    if (e.op == FC_OP_COPY) {
      std::vector<fc_sqe> batch{e};
      while (batch.size() < copy_batch_ && (batch.size() + 1) * geo_.ws_min <= OCSSD_MAX_VECTOR && rings_.peek(&more) &&
             more.op == FC_OP_COPY && rings_.next(&more))
        batch.push_back(more);
      send_copies(batch);
      continue;
    }
    uint16_t flags = 0;
    if (!port_.queued()) {
      const uint16_t st = execute(e, &flags);
      post(fc_cqe{e.tag, st, flags});
      continue;
    }
    if (e.op == FC_OP_ERASE && busy_.count(e.row)) {  // an operation on its chunk is out: it waits (chunks_of)
      held_resets_.push_back(e);
      ++resets_held;
      continue;
    }
    send(e);
  }
}

uint32_t HostFtlHal::recovery_dram(const ftl_config& c) {
  const uint64_t blocks = uint64_t(c.channels) * c.dies_per_channel * c.blocks_per_die;
  return uint32_t(blocks * c.pages_per_block * 4 + 128);  // a sequence number per page (power.c), aligned
}

int HostFtlHal::recover(ftl* f, const ftl_config& cfg, std::string* why) {
  std::string no;
  if (port_.meta_words != 2)
    no = "config key 'nvme.ocssd.meta': the host FTL's recovery needs lpn_seq (a sequence number per unit)";
  else if (!lbas_.empty())
    no = "config key 'host.ftl.gc_copy': no recovery through the host FTL with vector_copy (a copy's unit holds "
         "sectors of several sequence numbers, the page keeps one)";
  else if (cfg.ckpt_interval_ns || cfg.ckpt_interval_lbas)
    no =
        "config key 'power.checkpoint.interval': no checkpoints in the host FTL (the HAL stores no checkpoint payload)";
  if (!no.empty()) {
    if (why) *why = no;
    return -1;
  }
  const int rc = ftl_recover(f, hal(), &cfg);
  if (rc && why) *why = log_lines.empty() ? "the host FTL's recovery failed" : log_lines.back();
  return rc;
}

}  // namespace ssdvp
