/*
 * hostif.c - NVMe commands: decode, data transfers, completions.
 *
 * The NVMe controller fetches host commands into the CMD ring. A command
 * takes a command slot with a token staging area in DRAM:
 *  - Write: host -> staging transfer; then each LBA is placed on the host
 *    frontier (page buffers); the completion is posted once all are placed
 *    (write-back: the data is in DRAM, as on a drive with power-loss
 *    protection). Without a page buffer or a block the command waits.
 *    With FUA (CDW12 bit 30) it is durable at completion instead: once
 *    placed, the host frontiers' open pages are padded and programmed and
 *    it waits, as a flush does, until no program is in flight.
 *  - Read: each LBA from a page buffer (recent writes), as deallocated, or
 *    by flash reads grouped per page; then staging -> host and completion.
 *  - Dataset Management (deallocate): range list -> staging, then trims.
 *  - Flush: pads and programs the host frontier's open page and completes
 *    when no program is in flight.
 * Invalid commands complete with the status a drive returns.
 */
#include <string.h>

#include "ftl_internal.h"

enum xfer_kind { XK_WRITE_DATA = 1, XK_DSM_RANGES = 2, XK_READ_DATA = 3, XK_ADMIN_DATA = 4 };
#define XTAG(kind, c) (((uint32_t)(kind) << 24) | (c))

uint32_t cmd_alloc(struct ftl *f) {
  const uint32_t c = f->cmd_free;
  if (c == FTL_NONE) return FTL_NONE;
  f->cmd_free = f->cmds[c].next;
  struct fw_cmd *cmd = &f->cmds[c];
  cmd->next = FTL_NONE;
  cmd->progress = 0;
  cmd->pending = 0;
  cmd->status = NVME_SC_SUCCESS;
  cmd->no_host_io = 0;
  cmd->stream = 0;
  cmd->recorded = 0;
  cmd->fua = 0;
  cmd->dw0 = 0;
  return c;
}

static void cmd_irq_mask(struct ftl *f, int masked) {
  if (f->cmd_irq_masked == masked) return;
  f->cmd_irq_masked = masked;
  const uint32_t en =
      (1u << IRQ_NVME_DONE) | (1u << IRQ_FLASH) | (masked ? 0u : 1u << IRQ_NVME_CMD) | f->sched.irq_extra;
  hal_write32(f->hal, SSDVP_INTC_BASE + INTC_ENABLE, en);
}

static void cmd_release(struct ftl *f, uint32_t c) {
  f->cmds[c].state = CMD_FREE;
  f->cmds[c].next = f->cmd_free;
  f->cmd_free = c;
  /* A level interrupt must never stay raised for work the firmware cannot
   * take: the command line is masked while no slot is free. */
  if (f->cmd_irq_masked && !f->in_func_call) cmd_irq_mask(f, 0);
}

static void xfer_post(struct ftl *f, uint8_t op, const struct fw_cmd *cmd, uint32_t tag, uint32_t dram, uint64_t host,
                      uint32_t n, uint16_t status) {
  struct nvme_xfer *x = (struct nvme_xfer *)f->nxfer.mem + f->nxfer.tail;
  x->op = op;
  x->rsvd0 = 0;
  x->sqid = cmd->sqid;
  x->cid = cmd->cid;
  x->status = status;
  x->tag = tag;
  x->dram = dram;
  x->host = host;
  x->nlb = n;
  x->dw0 = op == XFER_COMPLETE ? cmd->dw0 : 0;
  f->nxfer.tail = (f->nxfer.tail + 1) & (f->nxfer.size - 1);
  f->nxfer_dirty = 1;
  if (op != XFER_COMPLETE) f->xfer_outstanding++;
  hal_charge(f->hal, FW_OP_xfer_submit, 1);
}

void host_xfer(struct ftl *f, uint8_t op, uint32_t c, uint32_t tag, uint32_t dram, uint64_t host, uint32_t n) {
  xfer_post(f, op, &f->cmds[c], tag, dram, host, n, 0);
}

void host_mask_commands(struct ftl *f, int masked) { cmd_irq_mask(f, masked); }

int host_doorbell(struct ftl *f) {
  if (!f->nxfer_dirty) return 0;
  f->nxfer_dirty = 0;
  hal_write32(f->hal, SSDVP_NVME_BASE + NVME_XFER_TAIL, f->nxfer.tail);
  return 1;
}

