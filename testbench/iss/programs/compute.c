/* compute.c - arithmetic, a DRAM store, an MMIO round trip through the bus
 * (INTC.ENABLE), then exit(7). */
#include "iss_rt.h"
int main(void) {
  uint32_t sum = 0;
  for (uint32_t i = 1; i <= 1000; ++i) sum += i * i % 7;
  MMIO32(SSDVP_DRAM_BASE + 0x100) = sum;
  MMIO32(SSDVP_INTC_BASE + INTC_ENABLE) = 0x5;
  MMIO32(SSDVP_DRAM_BASE + 0x104) = MMIO32(SSDVP_INTC_BASE + INTC_ENABLE);
  return 7;
}
