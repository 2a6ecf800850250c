/* irq.c - enables machine external interrupts, waits for one, and records
 * in DRAM that the trap handler ran (mcause) before exiting with 0. */
#include "iss_rt.h"
static volatile uint32_t taken;
static void __attribute__((interrupt("machine"), aligned(4))) handler(void) {
  uint32_t cause;
  __asm__ volatile("csrr %0, mcause" : "=r"(cause));
  MMIO32(SSDVP_DRAM_BASE + 0x200) = cause;
  MMIO32(SSDVP_INTC_BASE + INTC_ENABLE) = 0; /* the line stays high: mask it */
  taken = 1;
}
int main(void) {
  __asm__ volatile("csrw mtvec, %0" ::"r"(handler));
  MMIO32(SSDVP_INTC_BASE + INTC_ENABLE) = 1u << IRQ_NVME_CMD;
  iss_irq_enable();
  while (!taken) iss_wfi();
  return 0;
}