void host_cmd_finish(struct ftl *f, uint32_t c, uint16_t status) {
  struct fw_cmd *cmd = &f->cmds[c];
  cmd->status = status;
  if (status != NVME_SC_SUCCESS) f->stats.host_errors++;
  if (!cmd->no_host_io) xfer_post(f, XFER_COMPLETE, cmd, 0, 0, 0, 0, status); /* completion dword 0: cmd->dw0 */
  cmd_release(f, c);
}

void host_cmd_finish_dw0(struct ftl *f, uint32_t c, uint16_t status, uint32_t dw0) {
  f->cmds[c].dw0 = dw0;
  host_cmd_finish(f, c, status);
}

/* Admin data in the staging area to the host; completes when transferred. */
static void host_send_admin_data(struct ftl *f, uint32_t c, uint32_t bytes) {
  struct fw_cmd *cmd = &f->cmds[c];
  cmd->state = CMD_D2H;
  xfer_post(f, XFER_D2H_RAW, cmd, XTAG(XK_ADMIN_DATA, c), cmd->staging, cmd->prp, bytes, 0);
}

void wait_push(struct ftl *f, uint32_t c) {
  f->cmds[c].next = FTL_NONE;
  if (f->cmds[c].opcode == NVME_OP_READ) f->wait_reads++;
  if (f->wait_tail == FTL_NONE)
    f->wait_head = c;
  else
    f->cmds[f->wait_tail].next = c;
  f->wait_tail = c;
}

/* ---- write ------------------------------------------------------------- */

/* Places a write command's LBAs from where it stopped: STEP_DONE (completed),
 * STEP_WAIT (no buffer or block), STEP_YIELD (a GC step first, then again). */
int cmd_place_writes(struct ftl *f, uint32_t c) {
  struct fw_cmd *cmd = &f->cmds[c];
  cmd->state = CMD_PLACE;
  if (!cmd->recorded) {
    cmd->recorded = 1;
    place_note_write(f, cmd->slba, cmd->nlb);
  }
  while (cmd->progress < cmd->nlb) {
    const uint32_t lpn = (uint32_t)(cmd->slba + cmd->progress);
    if (!map_ready(f, lpn)) return STEP_WAIT; /* its mapping entry is being read (cmt.c) */
    struct frontier *fr = place_host(f, lpn, cmd->stream);
    const int r = place_lba(f, fr, lpn, cmd->tokens[cmd->progress], 0);
    if (r == PLACE_YIELD) return STEP_YIELD;
    if (r == PLACE_WAIT) {
      f->stats.write_stalls++;
      if (!(cmd->recorded & 2)) { /* bit 1: this command stalled before */
        cmd->recorded |= 2;
        f->stats.write_stalled_cmds++;
      }
      return STEP_WAIT;
    }
    f->stats.host_lba_writes++;
    const uint32_t cls = fr->index < FTL_MAX_CLASSES ? fr->index : 0;
    f->stats.class_lba_writes[cls]++;
    f->stats.class_by_stream[cls][cmd->stream <= FTL_MAX_CLASSES ? cmd->stream : 0]++;
    ++cmd->progress;
    if (f->gc_pending) return STEP_YIELD;
  }
  if (cmd->fua) { /* durable before it completes: programmed, then as a flush */
    for (uint32_t i = 0; i < f->classes; ++i) frontier_flush_one(f, &f->fr[i]);
    cmd->state = CMD_WAIT_FLUSH;
    f->flush_waiters++;
    host_check_flush(f);
    return STEP_DONE;
  }
  host_cmd_finish(f, c, NVME_SC_SUCCESS);
  return STEP_DONE;
}

/* ---- waiting writes passing each other (ftl.write.at_floor pass, room) - */

/* Whether a waiting write ahead of write c in the wait list (from its head up
 * to `stop`, exclusive) writes an LBA that c writes: c must not land first. */
static int overlaps_waiting(const struct ftl *f, uint32_t c, uint32_t stop) {
  const struct fw_cmd *b = &f->cmds[c];
  for (uint32_t w = f->wait_head; w != stop && w != FTL_NONE; w = f->cmds[w].next) {
    const struct fw_cmd *a = &f->cmds[w];
    if (w != c && a->opcode == NVME_OP_WRITE && a->slba < b->slba + b->nlb && b->slba < a->slba + a->nlb) return 1;
  }
  return 0;
}

