/*
 * cmt.c - the cached mapping table of ftl.mapping: cached (DFTL; cmt.h says
 * what is kept where).
 *
 * Lookups (map_ready): a cached entry is a hit and becomes the most recent;
 * otherwise the access waits while its translation page is read (a miss),
 * unless the page was never written (a cold miss: nothing to read, the entry
 * is made at once). When the read completes, the entries the waiting
 * commands need next from that page are loaded (at most half the cache), and
 * the loop retries them at once.
 * Updates (map_set, map_trim): a cached entry becomes dirty; an entry that is
 * not cached (relocation by data GC, trims) has its translation page
 * read-modify-written, as DFTL does for GC (several updates of one page while
 * it waits are one write).
 * Eviction: the least recent entry; a dirty one causes a read-modify-write of
 * its translation page, which cleans every dirty cached entry of that page
 * (batching). The evicting access does not wait for it (the entries it
 * writes are copied into the operation's buffer).
 * One operation per translation page at a time; cmt_buffers of them in
 * flight, the last buffer kept for translation GC.
 * Translation region: cmt_translation_blocks blocks taken from the free
 * blocks at start; pages are programmed in order on one open block; when one
 * free block is left, translation GC takes the block with the fewest current
 * translation pages, rewrites them (read, program) and erases it. Ordinary
 * write-backs never take the last free block, nor rows of it once it is
 * open; GC's moves may.
 */
#include <stdio.h>
#include <string.h>

#include "ftl_internal.h"

static uint32_t tp_entries_of(const struct ftl_config *c) {
  return c->cmt_tp_entries ? c->cmt_tp_entries : c->slots_per_page * 1024u;
}
static uint32_t tps_of(const struct ftl_config *c) {
  const uint64_t e = tp_entries_of(c);
  return (uint32_t)((c->logical_lbas + e - 1) / e);
}
static uint32_t entries_of(const struct ftl_config *c) {
  return c->cmt_entries < c->logical_lbas ? c->cmt_entries : (uint32_t)c->logical_lbas;
}
static uint32_t blocks_needed(const struct ftl_config *c) {
  return (tps_of(c) + c->pages_per_block - 1) / c->pages_per_block;
}
static uint32_t rblocks_of(const struct ftl_config *c) {
  return c->cmt_translation_blocks ? c->cmt_translation_blocks : 2 * blocks_needed(c) + 2;
}
static uint32_t qsize_of(const struct ftl_config *c) {
  uint32_t p = 1;
  while (p < tps_of(c) + 1) p <<= 1;
  return p;
}
static uint32_t stride_of(const struct ftl_config *c) { return (FC_PAGE_BUF_BYTES(c->slots_per_page) + 63) & ~63u; }

/* Offsets of the tables, for sizing and carving. */
struct cmt_lay {
  uint64_t where, lpn, prev, next, gen, gtd, tgen, tdirty, tflags, queue;
  uint64_t rblk, rvalid, rwp, rtp, rindex, rfree, ops, bufs, end;
};
static uint64_t lay_take(uint64_t *off, uint64_t bytes) {
  const uint64_t at = (*off + 63) & ~(uint64_t)63;
  *off = at + bytes;
  return at;
}
static void lay_out(const struct ftl_config *c, struct cmt_lay *l) {
  uint64_t o = 0;
  const uint64_t e = entries_of(c), t = tps_of(c), r = rblocks_of(c);
  const uint64_t blocks = (uint64_t)c->channels * c->dies_per_channel * c->blocks_per_die;
  l->where = lay_take(&o, c->logical_lbas * 4);
  l->lpn = lay_take(&o, e * 4);
  l->prev = lay_take(&o, e * 4);
  l->next = lay_take(&o, e * 4);
  l->gen = lay_take(&o, e * 4);
  l->gtd = lay_take(&o, t * 4);
  l->tgen = lay_take(&o, t * 4);
  l->tdirty = lay_take(&o, t * 4);
  l->tflags = lay_take(&o, t);
  l->queue = lay_take(&o, (uint64_t)qsize_of(c) * 8);
  l->rblk = lay_take(&o, r * 4);
  l->rvalid = lay_take(&o, r * 4);
  l->rwp = lay_take(&o, r * 4);
  l->rtp = lay_take(&o, r * c->pages_per_block * 4);
  l->rindex = lay_take(&o, blocks * 4);
  l->rfree = lay_take(&o, r * 4);
  l->ops = lay_take(&o, (uint64_t)c->cmt_buffers * sizeof(struct cmt_op));
  l->bufs = lay_take(&o, (uint64_t)c->cmt_buffers * stride_of(c));
  l->end = o;
}

