/*
 * ssdvp_hw.h - the hardware interface of the ssdvp SoC as the firmware sees it.
 *
 * Address map and register offsets come from ssdvp_regs.def (the one table);
 * this header adds the layouts of the descriptor rings in DRAM that the NVMe
 * and flash controllers share with the firmware, and their codes.
 *
 * Data is carried as tokens: every logical block (LBA) of data is represented
 * by one 32-bit token instead of its payload bytes. A transfer of n LBAs moves
 * n tokens; its timing is charged for n * lba_bytes. See docs/architecture.md.
 *
 * Plain C11, no dependencies; also compiled as C++ by the models.
 */
#ifndef SSDVP_HW_H
#define SSDVP_HW_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---- address map and registers (from the table) ----------------------- */
enum ssdvp_region_base {
#define REGION(name, base, size, desc) SSDVP_##name##_BASE = (int64_t)(base),
#include "ssdvp_regs.def"
  SSDVP_REGION_BASE_END_ = 0
};
enum ssdvp_region_size {
#define REGION(name, base, size, desc) SSDVP_##name##_SIZE = (int64_t)(size),
#include "ssdvp_regs.def"
  SSDVP_REGION_SIZE_END_ = 0
};
enum ssdvp_reg_offset {
#define REG(block, name, offset, access, desc) block##_##name = (offset),
#include "ssdvp_regs.def"
  SSDVP_REG_END_ = 0
};

/* Register fields: block_reg_name_SHIFT and _WIDTH for every FIELD row. */
enum ssdvp_reg_field {
#define FIELD(block, reg, name, msb, lsb, access, desc) \
  block##_##reg##_##name##_SHIFT = (lsb), block##_##reg##_##name##_WIDTH = (msb) - (lsb) + 1,
#include "ssdvp_regs.def"
  SSDVP_FIELD_END_ = 0
};

/* Mask, extraction and placement of a field f (a register field above or an
 * NVMe dword field below): SSDVP_FIELD_GET(ACCEL_STATUS_DONE, v). */
#define SSDVP_FIELD_MASK(f) ((uint32_t)((((uint64_t)1 << f##_WIDTH) - 1) << f##_SHIFT))
#define SSDVP_FIELD_GET(f, v) (((uint32_t)(v)&SSDVP_FIELD_MASK(f)) >> f##_SHIFT)
#define SSDVP_FIELD_PUT(f, x) (((uint32_t)(x) << f##_SHIFT) & SSDVP_FIELD_MASK(f))

/* ---- interrupt lines (bit numbers in INTC PENDING/ENABLE) -------------- */
enum ssdvp_irq {
  IRQ_NVME_CMD = 0,  /* fetched-command ring not empty */
  IRQ_NVME_DONE = 1, /* transfer-done ring not empty */
  IRQ_FLASH = 2,     /* flash completion ring not empty */
  IRQ_ACCEL = 3,     /* accelerator done or error */
  IRQ_TIMER = 4,     /* the interrupt controller's own timer (INTC TIMER_LO/HI): its deadline passed */
  IRQ_COUNT = 5,
  IRQ_INPUTS = 4 /* lines from other devices (IRQ_TIMER is the controller's own) */
};
/* The interrupt lines are the INTC register fields (ssdvp_regs.def). */
#ifdef __cplusplus
#define SSDVP_STATIC_ASSERT static_assert
#else
#define SSDVP_STATIC_ASSERT _Static_assert
#endif
SSDVP_STATIC_ASSERT((int)IRQ_NVME_CMD == (int)INTC_PENDING_NVME_CMD_SHIFT &&
                        (int)IRQ_NVME_CMD == (int)INTC_ENABLE_NVME_CMD_SHIFT,
                    "INTC field");
SSDVP_STATIC_ASSERT((int)IRQ_NVME_DONE == (int)INTC_PENDING_NVME_DONE_SHIFT &&
                        (int)IRQ_NVME_DONE == (int)INTC_ENABLE_NVME_DONE_SHIFT,
                    "INTC field");
