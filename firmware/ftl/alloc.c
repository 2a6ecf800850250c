/*
 * alloc.c - striped write frontiers: page rows, placing LBAs, programs.
 *
 * A frontier fills one page buffer at a time; each page goes to the next die
 * in round-robin order (die index d sits on channel d % channels, so
 * consecutive pages spread over channels first), on that die's open block.
 * A full page buffer is programmed at once; the buffer is held until the
 * program completes so that reads of its LBAs are served from DRAM.
 *
 * ftl.multiplane (with several planes per die): the round robin goes over
 * lanes, one per plane of each die (die-major: die 0 plane 0, die 0 plane 1,
 * ..., die 1 plane 0, ...), each with its own open block in that plane.
 * The planes of a die open their blocks in the same pass and take pages in
 * turn, so their write frontiers stay at the same page offset, and the
 * programs of one die's planes are submitted one after the other: the flash
 * interface groups them into one multi-plane program (flashif.c). A full page
 * may be held for its siblings (ftl.multiplane_hold) and a plane that got
 * ahead of its siblings waits for them (ftl.multiplane_align): below.
 *
 * flash.multiplane_same_block (ftl_config.mp_same_block): the NAND groups
 * only blocks at one block index in every plane, so a lane opens its block
 * at the index of its die's other open lanes of the frontier, or, when none
 * is open, at an index free in every plane (lane_take_free). When the
 * matching block is not free (another frontier, a copyback destination or a
 * victim holds it), the lane opens any free block of its plane and its pages
 * go single-plane until the blocks close (mp_index_fallbacks); pages that
 * met in offset but not in index are counted by flashif.c (mp_index_splits).
 */
#include "ftl_internal.h"

/* Frontiers relocated data goes to that have no open block (other than
 * frontier `except`): each needs a free block before it can take a page. A
 * frontier stripes its pages over the dies and opens a block on each die it
 * reaches, so its blocks fill together; with a frontier per class
 * (ftl.placement.gc: cluster) one victim's valid data can need a fresh block
 * in several classes before the victim is erased. */
uint32_t gc_frontiers_empty(const struct ftl *f, uint32_t except) {
  uint32_t n = 0;
  for (uint32_t i = 0; i <= f->classes && i < FTL_MAX_FRONTIERS; ++i)
    if (i != except && f->fr[i].gc_writes && f->fr[i].open_count == 0) ++n;
  return n;
}

/* Free blocks host data may not take: the GC reserve, or one block per empty
 * frontier GC writes to if that is more. Without it, host data and GC spread
 * the last free blocks over nearly empty open blocks of some classes while
 * others had none, and GC stalled with the pool at zero (haml placement, 6
 * classes, 8 dies, reserve 4: GcDieRule.ClusterPlacementPreconditionDoesNotStall).
 * With one GC frontier (the default) it is the reserve. */
static uint32_t host_floor(const struct ftl *f) {
  const uint32_t e = gc_frontiers_empty(f, FTL_NONE);
  return e > f->cfg.gc_reserve_blocks ? e : f->cfg.gc_reserve_blocks;
}

/* ftl.multiplane_align: lane l of frontier fr is ahead of a sibling plane of
 * its die (an open block there at a lower page offset). A lane that could not
 * open a block when its plane had none free opens it later than its
 * siblings, and without this their write pointers stay apart for good: none
 * of their pages could be programmed together again. Skipping the lane ahead
 * until the others reach its offset brings them back; the sibling with the
 * lowest offset is never skipped, so the frontier always has a lane to write. */
static int lane_ahead(const struct ftl *f, const struct frontier *fr, uint32_t l) {
  if (!f->cfg.mp_align) return 0;
  const uint32_t planes = mp_planes(f), first = l - l % planes, wp = f->blk_wp[fr->open_block[l]];
  for (uint32_t q = first; q < first + planes; ++q) {
    const uint32_t ob = fr->open_block[q];
    if (q != l && ob != FTL_NONE && f->blk_wp[ob] < wp && mp_index_match(f, ob, fr->open_block[l])) return 1;
  }
  return 0;
}

/* A free block for lane l of frontier fr (several planes), or FTL_NONE:
 * flash.multiplane_same_block above. */