uint64_t cmt_dram_bytes(const struct ftl_config *c) {
  if (c->mapping != FTL_MAP_CACHED) return 0;
  struct cmt_lay l;
  lay_out(c, &l);
  return l.end + 64; /* alignment of the start */
}

uint32_t cmt_region_blocks(const struct ftl_config *c) { return c->mapping == FTL_MAP_CACHED ? rblocks_of(c) : 0; }

uint32_t cmt_flash_slots(const struct ftl_config *c) { return c->mapping == FTL_MAP_CACHED ? c->cmt_buffers + 1 : 0; }

int cmt_config_check(const struct ftl_config *c, char *msg, size_t msg_len) {
  if (c->mapping != FTL_MAP_CACHED) return 0;
  const uint64_t blocks = (uint64_t)c->channels * c->dies_per_channel * c->blocks_per_die;
  const uint32_t need = blocks_needed(c), r = rblocks_of(c);
  if (r < need + 2) {
    snprintf(msg, msg_len,
             "ftl.cmt.translation_blocks: %" PRIu32 " blocks cannot hold %" PRIu32
             " translation pages with room for their GC (at least %" PRIu32 ")",
             r, tps_of(c), need + 2);
    return -1;
  }
  if ((uint64_t)r * 4 > blocks) {
    snprintf(msg, msg_len,
             "ftl.cmt.translation_blocks: %" PRIu32
             " translation blocks exceed a quarter of the %llu blocks "
             "(raise ftl.cmt.tp_entries or shrink the namespace)",
             r, (unsigned long long)blocks);
    return -1;
  }
  if (c->cmt_tp_entries && c->cmt_tp_entries > c->logical_lbas) {
    snprintf(msg, msg_len, "ftl.cmt.tp_entries: %" PRIu32 " entries per translation page exceed the namespace",
             c->cmt_tp_entries);
    return -1;
  }
  return 0;
}

/* ---- the cache of entries --------------------------------------------------------- */

static int entry_dirty(const struct cmt *m, uint32_t e) {
  const uint32_t tp = m->e_lpn[e] / m->tp_entries;
  return (m->e_gen[e] & CMT_DIRTY) && (m->e_gen[e] & CMT_GEN_MASK) == (m->tp_gen[tp] & CMT_GEN_MASK);
}

static void lru_unlink(struct cmt *m, uint32_t e) {
  const uint32_t p = m->e_prev[e], n = m->e_next[e];
  if (p != FTL_NONE)
    m->e_next[p] = n;
  else
    m->lru_head = n;
  if (n != FTL_NONE)
    m->e_prev[n] = p;
  else
    m->lru_tail = p;
}

static void lru_push(struct cmt *m, uint32_t e) {
  m->e_prev[e] = FTL_NONE;
  m->e_next[e] = m->lru_head;
  if (m->lru_head != FTL_NONE) m->e_prev[m->lru_head] = e;
  m->lru_head = e;
  if (m->lru_tail == FTL_NONE) m->lru_tail = e;
}

