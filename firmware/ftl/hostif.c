/*
 * hostif.c - the NVM command set: decode, writes, reads, deallocate, flush.
 *
 * The NVMe controller fetches host commands into the CMD ring. A command
 * takes a command slot with a token staging area in DRAM:
 *  - Write: host -> staging transfer; then each LBA is placed on the host
 *    frontier (page buffers); the completion is posted once all are placed
 *    (write-back: the data is in DRAM, as on a drive with power-loss
 *    protection). Without a page buffer or a block the command waits.
 *    With FUA (CDW12 bit 30) it is durable at completion instead: once
 *    placed, the host frontiers' open pages are padded and programmed and
 *    it waits as a flush does.
 *  - Read: each LBA from a page buffer (recent writes), as deallocated, or
 *    by flash reads grouped per page; then staging -> host and completion.
 *  - Dataset Management (deallocate): range list -> staging, then trims.
 *  - Flush: pads and programs the host frontiers' open pages and completes
 *    when the programs issued before it are done (ftl.flush.scope issued,
 *    the flush epochs below), or when no program is in flight (drain).
 * Invalid commands complete with the status a drive returns. The rings,
 * slots, transfers and completions are the transport's (nvmet.c).
 */
#include <string.h>

#include "ftl_internal.h"

enum xfer_kind { XK_WRITE_DATA = 1, XK_DSM_RANGES = 2, XK_READ_DATA = 3, XK_ADMIN_DATA = 4 };
#define XTAG(kind, c) (((uint32_t)(kind) << 24) | (c))

static void flush_wait(struct ftl *f, uint32_t c);

/* Admin data in the staging area to the host; completes when transferred. */
static void host_send_admin_data(struct ftl *f, uint32_t c, uint32_t bytes) {
  struct fw_cmd *cmd = &f->nt.cmds[c];
  cmd->state = CMD_D2H;
  nvmet_xfer(f, XFER_D2H_RAW, c, XTAG(XK_ADMIN_DATA, c), cmd->staging, cmd->prp, bytes);
}

/* ---- write ------------------------------------------------------------- */

/* Places a write command's LBAs from where it stopped: STEP_DONE (completed),
 * STEP_WAIT (no buffer or block), STEP_YIELD (a GC step first, then again). */
int cmd_place_writes(struct ftl *f, uint32_t c) {
  struct fw_cmd *cmd = &f->nt.cmds[c];
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
    flush_wait(f, c);
    return STEP_DONE;
  }
  nvmet_complete(f, c, NVME_SC_SUCCESS);
  return STEP_DONE;
}

/* ---- waiting writes passing each other (ftl.write.at_floor pass, room) - */

/* Whether a waiting write ahead of write c in the wait list (from its head up
 * to `stop`, exclusive) writes an LBA that c writes: c must not land first. */
static int overlaps_waiting(const struct ftl *f, uint32_t c, uint32_t stop) {
  const struct fw_cmd *b = &f->nt.cmds[c];
  for (uint32_t w = f->nt.wait_head; w != stop && w != FTL_NONE; w = f->nt.cmds[w].next) {
    const struct fw_cmd *a = &f->nt.cmds[w];
    if (w != c && a->opcode == NVME_OP_WRITE && a->slba < b->slba + b->nlb && b->slba < a->slba + a->nlb) return 1;
  }
  return 0;
}

/* The frontier write c places its next LBA on, as a bit. */
static uint32_t next_frontier_bit(struct ftl *f, uint32_t c) {
  const struct fw_cmd *cmd = &f->nt.cmds[c];
  return 1u << place_host(f, (uint32_t)(cmd->slba + cmd->progress), cmd->stream)->index;
}

/* Places a write whose data arrived; one that must wait joins the wait list,
 * as does one that writes an LBA of a write already waiting (pass and room:
 * waiting writes may be passed, so the same LBA must keep its order here). */
