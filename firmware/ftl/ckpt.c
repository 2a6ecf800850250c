/*
 * ckpt.c - periodic checkpoints of the L2P and the block table to flash
 * (power.checkpoint.interval, power.checkpoint.writes; docs/firmware.md,
 * "Checkpoints").
 *
 * Two areas of reserved blocks (ckpt_reserve, at ftl_init: the same blocks
 * at every power-up, the highest good blocks of the dies in turn) take the
 * checkpoints in turn, so a checkpoint the power cut tore leaves the
 * previous one whole. A checkpoint:
 *   DRAIN    host and GC placement wait (place_lba returns PLACE_WAIT), every
 *            frontier's partly filled page is padded and programmed, and the
 *            firmware waits for every program in flight: now every L2P entry
 *            points at a programmed page;
 *   snapshot the L2P, the erase counts and the block states are copied into
 *            the checkpoint image in DRAM with the sequence number S of the
 *            last program; placement goes on;
 *   ERASE    the older area's blocks are erased;
 *   PROGRAM  the image is programmed page by page, striped over the area's
 *            blocks (each on another die): the page's bytes travel as the
 *            program's metadata payload (fc_sqe.meta), its slots carry the
 *            generation and page index, its OOB LPNs are "none".
 * The checkpoint is complete when every page is programmed; recovery
 * (power.c) takes the newest complete one and scans only the blocks written
 * since S. Checkpoint programs and erases are counted apart from host and GC
 * ones (ftl_stats.ckpt_*): the platform adds them to WAF as metadata writes.
 */
#include <string.h>

#include "ftl_internal.h"

enum { CKPT_IDLE = 0, CKPT_DRAIN = 1, CKPT_ERASE = 2, CKPT_PROGRAM = 3 };

static uint32_t page_bytes(const struct ftl_config *c) { return c->slots_per_page * c->lba_bytes; }

uint32_t ckpt_image_bytes(const struct ftl_config *c) {
  const uint64_t blocks = (uint64_t)c->channels * c->dies_per_channel * c->blocks_per_die;
  return (uint32_t)(CKPT_HEADER_BYTES + c->logical_lbas * 4 + blocks * 4 + blocks);
}

uint32_t ckpt_pages(const struct ftl_config *c) {
  const uint32_t pb = page_bytes(c);
  return (ckpt_image_bytes(c) + pb - 1) / pb;
}

uint32_t ckpt_area_blocks(const struct ftl_config *c) {
  if (!ckpt_enabled(c)) return 0;
  const uint32_t dies = c->channels * c->dies_per_channel;
  const uint32_t by_size = (ckpt_pages(c) + c->pages_per_block - 1) / c->pages_per_block;
  /* striped over up to every die, at least as many blocks as the size needs */
  return by_size > dies ? by_size : (dies < ckpt_pages(c) ? dies : ckpt_pages(c));
}

uint64_t ckpt_dram_bytes(const struct ftl_config *c) {
  if (!ckpt_enabled(c)) return 0;
  return (uint64_t)ckpt_pages(c) * page_bytes(c) + (uint64_t)CKPT_INFLIGHT * CKPT_BUF_STRIDE +
         ((2ull * ckpt_area_blocks(c) * 4 + 63) & ~63ull) + tlog_dram_bytes(c);
}

static uint32_t *ckpt_buf(struct ftl *f, uint32_t i) {
  return (uint32_t *)((uint8_t *)f->ckpt.bufmem + (size_t)i * CKPT_BUF_STRIDE);
}
static uint32_t ckpt_buf_bus(const struct ftl *f, uint32_t i) { return f->ckpt.bufs_bus + i * CKPT_BUF_STRIDE; }

/* The flash row of image page p of area a (pages striped over its blocks). */
uint32_t ckpt_row(const struct ftl *f, uint32_t a, uint32_t p) {
  const uint32_t n = f->ckpt.area_n;
  return f->ckpt.area[a * n + p % n] * f->cfg.pages_per_block + p / n;
}

int reserve_area_blocks(struct ftl *f, uint32_t *out, uint32_t n, const char *what) {
  /* From the top of each die down, dies in turn, skipping factory bad
   * blocks; out of the free pool for good (state BAD, not counted as bad).
   * The same blocks at every power-up. */
  uint32_t taken = 0;
  for (uint32_t level = 0; level < f->cfg.blocks_per_die && taken < n; ++level)
    for (uint32_t d = 0; d < f->dies && taken < n; ++d) {
      const uint32_t b = d * f->cfg.blocks_per_die + (f->cfg.blocks_per_die - 1 - level);
      if (f->blk_state[b] != BLK_FREE) continue;
      block_set_state(f, b, BLK_BAD);
      f->stats.factory_bad_blocks--; /* reserved, not bad */
      out[taken++] = b;
    }
  if (taken < n) {
    hal_logf(f->hal, HAL_LOG_ERROR, "ftl: no room for %s (%" PRIu32 " blocks)", what, n);
    return -1;
  }
  return 0;
}