static uint32_t lane_take_free(struct ftl *f, const struct frontier *fr, uint32_t l) {
  const uint32_t planes = mp_planes(f), die = l / planes, plane = l % planes;
  if (!f->cfg.mp_same_block) return block_take_free_plane(f, die, plane, fr->wear);
  uint32_t index = FTL_NONE;
  for (uint32_t q = l - plane; q < l - plane + planes && index == FTL_NONE; ++q)
    if (q != l && fr->open_block[q] != FTL_NONE) index = block_index(f, fr->open_block[q]);
  uint32_t blk = block_take_free_index(f, die, plane, index, fr->wear);
  if (blk != FTL_NONE) return blk;
  blk = block_take_free_plane(f, die, plane, fr->wear);
  if (blk != FTL_NONE && index != FTL_NONE) f->stats.mp_index_fallbacks++;
  return blk;
}

/* The next page on frontier fr: 0 and *row; 1 if a free block was opened
 * for it (no page taken yet: ask again after the GC step); -1 if no block
 * can be opened (host frontier: free blocks at the host floor). A frontier
 * that has an open block on another die does not open one more while the
 * free blocks left are needed by empty GC frontiers: it writes where it has
 * room. Nor does a host frontier at the host floor under ftl.write.at_floor
 * room: a stream that starts, or whose blocks fill together, opens its
 * blocks one die at a time as GC frees them instead of stalling its writes
 * until it has one on each die (issue 16). */
static int frontier_next_row(struct ftl *f, struct frontier *fr, int for_gc, uint32_t *row) {
  const uint32_t planes = mp_planes(f), lanes = f->dies * planes;
  for (uint32_t tries = 0; tries < lanes; ++tries) {
    const uint32_t d = fr->next_die; /* a lane: the die itself with one plane */
    const uint32_t blk = fr->open_block[d];
    if (blk == FTL_NONE) {
      if (!for_gc && f->free_total <= host_floor(f)) {
        if (!fr->open_count || f->cfg.floor_policy != FTL_FLOOR_ROOM) return -1;
        /* Write where it has room, but no faster than those dies program:
         * at most one page in flight per open block. Unbounded, a frontier
         * left with one open block queued up to the whole write pool on
         * that die (64 pages, 13 ms of programs), GC's moves to it waited
         * behind them, GC freed blocks slowly and the other dies idled
         * (issue 16, docs/results/platform.md). */
        if (fr->programs >= fr->open_count) return -1;
        fr->next_die = (d + 1) % lanes;
        continue;
      }
      const uint32_t opened = fr->open_count && f->free_total <= gc_frontiers_empty(f, fr->index) ? FTL_NONE
                              : planes > 1 ? lane_take_free(f, fr, d)
                                           : block_take_free(f, d, fr->wear);
      if (opened == FTL_NONE) { /* this die has none left (or they are needed elsewhere): try the next one */
        fr->next_die = (d + 1) % lanes;
        continue;
      }
      fr->open_block[d] = opened;
      fr->open_count++;
      return 1;
    }
    if (planes > 1 && lane_ahead(f, fr, d)) { /* let a sibling plane catch up (ftl.multiplane_align) */
      fr->next_die = (d + 1) % lanes;
      continue;
    }
    const uint32_t page = f->blk_wp[blk]++;
    if (f->blk_wp[blk] == f->cfg.pages_per_block) { /* closed when programmed */
      fr->open_block[d] = FTL_NONE;
      fr->open_count--;
    }
    fr->next_die = (d + 1) % lanes;
    hal_charge(f->hal, FW_OP_page_alloc, 1);
    *row = blk * f->cfg.pages_per_block + page;
    return 0;
  }
  return -1;
}

