/*
 * accel_drv.c - see accel_drv.h.
 */
#include <string.h>

#include "accel_drv.h"
#include "ssdvp_hw.h"

static uint32_t rd(struct hal *h, uint32_t reg) { return hal_read32(h, (uint32_t)SSDVP_ACCEL_BASE + reg); }
static void wr(struct hal *h, uint32_t reg, uint32_t v) { hal_write32(h, (uint32_t)SSDVP_ACCEL_BASE + reg, v); }

int accel_status_from_error(uint32_t e) {
  switch (e) {
    case ACCEL_ERR_NONE: return ACCEL_DRV_OK;
    case ACCEL_ERR_N_ZERO:
    case ACCEL_ERR_N_TOO_LARGE: return ACCEL_DRV_ERR_N;
    case ACCEL_ERR_K_RANGE: return ACCEL_DRV_ERR_K;
    case ACCEL_ERR_POINT_RANGE: return ACCEL_DRV_ERR_RANGE;
    default: return ACCEL_DRV_ERR_BASE + (int)e;
  }
}

int accel_kmeans2d(struct hal *hal, uint32_t points_bus_addr, uint32_t labels_bus_addr, uint32_t n, uint32_t k,
                   uint32_t max_iter, uint8_t *labels, uint16_t *cx, uint16_t *cy, uint32_t *iterations) {
  if (iterations) *iterations = 0;
  wr(hal, ACCEL_CTRL, ACCEL_CTRL_CLEAR);
  wr(hal, ACCEL_N, n);
  wr(hal, ACCEL_K, k);
  wr(hal, ACCEL_MAX_ITER, max_iter);
  wr(hal, ACCEL_SRC, points_bus_addr);
  wr(hal, ACCEL_DST, labels_bus_addr);
  wr(hal, ACCEL_CTRL, ACCEL_CTRL_START | ACCEL_CTRL_IRQ_EN);
  uint32_t st = rd(hal, ACCEL_STATUS);
  while (!(st & (ACCEL_STATUS_DONE | ACCEL_STATUS_ERROR))) {
    hal_wait_irq(hal); /* other interrupts wake us too: look again */
    st = rd(hal, ACCEL_STATUS);
  }
  int rc = ACCEL_DRV_OK;
  if (st & ACCEL_STATUS_ERROR) {
    rc = accel_status_from_error(rd(hal, ACCEL_ERROR_CODE));
  } else {
    if (iterations) *iterations = rd(hal, ACCEL_ITERS);
    for (uint32_t c = 0; c < k && c < ACCEL_MAX_K; ++c) {
      const uint32_t w = rd(hal, ACCEL_CENT0 + 4u * c);
      if (cx) cx[c] = ACCEL_POINT_X(w);
      if (cy) cy[c] = ACCEL_POINT_Y(w);
    }
    if (labels) {
      const void *src = hal_dram(hal, labels_bus_addr, n);
      if (src)
        memcpy(labels, src, n);
      else
        rc = ACCEL_DRV_ERR_BASE + ACCEL_ERR_ADDRESS;
    }
  }
  wr(hal, ACCEL_CTRL, ACCEL_CTRL_CLEAR); /* IRQ low again */
  return rc;
}