static int place_command(struct ftl *f, uint32_t c) {
  if (f->cfg.floor_policy >= FTL_FLOOR_PASS && f->nt.wait_head != FTL_NONE && overlaps_waiting(f, c, FTL_NONE)) {
    f->nt.cmds[c].state = CMD_PLACE;
    nvmet_wait_push(f, c);
    return STEP_WAIT;
  }
  const int r = cmd_place_writes(f, c);
  if (r == STEP_WAIT) nvmet_wait_push(f, c);
  return r;
}

/* ---- read -------------------------------------------------------------- */

static void read_submit(struct ftl *f, uint32_t b) {
  struct pagebuf *pb = &f->bufs[b];
  f->nt.cmds[pb->cmd].pending++;
  f->stats.flash_reads++;
  flash_submit(f, FC_OP_READ, TAG(TAG_HOST_READ, b), pb->row, pb->mask, pb->dram);
}

static void read_maybe_done(struct ftl *f, uint32_t c) {
  struct fw_cmd *cmd = &f->nt.cmds[c];
  if (cmd->progress < cmd->nlb || cmd->pending) return;
  f->stats.host_lba_reads += cmd->nlb;
  if (cmd->no_host_io) {
    cmd->state = CMD_FREE; /* ftl_func_read copies the tokens and releases */
    return;
  }
  cmd->state = CMD_D2H;
  nvmet_xfer(f, XFER_D2H, c, XTAG(XK_READ_DATA, c), cmd->staging, cmd->prp, cmd->nlb);
}

int cmd_start_read(struct ftl *f, uint32_t c) {
  struct fw_cmd *cmd = &f->nt.cmds[c];
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
  struct fw_cmd *cmd = &f->nt.cmds[pb->cmd];
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
  struct fw_cmd *cmd = &f->nt.cmds[c];
  const struct nvme_dsm_range *r = (const struct nvme_dsm_range *)cmd->tokens;
  for (; cmd->pending < cmd->nlb; ++cmd->pending, cmd->progress = 0) {
    const uint64_t left = r[cmd->pending].nlb - (uint64_t)cmd->progress;
    const uint64_t done = cmd_trim(f, r[cmd->pending].slba + cmd->progress, left);
    cmd->progress += (uint32_t)done;
    if (done < left) return STEP_WAIT;
  }
  cmd->pending = 0;
  nvmet_complete(f, c, NVME_SC_SUCCESS);
  return STEP_DONE;
}

int host_resume_trims(struct ftl *f) {
  struct cmt *m = &f->cmt;
  int did = 0;
  while (m->trim_head != FTL_NONE) {
    const uint32_t c = m->trim_head, next = f->nt.cmds[c].next; /* finishing frees the slot, which reuses the link */
    if (dsm_trim(f, c) == STEP_WAIT) break;
    m->trim_head = next;
    if (next == FTL_NONE) m->trim_tail = FTL_NONE;
    did = 1;
  }
  return did;
}

