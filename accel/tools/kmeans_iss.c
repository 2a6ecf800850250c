/*
 * kmeans_iss.c - the firmware's software K-Means (ftl/hotness.c, kmeans2d) as
 * a program for the controller's RV32 core, for ssdvp-accel-sweep --iss.
 *
 * main() publishes the entry point and the return trap in kmeans_iss_entry
 * (which also keeps the linker from dropping them) and parks; the sweep
 * writes a job into the symbols below and calls kmeans_iss_run()
 * (CpuIss::call), which returns to iss_call_return (iss_hal.c).
 * The instructions the call retires are the software side of the comparison,
 * measured instead of taken from the cost table. kmeans2d's charges go to the
 * CPU model as markers (iss_hal.c) and cost nothing themselves.
 */
#include <stdint.h>

#include "hotness.h"
#include "iss_hal.h"

#define KMEANS_ISS_MAX_N 25600u

/* The job: n, k, max_iter in; iterations, status out. */
uint32_t kmeans_iss_args[5];
uint16_t kmeans_iss_x[KMEANS_ISS_MAX_N], kmeans_iss_y[KMEANS_ISS_MAX_N];
uint8_t kmeans_iss_labels[KMEANS_ISS_MAX_N];
uint16_t kmeans_iss_cx[KMEANS_MAX_K], kmeans_iss_cy[KMEANS_MAX_K];

/* Addresses of kmeans_iss_run and iss_call_return, set by main(). */
uint32_t kmeans_iss_entry[2];

static struct iss_hal the_hal;

int32_t kmeans_iss_run(uint32_t unused);
int32_t kmeans_iss_run(uint32_t unused) {
  (void)unused;
  uint32_t *a = kmeans_iss_args;
  if (a[0] > KMEANS_ISS_MAX_N) return -1;
  a[4] = (uint32_t)kmeans2d(&the_hal.hal, kmeans_iss_x, kmeans_iss_y, a[0], a[1], a[2], kmeans_iss_labels,
                            kmeans_iss_cx, kmeans_iss_cy, &a[3]);
  return (int32_t)a[4];
}

int main(void) {
  iss_hal_init(&the_hal, 0, 0); /* kmeans2d touches no DRAM */
  kmeans_iss_entry[0] = (uint32_t)(uintptr_t)&kmeans_iss_run;
  kmeans_iss_entry[1] = (uint32_t)(uintptr_t)&iss_call_return;
  iss_park();
  iss_exit(0);
}
