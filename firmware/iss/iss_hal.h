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
/* Ends the program (the platform sees the exit code). */
void iss_exit(int code) __attribute__((noreturn));

#endif
