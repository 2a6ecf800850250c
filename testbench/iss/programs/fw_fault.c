/* fw_fault.c - a firmware image that boots by the boot-block protocol
 * (firmware/iss/iss_boot.h), parks, and on being started executes an illegal
 * instruction in a named function: the platform must stop the run and name
 * the PC, the function and the cause. */
#include "iss_boot.h"
#include "iss_rt.h"

static int32_t call(uint32_t op) { return (int32_t)op * 0; }
static void call_return(void) {
  for (;;) {
  }
}

void broken_event_loop(void);
void __attribute__((noinline)) broken_event_loop(void) { __asm__ volatile(".word 0x00000000"); }

int main(void) {
  struct iss_boot *b = (struct iss_boot *)(uintptr_t)ISS_BOOT_ADDR;
  b->fw_config_bytes = sizeof(struct ftl_config);
  b->fw_stats_bytes = sizeof(struct ftl_stats);
  b->call_entry = (uint32_t)(uintptr_t)&call;
  b->call_return = (uint32_t)(uintptr_t)&call_return;
  b->stats_addr = ISS_BOOT_ADDR + ISS_BOOT_SIZE - sizeof(struct ftl_stats); /* zeros */
  b->stop_addr = 0;
  b->init_result = 0;
  MMIO32(SSDVP_SYSCTL_BASE + SYSCTL_PARK) = 1;
  broken_event_loop();
  return 0;
}
