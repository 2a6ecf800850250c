/*
 * ocssd.c - the open-channel personality (nvme.command_set: open_channel).
 *
 * The namespace speaks Open-Channel SSD 2.0 (firmware/include/ocssd.h,
 * docs/models/ocssd.md) and the host runs the FTL. What stays on the drive is
 * what stays on a drive in that model: the chunk table (block.c's block
 * states and write pointers: free, open, closed, and bad = offline), bad
 * blocks, erase counts, and the flash's own timing. No L2P, placement or GC
 * runs: ftl_poll() hands every pass to ocssd_poll() (cmdset_open_channel,
 * cmdset_zns).
 *
 * Geometry: a group is a channel, a parallel unit a die on it, a chunk a
 * block, a sector one LBA slot of a flash page; the minimum write unit
 * (ws_min) is one page of sectors. Writes complete once programmed
 * (mw_cunits 0: the host keeps no data for reads after completion).
 *
 * Commands, on the I/O queues (namespace 1):
 *  - Vector Chunk Write (91h), and NVM Write (01h) with a sector address and
 *    consecutive sectors: units of ws_min consecutive sectors of one chunk,
 *    each at that chunk's write pointer (a command may write several units,
 *    of one chunk or several);
 *  - Vector Chunk Read (92h), and NVM Read (02h): sectors below their
 *    chunk's write pointer, any order;
 *  - Vector Chunk Reset (90h): closed chunks (the sector bits are ignored);
 *  - Flush (00h): completes at once (nothing is cached).
 * A vector command names NLB + 1 <= 64 sectors (CDW12 bits 5:0): with one,
 * CDW10-11 is the sector address; with more, the host address of a list of
 * 8-byte addresses, fetched into the command's staging area (OC_LIST_OFF)
 * before the data. Every address and chunk of a command is checked before
 * any flash operation is issued, so a refused command changes nothing.
 * Admin: Geometry (E2h) and Get Log Page (02h) of the chunk information log
 * (CAh, 32 bytes per chunk, group-major; at most 4 KiB per command); any
 * other admin command goes to admin_execute() (directives.c).
 *
 * Statuses for bad input (never an assert):
 *   an address outside the geometry          LBA Out of Range (080h)
 *   a write not in whole units (ws_min) or a unit not consecutive
 *                                            Invalid Field in Command (002h)
 *   a write not at the write pointer, or to a closed chunk
 *                                            Out of Order Write (2F2h)
 *   a read at or above the write pointer     Deallocated or Unwritten Logical Block (287h)
 *   a command on an offline (bad) chunk      Offline Chunk (2C0h)
 *   a reset of a free or open chunk          Invalid Reset (2C1h)
 * and for media faults: a failed program completes with Write Fail - Write
 * Next Unit (2F0h; the unit is consumed, the chunk stays open), a failed
 * erase takes the chunk offline (Offline Chunk), an uncorrectable read is
 * Unrecovered Read Error (281h).
 *
 * Commands wait in order (f->nt.wait_head) for page buffers and room in the
 * flash ring; programs therefore reach each die in write-pointer order.
 */
#include <string.h>

#include "ftl_internal.h"
#include "ocssd.h"
#include "zns.h"

_Static_assert(sizeof(struct ocssd_geometry) == 4096, "the Geometry data structure is 4096 bytes");
_Static_assert(sizeof(struct ocssd_chunk_desc) == 32, "a chunk descriptor is 32 bytes");

/* The staging area of a command: tokens (data) at 0, per-sector metadata at
 * OC_META_OFF, the sector list at OC_LIST_OFF (at most 64 entries each). */
#define OC_META_OFF 1024u
#define OC_LIST_OFF 2048u
#define OC_DST_OFF 2560u /* Vector Copy: the destination list (64 entries after the source list) */
#define OC_LIST_SKIP                                                                            \
  UINT64_MAX /* a reset list entry naming a chunk already reset by this command; a zoned read's \
                LBA above its zone's write pointer (deallocated) */
_Static_assert(OC_LIST_OFF == ZNS_LIST_OFF && OC_LIST_SKIP == ZNS_LIST_SKIP, "zns.c fills ocssd.c's list");
#define OC_ADMIN_BYTES 4096u /* admin data per command (the staging area holds at least this) */
/* Transfers: the list in, the data in, the data out; a command with
 * metadata moves two (data and metadata), the first tagged OXK_PART. */
enum oc_xfer_kind { OXK_LIST = 0x21, OXK_DATA = 0x22, OXK_OUT = 0x23, OXK_PART = 0x24 };
#define OXTAG(kind, c) (((uint32_t)(kind) << 24) | (c))

static struct ocssd_lbaf oc_lbaf(const struct ftl *f) {
  return ocssd_lbaf_for(f->cfg.channels, f->cfg.dies_per_channel, f->cfg.blocks_per_die, f->slots_per_block);
}

static uint64_t *oc_list(struct fw_cmd *cmd) { return (uint64_t *)(void *)((uint8_t *)cmd->tokens + OC_LIST_OFF); }
static uint64_t *oc_dst(struct fw_cmd *cmd) { return (uint64_t *)(void *)((uint8_t *)cmd->tokens + OC_DST_OFF); }
static uint32_t *oc_meta(struct fw_cmd *cmd) { return (uint32_t *)(void *)((uint8_t *)cmd->tokens + OC_META_OFF); }
/* A vector command's metadata pointer (MPTR; 0: none) is kept in cmd->slba,
 * which has no other use here. */
