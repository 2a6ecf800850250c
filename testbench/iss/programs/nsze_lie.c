/* nsze_lie.c - a firmware image that boots by the boot-block protocol
 * (firmware/iss/iss_boot.h) and reports a namespace size (NSZE) other than
 * the one it was configured with, then parks: the platform must refuse it at
 * boot, naming both sizes, before the host addresses a namespace that the
 * firmware does not have. */
#include "fake_boot.h"

int main(void) {
  fake_boot_fill();
  MMIO32(SSDVP_NVME_BASE + NVME_NSZE_LO) = 12345u; /* not the configured size */
  MMIO32(SSDVP_NVME_BASE + NVME_NSZE_HI) = 0u;
  fake_boot_park();
  for (;;) {
  }
  return 0;
}
