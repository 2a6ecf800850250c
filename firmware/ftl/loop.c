/*
 * loop.c - the event loop, GC scheduling, and functional access.
 *
 * A pass: flash completions (dispatched by tag kind), the NVMe transfer-done
 * and command rings, waiting GC data, waiting commands, GC scheduling, then
 * the flash and NVMe doorbells once each. A stage that places data stops
 * when it took a free block or closed one (STEP_YIELD, ftl_internal.h); the
 * loop schedules GC and runs the stage again, which continues where it
 * stopped.
 */
#include <string.h>

#include "ftl_internal.h"

/* The one place GC work starts: a wear victim when one is due and the free
 * pool has room to spare, victims while the free pool (with erases in
 * flight) is below the threshold and a job slot is idle, then victim reads
 * for every job while GC buffers allow. */
static void gc_schedule(struct ftl *f) {
  f->gc_pending = 0;
  /* Blocks to retire (a program failed) or refresh (read disturb, retries)
   * go first while host writes are not held at the GC reserve; there GC
   * needs its job slots for space (collecting them frees one block at most). */
  while (f->urgent && f->free_total > f->cfg.gc_reserve_blocks) {
    const uint32_t j = gc_idle_job(f);
    const uint32_t blk = j == FTL_NONE ? FTL_NONE : block_pick_urgent(f);
    if (blk == FTL_NONE) break;
    if (!(f->blk_flags[blk] & BLKF_RETIRE)) f->stats.refreshes++;
    gc_start(f, j, blk, 0);
  }
  if (f->wear_due && !gcsched_below_threshold(f)) { /* a wear victim may be full of valid data */
    const uint32_t j = gc_idle_job(f);
    if (j != FTL_NONE) {
      const uint32_t blk = block_pick_coldest(f);
      f->wear_due = 0;
      if (blk != FTL_NONE) {
        f->stats.wear_victims++;
        gc_start(f, j, blk, 1);
      }
    }
  }
  const int quiet = gcgate_quiet(&f->gate); /* no host coordination: the gate is open and asks for nothing */
  for (;;) {                                /* ftl.gc.trigger (gcsched.c), and the host's GC coordination (gcgate.c) */
    const enum gc_want w = gcsched_want(f);
    if (!((w != GC_WANT_NONE || (!quiet && gcgate_want(f))) && (quiet || gcgate_allow(f)))) {
      if (w == GC_WANT_NONE && !f->gc_active && f->sched.in_episode) gc_episode_end(f);
      break;
    }
    const uint32_t j = gc_idle_job(f);
    if (j == FTL_NONE) break;
    const uint32_t blk = block_pick_victim(f);
    if (blk == FTL_NONE) break;
    if (w == GC_WANT_BACKGROUND) f->stats.gc_idle_victims++;
    gc_start(f, j, blk, 0);
    gc_pair(f, j); /* ftl.gc.pair_planes: its siblings in the die's other planes */
  }
  gc_issue_reads(f);
}

/* Runs a stage to its end, with a GC step wherever it yields. */
static int drain(struct ftl *f, int (*stage)(struct ftl *)) {
  int did = 0;
  for (;;) {
    const int r = stage(f);
    did |= r & STEP_DONE;
    if (!(r & STEP_YIELD)) return did;
    gc_schedule(f);
  }
}

/* The L2P entries the fetched GC reads will check and update are random
 * lines of a large table: prefetched together, their cache misses overlap
 * instead of coming one after another (host speed only, no simulated cost). */
static void prefetch_gc_reads(const struct ftl *f) {
#if defined(__riscv) /* the RV32 build's instructions are its time: nothing here */
  (void)f;
#else
  const struct fc_cqe *q = (const struct fc_cqe *)f->fcq.mem;
  for (uint32_t i = f->fcq.head; i != f->fcq.tail; i = (i + 1) & (f->fcq.size - 1))
    if (TAG_KIND(q[i].tag) == TAG_GC_READ) gc_prefetch(f, TAG_IDX(q[i].tag));
#endif
}