SSDVP_STATIC_ASSERT((int)IRQ_FLASH == (int)INTC_PENDING_FLASH_SHIFT && (int)IRQ_FLASH == (int)INTC_ENABLE_FLASH_SHIFT,
                    "INTC field");
SSDVP_STATIC_ASSERT((int)IRQ_TIMER == (int)INTC_PENDING_TIMER_SHIFT && (int)IRQ_TIMER == (int)INTC_ENABLE_TIMER_SHIFT,
                    "INTC field");
SSDVP_STATIC_ASSERT((int)IRQ_ACCEL == (int)INTC_PENDING_ACCEL_SHIFT && (int)IRQ_ACCEL == (int)INTC_ENABLE_ACCEL_SHIFT,
                    "INTC field");

/* ---- tokens ----------------------------------------------------------- */
#define SSDVP_TOKEN_DEALLOCATED 0x00000000u /* read of an unwritten or deallocated LBA */
#define SSDVP_TOKEN_ERASED 0xffffffffu      /* content of an erased NAND slot */
#define SSDVP_LPN_NONE 0xffffffffu          /* OOB LPN of a padding or erased slot */

/* ---- NVMe (host-visible command set subset) --------------------------- */
enum nvme_opcode {
  NVME_OP_FLUSH = 0x00,
  NVME_OP_WRITE = 0x01,
  NVME_OP_READ = 0x02,
  NVME_OP_DSM = 0x09 /* Dataset Management; AD (deallocate) supported */
};
/* Admin commands (submission queue 0): the Directives of NVMe 1.4 section 9. */
enum nvme_admin_opcode { NVME_ADMIN_DIRECTIVE_SEND = 0x19, NVME_ADMIN_DIRECTIVE_RECV = 0x1a };
/* Admin commands that create and delete I/O queues and get the Arbitration
 * feature (firmware/ftl/queues.c; Set Features 01h goes there too). */
enum nvme_admin_queue_opcode {
  NVME_ADMIN_DELETE_SQ = 0x00,
  NVME_ADMIN_CREATE_SQ = 0x01,
  NVME_ADMIN_DELETE_CQ = 0x04,
  NVME_ADMIN_CREATE_CQ = 0x05,
  NVME_ADMIN_GET_FEATURES = 0x0a
};
#define NVME_FEAT_ARBITRATION 0x01u
#define NVME_FEAT_IRQ_COALESCING 0x08u /* Interrupt Coalescing: the controller's IRQ_COAL register */
/* Host-coordinated garbage collection (firmware/ftl/gcgate.c; the RAID
 * controller, platform/array, drives it): NVMe Predictable Latency Mode
 * windows, a vendor-specific GC lock and collection, Asynchronous Event
 * notifications of GC activity. */
/* Admin opcodes (NVMe base spec 1.4, figure 139) and vendor-specific ones. */
enum gcgate_admin_opcode {
  NVME_ADMIN_SET_FEATURES = 0x09,
  NVME_ADMIN_ASYNC_EVENT_REQUEST = 0x0c,
  NVME_ADMIN_VS_GC_LOCK = 0xc1,   /* vendor: CDW10 = 1 grant the GC lock, 0 take it back */
  NVME_ADMIN_VS_GC_COLLECT = 0xc2 /* vendor: CDW10 = 1 collect now until free blocks reach the GC threshold
                                     plus CDW11 (Harmonia's global GC, free-block banking), 0 stop */
};
/* Feature identifiers (CDW10 bits 7:0 of Set Features). */
enum gcgate_feature {
  NVME_FEAT_PLM_CONFIG = 0x09,  /* Predictable Latency Mode Config: CDW12 bit 0 enable */
  NVME_FEAT_PLM_WINDOW = 0x0a,  /* Predictable Latency Mode Window: CDW12 bits 2:0, 1 DTWIN, 2 NDWIN */
  NVME_FEAT_VS_GC_REPORT = 0xc0 /* vendor: CDW11 bit 0 report GC start/end, bit 1 GC needs the lock,
                                   bit 2 GC needs a global collection (Harmonia) */
};
enum { NVME_PLM_DTWIN = 1, NVME_PLM_NDWIN = 2 };
/* Asynchronous event completion dword 0: type 7 (vendor specific) in bits
 * 2:0, event information in bits 15:8, log page 0xc0 in bits 23:16. */
