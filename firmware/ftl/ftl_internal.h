/*
 * ftl_internal.h - the firmware's state and the functions its units share.
 *
 * Layers, top to bottom. A unit calls only units below it; nothing calls up.
 *
 *   state.c    a saved drive: the state outside DRAM (--save-state/--load-state)
 *   power.c    power loss: the capacitor's last programs (PLP) and the
 *              power-up scan of the OOB that rebuilds the tables
 *   loop.c     event loop: ftl_poll through the command set's table; the NVM
 *              set's pass polls the rings, dispatches flash completions by
 *              tag kind, and is the only place GC work starts (gc_schedule);
 *              functional access (ftl_func_*), self-check
 *   tlogmove.c the trim log's own areas (power.trim_log.mode on without
 *              checkpoints): their set-up and the move to the other area,
 *              which drains the frontiers and releases the flushes and GC
 *              erases waiting for the log
 *   ckpt.c     periodic checkpoints of the L2P and block table to reserved
 *              blocks, and reading the newest complete one back (recovery)
 *   ocssd.c    the open-channel and zoned command sets (nvme.command_set
 *              open_channel, zns; cmdset_open_channel, cmdset_zns):
 *              Open-Channel 2.0 commands on chunks, the whole pass of the
 *              loop then, with no map, placement or GC
 *   zns.c      the zoned command set's zones: states, resources and Zoned
 *              Namespace commands, each turned into ocssd.c's chunk
 *              addresses; ocssd.c runs them
 *   hostif.c   the NVM command set (cmdset_nvm, whose pass is loop.c's):
 *              decode, placement of host writes, reads, deallocate, flush
 *   directives.c  admin commands: the Identify and Streams directives, the
 *              admission of stream writes (the command set posts the data)
 *   gcgate.c   host-coordinated GC: the gate gc_schedule consults, admin
 *              commands (PLM windows, GC lock, AERs), GC events
 *   queues.c   admin commands: Create I/O CQ/SQ and the Arbitration
 *              feature, through the NVMe controller's Q_* and ARB registers
 *   gc.c       GC jobs: start, victim reads, relocation, erase completion
 *   gcsched.c  when GC collects (ftl.gc.trigger): the threshold, watermark
 *              episodes, idle-time GC with the interrupt controller's timer,
 *              AutoSSD's share controller; GC's share of reads in flight
 *   copyback.c GC moves of whole valid pages inside their die and plane by
 *              copyback (ftl.gc.copyback): destinations, hop counts
 *   vcopy.c    GC moves by copy (the host FTL's Vector Chunk Copy):
 *              valid slots gathered into units, one copy per unit
 *   place.c    write classes: which frontier an LBA goes to
 *   hotness.c  the hotness monitor and K-Means (place.c's)
 *   alloc.c    write frontiers: page rows on striped open blocks, placing an
 *              LBA in a page buffer, programs
 *   trimlog.c  the trim log: deallocations since the newest complete
 *              checkpoint, programmed to its area after the image (power.c
 *              replays it at recovery)
 *   map.c      L2P table and per-slot validity
 *   cmt_recover.c  power-up recovery of the cached mapping: the directory
 *              from the translation pages, the LBAs written since from the
 *              data pages' OOB (power.c calls it)
 *   cmt.c      cached mapping table (ftl.mapping: cached): the cache of
 *              entries, the translation pages in flash, their GC
 *   buf.c      page-buffer pools
 *   block.c    block manager: block table, per-die free lists, the GC
 *              candidate index of every policy, victim choice, and
 *              block_set_state(), the one checked state transition
 *   flashif.c  flash rings: submit, doorbell, completions (a leaf)
 *   nvmet.c    the NVMe transport below every command set: command slots,
 *              the CMD, XFER and DONE rings, completions, the wait list
 *              (a leaf)
 * Beside them, ftl_init.c: configuration, DRAM layout, set-up (it may call
 * any unit; none calls it). Static inline helpers here belong to the unit
 * they are listed under. testbench/firmware/layering_test.py checks the
 * calls against this list.
 *
 * GC scheduling: the block manager raises f->gc_pending when a free block is
 * taken or a block closes. Placement (place_lba, frontier_flush_host) then
 * stops and returns STEP_YIELD up to the loop, which runs gc_schedule() and
 * calls the interrupted step again; it continues where it stopped. So GC
 * starts at the moment the free pool shrinks, as a controller that triggers
 * GC on allocation does, but never from inside placement. The loop also runs
 * gc_schedule() once at the end of every pass.
 *
 * Addresses: a physical slot address (ppa) is row * slots_per_page + slot,
 * row = block * pages_per_block + page, block = die * blocks_per_die + i.
 */
#ifndef SSDVP_FTL_INTERNAL_H
#define SSDVP_FTL_INTERNAL_H

#include <inttypes.h>

#include "cmt.h"
#include "ftl.h"
#include "gcgate.h"
#include "hotness.h"
#include "ssdvp_hw.h"

#define FTL_UNMAPPED 0xffffffffu
#define FTL_NONE 0xffffffffu
/* L2P value of an LBA whose data a GC read could not recover: host reads of
 * it complete with Unrecovered Read Error until it is written or trimmed.
 * Never a slot address (ftl_config_check keeps slots below 2^32 - 1). */
#define FTL_LOST 0xfffffffeu

/* BLK_BAD: retired (factory marked, or a program or erase failed); never
 * used again. */
enum blk_state { BLK_FREE = 0, BLK_OPEN = 1, BLK_CLOSED = 2, BLK_VICTIM = 3, BLK_ERASING = 4, BLK_BAD = 5 };
/* blk_flags: why a block is to be collected before GC would choose it. */
enum blk_flag {
  BLKF_RETIRE = 1 /* a program failed: collect, then retire */,
  BLKF_REFRESH = 2 /* read disturb or retries */
};

enum buf_pool { POOL_WRITE = 0, POOL_READ = 1, POOL_GC = 2, POOL_COUNT = 3 };

enum buf_state {
  BUF_FREE = 0,
  BUF_FILLING = 1,   /* a frontier's current page, slots being placed */
  BUF_PROGRAM = 2,   /* program submitted, waiting for completion */
  BUF_HOST_READ = 3, /* flash read for a host command */
  BUF_GC_READ = 4,   /* flash read of a victim page */
  BUF_GC_PLACE = 5   /* GC read done, slots waiting to be placed */
};

/* Flash command tags: kind in the top byte, index below. */
enum tag_kind {
  TAG_PROGRAM = 1,
  TAG_HOST_READ = 2,
  TAG_GC_READ = 3,
  TAG_ERASE = 4,
  TAG_CKPT = 5,     /* a checkpoint program or erase (ckpt.c) */
  TAG_TRANS = 6,    /* a translation page operation or erase (cmt.c) */
  TAG_COPYBACK = 7, /* a GC copyback (copyback.c) */
  TAG_VCOPY = 8     /* a GC copy (vcopy.c) */
};
#define TAG(kind, idx) (((uint32_t)(kind) << 24) | (uint32_t)(idx))
#define TAG_KIND(t) ((t) >> 24)
#define TAG_IDX(t) ((t)&0xffffffu)

struct pagebuf {
  uint8_t state;
  uint8_t pool;
  uint8_t frontier; /* FILLING/PROGRAM: owning frontier (index in ftl.fr) */
  uint8_t yielded;  /* GC_PLACE: slot `filled` was placed, its accounting waits for the GC step */
  uint32_t row;     /* page row it belongs to (FTL_NONE if none) */
  uint32_t filled;  /* FILLING: slots placed; GC_PLACE: next slot to examine */
  uint32_t mask;    /* READ: slots requested */
  uint32_t cmd;     /* HOST_READ: command slot; GC_*: job index */
  uint32_t next;    /* free list / waiting list link */
  uint32_t dram;    /* bus address of the buffer in DRAM */
  uint32_t *token;  /* window onto the buffer: token[S], lpn[S], seq */
  uint32_t *lpn;
  uint16_t slot_idx[32]; /* HOST_READ: slot -> LBA index in the command */
  uint32_t cb_row;       /* GC_READ of a copyback (copyback.c): the destination row */
  uint32_t epoch;        /* PROGRAM: the flush epoch it was first issued in (kept when it is programmed again) */
};

/* What a step of work returns. A stage of the loop returns STEP_DONE if it
 * did any work, with STEP_YIELD or-ed in when it stopped for a GC step. */
