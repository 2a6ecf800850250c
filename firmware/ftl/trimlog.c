/*
 * trimlog.c - the trim log: deallocations made after the newest complete
 * checkpoint survive a power cut (docs/firmware.md, "Trim log").
 *
 * A checkpoint's L2P holds the deallocations made before its snapshot; the
 * OOB scan cannot see the ones made since (a trimmed LBA has no page saying
 * so, and its old copy is still on the flash). So every deallocation (one
 * DSM range, or the part of it done at once) becomes a record (first LBA,
 * count, sequence number): the sequence number is the drive's one counter,
 * taken at the trim, so a write of the LBA placed after it is programmed
 * with a larger one, and a copy programmed before it has a smaller one.
 * Records gather in a DRAM page; the page is programmed, as metadata like a
 * checkpoint's pages, into the area of the newest complete checkpoint after
 * its image (before the first checkpoint: into area 1 from its first page,
 * which the first checkpoint does not overwrite) when a Flush arrives (the
 * Flush completes once it is programmed), when it is full, and by the
 * power-fail handler with power-loss protection. So a deallocation is as
 * durable as a write: with protection once acknowledged, without it once a
 * Flush after it completed.
 *
 * While a checkpoint is under way (drain to completion) deallocations wait
 * (DSM commands queue, as for the cached mapping's log): the snapshot then
 * holds every logged record, and when the checkpoint completes the log
 * starts again after its image. The older area is erased only by the next
 * checkpoint, so if that one is torn, recovery falls back to this one and
 * still finds its log. When the area is full the log asks for a checkpoint
 * at once and deallocations wait for it.
 *
 * Recovery (power.c) reads the log of the checkpoint it loaded (or the
 * pre-checkpoint log of area 1 when it scanned everything) page by page
 * until an erased page, skips a torn one, and unmaps every LBA of a record
 * whose newest copy found by the scan is older than the record. Without
 * checkpoints there is no log and deallocations are not persistent.
 */
#include <string.h>

#include "ftl_internal.h"

static uint32_t tlog_page_bytes(const struct ftl_config *c) { return c->slots_per_page * c->lba_bytes; }

uint64_t tlog_dram_bytes(const struct ftl_config *c) {
  if (!ckpt_enabled(c)) return 0;
  return ((tlog_page_bytes(c) + 63u) & ~63u) + CKPT_BUF_STRIDE;
}

void tlog_init(struct ftl *f, uint32_t bus) {
  struct trimlog *t = &f->tlog;
  memset(t, 0, sizeof *t);
  if (!ckpt_enabled(&f->cfg) || f->cfg.logical_lbas >= 0xffffffffull) return;
  const uint32_t pb = (tlog_page_bytes(&f->cfg) + 63u) & ~63u;
  t->page = hal_dram(f->hal, bus, tlog_page_bytes(&f->cfg));
  t->page_bus = bus;
  t->oob = hal_dram(f->hal, bus + pb, CKPT_BUF_STRIDE);
  t->oob_bus = bus + pb;
  if (!t->page || !t->oob) return;
  t->cap = (tlog_page_bytes(&f->cfg) / 4 - TLOG_HEADER_WORDS) / TLOG_RECORD_WORDS;
  t->area = 1; /* before the first checkpoint (it goes to area 0) */
  t->on = t->cap > 0;
}

/* The flash row of log page i (an index in the area's page order, striped
 * over its blocks as the image's pages are: ckpt_row). */
static uint32_t log_row(const struct ftl *f, uint32_t i) {
  const uint32_t n = f->ckpt.area_n;
  return f->ckpt.area[f->tlog.area * n + i % n] * f->cfg.pages_per_block + i / n;
}

/* Log pages left in the area. */
static uint32_t pages_left(const struct ftl *f) {
  const struct trimlog *t = &f->tlog;
  const uint32_t cap = f->ckpt.area_n * f->cfg.pages_per_block;
  return t->base + t->next >= cap ? 0 : cap - t->base - t->next;
}

int tlog_room(struct ftl *f) {
  struct trimlog *t = &f->tlog;
  if (!t->on) return 1;
  if (f->ckpt.phase != 0 || t->busy) return 0; /* a checkpoint under way, or the page in flight */
  if (t->n == t->cap) {
    tlog_program(f);
    return 0;
  }
  if (pages_left(f) < 2) { /* the last page stays for the records in DRAM (a flush, a power failure) */
    f->ckpt.asap = 1;
    return 0;
  }
  return 1;
}