enum gcgate_event {
  GCGATE_EV_GC_START = 1,     /* the drive started collecting */
  GCGATE_EV_GC_END = 2,       /* it has no victim open any more */
  GCGATE_EV_LOCK_REQUEST = 3, /* it wants to collect and asks for the lock */
  GCGATE_EV_LOCK_RELEASE = 4, /* it holds the lock and is done */
  GCGATE_EV_GGC_REQUEST = 5,  /* global-GC mode: it needs to collect and asks for a global collection */
  GCGATE_EV_COLLECT_DONE = 6  /* a collection the host asked for (C2h) reached its target */
};
#define GCGATE_AEN_DW0(ev) (7u | ((uint32_t)(ev) << 8) | (0xc0u << 16))
/* NVME_Q_CMD values: what a write of the register executes. */
enum nvme_qcmd { NVME_QCMD_CREATE_CQ = 1, NVME_QCMD_CREATE_SQ = 2, NVME_QCMD_DELETE_SQ = 3, NVME_QCMD_DELETE_CQ = 4 };
/* Directive operations (CDW11 bits 7:0 DOPER, 15:8 DTYPE, 31:16 DSPEC). */
enum nvme_dir_oper {
  NVME_DIR_SND_ID_ENABLE = 0x01,      /* Identify, send: enable/disable a directive type (CDW12) */
  NVME_DIR_RCV_ID_PARAMS = 0x01,      /* Identify, receive: supported and enabled types (4096 B) */
  NVME_DIR_SND_ST_RELEASE_ID = 0x01,  /* Streams, send: release the identifier in DSPEC */
  NVME_DIR_SND_ST_RELEASE_RES = 0x02, /* Streams, send: release the namespace's stream resources */
  NVME_DIR_RCV_ST_PARAMS = 0x01,      /* Streams, receive: return parameters (32 B) */
  NVME_DIR_RCV_ST_STATUS = 0x02,      /* Streams, receive: open stream count and identifiers */
  NVME_DIR_RCV_ST_ALLOCATE = 0x03     /* Streams, receive: allocate resources (CDW12 NSR; DW0 NSA) */
};
/* Fields of the command dwords the firmware decodes and the host driver
 * encodes (NVMe base specification; use SSDVP_FIELD_GET/PUT). */
