// nvme_ctrl.cpp - see nvme_ctrl.h.
#include "nvme/nvme_ctrl.h"

#include <algorithm>
#include <cmath>
#include <cstring>

#include "common/ring.h"
#include "common/tlm_access.h"

namespace ssdvp {
namespace {

sc_core::sc_time ps(uint64_t v) { return sc_core::sc_time::from_value(v); }
uint64_t now_ps() { return sc_core::sc_time_stamp().value(); }

}  // namespace

NvmeCtrl::NvmeCtrl(sc_core::sc_module_name nm, Config& cfg)
    : BusDevice(nm, cfg, "NVME", "nvme.access"),
      host_regs("host_regs"),
      host_dma("host_dma"),
      dma("dma", SSDVP_DRAM_BASE),
      irq_cmd("irq_cmd"),
      irq_done("irq_done") {
  lba_size_ = uint32_t(cfg.get_size("nvme.lba_size"));
  link_latency_ps_ = cfg.get_time_ps("pcie.latency");
  link_mbps_ = cfg.get_double("pcie.mbps");
  fetch_ps_ = cfg.get_time_ps("nvme.fetch");
  cqe_ps_ = cfg.get_time_ps("nvme.completion");
  fetch_burst_ = uint32_t(cfg.get_u64("nvme.fetch_burst"));
  q_.resize(kMaxQueues + 1);
  arb_ = NvmeArbiter(fetch_burst_);
  arb_.set_mechanism(cfg.get_choice("nvme.arbitration") == "wrr" ? NvmeArbiter::Mechanism::wrr
                                                                 : NvmeArbiter::Mechanism::rr);
  vectors_ = uint32_t(cfg.get_u64("nvme.interrupt_vectors"));
  coalesce_unit_ps_ = cfg.get_time_ps("nvme.coalesce_time_unit");
  coalesce_.resize(vectors_);
  mqes_ = uint32_t(cfg.get_u64("nvme.max_queue_entries") - 1);

  host_regs.register_b_transport(this, &NvmeCtrl::host_b_transport);

  bank_.on_read(NVME_CMD_TAIL, [this] { return cmd_visible_tail_; });
  bank_.on_read(NVME_XFER_HEAD, [this] { return xfer_.head; });
  bank_.on_read(NVME_DONE_TAIL, [this] { return done_.tail; });
  bank_.on_read(NVME_ERRORS, [this] { return uint32_t(stats_.ring_errors); });
  bank_.on_write(NVME_Q_CMD, [this](uint32_t v) { bank_.set(NVME_Q_STATUS, queue_command(v)); });
  bank_.on_write(NVME_ARB, [this](uint32_t v) { arb_.set_feature(v); });
  bank_.on_read(NVME_ARB, [this] { return arb_.feature(); });
  bank_.on_read(NVME_MQES, [this] { return mqes_; });
  bank_.on_read(NVME_AMS, [this] { return arb_.mechanism() == NvmeArbiter::Mechanism::wrr ? 1u : 0u; });
  // Each firmware ring's BASE and SIZE registers: a write re-checks the ring's layout.
  const auto ring_regs = [this](Ring& r, uint32_t base_reg, uint32_t size_reg, uint32_t entry_bytes) {
    bank_.on_write(base_reg, [this, &r, entry_bytes](uint32_t v) {
      r.base = v;
      write_ring(r, entry_bytes);
    });
    bank_.on_write(size_reg, [this, &r, entry_bytes](uint32_t v) {
      r.size = v;
      write_ring(r, entry_bytes);
    });
  };
  ring_regs(cmd_, NVME_CMD_BASE, NVME_CMD_SIZE, sizeof(nvme_cmd_entry));
  ring_regs(xfer_, NVME_XFER_BASE, NVME_XFER_SIZE, sizeof(nvme_xfer));
  ring_regs(done_, NVME_DONE_BASE, NVME_DONE_SIZE, sizeof(nvme_done));
  bank_.on_write(NVME_XFER_TAIL, [this](uint32_t v) { write_xfer_tail(v); });
  bank_.on_write(NVME_CMD_HEAD, [this](uint32_t v) { write_cmd_head(v); });
  bank_.on_write(NVME_DONE_HEAD, [this](uint32_t v) { write_done_head(v); });
  bank_.on_write(NVME_ENABLE, [this](uint32_t) { fetch(access_end_ps()); });
  bank_.on_write(NVME_DBG_GC, [this](uint32_t v) { debug_gc_write(v != 0, access_end_ps()); });

  SC_METHOD(publish_method);
  sensitive << publish_ev_;
  dont_initialize();
  SC_METHOD(irq_method);
  sensitive << irq_ev_;
}

void NvmeCtrl::write_ring(Ring& r, uint32_t entry_bytes) {
  r.head = r.tail = 0;
  r.ok = false;
  if (r.base == 0 || r.size == 0) return;  // being programmed
  const char* bad = ring_layout_fault(r.base, r.size, entry_bytes, 2, [this](uint64_t base, uint64_t bytes) {
    return dram_ptr(uint32_t(base), uint32_t(std::min<uint64_t>(bytes, UINT32_MAX))) != nullptr;
  });
  if (bad) {
    ++stats_.ring_errors;
    SSDVP_LOG(log_, error, "firmware bug: ring at 0x%08x with %u entries: %s", r.base, r.size, bad);
    return;
  }
  r.ok = true;
  if (&r == &cmd_) cmd_visible_tail_ = 0;
}

bool NvmeCtrl::host_access(bool write, uint64_t addr, void* data, uint32_t len) {
  PayloadPool::Lease tx(payloads_);
  sc_core::sc_time d = sc_core::SC_ZERO_TIME;  // the link model charges the time
  prepare_access(*tx, write, addr, data, len);
  host_dma->b_transport(*tx, d);
  return tx->is_response_ok();
}

bool NvmeCtrl::create_io_queue(uint16_t qid, uint64_t sq_addr, uint64_t cq_addr, uint32_t depth, uint64_t msi_addr,
                               NvmeArbiter::Priority prio) {
  if (qid == 0 || qid > kMaxQueues || depth < 2 || depth > 65536 || q_[qid].live || q_[qid].cq) {
    SSDVP_LOG(log_, error, "create I/O queue %u with depth %u rejected (qid 1..%u, depth 2..65536, not yet live)", qid,
              depth, kMaxQueues);
    return false;
  }
  if (!add_queue(qid, sq_addr, cq_addr, depth, msi_addr)) return false;
  arb_.add(qid, prio);
  return true;
}

uint32_t NvmeCtrl::queue_command(uint32_t cmd) {
  const uint32_t id = bank_.get(NVME_Q_ID), args = bank_.get(NVME_Q_ARGS);
  const uint16_t qid = uint16_t(SSDVP_FIELD_GET(NVME_Q_ID_QID, id));
  const uint32_t qsize = SSDVP_FIELD_GET(NVME_Q_ID_QSIZE, id);  // 0's based
  const uint32_t ref = SSDVP_FIELD_GET(NVME_Q_ARGS_QREF, args);
  const uint64_t addr = uint64_t(bank_.get(NVME_Q_ADDR_HI)) << 32 | bank_.get(NVME_Q_ADDR_LO);
  if (cmd == NVME_QCMD_DELETE_SQ || cmd == NVME_QCMD_DELETE_CQ) return delete_command(cmd == NVME_QCMD_DELETE_CQ, qid);
  if (cmd != NVME_QCMD_CREATE_CQ && cmd != NVME_QCMD_CREATE_SQ) {
    ++stats_.ring_errors;
    SSDVP_LOG(log_, error, "firmware bug: queue command %u unknown", cmd);
    return NVME_SC_INTERNAL;
  }
  const bool cq = cmd == NVME_QCMD_CREATE_CQ;
  // NVMe: Invalid Queue Identifier, then (SQ) Completion Queue Invalid,
  // then Invalid Queue Size; a non-contiguous queue is not supported.
  if (qid == 0 || qid > kMaxQueues || (cq ? q_[qid].cq : q_[qid].live)) return NVME_SC_INVALID_QID;
  if (!cq && (ref == 0 || ref > kMaxQueues || !q_[ref].cq)) return NVME_SC_CQ_INVALID;
  if (qsize == 0 || qsize > mqes_) return NVME_SC_INVALID_QSIZE;
  if (cq && ref >= vectors_) return NVME_SC_INVALID_VECTOR;
  if (!SSDVP_FIELD_GET(NVME_Q_ARGS_PC, args)) return NVME_SC_INVALID_FIELD;
  Queue& q = q_[qid];
  if (cq) {
    q.cq = true;
    q.cq_addr = addr;
    q.cq_depth = qsize + 1;
    q.cq_tail = q.cq_head = 0;
    q.phase = true;
    q.cq_backlog.clear();
    q.msi_addr = q_[0].msi_addr;  // MSI-X table not modelled: the admin queue's window, value = IV
    q.msi_vec = ref;
    q.ien = (args >> 1 & 1u) != 0;  // IEN, CDW11 bit 1 (QPRIO's bits in an SQ's): clear, no interrupt
  } else {
    q.live = true;
    q.deleting = false;
    q.in_flight = 0;
    q.sq_addr = addr;
    q.depth = qsize + 1;
    q.sq_head = q.sq_tail = 0;
    q.cqid = ref;
    live_.push_back(qid);
    arb_.add(qid, NvmeArbiter::Priority(SSDVP_FIELD_GET(NVME_Q_ARGS_QPRIO, args)));
  }
  SSDVP_LOG(log_, info, "I/O %s %u created: %u entries", cq ? "CQ" : "SQ", qid, qsize + 1);
  return NVME_SC_SUCCESS;
}

uint32_t NvmeCtrl::delete_command(bool cq, uint16_t qid) {
  // NVMe: Invalid Queue Identifier for queue 0, one that does not exist or an
  // SQ already being deleted; Invalid Queue Deletion for a CQ an SQ still uses.
  if (qid == 0 || qid > kMaxQueues) return NVME_SC_INVALID_QID;
  Queue& q = q_[qid];
  if (cq) {
    if (!q.cq) return NVME_SC_INVALID_QID;
    for (uint16_t s : live_)
      if (s != 0 && q_[s].cqid == qid) return NVME_SC_INVALID_QDELETION;
    q.cq = false;
    q.cq_backlog.clear();
    SSDVP_LOG(log_, info, "I/O CQ %u deleted", qid);
    return NVME_SC_SUCCESS;
  }
  if (!q.live || q.deleting) return NVME_SC_INVALID_QID;
  q.sq_only = true;  // its CQ stays until Delete I/O CQ
  ++admin_deletes_;  // admin completions wait for the deletion (finish_delete)
  delete_io_queue(qid);
  return NVME_SC_SUCCESS;
}

bool NvmeCtrl::create_admin_queue(uint64_t sq_addr, uint64_t cq_addr, uint32_t depth, uint64_t msi_addr) {
  if (depth < 2 || depth > 4096 || q_[0].live) {
    SSDVP_LOG(log_, error, "create admin queue with depth %u rejected (depth 2..4096, once)", depth);
    return false;
  }
  if (!add_queue(0, sq_addr, cq_addr, depth, msi_addr)) return false;
  arb_.add(0, NvmeArbiter::urgent);  // admin: its own strict level under wrr
  return true;
}

bool NvmeCtrl::delete_io_queue(uint16_t qid) {
  if (qid == 0 || qid > kMaxQueues || !q_[qid].live || q_[qid].deleting) {
    SSDVP_LOG(log_, error, "delete I/O queue %u rejected (qid 1..%u, live, not being deleted)", qid, kMaxQueues);
    return false;
  }
  Queue& q = q_[qid];
  q.deleting = true;
  // Commands still in the SQ: read for their CID, completed with 08h.
  const uint64_t now = now_ps();
  for (; q.sq_head != q.sq_tail; q.sq_head = ring_next(q.sq_head, q.depth)) {
    nvme_sqe e{};
    if (!host_access(false, q.sq_addr + uint64_t(q.sq_head) * sizeof(nvme_sqe), &e, sizeof e)) {
      ++stats_.fetch_errors;
      continue;
    }
    Event ev{};
    ev.kind = EvKind::completion;
    ev.qid = qid;
    ev.cqe.cid = uint16_t(SSDVP_FIELD_GET(NVME_CDW0_CID, e.cdw0));
    ev.cqe.sq_id = qid;
    ev.cqe.status = uint16_t(SSDVP_FIELD_PUT(NVME_CQE_STATUS_SF, NVME_SC_ABORTED_SQ_DELETION));
    ev.time = link_write(link_read(now, sizeof(nvme_sqe)) + cqe_ps_, sizeof(nvme_cqe));
    ++q.in_flight;
    ++stats_.aborted_sq_deletion;
    schedule(std::move(ev));
  }
  finish_delete(qid);
  return true;
}

void NvmeCtrl::finish_delete(uint16_t qid) {
  Queue& q = q_[qid];
  if (!q.deleting || q.in_flight || !q.cq_backlog.empty()) return;
  const bool sq_only = q.sq_only;
  q.live = q.deleting = q.sq_only = false;
  if (!sq_only) q.cq = false;
  live_.erase(std::find(live_.begin(), live_.end(), qid));
  arb_.remove(qid);
  SSDVP_LOG(log_, info, "I/O %s %u deleted", sq_only ? "SQ" : "queue", qid);
  deleted.notify(sc_core::SC_ZERO_TIME);
  if (sq_only && --admin_deletes_ == 0) {  // the Delete I/O SQ's completion, and what queued behind it
    std::deque<nvme_cqe> held;
    held.swap(held_admin_);
    for (const nvme_cqe& c : held) post_completion(0, c);
  }
}

bool NvmeCtrl::add_queue(uint16_t qid, uint64_t sq_addr, uint64_t cq_addr, uint32_t depth, uint64_t msi_addr) {
  Queue& q = q_[qid];
  q = Queue{};
  q.live = q.cq = true;
  q.cqid = qid;
  q.sq_addr = sq_addr;
  q.cq_addr = cq_addr;
  q.msi_addr = msi_addr;
  q.msi_vec = qid;
  q.depth = q.cq_depth = depth;
  live_.push_back(qid);
  return true;
}

// ---- link ------------------------------------------------------------------

uint64_t NvmeCtrl::link_read(uint64_t at, uint64_t bytes) {
  // request upstream (header only), completion with data downstream
  const uint64_t xfer = uint64_t(std::llround(double(bytes) * 1e6 / link_mbps_));
  const uint64_t start = std::max(at + link_latency_ps_, down_free_);
  down_free_ = start + xfer;
  stats_.link_busy_down_ps += xfer;
  return down_free_ + link_latency_ps_;
}

uint64_t NvmeCtrl::link_write(uint64_t at, uint64_t bytes) {
  const uint64_t xfer = uint64_t(std::llround(double(bytes) * 1e6 / link_mbps_));
  const uint64_t start = std::max(at, up_free_);
  up_free_ = start + xfer;
  stats_.link_busy_up_ps += xfer;
  return up_free_ + link_latency_ps_;
}

// ---- host side -------------------------------------------------------------

void NvmeCtrl::host_b_transport(tlm::tlm_generic_payload& tx, sc_core::sc_time& delay) {
  const uint64_t addr = tx.get_address();
  delay += ps(link_latency_ps_);  // the doorbell write crosses the link
  if (!tx.is_write() || tx.get_data_length() != 4 || addr < kDoorbellBase || addr % 4) {
    tx.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
    ++stats_.invalid_doorbells;
    return;
  }
  uint32_t v;
  std::memcpy(&v, tx.get_data_ptr(), 4);
  const uint32_t idx = uint32_t((addr - kDoorbellBase) / 4);
  const uint32_t qid = idx / 2;
  tx.set_response_status(tlm::TLM_OK_RESPONSE);
  const bool sq_db = idx % 2 == 0;
  if (qid > kMaxQueues || !ring_index_ok(sq_db ? q_[qid].live : q_[qid].cq, v,
                                         sq_db ? q_[qid].depth : q_[qid].cq_depth)) {  // queue 0: create_admin_queue
    // NVMe: an asynchronous "invalid doorbell" event; the write is ignored.
    ++stats_.invalid_doorbells;
    SSDVP_LOG(log_, warn, "invalid doorbell write: queue %u, value %u", qid, v);
    return;
  }
  Queue& q = q_[qid];
  if (idx % 2 == 0) {
    if (q.deleting) {  // no new commands for a queue being deleted
      ++stats_.invalid_doorbells;
      SSDVP_LOG(log_, warn, "SQ tail doorbell for queue %u, which is being deleted", qid);
      return;
    }
    q.sq_tail = v;
    fetch(now_ps() + delay.value());
  } else {
    q.cq_head = v;
    // Completions held for a full CQ go out once the doorbell has arrived,
    // each built and sent over the link like any other.
    const uint64_t arrived = now_ps() + delay.value();
    uint32_t room = ring_room(q.cq_head, q.cq_tail, q.cq_depth);
    while (!q.cq_backlog.empty() && room-- > 0) {
      Event ev{};
      ev.kind = EvKind::completion;
      ev.qid = q.cq_backlog.front().sq_id;  // the SQ it completes (CQs may be shared)
      ev.cqe = q.cq_backlog.front();
      q.cq_backlog.pop_front();
      ev.time = link_write(arrived + cqe_ps_, sizeof(nvme_cqe));
      schedule(std::move(ev));
    }
  }
}

void NvmeCtrl::fetch(uint64_t at) {
  if (!cmd_.ok || !SSDVP_FIELD_GET(NVME_ENABLE_FETCH, bank_.get(NVME_ENABLE)))
    return;  // the firmware enables fetching once its rings are set
  const uint64_t now = std::max(at, now_ps());
  const auto waiting = [this](uint16_t id) {
    const Queue& s = q_[id];
    return s.live && !s.deleting ? ring_used(s.sq_head, s.sq_tail, s.depth) : 0u;
  };
  for (;;) {
    const uint32_t used = ring_used(cmd_.head, cmd_.tail, cmd_.size);
    if (used + 1 >= cmd_.size) return;  // CMD ring full: wait for the firmware
    uint16_t qid = 0;
    uint32_t quota = 0;
    if (!arb_.pick(waiting, &qid, &quota)) return;  // nvme_arbiter.h: RR, or WRR with urgent
    Queue& q = q_[qid];
    uint32_t n = 0;
    while (n < quota && q.sq_head != q.sq_tail && used + n + 1 < cmd_.size) {
      Event ev{};
      ev.kind = EvKind::cmd_visible;
      ev.qid = uint16_t(qid);
      nvme_cmd_entry cmd{};
      const bool readable =
          host_access(false, q.sq_addr + uint64_t(q.sq_head) * sizeof(nvme_sqe), &cmd.sqe, sizeof(nvme_sqe));
      cmd.sqid = uint16_t(qid);
      q.sq_head = ring_next(q.sq_head, q.depth);
      ++n;
      if (!readable) {
        // No command, so no CID to complete: a real controller reports a
        // fatal status (CSTS.CFS) and waits for a reset; the model drops the
        // entry, counts it and goes on (never hands the firmware garbage).
        ++stats_.fetch_errors;
        SSDVP_LOG(log_, error, "SQ %u entry not readable in host memory: dropped", qid);
        continue;
      }
      ++q.in_flight;
      ev.time = link_read(now, sizeof(nvme_sqe)) + fetch_ps_;  // monotonic: ring order = time order
      // the entry lands in the CMD ring now; the tail moves at ev.time
      auto* slot = reinterpret_cast<nvme_cmd_entry*>(dram_ptr(cmd_.base, cmd_.size * sizeof(nvme_cmd_entry)));
      if (slot) slot[cmd_.tail] = cmd;
      cmd_.tail = ring_next(cmd_.tail, cmd_.size);
      ++stats_.commands_fetched;
      schedule(std::move(ev));
    }
    arb_.took(qid, n);
  }
}

// ---- firmware side ---------------------------------------------------------

void NvmeCtrl::write_xfer_tail(uint32_t v) {
  if (!ring_index_ok(xfer_.ok, v, xfer_.size)) {
    ++stats_.ring_errors;
    SSDVP_LOG(log_, error, "firmware bug: XFER tail %u with the ring not programmed or out of range", v);
    return;
  }
  xfer_.tail = v;
  process_xfers(access_end_ps());
}

void NvmeCtrl::write_cmd_head(uint32_t v) {
  if (!ring_index_ok(cmd_.ok, v, cmd_.size)) {
    ++stats_.ring_errors;
    return;
  }
  cmd_.head = v;
  irq_ev_.notify(ps(access_delay_ps() + access_ps()));
  fetch(access_end_ps());
}

void NvmeCtrl::write_done_head(uint32_t v) {
  if (!ring_index_ok(done_.ok, v, done_.size)) {
    ++stats_.ring_errors;
    return;
  }
  done_.head = v;
  irq_ev_.notify(ps(access_delay_ps() + access_ps()));
}

void NvmeCtrl::debug_gc_write(bool on, uint64_t at) {
  if (on == dbg_gc_on_) return;
  if (!on) dbg_gc_ps_ += at > dbg_gc_since_ ? at - dbg_gc_since_ : 0;
  dbg_gc_since_ = at;
  dbg_gc_on_ = on;
}

uint64_t NvmeCtrl::debug_gc_active_ps(uint64_t now) const {
  return dbg_gc_ps_ + (dbg_gc_on_ && now > dbg_gc_since_ ? now - dbg_gc_since_ : 0);
}

void NvmeCtrl::process_xfers(uint64_t at) {
  auto* ring = reinterpret_cast<nvme_xfer*>(dram_ptr(xfer_.base, xfer_.size * sizeof(nvme_xfer)));
  if (!ring) return;
  uint64_t t = std::max(at, engine_free_);
  while (xfer_.head != xfer_.tail) {
    const nvme_xfer x = ring[xfer_.head];
    xfer_.head = ring_next(xfer_.head, xfer_.size);
    Event ev{};
    ev.done.tag = x.tag;
    ev.done.status = 0;
    const uint64_t qid = x.sqid;
    switch (x.op) {
      case XFER_H2D:
      case XFER_H2D_RAW: {
        const bool raw = x.op == XFER_H2D_RAW;
        const uint32_t bytes = raw ? x.nlb : x.nlb * 4;  // tokens move 4 bytes per LBA
        const uint64_t modelled = raw ? x.nlb : uint64_t(x.nlb) * lba_size_;
        uint8_t* dst = dram_ptr(x.dram, bytes);
        if (!dst || !host_access(false, x.host, dst, bytes)) ev.done.status = NVME_SC_DATA_XFER_ERROR;
        stats_.bytes_h2d += modelled;
        ev.time = link_read(t, modelled);
        ev.kind = EvKind::done_entry;
        schedule(std::move(ev));
        break;
      }
      case XFER_D2H:
      case XFER_D2H_RAW: {
        const bool raw = x.op == XFER_D2H_RAW;
        const uint32_t bytes = raw ? x.nlb : x.nlb * 4;
        const uint64_t modelled = raw ? x.nlb : uint64_t(x.nlb) * lba_size_;
        uint8_t* src = dram_ptr(x.dram, bytes);
        if (!src || !host_access(true, x.host, src, bytes)) ev.done.status = NVME_SC_DATA_XFER_ERROR;
        stats_.bytes_d2h += modelled;
        ev.time = link_write(t, modelled);
        ev.kind = EvKind::done_entry;
        schedule(std::move(ev));
        break;
      }
      case XFER_COMPLETE: {
        if (qid > kMaxQueues || !q_[qid].live) {
          ++stats_.ring_errors;
          SSDVP_LOG(log_, error, "firmware bug: completion for queue %u which does not exist", unsigned(qid));
          break;
        }
        ev.kind = EvKind::completion;
        ev.qid = uint16_t(qid);
        ev.cqe.cid = x.cid;
        ev.cqe.dw0 = x.dw0;  // XFER_COMPLETE: completion dword 0 (command-specific result)
        ev.cqe.sq_id = uint16_t(qid);
        ev.cqe.status = uint16_t(SSDVP_FIELD_PUT(NVME_CQE_STATUS_SF, x.status));  // phase filled in when posted
        ev.time = link_write(t + cqe_ps_, sizeof(nvme_cqe));
        schedule(std::move(ev));
        break;
      }
      default:
        ++stats_.ring_errors;
        SSDVP_LOG(log_, error, "firmware bug: transfer op %u unknown", x.op);
        ev.done.status = NVME_SC_DATA_XFER_ERROR;
        ev.time = t;
        ev.kind = EvKind::done_entry;
        schedule(std::move(ev));
    }
  }
  engine_free_ = t;
}

void NvmeCtrl::schedule(Event&& ev) {
  const uint64_t now = now_ps();
  if (ev.time < now) ev.time = now;
  const uint64_t t = ev.time;
  const bool earliest = t < events_.next_time();
  events_.push(t, std::move(ev));
  if (earliest) publish_ev_.notify(ps(t - now));
}

void NvmeCtrl::post_completion(uint16_t qid, nvme_cqe cqe) {
  if (qid == 0 && admin_deletes_) {  // a Delete I/O SQ is still draining its SQ
    held_admin_.push_back(cqe);
    return;
  }
  Queue& sq = q_[qid];
  Queue& q = q_[sq.cqid];                             // the CQ (its own id for a pair)
  if (ring_full(q.cq_head, q.cq_tail, q.cq_depth)) {  // host CQ full: hold it
    q.cq_backlog.push_back(cqe);
    return;
  }
  cqe.sq_head = uint16_t(sq.sq_head);
  cqe.status =
      uint16_t((cqe.status & ~SSDVP_FIELD_MASK(NVME_CQE_STATUS_P)) | SSDVP_FIELD_PUT(NVME_CQE_STATUS_P, q.phase));
  if (!host_access(true, q.cq_addr + uint64_t(q.cq_tail) * sizeof(nvme_cqe), &cqe, sizeof cqe))
    ++stats_.completion_errors;
  q.cq_tail = ring_next(q.cq_tail, q.cq_depth);
  if (q.cq_tail == 0) q.phase = !q.phase;
  ++stats_.completions;
  if (SSDVP_FIELD_GET(NVME_CQE_STATUS_SF, cqe.status)) ++stats_.error_completions;
  interrupt(sq.cqid);
  if (sq.in_flight) --sq.in_flight;
  finish_delete(qid);
}

void NvmeCtrl::publish_method() {
  ++stats_.publish_runs;
  const uint64_t now = now_ps();
  bool irq_change = false;
  while (!events_.empty() && events_.next_time() <= now) {
    const Event ev = events_.pop().item;  // 32 bytes
    switch (ev.kind) {
      case EvKind::cmd_visible:
        cmd_visible_tail_ = ring_next(cmd_visible_tail_, cmd_.size);
        irq_change = true;
        break;
      case EvKind::done_entry: {
        auto* ring = reinterpret_cast<nvme_done*>(dram_ptr(done_.base, done_.size * sizeof(nvme_done)));
        if (ring && done_.ok) {
          ring[done_.tail] = ev.done;
          done_.tail = ring_next(done_.tail, done_.size);
        }
        irq_change = true;
        break;
      }
      case EvKind::completion: post_completion(ev.qid, ev.cqe); break;
      case EvKind::coalesce_timer: coalesce_timer(ev.qid, ev.time); break;
    }
  }
  if (irq_change) irq_ev_.notify(sc_core::SC_ZERO_TIME);
  // Statically sensitive to publish_ev_: the next event's time is one more notification of it (an earlier
  // one pending wins), cheaper than a dynamic trigger with a time-out.
  if (!events_.empty()) publish_ev_.notify(ps(events_.next_time() - now));
}

void NvmeCtrl::irq_method() {
  ++stats_.irq_runs;
  irq_cmd.write(cmd_.ok && cmd_visible_tail_ != cmd_.head);
  irq_done.write(done_.ok && done_.tail != done_.head);
}

}  // namespace ssdvp
