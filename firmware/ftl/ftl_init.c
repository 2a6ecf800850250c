/*
 * ftl_init.c - configuration defaults and checks, DRAM layout, ring setup.
 */
#include <stdio.h>
#include <string.h>

#include "ftl_internal.h"
#include "zns.h"
#include "ssdvp_geometry.h"

size_t ftl_size(void) { return sizeof(struct ftl); }

/* Defaults of the tunables (ftl_params.def); an FTL_SIZE default is in
 * bytes, converted with the platform's default LBA size. */
#define FTL_DEFAULT_LBA_BYTES SSDVP_GEO_LBA_BYTES
#define FTL_DEF_FTL_INT(d) (d)
#define FTL_DEF_FTL_SIZE(d) ((d) / FTL_DEFAULT_LBA_BYTES)
#define FTL_DEF_FTL_TIME(d) (d)
#define FTL_DEF_FTL_CHOICE(d) (d)

void ftl_config_default(struct ftl_config *c) {
  memset(c, 0, sizeof *c);
  /* geometry: the flash controller's flash.* defaults (ssdvp_geometry.h) */
  c->channels = SSDVP_GEO_CHANNELS;
  c->dies_per_channel = SSDVP_GEO_DIES_PER_CHANNEL;
  c->blocks_per_die = SSDVP_GEO_PLANES_PER_DIE * SSDVP_GEO_BLOCKS_PER_PLANE;
  c->pages_per_block = SSDVP_GEO_PAGES_PER_BLOCK;
  c->slots_per_page = SSDVP_GEO_PAGE_BYTES / SSDVP_GEO_LBA_BYTES;
  c->planes_per_die = SSDVP_GEO_PLANES_PER_DIE;
  c->cell_bits = 1;     /* flash.cell.bits */
  c->mp_same_block = 0; /* flash.multiplane_same_block */
  c->dram_base = SSDVP_DRAM_BASE;
  c->dram_size = 512u << 20;
  c->lba_bytes = FTL_DEFAULT_LBA_BYTES;
#define FTL_PARAM(key, field, kind, def, min, max, unit, flags, desc) c->field = FTL_DEF_##kind(def);
#include "ftl_params.def"
}

static uint32_t pow2_at_least(uint32_t n) {
  uint32_t p = 1;
  while (p < n) p <<= 1;
  return p;
}

/* The DRAM layout, computed once for sizing and once for carving. */
struct layout {
  uint64_t off;
};
static uint64_t take(struct layout *l, uint64_t bytes) {
  uint64_t at = (l->off + 63) & ~(uint64_t)63;
  l->off = at + bytes;
  return at;
}

static uint32_t nbufs_of(const struct ftl_config *c) {
  return c->write_buffer_pages + c->read_buffer_pages + c->gc_buffer_pages;
}
static uint32_t staging_lbas(const struct ftl_config *c) {
  /* a DSM range list of up to 256 ranges needs 4 KiB */
  uint32_t n = c->max_transfer_lbas;
  return n < 1024 ? 1024 : n;
}
static uint32_t flash_ring_entries(const struct ftl_config *c) {
  return pow2_at_least(nbufs_of(c) + c->gc_max_active + 1 + (ckpt_enabled(c) || tlog_own_cfg(c) ? CKPT_INFLIGHT : 0) +
                       cmt_flash_slots(c));
}

struct dram_map {
  uint64_t l2p, valid, fsq, fcq, ncmd, nxfer, ndone, bufs, staging;
  uint64_t valid_cnt, erase, state, wp, inbuf, closed_ns, next, prev, cpos, closed, bucket;
  uint64_t dfh, dft, dfc, drc, dca, fr, bufmeta, cmds, jobs, place, flags, reads, bbt, ckpt, tlog, cmt, cb, end;
  uint64_t zones; /* zns.c's zone states */
};