static uint64_t oc_mptr(const struct fw_cmd *cmd) { return cmd->slba; }
/* Metadata words per sector (nvme.ocssd.meta): 1, the LPN; 2, the LPN and a
 * sequence number. The NAND's OOB holds one LPN word per sector and one
 * sequence word per page: the second word is the unit's, stored once. */
static uint32_t oc_mw(const struct ftl *f) { return f->cfg.oc_meta_seq ? 2u : 1u; }

/* The block and sector of address a, or LBA Out of Range. */
static uint16_t oc_locate(struct ftl *f, const struct ocssd_lbaf *l, uint64_t a, uint32_t *blk, uint32_t *sec) {
  const uint32_t grp = ocssd_grp(l, a), pu = ocssd_pu(l, a), chk = ocssd_chk(l, a), s = ocssd_sec(l, a);
  if (ocssd_excess(l, a) || grp >= f->cfg.channels || pu >= f->cfg.dies_per_channel || chk >= f->cfg.blocks_per_die ||
      s >= f->slots_per_block)
    return NVME_SC_LBA_OUT_OF_RANGE;
  *blk = (pu * f->cfg.channels + grp) * f->cfg.blocks_per_die + chk;
  *sec = s;
  return NVME_SC_SUCCESS;
}

static int oc_ring_room(const struct ftl *f) { return f->flash_outstanding + 1 < f->fsq.size; }

static int is_read(const struct fw_cmd *cmd) {
  return cmd->opcode == OCSSD_OP_VECTOR_READ || cmd->opcode == NVME_OP_READ;
}
/* Vector Copy runs in two phases, kept in cmd->stream (unused otherwise here):
 * 0 reading the sources into the staging area, 1 programming the destinations
 * (also when a source failed, so the chunks' pages stay in program order; the
 * command then completes with the read's status). Between them, once every
 * source read is issued, it is parked (OC_COPY_PARKED): out of the line of
 * waiting commands, so that the commands behind it do not wait for its reads;
 * only a command that programs or resets one of its destination chunks does
 * (oc_blocked), as its programs must follow the copy's. When its reads are in
 * it goes back to the head of the line and programs. */
#define OC_COPY_PARKED 2u
static int is_copy(const struct fw_cmd *cmd) { return cmd->opcode == OCSSD_OP_VECTOR_COPY; }
static int is_write(const struct fw_cmd *cmd) {
  return cmd->opcode == OCSSD_OP_VECTOR_WRITE || cmd->opcode == NVME_OP_WRITE || cmd->opcode == ZNS_OP_APPEND;
}

/* ---- checks (no side effect unless they pass) -------------------------- */

/* Writes: whole units at the write pointers; reserves the units (the write
 * pointers move, free chunks open, full chunks close). */
static uint16_t oc_check_write(struct ftl *f, struct fw_cmd *cmd, const uint64_t *list) {
  const uint32_t S = f->cfg.slots_per_page, ppb = f->cfg.pages_per_block;
  const struct ocssd_lbaf l = oc_lbaf(f);
  if (cmd->nlb % S) return NVME_SC_INVALID_FIELD;
  uint16_t st = NVME_SC_SUCCESS;
  uint32_t i = 0, blk = 0, sec = 0;
  for (; i < cmd->nlb; i += S) {
    st = oc_locate(f, &l, list[i], &blk, &sec);
    for (uint32_t k = 1; st == NVME_SC_SUCCESS && k < S; ++k)
      if (list[i + k] != list[i] + k) st = NVME_SC_INVALID_FIELD;
    if (st == NVME_SC_SUCCESS && f->blk_state[blk] == BLK_BAD) st = OCSSD_SC_OFFLINE_CHUNK;
    if (st == NVME_SC_SUCCESS && f->blk_state[blk] != BLK_FREE && f->blk_state[blk] != BLK_OPEN)
      st = OCSSD_SC_OUT_OF_ORDER;
    if (st == NVME_SC_SUCCESS && sec != (uint32_t)f->blk_wp[blk] * S) st = OCSSD_SC_OUT_OF_ORDER;
    if (st != NVME_SC_SUCCESS) break;
    f->blk_wp[blk]++; /* later units of this command see the moved write pointer */
  }
  if (st != NVME_SC_SUCCESS) { /* undo the units reserved so far */
    for (uint32_t j = 0; j < i; j += S)
      if (oc_locate(f, &l, list[j], &blk, &sec) == NVME_SC_SUCCESS) f->blk_wp[blk]--;
    return st;
  }
  for (i = 0; i < cmd->nlb; i += S) {
    oc_locate(f, &l, list[i], &blk, &sec);
    if (f->blk_state[blk] == BLK_FREE) {
      const uint16_t wp = f->blk_wp[blk];
      block_set_state(f, blk, BLK_OPEN); /* (clears the write pointer) */
      f->blk_wp[blk] = wp;
    }
    if (f->blk_state[blk] == BLK_OPEN && f->blk_wp[blk] == ppb) block_set_state(f, blk, BLK_CLOSED);
  }
  return NVME_SC_SUCCESS;
}