static void tp_request(struct ftl *f, uint32_t tp, uint8_t want) {
  struct cmt *m = &f->cmt;
  uint8_t *fl = &m->tp_flags[tp];
  *fl |= want;
  if (*fl & CMT_TP_BUSY) return; /* the operation running on it goes on with it */
  int ring;
  if ((*fl & CMT_TP_WANT_READ) && !(*fl & CMT_TP_INQ_MISS)) {
    ring = 1;
    *fl |= CMT_TP_INQ_MISS;
  } else if (!(*fl & (CMT_TP_INQ_WB | CMT_TP_INQ_MISS))) {
    ring = 0;
    *fl |= CMT_TP_INQ_WB;
  } else {
    return; /* merged with the request waiting */
  }
  m->queue[(uint64_t)ring * m->qsize + m->qtail[ring]] = tp;
  m->qtail[ring] = (m->qtail[ring] + 1) & (m->qsize - 1);
}

/* The next page of the rings (misses first) that wants an operation and has
 * none running, or FTL_NONE. */
static uint32_t tp_next(struct ftl *f) {
  struct cmt *m = &f->cmt;
  for (int ring = 1; ring >= 0; --ring)
    while (m->qhead[ring] != m->qtail[ring]) {
      const uint32_t tp = m->queue[(uint64_t)ring * m->qsize + m->qhead[ring]];
      m->qhead[ring] = (m->qhead[ring] + 1) & (m->qsize - 1);
      m->tp_flags[tp] &= (uint8_t) ~(ring ? CMT_TP_INQ_MISS : CMT_TP_INQ_WB);
      if (!(m->tp_flags[tp] & CMT_TP_BUSY) && (m->tp_flags[tp] & (CMT_TP_WANT_READ | CMT_TP_WANT_WB))) return tp;
    }
  return FTL_NONE;
}

/* A write-back of tp: every dirty cached entry of tp is clean from now on. */
static void tp_writeback(struct ftl *f, uint32_t tp) {
  struct cmt *m = &f->cmt;
  f->stats.tp_writeback_entries += m->tp_dirty[tp];
  m->tp_dirty[tp] = 0;
  m->tp_gen[tp]++;
  tp_request(f, tp, CMT_TP_WANT_WB);
}

static void entry_insert(struct ftl *f, uint32_t lpn, uint32_t flags) {
  struct cmt *m = &f->cmt;
  uint32_t e;
  if (m->used < m->entries) {
    e = m->used++;
  } else {
    e = m->lru_tail;
    const uint32_t old = m->e_lpn[e];
    f->stats.cmt_evictions++;
    if (entry_dirty(m, e)) {
      f->stats.cmt_dirty_evictions++;
      tp_writeback(f, old / m->tp_entries);
    }
    m->where[old] = FTL_NONE;
    lru_unlink(m, e);
  }
  m->e_lpn[e] = lpn;
  m->e_gen[e] = flags;
  m->where[lpn] = e;
  lru_push(m, e);
}

int cmt_lookup(struct ftl *f, uint32_t lpn) {
  struct cmt *m = &f->cmt;
  const uint32_t e = m->where[lpn];
  if (e != FTL_NONE) {
    if (m->e_gen[e] & CMT_LOADED) {
      m->e_gen[e] &= ~CMT_LOADED;
      f->stats.cmt_misses++;
    } else if (lpn != m->last_lpn) { /* not the same access again after a yield or a wait for a buffer */
      f->stats.cmt_hits++;
    }
    m->last_lpn = lpn;
    lru_unlink(m, e);
    lru_push(m, e);
    return 1;
  }
  const uint32_t tp = lpn / m->tp_entries;
  if (m->gtd[tp] == FTL_NONE && !(m->tp_flags[tp] & CMT_TP_BUSY)) {
    /* Never written: its entries are unmapped, or dirty in the cache or in a
     * write-back buffer; no flash read. */
    f->stats.cmt_misses++;
    f->stats.cmt_cold_misses++;
    entry_insert(f, lpn, 0);
    m->last_lpn = lpn;
    return 1;
  }
  tp_request(f, tp, CMT_TP_WANT_READ);
  return 0;
}