static void plan(const struct ftl_config *c, struct dram_map *m) {
  struct layout l = {0};
  const uint64_t blocks = (uint64_t)c->channels * c->dies_per_channel * c->blocks_per_die;
  const uint64_t slots = blocks * c->pages_per_block * c->slots_per_page;
  const uint32_t fr = flash_ring_entries(c);
  const uint32_t cr = pow2_at_least(c->cmd_slots);
  const uint32_t xr = pow2_at_least(2 * c->cmd_slots + 1);
  m->l2p = take(&l, c->mapping == FTL_MAP_CACHED ? 0 : c->logical_lbas * 4); /* cached: cmt.c instead */
  m->valid = take(&l, (slots + 31) / 32 * 4);
  m->fsq = take(&l, (uint64_t)fr * sizeof(struct fc_sqe));
  m->fcq = take(&l, (uint64_t)fr * sizeof(struct fc_cqe));
  m->ncmd = take(&l, (uint64_t)cr * sizeof(struct nvme_cmd_entry));
  m->nxfer = take(&l, (uint64_t)xr * sizeof(struct nvme_xfer));
  m->ndone = take(&l, (uint64_t)xr * sizeof(struct nvme_done));
  m->bufs = take(&l, (uint64_t)nbufs_of(c) * ((FC_PAGE_BUF_BYTES(c->slots_per_page) + 63) & ~63u));
  m->staging = take(&l, (uint64_t)c->cmd_slots * staging_lbas(c) * 4);
  const uint64_t dies = (uint64_t)c->channels * c->dies_per_channel;
  const uint64_t spb = (uint64_t)c->pages_per_block * c->slots_per_page;
  m->valid_cnt = take(&l, blocks * 4);
  m->erase = take(&l, blocks * 4);
  m->state = take(&l, blocks);
  m->wp = take(&l, blocks * 2);
  m->inbuf = take(&l, blocks * 2);
  m->closed_ns = take(&l, blocks * 8);
  m->next = take(&l, blocks * 4);
  m->prev = take(&l, blocks * 4);
  m->cpos = take(&l, blocks * 4);
  m->closed = take(&l, blocks * 4);
  m->bucket = take(&l, (spb + 1) * 4);
  m->dfh = take(&l, dies * 4);
  m->dft = take(&l, dies * 4);
  m->dfc = take(&l, dies * 4);
  m->drc = take(&l, dies * 4);
  m->dca = take(&l, dies * 4);
  m->fr = take(&l, dies * mp_planes_of(c) * 4 * FTL_MAX_FRONTIERS + mp_hold_bytes(c));
  m->bufmeta = take(&l, (uint64_t)nbufs_of(c) * sizeof(struct pagebuf));
  m->cmds = take(&l, (uint64_t)c->cmd_slots * sizeof(struct fw_cmd));
  m->jobs = take(&l, (uint64_t)c->gc_max_active * sizeof(struct gc_job));
  m->place = take(&l, place_dram_bytes(c));
  m->flags = take(&l, blocks);
  m->reads = take(&l, blocks * 4);
  m->bbt = take(&l, (blocks + 31) / 32 * 4);
  m->zones = c->command_set == FTL_CMDSET_ZNS ? take(&l, blocks) : l.off; /* nothing otherwise */
  m->ckpt = ckpt_enabled(c) ? take(&l, ckpt_dram_bytes(c)) : l.off;
  m->tlog = tlog_own_cfg(c) ? take(&l, tlog_dram_bytes(c)) : l.off; /* the trim log's own areas (trimlog.c) */
  m->cmt = l.off; /* cached mapping (cmt.c): nothing with the full table */
  l.off += cmt_dram_bytes(c);
  m->cb = copyback_dram_bytes(c) ? take(&l, copyback_dram_bytes(c)) : l.off; /* ftl.gc.copyback (copyback.c) */
  m->end = l.off;
}

uint64_t ftl_dram_bytes(const struct ftl_config *c) {
  struct dram_map m;
  plan(c, &m);
  return m.end;
}

uint32_t ftl_frontiers(const struct ftl_config *c) { return place_frontiers(c); }

uint64_t ftl_die_free_offset(const struct ftl_config *c) {
  struct dram_map m;
  plan(c, &m);
  return m.dfc;
}

#define CHECK(cond, ...)                   \
  do {                                     \
    if (!(cond)) {                         \
      snprintf(msg, msg_len, __VA_ARGS__); \
      return -1;                           \
    }                                      \
  } while (0)

