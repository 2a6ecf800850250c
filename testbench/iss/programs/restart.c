/* restart.c - what a program started again after a power cycle
 * (CpuIss::power_cycle) finds: each start records, in DRAM (which the
 * platform leaves as it is), an initialised variable (.data), a zeroed one
 * (.bss) and mstatus, then changes both variables. The first start enables
 * interrupts and waits for one forever (the test cuts the power there); the
 * second parks, and exits with 5 once resumed. */
#include "iss_rt.h"

static volatile uint32_t initialised = 0x1234abcdu;
static volatile uint32_t zeroed;

int main(void) {
  volatile uint32_t *out = (volatile uint32_t *)(uintptr_t)(SSDVP_DRAM_BASE + 0x300);
  const uint32_t run = out[0]++;
  uint32_t mstatus;
  __asm__ volatile("csrr %0, mstatus" : "=r"(mstatus));
  out[1 + 3 * run] = initialised;
  out[2 + 3 * run] = zeroed;
  out[3 + 3 * run] = mstatus;
  initialised = 0;
  zeroed = 0xdeadbeefu;
  if (run == 0) {
    iss_irq_enable();
    for (;;) iss_wfi();
  }
  MMIO32(SSDVP_SYSCTL_BASE + SYSCTL_PARK) = 1;
  return 5;
}
