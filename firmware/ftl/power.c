/*
 * power.c - power loss: the last programs a capacitor pays for, and the
 * power-up scan that rebuilds the FTL's tables from the flash.
 *
 * What survives a cut is what is on the NAND: every programmed page carries
 * its LBAs (OOB LPN per slot) and the sequence number of its program (one
 * counter for the whole drive, so a later program of an LBA always has a
 * larger number). DRAM - the L2P, the block table, page buffers, command
 * state - is gone.
 *
 * Recovery runs in simulated time like any other firmware work (its reads
 * go to the dies, its table work is charged: l2p_lookup per slot of a page
 * newer than the checkpoint (compare and take), ckpt_copy_word per word of a
 * checkpoint loaded and per LBA of each pass over the L2P: the same
 * word-at-a-time work); ftl_recover keeps the host interface disabled until
 * it is done.
 *
 * Recovery (recover_scan, after ftl_init): every block that is not factory
 * bad is read page by page from page 0 until the first erased page, one block
 * per read buffer, the blocks taken from the dies in turn, so the scan runs
 * on as many dies at once as there are read buffers. A torn page (a program or erase the cut interrupted; it
 * reads uncorrectable) is skipped. For each slot the L2P takes the copy with
 * the newest sequence number; the sequence number of each page is kept in a
 * scratch table in the DRAM above the firmware's layout (4 bytes per page).
 * Then: a block written to its last page is closed, a block partly written
 * becomes a frontier's open block again at its write pointer (frontier_adopt;
 * closed, its unwritten pages waiting for GC, only when every frontier has a
 * block on its lane), the others are free; validity and valid counts follow from the
 * L2P; the sequence counter continues after the largest number seen.
 * In the open-channel personality (ocssd.c) the scan rebuilds the chunk table
 * only: a chunk's write pointer is its first erased page (a torn unit below it
 * is consumed), a partly written chunk stays open there, no L2P is built (the
 * host's recovery reads the same pages for its own, docs/models/host_ftl.md).
 * Without checkpoints, not recovered: erase counts (they restart at 0), the
 * grown bad-block table (a retired block is scanned and used again) and,
 * unless power.trim_log.mode is on, deallocations (a trimmed LBA may read
 * older data again; with it on the trim log has areas of its own: a bitmap
 * and records, replayed after the scan as with checkpoints).
 *
 * With checkpoints (ckpt.c): the newest complete checkpoint gives the L2P,
 * erase counts and grown bad blocks as of its snapshot (sequence number S:
 * every L2P entry then pointed at a programmed page). Then only what was
 * written since is scanned: a block open at the snapshot is read whole; of
 * every other block the first page only: erased (free now), sequence <= S
 * (untouched since: its pages are as the checkpoint knows them, no more
 * reads) or newer (erased and written again since: read whole). Pages with a
 * sequence number above S update the L2P, newest wins. A checkpoint entry
 * whose page was erased or rewritten since, and that no newer page replaced,
 * is dropped (unmapped: its data was trimmed and collected after the
 * snapshot). Deallocations after the snapshot: the trim log (trimlog.c),
 * replayed after the scan (replay_trims).
 */
#include <string.h>

#include "ftl_internal.h"

uint32_t ftl_power_fail(struct ftl *f, uint32_t budget_pages) {
  uint32_t lost = 0;
  const uint32_t n = place_frontiers(&f->cfg);
  frontier_release_held(f); /* pages held for multi-plane were already programs in flight */
  if (f->tlog.n) {          /* the trim log's records first: one page (trimlog.c) */
    if (budget_pages && tlog_program(f))
      --budget_pages;
    else
      ++lost;
  }
  for (uint32_t i = 0; i < n; ++i) {
    struct frontier *fr = &f->fr[i];
    if (fr->buf == FTL_NONE || f->bufs[fr->buf].row == FTL_NONE) continue;
    if (budget_pages == 0) {
      ++lost;
      continue;
    }
    budget_pages -= (uint32_t)frontier_flush_one(f, fr);
  }
  flash_doorbell(f);
  return lost;
}

