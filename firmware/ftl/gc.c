/*
 * gc.c - garbage-collection jobs: victim reads, relocation, erase.
 *
 * When a job starts (the loop decides when: gc_schedule() in loop.c; the
 * block manager chooses the victim), it reads the valid slots of its victim
 * page by page into GC buffers, places each still-valid LBA where relocated
 * data goes (place_gc), and erases the victim once its reads are placed.
 */
#include "ftl_internal.h"

/* ---- jobs ------------------------------------------------------------------ */

uint32_t gc_idle_job(const struct ftl *f) {
  for (uint32_t i = 0; i < f->cfg.gc_max_active; ++i)
    if (f->jobs[i].victim == FTL_NONE) return i;
  return FTL_NONE;
}

/* The episode's length runs to its last victim's end (no time read here: on
 * the RV32 core every read of the time is an access of its own). */
void gc_episode_end(struct ftl *f) {
  const uint64_t len = f->sched.gc_idle_since_ns - f->sched.episode_since_ns;
  f->sched.in_episode = 0;
  f->stats.gc_episodes_closed++;
  f->stats.gc_episode_ns += len;
  if (len > f->stats.gc_episode_max_ns) f->stats.gc_episode_max_ns = len;
  hal_trace(f->hal, HAL_TRACE_GC_EPISODE_END, f->free_total + f->erases_inflight);
}

/* The victim's invalid share as a bin of ftl_stats.gc_victim_invalid: floor(5 *
 * invalid / capacity) in LBAs, 100 % in the last bin. */
static uint32_t invalid_bin(const struct ftl *f, uint32_t blk) {
  const uint32_t cap = f->slots_per_block, valid = f->blk_valid[blk];
  const uint64_t bin = cap ? (uint64_t)(valid < cap ? cap - valid : 0) * FTL_GC_INVALID_BINS / cap : 0;
  return bin < FTL_GC_INVALID_BINS ? (uint32_t)bin : FTL_GC_INVALID_BINS - 1;
}

void gc_start(struct ftl *f, uint32_t j, uint32_t blk, uint32_t wear) {
  struct gc_job *job = &f->jobs[j];
  block_set_state(f, blk, BLK_VICTIM);
  job->victim = blk;
  job->page = 0;
  job->reads = 0;
  job->wear = wear;
  job->pair = FTL_NONE;
  job->pair_wait = 0;
  f->stats.gc_victims++;
  f->stats.gc_victim_invalid[invalid_bin(f, blk)]++;
  hal_trace(f->hal, HAL_TRACE_GC_VICTIM_START, blk);
  if (f->gc_active++ == 0) f->gc_since_ns = hal_time_ns(f->hal);
  if (!f->sched.in_episode) { /* a GC episode starts (gc_episode_end closes it) */
    f->sched.in_episode = 1;
    f->sched.episode_since_ns = f->gc_since_ns; /* (no victim was open: gc_since_ns is now) */
    f->stats.gc_episodes++;
    hal_trace(f->hal, HAL_TRACE_GC_EPISODE_START, f->free_total + f->erases_inflight);
  }
  if (f->gc_active == 1 && f->cfg.debug_gc_register)
    hal_write32(f->hal, SSDVP_NVME_BASE + NVME_DBG_GC, 1); /* GC starts */
}

static uint32_t page_valid_mask(const struct ftl *f, uint32_t row) {
  const uint32_t S = f->cfg.slots_per_page, base = row * S;
  uint32_t mask = 0;
  for (uint32_t s = 0; s < S; ++s)
    if (ppa_valid(f, base + s)) mask |= 1u << s;
  return mask;
}

static void job_erase(struct ftl *f, struct gc_job *j);

/* ---- ftl.gc.pair_planes: victims paired across the die's planes, erased
 * together by one multi-plane erase. A paired job that is relocated waits
 * (pair_wait) until its group is; gc.c's job paths call in here only. */

