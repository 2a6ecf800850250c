/*
 * block.c - the block manager: the block table, per-die free lists and the
 * GC candidate index. The bottom of the FTL: it calls no other unit.
 *
 * A block goes FREE -> OPEN (a frontier took it) -> CLOSED (its last page
 * was submitted for programming: a GC candidate) -> VICTIM (GC is moving its
 * valid data) -> ERASING (erase submitted) -> FREE. block_set_state() is the
 * only place a state changes; it checks the transition and keeps the lists:
 *  - free blocks: one doubly linked list per die (blk_next/blk_prev). With
 *    block_choice fifo a die hands out its oldest free block; with
 *    erase_count each list is sorted by erase count (ascending, equal counts
 *    in arrival order) so a frontier can take the lowest, the highest or a
 *    random one;
 *  - candidates (closed blocks), kept incrementally so a choice is O(1)
 *    (greedy, FIFO, random, d-choices) or one pass (cost-benefit):
 *    closed[] holds every candidate, unordered (random, d-choices,
 *    cost-benefit, wear levelling); greedy keeps one list per valid count
 *    with a low-water mark; FIFO one list in close order.
 * Taking a free block and closing one raise f->gc_pending (ftl_internal.h).
 */
#include "ftl_internal.h"

uint32_t rng_next(struct ftl *f) {
  /* xorshift64*: deterministic for a seed, no global state */
  uint64_t x = f->rng;
  x ^= x >> 12;
  x ^= x << 25;
  x ^= x >> 27;
  f->rng = x;
  return (uint32_t)((x * 0x2545F4914F6CDD1Dull) >> 32);
}

/* ---- lists ------------------------------------------------------------------ */

static void list_remove(struct ftl *f, uint32_t blk, uint32_t *head, uint32_t *tail) {
  const uint32_t p = f->blk_prev[blk], n = f->blk_next[blk];
  if (p != FTL_NONE)
    f->blk_next[p] = n;
  else
    *head = n;
  if (n != FTL_NONE)
    f->blk_prev[n] = p;
  else if (tail)
    *tail = p;
  f->blk_prev[blk] = f->blk_next[blk] = FTL_NONE;
}

static void list_push_front(struct ftl *f, uint32_t blk, uint32_t *head) {
  f->blk_prev[blk] = FTL_NONE;
  f->blk_next[blk] = *head;
  if (*head != FTL_NONE) f->blk_prev[*head] = blk;
  *head = blk;
}

/* ---- free blocks ------------------------------------------------------------- */

static void free_insert(struct ftl *f, uint32_t blk) {
  const uint32_t d = block_die(f, blk);
  uint32_t after = f->die_free_tail[d]; /* insert after this block (FTL_NONE: at the head) */
  if (f->cfg.block_choice == FTL_BLOCK_ERASE_COUNT)
    while (after != FTL_NONE && f->blk_erase[after] > f->blk_erase[blk]) after = f->blk_prev[after];
  const uint32_t next = after == FTL_NONE ? f->die_free_head[d] : f->blk_next[after];
  f->blk_prev[blk] = after;
  f->blk_next[blk] = next;
  if (after == FTL_NONE)
    f->die_free_head[d] = blk;
  else
    f->blk_next[after] = blk;
  if (next == FTL_NONE)
    f->die_free_tail[d] = blk;
  else
    f->blk_prev[next] = blk;
  f->die_free_count[d]++;
  f->free_total++;
  f->stats.free_blocks = f->free_total;
}

static void free_remove(struct ftl *f, uint32_t blk) {
  const uint32_t d = block_die(f, blk);
  list_remove(f, blk, &f->die_free_head[d], &f->die_free_tail[d]);
  f->die_free_count[d]--;
  f->free_total--;
  f->stats.free_blocks = f->free_total;
  if (f->free_total < f->stats.free_blocks_min) f->stats.free_blocks_min = f->free_total;
}

static uint32_t free_pick(struct ftl *f, uint32_t d, uint8_t wear) {
  if (f->cfg.block_choice != FTL_BLOCK_ERASE_COUNT || wear == WEAR_LOWEST) return f->die_free_head[d];
  if (wear == WEAR_HIGHEST) return f->die_free_tail[d];
  uint32_t blk = f->die_free_head[d];
  for (uint32_t i = f->die_free_count[d] ? rng_next(f) % f->die_free_count[d] : 0; i > 0 && blk != FTL_NONE; --i)
    blk = f->blk_next[blk];
  return blk;
}

