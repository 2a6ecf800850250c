// flash_sched.cpp - read priority and program/erase suspend in the flash
// controller's scheduler (see flash_ctrl.h, docs/models/flash_ctrl.md).
//
// Off by default (flash.read_priority and flash.suspend.enable false): then
// FlashCtrl::execute times every operation in submission order per die and
// nothing here runs. When either is on, every timed operation goes through
// sched_timed(), which keeps, per die, the operations whose die time is not
// over yet, in die order, with their channel reservations:
// - read priority: a new urgent read (below) is placed before the queued programs and erases
//   of its die that have not started (their first channel cycle is later than
//   the read's arrival) and are on another block, and before the other reads
//   that are not urgent; urgent reads stay in order among themselves, and a
//   read never overtakes an operation on its own block;
// - suspend: if the operation in front of the read is a program or erase of
//   another block in its array phase, with more than flash.suspend.latency
//   left and fewer than flash.suspend.max_per_op suspensions so far, it is
//   suspended: the die takes flash.suspend.latency, serves the read(s), then
//   takes flash.suspend.resume and the array time that was left; with
//   flash.suspend.max_reads, at most that many reads are served in one
//   suspension (later ones queue behind the resumed operation).
// Both apply to the reads flash.priority_reads names: host reads (the
// firmware marks them FC_HINT_HOST) or all reads (GC's too).
// The operations behind the new read are timed again: their channel
// reservations are released and taken anew, their completions move.
#include <algorithm>

#include "flash/flash_ctrl.h"