static uint16_t oc_check_read(struct ftl *f, struct fw_cmd *cmd, const uint64_t *list) {
  const struct ocssd_lbaf l = oc_lbaf(f);
  for (uint32_t i = 0; i < cmd->nlb; ++i) {
    uint32_t blk = 0, sec = 0;
    if (list[i] == OC_LIST_SKIP) continue; /* zoned: deallocated */
    const uint16_t st = oc_locate(f, &l, list[i], &blk, &sec);
    if (st != NVME_SC_SUCCESS) return st;
    const uint8_t s = f->blk_state[blk];
    if (s == BLK_BAD) return OCSSD_SC_OFFLINE_CHUNK;
    if ((s != BLK_OPEN && s != BLK_CLOSED) || sec >= (uint32_t)f->blk_wp[blk] * f->cfg.slots_per_page)
      return OCSSD_SC_UNWRITTEN;
  }
  return NVME_SC_SUCCESS;
}

/* Resets: closed chunks only; they start their erase (VICTIM, ERASING). */
static uint16_t oc_check_reset(struct ftl *f, struct fw_cmd *cmd) {
  const struct ocssd_lbaf l = oc_lbaf(f);
  uint64_t *list = oc_list(cmd);
  uint32_t blk = 0, sec = 0;
  for (uint32_t i = 0; i < cmd->nlb; ++i) {
    const uint16_t st = oc_locate(f, &l, list[i], &blk, &sec);
    if (st != NVME_SC_SUCCESS) return st;
    if (f->blk_state[blk] == BLK_BAD) return OCSSD_SC_OFFLINE_CHUNK;
    if (f->blk_state[blk] != BLK_CLOSED) return OCSSD_SC_INVALID_RESET;
  }
  for (uint32_t i = 0; i < cmd->nlb; ++i) {
    oc_locate(f, &l, list[i], &blk, &sec);
    if (f->blk_state[blk] != BLK_CLOSED) { /* named twice in the list */
      list[i] = OC_LIST_SKIP;
      continue;
    }
    block_set_state(f, blk, BLK_VICTIM);
    block_set_state(f, blk, BLK_ERASING);
  }
  return NVME_SC_SUCCESS;
}

/* ---- flash operations --------------------------------------------------- */

static void oc_maybe_done(struct ftl *f, uint32_t c) {
  struct fw_cmd *cmd = &f->nt.cmds[c];
  if (cmd->progress < cmd->nlb || cmd->pending) return;
  if (is_copy(cmd) && cmd->stream != 1) { /* its sources are in: oc_resume() goes on with the programs */
    if (cmd->stream == OC_COPY_PARKED) {  /* back at the head of the line */
      cmd->stream = 0;
      f->oc.parked--;
      cmd->next = f->nt.wait_head;
      f->nt.wait_head = c;
      if (f->nt.wait_tail == FTL_NONE) f->nt.wait_tail = c;
    }
    return;
  }
  if (is_read(cmd) && cmd->status == NVME_SC_SUCCESS) {
    f->stats.host_lba_reads += cmd->nlb;
    cmd->state = CMD_D2H;
    if (oc_mptr(cmd)) /* 4 or 8 bytes a sector (raw: not modelled as LBAs of data) */
      nvmet_xfer(f, XFER_D2H_RAW, c, OXTAG(OXK_PART, c), cmd->staging + OC_META_OFF, oc_mptr(cmd),
                 cmd->nlb * 4u * oc_mw(f));
    nvmet_xfer(f, XFER_D2H, c, OXTAG(OXK_OUT, c), cmd->staging, cmd->prp, cmd->nlb);
    return;
  }
  nvmet_complete(f, c, cmd->status);
}

/* Issues the command's flash operations from where it stopped: STEP_DONE when
 * all are issued, STEP_WAIT without a page buffer or ring room. */