int ckpt_init(struct ftl *f, uint64_t off) {
  struct ckpt *k = &f->ckpt;
  memset(k, 0, sizeof *k);
  if (!ckpt_enabled(&f->cfg)) return 0;
  const uint64_t image = (uint64_t)ckpt_pages(&f->cfg) * page_bytes(&f->cfg);
  const uint64_t bufs = (uint64_t)CKPT_INFLIGHT * CKPT_BUF_STRIDE;
  k->area_n = ckpt_area_blocks(&f->cfg);
  k->image = hal_dram(f->hal, (uint32_t)(f->cfg.dram_base + off), (uint32_t)image);
  k->image_bus = (uint32_t)(f->cfg.dram_base + off);
  k->bufmem = hal_dram(f->hal, (uint32_t)(f->cfg.dram_base + off + image), (uint32_t)bufs);
  k->bufs_bus = (uint32_t)(f->cfg.dram_base + off + image);
  k->area = hal_dram(f->hal, (uint32_t)(f->cfg.dram_base + off + image + bufs), 2 * k->area_n * 4);
  if (!k->image || !k->bufmem || !k->area) return -1;
  tlog_init(f, (uint32_t)(f->cfg.dram_base + off + image + bufs + ((2ull * k->area_n * 4 + 63) & ~63ull)));
  k->on = 1;
  k->free_bufs = (1u << CKPT_INFLIGHT) - 1;
  if (reserve_area_blocks(f, k->area, 2 * k->area_n, "the checkpoint areas")) return -1;
  k->next_ns = hal_time_ns(f->hal) + f->cfg.ckpt_interval_ns;
  k->next_lbas = f->stats.host_lba_writes + f->cfg.ckpt_interval_lbas;
  f->stats.free_blocks_min = f->free_total;
  return 0;
}

int ckpt_is_area_block(const struct ftl *f, uint32_t blk) {
  for (uint32_t i = 0; i < 2 * f->ckpt.area_n; ++i)
    if (f->ckpt.area[i] == blk) return 1;
  return 0;
}

static int due(const struct ftl *f) {
  const struct ckpt *k = &f->ckpt;
  if (k->asap) return 1; /* the trim log is full (trimlog.c) */
  if (f->cfg.ckpt_interval_ns && hal_time_ns(f->hal) >= k->next_ns) return 1;
  if (f->cfg.ckpt_interval_lbas && f->stats.host_lba_writes >= k->next_lbas) return 1;
  return 0;
}

int ckpt_drained(const struct ftl *f) {
  if (f->programs_inflight) return 0;
  const uint32_t n = place_frontiers(&f->cfg);
  for (uint32_t i = 0; i < n; ++i) {
    const uint32_t b = f->fr[i].buf;
    if (b != FTL_NONE && f->bufs[b].row != FTL_NONE && f->bufs[b].filled) return 0;
  }
  return 1;
}

static void snapshot(struct ftl *f) {
  struct ckpt *k = &f->ckpt;
  const uint32_t B = f->total_blocks;
  uint32_t *h = k->image;
  const uint32_t bytes = ckpt_image_bytes(&f->cfg);
  memset(h, 0, CKPT_HEADER_BYTES);
  h[CKPT_H_MAGIC] = CKPT_MAGIC;
  h[CKPT_H_GEN] = k->gen + 1;
  h[CKPT_H_SEQ] = f->seq;
  h[CKPT_H_LBAS_LO] = (uint32_t)f->cfg.logical_lbas;
  h[CKPT_H_LBAS_HI] = (uint32_t)(f->cfg.logical_lbas >> 32);
  h[CKPT_H_BLOCKS] = B;
  h[CKPT_H_PAGES] = ckpt_pages(&f->cfg);
  h[CKPT_H_BYTES] = bytes;
  uint32_t *l2p = h + CKPT_HEADER_BYTES / 4;
  memcpy(l2p, f->l2p, f->cfg.logical_lbas * 4);
  uint32_t *erase = l2p + f->cfg.logical_lbas;
  memcpy(erase, f->blk_erase, (size_t)B * 4);
  uint8_t *state = (uint8_t *)(erase + B);
  for (uint32_t b = 0; b < B; ++b) {
    const uint8_t s = f->blk_state[b];
    state[b] = (uint8_t)(s == BLK_FREE   ? CKPT_BLK_FREE
                         : s == BLK_OPEN ? CKPT_BLK_OPEN
                         : s == BLK_BAD  ? CKPT_BLK_BAD
                                         : CKPT_BLK_USED);
  }
  hal_charge(f->hal, FW_OP_ckpt_copy_word, (uint32_t)(bytes / 4));
  k->snap_seq = f->seq;
}

