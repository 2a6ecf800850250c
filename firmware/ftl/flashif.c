/*
 * flashif.c - the flash controller's submission and completion rings. A leaf:
 * it hands completions to its caller (the loop dispatches them by tag kind)
 * and calls no other unit.
 *
 * Ring indices wrap at the ring size, as in NVMe: empty when head == tail.
 * The submission ring is sized so that it can never fill: every flash
 * operation holds a page buffer or is one of at most gc_max_active erases.
 * For the completion ring, fcq.tail is the controller's tail as last read,
 * or with ftl.flash_cq_phase the end of the entries found by their phase tag.
 */
#include "ftl_internal.h"

/* ftl.multiplane: the descriptor just written at the tail joins the group
 * open on its die (a descriptor of that die not yet rung) when both are the
 * same operation at the same page offset and its plane is not in the group
 * yet: the group's last descriptor becomes a plane opcode (ssdvp_hw.h,
 * FC_OP_PLANE_*) and this one ends the group, so the die runs it as one
 * operation; descriptors of other dies may lie between them. Otherwise it
 * opens a new group on its die. A group's last descriptor always has its
 * plain opcode, so every group is complete when the doorbell rings. Groups
 * are tracked for FTL_MP_OPEN dies at a time (the oldest is forgotten).
 * Under flash.multiplane_same_block (ftl_config.mp_same_block) the blocks
 * must also be at one block index within their planes. */
static void flash_group(struct ftl *f, uint8_t op, uint32_t row) {
  if (op == FC_OP_COPYBACK) { /* never grouped, and no group of its die goes on past it */
    const uint32_t die = row / f->cfg.pages_per_block / f->cfg.blocks_per_die;
    for (uint32_t i = 0; i < FTL_MP_OPEN; ++i)
      if (f->mp[i].used && f->mp[i].die == die) f->mp[i].used = 0;
    return;
  }
  const uint32_t blk = op == FC_OP_ERASE ? row : row / f->cfg.pages_per_block;
  const uint32_t die = blk / f->cfg.blocks_per_die, plane = 1u << block_plane(f, blk);
  const uint32_t page = op == FC_OP_ERASE ? 0 : row % f->cfg.pages_per_block, index = block_index(f, blk);
  struct mp_group *g = NULL;
  for (uint32_t i = 0; i < FTL_MP_OPEN && !g; ++i)
    if (f->mp[i].used && f->mp[i].die == die) g = &f->mp[i];
  const int joins = g && g->op == op && g->page == page && !(g->used & plane);
  if (joins && f->cfg.mp_same_block && g->index != index) {
    f->stats.mp_index_splits++; /* flash.multiplane_same_block: a group only at one block index */
  } else if (joins) {
    ((struct fc_sqe *)f->fsq.mem)[g->last].op = (uint8_t)(op + (FC_OP_PLANE_READ - FC_OP_READ));
    g->used |= plane;
    g->last = f->fsq.tail;
    return;
  }
  if (!g) {
    g = &f->mp[f->mp_next];
    f->mp_next = (f->mp_next + 1) % FTL_MP_OPEN;
  }
  g->die = die;
  g->op = op;
  g->page = page;
  g->index = index;
  g->used = plane;
  g->last = f->fsq.tail;
}

/* The scheduling hint of a descriptor by its tag: host reads FC_HINT_HOST;
 * GC's victim reads and erases (the NVM command set's only erases besides
 * checkpoints' and translation blocks', which have tags of their own)
 * FC_HINT_GC under ftl.gc.preempt. GC's programs are hinted by alloc.c, which
 * knows their frontier. */