enum nvme_dword_field {
  NVME_CDW0_OPC_SHIFT = 0,
  NVME_CDW0_OPC_WIDTH = 8, /* opcode */
  NVME_CDW0_FUSE_SHIFT = 8,
  NVME_CDW0_FUSE_WIDTH = 2, /* fused operation (not supported: 0 only) */
  NVME_CDW0_PSDT_SHIFT = 14,
  NVME_CDW0_PSDT_WIDTH = 2, /* PRP or SGL (SGLs not supported: 0 only) */
  NVME_CDW0_CID_SHIFT = 16,
  NVME_CDW0_CID_WIDTH = 16, /* command identifier */
  NVME_CDW12_NLB_SHIFT = 0,
  NVME_CDW12_NLB_WIDTH = 16, /* read/write: LBAs - 1 */
  NVME_CDW12_DTYPE_SHIFT = 20,
  NVME_CDW12_DTYPE_WIDTH = 4, /* write: directive type */
  NVME_CDW12_FUA_SHIFT = 30,
  NVME_CDW12_FUA_WIDTH = 1, /* write: force unit access (durable at completion) */
  NVME_CDW13_DSPEC_SHIFT = 16,
  NVME_CDW13_DSPEC_WIDTH = 16, /* write: directive specific (stream ID) */
  NVME_CDW10_DSM_NR_SHIFT = 0,
  NVME_CDW10_DSM_NR_WIDTH = 8, /* DSM: ranges - 1 */
  NVME_CDW11_DSM_AD_SHIFT = 2,
  NVME_CDW11_DSM_AD_WIDTH = 1, /* DSM: attribute deallocate */
  NVME_CQE_STATUS_P_SHIFT = 0,
  NVME_CQE_STATUS_P_WIDTH = 1, /* completion: phase tag */
  NVME_CQE_STATUS_SF_SHIFT = 1,
  NVME_CQE_STATUS_SF_WIDTH = 15 /* completion: status field */
};
/* Write directives (CDW12 DTYPE, CDW13 DSPEC). */
enum nvme_dtype { NVME_DTYPE_NONE = 0, NVME_DTYPE_STREAMS = 1 };
/* Status field of a completion: (SCT << 8) | SC, as in the NVMe base spec. */
enum nvme_status {
  NVME_SC_SUCCESS = 0x000,
  NVME_SC_INVALID_OPCODE = 0x001,
  NVME_SC_INVALID_FIELD = 0x002,
  NVME_SC_DATA_XFER_ERROR = 0x004,
  NVME_SC_ABORTED_SQ_DELETION = 0x008, /* the controller: a queued command of a deleted submission queue */
  NVME_SC_INTERNAL = 0x006,
  NVME_SC_INVALID_NS = 0x00b,
  NVME_SC_CMD_SEQ_ERROR = 0x00c,
  NVME_SC_LBA_OUT_OF_RANGE = 0x080,
  NVME_SC_NS_NOT_READY = 0x082,        /* retry later (DNR clear): ftl.ns_ready_after */
  NVME_SC_CQ_INVALID = 0x100,          /* command specific: Create I/O SQ names no existing CQ */
  NVME_SC_INVALID_QID = 0x101,         /* command specific: Invalid Queue Identifier */
  NVME_SC_INVALID_QSIZE = 0x102,       /* command specific: Invalid Queue Size */
  NVME_SC_INVALID_VECTOR = 0x108,      /* command specific: Create I/O CQ: Invalid Interrupt Vector */
  NVME_SC_INVALID_QDELETION = 0x10c,   /* command specific: Delete I/O CQ: Invalid Queue Deletion (SQs attached) */
  NVME_SC_STREAM_ALLOC_FAILED = 0x17f, /* command specific: Stream Resource Allocation Failed */
  NVME_SC_UNRECOVERED_READ = 0x281     /* media error: Unrecovered Read Error (ECC failed after every retry) */
};

/* A submission queue entry as the host writes it (64 bytes). */
struct nvme_sqe {
  uint32_t cdw0; /* opcode [7:0], command identifier [31:16] */
  uint32_t nsid;
  uint32_t cdw2, cdw3;
  uint64_t mptr;
  uint64_t prp1; /* host address of the data (token array) */
  uint64_t prp2;
  uint32_t cdw10, cdw11, cdw12, cdw13, cdw14, cdw15;
};

/* A completion queue entry as the controller writes it (16 bytes). */
struct nvme_cqe {
  uint32_t dw0;
  uint32_t rsvd;
  uint16_t sq_head;
  uint16_t sq_id;
  uint16_t cid;
  uint16_t status; /* phase tag in bit 0, status field in bits 15:1 */
};

/* One entry of a Dataset Management range list (16 bytes). */
struct nvme_dsm_range {
  uint32_t attributes;
  uint32_t nlb; /* length in LBAs (1-based) */
  uint64_t slba;
};

/* Fetched-command ring entry (hardware -> firmware). */
struct nvme_cmd_entry {
  struct nvme_sqe sqe;
  uint16_t sqid;
  uint16_t rsvd0;
  uint32_t rsvd1[3];
};

enum nvme_xfer_op {
  XFER_H2D = 1,      /* host -> DRAM, nlb tokens */
  XFER_D2H = 2,      /* DRAM -> host, nlb tokens */
  XFER_H2D_RAW = 3,  /* host -> DRAM, nlb is a byte count (DSM range lists) */
  XFER_COMPLETE = 4, /* post a completion to the host; no DONE entry */
  XFER_D2H_RAW = 5   /* DRAM -> host, nlb is a byte count (admin data) */
};