static int in_range(uint64_t v, uint64_t lo, uint64_t hi) { return v >= lo && v <= hi; }

int ftl_config_check(const struct ftl_config *c, char *msg, size_t msg_len) {
  CHECK(c->channels >= 1 && c->dies_per_channel >= 1, "ftl: channels and dies_per_channel must be >= 1");
  CHECK(c->blocks_per_die >= 2, "ftl: blocks_per_die must be >= 2");
  CHECK(c->pages_per_block >= 1 && c->pages_per_block <= 65535, "ftl: pages_per_block must be in [1, 65535]");
  CHECK(c->slots_per_page >= 1 && c->slots_per_page <= 32, "ftl: slots_per_page must be in [1, 32]");
  CHECK(c->planes_per_die <= FTL_MAX_PLANES && (c->planes_per_die <= 1 || c->blocks_per_die % c->planes_per_die == 0),
        "ftl: planes_per_die must be at most %u and divide blocks_per_die", FTL_MAX_PLANES);
  const uint64_t dies = (uint64_t)c->channels * c->dies_per_channel;
  const uint64_t blocks = dies * c->blocks_per_die;
  const uint64_t spb = (uint64_t)c->pages_per_block * c->slots_per_page;
  CHECK(!ckpt_enabled(c) || (c->lba_bytes >= 64 && c->lba_bytes % 4 == 0),
        "ftl: checkpoints need lba_bytes a multiple of 4 and at least 64 (%" PRIu32 ")", c->lba_bytes);
  CHECK(!ckpt_enabled(c) || c->logical_lbas * 4 + blocks * 5 + 64 < (1ull << 31),
        "ftl: a checkpoint of %llu LBAs and %llu blocks exceeds 2 GiB (power.checkpoint.*)",
        (unsigned long long)c->logical_lbas, (unsigned long long)blocks);
  CHECK(blocks < (1u << 24), "ftl: %llu blocks exceed the firmware's 2^24 limit", (unsigned long long)blocks);
  CHECK(blocks * spb < 0xffffffffull, "ftl: %llu physical slots exceed 32-bit addressing",
        (unsigned long long)(blocks * spb));
  /* every tunable's range (ftl_params.def) */
#define FTL_PARAM(key, field, kind, def, min, max, unit, flags, desc)                            \
  CHECK(in_range(c->field, min, max), "ftl: %s (%s) is %llu, outside [%llu, %llu]", key, #field, \
        (unsigned long long)c->field, (unsigned long long)(min), (unsigned long long)(max));
#include "ftl_params.def"
  CHECK(c->write_buffer_pages >= 2 * place_frontiers(c),
        "ftl: write_buffer_pages (%" PRIu32 ") must be at least 2 per write frontier (%" PRIu32 " frontiers)",
        c->write_buffer_pages, place_frontiers(c));
  CHECK(c->gc_trigger == FTL_GC_TRIGGER_THRESHOLD || c->gc_high_blocks > c->gc_threshold_blocks,
        "ftl: ftl.gc.high_blocks (%" PRIu32 ") must be above ftl.gc.threshold_blocks (%" PRIu32
        ") with ftl.gc.trigger watermarks, idle or autossd",
        c->gc_high_blocks, c->gc_threshold_blocks);
  CHECK(c->gc_trigger != FTL_GC_TRIGGER_AUTOSSD || c->gc_auto_kp || c->gc_auto_ki,
        "ftl: ftl.gc.trigger autossd needs ftl.gc.autossd.kp or ftl.gc.autossd.ki above 0 (GC would never run)");
  CHECK(c->gc_hold == FTL_GC_HOLD_PAGE || (!c->gc_durable && mp_planes_of(c) <= 1 && c->command_set == FTL_CMDSET_NVM),
        "ftl: ftl.gc.hold die or channel: not with ftl.gc.durable (a victim's erase would wait for host programs the "
        "hold keeps back; power.plp false sets it), multi-plane operations (ftl.multiplane) or a host-managed command "
        "set (the drive's own GC only)");
  CHECK(c->gc_reserve_blocks < c->gc_threshold_blocks,
        "ftl: gc_reserve_blocks (%" PRIu32 ") must be below gc_threshold_blocks (%" PRIu32 ")", c->gc_reserve_blocks,
        c->gc_threshold_blocks);
  /* Blocks that never hold logical data in steady state: the free pool kept
   * by the threshold, one open block per die for each frontier, and the
   * victims in flight. The spare must exceed them or GC cannot make room. */
  const uint64_t pool = c->gc_trigger == FTL_GC_TRIGGER_THRESHOLD ? c->gc_threshold_blocks : c->gc_high_blocks;
  const uint64_t overhead = pool + place_frontiers(c) * dies * mp_planes_of(c) + c->gc_max_active + 1 +
                            2ull * ckpt_area_blocks(c) + tlog_own_blocks(c) +
                            cmt_region_blocks(c); /* translation blocks (ftl.mapping: cached) */
  const uint64_t data_blocks = (c->logical_lbas + spb - 1) / spb;
  const uint64_t zone = 1ull << zns_zone_bits((uint32_t)spb); /* zns: zone size, LBAs */
  CHECK(c->command_set != FTL_CMDSET_ZNS ||
            (c->logical_lbas % zone == 0 && c->logical_lbas / zone <= blocks && c->logical_lbas <= 0xffffffffull),
        "ftl: nvme.command_set zns: nvme.namespace_size (%llu LBAs) must be a whole number of zones of %llu LBAs (a "
        "block's %llu, rounded up to a power of two), at most %llu zones and 2^32 LBAs",
        (unsigned long long)c->logical_lbas, (unsigned long long)zone, (unsigned long long)spb,
        (unsigned long long)blocks);
  CHECK(c->command_set == FTL_CMDSET_ZNS || blocks > data_blocks + overhead, /* zns: no FTL, no spare needed */
        "ftl: over-provisioning too small: %llu blocks for %llu blocks of logical data plus %llu for the GC "
        "free pool GC keeps (ftl.gc.threshold_blocks, or ftl.gc.high_blocks with another ftl.gc.trigger), open "
        "frontiers, victims and reserved areas (lower that, "
        "power.trim_log.blocks or the logical capacity)",
        (unsigned long long)blocks, (unsigned long long)data_blocks, (unsigned long long)overhead);
  CHECK(!tlog_own_cfg(c) || (c->mapping == FTL_MAP_FULL && c->command_set == FTL_CMDSET_NVM),
        "ftl: power.trim_log.mode on without checkpoints needs ftl.mapping full and nvme.command_set nvm");
  CHECK(!tlog_own_cfg(c) || (uint64_t)c->trim_log_blocks * c->pages_per_block >= tlog_bm_pages(c) + 2ull,
        "ftl: power.trim_log.blocks (%" PRIu32 " blocks of %" PRIu32 " pages) must hold the bitmap of %" PRIu32
        " pages and two log pages",
        c->trim_log_blocks, c->pages_per_block, tlog_bm_pages(c));
  if (cmt_config_check(c, msg, msg_len)) return -1;
  if (copyback_config_check(c, msg, msg_len)) return -1;
  const uint64_t need = ftl_dram_bytes(c);
  CHECK(need <= c->dram_size, "ftl: needs %llu bytes of DRAM, %" PRIu32 " configured (raise dram.size)",
        (unsigned long long)need, c->dram_size);
  CHECK((uint64_t)c->dram_base + c->dram_size <= 0x100000000ull, "ftl: DRAM window beyond 32-bit addresses");
  return 0;
}

