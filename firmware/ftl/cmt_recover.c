/*
 * cmt_recover.c - power-up recovery with ftl.mapping: cached (DFTL): the
 * global translation directory from the translation pages in flash, then
 * the LBAs written since each page's copy from the data pages' OOB, without
 * ever holding the whole table in DRAM.
 *
 * What is on the NAND after a cut: every translation page copy carries, in
 * its OOB, the translation page number (token) with CMT_LPN_TRANS as LPN and
 * the sequence number taken when its merge ended (cmt.c: a data page
 * programmed after that has a larger number, one placed before it is in the
 * copy); every data page its LBAs and sequence number. The dirty cache and
 * the log of pending updates are gone.
 *
 * 1. Probe: page 0 of every block. A translation block is read on (its
 *    pages' translation page numbers and sequence numbers: the directory
 *    names each page's newest copy); a data block is left for step 2; an
 *    erased one is free.
 * 2. Data scan: every data block page by page until the first erased page
 *    (torn pages skipped). A slot whose page is newer than its translation
 *    page's copy is a candidate for the LBA; the newest candidate of an LBA
 *    wins. Only those LBAs are kept (a scratch table above the firmware's
 *    DRAM layout, with 4 bytes per flash page of sequence numbers).
 * 3. Fix-up, round 1: every translation page that has a copy or candidates is
 *    read and fixed (cmt.c, rec_fix): an entry whose page was not programmed
 *    before the copy (lost or torn in the cut, or erased and written again)
 *    is dropped, the candidates are taken, and every slot the page maps is
 *    valid; a page that changed is programmed as its new copy.
 * 4. If entries were dropped that no candidate replaced (a copy written
 *    while its data still sat in a page buffer, that buffer lost in the cut):
 *    the data blocks are scanned again for those LBAs' newest copies, and
 *    round 2 writes them into their pages.
 * Blocks: data blocks written are closed (their rest unused until GC
 * collects them), translation blocks go back into the region (a partly
 * written one is written on from where it stopped), the rest are free.
 * Not recovered, as with the full table: erase counts, grown bad blocks;
 * deallocations only if their translation page was written back since.
 * The cache starts empty; the sequence counter continues after the largest
 * number seen. Reads and programs go to the dies in simulated time, the
 * table work is charged (l2p_lookup per slot scanned, ckpt_copy_word per
 * entry fixed up).
 */
#include <string.h>

#include "ftl_internal.h"

enum rec_class { RC_FREE = 0, RC_DATA = 1, RC_TRANS = 2 };
enum rec_pass { RP_PROBE = 0, RP_DATA = 1, RP_WANTS = 2 };

struct rscan {
  struct cmt_rec *r;
  uint8_t *cls; /* [blocks] enum rec_class */
  int pass;
  uint32_t next_block, active, max_seq, found;
};

/* Buffer b takes the next block the pass reads; 0 if none is left. */
static int rs_next(struct ftl *f, struct rscan *sc, uint32_t b) {
  for (; sc->next_block < f->total_blocks; ++sc->next_block) {
    const uint32_t i = sc->next_block;
    const uint32_t blk = (i % f->dies) * f->cfg.blocks_per_die + i / f->dies; /* the dies in turn */
    if (f->blk_state[blk] == BLK_BAD || (sc->pass != RP_PROBE && sc->cls[blk] != RC_DATA)) continue;
    sc->next_block++;
    buf_read_row(f, b, blk * f->cfg.pages_per_block);
    return 1;
  }
  return 0;
}