/* Whether a job of group g still relocates. */
static int pair_busy(const struct ftl *f, uint32_t g) {
  for (uint32_t i = 0; i < f->cfg.gc_max_active; ++i)
    if (f->jobs[i].victim != FTL_NONE && f->jobs[i].pair == g && !f->jobs[i].pair_wait) return 1;
  return 0;
}

void gc_pair(struct ftl *f, uint32_t j) {
  const uint32_t planes = mp_planes(f);
  if (!f->cfg.gc_pair_planes || planes < 2) return;
  const uint32_t blk = f->jobs[j].victim, first = blk - (blk % f->cfg.blocks_per_die) % planes;
  const uint32_t limit = f->blk_valid[blk] + (uint32_t)((uint64_t)f->slots_per_block * f->cfg.gc_pair_slack / 100);
  for (uint32_t s = first; s < first + planes; ++s) {
    if (s == blk || f->blk_state[s] != BLK_CLOSED || f->blk_flags[s] || f->blk_valid[s] > limit) continue;
    const uint32_t k = gc_idle_job(f);
    if (k == FTL_NONE) break;
    gc_start(f, k, s, 0);
    f->jobs[k].pair = j;
    f->jobs[j].pair = j;
    f->stats.gc_paired++;
  }
}

/* Job j (paired) is relocated: it waits for its group, or the group's
 * waiting jobs are erased together (at the reserve, without waiting for the
 * ones still relocating). */
static void pair_finish(struct ftl *f, struct gc_job *j) {
  const uint32_t g = j->pair;
  j->pair_wait = 1;
  if (pair_busy(f, g) && f->free_total > f->cfg.gc_reserve_blocks) return;
  for (uint32_t i = 0; i < f->cfg.gc_max_active; ++i) {
    struct gc_job *k = &f->jobs[i];
    if (k->victim == FTL_NONE || k->pair != g || !k->pair_wait) continue; /* (at the reserve some still relocate) */
    k->pair = FTL_NONE;
    k->pair_wait = 0;
    job_erase(f, k);
  }
}

/* At the GC reserve a relocated victim does not wait for its group (its
 * erase may be the free block the others need to go on). */
static void pair_release_all(struct ftl *f) {
  for (uint32_t i = 0; i < f->cfg.gc_max_active; ++i) {
    struct gc_job *k = &f->jobs[i];
    if (k->victim == FTL_NONE || !k->pair_wait) continue;
    k->pair = FTL_NONE;
    k->pair_wait = 0;
    job_erase(f, k);
  }
}

/* ---- a job's end: relocated, then erased ---------------------------------- */

static void job_finish(struct ftl *f, struct gc_job *j);

/* Checked on every loop pass for every job: the test stays in the caller (a
 * call would save registers first on the RV32 core, only to return). */
static inline __attribute__((always_inline)) void job_finish_if_done(struct ftl *f, struct gc_job *j) {
  if (j->victim == FTL_NONE || j->page < f->cfg.pages_per_block || j->reads || j->erase_after || j->trim_after ||
      j->pair_wait)
    return;
  job_finish(f, j);
}

static void job_finish(struct ftl *f, struct gc_job *j) {
  const uint32_t blk = j->victim;
  if (f->blk_valid[blk] != 0) {
    /* Every valid slot was read and placed; any left is a firmware bug. */
    hal_logf(f->hal, HAL_LOG_ERROR, "ftl: victim block %" PRIu32 " still has %" PRIu32 " valid LBAs after relocation",
             blk, f->blk_valid[blk]);
    f->fatal = 1;
  }
  /* The trim log's GC barrier (trimlog.c, own areas): the deallocations made
   * so far must be on flash before the victim goes (it may hold the newest
   * copy of an LBA deallocated since; lost, recovery would map an older one). */
  const uint32_t trim = (f->blk_flags[blk] & BLKF_RETIRE) ? 0 : tlog_barrier(f);
  if ((f->cfg.gc_durable || trim) && !(f->blk_flags[blk] & BLKF_RETIRE)) {
    /* Its data must be on flash before the victim goes: pad and program what
     * relocation filled, then wait for every program submitted so far. And
     * the newer copies of its stale LBAs too: a host write still in a page
     * buffer made a victim slot stale, and erasing the victim before that
     * write is programmed loses the LBA's flushed version at a cut (the host
     * FTL's power-cut test found one in 48 cuts). So every frontier's partly
     * filled page goes (write points of the host, GC's own). */
    if (f->cfg.gc_durable) j->erase_after = frontier_flush_all(f, place_frontiers(&f->cfg)); /* ftl.gc.durable */
    j->trim_after = trim;
    f->erase_waiting++;
    gc_erase_ready(f);
    return;
  }
  if (j->pair != FTL_NONE) return pair_finish(f, j); /* ftl.gc.pair_planes */
  job_erase(f, j);
}

