/*
 * accel_drv.h - driver of the K-Means accelerator (ACCEL region).
 *
 * accel_kmeans2d is a drop-in for kmeans2d (firmware/api/hotness.h) when the
 * points are already in DRAM in the accelerator's format: one 32-bit word
 * per point, ACCEL_POINT(x, y) (ssdvp_hw.h). It programs N, K, MAX_ITER, SRC
 * and DST, starts the job with the interrupt enabled, waits (hal_wait_irq,
 * looping because other interrupts wake it too) until STATUS says DONE or
 * ERROR, copies the labels (N bytes at labels_bus_addr) and centroids out,
 * and clears the device. Plain C11, only hal.h calls, no globals.
 */
#ifndef SSDVP_ACCEL_DRV_H
#define SSDVP_ACCEL_DRV_H

#include <stdint.h>

#include "hal.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Return codes: 0..3 are enum kmeans_status of hotness.h (OK, ERR_N, ERR_K,
 * ERR_RANGE); the device's other errors (busy, address, alignment, DMA) are
 * reported as ACCEL_DRV_ERR_BASE + enum accel_error. */
enum accel_drv_status {
  ACCEL_DRV_OK = 0,
  ACCEL_DRV_ERR_N = 1,
  ACCEL_DRV_ERR_K = 2,
  ACCEL_DRV_ERR_RANGE = 3,
  ACCEL_DRV_ERR_BASE = 16
};

/* Maps an accelerator error code (enum accel_error) to the driver's return code. */
int accel_status_from_error(uint32_t accel_error);

/* labels[n], cx[k], cy[k] and iterations may be NULL when not wanted.
 * Returns an enum accel_drv_status. */
int accel_kmeans2d(struct hal *hal, uint32_t points_bus_addr, uint32_t labels_bus_addr, uint32_t n, uint32_t k,
                   uint32_t max_iter, uint8_t *labels, uint16_t *cx, uint16_t *cy, uint32_t *iterations);

#ifdef __cplusplus
}
#endif
#endif /* SSDVP_ACCEL_DRV_H */
