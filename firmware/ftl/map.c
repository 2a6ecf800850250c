/*
 * map.c - the page-level L2P table and per-slot validity; a block's valid
 * count goes through the block manager, which keeps greedy's lists. With
 * ftl.mapping: cached, every change also goes to the cached mapping table
 * (cmt.c) and lookups ask it first (map_ready).
 */
#include "ftl_internal.h"

void map_invalidate_ppa(struct ftl *f, uint32_t ppa) {
  uint32_t *w = &f->valid_bits[ppa >> 5];
  const uint32_t bit = 1u << (ppa & 31);
  if (!(*w & bit)) return;
  *w &= ~bit;
  block_valid_dec(f, row_block(f, ppa_row(f, ppa)));
}

void map_set(struct ftl *f, uint32_t lpn, uint32_t ppa) {
  const uint32_t old = f->l2p[lpn];
  if (old != FTL_UNMAPPED && old != FTL_LOST) map_invalidate_ppa(f, old);
  f->l2p[lpn] = ppa;
  if (f->cmt.on) cmt_update(f, lpn);
  f->valid_bits[ppa >> 5] |= 1u << (ppa & 31);
  block_valid_inc(f, row_block(f, ppa_row(f, ppa)));
}

void map_trim(struct ftl *f, uint32_t lpn) {
  const uint32_t old = f->l2p[lpn];
  if (old == FTL_UNMAPPED) return;
  if (old != FTL_LOST) map_invalidate_ppa(f, old);
  f->l2p[lpn] = FTL_UNMAPPED;
  if (f->cmt.on) cmt_update(f, lpn);
}

uint32_t map_lose_row(struct ftl *f, uint32_t row, uint32_t mask) {
  const uint32_t S = f->cfg.slots_per_page;
  uint32_t n = 0;
  for (uint64_t l = 0; l < f->cfg.logical_lbas; ++l) {
    const uint32_t p = f->l2p[l];
    if (p == FTL_UNMAPPED || p == FTL_LOST || p / S != row || !(mask & (1u << (p % S)))) continue;
    map_invalidate_ppa(f, p);
    f->l2p[l] = FTL_LOST;
    if (f->cmt.on) cmt_update(f, (uint32_t)l);
    ++n;
  }
  return n;
}

int map_ready(struct ftl *f, uint32_t lpn) { return !f->cmt.on || cmt_lookup(f, lpn); }

uint32_t ftl_lookup(const struct ftl *f, uint64_t lba) {
  return lba < f->cfg.logical_lbas ? f->l2p[lba] : FTL_UNMAPPED;
}
