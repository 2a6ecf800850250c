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

/* Admin opcodes (NVMe base spec 1.4, figure 139) and vendor-specific ones. */
enum gcgate_admin_opcode {
  NVME_ADMIN_SET_FEATURES = 0x09,
  NVME_ADMIN_ASYNC_EVENT_REQUEST = 0x0c,
  NVME_ADMIN_VS_GC_LOCK = 0xc1,   /* vendor: CDW10 = 1 grant the GC lock, 0 take it back */
  NVME_ADMIN_VS_GC_COLLECT = 0xc2 /* vendor: CDW10 = 1 collect now until free blocks reach the GC threshold
                                     plus CDW11 (Harmonia's global GC, free-block banking), 0 stop */
};
/* Feature identifiers (CDW10 bits 7:0 of Set Features). */
enum gcgate_feature {
  NVME_FEAT_PLM_CONFIG = 0x09,  /* Predictable Latency Mode Config: CDW12 bit 0 enable */
  NVME_FEAT_PLM_WINDOW = 0x0a,  /* Predictable Latency Mode Window: CDW12 bits 2:0, 1 DTWIN, 2 NDWIN */
  NVME_FEAT_VS_GC_REPORT = 0xc0 /* vendor: CDW11 bit 0 report GC start/end, bit 1 GC needs the lock,
                                   bit 2 GC needs a global collection (Harmonia) */
};
enum { NVME_PLM_DTWIN = 1, NVME_PLM_NDWIN = 2 };
/* Asynchronous event completion dword 0: type 7 (vendor specific) in bits
 * 2:0, event information in bits 15:8, log page 0xc0 in bits 23:16. */
enum gcgate_event {
  GCGATE_EV_GC_START = 1,     /* the drive started collecting */
  GCGATE_EV_GC_END = 2,       /* it has no victim open any more */
  GCGATE_EV_LOCK_REQUEST = 3, /* it wants to collect and asks for the lock */
  GCGATE_EV_LOCK_RELEASE = 4, /* it holds the lock and is done */
  GCGATE_EV_GGC_REQUEST = 5,  /* global-GC mode: it needs to collect and asks for a global collection */
  GCGATE_EV_COLLECT_DONE = 6  /* a collection the host asked for (C2h) reached its target */
};
#define GCGATE_AEN_DW0(ev) (7u | ((uint32_t)(ev) << 8) | (0xc0u << 16))
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
