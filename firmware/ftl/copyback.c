/*
 * copyback.c - GC moves by copyback (ftl.gc.copyback, docs/firmware.md
 * "Copyback").
 *
 * A victim page whose slots are all valid moves as a whole: the die senses
 * it and programs it into a page of a block in the same die and plane
 * (FC_OP_COPYBACK, ssdvp_hw.h), and only its spare bytes (LPNs, sequence
 * number) come to the controller. Each plane has its own destination block,
 * opened from that plane's free blocks when a copyback needs one. A page
 * with invalid (stale) slots goes by copyback too when at least
 * ftl.gc.copyback_min_valid percent of its slots are valid (default 100:
 * never): the stale slots travel with it, as data no LBA maps to, and the
 * controller drops their LPNs from the copy's OOB (FC_COPYBACK_DROP), so
 * that recovery, which trusts the copy's newer sequence number, cannot
 * bring their old data back. The cost is space: the copy holds fewer LBAs
 * than a page, where moves through the controller pack full pages. Other
 * pages go through the controller, and so does data that has been copied
 * ftl.gc.copyback_max_hops times in a row without an ECC check (the count
 * is in each page's OOB; the firmware keeps a copy of it per page in DRAM),
 * and data of a block collected for read errors (BLKF_REFRESH).
 *
 * The LBAs are mapped to the copy when it completes, if they were not
 * written or trimmed meanwhile (the victim keeps them until then: the job
 * counts the copyback as one of its reads). A destination block becomes a
 * GC candidate when the copy into its last page completes (the die
 * completes its programs in order), so no block is collected while copies
 * into it are in flight.
 */
#include <stdio.h>
#include <string.h>

#include "ftl_internal.h"

static uint32_t cb_planes(const struct ftl_config *c) { return c->planes_per_die > 1 ? c->planes_per_die : 1; }
static uint64_t cb_pages(const struct ftl_config *c) {
  return (uint64_t)c->channels * c->dies_per_channel * c->blocks_per_die * c->pages_per_block;
}

uint64_t copyback_dram_bytes(const struct ftl_config *c) {
  if (!c->gc_copyback) return 0;
  return (uint64_t)c->channels * c->dies_per_channel * cb_planes(c) * 4 + cb_pages(c);
}

int copyback_config_check(const struct ftl_config *c, char *msg, size_t msg_len) {
  if (c->gc_copyback && c->mapping == FTL_MAP_CACHED) {
    snprintf(msg, msg_len, "ftl: ftl.gc.copyback needs ftl.mapping: full (the cached mapping defers invalidations)");
    return -1;
  }
  return 0;
}

int copyback_init(struct ftl *f, uint64_t off) {
  f->cb.hops = NULL;
  f->cb.open = NULL;
  if (!f->cfg.gc_copyback) return 0;
  const uint32_t lanes = f->dies * cb_planes(&f->cfg);
  const uint64_t bytes = copyback_dram_bytes(&f->cfg);
  uint8_t *mem = hal_dram(f->hal, (uint32_t)(f->cfg.dram_base + off), (uint32_t)bytes);
  if (!mem) {
    hal_logf(f->hal, HAL_LOG_ERROR, "ftl: copyback tables not accessible");
    return -1;
  }
  f->cb.open = (uint32_t *)(void *)mem;
  f->cb.hops = mem + (uint64_t)lanes * 4;
  for (uint32_t l = 0; l < lanes; ++l) f->cb.open[l] = FTL_NONE;
  memset(f->cb.hops, 0, (size_t)cb_pages(&f->cfg));
  return 0;
}