struct scan {
  uint32_t *rseq;   /* [pages]: sequence number of each page read (0: none or torn) */
  uint8_t *cls;     /* [blocks] with a checkpoint: enum scan_class */
  uint32_t *mapped; /* [lbas / 32] with a checkpoint: the L2P entry came from the scan */
  uint32_t next_block;
  uint32_t active;
  uint32_t max_seq;
  uint32_t snap; /* with a checkpoint: its sequence number S (0: full scan) */
  int ckpt;
};

/* With a checkpoint, what the scan found a block to be. */
enum scan_class { SC_SKIP = 0, SC_PROBE = 1, SC_READ = 2, SC_KEEP = 3, SC_FREE = 4 };

static uint32_t *ckpt_l2p(struct ftl *f) { return f->ckpt.image + CKPT_HEADER_BYTES / 4; }
static uint32_t *ckpt_erase(struct ftl *f) { return ckpt_l2p(f) + f->cfg.logical_lbas; }
static uint8_t *ckpt_state(struct ftl *f) { return (uint8_t *)(ckpt_erase(f) + f->total_blocks); }

static void scan_submit(struct ftl *f, uint32_t b, uint32_t row) { buf_read_row(f, b, row); }

/* Gives buffer b the next block to scan; 0 if none is left. */
static int scan_next_block(struct ftl *f, struct scan *sc, uint32_t b) {
  while (sc->next_block < f->total_blocks) {
    const uint32_t i = sc->next_block++;
    const uint32_t blk = (i % f->dies) * f->cfg.blocks_per_die + i / f->dies; /* the dies in turn */
    if (f->blk_state[blk] == BLK_BAD) continue;
    if (sc->ckpt) {
      if (ckpt_state(f)[blk] == CKPT_BLK_BAD) continue;
      sc->cls[blk] = ckpt_state(f)[blk] == CKPT_BLK_OPEN ? SC_READ : SC_PROBE;
    }
    f->blk_wp[blk] = 0;
    scan_submit(f, b, blk * f->cfg.pages_per_block);
    return 1;
  }
  return 0;
}

/* One page read back: its slots into the L2P, then the next page. */
static void scan_page(struct ftl *f, struct scan *sc, uint32_t b, const struct fc_cqe *c) {
  struct pagebuf *pb = &f->bufs[b];
  const uint32_t S = f->cfg.slots_per_page, ppb = f->cfg.pages_per_block;
  const uint32_t row = pb->row, blk = row_block(f, row);
  int more = 0;
  if (c->status == FC_OK && (c->flags & FC_FLAG_ERASED)) {
    more = 0; /* the first erased page ends the block */
    if (sc->ckpt && sc->cls[blk] == SC_PROBE) sc->cls[blk] = SC_FREE;
  } else if (sc->ckpt && sc->cls[blk] == SC_PROBE && c->status == FC_OK && pb->token[2 * (size_t)S] <= sc->snap) {
    sc->cls[blk] = SC_KEEP; /* not written since the checkpoint: as it knows it */
    f->blk_wp[blk] = (uint16_t)ppb;
  } else {
    if (sc->ckpt && sc->cls[blk] == SC_PROBE) sc->cls[blk] = SC_READ; /* written since (or torn): read it all */
    f->blk_wp[blk]++;
    sc->rseq[row] = 0;
    if (c->status == FC_OK) {
      const uint32_t seq = pb->token[2 * (size_t)S];
      sc->rseq[row] = seq;
      if (seq > sc->max_seq) sc->max_seq = seq;
      const int map = f->cfg.command_set != FTL_CMDSET_OPEN_CHANNEL;      /* open channel: the chunk table only */
      if (seq > sc->snap && map) hal_charge(f->hal, FW_OP_l2p_lookup, S); /* each slot: newest wins */
      for (uint32_t s = 0; s < S && seq > sc->snap && map; ++s) {
        const uint32_t lpn = pb->lpn[s];
        if (lpn >= f->cfg.logical_lbas) continue; /* padding */
        const uint32_t cur = f->l2p[lpn];
        const int from_scan = !sc->ckpt || ((sc->mapped[lpn >> 5] >> (lpn & 31)) & 1u);
        if (cur == FTL_UNMAPPED || !from_scan || sc->rseq[cur / S] < seq) {
          f->l2p[lpn] = row * S + s;
          if (sc->ckpt) sc->mapped[lpn >> 5] |= 1u << (lpn & 31);
        }
      }
    } else {
      f->stats.recovery_torn++; /* torn (or unreadable): its copies are older or lost */
    }
    more = (row % ppb) + 1 < ppb;
  }
  if (more)
    scan_submit(f, b, row + 1);
  else if (!scan_next_block(f, sc, b)) {
    sc->active--;
    buf_put(f, b);
  }
}

