/*
 * state.c - a saved drive (ssdvp run --save-state / --load-state,
 * docs/state.md): the firmware's state outside its DRAM.
 *
 * Everything the FTL keeps lives in DRAM (tables, page buffers, command
 * slots, GC jobs: ftl_init.c's plan()) except struct ftl itself: counters,
 * frontiers, list heads and the windows onto DRAM. The platform saves the
 * DRAM image and this struct; on load it runs ftl_init with the same
 * configuration, restores the DRAM image and calls ftl_state_load, which
 * takes the saved counters and keeps this instance's windows, HAL and rings
 * (the controllers were just programmed with empty rings at index 0).
 * Pointers that live in DRAM (a page buffer's and a command slot's window)
 * are moved by the distance between the two DRAM windows. Checkpoints and
 * the trim log: their windows are this instance's; a drive whose
 * preconditioning wrote a checkpoint or a log page is not saved (their bytes
 * are fc_sqe.meta payloads the flash controller keeps).
 */
#include <string.h>

#include "ftl_internal.h"
#include "hal.h"

/* Changed whenever struct ftl's fields move without changing its size (the
 * header's size check catches the rest): "STF2" since the transport's state
 * became struct nvmet_state. */
#define STATE_MAGIC 0x32465453u /* "STF2" */

struct state_header {
  uint32_t magic;
  uint32_t bytes; /* sizeof(struct ftl) */
};

size_t ftl_state_bytes(void) { return sizeof(struct state_header) + sizeof(struct ftl); }

int ftl_state_save(const struct ftl *f, void *out) {
  /* The rings are not saved (ftl_state_load keeps the fresh ones): nothing
   * may be in them or in flight. */
  if (f->flash_outstanding || f->nt.xfer_outstanding || f->programs_inflight || f->erases_inflight || f->fsq_dirty ||
      f->nt.nxfer_dirty || f->in_func_call) {
    hal_logf(f->hal, HAL_LOG_ERROR,
             "ftl: state saved while work is in flight (flash %" PRIu32 ", transfers %" PRIu32 ", programs %" PRIu32
             ", erases %" PRIu32 "): save after preconditioning only",
             f->flash_outstanding, f->nt.xfer_outstanding, f->programs_inflight, f->erases_inflight);
    return -1;
  }
  if (f->cmt.on) { /* its translation pages' bytes live in the flash controller, which a saved drive does not hold */
    hal_logf(f->hal, HAL_LOG_ERROR, "ftl: --save-state is not built for ftl.mapping: cached");
    return -1;
  }
  if (f->ckpt.gen || f->ckpt.phase || f->tlog.next || f->tlog.rot ||
      f->tlog.top_gen > 1) { /* their pages' bytes too (fc_sqe.meta) */
    hal_logf(f->hal, HAL_LOG_ERROR,
             "ftl: --save-state after a checkpoint or trim log page was written in preconditioning "
             "(power.checkpoint.writes, power.checkpoint.interval, power.trim_log.mode): their bytes live in the flash "
             "controller, which "
             "a saved drive does not hold");
    return -1;
  }
  struct state_header h = {STATE_MAGIC, (uint32_t)sizeof(struct ftl)};
  memcpy(out, &h, sizeof h);
  memcpy((char *)out + sizeof h, f, sizeof *f);
  return 0;
}

/* A window that lives in DRAM, moved from the saved DRAM mapping to this one. */
static void *moved(void *p, uintptr_t delta) { return p ? (void *)((uintptr_t)p + delta) : p; }