/* ---- ftl.multiplane_hold ----------------------------------------------------
 * Under a steady stream of writes a die's planes fill their pages one after
 * the other (the lanes are die-major), often in different loop passes: the
 * first page's program went alone and the second waited a whole tPROG behind
 * it on the same die, which made multi-plane slower than one plane. So a full
 * page waits, up to ftl.multiplane_hold, while a sibling lane of its frontier
 * on the same die will take a page at the same offset; when the last sibling
 * is full they are submitted together (one multi-plane program, flashif.c).
 * A held page goes alone when it has waited the bound, checked at the end of
 * every loop pass (frontier_hold_poll), or at once when no flash operation is
 * outstanding (no completion would wake the firmware to check the bound: a
 * lone write on an idle drive is never held), and on a flush, a checkpoint,
 * a closing frontier or a power failure. Never in the functional API
 * (preconditioning: no time). A held page counts as a program in flight from
 * the moment it is held; its block closes when it is submitted. */
static uint32_t frontier_count(const struct ftl *f) { return f->classes + (f->gc_fr == f->classes); }

static uint32_t row_lane(const struct ftl *f, uint32_t row) {
  const uint32_t blk = row_block(f, row);
  return block_die(f, blk) * mp_planes(f) + block_plane(f, blk);
}

/* ftl.gc.preempt: a page of GC's own frontier is GC's; with `all` a page of
 * a host frontier GC does not also write to goes ahead of GC's. */
static uint8_t program_hint(const struct ftl *f, uint32_t fr) {
  if (fr == f->classes) return flash_gc_hint(f); /* (the GC frontier has its own index only when it has its own) */
  if (f->cfg.gc_preempt == FTL_GC_PREEMPT_ALL && !f->fr[fr].gc_writes && flash_gc_hint(f)) return FC_HINT_HOST;
  return 0;
}

static void program_submit_one(struct ftl *f, uint32_t b) {
  const struct pagebuf *pb = &f->bufs[b];
  flash_submit(f, FC_OP_PROGRAM, TAG(TAG_PROGRAM, b), pb->row, 0, pb->dram);
  if (f->cfg.gc_preempt != FTL_GC_PREEMPT_OFF) flash_hint(f, program_hint(f, pb->frontier));
  /* ftl.gc.hold: a host frontier's page waits while its die is held (not a
   * page GC also writes to: GC would wait for itself) */
  if (f->cfg.gc_hold != FTL_GC_HOLD_PAGE && pb->frontier != f->classes && !f->fr[pb->frontier].gc_writes)
    flash_hint(f, FC_HINT_USER);
  /* Pages of a block are programmed in order, so the last page's program
   * makes the whole block readable from flash: only now is it a GC candidate. */
  if ((pb->row + 1) % f->cfg.pages_per_block == 0) block_set_state(f, row_block(f, pb->row), BLK_CLOSED);
}

/* Submits buffer b and, just before it, the pages held on its die at the same
 * page offset (any frontier), so that they form one multi-plane program. */
static void program_submit(struct ftl *f, uint32_t b) {
  if (f->mp_held) {
    const uint32_t planes = mp_planes(f), row = f->bufs[b].row, page = row % f->cfg.pages_per_block;
    const uint32_t die = block_die(f, row_block(f, row));
    struct frontier *fr = &f->fr[f->bufs[b].frontier];
    const uint32_t own = fr->held[row_lane(f, row)], blk = row_block(f, row);
    if (own != FTL_NONE && own != b) { /* an earlier page of its block: pages go in order */
      fr->held[row_lane(f, row)] = FTL_NONE;
      f->mp_held--;
      program_submit(f, own);
    }
    for (uint32_t i = 0; i < frontier_count(f) && f->mp_held; ++i)
      for (uint32_t q = 0; q < planes; ++q) {
        const uint32_t lane = die * planes + q, h = f->fr[i].held[lane];
        if (h == FTL_NONE || h == b || f->bufs[h].row % f->cfg.pages_per_block != page ||
            !mp_index_match(f, row_block(f, f->bufs[h].row), blk))
          continue;
        f->fr[i].held[lane] = FTL_NONE;
        f->mp_held--;
        program_submit_one(f, h);
      }
  }
  program_submit_one(f, b);
}

/* Releases every held page that has waited ftl.multiplane_hold, or all of
 * them with force or when no flash operation is outstanding. */