static void *win(struct ftl *f, uint64_t off, uint64_t bytes) {
  return hal_dram(f->hal, (uint32_t)(f->cfg.dram_base + off), (uint32_t)bytes);
}

static void ring_init(struct ftl *f, struct ring *r, uint64_t off, uint32_t entries, uint32_t entry_bytes) {
  r->base = (uint32_t)(f->cfg.dram_base + off);
  r->size = entries;
  r->head = r->tail = 0;
  r->mem = win(f, off, (uint64_t)entries * entry_bytes);
  r->phase = 0;
}

static void frontier_init(struct ftl *f, uint32_t i, uint32_t *open, int pool, uint8_t wear) {
  struct frontier *fr = &f->fr[i];
  fr->open_block = open;
  fr->held = NULL;
  fr->held_ns = NULL;
  for (uint32_t d = 0; d < f->dies * mp_planes(f); ++d) open[d] = FTL_NONE;
  fr->next_die = 0;
  fr->buf = FTL_NONE;
  fr->pool = (uint8_t)pool;
  fr->index = (uint8_t)i;
  fr->wear = wear;
  fr->open_count = 0;
  fr->programs = 0;
}

/* Windows onto every table plan() laid out; -1 if DRAM is not accessible. */
static int carve_tables(struct ftl *f, const struct dram_map *m) {
  const struct ftl_config *cfg = &f->cfg;
  const uint32_t B = f->total_blocks;
  f->l2p = cfg->mapping == FTL_MAP_CACHED ? NULL : win(f, m->l2p, cfg->logical_lbas * 4);
  f->valid_bits = win(f, m->valid, m->fsq - m->valid);
  f->blk_valid = win(f, m->valid_cnt, (uint64_t)B * 4);
  f->blk_erase = win(f, m->erase, (uint64_t)B * 4);
  f->blk_state = win(f, m->state, B);
  f->blk_wp = win(f, m->wp, (uint64_t)B * 2);
  f->blk_inbuf = win(f, m->inbuf, (uint64_t)B * 2);
  f->blk_closed_ns = win(f, m->closed_ns, (uint64_t)B * 8);
  f->blk_next = win(f, m->next, (uint64_t)B * 4);
  f->blk_prev = win(f, m->prev, (uint64_t)B * 4);
  f->closed_pos = win(f, m->cpos, (uint64_t)B * 4);
  f->closed = win(f, m->closed, (uint64_t)B * 4);
  f->bucket_head = win(f, m->bucket, (uint64_t)(f->slots_per_block + 1) * 4);
  f->die_free_head = win(f, m->dfh, (uint64_t)f->dies * 4);
  f->die_free_tail = win(f, m->dft, (uint64_t)f->dies * 4);
  f->die_free_count = win(f, m->dfc, (uint64_t)f->dies * 4);
  f->die_reclaim = win(f, m->drc, (uint64_t)f->dies * 4);
  f->die_cand = win(f, m->dca, (uint64_t)f->dies * 4);
  f->bufs = win(f, m->bufmeta, (uint64_t)f->nbufs * sizeof(struct pagebuf));
  f->nt.cmds = win(f, m->cmds, (uint64_t)cfg->cmd_slots * sizeof(struct fw_cmd));
  f->jobs = win(f, m->jobs, (uint64_t)cfg->gc_max_active * sizeof(struct gc_job));
  f->blk_flags = win(f, m->flags, B);
  f->blk_reads = win(f, m->reads, (uint64_t)B * 4);
  if ((!f->l2p && cfg->mapping != FTL_MAP_CACHED) || !f->valid_bits || !f->blk_valid || !f->bufs || !f->nt.cmds ||
      !f->jobs || !f->blk_flags || !f->blk_reads) {
    hal_logf(f->hal, HAL_LOG_ERROR, "ftl: DRAM window at 0x%" PRIx32 " (%" PRIu32 " bytes) is not accessible",
             cfg->dram_base, cfg->dram_size);
    return -1;
  }
  /* L2P: all unmapped; validity: none. (Fresh DRAM is zero; L2P needs 0xff.) */
  if (f->l2p) memset(f->l2p, 0xff, cfg->logical_lbas * 4);
  memset(f->valid_bits, 0, m->fsq - m->valid);
  return 0;
}

