/*
 * hal.h - the firmware's only boundary with the hardware.
 *
 * Everything the firmware does to the SoC goes through these calls: device
 * registers, windows onto DRAM, waiting for an interrupt, charging CPU time,
 * reading simulated time, and logging. Four back-ends implement them:
 *  - native (models/cpu/cpu_native.cpp): the firmware is compiled into the
 *    simulator and each call goes through the table of callbacks below;
 *  - iss (firmware/iss/iss_hal.c): the firmware's RV32 build on the CPU
 *    model's instruction-set simulator (cpu.mode iss); the calls become
 *    MMIO, SYSCTL registers and a cost marker;
 *  - fake (testbench/firmware/fake_hal.*): host unit tests;
 *  - host FTL (platform/host/ftl/host_ftl_hal.*): the same FTL run on the
 *    host over an open-channel drive; its flash registers become vector
 *    commands to the drive, its DRAM is host memory.
 * Nothing here assumes the firmware shares the simulator's address space
 * except through hal_dram().
 */
#ifndef SSDVP_HAL_H
#define SSDVP_HAL_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

enum fw_op {
#define FW_OP(name, cycles, desc) FW_OP_##name,
#include "fw_ops.def"
  FW_OP_COUNT
};

enum hal_log_level { HAL_LOG_ERROR = 0, HAL_LOG_WARN = 1, HAL_LOG_INFO = 2, HAL_LOG_DEBUG = 3 };

/* Firmware activity markers for timelines (a no-op unless one is recorded). */
enum hal_trace_event {
  HAL_TRACE_GC_VICTIM_START = 1,  /* arg: victim block */
  HAL_TRACE_GC_VICTIM_END = 2,    /* arg: victim block (relocated, erase issued) */
  HAL_TRACE_GC_EPISODE_START = 3, /* arg: free blocks (with erases in flight) when it starts */
  HAL_TRACE_GC_EPISODE_END = 4    /* arg: free blocks (with erases in flight) when it ends */
};

/* Callbacks of a back-end. ctx is the back-end's own object. */
struct hal_ops {
  uint32_t (*read32)(void *ctx, uint32_t addr);
  void (*write32)(void *ctx, uint32_t addr, uint32_t value);
  void *(*dram)(void *ctx, uint32_t addr, uint32_t bytes);
  void (*wait_irq)(void *ctx);
  void (*charge)(void *ctx, enum fw_op op, uint32_t count);
  uint64_t (*time_ns)(void *ctx);
  void (*log)(void *ctx, int level, const char *msg);
  void (*trace)(void *ctx, enum hal_trace_event event, uint32_t arg);
};

struct hal {
  const struct hal_ops *ops;
  void *ctx;
};

/* Device register access (addresses from ssdvp_hw.h). */
static inline uint32_t hal_read32(struct hal *h, uint32_t addr) { return h->ops->read32(h->ctx, addr); }
static inline void hal_write32(struct hal *h, uint32_t addr, uint32_t v) { h->ops->write32(h->ctx, addr, v); }

/* A pointer to `bytes` bytes of DRAM at bus address addr, or NULL if the
 * range is outside DRAM. Accesses through it are charged by the cost table,
 * not per access. */
static inline void *hal_dram(struct hal *h, uint32_t addr, uint32_t bytes) { return h->ops->dram(h->ctx, addr, bytes); }

/* Returns when an enabled interrupt line is pending (or at once if one is). */
static inline void hal_wait_irq(struct hal *h) { h->ops->wait_irq(h->ctx); }

/* Charge the CPU time of `count` firmware operations of kind op. */
static inline void hal_charge(struct hal *h, enum fw_op op, uint32_t count) { h->ops->charge(h->ctx, op, count); }

/* Marks a firmware event on the timeline. */
static inline void hal_trace(struct hal *h, enum hal_trace_event ev, uint32_t arg) { h->ops->trace(h->ctx, ev, arg); }

/* Simulated time in nanoseconds. */
static inline uint64_t hal_time_ns(struct hal *h) { return h->ops->time_ns(h->ctx); }

void hal_logf(struct hal *h, int level, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

#ifdef __cplusplus
}
#endif
#endif /* SSDVP_HAL_H */