/* Checkpoint: the tables as of its snapshot. */
static void load_checkpoint(struct ftl *f, struct scan *sc) {
  const uint32_t B = f->total_blocks;
  sc->snap = f->ckpt.image[CKPT_H_SEQ];
  sc->max_seq = sc->snap;
  memcpy(f->l2p, ckpt_l2p(f), f->cfg.logical_lbas * 4);
  memcpy(f->blk_erase, ckpt_erase(f), (size_t)B * 4);
  for (uint32_t blk = 0; blk < B; ++blk)
    if (ckpt_state(f)[blk] == CKPT_BLK_BAD && f->blk_state[blk] == BLK_FREE && !ckpt_is_area_block(f, blk)) {
      block_set_state(f, blk, BLK_BAD); /* grown bad: retired before the snapshot */
      f->stats.factory_bad_blocks--;
      f->stats.retired_blocks++;
    }
  hal_charge(f->hal, FW_OP_ckpt_copy_word, (uint32_t)(f->cfg.logical_lbas + B)); /* the copies above */
}

/* Unmaps LBA l if the newest copy the scan found is older than deallocation
 * seq (a copy from the checkpoint is older than any record read here). */
static void unmap_older(struct ftl *f, struct scan *sc, uint32_t l, uint32_t seq) {
  const uint32_t S = f->cfg.slots_per_page, p = f->l2p[l];
  if (p == FTL_UNMAPPED) return;
  const int from_scan = p != FTL_LOST && (!sc->ckpt || ((sc->mapped[l >> 5] >> (l & 31)) & 1u));
  if (from_scan && sc->rseq[p / S] > seq) return; /* written again after the trim */
  f->l2p[l] = FTL_UNMAPPED;
  f->stats.recovery_trimmed++;
}

/* The trim log (trimlog.c): a record newer than the snapshot unmaps every
 * LBA of its range whose newest copy the scan found is older than it. In
 * its own areas a bitmap comes first: every LBA deallocated at its sequence
 * number, as one record each. */
static void replay_trims(struct ftl *f, struct scan *sc) {
  const struct trimlog *t = &f->tlog;
  if (t->own && t->bm_valid) {
    const uint32_t words = f->cfg.slots_per_page * f->cfg.lba_bytes / 4, per = (words - TLOG_HEADER_WORDS) * 32;
    const uint32_t x = t->bitmap[3];
    if (x > sc->max_seq) sc->max_seq = x;
    for (uint32_t l = 0; l < f->cfg.logical_lbas; ++l)
      if ((t->bitmap[(size_t)(l / per) * words + TLOG_HEADER_WORDS + (l % per) / 32] >> (l % 32)) & 1u)
        unmap_older(f, sc, l, x);
    hal_charge(f->hal, FW_OP_l2p_lookup, (uint32_t)f->cfg.logical_lbas);
  }
  for (uint32_t i = 0;; ++i) {
    const uint32_t *r = NULL;
    uint32_t n = 0;
    const int got = tlog_read(f, i, &r, &n);
    if (got < 0) break;
    for (uint32_t j = 0; got == 0 && j < n; ++j, r += TLOG_RECORD_WORDS) {
      const uint32_t seq = r[2];
      if (seq > sc->max_seq) sc->max_seq = seq; /* the counter goes on after it */
      if (seq <= sc->snap || r[0] >= f->cfg.logical_lbas) continue;
      const uint32_t count = r[1] < f->cfg.logical_lbas - r[0] ? r[1] : (uint32_t)(f->cfg.logical_lbas - r[0]);
      hal_charge(f->hal, FW_OP_l2p_lookup, count);
      for (uint32_t l = r[0]; l < r[0] + count; ++l) unmap_older(f, sc, l, seq);
    }
  }
}