/* A translation page read in the probe. */
static int rs_trans(struct ftl *f, struct rscan *sc, uint32_t row, const struct pagebuf *pb, int ok) {
  struct cmt *m = &f->cmt;
  const uint32_t ppb = f->cfg.pages_per_block, blk = row_block(f, row), page = row % ppb;
  if (sc->cls[blk] != RC_TRANS) {
    if (sc->found == m->rblocks) {
      hal_logf(f->hal, HAL_LOG_ERROR, "ftl: recovery: more than %" PRIu32 " translation blocks", m->rblocks);
      f->fatal = 1;
      return 0;
    }
    sc->cls[blk] = RC_TRANS;
    m->rblk[sc->found] = blk;
    m->rindex[blk] = sc->found++;
  }
  const uint32_t r = m->rindex[blk];
  m->rwp[r] = page + 1;
  if (!ok) {
    f->stats.recovery_torn++;
    return 1;
  }
  const uint32_t tp = pb->token[0], seq = pb->token[2 * (size_t)f->cfg.slots_per_page];
  if (seq > sc->max_seq) sc->max_seq = seq;
  if (tp >= m->tps) return 1;
  m->rtp[(uint64_t)r * ppb + page] = tp;
  if (seq > sc->r->tseq[tp]) {
    sc->r->tseq[tp] = seq;
    m->gtd[tp] = row;
  }
  return 1;
}

/* A data page read in step 2 (candidates) or 4 (wants). */
static void rs_data(struct ftl *f, struct rscan *sc, uint32_t row, const struct pagebuf *pb, int ok) {
  struct cmt_rec *r = sc->r;
  const uint32_t S = f->cfg.slots_per_page;
  if (sc->pass == RP_DATA) {
    f->blk_wp[row_block(f, row)]++;
    if (!ok) f->stats.recovery_torn++;
  }
  if (!ok) return;
  const uint32_t seq = pb->token[2 * (size_t)S];
  if (sc->pass == RP_DATA) {
    r->rseq[row] = seq;
    if (seq > sc->max_seq) sc->max_seq = seq;
  }
  hal_charge(f->hal, FW_OP_l2p_lookup, S);
  for (uint32_t s = 0; s < S; ++s) {
    const uint32_t lpn = pb->lpn[s];
    if (lpn >= f->cfg.logical_lbas) continue; /* padding, or a slot written again before its program */
    if (sc->pass == RP_DATA && seq <= r->tseq[lpn / f->cmt.tp_entries]) continue; /* in the copy */
    const uint32_t c = cmt_rec_entry(f, lpn, sc->pass == RP_DATA);
    if (c == FTL_NONE) {
      if (sc->pass == RP_WANTS) continue; /* not looked for */
      hal_logf(f->hal, HAL_LOG_ERROR,
               "ftl: recovery: more than %" PRIu32
               " LBAs written after their translation page's copy (raise dram.size)",
               r->cap);
      f->fatal = 1;
      return;
    }
    if (r->c_ppa[c] == FTL_NONE || r->rseq[r->c_ppa[c] / S] < seq) r->c_ppa[c] = row * S + s;
  }
}

static void rs_page(struct ftl *f, struct rscan *sc, uint32_t b, const struct fc_cqe *c) {
  struct pagebuf *pb = &f->bufs[b];
  const uint32_t row = pb->row, blk = row_block(f, row), ppb = f->cfg.pages_per_block;
  const int erased = c->status == FC_OK && (c->flags & FC_FLAG_ERASED), ok = c->status == FC_OK;
  int more = 0;
  if (!erased) {
    if (sc->pass == RP_PROBE) {
      if (sc->cls[blk] == RC_TRANS || (ok && pb->lpn[0] == CMT_LPN_TRANS))
        more = rs_trans(f, sc, row, pb, ok);
      else
        sc->cls[blk] = RC_DATA; /* read whole in step 2 */
    } else {
      rs_data(f, sc, row, pb, ok);
      more = 1;
    }
    more = more && (row % ppb) + 1 < ppb;
  }
  if (more)
    buf_read_row(f, b, row + 1);
  else if (!rs_next(f, sc, b)) {
    sc->active--;
    buf_put(f, b);
  }
}