static int oc_submit(struct ftl *f, uint32_t c) {
  struct fw_cmd *cmd = &f->nt.cmds[c];
  const uint32_t S = f->cfg.slots_per_page, ppb = f->cfg.pages_per_block;
  const struct ocssd_lbaf l = oc_lbaf(f);
  const int copy = is_copy(cmd);
  if (copy && !cmd->stream && cmd->progress == cmd->nlb) { /* every source read issued */
    if (cmd->pending) return STEP_WAIT;                    /* it stays first in line: later programs wait for its own */
    cmd->stream = 1; /* (even when a source failed: the reserved units are programmed, in order) */
    cmd->progress = 0;
  }
  const uint64_t *list = copy && cmd->stream == 1 ? oc_dst(cmd) : oc_list(cmd);
  uint32_t blk = 0, sec = 0;
  if (is_write(cmd) || (copy && cmd->stream == 1)) {
    for (; cmd->progress < cmd->nlb; cmd->progress += S) {
      if (!oc_ring_room(f)) return STEP_WAIT;
      const uint32_t b = buf_get(f, POOL_WRITE, BUF_PROGRAM);
      if (b == FTL_NONE) return STEP_WAIT;
      oc_locate(f, &l, list[cmd->progress], &blk, &sec);
      struct pagebuf *pb = &f->bufs[b];
      pb->row = blk * ppb + sec / S;
      pb->cmd = c;
      const uint32_t mw = oc_mw(f), *meta = oc_meta(cmd) + (size_t)cmd->progress * mw;
      uint32_t seq = 0;
      for (uint32_t k = 0; k < S; ++k) {
        pb->token[k] = cmd->tokens[cmd->progress + k];
        /* OOB: the host's metadata (pblk keeps the LBA there; a copy's: the source's), or the sector address */
        pb->lpn[k] = oc_mptr(cmd) || copy ? meta[(size_t)k * mw] : (uint32_t)list[cmd->progress + k];
        if (mw == 2 && (oc_mptr(cmd) || copy) && meta[(size_t)k * mw + 1] > seq)
          seq = meta[(size_t)k * mw + 1]; /* the unit's (a copy's: the newest of its sources') */
      }
      pb->token[2 * (size_t)S] = mw == 2 && (oc_mptr(cmd) || copy) ? seq : ++f->seq;
      cmd->pending++;
      pb->epoch = program_issued(f);
      f->stats.programs++;
      f->stats.host_lba_writes += S;
      flash_submit(f, FC_OP_PROGRAM, TAG(TAG_PROGRAM, b), pb->row, 0, pb->dram);
    }
  } else if (is_read(cmd) || copy) {
    uint32_t cur = FTL_NONE;
    for (; cmd->progress < cmd->nlb; ++cmd->progress) {
      if (list[cmd->progress] == OC_LIST_SKIP) { /* zoned: above the write pointer */
        cmd->tokens[cmd->progress] = SSDVP_TOKEN_DEALLOCATED;
        continue;
      }
      oc_locate(f, &l, list[cmd->progress], &blk, &sec);
      const uint32_t row = blk * ppb + sec / S, slot = sec % S;
      if (cur != FTL_NONE && f->bufs[cur].row == row) {
        f->bufs[cur].mask |= 1u << slot;
        f->bufs[cur].slot_idx[slot] = (uint16_t)cmd->progress;
        continue;
      }
      if (cur != FTL_NONE)
        flash_submit(f, FC_OP_READ, TAG(TAG_HOST_READ, cur), f->bufs[cur].row, f->bufs[cur].mask, f->bufs[cur].dram);
      cur = oc_ring_room(f) ? buf_get(f, POOL_READ, BUF_HOST_READ) : FTL_NONE;
      if (cur == FTL_NONE) return STEP_WAIT; /* resumes at this address */
      struct pagebuf *pb = &f->bufs[cur];
      pb->row = row;
      pb->mask = 1u << slot;
      pb->cmd = c;
      pb->slot_idx[slot] = (uint16_t)cmd->progress;
      cmd->pending++;
      f->stats.flash_reads++;
    }
    if (cur != FTL_NONE)
      flash_submit(f, FC_OP_READ, TAG(TAG_HOST_READ, cur), f->bufs[cur].row, f->bufs[cur].mask, f->bufs[cur].dram);
    if (copy && !cmd->stream) return STEP_WAIT; /* the sources' reads first (oc_resume() comes back) */
  } else if (f->zns.state) {                    /* a zone reset (zns.c) */
    if (zns_submit_reset(f, c) == STEP_WAIT) return STEP_WAIT;
  } else { /* reset */
    for (; cmd->progress < cmd->nlb; ++cmd->progress) {
      if (list[cmd->progress] == OC_LIST_SKIP) continue;
      if (!oc_ring_room(f)) return STEP_WAIT;
      oc_locate(f, &l, list[cmd->progress], &blk, &sec);
      f->blk_valid[blk] = c; /* no L2P here: an erasing chunk's valid count names its command */
      cmd->pending++;
      f->erases_inflight++;
      flash_submit(f, FC_OP_ERASE, TAG(TAG_ERASE, blk), blk, 0, 0);
    }
  }
  oc_maybe_done(f, c);
  return STEP_DONE;
}

static void oc_flash_done(struct ftl *f, const struct fc_cqe *e) {
  const uint32_t idx = TAG_IDX(e->tag);
  uint32_t c;
  switch (TAG_KIND(e->tag)) {
    case TAG_PROGRAM: {
      c = f->bufs[idx].cmd;
      program_retired(f, f->bufs[idx].epoch);
      if (e->status == FC_ERR_PROGRAM_FAIL) {
        f->stats.program_failures++;
        f->nt.cmds[c].status = OCSSD_SC_WRITE_NEXT_UNIT;
        if (f->zns.state) { /* zoned: the zone becomes read-only */
          zns_program_failed(f, row_block(f, f->bufs[idx].row));
          f->nt.cmds[c].status = ZNS_SC_WRITE_FAULT;
        }
      } else if (e->status != FC_OK) {
        f->stats.flash_errors++;
        f->nt.cmds[c].status = NVME_SC_INTERNAL;
      }
      buf_put(f, idx);
      break;
    }
    case TAG_HOST_READ: {
      struct pagebuf *pb = &f->bufs[idx];
      c = pb->cmd;
      if (e->status == FC_ERR_UNCORRECTABLE) {
        f->stats.uncorrectable_reads++;
        f->nt.cmds[c].status = NVME_SC_UNRECOVERED_READ;
      } else if (e->status != FC_OK) {
        f->stats.flash_errors++;
        f->nt.cmds[c].status = NVME_SC_INTERNAL;
      }
      const uint32_t mw = oc_mw(f), S = f->cfg.slots_per_page;
      for (uint32_t s = 0; s < S; ++s)
        if (pb->mask & (1u << s)) {
          f->nt.cmds[c].tokens[pb->slot_idx[s]] = pb->token[s];
          oc_meta(&f->nt.cmds[c])[(size_t)pb->slot_idx[s] * mw] = pb->lpn[s];
          if (mw == 2)
            oc_meta(&f->nt.cmds[c])[(size_t)pb->slot_idx[s] * 2 + 1] = pb->token[2 * (size_t)S]; /* the page's */
        }
      buf_put(f, idx);
      break;
    }
    case TAG_ERASE:
      c = f->blk_valid[idx];
      f->erases_inflight--;
      if (e->status == FC_OK) {
        f->stats.erases++;
        block_set_state(f, idx, BLK_FREE);
      } else {
        if (e->status == FC_ERR_ERASE_FAIL)
          f->stats.erase_failures++;
        else
          f->stats.flash_errors++;
        block_set_state(f, idx, BLK_BAD); /* the chunk goes offline */
        f->nt.cmds[c].status = OCSSD_SC_OFFLINE_CHUNK;
        if (f->zns.state) { /* zoned: the zone goes offline */
          zns_erase_failed(f, idx);
          f->nt.cmds[c].status = ZNS_SC_OFFLINE;
        }
      }
      break;
    default:
      hal_logf(f->hal, HAL_LOG_ERROR, "ocssd: flash completion with unknown tag 0x%" PRIx32 "", e->tag);
      f->fatal = 1;
      return;
  }
  f->nt.cmds[c].pending--;
  oc_maybe_done(f, c);
}