static void held_release(struct ftl *f, int force) {
  if (!f->mp_held) return;
  const uint64_t now = hal_time_ns(f->hal);
  const uint32_t lanes = f->dies * mp_planes(f);
  force |= f->flash_outstanding == 0;
  for (uint32_t i = 0; i < frontier_count(f) && f->mp_held; ++i) {
    struct frontier *fr = &f->fr[i];
    for (uint32_t l = 0; l < lanes && f->mp_held; ++l) {
      const uint32_t h = fr->held[l];
      if (h == FTL_NONE || (!force && now - fr->held_ns[l] < f->cfg.mp_hold_ns)) continue;
      fr->held[l] = FTL_NONE;
      f->mp_held--;
      program_submit(f, h);
    }
  }
}

void frontier_release_held(struct ftl *f) { held_release(f, 1); }

int frontier_hold_poll(struct ftl *f) {
  const uint32_t held = f->mp_held;
  held_release(f, 0);
  return f->mp_held != held;
}

/* Holds full buffer b for its plane siblings: 1 if held. */
static int program_hold(struct ftl *f, uint32_t b) {
  if (!f->fr[0].held || f->in_func_call || !f->flash_outstanding) return 0;
  const struct pagebuf *pb = &f->bufs[b];
  struct frontier *fr = &f->fr[pb->frontier];
  const uint32_t planes = mp_planes(f), page = pb->row % f->cfg.pages_per_block;
  const uint32_t lane = row_lane(f, pb->row), die = lane / planes;
  if (fr->held[lane] != FTL_NONE) return 0;
  int sibling = 0; /* a sibling lane will take (or is filling) a page at this offset */
  for (uint32_t q = 0; q < planes && !sibling; ++q) {
    const uint32_t ob = fr->open_block[die * planes + q];
    sibling = die * planes + q != lane && ob != FTL_NONE && f->blk_wp[ob] == page &&
              mp_index_match(f, ob, row_block(f, pb->row));
  }
  if (!sibling && fr->buf != FTL_NONE && f->bufs[fr->buf].row != FTL_NONE) {
    const uint32_t r = f->bufs[fr->buf].row;
    sibling = row_lane(f, r) / planes == die && r % f->cfg.pages_per_block == page &&
              mp_index_match(f, row_block(f, r), row_block(f, pb->row));
  }
  if (!sibling) return 0;
  fr->held[lane] = b;
  fr->held_ns[lane] = hal_time_ns(f->hal);
  f->mp_held++;
  return 1;
}

/* epoch: the flush epoch the buffer's data was first issued in (FTL_NONE: the open one). */
static void program_buffer_in(struct ftl *f, uint32_t b, uint32_t epoch) {
  struct pagebuf *pb = &f->bufs[b];
  /* A slot whose LBA was written again (or trimmed) since it was placed goes
   * to flash without its LPN: its copy would otherwise carry a newer sequence
   * number than the LBA's latest data and win at recovery (power.c). */
  const uint32_t S = f->cfg.slots_per_page;
  for (uint32_t s = 0; s < S; ++s) {
    const uint32_t lpn = pb->lpn[s];
    if (lpn < f->cfg.logical_lbas && !map_current(f, lpn, pb->row * S + s)) pb->lpn[s] = SSDVP_LPN_NONE;
  }
  pb->state = BUF_PROGRAM;
  pb->token[2 * (size_t)f->cfg.slots_per_page] = ++f->seq; /* OOB sequence number */
  if (epoch == FTL_NONE) {
    pb->epoch = program_issued(f);
  } else { /* programmed again: owed to the flushes of its first issue, not to later ones */
    program_issued_in(f, epoch);
    pb->epoch = epoch;
  }
  f->fr[pb->frontier].programs++;
  f->stats.programs++;
  if (!program_hold(f, b)) program_submit(f, b);
}

static void program_buffer(struct ftl *f, uint32_t b) { program_buffer_in(f, b, FTL_NONE); }

