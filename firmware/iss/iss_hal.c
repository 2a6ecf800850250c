/*
 * iss_hal.c - the HAL (firmware/hal/hal.h) on the controller's RV32 core:
 * device registers are loads and stores, DRAM is mapped at its bus address,
 * waiting for an interrupt and time are SYSCTL registers of the CPU model,
 * and hal_charge is a marker: the CPU model counts the operation and charges
 * nothing (time comes from the instructions the firmware really executes).
 */
#include <stdint.h>

#include "hal.h"
#include "iss_hal.h"
#include "ssdvp_hw.h"

#define MMIO32(a) (*(volatile uint32_t *)(uintptr_t)(a))
#define SYSCTL(r) MMIO32((uint32_t)SSDVP_SYSCTL_BASE + (r))

static uint32_t iss_read32(void *ctx, uint32_t addr) {
  (void)ctx;
  return MMIO32(addr);
}

static void iss_write32(void *ctx, uint32_t addr, uint32_t value) {
  (void)ctx;
  MMIO32(addr) = value;
}

static void *iss_dram(void *ctx, uint32_t addr, uint32_t bytes) {
  const struct iss_hal *h = ctx;
  if (bytes == 0 || addr < h->dram_base || addr - h->dram_base > h->dram_size ||
      bytes > h->dram_size - (addr - h->dram_base))
    return 0;
  return (void *)(uintptr_t)addr;
}

static void iss_wait_irq(void *ctx) {
  (void)ctx;
  SYSCTL(SYSCTL_WFI) = 1;
}

static void iss_charge(void *ctx, enum fw_op op, uint32_t count) {
  (void)ctx;
  SYSCTL(SYSCTL_CHARGE_COUNT) = count;
  SYSCTL(SYSCTL_CHARGE_OP) = (uint32_t)op;
}

static uint64_t iss_time_ns(void *ctx) {
  (void)ctx;
  const uint32_t lo = SYSCTL(SYSCTL_TIME_LO); /* latches TIME_HI */
  return (uint64_t)SYSCTL(SYSCTL_TIME_HI) << 32 | lo;
}

static void iss_log(void *ctx, int level, const char *msg) {
  (void)ctx;
  while (*msg) SYSCTL(SYSCTL_PUTC) = (uint8_t)*msg++;
  SYSCTL(SYSCTL_LOG) = (uint32_t)level;
}

static void iss_trace(void *ctx, enum hal_trace_event ev, uint32_t arg) {
  (void)ctx;
  SYSCTL(SYSCTL_TRACE_ARG) = arg;
  SYSCTL(SYSCTL_TRACE_EVENT) = (uint32_t)ev;
}

static const struct hal_ops iss_ops = {iss_read32, iss_write32, iss_dram, iss_wait_irq,
                                       iss_charge, iss_time_ns, iss_log,  iss_trace};

void iss_hal_init(struct iss_hal *h, uint32_t dram_base, uint32_t dram_size) {
  h->dram_base = dram_base;
  h->dram_size = dram_size;
  h->hal.ops = &iss_ops;
  h->hal.ctx = h;
}

void iss_park(void) { SYSCTL(SYSCTL_PARK) = 1; }

void iss_call_return(void) __attribute__((noinline));
void iss_call_return(void) {
  for (;;) {
  }
}

void iss_exit(int code) {
  SYSCTL(SYSCTL_EXIT) = (uint32_t)code;
  for (;;) {
  }
}

/* picolibc's exit path (return from main, exit()) ends here. */
void _exit(int code);
void _exit(int code) { iss_exit(code); }
