/*
 * gc.c - garbage collection: victim selection policies and relocation.
 *
 * Candidates are closed blocks (every page programmed). The structures each
 * policy needs are kept incrementally so a choice is O(1) (greedy, FIFO,
 * random, d-choices) or one pass over the candidates (cost-benefit):
 *  - closed[]: every candidate, unordered (random, d-choices, cost-benefit);
 *  - greedy: one list per valid count, with a low-water mark;
 *  - FIFO: one list in close order.
 * A job reads the valid slots of its victim page by page into GC buffers,
 * places each still-valid LBA on the GC frontier, and erases the victim once
 * its reads are placed.
 */
#include "ftl_internal.h"

/* ---- candidate structures ------------------------------------------------ */

static void list_remove(struct ftl *f, uint32_t blk, uint32_t *head, uint32_t *tail) {
  const uint32_t p = f->blk_prev[blk], n = f->blk_next[blk];
  if (p != FTL_NONE) f->blk_next[p] = n;
  else *head = n;
  if (n != FTL_NONE) f->blk_prev[n] = p;
  else if (tail) *tail = p;
  f->blk_prev[blk] = f->blk_next[blk] = FTL_NONE;
}

static void list_push_front(struct ftl *f, uint32_t blk, uint32_t *head) {
  f->blk_prev[blk] = FTL_NONE;
  f->blk_next[blk] = *head;
  if (*head != FTL_NONE) f->blk_prev[*head] = blk;
  *head = blk;
}

void gc_block_closed(struct ftl *f, uint32_t blk) {
  f->closed_pos[blk] = f->closed_count;
  f->closed[f->closed_count++] = blk;
  f->blk_prev[blk] = f->blk_next[blk] = FTL_NONE;
  if (f->cfg.gc_policy == FTL_GC_GREEDY) {
    const uint32_t v = f->blk_valid[blk];
    list_push_front(f, blk, &f->bucket_head[v]);
    if (v < f->bucket_min) f->bucket_min = v;
  } else if (f->cfg.gc_policy == FTL_GC_FIFO) {
    f->blk_prev[blk] = f->fifo_tail;
    if (f->fifo_tail != FTL_NONE) f->blk_next[f->fifo_tail] = blk;
    else f->fifo_head = blk;
    f->fifo_tail = blk;
  }
  gc_kick(f);
}

void gc_valid_changed(struct ftl *f, uint32_t blk, uint32_t old_valid) {
  if (f->cfg.gc_policy != FTL_GC_GREEDY || f->blk_state[blk] != BLK_CLOSED) return;
  list_remove(f, blk, &f->bucket_head[old_valid], NULL);
  const uint32_t v = f->blk_valid[blk];
  list_push_front(f, blk, &f->bucket_head[v]);
  if (v < f->bucket_min) f->bucket_min = v;
}

static void candidate_remove(struct ftl *f, uint32_t blk) {
  const uint32_t pos = f->closed_pos[blk];
  const uint32_t last = f->closed[--f->closed_count];
  f->closed[pos] = last;
  f->closed_pos[last] = pos;
  f->closed_pos[blk] = FTL_NONE;
  if (f->cfg.gc_policy == FTL_GC_GREEDY) list_remove(f, blk, &f->bucket_head[f->blk_valid[blk]], NULL);
  else if (f->cfg.gc_policy == FTL_GC_FIFO) list_remove(f, blk, &f->fifo_head, &f->fifo_tail);
}

/* a * b > c * d for 64-bit operands, exactly, without a 128-bit type (the
 * firmware also builds for 32-bit controllers). */
static void mul64(uint64_t a, uint64_t b, uint64_t *hi, uint64_t *lo) {
  const uint64_t al = (uint32_t)a, ah = a >> 32, bl = (uint32_t)b, bh = b >> 32;
  const uint64_t ll = al * bl, lh = al * bh, hl = ah * bl, hh = ah * bh;
  const uint64_t mid = (ll >> 32) + (uint32_t)lh + (uint32_t)hl;
  *lo = (mid << 32) | (uint32_t)ll;
  *hi = hh + (lh >> 32) + (hl >> 32) + (mid >> 32);
}

static int mul_gt(uint64_t a, uint64_t b, uint64_t c, uint64_t d) {
  uint64_t h1, l1, h2, l2;
  mul64(a, b, &h1, &l1);
  mul64(c, d, &h2, &l2);
  return h1 > h2 || (h1 == h2 && l1 > l2);
}

