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
 * Recovery (recover_scan, after ftl_init): every block that is not factory
 * bad is read page by page from page 0 until the first erased page, one block
 * per read buffer, so the scan runs on as many dies at once as there are
 * read buffers. A torn page (a program or erase the cut interrupted; it
 * reads uncorrectable) is skipped. For each slot the L2P takes the copy with
 * the newest sequence number; the sequence number of each page is kept in a
 * scratch table in the DRAM above the firmware's layout (4 bytes per page).
 * Then: a block with any page written is closed (its unwritten pages wait
 * for GC), the others are free; validity and valid counts follow from the
 * L2P; the sequence counter continues after the largest number seen.
 * Not recovered (no checkpoint yet): erase counts (they restart at 0), the
 * grown bad-block table (a retired block is scanned and used again) and
 * deallocations (a trimmed LBA reads its last data again).
 */
#include <string.h>

#include "ftl_internal.h"

uint32_t ftl_power_fail(struct ftl *f, uint32_t budget_pages) {
  uint32_t lost = 0;
  const uint32_t n = place_frontiers(&f->cfg);
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
  uint32_t *rseq; /* [pages]: sequence number of each page read (0: none or torn) */
  uint32_t next_block;
  uint32_t active;
  uint32_t max_seq;
};

static void scan_submit(struct ftl *f, uint32_t b, uint32_t row) {
  struct pagebuf *pb = &f->bufs[b];
  pb->row = row;
  pb->mask = f->cfg.slots_per_page >= 32 ? 0xffffffffu : (1u << f->cfg.slots_per_page) - 1;
  f->stats.recovery_pages++;
  flash_submit(f, FC_OP_READ, TAG(TAG_HOST_READ, b), row, pb->mask, pb->dram);
}

/* Gives buffer b the next block to scan; 0 if none is left. */
static int scan_next_block(struct ftl *f, struct scan *sc, uint32_t b) {
  while (sc->next_block < f->total_blocks) {
    const uint32_t blk = sc->next_block++;
    if (f->blk_state[blk] == BLK_BAD) continue;
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
  } else {
    f->blk_wp[blk]++;
    sc->rseq[row] = 0;
    if (c->status == FC_OK) {
      const uint32_t seq = pb->token[2 * (size_t)S];
      sc->rseq[row] = seq;
      if (seq > sc->max_seq) sc->max_seq = seq;
      for (uint32_t s = 0; s < S; ++s) {
        const uint32_t lpn = pb->lpn[s];
        if (lpn >= f->cfg.logical_lbas) continue; /* padding */
        const uint32_t cur = f->l2p[lpn];
        if (cur == FTL_UNMAPPED || sc->rseq[cur / S] < seq) f->l2p[lpn] = row * S + s;
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

int recover_scan(struct ftl *f) {
  const uint64_t t0 = hal_time_ns(f->hal);
  const uint64_t pages = (uint64_t)f->total_blocks * f->cfg.pages_per_block;
  const uint64_t at = (f->dram_end + 63) & ~(uint64_t)63;
  if (at + pages * 4 > f->cfg.dram_size) {
    hal_logf(f->hal, HAL_LOG_ERROR,
             "ftl: recovery needs %llu bytes of DRAM above the tables, %llu available (raise dram.size)",
             (unsigned long long)pages * 4, (unsigned long long)(f->cfg.dram_size > at ? f->cfg.dram_size - at : 0));
    return -1;
  }
  struct scan sc = {0};
  sc.rseq = hal_dram(f->hal, (uint32_t)(f->cfg.dram_base + at), (uint32_t)(pages * 4));
  if (!sc.rseq) return -1;
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
  /* Blocks: written ones closed (their rest unused until collected), the rest free. */
  for (uint32_t blk = 0; blk < f->total_blocks; ++blk) {
    if (f->blk_state[blk] == BLK_BAD || f->blk_wp[blk] == 0) continue;
    block_set_state(f, blk, BLK_OPEN);
    f->blk_wp[blk] = (uint16_t)f->cfg.pages_per_block;
    block_set_state(f, blk, BLK_CLOSED);
  }
  for (uint64_t l = 0; l < f->cfg.logical_lbas; ++l) {
    const uint32_t p = f->l2p[l];
    if (p == FTL_UNMAPPED) continue;
    f->valid_bits[p >> 5] |= 1u << (p & 31);
    block_valid_inc(f, row_block(f, ppa_row(f, p)));
    f->stats.recovery_lbas++;
  }
  f->seq = sc.max_seq;
  f->stats.free_blocks_min = f->free_total;
  f->gc_pending = 1;
  f->stats.recovery_ns = hal_time_ns(f->hal) - t0;
  hal_logf(f->hal, HAL_LOG_INFO, "ftl: recovered %llu LBAs from %llu pages (%llu torn), %" PRIu32 " free blocks",
           (unsigned long long)f->stats.recovery_lbas, (unsigned long long)f->stats.recovery_pages,
           (unsigned long long)f->stats.recovery_torn, f->free_total);
  return f->fatal ? -1 : 0;
}
