/*
 * ftl.h - the ssdvp controller firmware: a page-level FTL with striped write
 * frontiers, garbage collection and deallocation, driven by NVMe commands.
 *
 * Every function takes the device handle first; the firmware keeps no global
 * or static mutable state, so several SSDs can run in one process.
 *
 * Life of a device:
 *   ftl_config_default(&cfg); ...adjust...; ftl_config_check(&cfg, msg, n);
 *   ftl_init(&f, hal, &cfg);      carves tables from DRAM, programs the rings
 *   ftl_func_write(...)           optional functional preconditioning
 *   ftl_main(&f)                  the event loop (returns when f.stop is set)
 */
#ifndef SSDVP_FTL_H
#define SSDVP_FTL_H

#include <stddef.h>
#include <stdint.h>

#include "hal.h"

#ifdef __cplusplus
extern "C" {
#endif

enum ftl_gc_policy {
  FTL_GC_GREEDY = 0,       /* fewest valid LBAs */
  FTL_GC_FIFO = 1,         /* oldest closed block (LRU) */
  FTL_GC_RANDOM = 2,       /* uniformly random closed block */
  FTL_GC_COST_BENEFIT = 3, /* max age * (1 - u) / 2u (Rosenblum & Ousterhout) */
  FTL_GC_DCHOICES = 4      /* fewest valid among d random closed blocks */
};

/* Where host writes go (docs/firmware.md, "Placement"). A class is a write
 * frontier; classes are ordered hot (0) to cold (classes - 1). */
enum ftl_placement {
  FTL_PLACE_SINGLE = 0, /* one frontier for host and GC data (no separation) */
  FTL_PLACE_DOUBLE = 1, /* one host frontier, one GC frontier */
  FTL_PLACE_HOTIS = 2,  /* two host classes by constant thresholds on the monitor's figures */
  FTL_PLACE_ASA = 3,    /* K-Means on update frequency only, 3 classes (ASA-FTL) */
  FTL_PLACE_HAML = 4,   /* 2-D K-Means on update frequency and interval, hot_classes classes */
  FTL_PLACE_STREAM = 5  /* the host's NVMe stream ID picks the class (oracle, multi-stream) */
};

/* ftl.gc.trigger: when GC collects (gcsched.c, docs/firmware.md "GC scheduling"). */
enum ftl_gc_trigger {
  FTL_GC_TRIGGER_THRESHOLD = 0,  /* while free blocks are below gc_threshold_blocks */
  FTL_GC_TRIGGER_WATERMARKS = 1, /* episodes: from below gc_threshold_blocks (low) up to gc_high_blocks (high) */
  FTL_GC_TRIGGER_IDLE = 2,       /* below the threshold, and up to gc_high_blocks once the host is idle */
  FTL_GC_TRIGGER_AUTOSSD = 3     /* AutoSSD: a feedback-controlled share of GC's flash requests */
};

/* ftl.gc.preempt: which host operations go ahead of GC's queued ones on a die. */
enum ftl_gc_preempt { FTL_GC_PREEMPT_OFF = 0, FTL_GC_PREEMPT_READS = 1, FTL_GC_PREEMPT_ALL = 2 };
/* ftl.gc.hold: what a GC job keeps to itself (FLASH CTRL.HOLD_GC) */
enum ftl_gc_hold { FTL_GC_HOLD_PAGE = 0, FTL_GC_HOLD_DIE = 1, FTL_GC_HOLD_CHANNEL = 2 };
/* ftl.flush.scope: which programs a flush (or a FUA write) waits for: those
 * issued before it (and the trim log's records made before it), or every
 * program, until none is in flight (drain). */
enum ftl_flush_scope { FTL_FLUSH_ISSUED = 0, FTL_FLUSH_DRAIN = 1 };

/* Who clusters the slices (haml, asa): kmeans2d on the CPU, or the K-Means
 * accelerator through firmware/drivers/accel_drv.h (same results, bit-exact). */
enum ftl_cluster_engine { FTL_CLUSTER_SOFTWARE = 0, FTL_CLUSTER_ACCEL = 1 };

/* What haml clusters on (ftl.hot.features): UpdateF and UpdateT (HAML-SSD),
 * or UpdateF alone (HAML-SSD's Fig. 3 arm "without UpdateT"). */
enum ftl_hot_features { FTL_HOT_FREQ_INTERVAL = 0, FTL_HOT_FREQ = 1 };

/* GC victims by their invalid share at choice: bins of 20 % (HAML-SSD's Fig. 3),
 * [0,20) [20,40) [40,60) [60,80) [80,100]. */
#define FTL_GC_INVALID_BINS 5u

/* Where GC-relocated LBAs go (placements other than single and double). */
/* ftl.write.at_floor: what a host write does when its frontier needs a block
 * on its next die and the free blocks are at the host floor (issue 16). */
enum ftl_floor_policy {
  FTL_FLOOR_WAIT = 0, /* wait for that block, and every later write waits behind it */
  FTL_FLOOR_PASS = 1, /* wait for that block; later writes to other frontiers and LBAs pass it */
  FTL_FLOOR_ROOM = 2  /* as pass, and the frontier writes on the dies where it has an open block meanwhile
                         (at most one page in flight per open block) */
};

enum ftl_gc_placement {
  FTL_GC_PLACE_SEPARATE = 0, /* a GC frontier of its own */
  FTL_GC_PLACE_CLUSTER = 1   /* the current class of the LBA's slice (stream: the GC frontier) */
};

/* Which free block a frontier opens. */
enum ftl_block_choice {
  FTL_BLOCK_FIFO = 0,       /* the die's oldest free block */
  FTL_BLOCK_ERASE_COUNT = 1 /* hot class: lowest erase count; cold class and GC: highest; warm: random */
};

#define FTL_MAX_CLASSES 8u
#define FTL_MAX_PLANES 16u /* planes_per_die the firmware handles (the flash model's limit) */

/* Where the L2P lives (docs/firmware.md, "Cached mapping"). */
/* power.trim_log.mode: whether deallocations survive a power cut (trimlog.c). */
enum ftl_trim_log {
  FTL_TLOG_AUTO = 0, /* in the checkpoints' areas when checkpoints are on; none without */
  FTL_TLOG_ON = 1,   /* as auto with checkpoints; without them in two areas of its own */
  FTL_TLOG_OFF = 2   /* none: deallocations are not persistent (with checkpoints: those since the newest one) */
};

enum ftl_mapping {
  FTL_MAP_FULL = 0,  /* the whole table in DRAM */
  FTL_MAP_CACHED = 1 /* DFTL: translation pages in flash, a cache of entries in DRAM (cmt.c) */
};

/* The cache's replacement (ftl.cmt.policy). */
enum ftl_cmt_policy {
  FTL_CMT_LRU = 0, /* least recently used */
  FTL_CMT_SLRU = 1 /* segmented LRU: probationary and protected segments */
};

/* The command set of the namespace (nvme.command_set): the NVM command set
 * over the FTL, or Open-Channel 2.0 (ocssd.c, docs/models/ocssd.md): the host
 * sees chunks and write pointers, and no map, placement or GC runs here. */
enum ftl_command_set {
  FTL_CMDSET_NVM = 0,
  FTL_CMDSET_OPEN_CHANNEL = 1,
  FTL_CMDSET_ZNS = 2 /* NVMe Zoned Namespaces over the same chunks (zns.c, docs/models/zns.md; branch hostftl) */
};

/* The firmware's configuration: a plain struct with defaults and a separate
 * validity check. The platform fills it from YAML (ftl.* keys). */
struct ftl_config {
  /* geometry (from the flash controller's configuration) */
  uint32_t channels;
  uint32_t dies_per_channel;
  uint32_t blocks_per_die;
  uint32_t pages_per_block;
  uint32_t slots_per_page;    /* LBAs per flash page */
  uint64_t logical_lbas;      /* namespace size in LBAs */
  uint32_t max_transfer_lbas; /* largest command the firmware accepts (MDTS) */

  /* DRAM window given to the firmware */
  uint32_t dram_base;
  uint32_t dram_size;

  /* buffers and queues */
  uint32_t cmd_slots;          /* host commands in flight inside the firmware */
  uint32_t write_buffer_pages; /* page buffers for host writes */
  uint32_t read_buffer_pages;  /* page buffers for host reads */
  uint32_t gc_buffer_pages;    /* page buffers for GC reads and the GC frontier */

  /* garbage collection */
  uint32_t gc_policy;           /* enum ftl_gc_policy */
  uint32_t gc_threshold_blocks; /* collect while free blocks < this */
  uint32_t gc_reserve_blocks;   /* host writes wait while free blocks <= this */
  uint32_t gc_max_active;       /* victims collected concurrently */
  uint32_t gc_dchoices;         /* d for FTL_GC_DCHOICES */

  /* placement (HAML-SSD and the policies it is compared with) */
  uint32_t placement;             /* enum ftl_placement */
  uint32_t gc_placement;          /* enum ftl_gc_placement */
  uint32_t hot_classes;           /* K: classes of haml (1..8); streams of stream (1..8) */
  uint32_t hot_slice_lbas;        /* LBAs per monitored slice */
  uint64_t hot_period_ns;         /* monitoring period T */
  uint32_t hot_interval_rule;     /* enum hot_interval_rule (hotness.h) */
  uint32_t hot_max_iter;          /* K-Means iteration limit */
  uint32_t cluster_engine;        /* enum ftl_cluster_engine: who runs the K-Means */
  uint32_t hot_features;          /* enum ftl_hot_features: haml's clustering features */
  uint32_t hotis_min_writes;      /* HOTIS: hot if at least this many writes in the period ... */
  uint64_t hotis_max_interval_ns; /* ... and a mean update interval at most this */

  /* wear levelling */
  uint32_t block_choice;      /* enum ftl_block_choice */
  uint32_t wear_threshold;    /* migrate cold data when max - min erase count exceeds this (0: never) */
  uint32_t wear_check_erases; /* look at the spread every this many erases */
  uint32_t streams_limit;     /* MSL: stream identifiers per namespace (Streams directive, 1..8) */

  uint64_t seed;              /* firmware PRNG seed (random victim choices) */
  uint32_t debug_gc_register; /* 1: write NVME DBG_GC where GC starts and ends (the host's GC label) */
  /* media faults (branch power): when a block's data is moved to fresh blocks */
  uint32_t refresh_read_limit; /* flash reads of a block since its erase that make it refreshed (0: never) */
  uint32_t refresh_retries;    /* a read that needed at least this many retry levels refreshes its block (0: never) */
  uint32_t flush_scope;        /* enum ftl_flush_scope */
  uint32_t gc_durable;  /* 1: erase a victim once its relocated data and every open page are programmed (no PLP) */
  uint32_t ns_ready_ns; /* I/O commands complete with Namespace Not Ready before this firmware time (0: ready) */
  /* checkpoints (branch power, ckpt.c): either interval nonzero turns them on */
  uint32_t lba_bytes;          /* bytes per LBA (a checkpoint page holds slots_per_page * lba_bytes) */
  uint32_t ckpt_interval_lbas; /* a checkpoint after this many host LBA writes (0: not by writes) */
  uint64_t ckpt_interval_ns;   /* a checkpoint this long after the previous one (0: not by time) */
  /* cached mapping table (branch dftl, cmt.c) */
  uint32_t mapping;                /* enum ftl_mapping */
  uint32_t cmt_entries;            /* mapping entries the cache holds (clamped to logical_lbas) */
  uint32_t cmt_tp_entries;         /* entries per translation page (0: slots_per_page * 1024) */
  uint32_t cmt_buffers;            /* page buffers for translation page operations (the last: translation GC) */
  uint32_t cmt_translation_blocks; /* blocks set aside for translation pages (0: 2 x what they fill + 1 + stripe) */
  uint32_t cmt_log_entries;        /* pending updates of entries not cached, held until their write-back */
  uint32_t cmt_stripe;             /* dies translation pages are programmed on in turn (0: every die) */
  uint32_t cmt_policy;             /* enum ftl_cmt_policy */
  uint32_t cmt_protected_pct;      /* slru: the protected segment's percent of the entries */
  /* multi-plane operations (branch nand) */
  uint32_t planes_per_die; /* geometry: block-in-die i is in plane i % planes_per_die (0 or 1: one plane) */
  uint32_t multiplane;     /* 1: frontiers write a die's planes at the same page offset and the flash interface
                              groups neighbouring descriptors into multi-plane operations */
  uint32_t mp_hold_ns;     /* a full page waits at most this long for its plane siblings (0: never held) */
  uint32_t mp_align;       /* 1: a plane's lane ahead of a sibling plane's (page offset) waits until it catches up */
  uint32_t mp_same_block;  /* geometry rule (flash.multiplane_same_block): a multi-plane group's blocks at one block
                              index in every plane (block-in-die / planes_per_die) */
  /* branch opench: the open-channel personality */
  uint32_t command_set; /* enum ftl_command_set */
  uint32_t oc_read_ns;  /* timing hints the Geometry reports (the platform copies flash.timing.*; 0: unknown) */
  uint32_t oc_program_ns;
  uint32_t oc_erase_ns;
  /* branch fidelity */
  uint32_t floor_policy; /* enum ftl_floor_policy */
  /* branch nand (issue 21): copyback (copyback.c) */
  uint32_t cell_bits;            /* geometry: bits per cell (flash.cell.bits): page p is of type p % cell_bits */
  uint32_t gc_copyback;          /* 1: GC moves whole valid pages within their plane by copyback */
  uint32_t gc_copyback_max_hops; /* consecutive copybacks of a page's data without an ECC check */
  /* branch nand (issue 21): GC victims paired across planes for multi-plane erases */
  uint32_t gc_pair_planes; /* 1: a victim's closed siblings at its block offset in the die's other planes are collected
                              with it, and their erases go together */
  uint32_t gc_pair_slack;  /* percent of a block's LBAs a sibling may hold beyond the victim's valid LBAs */
  /* branch hostftl: the zoned personality (zns.c) */
  uint32_t zns_max_open;   /* zones open at once (0: no limit) */
  uint32_t zns_max_active; /* zones open or closed at once (0: no limit) */
  /* branch nand (issue 21 leftovers): copyback of partly valid pages */
  uint32_t gc_copyback_min_valid; /* percent of a victim page's slots that must be valid for a copyback */
  /* branch hostftlpower (issue 17): recovery through the host FTL */
  uint32_t oc_meta_seq; /* open_channel: 0: 4 bytes of metadata per sector (the LPN); 1: 8 (the LPN and the
                           unit's sequence number, stored once per page) */
  /* branch trimlog (issue 20): persistent deallocations without checkpoints (trimlog.c) */
  uint32_t trim_log;            /* enum ftl_trim_log */
  uint32_t trim_log_blocks;     /* without checkpoints: blocks of each of the log's two areas */
  uint32_t trim_log_gc_barrier; /* 1: a GC erase waits until the deallocations made before it are on flash */
  /* branch rings (issue 19) */
  uint32_t flash_cq_phase; /* 1: flash completions found by their phase tag (FLASH CTRL.CQ_PHASE), not CQ_TAIL */
  /* GC scheduling (gcsched.c) */
  uint32_t gc_trigger;        /* enum ftl_gc_trigger */
  uint32_t gc_high_blocks;    /* watermarks, idle, autossd: GC collects up to this many free blocks */
  uint32_t gc_preempt;        /* enum ftl_gc_preempt */
  uint32_t gc_auto_kp;        /* autossd: GC share (per mille) per block below the target */
  uint32_t gc_auto_ki;        /* autossd: GC share (per mille) per block-period of accumulated deficit */
  uint32_t gc_auto_depth;     /* autossd: GC reads in flight per victim at a full share */
  uint32_t gc_hold;           /* enum ftl_gc_hold */
  uint64_t gc_idle_after_ns;  /* idle: the host is idle once no command arrived for this long */
  uint64_t gc_auto_period_ns; /* autossd: the share controller's period */
};

/* Counters the firmware keeps; the platform reads them for the summary. */
struct ftl_stats {
  uint64_t host_cmds;
  uint64_t host_errors;
  uint64_t host_lba_writes; /* LBAs written by the host */
  uint64_t host_lba_reads;
  uint64_t gc_lba_writes; /* LBAs relocated by GC */
  uint64_t pad_slots;     /* slots padded by flush */
  uint64_t trim_lbas;     /* LBAs deallocated */
  uint64_t gc_victims;    /* blocks collected */
  uint64_t erases;
  uint64_t programs;
  uint64_t flash_reads;
  uint64_t flash_errors; /* flash completions with an error status */
  uint64_t write_stalls; /* times a host write waited for a buffer or a block */
  uint32_t free_blocks;
  uint32_t free_blocks_min;
  uint64_t gc_active_ns; /* closed periods with a victim open (ftl_gc_active_ns adds the open one) */
  uint64_t class_lba_writes[FTL_MAX_CLASSES]; /* host LBAs placed per class */
  uint64_t cluster_runs;                      /* classification rounds (closed monitoring periods) */
  uint64_t kmeans_iterations;
  uint64_t wear_victims;    /* blocks collected to move cold data off young blocks */
  uint64_t wear_lba_writes; /* LBAs those moved (also in gc_lba_writes) */
  /* host LBAs by the class they were placed in and the stream ID the host
   * sent (0: none): with oracle streams, how a policy's classes compare with
   * the data's real death times */
  uint64_t class_by_stream[FTL_MAX_CLASSES][FTL_MAX_CLASSES + 1];
  uint64_t gc_forced;      /* GC periods started urgently while the host's coordination said no (gcgate.c) */
  uint64_t gc_events_lost; /* asynchronous events dropped because the host left none outstanding */
  /* media faults (docs/firmware.md, "Bad blocks and read errors") */
  uint64_t program_failures; /* programs that failed: the page was rewritten elsewhere */
  uint64_t erase_failures;
  uint64_t retired_blocks;      /* grown bad blocks (program or erase failure), never used again */
  uint64_t factory_bad_blocks;  /* skipped from the start */
  uint64_t rewritten_lbas;      /* LBAs of failed programs placed again */
  uint64_t reads_retried;       /* flash reads that needed read retry */
  uint64_t read_retries;        /* retry levels they used */
  uint64_t uncorrectable_reads; /* flash reads that failed ECC at every level (host and GC) */
  uint64_t lost_lbas;           /* LBAs a GC read could not recover: they read as Unrecovered Read Error */
  uint64_t refreshes;           /* blocks collected for read disturb or retries, not for space */
  /* power-up recovery (ftl_recover) */
  uint64_t recovery_pages;      /* pages read by the OOB scan */
  uint64_t recovery_torn;       /* of them torn (uncorrectable): skipped */
  uint64_t recovery_lbas;       /* LBAs mapped after the scan */
  uint64_t recovery_ns;         /* time the scan took (0 in functional mode) */
  uint64_t blocks_closed_early; /* open blocks closed before they were full (a released stream) */
  /* checkpoints (ckpt.c) and recovery from them */
  uint64_t ckpt_taken;          /* complete checkpoints */
  uint64_t ckpt_failed;         /* checkpoints abandoned (an erase or program of theirs failed) */
  uint64_t ckpt_programs;       /* checkpoint page programs (metadata writes: not in programs) */
  uint64_t ckpt_erases;         /* checkpoint area erases (not in erases) */
  uint64_t ckpt_drain_ns;       /* time placement waited for the programs in flight before snapshots */
  uint64_t ckpt_in_progress;    /* 1 while a checkpoint drains, erases or programs */
  uint64_t recovery_ckpt_gen;   /* generation of the checkpoint recovery started from (0: full scan) */
  uint64_t recovery_ckpt_pages; /* checkpoint pages read by recovery */
  uint64_t recovery_ckpt_torn;  /* newer checkpoints that did not read back whole (torn by the cut) */
  uint64_t recovery_dropped;    /* checkpoint L2P entries whose page was erased or rewritten since */
  uint64_t recovery_reopened;   /* partly written blocks recovery gave back to a frontier at their write pointer */
  uint64_t recovery_trimmed;    /* LBAs recovery unmapped replaying the trim log */
  uint64_t trim_log_programs;   /* trim log pages programmed (also in ckpt_programs) */
  /* cached mapping table (ftl.mapping: cached; docs/firmware.md "Cached mapping") */
  uint64_t cmt_hits;             /* host lookups whose entry was cached */
  uint64_t cmt_misses;           /* host lookups whose entry had to be loaded */
  uint64_t cmt_cold_misses;      /* of them: translation page never written, no flash read */
  uint64_t cmt_evictions;        /* entries evicted */
  uint64_t cmt_dirty_evictions;  /* of them dirty: a write-back of their translation page */
  uint64_t tp_reads;             /* translation page reads (misses, read-modify-writes, translation GC) */
  uint64_t tp_writes;            /* translation page programs */
  uint64_t tp_writeback_entries; /* dirty cached entries written back by them */
  uint64_t tp_gc_updates;        /* write-backs asked for by data GC, trims or media errors (entry not cached) */
  uint64_t tgc_victims;          /* translation blocks collected */
  uint64_t tgc_moves;            /* valid translation pages relocated by translation GC */
  uint64_t tgc_erases;           /* translation block erases */
  /* copyback (ftl.gc.copyback, copyback.c) */
  uint64_t gc_copybacks;       /* victim pages moved on their die by copyback (their LBAs are in gc_lba_writes) */
  uint64_t gc_copyback_capped; /* whole valid pages read through the controller because of the hop limit */
  uint64_t gc_paired;          /* victims started as a sibling of another (ftl.gc.pair_planes) */
  /* multi-plane under the same-block-index rule (ftl_config.mp_same_block, alloc.c, flashif.c) */
  uint64_t mp_index_fallbacks; /* blocks a frontier opened at another block index than its die's other planes'
                                  (no free block at the matching index): their pages go single-plane */
  uint64_t mp_index_splits;    /* descriptors that would have joined a multi-plane group but for the block index */
  /* copyback of partly valid pages (ftl.gc.copyback_min_valid) */
  uint64_t gc_copyback_partial; /* victim pages with stale slots moved by copyback */
  uint64_t gc_copyback_stale;   /* stale slots they carried (space the copies hold for no LBA) */
  /* open channel (ocssd.c): commands held in the drive's line because a chunk they program or reset is
     the destination of a parked Vector Copy or of a command held ahead of them */
  uint64_t oc_held_cmds;    /* commands held so (each counted once) */
  uint64_t oc_held_copies;  /* of them Vector Copies */
  uint64_t oc_held_ns;      /* time they were held, summed over commands (from the pass that first found one held
                               to the pass that let it go) */
  uint64_t oc_held_copy_ns; /* of it the Vector Copies' */
  /* the trim log in areas of its own (power.trim_log.mode on without checkpoints, trimlog.c) */
  uint64_t trim_log_rotations; /* times the log moved to its other area (a bitmap of the deallocated LBAs first) */
  uint64_t trim_log_erases;    /* its area erases (also in ckpt_erases) */
  uint64_t trim_log_gc_waits;  /* GC erases that waited for the log's records to be programmed */
  uint64_t write_stalled_cmds; /* host write commands that waited at least once (write_stalls counts each retry) */
  /* GC scheduling (gcsched.c) */
  uint64_t gc_episodes;        /* GC episodes: from a victim's start until none is open and the trigger wants none */
  uint64_t gc_episodes_closed; /* of them the ones that ended */
  uint64_t gc_episode_ns;      /* the closed ones' lengths, summed */
  uint64_t gc_episode_max_ns;  /* the longest closed one */
  uint64_t gc_idle_victims;    /* victims started by idle-time (background) GC */
  uint64_t gc_idle_wakeups;    /* timer interrupts taken to look for host idleness */
  uint64_t gc_auto_updates;    /* share controller updates (autossd) */
  uint64_t gc_auto_share_sum;  /* their shares summed, per mille (mean: / gc_auto_updates) */
  /* every GC victim (gc_victims) counted once at its choice, by its invalid share:
   * bin floor(5 * (block LBAs - valid LBAs) / block LBAs), the last bin [80,100] */
  uint64_t gc_victim_invalid[FTL_GC_INVALID_BINS];
};

/* 1 if deallocations survive a power cut (the trim log, trimlog.c): with
 * checkpoints unless power.trim_log.mode is off, without them when it is on.
 * The host's check after a cut is strict for deallocations only then. */
static inline int ftl_trims_persistent(const struct ftl_config *c) {
  const int ckpt = c->ckpt_interval_ns != 0 || c->ckpt_interval_lbas != 0;
  return ckpt ? c->trim_log != FTL_TLOG_OFF : c->trim_log == FTL_TLOG_ON;
}

struct ftl; /* defined in ftl_internal.h; the platform allocates ftl_size() bytes */

size_t ftl_size(void);

void ftl_config_default(struct ftl_config *cfg);
/* 0 if cfg is usable; otherwise -1 and a message naming the field. */
int ftl_config_check(const struct ftl_config *cfg, char *msg, size_t msg_len);
/* DRAM bytes the firmware needs for cfg. */
uint64_t ftl_dram_bytes(const struct ftl_config *cfg);
/* Where the free-block count of each die (uint32_t per die) lives, as an
 * offset into the DRAM window: the platform reads it for its statistics
 * without the firmware's help, in either CPU mode. */
uint64_t ftl_die_free_offset(const struct ftl_config *cfg);
/* Write frontiers (host classes, plus relocated data's own if it has one). */
uint32_t ftl_frontiers(const struct ftl_config *cfg);

/* 0 on success; -1 if the configuration is invalid or DRAM is too small
 * (the reason is logged through the HAL). */
int ftl_init(struct ftl *f, struct hal *hal, const struct ftl_config *cfg);

/* One pass over every event source; returns nonzero if it did any work. */
int ftl_poll(struct ftl *f);
/* The event loop: polls, and waits for an interrupt when idle. */
void ftl_main(struct ftl *f);
void ftl_request_stop(struct ftl *f);
/* Nonzero while flash operations, transfers or GC are outstanding. */
int ftl_busy(const struct ftl *f);

/* Functional access for preconditioning and tests: the same FTL paths as host
 * commands, with tokens passed directly. They poll until done, so the flash
 * controller must complete operations without simulated time (functional
 * mode). Return 0, or -1 on an error (logged). */
int ftl_func_write(struct ftl *f, uint64_t lba, uint32_t n, const uint32_t *tokens);
/* The same with an NVMe stream ID (0: none), as a Streams directive. */
int ftl_func_write_stream(struct ftl *f, uint64_t lba, uint32_t n, const uint32_t *tokens, uint32_t stream);
int ftl_func_read(struct ftl *f, uint64_t lba, uint32_t n, uint32_t *tokens);
int ftl_func_trim(struct ftl *f, uint64_t lba, uint64_t n);
int ftl_func_flush(struct ftl *f);
/* Moves the GC threshold (preconditioning: to leave the free pool at the
 * level a timed part will hold); -1 unless reserve < blocks. */
int ftl_func_set_gc_threshold(struct ftl *f, uint32_t blocks);
/* A hint, no state changes: a functional write to lba comes soon. Stage 0
 * prefetches its L2P entry, stage 1 (later) what the slot it maps to touches
 * when invalidated (host speed only; nothing in the RV32 build). */
void ftl_func_prefetch(const struct ftl *f, uint64_t lba, int stage);
/* Without waiting, for the host-level FTL's block layer (branch hostftl,
 * platform/host/ftl/host_ftl_block.cpp), whose flash completes in simulated
 * time: a write (write != 0) is placed, complete once its LBAs are in page
 * buffers as an NVMe write is, or a read started; returns its command slot,
 * or FTL_NONE when none is free or the range is bad. ftl_func_done returns 1
 * once slot c's command finished (a read's tokens copied out, its slot
 * released; a write's slot is released by the FTL itself, so call it for
 * every slot in flight before the next ftl_func_submit), with its status. */
uint32_t ftl_func_submit(struct ftl *f, int write, uint64_t lba, uint32_t n, const uint32_t *tokens, uint32_t stream);
int ftl_func_done(struct ftl *f, uint32_t c, uint32_t *tokens, uint16_t *status);
/* A flush without waiting (the host-level FTL's write buffer): pads and
 * programs the host frontiers' open pages (and the trim log) as
 * ftl_func_flush does and rings the flash doorbell, so that every LBA placed
 * so far is in a flash operation submitted by now; the caller waits for
 * those (its HAL knows them). 0, or -1 when the FTL failed. */
int ftl_func_flush_submit(struct ftl *f);

const struct ftl_stats *ftl_get_stats(const struct ftl *f);
/* Simulated time with at least one GC victim open, up to now_ns. */
uint64_t ftl_gc_active_ns(const struct ftl *f, uint64_t now_ns);
/* Host write classes in use (1 for single and double placement). */
uint32_t ftl_classes(const struct ftl *f);
/* The class host writes to lba go to now (without a stream ID). */
uint32_t ftl_class_of(const struct ftl *f, uint64_t lba);
/* Erase-count spread over all blocks. */
void ftl_erase_spread(const struct ftl *f, uint32_t *min, double *mean, uint32_t *max);
/* The physical slot address LBA lba maps to, or 0xffffffff. */
uint32_t ftl_lookup(const struct ftl *f, uint64_t lba);
/* Power loss (firmware/ftl/power.c, docs/firmware.md "Power loss"):
 * ftl_power_fail() is what the firmware does on the power-fail interrupt of a
 * drive with power-loss protection: pads and programs the partly filled page
 * of every write frontier, at most budget_pages of them (the capacitor's
 * energy); returns the pages it could not program. ftl_recover() is power-up
 * after a cut: ftl_init, then the OOB scan. Both need the flash controller in
 * functional mode or a running clock (they poll). */
uint32_t ftl_power_fail(struct ftl *f, uint32_t budget_pages);
int ftl_recover(struct ftl *f, struct hal *hal, const struct ftl_config *cfg);

/* GC by copy (firmware/ftl/vcopy.c, docs/firmware.md "Copy"): GC moves valid
 * data by FC_OP_COPY (on != 0, ssdvp_hw.h) instead of reading it and writing
 * it back; for a HAL that has FC_OP_COPY (a host FTL's: the SoC's flash
 * controller refuses it). Call after ftl_init. -1 when relocated data has no
 * write point of its own (ftl.placement.policy single), with ftl.mapping
 * cached, or when ftl.gc.max_active exceeds 64. */
int ftl_set_gc_copy(struct ftl *f, int on);

/* A saved drive (firmware/ftl/state.c, docs/state.md): the firmware's state
 * outside DRAM, ftl_state_bytes() bytes. Save when idle (after functional
 * preconditioning); load after ftl_init with the same configuration and the
 * DRAM image restored. 0, or -1 (logged). Native mode only (the windows onto
 * DRAM are host pointers). */
size_t ftl_state_bytes(void);
int ftl_state_save(const struct ftl *f, void *out);
int ftl_state_load(struct ftl *f, const void *in, size_t bytes);

/* Consistency check of the FTL's tables (L2P vs validity vs counts);
 * returns the number of inconsistencies found (0 expected). Slow. */
uint64_t ftl_self_check(const struct ftl *f);

#ifdef __cplusplus
}
#endif
#endif /* SSDVP_FTL_H */