void gc_erase_ready(struct ftl *f) {
  if (!f->erase_waiting) return;
  const uint32_t lo = program_seq_in_flight_min(f);
  for (uint32_t i = 0; i < f->cfg.gc_max_active; ++i) {
    struct gc_job *j = &f->jobs[i];
    if (j->victim == FTL_NONE || (!j->erase_after && !j->trim_after)) continue;
    if (j->erase_after && lo != FTL_NONE && lo <= j->erase_after) continue;
    if (j->trim_after && !tlog_durable_through(f, j->trim_after)) continue; /* the trim log's barrier */
    f->erase_waiting--;
    job_erase(f, j);
  }
}

static void job_erase(struct ftl *f, struct gc_job *j) {
  const uint32_t blk = j->victim;
  if (f->blk_flags[blk] & BLKF_RETIRE) { /* a program failed on it: its data is safe elsewhere, retire it */
    block_set_state(f, blk, BLK_BAD);
    if (f->cfg.gc_hold != FTL_GC_HOLD_PAGE) hal_write32(f->hal, SSDVP_FLASH_BASE + FLASH_HOLD_END, blk); /* no erase */
  } else {
    block_set_state(f, blk, BLK_ERASING);
    f->erases_inflight++;
    flash_submit(f, FC_OP_ERASE, TAG(TAG_ERASE, blk), blk, 0, 0);
  }
  j->victim = FTL_NONE;
  j->erase_after = 0;
  j->trim_after = 0;
  hal_trace(f->hal, HAL_TRACE_GC_VICTIM_END, blk);
  if (--f->gc_active == 0) {
    f->sched.gc_idle_since_ns = hal_time_ns(f->hal);
    f->stats.gc_active_ns += f->sched.gc_idle_since_ns - f->gc_since_ns;
  }
  if (f->gc_active == 0 && f->cfg.debug_gc_register)
    hal_write32(f->hal, SSDVP_NVME_BASE + NVME_DBG_GC, 0); /* GC ends */
}

/* Issues reads for a job while GC buffers allow (two stay for the frontier)
 * and its share of reads in flight does (ftl.gc.trigger autossd). */
static void job_issue_reads(struct ftl *f, struct gc_job *j) {
  const uint32_t ppb = f->cfg.pages_per_block, limit = gcsched_read_limit(f);
  while (j->page < ppb && f->pool_avail[POOL_GC] > 2 && j->reads < limit) {
    const uint32_t row = j->victim * ppb + j->page;
    const uint32_t mask = page_valid_mask(f, row);
    const int vc = vcopy_add(f, (uint32_t)(j - f->jobs), row, mask); /* moved by copy (vcopy.c) */
    if (vc < 0) break;                                               /* no GC buffer for its units now */
    j->page++;
    if (!mask || vc) continue;
    if (copyback_try(f, (uint32_t)(j - f->jobs), row, mask)) { /* moved on its die (copyback.c) */
      j->reads++;
      continue;
    }
    const uint32_t b = buf_get(f, POOL_GC, BUF_GC_READ);
    struct pagebuf *pb = &f->bufs[b];
    pb->row = row;
    pb->mask = mask;
    pb->cmd = (uint32_t)(j - f->jobs);
    j->reads++;
    f->stats.flash_reads++;
    flash_submit(f, FC_OP_READ, TAG(TAG_GC_READ, b), row, mask, pb->dram);
  }
  if (j->page == ppb) vcopy_victim_done(f, (uint32_t)(j - f->jobs)); /* its last unit goes out */
  job_finish_if_done(f, j);
}