int copyback_try(struct ftl *f, uint32_t job, uint32_t row, uint32_t mask) {
  const struct ftl_config *c = &f->cfg;
  const uint32_t S = c->slots_per_page, ppb = c->pages_per_block;
  const uint32_t all = S >= 32 ? 0xffffffffu : (1u << S) - 1;
  if (!c->gc_copyback || !mask) return 0;
  if (mask != all) { /* partly valid: enough valid slots (ftl.gc.copyback_min_valid)? */
    uint32_t valid = 0;
    for (uint32_t s = 0; s < S; ++s) valid += (mask >> s) & 1u;
    if ((uint64_t)valid * 100 < (uint64_t)S * c->gc_copyback_min_valid) return 0;
  }
  const uint32_t blk = row_block(f, row);
  if (f->blk_flags[blk] & BLKF_REFRESH) return 0; /* read errors: its data goes through the ECC */
  if (f->cb.hops[row] >= c->gc_copyback_max_hops) {
    f->stats.gc_copyback_capped++;
    return 0;
  }
  const uint32_t die = block_die(f, blk), plane = block_plane(f, blk), lane = die * cb_planes(c) + plane;
  uint32_t dst = f->cb.open[lane];
  if (dst == FTL_NONE) {
    /* The free blocks the GC frontiers need to open their next blocks stay theirs. */
    if (f->free_total <= gc_frontiers_empty(f, FTL_NONE) + 1) return 0;
    const uint8_t wear = f->gc_fr < FTL_MAX_FRONTIERS ? f->fr[f->gc_fr].wear : (uint8_t)WEAR_HIGHEST;
    dst = cb_planes(c) > 1 ? block_take_free_plane(f, die, plane, wear) : block_take_free(f, die, wear);
    if (dst == FTL_NONE) return 0;
    f->cb.open[lane] = dst;
  }
  const uint32_t page = f->blk_wp[dst];
  if (c->cell_bits > 1 && page % c->cell_bits != (row % ppb) % c->cell_bits) return 0; /* another page type */
  const uint32_t b = buf_get(f, POOL_GC, BUF_GC_READ);
  if (b == FTL_NONE) return 0;
  if (++f->blk_wp[dst] == ppb) f->cb.open[lane] = FTL_NONE;
  struct pagebuf *pb = &f->bufs[b];
  pb->row = row;
  pb->mask = mask;
  pb->cmd = job;
  pb->cb_row = dst * ppb + page;
  f->cb.hops[pb->cb_row] = (uint8_t)(f->cb.hops[row] + 1);
  f->seq++; /* the copy's OOB sequence number: newer than the data it copies */
  f->stats.gc_copybacks++;
  hal_charge(f->hal, FW_OP_page_alloc, 1);
  flash_submit(f, FC_OP_COPYBACK, TAG(TAG_COPYBACK, b), pb->cb_row, row, pb->dram);
  if (mask != all) { /* the stale slots: no LPN in the copy's OOB */
    flash_copyback_drop(f, all & ~mask);
    f->stats.gc_copyback_partial++;
    for (uint32_t s = 0; s < S; ++s) f->stats.gc_copyback_stale += !((mask >> s) & 1u);
  }
  return 1;
}

uint32_t copyback_done(struct ftl *f, uint32_t b, int status, uint32_t hops) {
  struct pagebuf *pb = &f->bufs[b];
  const uint32_t S = f->cfg.slots_per_page, ppb = f->cfg.pages_per_block, dst = pb->cb_row;
  const uint32_t dblk = row_block(f, dst);
  /* Its last page programmed (the die completes programs in order): a GC candidate. */
  if (dst % ppb == ppb - 1) block_set_state(f, dblk, BLK_CLOSED);
  if (status == FC_ERR_PROGRAM_FAIL) { /* the copy is lost, the source still holds the data */
    f->stats.program_failures++;
    block_flag(f, dblk, BLKF_RETIRE);
    return FTL_NONE;
  }
  if (status != FC_OK) {
    hal_logf(f->hal, status == FC_ERR_UNCORRECTABLE ? HAL_LOG_WARN : HAL_LOG_ERROR,
             "ftl: copyback of row %" PRIu32 " to row %" PRIu32 " failed with status %d", pb->row, dst, status);
    if (status != FC_ERR_UNCORRECTABLE) { /* a rule broken: the firmware's tables and the NAND disagree */
      f->stats.flash_errors++;
      f->fatal = 1;
    }
    return FTL_NONE;
  }
  f->cb.hops[dst] = (uint8_t)hops; /* the OOB's count (after a power cut the DRAM copy restarted at 0) */
  uint32_t moved = 0;
  for (uint32_t s = 0; s < S; ++s) {
    const uint32_t lpn = pb->lpn[s], old = pb->row * S + s;
    if (!(pb->mask & (1u << s)) || lpn >= f->cfg.logical_lbas || !map_current(f, lpn, old)) continue;
    map_set(f, lpn, dst * S + s);
    map_invalidate_ppa(f, old);
    hal_charge(f->hal, FW_OP_l2p_update, 1);
    ++moved;
  }
  return moved;
}

void copyback_erased(struct ftl *f, uint32_t blk) {
  if (f->cb.hops) memset(f->cb.hops + (size_t)blk * f->cfg.pages_per_block, 0, f->cfg.pages_per_block);
}