/* The chunks a command programs (a write; a copy's destinations) or resets:
 * its address list and the step between addresses of different units; 0 for
 * the others. */
static int oc_targets(struct fw_cmd *cmd, const uint64_t **list, uint32_t *step, uint32_t S) {
  if (cmd->opcode == OCSSD_OP_VECTOR_RESET) {
    *list = oc_list(cmd), *step = 1;
    return 1;
  }
  if (!is_write(cmd) && !is_copy(cmd)) return 0;
  *list = is_copy(cmd) ? oc_dst(cmd) : oc_list(cmd);
  *step = S;
  return 1;
}

/* Whether commands a and b program or reset a chunk in common. */
static int oc_overlap(struct ftl *f, uint32_t a, uint32_t b) {
  const uint64_t *la = NULL, *lb = NULL;
  uint32_t sa = 1, sb = 1, ba = 0, bb = 0, sec = 0;
  const uint32_t S = f->cfg.slots_per_page;
  if (!oc_targets(&f->nt.cmds[a], &la, &sa, S) || !oc_targets(&f->nt.cmds[b], &lb, &sb, S)) return 0;
  const struct ocssd_lbaf l = oc_lbaf(f);
  for (uint32_t i = 0; i < f->nt.cmds[a].nlb; i += sa) {
    if (la[i] == OC_LIST_SKIP || oc_locate(f, &l, la[i], &ba, &sec) != NVME_SC_SUCCESS) continue;
    for (uint32_t j = 0; j < f->nt.cmds[b].nlb; j += sb)
      if (lb[j] != OC_LIST_SKIP && oc_locate(f, &l, lb[j], &bb, &sec) == NVME_SC_SUCCESS && ba == bb) return 1;
  }
  return 0;
}

/* Whether command c must wait: it programs or resets a chunk that a parked
 * Vector Copy is to program, or that a command still waiting ahead of it in
 * the line does (which a parked copy holds up); a chunk's programs keep the
 * order of its write pointer. */
static int oc_blocked(struct ftl *f, uint32_t c) {
  for (uint32_t q = f->nt.wait_head; q != c && q != FTL_NONE; q = f->nt.cmds[q].next)
    if (oc_overlap(f, q, c)) return 1;
  if (!f->oc.parked) return 0;
  for (uint32_t p = 0; p < f->cfg.cmd_slots; ++p) {
    const struct fw_cmd *q = &f->nt.cmds[p];
    if (q->state != CMD_FREE && is_copy(q) && q->stream == OC_COPY_PARKED && oc_overlap(f, p, c)) return 1;
  }
  return 0;
}

/* Held time: the counts of held commands integrated over time (the drive's
 * clock), so no timestamp per command is needed. */
static void oc_hold_account(struct ftl *f) {
  const uint64_t now = hal_time_ns(f->hal);
  if (now > f->oc.held_at) {
    f->stats.oc_held_ns += (uint64_t)f->oc.held * (now - f->oc.held_at);
    f->stats.oc_held_copy_ns += (uint64_t)f->oc.held_copies * (now - f->oc.held_at);
  }
  f->oc.held_at = now;
}

/* Command c was found held (on = 1) or let go (on = 0) for a destination chunk. */
static void oc_hold(struct ftl *f, uint32_t c, int on) {
  struct fw_cmd *cmd = &f->nt.cmds[c];
  if (cmd->held == on) return;
  oc_hold_account(f);
  cmd->held = (uint8_t)on;
  const int copy = is_copy(cmd);
  if (on) {
    f->oc.held++, f->oc.held_copies += (uint32_t)copy;
    f->stats.oc_held_cmds++, f->stats.oc_held_copies += (uint64_t)copy;
  } else {
    f->oc.held--, f->oc.held_copies -= (uint32_t)copy;
  }
}

