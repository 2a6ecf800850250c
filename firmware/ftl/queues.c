/*
 * queues.c - admin commands that shape the host interface: Create I/O
 * Completion Queue (05h), Create I/O Submission Queue (01h), Delete I/O
 * Submission Queue (00h), Delete I/O Completion Queue (04h) and the
 * Arbitration feature (Set/Get Features 01h) and the Interrupt Coalescing
 * feature (Set/Get Features 08h: the controller's IRQ_COAL register).
 *
 * The NVMe controller holds the queues and arbitrates between them; the
 * firmware decodes the command and hands its dwords to the controller's Q_*
 * registers (ssdvp_regs.def), which check them and return the NVMe status:
 * Invalid Queue Identifier (qid 0, above the controller's queues, or in use),
 * Completion Queue Invalid (an SQ naming no existing CQ), Invalid Queue Size
 * (1 entry or above MQES + 1), Invalid Field (not physically contiguous),
 * Invalid Interrupt Vector (a CQ's IV at or above the controller's vectors);
 * for the deletes Invalid Queue Identifier (qid 0, above the controller's
 * queues, not created, an SQ already being deleted) and Invalid Queue
 * Deletion (a CQ some SQ still uses). A Delete I/O SQ aborts the commands
 * still in the SQ (Command Aborted due to SQ Deletion) and lets the ones the
 * firmware has finish; the controller holds this command's completion (and
 * any later admin completion) until every one of them is posted.
 * The Arbitration feature is the controller's ARB register as it is.
 * Completions of every I/O queue go back on the CQ of the command's SQ: the
 * controller maps the SQ id of an XFER_COMPLETE to its CQ (hostif.c posts the
 * SQ id the command came from).
 */
#include "ftl_internal.h"

static uint16_t queue_command(struct ftl *f, const struct nvme_sqe *q, uint32_t qcmd) {
  hal_write32(f->hal, SSDVP_NVME_BASE + NVME_Q_ADDR_LO, (uint32_t)q->prp1);
  hal_write32(f->hal, SSDVP_NVME_BASE + NVME_Q_ADDR_HI, (uint32_t)(q->prp1 >> 32));
  hal_write32(f->hal, SSDVP_NVME_BASE + NVME_Q_ID, q->cdw10);
  hal_write32(f->hal, SSDVP_NVME_BASE + NVME_Q_ARGS, q->cdw11);
  hal_write32(f->hal, SSDVP_NVME_BASE + NVME_Q_CMD, qcmd);
  return (uint16_t)hal_read32(f->hal, SSDVP_NVME_BASE + NVME_Q_STATUS);
}

int queues_admin(struct ftl *f, uint8_t opcode, const struct nvme_sqe *q, uint32_t *dw0) {
  const uint32_t fid = q->cdw10 & 0xffu;
  switch (opcode) {
    case NVME_ADMIN_CREATE_CQ: return queue_command(f, q, NVME_QCMD_CREATE_CQ);
    case NVME_ADMIN_CREATE_SQ: return queue_command(f, q, NVME_QCMD_CREATE_SQ);
    case NVME_ADMIN_DELETE_SQ: return queue_command(f, q, NVME_QCMD_DELETE_SQ);
    case NVME_ADMIN_DELETE_CQ: return queue_command(f, q, NVME_QCMD_DELETE_CQ);
    case NVME_ADMIN_SET_FEATURES:
      if (fid == NVME_FEAT_IRQ_COALESCING) {
        hal_write32(f->hal, SSDVP_NVME_BASE + NVME_IRQ_COAL, q->cdw11 & 0xffffu); /* THR 7:0, TIME 15:8 */
        return NVME_SC_SUCCESS;
      }
      if (fid != NVME_FEAT_ARBITRATION) return QUEUES_NOT_MINE;
      hal_write32(f->hal, SSDVP_NVME_BASE + NVME_ARB, q->cdw11);
      return NVME_SC_SUCCESS;
    case NVME_ADMIN_GET_FEATURES:
      if (fid == NVME_FEAT_IRQ_COALESCING) {
        *dw0 = hal_read32(f->hal, SSDVP_NVME_BASE + NVME_IRQ_COAL);
        return NVME_SC_SUCCESS;
      }
      if (fid != NVME_FEAT_ARBITRATION) return NVME_SC_INVALID_FIELD;
      *dw0 = hal_read32(f->hal, SSDVP_NVME_BASE + NVME_ARB);
      return NVME_SC_SUCCESS;
    default: return QUEUES_NOT_MINE;
  }
}