/* ---- candidates ---------------------------------------------------------------- */

static void candidate_add(struct ftl *f, uint32_t blk) {
  f->die_cand[block_die(f, blk)]++;
  f->closed_pos[blk] = f->closed_count;
  f->closed[f->closed_count++] = blk;
  f->blk_prev[blk] = f->blk_next[blk] = FTL_NONE;
  if (f->cfg.gc_policy == FTL_GC_GREEDY) {
    const uint32_t v = f->blk_valid[blk];
    list_push_front(f, blk, &f->bucket_head[v]);
    if (v < f->bucket_min) f->bucket_min = v;
  } else if (f->cfg.gc_policy == FTL_GC_FIFO) {
    f->blk_prev[blk] = f->fifo_tail;
    if (f->fifo_tail != FTL_NONE)
      f->blk_next[f->fifo_tail] = blk;
    else
      f->fifo_head = blk;
    f->fifo_tail = blk;
  }
}

static void candidate_remove(struct ftl *f, uint32_t blk) {
  f->die_cand[block_die(f, blk)]--;
  const uint32_t pos = f->closed_pos[blk];
  const uint32_t last = f->closed[--f->closed_count];
  f->closed[pos] = last;
  f->closed_pos[last] = pos;
  f->closed_pos[blk] = FTL_NONE;
  if (f->cfg.gc_policy == FTL_GC_GREEDY)
    list_remove(f, blk, &f->bucket_head[f->blk_valid[blk]], NULL);
  else if (f->cfg.gc_policy == FTL_GC_FIFO)
    list_remove(f, blk, &f->fifo_head, &f->fifo_tail);
}

/* Greedy's lists follow each closed block's valid count. */
static void valid_moved(struct ftl *f, uint32_t blk, uint32_t old_valid) {
  if (f->cfg.gc_policy != FTL_GC_GREEDY || f->blk_state[blk] != BLK_CLOSED) return;
  list_remove(f, blk, &f->bucket_head[old_valid], NULL);
  const uint32_t v = f->blk_valid[blk];
  list_push_front(f, blk, &f->bucket_head[v]);
  if (v < f->bucket_min) f->bucket_min = v;
}

void block_valid_inc(struct ftl *f, uint32_t blk) { valid_moved(f, blk, f->blk_valid[blk]++); }
void block_valid_dec(struct ftl *f, uint32_t blk) { valid_moved(f, blk, f->blk_valid[blk]--); }

void block_invalidate_slot(struct ftl *f, uint32_t ppa) {
  uint32_t *w = &f->valid_bits[ppa >> 5];
  const uint32_t bit = 1u << (ppa & 31);
  if (!(*w & bit)) return;
  *w &= ~bit;
  block_valid_dec(f, row_block(f, ppa_row(f, ppa)));
}

/* ---- state ------------------------------------------------------------------------ */

void block_init(struct ftl *f) {
  for (uint32_t d = 0; d < f->dies; ++d) {
    f->die_free_head[d] = f->die_free_tail[d] = FTL_NONE;
    f->die_free_count[d] = 0;
    f->die_reclaim[d] = 0;
    f->die_cand[d] = 0;
  }
  for (uint32_t i = 0; i <= f->slots_per_block; ++i) f->bucket_head[i] = FTL_NONE;
  f->fifo_head = f->fifo_tail = FTL_NONE;
  f->closed_count = 0;
  for (uint32_t b = 0; b < f->total_blocks; ++b) {
    f->blk_state[b] = BLK_FREE;
    f->blk_valid[b] = 0;
    f->blk_erase[b] = 0;
    f->blk_wp[b] = 0;
    f->blk_inbuf[b] = 0;
    f->blk_flags[b] = 0;
    f->blk_reads[b] = 0;
    f->closed_pos[b] = FTL_NONE;
    free_insert(f, b);
  }
  f->urgent = 0;
  f->stats.free_blocks_min = f->free_total;
}

/* Retirement: from FREE (factory marked), VICTIM (its data moved after a
 * program failed) or ERASING (the erase failed). */