/* Commands wait in arrival order; a command held up by a parked Vector Copy
 * (oc_blocked) keeps its place while those behind it that are not go on. */
static void oc_run(struct ftl *f, uint32_t c) {
  f->nt.cmds[c].held = 0;
  if (f->nt.wait_head != FTL_NONE) return nvmet_wait_push(f, c);
  if (oc_blocked(f, c)) {
    oc_hold(f, c, 1);
    return nvmet_wait_push(f, c);
  }
  if (oc_submit(f, c) == STEP_WAIT) nvmet_wait_push(f, c);
}

static int oc_resume(struct ftl *f) {
  int did = 0;
  uint32_t prev = FTL_NONE;
  for (uint32_t c = f->nt.wait_head; c != FTL_NONE;) {
    const uint32_t next = f->nt.cmds[c].next;
    if (oc_blocked(f, c)) { /* it waits for a copy's programs; the line passes it */
      oc_hold(f, c, 1);
      prev = c;
      c = next;
      continue;
    }
    oc_hold(f, c, 0);
    if (oc_submit(f, c) == STEP_WAIT) {
      struct fw_cmd *cmd = &f->nt.cmds[c];
      if (!is_copy(cmd) || cmd->stream || cmd->progress < cmd->nlb || !cmd->pending) break; /* buffers, ring room */
      cmd->stream = OC_COPY_PARKED; /* every source read is out: the line goes on without it */
      f->oc.parked++;
    }
    if (prev == FTL_NONE)
      f->nt.wait_head = next;
    else
      f->nt.cmds[prev].next = next;
    if (next == FTL_NONE) f->nt.wait_tail = prev;
    if (f->nt.cmds[c].opcode == NVME_OP_READ) f->nt.wait_reads--;
    did = STEP_DONE;
    c = next;
  }
  return did;
}

/* The command's data (writes) or list (reads, resets) is in: check, then run. */
static void oc_start(struct ftl *f, uint32_t c) {
  struct fw_cmd *cmd = &f->nt.cmds[c];
  hal_charge(f->hal, FW_OP_l2p_lookup, cmd->nlb); /* one chunk-table lookup per address */
  if (f->zns.state) { /* zoned: the zone's checks, and the command's chunk addresses (zns.c) */
    const uint16_t zs = zns_prepare(f, cmd);
    if (zs != NVME_SC_SUCCESS) return nvmet_complete(f, c, zs);
  }
  if (is_write(cmd) && oc_mptr(cmd) && oc_mw(f) == 2) /* the unit's sequence number: one word per page */
    for (uint32_t i = 0; i + f->cfg.slots_per_page <= cmd->nlb; i += f->cfg.slots_per_page)
      for (uint32_t k = 1; k < f->cfg.slots_per_page; ++k)
        if (oc_meta(cmd)[2 * (i + k) + 1] != oc_meta(cmd)[2 * i + 1])
          return nvmet_complete(f, c, NVME_SC_INVALID_FIELD);
  uint16_t st = is_write(cmd)                  ? oc_check_write(f, cmd, oc_list(cmd))
                : is_read(cmd) || is_copy(cmd) ? oc_check_read(f, cmd, oc_list(cmd))
                                               : oc_check_reset(f, cmd);
  if (st == NVME_SC_SUCCESS && is_copy(cmd)) st = oc_check_write(f, cmd, oc_dst(cmd)); /* destinations */
  if (st != NVME_SC_SUCCESS) return nvmet_complete(f, c, st);
  cmd->state = is_read(cmd) ? CMD_READ : CMD_PLACE;
  oc_run(f, c);
}

/* The sector list is in: a write fetches its data, the others start. */
static void oc_list_ready(struct ftl *f, uint32_t c) {
  struct fw_cmd *cmd = &f->nt.cmds[c];
  if (!is_write(cmd)) return oc_start(f, c);
  cmd->state = CMD_H2D;
  if (oc_mptr(cmd)) /* 4 or 8 bytes a sector (raw: not modelled as LBAs of data) */
    nvmet_xfer(f, XFER_H2D_RAW, c, OXTAG(OXK_PART, c), cmd->staging + OC_META_OFF, oc_mptr(cmd),
               cmd->nlb * 4u * oc_mw(f));
  nvmet_xfer(f, XFER_H2D, c, OXTAG(OXK_DATA, c), cmd->staging, cmd->prp, cmd->nlb);
}

/* A zoned command (zns.c decodes it): fetch its data or start it, send its
 * report, or run its erases. */
static void oc_zns_decode(struct ftl *f, uint32_t c, const struct nvme_sqe *q) {
  struct fw_cmd *cmd = &f->nt.cmds[c];
  uint32_t bytes = 0;
  switch (zns_decode(f, c, q, &bytes)) {
    case ZNS_NEXT_DATA: oc_list_ready(f, c); break;
    case ZNS_NEXT_SEND:
      cmd->state = CMD_D2H;
      nvmet_xfer(f, XFER_D2H_RAW, c, OXTAG(OXK_OUT, c), cmd->staging, cmd->prp, bytes);
      break;
    case ZNS_NEXT_RESET:
      cmd->state = CMD_PLACE;
      oc_run(f, c);
      break;
    default: break; /* completed */
  }
}

/* ---- admin --------------------------------------------------------------- */