int ftl_state_load(struct ftl *f, const void *in, size_t bytes) {
  struct state_header h;
  if (bytes != ftl_state_bytes()) {
    hal_logf(f->hal, HAL_LOG_ERROR, "ftl: saved state of %llu bytes, expected %llu (another build or CPU mode)",
             (unsigned long long)bytes, (unsigned long long)ftl_state_bytes());
    return -1;
  }
  memcpy(&h, in, sizeof h);
  if (h.magic != STATE_MAGIC || h.bytes != sizeof(struct ftl)) {
    hal_logf(f->hal, HAL_LOG_ERROR, "ftl: saved state is not this firmware's (magic %08" PRIx32 ", %" PRIu32 " bytes)",
             h.magic, h.bytes);
    return -1;
  }
  const struct ftl cur = *f; /* this instance after ftl_init: its windows and rings */
  memcpy(f, (const char *)in + sizeof h, sizeof *f);
  if (f->dies != cur.dies || f->total_blocks != cur.total_blocks || f->slots_per_block != cur.slots_per_block ||
      f->nbufs != cur.nbufs || f->classes != cur.classes || f->gc_fr != cur.gc_fr || f->slices != cur.slices ||
      f->cfg.logical_lbas != cur.cfg.logical_lbas || f->cfg.cmd_slots != cur.cfg.cmd_slots ||
      f->cfg.gc_max_active != cur.cfg.gc_max_active || f->dram_end != cur.dram_end) {
    *f = cur;
    hal_logf(f->hal, HAL_LOG_ERROR, "ftl: saved state is of another drive layout");
    return -1;
  }
  const uintptr_t delta = (uintptr_t)cur.l2p - (uintptr_t)f->l2p;
  f->hal = cur.hal;
  f->cfg = cur.cfg; /* this run's settings (the platform checked the ones that shape the drive) */
  f->l2p = cur.l2p;
  f->valid_bits = cur.valid_bits;
  f->blk_valid = cur.blk_valid;
  f->blk_erase = cur.blk_erase;
  f->blk_state = cur.blk_state;
  f->blk_wp = cur.blk_wp;
  f->blk_inbuf = cur.blk_inbuf;
  f->blk_closed_ns = cur.blk_closed_ns;
  f->blk_next = cur.blk_next;
  f->blk_prev = cur.blk_prev;
  f->closed_pos = cur.closed_pos;
  f->closed = cur.closed;
  f->bucket_head = cur.bucket_head;
  f->die_free_head = cur.die_free_head;
  f->die_free_tail = cur.die_free_tail;
  f->die_free_count = cur.die_free_count;
  f->die_reclaim = cur.die_reclaim;
  f->die_cand = cur.die_cand;
  f->blk_flags = cur.blk_flags;
  f->blk_reads = cur.blk_reads;
  f->cb = cur.cb;               /* copyback's windows (their contents are in DRAM) */
  f->ckpt.area = cur.ckpt.area; /* checkpoints' and the trim log's windows (their contents are in DRAM) */
  f->ckpt.image = cur.ckpt.image;
  f->ckpt.bufmem = cur.ckpt.bufmem;
  f->tlog.page = cur.tlog.page;
  f->tlog.oob = cur.tlog.oob;
  f->tlog.blocks = cur.tlog.blocks; /* its own areas (their contents are in DRAM) */
  f->tlog.bitmap = cur.tlog.bitmap;
  for (uint32_t i = 0; i < FTL_MAX_FRONTIERS; ++i) f->fr[i].open_block = cur.fr[i].open_block;
  f->hot.hal = cur.hot.hal;
  f->hot.count = cur.hot.count;
  f->hot.sum = cur.hot.sum;
  f->hot.last = cur.hot.last;
  f->slice_class = cur.slice_class;
  f->hot_f9 = cur.hot_f9;
  f->hot_t9 = cur.hot_t9;
  f->hot_fraw = cur.hot_fraw;
  f->hot_traw = cur.hot_traw;
  f->hot_labels = cur.hot_labels;
  f->accel_pts = cur.accel_pts;
  f->bufs = cur.bufs;
  f->nt.cmds = cur.nt.cmds;
  f->jobs = cur.jobs;
  /* The rings as ftl_init programmed them into the controllers (empty). */
  f->fsq = cur.fsq;
  f->fcq = cur.fcq;
  f->nt.ncmd = cur.nt.ncmd;
  f->nt.nxfer = cur.nt.nxfer;
  f->nt.ndone = cur.nt.ndone;
  f->nt.ncmd_unacked = cur.nt.ncmd_unacked;
  f->cs = cur.cs; /* this process's tables */
  f->nt.cmd_irq_masked = cur.nt.cmd_irq_masked;
  f->stop = 0;
  for (uint32_t b = 0; b < f->nbufs; ++b) {
    f->bufs[b].token = (uint32_t *)moved(f->bufs[b].token, delta);
    f->bufs[b].lpn = (uint32_t *)moved(f->bufs[b].lpn, delta);
  }
  for (uint32_t c = 0; c < f->cfg.cmd_slots; ++c) f->nt.cmds[c].tokens = (uint32_t *)moved(f->nt.cmds[c].tokens, delta);
  return 0;
}