static uint8_t submit_hint(const struct ftl *f, uint8_t op, uint32_t tag) {
  const uint32_t kind = TAG_KIND(tag);
  const uint8_t hold = f->cfg.gc_hold != FTL_GC_HOLD_PAGE;
  if (op == FC_OP_READ && kind == TAG_HOST_READ) return FC_HINT_HOST | (hold ? FC_HINT_USER : 0u);
  if (kind == TAG_GC_READ || (kind == TAG_ERASE && f->cfg.command_set == FTL_CMDSET_NVM))
    return flash_gc_hint(f) | (hold ? FC_HINT_VICTIM : 0u);
  return 0;
}

void flash_submit(struct ftl *f, uint8_t op, uint32_t tag, uint32_t row, uint32_t mask, uint32_t buf) {
  struct fc_sqe *e = (struct fc_sqe *)f->fsq.mem + f->fsq.tail;
  e->op = op;
  e->hint = submit_hint(f, op, tag);
  e->rsvd1 = 0;
  e->tag = tag;
  e->row = row;
  e->slot_mask = mask;
  e->buf = buf;
  e->seq = f->seq;
  e->meta = 0;
  e->meta_bytes = 0;
  if (mp_planes(f) > 1) flash_group(f, op, row);
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

void flash_copyback_drop(struct ftl *f, uint32_t slots) {
  struct fc_sqe *e = (struct fc_sqe *)f->fsq.mem + ((f->fsq.tail - 1) & (f->fsq.size - 1));
  e->meta_bytes = slots; /* FC_COPYBACK_DROP */
}

void flash_hint(struct ftl *f, uint8_t hint) {
  struct fc_sqe *e = (struct fc_sqe *)f->fsq.mem + ((f->fsq.tail - 1) & (f->fsq.size - 1));
  e->hint |= hint;
}

void flash_hint_host(struct ftl *f) {
  struct fc_sqe *e = (struct fc_sqe *)f->fsq.mem + ((f->fsq.tail - 1) & (f->fsq.size - 1));
  e->hint = FC_HINT_HOST;
}

int flash_doorbell(struct ftl *f) {
  if (!f->fsq_dirty) return 0;
  f->fsq_dirty = 0;
  for (uint32_t i = 0; i < FTL_MP_OPEN; ++i) f->mp[i].used = 0; /* rung: a later descriptor starts a group */
  hal_write32(f->hal, SSDVP_FLASH_BASE + FLASH_SQ_TAIL, f->fsq.tail);
  return 1;
}

/* ftl.flash_cq_phase (FLASH CTRL.CQ_PHASE): the entries past the known tail
 * whose phase tag is the one expected there are new; the tag expected flips
 * where the ring wraps. The slot before head is never written while head
 * stands (a full ring keeps one free), so the scan stops there at the latest.
 * No register read: the entries are in DRAM. */
static int flash_cq_scan(struct ftl *f) {
  const volatile struct fc_cqe *q = (const volatile struct fc_cqe *)f->fcq.mem;
  const uint32_t mask = f->fcq.size - 1, last = (f->fcq.head - 1) & mask;
  uint32_t t = f->fcq.tail, phase = f->fcq.phase;
  while (t != last && ((q[t].flags & FC_FLAG_PHASE) != 0) == (phase != 0)) {
    t = (t + 1) & mask;
    if (t == 0) phase ^= 1u;
  }
  f->fcq.tail = t;
  f->fcq.phase = phase;
  return f->fcq.head != t;
}

int flash_cq_fetch(struct ftl *f) {
  if (f->cfg.flash_cq_phase) return flash_cq_scan(f);
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

int flash_wait_one(struct ftl *f, uint32_t tag, struct fc_cqe *c) {
  flash_doorbell(f);
  for (;;) {
    if (f->fatal) return -1;
    if (!flash_cq_fetch(f)) {
      hal_wait_irq(f->hal);
      continue;
    }
    if (flash_cq_pop(f, c)) break;
  }
  flash_cq_release(f);
  if (c->tag == tag) return 0;
  hal_logf(f->hal, HAL_LOG_ERROR, "ftl: recovery: unexpected flash completion 0x%" PRIx32, c->tag);
  f->fatal = 1;
  return -1;
}
