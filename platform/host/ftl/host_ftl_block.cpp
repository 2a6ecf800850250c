// host_ftl_block.cpp - see host_ftl_block.h.
#include "ftl/host_ftl_block.h"

#include <algorithm>
#include <cstdio>
#include <cstring>

#include "nvme/nvme_ctrl.h"
#include "ssdvp_geometry.h"

namespace ssdvp {
namespace {

// Host memory of one vector command: data, metadata (up to two words a
// sector), the address list, then a copy's destination list.
constexpr uint64_t kMetaOff = 64 * 4, kListOff = kMetaOff + 2 * 64 * 4, kDstOff = kListOff + 64 * 8,
                   kVecBytes = kDstOff + 64 * 8;
constexpr uint16_t kDriveQid = 1;

nvme_sqe command(uint8_t opc, uint16_t cid) {
  nvme_sqe q{};
  q.cdw0 = SSDVP_FIELD_PUT(NVME_CDW0_OPC, opc) | SSDVP_FIELD_PUT(NVME_CDW0_CID, cid);
  q.nsid = 1;
  return q;
}

}  // namespace

HostFtlBlock::Keys HostFtlBlock::Keys::read(Config& cfg) {
  Keys k;
  k.clock_hz = cfg.get_double("host.ftl.clock_hz");
  k.cost_scale = cfg.get_double("host.ftl.cost_scale");
  k.queue_depth = uint32_t(cfg.get_u64("host.ftl.queue_depth"));
  k.vector_copy = cfg.get_choice("host.ftl.gc_copy") == "vector_copy";
  k.copy_batch = uint32_t(cfg.get_u64("host.ftl.copy_batch"));
  k.write_buffer = cfg.get_size("host.ftl.write_buffer");
  return k;
}

std::string HostFtlBlock::Keys::check_write_buffer(uint32_t lbas_per_page, uint32_t dies, uint32_t lba_bytes) const {
  if (!write_buffer) return "";
  const uint64_t page = uint64_t(lbas_per_page) * lba_bytes, stripe = page * dies;
  if (write_buffer % page)
    return "config key 'host.ftl.write_buffer': " + std::to_string(write_buffer) +
           " bytes is not a multiple of the flash page (" + std::to_string(page) + " bytes)";
  if (write_buffer < stripe)
    return "config key 'host.ftl.write_buffer': " + std::to_string(write_buffer) +
           " bytes is less than one stripe (a page on each of the " + std::to_string(dies) +
           " dies: " + std::to_string(stripe) + " bytes), the unit its writer drains";
  return "";
}

HostFtlBlock::HostFtlBlock(sc_core::sc_module_name nm, const Keys& keys, HostMemory& mem, const ftl_config& tunables)
    : sc_module(nm),
      host_regs("host_regs"),
      drive("drive"),
      mem_(mem),
      cfg_(tunables),
      clock_hz_(keys.clock_hz),
      cost_scale_(keys.cost_scale),
      qd_(keys.queue_depth),
      vector_copy_(keys.vector_copy),
      copy_batch_(keys.copy_batch),
      wb_bytes_(keys.write_buffer) {
  meta_words = cfg_.oc_meta_seq ? 2 : 1;  // the drive's namespace format (nvme.ocssd.meta)
  host_regs.register_b_transport(this, &HostFtlBlock::b_transport);
  SC_THREAD(serve);
  SC_METHOD(reap);
  sensitive << mem_.msi_event();
  dont_initialize();
}

HostFtlBlock::~HostFtlBlock() = default;

void HostFtlBlock::attach_host(uint16_t qid, uint64_t sq_addr, uint64_t cq_addr, uint32_t depth) {
  hqid_ = qid;
  hsq_ = sq_addr;
  hcq_ = cq_addr;
  hdepth_ = depth;
}

std::string HostFtlBlock::init(const Admin& admin, const std::function<bool(uint64_t, uint64_t, uint32_t)>& create) {
  admin_ = admin;
  q_ = NvmeQueuePair(mem_, bells_, kDriveQid, qd_ + 1);
  admin_buf_ = mem_.alloc(4096);
  vec_.resize(qd_);
  for (auto& v : vec_) v.buf = mem_.alloc(kVecBytes);
  if (!create(q_.sq_addr(), q_.cq_addr(), q_.entries()))
    return "could not create the host FTL's I/O queue on the drive";
  ocssd_geometry geo{};
  if (const uint16_t st = geometry(&geo); st != NVME_SC_SUCCESS)
    return "the drive refused the Geometry command (status " + std::to_string(st) + ")";
  // The host FTL's geometry is the drive's; every other tunable is the run's ftl.* keys.
  const ftl_config g = HostFtlHal(*this, geo, 0).config();
  cfg_.channels = g.channels;
  cfg_.dies_per_channel = g.dies_per_channel;
  cfg_.blocks_per_die = g.blocks_per_die;
  cfg_.slots_per_page = g.slots_per_page;
  cfg_.pages_per_block = g.pages_per_block;
  cfg_.planes_per_die = 1;  // a chunk is a block; no multi-plane vector commands
  cfg_.multiplane = 0;
  cfg_.gc_copyback = 0;               // Open-Channel has no copyback command
  cfg_.command_set = FTL_CMDSET_NVM;  // the FTL itself, on the host
  cfg_.cluster_engine = FTL_CLUSTER_SOFTWARE;
  cfg_.debug_gc_register = 0;
  cfg_.ns_ready_ns = 0;
  cfg_.dram_base = g.dram_base;
  cfg_.dram_size = 0;
  const uint64_t dram = ftl_dram_bytes(&cfg_) + 65536;
  if (dram > UINT32_MAX - SSDVP_DRAM_BASE) return "the host FTL's tables exceed its 32-bit address space";
  cfg_.dram_size = uint32_t(dram);
  char msg[256] = "";
  if (ftl_config_check(&cfg_, msg, sizeof msg) != 0) return std::string("host FTL configuration: ") + msg;
  // The buffer's size against this geometry is checked before the run (the host_ftl run component, host_ftl_run.cpp).
  const uint32_t dies = cfg_.channels * cfg_.dies_per_channel;
  const uint32_t lba_bytes = cfg_.lba_bytes ? cfg_.lba_bytes : SSDVP_GEO_LBA_BYTES;
  wb_ = HostWriteBuffer(wb_bytes_ / lba_bytes);
  wb_unit_ = uint64_t(cfg_.slots_per_page) * dies;
  HostCpuCost cost = HostCpuCost::defaults();
  cost.clock_hz = clock_hz_;
  for (double& c : cost.cycles) c *= cost_scale_;
  hal_ = std::make_unique<HostFtlHal>(*this, geo, cfg_.dram_size, cost);
  hal_ptr_ = hal_.get();
  ftl_mem_.reset(new uint8_t[ftl_size()]());
  f_ = reinterpret_cast<ftl*>(ftl_mem_.get());
  hal_->set_blocking(true);
  const int rc = ftl_init(f_, hal_->hal(), &cfg_);
  hal_->set_blocking(false);
  if (rc != 0) return "host FTL: ftl_init failed" + (hal_->log_lines.empty() ? "" : ": " + hal_->log_lines.back());
  if (vector_copy_) {
    hal_->keep_lba_list();
    hal_->set_copy_batch(copy_batch_);
    if (ftl_set_gc_copy(f_, 1) != 0)
      return "config key 'host.ftl.gc_copy': vector_copy needs relocated data on a write point of its own "
             "(not ftl.placement.policy single), ftl.mapping full and ftl.gc.max_active <= 64";
  }
  return "";
}

uint16_t HostFtlBlock::geometry(ocssd_geometry* out) {
  nvme_sqe q = command(OCSSD_ADMIN_GEOMETRY, 0);
  q.prp1 = admin_buf_;
  const uint16_t st = admin_(q);
  if (st == NVME_SC_SUCCESS) std::memcpy(out, mem_.data() + admin_buf_, sizeof *out);
  return st;
}

uint16_t HostFtlBlock::chunk_log(uint64_t off, uint32_t bytes, void* out) {
  nvme_sqe q = chunk_log_command(off, bytes);
  q.prp1 = admin_buf_;
  const uint16_t st = admin_(q);
  if (st == NVME_SC_SUCCESS && out) std::memcpy(out, mem_.data() + admin_buf_, bytes);
  return st;
}

void HostFtlBlock::sync_cpu() {
  const double busy = hal_ ? hal_->busy_ns() : 0;
  if (busy - synced_ns_ < 1) return;
  const double dt = busy - synced_ns_;
  synced_ns_ = busy;
  wait(sc_core::sc_time::from_value(uint64_t(dt * 1000)));
}

// A flash operation of the FTL, as a vector command on the drive's I/O queue
// (after the CPU time that led to it); queued here while the queue is full.
void HostFtlBlock::submit(HostFtlHal&, uint32_t id, uint8_t opcode, const uint64_t* addrs, uint32_t n,
                          const uint32_t* data, const uint32_t* meta) {
  sync_cpu();
  const uint32_t na = opcode == OCSSD_OP_VECTOR_COPY ? 2 * n : n;  // a copy: sources, then destinations
  Pending p{id, opcode, n, std::vector<uint64_t>(addrs, addrs + na), {}, {}};
  if (data) p.data.assign(data, data + n);
  if (meta) p.meta.assign(meta, meta + size_t(n) * meta_words);
  pending_.push_back(std::move(p));
  for (uint32_t s = 0; s < qd_ && !pending_.empty(); ++s)
    if (!vec_[s].busy) send(s);
}

void HostFtlBlock::send(uint32_t slot) {
  Pending p = std::move(pending_.front());
  pending_.pop_front();
  Vec& v = vec_[slot];
  v.id = p.id;
  v.opcode = p.opcode;
  v.n = p.n;
  v.busy = true;
  max_vec_busy_ = std::max<uint64_t>(max_vec_busy_, ++vec_busy_);
  uint8_t* b = mem_.data() + v.buf;
  if (!p.data.empty()) std::memcpy(b, p.data.data(), p.n * 4);
  if (!p.meta.empty()) std::memcpy(b + kMetaOff, p.meta.data(), p.meta.size() * 4);
  nvme_sqe q = command(p.opcode, uint16_t(slot));
  q.prp1 = v.buf;
  uint64_t lbal = p.addrs[0];
  if (p.n > 1) {
    std::memcpy(b + kListOff, p.addrs.data(), p.n * 8);
    lbal = v.buf + kListOff;
  }
  q.cdw10 = uint32_t(lbal);
  q.cdw11 = uint32_t(lbal >> 32);
  q.cdw12 = p.n - 1;
  if (p.opcode == OCSSD_OP_VECTOR_COPY) {  // the destinations follow the sources in p.addrs
    uint64_t dst = p.addrs[p.n];
    if (p.n > 1) {
      std::memcpy(b + kDstOff, p.addrs.data() + p.n, p.n * 8);
      dst = v.buf + kDstOff;
    }
    q.cdw14 = uint32_t(dst);
    q.cdw15 = uint32_t(dst >> 32);
  } else if (p.opcode != OCSSD_OP_VECTOR_RESET) {
    q.mptr = v.buf + kMetaOff;  // pblk's per-sector LBA in the OOB
  }
  q_.push(q);
  q_.ring_sq();
}

// The drive's completions (an MSI: also the host driver's and the admin queue's).
void HostFtlBlock::reap() {
  if (!hal_ptr_) return;
  bool any = false;
  nvme_cqe c;
  while (q_.pop(&c)) {
    any = true;
    const uint16_t st = NvmeQueuePair::status(c);
    if (c.cid >= qd_ || !vec_[c.cid].busy) {
      error_ = "the drive completed command id " + std::to_string(c.cid) + ", which is not outstanding";
      continue;
    }
    Vec& v = vec_[c.cid];
    v.busy = false;
    --vec_busy_;
    const auto* b = reinterpret_cast<const uint32_t*>(mem_.data() + v.buf);
    hal_ptr_->complete(v.id, st, b, b + kMetaOff / 4);
  }
  if (!any) return;
  q_.ring_cq();
  for (uint32_t s = 0; s < qd_ && !pending_.empty(); ++s)
    if (!vec_[s].busy) send(s);
  done_.notify(sc_core::SC_ZERO_TIME);
}

bool HostFtlBlock::wait_any() {
  if (!vec_busy_ && pending_.empty()) return false;
  wait(done_);
  return true;
}

void HostFtlBlock::b_transport(tlm::tlm_generic_payload& tx, sc_core::sc_time& delay) {
  const uint64_t a = tx.get_address();
  if (tx.is_write() && tx.get_data_length() == 4 && a == NvmeCtrl::kDoorbellBase + 8u * hqid_) {
    std::memcpy(&hsq_tail_, tx.get_data_ptr(), 4);
    if (hsq_tail_ >= hdepth_) hsq_tail_ %= hdepth_;
    work_.notify(delay);
    tx.set_response_status(tlm::TLM_OK_RESPONSE);
    return;
  }
  if (tx.is_write() && a == NvmeCtrl::kDoorbellBase + 8u * hqid_ + 4) {  // CQ head: its CQ never overflows
    tx.set_response_status(tlm::TLM_OK_RESPONSE);
    return;
  }
  drive->b_transport(tx, delay);  // the admin queue's doorbells: the drive's
}

int HostFtlBlock::write(uint64_t lba, uint32_t n, const uint32_t* tokens, uint32_t stream) {
  hal_->set_blocking(true);
  const int rc = ftl_func_write_stream(f_, lba, n, tokens, stream);
  hal_->set_blocking(false);
  return rc;
}

int HostFtlBlock::trim(uint64_t lba, uint64_t n) { return ftl_func_trim(f_, lba, n); }

int HostFtlBlock::set_gc_threshold(uint32_t blocks) { return ftl_func_set_gc_threshold(f_, blocks); }

const ftl_stats& HostFtlBlock::stats() const { return *ftl_get_stats(f_); }

void HostFtlBlock::start() {
  at_start_ = stats();
  busy_at_start_ = hal_->busy_ns();
  vec_at_start_[0] = hal_->writes;
  vec_at_start_[1] = hal_->reads;
  vec_at_start_[2] = hal_->resets;
  vec_at_start_[3] = hal_->failed;
  vec_at_start_[4] = hal_->copies;
  vec_at_start_[5] = hal_->copy_pages;
  vec_at_start_[6] = hal_->resets_held;
  if (link_bytes_) link_at_start_ = link_bytes_();
  gc_ns_at_start_ = ftl_gc_active_ns(f_, now_ns());
  max_vec_busy_ = vec_busy_;
  started_ = true;
  start_ev_.notify(sc_core::SC_ZERO_TIME);
}

void HostFtlBlock::finish(uint16_t cid, uint16_t status) {
  nvme_cqe c{};
  c.sq_head = uint16_t(hsq_head_);
  c.sq_id = hqid_;
  c.cid = cid;
  c.status = uint16_t(SSDVP_FIELD_PUT(NVME_CQE_STATUS_SF, status) | SSDVP_FIELD_PUT(NVME_CQE_STATUS_P, hphase_));
  std::memcpy(mem_.data() + hcq_ + uint64_t(hcq_tail_) * sizeof(nvme_cqe), &c, sizeof c);
  hcq_tail_ = (hcq_tail_ + 1) % hdepth_;
  if (hcq_tail_ == 0) hphase_ = !hphase_;
}

// The host driver's next command: decoded and handed to the FTL. False when
// there is none, or the FTL has no command slot for it now.
bool HostFtlBlock::fetch() {
  if (hsq_head_ == hsq_tail_) return false;
  nvme_sqe e;
  std::memcpy(&e, mem_.data() + hsq_ + uint64_t(hsq_head_) * sizeof(nvme_sqe), sizeof e);
  const uint8_t opc = uint8_t(SSDVP_FIELD_GET(NVME_CDW0_OPC, e.cdw0));
  const uint16_t cid = uint16_t(SSDVP_FIELD_GET(NVME_CDW0_CID, e.cdw0));
  Taken t;
  if (e.nsid != 1)
    t.status = NVME_SC_INVALID_NS;
  else if (opc == NVME_OP_WRITE || opc == NVME_OP_READ)
    t = take_rw(e, cid, opc == NVME_OP_WRITE);
  else if (opc == NVME_OP_DSM)
    t.status = take_dsm(e);
  else if (opc == NVME_OP_FLUSH)
    t = take_flush(cid);
  else
    t.status = NVME_SC_INVALID_OPCODE;
  if (t.later) return false;
  hal_->charge_op(FW_OP_cmd_decode, 1);
  ++host_cmds_;
  hsq_head_ = (hsq_head_ + 1) % hdepth_;
  if (!t.pending) finished_.push_back({cid, t.status});
  return true;
}

HostFtlBlock::Taken HostFtlBlock::take_rw(const nvme_sqe& e, uint16_t cid, bool write) {
  Taken t;
  const uint64_t lba = uint64_t(e.cdw10) | uint64_t(e.cdw11) << 32;
  const uint32_t n = uint32_t(SSDVP_FIELD_GET(NVME_CDW12_NLB, e.cdw12)) + 1;
  const uint32_t stream = write && SSDVP_FIELD_GET(NVME_CDW12_DTYPE, e.cdw12) == NVME_DTYPE_STREAMS
                              ? uint32_t(SSDVP_FIELD_GET(NVME_CDW13_DSPEC, e.cdw13))
                              : 0;
  if (lba >= cfg_.logical_lbas || n > cfg_.logical_lbas - lba) {
    t.status = NVME_SC_LBA_OUT_OF_RANGE;
    return t;
  }
  if (n > cfg_.max_transfer_lbas || stream > cfg_.streams_limit || e.prp1 + uint64_t(n) * 4 > mem_.size()) {
    t.status = NVME_SC_INVALID_FIELD;
    return t;
  }
  auto* tok = reinterpret_cast<uint32_t*>(mem_.data() + e.prp1);
  if (write && wb_.on() && n <= wb_.capacity()) {  // into the write buffer: complete once copied
    if (!wb_.room(n)) {
      if (!wb_want_room_) ++wbc_.room_waits;
      wb_want_room_ = true;  // the writer drains without waiting for a full stripe
      t.later = true;        // waits for room, in order
      return t;
    }
    wb_want_room_ = false;
    wb_.put(lba, n, tok, stream);
    ++wbc_.writes;
    return t;
  }
  if (write && wb_.on()) drain_all();  // larger than the buffer: after everything buffered, unbuffered
  std::vector<std::pair<uint32_t, uint32_t>> buffered;
  uint32_t tk = 0;
  for (uint32_t i = 0; !write && i < n; ++i)
    if (wb_.lookup(lba + i, &tk)) buffered.emplace_back(i, tk);
  if (!buffered.empty() && buffered.size() == n) {  // every LBA in the buffer: served from it
    for (const auto& [i, b] : buffered) tok[i] = b;
    ++wbc_.read_hits;
    wbc_.read_hit_lbas += n;
    return t;
  }
  const uint32_t c = ftl_func_submit(f_, write, lba, n, tok, stream);
  if (c == UINT32_MAX) {  // no command slot: later
    t.later = true;
    return t;
  }
  if (!buffered.empty()) {
    ++wbc_.read_partial;
    wbc_.read_hit_lbas += buffered.size();
  }
  inflight_.push_back(Inflight{c, cid, !write, e.prp1, std::move(buffered)});
  t.pending = true;
  return t;
}

uint16_t HostFtlBlock::take_dsm(const nvme_sqe& e) {
  const uint32_t nr = uint32_t(SSDVP_FIELD_GET(NVME_CDW10_DSM_NR, e.cdw10)) + 1;
  if (e.prp1 + uint64_t(nr) * sizeof(nvme_dsm_range) > mem_.size()) return NVME_SC_DATA_XFER_ERROR;
  for (uint32_t i = 0; i < nr && wb_.on() && !wb_.empty(); ++i) {
    nvme_dsm_range r;
    std::memcpy(&r, mem_.data() + e.prp1 + uint64_t(i) * sizeof r, sizeof r);
    if (wb_.overlaps(r.slba, r.nlb)) {  // buffered writes to these LBAs are placed before the trim
      ++wbc_.trim_drains;
      drain_all();
    }
  }
  for (uint32_t i = 0; i < nr; ++i) {
    nvme_dsm_range r;
    std::memcpy(&r, mem_.data() + e.prp1 + uint64_t(i) * sizeof r, sizeof r);
    if (ftl_func_trim(f_, r.slba, r.nlb) != 0) return NVME_SC_LBA_OUT_OF_RANGE;
  }
  return NVME_SC_SUCCESS;
}

HostFtlBlock::Taken HostFtlBlock::take_flush(uint16_t cid) {
  Taken t;
  if (wb_.on()) {  // completes in flush_progress, the block layer goes on
    ++wbc_.flushes;
    if (!wb_.empty()) {
      ++wbc_.flush_waits;
      wbc_.flush_drained_lbas += wb_.unsent();
    }
    flushes_.push_back(FlushWait{cid, wb_.next_seq()});
    t.pending = true;
    return t;
  }
  hal_->set_blocking(true);  // waits for the padded page's program in simulated time
  if (ftl_func_flush(f_) != 0) t.status = NVME_SC_INTERNAL;
  hal_->set_blocking(false);
  return t;
}

void HostFtlBlock::sweep() {
  drain_placed();
  for (size_t i = 0; i < inflight_.size();) {
    Inflight& in = inflight_[i];
    uint16_t st = NVME_SC_SUCCESS;
    if (!ftl_func_done(f_, in.slot, in.read ? reinterpret_cast<uint32_t*>(mem_.data() + in.buf) : nullptr, &st)) {
      ++i;
      continue;
    }
    if (in.read && !in.buffered.empty() && st == NVME_SC_SUCCESS) {  // newer than the flash: the buffer's
      auto* tok = reinterpret_cast<uint32_t*>(mem_.data() + in.buf);
      for (const auto& [off, t] : in.buffered) tok[off] = t;
    }
    finished_.push_back({in.cid, st});
    inflight_[i] = std::move(inflight_.back());
    inflight_.pop_back();
  }
}

bool HostFtlBlock::drain_placed() {
  if (drain_slot_ == UINT32_MAX) return false;
  uint16_t st = NVME_SC_SUCCESS;
  if (!ftl_func_done(f_, drain_slot_, nullptr, &st)) return false;
  if (st != NVME_SC_SUCCESS && error_.empty())
    error_ = "the FTL failed a write from the write buffer (status " + std::to_string(st) + ")";
  drain_slot_ = UINT32_MAX;
  wb_.release_oldest();
  return true;
}

void HostFtlBlock::drain(bool all) {
  // A flush not yet padded: what was buffered before it goes over at once, what came after waits, so
  // that its padding covers only pages of data it must make durable (with the journal on a write point
  // of its own, a later data write would otherwise open a page of the data write point that it pads).
  uint64_t upto = UINT64_MAX;
  for (const FlushWait& w : flushes_)
    if (!w.padded) {
      upto = w.upto;
      break;
    }
  for (;;) {
    sweep();                                // slots the FTL released (the drain's too), before the next submission
    if (drain_slot_ != UINT32_MAX) return;  // one at a time: the FTL places them in order
    HostWriteBuffer::Entry* e = wb_.next_unsent();
    if (!e) return;
    const bool before_flush = e->seq < upto;
    if (!(all || (upto != UINT64_MAX && before_flush) || (upto == UINT64_MAX && wb_.unsent() >= wb_unit_))) return;
    const uint32_t c = ftl_func_submit(f_, 1, e->lba, uint32_t(e->tokens.size()), e->tokens.data(), e->stream);
    if (c == UINT32_MAX) return;  // no command slot: later
    drain_slot_ = c;
    wbc_.drained_lbas += e->tokens.size();
    wb_.mark_sent(*e);
  }
}

void HostFtlBlock::drain_all() {
  while (!wb_.empty()) {
    drain(true);
    if (wb_.empty()) return;
    bool did = false;
    while (ftl_poll(f_)) did = true;
    const bool placing = drain_slot_ != UINT32_MAX;
    sweep();
    if (placing && drain_slot_ == UINT32_MAX) did = true;
    sync_cpu();
    if (!did && !wait_any()) {
      if (error_.empty()) error_ = "the write buffer cannot drain: the FTL accepts no write and waits for nothing";
      return;
    }
  }
}

bool HostFtlBlock::flush_progress() {
  bool did = false;
  while (!flushes_.empty()) {
    FlushWait& w = flushes_.front();
    if (!w.padded) {
      if (!wb_.placed_before(w.upto)) break;  // the writer is still handing its writes over
      const uint64_t pad0 = stats().pad_slots;
      const bool ok = ftl_func_flush_submit(f_) == 0;
      wbc_.pad_lbas += stats().pad_slots - pad0;
      w.padded = true;
      w.vec_marker = hal_->next_command_id();
      did = true;
      if (!ok) {
        finished_.push_back({w.cid, NVME_SC_INTERNAL});
        flushes_.pop_front();
        continue;
      }
    }
    if (!hal_->completed_before(w.vec_marker)) break;  // a program sent before it is still in flight
    finished_.push_back({w.cid, NVME_SC_SUCCESS});
    flushes_.pop_front();
    did = true;
  }
  return did;
}

// The block layer: one host CPU thread runs the FTL for every command.
void HostFtlBlock::serve() {
  wait(start_ev_);
  for (;;) {
    bool did = false;
    for (;;) {  // a write's command slot is released by the FTL: look before every submission
      sweep();
      if (!fetch()) break;
      did = true;
    }
    while (ftl_poll(f_)) did = true;
    sweep();
    if (wb_.on()) {
      const uint64_t before = wbc_.drained_lbas, used = wb_.used();
      drain(wb_want_room_);
      while (ftl_poll(f_)) did = true;
      sweep();
      if (flush_progress()) did = true;
      if (wbc_.drained_lbas != before || wb_.used() != used) did = true;
    }
    sync_cpu();
    if (!finished_.empty()) {
      for (const auto& [cid, st] : finished_) finish(cid, st);
      finished_.clear();
      mem_.notify_msi(hqid_);  // the host queue's CQ vector (IV = qid)
      did = true;
    }
    if (!did) wait(work_ | done_);
  }
}

nlohmann::json HostFtlBlock::summary(double span_s) const {
  const ftl_stats& s = stats();
  const uint64_t host = s.host_lba_writes - at_start_.host_lba_writes, gc = s.gc_lba_writes - at_start_.gc_lba_writes;
  const double busy_s = (hal_->busy_ns() - busy_at_start_) * 1e-9;
  const auto link = link_bytes_ ? link_bytes_() : std::pair<uint64_t, uint64_t>{};
  return {
      {"gc_copy", vector_copy_ ? "vector_copy" : "read_write"},
      {"link",
       {{"bytes_to_drive", link.first - link_at_start_.first},
        {"bytes_from_drive", link.second - link_at_start_.second}}},
      {"gc_active_s", double(ftl_gc_active_ns(f_, sc_core::sc_time_stamp().value() / 1000) - gc_ns_at_start_) * 1e-9},
      {"cpu",
       {{"clock_hz", clock_hz_},
        {"cost_scale", cost_scale_},
        {"busy_s", busy_s},
        {"utilization", span_s > 0 ? busy_s / span_s : 0.0}}},
      {"host_commands", host_cmds_},
      {"vector_commands",
       {{"writes", hal_->writes - vec_at_start_[0]},
        {"reads", hal_->reads - vec_at_start_[1]},
        {"resets", hal_->resets - vec_at_start_[2]},
        {"copies", hal_->copies - vec_at_start_[4]},
        {"copy_pages", hal_->copy_pages - vec_at_start_[5]},
        {"resets_held", hal_->resets_held - vec_at_start_[6]},
        {"failed", hal_->failed - vec_at_start_[3]},
        {"max_outstanding", max_vec_busy_}}},
      {"waf", host ? double(host + gc) / double(host) : 0.0},
      {"host_lba_writes", host},
      {"gc_lba_writes", gc},
      {"gc_runs", s.gc_victims - at_start_.gc_victims},
      {"erases", s.erases - at_start_.erases},
      {"pad_slots", s.pad_slots - at_start_.pad_slots},
      {"free_blocks_min", s.free_blocks_min},
      {"write_buffer",
       {{"bytes", wb_bytes_},
        {"writes", wbc_.writes},
        {"room_waits", wbc_.room_waits},
        {"max_occupancy_bytes", wb_.max_used() * (wb_.on() ? wb_bytes_ / wb_.capacity() : 0)},
        {"drained_lbas", wbc_.drained_lbas},
        {"read_hits", wbc_.read_hits},
        {"read_partial_hits", wbc_.read_partial},
        {"read_hit_lbas", wbc_.read_hit_lbas},
        {"flushes", wbc_.flushes},
        {"flush_waits", wbc_.flush_waits},
        {"flush_drained_lbas", wbc_.flush_drained_lbas},
        {"pad_lbas", wbc_.pad_lbas},
        {"trim_drains", wbc_.trim_drains}}},
      {"error", error_}};
}

std::string host_ftl_summary_line(const nlohmann::json& j) {
  if (!j.contains("host_ftl")) return "";
  const auto& h = j["host_ftl"];
  const auto& v = h["vector_commands"];
  char line[320];
  std::snprintf(line, sizeof line,
                "host FTL: WAF %.3f (GC %llu LBAs, %llu victims, %llu erases); host CPU %.3f s (%.1f %%); vector "
                "commands %llu writes, %llu reads, %llu resets, %llu failed",
                h["waf"].get<double>(), (unsigned long long)h["gc_lba_writes"].get<uint64_t>(),
                (unsigned long long)h["gc_runs"].get<uint64_t>(), (unsigned long long)h["erases"].get<uint64_t>(),
                h["cpu"]["busy_s"].get<double>(), 100 * h["cpu"]["utilization"].get<double>(),
                (unsigned long long)v["writes"].get<uint64_t>(), (unsigned long long)v["reads"].get<uint64_t>(),
                (unsigned long long)v["resets"].get<uint64_t>(), (unsigned long long)v["failed"].get<uint64_t>());
  return line;
}

}  // namespace ssdvp