void cmt_update(struct ftl *f, uint32_t lpn) {
  struct cmt *m = &f->cmt;
  const uint32_t e = m->where[lpn], tp = lpn / m->tp_entries;
  if (e == FTL_NONE) {
    f->stats.tp_gc_updates++;
    tp_writeback(f, tp);
    return;
  }
  if (entry_dirty(m, e)) return;
  m->e_gen[e] = (m->e_gen[e] & CMT_LOADED) | CMT_DIRTY | (m->tp_gen[tp] & CMT_GEN_MASK);
  m->tp_dirty[tp]++;
}

/* Loads, from translation page tp just read, the entries the waiting
 * commands need next (their remaining LBAs in tp), at most half the cache so
 * that none evicts another. */
static int load_waiters(struct ftl *f, uint32_t tp) {
  struct cmt *m = &f->cmt;
  const uint64_t lo = (uint64_t)tp * m->tp_entries, hi = lo + m->tp_entries;
  uint32_t budget = m->entries / 2 ? m->entries / 2 : 1;
  int loaded = 0;
  for (uint32_t c = f->wait_head; c != FTL_NONE && budget; c = f->cmds[c].next) {
    const struct fw_cmd *cmd = &f->cmds[c];
    if (cmd->opcode != NVME_OP_READ && cmd->opcode != NVME_OP_WRITE) continue;
    uint64_t a = cmd->slba + cmd->progress, b = cmd->slba + cmd->nlb;
    if (a < lo) a = lo;
    if (b > hi) b = hi;
    for (; a < b && budget; ++a) {
      if (m->where[a] != FTL_NONE) continue;
      entry_insert(f, (uint32_t)a, CMT_LOADED);
      --budget;
      loaded = 1;
    }
  }
  return loaded;
}

/* ---- translation region ------------------------------------------------------------ */

static uint32_t region_of_row(const struct ftl *f, uint32_t row) { return f->cmt.rindex[row_block(f, row)]; }

/* The next row of the translation frontier, or FTL_NONE. Only GC's moves
 * (last) may open the last free block. */
static uint32_t row_alloc(struct ftl *f, int last) {
  struct cmt *m = &f->cmt;
  const uint32_t ppb = f->cfg.pages_per_block;
  if (!last && m->nfree == 0) return FTL_NONE; /* the open block is GC's last one */
  if (m->open == FTL_NONE) {
    if (m->nfree == 0 || (!last && m->nfree <= 1)) return FTL_NONE;
    m->open = m->rfree[--m->nfree];
    m->rwp[m->open] = 0;
  }
  const uint32_t r = m->open, page = m->rwp[r]++;
  if (m->rwp[r] == ppb) m->open = FTL_NONE;
  hal_charge(f->hal, FW_OP_page_alloc, 1);
  return m->rblk[r] * ppb + page;
}

static void op_finish(struct ftl *f, uint32_t o) {
  struct cmt *m = &f->cmt;
  struct cmt_op *op = &m->ops[o];
  const uint32_t tp = op->tp;
  op->state = CMT_OP_FREE;
  m->tp_flags[tp] &= (uint8_t)~CMT_TP_BUSY;
  if (m->tp_flags[tp] & (CMT_TP_WANT_READ | CMT_TP_WANT_WB)) tp_request(f, tp, 0); /* asked for meanwhile */
}

/* Programs op's translation page on the next row (CMT_OP_ROWWAIT if none). */
static void op_program(struct ftl *f, uint32_t o) {
  struct cmt *m = &f->cmt;
  struct cmt_op *op = &m->ops[o];
  const uint32_t S = f->cfg.slots_per_page, old = m->gtd[op->tp];
  const int last = op->tgc || (m->victim != FTL_NONE && old != FTL_NONE && region_of_row(f, old) == m->victim);
  const uint32_t row = row_alloc(f, last);
  if (row == FTL_NONE) {
    if (op->state != CMT_OP_ROWWAIT) m->rowwait++;
    op->state = CMT_OP_ROWWAIT;
    return;
  }
  if (op->state == CMT_OP_ROWWAIT) m->rowwait--;
  if (old != FTL_NONE) m->rvalid[region_of_row(f, old)]--;
  const uint32_t r = region_of_row(f, row);
  m->gtd[op->tp] = row;
  m->rvalid[r]++;
  m->rtp[(uint64_t)r * f->cfg.pages_per_block + row % f->cfg.pages_per_block] = op->tp;
  for (uint32_t s = 0; s < S; ++s) {
    op->token[s] = op->tp;             /* the page's contents stand in f->l2p (cmt.h) */
    op->token[S + s] = SSDVP_LPN_NONE; /* no LBA: the OOB scan of recovery skips it */
  }
  op->token[2 * (size_t)S] = ++f->seq;
  op->state = CMT_OP_PROGRAM;
  f->stats.tp_writes++;
  if (op->tgc) f->stats.tgc_moves++;
  m->inflight++;
  flash_submit(f, FC_OP_PROGRAM, TAG(TAG_TRANS, o), row, 0, op->dram);
}

