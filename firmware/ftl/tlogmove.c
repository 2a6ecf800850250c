/*
 * tlogmove.c - the trim log's areas of its own (power.trim_log.mode on
 * without checkpoints; docs/firmware.md "Trim log without checkpoints"):
 * their set-up at power-up and the move to the other area (drain, bitmap,
 * erase, bitmap pages). Apart from trimlog.c because the move drains the
 * write frontiers as a checkpoint does and releases the flushes and GC
 * erases waiting for the log, so it sits above ckpt.c, hostif.c and gc.c;
 * trimlog.c, which those units call, stays below them.
 */
#include <string.h>

#include "ftl_internal.h"

int tlog_own_init(struct ftl *f, uint64_t off) {
  struct trimlog *t = &f->tlog;
  if (!tlog_own_cfg(&f->cfg)) return 0;
  memset(t, 0, sizeof *t);
  const uint32_t bus = (uint32_t)(f->cfg.dram_base + off);
  const uint64_t list = (2ull * f->cfg.trim_log_blocks * 4 + 63) & ~63ull;
  t->area_n = f->cfg.trim_log_blocks;
  t->bm_pages = tlog_bm_pages(&f->cfg);
  t->blocks = hal_dram(f->hal, bus + (uint32_t)tlog_page_dram(&f->cfg), 2 * t->area_n * 4);
  t->bitmap_bus = bus + (uint32_t)(tlog_page_dram(&f->cfg) + list);
  t->bitmap = hal_dram(f->hal, t->bitmap_bus, t->bm_pages * tlog_page_bytes(&f->cfg));
  if (tlog_page_init(f, bus) || !t->blocks || !t->bitmap) return -1;
  if (reserve_area_blocks(f, t->blocks, 2 * t->area_n, "the trim log's areas (power.trim_log.blocks)")) return -1;
  f->stats.free_blocks_min = f->free_total;
  /* A new drive: the log starts in area 0 at its first page, generation 1,
   * without a bitmap (nothing was deallocated); the first move writes one. */
  t->own = 1;
  t->area = 0;
  t->gen = t->top_gen = 1;
  t->on = t->cap > 0;
  return 0;
}

/* The bitmap of the LBAs deallocated now (unmapped), with sequence number x,
 * for the area's generation gen. */
static void bitmap_take(struct ftl *f, uint32_t gen, uint32_t x) {
  struct trimlog *t = &f->tlog;
  const uint32_t words = tlog_page_bytes(&f->cfg) / 4, per = (words - TLOG_HEADER_WORDS) * 32;
  for (uint32_t p = 0; p < t->bm_pages; ++p) {
    uint32_t *pg = t->bitmap + (size_t)p * words;
    pg[0] = TLOG_BM_MAGIC;
    pg[1] = gen;
    pg[2] = p;
    pg[3] = x;
    memset(pg + TLOG_HEADER_WORDS, 0, (size_t)(words - TLOG_HEADER_WORDS) * 4);
  }
  for (uint64_t l = 0; l < f->cfg.logical_lbas; ++l) {
    if (f->l2p[l] != FTL_UNMAPPED) continue;
    const uint32_t p = (uint32_t)(l / per), b = (uint32_t)(l % per);
    t->bitmap[(size_t)p * words + TLOG_HEADER_WORDS + b / 32] |= 1u << (b % 32);
  }
  hal_charge(f->hal, FW_OP_ckpt_copy_word, (uint32_t)f->cfg.logical_lbas); /* a pass over the L2P */
}

int tlog_poll(struct ftl *f) {
  struct trimlog *t = &f->tlog;
  switch (t->rot) {
    case 0:
      if (!t->rot_asap || t->busy) return 0;
      if (t->n && tlog_pages_left(f)) return tlog_program(f); /* the records first: durable in this area */
      /* Drain as a checkpoint does: placement waits and every filled page is
       * programmed, so each mapped LBA's newest copy is on flash before the
       * bitmap leaves it out (the records of the older area, which the next
       * move erases, are not needed for it then). */
      f->ckpt.draining = 1;
      for (uint32_t i = 0; i < place_frontiers(&f->cfg); ++i) frontier_flush_one(f, &f->fr[i]);
      t->rot = TLOG_ROT_DRAIN;
      return 1;
    case TLOG_ROT_DRAIN:
      if (!ckpt_drained(f)) return 0;
      f->ckpt.draining = 0;
      bitmap_take(f, t->top_gen + 1, ++f->seq);
      t->rot_seq = t->last_seq; /* every record so far is in the bitmap */
      t->writing = t->area ^ 1;
      t->rot = TLOG_ROT_ERASE;
      t->rot_next = t->rot_done = t->rot_inflight = 0;
      t->rot_failed = 0;
      return 1;
    case TLOG_ROT_ERASE: {
      int did = 0;
      while (t->rot_next < t->area_n && t->rot_inflight < CKPT_INFLIGHT) {
        flash_submit(f, FC_OP_ERASE, TAG(TAG_CKPT, CKPT_TAG_LOG | TLOG_TAG_ROT),
                     t->blocks[t->writing * t->area_n + t->rot_next], 0, 0);
        f->stats.ckpt_erases++;
        f->stats.trim_log_erases++;
        t->rot_next++, t->rot_inflight++, did = 1;
      }
      if (t->rot_done == t->area_n && !t->rot_inflight) {
        t->rot = TLOG_ROT_PROGRAM;
        t->rot_next = t->rot_done = 0;
        if (t->rot_failed) t->rot_done = t->bm_pages; /* no programs: again from the start */
        did = 1;
      }
      return did;
    }
    case TLOG_ROT_PROGRAM: {
      const uint32_t words = tlog_page_bytes(&f->cfg) / 4;
      if (t->rot_inflight) return 0;
      if (t->rot_done == t->bm_pages) {
        if (t->rot_failed) {
          t->rot = 0; /* again from the start (rot_asap stays) */
          if (++t->rot_tries >= 8) {
            hal_logf(f->hal, HAL_LOG_ERROR,
                     "ftl: the trim log could not move to its other area 8 times (erase or "
                     "program failures in its blocks)");
            f->fatal = 1;
          }
          return 1;
        }
        t->area = t->writing;
        t->base = t->bm_pages;
        t->next = 0;
        t->gen = t->top_gen = t->top_gen + 1;
        t->n = 0; /* records made before the bitmap: in it */
        if (t->durable_seq < t->rot_seq) t->durable_seq = t->rot_seq;
        t->rot = 0;
        t->rot_asap = 0;
        t->rot_tries = 0;
        f->stats.trim_log_rotations++;
        host_check_flush(f); /* a flush waiting for the records */
        if (f->erase_waiting) gc_erase_ready(f);
        return 1;
      }
      const uint32_t p = t->rot_next;
      tlog_meta_oob(f, TLOG_BM_MAGIC, p, t->top_gen + 1);
      flash_submit_meta(f, FC_OP_PROGRAM, TAG(TAG_CKPT, CKPT_TAG_LOG | TLOG_TAG_ROT), tlog_area_row(f, t->writing, p),
                        t->oob_bus, t->bitmap_bus + p * words * 4, tlog_page_bytes(&f->cfg));
      f->stats.ckpt_programs++;
      f->stats.trim_log_programs++;
      t->rot_next++, t->rot_inflight++;
      return 1;
    }
  }
  return 0;
}
