/*
 * zns.c - the zoned personality (nvme.command_set: zns).
 *
 * The namespace speaks the NVMe Zoned Namespace command set (firmware/include
 * /zns.h, docs/models/zns.md) over the open-channel personality's machinery:
 * a zone is one chunk (a flash block), and every zoned command becomes a list
 * of chunk addresses that ocssd.c checks and runs as it runs Open-Channel
 * vector commands (write units at the write pointer, reads, erases). What
 * this unit adds is the zone: its state (empty, implicitly or explicitly
 * opened, closed, full, read-only, offline), the open and active resources
 * (nvme.zns.max_open, nvme.zns.max_active), and the commands: Zone
 * Management Send (close, finish, open, reset, offline; one zone or all),
 * Zone Management Receive (Report Zones), Zone Append, NVM Write and Read
 * with zoned rules, and the Identify data of the zoned namespace.
 *
 * Zone z is block (z mod dies) x blocks_per_die + z / dies: consecutive zones
 * are on consecutive dies (channel first), so zones written at once work on
 * different dies. Its capacity is the block's LBA slots, its size the power
 * of two at or above it (zns.h). The zone's write pointer is the block's
 * (block.c's blk_wp, in pages): a finished zone keeps its written part
 * readable; the LBAs above it read as deallocated (token 0), as do those of
 * an empty zone.
 *
 * Writes and appends are whole flash pages (ws_min of ocssd.h): a command
 * whose LBA count is not a multiple of a page's slots gets Invalid Field in
 * Command (a drive with a write cache would take any count; this one has
 * none). A command names at most 64 LBAs (OCSSD_MAX_VECTOR).
 *
 * Commands are checked in the order the drive starts them (ocssd.c: at the
 * data's arrival for writes, which keep command order), so several writes of
 * one zone may be in flight on one submission queue, in write-pointer order.
 * Zone Management Send runs when it is decoded. A reset takes the zone to
 * empty at once and erases its block; until the erase completes, writes to
 * the zone get Zone Invalid Write.
 */
#include <string.h>

#include "ftl_internal.h"
#include "ocssd.h"
#include "zns.h"

_Static_assert(sizeof(struct zns_zone_desc) == 64, "a zone descriptor is 64 bytes");
_Static_assert(sizeof(struct zns_report_header) == 64, "the Report Zones header is 64 bytes");

#define ZNS_DATA_BYTES 4096u /* Identify data, and the most a Report Zones command returns */

static uint64_t *zlist(struct fw_cmd *cmd) { return (uint64_t *)(void *)((uint8_t *)cmd->tokens + ZNS_LIST_OFF); }

static uint32_t zone_block(const struct ftl *f, uint32_t z) {
  return (z % f->dies) * f->cfg.blocks_per_die + z / f->dies;
}
static uint32_t block_zone(const struct ftl *f, uint32_t blk) {
  return (blk % f->cfg.blocks_per_die) * f->dies + blk / f->cfg.blocks_per_die;
}
static uint64_t zone_size(const struct ftl *f) { return 1ull << f->zns.zone_bits; }
static uint64_t ns_lbas(const struct ftl *f) { return (uint64_t)f->zns.zones << f->zns.zone_bits; }

/* The chunk address (ocssd.h) of LBA off of zone z. */
static uint64_t zone_addr(const struct ftl *f, uint32_t z, uint32_t off) {
  const struct ocssd_lbaf l =
      ocssd_lbaf_for(f->cfg.channels, f->cfg.dies_per_channel, f->cfg.blocks_per_die, f->slots_per_block);
  const uint32_t die = z % f->dies;
  return ocssd_addr(&l, die % f->cfg.channels, die / f->cfg.channels, z / f->dies, off);
}

/* LBAs written in zone z's block (0 while it is being erased, or bad). */
static uint32_t zone_written(const struct ftl *f, uint32_t z) {
  const uint32_t b = zone_block(f, z);
  const uint8_t s = f->blk_state[b];
  return s == BLK_OPEN || s == BLK_CLOSED ? (uint32_t)f->blk_wp[b] * f->cfg.slots_per_page : 0;
}

