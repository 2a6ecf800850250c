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
 * Nothing else holds the table: DRAM has the GTD, the cache, a log of pending
 * updates and the operations' buffers (cmt_dram_bytes), and a translation
 * page's tp_entries entries go to flash as bytes with the page (the flash
 * controller's metadata payload, fc_sqe.meta) and come back from it when the
 * page is read. An update of an entry that is not cached (a GC move, a trim)
 * goes into the log until its translation page's next write-back merges it
 * (read, merge, program). A trim of an entry that is not cached does not know
 * the slot the LBA had: that slot stays valid until the merge reads the old
 * entry (or GC finds the slot and sees the LBA maps elsewhere), then it is
 * invalidated (a deferred invalidation, LOG_INVAL).
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
  uint32_t seq;  /* its copy's sequence number, taken when the merge ends (cmt_recover.c) */
  uint32_t dram; /* bus address of its page buffer */
  uint32_t *token;
  uint32_t meta; /* bus address of its entries (the metadata payload) */
  uint32_t *ent; /* [tp_entries] the page's entries */
};

/* Recovery's scratch (cmt_recover.c), in the DRAM above the layout while
 * ftl_recover runs: candidates are LBAs a data page newer than their
 * translation page's copy maps (round 1); wants are LBAs whose entry named a
 * page lost or written again, whose newest older copy the second scan looks
 * for (round 2). */
struct cmt_rec {
  uint32_t *rseq;                    /* [pages] sequence number of each data page read (0: none, torn) */
  uint32_t *tseq;                    /* [tps] sequence number of the copy the directory names (0: none) */
  uint32_t *chead, *whead;           /* [tps] first candidate, first want of the page */
  uint32_t *c_lpn, *c_ppa, *c_tnext; /* [cap] LBA, slot found (FTL_NONE: none yet), next of its page */
  uint32_t *c_hnext, *hhead;         /* [cap], [2^hbits]: by LBA */
  uint32_t cap, used, hbits;
  uint32_t pending; /* pages flagged CMT_TP_REC not fixed yet */
  uint32_t wants;   /* wants made by round 1 */
  int round;        /* 1: validate and apply candidates; 2: apply the wants found */
};

struct cmt {
  int on;                        /* ftl.mapping: cached */
  uint32_t entries;              /* capacity (ftl.cmt.entries, at most the namespace's LBAs) */
  uint32_t used;                 /* entries in use */
  uint32_t tp_entries;           /* mapping entries per translation page */
  uint32_t tps;                  /* translation pages */
  uint32_t hbits;                /* the cache's index: 2^hbits hash buckets */
  uint32_t *hhead;               /* [2^hbits] first entry of the bucket, or FTL_NONE */
  uint32_t *e_hnext;             /* [entries] next entry of the bucket */
  uint32_t *e_lpn;               /* [entries] */
  uint32_t *e_ppa;               /* [entries] the mapping entry: slot address, FTL_UNMAPPED or FTL_LOST */
  uint32_t *e_prev, *e_next;     /* [entries] links of its LRU list (head: most recent) */
  uint32_t *e_flags;             /* [entries] CMT_DIRTY, CMT_LOADED, CMT_PROT */
  uint32_t lru_head, lru_tail;   /* the probationary list (every entry with plain LRU) */
  uint32_t prot_head, prot_tail; /* ftl.cmt.policy slru: the protected list */
  uint32_t prot_used, prot_cap;  /* its entries; at most (ftl.cmt.protected % of entries; 0: plain LRU) */
  uint32_t last_lpn;             /* the last lookup that found its entry (a retry of it is not counted again) */
  uint32_t *gtd;                 /* [tps] row of the current copy, or FTL_NONE (never written) */
  uint32_t *tp_dirty;            /* [tps] dirty cached entries */
  uint32_t *tp_log;              /* [tps] first pending update of the page in the log, or FTL_NONE */
  uint8_t *tp_flags;             /* [tps] CMT_TP_* */
  uint32_t *queue;               /* translation pages waiting for an operation: two FIFO rings of qsize, */
  uint32_t qsize;                /* [0] write-backs, [1] misses (a host command waits: served first) */
  uint32_t qhead[2], qtail[2];
  /* the log of pending updates of entries that are not cached */
  uint32_t lcap;                 /* entries for ordinary updates (ftl.cmt.log_entries) */
  uint32_t ltotal;               /* lcap plus a reserve for rewrites after a program failure or a lost page */
  uint32_t lused, lfree;         /* in use; free list (through l_tnext) */
  uint32_t lbits;                /* 2^lbits hash buckets */
  uint32_t *lhead;               /* [2^lbits] */
  uint32_t *l_lpn, *l_val;       /* [ltotal] LBA and its newest entry */
  uint32_t *l_hnext;             /* [ltotal] next of the bucket */
  uint32_t *l_tnext;             /* [ltotal] next of the translation page (or of the free list) */
  uint8_t *l_flags;              /* [ltotal] LOG_INVAL */
  int room_wait;                 /* a lookup waited for room in the log */
  int woke;                      /* a merge made room since: waiting commands are retried */
  uint32_t trim_head, trim_tail; /* deallocate commands waiting for room in the log (hostif.c) */
  /* translation region */
  uint32_t rblocks; /* blocks */
  uint32_t *rblk;   /* [rblocks] block number */
  uint32_t *rvalid; /* [rblocks] current translation pages in it */
  uint32_t *rwp;    /* [rblocks] next page to program */
  uint32_t *rtp;    /* [rblocks * pages_per_block] translation page programmed there */
  uint32_t *rindex; /* [blocks] region index, or FTL_NONE */
  uint32_t *rfree;  /* stack of free region indices */
  uint32_t nfree;
  uint32_t lanes;  /* open blocks written in turn (ftl.cmt.stripe, one per die) */
  uint32_t *lopen; /* [lanes] region index being written, or FTL_NONE */
  uint32_t next_lane;
  uint32_t victim;    /* translation GC victim (region index), or FTL_NONE */
  uint32_t vpage;     /* its next page to examine */
  int erasing;        /* the victim's erase is in flight */
  struct cmt_op *ops; /* [nops]; the last is translation GC's */
  uint32_t nops;
  uint32_t inflight;   /* flash operations outstanding */
  uint32_t rowwait;    /* operations waiting for a row */
  struct cmt_rec *rec; /* during recovery only (cmt_recover.c) */
};

#define CMT_DIRTY 1u
#define CMT_LOADED 2u /* brought in for a waiting access: its first lookup counts as the miss */
#define CMT_PROT 4u   /* on the protected list (ftl.cmt.policy: slru) */
/* A trim whose LBA's old slot is not known yet: the merge (or GC) invalidates it. */
#define LOG_INVAL 1u

/* WANT_*: what the next operation on the page must do; INQ_*: the page is in
 * that ring (at most once each; an entry whose page is busy or wants nothing
 * any more is skipped); BUSY: an operation runs on it. */
enum cmt_tp_flag {
  CMT_TP_WANT_READ = 1,
  CMT_TP_WANT_WB = 2,
  CMT_TP_INQ_WB = 4,
  CMT_TP_BUSY = 8,
  CMT_TP_INQ_MISS = 16,
  CMT_TP_REC = 32 /* recovery: the next merge fixes the page up (cmt_rec_fix) */
};

/* OOB LPN of every slot of a translation page (above any LBA: the full
 * table's scan skips it; recovery of the cached mapping knows the page by it). */
#define CMT_LPN_TRANS 0xfffffff0u

#endif /* SSDVP_CMT_H */