/* Factory bad blocks: the flash controller writes its bad-block markers as
 * a bitmap into DRAM (FLASH BBT_ADDR); those blocks never leave BLK_BAD. */
static int skip_factory_bad(struct ftl *f, const struct dram_map *m) {
  const uint32_t words = (f->total_blocks + 31) / 32;
  uint32_t *bbt = win(f, m->bbt, (uint64_t)words * 4);
  if (!bbt) return -1;
  memset(bbt, 0, (size_t)words * 4);
  hal_write32(f->hal, SSDVP_FLASH_BASE + FLASH_BBT_ADDR, (uint32_t)(f->cfg.dram_base + m->bbt));
  for (uint32_t w = 0; w < words; ++w)
    for (uint32_t bits = bbt[w]; bits; bits &= bits - 1) {
      const uint32_t b = w * 32 + (uint32_t)__builtin_ctz(bits);
      if (b < f->total_blocks) block_set_state(f, b, BLK_BAD);
    }
  for (uint32_t d = 0; d < f->dies; ++d)
    if (!f->die_free_count[d]) {
      hal_logf(f->hal, HAL_LOG_ERROR, "ftl: every block of die %" PRIu32 " is marked bad", d);
      return -1;
    }
  f->stats.free_blocks_min = f->free_total;
  return 0;
}