static int flash_completions(struct ftl *f) {
  if (!flash_cq_fetch(f)) return 0;
  prefetch_gc_reads(f);
  struct fc_cqe c;
  while (flash_cq_pop(f, &c)) {
    const uint32_t idx = TAG_IDX(c.tag);
    switch (TAG_KIND(c.tag)) {
      case TAG_PROGRAM: program_done(f, idx, c.status); break;
      case TAG_HOST_READ: host_read_done(f, idx, c.status, FC_FLAG_RETRIES(c.flags)); break;
      case TAG_GC_READ:
        if (gc_read_done(f, idx, c.status, FC_FLAG_RETRIES(c.flags)) & STEP_YIELD) {
          gc_schedule(f);
          drain(f, gc_relocate);
        }
        break;
      case TAG_ERASE: gc_erase_done(f, idx, c.status); break;
      case TAG_COPYBACK: gc_copyback_done(f, idx, c.status, FC_FLAG_HOPS(c.flags)); break;
      case TAG_VCOPY: gc_vcopy_done(f, idx, c.status); break;
      case TAG_CKPT: ckpt_done(f, idx, c.status); break;
      case TAG_TRANS: /* cmt.c; commands waiting for the entries it loaded go on at once */
        if (cmt_flash_done(f, &c) && f->nt.wait_head != FTL_NONE) drain(f, host_resume_waiting);
        break;
      default:
        hal_logf(f->hal, HAL_LOG_ERROR, "ftl: flash completion with unknown tag 0x%" PRIx32 "", c.tag);
        f->fatal = 1;
    }
  }
  flash_cq_release(f);
  if (f->erase_waiting) gc_erase_ready(f); /* ftl.gc.durable: victims whose relocated data is now programmed */
  if (f->flush_waiters) host_check_flush(f);
  return 1;
}

/* A pass calls a feature's poll only when the feature is configured or has
 * work (each poll returns at once otherwise, so the decisions are the same):
 * on the RV32 core a call that saves a dozen registers to find nothing to do
 * costs as much as the check, and the loop makes about 12 passes per host
 * I/O. Native mode charges nothing for any of these checks. */
static int nvm_poll(struct ftl *f) {
  int did = flash_completions(f);
  if (f->ckpt.on) did |= ckpt_poll(f);       /* periodic checkpoints (ckpt.c): may hold placement while it drains */
  if (f->tlog.rot_asap) did |= tlog_poll(f); /* the trim log moves to its other area (trimlog.c) */
  if (!f->in_func_call) {
    did |= drain(f, host_transfers_done);
    did |= drain(f, host_commands);
  }
  if (f->gc_place_head != FTL_NONE) did |= drain(f, gc_relocate);
  if (f->nt.wait_head != FTL_NONE) did |= drain(f, host_resume_waiting);
  if (f->cfg.gc_trigger >= FTL_GC_TRIGGER_IDLE) did |= gcsched_poll(f); /* the timer, idleness, AutoSSD's share */
  gc_schedule(f);
  if (gcgate_quiet(&f->gate)) {
    f->gate.reported_gc = f->gc_active != 0; /* all gcgate_poll does with no coordination configured */
  } else {
    gcgate_poll(f); /* GC events and the lock for a coordinating host (gcgate.c) */
    for (uint32_t c, dw0; gcgate_next_completion(f, &c, &dw0);) nvmet_complete_dw0(f, c, NVME_SC_SUCCESS, dw0);
  }
  if (f->cmt.on) /* cached mapping */
    while (cmt_pump(f) && f->nt.wait_head != FTL_NONE) did |= drain(f, host_resume_waiting);
  if (f->cmt.trim_head != FTL_NONE) did |= host_resume_trims(f); /* cached mapping or trim log (trimlog.c) */
  if (f->mp_held) did |= frontier_hold_poll(f); /* ftl.multiplane_hold: pages that waited long enough */
  if (f->fsq_dirty) did |= flash_doorbell(f);
  if (f->nt.nxfer_dirty) did |= nvmet_doorbell(f);
  return did;
}

/* The NVM command set: this loop's pass, hostif.c's commands and transfers.
 * (open_channel and zns: ocssd.c's tables, no FTL on the drive.) */
const struct cmdset_ops cmdset_nvm = {nvm_poll, host_decode, host_xfer_done};

int ftl_poll(struct ftl *f) { return f->cs->poll(f); }

void ftl_main(struct ftl *f) {
  while (!f->stop) {
    if (ftl_poll(f)) continue;
    gcsched_sleep(f); /* ftl.gc.trigger idle: the timer for the moment the host turns idle */
    hal_wait_irq(f->hal);
    hal_charge(f->hal, FW_OP_irq_entry, 1);
  }
}

void ftl_request_stop(struct ftl *f) { f->stop = 1; }

int ftl_busy(const struct ftl *f) {
  return f->flash_outstanding || f->nt.xfer_outstanding || f->gc_active || f->nt.wait_head != FTL_NONE ||
         f->gc_place_head != FTL_NONE || cmt_busy(f) || f->tlog.rot_asap; /* rot_asap: the trim log's move */
}

const struct ftl_stats *ftl_get_stats(const struct ftl *f) { return &f->stats; }

uint64_t ftl_gc_active_ns(const struct ftl *f, uint64_t now_ns) {
  return f->stats.gc_active_ns + (f->gc_active && now_ns > f->gc_since_ns ? now_ns - f->gc_since_ns : 0);
}