static int is_open(uint8_t s) { return s == ZNS_ZS_IMPLICIT_OPEN || s == ZNS_ZS_EXPLICIT_OPEN; }
static int is_active(uint8_t s) { return is_open(s) || s == ZNS_ZS_CLOSED; }

static void set_state(struct ftl *f, uint32_t z, uint8_t to) {
  const uint8_t from = f->zns.state[z];
  if (is_open(from)) f->zns.open--;
  if (is_active(from)) f->zns.active--;
  if (is_open(to)) f->zns.open++;
  if (is_active(to)) f->zns.active++;
  f->zns.state[z] = to;
}

/* Room to open zone z (empty or closed): an active resource for an empty
 * zone, an open one for both; at the open limit an implicitly opened zone is
 * closed to make room (apply: do it). */
static uint16_t open_room(struct ftl *f, uint32_t z, int apply) {
  if (f->zns.state[z] == ZNS_ZS_EMPTY && f->cfg.zns_max_active && f->zns.active >= f->cfg.zns_max_active)
    return ZNS_SC_TOO_MANY_ACTIVE;
  if (!f->cfg.zns_max_open || f->zns.open < f->cfg.zns_max_open) return NVME_SC_SUCCESS;
  for (uint32_t v = 0; v < f->zns.zones; ++v)
    if (v != z && f->zns.state[v] == ZNS_ZS_IMPLICIT_OPEN) {
      if (apply) set_state(f, v, ZNS_ZS_CLOSED);
      return NVME_SC_SUCCESS;
    }
  return ZNS_SC_TOO_MANY_OPEN;
}

/* The zone's block leaves the flash's write order: an open block closes. */
static void close_block(struct ftl *f, uint32_t blk) {
  if (f->blk_state[blk] == BLK_OPEN) block_set_state(f, blk, BLK_CLOSED);
}

int zns_init(struct ftl *f, uint8_t *zone_state) {
  if (!zone_state) return -1;
  f->zns.state = zone_state;
  f->zns.zone_bits = zns_zone_bits(f->slots_per_block);
  f->zns.zones = (uint32_t)(f->cfg.logical_lbas >> f->zns.zone_bits);
  f->zns.open = f->zns.active = 0;
  for (uint32_t z = 0; z < f->zns.zones; ++z)
    zone_state[z] = f->blk_state[zone_block(f, z)] == BLK_BAD ? ZNS_ZS_OFFLINE : ZNS_ZS_EMPTY;
  return 0;
}

/* ---- reads, writes, appends ------------------------------------------------ */

static enum zns_next decode_io(struct ftl *f, uint32_t c, const struct nvme_sqe *q) {
  struct fw_cmd *cmd = &f->nt.cmds[c];
  const uint64_t slba = (uint64_t)q->cdw10 | (uint64_t)q->cdw11 << 32;
  const uint32_t nlb = SSDVP_FIELD_GET(NVME_CDW12_NLB, q->cdw12) + 1;
  const uint64_t off = slba & (zone_size(f) - 1);
  const int read = cmd->opcode == NVME_OP_READ, too_long = nlb > OCSSD_MAX_VECTOR;
  uint16_t st = NVME_SC_SUCCESS;
  if (!too_long && (slba >= ns_lbas(f) || nlb > ns_lbas(f) - slba))
    st = NVME_SC_LBA_OUT_OF_RANGE;
  else if (!too_long && read && off + nlb > zone_size(f))
    st = ZNS_SC_BOUNDARY; /* reads do not cross zones */
  else if (too_long || (!read && nlb % f->cfg.slots_per_page) || (cmd->opcode == ZNS_OP_APPEND && off))
    st = NVME_SC_INVALID_FIELD; /* writes are whole flash pages; an append names its zone's first LBA */
  if (st != NVME_SC_SUCCESS) {
    nvmet_complete(f, c, st);
    return ZNS_NEXT_DONE;
  }
  cmd->nlb = nlb;
  zlist(cmd)[0] = slba; /* zns_prepare() makes the list */
  return ZNS_NEXT_DATA;
}

