/*
 * cmt.h - the cached mapping table (DFTL, Gupta et al., ASPLOS 2009) of
 * ftl.mapping: cached; the state cmt.c keeps in struct ftl.
 *
 * The L2P is split into translation pages of tp_entries entries (one flash
 * page of 4-byte entries). Their current copies live in flash, in blocks set
 * aside for them (the translation region, a frontier of its own with its own
 * GC); the global translation directory (gtd, in DRAM) gives the row of each
 * translation page. The cache holds up to `entries` mapping entries in LRU
 * order; a dirty entry is written back, with every other dirty cached entry of
 * its translation page (DFTL's batching), by a read-modify-write of that page
 * when it is evicted.
 *
 * The model keeps the whole L2P in DRAM as well (f->l2p): it stands for the
 * contents of the translation pages, which a page of this flash model (a few
 * 32-bit tokens) cannot hold. The cache decides what costs what: a host access
 * whose entry is not cached waits for a real, timed flash read of its
 * translation page; write-backs and translation GC are real reads, programs
 * and erases.
 */
#ifndef SSDVP_CMT_H
#define SSDVP_CMT_H

#include <stdint.h>

/* A translation page operation: read (a miss, or the read of a
 * read-modify-write), then a program when it writes the page back. */
enum cmt_op_state { CMT_OP_FREE = 0, CMT_OP_READ = 1, CMT_OP_ROWWAIT = 2, CMT_OP_PROGRAM = 3 };

struct cmt_op {
  uint8_t state; /* enum cmt_op_state */
  uint8_t wb;    /* program the page after the read */
  uint8_t tgc;   /* a translation GC move (may take the last free block) */
  uint8_t rsvd;
  uint32_t tp;   /* translation page */
  uint32_t dram; /* bus address of its page buffer */
  uint32_t *token;
};

struct cmt {
  int on;                    /* ftl.mapping: cached */
  uint32_t entries;          /* capacity (ftl.cmt.entries, at most the namespace's LBAs) */
  uint32_t used;             /* entries in use */
  uint32_t tp_entries;       /* mapping entries per translation page */
  uint32_t tps;              /* translation pages */
  uint32_t *where;           /* [LBAs] cache entry of the LBA, or FTL_NONE */
  uint32_t *e_lpn;           /* [entries] */
  uint32_t *e_prev, *e_next; /* [entries] LRU links (head: most recent) */
  uint32_t *e_gen;           /* [entries] CMT_DIRTY, CMT_LOADED, translation page generation */
  uint32_t lru_head, lru_tail;
  uint32_t last_lpn;  /* the last lookup that found its entry (a retry of it is not counted again) */
  uint32_t *gtd;      /* [tps] row of the current copy, or FTL_NONE (never written) */
  uint32_t *tp_gen;   /* [tps] write-back generation: an entry is dirty only for its generation */
  uint32_t *tp_dirty; /* [tps] dirty cached entries */
  uint8_t *tp_flags;  /* [tps] CMT_TP_* */
  uint32_t *queue;    /* translation pages waiting for an operation: two FIFO rings of qsize, */
  uint32_t qsize;     /* [0] write-backs, [1] misses (a host command waits: served first) */
  uint32_t qhead[2], qtail[2];
  /* translation region */
  uint32_t rblocks; /* blocks */
  uint32_t *rblk;   /* [rblocks] block number */
  uint32_t *rvalid; /* [rblocks] current translation pages in it */
  uint32_t *rwp;    /* [rblocks] next page to program */
  uint32_t *rtp;    /* [rblocks * pages_per_block] translation page programmed there */
  uint32_t *rindex; /* [blocks] region index, or FTL_NONE */
  uint32_t *rfree;  /* stack of free region indices */
  uint32_t nfree;
  uint32_t open;      /* region index being written, or FTL_NONE */
  uint32_t victim;    /* translation GC victim (region index), or FTL_NONE */
  uint32_t vpage;     /* its next page to examine */
  int erasing;        /* the victim's erase is in flight */
  struct cmt_op *ops; /* [nops]; the last is translation GC's */
  uint32_t nops;
  uint32_t inflight; /* flash operations outstanding */
  uint32_t rowwait;  /* operations waiting for a row */
};

#define CMT_DIRTY 0x80000000u
#define CMT_LOADED 0x40000000u /* brought in for a waiting access: its first lookup counts as the miss */
#define CMT_GEN_MASK 0x3fffffffu

/* WANT_*: what the next operation on the page must do; INQ_*: the page is in
 * that ring (at most once each; an entry whose page is busy or wants nothing
 * any more is skipped); BUSY: an operation runs on it. */
enum cmt_tp_flag { CMT_TP_WANT_READ = 1, CMT_TP_WANT_WB = 2, CMT_TP_INQ_WB = 4, CMT_TP_BUSY = 8, CMT_TP_INQ_MISS = 16 };

#endif /* SSDVP_CMT_H */
