/*
 * directives.c - admin commands: the Directives of NVMe 1.4 (section 9) for
 * namespace 1, the Identify directive and the Streams directive.
 *
 * Admin commands arrive in the same CMD ring as I/O commands, from
 * submission queue 0; hostif.c hands them to admin_execute() and posts the
 * data and the completion it returns. Supported here:
 *  - Directive Send (19h): Identify / Enable Directive (CDW12 bits 15:8 the
 *    type, bit 0 ENDIR), Streams / Release Identifier (DSPEC), Streams /
 *    Release Resources.
 *  - Directive Receive (1Ah): Identify / Return Parameters (4096 bytes:
 *    supported and enabled type bitmaps), Streams / Return Parameters (32
 *    bytes), Streams / Get Status (open stream count and identifiers),
 *    Streams / Allocate Resources (CDW12 NSR; completion dword 0 NSA).
 * Any other admin opcode goes to gcgate_admin() (gcgate.c: Set Features 09h
 * with PLM Config 09h, PLM Window 0Ah and vendor GC report C0h, Asynchronous
 * Event Request, vendor GC lock C1h), which completes unknown ones with
 * Invalid Opcode.
 *
 * Streams model: identifiers 1..MSL (ftl_config.streams_limit). The
 * Streams directive is disabled after reset; Allocate Resources grants
 * NSA = min(NSR, MSL) streams to the namespace; a write with a stream
 * identifier opens it implicitly while fewer than NSA are open. Status of a
 * write with the Streams directive (streams_write_check):
 *   Streams not enabled, identifier 0 or above MSL -> Invalid Field in Command
 *   identifier not open and NSA already open (or NSA = 0: no resources)
 *                                                   -> Stream Resource Allocation Failed
 * Release Identifier closes one stream (its identifier may be opened again)
 * and, under the stream placement, its open blocks (frontier_close: the
 * partly written page padded, each open block a GC candidate as it stands);
 * Release Resources and disabling the directive close all and set NSA = 0.
 * Where host data goes is the placement's business (place.c): under the
 * stream placement, stream s writes to class s - 1 (one open block per die).
 */
#include <string.h>

#include "ftl_internal.h"

#define DIR_TYPE_IDENTIFY 0u
#define DIR_TYPE_STREAMS 1u
#define DIR_ID_PARAMS_BYTES 4096u
#define DIR_ST_PARAMS_BYTES 32u

static uint32_t popcount32(uint32_t v) {
  uint32_t n = 0;
  for (; v; v &= v - 1) ++n;
  return n;
}

static void put16(uint8_t *p, uint32_t v) {
  p[0] = (uint8_t)v;
  p[1] = (uint8_t)(v >> 8);
}

static void put32(uint8_t *p, uint32_t v) {
  put16(p, v);
  put16(p + 2, v >> 16);
}

/* A released stream leaves no partly written block behind: under the stream
 * placement its frontier's open blocks are closed (alloc.c), so they become
 * GC candidates instead of holding free space for a stream that may never
 * write again. */
static void stream_close(struct ftl *f, uint32_t dspec) {
  if (f->cfg.placement == FTL_PLACE_STREAM && dspec >= 1 && dspec <= f->classes) frontier_close(f, &f->fr[dspec - 1]);
}

static void streams_release_all(struct ftl *f) {
  for (uint32_t s = 1; s <= f->cfg.streams_limit; ++s)
    if (f->streams.open_mask & (1u << (s - 1))) stream_close(f, s);
  f->streams.allocated = 0;
  f->streams.open_mask = 0;
}

uint16_t streams_write_check(struct ftl *f, uint32_t dspec) {
  struct streams_state *st = &f->streams;
  if (!st->enabled || dspec == 0 || dspec > f->cfg.streams_limit) return NVME_SC_INVALID_FIELD;
  const uint32_t bit = 1u << (dspec - 1);
  if (st->open_mask & bit) return NVME_SC_SUCCESS;
  if (popcount32(st->open_mask) >= st->allocated) return NVME_SC_STREAM_ALLOC_FAILED;
  st->open_mask |= bit; /* implicitly opened */
  return NVME_SC_SUCCESS;
}

/* Bytes the host asked for: NUMD (CDW10) is 0-based dwords. */
static uint32_t want_bytes(const struct nvme_sqe *q, uint32_t have) {
  const uint64_t want = ((uint64_t)q->cdw10 + 1) * 4;
  return want < have ? (uint32_t)want : have;
}

static uint16_t directive_send(struct ftl *f, const struct nvme_sqe *q) {
  const uint32_t doper = q->cdw11 & 0xff, dtype = (q->cdw11 >> 8) & 0xff, dspec = q->cdw11 >> 16;
  struct streams_state *st = &f->streams;
  if (dtype == DIR_TYPE_IDENTIFY) {
    if (doper != NVME_DIR_SND_ID_ENABLE) return NVME_SC_INVALID_FIELD;
    const uint32_t which = (q->cdw12 >> 8) & 0xff, enable = q->cdw12 & 1u;
    if (which != DIR_TYPE_STREAMS) return NVME_SC_INVALID_FIELD; /* Identify is always on */
    if (!enable) streams_release_all(f);
    st->enabled = (uint8_t)enable;
    return NVME_SC_SUCCESS;
  }
  if (dtype != DIR_TYPE_STREAMS || !st->enabled) return NVME_SC_INVALID_FIELD;
  switch (doper) {
    case NVME_DIR_SND_ST_RELEASE_ID:
      if (dspec == 0 || dspec > f->cfg.streams_limit) return NVME_SC_INVALID_FIELD;
      if (st->open_mask & (1u << (dspec - 1))) stream_close(f, dspec);
      st->open_mask &= ~(1u << (dspec - 1));
      return NVME_SC_SUCCESS;
    case NVME_DIR_SND_ST_RELEASE_RES: streams_release_all(f); return NVME_SC_SUCCESS;
    default: return NVME_SC_INVALID_FIELD;
  }
}

