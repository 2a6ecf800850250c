/* wild.c - stores through a pointer outside the memory map. */
#include <stdint.h>

void scribble(uint32_t addr);
void __attribute__((noinline)) scribble(uint32_t addr) { *(volatile uint32_t *)(uintptr_t)addr = 1; }

int main(void) {
  scribble(0x20000000u); /* between SRAM and the device regions: nothing there */
  return 0;
}