static void block_retire(struct ftl *f, uint32_t blk) {
  const uint32_t from = f->blk_state[blk];
  if (from == BLK_FREE) {
    free_remove(f, blk);
    f->stats.factory_bad_blocks++;
  } else if (from == BLK_VICTIM || from == BLK_ERASING) {
    f->die_reclaim[block_die(f, blk)]--;
    f->stats.retired_blocks++;
  } else {
    hal_logf(f->hal, HAL_LOG_ERROR, "ftl: block %" PRIu32 " cannot be retired from state %" PRIu32 "", blk, from);
    f->fatal = 1;
    return;
  }
  f->blk_flags[blk] = 0;
  f->blk_state[blk] = BLK_BAD;
}

void block_set_state(struct ftl *f, uint32_t blk, enum blk_state to) {
  if (to == BLK_BAD) {
    block_retire(f, blk);
    return;
  }
  static const uint8_t successor[] = {[BLK_FREE] = BLK_OPEN,
                                      [BLK_OPEN] = BLK_CLOSED,
                                      [BLK_CLOSED] = BLK_VICTIM,
                                      [BLK_VICTIM] = BLK_ERASING,
                                      [BLK_ERASING] = BLK_FREE};
  const uint32_t from = f->blk_state[blk];
  if (from > BLK_ERASING || successor[from] != to) {
    hal_logf(f->hal, HAL_LOG_ERROR, "ftl: block %" PRIu32 " cannot go from state %" PRIu32 " to %d", blk, from,
             (int)to);
    f->fatal = 1;
    return;
  }
  switch (to) {
    case BLK_OPEN: /* taken by a frontier */
      free_remove(f, blk);
      f->blk_wp[blk] = 0;
      f->blk_valid[blk] = 0;
      f->blk_inbuf[blk] = 0;
      f->gc_pending = 1;
      break;
    case BLK_CLOSED: /* last page submitted: a candidate */
      f->blk_closed_ns[blk] = hal_time_ns(f->hal);
      candidate_add(f, blk);
      if (f->blk_flags[blk]) f->urgent++;
      f->gc_pending = 1;
      break;
    case BLK_VICTIM:
      candidate_remove(f, blk);
      if (f->blk_flags[blk]) f->urgent--;
      f->die_reclaim[block_die(f, blk)]++;
      break;
    case BLK_ERASING:
    case BLK_BAD: break; /* BLK_BAD: block_retire() above */
    case BLK_FREE:       /* erased */
      f->die_reclaim[block_die(f, blk)]--;
      f->blk_erase[blk]++;
      f->blk_wp[blk] = 0;
      f->blk_valid[blk] = 0;
      f->blk_flags[blk] = 0;
      f->blk_reads[blk] = 0;
      free_insert(f, blk);
      break;
  }
  f->blk_state[blk] = (uint8_t)to;
}

uint32_t block_take_free(struct ftl *f, uint32_t d, uint8_t wear) {
  const uint32_t blk = free_pick(f, d, wear);
  if (blk == FTL_NONE) return FTL_NONE;
  block_set_state(f, blk, BLK_OPEN);
  hal_charge(f->hal, FW_OP_block_alloc, 1);
  return blk;
}

uint32_t block_take_free_plane(struct ftl *f, uint32_t d, uint32_t plane, uint8_t wear) {
  const int from_tail = f->cfg.block_choice == FTL_BLOCK_ERASE_COUNT && wear == WEAR_HIGHEST;
  uint32_t blk = from_tail ? f->die_free_tail[d] : f->die_free_head[d];
  while (blk != FTL_NONE && block_plane(f, blk) != plane) blk = from_tail ? f->blk_prev[blk] : f->blk_next[blk];
  if (blk == FTL_NONE) return FTL_NONE;
  block_set_state(f, blk, BLK_OPEN);
  hal_charge(f->hal, FW_OP_block_alloc, 1);
  return blk;
}

uint32_t block_take_free_index(struct ftl *f, uint32_t d, uint32_t plane, uint32_t index, uint8_t wear) {
  const uint32_t planes = f->cfg.planes_per_die, base = d * f->cfg.blocks_per_die;
  uint32_t blk = FTL_NONE;
  if (index != FTL_NONE) {
    blk = base + index * planes + plane;
    if (f->blk_state[blk] != BLK_FREE) return FTL_NONE;
  } else {
    const int from_tail = f->cfg.block_choice == FTL_BLOCK_ERASE_COUNT && wear == WEAR_HIGHEST;
    for (blk = from_tail ? f->die_free_tail[d] : f->die_free_head[d]; blk != FTL_NONE;
         blk = from_tail ? f->blk_prev[blk] : f->blk_next[blk]) {
      if (block_plane(f, blk) != plane) continue;
      const uint32_t first = blk - (blk - base) % planes;
      uint32_t q = first;
      while (q < first + planes && f->blk_state[q] == BLK_FREE) ++q;
      if (q == first + planes) break;
    }
    if (blk == FTL_NONE) return FTL_NONE;
  }
  block_set_state(f, blk, BLK_OPEN);
  hal_charge(f->hal, FW_OP_block_alloc, 1);
  return blk;
}