enum step { STEP_WAIT = 0, STEP_DONE = 1, STEP_YIELD = 2 };

enum wear_pick { WEAR_LOWEST = 0, WEAR_HIGHEST = 1, WEAR_RANDOM = 2 };

struct frontier {
  uint32_t *open_block; /* per lane: open block, or FTL_NONE (a lane is a die, or with ftl.multiplane a
                           plane of a die: lane = die * planes + plane) */
  uint32_t next_die;    /* round-robin striping position (a lane) */
  uint32_t buf;         /* current FILLING buffer, or FTL_NONE */
  uint8_t pool;         /* pool its page buffers come from */
  uint8_t index;        /* in ftl.fr */
  uint8_t wear;         /* enum wear_pick (block_choice erase_count) */
  uint8_t gc_shared;    /* host class that relocated data also goes to */
  uint8_t gc_writes;    /* relocated data goes here (the GC frontier, or a gc_shared class) */
  uint32_t open_count;  /* lanes with an open block */
  uint32_t programs;    /* its page programs in flight (held ones included) */
  uint32_t *held;       /* ftl.multiplane_hold: per lane, a full page buffer not submitted yet, or FTL_NONE */
  uint64_t *held_ns;    /* per lane: when it was held */
};

/* Host classes 0..classes-1, then the GC frontier if it has its own. */
#define FTL_MAX_FRONTIERS (FTL_MAX_CLASSES + 1)
/* GC moves by copy (vcopy.c): jobs it keeps a unit for (ftl.gc.max_active's maximum). */
#define FTL_VC_JOBS 64u

enum cmd_state {
  CMD_FREE = 0,
  CMD_H2D = 1,
  CMD_PLACE = 2,
  CMD_READ = 3,
  CMD_D2H = 4,
  CMD_WAIT_FLUSH = 5,
  CMD_HELD = 6 /* an Asynchronous Event Request waiting for an event (gcgate.c) */
};

struct fw_cmd {
  uint8_t state;
  uint8_t opcode;
  uint16_t sqid;
  uint16_t cid;
  uint16_t status;
  uint64_t slba;
  uint32_t nlb;        /* LBAs (DSM: ranges) */
  uint32_t progress;   /* next LBA index to place or read */
  uint32_t pending;    /* outstanding flash reads */
  uint32_t next;       /* waiting list / free list link */
  uint64_t prp;        /* host address */
  uint32_t staging;    /* bus address of the token staging area */
  uint32_t *tokens;    /* window onto it */
  uint32_t no_host_io; /* 1: issued by ftl_func_* (preconditioning): no host transfers, no completion posted */
  uint8_t stream;      /* write: NVMe stream ID (0: none) */
  uint8_t recorded;    /* write: bit 0 seen by the hotness monitor, bit 1 stalled (write_stalled_cmds) */
  uint8_t fua;         /* write: force unit access (hostif.c: completes once programmed) */
  uint8_t held;        /* ocssd.c: held for a destination chunk (oc_blocked) */
  uint32_t dw0;        /* completion dword 0 (admin commands) */
  uint32_t epoch;      /* CMD_WAIT_FLUSH: the newest flush epoch whose programs it waits for (hostif.c) */
  uint32_t tlog_seq;   /* CMD_WAIT_FLUSH: the newest trim log record it waits for (0: none) */
};

struct gc_job {
  uint32_t victim;      /* FTL_NONE if idle */
  uint32_t page;        /* next page of the victim to read */
  uint32_t reads;       /* outstanding reads */
  uint32_t wear;        /* 1: a wear-levelling victim (chosen for its low erase count) */
  uint32_t erase_after; /* ftl.gc.durable: all placed, erase once programs up to this sequence number completed (0: not
                           waiting) */
  uint32_t pair;        /* ftl.gc.pair_planes: the first job of its group of sibling victims (FTL_NONE: alone) */
  uint32_t pair_wait;   /* 1: relocated, its erase waits for the rest of its group */
  uint32_t trim_after;  /* trim log's GC barrier: erase once its records up to this sequence number are on flash */
};

/* Flush epochs with programs in flight at most (ftl.flush.scope issued):
 * every epoch but the open one has a flush waiting for it, so this bounds
 * the flushes waiting at once; a flush beyond it leaves the open epoch open
 * and waits for later programs too (hostif.c). */
#define FTL_FLUSH_EPOCHS 16u

/* A multi-plane group being built on one die (flashif.c); used 0: none. */
#define FTL_MP_OPEN 16u
struct mp_group {
  uint32_t die, page, used; /* used: a bit per plane in it */
  uint32_t index;           /* block index within the plane (flash.multiplane_same_block) */
  uint32_t last;            /* SQ index of its last descriptor */
  uint8_t op;
};

/* Indices wrap at size (empty when head == tail). On a ring the firmware
 * consumes, tail is the producer's index as last read from the device (or,
 * phase-tagged, the end of the entries found by their tag). */
struct ring {
  uint32_t base;  /* bus address */
  uint32_t size;  /* entries (power of two) */
  uint32_t head;  /* consumer index */
  uint32_t tail;  /* producer index */
  void *mem;      /* window */
  uint32_t phase; /* a phase-tagged ring (ftl.flash_cq_phase): the tag a new entry at tail carries */
};

/* Checkpoints (ckpt.c). The image in DRAM and on flash: a header of
 * CKPT_HEADER_BYTES (words CKPT_H_*), the L2P (4 bytes per LBA), the erase
 * count of every block (4 bytes), the state of every block (1 byte,
 * CKPT_BLK_*). A checkpoint page's slots carry the generation (slot
 * CKPT_T_GEN) and the page index (slot CKPT_T_PAGE, when a page has two). */
#define CKPT_INFLIGHT 4u /* checkpoint programs or erases in flight at once */
#define CKPT_BUF_STRIDE ((FC_PAGE_BUF_BYTES(32) + 63u) & ~63u)
#define CKPT_HEADER_BYTES 64u
#define CKPT_MAGIC 0x54504b43u /* "CKPT" */
#define CKPT_TAG_ERASE 0x800000u
#define CKPT_TAG_LOG 0x400000u    /* a trim log program or read (trimlog.c) */
#define TLOG_MAGIC 0x474f4c54u    /* "TLOG": a trim log page's header word and OOB slot 0 */
#define TLOG_HEADER_WORDS 4u      /* magic, generation, page index, records */
#define TLOG_RECORD_WORDS 3u      /* first LBA, count, sequence number */
#define TLOG_BM_MAGIC 0x50414d42u /* "BMAP": a bitmap page's header word (own areas): magic, generation, index, seq */
#define TLOG_TAG_ROT 0x200000u    /* with CKPT_TAG_LOG: an own area's erase or bitmap program */
enum { TLOG_ROT_ERASE = 1, TLOG_ROT_PROGRAM = 2, TLOG_ROT_DRAIN = 3 };
enum {
  CKPT_H_MAGIC = 0,
  CKPT_H_GEN,
  CKPT_H_SEQ,
  CKPT_H_LBAS_LO,
  CKPT_H_LBAS_HI,
  CKPT_H_BLOCKS,
  CKPT_H_PAGES,
  CKPT_H_BYTES
};
enum { CKPT_T_GEN = 0, CKPT_T_PAGE = 1 };
enum { CKPT_BLK_FREE = 0, CKPT_BLK_USED = 1, CKPT_BLK_OPEN = 2, CKPT_BLK_BAD = 3 };

struct ckpt {
  uint8_t on;          /* checkpoints configured (areas reserved) */
  uint8_t phase;       /* ckpt.c: idle, drain, erase, program */
  uint8_t draining;    /* placement waits (place_lba) */
  uint8_t failed;      /* an erase or program of this checkpoint failed */
  uint32_t writing;    /* area the next checkpoint goes to */
  uint32_t gen;        /* generation of the newest complete checkpoint (0: none) */
  uint32_t area_n;     /* blocks per area */
  uint32_t *area;      /* [2 * area_n] block numbers: area a is area[a * area_n ...] */
  uint32_t *image;     /* the image in DRAM (whole pages) */
  uint32_t image_bus;  /* its bus address */
  void *bufmem;        /* CKPT_INFLIGHT page buffers (token, lpn, seq) */
  uint32_t bufs_bus;   /* their bus address */
  uint32_t free_bufs;  /* bit i: buffer i free */
  uint32_t next, done; /* erase or program phase: operations issued, completed */
  uint32_t inflight;   /* operations in flight */
  uint32_t snap_seq;   /* sequence number at the snapshot */
  uint64_t next_ns;    /* power.checkpoint.interval: due at this time */
  uint64_t next_lbas;  /* power.checkpoint.writes: due at this count of host LBA writes */
  uint64_t drain_since_ns;
  uint8_t asap; /* the trim log's area is full: a checkpoint is due now */
};

