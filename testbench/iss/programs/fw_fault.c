/* fw_fault.c - a firmware image that boots by the boot-block protocol
 * (firmware/iss/iss_boot.h), parks, and on being started executes an illegal
 * instruction in a named function: the platform must stop the run and name
 * the PC, the function and the cause. */
#include "fake_boot.h"

void broken_event_loop(void);
void __attribute__((noinline)) broken_event_loop(void) { __asm__ volatile(".word 0x00000000"); }

int main(void) {
  fake_boot_fill();
  fake_boot_park();
  broken_event_loop();
  return 0;
}