int place_lba(struct ftl *f, struct frontier *fr, uint32_t lpn, uint32_t token, int for_gc) {
  /* On a frontier GC also writes to, host data must not fill the blocks GC
   * opened from the reserve, or GC runs out of room and nothing moves. (An
   * LBA a block was just opened for has passed this check already.) */
  const int resuming = fr->buf != FTL_NONE && f->bufs[fr->buf].row == FTL_NONE;
  if (f->ckpt.draining) return PLACE_WAIT; /* a checkpoint waits for the programs in flight (ckpt.c) */
  if (!cmt_room(f)) return PLACE_WAIT;     /* the cached mapping's log of pending updates is full (cmt.c) */
  if (!for_gc && !resuming && fr->gc_shared && f->free_total <= host_floor(f)) return PLACE_WAIT;
  if (fr->buf == FTL_NONE) {
    const uint32_t b = buf_get(f, fr->pool, BUF_FILLING);
    if (b == FTL_NONE) return PLACE_WAIT;
    f->bufs[b].frontier = fr->index;
    fr->buf = b;
  }
  struct pagebuf *pb = &f->bufs[fr->buf];
  if (pb->row == FTL_NONE) {
    uint32_t row = FTL_NONE;
    const int r = frontier_next_row(f, fr, for_gc, &row);
    if (r > 0) return PLACE_YIELD;
    if (r < 0) {
      buf_put(f, fr->buf);
      fr->buf = FTL_NONE;
      return PLACE_WAIT;
    }
    pb->row = row;
    f->blk_inbuf[row_block(f, row)]++;
  }
  const uint32_t slot = pb->filled++;
  pb->token[slot] = token;
  pb->lpn[slot] = lpn;
  map_set(f, lpn, pb->row * f->cfg.slots_per_page + slot);
  hal_charge(f->hal, FW_OP_l2p_update, 1);
  if (pb->filled == f->cfg.slots_per_page) {
    fr->buf = FTL_NONE;
    program_buffer(f, (uint32_t)(pb - f->bufs));
  }
  return PLACE_OK;
}

int frontier_take_row(struct ftl *f, struct frontier *fr, uint32_t *row) { return frontier_next_row(f, fr, 1, row); }