uint16_t zns_prepare(struct ftl *f, struct fw_cmd *cmd) {
  uint64_t *list = zlist(cmd);
  const uint64_t slba = list[0];
  const uint32_t z = (uint32_t)(slba >> f->zns.zone_bits), off = (uint32_t)(slba & (zone_size(f) - 1));
  const uint8_t s = f->zns.state[z];
  hal_charge(f->hal, FW_OP_l2p_lookup, 1); /* the zone table */
  if (cmd->opcode == NVME_OP_READ) {
    if (s == ZNS_ZS_OFFLINE) return ZNS_SC_OFFLINE;
    const uint32_t w = s == ZNS_ZS_EMPTY ? 0 : zone_written(f, z);
    for (uint32_t i = 0; i < cmd->nlb; ++i) list[i] = off + i < w ? zone_addr(f, z, off + i) : ZNS_LIST_SKIP;
    return NVME_SC_SUCCESS;
  }
  if (s == ZNS_ZS_FULL) return ZNS_SC_FULL;
  if (s == ZNS_ZS_READ_ONLY) return ZNS_SC_READ_ONLY;
  if (s == ZNS_ZS_OFFLINE) return ZNS_SC_OFFLINE;
  const uint8_t bs = f->blk_state[zone_block(f, z)];
  if (bs != BLK_FREE && bs != BLK_OPEN) return ZNS_SC_INVALID_WRITE; /* its reset is still erasing */
  const int append = cmd->opcode == ZNS_OP_APPEND;
  const uint32_t wp = zone_written(f, z), at = append ? wp : off;
  if (!append && off != wp) return ZNS_SC_INVALID_WRITE;
  if (at + cmd->nlb > f->slots_per_block) return ZNS_SC_BOUNDARY; /* beyond the zone's capacity */
  if (s == ZNS_ZS_EMPTY || s == ZNS_ZS_CLOSED) {
    const uint16_t st = open_room(f, z, 0);
    if (st != NVME_SC_SUCCESS) return st;
    open_room(f, z, 1);
    set_state(f, z, ZNS_ZS_IMPLICIT_OPEN);
  }
  for (uint32_t i = 0; i < cmd->nlb; ++i) list[i] = zone_addr(f, z, at + i);
  if (append) cmd->dw0 = (uint32_t)(((uint64_t)z << f->zns.zone_bits) + at); /* the LBA written */
  if (at + cmd->nlb == f->slots_per_block) set_state(f, z, ZNS_ZS_FULL);
  return NVME_SC_SUCCESS;
}

/* ---- Zone Management Send ---------------------------------------------------- */

/* Whether Select All applies action zsa to a zone in state s. */
static int selected(uint32_t zsa, uint8_t s) {
  switch (zsa) {
    case ZNS_ZSA_CLOSE: return is_open(s);
    case ZNS_ZSA_FINISH: return is_active(s);
    case ZNS_ZSA_OPEN: return s == ZNS_ZS_CLOSED;
    case ZNS_ZSA_RESET: return is_active(s) || s == ZNS_ZS_FULL;
    default: return s == ZNS_ZS_READ_ONLY; /* offline */
  }
}

/* Action zsa on zone z for command c: its status; a reset marks the block to
 * erase (VICTIM, owned by c through blk_valid, as ocssd.c's resets do). */
