/*
 * vcopy.c - GC moves by copy: the data moves on the flash side, the FTL
 * names sources and destinations only (ftl_set_gc_copy(); the host-level
 * FTL's host.ftl.gc_copy: vector_copy, docs/models/host_ftl.md).
 *
 * Only for a HAL that has FC_OP_COPY (ssdvp_hw.h): the host FTL's, which
 * sends each one as an Open-Channel Vector Chunk Copy (93h). The SoC's flash
 * controller does not have it, and the device FTL never turns this on.
 *
 * A GC job gathers the valid slots of its victim, page by page, into units
 * of one page (slots_per_page sources): a victim page whose slots are all
 * valid is a unit by itself (the drive reads it once), the slots of partly
 * valid pages share units (sources from several victim pages):
 * a GC buffer per unit, whose token[s] is the source slot address of slot s.
 * A full unit takes the next row of the GC frontier (where the read path
 * would have placed the same data) and goes out as one FC_OP_COPY; the last
 * unit of a victim is padded with invalid slots of the victim (a whole unit
 * is the drive's minimum write), as a flush pads a page. Each unit counts as
 * one of its job's reads until the copy completed: the victim keeps the data
 * until then, and the LBAs are mapped to the copy at completion, unless they
 * were written or trimmed meanwhile (their slot in the copy is then dead).
 * The HAL returns the sources' OOB LPNs in the unit's lpn[] (the host keeps
 * each chunk's LBA list, as pblk does).
 *
 * Failures: a program that failed (Write Next Unit) consumed its destination
 * row, whose block is retired once collected; the unit goes out again to the
 * next row. A copy whose source failed ECC loses every LBA of the unit that
 * is still current (the drive does not say which source failed: up to
 * slots_per_page LBAs, where the read path loses the failing page's). Any
 * other status is a broken rule: fatal, as for a read.
 *
 * Relocated data must have a write point of its own (the GC frontier,
 * f->gc_fr == f->classes): a unit cannot be half copy and half host data, so with pblk's
 * single write point ftl_set_gc_copy() refuses; so it does with the cached
 * mapping (ftl.mapping: cached), whose deferred invalidations would make
 * valid bits name slots that are no longer current.
 */
#include "ftl_internal.h"

int ftl_set_gc_copy(struct ftl *f, int on) {
  if (on && (f->gc_fr != f->classes || f->cfg.gc_max_active > FTL_VC_JOBS || f->cmt.on)) return -1;
  f->vc.on = on ? 1u : 0u;
  f->vc.ready_head = f->vc.ready_tail = FTL_NONE;
  for (uint32_t j = 0; j < FTL_VC_JOBS; ++j) f->vc.unit[j] = f->vc.pad[j] = FTL_NONE;
  return 0;
}

static void ready_push(struct ftl *f, uint32_t b) {
  f->bufs[b].next = FTL_NONE;
  if (f->vc.ready_tail == FTL_NONE)
    f->vc.ready_head = b;
  else
    f->bufs[f->vc.ready_tail].next = b;
  f->vc.ready_tail = b;
}

/* Sends the units waiting for a destination, in order, while the GC frontier
 * has rows (its page being filled by the read path, if any, goes first: the
 * rows of a block are programmed in order). */
void vcopy_submit_ready(struct ftl *f) {
  if (!f->vc.on) return;
  struct frontier *fr = &f->fr[f->gc_fr];
  while (f->vc.ready_head != FTL_NONE) {
    if (fr->buf != FTL_NONE && f->bufs[fr->buf].row != FTL_NONE) return;
    uint32_t row = FTL_NONE;
    int r = frontier_take_row(f, fr, &row);
    if (r > 0) r = frontier_take_row(f, fr, &row); /* a block was opened: its first row */
    if (r != 0) return;
    const uint32_t b = f->vc.ready_head;
    f->vc.ready_head = f->bufs[b].next;
    if (f->vc.ready_head == FTL_NONE) f->vc.ready_tail = FTL_NONE;
    struct pagebuf *pb = &f->bufs[b];
    pb->row = row;
    flash_submit(f, FC_OP_COPY, TAG(TAG_VCOPY, b), row, 0, pb->dram);
  }
}

/* The job's unit is complete (or the victim's last one, padded): it waits
 * for its destination. */
static void unit_close(struct ftl *f, uint32_t job) {
  const uint32_t S = f->cfg.slots_per_page, b = f->vc.unit[job];
  struct pagebuf *pb = &f->bufs[b];
  for (uint32_t s = pb->filled; s < S; ++s) { /* padding: a dead slot of the victim, or the unit's first source */
    pb->token[s] = f->vc.pad[job] != FTL_NONE ? f->vc.pad[job] : pb->token[0];
    pb->mask &= ~(1u << s);
    f->stats.pad_slots++;
  }
  f->vc.unit[job] = FTL_NONE;
  ready_push(f, b);
}

