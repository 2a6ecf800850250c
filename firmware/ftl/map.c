/*
 * map.c - the page-level L2P table and per-slot validity; a block's valid
 * count goes through the block manager, which keeps greedy's lists. With
 * ftl.mapping: cached there is no table here: entries are in the cached
 * mapping table (cmt.c), which lookups ask first (map_ready) and every change
 * goes to.
 */
#include "ftl_internal.h"

void map_invalidate_ppa(struct ftl *f, uint32_t ppa) { block_invalidate_slot(f, ppa); }

void map_set(struct ftl *f, uint32_t lpn, uint32_t ppa) {
  const uint32_t old = f->cmt.on ? cmt_set(f, lpn, ppa) : f->l2p[lpn];
  if (old < FTL_LOST) map_invalidate_ppa(f, old);
  if (!f->cmt.on) f->l2p[lpn] = ppa;
  f->valid_bits[ppa >> 5] |= 1u << (ppa & 31);
  block_valid_inc(f, row_block(f, ppa_row(f, ppa)));
}

void map_trim(struct ftl *f, uint32_t lpn) {
  if (f->cmt.on) {
    const uint32_t old = cmt_trim(f, lpn);
    if (old < FTL_LOST) map_invalidate_ppa(f, old);
    return;
  }
  const uint32_t old = f->l2p[lpn];
  if (old == FTL_UNMAPPED) return;
  if (old != FTL_LOST) map_invalidate_ppa(f, old);
  f->l2p[lpn] = FTL_UNMAPPED;
}

int map_current(struct ftl *f, uint32_t lpn, uint32_t ppa) {
  if (!f->cmt.on) return f->l2p[lpn] == ppa;
  if (!ppa_valid(f, ppa)) return 0;
  if (cmt_current(f, lpn, ppa)) return 1;
  map_invalidate_ppa(f, ppa); /* a trim's deferred invalidation (cmt.h) */
  return 0;
}

uint32_t map_get(const struct ftl *f, uint32_t lpn) { return f->cmt.on ? cmt_get(f, lpn) : f->l2p[lpn]; }

uint32_t map_lose_row(struct ftl *f, uint32_t row, uint32_t mask, const uint32_t *lpns) {
  const uint32_t S = f->cfg.slots_per_page;
  uint32_t n = 0;
  if (f->cmt.on) {
    for (uint32_t s = 0; s < S; ++s) {
      const uint32_t p = row * S + s, lpn = lpns[s];
      if (!(mask & (1u << s)) || lpn >= f->cfg.logical_lbas || !map_current(f, lpn, p)) continue;
      cmt_set(f, lpn, FTL_LOST);
      map_invalidate_ppa(f, p);
      ++n;
    }
    return n;
  }
  for (uint64_t l = 0; l < f->cfg.logical_lbas; ++l) {
    const uint32_t p = f->l2p[l];
    if (p == FTL_UNMAPPED || p == FTL_LOST || p / S != row || !(mask & (1u << (p % S)))) continue;
    map_invalidate_ppa(f, p);
    f->l2p[l] = FTL_LOST;
    ++n;
  }
  return n;
}

int map_ready(struct ftl *f, uint32_t lpn) { return !f->cmt.on || cmt_lookup(f, lpn); }

/* Preconditioning draws its random LBAs ahead and hints them here (host speed
 * only: nothing changes, nothing is charged). Stage 0 prefetches the LBA's L2P
 * entry; stage 1, a few writes later when that entry is in cache, the validity
 * word and valid count of the slot it maps to, which the write invalidates. The
 * RV32 build does nothing: its instructions are its time. */
void ftl_func_prefetch(const struct ftl *f, uint64_t lba, int stage) {
#if defined(__riscv)
  (void)f;
  (void)lba;
  (void)stage;
#else
  if (f->cmt.on || !f->l2p || lba >= f->cfg.logical_lbas) return;
  if (stage == 0) {
    __builtin_prefetch(&f->l2p[lba], 1);
    return;
  }
  const uint32_t old = f->l2p[lba];
  if (old >= FTL_LOST) return;
  __builtin_prefetch(&f->valid_bits[old >> 5], 1);
  __builtin_prefetch(&f->blk_valid[row_block(f, ppa_row(f, old))], 1);
#endif
}

uint32_t ftl_lookup(const struct ftl *f, uint64_t lba) {
  if (lba >= f->cfg.logical_lbas) return FTL_UNMAPPED;
  if (!f->cmt.on) return f->l2p[lba];
  const uint32_t v = cmt_get(f, (uint32_t)lba);
  return v == FTL_NONE ? FTL_UNMAPPED : v; /* on flash only: not known without a read */
}