/* One pass over the blocks, as many at once as there are read buffers. */
static int rs_pass(struct ftl *f, struct rscan *sc, int pass) {
  sc->pass = pass;
  sc->next_block = 0;
  for (uint32_t b = buf_get(f, POOL_READ, BUF_HOST_READ); b != FTL_NONE; b = buf_get(f, POOL_READ, BUF_HOST_READ)) {
    if (!rs_next(f, sc, b)) {
      buf_put(f, b);
      break;
    }
    sc->active++;
  }
  flash_doorbell(f);
  while (sc->active && !f->fatal) {
    if (!flash_cq_fetch(f)) {
      hal_wait_irq(f->hal);
      continue;
    }
    struct fc_cqe c;
    while (flash_cq_pop(f, &c) && !f->fatal) {
      if (TAG_KIND(c.tag) != TAG_HOST_READ || TAG_IDX(c.tag) >= f->nbufs) {
        hal_logf(f->hal, HAL_LOG_ERROR, "ftl: recovery: unexpected flash completion 0x%" PRIx32, c.tag);
        f->fatal = 1;
      } else {
        rs_page(f, sc, TAG_IDX(c.tag), &c);
      }
    }
    flash_cq_release(f);
    flash_doorbell(f);
  }
  return f->fatal ? -1 : 0;
}

/* Runs the translation page operations until every flagged page is fixed. */
static int fix_pages(struct ftl *f) {
  struct cmt *m = &f->cmt;
  while (!f->fatal) {
    cmt_pump(f);
    flash_doorbell(f);
    if (m->inflight == 0) {
      if (m->rec->pending == 0 && !cmt_busy(f)) break;
      hal_logf(f->hal, HAL_LOG_ERROR, "ftl: recovery: %" PRIu32 " translation pages wait for a row that never comes",
               m->rec->pending);
      f->fatal = 1;
      break;
    }
    if (!flash_cq_fetch(f)) {
      hal_wait_irq(f->hal);
      continue;
    }
    struct fc_cqe c;
    while (flash_cq_pop(f, &c)) {
      if (TAG_KIND(c.tag) == TAG_TRANS) {
        cmt_flash_done(f, &c);
        continue;
      }
      hal_logf(f->hal, HAL_LOG_ERROR, "ftl: recovery: unexpected flash completion 0x%" PRIx32, c.tag);
      f->fatal = 1;
    }
    flash_cq_release(f);
  }
  return f->fatal ? -1 : 0;
}

/* The scratch tables above the firmware's layout; 0 or -1. */
static int rec_carve(struct ftl *f, struct cmt_rec *r, uint8_t **cls) {
  const struct cmt *m = &f->cmt;
  const uint64_t pages = (uint64_t)f->total_blocks * f->cfg.pages_per_block;
  uint64_t at = (f->dram_end + 63) & ~(uint64_t)63;
  const uint64_t fixed = pages * 4 + (uint64_t)m->tps * 12 + f->total_blocks + 640u;
  const uint64_t left = f->cfg.dram_size > at + fixed ? f->cfg.dram_size - at - fixed : 0;
  uint64_t cap = left / 24; /* 16 bytes per entry, at most 8 of index */
  if (cap > f->cfg.logical_lbas) cap = f->cfg.logical_lbas;
  if (cap < 64) {
    hal_logf(f->hal, HAL_LOG_ERROR,
             "ftl: recovery needs %llu bytes of DRAM above the tables and room for its LBAs, %llu available "
             "(raise dram.size)",
             (unsigned long long)fixed, (unsigned long long)(f->cfg.dram_size > at ? f->cfg.dram_size - at : 0));
    return -1;
  }
  r->cap = (uint32_t)cap;
  r->hbits = 1;
  while ((1ull << r->hbits) < cap) r->hbits++;
  void *w[10];
  const uint64_t bytes[10] = {pages * 4, m->tps * 4ull, m->tps * 4ull, m->tps * 4ull, f->total_blocks,
                              cap * 4,   cap * 4,       cap * 4,       cap * 4,       (1ull << r->hbits) * 4};
  for (int i = 0; i < 10; ++i) {
    w[i] = hal_dram(f->hal, (uint32_t)(f->cfg.dram_base + at), (uint32_t)bytes[i]);
    if (!w[i]) return -1;
    at = (at + bytes[i] + 63) & ~(uint64_t)63;
  }
  r->rseq = w[0];
  r->tseq = w[1];
  r->chead = w[2];
  r->whead = w[3];
  *cls = w[4];
  r->c_lpn = w[5];
  r->c_ppa = w[6];
  r->c_tnext = w[7];
  r->c_hnext = w[8];
  r->hhead = w[9];
  memset(r->rseq, 0, (size_t)pages * 4);
  memset(r->tseq, 0, (size_t)m->tps * 4);
  memset(r->chead, 0xff, (size_t)m->tps * 4);
  memset(r->whead, 0xff, (size_t)m->tps * 4);
  memset(*cls, RC_FREE, f->total_blocks);
  memset(r->hhead, 0xff, ((size_t)1 << r->hbits) * 4);
  return 0;
}

