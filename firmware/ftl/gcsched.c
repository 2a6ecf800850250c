/*
 * gcsched.c - when GC collects (ftl.gc.trigger).
 *
 * The loop's gc_schedule() asks gcsched_want() whether to start another
 * victim while a job slot is idle; gc.c asks gcsched_read_limit() how many
 * victim reads a job may have in flight. Free blocks count the erases in
 * flight, as the threshold always did. The triggers:
 *
 *   threshold   collect while free blocks are below ftl.gc.threshold_blocks
 *               (in closed loop GC then runs without pause once the drive is
 *               full: one long episode).
 *   watermarks  an episode starts when free blocks fall below the threshold
 *               (the low watermark) and starts victims until they reach
 *               ftl.gc.high_blocks; then no victim starts until they fall
 *               below the low mark again (hysteresis, as GreedyFTL-like
 *               firmware and MQSim's GC thresholds do).
 *   idle        foreground GC below the threshold, as threshold does, and
 *               background GC up to ftl.gc.high_blocks once no host command
 *               has arrived for ftl.gc.idle_after. The next command stops it
 *               at a victim boundary: victims already started finish, no new
 *               one starts. The firmware learns of idleness from the
 *               interrupt controller's timer (INTC TIMER_LO/HI), armed before
 *               it waits for an interrupt.
 *   autossd     AutoSSD's share controller (Kim et al., ATC 2018): every
 *               ftl.gc.autossd.period a PI controller sets GC's share s (per
 *               mille) from the free-block deficit e = target - free, target
 *               ftl.gc.threshold_blocks: s = kp e + ki sum(e), clamped to
 *               [0, 1000] (the sum clamped so its term stays in [0, 1000]:
 *               no wind-up). GC's share is enforced as AutoSSD's scheduler
 *               does, by the requests it may have outstanding: a job keeps at
 *               most ceil(s x ftl.gc.autossd.depth / 1000) victim reads in
 *               flight; victims start while s > 0 and free blocks are below
 *               ftl.gc.high_blocks. At the reserve GC has the whole drive
 *               (no limit), as AutoSSD's emergency mode. Functional calls
 *               (preconditioning: no time passes) collect as threshold does.
 *
 * ftl.gc.preempt (flashif.c's flash_gc_hint, gc.c, alloc.c): GC's flash
 * operations carry FC_HINT_GC and host reads (and with `all` host page
 * programs) FC_HINT_HOST, and the firmware sets FLASH CTRL.PREEMPT_GC; the
 * controller then puts a host operation ahead of GC's queued operations on
 * its die that have not started (MQSim's semi-preemptive GC: GC resumes
 * after it). Not at the reserve, where host writes wait for GC.
 */
#include <string.h>

#include "ftl_internal.h"

static uint64_t free_blocks(const struct ftl *f) { return (uint64_t)f->free_total + f->erases_inflight; }

int gcsched_below_threshold(const struct ftl *f) { return free_blocks(f) < f->cfg.gc_threshold_blocks; }

void gcsched_init(struct ftl *f) {
  struct gcsched *s = &f->sched;
  memset(s, 0, sizeof *s);
  if (f->cfg.gc_trigger == FTL_GC_TRIGGER_IDLE && f->cfg.command_set == FTL_CMDSET_NVM) s->irq_extra = 1u << IRQ_TIMER;
}