void gc_issue_reads(struct ftl *f) {
  if (f->cfg.gc_pair_planes && f->free_total <= f->cfg.gc_reserve_blocks) pair_release_all(f);
  vcopy_submit_ready(f); /* copies waiting for a row of the GC frontier (vcopy.c) */
  for (uint32_t i = 0; i < f->cfg.gc_max_active; ++i)
    if (f->jobs[i].victim != FTL_NONE) job_issue_reads(f, &f->jobs[i]);
}

/* ---- relocation -------------------------------------------------------------- */

static void account_move(struct ftl *f, const struct gc_job *j) {
  f->stats.gc_lba_writes++;
  if (j->wear) f->stats.wear_lba_writes++;
  hal_charge(f->hal, FW_OP_gc_page_move, 1);
}

/* Places the still-valid slots of a GC_PLACE buffer. STEP_WAIT if it had to
 * stop for room, STEP_YIELD if placement asks for a GC step first (called
 * again, it continues with the same slot). */
static int place_from(struct ftl *f, uint32_t b) {
  struct pagebuf *pb = &f->bufs[b];
  const uint32_t S = f->cfg.slots_per_page;
  struct gc_job *j = &f->jobs[pb->cmd];
  if (pb->yielded) { /* the slot was placed before the GC step */
    pb->yielded = 0;
    account_move(f, j);
    ++pb->filled;
  }
  for (; pb->filled < S; ++pb->filled) {
    const uint32_t s = pb->filled;
    if (!(pb->mask & (1u << s))) continue;
    const uint32_t old = pb->row * S + s, lpn = pb->lpn[s];
    if (lpn >= f->cfg.logical_lbas || !map_current(f, lpn, old)) continue; /* overwritten or trimmed meanwhile */
    const int r = place_lba(f, place_gc(f, lpn), lpn, pb->token[s], 1);
    if (r == PLACE_WAIT) return STEP_WAIT;
    if (r == PLACE_YIELD) return STEP_YIELD;
    map_invalidate_ppa(f, old); /* done already unless the entry is not cached (cmt.c) */
    if (f->gc_pending) {
      pb->yielded = 1;
      return STEP_YIELD;
    }
    account_move(f, j);
  }
  buf_put(f, b);
  j->reads--;
  job_finish_if_done(f, j);
  return STEP_DONE;
}

void gc_prefetch(const struct ftl *f, uint32_t b) {
  const struct pagebuf *pb = &f->bufs[b];
  for (uint32_t s = 0; s < f->cfg.slots_per_page; ++s) {
    if (!(pb->mask & (1u << s))) continue;
    const uint32_t lpn = pb->lpn[s];
    if (lpn < f->cfg.logical_lbas && f->l2p) __builtin_prefetch(&f->l2p[lpn], 1);
  }
}

int gc_relocate(struct ftl *f) {
  int did = 0;
  while (f->gc_place_head != FTL_NONE) {
    const uint32_t b = f->gc_place_head;
    const uint32_t next = f->bufs[b].next; /* place_from frees b, which reuses the link */
    const int r = place_from(f, b);
    if (r == STEP_YIELD) return did | STEP_YIELD;
    if (r == STEP_WAIT) break;
    f->gc_place_head = next;
    if (f->gc_place_head == FTL_NONE) f->gc_place_tail = FTL_NONE;
    did = STEP_DONE;
  }
  return did;
}