/* The trim log (trimlog.c): deallocations since the newest complete
 * checkpoint (or, before the first, since power-on), one record each, kept in
 * a DRAM page and programmed to a checkpoint area after its image on a flush,
 * when the page is full and by the power-fail handler. */
struct trimlog {
  uint8_t on;       /* the log exists: in the checkpoints' areas, or in its own (own) */
  uint8_t busy;     /* its page's program is in flight: records wait */
  uint8_t own;      /* no checkpoints, power.trim_log.mode on: two areas of its own, a bitmap starts each */
  uint8_t rot;      /* own: 0, or the move to the other area under way (TLOG_ROT_*) */
  uint8_t rot_asap; /* own: the area is (nearly) full, or recovery just ran: move as soon as the page is idle */
  uint8_t rot_failed;
  uint32_t area;     /* area the log pages go to */
  uint32_t base;     /* page index of the first log page there (after the image or bitmap; 0 without) */
  uint32_t next;     /* log pages used there (programmed, failed or torn) */
  uint32_t gen;      /* generation of the checkpoint (own: of the area's bitmap) the log follows (0: none) */
  uint32_t n, cap;   /* records in the DRAM page, records it holds */
  uint32_t *page;    /* the DRAM page: TLOG_HEADER_WORDS, then the records */
  uint32_t page_bus; /* its bus address */
  uint32_t *oob;     /* page buffer (tokens, LPNs, sequence) of its program or read */
  uint32_t oob_bus;
  /* own areas (trimlog.c, "areas of its own") */
  uint32_t area_n;   /* blocks per area */
  uint32_t *blocks;  /* [2 * area_n] the areas' blocks, reserved at power-up */
  uint32_t bm_pages; /* bitmap pages at the start of an area */
  uint32_t *bitmap;  /* [bm_pages pages] TLOG_HEADER_WORDS each, then a bit per LBA: deallocated */
  uint32_t bitmap_bus;
  uint32_t bm_valid; /* recovery: the bitmap of the area read back whole */
  uint32_t writing;  /* the area a move erases and writes */
  uint32_t rot_next, rot_done, rot_inflight, rot_tries;
  uint32_t top_gen;     /* largest generation on flash: a move writes top_gen + 1 */
  uint32_t last_seq;    /* sequence number of the newest record made */
  uint32_t page_seq;    /* of the newest record in the page in flight */
  uint32_t page_epoch;  /* the flush epoch the page in flight was issued in */
  uint32_t rot_seq;     /* of the newest record made before the move's bitmap */
  uint32_t durable_seq; /* every record up to this number is on flash (the GC erase barrier) */
};

/* The Streams directive of a namespace (NVMe 1.4 section 9.3). */
struct streams_state {
  uint8_t enabled;    /* Identify: Streams enabled by Directive Send (off after reset) */
  uint16_t allocated; /* NSA: streams allocated to the namespace (Allocate Resources) */
  uint32_t open_mask; /* bit s-1: stream identifier s is open */
};

/* GC scheduling state (gcsched.c). */
struct gcsched {
  int collecting; /* watermarks: collecting until the high watermark */
  int in_episode; /* a GC episode is open: from a victim's start until none is open or wanted */
  uint64_t episode_since_ns;
  uint64_t gc_idle_since_ns; /* when the last victim open closed (the end of an episode that then ends) */
  int host_idle;             /* idle: no host command for ftl.gc.idle_after (background GC may start) */
  uint32_t irq_extra;        /* interrupt lines enabled besides the rings' (IRQ_TIMER with idle) */
  uint32_t share;            /* autossd: GC's share, per mille */
  int64_t integral;          /* autossd: accumulated free-block deficit, in block-periods */
  uint64_t last_arrival_ns;  /* idle: when the last host command arrived */
  uint64_t timer_ns;         /* the INTC timer's armed deadline (0: disarmed) */
  uint64_t next_update_ns;   /* autossd: the controller's next update */
};

/* ftl.gc.copyback (copyback.c); its windows NULL when off. */
struct copyback_state {
  uint8_t *hops;  /* [pages] copyback hops of the data in each page, as its OOB has them */
  uint32_t *open; /* [dies * planes] block copybacks on that plane go to, or FTL_NONE */
};

/* GC moves by copy (vcopy.c, ftl_set_gc_copy). */
struct vcopy_state {
  uint32_t on;                     /* 1: GC moves every valid slot by FC_OP_COPY */
  uint32_t unit[FTL_VC_JOBS];      /* per GC job: the GC buffer of the unit being gathered, or FTL_NONE */
  uint32_t pad[FTL_VC_JOBS];       /* per GC job: an invalid slot of its victim (padding), or FTL_NONE */
  uint32_t ready_head, ready_tail; /* full units waiting for a row of the GC frontier (linked by next) */
};

/* The zoned command set's zones (zns.c; nvme.command_set zns). */
struct zns_state {
  uint8_t *state;        /* [zones] enum zns_zone_state (NULL in the other command sets) */
  uint32_t zones;        /* logical_lbas / zone size */
  uint32_t zone_bits;    /* log2 of the zone size in LBAs */
  uint32_t open, active; /* zones open (implicitly or explicitly), and open or closed */
};

/* The NVMe transport's state (nvmet.c; the command sets read the slots and
 * the wait list). */
struct nvmet_state {
  struct fw_cmd *cmds;            /* command slots */
  uint32_t cmd_free;              /* free slot list head */
  uint32_t wait_head, wait_tail;  /* commands waiting for buffers or blocks */
  uint32_t wait_reads;            /* reads among them */
  struct ring ncmd, nxfer, ndone; /* NVMe fetched commands / transfers / done */
  uint32_t ncmd_unacked;          /* CMD ring: head moved since CMD_HEAD was written */
  uint32_t nxfer_dirty;           /* the XFER doorbell to ring at the end of a pass */
  uint32_t xfer_outstanding;      /* transfers in flight */
  int cmd_irq_masked;             /* IRQ_NVME_CMD disabled while no command slot is free */
};

/* ocssd.c's line of waiting commands, beyond the transport's wait list. */
struct ocssd_state {
  uint32_t parked; /* Vector Copies out of the waiting line while their sources are read */
  /* commands held for a destination chunk (oc_hold) */
  uint32_t held, held_copies; /* held now (of them Vector Copies) */
  uint64_t held_at;           /* when those counts last changed (ns) */
};

struct ftl;
/* A command set over the NVMe transport (nvmet.c), chosen at set-up by
 * nvme.command_set: hostif.c's NVM (the loop's table, loop.c), ocssd.c's
 * open-channel and zoned. */
struct cmdset_ops {
  /* One pass of the event loop (ftl_poll). */
  int (*poll)(struct ftl *f);
  /* A fetched command in slot c: decode and start it; STEP_YIELD stops the
   * CMD ring for a GC step (the command set goes on where it stopped). */
  int (*decode)(struct ftl *f, uint32_t c, const struct nvme_cmd_entry *e);
  /* A transfer of command c completed: its tag's kind (bits 31:24) and the
   * DONE entry's status; STEP_YIELD stops the DONE ring for a GC step. */
  int (*xfer_done)(struct ftl *f, uint32_t c, uint32_t kind, uint32_t status);
};
extern const struct cmdset_ops cmdset_nvm, cmdset_open_channel, cmdset_zns;

struct ftl {
  struct hal *hal;
  struct ftl_config cfg;
  struct ftl_stats stats;
  uint32_t dies;
  uint32_t total_blocks;
  uint32_t slots_per_block;
  uint32_t seq;
  uint64_t rng;
  volatile int stop;
  int fatal; /* set on an unrecoverable firmware error */

