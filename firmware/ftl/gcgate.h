/*
 * gcgate.h - host-coordinated garbage collection: the gate consulted where
 * non-urgent GC would start, and the admin commands a RAID controller uses to
 * drive it (NVMe Predictable Latency Mode windows, a vendor-specific GC lock,
 * Asynchronous Event notifications of GC activity).
 *
 * Everything here is what a real drive could offer over NVMe; the host sees
 * no firmware state except through these commands and their completions.
 * Without any admin command (a single drive, or array.gc_coordination:
 * normal) the gate always opens and nothing else changes. ftl_init zeroes
 * the state (gate open, nothing reported).
 */
#ifndef SSDVP_GCGATE_H
#define SSDVP_GCGATE_H

#include <stdint.h>

#include "ssdvp_hw.h"

#ifdef __cplusplus
extern "C" {
#endif

struct ftl;

/* The admin opcodes, features and events of this protocol are wire constants
 * the host uses too: ssdvp_hw.h, "Host-coordinated garbage collection". */
#define GCGATE_MAX_AER 4u
#define GCGATE_MAX_EVENTS 16u

struct gcgate {
  uint8_t plm;       /* PLM enabled by the host */
  uint8_t window;    /* NVME_PLM_DTWIN or NVME_PLM_NDWIN */
  uint8_t report;    /* report GC start/end */
  uint8_t lock_mode; /* GC needs the host's lock */
  uint8_t lock_held;
  uint8_t lock_asked;
  uint8_t reported_gc; /* GC state last reported */
  uint8_t forced_now;  /* the open victims include one started by urgency */
  uint8_t ggc_mode;    /* non-urgent GC only inside a global collection the host starts (Harmonia) */
  uint8_t ggc_asked;
  uint8_t collect;              /* the host asked it to collect now (C2h) ... */
  uint32_t collect_target;      /* ... until free blocks (plus erases in flight) reach this */
  uint32_t aer[GCGATE_MAX_AER]; /* command slots of outstanding AERs */
  uint32_t aer_count;
  uint8_t events[GCGATE_MAX_EVENTS];
  uint32_t ev_head, ev_count;
};

/* Where a non-urgent victim would start: 1 if it may. Urgent collection (free
 * blocks down to the reserve plus the concurrent victims) always may, and is
 * counted as forced when the host's coordination would have refused it. */
int gcgate_allow(struct ftl *f);
/* 1 while a collection the host asked for (C2h) has not reached its target:
 * gc_schedule then collects above its own threshold (the gate still applies). */
int gcgate_want(const struct ftl *f);
/* 1 when no host coordination is configured or pending (no PLM, reports,
 * lock, global GC or collection, no event queued): the gate is then open,
 * wants nothing, and a pass needs only note whether GC is active. */
static inline __attribute__((always_inline)) int gcgate_quiet(const struct gcgate *g) { /* -Os would call it */
  return !(g->plm | g->report | g->lock_mode | g->lock_held | g->ggc_mode | g->collect) && !g->ev_count;
}
/* Every event-loop pass: releases the lock when collection is done, queues
 * GC start/end events. */
void gcgate_poll(struct ftl *f);
/* An event for an outstanding AER: its command slot and completion dword 0
 * (the loop completes it); 0 when none. */
int gcgate_next_completion(struct ftl *f, uint32_t *c, uint32_t *dw0);
/* An admin command (SQ 0) in command slot c: the status to complete it with,
 * or GCGATE_HELD for an AER kept until an event. */
#define GCGATE_HELD 0xffff
int gcgate_admin(struct ftl *f, uint32_t c, const struct nvme_sqe *q);

#ifdef __cplusplus
}
#endif
#endif /* SSDVP_GCGATE_H */