static uint16_t directive_recv(struct ftl *f, struct fw_cmd *cmd, const struct nvme_sqe *q, uint32_t *send) {
  const uint32_t doper = q->cdw11 & 0xff, dtype = (q->cdw11 >> 8) & 0xff;
  struct streams_state *st = &f->streams;
  uint8_t *d = (uint8_t *)cmd->tokens;
  uint32_t len;
  if (dtype == DIR_TYPE_IDENTIFY) {
    if (doper != NVME_DIR_RCV_ID_PARAMS) return NVME_SC_INVALID_FIELD;
    len = want_bytes(q, DIR_ID_PARAMS_BYTES);
    memset(d, 0, len);
    /* byte 0: Directives Supported; byte 32: Directives Enabled (bit = type) */
    if (len > 0) d[0] = (uint8_t)((1u << DIR_TYPE_IDENTIFY) | (1u << DIR_TYPE_STREAMS));
    if (len > 32) d[32] = (uint8_t)((1u << DIR_TYPE_IDENTIFY) | (st->enabled ? 1u << DIR_TYPE_STREAMS : 0u));
  } else if (dtype == DIR_TYPE_STREAMS && st->enabled) {
    const uint32_t open = popcount32(st->open_mask);
    switch (doper) {
      case NVME_DIR_RCV_ST_PARAMS: {
        uint8_t p[DIR_ST_PARAMS_BYTES];
        memset(p, 0, sizeof p);
        put16(p + 0, f->cfg.streams_limit);                 /* MSL */
        put16(p + 2, f->cfg.streams_limit - st->allocated); /* NSSA: subsystem streams available */
        put16(p + 4, open);                                 /* NSSO: subsystem streams open */
        p[6] = 0;                                           /* NSSC: streams are per namespace */
        put32(p + 16, f->cfg.slots_per_page);               /* SWS: stream write size, LBAs (a page) */
        put16(p + 20,
              (uint32_t)(f->cfg.pages_per_block > 0xffff ? 0xffff
                                                         : f->cfg.pages_per_block)); /* SGS: a block, in SWS units */
        put16(p + 22, st->allocated);                                                /* NSA */
        put16(p + 24, open);                                                         /* NSO */
        len = want_bytes(q, DIR_ST_PARAMS_BYTES);
        memcpy(d, p, len);
        break;
      }
      case NVME_DIR_RCV_ST_STATUS: {
        const uint32_t full = 2 + 2 * open;
        len = want_bytes(q, full);
        uint8_t p[2 + 2 * 32];
        put16(p, open);
        uint32_t k = 0;
        for (uint32_t s = 1; s <= f->cfg.streams_limit; ++s)
          if (st->open_mask & (1u << (s - 1))) put16(p + 2 + 2 * (size_t)k++, s);
        memcpy(d, p, len);
        break;
      }
      case NVME_DIR_RCV_ST_ALLOCATE: {
        /* A namespace that holds streams keeps them: release first. */
        if (st->allocated) return NVME_SC_CMD_SEQ_ERROR;
        const uint32_t nsr = q->cdw12 & 0xffff;
        st->allocated = (uint16_t)(nsr < f->cfg.streams_limit ? nsr : f->cfg.streams_limit);
        if (nsr && !st->allocated) return NVME_SC_STREAM_ALLOC_FAILED;
        cmd->dw0 = st->allocated;
        return NVME_SC_SUCCESS;
      }
      default: return NVME_SC_INVALID_FIELD;
    }
  } else {
    return NVME_SC_INVALID_FIELD;
  }
  *send = len;
  return NVME_SC_SUCCESS;
}

uint16_t admin_execute(struct ftl *f, struct fw_cmd *cmd, const struct nvme_sqe *q, uint32_t *send) {
  *send = 0;
  switch (cmd->opcode) {
    case NVME_ADMIN_DIRECTIVE_SEND:
    case NVME_ADMIN_DIRECTIVE_RECV:
      if (q->nsid != 1) return NVME_SC_INVALID_NS;
      if (cmd->opcode == NVME_ADMIN_DIRECTIVE_SEND) return directive_send(f, q);
      return directive_recv(f, cmd, q, send);
    default: {
      const int qs = queues_admin(f, cmd->opcode, q, &cmd->dw0); /* queues.c: I/O queues, arbitration */
      if (qs != QUEUES_NOT_MINE) return (uint16_t)qs;
      const int st = gcgate_admin(f, (uint32_t)(cmd - f->nt.cmds), q); /* gcgate.c */
      return st == GCGATE_HELD ? ADMIN_HELD : (uint16_t)st;
    }
  }
}