/* Transfer ring entry (firmware -> hardware, 32 bytes). */
struct nvme_xfer {
  uint8_t op;
  uint8_t rsvd0;
  uint16_t sqid;
  uint16_t cid;
  uint16_t status; /* XFER_COMPLETE: NVMe status field */
  uint32_t tag;    /* echoed in the DONE entry */
  uint32_t dram;   /* DRAM address */
  uint64_t host;   /* host address */
  uint32_t nlb;    /* tokens (or bytes for XFER_H2D_RAW, XFER_D2H_RAW) */
  uint32_t dw0;    /* XFER_COMPLETE: completion dword 0 (command specific) */
};

/* Transfer-done ring entry (hardware -> firmware, 8 bytes). */
struct nvme_done {
  uint32_t tag;
  uint32_t status; /* 0 or NVME_SC_DATA_XFER_ERROR */
};

/* ---- flash controller ------------------------------------------------- */
/* Rows: block b = ((way * channels + channel) * blocks_per_die) + block-in-die,
 * page row = b * pages_per_block + page. Block-in-die i is in plane
 * i % planes_per_die (planes interleave by block address). Consecutive dies sit on different
 * channels, so striping over die index spreads over channels first. */
enum fc_opcode {
  FC_OP_READ = 1,    /* page row, slot mask -> buffer */
  FC_OP_PROGRAM = 2, /* buffer -> page row (all slots) */
  FC_OP_ERASE = 3,   /* block row */
  /* Multi-plane: one plane of a multi-plane operation (ONFI's 11h confirm).
   * The group goes on with the next descriptor and ends with a plain READ,
   * PROGRAM or ERASE of the same kind; the die runs it as one operation (one
   * tR, tPROG or tBERS). Rules: every member on the same die, each in another
   * plane, at the same page offset (READ, PROGRAM); block addresses within
   * their planes are free, or (flash.multiplane_same_block) at one block
   * index in every plane (block-in-die / planes). A group breaking them completes with
   * FC_ERR_MULTIPLANE on every member and changes nothing. */
  FC_OP_PLANE_READ = 4,
  FC_OP_PLANE_PROGRAM = 5,
  FC_OP_PLANE_ERASE = 6,
  /* Copyback (ONFI 00h-35h read for internal data move, 85h-10h program):
   * the die senses the source page into its page register and programs it
   * into the destination page without the data crossing the channel (no ECC
   * check on the way: a copy carries the source's bit errors). row: the
   * destination page row; slot_mask: the source page row (FC_COPYBACK_SRC);
   * buf: a page buffer that receives the source's OOB (lpn[S] and seq; the
   * tokens stay untouched); seq: the destination's new OOB sequence number.
   * Rules: source and destination on the same die and plane, the same page
   * type (flash.cell.bits > 1: page % bits), the source programmed, the
   * destination at its block's write pointer; else FC_ERR_COPYBACK (or the
   * program's own status). The completion's flags carry the destination's
   * copyback hop count (FC_FLAG_HOPS): the source's, kept in the OOB, plus 1.
   * meta must be 0; meta_bytes (FC_COPYBACK_DROP): slots whose OOB LPN the
   * controller overwrites with SSDVP_LPN_NONE in the page register before
   * the program (ONFI's change write column and data input between 35h and
   * 10h): stale slots of a partly valid page travel as data but name no LBA
   * in the copy; bits at or above the page's slots: FC_ERR_MASK. */
  FC_OP_COPYBACK = 7,
  /* Copy across the flash: a host FTL's HAL only (platform/host/ftl, GC by
   * copy, host.ftl.gc_copy: vector_copy), sent as an Open-Channel Vector
   * Chunk Copy; the SoC's flash controller completes it with FC_ERR_OPCODE.
   * row: the destination page row; buf: a page buffer whose token[s] names
   * the source of slot s (a slot address, row x slots_per_page + slot,
   * anywhere on the flash) and which receives the sources' OOB LPNs in lpn[]
   * (the tokens stay untouched). The data does not pass through the FTL's
   * memory. meta must be 0. */
  FC_OP_COPY = 8
};
#define FC_COPYBACK_SRC(sqe) ((sqe).slot_mask)
#define FC_COPYBACK_DROP(sqe) ((sqe).meta_bytes)
/* The plain operation of a descriptor's opcode (a plane opcode's kind). */
#define FC_OP_KIND(op) ((op) >= FC_OP_PLANE_READ && (op) <= FC_OP_PLANE_ERASE ? (op)-3u : (uint32_t)(op))
#define FC_OP_IS_PLANE(op) ((op) >= FC_OP_PLANE_READ && (op) <= FC_OP_PLANE_ERASE)

