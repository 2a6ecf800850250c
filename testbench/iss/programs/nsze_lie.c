/* nsze_lie.c - a firmware image that boots by the boot-block protocol
 * (firmware/iss/iss_boot.h) and reports a namespace size (NSZE) other than
 * the one it was configured with, then parks: the platform must refuse it at
 * boot, naming both sizes, before the host addresses a namespace that the
 * firmware does not have. */
#include "iss_boot.h"
#include "iss_rt.h"

static int32_t call(uint32_t op) { return (int32_t)op * 0; }
static void call_return(void) {
  for (;;) {
  }
}

int main(void) {
  struct iss_boot *b = (struct iss_boot *)(uintptr_t)ISS_BOOT_ADDR;
  b->fw_config_bytes = sizeof(struct ftl_config);
  b->fw_stats_bytes = sizeof(struct ftl_stats);
  b->call_entry = (uint32_t)(uintptr_t)&call;
  b->call_return = (uint32_t)(uintptr_t)&call_return;
  b->stats_addr = ISS_BOOT_ADDR + ISS_BOOT_SIZE - sizeof(struct ftl_stats); /* zeros */
  b->stop_addr = 0;
  b->init_result = 0;
  MMIO32(SSDVP_NVME_BASE + NVME_NSZE_LO) = 12345u; /* not the configured size */
  MMIO32(SSDVP_NVME_BASE + NVME_NSZE_HI) = 0u;
  MMIO32(SSDVP_SYSCTL_BASE + SYSCTL_PARK) = 1;
  for (;;) {
  }
  return 0;
}
