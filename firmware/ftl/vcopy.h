/*
 * vcopy.h - GC moves by copy (vcopy.c): the flash operation a host FTL's HAL
 * has and the SoC's flash controller does not, and the switch that turns it
 * on. The host-level FTL (platform/host/ftl, host.ftl.gc_copy: vector_copy)
 * includes this; its HAL sends each FC_OP_COPY as an Open-Channel Vector
 * Chunk Copy (93h). docs/firmware.md, "Copy".
 */
#ifndef SSDVP_VCOPY_H
#define SSDVP_VCOPY_H

#ifdef __cplusplus
extern "C" {
#endif

struct ftl;

/* A flash descriptor opcode beside FC_OP_READ..FC_OP_COPYBACK (ssdvp_hw.h),
 * for a host HAL only (the SoC's flash controller answers FC_ERR_OPCODE).
 * row: the destination page row; buf: a page buffer whose token[s] names the
 * source of slot s (a slot address, row x slots_per_page + slot, anywhere on
 * the flash) and which receives the sources' OOB LPNs in lpn[] (the tokens
 * stay untouched). The data does not pass through the FTL's memory. */
#define FC_OP_COPY 8u

/* GC moves valid data by FC_OP_COPY (on != 0) instead of reading it and
 * writing it back; call after ftl_init, over a HAL that has FC_OP_COPY. -1
 * when relocated data has no write point of its own (ftl.placement.policy
 * single), with ftl.mapping cached, or when ftl.gc.max_active exceeds 64. */
int ftl_set_gc_copy(struct ftl *f, int on);

#ifdef __cplusplus
}
#endif

#endif /* SSDVP_VCOPY_H */