static uint16_t zone_action(struct ftl *f, uint32_t c, uint32_t z, uint32_t zsa) {
  const uint8_t s = f->zns.state[z];
  const uint32_t blk = zone_block(f, z);
  switch (zsa) {
    case ZNS_ZSA_CLOSE:
      if (s == ZNS_ZS_CLOSED) return NVME_SC_SUCCESS;
      if (!is_open(s)) return ZNS_SC_INVALID_TRANSITION;
      set_state(f, z, ZNS_ZS_CLOSED);
      return NVME_SC_SUCCESS;
    case ZNS_ZSA_FINISH:
      if (s == ZNS_ZS_FULL) return NVME_SC_SUCCESS;
      if (!is_active(s) && s != ZNS_ZS_EMPTY) return ZNS_SC_INVALID_TRANSITION;
      close_block(f, blk); /* the pages above the write pointer stay erased and read as deallocated */
      set_state(f, z, ZNS_ZS_FULL);
      return NVME_SC_SUCCESS;
    case ZNS_ZSA_OPEN: {
      if (s == ZNS_ZS_EXPLICIT_OPEN) return NVME_SC_SUCCESS;
      if (s != ZNS_ZS_IMPLICIT_OPEN && s != ZNS_ZS_EMPTY && s != ZNS_ZS_CLOSED) return ZNS_SC_INVALID_TRANSITION;
      if (s != ZNS_ZS_IMPLICIT_OPEN) {
        const uint16_t st = open_room(f, z, 0);
        if (st != NVME_SC_SUCCESS) return st;
        open_room(f, z, 1);
      }
      set_state(f, z, ZNS_ZS_EXPLICIT_OPEN);
      return NVME_SC_SUCCESS;
    }
    case ZNS_ZSA_RESET:
      if (s == ZNS_ZS_EMPTY) return NVME_SC_SUCCESS;
      if (!is_active(s) && s != ZNS_ZS_FULL) return ZNS_SC_INVALID_TRANSITION;
      close_block(f, blk);
      if (f->blk_state[blk] == BLK_CLOSED) { /* written (or finished while written): erase it */
        block_set_state(f, blk, BLK_VICTIM);
        f->blk_valid[blk] = c;
      }
      set_state(f, z, ZNS_ZS_EMPTY);
      return NVME_SC_SUCCESS;
    default: /* offline */
      if (s == ZNS_ZS_OFFLINE) return NVME_SC_SUCCESS;
      if (s != ZNS_ZS_READ_ONLY) return ZNS_SC_INVALID_TRANSITION;
      close_block(f, blk);
      if (f->blk_state[blk] == BLK_CLOSED) block_set_state(f, blk, BLK_VICTIM);
      if (f->blk_state[blk] != BLK_ERASING) block_set_state(f, blk, BLK_BAD); /* (an erasing block: at its end) */
      set_state(f, z, ZNS_ZS_OFFLINE);
      return NVME_SC_SUCCESS;
  }
}

static enum zns_next mgmt_send(struct ftl *f, uint32_t c, const struct nvme_sqe *q) {
  struct fw_cmd *cmd = &f->nt.cmds[c];
  const uint64_t slba = (uint64_t)q->cdw10 | (uint64_t)q->cdw11 << 32;
  const uint32_t zsa = q->cdw13 & 0xffu;
  const int all = (q->cdw13 & ZNS_SELECT_ALL) != 0;
  const int bad_action = zsa < ZNS_ZSA_CLOSE || zsa > ZNS_ZSA_OFFLINE;
  uint16_t st = NVME_SC_SUCCESS;
  if (!bad_action && !all && slba >= ns_lbas(f))
    st = NVME_SC_LBA_OUT_OF_RANGE;
  else if (bad_action || (!all && (slba & (zone_size(f) - 1))))
    st = NVME_SC_INVALID_FIELD; /* an unknown action, or not a zone's first LBA */
  if (st == NVME_SC_SUCCESS && !all) st = zone_action(f, c, (uint32_t)(slba >> f->zns.zone_bits), zsa);
  if (st == NVME_SC_SUCCESS && all) {
    uint32_t n = 0;
    for (uint32_t z = 0; z < f->zns.zones; ++z) n += (uint32_t)selected(zsa, f->zns.state[z]);
    if (zsa == ZNS_ZSA_OPEN && f->cfg.zns_max_open && f->zns.open + n > f->cfg.zns_max_open)
      st = ZNS_SC_TOO_MANY_OPEN; /* all or none */
    for (uint32_t z = 0; st == NVME_SC_SUCCESS && z < f->zns.zones; ++z)
      if (selected(zsa, f->zns.state[z])) zone_action(f, c, z, zsa);
  }
  hal_charge(f->hal, FW_OP_l2p_lookup, all ? f->zns.zones : 1); /* zone table entries visited */
  if (st != NVME_SC_SUCCESS || zsa != ZNS_ZSA_RESET) {
    nvmet_complete(f, c, st);
    return ZNS_NEXT_DONE;
  }
  cmd->status = NVME_SC_SUCCESS;
  cmd->progress = all ? 0 : (uint32_t)(slba >> f->zns.zone_bits); /* zns_submit_reset() visits these zones */
  cmd->nlb = all ? f->zns.zones : cmd->progress + 1;
  return ZNS_NEXT_RESET;
}