namespace ssdvp {

void FlashCtrl::sched_config(Config& cfg) {
  sched_.read_priority = cfg.get_bool("flash.read_priority");
  sched_.suspend = cfg.get_bool("flash.suspend.enable");
  sched_.all_reads = cfg.get_choice("flash.priority_reads") == "all";
  sched_.max_suspends = static_cast<uint32_t>(cfg.get_u64("flash.suspend.max_per_op"));
  sched_.max_reads = static_cast<uint32_t>(cfg.get_u64("flash.suspend.max_reads"));
  sched_.suspend_ps = cfg.get_time_ps("flash.suspend.latency");
  sched_.resume_ps = cfg.get_time_ps("flash.suspend.resume");
  sched_.die.resize(geo_.dies());  // (CTRL.PREEMPT_GC may turn the scheduler on later)
}

void FlashCtrl::unreserve(uint32_t ch, uint64_t start, uint64_t len) {
  auto& cal = calendar_[ch];
  for (size_t i = 0; i < cal.size(); ++i) {
    if (cal[i].start == start && cal[i].end == start + len) {
      cal.erase(cal.begin() + static_cast<std::ptrdiff_t>(i));
      ch_busy_[ch] -= len;
      return;
    }
  }
}

void FlashCtrl::sched_untime_op(const SchedOp& o, uint32_t die, uint32_t ch) {
  for (uint8_t i = 0; i < o.nres; ++i) unreserve(ch, o.res_start[i], o.res_len[i]);
  die_busy_ps_[die] -= o.end - o.start;
}

void FlashCtrl::sched_time_op(SchedOp& o, uint32_t die, uint32_t ch, uint64_t die_free) {
  const uint64_t s0 = std::max(o.ready, die_free);
  o.nres = 0;
  auto take = [&](uint64_t ready, uint64_t len) {
    const uint64_t s = reserve(ch, ready, len);
    o.res_start[o.nres] = s;
    o.res_len[o.nres] = len;
    ++o.nres;
    return s;
  };
  if (o.resume) {  // no channel time: the resume command is part of flash.suspend.resume
    o.start = s0;
    o.array_start = s0 + sched_.resume_ps;
    o.array_end = o.array_start + o.array;
    o.end = o.done = o.array_end;
  } else if (o.op == FC_OP_READ) {
    o.start = take(s0, t_.cmd_ps);
    o.array_start = o.start + t_.cmd_ps;
    o.array_end = o.array_start + o.array;
    const uint64_t xs = take(o.array_end, o.xfer);
    o.end = xs + o.xfer;
    o.done = o.end + o.post;
  } else {  // program: command and data in; erase: command
    const uint64_t len = o.op == FC_OP_PROGRAM ? o.xfer : t_.cmd_ps + o.xfer;  // erase: xfer 0 but in a group
    o.start = take(s0, len);
    o.array_start = o.start + len;
    o.array_end = o.array_start + o.array;
    o.end = o.done = o.array_end;
  }
  die_busy_ps_[die] += o.end - o.start;
}

uint64_t FlashCtrl::sched_timed(const fc_sqe& d, uint32_t die, uint32_t ch, uint32_t block, uint64_t arrival,
                                uint64_t ready, uint64_t xfer, uint64_t post, uint64_t array) {
  auto& q = sched_.die[die];
  size_t drop = 0;  // operations whose die time is over cannot move any more
  while (drop < q.size() && q[drop].end <= arrival) ++drop;
  q.erase(q.begin(), q.begin() + static_cast<std::ptrdiff_t>(drop));

  SchedOp n;
  n.order = due_.next_order();  // complete() gives the new completion this order next
  n.op = d.op;
  n.block = block;
  n.ready = ready;
  n.xfer = xfer;
  n.post = post;
  n.array = array;
  n.group = sched_group_;
  n.urgent = d.op == FC_OP_READ && (sched_.all_reads || (d.hint & FC_HINT_HOST));
  n.gc = (d.hint & FC_HINT_GC) != 0;

  const bool urgent = n.urgent;
  size_t p = q.size();
  if (urgent && sched_.read_priority) {
    while (p > 0) {
      const SchedOp& o = q[p - 1];
      if (o.urgent || o.start <= arrival || o.block == block) break;
      if (o.resume && sched_.max_reads) {  // flash.suspend.max_reads: the reads already served in this suspension
        uint32_t served = 0;
        for (size_t i = p - 1; i > 0 && q[i - 1].op == FC_OP_READ; --i) ++served;
        if (served >= sched_.max_reads) break;
      }
      --p;
    }
    if (p < q.size()) ++n_bypass_;
  }
  if (sched_.preempt_gc && (d.hint & FC_HINT_HOST) && !n.gc) {  // ftl.gc.preempt: ahead of GC's queued operations
    const size_t p0 = p;
    while (p > 0) {
      const SchedOp& o = q[p - 1];
      if (!o.gc || o.start <= arrival || o.block == block) break;
      --p;
    }
    if (p < p0) ++n_gc_preempt_;
  }
  bool split = false;
  SchedOp rest;
  if (urgent && sched_.suspend && p > 0) {
    SchedOp& o = q[p - 1];
    if (o.op != FC_OP_READ && o.block != block && o.suspends < sched_.max_suspends && o.array_start <= arrival &&
        o.array_end > arrival + sched_.suspend_ps) {
      rest = o;
      rest.resume = true;
      rest.suspends = o.suspends + 1;
      rest.array = o.array_end - arrival;
      rest.ready = 0;
      rest.nres = 0;
      die_busy_ps_[die] -= o.end - o.start;
      o.owns = false;
      o.array_end = arrival;
      o.end = arrival + sched_.suspend_ps;
      die_busy_ps_[die] += o.end - o.start;
      split = true;
      ++n_suspend_;
    }
  }

  std::vector<SchedOp> behind(q.begin() + static_cast<std::ptrdiff_t>(p), q.end());
  q.resize(p);
  for (const SchedOp& o : behind) sched_untime_op(o, die, ch);
  uint64_t free_at = p > 0 ? q[p - 1].end : 0;
  sched_time_op(n, die, ch, free_at);
  q.push_back(n);
  free_at = n.end;
  if (split) behind.insert(behind.begin(), rest);
  bool moved = false;
  for (SchedOp& o : behind) {
    sched_time_op(o, die, ch, free_at);
    free_at = o.end;
    q.push_back(o);
    if (!o.owns) continue;
    moved |= due_.retime_range(o.order, o.group, o.done);
  }
  die_busy_until_[die] = q.back().end;
  if (moved) {
    due_.reorder();
    if (!due_.empty()) schedule_wake(due_.next_time());  // an earlier wake-up, if the front moved earlier
  }
  if (observer_) observer_(FlashOpRecord{die, ch, d.op, d.row, arrival, n.start, n.end, n.done});
  return n.done;
}

}  // namespace ssdvp
