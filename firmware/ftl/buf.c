/*
 * buf.c - page buffers: DRAM pages in three pools (host writes, host reads,
 * GC), each on a free list. A buffer being filled or programmed counts in
 * its block's blk_inbuf, so that reads can tell cheaply whether a row may be
 * in a buffer.
 */
#include "ftl_internal.h"

uint32_t buf_get(struct ftl *f, int pool, enum buf_state state) {
  const uint32_t b = f->pool_free[pool];
  if (b == FTL_NONE) return FTL_NONE;
  f->pool_free[pool] = f->bufs[b].next;
  f->pool_avail[pool]--;
  f->bufs[b].state = (uint8_t)state;
  f->bufs[b].next = FTL_NONE;
  f->bufs[b].row = FTL_NONE;
  f->bufs[b].filled = 0;
  f->bufs[b].mask = 0;
  hal_charge(f->hal, FW_OP_buffer_alloc, 1);
  return b;
}

void buf_add(struct ftl *f, uint32_t b) {
  struct pagebuf *pb = &f->bufs[b];
  pb->state = BUF_FREE;
  pb->row = FTL_NONE;
  pb->next = f->pool_free[pb->pool];
  f->pool_free[pb->pool] = b;
  f->pool_avail[pb->pool]++;
}

void buf_put(struct ftl *f, uint32_t b) {
  struct pagebuf *pb = &f->bufs[b];
  if (pb->state == BUF_FREE) return;
  if (pb->row != FTL_NONE && (pb->state == BUF_FILLING || pb->state == BUF_PROGRAM))
    f->blk_inbuf[row_block(f, pb->row)]--;
  buf_add(f, b);
}

uint32_t buf_find_row(const struct ftl *f, uint32_t row) {
  if (!f->blk_inbuf[row_block(f, row)]) return FTL_NONE;
  for (uint32_t b = 0; b < f->nbufs; ++b) {
    const struct pagebuf *pb = &f->bufs[b];
    if (pb->row == row && (pb->state == BUF_FILLING || pb->state == BUF_PROGRAM)) return b;
  }
  return FTL_NONE;
}

void buf_read_row(struct ftl *f, uint32_t b, uint32_t row) {
  struct pagebuf *pb = &f->bufs[b];
  pb->row = row;
  pb->mask = f->cfg.slots_per_page >= 32 ? 0xffffffffu : (1u << f->cfg.slots_per_page) - 1;
  f->stats.recovery_pages++;
  flash_submit(f, FC_OP_READ, TAG(TAG_HOST_READ, b), row, pb->mask, pb->dram);
}
