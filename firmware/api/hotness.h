/*
 * hotness.h - HAML-SSD's hotness monitor and its fixed-point 2-D K-Means.
 *
 * Monitor (HAML-SSD Algorithm 1, lines 10-27): per slice of the logical space
 * and per period T, the update frequency UpdateF (writes in the period) and the
 * average update interval UpdateT (mean time between consecutive updates of
 * the slice; T when there were none), both scaled to 9 bits, [0, 511]:
 * v9 = v * 511 / max over slices (0 when the max is 0).
 *
 * Interval rule: Algorithm 1 keeps a single T_starttime updated by every
 * request (line 16), which measures the gap since the previous request to
 * any slice; the paper's text defines UpdateT per page ("between two adjacent
 * updates to the same data page"). HOT_INTERVAL_PER_SLICE follows the text
 * (the default); HOT_INTERVAL_GLOBAL follows line 16 literally. The first
 * update of a slice in a period counts from the period's start.
 *
 * K-Means, bit-exact with what a hardware unit computes (the accelerator
 * issue uses this as its reference):
 *  - points and centroids are 9-bit integers;
 *  - distance: squared Euclidean, integer (at most 2 * 511^2);
 *  - assignment: nearest centroid, ties to the lowest index;
 *  - update: centroid = floor(sum / count) per axis (a divider's quotient);
 *    an empty cluster keeps its centroid;
 *  - initial centroids (fixed, data-independent, so hardware holds them as
 *    constants): centroid k = (c_k, c_k), c_k = floor(k * 511 / (K - 1)), the
 *    diagonal from (0,0) to (511,511); K = 1 starts at (0,0);
 *  - stops after max_iter iterations or after an iteration that changed no
 *    label (that iteration counts).
 * Plain C, no state outside the caller's memory.
 */
#ifndef SSDVP_HOTNESS_H
#define SSDVP_HOTNESS_H

#include <stddef.h>
#include <stdint.h>

#include "hal.h"

#ifdef __cplusplus
extern "C" {
#endif

#define HOT_MAX9 511u
#define KMEANS_MAX_K 8u

enum hot_interval_rule { HOT_INTERVAL_PER_SLICE = 0, HOT_INTERVAL_GLOBAL = 1 };

struct hot_monitor {
  struct hal *hal; /* for cost charging; may be NULL */
  uint32_t slices;
  uint64_t period_ns;    /* T */
  uint32_t rule;         /* enum hot_interval_rule */
  uint64_t period_start; /* ns */
  uint64_t global_last;  /* ns, HOT_INTERVAL_GLOBAL */
  uint32_t *count;       /* [slices] writes in the period */
  uint64_t *sum;         /* [slices] summed intervals, ns */
  uint64_t *last;        /* [slices] last update, ns */
};

/* Bytes of caller memory hot_init needs for `slices` slices. */
size_t hot_mem_bytes(uint32_t slices);
/* mem: hot_mem_bytes(slices) bytes, 8-byte aligned. Returns 0, or -1 on bad arguments. */
int hot_init(struct hot_monitor *m, struct hal *hal, uint32_t slices, uint64_t period_ns, uint32_t rule,
             uint64_t now_ns, void *mem);
/* One write to `slice` at now_ns (slices beyond the range are ignored). */
void hot_record(struct hot_monitor *m, uint32_t slice, uint64_t now_ns);
/* Nonzero once the period that started at period_start has elapsed. */
int hot_period_due(const struct hot_monitor *m, uint64_t now_ns);
/* Closes the period: writes the scaled UpdateF (f9) and UpdateT (t9) of every
 * slice, and the unscaled values if favg/tavg are not NULL (tavg in ns), then
 * starts a new period at now_ns. */
void hot_close_period(struct hot_monitor *m, uint64_t now_ns, uint16_t *f9, uint16_t *t9, uint32_t *fraw,
                      uint64_t *traw);

enum kmeans_status { KMEANS_OK = 0, KMEANS_ERR_N = 1, KMEANS_ERR_K = 2, KMEANS_ERR_RANGE = 3 };

/* Clusters n points (x[i], y[i] in [0, 511]) into k clusters (1..8).
 * Writes labels[n], cx[k], cy[k] and the iterations run. Charges its cycles
 * through hal (may be NULL). Returns an enum kmeans_status. */
int kmeans2d(struct hal *hal, const uint16_t *x, const uint16_t *y, uint32_t n, uint32_t k, uint32_t max_iter,
             uint8_t *labels, uint16_t *cx, uint16_t *cy, uint32_t *iterations);
/* The initial centroid coordinate of cluster i of k (the diagonal rule). */
uint16_t kmeans_initial(uint32_t i, uint32_t k);

#ifdef __cplusplus
}
#endif
#endif /* SSDVP_HOTNESS_H */