/* The frontier write c places its next LBA on, as a bit. */
static uint32_t next_frontier_bit(struct ftl *f, uint32_t c) {
  const struct fw_cmd *cmd = &f->cmds[c];
  return 1u << place_host(f, (uint32_t)(cmd->slba + cmd->progress), cmd->stream)->index;
}

/* Places a write whose data arrived; one that must wait joins the wait list,
 * as does one that writes an LBA of a write already waiting (pass and room:
 * waiting writes may be passed, so the same LBA must keep its order here). */
static int place_command(struct ftl *f, uint32_t c) {
  if (f->cfg.floor_policy >= FTL_FLOOR_PASS && f->wait_head != FTL_NONE && overlaps_waiting(f, c, FTL_NONE)) {
    f->cmds[c].state = CMD_PLACE;
    wait_push(f, c);
    return STEP_WAIT;
  }
  const int r = cmd_place_writes(f, c);
  if (r == STEP_WAIT) wait_push(f, c);
  return r;
}

/* ---- read -------------------------------------------------------------- */

static void read_submit(struct ftl *f, uint32_t b) {
  struct pagebuf *pb = &f->bufs[b];
  f->cmds[pb->cmd].pending++;
  f->stats.flash_reads++;
  flash_submit(f, FC_OP_READ, TAG(TAG_HOST_READ, b), pb->row, pb->mask, pb->dram);
}

static void read_maybe_done(struct ftl *f, uint32_t c) {
  struct fw_cmd *cmd = &f->cmds[c];
  if (cmd->progress < cmd->nlb || cmd->pending) return;
  f->stats.host_lba_reads += cmd->nlb;
  if (cmd->no_host_io) {
    cmd->state = CMD_FREE; /* ftl_func_read copies the tokens and releases */
    return;
  }
  cmd->state = CMD_D2H;
  xfer_post(f, XFER_D2H, cmd, XTAG(XK_READ_DATA, c), cmd->staging, cmd->prp, cmd->nlb, 0);
}

int cmd_start_read(struct ftl *f, uint32_t c) {
  struct fw_cmd *cmd = &f->cmds[c];
  const uint32_t S = f->cfg.slots_per_page;
  uint32_t cur = FTL_NONE;
  cmd->state = CMD_READ;
  for (; cmd->progress < cmd->nlb; ++cmd->progress) {
    const uint32_t i = cmd->progress;
    if (!map_ready(f, (uint32_t)(cmd->slba + i))) { /* its mapping entry is being read (cmt.c); resumes at i */
      if (cur != FTL_NONE) read_submit(f, cur);
      return STEP_WAIT;
    }
    const uint32_t ppa = map_get(f, (uint32_t)(cmd->slba + i));
    hal_charge(f->hal, FW_OP_l2p_lookup, 1);
    if (ppa == FTL_UNMAPPED || ppa == FTL_LOST) {
      cmd->tokens[i] = SSDVP_TOKEN_DEALLOCATED;
      if (ppa == FTL_LOST) cmd->status = NVME_SC_UNRECOVERED_READ; /* its data was lost to a media error */
      continue;
    }
    const uint32_t row = ppa / S, slot = ppa % S;
    if (cur != FTL_NONE && f->bufs[cur].row == row) {
      f->bufs[cur].mask |= 1u << slot;
      f->bufs[cur].slot_idx[slot] = (uint16_t)i;
      continue;
    }
    const uint32_t hit = buf_find_row(f, row);
    if (hit != FTL_NONE) {
      cmd->tokens[i] = f->bufs[hit].token[slot];
      continue;
    }
    if (cur != FTL_NONE) read_submit(f, cur);
    cur = buf_get(f, POOL_READ, BUF_HOST_READ);
    if (cur == FTL_NONE) return STEP_WAIT; /* waits for a read buffer; resumes at i */
    struct pagebuf *pb = &f->bufs[cur];
    pb->row = row;
    pb->mask = 1u << slot;
    pb->cmd = c;
    pb->slot_idx[slot] = (uint16_t)i;
  }
  if (cur != FTL_NONE) read_submit(f, cur);
  read_maybe_done(f, c);
  return STEP_DONE;
}