  /* tables in DRAM */
  uint32_t *l2p;           /* [logical_lbas] */
  uint32_t *valid_bits;    /* [total slots / 32] */
  uint32_t *blk_valid;     /* [blocks] valid LBAs */
  uint32_t *blk_erase;     /* [blocks] erase count */
  uint8_t *blk_state;      /* [blocks] enum blk_state */
  uint16_t *blk_wp;        /* [blocks] next page to allocate */
  uint16_t *blk_inbuf;     /* [blocks] pages of this block held in page buffers */
  uint64_t *blk_closed_ns; /* [blocks] time it was closed */
  uint32_t *blk_next;      /* [blocks] free list / victim list links */
  uint32_t *blk_prev;
  uint32_t *closed_pos; /* [blocks] index in closed[] or FTL_NONE */
  uint32_t *closed;     /* [blocks] closed blocks, unordered */
  uint32_t closed_count;
  uint32_t *bucket_head;         /* greedy: [slots_per_block + 1] lists by valid count */
  uint32_t bucket_min;           /* lowest possibly non-empty bucket */
  uint32_t fifo_head, fifo_tail; /* fifo: closed blocks in close order */
  uint32_t *die_free_head;       /* [dies] free block lists */
  uint32_t *die_free_tail;
  uint32_t *die_free_count;
  uint32_t *die_reclaim; /* [dies] blocks being collected (VICTIM, ERASING) */
  uint32_t *die_cand;    /* [dies] GC candidates (CLOSED) */
  uint32_t free_total;
  uint8_t *blk_flags;  /* [blocks] enum blk_flag bits */
  uint32_t *blk_reads; /* [blocks] flash reads since its erase (read disturb) */
  uint32_t urgent;     /* closed blocks with flags, waiting to be collected */
  uint64_t dram_end;   /* end of the DRAM layout (offset): recovery's scratch goes above it */

  struct frontier fr[FTL_MAX_FRONTIERS];
  uint32_t classes; /* host classes (frontiers 0..classes-1) */
  uint32_t gc_fr;   /* frontier of relocated data: classes (own) or 0 (single) */

  /* hotness (place.c) */
  struct hot_monitor hot;
  uint32_t slices;
  uint8_t *slice_class;                  /* [slices] current class */
  uint16_t *hot_f9, *hot_t9;             /* [slices] last period's scaled figures */
  uint32_t *hot_fraw;                    /* [slices] last period's writes */
  uint64_t *hot_traw;                    /* [slices] last period's mean interval, ns */
  uint8_t *hot_labels;                   /* [slices] K-Means labels */
  uint32_t *accel_pts;                   /* [slices] points for the accelerator (cluster_engine accel) */
  uint32_t accel_pts_bus, accel_lab_bus; /* their bus address, and the accelerator's label buffer's */

  /* wear levelling */
  uint32_t wear_countdown; /* erases until the next spread check */
  int wear_due;            /* a wear victim should be collected */

  struct pagebuf *bufs;
  uint32_t nbufs;
  uint32_t pool_free[POOL_COUNT]; /* free list heads */
  uint32_t pool_avail[POOL_COUNT];
  uint32_t gc_place_head, gc_place_tail; /* GC_PLACE buffers waiting for room */

  struct nvmet_state nt;  /* the NVMe transport: command slots, rings, wait list (nvmet.c) */
  uint32_t flush_waiters; /* commands in CMD_WAIT_FLUSH */
  /* Flush epochs (ftl.flush.scope issued): programs in flight counted by the
   * epoch they were issued in; a flush closes the open epoch and completes
   * once it and every older one has no program in flight. */
  uint32_t flush_epoch;                      /* the open epoch */
  uint32_t epoch_programs[FTL_FLUSH_EPOCHS]; /* programs in flight per epoch (index: epoch % FTL_FLUSH_EPOCHS) */
  uint32_t flush_head_epoch;                 /* the oldest epoch a waiting flush waits for */
  uint32_t flush_tlog_seq;                   /* the newest trim log record a waiting flush waits for (0: none) */

  struct gc_job *jobs;
  struct gcsched sched; /* when GC collects (gcsched.c) */
  uint32_t gc_active;
  uint32_t erase_waiting; /* jobs waiting for their relocated data's programs (ftl.gc.durable) */
  uint64_t gc_since_ns;
  int gc_pending; /* a free block was taken or a block closed since the last gc_schedule() */

  /* where a host stage that yielded continues (FTL_NONE: it did not) */
  uint32_t host_placing;                    /* DONE ring: the write command being placed */
  uint32_t host_flushing;                   /* CMD ring: the flush command flushing frontiers */
  uint32_t wait_yielded, wait_yielded_prev; /* wait list: the command, its predecessor */

  struct ring fsq, fcq;            /* flash submission / completion */
  const struct cmdset_ops *cs;     /* the namespace's command set (nvme.command_set) */
  uint32_t fsq_dirty;              /* the flash doorbell to ring at the end of a pass */
  struct mp_group mp[FTL_MP_OPEN]; /* ftl.multiplane (flashif.c): groups open on dies, not yet rung */
  uint32_t mp_next;                /* the entry to reuse next */
  uint32_t flash_outstanding;
  uint32_t programs_inflight;
  uint32_t mp_held; /* ftl.multiplane_hold: page buffers held for their plane siblings (in programs_inflight) */
  uint32_t erases_inflight;
  int in_func_call;             /* inside an ftl_func_* call: host rings not served, the CMD interrupt not unmasked */
  struct gcgate gate;           /* host-coordinated GC (gcgate.c) */
  struct streams_state streams; /* NVMe Streams directive of namespace 1 (directives.c) */
  struct ckpt ckpt;             /* periodic checkpoints (ckpt.c) */
  struct trimlog tlog;          /* deallocations since the newest checkpoint (trimlog.c) */
  struct cmt cmt;               /* cached mapping table (cmt.c) */
  struct copyback_state cb;     /* ftl.gc.copyback (copyback.c) */
  struct vcopy_state vc;        /* GC moves by copy (vcopy.c) */
  struct zns_state zns;         /* the zoned command set's zones (zns.c) */
  struct ocssd_state oc;        /* the open-channel and zoned command sets' waiting line (ocssd.c) */
};

/* ---- block.c: block manager ---------------------------------------------- */
static inline uint32_t ppa_row(const struct ftl *f, uint32_t ppa) { return ppa / f->cfg.slots_per_page; }
static inline uint32_t ppa_slot(const struct ftl *f, uint32_t ppa) { return ppa % f->cfg.slots_per_page; }
static inline uint32_t row_block(const struct ftl *f, uint32_t row) { return row / f->cfg.pages_per_block; }
static inline uint32_t block_die(const struct ftl *f, uint32_t b) { return b / f->cfg.blocks_per_die; }
uint32_t rng_next(struct ftl *f);
/* Every block free, no candidates (ftl_init, after the tables are carved). */
void block_init(struct ftl *f);
/* The one state change of a block, checked (FREE -> OPEN -> CLOSED -> VICTIM
 * -> ERASING -> FREE); it keeps the free lists and the candidate index. */
void block_set_state(struct ftl *f, uint32_t blk, enum blk_state to);
/* Opens a free block of die d (which one: wear), or FTL_NONE if d has none. */
uint32_t block_take_free(struct ftl *f, uint32_t d, uint8_t wear);
/* The same within one plane of die d (ftl.multiplane): the first free block
 * of that plane from the end wear picks from (random: from the head). */
uint32_t block_take_free_plane(struct ftl *f, uint32_t d, uint32_t plane, uint8_t wear);
/* flash.multiplane_same_block: a free block of die d's plane at block index
 * index, or (index FTL_NONE) at the first index, in free-list order, whose
 * blocks are free in every plane of the die; opened, or FTL_NONE. */
uint32_t block_take_free_index(struct ftl *f, uint32_t d, uint32_t plane, uint32_t index, uint8_t wear);
/* A candidate chosen by ftl.gc.policy, or FTL_NONE if there is none. */
uint32_t block_pick_victim(struct ftl *f);
/* The candidate with the lowest erase count (wear levelling), or FTL_NONE. */
uint32_t block_pick_coldest(struct ftl *f);
/* Marks a block to be collected soon (enum blk_flag); a closed flagged
 * block is counted in f->urgent. */
void block_flag(struct ftl *f, uint32_t blk, uint8_t flag);
/* A closed flagged block, or FTL_NONE. */
uint32_t block_pick_urgent(struct ftl *f);
/* A flash read of blk completed after `retries` retry levels (uncorrectable:
 * it failed): counts it and flags the block for refresh when due. */
void block_note_read(struct ftl *f, uint32_t blk, uint32_t retries, int uncorrectable);
/* A block's valid-LBA count moved by one (map.c). */
void block_valid_inc(struct ftl *f, uint32_t blk);
void block_valid_dec(struct ftl *f, uint32_t blk);
/* Slot ppa is no longer valid (its bit cleared, its block's count down); a
 * slot already invalid is left alone. */