static uint32_t pick_by_policy(struct ftl *f) {
  switch (f->cfg.gc_policy) {
    case FTL_GC_GREEDY:
      while (f->bucket_min <= f->slots_per_block && f->bucket_head[f->bucket_min] == FTL_NONE) ++f->bucket_min;
      return f->bucket_min <= f->slots_per_block ? f->bucket_head[f->bucket_min] : FTL_NONE;
    case FTL_GC_FIFO:
      return f->fifo_head;
    case FTL_GC_RANDOM:
      return f->closed[rng_next(f) % f->closed_count];
    case FTL_GC_DCHOICES: {
      uint32_t best = FTL_NONE;
      for (uint32_t i = 0; i < f->cfg.gc_dchoices; ++i) {
        const uint32_t b = f->closed[rng_next(f) % f->closed_count];
        if (best == FTL_NONE || f->blk_valid[b] < f->blk_valid[best]) best = b;
      }
      return best;
    }
    case FTL_GC_COST_BENEFIT: {
      const uint64_t now = hal_time_ns(f->hal);
      uint32_t best = FTL_NONE;
      uint64_t best_num = 0, best_den = 1;
      for (uint32_t i = 0; i < f->closed_count; ++i) {
        const uint32_t b = f->closed[i];
        const uint64_t v = f->blk_valid[b];
        if (v == 0) return b;
        /* benefit/cost = age * (1 - u) / (2u), u = v / slots_per_block */
        const uint64_t age = now - f->blk_closed_ns[b] + 1;
        const uint64_t num = age * (f->slots_per_block - v), den = 2 * v;
        if (best == FTL_NONE || mul_gt(num, best_den, best_num, den)) {
          best = b;
          best_num = num;
          best_den = den;
        }
      }
      return best;
    }
    default:
      return FTL_NONE;
  }
}

static uint32_t pick_victim(struct ftl *f) {
  if (f->closed_count == 0) return FTL_NONE;
  const uint32_t v = pick_by_policy(f);
  hal_charge(f->hal, FW_OP_gc_victim_select, 1); /* after the work: the ISS's cost marker closes the op */
  return v;
}

/* ---- jobs ------------------------------------------------------------------ */

static uint32_t page_valid_mask(const struct ftl *f, uint32_t row) {
  const uint32_t S = f->cfg.slots_per_page, base = row * S;
  uint32_t mask = 0;
  for (uint32_t s = 0; s < S; ++s)
    if (ppa_valid(f, base + s)) mask |= 1u << s;
  return mask;
}

static void job_finish_if_done(struct ftl *f, struct gc_job *j) {
  if (j->victim == FTL_NONE || j->page < f->cfg.pages_per_block || j->reads) return;
  const uint32_t blk = j->victim;
  if (f->blk_valid[blk] != 0) {
    /* Every valid slot was read and placed; any left is a firmware bug. */
    hal_logf(f->hal, HAL_LOG_ERROR, "ftl: victim block %" PRIu32 " still has %" PRIu32 " valid LBAs after relocation", blk,
             f->blk_valid[blk]);
    f->fatal = 1;
  }
  f->blk_state[blk] = BLK_ERASING;
  f->erases_inflight++;
  flash_submit(f, FC_OP_ERASE, TAG(TAG_ERASE, blk), blk, 0, 0);
  j->victim = FTL_NONE;
  hal_trace(f->hal, HAL_TRACE_GC_VICTIM_END, blk);
  if (--f->gc_active == 0) f->stats.gc_active_ns += hal_time_ns(f->hal) - f->gc_since_ns;
  if (f->gc_active == 0 && f->cfg.debug_gc_register) hal_write32(f->hal, SSDVP_NVME_BASE + NVME_DBG_GC, 0); /* GC ends */
}

/* Issues reads for a job while GC buffers allow (two stay for the frontier). */
static int job_issue_reads(struct ftl *f, struct gc_job *j) {
  int did = 0;
  const uint32_t ppb = f->cfg.pages_per_block;
  while (j->page < ppb && f->pool_avail[POOL_GC] > 2) {
    const uint32_t row = j->victim * ppb + j->page;
    const uint32_t mask = page_valid_mask(f, row);
    j->page++;
    if (!mask) continue;
    const uint32_t b = buf_get(f, POOL_GC);
    struct pagebuf *pb = &f->bufs[b];
    pb->state = BUF_GC_READ;
    pb->row = row;
    pb->mask = mask;
    pb->cmd = (uint32_t)(j - f->jobs);
    j->reads++;
    f->stats.flash_reads++;
    flash_submit(f, FC_OP_READ, TAG(TAG_GC_READ, b), row, mask, pb->dram);
    did = 1;
  }
  job_finish_if_done(f, j);
  return did;
}

static void job_start(struct ftl *f, struct gc_job *j, uint32_t blk, uint32_t wear) {
  candidate_remove(f, blk);
  f->blk_state[blk] = BLK_VICTIM;
  j->victim = blk;
  j->page = 0;
  j->reads = 0;
  j->wear = wear;
  f->stats.gc_victims++;
  hal_trace(f->hal, HAL_TRACE_GC_VICTIM_START, blk);
  if (f->gc_active++ == 0) f->gc_since_ns = hal_time_ns(f->hal);
  if (f->gc_active == 1 && f->cfg.debug_gc_register) hal_write32(f->hal, SSDVP_NVME_BASE + NVME_DBG_GC, 1); /* GC starts */
}

/* Wear levelling by migration: every wear_check_erases erases, if the erase
 * counts of all blocks spread by more than wear_threshold, the closed block
 * with the lowest count (cold data on a young block) is collected; its data
 * goes where relocated data goes (with block_choice erase_count: onto old
 * blocks) and the young block returns to the free pool. */