/* Frontiers: host classes hot to cold (hot takes young blocks, cold old
 * ones, warm any), then relocated data's own (old blocks). */
static int init_frontiers(struct ftl *f, const struct dram_map *m) {
  if (place_init(f, m->place)) {
    hal_logf(f->hal, HAL_LOG_ERROR, "ftl: placement tables not accessible");
    return -1;
  }
  const uint32_t lanes = f->dies * mp_planes(f);
  const uint64_t open_bytes = (uint64_t)lanes * 4 * FTL_MAX_FRONTIERS;
  uint32_t *open = win(f, m->fr, open_bytes + mp_hold_bytes(&f->cfg));
  if (!open) return -1;
  /* ftl.multiplane_hold: held buffers and their times per lane */
  uint32_t *held = mp_hold_bytes(&f->cfg) ? open + (uint64_t)lanes * FTL_MAX_FRONTIERS : NULL;
  uint64_t *held_ns = held ? (uint64_t *)(void *)(held + (uint64_t)lanes * FTL_MAX_FRONTIERS) : NULL;
  f->mp_held = 0;
  for (uint32_t i = 0; i < place_frontiers(&f->cfg); ++i) {
    const int gc = i == f->classes;
    const uint8_t wear = gc || (i == f->classes - 1 && i > 0) ? WEAR_HIGHEST : i == 0 ? WEAR_LOWEST : WEAR_RANDOM;
    frontier_init(f, i, open + (uint64_t)i * lanes, gc ? POOL_GC : POOL_WRITE, wear);
    if (held) {
      f->fr[i].held = held + (uint64_t)i * lanes;
      f->fr[i].held_ns = held_ns + (uint64_t)i * lanes;
      for (uint32_t d = 0; d < lanes; ++d) f->fr[i].held[d] = FTL_NONE;
    }
    f->fr[i].gc_shared = (uint8_t)(!gc && (f->gc_fr == i || f->gc_fr == FTL_NONE));
    f->fr[i].gc_writes = (uint8_t)(gc || f->fr[i].gc_shared);
  }
  f->wear_countdown = f->cfg.wear_check_erases;
  return 0;
}

/* Page buffers: the write, read and GC pools, in that order. */
static void init_buffers(struct ftl *f, const struct dram_map *m) {
  const struct ftl_config *cfg = &f->cfg;
  const uint32_t stride = (FC_PAGE_BUF_BYTES(cfg->slots_per_page) + 63) & ~63u;
  const uint32_t counts[POOL_COUNT] = {cfg->write_buffer_pages, cfg->read_buffer_pages, cfg->gc_buffer_pages};
  uint32_t idx = 0;
  for (int p = 0; p < POOL_COUNT; ++p) {
    f->pool_free[p] = FTL_NONE;
    f->pool_avail[p] = 0;
    for (uint32_t i = 0; i < counts[p]; ++i, ++idx) {
      struct pagebuf *pb = &f->bufs[idx];
      memset(pb, 0, sizeof *pb);
      pb->pool = (uint8_t)p;
      pb->dram = (uint32_t)(cfg->dram_base + m->bufs + (uint64_t)idx * stride);
      pb->token = win(f, m->bufs + (uint64_t)idx * stride, stride);
      pb->lpn = pb->token + cfg->slots_per_page;
      buf_add(f, idx);
    }
  }
  f->gc_place_head = f->gc_place_tail = FTL_NONE;
}