int cmt_recover(struct ftl *f) {
  struct cmt *m = &f->cmt;
  const uint64_t t0 = hal_time_ns(f->hal);
  struct cmt_rec r;
  struct rscan sc;
  memset(&r, 0, sizeof r);
  memset(&sc, 0, sizeof sc);
  if (rec_carve(f, &r, &sc.cls)) return -1;
  sc.r = &r;
  m->rec = &r;
  for (uint64_t i = 0; i < (uint64_t)m->rblocks * f->cfg.pages_per_block; ++i) m->rtp[i] = FTL_NONE;
  int rc = rs_pass(f, &sc, RP_PROBE) || rs_pass(f, &sc, RP_DATA);
  if (!rc) { /* blocks: data ones written closed, then the region */
    for (uint32_t blk = 0; blk < f->total_blocks; ++blk) {
      if (sc.cls[blk] != RC_DATA || f->blk_wp[blk] == 0) continue;
      block_set_state(f, blk, BLK_OPEN);
      f->blk_wp[blk] = (uint16_t)f->cfg.pages_per_block;
      block_set_state(f, blk, BLK_CLOSED);
    }
    rc = cmt_rec_region(f, sc.found);
  }
  if (!rc) { /* round 1: every page with a copy or candidates */
    f->seq = sc.max_seq;
    memset(r.hhead, 0xff, ((size_t)1 << r.hbits) * 4); /* the index now finds wants only */
    r.round = 1;
    for (uint32_t tp = 0; tp < m->tps; ++tp)
      if (m->gtd[tp] != FTL_NONE || r.chead[tp] != FTL_NONE) cmt_rec_flag(f, tp);
    rc = fix_pages(f);
  }
  if (!rc && r.wants) { /* round 2: the newest older copies of what round 1 dropped */
    rc = rs_pass(f, &sc, RP_WANTS);
    r.round = 2;
    for (uint32_t tp = 0; tp < m->tps && !rc; ++tp)
      for (uint32_t c = r.whead[tp]; c != FTL_NONE; c = r.c_tnext[c])
        if (r.c_ppa[c] != FTL_NONE) {
          cmt_rec_flag(f, tp);
          f->stats.recovery_dropped--; /* found after all */
        }
    if (!rc) rc = fix_pages(f);
  }
  m->rec = NULL;
  if (rc || f->fatal) return -1;
  f->stats.free_blocks_min = f->free_total;
  f->gc_pending = 1;
  f->stats.recovery_ns = hal_time_ns(f->hal) - t0;
  hal_logf(f->hal, HAL_LOG_INFO,
           "ftl: recovered %llu LBAs of the cached mapping from %llu pages (%llu torn), %" PRIu32
           " translation blocks found, %" PRIu32 " LBAs newer than their translation page, %" PRIu32
           " looked for again, %" PRIu32 " free blocks",
           (unsigned long long)f->stats.recovery_lbas, (unsigned long long)f->stats.recovery_pages,
           (unsigned long long)f->stats.recovery_torn, sc.found, r.used - r.wants, r.wants, f->free_total);
  return 0;
}