static uint16_t oc_geometry(struct ftl *f, struct fw_cmd *cmd, uint32_t *bytes) {
  struct ocssd_geometry *g = (struct ocssd_geometry *)(void *)cmd->tokens;
  const uint32_t S = f->cfg.slots_per_page;
  memset(g, 0, sizeof *g);
  g->major = 2;
  g->lbaf = oc_lbaf(f);
  g->num_grp = (uint16_t)f->cfg.channels;
  g->num_pu = (uint16_t)f->cfg.dies_per_channel;
  g->num_chk = f->cfg.blocks_per_die;
  g->clba = f->slots_per_block;
  g->ws_min = S;
  g->ws_opt = S;
  g->trdt = g->trdm = f->cfg.oc_read_ns;
  g->tprt = g->tprm = f->cfg.oc_program_ns;
  g->tbet = g->tbem = f->cfg.oc_erase_ns;
  *bytes = (uint32_t)sizeof *g;
  return NVME_SC_SUCCESS;
}

static uint8_t oc_chunk_state(uint8_t blk_state) {
  switch (blk_state) {
    case BLK_FREE: return OCSSD_CHUNK_FREE;
    case BLK_OPEN: return OCSSD_CHUNK_OPEN;
    case BLK_BAD: return OCSSD_CHUNK_OFFLINE;
    default: return OCSSD_CHUNK_CLOSED; /* closed, or being reset */
  }
}

/* Get Log Page, chunk information: NUMD (CDW10 31:16, CDW11 15:0) dwords from
 * byte offset LPO (CDW12-13), a whole number of descriptors in. */
static uint16_t oc_chunk_log(struct ftl *f, struct fw_cmd *cmd, const struct nvme_sqe *q, uint32_t *bytes) {
  const uint64_t numd = ((uint64_t)(q->cdw11 & 0xffffu) << 16 | q->cdw10 >> 16) + 1;
  const uint64_t off = (uint64_t)q->cdw12 | (uint64_t)q->cdw13 << 32;
  const uint64_t total = (uint64_t)f->total_blocks * sizeof(struct ocssd_chunk_desc);
  if (numd * 4 > OC_ADMIN_BYTES || off % sizeof(struct ocssd_chunk_desc) || off >= total || numd * 4 > total - off)
    return NVME_SC_INVALID_FIELD;
  const struct ocssd_lbaf l = oc_lbaf(f);
  const uint32_t bpd = f->cfg.blocks_per_die, pus = f->cfg.dies_per_channel;
  uint8_t *out = (uint8_t *)cmd->tokens;
  for (uint64_t at = 0; at < numd * 4; at += sizeof(struct ocssd_chunk_desc)) {
    const uint32_t n = (uint32_t)((off + at) / sizeof(struct ocssd_chunk_desc)); /* group, PU, chunk order */
    const uint32_t chk = n % bpd, pu = n / bpd % pus, grp = n / bpd / pus;
    const uint32_t blk = (pu * f->cfg.channels + grp) * bpd + chk;
    struct ocssd_chunk_desc d;
    memset(&d, 0, sizeof d);
    d.state = oc_chunk_state(f->blk_state[blk]);
    d.type = OCSSD_CHUNK_TYPE_SEQUENTIAL;
    d.wear_index = (uint8_t)(f->blk_erase[blk] > 255 ? 255 : f->blk_erase[blk]);
    d.slba = ocssd_addr(&l, grp, pu, chk, 0);
    d.cnlb = f->slots_per_block;
    d.wp = d.slba + (d.state == OCSSD_CHUNK_OFFLINE ? 0 : (uint64_t)f->blk_wp[blk] * f->cfg.slots_per_page);
    const uint64_t left = numd * 4 - at;
    memcpy(out + at, &d, left < sizeof d ? (size_t)left : sizeof d);
  }
  *bytes = (uint32_t)(numd * 4);
  return NVME_SC_SUCCESS;
}

static void oc_admin(struct ftl *f, uint32_t c, const struct nvme_sqe *q) {
  struct fw_cmd *cmd = &f->nt.cmds[c];
  uint32_t bytes = 0;
  uint16_t st = f->zns.state ? zns_admin(f, cmd, q, &bytes) : ZNS_NOT_MINE; /* zoned: Identify */
  if (st != ZNS_NOT_MINE) {
  } else if (cmd->opcode == OCSSD_ADMIN_GEOMETRY) {
    st = q->nsid == 1 ? oc_geometry(f, cmd, &bytes) : NVME_SC_INVALID_NS;
  } else if (cmd->opcode == OCSSD_ADMIN_GET_LOG_PAGE && (q->cdw10 & 0xffu) == OCSSD_LOG_CHUNK_INFO) {
    st = oc_chunk_log(f, cmd, q, &bytes);
  } else {
    st = admin_execute(f, cmd, q, &bytes); /* directives.c */
    if (st == ADMIN_HELD) return;
  }
  cmd->status = st;
  if (st != NVME_SC_SUCCESS || !bytes) return nvmet_complete(f, c, st);
  cmd->state = CMD_D2H;
  nvmet_xfer(f, XFER_D2H_RAW, c, OXTAG(OXK_OUT, c), cmd->staging, cmd->prp, bytes);
}

/* ---- decode and the rings ------------------------------------------------- */