/* Command slots with their staging areas, the wait list, idle GC jobs. */
static void init_commands(struct ftl *f, const struct dram_map *m) {
  const struct ftl_config *cfg = &f->cfg;
  const uint32_t sl = staging_lbas(cfg);
  f->nt.cmd_free = FTL_NONE;
  for (uint32_t c = cfg->cmd_slots; c-- > 0;) {
    struct fw_cmd *cmd = &f->nt.cmds[c];
    memset(cmd, 0, sizeof *cmd);
    cmd->staging = (uint32_t)(cfg->dram_base + m->staging + (uint64_t)c * sl * 4);
    cmd->tokens = win(f, m->staging + (uint64_t)c * sl * 4, (uint64_t)sl * 4);
    cmd->next = f->nt.cmd_free;
    f->nt.cmd_free = c;
  }
  f->nt.wait_head = f->nt.wait_tail = FTL_NONE;
  f->nt.wait_reads = 0;
  f->host_placing = f->host_flushing = f->wait_yielded = f->wait_yielded_prev = FTL_NONE;
  for (uint32_t j = 0; j < cfg->gc_max_active; ++j) {
    f->jobs[j].victim = FTL_NONE;
    f->jobs[j].page = 0;
    f->jobs[j].reads = 0;
    f->jobs[j].erase_after = 0;
    f->jobs[j].trim_after = 0;
  }
}

/* The five rings in DRAM, programmed into the devices; then interrupts and
 * NVMe fetching on. */
static int init_rings(struct ftl *f, const struct dram_map *m) {
  const struct ftl_config *cfg = &f->cfg;
  const uint32_t fr = flash_ring_entries(cfg);
  ring_init(f, &f->fsq, m->fsq, fr, sizeof(struct fc_sqe));
  ring_init(f, &f->fcq, m->fcq, fr, sizeof(struct fc_cqe));
  ring_init(f, &f->nt.ncmd, m->ncmd, pow2_at_least(cfg->cmd_slots), sizeof(struct nvme_cmd_entry));
  ring_init(f, &f->nt.nxfer, m->nxfer, pow2_at_least(2 * cfg->cmd_slots + 1), sizeof(struct nvme_xfer));
  ring_init(f, &f->nt.ndone, m->ndone, pow2_at_least(2 * cfg->cmd_slots + 1), sizeof(struct nvme_done));
  if (!f->fsq.mem || !f->fcq.mem || !f->nt.ncmd.mem || !f->nt.nxfer.mem || !f->nt.ndone.mem) {
    hal_logf(f->hal, HAL_LOG_ERROR, "ftl: ring memory not accessible");
    return -1;
  }
  struct hal *h = f->hal;
  if (cfg->flash_cq_phase) { /* tags of 0 everywhere: nothing new until the controller's first pass (tag 1) */
    memset(f->fcq.mem, 0, (size_t)f->fcq.size * sizeof(struct fc_cqe));
    f->fcq.phase = 1;
  }
  const uint32_t ctrl = (cfg->flash_cq_phase ? FLASH_CTRL_CQ_PHASE : 0u) |
                        (cfg->gc_preempt != FTL_GC_PREEMPT_OFF ? FLASH_CTRL_PREEMPT_GC : 0u) |
                        SSDVP_FIELD_PUT(FLASH_CTRL_HOLD_GC, cfg->gc_hold); /* (ftl_gc_hold = FLASH_HOLD_GC_*) */
  if (ctrl) hal_write32(h, SSDVP_FLASH_BASE + FLASH_CTRL, ctrl);
  hal_write32(h, SSDVP_FLASH_BASE + FLASH_SQ_BASE, f->fsq.base);
  hal_write32(h, SSDVP_FLASH_BASE + FLASH_SQ_SIZE, f->fsq.size);
  hal_write32(h, SSDVP_FLASH_BASE + FLASH_CQ_BASE, f->fcq.base);
  hal_write32(h, SSDVP_FLASH_BASE + FLASH_CQ_SIZE, f->fcq.size);
  hal_write32(h, SSDVP_NVME_BASE + NVME_CMD_BASE, f->nt.ncmd.base);
  hal_write32(h, SSDVP_NVME_BASE + NVME_CMD_SIZE, f->nt.ncmd.size);
  hal_write32(h, SSDVP_NVME_BASE + NVME_XFER_BASE, f->nt.nxfer.base);
  hal_write32(h, SSDVP_NVME_BASE + NVME_XFER_SIZE, f->nt.nxfer.size);
  hal_write32(h, SSDVP_NVME_BASE + NVME_DONE_BASE, f->nt.ndone.base);
  hal_write32(h, SSDVP_NVME_BASE + NVME_DONE_SIZE, f->nt.ndone.size);
  hal_write32(h, SSDVP_NVME_BASE + NVME_NSZE_LO, (uint32_t)cfg->logical_lbas);
  hal_write32(h, SSDVP_NVME_BASE + NVME_NSZE_HI, (uint32_t)(cfg->logical_lbas >> 32));
  hal_write32(h, SSDVP_INTC_BASE + INTC_ENABLE,
              (1u << IRQ_NVME_CMD) | (1u << IRQ_NVME_DONE) | (1u << IRQ_FLASH) | f->sched.irq_extra);
  hal_write32(h, SSDVP_NVME_BASE + NVME_ENABLE, 1);
  return 0;
}