static void dsm_ranges_done(struct ftl *f, uint32_t c) {
  struct fw_cmd *cmd = &f->nt.cmds[c];
  const struct nvme_dsm_range *r = (const struct nvme_dsm_range *)cmd->tokens;
  for (uint32_t i = 0; i < cmd->nlb; ++i)
    if (r[i].slba >= f->cfg.logical_lbas || r[i].nlb > f->cfg.logical_lbas - r[i].slba) {
      nvmet_complete(f, c, NVME_SC_LBA_OUT_OF_RANGE);
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
    f->nt.cmds[m->trim_tail].next = c;
  m->trim_tail = c;
}

/* Pads and programs the host frontiers' open pages; the command then waits
 * (flush_wait). STEP_YIELD: a block closed, call again. */
static int cmd_flush(struct ftl *f, uint32_t c) {
  if (frontier_flush_host(f) == STEP_YIELD) {
    f->host_flushing = c;
    return STEP_YIELD;
  }
  f->host_flushing = FTL_NONE;
  flush_wait(f, c);
  return STEP_DONE;
}

/* ---- flush epochs (ftl.flush.scope) ---------------------------------------
 * A flush (or FUA write) owes the host the programs issued before it, its
 * data's among them once the open pages are padded, and the trim log's
 * records made before it. With `issued` every program is counted in the
 * flush epoch it was issued in; a flush closes the open epoch and completes
 * once no program of its epoch or an older one is in flight, so writes and
 * GC after it do not hold it up. With `drain` it completes at a moment no
 * program at all is in flight and the trim log holds no record. */

/* Whether no program of epoch e or older is in flight. Epochs older than the
 * window of FTL_FLUSH_EPOCHS below the open one have none: an epoch opens
 * only once the one sharing its counter has drained. */
static int epochs_drained(const struct ftl *f, uint32_t e) {
  const uint32_t open = f->flush_epoch, lo = open >= FTL_FLUSH_EPOCHS - 1 ? open - (FTL_FLUSH_EPOCHS - 1) : 0;
  for (uint32_t x = lo; x <= e && x <= open; ++x)
    if (f->epoch_programs[x % FTL_FLUSH_EPOCHS]) return 0;
  return 1;
}

static void flush_wait(struct ftl *f, uint32_t c) {
  struct fw_cmd *cmd = &f->nt.cmds[c];
  const struct trimlog *t = &f->tlog;
  cmd->state = CMD_WAIT_FLUSH;
  cmd->epoch = f->flush_epoch;
  cmd->tlog_seq = t->on && t->n ? t->last_seq : 0;
  if (!f->flush_waiters++) f->flush_head_epoch = cmd->epoch;
  if (cmd->tlog_seq > f->flush_tlog_seq) f->flush_tlog_seq = cmd->tlog_seq;
  /* Close the open epoch, unless the next one's counter is still in use (then
   * this flush waits for the programs after it in the open epoch as well). */
  if (f->cfg.flush_scope == FTL_FLUSH_ISSUED && !f->epoch_programs[(f->flush_epoch + 1) % FTL_FLUSH_EPOCHS])
    f->flush_epoch++;
  host_check_flush(f);
}

void host_check_flush(struct ftl *f) {
  if (!f->flush_waiters) return;
  if (f->cfg.flush_scope == FTL_FLUSH_DRAIN) {
    if (f->tlog.n && tlog_program(f)) return; /* the deallocations before it: durable too (trimlog.c) */
    if (f->programs_inflight || f->tlog.n) return;
    for (uint32_t c = 0; c < f->cfg.cmd_slots; ++c)
      if (f->nt.cmds[c].state == CMD_WAIT_FLUSH) {
        f->flush_waiters--;
        nvmet_complete(f, c, NVME_SC_SUCCESS);
      }
    return;
  }
  const struct trimlog *t = &f->tlog;
  if (t->n && f->flush_tlog_seq > t->durable_seq) tlog_program(f); /* records a flush waits for (trimlog.c) */
  if (!epochs_drained(f, f->flush_head_epoch)) return; /* the oldest flush waits: every later one does too */
  uint32_t head = FTL_NONE;
  for (uint32_t c = 0; c < f->cfg.cmd_slots; ++c) {
    struct fw_cmd *cmd = &f->nt.cmds[c];
    if (cmd->state != CMD_WAIT_FLUSH) continue;
    if (cmd->tlog_seq && (!t->n || t->durable_seq >= cmd->tlog_seq)) cmd->tlog_seq = 0; /* its records are safe */
    if (!cmd->tlog_seq && epochs_drained(f, cmd->epoch)) {
      f->flush_waiters--;
      nvmet_complete(f, c, NVME_SC_SUCCESS);
    } else if (head == FTL_NONE || cmd->epoch < head) {
      head = cmd->epoch;
    }
  }
  f->flush_head_epoch = head;
  if (!f->flush_waiters) f->flush_tlog_seq = 0;
}

/* ---- decode ------------------------------------------------------------- */

/* The namespace answers I/O once the firmware clock passed ftl.ns_ready_after. */
static int ns_ready(struct ftl *f) { return !f->cfg.ns_ready_ns || hal_time_ns(f->hal) >= f->cfg.ns_ready_ns; }

static void cmd_decode(struct ftl *f, uint32_t c, const struct nvme_cmd_entry *e) {
  struct fw_cmd *cmd = &f->nt.cmds[c];
  const struct nvme_sqe *q = &e->sqe;
  if (!nvmet_cmd_begin(f, c, e)) return;
  if (e->sqid == 0) { /* admin queue: directives.c (and gcgate.c below it) */
    uint32_t bytes = 0;
    const uint16_t st = admin_execute(f, cmd, q, &bytes);
    if (st == ADMIN_HELD) return; /* an AER, completed by the loop at an event */
    cmd->status = st;
    if (st == NVME_SC_SUCCESS && bytes) return host_send_admin_data(f, c, bytes);
    return nvmet_complete(f, c, st);
  }
  switch (cmd->opcode) {
    case NVME_OP_READ:
    case NVME_OP_WRITE: {
      if (q->nsid != 1) return nvmet_complete(f, c, NVME_SC_INVALID_NS);
      if (!ns_ready(f)) return nvmet_complete(f, c, NVME_SC_NS_NOT_READY);
      cmd->slba = (uint64_t)q->cdw10 | ((uint64_t)q->cdw11 << 32);
      cmd->nlb = SSDVP_FIELD_GET(NVME_CDW12_NLB, q->cdw12) + 1;
      if (cmd->slba >= f->cfg.logical_lbas || cmd->nlb > f->cfg.logical_lbas - cmd->slba)
        return nvmet_complete(f, c, NVME_SC_LBA_OUT_OF_RANGE);
      if (cmd->nlb > f->cfg.max_transfer_lbas) return nvmet_complete(f, c, NVME_SC_INVALID_FIELD);
      if (cmd->opcode == NVME_OP_WRITE) {
        /* Directives: none, or Streams (DTYPE 1) with a stream ID in DSPEC,
         * admitted by the Streams directive's state (directives.c); every
         * placement accepts them, only the stream placement uses them. */
        const uint32_t dtype = SSDVP_FIELD_GET(NVME_CDW12_DTYPE, q->cdw12);
        const uint32_t dspec = SSDVP_FIELD_GET(NVME_CDW13_DSPEC, q->cdw13);
        if (dtype > NVME_DTYPE_STREAMS) return nvmet_complete(f, c, NVME_SC_INVALID_FIELD);
        if (dtype == NVME_DTYPE_STREAMS) {
          const uint16_t st = streams_write_check(f, dspec); /* directives.c */
          if (st != NVME_SC_SUCCESS) return nvmet_complete(f, c, st);
        }
        cmd->stream = (uint8_t)(dtype == NVME_DTYPE_STREAMS ? dspec : 0);
        cmd->fua = (uint8_t)SSDVP_FIELD_GET(NVME_CDW12_FUA, q->cdw12);
        cmd->state = CMD_H2D;
        nvmet_xfer(f, XFER_H2D, c, XTAG(XK_WRITE_DATA, c), cmd->staging, cmd->prp, cmd->nlb);
      } else if (!cmd_start_read(f, c)) {
        nvmet_wait_push(f, c);
      }
      return;
    }
    case NVME_OP_FLUSH:
      if (!ns_ready(f)) return nvmet_complete(f, c, NVME_SC_NS_NOT_READY);
      cmd_flush(f, c);
      return;
    case NVME_OP_DSM:
      if (q->nsid != 1) return nvmet_complete(f, c, NVME_SC_INVALID_NS);
      if (!ns_ready(f)) return nvmet_complete(f, c, NVME_SC_NS_NOT_READY);
      if (!SSDVP_FIELD_GET(NVME_CDW11_DSM_AD, q->cdw11)) return nvmet_complete(f, c, NVME_SC_SUCCESS); /* only hints */
      cmd->nlb = SSDVP_FIELD_GET(NVME_CDW10_DSM_NR, q->cdw10) + 1;
      cmd->state = CMD_H2D;
      nvmet_xfer(f, XFER_H2D_RAW, c, XTAG(XK_DSM_RANGES, c), cmd->staging, cmd->prp,
                 cmd->nlb * (uint32_t)sizeof(struct nvme_dsm_range));
      return;
    default: return nvmet_complete(f, c, NVME_SC_INVALID_OPCODE);
  }
}

int host_decode(struct ftl *f, uint32_t c, const struct nvme_cmd_entry *e) {
  cmd_decode(f, c, e);
  return f->host_flushing != FTL_NONE ? STEP_DONE | STEP_YIELD : STEP_DONE; /* a flush yielded: host_commands goes on */
}

int host_xfer_done(struct ftl *f, uint32_t c, uint32_t kind, uint32_t status) {
  if (status) {
    nvmet_complete(f, c, NVME_SC_DATA_XFER_ERROR);
    return STEP_DONE;
  }
  switch (kind) {
    case XK_WRITE_DATA:
      if (place_command(f, c) == STEP_YIELD) {
        f->host_placing = c; /* host_transfers_done goes on with it */
        return STEP_DONE | STEP_YIELD;
      }
      break;
    case XK_DSM_RANGES: dsm_ranges_done(f, c); break;
    case XK_READ_DATA:
    case XK_ADMIN_DATA: nvmet_complete(f, c, f->nt.cmds[c].status); break;
    default: break;
  }
  return STEP_DONE;
}

int host_transfers_done(struct ftl *f) {
  if (f->host_placing != FTL_NONE) { /* a write of this batch yielded */
    if (place_command(f, f->host_placing) == STEP_YIELD) return STEP_DONE | STEP_YIELD;
    f->host_placing = FTL_NONE;
  } else if (!nvmet_done_fetch(f)) {
    return 0;
  }
  return nvmet_done_drain(f);
}

int host_commands(struct ftl *f) {
  int did = 0;
  if (f->host_flushing != FTL_NONE) { /* a flush of this batch yielded */
    if (cmd_flush(f, f->host_flushing) == STEP_YIELD) return STEP_DONE | STEP_YIELD;
    did = STEP_DONE;
  } else {
    if (!nvmet_cmd_fetch(f)) return 0;
    if (f->cfg.gc_trigger == FTL_GC_TRIGGER_IDLE) gcsched_host_arrival(f); /* idle-time GC stops (gcsched.c) */
  }
  return did | nvmet_cmd_drain(f);
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
  uint32_t prev = FTL_NONE, c = f->nt.wait_head, held = 0; /* held: frontiers waited on, as bits */
  if (f->wait_yielded != FTL_NONE) {                       /* continue where a write yielded */
    c = f->wait_yielded;
    prev = f->wait_yielded_prev;
    f->wait_yielded = FTL_NONE;
    for (uint32_t w = f->nt.wait_head; pass && w != c && w != FTL_NONE && !(held & only_bit); w = f->nt.cmds[w].next)
      if (f->nt.cmds[w].opcode != NVME_OP_READ) held |= next_frontier_bit(f, w);
  }
  while (c != FTL_NONE) {
    const uint32_t next = f->nt.cmds[c].next;
    const int opcode = f->nt.cmds[c].opcode;
    if (pass && opcode != NVME_OP_READ && prev != FTL_NONE) {
      if ((held & only_bit) && f->nt.wait_reads == 0) break; /* the rest are writes, all held */
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
        f->nt.wait_head = next;
      else
        f->nt.cmds[prev].next = next;
      if (f->nt.wait_tail == c) f->nt.wait_tail = prev;
      if (opcode == NVME_OP_READ) f->nt.wait_reads--;
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