enum gc_want gcsched_want(struct ftl *f) {
  const struct ftl_config *c = &f->cfg;
  struct gcsched *s = &f->sched;
  const uint64_t free = free_blocks(f);
  switch (c->gc_trigger) {
    case FTL_GC_TRIGGER_WATERMARKS:
      if (!s->collecting && free < c->gc_threshold_blocks) s->collecting = 1;
      if (s->collecting && free >= c->gc_high_blocks) s->collecting = 0;
      return s->collecting ? GC_WANT_FOREGROUND : GC_WANT_NONE;
    case FTL_GC_TRIGGER_IDLE:
      if (gcsched_below_threshold(f)) return GC_WANT_FOREGROUND;
      return s->host_idle && free < c->gc_high_blocks ? GC_WANT_BACKGROUND : GC_WANT_NONE;
    case FTL_GC_TRIGGER_AUTOSSD:
      if (f->in_func_call) /* no time passes in a functional call: no controller, the threshold */
        return gcsched_below_threshold(f) ? GC_WANT_FOREGROUND : GC_WANT_NONE;
      if (f->free_total <= c->gc_reserve_blocks) return GC_WANT_FOREGROUND;
      return s->share && free < c->gc_high_blocks ? GC_WANT_FOREGROUND : GC_WANT_NONE;
    default: return gcsched_below_threshold(f) ? GC_WANT_FOREGROUND : GC_WANT_NONE;
  }
}

uint32_t gcsched_read_limit(const struct ftl *f) {
  if (f->cfg.gc_trigger != FTL_GC_TRIGGER_AUTOSSD || f->free_total <= f->cfg.gc_reserve_blocks || f->in_func_call)
    return FTL_NONE;
  return (uint32_t)(((uint64_t)f->sched.share * f->cfg.gc_auto_depth + 999) / 1000);
}

void gcsched_host_arrival(struct ftl *f) {
  f->sched.last_arrival_ns = hal_time_ns(f->hal);
  f->sched.host_idle = 0;
}

static void timer_write(struct ftl *f, uint64_t ns) {
  hal_write32(f->hal, SSDVP_INTC_BASE + INTC_TIMER_LO, (uint32_t)ns);
  hal_write32(f->hal, SSDVP_INTC_BASE + INTC_TIMER_HI, (uint32_t)(ns >> 32));
  f->sched.timer_ns = ns;
}

/* AutoSSD's share controller: one PI step. */
static int share_update(struct ftl *f, uint64_t now) {
  const struct ftl_config *c = &f->cfg;
  struct gcsched *s = &f->sched;
  const int64_t e = (int64_t)c->gc_threshold_blocks - (int64_t)free_blocks(f);
  s->integral += e;
  const int64_t imax = c->gc_auto_ki ? 1000 / (int64_t)c->gc_auto_ki : 0;
  if (s->integral < 0) s->integral = 0;
  if (s->integral > imax) s->integral = imax;
  int64_t u = (int64_t)c->gc_auto_kp * e + (int64_t)c->gc_auto_ki * s->integral;
  if (u < 0) u = 0;
  if (u > 1000) u = 1000;
  const int rose = (uint32_t)u > s->share;
  s->share = (uint32_t)u;
  s->next_update_ns = now + c->gc_auto_period_ns;
  f->stats.gc_auto_updates++;
  f->stats.gc_auto_share_sum += s->share;
  return rose;
}

int gcsched_poll(struct ftl *f) {
  const struct ftl_config *c = &f->cfg;
  struct gcsched *s = &f->sched;
  const uint64_t now = hal_time_ns(f->hal);
  if (c->gc_trigger == FTL_GC_TRIGGER_AUTOSSD) return now >= s->next_update_ns ? share_update(f, now) : 0;
  if (c->gc_trigger != FTL_GC_TRIGGER_IDLE) return 0;
  if (s->timer_ns && now >= s->timer_ns) { /* it fired: its line stays high until disarmed */
    timer_write(f, 0);
    f->stats.gc_idle_wakeups++;
  }
  if (s->host_idle || now - s->last_arrival_ns < c->gc_idle_after_ns) return 0;
  s->host_idle = 1;
  return 1;
}

void gcsched_sleep(struct ftl *f) {
  const struct ftl_config *c = &f->cfg;
  struct gcsched *s = &f->sched;
  if (!s->irq_extra) return; /* (idle with an FTL on the drive only) */
  /* Idleness could start background GC: wake at the moment it begins. */
  const uint64_t due =
      !s->host_idle && free_blocks(f) < c->gc_high_blocks ? s->last_arrival_ns + c->gc_idle_after_ns : 0;
  if (due != s->timer_ns) timer_write(f, due);
}