/* A functional call whose pass found nothing to do while its work is in
 * flight waits for an interrupt once and looks again before it gives up: a
 * HAL whose flash completes later (the host FTL's blocking port) waits there,
 * as it does in a CQ_TAIL read, which ftl.flash_cq_phase does not make.
 * Elsewhere a functional flash operation completes inside its doorbell, the
 * wait returns at once and nothing new comes: stuck. */
static int func_stuck(struct ftl *f) {
  hal_wait_irq(f->hal);
  return !ftl_poll(f);
}

/* Polls until command slot c is released; -1 if nothing moves any more. */
static int func_wait(struct ftl *f, uint32_t c) {
  while (f->nt.cmds[c].state != CMD_FREE) {
    if (!ftl_poll(f) && f->nt.cmds[c].state != CMD_FREE && func_stuck(f)) {
      hal_logf(f->hal, HAL_LOG_ERROR, "ftl: functional command stuck (is the flash controller in functional mode?)");
      return -1;
    }
    if (f->fatal) return -1;
  }
  return 0;
}

static int func_drain(struct ftl *f) {
  while (ftl_busy(f)) {
    if (!ftl_poll(f) && ftl_busy(f) && func_stuck(f)) {
      hal_logf(f->hal, HAL_LOG_ERROR, "ftl: functional drain stuck");
      return -1;
    }
    if (f->fatal) return -1;
  }
  return 0;
}

static uint32_t func_cmd(struct ftl *f, uint8_t opcode, uint64_t lba, uint32_t n) {
  if (f->cfg.command_set != FTL_CMDSET_NVM) { /* no LBA space the FTL maps: the host writes chunks or zones */
    hal_logf(f->hal, HAL_LOG_ERROR, "ftl: functional access needs nvme.command_set nvm");
    return FTL_NONE;
  }
  const uint32_t c = nvmet_cmd_alloc(f);
  if (c == FTL_NONE) return FTL_NONE;
  struct fw_cmd *cmd = &f->nt.cmds[c];
  cmd->opcode = opcode;
  cmd->slba = lba;
  cmd->nlb = n;
  cmd->no_host_io = 1;
  return c;
}

int ftl_func_write(struct ftl *f, uint64_t lba, uint32_t n, const uint32_t *tokens) {
  return ftl_func_write_stream(f, lba, n, tokens, 0);
}

/* Preconditioning's writes stand for writes the host made before this run:
 * they carry the workload's stream identifiers but no NVMe command, so there
 * is no status to return and the Streams directive's state (enabled,
 * allocated, open identifiers: directives.c) is neither consulted nor
 * changed; the host enables and allocates streams when its replay starts.
 * The identifier's range is checked as a host write's would be: above
 * ftl.streams.limit is an error. */
int ftl_func_write_stream(struct ftl *f, uint64_t lba, uint32_t n, const uint32_t *tokens, uint32_t stream) {
  if (stream > f->cfg.streams_limit) {
    hal_logf(f->hal, HAL_LOG_ERROR,
             "ftl: functional write with stream identifier %" PRIu32 " above ftl.streams.limit %" PRIu32, stream,
             f->cfg.streams_limit);
    return -1;
  }
  if (lba >= f->cfg.logical_lbas || n > f->cfg.logical_lbas - lba) return -1;
  f->in_func_call = 1;
  int rc = 0;
  while (n && rc == 0) {
    const uint32_t chunk = n < f->cfg.max_transfer_lbas ? n : f->cfg.max_transfer_lbas;
    const uint32_t c = func_cmd(f, NVME_OP_WRITE, lba, chunk);
    if (c == FTL_NONE) {
      rc = -1;
      break;
    }
    memcpy(f->nt.cmds[c].tokens, tokens, (size_t)chunk * 4);
    f->nt.cmds[c].stream = (uint8_t)stream;
    int r;
    while ((r = cmd_place_writes(f, c)) == STEP_YIELD) gc_schedule(f);
    if (r == STEP_WAIT) nvmet_wait_push(f, c);
    rc = func_wait(f, c);
    lba += chunk;
    n -= chunk;
    tokens += chunk;
  }
  if (rc == 0) rc = func_drain(f);
  f->in_func_call = 0;
  return rc;
}

int ftl_func_read(struct ftl *f, uint64_t lba, uint32_t n, uint32_t *tokens) {
  if (lba >= f->cfg.logical_lbas || n > f->cfg.logical_lbas - lba) return -1;
  f->in_func_call = 1;
  int rc = 0;
  while (n && rc == 0) {
    const uint32_t chunk = n < f->cfg.max_transfer_lbas ? n : f->cfg.max_transfer_lbas;
    const uint32_t c = func_cmd(f, NVME_OP_READ, lba, chunk);
    if (c == FTL_NONE) {
      rc = -1;
      break;
    }
    if (!cmd_start_read(f, c)) nvmet_wait_push(f, c);
    rc = func_wait(f, c);
    memcpy(tokens, f->nt.cmds[c].tokens, (size_t)chunk * 4);
    if (f->nt.cmds[c].status != NVME_SC_SUCCESS) rc = -1;
    nvmet_cmd_release(f, c); /* read_maybe_done marked it free without linking it back */
    lba += chunk;
    n -= chunk;
    tokens += chunk;
  }
  f->in_func_call = 0;
  return rc;
}