int zns_submit_reset(struct ftl *f, uint32_t c) {
  struct fw_cmd *cmd = &f->nt.cmds[c];
  for (; cmd->progress < cmd->nlb; ++cmd->progress) {
    const uint32_t blk = zone_block(f, cmd->progress);
    if (f->blk_state[blk] != BLK_VICTIM || f->blk_valid[blk] != c) continue;
    if (f->flash_outstanding + 1 >= f->fsq.size) return STEP_WAIT;
    block_set_state(f, blk, BLK_ERASING);
    cmd->pending++;
    f->erases_inflight++;
    flash_submit(f, FC_OP_ERASE, TAG(TAG_ERASE, blk), blk, 0, 0);
  }
  return STEP_DONE;
}

/* ---- Zone Management Receive: Report Zones ----------------------------------- */

static enum zns_next report_zones(struct ftl *f, uint32_t c, const struct nvme_sqe *q, uint32_t *bytes) {
  struct fw_cmd *cmd = &f->nt.cmds[c];
  const uint64_t slba = (uint64_t)q->cdw10 | (uint64_t)q->cdw11 << 32;
  const uint64_t len = ((uint64_t)q->cdw12 + 1) * 4;
  const uint32_t zra = q->cdw13 & 0xffu, filter = (q->cdw13 >> 8) & 0xffu;
  static const uint8_t wanted[8] = {
      0,           ZNS_ZS_EMPTY,     ZNS_ZS_IMPLICIT_OPEN, ZNS_ZS_EXPLICIT_OPEN, ZNS_ZS_CLOSED,
      ZNS_ZS_FULL, ZNS_ZS_READ_ONLY, ZNS_ZS_OFFLINE};
  uint16_t st = NVME_SC_SUCCESS;
  if (zra != ZNS_ZRA_REPORT || filter > 7 || len > ZNS_DATA_BYTES || len < sizeof(struct zns_report_header))
    st = NVME_SC_INVALID_FIELD;
  else if (slba >= ns_lbas(f))
    st = NVME_SC_LBA_OUT_OF_RANGE;
  if (st != NVME_SC_SUCCESS) {
    nvmet_complete(f, c, st);
    return ZNS_NEXT_DONE;
  }
  uint8_t *out = (uint8_t *)cmd->tokens;
  memset(out, 0, (size_t)len);
  const uint64_t room = (len - sizeof(struct zns_report_header)) / sizeof(struct zns_zone_desc);
  uint64_t matched = 0, sent = 0;
  for (uint32_t z = (uint32_t)(slba >> f->zns.zone_bits); z < f->zns.zones; ++z) {
    const uint8_t s = f->zns.state[z];
    if (filter && s != wanted[filter]) continue;
    matched++;
    if (sent == room) {
      if (q->cdw13 & ZNS_PARTIAL) break;
      continue;
    }
    struct zns_zone_desc d;
    memset(&d, 0, sizeof d);
    d.zt = ZNS_ZT_SEQ_REQUIRED;
    d.zs = (uint8_t)(s << 4);
    d.zcap = f->slots_per_block;
    d.zslba = (uint64_t)z << f->zns.zone_bits;
    d.wp = d.zslba + (s == ZNS_ZS_EMPTY ? 0 : s == ZNS_ZS_FULL ? d.zcap : zone_written(f, z));
    memcpy(out + sizeof(struct zns_report_header) + sent * sizeof d, &d, sizeof d);
    sent++;
  }
  struct zns_report_header h;
  memset(&h, 0, sizeof h);
  h.nr_zones = (q->cdw13 & ZNS_PARTIAL) ? sent : matched;
  memcpy(out, &h, sizeof h);
  hal_charge(f->hal, FW_OP_l2p_lookup, matched); /* zone table entries read */
  cmd->status = NVME_SC_SUCCESS;
  *bytes = (uint32_t)len;
  return ZNS_NEXT_SEND;
}