/* All tables, rings, buffers and staging areas live in DRAM (plan()); the
 * struct ftl itself holds only pointers into it and counters. Recovery sets
 * up the translation region after its scan (region 0). */
static int init_device(struct ftl *f, struct hal *hal, const struct ftl_config *cfg, int region) {
  char msg[256];
  memset(f, 0, sizeof *f);
  f->hal = hal;
  if (ftl_config_check(cfg, msg, sizeof msg)) {
    hal_logf(hal, HAL_LOG_ERROR, "%s", msg);
    return -1;
  }
  f->cfg = *cfg;
  f->dies = cfg->channels * cfg->dies_per_channel;
  f->total_blocks = f->dies * cfg->blocks_per_die;
  f->slots_per_block = cfg->pages_per_block * cfg->slots_per_page;
  f->rng = cfg->seed ? cfg->seed : 0x9e3779b97f4a7c15ull;
  f->nbufs = nbufs_of(cfg);
  f->cs = cfg->command_set == FTL_CMDSET_ZNS            ? &cmdset_zns
          : cfg->command_set == FTL_CMDSET_OPEN_CHANNEL ? &cmdset_open_channel
                                                        : &cmdset_nvm;

  struct dram_map m;
  plan(cfg, &m);
  f->dram_end = m.end;
  if (carve_tables(f, &m)) return -1;
  block_init(f);
  if (skip_factory_bad(f, &m)) return -1;
  if (cfg->command_set == FTL_CMDSET_ZNS && zns_init(f, win(f, m.zones, f->total_blocks))) return -1;
  if (ckpt_init(f, m.ckpt)) return -1;
  if (tlog_own_init(f, m.tlog)) return -1;
  if (init_frontiers(f, &m)) return -1;
  init_buffers(f, &m);
  init_commands(f, &m);
  gcsched_init(f);
  if (init_rings(f, &m)) return -1;
  if (cmt_init(f, m.cmt, region)) return -1;
  if (copyback_init(f, m.cb)) return -1;
  hal_logf(hal, HAL_LOG_INFO,
           "ftl: %" PRIu32 " dies x %" PRIu32 " blocks x %" PRIu32 " pages x %" PRIu32 " slots, %llu LBAs, %" PRIu32
           " free blocks",
           f->dies, cfg->blocks_per_die, cfg->pages_per_block, cfg->slots_per_page,
           (unsigned long long)cfg->logical_lbas, f->free_total);
  return 0;
}

int ftl_init(struct ftl *f, struct hal *hal, const struct ftl_config *cfg) { return init_device(f, hal, cfg, 1); }

int ftl_recover(struct ftl *f, struct hal *hal, const struct ftl_config *cfg) {
  if (init_device(f, hal, cfg, 0)) return -1;
  /* Not ready (the model's CSTS.RDY) until the tables are rebuilt: the
   * host's commands wait in its submission queues, unfetched. */
  hal_write32(hal, SSDVP_NVME_BASE + NVME_ENABLE, 0);
  if (recover_scan(f)) return -1;
  hal_write32(hal, SSDVP_NVME_BASE + NVME_ENABLE, 1);
  return 0;
}
