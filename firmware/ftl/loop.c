/*
 * loop.c - the event loop and functional access.
 */
#include <string.h>

#include "ftl_internal.h"

int ftl_poll(struct ftl *f) {
  int did = flash_poll(f);
  if (!f->functional) did |= host_poll(f);
  did |= gc_place_pending(f);
  if (f->wait_head != FTL_NONE) did |= host_resume_waiting(f);
  gc_kick(f);
  gcgate_poll(f);
  did |= flash_doorbell(f);
  did |= host_doorbell(f);
  return did;
}

void ftl_main(struct ftl *f) {
  while (!f->stop) {
    if (ftl_poll(f)) continue;
    hal_wait_irq(f->hal);
    hal_charge(f->hal, FW_OP_irq_entry, 1);
  }
}

void ftl_request_stop(struct ftl *f) { f->stop = 1; }

int ftl_busy(const struct ftl *f) {
  return f->flash_outstanding || f->xfer_outstanding || f->gc_active || f->wait_head != FTL_NONE ||
         f->gc_place_head != FTL_NONE;
}

const struct ftl_stats *ftl_get_stats(const struct ftl *f) { return &f->stats; }

uint64_t ftl_gc_active_ns(const struct ftl *f, uint64_t now_ns) {
  return f->stats.gc_active_ns + (f->gc_active && now_ns > f->gc_since_ns ? now_ns - f->gc_since_ns : 0);
}

/* Polls until command slot c is released; -1 if nothing moves any more. */
static int func_wait(struct ftl *f, uint32_t c) {
  while (f->cmds[c].state != CMD_FREE) {
    if (!ftl_poll(f) && f->cmds[c].state != CMD_FREE) {
      hal_logf(f->hal, HAL_LOG_ERROR, "ftl: functional command stuck (is the flash controller in functional mode?)");
      return -1;
    }
    if (f->fatal) return -1;
  }
  return 0;
}

static int func_drain(struct ftl *f) {
  while (ftl_busy(f)) {
    if (!ftl_poll(f) && ftl_busy(f)) {
      hal_logf(f->hal, HAL_LOG_ERROR, "ftl: functional drain stuck");
      return -1;
    }
    if (f->fatal) return -1;
  }
  return 0;
}

static uint32_t func_cmd(struct ftl *f, uint8_t opcode, uint64_t lba, uint32_t n) {
  const uint32_t c = cmd_alloc(f);
  if (c == FTL_NONE) return FTL_NONE;
  struct fw_cmd *cmd = &f->cmds[c];
  cmd->opcode = opcode;
  cmd->slba = lba;
  cmd->nlb = n;
  cmd->functional = 1;
  return c;
}

int ftl_func_write(struct ftl *f, uint64_t lba, uint32_t n, const uint32_t *tokens) {
  return ftl_func_write_stream(f, lba, n, tokens, 0);
}

int ftl_func_write_stream(struct ftl *f, uint64_t lba, uint32_t n, const uint32_t *tokens, uint32_t stream) {
  if (stream > FTL_MAX_CLASSES) return -1;
  if (lba >= f->cfg.logical_lbas || n > f->cfg.logical_lbas - lba) return -1;
  f->functional = 1;
  int rc = 0;
  while (n && rc == 0) {
    const uint32_t chunk = n < f->cfg.max_transfer_lbas ? n : f->cfg.max_transfer_lbas;
    const uint32_t c = func_cmd(f, NVME_OP_WRITE, lba, chunk);
    if (c == FTL_NONE) {
      rc = -1;
      break;
    }
    memcpy(f->cmds[c].tokens, tokens, (size_t)chunk * 4);
    f->cmds[c].stream = (uint8_t)stream;
    if (!cmd_place_writes(f, c)) wait_push(f, c);
    rc = func_wait(f, c);
    lba += chunk;
    n -= chunk;
    tokens += chunk;
  }
  if (rc == 0) rc = func_drain(f);
  f->functional = 0;
  return rc;
}

int ftl_func_read(struct ftl *f, uint64_t lba, uint32_t n, uint32_t *tokens) {
  if (lba >= f->cfg.logical_lbas || n > f->cfg.logical_lbas - lba) return -1;
  f->functional = 1;
  int rc = 0;
  while (n && rc == 0) {
    const uint32_t chunk = n < f->cfg.max_transfer_lbas ? n : f->cfg.max_transfer_lbas;
    const uint32_t c = func_cmd(f, NVME_OP_READ, lba, chunk);
    if (c == FTL_NONE) {
      rc = -1;
      break;
    }
    if (!cmd_start_read(f, c)) wait_push(f, c);
    rc = func_wait(f, c);
    memcpy(tokens, f->cmds[c].tokens, (size_t)chunk * 4);
    if (f->cmds[c].status != NVME_SC_SUCCESS) rc = -1;
    /* read_maybe_done marked it free without linking it back */
    f->cmds[c].next = f->cmd_free;
    f->cmd_free = c;
    lba += chunk;
    n -= chunk;
    tokens += chunk;
  }
  f->functional = 0;
  return rc;
}

int ftl_func_trim(struct ftl *f, uint64_t lba, uint64_t n) {
  if (lba >= f->cfg.logical_lbas || n > f->cfg.logical_lbas - lba) return -1;
  cmd_trim(f, lba, n);
  return 0;
}

int ftl_func_flush(struct ftl *f) {
  f->functional = 1;
  frontier_flush_host(f);
  const int rc = func_drain(f);
  f->functional = 0;
  return rc;
}

uint64_t ftl_self_check(const struct ftl *f) {
  uint64_t bad = 0;
  /* every mapped LBA points at a valid slot; per-block counts match bits */
  uint64_t mapped = 0;
  for (uint64_t l = 0; l < f->cfg.logical_lbas; ++l) {
    const uint32_t p = f->l2p[l];
    if (p == FTL_UNMAPPED) continue;
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
  if (valid != mapped) ++bad;
  return bad;
}