/* Checkpoint entries no scanned page replaced: kept if their page is as the
 * checkpoint knew it, dropped if it was erased or written again since. */
static void drop_stale(struct ftl *f, struct scan *sc) {
  const uint32_t ppb = f->cfg.pages_per_block;
  for (uint64_t l = 0; l < f->cfg.logical_lbas; ++l) {
    const uint32_t p = f->l2p[l];
    if (p == FTL_UNMAPPED || p == FTL_LOST || ((sc->mapped[l >> 5] >> (l & 31)) & 1u)) continue;
    const uint32_t row = ppa_row(f, p), blk = row_block(f, row);
    int ok = 0;
    if (sc->cls[blk] == SC_KEEP)
      ok = 1;
    else if (sc->cls[blk] == SC_READ)
      ok = row % ppb < f->blk_wp[blk] && sc->rseq[row] != 0 && sc->rseq[row] <= sc->snap;
    if (!ok) {
      f->l2p[l] = FTL_UNMAPPED;
      f->stats.recovery_dropped++;
    }
  }
  hal_charge(f->hal, FW_OP_ckpt_copy_word, (uint32_t)f->cfg.logical_lbas);
}

int recover_scan(struct ftl *f) {
  if (f->cmt.on) return cmt_recover(f); /* no whole table: the directory and what was written since */
  const uint64_t t0 = hal_time_ns(f->hal);
  const uint64_t pages = (uint64_t)f->total_blocks * f->cfg.pages_per_block;
  const uint64_t at = (f->dram_end + 63) & ~(uint64_t)63;
  const uint64_t cls_at = (at + pages * 4 + 63) & ~(uint64_t)63;
  const uint64_t map_at = (cls_at + f->total_blocks + 63) & ~(uint64_t)63;
  const uint64_t map_bytes = (f->cfg.logical_lbas + 31) / 32 * 4;
  const uint64_t need = f->ckpt.on ? map_at + map_bytes : at + pages * 4;
  if (need > f->cfg.dram_size) {
    hal_logf(f->hal, HAL_LOG_ERROR,
             "ftl: recovery needs %llu bytes of DRAM above the tables, %llu available (raise dram.size)",
             (unsigned long long)(need - at), (unsigned long long)(f->cfg.dram_size > at ? f->cfg.dram_size - at : 0));
    return -1;
  }
  struct scan sc = {0};
  sc.rseq = hal_dram(f->hal, (uint32_t)(f->cfg.dram_base + at), (uint32_t)(pages * 4));
  if (!sc.rseq) return -1;
  if (f->ckpt.on && ckpt_load(f) == 0) {
    sc.ckpt = 1;
    sc.cls = hal_dram(f->hal, (uint32_t)(f->cfg.dram_base + cls_at), f->total_blocks);
    sc.mapped = hal_dram(f->hal, (uint32_t)(f->cfg.dram_base + map_at), (uint32_t)map_bytes);
    if (!sc.cls || !sc.mapped) return -1;
    memset(sc.cls, SC_SKIP, f->total_blocks);
    memset(sc.mapped, 0, (size_t)map_bytes);
    load_checkpoint(f, &sc);
  }
  tlog_recover_begin(f, f->ckpt.writing ^ 1, sc.ckpt ? f->ckpt.gen : 0, ckpt_pages(&f->cfg));
  if (f->fatal) return -1;
  for (uint32_t b = buf_get(f, POOL_READ, BUF_HOST_READ); b != FTL_NONE; b = buf_get(f, POOL_READ, BUF_HOST_READ)) {
    if (!scan_next_block(f, &sc, b)) {
      buf_put(f, b);
      break;
    }
    sc.active++;
  }
  flash_doorbell(f);
  while (sc.active && !f->fatal) {
    if (!flash_cq_fetch(f)) {
      hal_wait_irq(f->hal);
      continue;
    }
    struct fc_cqe c;
    while (flash_cq_pop(f, &c)) {
      if (TAG_KIND(c.tag) != TAG_HOST_READ || TAG_IDX(c.tag) >= f->nbufs) {
        hal_logf(f->hal, HAL_LOG_ERROR, "ftl: recovery: unexpected flash completion 0x%" PRIx32, c.tag);
        return -1;
      }
      scan_page(f, &sc, TAG_IDX(c.tag), &c);
    }
    flash_cq_release(f);
    flash_doorbell(f);
  }
  replay_trims(f, &sc);
  if (sc.ckpt) {
    drop_stale(f, &sc);
    /* erase counts: a block erased since the snapshot was erased at least once more */
    for (uint32_t blk = 0; blk < f->total_blocks; ++blk)
      if ((sc.cls[blk] == SC_FREE || sc.cls[blk] == SC_READ) && ckpt_state(f)[blk] == CKPT_BLK_USED)
        f->blk_erase[blk]++;
  }
  /* Blocks: a partly written one goes back to a frontier at its write
   * pointer (above it the NAND holds erased pages: it programs a block's
   * pages in order; a torn page below it stays behind, unmapped). Closing
   * them instead left one block per frontier and die unused until GC after
   * every cut, and cut after cut the free pool ran dry. Full ones are closed;
   * blocks with nothing written are free. */
  for (uint32_t blk = 0; blk < f->total_blocks; ++blk) {
    const uint32_t wp = f->blk_wp[blk];
    if (f->blk_state[blk] == BLK_BAD || wp == 0) continue;
    block_set_state(f, blk, BLK_OPEN);
    if (wp < f->cfg.pages_per_block && f->cfg.command_set == FTL_CMDSET_OPEN_CHANNEL) {
      f->blk_wp[blk] = (uint16_t)wp; /* an open chunk at its write pointer: the host writes on */
      continue;
    }
    if (wp < f->cfg.pages_per_block && frontier_adopt(f, blk, wp)) {
      f->stats.recovery_reopened++;
      continue;
    }
    f->blk_wp[blk] = (uint16_t)f->cfg.pages_per_block;
    block_set_state(f, blk, BLK_CLOSED);
  }
  for (uint64_t l = 0; l < f->cfg.logical_lbas; ++l) {
    const uint32_t p = f->l2p[l];
    if (p == FTL_UNMAPPED || p == FTL_LOST) continue; /* LOST: only from a checkpoint */
    f->valid_bits[p >> 5] |= 1u << (p & 31);
    block_valid_inc(f, row_block(f, ppa_row(f, p)));
    f->stats.recovery_lbas++;
  }
  hal_charge(f->hal, FW_OP_ckpt_copy_word, (uint32_t)f->cfg.logical_lbas); /* validity from the L2P */
  f->seq = sc.max_seq;
  tlog_recover_end(f); /* its own areas: the log moves to the other one */
  f->stats.free_blocks_min = f->free_total;
  f->gc_pending = 1;
  f->stats.recovery_ns = hal_time_ns(f->hal) - t0;
  hal_logf(f->hal, HAL_LOG_INFO, "ftl: recovered %llu LBAs from %llu pages (%llu torn), %" PRIu32 " free blocks",
           (unsigned long long)f->stats.recovery_lbas, (unsigned long long)f->stats.recovery_pages,
           (unsigned long long)f->stats.recovery_torn, f->free_total);
  return f->fatal ? -1 : 0;
}
