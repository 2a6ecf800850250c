/*
 * hotness.c - see hotness.h.
 */
#include <string.h>

#include "hotness.h"

static void charge(struct hal *h, enum fw_op op, uint32_t n) {
  if (h && n) hal_charge(h, op, n);
}

size_t hot_mem_bytes(uint32_t slices) { return (size_t)slices * (4 + 8 + 8); }

int hot_init(struct hot_monitor *m, struct hal *hal, uint32_t slices, uint64_t period_ns, uint32_t rule,
             uint64_t now_ns, void *mem) {
  if (!m || !mem || slices == 0 || period_ns == 0 || rule > HOT_INTERVAL_GLOBAL) return -1;
  m->hal = hal;
  m->slices = slices;
  m->period_ns = period_ns;
  m->rule = rule;
  uint8_t *p = (uint8_t *)mem;
  m->sum = (uint64_t *)p;
  m->last = (uint64_t *)(p + (size_t)slices * 8);
  m->count = (uint32_t *)(p + (size_t)slices * 16);
  m->period_start = now_ns;
  m->global_last = now_ns;
  for (uint32_t s = 0; s < slices; ++s) {
    m->count[s] = 0;
    m->sum[s] = 0;
    m->last[s] = now_ns;
  }
  return 0;
}

void hot_record(struct hot_monitor *m, uint32_t slice, uint64_t now) {
  if (slice >= m->slices) return;
  charge(m->hal, FW_OP_hot_record, 1);
  uint64_t *from = m->rule == HOT_INTERVAL_GLOBAL ? &m->global_last : &m->last[slice];
  m->sum[slice] += now >= *from ? now - *from : 0;
  *from = now;
  m->count[slice]++;
}

int hot_period_due(const struct hot_monitor *m, uint64_t now) { return now - m->period_start >= m->period_ns; }

static uint16_t scale9(uint64_t v, uint64_t max) {
  return max ? (uint16_t)((v * HOT_MAX9) / max) : 0; /* v <= max, so at most 511 */
}

void hot_close_period(struct hot_monitor *m, uint64_t now, uint16_t *f9, uint16_t *t9, uint32_t *fraw, uint64_t *traw) {
  uint32_t fmax = 0;
  uint64_t tmax = 0;
  /* pass 1: averages in place (sum becomes the average interval) */
  for (uint32_t s = 0; s < m->slices; ++s) {
    m->sum[s] = m->count[s] >= 1 ? m->sum[s] / m->count[s] : m->period_ns;
    if (m->count[s] > fmax) fmax = m->count[s];
    if (m->sum[s] > tmax) tmax = m->sum[s];
  }
  /* pass 2: scale, report, reset */
  for (uint32_t s = 0; s < m->slices; ++s) {
    if (f9) f9[s] = scale9(m->count[s], fmax);
    if (t9) t9[s] = scale9(m->sum[s], tmax);
    if (fraw) fraw[s] = m->count[s];
    if (traw) traw[s] = m->sum[s];
    m->count[s] = 0;
    m->sum[s] = 0;
    m->last[s] = now;
  }
  charge(m->hal, FW_OP_hot_close_slice, m->slices);
  m->period_start = now;
  m->global_last = now;
}

uint16_t kmeans_initial(uint32_t i, uint32_t k) { return k <= 1 ? 0 : (uint16_t)((i * HOT_MAX9) / (k - 1)); }

int kmeans2d(struct hal *hal, const uint16_t *x, const uint16_t *y, uint32_t n, uint32_t k, uint32_t max_iter,
             uint8_t *labels, uint16_t *cx, uint16_t *cy, uint32_t *iterations) {
  if (iterations) *iterations = 0;
  if (n == 0) return KMEANS_ERR_N;
  if (k < 1 || k > KMEANS_MAX_K) return KMEANS_ERR_K;
  for (uint32_t i = 0; i < n; ++i)
    if (x[i] > HOT_MAX9 || y[i] > HOT_MAX9) return KMEANS_ERR_RANGE;
  for (uint32_t c = 0; c < k; ++c) cx[c] = cy[c] = kmeans_initial(c, k);
  for (uint32_t i = 0; i < n; ++i) labels[i] = (uint8_t)KMEANS_MAX_K; /* none yet */
  uint32_t it = 0;
  while (it < max_iter) {
    uint64_t sx[KMEANS_MAX_K] = {0}, sy[KMEANS_MAX_K] = {0};
    uint32_t cnt[KMEANS_MAX_K] = {0}, changed = 0;
    for (uint32_t i = 0; i < n; ++i) {
      uint32_t best = 0, bestd = UINT32_MAX;
      for (uint32_t c = 0; c < k; ++c) {
        const int32_t dx = (int32_t)x[i] - cx[c], dy = (int32_t)y[i] - cy[c];
        const uint32_t d = (uint32_t)(dx * dx + dy * dy);
        if (d < bestd) { /* strict: ties keep the lower index */
          bestd = d;
          best = c;
        }
      }
      changed += labels[i] != best;
      labels[i] = (uint8_t)best;
      sx[best] += x[i];
      sy[best] += y[i];
      cnt[best]++;
    }
    charge(hal, FW_OP_kmeans_distance, n * k);
    charge(hal, FW_OP_kmeans_accumulate, n);
    for (uint32_t c = 0; c < k; ++c)
      if (cnt[c]) {
        cx[c] = (uint16_t)(sx[c] / cnt[c]);
        cy[c] = (uint16_t)(sy[c] / cnt[c]);
      }
    charge(hal, FW_OP_kmeans_divide, 2 * k);
    ++it;
    if (!changed) break;
  }
  if (iterations) *iterations = it;
  return KMEANS_OK;
}