static void wear_check(struct ftl *f) {
  if (!f->cfg.wear_threshold || --f->wear_countdown) return;
  f->wear_countdown = f->cfg.wear_check_erases;
  uint32_t lo = UINT32_MAX, hi = 0;
  for (uint32_t b = 0; b < f->total_blocks; ++b) {
    if (f->blk_erase[b] < lo) lo = f->blk_erase[b];
    if (f->blk_erase[b] > hi) hi = f->blk_erase[b];
  }
  hal_charge(f->hal, FW_OP_gc_victim_select, 1);
  if (hi - lo > f->cfg.wear_threshold) f->wear_due = 1;
}

static void wear_start(struct ftl *f) {
  /* only with room to spare: a wear victim may be full of valid data */
  if (f->free_total + f->erases_inflight < f->cfg.gc_threshold_blocks) return;
  for (uint32_t i = 0; i < f->cfg.gc_max_active; ++i) {
    if (f->jobs[i].victim != FTL_NONE) continue;
    uint32_t best = FTL_NONE;
    for (uint32_t k = 0; k < f->closed_count; ++k) {
      const uint32_t b = f->closed[k];
      if (best == FTL_NONE || f->blk_erase[b] < f->blk_erase[best]) best = b;
    }
    hal_charge(f->hal, FW_OP_gc_victim_select, 1);
    f->wear_due = 0;
    if (best == FTL_NONE) return;
    f->stats.wear_victims++;
    job_start(f, &f->jobs[i], best, 1);
    return;
  }
}

void gc_kick(struct ftl *f) {
  if (f->wear_due) wear_start(f);
  /* start victims while below the threshold */
  for (uint32_t i = 0; i < f->cfg.gc_max_active && f->free_total + f->erases_inflight < f->cfg.gc_threshold_blocks;
       ++i) {
    struct gc_job *j = &f->jobs[i];
    if (j->victim != FTL_NONE) continue;
    const uint32_t blk = pick_victim(f);
    if (blk == FTL_NONE) break;
    job_start(f, j, blk, 0);
  }
  for (uint32_t i = 0; i < f->cfg.gc_max_active; ++i)
    if (f->jobs[i].victim != FTL_NONE) job_issue_reads(f, &f->jobs[i]);
}

/* Places the still-valid slots of a GC_PLACE buffer; 0 if it had to stop. */
static int place_from(struct ftl *f, uint32_t b) {
  struct pagebuf *pb = &f->bufs[b];
  const uint32_t S = f->cfg.slots_per_page;
  struct gc_job *j = &f->jobs[pb->cmd];
  for (; pb->filled < S; ++pb->filled) {
    const uint32_t s = pb->filled;
    if (!(pb->mask & (1u << s))) continue;
    const uint32_t old = pb->row * S + s, lpn = pb->lpn[s];
    if (lpn >= f->cfg.logical_lbas || f->l2p[lpn] != old) continue; /* overwritten or trimmed meanwhile */
    if (place_lba(f, place_gc(f, lpn), lpn, pb->token[s], 1)) return 0;
    f->stats.gc_lba_writes++;
    if (j->wear) f->stats.wear_lba_writes++;
    hal_charge(f->hal, FW_OP_gc_page_move, 1);
  }
  pb->state = BUF_FILLING; /* any used state; buf_put frees it */
  pb->row = FTL_NONE;
  buf_put(f, b);
  j->reads--;
  job_finish_if_done(f, j);
  return 1;
}

int gc_place_pending(struct ftl *f) {
  int did = 0;
  while (f->gc_place_head != FTL_NONE) {
    const uint32_t b = f->gc_place_head;
    const uint32_t next = f->bufs[b].next; /* place_from frees b, which reuses the link */
    if (!place_from(f, b)) break;
    f->gc_place_head = next;
    if (f->gc_place_head == FTL_NONE) f->gc_place_tail = FTL_NONE;
    did = 1;
  }
  return did;
}

void on_gc_read_done(struct ftl *f, uint32_t b, int status) {
  struct pagebuf *pb = &f->bufs[b];
  if (status != FC_OK) {
    hal_logf(f->hal, HAL_LOG_ERROR, "ftl: GC read of row %" PRIu32 " failed with status %d", pb->row, status);
    f->stats.flash_errors++;
    f->fatal = 1;
  }
  pb->state = BUF_GC_PLACE;
  pb->filled = 0;
  pb->next = FTL_NONE;
  if (f->gc_place_head == FTL_NONE && place_from(f, b)) return;
  if (f->gc_place_tail == FTL_NONE) f->gc_place_head = b;
  else f->bufs[f->gc_place_tail].next = b;
  f->gc_place_tail = b;
}

void on_erase_done(struct ftl *f, uint32_t blk, int status) {
  f->erases_inflight--;
  if (status != FC_OK) {
    hal_logf(f->hal, HAL_LOG_ERROR, "ftl: erase of block %" PRIu32 " failed with status %d", blk, status);
    f->stats.flash_errors++;
  }
  f->blk_erase[blk]++;
  f->stats.erases++;
  block_make_free(f, blk);
  wear_check(f);
}