void host_read_done(struct ftl *f, uint32_t b, int status, uint32_t retries) {
  struct pagebuf *pb = &f->bufs[b];
  struct fw_cmd *cmd = &f->cmds[pb->cmd];
  block_note_read(f, row_block(f, pb->row), retries, status == FC_ERR_UNCORRECTABLE);
  if (status == FC_ERR_UNCORRECTABLE) {
    cmd->status = NVME_SC_UNRECOVERED_READ;
  } else if (status != FC_OK) {
    hal_logf(f->hal, HAL_LOG_ERROR, "ftl: host read of row %" PRIu32 " failed with status %d", pb->row, status);
    f->stats.flash_errors++;
    cmd->status = NVME_SC_INTERNAL;
  }
  for (uint32_t s = 0; s < f->cfg.slots_per_page; ++s)
    if (pb->mask & (1u << s)) cmd->tokens[pb->slot_idx[s]] = pb->token[s];
  const uint32_t c = pb->cmd;
  buf_put(f, b);
  cmd->pending--;
  read_maybe_done(f, c);
}

/* ---- deallocate and flush ------------------------------------------------ */

uint64_t cmd_trim(struct ftl *f, uint64_t slba, uint64_t n) {
  uint64_t i = 0;
  if (!tlog_room(f)) return 0; /* a checkpoint under way or the trim log's page in flight (trimlog.c) */
  while (i < n && cmt_room(f)) map_trim(f, (uint32_t)(slba + i++));
  tlog_add(f, slba, i);
  f->stats.trim_lbas += i;
  hal_charge(f->hal, FW_OP_trim_lba, (uint32_t)(i > 0xffffffffu ? 0xffffffffu : i));
  return i;
}

/* Deallocates DSM command c's ranges from where it stopped (range index in
 * pending, LBA offset in progress): STEP_DONE (completed), or STEP_WAIT when
 * the cached mapping's log is full or the trim log has no room (a checkpoint
 * under way: host_resume_trims goes on). */
static int dsm_trim(struct ftl *f, uint32_t c) {
  struct fw_cmd *cmd = &f->cmds[c];
  const struct nvme_dsm_range *r = (const struct nvme_dsm_range *)cmd->tokens;
  for (; cmd->pending < cmd->nlb; ++cmd->pending, cmd->progress = 0) {
    const uint64_t left = r[cmd->pending].nlb - (uint64_t)cmd->progress;
    const uint64_t done = cmd_trim(f, r[cmd->pending].slba + cmd->progress, left);
    cmd->progress += (uint32_t)done;
    if (done < left) return STEP_WAIT;
  }
  cmd->pending = 0;
  host_cmd_finish(f, c, NVME_SC_SUCCESS);
  return STEP_DONE;
}

int host_resume_trims(struct ftl *f) {
  struct cmt *m = &f->cmt;
  int did = 0;
  while (m->trim_head != FTL_NONE) {
    const uint32_t c = m->trim_head, next = f->cmds[c].next; /* finishing frees the slot, which reuses the link */
    if (dsm_trim(f, c) == STEP_WAIT) break;
    m->trim_head = next;
    if (next == FTL_NONE) m->trim_tail = FTL_NONE;
    did = 1;
  }
  return did;
}

static void dsm_ranges_done(struct ftl *f, uint32_t c) {
  struct fw_cmd *cmd = &f->cmds[c];
  const struct nvme_dsm_range *r = (const struct nvme_dsm_range *)cmd->tokens;
  for (uint32_t i = 0; i < cmd->nlb; ++i)
    if (r[i].slba >= f->cfg.logical_lbas || r[i].nlb > f->cfg.logical_lbas - r[i].slba) {
      host_cmd_finish(f, c, NVME_SC_LBA_OUT_OF_RANGE);
      return;
    }
  cmd->pending = 0;
  cmd->progress = 0;
  if (dsm_trim(f, c) == STEP_DONE) return;
  struct cmt *m = &f->cmt; /* waits for room in the log, behind deallocations waiting already */
  cmd->next = FTL_NONE;
  if (m->trim_tail == FTL_NONE)
    m->trim_head = c;
  else
    f->cmds[m->trim_tail].next = c;
  m->trim_tail = c;
}

