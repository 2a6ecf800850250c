/*
 * place.c - write classes: which frontier each host write and each relocated
 * LBA goes to (docs/firmware.md, "Placement").
 *
 * A class is a write frontier; classes are ordered hot (0) to cold. The
 * hotness policies (HOTIS, ASA-FTL, HAML) classify slices of the logical
 * space from the monitor's figures (hotness.h) at the end of every period T;
 * until the first period ends every slice is in the coldest class. The
 * stream policy takes the class from the host's NVMe stream ID (1-based;
 * none or out of range: the coldest class).
 */
#include "accel_drv.h"
#include "ftl_internal.h"

static int uses_monitor(const struct ftl_config *c) {
  return c->placement == FTL_PLACE_HOTIS || c->placement == FTL_PLACE_ASA || c->placement == FTL_PLACE_HAML;
}

static uint32_t classes_of(const struct ftl_config *c) {
  switch (c->placement) {
    case FTL_PLACE_HOTIS: return 2;
    case FTL_PLACE_ASA: return 3;
    case FTL_PLACE_HAML:
    case FTL_PLACE_STREAM: return c->hot_classes;
    default: return 1;
  }
}

/* Relocated data has a frontier of its own. */
static int gc_own(const struct ftl_config *c) {
  if (c->placement == FTL_PLACE_SINGLE) return 0;
  if (c->placement == FTL_PLACE_DOUBLE || c->placement == FTL_PLACE_STREAM) return 1;
  return c->gc_placement == FTL_GC_PLACE_SEPARATE;
}

uint32_t place_frontiers(const struct ftl_config *c) { return classes_of(c) + (uint32_t)gc_own(c); }

uint32_t place_slices(const struct ftl_config *c) {
  if (!uses_monitor(c) || c->hot_slice_lbas == 0) return 0;
  return (uint32_t)((c->logical_lbas + c->hot_slice_lbas - 1) / c->hot_slice_lbas);
}

/* Per slice: monitor (hot_mem_bytes), class (1), f9 and t9 (2 + 2), raw
 * writes (4), raw interval (8), label (1); with the accelerator, its point
 * (4) and label (1) buffers. */
static uint64_t align8(uint64_t n) { return (n + 7) & ~(uint64_t)7; }

uint64_t place_dram_bytes(const struct ftl_config *c) {
  const uint64_t s = place_slices(c);
  if (!s) return 0;
  const uint64_t accel = c->cluster_engine == FTL_CLUSTER_ACCEL ? align8(s * 4) + align8(s) : 0;
  return align8(hot_mem_bytes((uint32_t)s)) + align8(s * 8) + align8(s * 4) + align8(s * 2) * 2 + align8(s) * 2 + accel;
}

static void *carve(struct ftl *f, uint64_t *off, uint64_t bytes) {
  void *p = hal_dram(f->hal, (uint32_t)(f->cfg.dram_base + *off), (uint32_t)bytes);
  *off += align8(bytes);
  return p;
}

int place_init(struct ftl *f, uint64_t off) {
  const struct ftl_config *c = &f->cfg;
  f->classes = classes_of(c);
  f->gc_fr = c->placement == FTL_PLACE_SINGLE ? 0 : gc_own(c) ? f->classes : FTL_NONE;
  f->slices = place_slices(c);
  if (!f->slices) return 0;
  const uint32_t s = f->slices;
  void *mon = carve(f, &off, hot_mem_bytes(s));
  f->hot_traw = carve(f, &off, (uint64_t)s * 8);
  f->hot_fraw = carve(f, &off, (uint64_t)s * 4);
  f->hot_f9 = carve(f, &off, (uint64_t)s * 2);
  f->hot_t9 = carve(f, &off, (uint64_t)s * 2);
  f->slice_class = carve(f, &off, s);
  f->hot_labels = carve(f, &off, s);
  if (!mon || !f->hot_traw || !f->hot_fraw || !f->hot_f9 || !f->hot_t9 || !f->slice_class || !f->hot_labels) return -1;
  if (c->cluster_engine == FTL_CLUSTER_ACCEL) {
    f->accel_pts_bus = (uint32_t)(c->dram_base + off);
    f->accel_pts = carve(f, &off, (uint64_t)s * 4);
    f->accel_lab_bus = (uint32_t)(c->dram_base + off);
    if (!f->accel_pts || !carve(f, &off, s)) return -1;
  }
  if (hot_init(&f->hot, f->hal, s, c->hot_period_ns, c->hot_interval_rule, hal_time_ns(f->hal), mon)) return -1;
  for (uint32_t i = 0; i < s; ++i) f->slice_class[i] = (uint8_t)(f->classes - 1);
  return 0;
}

/* The accelerator: points packed into its DRAM buffer, only its interrupt
 * enabled while the driver waits (other lines stay pending and are served
 * after), the mask restored. Too many slices for its SRAM: software. */
static int cluster_accel(struct ftl *f, const uint16_t *x, const uint16_t *y, uint32_t k, uint16_t *cx, uint16_t *cy,
                         uint32_t *iters) {
  for (uint32_t s = 0; s < f->slices; ++s) f->accel_pts[s] = ACCEL_POINT(x[s], y[s]);
  hal_charge(f->hal, FW_OP_accel_pack, f->slices);
  const uint32_t mask = hal_read32(f->hal, SSDVP_INTC_BASE + INTC_ENABLE);
  hal_write32(f->hal, SSDVP_INTC_BASE + INTC_ENABLE, 1u << IRQ_ACCEL);
  const int rc = accel_kmeans2d(f->hal, f->accel_pts_bus, f->accel_lab_bus, f->slices, k, f->cfg.hot_max_iter,
                                f->hot_labels, cx, cy, iters);
  hal_write32(f->hal, SSDVP_INTC_BASE + INTC_ENABLE, mask);
  if (rc == ACCEL_DRV_ERR_N) {
    hal_logf(f->hal, HAL_LOG_WARN, "ftl: %" PRIu32 " slices do not fit the accelerator; clustering in software",
             f->slices);
    return kmeans2d(f->hal, x, y, f->slices, k, f->cfg.hot_max_iter, f->hot_labels, cx, cy, iters);
  }
  return rc;
}