int ftl_func_trim(struct ftl *f, uint64_t lba, uint64_t n) {
  if (lba >= f->cfg.logical_lbas || n > f->cfg.logical_lbas - lba) return -1;
  for (;;) {
    const uint64_t done = cmd_trim(f, lba, n);
    lba += done;
    n -= done;
    if (!n) return 0;
    f->in_func_call = 1; /* the cached mapping's log is full: its write-backs first (cmt.c) */
    const int rc = func_drain(f);
    f->in_func_call = 0;
    if (rc) return -1;
  }
}

int ftl_func_set_gc_threshold(struct ftl *f, uint32_t blocks) {
  if (blocks <= f->cfg.gc_reserve_blocks) return -1;
  f->cfg.gc_threshold_blocks = blocks;
  return 0;
}

/* A flush's work before its wait: the host frontiers' open pages padded and
 * programmed, and the trim log (deallocations before it: durable too). */
static void func_flush_pages(struct ftl *f) {
  while (frontier_flush_host(f) == STEP_YIELD) gc_schedule(f);
  tlog_program(f);
}

int ftl_func_flush(struct ftl *f) {
  f->in_func_call = 1;
  func_flush_pages(f);
  const int rc = func_drain(f);
  f->in_func_call = 0;
  return rc;
}

int ftl_func_flush_submit(struct ftl *f) {
  f->in_func_call = 1;
  func_flush_pages(f);
  flash_doorbell(f);
  f->in_func_call = 0;
  return f->fatal ? -1 : 0;
}

uint32_t ftl_func_submit(struct ftl *f, int write, uint64_t lba, uint32_t n, const uint32_t *tokens, uint32_t stream) {
  if (lba >= f->cfg.logical_lbas || n > f->cfg.logical_lbas - lba || n == 0 || n > f->cfg.max_transfer_lbas ||
      stream > f->cfg.streams_limit)
    return FTL_NONE;
  const uint32_t c = func_cmd(f, write ? NVME_OP_WRITE : NVME_OP_READ, lba, n);
  if (c == FTL_NONE) return FTL_NONE;
  f->in_func_call = 1;
  if (write) {
    memcpy(f->nt.cmds[c].tokens, tokens, (size_t)n * 4);
    f->nt.cmds[c].stream = (uint8_t)stream;
    int r;
    while ((r = cmd_place_writes(f, c)) == STEP_YIELD) gc_schedule(f);
    if (r == STEP_WAIT) nvmet_wait_push(f, c);
  } else if (!cmd_start_read(f, c)) {
    nvmet_wait_push(f, c);
  }
  f->in_func_call = 0;
  return c;
}

int ftl_func_done(struct ftl *f, uint32_t c, uint32_t *tokens, uint16_t *status) {
  struct fw_cmd *cmd = &f->nt.cmds[c];
  if (cmd->state != CMD_FREE) return 0;
  if (status) *status = cmd->status;
  if (cmd->opcode == NVME_OP_READ) { /* read_maybe_done marked it free without linking it back */
    if (tokens) memcpy(tokens, cmd->tokens, (size_t)cmd->nlb * 4);
    cmd->opcode = NVME_OP_FLUSH; /* reported once */
    cmd->next = f->nt.cmd_free;
    f->nt.cmd_free = c;
  }
  return 1;
}

uint64_t ftl_self_check(const struct ftl *f) {
  uint64_t bad = 0;
  /* every mapped LBA points at a valid slot; per-block counts match bits */
  uint64_t mapped = 0;
  for (uint64_t l = 0; f->l2p && l < f->cfg.logical_lbas; ++l) { /* cached mapping: cmt_self_check */
    const uint32_t p = f->l2p[l];
    if (p == FTL_UNMAPPED || p == FTL_LOST) continue;
    ++mapped;
    if (!ppa_valid(f, p)) ++bad;
  }
  uint64_t valid = 0;
  for (uint32_t b = 0; b < f->total_blocks; ++b) {
    uint32_t n = 0;
    const uint32_t first = b * f->slots_per_block;
    for (uint32_t s = 0; s < f->slots_per_block; ++s) n += ppa_valid(f, first + s);
    if (n != f->blk_valid[b]) ++bad;
    valid += n;
  }
  if (f->l2p && valid != mapped) ++bad;
  return bad + cmt_self_check(f);
}