enum zns_next zns_decode(struct ftl *f, uint32_t c, const struct nvme_sqe *q, uint32_t *bytes) {
  struct fw_cmd *cmd = &f->nt.cmds[c];
  cmd->dw0 = 0;
  cmd->slba = 0; /* ocssd.c: no metadata pointer */
  uint16_t st = NVME_SC_INVALID_OPCODE;
  if (cmd->opcode == NVME_OP_FLUSH) {
    st = NVME_SC_SUCCESS; /* nothing cached */
  } else if (cmd->opcode == NVME_OP_READ || cmd->opcode == NVME_OP_WRITE || cmd->opcode == ZNS_OP_APPEND ||
             cmd->opcode == ZNS_OP_MGMT_SEND || cmd->opcode == ZNS_OP_MGMT_RECV) {
    if (q->nsid != 1)
      st = NVME_SC_INVALID_NS;
    else if (cmd->opcode == ZNS_OP_MGMT_SEND)
      return mgmt_send(f, c, q);
    else if (cmd->opcode == ZNS_OP_MGMT_RECV)
      return report_zones(f, c, q, bytes);
    else
      return decode_io(f, c, q);
  }
  nvmet_complete(f, c, st);
  return ZNS_NEXT_DONE;
}

/* ---- admin: Identify ----------------------------------------------------------- */

static void put32(uint8_t *p, uint32_t v) { memcpy(p, &v, 4); }
static void put64(uint8_t *p, uint64_t v) { memcpy(p, &v, 8); }

uint16_t zns_admin(struct ftl *f, struct fw_cmd *cmd, const struct nvme_sqe *q, uint32_t *bytes) {
  if (cmd->opcode != ZNS_ADMIN_IDENTIFY) return ZNS_NOT_MINE;
  const uint32_t cns = q->cdw10 & 0xffu, csi = q->cdw11 >> 24;
  uint8_t *out = (uint8_t *)cmd->tokens;
  memset(out, 0, ZNS_DATA_BYTES);
  if ((cns == ZNS_CNS_NAMESPACE || cns == ZNS_CNS_CSI_NAMESPACE) && q->nsid != 1) return NVME_SC_INVALID_NS;
  if (cns == ZNS_CNS_NAMESPACE) {
    for (uint32_t i = 0; i < 3; ++i) put64(out + ZNS_ID_NSZE + (size_t)8 * i, ns_lbas(f)); /* NSZE, NCAP, NUSE */
    put32(out + ZNS_ID_LBAF0, zns_zone_bits(f->cfg.lba_bytes) << 16);                      /* LBA format 0: LBADS */
  } else if (cns == ZNS_CNS_CSI_NAMESPACE && csi == ZNS_CSI) {
    put32(out + ZNS_ID_MAR, f->cfg.zns_max_active ? f->cfg.zns_max_active - 1 : 0xffffffffu);
    put32(out + ZNS_ID_MOR, f->cfg.zns_max_open ? f->cfg.zns_max_open - 1 : 0xffffffffu);
    put64(out + ZNS_ID_LBAFE, zone_size(f));
  } else if (cns == ZNS_CNS_CSI_CONTROLLER && csi == ZNS_CSI) {
    const uint64_t pages = (uint64_t)OCSSD_MAX_VECTOR * f->cfg.lba_bytes / 4096; /* appends of 64 LBAs at most */
    out[ZNS_ID_ZASL] = (uint8_t)(pages > 1 ? zns_zone_bits(pages + 1) - 1 : 0);
  } else {
    return NVME_SC_INVALID_FIELD;
  }
  *bytes = ZNS_DATA_BYTES;
  return NVME_SC_SUCCESS;
}

/* ---- media events ------------------------------------------------------------ */

void zns_program_failed(struct ftl *f, uint32_t blk) {
  const uint32_t z = block_zone(f, blk);
  if (z < f->zns.zones && f->zns.state[z] != ZNS_ZS_OFFLINE) set_state(f, z, ZNS_ZS_READ_ONLY);
}

void zns_erase_failed(struct ftl *f, uint32_t blk) {
  const uint32_t z = block_zone(f, blk);
  if (z < f->zns.zones) set_state(f, z, ZNS_ZS_OFFLINE);
}
