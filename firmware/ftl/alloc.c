/*
 * alloc.c - free blocks, striped write frontiers, page buffers and programs.
 *
 * A frontier fills one page buffer at a time; each page goes to the next die
 * in round-robin order (die index d sits on channel d % channels, so
 * consecutive pages spread over channels first), on that die's open block.
 * A full page buffer is programmed at once; the buffer is held until the
 * program completes so that reads of its LBAs are served from DRAM.
 */
#include <string.h>

#include "ftl_internal.h"

uint32_t rng_next(struct ftl *f) {
  /* xorshift64*: deterministic for a seed, no global state */
  uint64_t x = f->rng;
  x ^= x >> 12;
  x ^= x << 25;
  x ^= x >> 27;
  f->rng = x;
  return (uint32_t)((x * 0x2545F4914F6CDD1Dull) >> 32);
}

/* ---- page buffers ------------------------------------------------------ */

uint32_t buf_get(struct ftl *f, int pool) {
  const uint32_t b = f->pool_free[pool];
  if (b == FTL_NONE) return FTL_NONE;
  f->pool_free[pool] = f->bufs[b].next;
  f->pool_avail[pool]--;
  f->bufs[b].next = FTL_NONE;
  f->bufs[b].row = FTL_NONE;
  f->bufs[b].filled = 0;
  f->bufs[b].mask = 0;
  hal_charge(f->hal, FW_OP_buffer_alloc, 1);
  return b;
}

void buf_put(struct ftl *f, uint32_t b) {
  struct pagebuf *pb = &f->bufs[b];
  if (pb->state == BUF_FREE) return;
  if (pb->row != FTL_NONE && (pb->state == BUF_FILLING || pb->state == BUF_PROGRAM))
    f->blk_inbuf[row_block(f, pb->row)]--;
  pb->state = BUF_FREE;
  pb->row = FTL_NONE;
  pb->next = f->pool_free[pb->pool];
  f->pool_free[pb->pool] = b;
  f->pool_avail[pb->pool]++;
}

uint32_t buf_find_row(const struct ftl *f, uint32_t row) {
  if (!f->blk_inbuf[row_block(f, row)]) return FTL_NONE;
  for (uint32_t b = 0; b < f->nbufs; ++b) {
    const struct pagebuf *pb = &f->bufs[b];
    if (pb->row == row && (pb->state == BUF_FILLING || pb->state == BUF_PROGRAM)) return b;
  }
  return FTL_NONE;
}

/* ---- free blocks ------------------------------------------------------- */

/* Free blocks: one doubly linked list per die (blk_next/blk_prev; a free
 * block is in no GC candidate list). block_choice fifo appends, so a die
 * hands out its oldest free block; erase_count keeps each list sorted by
 * erase count (ascending, equal counts in arrival order) so a frontier can
 * take the lowest, the highest or a random one. */
void block_make_free(struct ftl *f, uint32_t blk) {
  const uint32_t d = block_die(f, blk);
  f->blk_state[blk] = BLK_FREE;
  f->blk_wp[blk] = 0;
  f->blk_valid[blk] = 0;
  uint32_t after = f->die_free_tail[d]; /* insert after this block (FTL_NONE: at the head) */
  if (f->cfg.block_choice == FTL_BLOCK_ERASE_COUNT)
    while (after != FTL_NONE && f->blk_erase[after] > f->blk_erase[blk]) after = f->blk_prev[after];
  const uint32_t next = after == FTL_NONE ? f->die_free_head[d] : f->blk_next[after];
  f->blk_prev[blk] = after;
  f->blk_next[blk] = next;
  if (after == FTL_NONE) f->die_free_head[d] = blk;
  else f->blk_next[after] = blk;
  if (next == FTL_NONE) f->die_free_tail[d] = blk;
  else f->blk_prev[next] = blk;
  f->die_free_count[d]++;
  f->free_total++;
  f->stats.free_blocks = f->free_total;
}

static uint32_t free_pick(struct ftl *f, uint32_t d, uint8_t wear) {
  if (f->cfg.block_choice != FTL_BLOCK_ERASE_COUNT || wear == WEAR_LOWEST) return f->die_free_head[d];
  if (wear == WEAR_HIGHEST) return f->die_free_tail[d];
  uint32_t blk = f->die_free_head[d];
  for (uint32_t i = f->die_free_count[d] ? rng_next(f) % f->die_free_count[d] : 0; i > 0 && blk != FTL_NONE; --i)
    blk = f->blk_next[blk];
  return blk;
}

static uint32_t block_take_free(struct ftl *f, uint32_t d, uint8_t wear) {
  const uint32_t blk = free_pick(f, d, wear);
  if (blk == FTL_NONE) return FTL_NONE;
  const uint32_t p = f->blk_prev[blk], n = f->blk_next[blk];
  if (p == FTL_NONE) f->die_free_head[d] = n;
  else f->blk_next[p] = n;
  if (n == FTL_NONE) f->die_free_tail[d] = p;
  else f->blk_prev[n] = p;
  f->blk_prev[blk] = f->blk_next[blk] = FTL_NONE;
  f->die_free_count[d]--;
  f->free_total--;
  f->stats.free_blocks = f->free_total;
  if (f->free_total < f->stats.free_blocks_min) f->stats.free_blocks_min = f->free_total;
  f->blk_state[blk] = BLK_OPEN;
  f->blk_wp[blk] = 0;
  f->blk_valid[blk] = 0;
  f->blk_inbuf[blk] = 0;
  hal_charge(f->hal, FW_OP_block_alloc, 1);
  gc_kick(f);
  return blk;
}