/* ---- victim choice ------------------------------------------------------------------ */

/* a * b > c * d for 64-bit operands, exactly, without a 128-bit type (the
 * firmware also builds for 32-bit controllers). */
static void mul64(uint64_t a, uint64_t b, uint64_t *hi, uint64_t *lo) {
  const uint64_t al = (uint32_t)a, ah = a >> 32, bl = (uint32_t)b, bh = b >> 32;
  const uint64_t ll = al * bl, lh = al * bh, hl = ah * bl, hh = ah * bh;
  const uint64_t mid = (ll >> 32) + (uint32_t)lh + (uint32_t)hl;
  *lo = (mid << 32) | (uint32_t)ll;
  *hi = hh + (lh >> 32) + (hl >> 32) + (mid >> 32);
}

static int mul_gt(uint64_t a, uint64_t b, uint64_t c, uint64_t d) {
  uint64_t h1, l1, h2, l2;
  mul64(a, b, &h1, &l1);
  mul64(c, d, &h2, &l2);
  return h1 > h2 || (h1 == h2 && l1 > l2);
}

/* The dies GC collects from: those whose free blocks, counting the blocks
 * being collected there, are fewest (among dies with a candidate). A freed
 * block returns to its own die's free list and a frontier skips a die with
 * none, so collecting elsewhere would leave that die idle while the others
 * queue its share of the writes. FIFO frees blocks in the order they were
 * written, round-robin over the dies; without this rule every other policy
 * empties some dies and overfills others. Per-die collection is what
 * controllers with per-die free pools do (Cosmos+ OpenSSD's GreedyFTL
 * collects the die that runs out; MQSim collects per plane); here the policy
 * still compares candidates across all dies that are equally short. */
#define ANY_DIE UINT32_MAX

/* The rule holds down to the reserve. (It once yielded at half the reserve:
 * with a frontier per class it ran the pool dry. The cause was not the
 * victims but frontiers hoarding free blocks; alloc.c's host floor fixes
 * that.) */
static uint32_t short_level(const struct ftl *f) {
  uint32_t level = ANY_DIE, above = 0;
  for (uint32_t d = 0; d < f->dies; ++d) {
    if (!f->die_cand[d]) continue;
    const uint32_t have = f->die_free_count[d] + f->die_reclaim[d];
    if (level != ANY_DIE && have != level) above = 1;
    if (have < level) level = have;
  }
  return above ? level : ANY_DIE; /* every die equally short: no preference */
}

static int on_short_die(const struct ftl *f, uint32_t blk, uint32_t level) {
  if (level == ANY_DIE) return 1;
  const uint32_t d = block_die(f, blk);
  return f->die_free_count[d] + f->die_reclaim[d] == level;
}

/* A uniformly random candidate on a short die: by rejection (short dies hold
 * about a 1/dies share of the candidates or more), then by a scan. */
static uint32_t random_short(struct ftl *f, uint32_t level) {
  for (uint32_t tries = 0; tries < 8 * f->dies + 8; ++tries) {
    const uint32_t b = f->closed[rng_next(f) % f->closed_count];
    if (on_short_die(f, b, level)) return b;
  }
  const uint32_t start = rng_next(f) % f->closed_count;
  for (uint32_t i = 0; i < f->closed_count; ++i) {
    const uint32_t b = f->closed[(start + i) % f->closed_count];
    if (on_short_die(f, b, level)) return b;
  }
  return FTL_NONE;
}