/* Pads and programs the host frontiers' open pages; the command completes
 * once no program is in flight. STEP_YIELD: a block closed, call again. */
static int cmd_flush(struct ftl *f, uint32_t c) {
  if (frontier_flush_host(f) == STEP_YIELD) {
    f->host_flushing = c;
    return STEP_YIELD;
  }
  f->host_flushing = FTL_NONE;
  f->cmds[c].state = CMD_WAIT_FLUSH;
  f->flush_waiters++;
  host_check_flush(f);
  return STEP_DONE;
}

void host_check_flush(struct ftl *f) {
  if (!f->flush_waiters) return;
  if (f->tlog.n && tlog_program(f)) return; /* the deallocations before it: durable too (trimlog.c) */
  if (f->programs_inflight || f->tlog.n) return;
  for (uint32_t c = 0; c < f->cfg.cmd_slots; ++c)
    if (f->cmds[c].state == CMD_WAIT_FLUSH) {
      f->flush_waiters--;
      host_cmd_finish(f, c, NVME_SC_SUCCESS);
    }
}

/* ---- decode ------------------------------------------------------------- */

/* The namespace answers I/O once the firmware clock passed ftl.ns_ready_after. */
static int ns_ready(struct ftl *f) { return !f->cfg.ns_ready_ns || hal_time_ns(f->hal) >= f->cfg.ns_ready_ns; }

int host_cmd_begin(struct ftl *f, uint32_t c, const struct nvme_cmd_entry *e) {
  struct fw_cmd *cmd = &f->cmds[c];
  const struct nvme_sqe *q = &e->sqe;
  f->stats.host_cmds++;
  cmd->opcode = (uint8_t)SSDVP_FIELD_GET(NVME_CDW0_OPC, q->cdw0);
  cmd->cid = (uint16_t)SSDVP_FIELD_GET(NVME_CDW0_CID, q->cdw0);
  cmd->sqid = e->sqid;
  cmd->prp = q->prp1;
  hal_charge(f->hal, FW_OP_cmd_decode, 1);
  /* No fused operations and no SGLs (PRPs only): Invalid Field, as NVMe asks. */
  if (SSDVP_FIELD_GET(NVME_CDW0_FUSE, q->cdw0) || SSDVP_FIELD_GET(NVME_CDW0_PSDT, q->cdw0)) {
    host_cmd_finish(f, c, NVME_SC_INVALID_FIELD);
    return 0;
  }
  return 1;
}