static void op_read_done(struct ftl *f, uint32_t o, int *loaded) {
  struct cmt *m = &f->cmt;
  struct cmt_op *op = &m->ops[o];
  if (m->tp_flags[op->tp] & CMT_TP_WANT_READ) {
    m->tp_flags[op->tp] &= (uint8_t)~CMT_TP_WANT_READ;
    *loaded |= load_waiters(f, op->tp);
  }
  if (op->wb)
    op_program(f, o);
  else
    op_finish(f, o);
}

static void op_start(struct ftl *f, uint32_t o, uint32_t tp, int tgc, int *loaded) {
  struct cmt *m = &f->cmt;
  struct cmt_op *op = &m->ops[o];
  op->tp = tp;
  op->tgc = (uint8_t)tgc;
  op->wb = (uint8_t)(tgc || (m->tp_flags[tp] & CMT_TP_WANT_WB));
  m->tp_flags[tp] = (uint8_t)((m->tp_flags[tp] & ~CMT_TP_WANT_WB) | CMT_TP_BUSY);
  if (m->gtd[tp] == FTL_NONE) { /* nothing on flash to read */
    op->state = CMT_OP_READ;
    op_read_done(f, o, loaded);
    return;
  }
  op->state = CMT_OP_READ;
  const uint32_t S = f->cfg.slots_per_page;
  f->stats.tp_reads++;
  m->inflight++;
  flash_submit(f, FC_OP_READ, TAG(TAG_TRANS, o), m->gtd[tp], S >= 32 ? 0xffffffffu : (1u << S) - 1, op->dram);
}

/* Translation GC: a victim when one free block is left; its current
 * translation pages rewritten (merged into an operation already running on
 * one); its erase once none is left. */
static void tgc_step(struct ftl *f, int *loaded) {
  struct cmt *m = &f->cmt;
  const uint32_t ppb = f->cfg.pages_per_block;
  if (m->victim == FTL_NONE) {
    if (m->nfree > 1) return;
    uint32_t best = FTL_NONE;
    for (uint32_t r = 0; r < m->rblocks; ++r) {
      if (r == m->open || m->rwp[r] < ppb || m->rindex[m->rblk[r]] != r) continue;
      if (best == FTL_NONE || m->rvalid[r] < m->rvalid[best]) best = r;
    }
    hal_charge(f->hal, FW_OP_gc_victim_select, 1);
    if (best == FTL_NONE || m->rvalid[best] == ppb) return; /* nothing to gain */
    m->victim = best;
    m->vpage = 0;
    f->stats.tgc_victims++;
  }
  const uint32_t v = m->victim, gcop = m->nops - 1;
  while (m->vpage < ppb) {
    const uint32_t row = m->rblk[v] * ppb + m->vpage, tp = m->rtp[(uint64_t)v * ppb + m->vpage];
    if (tp != FTL_NONE && m->gtd[tp] == row) {
      if (m->tp_flags[tp] & CMT_TP_BUSY) { /* an operation reads it: it writes it elsewhere too */
        for (uint32_t o = 0; o < m->nops; ++o)
          if (m->ops[o].state != CMT_OP_FREE && m->ops[o].tp == tp) m->ops[o].wb = 1;
      } else if (m->ops[gcop].state == CMT_OP_FREE) {
        op_start(f, gcop, tp, 1, loaded);
      } else {
        return;
      }
    }
    m->vpage++;
  }
  if (m->rvalid[v] == 0 && !m->erasing) {
    m->erasing = 1;
    m->inflight++;
    flash_submit(f, FC_OP_ERASE, TAG(TAG_TRANS, m->nops), m->rblk[v], 0, 0);
  }
}

