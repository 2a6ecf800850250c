/* iss_rt.h - the bare-metal runtime of the ISS test programs: the CPU's
 * SYSCTL block (exit, console, wait-for-interrupt) and the machine-mode
 * interrupt CSRs. */
#ifndef ISS_RT_H
#define ISS_RT_H
#include <stdint.h>

#include "ssdvp_hw.h"

#define MMIO32(a) (*(volatile uint32_t *)(uintptr_t)(a))

static inline void iss_wfi(void) { MMIO32(SSDVP_SYSCTL_BASE + SYSCTL_WFI) = 1; }
static inline void iss_irq_enable(void) {
  __asm__ volatile("csrs mie, %0" ::"r"(1u << 11));    /* MEIE */
  __asm__ volatile("csrs mstatus, %0" ::"r"(1u << 3)); /* MIE */
}
#endif
