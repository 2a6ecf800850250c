/*
 * nvmet.c - the NVMe transport, below every command set.
 *
 * What every command set (hostif.c's NVM, ocssd.c's open-channel and zoned)
 * does with the NVMe controller's three rings in the same way:
 *  - the command slots: allocation, release, and the command interrupt
 *    masked while no slot is free;
 *  - the CMD ring: fetch (CMD_TAIL), one slot per entry, the common part of
 *    decoding (nvmet_cmd_begin), the command set's decode through
 *    f->cs->decode, CMD_HEAD;
 *  - the XFER ring: data transfers and completions posted, its doorbell;
 *  - the DONE ring: fetch (DONE_TAIL), the transfer's slot and tag kind to
 *    the command set's f->cs->xfer_done, DONE_HEAD;
 *  - the list of command slots waiting for buffers or ring room.
 * A tag is the transfer's kind (bits 31:24, the command set's) and the slot.
 * It calls no other unit (a leaf).
 */
#include "ftl_internal.h"

uint32_t nvmet_cmd_alloc(struct ftl *f) {
  const uint32_t c = f->nt.cmd_free;
  if (c == FTL_NONE) return FTL_NONE;
  f->nt.cmd_free = f->nt.cmds[c].next;
  struct fw_cmd *cmd = &f->nt.cmds[c];
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
  if (f->nt.cmd_irq_masked == masked) return;
  f->nt.cmd_irq_masked = masked;
  const uint32_t en =
      (1u << IRQ_NVME_DONE) | (1u << IRQ_FLASH) | (masked ? 0u : 1u << IRQ_NVME_CMD) | f->sched.irq_extra;
  hal_write32(f->hal, SSDVP_INTC_BASE + INTC_ENABLE, en);
}

void nvmet_cmd_release(struct ftl *f, uint32_t c) {
  f->nt.cmds[c].state = CMD_FREE;
  f->nt.cmds[c].next = f->nt.cmd_free;
  f->nt.cmd_free = c;
  /* A level interrupt must never stay raised for work the firmware cannot
   * take: the command line is masked while no slot is free. */
  if (f->nt.cmd_irq_masked && !f->in_func_call) cmd_irq_mask(f, 0);
}

static void xfer_post(struct ftl *f, uint8_t op, const struct fw_cmd *cmd, uint32_t tag, uint32_t dram, uint64_t host,
                      uint32_t n, uint16_t status) {
  struct nvme_xfer *x = (struct nvme_xfer *)f->nt.nxfer.mem + f->nt.nxfer.tail;
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
  f->nt.nxfer.tail = (f->nt.nxfer.tail + 1) & (f->nt.nxfer.size - 1);
  f->nt.nxfer_dirty = 1;
  if (op != XFER_COMPLETE) f->nt.xfer_outstanding++;
  hal_charge(f->hal, FW_OP_xfer_submit, 1);
}

void nvmet_xfer(struct ftl *f, uint8_t op, uint32_t c, uint32_t tag, uint32_t dram, uint64_t host, uint32_t n) {
  xfer_post(f, op, &f->nt.cmds[c], tag, dram, host, n, 0);
}

int nvmet_doorbell(struct ftl *f) {
  if (!f->nt.nxfer_dirty) return 0;
  f->nt.nxfer_dirty = 0;
  hal_write32(f->hal, SSDVP_NVME_BASE + NVME_XFER_TAIL, f->nt.nxfer.tail);
  return 1;
}

void nvmet_complete(struct ftl *f, uint32_t c, uint16_t status) {
  struct fw_cmd *cmd = &f->nt.cmds[c];
  cmd->status = status;
  if (status != NVME_SC_SUCCESS) f->stats.host_errors++;
  if (!cmd->no_host_io) xfer_post(f, XFER_COMPLETE, cmd, 0, 0, 0, 0, status); /* completion dword 0: cmd->dw0 */
  nvmet_cmd_release(f, c);
}