void tlog_add(struct ftl *f, uint64_t slba, uint64_t n) {
  struct trimlog *t = &f->tlog;
  if (!t->on || n == 0) return;
  uint32_t *r = t->page + TLOG_HEADER_WORDS + (size_t)t->n * TLOG_RECORD_WORDS;
  r[0] = (uint32_t)slba;
  r[1] = (uint32_t)n;
  r[2] = ++f->seq;
  t->n++;
  hal_charge(f->hal, FW_OP_l2p_update, 1);
}

int tlog_program(struct ftl *f) {
  struct trimlog *t = &f->tlog;
  if (!t->on || t->busy || t->n == 0) return 0;
  if (!pages_left(f)) { /* no page left (a program failed): the records wait for the checkpoint asked for */
    f->ckpt.asap = 1;
    return 0;
  }
  const uint32_t S = f->cfg.slots_per_page, i = t->base + t->next;
  t->page[0] = TLOG_MAGIC;
  t->page[1] = t->gen;
  t->page[2] = i;
  t->page[3] = t->n;
  memset(t->oob, 0, FC_PAGE_BUF_BYTES(S));
  t->oob[0] = TLOG_MAGIC;
  if (S > 1) t->oob[1] = i;
  for (uint32_t s = 0; s < S; ++s) t->oob[S + s] = SSDVP_LPN_NONE;
  t->oob[2 * (size_t)S] = t->gen; /* OOB sequence: never compared with data pages' (area blocks are not scanned) */
  flash_submit_meta(f, FC_OP_PROGRAM, TAG(TAG_CKPT, CKPT_TAG_LOG), log_row(f, i), t->oob_bus, t->page_bus,
                    tlog_page_bytes(&f->cfg));
  t->next++;
  t->busy = 1;
  f->programs_inflight++; /* a flush, a checkpoint's drain and ftl.gc.durable wait for it */
  f->stats.ckpt_programs++;
  f->stats.trim_log_programs++;
  return 1;
}

void tlog_done(struct ftl *f, int status) {
  struct trimlog *t = &f->tlog;
  t->busy = 0;
  f->programs_inflight--;
  if (status == FC_OK)
    t->n = 0;
  else if (f->flush_waiters)
    tlog_program(f); /* the records stay: the next page takes them */
}

void tlog_checkpoint_done(struct ftl *f, uint32_t a, uint32_t gen, uint32_t base) {
  struct trimlog *t = &f->tlog;
  if (!t->on) return;
  t->area = a;
  t->base = base;
  t->next = 0;
  t->gen = gen;
  t->n = 0; /* deallocations waited since the drain: the snapshot holds every record */
}

void tlog_recover_begin(struct ftl *f, uint32_t a, uint32_t gen, uint32_t base) {
  struct trimlog *t = &f->tlog;
  if (!t->on) return;
  t->area = gen ? a : 1;
  t->base = gen ? base : 0;
  t->gen = gen;
  t->next = 0;
  t->n = 0;
}

int tlog_read(struct ftl *f, uint32_t i, const uint32_t **recs, uint32_t *n) {
  struct trimlog *t = &f->tlog;
  if (!t->on || t->base + i >= f->ckpt.area_n * f->cfg.pages_per_block) return -1;
  const uint32_t S = f->cfg.slots_per_page, idx = t->base + i;
  memset(t->oob, 0, FC_PAGE_BUF_BYTES(S));
  flash_submit_meta(f, FC_OP_READ, TAG(TAG_CKPT, CKPT_TAG_LOG), log_row(f, idx), t->oob_bus, t->page_bus,
                    tlog_page_bytes(&f->cfg));
  f->stats.recovery_ckpt_pages++;
  struct fc_cqe c;
  if (flash_wait_one(f, TAG(TAG_CKPT, CKPT_TAG_LOG), &c)) return -1;
  if (c.status == FC_OK && (c.flags & FC_FLAG_ERASED)) return -1; /* the end of the log */
  t->next = i + 1;                                                /* the log goes on after this page */
  if (c.status != FC_OK) return 1;                                /* torn by the cut: not durable yet */
  const uint32_t *p = t->page;
  if (t->oob[0] != TLOG_MAGIC || p[0] != TLOG_MAGIC || p[1] != t->gen || p[2] != idx || p[3] > t->cap) {
    /* not this log's page (another checkpoint's image): the end, and no room
     * after it (the next checkpoint moves the log to its own area) */
    t->next = f->ckpt.area_n * f->cfg.pages_per_block - t->base;
    return -1;
  }
  *recs = p + TLOG_HEADER_WORDS;
  *n = p[3];
  return 0;
}