enum fc_status {
  FC_OK = 0,
  FC_ERR_NOT_ERASED = 1, /* program of a page that is not erased */
  FC_ERR_ORDER = 2,      /* program out of page order within its block */
  FC_ERR_ADDRESS = 3,    /* row outside the geometry */
  FC_ERR_OPCODE = 4,
  FC_ERR_DMA = 5,  /* buffer outside DRAM or unaligned */
  FC_ERR_MASK = 6, /* slot mask empty or beyond slots per page */
  /* Media faults (models/flash/flash_faults.h): not firmware bugs, not
   * counted in ERRORS. */
  FC_ERR_UNCORRECTABLE = 7, /* READ: more bit errors than ECC corrects at every retry level, or a torn page */
  FC_ERR_PROGRAM_FAIL = 8,  /* PROGRAM: status fail; the page is consumed and reads back uncorrectable */
  FC_ERR_ERASE_FAIL = 9,    /* ERASE: status fail; the block keeps its contents */
  FC_ERR_MULTIPLANE = 10,   /* a multi-plane group broke a rule (fc_opcode): mixed kinds, another die, a plane
                               twice, page offsets that differ, more members than planes */
  FC_ERR_COPYBACK = 11      /* a COPYBACK broke a rule (fc_opcode): another die or plane, another page type, or
                               a source page that is not programmed */
};
#define FC_FLAG_ERASED 0x1u /* read of a page that was never programmed */
/* READ completions: read-retry levels used (0: the first read decoded). */
#define FC_FLAG_RETRIES_SHIFT 8u
#define FC_FLAG_RETRIES(flags) (((uint32_t)(flags) >> FC_FLAG_RETRIES_SHIFT) & 0xffu)
/* COPYBACK completions: the destination page's copyback hop count (same bits). */
#define FC_FLAG_HOPS(flags) FC_FLAG_RETRIES(flags)
/* Under FLASH CTRL.CQ_PHASE: the entry's phase tag, 1 on the ring's first
 * pass after CQ_BASE, CQ_SIZE or CTRL is written, flipped at every wrap (as
 * NVMe's completion queue Phase Tag). An entry is new when its tag is the
 * one the consumer expects at that slot; the ring's memory must hold tag 0
 * (e.g. zeros) when the ring is (re)started. 0 with CQ_PHASE off. */
#define FC_FLAG_PHASE 0x80u
/* A producer's flags with its phase tag in (what the controller, and the
 * models that stand in for it, write under CQ_PHASE). */
#define FC_FLAGS_WITH_PHASE(flags, phase) \
  ((uint16_t)(((uint32_t)(flags) & ~FC_FLAG_PHASE) | ((phase) ? FC_FLAG_PHASE : 0u)))
#define FLASH_CTRL_CQ_PHASE SSDVP_FIELD_MASK(FLASH_CTRL_CQ_PHASE)
#define FLASH_CTRL_PREEMPT_GC SSDVP_FIELD_MASK(FLASH_CTRL_PREEMPT_GC)
#define FLASH_HOLD_GC_NONE 0u /* CTRL.HOLD_GC values */
#define FLASH_HOLD_GC_DIE 1u
#define FLASH_HOLD_GC_CHANNEL 2u

/* fc_sqe.hint: a READ the host waits for; with flash.read_priority or
 * flash.suspend.enable it may overtake or suspend programs and erases
 * (flash.priority_reads: host). */
#define FC_HINT_HOST 0x1u
/* fc_sqe.hint: an operation of garbage collection; with FLASH CTRL.PREEMPT_GC
 * an operation marked FC_HINT_HOST (a host read, or a host page's program)
 * goes ahead of it on its die while it has not started (ftl.gc.preempt). */