/* The clustering engine (ftl.cluster.engine). */
static int cluster(struct ftl *f, const uint16_t *x, const uint16_t *y, uint32_t k, uint16_t *cx, uint16_t *cy) {
  uint32_t iters = 0;
  const int rc = f->cfg.cluster_engine == FTL_CLUSTER_ACCEL
                     ? cluster_accel(f, x, y, k, cx, cy, &iters)
                     : kmeans2d(f->hal, x, y, f->slices, k, f->cfg.hot_max_iter, f->hot_labels, cx, cy, &iters);
  f->stats.kmeans_iterations += iters;
  return rc;
}

/* Orders clusters hot to cold by score[] (higher is hotter; ties: lower
 * index first) and writes each slice's class. */
static void classify(struct ftl *f, uint32_t k, const int32_t *score) {
  uint8_t rank[KMEANS_MAX_K];
  for (uint32_t i = 0; i < k; ++i) {
    uint32_t r = 0;
    for (uint32_t j = 0; j < k; ++j)
      if (score[j] > score[i] || (score[j] == score[i] && j < i)) ++r;
    rank[i] = (uint8_t)r;
  }
  for (uint32_t s = 0; s < f->slices; ++s) f->slice_class[s] = rank[f->hot_labels[s]];
}

static void recluster(struct ftl *f, uint64_t now) {
  const struct ftl_config *c = &f->cfg;
  hot_close_period(&f->hot, now, f->hot_f9, f->hot_t9, f->hot_fraw, f->hot_traw);
  f->stats.cluster_runs++;
  uint16_t cx[KMEANS_MAX_K], cy[KMEANS_MAX_K];
  int32_t score[KMEANS_MAX_K];
  int rc = KMEANS_OK;
  switch (c->placement) {
    case FTL_PLACE_HOTIS:
      /* constant thresholds on the period's raw figures */
      for (uint32_t s = 0; s < f->slices; ++s)
        f->slice_class[s] = f->hot_fraw[s] >= c->hotis_min_writes && f->hot_traw[s] <= c->hotis_max_interval_ns ? 0 : 1;
      return;
    default:
      if (c->placement == FTL_PLACE_ASA || c->hot_features == FTL_HOT_FREQ) {
        /* one dimension, the frequency (ASA-FTL; haml with ftl.hot.features:
         * freq): points on the diagonal (f, f), where the fixed initial
         * centroids lie, so 2-D K-Means is 1-D K-Means; hot = frequent */
        for (uint32_t s = 0; s < f->slices; ++s) f->hot_t9[s] = f->hot_f9[s];
        rc = cluster(f, f->hot_f9, f->hot_t9, f->classes, cx, cy);
        for (uint32_t i = 0; i < f->classes; ++i) score[i] = cx[i];
        break;
      }
      /* HAML: hot = frequent updates at short intervals */
      rc = cluster(f, f->hot_f9, f->hot_t9, f->classes, cx, cy);
      for (uint32_t i = 0; i < f->classes; ++i) score[i] = (int32_t)cx[i] - (int32_t)cy[i];
      break;
  }
  if (rc != KMEANS_OK) {
    hal_logf(f->hal, HAL_LOG_ERROR, "ftl: clustering failed (%d); slice classes unchanged", rc);
    return;
  }
  classify(f, f->classes, score);
}

void place_note_write(struct ftl *f, uint64_t slba, uint32_t n) {
  if (!f->slices || n == 0) return;
  const uint64_t now = hal_time_ns(f->hal);
  if (hot_period_due(&f->hot, now)) recluster(f, now);
  const uint32_t first = (uint32_t)(slba / f->cfg.hot_slice_lbas);
  const uint32_t last = (uint32_t)((slba + n - 1) / f->cfg.hot_slice_lbas);
  for (uint32_t s = first; s <= last; ++s) hot_record(&f->hot, s, now);
}

struct frontier *place_host(struct ftl *f, uint32_t lpn, uint32_t stream) {
  if (f->cfg.placement == FTL_PLACE_STREAM)
    return &f->fr[stream >= 1 && stream <= f->classes ? stream - 1 : f->classes - 1];
  if (f->slices) return &f->fr[f->slice_class[lpn / f->cfg.hot_slice_lbas]];
  return &f->fr[0];
}

const struct frontier *place_host_only(const struct ftl *f) {
  return f->cfg.placement == FTL_PLACE_STREAM || f->slices ? NULL : &f->fr[0];
}

struct frontier *place_gc(struct ftl *f, uint32_t lpn) {
  if (f->gc_fr != FTL_NONE) return &f->fr[f->gc_fr];
  return &f->fr[f->slice_class[lpn / f->cfg.hot_slice_lbas]];
}

uint32_t ftl_classes(const struct ftl *f) { return f->classes; }

uint32_t ftl_class_of(const struct ftl *f, uint64_t lba) {
  if (!f->slices || lba >= f->cfg.logical_lbas) return f->cfg.placement == FTL_PLACE_STREAM ? f->classes - 1 : 0;
  return f->slice_class[lba / f->cfg.hot_slice_lbas];
}
