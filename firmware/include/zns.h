/*
 * zns.h - the NVMe Zoned Namespace command set of the zoned personality
 * (nvme.command_set: zns), shared by the firmware (firmware/ftl/zns.c) and
 * the host side. docs/models/zns.md describes it; the layouts follow the NVMe
 * Zoned Namespace Command Set specification 1.0 (command set identifier 02h).
 *
 * Zones: zone z is one flash block (an Open-Channel chunk, ocssd.h), striped
 * over the dies: die z mod dies, block-in-die z / dies, so consecutive zones
 * are on consecutive channels. A zone's capacity (ZCAP) is the block's LBA
 * slots; its size (ZSZE) the power of two at or above it, so zone z starts at
 * LBA z * ZSZE and the LBAs from ZCAP to ZSZE of a zone are never writable.
 * The namespace (nvme.namespace_size) is a whole number of zones; the blocks
 * beyond the zones are left unused (spare).
 */
#ifndef SSDVP_ZNS_H
#define SSDVP_ZNS_H

#include <stdint.h>

#include "ocssd.h"

#ifdef __cplusplus
extern "C" {
#endif

enum zns_opcode {
  ZNS_ADMIN_IDENTIFY = 0x06, /* CNS 00h (namespace), 05h / 06h with CSI 02h (zoned namespace / controller) */
  ZNS_OP_MGMT_SEND = 0x79,   /* Zone Management Send: CDW13 bits 7:0 the action, bit 8 Select All */
  ZNS_OP_MGMT_RECV = 0x7a,   /* Zone Management Receive: CDW13 bits 7:0 00h Report Zones, 15:8 the filter, bit 16
                                partial */
  ZNS_OP_APPEND = 0x7d       /* Zone Append: CDW10-11 the zone's first LBA; dword 0 of the completion: the LBA
                                written */
};
#define ZNS_CSI 0x02u
#define ZNS_CNS_NAMESPACE 0x00u
#define ZNS_CNS_CSI_NAMESPACE 0x05u
#define ZNS_CNS_CSI_CONTROLLER 0x06u

enum zns_send_action {
  ZNS_ZSA_CLOSE = 0x01,
  ZNS_ZSA_FINISH = 0x02,
  ZNS_ZSA_OPEN = 0x03,
  ZNS_ZSA_RESET = 0x04,
  ZNS_ZSA_OFFLINE = 0x05
};
#define ZNS_SELECT_ALL (1u << 8) /* CDW13 of Zone Management Send */
#define ZNS_ZRA_REPORT 0x00u     /* CDW13 bits 7:0 of Zone Management Receive */
#define ZNS_PARTIAL (1u << 16)   /* CDW13: the header counts the descriptors returned */

/* Command specific statuses ((SCT 1 << 8) | SC) of the Zoned Namespace command set. */
enum zns_status {
  ZNS_SC_BOUNDARY = 0x1b8,           /* the LBAs cross the zone's end (writes: its capacity) */
  ZNS_SC_FULL = 0x1b9,               /* write to a full zone */
  ZNS_SC_READ_ONLY = 0x1ba,          /* write to a read-only zone */
  ZNS_SC_OFFLINE = 0x1bb,            /* read or write of an offline zone */
  ZNS_SC_INVALID_WRITE = 0x1bc,      /* write not at the write pointer (or while the zone's reset erases) */
  ZNS_SC_TOO_MANY_ACTIVE = 0x1bd,    /* the zone would exceed the maximum active zones */
  ZNS_SC_TOO_MANY_OPEN = 0x1be,      /* the zone would exceed the maximum open zones */
  ZNS_SC_INVALID_TRANSITION = 0x1bf, /* a Zone Management Send action not allowed from the zone's state */
  ZNS_SC_WRITE_FAULT = 0x280         /* media error: a program failed (the zone becomes read-only) */
};

/* Zone states (ZS, in bits 7:4 of a descriptor's byte 1). */
enum zns_zone_state {
  ZNS_ZS_EMPTY = 0x1,
  ZNS_ZS_IMPLICIT_OPEN = 0x2,
  ZNS_ZS_EXPLICIT_OPEN = 0x3,
  ZNS_ZS_CLOSED = 0x4,
  ZNS_ZS_READ_ONLY = 0xd,
  ZNS_ZS_FULL = 0xe,
  ZNS_ZS_OFFLINE = 0xf
};
#define ZNS_ZT_SEQ_REQUIRED 0x2u

/* The Report Zones header (64 bytes) and a zone descriptor (64 bytes). */
struct zns_report_header {
  uint64_t nr_zones; /* zones that match from the first one (partial: descriptors in this report) */
  uint8_t rsvd[56];
};
struct zns_zone_desc {
  uint8_t zt;  /* zone type: ZNS_ZT_SEQ_REQUIRED */
  uint8_t zs;  /* zone state << 4 */
  uint8_t za;  /* zone attributes (0) */
  uint8_t zai; /* zone attributes information (0) */
  uint8_t rsvd4[4];
  uint64_t zcap;  /* zone capacity, LBAs */
  uint64_t zslba; /* first LBA */
  uint64_t wp;    /* write pointer (an LBA; the zone's end when full, read-only or offline) */
  uint8_t rsvd32[32];
};

/* I/O command set specific Identify Namespace data (CNS 05h, CSI 02h): the
 * fields used; byte offsets are the specification's. */
#define ZNS_ID_MAR 4u      /* uint32: maximum active resources, 0-based (0xffffffff: no limit) */
#define ZNS_ID_MOR 8u      /* uint32: maximum open resources, 0-based */
#define ZNS_ID_LBAFE 2816u /* LBA format extension 0: uint64 zone size (ZSZE) in LBAs, then ZDES (0) */
#define ZNS_ID_ZASL 0u     /* controller data (CNS 06h): Zone Append Size Limit, 2^n minimum pages (4 KiB) */
#define ZNS_ID_NSZE 0u     /* Identify Namespace (CNS 00h): uint64 NSZE, NCAP, NUSE at 0, 8, 16 */
#define ZNS_ID_LBAF0 128u  /* uint32 LBA format 0: LBA data size 2^n in bits 23:16 */

/* Bits of the zone size: the power of two at or above a zone's capacity. */
static inline uint32_t zns_zone_bits(uint32_t zone_capacity) { return ocssd_bits(zone_capacity); }

#ifdef __cplusplus
}
#endif
#endif /* SSDVP_ZNS_H */