static void erase_done(struct ftl *f, int status) {
  struct cmt *m = &f->cmt;
  const uint32_t v = m->victim, blk = m->rblk[v];
  m->erasing = 0;
  m->victim = FTL_NONE;
  for (uint32_t p = 0; p < f->cfg.pages_per_block; ++p) m->rtp[(uint64_t)v * f->cfg.pages_per_block + p] = FTL_NONE;
  if (status == FC_ERR_ERASE_FAIL) { /* the region shrinks by one; the block stays out of use */
    f->stats.erase_failures++;
    m->rindex[blk] = FTL_NONE;
    hal_logf(f->hal, HAL_LOG_INFO, "ftl: erase of translation block %" PRIu32 " failed: retired", blk);
    return;
  }
  f->stats.tgc_erases++;
  f->blk_erase[blk]++;
  m->rwp[v] = 0;
  m->rfree[m->nfree++] = v;
}

int cmt_pump(struct ftl *f) {
  struct cmt *m = &f->cmt;
  if (!m->on) return 0;
  int loaded = 0;
  if (m->rowwait)
    for (uint32_t o = 0; o < m->nops; ++o)
      if (m->ops[o].state == CMT_OP_ROWWAIT) op_program(f, o);
  tgc_step(f, &loaded);
  for (uint32_t o = 0; o + 1 < m->nops; ++o) {
    if (m->ops[o].state != CMT_OP_FREE) continue;
    const uint32_t tp = tp_next(f);
    if (tp == FTL_NONE) break;
    op_start(f, o, tp, 0, &loaded);
  }
  return loaded;
}

int cmt_flash_done(struct ftl *f, const struct fc_cqe *c) {
  struct cmt *m = &f->cmt;
  const uint32_t o = TAG_IDX(c->tag);
  int loaded = 0;
  m->inflight--;
  if (o == m->nops) {
    erase_done(f, c->status);
    return 0;
  }
  if (o > m->nops) {
    hal_logf(f->hal, HAL_LOG_ERROR, "ftl: translation completion for operation %" PRIu32 " of %" PRIu32, o, m->nops);
    f->fatal = 1;
    return 0;
  }
  struct cmt_op *op = &m->ops[o];
  if (op->state == CMT_OP_READ) {
    if (c->status == FC_ERR_UNCORRECTABLE) {
      f->stats.uncorrectable_reads++; /* the model goes on with the contents it keeps (cmt.h) */
      hal_logf(f->hal, HAL_LOG_WARN, "ftl: translation page %" PRIu32 " read uncorrectable", op->tp);
    } else if (c->status != FC_OK) {
      f->stats.flash_errors++;
    }
    op_read_done(f, o, &loaded);
  } else if (op->state == CMT_OP_PROGRAM) {
    if (c->status == FC_ERR_PROGRAM_FAIL) { /* the page is consumed: write it on the next row */
      f->stats.program_failures++;
      op_program(f, o);
    } else {
      if (c->status != FC_OK) f->stats.flash_errors++;
      op_finish(f, o);
    }
  } else {
    hal_logf(f->hal, HAL_LOG_ERROR, "ftl: translation completion for idle operation %" PRIu32, o);
    f->fatal = 1;
  }
  return loaded;
}

int cmt_busy(const struct ftl *f) {
  const struct cmt *m = &f->cmt;
  return m->on && (m->inflight || m->qhead[0] != m->qtail[0] || m->qhead[1] != m->qtail[1] || m->rowwait);
}

/* ---- set-up --------------------------------------------------------------------------- */

