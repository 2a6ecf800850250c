/*
 * ocssd.h - the Open-Channel SSD 2.0 command set of the open-channel
 * personality (nvme.command_set: open_channel), shared by the firmware
 * (firmware/ftl/ocssd.c) and the host side. docs/models/ocssd.md describes
 * it; the layouts follow the Open-Channel SSD 2.0 specification.
 *
 * Addresses: a sector address (the LBA field of a command, or an entry of its
 * LBA list) packs, from the low bits up, the sector in its chunk, the chunk
 * in its parallel unit, the parallel unit in its group and the group, each in
 * the bit width the geometry reports (struct ocssd_lbaf). Here a group is a
 * flash channel, a parallel unit a die on it, a chunk a block and a sector
 * one LBA of a flash page.
 */
#ifndef SSDVP_OCSSD_H
#define SSDVP_OCSSD_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

enum ocssd_opcode {
  OCSSD_ADMIN_GET_LOG_PAGE = 0x02, /* with LID OCSSD_LOG_CHUNK_INFO */
  OCSSD_ADMIN_GEOMETRY = 0xe2,     /* Geometry (4096 bytes, struct ocssd_geometry) */
  OCSSD_OP_VECTOR_RESET = 0x90,    /* Vector Chunk Reset: chunks named by sector addresses */
  OCSSD_OP_VECTOR_WRITE = 0x91,    /* Vector Chunk Write: at each chunk's write pointer */
  OCSSD_OP_VECTOR_READ = 0x92,     /* Vector Chunk Read */
  OCSSD_OP_VECTOR_COPY = 0x93      /* Vector Chunk Copy: sources (CDW10-11) to destinations (CDW14-15) on the drive */
};
#define OCSSD_LOG_CHUNK_INFO 0xcau
/* A vector command names at most this many sectors (CDW12 bits 5:0 + 1). */
#define OCSSD_MAX_VECTOR 64u

/* Completion statuses ((SCT << 8) | SC) the personality uses beyond the NVMe
 * base ones of ssdvp_hw.h. */
enum ocssd_status {
  OCSSD_SC_UNWRITTEN = 0x287,       /* read of a sector at or above its chunk's write pointer (Deallocated or
                                       Unwritten Logical Block) */
  OCSSD_SC_OFFLINE_CHUNK = 0x2c0,   /* the chunk is offline (bad), or went offline in this reset */
  OCSSD_SC_INVALID_RESET = 0x2c1,   /* reset of a chunk that is free or open */
  OCSSD_SC_WRITE_NEXT_UNIT = 0x2f0, /* a program failed: the unit is consumed, the chunk stays open */
  OCSSD_SC_OUT_OF_ORDER = 0x2f2     /* write not at the chunk's write pointer (or to a closed chunk) */
};

enum ocssd_chunk_state { OCSSD_CHUNK_FREE = 1, OCSSD_CHUNK_CLOSED = 2, OCSSD_CHUNK_OPEN = 4, OCSSD_CHUNK_OFFLINE = 8 };
#define OCSSD_CHUNK_TYPE_SEQUENTIAL 1u

/* One entry of the chunk information log page (32 bytes). */
struct ocssd_chunk_desc {
  uint8_t state;      /* enum ocssd_chunk_state */
  uint8_t type;       /* OCSSD_CHUNK_TYPE_SEQUENTIAL */
  uint8_t wear_index; /* erase count, saturated at 255 */
  uint8_t rsvd[5];
  uint64_t slba; /* sector address of the chunk's first sector */
  uint64_t cnlb; /* sectors in the chunk */
  uint64_t wp;   /* write pointer: sector address of the next sector to write */
};

/* Bit widths of the address fields. */
struct ocssd_lbaf {
  uint8_t grp_len;
  uint8_t pu_len;
  uint8_t chk_len;
  uint8_t sec_len;
  uint8_t rsvd[4];
};

/* The Geometry data structure (4096 bytes); times in ns. */
struct ocssd_geometry {
  uint8_t major, minor; /* 2.0 */
  uint8_t rsvd2[6];
  struct ocssd_lbaf lbaf;
  uint32_t mccap; /* 0: no multiple resets of a free chunk, no early reset */
  uint8_t rsvd20[12];
  uint8_t wit; /* wear-level index delta threshold (0: not reported) */
  uint8_t rsvd33[31];
  uint16_t num_grp; /* groups (channels) */
  uint16_t num_pu;  /* parallel units per group (dies per channel) */
  uint32_t num_chk; /* chunks per parallel unit (blocks per die) */
  uint32_t clba;    /* sectors per chunk */
  uint8_t rsvd76[52];
  uint32_t ws_min;    /* minimum write size in sectors: one flash page */
  uint32_t ws_opt;    /* optimal write size in sectors */
  uint32_t mw_cunits; /* sectors to keep in the host's cache after a write (0: writes complete once programmed) */
  uint32_t maxoc;     /* open chunks at once (0: no limit) */
  uint32_t maxocpu;   /* open chunks per parallel unit (0: no limit) */
  uint8_t rsvd148[44];
  uint32_t trdt, trdm; /* read: typical, maximum */
  uint32_t tprt, tprm; /* program (write) */
  uint32_t tbet, tbem; /* reset (erase) */
  uint8_t rsvd216[40];
  uint8_t rsvd256[3840];
};

/* The address format of a geometry: each field as wide as its count needs. */
static inline uint8_t ocssd_bits(uint32_t n) {
  uint8_t b = 0;
  while ((1ull << b) < n) ++b;
  return b;
}
static inline struct ocssd_lbaf ocssd_lbaf_for(uint32_t groups, uint32_t pus, uint32_t chunks, uint32_t sectors) {
  struct ocssd_lbaf l = {ocssd_bits(groups), ocssd_bits(pus), ocssd_bits(chunks), ocssd_bits(sectors), {0, 0, 0, 0}};
  return l;
}

static inline uint64_t ocssd_addr(const struct ocssd_lbaf *l, uint32_t grp, uint32_t pu, uint32_t chk, uint32_t sec) {
  return ((((uint64_t)grp << l->pu_len | pu) << l->chk_len | chk) << l->sec_len) | sec;
}
static inline uint32_t ocssd_field(uint64_t a, uint32_t shift, uint32_t len) {
  return (uint32_t)((a >> shift) & ((1ull << len) - 1));
}
static inline uint32_t ocssd_sec(const struct ocssd_lbaf *l, uint64_t a) { return ocssd_field(a, 0, l->sec_len); }
static inline uint32_t ocssd_chk(const struct ocssd_lbaf *l, uint64_t a) {
  return ocssd_field(a, l->sec_len, l->chk_len);
}
static inline uint32_t ocssd_pu(const struct ocssd_lbaf *l, uint64_t a) {
  return ocssd_field(a, l->sec_len + l->chk_len, l->pu_len);
}
static inline uint32_t ocssd_grp(const struct ocssd_lbaf *l, uint64_t a) {
  return ocssd_field(a, l->sec_len + l->chk_len + l->pu_len, l->grp_len);
}
/* Bits above the four fields (must be zero in a valid address). */
static inline uint64_t ocssd_excess(const struct ocssd_lbaf *l, uint64_t a) {
  const uint32_t bits = (uint32_t)l->grp_len + l->pu_len + l->chk_len + l->sec_len;
  return bits >= 64 ? 0 : a >> bits;
}

#ifdef __cplusplus
}
#endif
#endif /* SSDVP_OCSSD_H */
