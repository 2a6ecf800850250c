/*
 * cmt.c - the cached mapping table of ftl.mapping: cached (DFTL; cmt.h says
 * what is kept where).
 *
 * Lookups (map_ready): a cached entry is a hit and becomes the most recent;
 * otherwise the access waits while its translation page is read (a miss),
 * unless the entry is known without a read: pending in the log, or on a page
 * never written (a cold miss: unmapped). When the read completes, the entries
 * the waiting commands need next from that page are loaded from its bytes (at
 * most half the cache), and the loop retries them at once.
 * Updates (map_set, map_trim): a cached entry becomes dirty; an entry that is
 * not cached (relocation by data GC, trims) goes into the log of pending
 * updates and has its translation page read-modify-written, as DFTL does for
 * GC (several updates of one page while it waits are one write). A full log
 * holds placement and deallocation until a write-back has emptied some of it.
 * Eviction: the least recent entry; a dirty one goes into the log and causes a
 * read-modify-write of its translation page, which writes every dirty cached
 * entry of that page too (batching). The evicting access does not wait for it.
 * The merge (when the read of a write-back completes): the page's bytes, then
 * its pending updates from the log (which leave the log), then its cached
 * entries (dirty ones become clean); the buffer is programmed as the new copy.
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
static uint32_t lanes_of(const struct ftl_config *c) {
  const uint32_t dies = c->channels * c->dies_per_channel;
  return c->cmt_stripe && c->cmt_stripe < dies ? c->cmt_stripe : dies;
}
static uint32_t rblocks_of(const struct ftl_config *c) {
  return c->cmt_translation_blocks ? c->cmt_translation_blocks : 2 * blocks_needed(c) + 1 + lanes_of(c);
}
static uint32_t qsize_of(const struct ftl_config *c) {
  uint32_t p = 1;
  while (p < tps_of(c) + 1) p <<= 1;
  return p;
}
static uint32_t bits_for(uint32_t n) {
  uint32_t b = 1;
  while (b < 31 && (1u << b) < n) ++b;
  return b;
}
static uint32_t log_total_of(const struct ftl_config *c) { return c->cmt_log_entries + 4 * c->slots_per_page + 8; }
static uint32_t stride_of(const struct ftl_config *c) { return (FC_PAGE_BUF_BYTES(c->slots_per_page) + 63) & ~63u; }
static uint32_t ent_stride_of(const struct ftl_config *c) { return (tp_entries_of(c) * 4u + 63) & ~63u; }

/* Offsets of the tables, for sizing and carving. */
struct cmt_lay {
  uint64_t hhead, hnext, lpn, ppa, prev, next, flags, gtd, tdirty, tlog, tflags, queue;
  uint64_t lhead, llpn, lval, lhnext, ltnext, lflags;
  uint64_t rblk, rvalid, rwp, rtp, rindex, rfree, lopen, ops, bufs, ents, end;
};
static uint64_t lay_take(uint64_t *off, uint64_t bytes) {
  const uint64_t at = (*off + 63) & ~(uint64_t)63;
  *off = at + bytes;
  return at;
}
static void lay_out(const struct ftl_config *c, struct cmt_lay *l) {
  uint64_t o = 0;
  const uint64_t e = entries_of(c), t = tps_of(c), r = rblocks_of(c), lt = log_total_of(c);
  const uint64_t blocks = (uint64_t)c->channels * c->dies_per_channel * c->blocks_per_die;
  l->hhead = lay_take(&o, ((uint64_t)1 << bits_for(entries_of(c))) * 4);
  l->hnext = lay_take(&o, e * 4);
  l->lpn = lay_take(&o, e * 4);
  l->ppa = lay_take(&o, e * 4);
  l->prev = lay_take(&o, e * 4);
  l->next = lay_take(&o, e * 4);
  l->flags = lay_take(&o, e * 4);
  l->gtd = lay_take(&o, t * 4);
  l->tdirty = lay_take(&o, t * 4);
  l->tlog = lay_take(&o, t * 4);
  l->tflags = lay_take(&o, t);
  l->queue = lay_take(&o, (uint64_t)qsize_of(c) * 8);
  l->lhead = lay_take(&o, ((uint64_t)1 << bits_for(log_total_of(c))) * 4);
  l->llpn = lay_take(&o, lt * 4);
  l->lval = lay_take(&o, lt * 4);
  l->lhnext = lay_take(&o, lt * 4);
  l->ltnext = lay_take(&o, lt * 4);
  l->lflags = lay_take(&o, lt);
  l->rblk = lay_take(&o, r * 4);
  l->rvalid = lay_take(&o, r * 4);
  l->rwp = lay_take(&o, r * 4);
  l->rtp = lay_take(&o, r * c->pages_per_block * 4);
  l->rindex = lay_take(&o, blocks * 4);
  l->rfree = lay_take(&o, r * 4);
  l->lopen = lay_take(&o, (uint64_t)lanes_of(c) * 4);
  l->ops = lay_take(&o, (uint64_t)c->cmt_buffers * sizeof(struct cmt_op));
  l->bufs = lay_take(&o, (uint64_t)c->cmt_buffers * stride_of(c));
  l->ents = lay_take(&o, (uint64_t)c->cmt_buffers * ent_stride_of(c));
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
  if (r < need + 1 + lanes_of(c)) {
    snprintf(msg, msg_len,
             "ftl.cmt.translation_blocks: %" PRIu32 " blocks cannot hold %" PRIu32
             " translation pages with an open block on each of %" PRIu32
             " dies and room for their GC (at least %" PRIu32 ")",
             r, tps_of(c), lanes_of(c), need + 1 + lanes_of(c));
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
  if (c->lba_bytes && (uint64_t)tp_entries_of(c) * 4 > (uint64_t)c->slots_per_page * c->lba_bytes) {
    snprintf(msg, msg_len,
             "ftl.cmt.tp_entries: %" PRIu32 " entries of 4 bytes do not fit in a flash page of %" PRIu32 " bytes",
             tp_entries_of(c), c->slots_per_page * c->lba_bytes);
    return -1;
  }
  if (c->logical_lbas >= CMT_LPN_TRANS) {
    snprintf(msg, msg_len, "ftl.mapping: cached: %llu LBAs reach the OOB mark of translation pages",
             (unsigned long long)c->logical_lbas);
    return -1;
  }
  if (c->cmt_log_entries < 16) {
    snprintf(msg, msg_len, "ftl.cmt.log_entries: %" PRIu32 " is below 16", c->cmt_log_entries);
    return -1;
  }
  if (ckpt_enabled(c)) {
    snprintf(msg, msg_len,
             "power.checkpoint: checkpoints of the L2P need the whole table in DRAM (ftl.mapping: full), "
             "not the cached mapping");
    return -1;
  }
  return 0;
}

/* ---- the cache of entries and the log ---------------------------------------------- */

static uint32_t hash_of(uint32_t lpn, uint32_t bits) { return (uint32_t)(lpn * 2654435761u) >> (32 - bits); }

static uint32_t c_find(const struct cmt *m, uint32_t lpn) {
  for (uint32_t e = m->hhead[hash_of(lpn, m->hbits)]; e != FTL_NONE; e = m->e_hnext[e])
    if (m->e_lpn[e] == lpn) return e;
  return FTL_NONE;
}
static void c_hash_add(struct cmt *m, uint32_t e) {
  const uint32_t h = hash_of(m->e_lpn[e], m->hbits);
  m->e_hnext[e] = m->hhead[h];
  m->hhead[h] = e;
}
static void c_hash_del(struct cmt *m, uint32_t e) {
  uint32_t *p = &m->hhead[hash_of(m->e_lpn[e], m->hbits)];
  while (*p != e) p = &m->e_hnext[*p];
  *p = m->e_hnext[e];
}

static uint32_t l_find(const struct cmt *m, uint32_t lpn) {
  for (uint32_t i = m->lhead[hash_of(lpn, m->lbits)]; i != FTL_NONE; i = m->l_hnext[i])
    if (m->l_lpn[i] == lpn) return i;
  return FTL_NONE;
}

static void tp_request(struct ftl *f, uint32_t tp, uint8_t want);

/* lpn's log entry, made (unmapped, no flags) if it has none; its page's
 * write-back is requested. Ordinary updates stay within lcap (callers check
 * cmt_room first); a rewrite after a failure (force) may use the reserve.
 * FTL_NONE (a fatal error) if even that is gone. */
static uint32_t l_take(struct ftl *f, uint32_t lpn, int force) {
  struct cmt *m = &f->cmt;
  const uint32_t tp = lpn / m->tp_entries;
  uint32_t i = l_find(m, lpn);
  if (i == FTL_NONE) {
    if ((!force && m->lused >= m->lcap) || m->lfree == FTL_NONE) {
      hal_logf(f->hal, HAL_LOG_ERROR, "ftl: cached mapping: the log of %" PRIu32 " pending updates is full", m->ltotal);
      f->fatal = 1;
      return FTL_NONE;
    }
    i = m->lfree;
    m->lfree = m->l_tnext[i];
    m->lused++;
    m->l_lpn[i] = lpn;
    m->l_val[i] = FTL_UNMAPPED;
    m->l_flags[i] = 0;
    const uint32_t h = hash_of(lpn, m->lbits);
    m->l_hnext[i] = m->lhead[h];
    m->lhead[h] = i;
    m->l_tnext[i] = m->tp_log[tp];
    m->tp_log[tp] = i;
  }
  tp_request(f, tp, CMT_TP_WANT_WB);
  return i;
}

static void l_free(struct cmt *m, uint32_t i) {
  uint32_t *p = &m->lhead[hash_of(m->l_lpn[i], m->lbits)];
  while (*p != i) p = &m->l_hnext[*p];
  *p = m->l_hnext[i];
  m->l_tnext[i] = m->lfree;
  m->lfree = i;
  m->lused--;
}

int cmt_room(const struct ftl *f) { return !f->cmt.on || f->cmt.lused < f->cmt.lcap; }

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

/* Segmented LRU (ftl.cmt.policy: slru, prot_cap > 0): the lru_* list is the
 * probationary one; entries hit again while cached go to the protected list
 * (prot_*, at most prot_cap; its least recent goes back to the probationary
 * head). Eviction takes the probationary tail, the protected one if the
 * probationary list is empty. With plain LRU only lru_unlink/lru_push run. */
static void slru_unlink(struct cmt *m, uint32_t e) {
  if (!(m->e_flags[e] & CMT_PROT)) {
    lru_unlink(m, e);
    return;
  }
  const uint32_t p = m->e_prev[e], n = m->e_next[e];
  if (p != FTL_NONE)
    m->e_next[p] = n;
  else
    m->prot_head = n;
  if (n != FTL_NONE)
    m->e_prev[n] = p;
  else
    m->prot_tail = p;
  m->e_flags[e] &= ~CMT_PROT;
  m->prot_used--;
}

/* An entry used again: the most recent of its list; a hit (or a protected
 * entry) goes to the protected list. */
static void slru_touch(struct cmt *m, uint32_t e, int hit) {
  const int prot = (m->e_flags[e] & CMT_PROT) != 0;
  slru_unlink(m, e);
  if (!(hit || prot)) {
    lru_push(m, e);
    return;
  }
  m->e_prev[e] = FTL_NONE;
  m->e_next[e] = m->prot_head;
  if (m->prot_head != FTL_NONE) m->e_prev[m->prot_head] = e;
  m->prot_head = e;
  if (m->prot_tail == FTL_NONE) m->prot_tail = e;
  m->e_flags[e] |= CMT_PROT;
  m->prot_used++;
  while (m->prot_used > m->prot_cap) { /* its least recent is demoted */
    const uint32_t d = m->prot_tail;
    slru_unlink(m, d);
    lru_push(m, d);
  }
}

static uint32_t lru_victim(const struct cmt *m) {
  return m->lru_tail != FTL_NONE || !m->prot_cap ? m->lru_tail : m->prot_tail;
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

/* Whether an entry can be brought in now: a dirty entry it would evict needs
 * room in the log. */
static int insert_room(const struct cmt *m) {
  return m->used < m->entries || !(m->e_flags[lru_victim(m)] & CMT_DIRTY) || m->lused < m->lcap;
}

static void entry_insert(struct ftl *f, uint32_t lpn, uint32_t ppa, uint32_t flags) {
  struct cmt *m = &f->cmt;
  uint32_t e;
  if (m->used < m->entries) {
    e = m->used++;
  } else {
    e = lru_victim(m);
    const uint32_t old = m->e_lpn[e];
    f->stats.cmt_evictions++;
    if (m->e_flags[e] & CMT_DIRTY) { /* into the log, and its page is written back */
      f->stats.cmt_dirty_evictions++;
      m->tp_dirty[old / m->tp_entries]--;
      const uint32_t i = l_take(f, old, 1);
      if (i != FTL_NONE) m->l_val[i] = m->e_ppa[e];
    }
    c_hash_del(m, e);
    if (m->prot_cap)
      slru_unlink(m, e);
    else
      lru_unlink(m, e);
  }
  m->e_lpn[e] = lpn;
  m->e_ppa[e] = ppa;
  m->e_flags[e] = flags;
  c_hash_add(m, e);
  lru_push(m, e);
}

int cmt_lookup(struct ftl *f, uint32_t lpn) {
  struct cmt *m = &f->cmt;
  const uint32_t e = c_find(m, lpn);
  if (e != FTL_NONE) {
    int hit = 0;
    if (m->e_flags[e] & CMT_LOADED) {
      m->e_flags[e] &= ~CMT_LOADED;
      f->stats.cmt_misses++;
    } else if (lpn != m->last_lpn) { /* not the same access again after a yield or a wait for a buffer */
      f->stats.cmt_hits++;
      hit = 1;
    }
    m->last_lpn = lpn;
    if (m->prot_cap) {
      slru_touch(m, e, hit);
    } else {
      lru_unlink(m, e);
      lru_push(m, e);
    }
    return 1;
  }
  const uint32_t tp = lpn / m->tp_entries, li = l_find(m, lpn);
  if (li != FTL_NONE || (m->gtd[tp] == FTL_NONE && !(m->tp_flags[tp] & CMT_TP_BUSY))) {
    /* Known without a flash read: pending in the log, or on a page never
     * written (unmapped; its other entries are in the cache or the log). */
    if (!insert_room(m)) {
      m->room_wait = 1;
      return 0;
    }
    f->stats.cmt_misses++;
    if (li == FTL_NONE) f->stats.cmt_cold_misses++;
    entry_insert(f, lpn, li != FTL_NONE ? m->l_val[li] : FTL_UNMAPPED, 0);
    m->last_lpn = lpn;
    return 1;
  }
  tp_request(f, tp, CMT_TP_WANT_READ);
  return 0;
}

uint32_t cmt_get(const struct ftl *f, uint32_t lpn) {
  const struct cmt *m = &f->cmt;
  const uint32_t e = c_find(m, lpn);
  if (e != FTL_NONE) return m->e_ppa[e];
  const uint32_t i = l_find(m, lpn);
  return i != FTL_NONE ? m->l_val[i] : FTL_NONE;
}

/* A cached entry gets value v (dirty); the old value. */
static uint32_t entry_set(struct cmt *m, uint32_t e, uint32_t v) {
  const uint32_t old = m->e_ppa[e];
  m->e_ppa[e] = v;
  if (!(m->e_flags[e] & CMT_DIRTY)) {
    m->e_flags[e] |= CMT_DIRTY;
    m->tp_dirty[m->e_lpn[e] / m->tp_entries]++;
  }
  return old;
}

uint32_t cmt_set(struct ftl *f, uint32_t lpn, uint32_t v) {
  struct cmt *m = &f->cmt;
  const uint32_t e = c_find(m, lpn);
  if (e != FTL_NONE) return entry_set(m, e, v);
  f->stats.tp_gc_updates++;
  const uint32_t i = l_take(f, lpn, 1);
  if (i == FTL_NONE) return FTL_NONE;
  const uint32_t old = m->l_val[i];
  m->l_val[i] = v;
  return old == FTL_UNMAPPED && (m->l_flags[i] & LOG_INVAL) ? FTL_NONE : old;
}

uint32_t cmt_trim(struct ftl *f, uint32_t lpn) {
  struct cmt *m = &f->cmt;
  const uint32_t e = c_find(m, lpn);
  if (e != FTL_NONE) return m->e_ppa[e] == FTL_UNMAPPED ? FTL_UNMAPPED : entry_set(m, e, FTL_UNMAPPED);
  const int had = l_find(m, lpn) != FTL_NONE;
  f->stats.tp_gc_updates++;
  const uint32_t i = l_take(f, lpn, 0);
  if (i == FTL_NONE) return FTL_NONE;
  if (!had) { /* the slot it had is on flash: invalidated when the merge reads it */
    m->l_flags[i] = LOG_INVAL;
    return FTL_NONE;
  }
  const uint32_t old = m->l_val[i];
  m->l_val[i] = FTL_UNMAPPED;
  return old;
}

int cmt_current(struct ftl *f, uint32_t lpn, uint32_t ppa) {
  struct cmt *m = &f->cmt;
  const uint32_t v = cmt_get(f, lpn);
  if (v == FTL_NONE || v == ppa) return 1; /* the slot is valid and nothing newer is known */
  const uint32_t i = l_find(m, lpn);
  if (i != FTL_NONE) m->l_flags[i] &= (uint8_t)~LOG_INVAL; /* the caller invalidates the slot now */
  return 0;
}

uint32_t cmt_rec_entry(struct ftl *f, uint32_t lpn, int make) {
  struct cmt_rec *r = f->cmt.rec;
  const uint32_t h = hash_of(lpn, r->hbits), tp = lpn / f->cmt.tp_entries;
  for (uint32_t c = r->hhead[h]; c != FTL_NONE; c = r->c_hnext[c])
    if (r->c_lpn[c] == lpn) return c;
  if (!make || r->used == r->cap) return FTL_NONE;
  const uint32_t c = r->used++;
  uint32_t *head = r->round == 1 ? &r->whead[tp] : &r->chead[tp];
  r->c_lpn[c] = lpn;
  r->c_ppa[c] = FTL_NONE;
  r->c_hnext[c] = r->hhead[h];
  r->hhead[h] = c;
  r->c_tnext[c] = *head;
  *head = c;
  return c;
}

/* Recovery's fix-up of translation page tp just read (ent; cmt_recover.c
 * says why): round 1 drops an entry whose slot's page was not programmed
 * before this copy (lost, torn, or erased and written again since: it wants
 * its newest older copy), then takes the candidates; round 2 takes the wants
 * the second scan found. Every slot the page maps ends valid. 1 if the page
 * changed. */
#define REC_DROP 0xfffffffdu
static int rec_fix(struct ftl *f, uint32_t tp, uint32_t *ent) {
  struct cmt *m = &f->cmt;
  struct cmt_rec *r = m->rec;
  const uint32_t S = f->cfg.slots_per_page;
  const uint64_t lo = (uint64_t)tp * m->tp_entries;
  const uint32_t n = (uint32_t)(lo + m->tp_entries < f->cfg.logical_lbas ? m->tp_entries : f->cfg.logical_lbas - lo);
  int changed = 0;
  m->tp_flags[tp] &= (uint8_t)~CMT_TP_REC;
  r->pending--;
  if (r->round == 1)
    for (uint32_t k = 0; k < n; ++k) {
      const uint32_t x = ent[k];
      if (x >= FTL_LOST) continue;
      const uint32_t sq = r->rseq[x / S];
      if (sq == 0 || sq > r->tseq[tp]) ent[k] = REC_DROP;
    }
  for (uint32_t c = r->round == 1 ? r->chead[tp] : r->whead[tp]; c != FTL_NONE; c = r->c_tnext[c])
    if (r->c_ppa[c] != FTL_NONE) {
      const uint32_t k = (uint32_t)(r->c_lpn[c] - lo);
      changed |= ent[k] != r->c_ppa[c];
      ent[k] = r->c_ppa[c];
    }
  for (uint32_t k = 0; k < n; ++k) {
    const uint32_t v = ent[k];
    if (v == REC_DROP) { /* the newest older copy is looked for (round 2) */
      ent[k] = FTL_UNMAPPED;
      changed = 1;
      f->stats.recovery_dropped++;
      if (cmt_rec_entry(f, (uint32_t)(lo + k), 1) == FTL_NONE) {
        hal_logf(f->hal, HAL_LOG_ERROR, "ftl: recovery: no room for %" PRIu32 " LBAs to look for (raise dram.size)",
                 r->cap);
        f->fatal = 1;
      }
      r->wants++;
    } else if (v < FTL_LOST && !ppa_valid(f, v)) {
      f->valid_bits[v >> 5] |= 1u << (v & 31);
      block_valid_inc(f, row_block(f, ppa_row(f, v)));
      f->stats.recovery_lbas++;
    }
  }
  hal_charge(f->hal, FW_OP_ckpt_copy_word, n);
  return changed;
}

/* The merge of a write-back: the page's entries (ent), then its pending
 * updates from the log, then its cached entries. 0 if nothing changed and the
 * page need not be programmed (recovery's fix-up only). */
static int merge(struct ftl *f, uint32_t tp, uint32_t *ent) {
  struct cmt *m = &f->cmt;
  const uint64_t lo = (uint64_t)tp * m->tp_entries;
  uint64_t merged = 0;
  if (m->rec) return (m->tp_flags[tp] & CMT_TP_REC) ? rec_fix(f, tp, ent) : 1; /* no cache nor log yet */
  for (uint32_t i = m->tp_log[tp], next; i != FTL_NONE; i = next) {
    next = m->l_tnext[i];
    const uint32_t k = (uint32_t)(m->l_lpn[i] - lo), x = ent[k];
    if ((m->l_flags[i] & LOG_INVAL) && x < FTL_LOST && ppa_valid(f, x)) block_invalidate_slot(f, x);
    ent[k] = m->l_val[i];
    l_free(m, i);
    ++merged;
  }
  m->tp_log[tp] = FTL_NONE;
  if (m->tp_dirty[tp]) {
    const uint64_t hi = lo + m->tp_entries < f->cfg.logical_lbas ? lo + m->tp_entries : f->cfg.logical_lbas;
    for (uint64_t l = lo; l < hi; ++l) {
      const uint32_t e = c_find(m, (uint32_t)l);
      if (e == FTL_NONE) continue;
      ent[l - lo] = m->e_ppa[e];
      if (m->e_flags[e] & CMT_DIRTY) {
        m->e_flags[e] &= ~CMT_DIRTY;
        ++merged;
      }
    }
    m->tp_dirty[tp] = 0;
  }
  f->stats.tp_writeback_entries += merged;
  if (m->room_wait && m->lused < m->lcap) { /* lookups that waited for room go on */
    m->room_wait = 0;
    m->woke = 1;
  }
  return 1;
}

/* Loads, from translation page tp just read (ent), the entries the waiting
 * commands need next (their remaining LBAs in tp), at most half the cache so
 * that none evicts another. An entry pending in the log is taken from it. */
static int load_waiters(struct ftl *f, uint32_t tp, const uint32_t *ent) {
  struct cmt *m = &f->cmt;
  const uint64_t lo = (uint64_t)tp * m->tp_entries, hi = lo + m->tp_entries;
  uint32_t budget = m->entries / 2 ? m->entries / 2 : 1;
  int loaded = 0;
  for (uint32_t c = f->nt.wait_head; c != FTL_NONE && budget; c = f->nt.cmds[c].next) {
    const struct fw_cmd *cmd = &f->nt.cmds[c];
    if (cmd->opcode != NVME_OP_READ && cmd->opcode != NVME_OP_WRITE) continue;
    uint64_t a = cmd->slba + cmd->progress, b = cmd->slba + cmd->nlb;
    if (a < lo) a = lo;
    if (b > hi) b = hi;
    for (; a < b && budget; ++a) {
      if (c_find(m, (uint32_t)a) != FTL_NONE) continue;
      if (!insert_room(m)) {
        m->room_wait = 1;
        return loaded;
      }
      const uint32_t i = l_find(m, (uint32_t)a);
      entry_insert(f, (uint32_t)a, i != FTL_NONE ? m->l_val[i] : ent[a - lo], CMT_LOADED);
      --budget;
      loaded = 1;
    }
  }
  return loaded;
}

/* ---- translation region ------------------------------------------------------------ */

static uint32_t region_of_row(const struct ftl *f, uint32_t row) { return f->cmt.rindex[row_block(f, row)]; }

/* The next row of the translation frontier, or FTL_NONE: one open block per
 * lane (ftl.cmt.stripe dies), the lanes in turn, so that translation pages
 * are programmed on several dies at once. Ordinary write-backs take no row
 * once the free blocks are gone (the open blocks then hold GC's last one),
 * nor open the last free block; GC's moves (last) may. */
static uint32_t row_alloc(struct ftl *f, int last) {
  struct cmt *m = &f->cmt;
  const uint32_t ppb = f->cfg.pages_per_block;
  if (!last && m->nfree == 0) return FTL_NONE;
  for (uint32_t k = 0; k < m->lanes; ++k) {
    const uint32_t ln = (m->next_lane + k) % m->lanes;
    uint32_t r = m->lopen[ln];
    if (r == FTL_NONE) {
      if (m->nfree == 0 || (!last && m->nfree <= 1)) continue;
      uint32_t at = m->nfree - 1; /* a free block on the lane's die if there is one, else the next */
      for (uint32_t i = m->nfree; i-- > 0;)
        if (block_die(f, m->rblk[m->rfree[i]]) % m->lanes == ln) {
          at = i;
          break;
        }
      r = m->rfree[at];
      for (uint32_t i = at; i + 1 < m->nfree; ++i) m->rfree[i] = m->rfree[i + 1];
      m->nfree--;
      m->lopen[ln] = r;
      m->rwp[r] = 0;
    }
    const uint32_t page = m->rwp[r]++;
    if (m->rwp[r] == ppb) m->lopen[ln] = FTL_NONE;
    m->next_lane = (ln + 1) % m->lanes;
    hal_charge(f->hal, FW_OP_page_alloc, 1);
    return m->rblk[r] * ppb + page;
  }
  return FTL_NONE;
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
    op->token[s] = op->tp;            /* the entries travel as the page's metadata payload */
    op->token[S + s] = CMT_LPN_TRANS; /* no LBA: the full table's scan skips it */
  }
  op->token[2 * (size_t)S] = op->seq;
  op->state = CMT_OP_PROGRAM;
  f->stats.tp_writes++;
  if (op->tgc) f->stats.tgc_moves++;
  m->inflight++;
  flash_submit_meta(f, FC_OP_PROGRAM, TAG(TAG_TRANS, o), row, op->dram, op->meta, m->tp_entries * 4);
}

static void op_read_done(struct ftl *f, uint32_t o, int *loaded) {
  struct cmt *m = &f->cmt;
  struct cmt_op *op = &m->ops[o];
  if (m->tp_flags[op->tp] & CMT_TP_WANT_READ) {
    m->tp_flags[op->tp] &= (uint8_t)~CMT_TP_WANT_READ;
    *loaded |= load_waiters(f, op->tp, op->ent);
  }
  if (op->wb && (merge(f, op->tp, op->ent) || op->tgc)) {
    op->seq = ++f->seq; /* after the merge: a data page programmed later is newer than this copy */
    op_program(f, o);
  } else {
    op_finish(f, o);
  }
}

static void op_start(struct ftl *f, uint32_t o, uint32_t tp, int tgc, int *loaded) {
  struct cmt *m = &f->cmt;
  struct cmt_op *op = &m->ops[o];
  op->tp = tp;
  op->tgc = (uint8_t)tgc;
  op->wb = (uint8_t)(tgc || (m->tp_flags[tp] & CMT_TP_WANT_WB));
  const int host = (m->tp_flags[tp] & CMT_TP_WANT_READ) != 0; /* a host command waits for it */
  m->tp_flags[tp] = (uint8_t)((m->tp_flags[tp] & ~CMT_TP_WANT_WB) | CMT_TP_BUSY);
  if (m->gtd[tp] == FTL_NONE) { /* nothing on flash to read: every entry unmapped */
    for (uint32_t k = 0; k < m->tp_entries; ++k) op->ent[k] = FTL_UNMAPPED;
    op->state = CMT_OP_READ;
    op_read_done(f, o, loaded);
    return;
  }
  op->state = CMT_OP_READ;
  f->stats.tp_reads++;
  m->inflight++;
  flash_submit_meta(f, FC_OP_READ, TAG(TAG_TRANS, o), m->gtd[tp], op->dram, op->meta, m->tp_entries * 4);
  if (host) flash_hint_host(f); /* the flash scheduler's read priority and suspend treat it as a host read */
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
      if (m->rwp[r] < ppb || m->rindex[m->rblk[r]] != r) continue; /* open, or retired */
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
  loaded |= m->woke;
  m->woke = 0;
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
    if (c->status == FC_ERR_UNCORRECTABLE || (c->flags & FC_FLAG_ERASED)) {
      /* Its entries are gone: their LBAs read as Unrecovered Read Error until
       * written again (their slots stay valid until GC finds them). */
      f->stats.uncorrectable_reads++;
      hal_logf(f->hal, HAL_LOG_WARN, "ftl: translation page %" PRIu32 " read uncorrectable: its entries are lost",
               op->tp);
      for (uint32_t k = 0; k < m->tp_entries; ++k) op->ent[k] = FTL_LOST;
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
  loaded |= m->woke;
  m->woke = 0;
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

/* Region index r takes a free block (a die after r's, in turn), erased. */
static int region_block(struct ftl *f, uint32_t r) {
  struct cmt *m = &f->cmt;
  uint32_t blk = FTL_NONE;
  for (uint32_t k = 0; k < f->dies && blk == FTL_NONE; ++k) blk = block_take_free(f, (r + k) % f->dies, WEAR_HIGHEST);
  if (blk == FTL_NONE) {
    hal_logf(f->hal, HAL_LOG_ERROR, "ftl: no free block left for translation block %" PRIu32, r);
    return -1;
  }
  m->rblk[r] = blk;
  m->rindex[blk] = r;
  m->rwp[r] = 0;
  return 0;
}

/* The translation region: blocks taken from the free ones. */
static int region_take(struct ftl *f) {
  struct cmt *m = &f->cmt;
  m->nfree = 0;
  m->victim = FTL_NONE;
  m->erasing = 0;
  m->next_lane = 0;
  for (uint32_t i = 0; i < m->lanes; ++i) m->lopen[i] = FTL_NONE;
  for (uint64_t i = 0; i < (uint64_t)m->rblocks * f->cfg.pages_per_block; ++i) m->rtp[i] = FTL_NONE;
  for (uint32_t r = 0; r < m->rblocks; ++r) {
    if (region_block(f, r)) return -1;
    m->rvalid[r] = 0;
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
  m->trim_head = m->trim_tail = FTL_NONE;
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
  m->hbits = bits_for(m->entries);
  m->lcap = c->cmt_log_entries;
  m->ltotal = log_total_of(c);
  m->lbits = bits_for(m->ltotal);
  m->hhead = cwin(f, off + l.hhead, ((uint64_t)1 << m->hbits) * 4);
  m->e_hnext = cwin(f, off + l.hnext, (uint64_t)m->entries * 4);
  m->e_lpn = cwin(f, off + l.lpn, (uint64_t)m->entries * 4);
  m->e_ppa = cwin(f, off + l.ppa, (uint64_t)m->entries * 4);
  m->e_prev = cwin(f, off + l.prev, (uint64_t)m->entries * 4);
  m->e_next = cwin(f, off + l.next, (uint64_t)m->entries * 4);
  m->e_flags = cwin(f, off + l.flags, (uint64_t)m->entries * 4);
  m->gtd = cwin(f, off + l.gtd, (uint64_t)m->tps * 4);
  m->tp_dirty = cwin(f, off + l.tdirty, (uint64_t)m->tps * 4);
  m->tp_log = cwin(f, off + l.tlog, (uint64_t)m->tps * 4);
  m->tp_flags = cwin(f, off + l.tflags, m->tps);
  m->queue = cwin(f, off + l.queue, (uint64_t)m->qsize * 8);
  m->lhead = cwin(f, off + l.lhead, ((uint64_t)1 << m->lbits) * 4);
  m->l_lpn = cwin(f, off + l.llpn, (uint64_t)m->ltotal * 4);
  m->l_val = cwin(f, off + l.lval, (uint64_t)m->ltotal * 4);
  m->l_hnext = cwin(f, off + l.lhnext, (uint64_t)m->ltotal * 4);
  m->l_tnext = cwin(f, off + l.ltnext, (uint64_t)m->ltotal * 4);
  m->l_flags = cwin(f, off + l.lflags, m->ltotal);
  m->rblk = cwin(f, off + l.rblk, (uint64_t)m->rblocks * 4);
  m->rvalid = cwin(f, off + l.rvalid, (uint64_t)m->rblocks * 4);
  m->rwp = cwin(f, off + l.rwp, (uint64_t)m->rblocks * 4);
  m->rtp = cwin(f, off + l.rtp, (uint64_t)m->rblocks * c->pages_per_block * 4);
  m->rindex = cwin(f, off + l.rindex, (uint64_t)f->total_blocks * 4);
  m->rfree = cwin(f, off + l.rfree, (uint64_t)m->rblocks * 4);
  m->lanes = lanes_of(c);
  m->lopen = cwin(f, off + l.lopen, (uint64_t)m->lanes * 4);
  m->ops = cwin(f, off + l.ops, (uint64_t)m->nops * sizeof(struct cmt_op));
  if (!m->hhead || !m->e_hnext || !m->e_lpn || !m->e_ppa || !m->e_prev || !m->e_next || !m->e_flags || !m->gtd ||
      !m->tp_dirty || !m->tp_log || !m->tp_flags || !m->queue || !m->lhead || !m->l_lpn || !m->l_val || !m->l_hnext ||
      !m->l_tnext || !m->l_flags || !m->rblk || !m->rvalid || !m->rwp || !m->rtp || !m->rindex || !m->rfree ||
      !m->lopen || !m->ops) {
    hal_logf(f->hal, HAL_LOG_ERROR, "ftl: cached mapping tables not accessible");
    return -1;
  }
  memset(m->hhead, 0xff, ((size_t)1 << m->hbits) * 4);
  memset(m->gtd, 0xff, (size_t)m->tps * 4);
  memset(m->tp_dirty, 0, (size_t)m->tps * 4);
  memset(m->tp_log, 0xff, (size_t)m->tps * 4);
  memset(m->tp_flags, 0, m->tps);
  memset(m->lhead, 0xff, ((size_t)1 << m->lbits) * 4);
  for (uint32_t i = 0; i < m->ltotal; ++i) m->l_tnext[i] = i + 1 < m->ltotal ? i + 1 : FTL_NONE;
  m->lfree = 0;
  m->lused = 0;
  memset(m->rindex, 0xff, (size_t)f->total_blocks * 4);
  m->lru_head = m->lru_tail = m->prot_head = m->prot_tail = FTL_NONE;
  m->prot_used = 0;
  m->prot_cap = 0;
  if (c->cmt_policy == FTL_CMT_SLRU) { /* at least one probationary entry */
    const uint64_t p = (uint64_t)m->entries * c->cmt_protected_pct / 100;
    m->prot_cap = (uint32_t)(p < m->entries ? p : m->entries - 1);
  }
  const uint32_t stride = stride_of(c), estride = ent_stride_of(c);
  for (uint32_t o = 0; o < m->nops; ++o) {
    struct cmt_op *op = &m->ops[o];
    memset(op, 0, sizeof *op);
    op->dram = (uint32_t)(c->dram_base + off + l.bufs + (uint64_t)o * stride);
    op->token = cwin(f, off + l.bufs + (uint64_t)o * stride, stride);
    op->meta = (uint32_t)(c->dram_base + off + l.ents + (uint64_t)o * estride);
    op->ent = cwin(f, off + l.ents + (uint64_t)o * estride, estride);
    if (!op->token || !op->ent) return -1;
  }
  m->victim = m->last_lpn = FTL_NONE;
  if (reserve && region_take(f)) return -1;
  hal_logf(f->hal, HAL_LOG_INFO,
           "ftl: cached mapping: %" PRIu32 " entries, %" PRIu32 " translation pages of %" PRIu32 " entries, %" PRIu32
           " translation blocks",
           m->entries, m->tps, m->tp_entries, m->rblocks);
  return 0;
}

/* ---- recovery (cmt_recover.c drives it) ----------------------------------------------- */

void cmt_rec_flag(struct ftl *f, uint32_t tp) {
  struct cmt *m = &f->cmt;
  if (m->tp_flags[tp] & CMT_TP_REC) return;
  m->tp_flags[tp] |= CMT_TP_REC;
  m->rec->pending++;
  tp_request(f, tp, CMT_TP_WANT_WB);
}

int cmt_rec_region(struct ftl *f, uint32_t found) {
  struct cmt *m = &f->cmt;
  const uint32_t ppb = f->cfg.pages_per_block;
  m->nfree = 0;
  m->next_lane = 0;
  for (uint32_t i = 0; i < m->lanes; ++i) m->lopen[i] = FTL_NONE;
  for (uint32_t r = 0; r < m->rblocks; ++r) {
    if (r >= found) { /* a free block, as at start */
      if (region_block(f, r)) return -1;
      for (uint32_t p = 0; p < ppb; ++p) m->rtp[(uint64_t)r * ppb + p] = FTL_NONE;
    } else {
      block_set_state(f, m->rblk[r], BLK_OPEN);
    }
    m->rvalid[r] = 0;
    for (uint32_t p = 0; p < m->rwp[r]; ++p) {
      const uint32_t tp = m->rtp[(uint64_t)r * ppb + p];
      m->rvalid[r] += tp != FTL_NONE && m->gtd[tp] == m->rblk[r] * ppb + p;
    }
    if (m->rwp[r] == 0) {
      m->rfree[m->nfree++] = r;
    } else if (m->rwp[r] < ppb) { /* written on from where the cut stopped it, on a lane of its die if free */
      uint32_t ln = block_die(f, m->rblk[r]) % m->lanes;
      for (uint32_t k = 0; k < m->lanes && m->lopen[ln] != FTL_NONE; ++k) ln = (ln + 1) % m->lanes;
      if (m->lopen[ln] == FTL_NONE)
        m->lopen[ln] = r;
      else
        m->rwp[r] = ppb; /* closed: translation GC takes its unwritten pages back */
    }
  }
  return f->fatal ? -1 : 0;
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
  /* Every cached entry is found by its LBA, and a slot it or a pending update
   * names is valid; the log's counts add up. */
  for (uint32_t e = 0; e < m->used; ++e) {
    if (c_find(m, m->e_lpn[e]) != e) ++bad;
    if (m->e_ppa[e] < FTL_LOST && !ppa_valid(f, m->e_ppa[e])) ++bad;
  }
  uint32_t logged = 0;
  for (uint32_t tp = 0; tp < m->tps; ++tp)
    for (uint32_t i = m->tp_log[tp]; i != FTL_NONE; i = m->l_tnext[i]) {
      ++logged;
      if (l_find(m, m->l_lpn[i]) != i || m->l_lpn[i] / m->tp_entries != tp) ++bad;
      if (c_find(m, m->l_lpn[i]) == FTL_NONE && m->l_val[i] < FTL_LOST && !ppa_valid(f, m->l_val[i])) ++bad;
    }
  if (logged != m->lused) ++bad;
  return bad;
}