int vcopy_add(struct ftl *f, uint32_t job, uint32_t row, uint32_t mask) {
  if (!f->vc.on) return 0;
  const uint32_t S = f->cfg.slots_per_page, full = S >= 32 ? 0xffffffffu : (1u << S) - 1;
  if (!mask) return 1;
  /* A whole page is a unit of its own (the drive reads it once); the slots of
   * partly valid pages fill the job's gathering unit. */
  const uint32_t gathering = f->vc.unit[job];
  if (mask == full) f->vc.unit[job] = FTL_NONE;
  /* GC buffers this page needs (two stay for the frontier, as for reads) */
  const uint32_t have = f->vc.unit[job] == FTL_NONE ? 0 : S - f->bufs[f->vc.unit[job]].filled;
  const uint32_t n = (uint32_t)__builtin_popcount(mask), need = n > have ? (n - have + S - 1) / S : 0;
  if (f->pool_avail[POOL_GC] < need + 2) {
    f->vc.unit[job] = gathering;
    return -1;
  }
  if (mask != full) /* an invalid slot of a programmed page: padding for the victim's last unit */
    for (uint32_t s = 0; s < S && f->vc.pad[job] == FTL_NONE; ++s)
      if (!(mask & (1u << s))) f->vc.pad[job] = row * S + s;
  for (uint32_t s = 0; s < S; ++s) {
    if (!(mask & (1u << s))) continue;
    if (f->vc.unit[job] == FTL_NONE) {
      const uint32_t b = buf_get(f, POOL_GC, BUF_GC_READ);
      struct pagebuf *pb = &f->bufs[b];
      pb->row = FTL_NONE;
      pb->mask = 0;
      pb->filled = 0;
      pb->cmd = job;
      f->jobs[job].reads++;
      f->vc.unit[job] = b;
    }
    struct pagebuf *pb = &f->bufs[f->vc.unit[job]];
    pb->mask |= 1u << pb->filled;
    pb->token[pb->filled++] = row * S + s;
    if (pb->filled == S) unit_close(f, job);
  }
  if (mask == full) f->vc.unit[job] = gathering;
  return 1;
}

void vcopy_victim_done(struct ftl *f, uint32_t job) {
  if (!f->vc.on) return;
  if (f->vc.unit[job] != FTL_NONE) unit_close(f, job);
  f->vc.pad[job] = FTL_NONE;
  vcopy_submit_ready(f);
}

uint32_t vcopy_done(struct ftl *f, uint32_t b, int status) {
  struct pagebuf *pb = &f->bufs[b];
  const uint32_t S = f->cfg.slots_per_page, ppb = f->cfg.pages_per_block, dst = pb->row;
  const uint32_t dblk = row_block(f, dst);
  /* Its last page programmed (the drive completes a chunk's writes in order): a GC candidate. */
  if (dst % ppb == ppb - 1) block_set_state(f, dblk, BLK_CLOSED);
  if (status == FC_ERR_PROGRAM_FAIL) { /* the row is consumed, the sources still hold the data: again */
    f->stats.program_failures++;
    block_flag(f, dblk, BLKF_RETIRE);
    pb->row = FTL_NONE;
    ready_push(f, b);
    vcopy_submit_ready(f);
    return FTL_NONE;
  }
  uint32_t moved = 0;
  for (uint32_t s = 0; s < S; ++s) {
    const uint32_t lpn = pb->lpn[s], old = pb->token[s];
    if (!(pb->mask & (1u << s)) || lpn >= f->cfg.logical_lbas || !map_current(f, lpn, old)) continue;
    if (status != FC_OK) { /* which source failed is unknown: the unit's current LBAs are lost */
      uint32_t lpns[32];
      for (uint32_t k = 0; k < S; ++k) lpns[k] = lpn;
      f->stats.lost_lbas += map_lose_row(f, old / S, 1u << (old % S), lpns);
      continue;
    }
    map_set(f, lpn, dst * S + s);
    map_invalidate_ppa(f, old);
    hal_charge(f->hal, FW_OP_l2p_update, 1);
    ++moved;
  }
  if (status != FC_OK) {
    hal_logf(f->hal, status == FC_ERR_UNCORRECTABLE ? HAL_LOG_WARN : HAL_LOG_ERROR,
             "ftl: copy to row %" PRIu32 " failed with status %d", dst, status);
    if (status != FC_ERR_UNCORRECTABLE) {
      f->stats.flash_errors++;
      f->fatal = 1;
    }
  }
  return moved;
}