static void *cwin(struct ftl *f, uint64_t off, uint64_t bytes) {
  return hal_dram(f->hal, (uint32_t)(f->cfg.dram_base + off), (uint32_t)(bytes ? bytes : 1));
}

/* The translation region: free blocks, or after recovery (used) closed
 * blocks without valid data first - the old translation blocks are such -
 * which join it full and empty, so that translation GC erases them. */
static int region_take(struct ftl *f, int used) {
  struct cmt *m = &f->cmt;
  const uint32_t ppb = f->cfg.pages_per_block;
  uint32_t scan = 0;
  m->nfree = 0;
  m->open = m->victim = FTL_NONE;
  m->erasing = 0;
  for (uint64_t i = 0; i < (uint64_t)m->rblocks * ppb; ++i) m->rtp[i] = FTL_NONE;
  for (uint32_t r = 0; r < m->rblocks; ++r) {
    uint32_t blk = FTL_NONE;
    for (; used && scan < f->total_blocks && blk == FTL_NONE; ++scan)
      if (f->blk_state[scan] == BLK_CLOSED && f->blk_valid[scan] == 0 && m->rindex[scan] == FTL_NONE) {
        blk = scan;
        block_set_state(f, blk, BLK_VICTIM); /* out of data GC's candidates for good */
      }
    if (blk != FTL_NONE) {
      m->rblk[r] = blk;
      m->rindex[blk] = r;
      m->rvalid[r] = 0;
      m->rwp[r] = ppb;
      continue;
    }
    for (uint32_t k = 0; k < f->dies && blk == FTL_NONE; ++k) blk = block_take_free(f, (r + k) % f->dies, WEAR_HIGHEST);
    if (blk == FTL_NONE) {
      hal_logf(f->hal, HAL_LOG_ERROR, "ftl: no free block left for translation block %" PRIu32, r);
      return -1;
    }
    m->rblk[r] = blk;
    m->rindex[blk] = r;
    m->rvalid[r] = 0;
    m->rwp[r] = 0;
    m->rfree[m->nfree++] = r;
  }
  for (uint32_t i = 0; i < m->nfree / 2; ++i) { /* used in order */
    const uint32_t t = m->rfree[i];
    m->rfree[i] = m->rfree[m->nfree - 1 - i];
    m->rfree[m->nfree - 1 - i] = t;
  }
  return 0;
}