void block_invalidate_slot(struct ftl *f, uint32_t ppa);

/* ---- buf.c: page buffers --------------------------------------------------- */
/* A free buffer of pool, in state (FTL_NONE if the pool is empty). */
uint32_t buf_get(struct ftl *f, int pool, enum buf_state state);
void buf_put(struct ftl *f, uint32_t b);
/* Adds a new buffer to its pool (ftl_init). */
void buf_add(struct ftl *f, uint32_t b);
/* The page buffer holding row, if any (reads of recently written data). */
uint32_t buf_find_row(const struct ftl *f, uint32_t row);
/* Recovery's scans: buffer b reads every slot of row (tag TAG_HOST_READ,
 * counted in recovery_pages). */
void buf_read_row(struct ftl *f, uint32_t b, uint32_t row);

/* ---- map.c: L2P and validity ----------------------------------------------- */
static inline int ppa_valid(const struct ftl *f, uint32_t ppa) {
  return (int)((f->valid_bits[ppa >> 5] >> (ppa & 31)) & 1u);
}
/* Invalidates the old location, if known: with the cached mapping a mover
 * (GC, a rewrite after a program failure) invalidates the slot it moved from
 * itself (map_invalidate_ppa: nothing if already done). */
void map_set(struct ftl *f, uint32_t lpn, uint32_t ppa);
void map_trim(struct ftl *f, uint32_t lpn);
void map_invalidate_ppa(struct ftl *f, uint32_t ppa);
/* Whether slot ppa, written for lpn, still holds lpn's data (GC, programs). */
int map_current(struct ftl *f, uint32_t lpn, uint32_t ppa);
/* lpn's slot address after map_ready said 1 (or FTL_UNMAPPED, FTL_LOST). */
uint32_t map_get(const struct ftl *f, uint32_t lpn);
/* The LBAs mapped to the slots of row in mask become FTL_LOST (a GC read of
 * the row failed); returns how many. Scans the L2P (rare); with the cached
 * mapping it takes the LBAs from lpns, the page's OOB. */
uint32_t map_lose_row(struct ftl *f, uint32_t row, uint32_t mask, const uint32_t *lpns);
/* Whether lpn's mapping entry is at hand: always with the full table; with
 * the cached one (cmt.c) 0 means its translation page is being read, and the
 * caller waits (the loop retries waiting commands when it arrives). */
int map_ready(struct ftl *f, uint32_t lpn);

/* ---- cmt.c: cached mapping table ------------------------------------------------ */
/* DRAM it needs (0 with the full table) and its set-up at offset off; the
 * translation region is taken from the free blocks unless reserve is 0
 * (recovery: cmt_rec_region takes it). 0 or -1. */
uint64_t cmt_dram_bytes(const struct ftl_config *c);
uint32_t cmt_flash_slots(const struct ftl_config *c);   /* flash operations it may have in flight */
uint32_t cmt_region_blocks(const struct ftl_config *c); /* blocks the translation pages take (0: full table) */
int cmt_config_check(const struct ftl_config *c, char *msg, size_t msg_len);
int cmt_init(struct ftl *f, uint64_t off, int reserve);
/* 1 if lpn's entry is cached (made most recent); 0: its translation page is
 * being read. */
int cmt_lookup(struct ftl *f, uint32_t lpn);
/* Room in the log of pending updates for one more (placement and
 * deallocation wait for it; always 1 with the full table). */
int cmt_room(const struct ftl *f);
/* lpn's entry: cached, or pending in the log; FTL_NONE if neither. */
uint32_t cmt_get(const struct ftl *f, uint32_t lpn);
/* lpn's entry becomes v: a cached entry becomes dirty, otherwise the update
 * goes into the log and its translation page is read-modify-written. The old
 * value if known (FTL_NONE: the caller invalidates the slot it moves from). */
uint32_t cmt_set(struct ftl *f, uint32_t lpn, uint32_t v);
/* lpn is deallocated (as cmt_set with FTL_UNMAPPED); the old value if known,
 * else FTL_NONE: its slot is invalidated when the merge reads it (cmt.h). */
uint32_t cmt_trim(struct ftl *f, uint32_t lpn);
/* Whether valid slot ppa, written for lpn, is still lpn's: 0 if the cache or
 * the log maps lpn elsewhere (a deferred invalidation: the caller
 * invalidates ppa, and the log forgets it). */
int cmt_current(struct ftl *f, uint32_t lpn, uint32_t ppa);
/* Starts queued translation page operations and translation GC; 1 if it
 * loaded entries waiting commands need (retry them). */
int cmt_pump(struct ftl *f);
/* A TAG_TRANS completion; 1 if it loaded entries waiting commands need. */
int cmt_flash_done(struct ftl *f, const struct fc_cqe *c);
int cmt_busy(const struct ftl *f);
/* Recovery (cmt_recover.c drives it, f->cmt.rec set): lpn's entry of the
 * scratch table, or with make a new one (no slot yet) on its page's list of
 * candidates (while scanning, round 0) or of wants (round 1); FTL_NONE if
 * none or full. cmt_rec_flag: page tp is fixed up by its next merge (read,
 * fix, programmed if it changed). cmt_rec_region: the translation region
 * from the `found` blocks the scan filled in (rblk, rindex, rwp, rtp) plus
 * free blocks; 0 or -1. */
uint32_t cmt_rec_entry(struct ftl *f, uint32_t lpn, int make);
void cmt_rec_flag(struct ftl *f, uint32_t tp);
int cmt_rec_region(struct ftl *f, uint32_t found);
/* Inconsistencies of the directory and the region (ftl_self_check). */
uint64_t cmt_self_check(const struct ftl *f);

/* ---- alloc.c: write frontiers ---------------------------------------------- */
enum place_result { PLACE_OK = 0, PLACE_WAIT = 1, PLACE_YIELD = 2 };
/* Places one LBA (token, lpn) on frontier fr. PLACE_WAIT if it must wait (no
 * page buffer, or no free block: host data may not open a block once free
 * blocks are down to the GC reserve; for_gc may). PLACE_YIELD if it opened a
 * free block for the LBA and did not place it yet: schedule GC, then call
 * again with the same LBA. After PLACE_OK, f->gc_pending set means the page
 * closed its block: the caller yields before its next step. */
int place_lba(struct ftl *f, struct frontier *fr, uint32_t lpn, uint32_t token, int for_gc);
/* Pads and programs the open pages of every host class; STEP_YIELD after one
 * closed a block (call again to go on), STEP_DONE when all are programmed. */
int frontier_flush_host(struct ftl *f);
/* Pads and programs frontier fr's partly filled page, if it has one (1). */
int frontier_flush_one(struct ftl *f, struct frontier *fr);
/* A program submitted: in flight, counted in flush epoch `epoch` (the flushes
 * of that epoch and later wait for it). */
static inline void program_issued_in(struct ftl *f, uint32_t epoch) {
  f->programs_inflight++;
  f->epoch_programs[epoch % FTL_FLUSH_EPOCHS]++;
}
/* A program submitted (page buffer, trim log page, open-channel write): in
 * flight, counted in the open flush epoch, which it returns. */
static inline uint32_t program_issued(struct ftl *f) {
  program_issued_in(f, f->flush_epoch);
  return f->flush_epoch;
}
/* A program of flush epoch `epoch` no longer in flight. */
static inline void program_retired(struct ftl *f, uint32_t epoch) {
  f->programs_inflight--;
  f->epoch_programs[epoch % FTL_FLUSH_EPOCHS]--;
}
/* ftl.gc.durable: pads and programs the partly filled page of frontiers
 * [0, n) (place_frontiers: the host's write points and GC's); the sequence
 * number of the newest program submitted, which a victim's erase waits for
 * (never 0). */
uint32_t frontier_flush_all(struct ftl *f, uint32_t n);
/* The lowest sequence number of a program in flight (FTL_NONE: none). */
uint32_t program_seq_in_flight_min(const struct ftl *f);
/* The next page row of frontier fr for relocated data (vcopy.c): 0 (*row
 * set), 1 if it opened a block first (call again), -1 if it has none now. */
int frontier_take_row(struct ftl *f, struct frontier *fr, uint32_t *row);
/* Closes frontier fr's open blocks (a released stream, directives.c): its
 * partly filled page is padded and programmed, and each open block becomes a
 * GC candidate as it stands, its unwritten pages left erased until GC
 * collects it. The frontier opens fresh blocks on its next write. */