int gc_read_done(struct ftl *f, uint32_t b, int status, uint32_t retries) {
  struct pagebuf *pb = &f->bufs[b];
  block_note_read(f, row_block(f, pb->row), retries, status == FC_ERR_UNCORRECTABLE);
  if (status == FC_ERR_UNCORRECTABLE) {
    /* The data of the page is gone: its LBAs read as Unrecovered Read Error
     * until rewritten, and nothing of the page is relocated. */
    const uint32_t lost = map_lose_row(f, pb->row, pb->mask, pb->lpn);
    f->stats.lost_lbas += lost;
    hal_logf(f->hal, HAL_LOG_WARN, "ftl: GC read of row %" PRIu32 " uncorrectable: %" PRIu32 " LBAs lost", pb->row,
             lost);
    pb->mask = 0;
  } else if (status != FC_OK) {
    hal_logf(f->hal, HAL_LOG_ERROR, "ftl: GC read of row %" PRIu32 " failed with status %d", pb->row, status);
    f->stats.flash_errors++;
    f->fatal = 1;
  }
  pb->state = BUF_GC_PLACE;
  pb->filled = 0;
  pb->yielded = 0;
  pb->next = FTL_NONE;
  if (f->gc_place_tail == FTL_NONE)
    f->gc_place_head = b;
  else
    f->bufs[f->gc_place_tail].next = b;
  f->gc_place_tail = b;
  return f->gc_place_head == b ? gc_relocate(f) : STEP_WAIT;
}

/* A copyback completed: the LBAs it moved are mapped to the copy; if the
 * copy failed, the page is read through the controller as any other. */
int gc_copyback_done(struct ftl *f, uint32_t b, int status, uint32_t hops) {
  struct pagebuf *pb = &f->bufs[b];
  struct gc_job *j = &f->jobs[pb->cmd];
  const uint32_t moved = copyback_done(f, b, status, hops);
  if (moved == FTL_NONE) {
    f->stats.flash_reads++;
    flash_submit(f, FC_OP_READ, TAG(TAG_GC_READ, b), pb->row, pb->mask, pb->dram);
    return STEP_DONE;
  }
  for (uint32_t i = 0; i < moved; ++i) account_move(f, j);
  buf_put(f, b);
  j->reads--;
  job_finish_if_done(f, j);
  return STEP_DONE;
}

/* A copy (vcopy.c) completed: the LBAs it moved are mapped to it. */
int gc_vcopy_done(struct ftl *f, uint32_t b, int status) {
  struct pagebuf *pb = &f->bufs[b];
  struct gc_job *j = &f->jobs[pb->cmd];
  const uint32_t moved = vcopy_done(f, b, status);
  if (moved == FTL_NONE) return STEP_DONE; /* the program failed: sent again to the next row */
  for (uint32_t i = 0; i < moved; ++i) account_move(f, j);
  buf_put(f, b);
  j->reads--;
  job_finish_if_done(f, j);
  return STEP_DONE;
}

/* ---- erase and wear ------------------------------------------------------------ */

/* Wear levelling by migration: every wear_check_erases erases, if the erase
 * counts of all blocks spread by more than wear_threshold, the closed block
 * with the lowest count (cold data on a young block) is to be collected (the
 * loop starts it, f->wear_due); its data goes where relocated data goes (with
 * block_choice erase_count: onto old blocks) and the young block returns to
 * the free pool. */
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

void gc_erase_done(struct ftl *f, uint32_t blk, int status) {
  f->erases_inflight--;
  if (status == FC_ERR_ERASE_FAIL) { /* a grown bad block */
    f->stats.erase_failures++;
    hal_logf(f->hal, HAL_LOG_INFO, "ftl: erase of block %" PRIu32 " failed: retired", blk);
    block_set_state(f, blk, BLK_BAD);
    return;
  }
  if (status != FC_OK) {
    hal_logf(f->hal, HAL_LOG_ERROR, "ftl: erase of block %" PRIu32 " failed with status %d", blk, status);
    f->stats.flash_errors++;
  }
  f->stats.erases++;
  copyback_erased(f, blk); /* its pages' hop counts start again at 0 */
  block_set_state(f, blk, BLK_FREE);
  wear_check(f);
}
