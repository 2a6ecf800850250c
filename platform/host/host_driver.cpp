// host_driver.cpp - see host_driver.h.
#include "host/host_driver.h"

#include <algorithm>
#include <cstring>
#include <stdexcept>

#include "nvme/nvme_ctrl.h"

namespace ssdvp {
namespace {

sc_core::sc_time ps(uint64_t v) { return sc_core::sc_time::from_value(v); }
uint64_t now_ps() { return sc_core::sc_time_stamp().value(); }
bool is_write_like(host::IoOp op) { return op == host::IoOp::write || op == host::IoOp::trim; }

}  // namespace

bool lba_range(uint64_t offset, uint64_t length, uint32_t lba_size, uint64_t lbas, bool wrap, uint64_t* lba_out,
               uint64_t* n_out, bool* wrapped) {
  uint64_t lba = offset / lba_size;
  uint64_t n = (offset + length + lba_size - 1) / lba_size - lba;
  if (wrapped) *wrapped = false;
  if (n == 0) return false;
  if (wrap && (lba >= lbas || n > lbas - lba)) {
    if (wrapped) *wrapped = true;
    if (n > lbas) n = lbas;
    lba %= lbas;
    if (n > lbas - lba) lba = lbas - n;
  }
  *lba_out = lba;
  *n_out = n;
  return true;
}

HostDriver::HostDriver(sc_core::sc_module_name nm, Config& cfg, HostMemory& mem, NvmeCtrl& nvme, Scoreboard& sb,
                       uint32_t lba_size, uint32_t max_transfer, const HostQueue& queue)
    : sc_module(nm),
      pcie("pcie"),
      log_(name(), log_level_from(cfg, name())),
      mem_(mem),
      nvme_(nvme),
      sb_(sb),
      lba_size_(lba_size),
      max_transfer_(max_transfer),
      lbas_(queue.lbas ? queue.lbas : sb.lbas()) {
  hq_ = queue;
  lba_end_ = hq_.lba_base + lbas_;
  pacer_ = RequestPacer::from_config(cfg);
  qd_ = pacer_.depth();
  lba_wrap_ = cfg.get_bool("host.lba_wrap");
  interval_ps_ = cfg.get_time_ps("stats.interval");
  res_.interval_histograms = cfg.get_bool("stats.interval_histograms");
  submit_ps_ = cfg.get_time_ps("host.submit");
  fua_fraction_ = cfg.get_double("host.fua_fraction");
  if (interval_ps_ == 0) throw ConfigError("config key 'stats.interval': must be positive");
  max_rows_ = cfg.get_u64("stats.max_rows");
  const uint64_t coal_entries = cfg.get_u64("host.coalesce.entries");
  const uint64_t coal_time = cfg.get_u64("host.coalesce.time");
  if (coal_entries > 1 && coal_time > 0) coalesce_dw11_ = uint32_t(coal_entries - 1) | uint32_t(coal_time) << 8;
  slots_.resize(qd_);
  inflight_ = InflightIndex(qd_);
  const uint64_t buf_bytes = std::max<uint64_t>(uint64_t(max_transfer_) * 4, sizeof(nvme_dsm_range));
  for (auto& s : slots_) s.buf = mem_.alloc(buf_bytes);
  io_q_ = NvmeQueuePair(mem_, bells_, hq_.qid, qd_ + 1);  // one entry always empty
  wait_list_ |= wake_.event();
  wait_list_ |= mem_.msi_event(hq_.qid);
  if (hq_.create && !io_q_.create(nvme_))
    throw std::runtime_error(std::string(name()) + ": could not create the I/O queue");
  SC_THREAD(run);
  SC_METHOD(refill);
  sensitive << refill_ev_;
  dont_initialize();
}

void HostDriver::refill() {
  prefetch_.fill(workload_);
  if (prefetch_.error()) error_ = prefetch_.error();
  refilled_ev_.notify();  // immediate: the thread waiting for it runs in this evaluation phase
}

bool HostDriver::next_request(host::IoRequest& io) {
  if (live_src_) {
    if (!live_src_->poll(io, now_ps() - pacer_.t0())) return false;
    if (live_feed_ && live_layers_ && live_layers_ != live_feed_) {
      const host::IoRequest arrived = io;
      live_feed_->put(io);
      if (!live_layers_->next(io)) io = arrived;  // a layer never drops a live request: the client awaits its reply
    }
    return true;
  }
  if (prefetch_.need()) {
    refill_ev_.notify();
    wait(refilled_ev_);
  }
  return !error_ && prefetch_.pop(io);
}

bool HostDriver::admit(Request& r) {
  const host::IoRequest& io = r.io;
  if (io.op == host::IoOp::flush) {
    r.lba = r.nlb = 0;
    return true;
  }
  bool wrapped = false;
  if (!lba_range(io.offset, io.length, lba_size_, lbas_, lba_wrap_, &r.lba, &r.nlb, &wrapped)) return false;
  res_.wrapped += wrapped;
  r.lba += hq_.lba_base;  // a flow's LBAs (flows.h); 0 for a lone host
  return true;
}

bool HostDriver::conflicts(host::IoOp op, uint64_t lba, uint64_t n) const {
  if (n == 1 && inflight_.exact()) return inflight_.overlaps(is_write_like(op), lba);
  for (const Slot& s : slots_) {
    if (!s.busy || s.op == host::IoOp::flush) continue;
    if (!is_write_like(op) && !is_write_like(s.op)) continue;
    if (lba < s.lba + s.nlb && s.lba < lba + n) return true;
  }
  return false;
}

uint32_t HostDriver::free_slot() const { return inflight_.free_slot(); }

void HostDriver::submit(uint32_t slot, const nvme_sqe& e) {
  io_q_.push(e);
  slots_[slot].busy = true;
  inflight_.add(slot, slots_[slot].op != host::IoOp::flush, is_write_like(slots_[slot].op), slots_[slot].lba,
                slots_[slot].nlb);
  occupancy_advance(now_ps());
  ++busy_slots_;
  ++res_.commands;
}

// Submission: r's commands while slots allow and no earlier command in flight
// overlaps them (a flush takes one slot; a trim may be one long command).
bool HostDriver::issue_some(Request& r) {
  const host::IoOp op = r.io.op;
  if (op == host::IoOp::flush) {
    const uint32_t s = free_slot();
    if (s == UINT32_MAX) return false;
    submit(s, flush_command(r, s));
    r.issued = 1;
    r.outstanding++;
    return true;
  }
  while (r.issued < r.nlb) {
    const uint64_t lba = r.lba + r.issued;
    const uint32_t n = op == host::IoOp::trim ? trim_piece(lba, r.nlb - r.issued)
                                              : uint32_t(std::min<uint64_t>(r.nlb - r.issued, max_transfer_));
    if (conflicts(op, lba, n)) return false;
    const uint32_t s = free_slot();
    if (s == UINT32_MAX) return false;
    submit(s, io_command(r, s, lba, n));
    r.issued += n;
    r.outstanding++;
  }
  return true;
}

nvme_sqe HostDriver::flush_command(const Request& r, uint32_t s) {
  Slot& sl = slots_[s];
  sl.request = r.id;
  sl.op = host::IoOp::flush;
  sl.lba = sl.nlb = 0;
  nvme_sqe e{};
  e.cdw0 = SSDVP_FIELD_PUT(NVME_CDW0_OPC, NVME_OP_FLUSH) | SSDVP_FIELD_PUT(NVME_CDW0_CID, s);
  e.nsid = 1;
  sb_.flush_submitted(s);
  return e;
}

// The read, write or trim command for LBAs lba..lba+n-1 of r in slot s, its
// buffer filled (a write's tokens, a trim's range) and the scoreboard told.
nvme_sqe HostDriver::io_command(const Request& r, uint32_t s, uint64_t lba, uint32_t n) {
  const host::IoOp op = r.io.op;
  Slot& sl = slots_[s];
  sl.request = r.id;
  sl.op = op;
  sl.lba = lba;
  sl.nlb = n;
  nvme_sqe e{};
  e.nsid = 1;
  e.prp1 = sl.buf;
  // Out-of-range commands (host.lba_wrap: false) go to the device, which
  // fails them; the scoreboard only tracks LBAs that exist.
  const bool in_range = lba < lba_end_ && n <= lba_end_ - lba;
  if (shared_) sl.seq = shared_->begin();                              // flows sharing LBAs
  if (shared_ && op == host::IoOp::read) shared_->read_begin(sl.seq);  // (shared_lbas.h)
  if (op == host::IoOp::trim) {
    if (zone_cap_) return zone_reset(e, s, lba);  // nvme.command_set zns
    nvme_dsm_range range{0, n, lba};
    std::memcpy(mem_.data() + sl.buf, &range, sizeof range);
    if (in_range)
      for (uint64_t i = 0; i < n; ++i) {
        if (shared_) shared_->write(sl.seq, lba + i, sb_.expected(lba + i), SSDVP_TOKEN_DEALLOCATED);
        sb_.trim(lba + i);
      }
    e.cdw0 = SSDVP_FIELD_PUT(NVME_CDW0_OPC, NVME_OP_DSM) | SSDVP_FIELD_PUT(NVME_CDW0_CID, s);
    e.cdw10 = SSDVP_FIELD_PUT(NVME_CDW10_DSM_NR, 0);  // one range
    e.cdw11 = SSDVP_FIELD_PUT(NVME_CDW11_DSM_AD, 1);  // deallocate
    return e;
  }
  e.cdw0 = SSDVP_FIELD_PUT(NVME_CDW0_OPC, op == host::IoOp::write ? NVME_OP_WRITE : NVME_OP_READ) |
           SSDVP_FIELD_PUT(NVME_CDW0_CID, s);
  e.cdw10 = uint32_t(lba);
  e.cdw11 = uint32_t(lba >> 32);
  e.cdw12 = SSDVP_FIELD_PUT(NVME_CDW12_NLB, n - 1);
  if (op == host::IoOp::write) {
    if (r.io.stream) {  // Streams directive
      e.cdw12 |= SSDVP_FIELD_PUT(NVME_CDW12_DTYPE, NVME_DTYPE_STREAMS);
      e.cdw13 = SSDVP_FIELD_PUT(NVME_CDW13_DSPEC, r.io.stream);
    }
    fua_acc_ += fua_fraction_;  // host.fua_fraction, evenly spread
    sl.fua = fua_acc_ >= 1.0;
    if (sl.fua) fua_acc_ -= 1.0, e.cdw12 |= SSDVP_FIELD_PUT(NVME_CDW12_FUA, 1);
    auto* tok = reinterpret_cast<uint32_t*>(mem_.data() + sl.buf);
    for (uint32_t i = 0; i < n; ++i) {
      const uint32_t before = shared_ && in_range ? sb_.expected(lba + i) : 0;
      tok[i] = in_range ? sb_.write(lba + i) : 0;
      if (shared_ && in_range) shared_->write(sl.seq, lba + i, before, tok[i]);
    }
    if (live_src_ && in_range) live_src_->on_write_tokens(r.io.line, lba, tok, n);
  }
  return e;
}

int HostDriver::occupancy_class(host::IoOp op) { return op == host::IoOp::read ? 0 : op == host::IoOp::write ? 1 : 2; }

void HostDriver::occupancy_advance(uint64_t now) {
  if (now <= occ_last_ps_) return;
  const double dt = double(now - occ_last_ps_);
  for (int k = 0; k < 3; ++k) res_.in_system_ps[k] += double(occ_n_[k]) * dt;
  res_.device_commands_ps += double(busy_slots_) * dt;
  occ_last_ps_ = now;
}

void HostDriver::occupancy_enter(Request& r, uint64_t now) {
  if (r.counted) return;
  occupancy_advance(now);
  const int k = occupancy_class(r.io.op);
  res_.in_system_ps[k] += double(now - r.arrival_ps);  // in the system since its arrival
  occ_n_[k]++;
  r.counted = true;
}

void HostDriver::occupancy_leave(const Request& r, uint64_t now) {
  occupancy_advance(now);
  if (r.counted) occ_n_[occupancy_class(r.io.op)]--;
}

void HostDriver::complete_request(Request& r, uint64_t now) {
  occupancy_leave(r, now);
  const uint64_t lat = (now - r.arrival_ps) / 1000;
  const uint64_t bytes = r.nlb * lba_size_;
  switch (r.io.op) {
    case host::IoOp::read:
      res_.reads++;
      res_.read_bytes += bytes;
      res_.read_latency.add(lat);
      iv_read_lat_.add(lat);
      iv_reads_++;
      iv_read_bytes_ += bytes;
      break;
    case host::IoOp::write:
      res_.writes++;
      res_.write_bytes += bytes;
      res_.write_latency.add(lat);
      iv_write_lat_.add(lat);
      iv_writes_++;
      iv_write_bytes_ += bytes;
      break;
    case host::IoOp::trim:
      res_.trims++;
      res_.trim_bytes += bytes;
      break;
    case host::IoOp::flush:
      res_.flushes++;
      res_.flush_latency.add(lat);
      break;
  }
  if ((r.io.flags & host::kIoFsyncEnd) && !fsync_begins_.empty()) {  // the oldest open fsync ends
    res_.fsync_latency.add((now - fsync_begins_.front()) / 1000);
    fsync_begins_.pop_front();
  }
  res_.requests++;
  res_.end_ps = now;
  block_feed_->done(gcdetect::Dir(int(r.io.op)), bytes, r.arrival_ps, now);
  if (observer_) observer_(RequestRecord{r.io.op, r.lba, r.nlb, r.arrival_ps, now, r.error});
  if (live_src_) live_src_->on_complete(r.io.line, r.error, r.arrival_ps, now);
}

// Completion handling: every new completion entry, then the CQ head doorbell.
void HostDriver::reap() {
  const uint64_t now = now_ps();
  nvme_cqe c;
  while (io_q_.pop(&c)) {
    pacer_.progress(now);
    complete_command(c, now);
  }
  io_q_.ring_cq();
}

// One command's completion: its slot freed, its status counted, the scoreboard
// checks a read's tokens (or records a write's durability), and its request
// completes with its last command.
void HostDriver::complete_command(const nvme_cqe& c, uint64_t now) {
  const uint16_t status = NvmeQueuePair::status(c);
  if (c.cid >= qd_ || !slots_[c.cid].busy) {
    SSDVP_LOG(log_, error, "completion for command id %u which is not outstanding", c.cid);
    ++res_.errors;
    return;
  }
  Slot& sl = slots_[c.cid];
  sl.busy = false;
  inflight_.remove(c.cid, sl.op != host::IoOp::flush, is_write_like(sl.op), sl.lba, sl.nlb);
  occupancy_advance(now);
  --busy_slots_;
  auto it = live_.find(sl.request);
  if (status != NVME_SC_SUCCESS) {
    ++res_.errors;
    ++res_.errors_by_status[status];
    if (it != live_.end()) it->second.error = true;
    if (sl.op == host::IoOp::write && sl.lba + sl.nlb <= lba_end_)
      for (uint32_t i = 0; i < sl.nlb; ++i) sb_.write_failed(sl.lba + i);
  } else if (sb_.tracking() && sl.op != host::IoOp::read) {  // durability (power loss)
    if (sl.op == host::IoOp::flush)
      sb_.flush_completed(c.cid);
    else if (sl.op == host::IoOp::write && sl.lba + sl.nlb <= lba_end_)
      for (uint32_t i = 0; i < sl.nlb; ++i) sb_.acked(sl.lba + i, sl.fua);
    else if (sl.op == host::IoOp::trim && sl.lba + sl.nlb <= lba_end_)
      for (uint32_t i = 0; i < sl.nlb; ++i) sb_.trim_acked(sl.lba + i);
  } else if (sl.op == host::IoOp::read && sl.lba + sl.nlb <= lba_end_) {
    const auto* tok = reinterpret_cast<const uint32_t*>(mem_.data() + sl.buf);
    for (uint32_t i = 0; i < sl.nlb; ++i) {
      uint32_t want = 0;
      const bool ok = shared_ ? shared_->check(sl.seq, sl.lba + i, tok[i], &want) : sb_.check(sl.lba + i, tok[i]);
      if (!ok && sb_.mismatches() <= 10)
        SSDVP_LOG(log_, error, "integrity: LBA %llu read token 0x%08x, expected 0x%08x",
                  (unsigned long long)(sl.lba + i), tok[i], shared_ ? want : sb_.expected(sl.lba + i));
    }
    if (live_src_ && it != live_.end()) live_src_->on_read_tokens(it->second.io.line, sl.lba, tok, sl.nlb);
  }
  if (shared_) shared_done(sl, status);
  if (it != live_.end() && --it->second.outstanding == 0 &&
      it->second.issued >= std::max<uint64_t>(it->second.nlb, 1)) {
    complete_request(it->second, now);
    live_.erase(it);
  }
}

void HostDriver::sample(uint64_t now, bool final_row) {
  while (now >= next_sample_ps_ || final_row) {
    const uint64_t t = final_row && now < next_sample_ps_ ? now : next_sample_ps_;
    const double secs = double(t - last_sample_ps_) * 1e-12;
    if (secs <= 0 && final_row) break;
    DeviceSample d = sampler_ ? sampler_() : DeviceSample{};
    TimeseriesRow row{};
    row.time_s = double(t - res_.start_ps) * 1e-12;
    row.read_mbps = secs > 0 ? double(iv_read_bytes_) / 1e6 / secs : 0;
    row.write_mbps = secs > 0 ? double(iv_write_bytes_) / 1e6 / secs : 0;
    row.read_iops = secs > 0 ? double(iv_reads_) / secs : 0;
    row.write_iops = secs > 0 ? double(iv_writes_) / secs : 0;
    row.gc_lba_moves = d.gc_lba_writes - last_dev_.gc_lba_writes;
    row.erases = d.erases - last_dev_.erases;
    row.gc_victims = d.gc_victims - last_dev_.gc_victims;
    row.free_blocks = d.free_blocks;
    auto pct = [this](LatencyHistogram& h) {
      auto us = [](uint64_t ns) { return double(ns) / 1000.0; };
      IntervalLatency l{h.count(), us(h.quantile(0.5)), us(h.quantile(0.99)), us(h.quantile(0.999)), us(h.max()), {}};
      if (res_.interval_histograms) l.buckets = h.buckets();
      h.clear();
      return l;
    };
    row.read_latency = pct(iv_read_lat_);
    row.write_latency = pct(iv_write_lat_);
    res_.timeseries.push_back(row);
    last_dev_ = d;
    iv_read_bytes_ = iv_write_bytes_ = iv_reads_ = iv_writes_ = 0;
    last_sample_ps_ = t;
    next_sample_ps_ = t + interval_ps_;
    // Bounded: past stats.max_rows - 1 rows, no more rows until the final
    // one, which then covers the rest of the run (summary: timeseries_truncated).
    if (res_.timeseries.size() + 1 >= max_rows_ && !final_row) {
      res_.timeseries_truncated = true;
      next_sample_ps_ = UINT64_MAX;
    }
    if (final_row) break;
  }
}

void HostDriver::run() {
  wait(start_ev_);
  try {
    replay();
  } catch (...) {
    error_ = std::current_exception();
    if (on_finish_) on_finish_();
  }
}

// The host's thread: read and pace the workload, submit, wait, handle
// completions, until the workload is done (or the device stalls).
void HostDriver::replay() {
  if (!replay_begin()) return;
  Arrivals a;
  pacer_.start(now_ps());
  a.more = next_request(a.next);
  for (;;) {
    const uint64_t now = now_ps();
    take_arrivals(a, now);
    if (abort_at_stop_ && res_.time_limited && !queues_deleted_) delete_queues(now);  // host_stop.cpp
    issue_waiting(now);
    if (submit_ps_ && res_.commands > charged_commands_) {  // host software time before the doorbell
      wait(ps(submit_ps_ * (res_.commands - charged_commands_)));
      ++thread_wakeups_;
      charged_commands_ = res_.commands;
    }
    io_q_.ring_sq();
    if (!a.more && waiting_.empty() && busy_slots_ == 0) {
      const LiveSource::Idle idle = live_src_ ? live_src_->idle() : LiveSource::Idle::end;
      if (idle == LiveSource::Idle::end) break;
      if (idle == LiveSource::Idle::again) continue;
    }
    wait_for_work(a, now);
    if (!handle_completions()) break;
  }
  if (deleter_ && !queues_deleted_ && !error_) delete_queues(now_ps());
  sample(now_ps(), true);
  finished_ = !error_;
  if (on_finish_) on_finish_();
}

// Statistics start now; false (and the run finished) without a workload.
bool HostDriver::replay_begin() {
  if (before_replay_) before_replay_();
  if (streams_wanted_) setup_streams();
  if (coalesce_dw11_ && (hq_.create || before_replay_)) setup_coalescing();  // the admin queue's owner
  res_.start_ps = last_sample_ps_ = occ_last_ps_ = now_ps();
  next_sample_ps_ = res_.start_ps + interval_ps_;
  if (sampler_) last_dev_ = sampler_();
  if (workload_) return true;
  finished_ = true;
  if (on_finish_) on_finish_();
  return false;
}

// Reading and pacing: admits the requests that have arrived by now (closed
// loop: as many as slots could take), stops reading at host.time_limit.
void HostDriver::take_arrivals(Arrivals& a, uint64_t now) {
  if (live_src_ && !a.more) a.more = next_request(a.next);  // arrived since the last pass
  if (a.more && pacer_.past_limit(now)) {
    a.more = false;
    res_.time_limited = true;
  }
  while (a.more && pacer_.due(a.next.time_ps, waiting_.size(), now)) {
    Request r;
    r.io = a.next;
    r.arrival_ps = pacer_.arrival(a.next.time_ps, now);
    r.id = next_id_++;
    if (a.next.flags & host::kIoFsyncBegin) fsync_begins_.push_back(r.arrival_ps);
    if (admit(r)) {
      live_.emplace(r.id, r);
      waiting_.push_back(r.id);
      block_feed_->start(now);
    }
    a.more = next_request(a.next);
  }
}

// Submission: the waiting requests' commands in arrival order while slots allow.
void HostDriver::issue_waiting(uint64_t now) {
  while (!waiting_.empty()) {
    Request& r = live_.at(waiting_.front());
    // a barrier waits for every earlier request (live_ is ordered by id)
    if ((r.io.flags & host::kIoBarrier) && r.issued == 0 && live_.begin()->first != r.id) break;
    if (pacer_.closed_loop() && r.issued == 0) r.arrival_ps = now;  // closed loop: latency from issue
    const bool all = issue_some(r);
    if (r.issued > 0) occupancy_enter(r, now);  // its latency clock runs (from arrival_ps)
    if (!all) break;
    waiting_.pop_front();
  }
}

// Waits for a completion, the next sample time or (open loop, room to issue)
// the next arrival.
void HostDriver::wait_for_work(const Arrivals& a, uint64_t now) {
  uint64_t wake = next_sample_ps_;
  const uint64_t t0 = pacer_.t0(), limit = pacer_.limit_ps();
  if (a.more && !pacer_.closed_loop() && (waiting_.empty() || busy_slots_ < qd_))
    wake = std::min(t0 + a.next.time_ps, next_sample_ps_);
  if (abort_at_stop_ && a.more && limit && t0 + limit > now)
    wake = std::min(wake, t0 + limit);  // its queues go at the stop time
  // An MSI that came while the thread was not waiting (an interrupt is
  // latched): handle its completions now instead of waiting for the next one.
  const uint64_t msis = mem_.msis(hq_.qid);
  if (msis != msis_seen_) {
    msis_seen_ = msis;
    return;
  }
  if (wake <= now) return;
  // Its CQ's vector (IV = qid) or the wake time (wake_timer.h: not a timed
  // wait, which would leave a dead kernel entry per I/O until the next sample).
  wake_.arm(wake, now);
  wait(wait_list_);
  ++thread_wakeups_;
  msis_seen_ = mem_.msis(hq_.qid);
}

// Completion handling after a wait: completions, the time series, the stall
// check (false: the device is stuck, error_ says so).
bool HostDriver::handle_completions() {
  if (busy_slots_ == 0) pacer_.progress(now_ps());
  reap();
  if (now_ps() >= next_sample_ps_) sample(now_ps(), false);
  if (pacer_.stalled(now_ps(), busy_slots_ != 0)) {
    error_ = std::make_exception_ptr(std::runtime_error("host: no command completed in " +
                                                        std::to_string(double(pacer_.stall_ps()) * 1e-12) +
                                                        " s of simulated time with " + std::to_string(busy_slots_) +
                                                        " outstanding: the device is stuck (host.stall_timeout)"));
    return false;
  }
  return true;
}

}  // namespace ssdvp