int cmt_init(struct ftl *f, uint64_t off, int reserve) {
  struct cmt *m = &f->cmt;
  const struct ftl_config *c = &f->cfg;
  memset(m, 0, sizeof *m);
  if (c->mapping != FTL_MAP_CACHED) return 0;
  struct cmt_lay l;
  lay_out(c, &l);
  off = (off + 63) & ~(uint64_t)63;
  m->on = 1;
  m->entries = entries_of(c);
  m->tp_entries = tp_entries_of(c);
  m->tps = tps_of(c);
  m->rblocks = rblocks_of(c);
  m->nops = c->cmt_buffers;
  m->qsize = qsize_of(c);
  m->where = cwin(f, off + l.where, c->logical_lbas * 4);
  m->e_lpn = cwin(f, off + l.lpn, (uint64_t)m->entries * 4);
  m->e_prev = cwin(f, off + l.prev, (uint64_t)m->entries * 4);
  m->e_next = cwin(f, off + l.next, (uint64_t)m->entries * 4);
  m->e_gen = cwin(f, off + l.gen, (uint64_t)m->entries * 4);
  m->gtd = cwin(f, off + l.gtd, (uint64_t)m->tps * 4);
  m->tp_gen = cwin(f, off + l.tgen, (uint64_t)m->tps * 4);
  m->tp_dirty = cwin(f, off + l.tdirty, (uint64_t)m->tps * 4);
  m->tp_flags = cwin(f, off + l.tflags, m->tps);
  m->queue = cwin(f, off + l.queue, (uint64_t)m->qsize * 4);
  m->rblk = cwin(f, off + l.rblk, (uint64_t)m->rblocks * 4);
  m->rvalid = cwin(f, off + l.rvalid, (uint64_t)m->rblocks * 4);
  m->rwp = cwin(f, off + l.rwp, (uint64_t)m->rblocks * 4);
  m->rtp = cwin(f, off + l.rtp, (uint64_t)m->rblocks * c->pages_per_block * 4);
  m->rindex = cwin(f, off + l.rindex, (uint64_t)f->total_blocks * 4);
  m->rfree = cwin(f, off + l.rfree, (uint64_t)m->rblocks * 4);
  m->ops = cwin(f, off + l.ops, (uint64_t)m->nops * sizeof(struct cmt_op));
  if (!m->where || !m->e_lpn || !m->e_prev || !m->e_next || !m->e_gen || !m->gtd || !m->tp_gen || !m->tp_dirty ||
      !m->tp_flags || !m->queue || !m->rblk || !m->rvalid || !m->rwp || !m->rtp || !m->rindex || !m->rfree || !m->ops) {
    hal_logf(f->hal, HAL_LOG_ERROR, "ftl: cached mapping tables not accessible");
    return -1;
  }
  memset(m->where, 0xff, c->logical_lbas * 4);
  memset(m->gtd, 0xff, (size_t)m->tps * 4);
  memset(m->tp_gen, 0, (size_t)m->tps * 4);
  memset(m->tp_dirty, 0, (size_t)m->tps * 4);
  memset(m->tp_flags, 0, m->tps);
  memset(m->rindex, 0xff, (size_t)f->total_blocks * 4);
  m->lru_head = m->lru_tail = FTL_NONE;
  const uint32_t stride = stride_of(c);
  for (uint32_t o = 0; o < m->nops; ++o) {
    struct cmt_op *op = &m->ops[o];
    memset(op, 0, sizeof *op);
    op->dram = (uint32_t)(c->dram_base + off + l.bufs + (uint64_t)o * stride);
    op->token = cwin(f, off + l.bufs + (uint64_t)o * stride, stride);
    if (!op->token) return -1;
  }
  m->open = m->victim = m->last_lpn = FTL_NONE;
  if (reserve && region_take(f, 0)) return -1;
  hal_logf(f->hal, HAL_LOG_INFO,
           "ftl: cached mapping: %" PRIu32 " entries, %" PRIu32 " translation pages of %" PRIu32 " entries, %" PRIu32
           " translation blocks",
           m->entries, m->tps, m->tp_entries, m->rblocks);
  return 0;
}

int cmt_after_recovery(struct ftl *f) {
  struct cmt *m = &f->cmt;
  if (!m->on) return 0;
  if (region_take(f, 1)) return -1;
  for (uint32_t tp = 0; tp < m->tps; ++tp) {
    const uint64_t lo = (uint64_t)tp * m->tp_entries;
    const uint64_t hi = lo + m->tp_entries < f->cfg.logical_lbas ? lo + m->tp_entries : f->cfg.logical_lbas;
    for (uint64_t l = lo; l < hi; ++l)
      if (f->l2p[l] != FTL_UNMAPPED) {
        tp_request(f, tp, CMT_TP_WANT_WB);
        break;
      }
  }
  return 0;
}

uint64_t cmt_self_check(const struct ftl *f) {
  const struct cmt *m = &f->cmt;
  if (!m->on) return 0;
  uint64_t bad = 0;
  const uint32_t ppb = f->cfg.pages_per_block;
  for (uint32_t r = 0; r < m->rblocks; ++r) {
    if (m->rindex[m->rblk[r]] != r) continue; /* retired */
    uint32_t n = 0;
    for (uint32_t p = 0; p < ppb; ++p) {
      const uint32_t tp = m->rtp[(uint64_t)r * ppb + p];
      n += tp != FTL_NONE && m->gtd[tp] == m->rblk[r] * ppb + p;
    }
    if (n != m->rvalid[r]) ++bad;
  }
  for (uint32_t e = 0; e < m->used; ++e)
    if (m->where[m->e_lpn[e]] != e) ++bad;
  return bad;
}