void frontier_close(struct ftl *f, struct frontier *fr);
/* Frontiers relocated data goes to that have no open block, but `except`
 * (each needs a free block before it can take a page). */
uint32_t gc_frontiers_empty(const struct ftl *f, uint32_t except);
/* Recovery (power.c): block blk, OPEN, has pages [0, wp) programmed or torn
 * and the rest erased; it becomes the open block of a frontier whose lane
 * has none (frontiers GC writes to first), its next page at wp. 0 if every
 * frontier has a block open on that lane (the caller closes it). */
int frontier_adopt(struct ftl *f, uint32_t blk, uint32_t wp);
/* A program completed (the loop's dispatch). */
void program_done(struct ftl *f, uint32_t b, int status);
/* ftl.multiplane_hold: submits every page held for its plane siblings (flush,
 * checkpoint, power fail); the pages were counted as programs in flight. */
void frontier_release_held(struct ftl *f);
/* ftl.multiplane_hold: submits the held pages that waited their bound, or all
 * when no flash operation is outstanding (the end of every loop pass); 1 if
 * it submitted any. */
int frontier_hold_poll(struct ftl *f);

/* ---- place.c: write classes ------------------------------------------------ */
/* Frontier count and DRAM for a configuration. */
uint32_t place_frontiers(const struct ftl_config *c);
uint32_t place_slices(const struct ftl_config *c);
uint64_t place_dram_bytes(const struct ftl_config *c);
/* Carves the monitor's tables from DRAM at off; 0 or -1. */
int place_init(struct ftl *f, uint64_t off);
/* A host write command of n LBAs at slba (monitoring; may recluster). */
void place_note_write(struct ftl *f, uint64_t slba, uint32_t n);
/* The frontier a host LBA goes to, with the command's stream ID. */
struct frontier *place_host(struct ftl *f, uint32_t lpn, uint32_t stream);
/* The frontier place_host returns for every LBA and stream, or NULL when it
 * depends on them (streams, hotness slices). */
const struct frontier *place_host_only(const struct ftl *f);
/* The frontier a relocated LBA goes to. */
struct frontier *place_gc(struct ftl *f, uint32_t lpn);

/* What gcsched_want() answers (gcsched.c). */
enum gc_want { GC_WANT_NONE = 0, GC_WANT_FOREGROUND = 1, GC_WANT_BACKGROUND = 2 };

/* ---- gc.c: GC jobs ------------------------------------------------------------ */
/* The lowest idle job slot, or FTL_NONE. */
uint32_t gc_idle_job(const struct ftl *f);
/* A GC episode ends: no victim open and the trigger wants none (loop.c). */
void gc_episode_end(struct ftl *f);
/* Starts job j on victim blk (wear: a wear-levelling victim). */
void gc_start(struct ftl *f, uint32_t j, uint32_t blk, uint32_t wear);
/* ftl.gc.pair_planes: starts idle jobs on the closed siblings of job j's
 * victim at its block offset in the die's other planes that qualify. */
void gc_pair(struct ftl *f, uint32_t j);
/* Issues victim reads for every running job while GC buffers allow. */
void gc_issue_reads(struct ftl *f);
/* A victim read completed: its slots wait to be placed, and are placed now
 * if nothing waits before them (STEP_YIELD: continue with gc_relocate). */
int gc_read_done(struct ftl *f, uint32_t b, int status, uint32_t retries);
/* Places waiting relocated data in order until something must wait. */
int gc_relocate(struct ftl *f);
/* Host speed only: prefetches the L2P entries GC read buffer b's slots will
 * check and update (no simulated cost; loop.c calls it on the native build
 * only, as the RV32 build's instructions are its time). */
void gc_prefetch(const struct ftl *f, uint32_t b);
/* ftl.gc.durable: erases victims whose relocated data is programmed now. */
void gc_erase_ready(struct ftl *f);
/* An erase completed: the block is free again. */
void gc_erase_done(struct ftl *f, uint32_t blk, int status);
/* A copyback of GC buffer b completed (copyback.c does the mapping). */
int gc_copyback_done(struct ftl *f, uint32_t b, int status, uint32_t hops);

/* A copy of GC buffer b completed (vcopy.c does the mapping). */
int gc_vcopy_done(struct ftl *f, uint32_t b, int status);

/* ---- gcsched.c: when GC collects ---------------------------------------------- */
/* Sets up the trigger's state (the timer's interrupt line for idle). */
void gcsched_init(struct ftl *f);
/* Whether GC should start another victim now (ftl.gc.trigger); background:
 * idle-time GC. Called by gc_schedule while a job slot is idle. */
enum gc_want gcsched_want(struct ftl *f);
/* Free blocks plus erases in flight are below ftl.gc.threshold_blocks. */
int gcsched_below_threshold(const struct ftl *f);
/* GC reads a job may have in flight (autossd's share; FTL_NONE: no limit). */
uint32_t gcsched_read_limit(const struct ftl *f);
/* A host command arrived (hostif.c): idle-time GC stops starting victims. */
void gcsched_host_arrival(struct ftl *f);
/* Each loop pass: the timer, host idleness, AutoSSD's share; 1 if GC may
 * start now where it could not before. */
int gcsched_poll(struct ftl *f);
/* Before the loop waits for an interrupt: arms the timer for idleness. */
void gcsched_sleep(struct ftl *f);

/* ---- vcopy.c: GC moves by copy ------------------------------------------------ */
/* GC job `job` is at victim page row (valid slots mask): 1 if its valid
 * slots went into the job's copy units, 0 if it is to be read (copy off),
 * -1 if there is no GC buffer for its units now (the job stays at the page). */
int vcopy_add(struct ftl *f, uint32_t job, uint32_t row, uint32_t mask);
/* Every page of the job's victim was seen: its last unit is padded and sent. */
void vcopy_victim_done(struct ftl *f, uint32_t job);
/* Sends the full units waiting for a row of the GC frontier. */
void vcopy_submit_ready(struct ftl *f);
/* A copy of GC buffer b completed: the LBAs it moved and still current are
 * mapped to it; returns how many, or FTL_NONE if it goes out again (its
 * program failed). */
uint32_t vcopy_done(struct ftl *f, uint32_t b, int status);

/* ---- copyback.c: GC moves by copyback ---------------------------------------- */
uint64_t copyback_dram_bytes(const struct ftl_config *c);
int copyback_config_check(const struct ftl_config *c, char *msg, size_t msg_len);
/* Carves the hop counts and the per-plane destinations at DRAM offset off; 0 or -1. */
int copyback_init(struct ftl *f, uint64_t off);
/* GC job `job` is at victim page row (valid slots mask): 1 if the page went
 * to a copyback (a GC buffer taken for its OOB, the destination page
 * allocated), 0 if it is to be read through the controller. */
int copyback_try(struct ftl *f, uint32_t job, uint32_t row, uint32_t mask);
/* A copyback of GC buffer b completed (hops: the destination's count from
 * its OOB): the LBAs it moved and still current are mapped to the copy;
 * returns how many, or FTL_NONE if the page must be read through the
 * controller instead (the copy failed). */
uint32_t copyback_done(struct ftl *f, uint32_t b, int status, uint32_t hops);
/* Block blk was erased: its pages' hop counts are 0 again. */
void copyback_erased(struct ftl *f, uint32_t blk);

/* ---- cmt_recover.c: recovery with the cached mapping --------------------------- */
/* recover_scan's work with ftl.mapping: cached (the same contract). */
int cmt_recover(struct ftl *f);

/* ---- power.c: power loss and recovery ---------------------------------------- */
/* After ftl_init on a NAND array that holds data: rebuilds the L2P from the
 * OOB (newest sequence number wins), validity, block states and free lists.
 * 0, or -1 (logged). */
int recover_scan(struct ftl *f);

/* ---- trimlog.c: the trim log --------------------------------------------------- */
/* Without checkpoints, power.trim_log.mode on: the log in areas of its own
 * (the full table only: with the cached mapping ftl_config_check refuses it). */