#define FC_HINT_GC 0x2u
/* fc_sqe.hint: a GC operation on its victim block; with FLASH CTRL.HOLD_GC a
 * READ so marked starts a hold of its die (or channel) and the ERASE of that
 * block so marked ends it (ftl.gc.hold). */
#define FC_HINT_VICTIM 0x4u
/* fc_sqe.hint: host data (a host read, or a host page's program); with FLASH
 * CTRL.HOLD_GC it waits, untimed, while its die (or channel) is held, and is
 * timed after the hold ends (its NAND array effect is at submission). */
#define FC_HINT_USER 0x8u

/* Submission ring entry (32 bytes). */
struct fc_sqe {
  uint8_t op;
  uint8_t hint; /* FC_HINT_*: scheduling hints, no effect on the result */
  uint16_t rsvd1;
  uint32_t tag;
  uint32_t row;
  uint32_t slot_mask;  /* READ: which slots to transfer */
  uint32_t buf;        /* DRAM address of a page buffer (layout below) */
  uint32_t seq;        /* PROGRAM: sequence number stored in the OOB area */
  uint32_t meta;       /* 0, or the DRAM address of a metadata payload (checkpoints): PROGRAM stores
                          meta_bytes bytes from it with the page, READ writes back what the page stored */
  uint32_t meta_bytes; /* at most the page size */
};

/* Completion ring entry (8 bytes). */
struct fc_cqe {
  uint32_t tag;
  uint16_t status;
  uint16_t flags;
};

/* A page buffer in DRAM for a page of S slots (S = page_bytes / lba_bytes):
 *   uint32_t token[S]; uint32_t lpn[S]; uint32_t seq;
 * READ fills token/lpn of the selected slots and seq; PROGRAM takes all. */
#define FC_PAGE_BUF_BYTES(slots) (8u * (slots) + 4u)

/* ---- K-Means accelerator ---------------------------------------------- */
/* Single-bit fields of CTRL and STATUS as masks (the FIELD rows). */
#define ACCEL_CTRL_START SSDVP_FIELD_MASK(ACCEL_CTRL_START)
#define ACCEL_CTRL_IRQ_EN SSDVP_FIELD_MASK(ACCEL_CTRL_IRQ_EN)
#define ACCEL_CTRL_CLEAR SSDVP_FIELD_MASK(ACCEL_CTRL_CLEAR)
#define ACCEL_STATUS_BUSY SSDVP_FIELD_MASK(ACCEL_STATUS_BUSY)
#define ACCEL_STATUS_DONE SSDVP_FIELD_MASK(ACCEL_STATUS_DONE)
#define ACCEL_STATUS_ERROR SSDVP_FIELD_MASK(ACCEL_STATUS_ERROR)
#define ACCEL_MAX_K 8u
#define ACCEL_LABEL_NONE 8u /* label of a point after 0 iterations */
/* A point word: x in bits 8:0, y in bits 24:16. */
#define ACCEL_POINT(x, y) ((uint32_t)(x) | ((uint32_t)(y) << 16))
#define ACCEL_POINT_X(w) ((uint16_t)((w)&0xffffu))
#define ACCEL_POINT_Y(w) ((uint16_t)((w) >> 16))

enum accel_error {
  ACCEL_ERR_NONE = 0,
  ACCEL_ERR_N_ZERO = 1,      /* N == 0 */
  ACCEL_ERR_N_TOO_LARGE = 2, /* N > SRAM_POINTS */
  ACCEL_ERR_K_RANGE = 3,     /* K outside 1..8 */
  ACCEL_ERR_BUSY = 4,        /* START while a job runs (the job goes on) */
  ACCEL_ERR_ADDRESS = 5,     /* SRC or DST range not inside DRAM */
  ACCEL_ERR_UNALIGNED = 6,   /* SRC or DST not 4-byte aligned */
  ACCEL_ERR_DMA = 7,         /* the bus refused a DMA access */
  ACCEL_ERR_POINT_RANGE = 8  /* a coordinate above 511 */
};

#ifdef __cplusplus
}
#endif
#endif /* SSDVP_HW_H */
