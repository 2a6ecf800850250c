/* fake_boot.h - the boot-block handshake (firmware/iss/iss_boot.h) of a test
 * image that pretends to be the firmware: its functional calls do nothing and
 * its stats block reads as zeros. The image then parks (fake_boot_park). */
#ifndef FAKE_BOOT_H
#define FAKE_BOOT_H
#include "iss_boot.h"
#include "iss_rt.h"

static int32_t fake_boot_call(uint32_t op) { return (int32_t)op * 0; }
static void fake_boot_call_return(void) {
  for (;;) {
  }
}

static inline void fake_boot_fill(void) {
  struct iss_boot *b = (struct iss_boot *)(uintptr_t)ISS_BOOT_ADDR;
  b->fw_config_bytes = sizeof(struct ftl_config);
  b->fw_stats_bytes = sizeof(struct ftl_stats);
  b->call_entry = (uint32_t)(uintptr_t)&fake_boot_call;
  b->call_return = (uint32_t)(uintptr_t)&fake_boot_call_return;
  b->stats_addr = ISS_BOOT_ADDR + ISS_BOOT_SIZE - sizeof(struct ftl_stats); /* zeros */
  b->stop_addr = 0;
  b->init_result = 0;
}

/* Hands control back to the platform: boot is done. */
static inline void fake_boot_park(void) { MMIO32(SSDVP_SYSCTL_BASE + SYSCTL_PARK) = 1; }
#endif