static void cmd_decode(struct ftl *f, uint32_t c, const struct nvme_cmd_entry *e) {
  struct fw_cmd *cmd = &f->cmds[c];
  const struct nvme_sqe *q = &e->sqe;
  if (!host_cmd_begin(f, c, e)) return;
  if (e->sqid == 0) { /* admin queue: directives.c (and gcgate.c below it) */
    uint32_t bytes = 0;
    const uint16_t st = admin_execute(f, cmd, q, &bytes);
    if (st == ADMIN_HELD) return; /* an AER, completed by the loop at an event */
    cmd->status = st;
    if (st == NVME_SC_SUCCESS && bytes) return host_send_admin_data(f, c, bytes);
    return host_cmd_finish(f, c, st);
  }
  switch (cmd->opcode) {
    case NVME_OP_READ:
    case NVME_OP_WRITE: {
      if (q->nsid != 1) return host_cmd_finish(f, c, NVME_SC_INVALID_NS);
      if (!ns_ready(f)) return host_cmd_finish(f, c, NVME_SC_NS_NOT_READY);
      cmd->slba = (uint64_t)q->cdw10 | ((uint64_t)q->cdw11 << 32);
      cmd->nlb = SSDVP_FIELD_GET(NVME_CDW12_NLB, q->cdw12) + 1;
      if (cmd->slba >= f->cfg.logical_lbas || cmd->nlb > f->cfg.logical_lbas - cmd->slba)
        return host_cmd_finish(f, c, NVME_SC_LBA_OUT_OF_RANGE);
      if (cmd->nlb > f->cfg.max_transfer_lbas) return host_cmd_finish(f, c, NVME_SC_INVALID_FIELD);
      if (cmd->opcode == NVME_OP_WRITE) {
        /* Directives: none, or Streams (DTYPE 1) with a stream ID in DSPEC,
         * admitted by the Streams directive's state (directives.c); every
         * placement accepts them, only the stream placement uses them. */
        const uint32_t dtype = SSDVP_FIELD_GET(NVME_CDW12_DTYPE, q->cdw12);
        const uint32_t dspec = SSDVP_FIELD_GET(NVME_CDW13_DSPEC, q->cdw13);
        if (dtype > NVME_DTYPE_STREAMS) return host_cmd_finish(f, c, NVME_SC_INVALID_FIELD);
        if (dtype == NVME_DTYPE_STREAMS) {
          const uint16_t st = streams_write_check(f, dspec); /* directives.c */
          if (st != NVME_SC_SUCCESS) return host_cmd_finish(f, c, st);
        }
        cmd->stream = (uint8_t)(dtype == NVME_DTYPE_STREAMS ? dspec : 0);
        cmd->fua = (uint8_t)SSDVP_FIELD_GET(NVME_CDW12_FUA, q->cdw12);
        cmd->state = CMD_H2D;
        xfer_post(f, XFER_H2D, cmd, XTAG(XK_WRITE_DATA, c), cmd->staging, cmd->prp, cmd->nlb, 0);
      } else if (!cmd_start_read(f, c)) {
        wait_push(f, c);
      }
      return;
    }
    case NVME_OP_FLUSH:
      if (!ns_ready(f)) return host_cmd_finish(f, c, NVME_SC_NS_NOT_READY);
      cmd_flush(f, c);
      return;
    case NVME_OP_DSM:
      if (q->nsid != 1) return host_cmd_finish(f, c, NVME_SC_INVALID_NS);
      if (!ns_ready(f)) return host_cmd_finish(f, c, NVME_SC_NS_NOT_READY);
      if (!SSDVP_FIELD_GET(NVME_CDW11_DSM_AD, q->cdw11)) return host_cmd_finish(f, c, NVME_SC_SUCCESS); /* only hints */
      cmd->nlb = SSDVP_FIELD_GET(NVME_CDW10_DSM_NR, q->cdw10) + 1;
      cmd->state = CMD_H2D;
      xfer_post(f, XFER_H2D_RAW, cmd, XTAG(XK_DSM_RANGES, c), cmd->staging, cmd->prp,
                cmd->nlb * (uint32_t)sizeof(struct nvme_dsm_range), 0);
      return;
    default: return host_cmd_finish(f, c, NVME_SC_INVALID_OPCODE);
  }
}

int host_transfers_done(struct ftl *f) {
  if (f->host_placing != FTL_NONE) { /* a write of this batch yielded */
    if (place_command(f, f->host_placing) == STEP_YIELD) return STEP_DONE | STEP_YIELD;
    f->host_placing = FTL_NONE;
  } else {
    const uint32_t tail = hal_read32(f->hal, SSDVP_NVME_BASE + NVME_DONE_TAIL);
    if (tail == f->ndone.head || tail >= f->ndone.size) return 0;
    f->ndone.tail = tail;
  }
  const struct nvme_done *ring = (const struct nvme_done *)f->ndone.mem;
  while (f->ndone.head != f->ndone.tail) {
    const struct nvme_done d = ring[f->ndone.head];
    f->ndone.head = (f->ndone.head + 1) & (f->ndone.size - 1);
    f->xfer_outstanding--;
    hal_charge(f->hal, FW_OP_xfer_complete, 1);
    const uint32_t c = d.tag & 0xffffff;
    if (c >= f->cfg.cmd_slots) continue;
    if (d.status) {
      host_cmd_finish(f, c, NVME_SC_DATA_XFER_ERROR);
      continue;
    }
    switch (d.tag >> 24) {
      case XK_WRITE_DATA:
        if (place_command(f, c) == STEP_YIELD) {
          f->host_placing = c;
          return STEP_DONE | STEP_YIELD;
        }
        break;
      case XK_DSM_RANGES: dsm_ranges_done(f, c); break;
      case XK_READ_DATA:
      case XK_ADMIN_DATA: host_cmd_finish(f, c, f->cmds[c].status); break;
      default: break;
    }
  }
  hal_write32(f->hal, SSDVP_NVME_BASE + NVME_DONE_HEAD, f->ndone.head);
  return STEP_DONE;
}