static uint32_t pick_by_policy(struct ftl *f) {
  const uint32_t level = short_level(f);
  switch (f->cfg.gc_policy) {
    case FTL_GC_GREEDY:
      while (f->bucket_min <= f->slots_per_block && f->bucket_head[f->bucket_min] == FTL_NONE) ++f->bucket_min;
      for (uint32_t v = f->bucket_min; v <= f->slots_per_block; ++v)
        for (uint32_t b = f->bucket_head[v]; b != FTL_NONE; b = f->blk_next[b])
          if (on_short_die(f, b, level)) return b;
      return FTL_NONE;
    case FTL_GC_FIFO:
      for (uint32_t b = f->fifo_head; b != FTL_NONE; b = f->blk_next[b])
        if (on_short_die(f, b, level)) return b;
      return FTL_NONE;
    case FTL_GC_RANDOM: return random_short(f, level);
    case FTL_GC_DCHOICES: {
      uint32_t best = FTL_NONE;
      for (uint32_t i = 0; i < f->cfg.gc_dchoices; ++i) {
        const uint32_t b = random_short(f, level);
        if (best == FTL_NONE || f->blk_valid[b] < f->blk_valid[best]) best = b;
      }
      return best;
    }
    case FTL_GC_COST_BENEFIT: {
      const uint64_t now = hal_time_ns(f->hal);
      uint32_t best = FTL_NONE;
      uint64_t best_num = 0, best_den = 1;
      for (uint32_t i = 0; i < f->closed_count; ++i) {
        const uint32_t b = f->closed[i];
        if (!on_short_die(f, b, level)) continue;
        const uint64_t v = f->blk_valid[b];
        if (v == 0) return b;
        /* benefit/cost = age * (1 - u) / (2u), u = v / slots_per_block */
        const uint64_t age = now - f->blk_closed_ns[b] + 1;
        const uint64_t num = age * (f->slots_per_block - v), den = 2 * v;
        if (best == FTL_NONE || mul_gt(num, best_den, best_num, den)) {
          best = b;
          best_num = num;
          best_den = den;
        }
      }
      return best;
    }
    default: return FTL_NONE;
  }
}

uint32_t block_pick_victim(struct ftl *f) {
  if (f->closed_count == 0) return FTL_NONE;
  const uint32_t v = pick_by_policy(f);
  hal_charge(f->hal, FW_OP_gc_victim_select, 1); /* after the work: the ISS's cost marker closes the op */
  return v;
}

uint32_t block_pick_coldest(struct ftl *f) {
  uint32_t best = FTL_NONE;
  for (uint32_t k = 0; k < f->closed_count; ++k) {
    const uint32_t b = f->closed[k];
    if (best == FTL_NONE || f->blk_erase[b] < f->blk_erase[best]) best = b;
  }
  hal_charge(f->hal, FW_OP_gc_victim_select, 1);
  return best;
}

/* ---- blocks to collect before GC would (retirement, refresh) ------------------ */

void block_flag(struct ftl *f, uint32_t blk, uint8_t flag) {
  const uint8_t had = f->blk_flags[blk];
  if (f->blk_state[blk] == BLK_BAD || (had & flag)) return;
  f->blk_flags[blk] = (uint8_t)(had | flag);
  if (!had && f->blk_state[blk] == BLK_CLOSED) f->urgent++;
}

uint32_t block_pick_urgent(struct ftl *f) {
  if (!f->urgent) return FTL_NONE;
  for (uint32_t k = 0; k < f->closed_count; ++k)
    if (f->blk_flags[f->closed[k]]) return f->closed[k];
  return FTL_NONE;
}

void block_note_read(struct ftl *f, uint32_t blk, uint32_t retries, int uncorrectable) {
  const uint32_t reads = ++f->blk_reads[blk];
  if (retries) {
    f->stats.reads_retried++;
    f->stats.read_retries += retries;
  }
  if (uncorrectable) f->stats.uncorrectable_reads++;
  if (uncorrectable || (f->cfg.refresh_retries && retries >= f->cfg.refresh_retries) ||
      (f->cfg.refresh_read_limit && reads >= f->cfg.refresh_read_limit))
    block_flag(f, blk, BLKF_REFRESH);
}

/* ---- erase-count spread -------------------------------------------------------------- */

void ftl_erase_spread(const struct ftl *f, uint32_t *min, double *mean, uint32_t *max) {
  uint32_t lo = UINT32_MAX, hi = 0;
  uint64_t sum = 0;
  for (uint32_t b = 0; b < f->total_blocks; ++b) {
    const uint32_t e = f->blk_erase[b];
    if (e < lo) lo = e;
    if (e > hi) hi = e;
    sum += e;
  }
  *min = f->total_blocks ? lo : 0;
  *max = hi;
  *mean = f->total_blocks ? (double)sum / f->total_blocks : 0.0;
}
