/* exit.c - picolibc's _exit for the ISS: the exit code goes to SYSCTL.EXIT. */
#include "iss_rt.h"
void _exit(int code) {
  MMIO32(SSDVP_SYSCTL_BASE + SYSCTL_EXIT) = (uint32_t)code;
  for (;;) {
  }
}