int host_commands(struct ftl *f) {
  int did = 0;
  if (f->host_flushing != FTL_NONE) { /* a flush of this batch yielded */
    if (cmd_flush(f, f->host_flushing) == STEP_YIELD) return STEP_DONE | STEP_YIELD;
    did = STEP_DONE;
  } else {
    const uint32_t tail = hal_read32(f->hal, SSDVP_NVME_BASE + NVME_CMD_TAIL);
    if (tail == f->ncmd.head || tail >= f->ncmd.size) return 0;
    f->ncmd.tail = tail;
    if (f->cfg.gc_trigger == FTL_GC_TRIGGER_IDLE) gcsched_host_arrival(f); /* idle-time GC stops (gcsched.c) */
  }
  const struct nvme_cmd_entry *ring = (const struct nvme_cmd_entry *)f->ncmd.mem;
  while (f->ncmd.head != f->ncmd.tail) {
    const uint32_t c = cmd_alloc(f);
    if (c == FTL_NONE) { /* the rest stays in the ring until a slot frees */
      cmd_irq_mask(f, 1);
      break;
    }
    cmd_decode(f, c, &ring[f->ncmd.head]);
    f->ncmd.head = (f->ncmd.head + 1) & (f->ncmd.size - 1);
    did = STEP_DONE;
    if (f->host_flushing != FTL_NONE) return STEP_DONE | STEP_YIELD;
  }
  if (did) hal_write32(f->hal, SSDVP_NVME_BASE + NVME_CMD_HEAD, f->ncmd.head);
  return did;
}

/* Waiting commands in order. Reads always try. A write that still cannot be
 * placed holds back the writes after it: all of them (ftl.write.at_floor
 * wait), or (pass, room) only those that write one of its LBAs or whose next
 * LBA goes to a frontier a write ahead of them waits on (it would wait too);
 * writes to streams or classes that have room pass. */
int host_resume_waiting(struct ftl *f) {
  int did = 0;
  const int pass = f->cfg.floor_policy >= FTL_FLOOR_PASS;
  /* One host frontier for every write: once it is held, every later write is
   * held without asking place_host (the list is walked once per loop pass). */
  const struct frontier *only = place_host_only(f);
  const uint32_t only_bit = only ? 1u << only->index : 0;
  uint32_t prev = FTL_NONE, c = f->wait_head, held = 0; /* held: frontiers waited on, as bits */
  if (f->wait_yielded != FTL_NONE) {                    /* continue where a write yielded */
    c = f->wait_yielded;
    prev = f->wait_yielded_prev;
    f->wait_yielded = FTL_NONE;
    for (uint32_t w = f->wait_head; pass && w != c && w != FTL_NONE && !(held & only_bit); w = f->cmds[w].next)
      if (f->cmds[w].opcode != NVME_OP_READ) held |= next_frontier_bit(f, w);
  }
  while (c != FTL_NONE) {
    const uint32_t next = f->cmds[c].next;
    const int opcode = f->cmds[c].opcode;
    if (pass && opcode != NVME_OP_READ && prev != FTL_NONE) {
      if ((held & only_bit) && f->wait_reads == 0) break; /* the rest are writes, all held */
      const uint32_t bit = (held & only_bit) ? only_bit : next_frontier_bit(f, c);
      if ((held & bit) || overlaps_waiting(f, c, c)) {
        held |= bit; /* stays, behind the writes it must follow */
        prev = c;
        c = next;
        continue;
      }
    }
    const int r = opcode == NVME_OP_READ ? cmd_start_read(f, c) : cmd_place_writes(f, c);
    if (r == STEP_YIELD) {
      f->wait_yielded = c;
      f->wait_yielded_prev = prev;
      return did | STEP_YIELD;
    }
    if (r == STEP_DONE) {
      if (prev == FTL_NONE)
        f->wait_head = next;
      else
        f->cmds[prev].next = next;
      if (f->wait_tail == c) f->wait_tail = prev;
      if (opcode == NVME_OP_READ) f->wait_reads--;
      did = STEP_DONE;
    } else {
      prev = c;
      if (opcode != NVME_OP_READ) {
        if (!pass) break; /* writes keep their order */
        held |= next_frontier_bit(f, c);
      }
    }
    c = next;
  }
  return did;
}