/* Programs a frontier's partly filled page, padding the rest. */
static void frontier_flush(struct ftl *f, struct frontier *fr) {
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

int frontier_flush_one(struct ftl *f, struct frontier *fr) {
  const int flushed = fr->buf != FTL_NONE && f->bufs[fr->buf].row != FTL_NONE;
  if (flushed) frontier_flush(f, fr);
  /* Checkpoints, ftl.gc.durable and the power-fail handler wait for (or must
   * submit) every program: nothing stays held, the page just flushed neither. */
  held_release(f, 1);
  return flushed;
}

void frontier_close(struct ftl *f, struct frontier *fr) {
  if (fr->buf != FTL_NONE && f->bufs[fr->buf].row != FTL_NONE) frontier_flush(f, fr);
  held_release(f, 1); /* its blocks close now: no page of theirs may stay unsubmitted */
  for (uint32_t d = 0; d < f->dies * mp_planes(f); ++d) {
    const uint32_t blk = fr->open_block[d];
    if (blk == FTL_NONE) continue;
    fr->open_block[d] = FTL_NONE;
    fr->open_count--;
    f->stats.blocks_closed_early++;
    block_set_state(f, blk, BLK_CLOSED);
  }
}

int frontier_adopt(struct ftl *f, uint32_t blk, uint32_t wp) {
  const uint32_t lane = block_die(f, blk) * mp_planes(f) + (mp_planes(f) > 1 ? block_plane(f, blk) : 0);
  const uint32_t n = frontier_count(f);
  for (uint32_t gc = 2; gc-- > 0;) /* GC's frontiers first: they need room to free blocks */
    for (uint32_t i = 0; i < n; ++i) {
      struct frontier *fr = &f->fr[i];
      if (fr->gc_writes != gc || fr->open_block[lane] != FTL_NONE) continue;
      fr->open_block[lane] = blk;
      fr->open_count++;
      f->blk_wp[blk] = (uint16_t)wp;
      return 1;
    }
  return 0;
}

int frontier_flush_host(struct ftl *f) {
  for (uint32_t i = 0; i < f->classes; ++i) {
    if (f->fr[i].buf == FTL_NONE) continue;
    frontier_flush(f, &f->fr[i]);
    if (f->gc_pending) return STEP_YIELD;
  }
  held_release(f, 1); /* a flush waits for these programs too */
  return STEP_DONE;
}

/* A program failed on block blk: stop writing it where that is cheap. If its
 * frontier has no page of it being filled, the block closes now (pages not
 * yet allocated stay unused) and, being flagged, is collected and retired. */
static void abandon_block(struct ftl *f, struct frontier *fr, uint32_t blk) {
  const uint32_t d = block_die(f, blk) * mp_planes(f) + (mp_planes(f) > 1 ? block_plane(f, blk) : 0);
  if (fr->open_block[d] != blk) return;
  if (fr->buf != FTL_NONE && f->bufs[fr->buf].row != FTL_NONE && row_block(f, f->bufs[fr->buf].row) == blk) return;
  fr->open_block[d] = FTL_NONE;
  f->blk_wp[blk] = (uint16_t)f->cfg.pages_per_block;
  block_set_state(f, blk, BLK_CLOSED);
}

/* The page of buffer b could not be programmed. The data is still in the
 * buffer (reads are served from it): program it again on the next row of its
 * frontier. LBAs written again since are padded, so that the OOB never holds
 * a copy newer (by sequence number) than the LBA's latest data. */
static void program_failed(struct ftl *f, uint32_t b) {
  struct pagebuf *pb = &f->bufs[b];
  struct frontier *fr = &f->fr[pb->frontier];
  const uint32_t S = f->cfg.slots_per_page, old = pb->row, blk = row_block(f, old);
  f->stats.program_failures++;
  held_release(f, 1); /* its block may close now */
  block_flag(f, blk, BLKF_RETIRE);
  abandon_block(f, fr, blk);
  uint32_t row = FTL_NONE;
  int r;
  while ((r = frontier_next_row(f, fr, 1, &row)) > 0) {
  } /* opened a block: take its first page */
  const uint32_t epoch = pb->epoch;
  program_retired(f, epoch);
  fr->programs--;
  if (r < 0) {
    hal_logf(f->hal, HAL_LOG_ERROR, "ftl: no free block left to rewrite row %" PRIu32 " after a program failure", old);
    f->fatal = 1;
    buf_put(f, b);
    return;
  }
  for (uint32_t s = 0; s < S; ++s) {
    const uint32_t lpn = pb->lpn[s];
    if (lpn == SSDVP_LPN_NONE) continue;
    if (lpn < f->cfg.logical_lbas && map_current(f, lpn, old * S + s)) {
      map_set(f, lpn, row * S + s);
      map_invalidate_ppa(f, old * S + s); /* done already unless the entry is not cached (cmt.c) */
      f->stats.rewritten_lbas++;
    } else {
      pb->token[s] = SSDVP_TOKEN_ERASED;
      pb->lpn[s] = SSDVP_LPN_NONE;
    }
  }
  f->blk_inbuf[blk]--;
  f->blk_inbuf[row_block(f, row)]++;
  pb->row = row;
  program_buffer_in(f, b, epoch); /* still owed to the flushes that waited for it */
}

void program_done(struct ftl *f, uint32_t b, int status) {
  struct pagebuf *pb = &f->bufs[b];
  if (status == FC_ERR_PROGRAM_FAIL) {
    program_failed(f, b);
    return;
  }
  if (status != FC_OK) {
    hal_logf(f->hal, HAL_LOG_ERROR, "ftl: program of row %" PRIu32 " failed with status %d", pb->row, status);
    f->stats.flash_errors++;
  }
  program_retired(f, pb->epoch);
  f->fr[pb->frontier].programs--;
  buf_put(f, b);
}

uint32_t frontier_flush_all(struct ftl *f, uint32_t n) {
  for (uint32_t i = 0; i < n; ++i) frontier_flush_one(f, &f->fr[i]);
  return f->seq ? f->seq : 1;
}

uint32_t program_seq_in_flight_min(const struct ftl *f) {
  uint32_t lo = FTL_NONE;
  for (uint32_t b = 0; b < f->nbufs; ++b) {
    const struct pagebuf *pb = &f->bufs[b];
    if (pb->state == BUF_PROGRAM && pb->token[2 * (size_t)f->cfg.slots_per_page] < lo)
      lo = pb->token[2 * (size_t)f->cfg.slots_per_page];
  }
  return lo;
}
