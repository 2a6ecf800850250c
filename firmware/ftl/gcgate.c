/*
 * gcgate.c - host-coordinated garbage collection (see gcgate.h).
 *
 * Policies live in the host (a RAID controller); the drive only offers:
 *  - NVMe Predictable Latency Mode: with PLM enabled, non-urgent GC starts
 *    only in a non-deterministic window (NDWIN); the host selects the window
 *    with Set Features (Predictable Latency Mode Window);
 *  - a vendor-specific GC lock: with lock mode on, the drive asks for the lock
 *    by an asynchronous event, collects once a vendor admin command grants it,
 *    and gives it back by another event when no victim is open;
 *  - vendor-specific asynchronous events for GC start and end, so the host can
 *    steer reads around a collecting drive;
 *  - a vendor "collect now" command (C2h): collect until free blocks reach the
 *    GC threshold plus a host-given number, then report it by an event. With
 *    global-GC mode on (Harmonia, Kim et al., MSST 2011), non-urgent GC starts
 *    only inside such a collection, and a drive that needs one asks the host
 *    by an event; the host then tells every drive to collect at once. Under
 *    PLM it banks free blocks while the drive's window is open.
 * Urgent collection (free blocks down to the write reserve plus the victims
 * that may run at once) starts whatever the host said: a drive must never
 * deadlock for want of space. Such GC periods are counted in gc_forced.
 */
#include "ftl_internal.h"

static int gate_open(const struct gcgate *g) {
  if (g->plm && g->window != NVME_PLM_NDWIN) return 0;
  if (g->lock_mode && !g->lock_held) return 0;
  if (g->ggc_mode && !g->collect) return 0;
  return 1;
}

int gcgate_want(const struct ftl *f) {
  const struct gcgate *g = &f->gate;
  return g->collect && f->free_total + f->erases_inflight < g->collect_target;
}

static void push_event(struct ftl *f, enum gcgate_event ev) {
  struct gcgate *g = &f->gate;
  if (g->ev_count == GCGATE_MAX_EVENTS) { /* the host stopped listening: keep the newest */
    g->ev_head = (g->ev_head + 1) % GCGATE_MAX_EVENTS;
    g->ev_count--;
    f->stats.gc_events_lost++;
  }
  g->events[(g->ev_head + g->ev_count) % GCGATE_MAX_EVENTS] = (uint8_t)ev;
  g->ev_count++;
}

int gcgate_allow(struct ftl *f) {
  struct gcgate *g = &f->gate;
  if (gate_open(g)) return 1;
  if (g->lock_mode && !g->lock_held && !g->lock_asked) {
    g->lock_asked = 1;
    push_event(f, GCGATE_EV_LOCK_REQUEST);
  }
  if (g->ggc_mode && !g->collect && !g->ggc_asked) {
    g->ggc_asked = 1;
    push_event(f, GCGATE_EV_GGC_REQUEST);
  }
  /* urgent: host writes are about to wait for a free block */
  return f->free_total + f->erases_inflight <= f->cfg.gc_reserve_blocks + f->cfg.gc_max_active;
}

void gcgate_poll(struct ftl *f) {
  struct gcgate *g = &f->gate;
  const uint8_t active = f->gc_active != 0;
  if (active != g->reported_gc) {
    g->reported_gc = active;
    if (active && !gate_open(g)) f->stats.gc_forced++;
    if (g->report) push_event(f, active ? GCGATE_EV_GC_START : GCGATE_EV_GC_END);
  }
  if (g->lock_held && !active) { /* collected what it asked for (or nothing was left to collect) */
    g->lock_held = 0;
    push_event(f, GCGATE_EV_LOCK_RELEASE);
  }
  /* gc_schedule ran just before this: with the gate open and no victim open,
   * the target is reached (or no victim is left to collect) */
  if (g->collect && !active && gate_open(g)) {
    g->collect = 0;
    push_event(f, GCGATE_EV_COLLECT_DONE);
  }
}

int gcgate_next_completion(struct ftl *f, uint32_t *c, uint32_t *dw0) {
  struct gcgate *g = &f->gate;
  if (!g->ev_count || !g->aer_count) return 0;
  *c = g->aer[--g->aer_count];
  *dw0 = GCGATE_AEN_DW0(g->events[g->ev_head]);
  g->ev_head = (g->ev_head + 1) % GCGATE_MAX_EVENTS;
  g->ev_count--;
  return 1;
}

int gcgate_admin(struct ftl *f, uint32_t c, const struct nvme_sqe *q) {
  struct gcgate *g = &f->gate;
  switch (f->nt.cmds[c].opcode) {
    case NVME_ADMIN_SET_FEATURES:
      switch (q->cdw10 & 0xff) {
        case NVME_FEAT_PLM_CONFIG:
          g->plm = (uint8_t)(q->cdw12 & 1);
          g->window = NVME_PLM_DTWIN;
          return NVME_SC_SUCCESS;
        case NVME_FEAT_PLM_WINDOW: {
          const uint32_t w = q->cdw12 & 7;
          if (!g->plm || (w != NVME_PLM_DTWIN && w != NVME_PLM_NDWIN)) return NVME_SC_INVALID_FIELD;
          g->window = (uint8_t)w;
          return NVME_SC_SUCCESS;
        }
        case NVME_FEAT_VS_GC_REPORT:
          g->report = (uint8_t)(q->cdw11 & 1);
          g->lock_mode = (uint8_t)((q->cdw11 >> 1) & 1);
          g->ggc_mode = (uint8_t)((q->cdw11 >> 2) & 1);
          return NVME_SC_SUCCESS;
        default: return NVME_SC_INVALID_FIELD;
      }
    case NVME_ADMIN_ASYNC_EVENT_REQUEST:
      if (g->aer_count == GCGATE_MAX_AER) return 0x105; /* AER limit exceeded */
      f->nt.cmds[c].state = CMD_HELD;
      g->aer[g->aer_count++] = c;
      return GCGATE_HELD;
    case NVME_ADMIN_VS_GC_LOCK:
      g->lock_held = (uint8_t)(q->cdw10 & 1);
      g->lock_asked = 0;
      return NVME_SC_SUCCESS;
    case NVME_ADMIN_VS_GC_COLLECT:
      g->collect = (uint8_t)(q->cdw10 & 1);
      g->collect_target = f->cfg.gc_threshold_blocks + q->cdw11;
      g->ggc_asked = 0;
      return NVME_SC_SUCCESS;
    default: return NVME_SC_INVALID_OPCODE;
  }
}