static inline int tlog_own_cfg(const struct ftl_config *c) {
  return c->trim_log == FTL_TLOG_ON && c->ckpt_interval_ns == 0 && c->ckpt_interval_lbas == 0;
}
/* Blocks both its own areas reserve (0: none). */
uint32_t tlog_own_blocks(const struct ftl_config *c);
/* Bitmap pages at the start of an own area. */
uint32_t tlog_bm_pages(const struct ftl_config *c);
/* DRAM it needs: after the checkpoint's, or its own (0: none). */
uint64_t tlog_dram_bytes(const struct ftl_config *c);
/* At power-up (ckpt_init): its DRAM at bus address bus. */
void tlog_init(struct ftl *f, uint32_t bus);
/* 1 if a deallocation may be logged now (always without a log); 0 while
 * a checkpoint or a move is under way, the page's program is in flight or the area is
 * full (a checkpoint or move is then asked for); a full page is programmed. */
int tlog_room(struct ftl *f);
/* Logs the deallocation of LBAs [slba, slba + n) with the next sequence number. */
void tlog_add(struct ftl *f, uint64_t slba, uint64_t n);
/* Programs the DRAM page if it holds records (a flush, the power-fail
 * handler); counted as a program in flight. 1 if submitted. */
int tlog_program(struct ftl *f);
/* Its program completed (ckpt_done). */
void tlog_done(struct ftl *f, uint32_t idx, int status);
/* For tlogmove.c: a log page's bytes; the DRAM of the page and its program
 * buffer; the page set up at bus; the flash row of page i of area a (striped
 * as a checkpoint image's pages); pages left in the current area; the OOB of
 * a metadata page (magic, index, generation). */
uint32_t tlog_page_bytes(const struct ftl_config *c);
uint64_t tlog_page_dram(const struct ftl_config *c);
int tlog_page_init(struct ftl *f, uint32_t bus);
uint32_t tlog_area_row(const struct ftl *f, uint32_t a, uint32_t i);
uint32_t tlog_pages_left(const struct ftl *f);
void tlog_meta_oob(struct ftl *f, uint32_t magic, uint32_t idx, uint32_t gen);
/* GC barrier (own areas): 0 if a victim may be erased now; else the sequence
 * number of the newest record not yet on flash (its page is submitted). */
uint32_t tlog_barrier(struct ftl *f);
/* Whether every record up to sequence number seq is on flash (a barrier's wait is over). */
int tlog_durable_through(const struct ftl *f, uint32_t seq);
/* A checkpoint of generation gen completed in area a: the log starts again
 * after its image, at page index base (the records so far are in the snapshot). */
void tlog_checkpoint_done(struct ftl *f, uint32_t a, uint32_t gen, uint32_t base);
/* Recovery: where the log of checkpoint gen (in area a after its image, at
 * page index base; gen 0: none loaded) is, then its page i read back: 0 (*recs, *n set), 1 torn or unreadable
 * (skip it), -1 past its end. Afterwards the log goes on after the last page read.
 * Own areas: a and base are ignored; the area is the newest whose bitmap reads back whole
 * (tlog.bm_valid; the bitmap is then in tlog.bitmap). */
void tlog_recover_begin(struct ftl *f, uint32_t a, uint32_t gen, uint32_t base);
int tlog_read(struct ftl *f, uint32_t i, const uint32_t **recs, uint32_t *n);
/* Recovery (own areas), after the replay: the next move goes to the other area. */
void tlog_recover_end(struct ftl *f);

/* ---- tlogmove.c: the trim log's own areas --------------------------------------- */
/* At power-up without checkpoints: its DRAM at offset off, its areas reserved; 0 or -1 (logged). */
int tlog_own_init(struct ftl *f, uint64_t off);
/* Own areas: the move to the other area (bitmap, erase, bitmap pages); nonzero if it did work. */
int tlog_poll(struct ftl *f);

/* ---- ckpt.c: checkpoints ---------------------------------------------------- */
static inline int ckpt_enabled(const struct ftl_config *c) {
  return c->ckpt_interval_ns != 0 || c->ckpt_interval_lbas != 0;
}
uint32_t ckpt_image_bytes(const struct ftl_config *c);
uint32_t ckpt_pages(const struct ftl_config *c);       /* flash pages of one checkpoint */
uint32_t ckpt_area_blocks(const struct ftl_config *c); /* blocks of one area (0: checkpoints off) */
uint64_t ckpt_dram_bytes(const struct ftl_config *c);  /* image, buffers, area list (0: off) */
/* Takes n blocks out of the free pool for good into out (the checkpoints'
 * and the trim log's areas); 0, or -1 (logged, naming what). */
int reserve_area_blocks(struct ftl *f, uint32_t *out, uint32_t n, const char *what);
/* 1 when no program is in flight and no frontier holds a filled page: every
 * L2P entry points at a programmed page (a checkpoint's or the trim log's
 * drain, with placement waiting: ckpt.draining). */
int ckpt_drained(const struct ftl *f);
/* Carves the image at DRAM offset off and reserves the two areas (after the
 * factory bad blocks are known); 0 or -1. */
int ckpt_init(struct ftl *f, uint64_t off);
int ckpt_is_area_block(const struct ftl *f, uint32_t blk);
uint32_t ckpt_row(const struct ftl *f, uint32_t area, uint32_t page);
/* The loop's stage: starts a checkpoint when due and drives it (nonzero if
 * it did work). */
int ckpt_poll(struct ftl *f);
/* A checkpoint erase or program completed. */
void ckpt_done(struct ftl *f, uint32_t idx, int status);
/* Recovery: reads the newest complete checkpoint into the image (the older
 * one if the newest does not read back whole); 0, or -1 if there is none. */
int ckpt_load(struct ftl *f);

/* ---- flashif.c: flash rings ----------------------------------------------- */
/* ftl.multiplane: planes a lane set and a multi-plane group span (1: off). */
static inline uint32_t mp_planes_of(const struct ftl_config *c) {
  return c->multiplane && c->planes_per_die > 1 ? c->planes_per_die : 1;
}
static inline uint32_t mp_planes(const struct ftl *f) { return mp_planes_of(&f->cfg); }
/* ftl.multiplane_hold: DRAM after the frontiers' open blocks for held page
 * buffers (4 B) and their times (8 B) per lane and frontier; 0 when nothing
 * is ever held. */
static inline uint64_t mp_hold_bytes(const struct ftl_config *c) {
  if (mp_planes_of(c) < 2 || !c->mp_hold_ns) return 0;
  return (uint64_t)c->channels * c->dies_per_channel * mp_planes_of(c) * 12 * FTL_MAX_FRONTIERS;
}
/* The plane of block b (ssdvp_hw.h: block-in-die i is in plane i % planes). */
static inline uint32_t block_plane(const struct ftl *f, uint32_t b) {
  return f->cfg.planes_per_die > 1 ? (b % f->cfg.blocks_per_die) % f->cfg.planes_per_die : 0;
}
/* The index of block b within its plane (block-in-die / planes). */
static inline uint32_t block_index(const struct ftl *f, uint32_t b) {
  return f->cfg.planes_per_die > 1 ? (b % f->cfg.blocks_per_die) / f->cfg.planes_per_die : b % f->cfg.blocks_per_die;
}
/* Blocks a and b of one die may be in one multi-plane group as far as the
 * same-block-index rule goes (ftl_config.mp_same_block; off: always). */
static inline int mp_index_match(const struct ftl *f, uint32_t a, uint32_t b) {
  return !f->cfg.mp_same_block || block_index(f, a) == block_index(f, b);
}
void flash_submit(struct ftl *f, uint8_t op, uint32_t tag, uint32_t row, uint32_t mask, uint32_t buf);
/* The same with a metadata payload (fc_sqe.meta): bytes at bus address meta
 * programmed with the page, or read back into it. */
void flash_submit_meta(struct ftl *f, uint8_t op, uint32_t tag, uint32_t row, uint32_t buf, uint32_t meta,
                       uint32_t meta_bytes);
/* The descriptor just submitted is a COPYBACK: these slots' LPNs are dropped
 * from the copy's OOB (FC_COPYBACK_DROP, ssdvp_hw.h). */
void flash_copyback_drop(struct ftl *f, uint32_t slots);
/* The descriptor just submitted is a read a host command waits for (a
 * translation page read on a cache miss): FC_HINT_HOST, as host reads have. */
void flash_hint_host(struct ftl *f);
/* ORs hint (FC_HINT_*) into the descriptor just submitted. */
void flash_hint(struct ftl *f, uint8_t hint);
/* ftl.gc.preempt: the hint of a GC operation submitted now, FC_HINT_GC while
 * free blocks are above the reserve (at the reserve host writes wait for GC,
 * so GC must not wait for the host). */