static void schedule_next(struct ftl *f) {
  struct ckpt *k = &f->ckpt;
  k->next_ns = hal_time_ns(f->hal) + f->cfg.ckpt_interval_ns;
  k->next_lbas = f->stats.host_lba_writes + f->cfg.ckpt_interval_lbas;
  k->asap = 0;
}

static uint32_t take_buf(struct ckpt *k) {
  if (!k->free_bufs) return FTL_NONE;
  const uint32_t i = (uint32_t)__builtin_ctz(k->free_bufs);
  k->free_bufs &= ~(1u << i);
  return i;
}

int ckpt_poll(struct ftl *f) {
  struct ckpt *k = &f->ckpt;
  if (!k->on) return 0;
  switch (k->phase) {
    case CKPT_IDLE: {
      if (!due(f)) return 0;
      k->phase = CKPT_DRAIN;
      k->draining = 1;
      f->stats.ckpt_in_progress = 1;
      k->drain_since_ns = hal_time_ns(f->hal);
      const uint32_t n = place_frontiers(&f->cfg);
      for (uint32_t i = 0; i < n; ++i) frontier_flush_one(f, &f->fr[i]);
      return 1;
    }
    case CKPT_DRAIN:
      if (!ckpt_drained(f)) return 0;
      snapshot(f);
      k->draining = 0;
      f->stats.ckpt_drain_ns += hal_time_ns(f->hal) - k->drain_since_ns;
      k->phase = CKPT_ERASE;
      k->next = k->done = 0;
      k->failed = 0;
      return 1;
    case CKPT_ERASE: {
      int did = 0;
      const uint32_t a = k->writing;
      while (k->next < k->area_n && k->inflight < CKPT_INFLIGHT) {
        flash_submit(f, FC_OP_ERASE, TAG(TAG_CKPT, CKPT_TAG_ERASE | k->next), k->area[a * k->area_n + k->next], 0, 0);
        f->stats.ckpt_erases++;
        k->next++, k->inflight++, did = 1;
      }
      if (k->done == k->area_n && !k->inflight) {
        k->next = k->done = 0;
        k->phase = k->failed ? CKPT_IDLE : CKPT_PROGRAM;
        if (k->failed) {
          f->stats.ckpt_failed++;
          f->stats.ckpt_in_progress = 0;
          schedule_next(f);
        }
        did = 1;
      }
      return did;
    }
    case CKPT_PROGRAM: {
      int did = 0;
      const uint32_t a = k->writing, S = f->cfg.slots_per_page, npages = ckpt_pages(&f->cfg);
      const uint32_t pbytes = page_bytes(&f->cfg), bytes = ckpt_image_bytes(&f->cfg);
      while (k->next < npages) {
        const uint32_t i = take_buf(k);
        if (i == FTL_NONE) break;
        uint32_t *buf = ckpt_buf(f, i);
        memset(buf, 0, FC_PAGE_BUF_BYTES(S));
        buf[CKPT_T_GEN] = k->gen + 1;
        if (S > CKPT_T_PAGE) buf[CKPT_T_PAGE] = k->next;
        for (uint32_t s = 0; s < S; ++s) buf[S + s] = SSDVP_LPN_NONE;
        buf[2 * (size_t)S] = k->gen + 1; /* OOB sequence: the generation (never compared with data pages') */
        const uint32_t at = k->next * pbytes, len = bytes - at < pbytes ? bytes - at : pbytes;
        flash_submit_meta(f, FC_OP_PROGRAM, TAG(TAG_CKPT, i), ckpt_row(f, a, k->next), ckpt_buf_bus(f, i),
                          k->image_bus + at, len);
        f->stats.ckpt_programs++;
        k->next++, k->inflight++, did = 1;
      }
      if (k->done == npages && !k->inflight) {
        if (k->failed) {
          f->stats.ckpt_failed++;
        } else {
          k->gen++;
          tlog_checkpoint_done(f, k->writing, k->gen, npages); /* the trim log goes on after this image */
          k->writing ^= 1;                                     /* the next checkpoint overwrites the older area */
          f->stats.ckpt_taken++;
        }
        k->phase = CKPT_IDLE;
        f->stats.ckpt_in_progress = 0;
        schedule_next(f);
        host_check_flush(f); /* a flush waiting for the trim log's records (its area was full) */
        did = 1;
      }
      return did;
    }
  }
  return 0;
}