void nvmet_complete_dw0(struct ftl *f, uint32_t c, uint16_t status, uint32_t dw0) {
  f->nt.cmds[c].dw0 = dw0;
  nvmet_complete(f, c, status);
}

void nvmet_wait_push(struct ftl *f, uint32_t c) {
  f->nt.cmds[c].next = FTL_NONE;
  if (f->nt.cmds[c].opcode == NVME_OP_READ) f->nt.wait_reads++;
  if (f->nt.wait_tail == FTL_NONE)
    f->nt.wait_head = c;
  else
    f->nt.cmds[f->nt.wait_tail].next = c;
  f->nt.wait_tail = c;
}

/* ---- the CMD ring ----------------------------------------------------------- */

int nvmet_cmd_begin(struct ftl *f, uint32_t c, const struct nvme_cmd_entry *e) {
  struct fw_cmd *cmd = &f->nt.cmds[c];
  const struct nvme_sqe *q = &e->sqe;
  f->stats.host_cmds++;
  cmd->opcode = (uint8_t)SSDVP_FIELD_GET(NVME_CDW0_OPC, q->cdw0);
  cmd->cid = (uint16_t)SSDVP_FIELD_GET(NVME_CDW0_CID, q->cdw0);
  cmd->sqid = e->sqid;
  cmd->prp = q->prp1;
  hal_charge(f->hal, FW_OP_cmd_decode, 1);
  /* No fused operations and no SGLs (PRPs only): Invalid Field, as NVMe asks. */
  if (SSDVP_FIELD_GET(NVME_CDW0_FUSE, q->cdw0) || SSDVP_FIELD_GET(NVME_CDW0_PSDT, q->cdw0)) {
    nvmet_complete(f, c, NVME_SC_INVALID_FIELD);
    return 0;
  }
  return 1;
}

int nvmet_cmd_drain(struct ftl *f) {
  const struct nvme_cmd_entry *ring = (const struct nvme_cmd_entry *)f->nt.ncmd.mem;
  while (f->nt.ncmd.head != f->nt.ncmd.tail) {
    const uint32_t c = nvmet_cmd_alloc(f);
    if (c == FTL_NONE) { /* the rest stays in the ring until a slot frees */
      cmd_irq_mask(f, 1);
      break;
    }
    const int r = f->cs->decode(f, c, &ring[f->nt.ncmd.head]);
    f->nt.ncmd.head = (f->nt.ncmd.head + 1) & (f->nt.ncmd.size - 1);
    f->nt.ncmd_unacked = 1;
    if (r & STEP_YIELD) return STEP_DONE | STEP_YIELD; /* CMD_HEAD once the command set goes on */
  }
  if (!f->nt.ncmd_unacked) return 0;
  f->nt.ncmd_unacked = 0;
  hal_write32(f->hal, SSDVP_NVME_BASE + NVME_CMD_HEAD, f->nt.ncmd.head);
  return STEP_DONE;
}

/* ---- the DONE ring ------------------------------------------------------------ */

int nvmet_done_drain(struct ftl *f) {
  const struct nvme_done *ring = (const struct nvme_done *)f->nt.ndone.mem;
  while (f->nt.ndone.head != f->nt.ndone.tail) {
    const struct nvme_done d = ring[f->nt.ndone.head];
    f->nt.ndone.head = (f->nt.ndone.head + 1) & (f->nt.ndone.size - 1);
    f->nt.xfer_outstanding--;
    hal_charge(f->hal, FW_OP_xfer_complete, 1);
    const uint32_t c = d.tag & 0xffffffu;
    if (c >= f->cfg.cmd_slots) continue;
    if (f->cs->xfer_done(f, c, d.tag >> 24, d.status) & STEP_YIELD) return STEP_DONE | STEP_YIELD;
  }
  hal_write32(f->hal, SSDVP_NVME_BASE + NVME_DONE_HEAD, f->nt.ndone.head);
  return STEP_DONE;
}