static inline uint8_t flash_gc_hint(const struct ftl *f) {
  return f->cfg.gc_preempt != FTL_GC_PREEMPT_OFF && f->free_total > f->cfg.gc_reserve_blocks ? FC_HINT_GC : 0;
}
int flash_doorbell(struct ftl *f); /* nonzero if it rang */
/* Completions: flash_cq_fetch() reads the controller's tail, or with
 * ftl.flash_cq_phase looks for phase-tagged entries in DRAM (0: nothing new),
 * flash_cq_pop() hands them out one by one, flash_cq_release() returns the
 * ring's head to the controller. */
int flash_cq_fetch(struct ftl *f);
int flash_cq_pop(struct ftl *f, struct fc_cqe *c);
void flash_cq_release(struct ftl *f);
/* Recovery, one operation at a time: rings the doorbell and waits for the
 * next completion into *c; 0 if it has tag, else -1 (logged, fatal). */
int flash_wait_one(struct ftl *f, uint32_t tag, struct fc_cqe *c);

/* ---- hostif.c: the NVM command set --------------------------------------- */
/* Stages of the loop (STEP_DONE if any work, | STEP_YIELD to schedule GC and
 * call again): the transfer-done ring, the command ring, the wait list. */
int host_transfers_done(struct ftl *f);
int host_commands(struct ftl *f);
int host_resume_waiting(struct ftl *f);
/* The NVM command set's cmdset_ops (loop.c's table). */
int host_decode(struct ftl *f, uint32_t c, const struct nvme_cmd_entry *e);
int host_xfer_done(struct ftl *f, uint32_t c, uint32_t kind, uint32_t status);
void host_read_done(struct ftl *f, uint32_t b, int status, uint32_t retries);
/* Completes the flush commands (and FUA writes) whose programs are done
 * (ftl.flush.scope, hostif.c). */
void host_check_flush(struct ftl *f);
int cmd_place_writes(struct ftl *f, uint32_t c);
int cmd_start_read(struct ftl *f, uint32_t c);
uint64_t cmd_trim(struct ftl *f, uint64_t slba, uint64_t n);
/* Deallocate commands that waited for room in the cached mapping's log go on
 * (the loop); 1 if one completed. */
int host_resume_trims(struct ftl *f);

/* ---- directives.c ------------------------------------------------------- */
/* Executes an admin command (submission queue 0): returns its status, or
 * ADMIN_HELD for an Asynchronous Event Request kept by gcgate.c (the loop
 * completes it at an event); *send bytes of data for the host are in the
 * command's staging area (0: none); completion dword 0 in cmd->dw0.
 * Directive Send/Receive run here; Set Features, AER and the vendor GC lock
 * go to gcgate_admin(). */
#define ADMIN_HELD GCGATE_HELD
uint16_t admin_execute(struct ftl *f, struct fw_cmd *cmd, const struct nvme_sqe *q, uint32_t *send);
/* ---- queues.c ----------------------------------------------------------- */
/* Create I/O CQ/SQ, Set/Get Features Arbitration (01h): the status, or
 * QUEUES_NOT_MINE for another command (another Set Features identifier);
 * completion dword 0 in *dw0 (Get Features). */
#define QUEUES_NOT_MINE (-1)
int queues_admin(struct ftl *f, uint8_t opcode, const struct nvme_sqe *q, uint32_t *dw0);
/* Status of a write with the Streams directive and stream identifier dspec;
 * opens the stream when it is not yet open. */
uint16_t streams_write_check(struct ftl *f, uint32_t dspec);

/* ---- ocssd.c: the open-channel and zoned command sets ----------------------- */
/* Their cmdset_ops (cmdset_open_channel, cmdset_zns, above): ftl_poll's whole
 * pass under nvme.command_set open_channel and zns. */

/* ---- zns.c: the zoned personality (called by ocssd.c) ---------------------- */
/* The staging area's sector list (ocssd.c's OC_LIST_OFF) and its skip mark. */
#define ZNS_LIST_OFF 2048u
#define ZNS_LIST_SKIP UINT64_MAX
/* What ocssd.c does with a command zns_decode() took: nothing (completed),
 * fetch its data or start it (writes, appends, reads: zns_prepare() at the
 * start), send *bytes of the staging area to the host (Report Zones), or run
 * its erases (a reset: zns_submit_reset()). */
enum zns_next { ZNS_NEXT_DONE = 0, ZNS_NEXT_DATA = 1, ZNS_NEXT_SEND = 2, ZNS_NEXT_RESET = 3 };
int zns_init(struct ftl *f, uint8_t *zone_state);
enum zns_next zns_decode(struct ftl *f, uint32_t c, const struct nvme_sqe *q, uint32_t *bytes);
/* At the command's start (in command order): the zone checks and state
 * changes, and its sector list; a status other than success refuses it. */
uint16_t zns_prepare(struct ftl *f, struct fw_cmd *cmd);
/* Issues a reset's erases from where it stopped: STEP_WAIT without ring room. */
int zns_submit_reset(struct ftl *f, uint32_t c);
/* Admin commands of the personality (Identify): status, or ZNS_NOT_MINE. */
#define ZNS_NOT_MINE 0xffffu
uint16_t zns_admin(struct ftl *f, struct fw_cmd *cmd, const struct nvme_sqe *q, uint32_t *bytes);
/* Media events: a program of blk failed (its zone becomes read-only); an
 * erase of blk failed (its zone goes offline). */
void zns_program_failed(struct ftl *f, uint32_t blk);
void zns_erase_failed(struct ftl *f, uint32_t blk);

/* ---- nvmet.c: the NVMe transport ------------------------------------------- */
/* Command slots: a free one (FTL_NONE: none), and its release. */
uint32_t nvmet_cmd_alloc(struct ftl *f);
void nvmet_cmd_release(struct ftl *f, uint32_t c);
/* Completes command c (and releases its slot), with a command-specific
 * result in completion dword 0 for the _dw0 form (gcgate.c's admin commands). */
void nvmet_complete(struct ftl *f, uint32_t c, uint16_t status);
void nvmet_complete_dw0(struct ftl *f, uint32_t c, uint16_t status, uint32_t dw0);
/* A transfer for command c (op, DRAM and host addresses, n tokens or bytes,
 * tag echoed in its DONE entry), and the XFER doorbell (1 if rung). */
void nvmet_xfer(struct ftl *f, uint8_t op, uint32_t c, uint32_t tag, uint32_t dram, uint64_t host, uint32_t n);
int nvmet_doorbell(struct ftl *f);
/* Queues command slot c to be resumed when buffers, blocks or ring room free up. */
void nvmet_wait_push(struct ftl *f, uint32_t c);
/* The part of decoding every command set shares: the command's fields from
 * its SQE, the decode cost; 0 if that already completed it (fused or SGL). */
int nvmet_cmd_begin(struct ftl *f, uint32_t c, const struct nvme_cmd_entry *e);
/* Reads the producer index of NVMe ring r from register reg: 1 if entries
 * arrived. Inline: the loop asks on every pass (a call would save registers
 * first on the RV32 core, mostly to find nothing). */
static inline int nvmet_ring_fetch(struct ftl *f, struct ring *r, uint32_t reg) {
  const uint32_t tail = hal_read32(f->hal, SSDVP_NVME_BASE + reg);
  if (tail == r->head || tail >= r->size) return 0;
  r->tail = tail;
  return 1;
}
/* The CMD ring: nvmet_cmd_fetch reads CMD_TAIL (1: commands arrived);
 * nvmet_cmd_drain takes them into slots through f->cs->decode, and writes
 * CMD_HEAD unless a decode yielded (STEP_YIELD: call it again to go on). */
static inline int nvmet_cmd_fetch(struct ftl *f) { return nvmet_ring_fetch(f, &f->nt.ncmd, NVME_CMD_TAIL); }
int nvmet_cmd_drain(struct ftl *f);
/* The DONE ring: nvmet_done_fetch reads DONE_TAIL (1: transfers completed);
 * nvmet_done_drain hands them to f->cs->xfer_done and writes DONE_HEAD
 * unless one yielded (STEP_YIELD: call it again to go on). */
static inline int nvmet_done_fetch(struct ftl *f) { return nvmet_ring_fetch(f, &f->nt.ndone, NVME_DONE_TAIL); }
int nvmet_done_drain(struct ftl *f);

#endif /* SSDVP_FTL_INTERNAL_H */
