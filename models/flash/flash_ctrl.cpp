// flash_ctrl.cpp - see flash_ctrl.h.
#include "flash/flash_ctrl.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <stdexcept>

#include "common/ring.h"
#include "flash/multiplane_rules.h"

namespace ssdvp {
namespace {

sc_core::sc_time ps(uint64_t v) { return sc_core::sc_time::from_value(v); }

const char* op_name(uint8_t op) {
  switch (op) {
    case FC_OP_READ: return "read";
    case FC_OP_PROGRAM: return "program";
    case FC_OP_ERASE: return "erase";
    case FC_OP_COPYBACK: return "copyback";
    default: return "op?";
  }
}

}  // namespace

uint64_t FlashCtrl::Timing::channel_ps(uint64_t bytes) const {
  return static_cast<uint64_t>(std::llround(double(bytes) * 1e6 / channel_mbps));
}
uint64_t FlashCtrl::Timing::dma_ps(uint64_t bytes) const {
  return static_cast<uint64_t>(std::llround(double(bytes) * 1e6 / dma_mbps));
}

FlashCtrl::FlashCtrl(sc_core::sc_module_name nm, Config& cfg)
    : BusDevice(nm, cfg, "FLASH", "flash.access"),
      dma("dma", SSDVP_DRAM_BASE),
      irq("irq"),
      geo_(FlashGeometry::from_config(cfg)),
      faults_(cfg, geo_),
      rings_(dma_port_, [this](const std::string& what, uint32_t v) { ring_error(what.c_str(), v); }) {
  if (sc_core::sc_get_time_resolution() != sc_core::sc_time(1, sc_core::SC_PS))
    throw std::runtime_error(std::string(name()) + ": needs the SystemC time resolution of 1 ps");
  t_.read_ps = cfg.get_time_ps("flash.timing.read");
  t_.program_ps = cfg.get_time_ps("flash.timing.program");
  t_.erase_ps = cfg.get_time_ps("flash.timing.erase");
  t_.cmd_ps = cfg.get_time_ps("flash.timing.cmd");
  t_.channel_mbps = cfg.get_double("flash.channel.mbps");
  t_.dma_mbps = cfg.get_double("flash.dma.mbps");
  t_.sq_fetch_ps = cfg.get_time_ps("flash.sq_fetch");
  t_.access_ps = access_ps();
  quantum_ps_ = cfg.get_time_ps("flash.completion_quantum");

  per_block_.set(geo_.pages_per_block);
  per_die_.set(geo_.blocks_per_die());
  channels_.set(geo_.channels);
  dies_.reserve(geo_.dies());
  for (uint32_t d = 0; d < geo_.dies(); ++d) dies_.emplace_back(geo_);
  die_busy_until_.assign(geo_.dies(), 0);
  die_busy_ps_.assign(geo_.dies(), 0);
  ch_busy_.assign(geo_.channels, 0);
  calendar_.resize(geo_.channels);
  sched_config(cfg);
  page_types_config(cfg);
  mp_same_block_ = cfg.get_bool(kMultiplaneSameBlockKey);
  cal_head_.assign(geo_.channels, 0);

  for (uint32_t reg : {FLASH_SQ_BASE, FLASH_SQ_SIZE, FLASH_SQ_TAIL, FLASH_SQ_HEAD, FLASH_CQ_BASE, FLASH_CQ_SIZE,
                       FLASH_CQ_TAIL, FLASH_CQ_HEAD, FLASH_CTRL})
    bank_.on_read(reg, [this, reg] { return rings_.read(reg); });
  bank_.on_read(FLASH_ERRORS, [this] { return errors_; });
  bank_.on_read(FLASH_LAST_ERR_ROW, [this] { return last_err_row_; });
  bank_.on_read(FLASH_LAST_ERR_CODE, [this] { return last_err_code_; });
  for (uint32_t reg : {FLASH_SQ_BASE, FLASH_SQ_SIZE, FLASH_CQ_BASE, FLASH_CQ_SIZE})
    bank_.on_write(reg, [this, reg](uint32_t v) { rings_.write(reg, v); });
  bank_.on_write(FLASH_SQ_TAIL, [this](uint32_t v) { write_sq_tail(v); });
  bank_.on_write(FLASH_CQ_HEAD, [this](uint32_t v) { write_cq_head(v); });
  bank_.on_read(FLASH_BBT_ADDR, [this] { return bbt_addr_; });
  bank_.on_write(FLASH_BBT_ADDR, [this](uint32_t v) { write_bbt(v); });
  bank_.on_write(FLASH_CTRL, [this](uint32_t v) { write_ctrl(v); });
  bank_.on_write(FLASH_HOLD_END, [this](uint32_t v) {
    if (!hold_.mode || v >= geo_.total_blocks())
      return ring_error("HOLD_END: no hold, or a block row outside the geometry", v);
    fc_sqe d{};
    d.op = FC_OP_ERASE;
    d.row = v;
    const OpTarget at = target(d);
    hold_end(hold_key(at), at.block, doorbell_ps());
  });

  SC_METHOD(completion_method);
  sensitive << wake_ << poke_;
  dont_initialize();
}

// ---- registers -------------------------------------------------------------

void FlashCtrl::ring_error(const char* what, uint32_t value) {
  ++errors_;
  last_err_row_ = value;
  last_err_code_ = FC_ERR_DMA;
  SSDVP_LOG(log_, error, "firmware bug: %s (0x%x)", what, value);
}

// The factory bad-block markers, as the firmware's boot scan would read them:
// one bitmap written to DRAM at once.
void FlashCtrl::write_bbt(uint32_t addr) {
  bbt_addr_ = addr;
  const auto& bm = faults_.factory_bitmap();
  const uint64_t bytes = uint64_t(bm.size()) * 4;
  if (addr % 4 || addr < uint64_t(SSDVP_DRAM_BASE) || !dram_reachable(addr, bytes) ||
      !dram_write(addr, bm.data(), static_cast<uint32_t>(bytes), nullptr))
    ring_error("BBT_ADDR: the bad-block bitmap does not fit in DRAM there", addr);
}

// CTRL (flash_ring_engine.cpp): the completion ring starts again; refused
// with completions in flight (due, or descriptors held for their multi-plane
// group) or not taken. PREEMPT_GC and HOLD_GC take effect with it.
void FlashCtrl::write_ctrl(uint32_t v) {
  if (!rings_.write_ctrl(v, !due_.empty() || mp_open_ != 0)) return;
  sched_.preempt_gc = (v & FLASH_CTRL_PREEMPT_GC) != 0;
  hold_.mode = SSDVP_FIELD_GET(FLASH_CTRL_HOLD_GC, v);
  hold_.victims.assign(hold_.mode == FLASH_HOLD_GC_CHANNEL ? geo_.channels : geo_.dies(), {});
}

void FlashCtrl::write_cq_head(uint32_t v) {
  if (!rings_.write(FLASH_CQ_HEAD, v)) return;
  if (functional_)
    rings_.post_ready();
  else
    schedule_poke(doorbell_ps());
}

void FlashCtrl::write_sq_tail(uint32_t v) {
  if (!rings_.write(FLASH_SQ_TAIL, v)) return;
  uint64_t t = std::max(doorbell_ps(), fetch_free_ps_);
  bool first = true;
  fc_sqe d;
  uint64_t lat = 0;
  while (rings_.next(&d, &lat)) {
    fc_cqe cqe{};
    if (functional_) {
      if (multiplane_take(d, 0)) continue;
      execute(d, 0, cqe);
      rings_.complete(cqe);
      continue;
    }
    t += (first ? lat : 0) + t_.sq_fetch_ps;
    first = false;
    if (multiplane_take(d, t)) continue;
    if (hold_.mode && (d.hint & FC_HINT_USER) && hold_back(d, t)) continue;
    const uint64_t done = execute(d, t, cqe);
    complete(done, cqe, d.op, d.row);  // (a power cut tears a copyback's destination as it tears a program)
    if (hold_.mode && (d.hint & FC_HINT_VICTIM) && cqe.status == FC_OK) hold_track(d, done);
  }
  if (functional_)
    rings_.post_ready();
  else
    fetch_free_ps_ = t;
}

// ---- execution -------------------------------------------------------------

fc_status FlashCtrl::violation(const fc_sqe& d, fc_status code, const char* reason) {
  ++violations_;
  ++errors_;
  last_err_row_ = d.row;
  last_err_code_ = code;
  const bool block_row = d.op == FC_OP_ERASE;
  const uint64_t block = block_row ? d.row : d.row / geo_.pages_per_block;
  const uint32_t page = block_row ? 0 : d.row % geo_.pages_per_block;
  const uint64_t die = block / geo_.blocks_per_die();
  if (d.op == FC_OP_READ || d.op == FC_OP_PROGRAM || d.op == FC_OP_ERASE || d.op == FC_OP_COPYBACK)
    SSDVP_LOG(log_, error, "firmware bug: %s row %u (die %llu block %llu page %u): %s", op_name(d.op), d.row,
              (unsigned long long)die, (unsigned long long)(block % geo_.blocks_per_die()), page, reason);
  else
    SSDVP_LOG(log_, error, "firmware bug: opcode %u row %u (tag %u): %s", d.op, d.row, d.tag, reason);
  return code;
}

uint64_t FlashCtrl::reserve(uint32_t ch, uint64_t ready, uint64_t len) {
  auto& cal = calendar_[ch];
  size_t& head = cal_head_[ch];  // intervals before head are over and can never matter again
  const uint64_t now = sc_core::sc_time_stamp().value();
  while (head < cal.size() && cal[head].end <= now) ++head;
  if (head > 32 && head * 2 > cal.size()) {  // compact now and then, not at every call
    cal.erase(cal.begin(), cal.begin() + head);
    head = 0;
  }
  uint64_t start = ready;
  // Reservations on a channel never overlap, so ends are sorted as starts
  // are: skip those over by `ready` with a binary search, not a walk.
  size_t pos = size_t(
      std::partition_point(cal.begin() + head, cal.end(), [start](const Interval& i) { return i.end <= start; }) -
      cal.begin());
  for (; pos < cal.size(); ++pos) {
    if (cal[pos].end <= start) continue;
    if (cal[pos].start >= start + len) break;  // the gap before this interval fits
    start = std::max(start, cal[pos].end);
  }
  // Insert keeping the list sorted by start.
  auto it =
      std::lower_bound(cal.begin() + head, cal.end(), start, [](const Interval& i, uint64_t s) { return i.start < s; });
  cal.insert(it, Interval{start, start + len});
  ch_busy_[ch] += len;
  return start;
}

// One descriptor: the checks that need no NAND state, then per opcode its
// functional part (NAND array, DRAM buffers, faults; a failure completes at
// arrival) and its timing part (die and channel occupancy, completion time).
// Functional mode and a multi-plane group's members stop after the
// functional part and complete at 0.
uint64_t FlashCtrl::execute(const fc_sqe& d, uint64_t arrival, fc_cqe& cqe) {
  cqe.tag = d.tag;
  cqe.flags = 0;
  cqe.status = FC_OK;
  const char* why = nullptr;
  if (const fc_status bad = flash_check_descriptor(geo_, kOpcodes, d, &why); bad != FC_OK) {
    cqe.status = static_cast<uint16_t>(violation(d, bad, why));
    return arrival;
  }
  const OpTarget at = target(d);
  const bool untimed = functional_ || mp_untimed_;
  switch (d.op) {
    case FC_OP_READ: {
      ReadDone r;
      if (!read_page(d, at, arrival, cqe, r)) return arrival;
      return untimed ? 0 : read_timing(d, at, arrival, r);
    }
    case FC_OP_PROGRAM: {
      uint64_t lat = 0;
      if (!program_page(d, at, arrival, cqe, &lat)) return arrival;
      return untimed ? 0 : program_timing(d, at, arrival, lat);
    }
    case FC_OP_COPYBACK: {
      uint64_t lat = 0;
      if (!copyback_page(d, at, arrival, cqe, &lat)) return arrival;
      return untimed ? 0 : copyback_timing(d, at, arrival, lat);
    }
    default: erase_block(at, cqe); return untimed ? 0 : erase_timing(d, at, arrival);
  }
}

FlashCtrl::OpTarget FlashCtrl::target(const fc_sqe& d) const {
  OpTarget at;
  at.block = d.op == FC_OP_ERASE ? d.row : per_block_.div(d.row);
  at.page = d.op == FC_OP_ERASE ? 0 : per_block_.mod(d.row);
  at.die = per_die_.div(at.block);  // geo_.die_of_block
  at.bid = per_die_.mod(at.block);
  at.ch = channels_.mod(at.die);  // geo_.channel_of_die
  return at;
}

// ---- functional parts ----------------------------------------------------

// The page's selected slots into the DRAM buffer (the others stay as they
// are), its metadata, and the ECC outcome; false after a violation.
bool FlashCtrl::read_page(const fc_sqe& d, const OpTarget& at, uint64_t arrival, fc_cqe& cqe, ReadDone& r) {
  const uint32_t S = geo_.slots_per_page();
  const uint32_t buf_bytes = FC_PAGE_BUF_BYTES(S);
  uint32_t buf[2 * 32 + 1];  // token[S], lpn[S], seq
  NandDie& nand = dies_[at.die];
  if (!dram_read(d.buf, buf, buf_bytes, &r.lat)) {
    cqe.status = static_cast<uint16_t>(violation(d, FC_ERR_DMA, "page buffer outside DRAM"));
    return false;
  }
  uint32_t flags = 0;
  r.codewords = uint32_t(__builtin_popcount(d.slot_mask));
  FlashFaults::ReadOutcome ecc;
  if (nand.read(at.bid, at.page, d.slot_mask, buf, buf + S, buf + 2 * S, &flags) == FC_ERR_UNCORRECTABLE) {
    ++n_torn_read_;  // a torn page: nothing decodes, whatever the retries
    ecc.uncorrectable = true;
  } else if (faults_.bit_errors_on() && !(flags & FC_FLAG_ERASED)) {
    ecc = faults_.read(at.block, nand.erase_count(at.bid), r.codewords, functional_ ? 0 : arrival, d.row);
  }
  if (!dram_write(d.buf, buf, buf_bytes, &r.lat) || !meta_read(d, flags, ecc.uncorrectable, &r.lat)) {
    cqe.status = static_cast<uint16_t>(violation(d, FC_ERR_DMA, "page buffer outside DRAM"));
    return false;
  }
  cqe.flags = static_cast<uint16_t>(flags | (std::min<uint32_t>(ecc.retries, 255) << FC_FLAG_RETRIES_SHIFT));
  if (ecc.uncorrectable) cqe.status = FC_ERR_UNCORRECTABLE;
  r.retries = ecc.retries;
  ++n_read_;
  return true;
}

// The DRAM buffer into the page (or a torn page when the fault model fails
// the program) and its metadata; false after a violation.
bool FlashCtrl::program_page(const fc_sqe& d, const OpTarget& at, uint64_t arrival, fc_cqe& cqe, uint64_t* lat) {
  const uint32_t S = geo_.slots_per_page();
  uint32_t buf[2 * 32 + 1];  // token[S], lpn[S], seq
  NandDie& nand = dies_[at.die];
  if (!dram_read(d.buf, buf, FC_PAGE_BUF_BYTES(S), lat)) {
    cqe.status = static_cast<uint16_t>(violation(d, FC_ERR_DMA, "page buffer outside DRAM"));
    return false;
  }
  const bool fail = faults_.program_fails(at.block);
  const fc_status st =
      fail ? nand.program_torn(at.bid, at.page) : nand.program(at.bid, at.page, buf, buf + S, buf[2 * S]);
  if (st != FC_OK) {
    cqe.status = static_cast<uint16_t>(
        violation(d, st, st == FC_ERR_NOT_ERASED ? "page is not erased" : "program out of page order in its block"));
    return false;
  }
  if (!meta_program(d, fail, lat)) {
    cqe.status = static_cast<uint16_t>(violation(d, FC_ERR_DMA, "metadata payload outside DRAM"));
    return false;
  }
  ++n_program_;
  if (fail)
    cqe.status = FC_ERR_PROGRAM_FAIL;
  else
    faults_.on_program(at.block, at.page, functional_ ? 0 : arrival);
  return true;
}

void FlashCtrl::erase_block(const OpTarget& at, fc_cqe& cqe) {
  if (faults_.erase_fails(at.block)) {
    cqe.status = FC_ERR_ERASE_FAIL;  // the block keeps its contents
  } else {
    dies_[at.die].erase(at.bid);
    faults_.on_erase(at.block);
  }
  ++n_erase_;
}

// ---- timing parts ----------------------------------------------------------
// Each returns the completion time. Under the read-priority/suspend scheduler
// (flash_sched.cpp) it times the operation; otherwise the operation takes its
// channel time first-fit in the channel's calendar after the die is free.

// Command, tR and data-out on die and channel (each ECC retry level again),
// then the DMA into DRAM.
uint64_t FlashCtrl::read_timing(const fc_sqe& d, const OpTarget& at, uint64_t arrival, const ReadDone& r) {
  const uint64_t bytes = uint64_t(r.codewords) * geo_.lba_size;
  const uint64_t x = t_.channel_ps(bytes);
  // Under the read-priority scheduler a read's retry levels lengthen its die time (command, tR and data-out
  // each; their channel time is not reserved separately there).
  if (sched_.on())
    return sched_timed(d, at.die, at.ch, at.block, arrival, arrival, x, r.lat + t_.dma_ps(bytes),
                       read_time(at.page) + uint64_t(r.retries) * (t_.cmd_ps + read_time(at.page) + x));
  const uint64_t start = reserve(at.ch, std::max(arrival, die_busy_until_[at.die]), t_.cmd_ps);
  uint64_t xs = reserve(at.ch, start + t_.cmd_ps + read_time(at.page), x);
  for (uint32_t i = 0; i < r.retries; ++i) {  // each level: command, tR, data-out again
    const uint64_t c = reserve(at.ch, xs + x, t_.cmd_ps);
    xs = reserve(at.ch, c + t_.cmd_ps + read_time(at.page), x);
  }
  const uint64_t end = xs + x;
  return occupy(d, at, arrival, start, end, end + r.lat + t_.dma_ps(bytes));
}

// The DMA from DRAM, command and data-in on the channel, then tPROG.
uint64_t FlashCtrl::program_timing(const fc_sqe& d, const OpTarget& at, uint64_t arrival, uint64_t lat) {
  const uint64_t x = t_.cmd_ps + t_.channel_ps(geo_.page_size);
  if (sched_.on())
    return sched_timed(d, at.die, at.ch, at.block, arrival, arrival + lat + t_.dma_ps(geo_.page_size), x, 0,
                       program_time(at.page));
  const uint64_t start =
      reserve(at.ch, std::max(arrival + lat + t_.dma_ps(geo_.page_size), die_busy_until_[at.die]), x);
  const uint64_t end = start + x + program_time(at.page);
  return occupy(d, at, arrival, start, end, end);
}

// The command on the channel, then tBERS.
uint64_t FlashCtrl::erase_timing(const fc_sqe& d, const OpTarget& at, uint64_t arrival) {
  if (sched_.on()) return sched_timed(d, at.die, at.ch, at.block, arrival, arrival, 0, 0, t_.erase_ps);
  const uint64_t start = reserve(at.ch, std::max(arrival, die_busy_until_[at.die]), t_.cmd_ps);
  const uint64_t end = start + t_.cmd_ps + t_.erase_ps;
  return occupy(d, at, arrival, start, end, end);
}

// The die is busy from start to end; the observer sees the operation.
uint64_t FlashCtrl::occupy(const fc_sqe& d, const OpTarget& at, uint64_t arrival, uint64_t start, uint64_t end,
                           uint64_t done) {
  die_busy_until_[at.die] = end;
  die_busy_ps_[at.die] += end - start;
  if (observer_) observer_(FlashOpRecord{at.die, at.ch, d.op, d.row, arrival, start, end, done});
  return done;
}

// ---- completions -----------------------------------------------------------

void FlashCtrl::complete(uint64_t time, const fc_cqe& cqe, uint8_t op, uint32_t row) {
  due_.push(time, Pending{cqe, op, row});
  schedule_wake(time);
}

// The completion method runs at the times one sc_event notified at every
// completion time and every CQ_HEAD write would give it (an earlier
// notification replaces a later pending one; a later one is dropped), with
// two events and fewer notifications: wake_ for completion times, poke_ for
// register writes. wake_ is not re-notified for a time it already covers and
// a poke no longer cancels it, which left a dead entry in the kernel's timed
// queue and a fresh one for the same completion at every poke.
// With flash.completion_quantum Q > 0 the wake-up for a completion due at t
// runs at the first multiple of Q at or after t and posts every completion
// due by then, so completions that finish within one quantum share one run
// (and the firmware one interrupt); a poke still posts whatever is due.
void FlashCtrl::schedule_wake(uint64_t time) {
  const uint64_t now = sc_core::sc_time_stamp().value();
  if (quantum_ps_ && time % quantum_ps_ && time <= UINT64_MAX - quantum_ps_) time += quantum_ps_ - time % quantum_ps_;
  if (time < now) time = now;
  if (time >= wake_at_) return;
  if (time < poke_at_ && poke_at_ != UINT64_MAX) {  // one event would have dropped the later poke
    poke_.cancel();
    poke_at_ = UINT64_MAX;
  }
  wake_at_ = time;
  wake_.notify(ps(time - now));
}

void FlashCtrl::schedule_poke(uint64_t time) {
  const uint64_t now = sc_core::sc_time_stamp().value();
  if (time < now) time = now;
  if (time >= wake_at_ || time >= poke_at_) return;  // covered by a pending run
  if (poke_at_ != UINT64_MAX) poke_.cancel();
  poke_at_ = time;
  poke_.notify(ps(time - now));
}

void FlashCtrl::completion_method() {
  ++n_completion_runs_;
  const uint64_t now = sc_core::sc_time_stamp().value();
  if (now >= wake_at_) wake_at_ = UINT64_MAX;  // the scheduled wake-up is this one
  if (now >= poke_at_) poke_at_ = UINT64_MAX;
  due_.pop_due(now, [this](const DueQueue<Pending>::Entry& e) { rings_.complete(e.item.cqe); });
  rings_.post_ready();
  irq.write(rings_.irq());
  if (!due_.empty()) schedule_wake(due_.next_time());
}

FlashCtrl::CutResult FlashCtrl::power_cut(bool hold_power) {
  CutResult r;
  const uint64_t now = sc_core::sc_time_stamp().value();
  for (const auto& e : due_) {
    const Pending& p = e.item;
    ++r.dropped;
    if (hold_power || e.time <= now || p.cqe.status != FC_OK) continue;
    if (p.op == FC_OP_PROGRAM || p.op == FC_OP_COPYBACK) {
      const uint32_t block = p.row / geo_.pages_per_block;
      dies_[geo_.die_of_block(block)].tear_page(block % geo_.blocks_per_die(), p.row % geo_.pages_per_block);
      ++r.torn_programs;
      r.torn_copybacks += p.op == FC_OP_COPYBACK;
    } else if (p.op == FC_OP_ERASE) {
      dies_[geo_.die_of_block(p.row)].tear_block(p.row % geo_.blocks_per_die());
      ++r.torn_erases;
    }
  }
  r.dropped += rings_.power_cut();
  hold_cut(hold_power, r);
  due_.clear();
  fetch_free_ps_ = 0;
  if (!hold_power)  // the dies' operations stopped with the power: free for the recovery's reads
    for (auto& t : die_busy_until_) t = std::min(t, now);
  for (auto& d : sched_.die) d.clear();
  for (auto& g : mp_) g.clear();
  mp_open_ = 0;
  return r;
}

void FlashCtrl::set_functional(bool on) {
  if (functional_ == on) return;
  functional_ = on;
  if (!on) schedule_poke(sc_core::sc_time_stamp().value());
}

// ---- DRAM access -------------------------------------------------------------

bool FlashCtrl::dram_read(uint64_t addr, void* dst, uint32_t n, uint64_t* latency_ps) {
  return dma.copy(false, addr, dst, n, latency_ps);
}
bool FlashCtrl::dram_write(uint64_t addr, const void* src, uint32_t n, uint64_t* latency_ps) {
  return dma.copy(true, addr, const_cast<void*>(src), n, latency_ps);
}

bool FlashCtrl::dram_reachable(uint64_t addr, uint64_t bytes) {
  if (bytes == 0) return true;
  uint8_t b = 0;
  for (uint64_t a : {addr, addr + bytes - 1}) {
    tlm::tlm_generic_payload tx;
    tx.set_command(tlm::TLM_READ_COMMAND);
    tx.set_address(a);
    tx.set_data_ptr(&b);
    tx.set_data_length(1);
    tx.set_streaming_width(1);
    if (dma->transport_dbg(tx) != 1) return false;
  }
  return true;
}

}  // namespace ssdvp
