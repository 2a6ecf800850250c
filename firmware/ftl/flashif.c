/*
 * flashif.c - the flash controller's submission and completion rings. A leaf:
 * it hands completions to its caller (the loop dispatches them by tag kind)
 * and calls no other unit.
 *
 * Ring indices wrap at the ring size, as in NVMe: empty when head == tail.
 * The submission ring is sized so that it can never fill: every flash
 * operation holds a page buffer or is one of at most gc_max_active erases.
 * For the completion ring, fcq.tail is the controller's tail as last read.
 */
#include "ftl_internal.h"

void flash_submit(struct ftl *f, uint8_t op, uint32_t tag, uint32_t row, uint32_t mask, uint32_t buf) {
  struct fc_sqe *e = (struct fc_sqe *)f->fsq.mem + f->fsq.tail;
  e->op = op;
  e->hint = (uint8_t)(op == FC_OP_READ && TAG_KIND(tag) == TAG_HOST_READ ? FC_HINT_HOST : 0);
  e->rsvd1 = 0;
  e->tag = tag;
  e->row = row;
  e->slot_mask = mask;
  e->buf = buf;
  e->seq = f->seq;
  e->meta = 0;
  e->meta_bytes = 0;
  f->fsq.tail = (f->fsq.tail + 1) & (f->fsq.size - 1);
  f->fsq_dirty = 1;
  f->flash_outstanding++;
  hal_charge(f->hal, FW_OP_flash_submit, 1);
}

void flash_submit_meta(struct ftl *f, uint8_t op, uint32_t tag, uint32_t row, uint32_t buf, uint32_t meta,
                       uint32_t meta_bytes) {
  const uint32_t S = f->cfg.slots_per_page;
  struct fc_sqe *e = (struct fc_sqe *)f->fsq.mem + f->fsq.tail;
  flash_submit(f, op, tag, row, S >= 32 ? 0xffffffffu : (1u << S) - 1, buf);
  e->meta = meta;
  e->meta_bytes = meta_bytes;
}

int flash_doorbell(struct ftl *f) {
  if (!f->fsq_dirty) return 0;
  f->fsq_dirty = 0;
  hal_write32(f->hal, SSDVP_FLASH_BASE + FLASH_SQ_TAIL, f->fsq.tail);
  return 1;
}

int flash_cq_fetch(struct ftl *f) {
  const uint32_t tail = hal_read32(f->hal, SSDVP_FLASH_BASE + FLASH_CQ_TAIL);
  if (tail == f->fcq.head) return 0;
  if (tail >= f->fcq.size) {
    hal_logf(f->hal, HAL_LOG_ERROR, "ftl: flash CQ tail %" PRIu32 " outside a ring of %" PRIu32 "", tail, f->fcq.size);
    f->fatal = 1;
    return 0;
  }
  f->fcq.tail = tail;
  return 1;
}

int flash_cq_pop(struct ftl *f, struct fc_cqe *c) {
  if (f->fcq.head == f->fcq.tail) return 0;
  *c = ((const struct fc_cqe *)f->fcq.mem)[f->fcq.head];
  f->fcq.head = (f->fcq.head + 1) & (f->fcq.size - 1);
  f->flash_outstanding--;
  hal_charge(f->hal, FW_OP_flash_complete, 1);
  return 1;
}

void flash_cq_release(struct ftl *f) { hal_write32(f->hal, SSDVP_FLASH_BASE + FLASH_CQ_HEAD, f->fcq.head); }
