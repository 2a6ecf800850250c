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
 * whose newest copy found by the scan is older than the record.
 *
 * Without checkpoints (power.trim_log.mode on; docs/firmware.md "Trim log
 * without checkpoints") the log has two areas of its own, reserved like the
 * checkpoints' (power.trim_log.blocks each). An area starts with a bitmap of
 * the LBAs deallocated at its sequence number X (one bit per LBA, from the
 * L2P: unmapped), then log pages as above. When the area has one page left
 * the log moves: its page is programmed, the frontiers drained (placement
 * waits until every filled page is programmed), then the bitmap is taken
 * (the L2P, with every record so far in it), the other area erased and the bitmap
 * programmed there; deallocations wait meanwhile, and the older area stays
 * whole until the next move erases it, so a torn move falls back to it.
 * Recovery (after the full scan) takes the newest area whose bitmap reads
 * back whole, unmaps every LBA of the bitmap whose newest copy is older than
 * X and replays the records after it, then moves the log to the other area.
 *
 * A GC erase waits until every record made before its victim was collected
 * is on flash (tlog_barrier): the erase may remove the newest copy of an LBA
 * deallocated since, and if that deallocation were lost in a cut, recovery
 * would map an older copy, older than what the host made durable.
 */
#include <string.h>

#include "ftl_internal.h"

uint32_t tlog_page_bytes(const struct ftl_config *c) { return c->slots_per_page * c->lba_bytes; }

uint32_t tlog_bm_pages(const struct ftl_config *c) {
  const uint64_t bits = (uint64_t)(tlog_page_bytes(c) / 4 - TLOG_HEADER_WORDS) * 32;
  return (uint32_t)((c->logical_lbas + bits - 1) / bits);
}

uint32_t tlog_own_blocks(const struct ftl_config *c) { return tlog_own_cfg(c) ? 2 * c->trim_log_blocks : 0; }

uint64_t tlog_page_dram(const struct ftl_config *c) { return ((tlog_page_bytes(c) + 63u) & ~63u) + CKPT_BUF_STRIDE; }

uint64_t tlog_dram_bytes(const struct ftl_config *c) {
  if (ckpt_enabled(c)) return c->trim_log == FTL_TLOG_OFF ? 0 : tlog_page_dram(c);
  if (!tlog_own_cfg(c)) return 0;
  return tlog_page_dram(c) + ((2ull * c->trim_log_blocks * 4 + 63) & ~63ull) +
         (uint64_t)tlog_bm_pages(c) * tlog_page_bytes(c);
}

int tlog_page_init(struct ftl *f, uint32_t bus) {
  struct trimlog *t = &f->tlog;
  const uint32_t pb = (tlog_page_bytes(&f->cfg) + 63u) & ~63u;
  t->page = hal_dram(f->hal, bus, tlog_page_bytes(&f->cfg));
  t->page_bus = bus;
  t->oob = hal_dram(f->hal, bus + pb, CKPT_BUF_STRIDE);
  t->oob_bus = bus + pb;
  if (!t->page || !t->oob) return -1;
  t->cap = (tlog_page_bytes(&f->cfg) / 4 - TLOG_HEADER_WORDS) / TLOG_RECORD_WORDS;
  return 0;
}

void tlog_init(struct ftl *f, uint32_t bus) {
  struct trimlog *t = &f->tlog;
  memset(t, 0, sizeof *t);
  if (!ckpt_enabled(&f->cfg) || f->cfg.trim_log == FTL_TLOG_OFF || f->cfg.logical_lbas >= 0xffffffffull) return;
  if (tlog_page_init(f, bus)) return;
  t->area = 1; /* before the first checkpoint (it goes to area 0) */
  t->on = t->cap > 0;
}

/* The flash row of page i of area a (an index in the area's page order,
 * striped over its blocks as the image's pages are: ckpt_row). */
uint32_t tlog_area_row(const struct ftl *f, uint32_t a, uint32_t i) {
  const struct trimlog *t = &f->tlog;
  const uint32_t n = t->own ? t->area_n : f->ckpt.area_n;
  const uint32_t *blocks = t->own ? t->blocks : f->ckpt.area;
  return blocks[a * n + i % n] * f->cfg.pages_per_block + i / n;
}
static uint32_t log_row(const struct ftl *f, uint32_t i) { return tlog_area_row(f, f->tlog.area, i); }

static uint32_t area_pages(const struct ftl *f) {
  return (f->tlog.own ? f->tlog.area_n : f->ckpt.area_n) * f->cfg.pages_per_block;
}

/* Log pages left in the area. */
uint32_t tlog_pages_left(const struct ftl *f) {
  const struct trimlog *t = &f->tlog;
  const uint32_t cap = area_pages(f);
  return t->base + t->next >= cap ? 0 : cap - t->base - t->next;
}

int tlog_room(struct ftl *f) {
  struct trimlog *t = &f->tlog;
  if (!t->on) return 1;
  if (f->ckpt.phase != 0 || t->busy || t->rot || t->rot_asap)
    return 0; /* a checkpoint or move under way, or the page in flight */
  if (t->n == t->cap) {
    tlog_program(f);
    return 0;
  }
  if (tlog_pages_left(f) < 2) { /* the last page stays for the records in DRAM (a flush, a power failure) */
    if (t->own)
      t->rot_asap = 1;
    else
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
  t->last_seq = f->seq;
  t->n++;
  hal_charge(f->hal, FW_OP_l2p_update, 1);
}

/* The page buffer of a metadata page: magic (and index) in its slots, no LPNs,
 * the generation as its OOB sequence (area blocks are never scanned). */
void tlog_meta_oob(struct ftl *f, uint32_t magic, uint32_t idx, uint32_t gen) {
  struct trimlog *t = &f->tlog;
  const uint32_t S = f->cfg.slots_per_page;
  memset(t->oob, 0, FC_PAGE_BUF_BYTES(S));
  t->oob[0] = magic;
  if (S > 1) t->oob[1] = idx;
  for (uint32_t s = 0; s < S; ++s) t->oob[S + s] = SSDVP_LPN_NONE;
  t->oob[2 * (size_t)S] = gen;
}

int tlog_program(struct ftl *f) {
  struct trimlog *t = &f->tlog;
  if (!t->on || t->busy || t->rot || t->n == 0) return 0; /* a move's bitmap holds the records */
  if (!tlog_pages_left(
          f)) { /* no page left (a program failed): the records wait for the checkpoint or move asked for */
    if (t->own)
      t->rot_asap = 1;
    else
      f->ckpt.asap = 1;
    return 0;
  }
  const uint32_t i = t->base + t->next;
  t->page[0] = TLOG_MAGIC;
  t->page[1] = t->gen;
  t->page[2] = i;
  t->page[3] = t->n;
  tlog_meta_oob(f, TLOG_MAGIC, i, t->gen);
  flash_submit_meta(f, FC_OP_PROGRAM, TAG(TAG_CKPT, CKPT_TAG_LOG), log_row(f, i), t->oob_bus, t->page_bus,
                    tlog_page_bytes(&f->cfg));
  t->next++;
  t->busy = 1;
  t->page_seq = t->last_seq;
  t->page_epoch = program_issued(f); /* a flush, a checkpoint's drain and ftl.gc.durable wait for it */
  f->stats.ckpt_programs++;
  f->stats.trim_log_programs++;
  return 1;
}

static void rot_done(struct ftl *f, int status);

void tlog_done(struct ftl *f, uint32_t idx, int status) {
  struct trimlog *t = &f->tlog;
  if (idx & TLOG_TAG_ROT) {
    rot_done(f, status);
    return;
  }
  t->busy = 0;
  program_retired(f, t->page_epoch);
  if (status == FC_OK) {
    t->n = 0;
    t->durable_seq = t->page_seq;
  } else if (f->flush_waiters || f->erase_waiting) {
    tlog_program(f); /* the records stay: the next page takes them */
  }
}

/* ---- areas of its own: the move, the GC barrier ------------------------------ */

static void rot_done(struct ftl *f, int status) {
  struct trimlog *t = &f->tlog;
  t->rot_inflight--;
  t->rot_done++;
  if (status != FC_OK) t->rot_failed = 1;
}

uint32_t tlog_barrier(struct ftl *f) {
  struct trimlog *t = &f->tlog;
  if (!t->own || !f->cfg.trim_log_gc_barrier || t->last_seq <= t->durable_seq) return 0;
  if (!t->busy && !t->rot) tlog_program(f); /* (a move, or the page in flight, makes them durable too) */
  f->stats.trim_log_gc_waits++;
  return t->last_seq;
}

int tlog_durable_through(const struct ftl *f, uint32_t seq) { return f->tlog.durable_seq >= seq; }

void tlog_checkpoint_done(struct ftl *f, uint32_t a, uint32_t gen, uint32_t base) {
  struct trimlog *t = &f->tlog;
  if (!t->on) return;
  t->area = a;
  t->base = base;
  t->next = 0;
  t->gen = gen;
  t->n = 0; /* deallocations waited since the drain: the snapshot holds every record */
}

/* ---- recovery -------------------------------------------------------------- */

/* Reads page i of area a into buf (the page's bytes) and the OOB buffer: 0
 * read, 1 erased, -1 torn or unreadable. */
static int read_meta(struct ftl *f, uint32_t a, uint32_t i, uint32_t buf_bus) {
  struct trimlog *t = &f->tlog;
  memset(t->oob, 0, FC_PAGE_BUF_BYTES(f->cfg.slots_per_page));
  flash_submit_meta(f, FC_OP_READ, TAG(TAG_CKPT, CKPT_TAG_LOG), tlog_area_row(f, a, i), t->oob_bus, buf_bus,
                    tlog_page_bytes(&f->cfg));
  f->stats.recovery_ckpt_pages++;
  struct fc_cqe c;
  if (flash_wait_one(f, TAG(TAG_CKPT, CKPT_TAG_LOG), &c)) return -1;
  if (c.status == FC_OK && (c.flags & FC_FLAG_ERASED)) return 1;
  return c.status == FC_OK ? 0 : -1;
}

/* Own areas: area a's generation from its first page (0: none), and in
 * *magic what that page is (a bitmap's, or a new drive's first log page). */
static uint32_t area_gen(struct ftl *f, uint32_t a, uint32_t *magic) {
  struct trimlog *t = &f->tlog;
  *magic = 0;
  if (read_meta(f, a, 0, t->page_bus) != 0) return 0;
  const uint32_t *p = t->page;
  if ((p[0] != TLOG_BM_MAGIC && p[0] != TLOG_MAGIC) || p[2] != 0 || t->oob[0] != p[0]) return 0;
  *magic = p[0];
  return p[1];
}

/* Own areas: area a's bitmap of generation gen read back whole into tlog.bitmap? */
static int bitmap_read(struct ftl *f, uint32_t a, uint32_t gen) {
  struct trimlog *t = &f->tlog;
  const uint32_t words = tlog_page_bytes(&f->cfg) / 4;
  for (uint32_t p = 0; p < t->bm_pages; ++p) {
    const uint32_t *pg = t->bitmap + (size_t)p * words;
    if (read_meta(f, a, p, t->bitmap_bus + p * words * 4) != 0) return -1;
    if (pg[0] != TLOG_BM_MAGIC || pg[1] != gen || pg[2] != p || pg[3] != t->bitmap[3]) return -1;
  }
  return 0;
}

static void own_recover_begin(struct ftl *f) {
  struct trimlog *t = &f->tlog;
  uint32_t gen[2], magic[2];
  for (uint32_t a = 0; a < 2; ++a) gen[a] = area_gen(f, a, &magic[a]);
  t->top_gen = gen[0] > gen[1] ? gen[0] : gen[1];
  if (t->top_gen == 0) t->top_gen = 1;
  t->area = 0;
  t->gen = 0; /* no log found: nothing to replay */
  t->base = 0;
  t->bm_valid = 0;
  const uint32_t first = gen[1] > gen[0] ? 1 : 0;
  for (uint32_t i = 0; i < 2; ++i) {
    const uint32_t a = i ? first ^ 1 : first;
    if (!gen[a]) continue;
    if (magic[a] == TLOG_MAGIC) { /* a new drive's area 0: the log from its first page, no bitmap */
      t->area = a, t->gen = gen[a], t->base = 0;
      return;
    }
    if (bitmap_read(f, a, gen[a]) == 0) {
      t->area = a, t->gen = gen[a], t->base = t->bm_pages;
      t->bm_valid = 1;
      return;
    }
    f->stats.recovery_ckpt_torn++; /* a move the cut tore: the older area */
  }
}

void tlog_recover_begin(struct ftl *f, uint32_t a, uint32_t gen, uint32_t base) {
  struct trimlog *t = &f->tlog;
  if (!t->on) return;
  t->next = 0;
  t->n = 0;
  if (t->own) {
    own_recover_begin(f);
    return;
  }
  t->area = gen ? a : 1;
  t->base = gen ? base : 0;
  t->gen = gen;
}

int tlog_read(struct ftl *f, uint32_t i, const uint32_t **recs, uint32_t *n) {
  struct trimlog *t = &f->tlog;
  if (!t->on || (t->own && !t->gen) || t->base + i >= area_pages(f)) return -1;
  const uint32_t idx = t->base + i;
  const int got = read_meta(f, t->area, idx, t->page_bus);
  if (got == 1) return -1; /* the end of the log */
  t->next = i + 1;         /* the log goes on after this page */
  if (got < 0) return 1;   /* torn by the cut: not durable yet */
  const uint32_t *p = t->page;
  if (t->oob[0] != TLOG_MAGIC || p[0] != TLOG_MAGIC || p[1] != t->gen || p[2] != idx || p[3] > t->cap) {
    /* not this log's page (another checkpoint's image): the end, and no room
     * after it (the next checkpoint moves the log to its own area) */
    t->next = area_pages(f) - t->base;
    return -1;
  }
  *recs = p + TLOG_HEADER_WORDS;
  *n = p[3];
  return 0;
}

void tlog_recover_end(struct ftl *f) {
  struct trimlog *t = &f->tlog;
  if (!t->own) return;
  /* The recovered state is on flash (this area and the scan): move the log
   * to the other area at once, so nothing is ever written after a torn page
   * and the next bitmap holds what this recovery found. */
  t->last_seq = t->durable_seq = f->seq;
  t->rot_asap = 1;
}