/* The open-channel command set's decode (cmdset_ops). */
static void oc_decode_vector(struct ftl *f, uint32_t c, const struct nvme_sqe *q) {
  struct fw_cmd *cmd = &f->nt.cmds[c];
  if (cmd->opcode == NVME_OP_FLUSH) return nvmet_complete(f, c, NVME_SC_SUCCESS); /* nothing cached */
  if (!is_read(cmd) && !is_write(cmd) && !is_copy(cmd) && cmd->opcode != OCSSD_OP_VECTOR_RESET)
    return nvmet_complete(f, c, NVME_SC_INVALID_OPCODE);
  if (q->nsid != 1) return nvmet_complete(f, c, NVME_SC_INVALID_NS);
  const uint64_t lba = (uint64_t)q->cdw10 | (uint64_t)q->cdw11 << 32;
  uint64_t *list = oc_list(cmd);
  cmd->slba = cmd->opcode == OCSSD_OP_VECTOR_RESET || is_copy(cmd) ? 0 : q->mptr; /* oc_mptr() */
  cmd->stream = 0;                                                                /* is_copy(): phase */
  if (cmd->opcode == NVME_OP_READ || cmd->opcode == NVME_OP_WRITE) { /* consecutive sectors from an address */
    cmd->nlb = SSDVP_FIELD_GET(NVME_CDW12_NLB, q->cdw12) + 1;
    if (cmd->nlb > OCSSD_MAX_VECTOR) return nvmet_complete(f, c, NVME_SC_INVALID_FIELD);
    for (uint32_t i = 0; i < cmd->nlb; ++i) list[i] = lba + i;
    return oc_list_ready(f, c);
  }
  cmd->nlb = (q->cdw12 & (OCSSD_MAX_VECTOR - 1)) + 1;
  const uint64_t dst = (uint64_t)q->cdw14 | (uint64_t)q->cdw15 << 32; /* Vector Copy: the destinations */
  if (cmd->nlb == 1) {
    list[0] = lba;
    oc_dst(cmd)[0] = dst;
    return oc_list_ready(f, c);
  }
  cmd->state = CMD_H2D;
  if (is_copy(cmd)) /* the destination list first; the source list's arrival starts the command */
    nvmet_xfer(f, XFER_H2D_RAW, c, OXTAG(OXK_PART, c), cmd->staging + OC_DST_OFF, dst, cmd->nlb * 8u);
  nvmet_xfer(f, XFER_H2D_RAW, c, OXTAG(OXK_LIST, c), cmd->staging + OC_LIST_OFF, lba, cmd->nlb * 8u);
}

/* A fetched command: admin, or an I/O command of the open-channel or (zoned
 * 1) the zoned command set, which zns.c decodes and ocssd.c runs. */
static int oc_decode_as(struct ftl *f, uint32_t c, const struct nvme_cmd_entry *e, int zoned) {
  if (!nvmet_cmd_begin(f, c, e)) return STEP_DONE;
  if (e->sqid == 0)
    oc_admin(f, c, &e->sqe);
  else if (zoned)
    oc_zns_decode(f, c, &e->sqe);
  else
    oc_decode_vector(f, c, &e->sqe);
  return STEP_DONE;
}

/* The decodes of cmdset_open_channel and cmdset_zns. */
static int oc_decode(struct ftl *f, uint32_t c, const struct nvme_cmd_entry *e) { return oc_decode_as(f, c, e, 0); }
static int oc_zns_decode_entry(struct ftl *f, uint32_t c, const struct nvme_cmd_entry *e) {
  return oc_decode_as(f, c, e, 1);
}

/* A transfer of command c completed (cmdset_ops): the list in, the data in,
 * the data out; a first part (OXK_PART) only keeps its status for the next. */
static int oc_xfer_done(struct ftl *f, uint32_t c, uint32_t kind, uint32_t status) {
  if (kind == OXK_PART) { /* the next transfer of the command goes on from here */
    if (status) f->nt.cmds[c].status = NVME_SC_DATA_XFER_ERROR;
    return STEP_DONE;
  }
  if (status || f->nt.cmds[c].status == NVME_SC_DATA_XFER_ERROR) {
    nvmet_complete(f, c, NVME_SC_DATA_XFER_ERROR);
    return STEP_DONE;
  }
  switch (kind) {
    case OXK_LIST: oc_list_ready(f, c); break;
    case OXK_DATA: oc_start(f, c); break;
    case OXK_OUT: nvmet_complete(f, c, f->nt.cmds[c].status); break;
    default: break;
  }
  return STEP_DONE;
}

static int ocssd_poll(struct ftl *f) {
  int did = 0;
  if (flash_cq_fetch(f)) {
    struct fc_cqe e;
    while (flash_cq_pop(f, &e)) oc_flash_done(f, &e);
    flash_cq_release(f);
    did = STEP_DONE;
  }
  if (nvmet_done_fetch(f)) did |= nvmet_done_drain(f);
  if (nvmet_cmd_fetch(f)) did |= nvmet_cmd_drain(f);
  if (f->nt.wait_head != FTL_NONE) did |= oc_resume(f);
  did |= flash_doorbell(f);
  did |= nvmet_doorbell(f);
  return did;
}

const struct cmdset_ops cmdset_open_channel = {ocssd_poll, oc_decode, oc_xfer_done};
const struct cmdset_ops cmdset_zns = {ocssd_poll, oc_zns_decode_entry, oc_xfer_done};