void ckpt_done(struct ftl *f, uint32_t idx, int status) {
  struct ckpt *k = &f->ckpt;
  if (idx & CKPT_TAG_LOG) {
    tlog_done(f, idx, status);
    return;
  }
  k->inflight--;
  k->done++;
  if (status != FC_OK) k->failed = 1;
  if (!(idx & CKPT_TAG_ERASE)) k->free_bufs |= 1u << idx;
}

/* ---- recovery: read an area back ---------------------------------------- */

/* Reads image page p of area a into the image; returns the completion's
 * status (FC_OK with flags checked: an erased page is FC_ERR_UNCORRECTABLE). */
static int read_page(struct ftl *f, uint32_t a, uint32_t p, uint32_t *gen) {
  struct ckpt *k = &f->ckpt;
  const uint32_t S = f->cfg.slots_per_page, pbytes = page_bytes(&f->cfg), bytes = ckpt_image_bytes(&f->cfg);
  const uint32_t at = p * pbytes, len = bytes - at < pbytes ? bytes - at : pbytes;
  uint32_t *buf = ckpt_buf(f, 0);
  memset(buf, 0, FC_PAGE_BUF_BYTES(S));
  flash_submit_meta(f, FC_OP_READ, TAG(TAG_CKPT, 0), ckpt_row(f, a, p), ckpt_buf_bus(f, 0), k->image_bus + at, len);
  f->stats.recovery_ckpt_pages++;
  struct fc_cqe c;
  if (flash_wait_one(f, TAG(TAG_CKPT, 0), &c)) return -1;
  if (c.status != FC_OK || (c.flags & FC_FLAG_ERASED)) return -1;
  if (S > CKPT_T_PAGE && buf[CKPT_T_PAGE] != p) return -1;
  *gen = buf[CKPT_T_GEN];
  return 0;
}

static int header_ok(const struct ftl *f, uint32_t gen) {
  const uint32_t *h = f->ckpt.image;
  return h[CKPT_H_MAGIC] == CKPT_MAGIC && h[CKPT_H_GEN] == gen && h[CKPT_H_LBAS_LO] == (uint32_t)f->cfg.logical_lbas &&
         h[CKPT_H_LBAS_HI] == (uint32_t)(f->cfg.logical_lbas >> 32) && h[CKPT_H_BLOCKS] == f->total_blocks &&
         h[CKPT_H_PAGES] == ckpt_pages(&f->cfg) && h[CKPT_H_BYTES] == ckpt_image_bytes(&f->cfg);
}

/* Reads the whole of area a into the image; 0 if every page belongs to
 * checkpoint gen and reads back. */
static int read_area(struct ftl *f, uint32_t a, uint32_t gen) {
  const uint32_t npages = ckpt_pages(&f->cfg);
  for (uint32_t p = 0; p < npages; ++p) {
    uint32_t g = 0;
    if (read_page(f, a, p, &g) || g != gen) return -1;
    if (p == 0 && !header_ok(f, gen)) return -1;
  }
  return 0;
}

int ckpt_load(struct ftl *f) {
  struct ckpt *k = &f->ckpt;
  if (!k->on) return -1;
  /* the generation of each area, from its first page */
  uint32_t gen[2] = {0, 0};
  for (uint32_t a = 0; a < 2; ++a) {
    uint32_t g = 0;
    if (read_page(f, a, 0, &g) == 0 && header_ok(f, g)) gen[a] = g;
    if (f->fatal) return -1;
  }
  const uint32_t first = gen[1] > gen[0] ? 1 : 0;
  for (uint32_t i = 0; i < 2; ++i) {
    const uint32_t a = i ? first ^ 1 : first;
    if (!gen[a]) continue;
    if (read_area(f, a, gen[a]) == 0) {
      k->gen = gen[a];
      k->writing = a ^ 1;
      f->stats.recovery_ckpt_gen = gen[a];
      return 0;
    }
    if (f->fatal) return -1;
    f->stats.recovery_ckpt_torn++; /* torn or unreadable: the other area, or a full scan */
  }
  return -1;
}