/* The row of the next page on frontier fr, or FTL_NONE if no block can be
 * opened (host frontier: free blocks at the GC reserve). */
static uint32_t frontier_next_row(struct ftl *f, struct frontier *fr, int for_gc) {
  for (uint32_t tries = 0; tries < f->dies; ++tries) {
    const uint32_t d = fr->next_die;
    uint32_t blk = fr->open_block[d];
    if (blk == FTL_NONE) {
      if (!for_gc && f->free_total <= f->cfg.gc_reserve_blocks) return FTL_NONE;
      blk = block_take_free(f, d, fr->wear);
      if (blk == FTL_NONE) { /* this die has none left: try the next one */
        fr->next_die = (d + 1) % f->dies;
        continue;
      }
      fr->open_block[d] = blk;
    }
    const uint32_t page = f->blk_wp[blk]++;
    if (f->blk_wp[blk] == f->cfg.pages_per_block) fr->open_block[d] = FTL_NONE; /* closed when programmed */
    fr->next_die = (d + 1) % f->dies;
    hal_charge(f->hal, FW_OP_page_alloc, 1);
    return blk * f->cfg.pages_per_block + page;
  }
  return FTL_NONE;
}

static void program_buffer(struct ftl *f, uint32_t b) {
  struct pagebuf *pb = &f->bufs[b];
  pb->state = BUF_PROGRAM;
  pb->token[2 * f->cfg.slots_per_page] = ++f->seq; /* OOB sequence number */
  f->programs_inflight++;
  f->stats.programs++;
  flash_submit(f, FC_OP_PROGRAM, TAG(TAG_PROGRAM, b), pb->row, 0, pb->dram);
  /* Pages of a block are programmed in order, so the last page's program
   * makes the whole block readable from flash: only now is it a GC candidate. */
  if ((pb->row + 1) % f->cfg.pages_per_block == 0) {
    const uint32_t blk = row_block(f, pb->row);
    f->blk_state[blk] = BLK_CLOSED;
    f->blk_closed_ns[blk] = hal_time_ns(f->hal);
    gc_block_closed(f, blk);
  }
}

int place_lba(struct ftl *f, struct frontier *fr, uint32_t lpn, uint32_t token, int for_gc) {
  /* On a frontier GC also writes to, host data must not fill the blocks GC
   * opened from the reserve, or GC runs out of room and nothing moves. */
  if (!for_gc && fr->gc_shared && f->free_total <= f->cfg.gc_reserve_blocks) return -1;
  if (fr->buf == FTL_NONE) {
    const uint32_t b = buf_get(f, fr->pool);
    if (b == FTL_NONE) return -1;
    const uint32_t row = frontier_next_row(f, fr, for_gc);
    if (row == FTL_NONE) {
      f->bufs[b].state = BUF_FILLING;
      buf_put(f, b);
      return -1;
    }
    struct pagebuf *pb = &f->bufs[b];
    pb->state = BUF_FILLING;
    pb->frontier = fr->index;
    pb->row = row;
    pb->filled = 0;
    f->blk_inbuf[row_block(f, row)]++;
    fr->buf = b;
  }
  struct pagebuf *pb = &f->bufs[fr->buf];
  const uint32_t slot = pb->filled++;
  pb->token[slot] = token;
  pb->lpn[slot] = lpn;
  map_set(f, lpn, pb->row * f->cfg.slots_per_page + slot);
  hal_charge(f->hal, FW_OP_l2p_update, 1);
  if (pb->filled == f->cfg.slots_per_page) {
    fr->buf = FTL_NONE;
    program_buffer(f, (uint32_t)(pb - f->bufs));
  }
  return 0;
}

void frontier_flush(struct ftl *f, struct frontier *fr) {
  if (fr->buf == FTL_NONE) return;
  struct pagebuf *pb = &f->bufs[fr->buf];
  for (uint32_t s = pb->filled; s < f->cfg.slots_per_page; ++s) {
    pb->token[s] = SSDVP_TOKEN_ERASED;
    pb->lpn[s] = SSDVP_LPN_NONE;
    f->stats.pad_slots++;
  }
  pb->filled = f->cfg.slots_per_page;
  fr->buf = FTL_NONE;
  program_buffer(f, (uint32_t)(pb - f->bufs));
}

void frontier_flush_host(struct ftl *f) {
  for (uint32_t i = 0; i < f->classes; ++i) frontier_flush(f, &f->fr[i]);
}

void on_program_done(struct ftl *f, uint32_t b, int status) {
  struct pagebuf *pb = &f->bufs[b];
  if (status != FC_OK) {
    hal_logf(f->hal, HAL_LOG_ERROR, "ftl: program of row %" PRIu32 " failed with status %d", pb->row, status);
    f->stats.flash_errors++;
  }
  f->programs_inflight--;
  buf_put(f, b);
}

/* ---- erase-count spread -------------------------------------------------- */

void ftl_erase_spread(const struct ftl *f, uint32_t *min, double *mean, uint32_t *max) {
  uint32_t lo = UINT32_MAX, hi = 0;
  uint64_t sum = 0;
  for (uint32_t b = 0; b < f->total_blocks; ++b) {
    const uint32_t e = f->blk_erase[b];
    if (e < lo) lo = e;
    if (e > hi) hi = e;
    sum += e;
  }
  *min = f->total_blocks ? lo : 0;
  *max = hi;
  *mean = f->total_blocks ? (double)sum / f->total_blocks : 0.0;
}
