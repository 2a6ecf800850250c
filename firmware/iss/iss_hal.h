/* iss_hal.h - the HAL back-end of the firmware on the RV32 core (iss mode). */
#ifndef SSDVP_ISS_HAL_H
#define SSDVP_ISS_HAL_H

#include <stdint.h>

#include "hal.h"

struct iss_hal {
  struct hal hal;
  uint32_t dram_base;
  uint32_t dram_size;
};

void iss_hal_init(struct iss_hal *h, uint32_t dram_base, uint32_t dram_size);
/* Hands control back to the platform; returns when it resumes the program. */
void iss_park(void);
/* Where the platform's functional calls (CpuIss::call) return to: the
   platform stops the simulator when the program reaches it, and nothing else
   jumps here. Publish its address, which also keeps the linker from dropping it. */
void iss_call_return(void);
/* Ends the program (the platform sees the exit code). */
void iss_exit(int code) __attribute__((noreturn));

#endif
