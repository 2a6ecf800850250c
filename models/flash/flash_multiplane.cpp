// flash_multiplane.cpp - multi-plane operations in the flash controller (see
// flash_ctrl.h, docs/models/flash_ctrl.md "Multi-plane operations").
//
// Descriptors with a plane opcode (FC_OP_PLANE_*) are held, per die, until
// the plain opcode on the same die that ends their group arrives (in the
// same doorbell or a later one); descriptors for other dies may come in
// between, as a controller addresses other LUNs of a channel while one waits
// for its group's last plane. The group is then checked against the NAND rules
// (multiplane_rules.h) and against the rules each member would meet alone
// (address, mask, page buffer, page order); a group that breaks any changes
// nothing and completes every member with the status at the arrival of its
// last descriptor, counting one violation. Otherwise each member is executed
// functionally by execute() and the group is timed here as one die
// operation: the command and address cycles of every plane, one tR, tPROG or
// tBERS, and each plane's data transfer on the channel.
#include <algorithm>

#include "flash/flash_ctrl.h"
#include "flash/multiplane_rules.h"

namespace ssdvp {

bool FlashCtrl::multiplane_take(const fc_sqe& d, uint64_t arrival) {
  const bool plane = FC_OP_IS_PLANE(d.op);
  if (!plane && mp_open_ == 0) return false;  // every path below returns false: no group to end
  const uint32_t kind = FC_OP_KIND(d.op);
  if (kind < FC_OP_READ || kind > FC_OP_ERASE) return false;  // execute() refuses the opcode
  if (kind == FC_OP_ERASE ? d.row >= geo_.total_blocks() : d.row >= geo_.pages_total()) {
    if (!plane) return false;  // execute() refuses the row
    fc_sqe k = d;              // a plane descriptor outside the geometry: refused alone, as its plain kind
    k.op = static_cast<uint8_t>(kind);
    fc_cqe cqe{};
    multiplane_post(MpMember{k, arrival}, cqe, execute(k, arrival, cqe));
    return true;
  }
  const uint32_t die = geo_.die_of_block(kind == FC_OP_ERASE ? d.row : d.row / geo_.pages_per_block);
  if (mp_.empty()) mp_.resize(geo_.dies());
  std::vector<MpMember>& g = mp_[die];
  if (!plane && g.empty()) return false;
  mp_open_ += g.empty();
  g.push_back(MpMember{d, arrival});
  // A plain opcode ends the group; a group already longer than the die has
  // planes cannot become legal: it is refused now rather than held.
  if (!plane || g.size() > geo_.planes_per_die) multiplane_run(die);
  return true;
}

void FlashCtrl::multiplane_post(const MpMember& m, const fc_cqe& cqe, uint64_t done) {
  if (functional_)
    rings_.complete(cqe);
  else
    complete(done, cqe, static_cast<uint8_t>(FC_OP_KIND(m.d.op)), m.d.row);
}

void FlashCtrl::multiplane_run(uint32_t group_die) {
  std::vector<MpMember> g;
  g.swap(mp_[group_die]);
  mp_open_ -= !g.empty();
  const size_t n = g.size();
  const uint64_t a = g.back().arrival;
  const uint32_t kind = FC_OP_KIND(g.back().d.op);
  const uint32_t S = geo_.slots_per_page();
  const uint64_t buf_bytes = FC_PAGE_BUF_BYTES(S);

  // The rules, before anything changes.
  std::vector<fc_sqe> ds(n);
  for (size_t i = 0; i < n; ++i) ds[i] = g[i].d;
  MultiplaneVerdict v = multiplane_check(geo_, ds.data(), n, mp_same_block_);
  if (v.status == FC_OK && FC_OP_IS_PLANE(g.back().d.op)) {
    v.status = FC_ERR_MULTIPLANE, v.why = "multi-plane group has more members than the die has planes",
    v.member = n - 1;
  }
  for (size_t i = 0; v.status == FC_OK && i < n; ++i) {
    const fc_sqe& d = g[i].d;
    v.member = i;
    if (kind == FC_OP_READ && (d.slot_mask == 0 || (S < 32 && (d.slot_mask >> S) != 0))) {
      v.status = FC_ERR_MASK, v.why = d.slot_mask ? "slot mask beyond the slots of a page" : "empty slot mask";
    } else if (kind != FC_OP_ERASE &&
               (d.buf % 4 != 0 || d.buf < uint64_t(SSDVP_DRAM_BASE) || !dram_reachable(d.buf, buf_bytes))) {
      v.status = FC_ERR_DMA, v.why = "page buffer outside DRAM or unaligned";
    } else if (kind == FC_OP_PROGRAM) {
      const uint32_t block = d.row / geo_.pages_per_block, page = d.row % geo_.pages_per_block;
      const uint32_t wp = dies_[geo_.die_of_block(block)].write_pointer(block % geo_.blocks_per_die());
      if (page != wp) {
        v.status = page < wp ? FC_ERR_NOT_ERASED : FC_ERR_ORDER;
        v.why = page < wp ? "page is not erased" : "program out of page order in its block";
      }
    }
  }
  if (v.status != FC_OK) {
    fc_sqe named = g[v.member].d;
    named.op = static_cast<uint8_t>(kind);
    violation(named, v.status, v.why);
    for (const MpMember& m : g) multiplane_post(m, fc_cqe{m.d.tag, static_cast<uint16_t>(v.status), 0}, a);
    return;
  }

  // Each plane's content, as a plain operation would change it.
  std::vector<fc_cqe> cqe(n);
  mp_untimed_ = true;
  for (size_t i = 0; i < n; ++i) {
    fc_sqe d = g[i].d;
    d.op = static_cast<uint8_t>(kind);
    execute(d, g[i].arrival, cqe[i]);
  }
  mp_untimed_ = false;
  if (n > 1) ++n_mp_ops_;
  if (functional_) {
    for (size_t i = 0; i < n; ++i) multiplane_post(g[i], cqe[i], 0);
    return;
  }

  // One die operation for the group.
  const uint32_t block0 = kind == FC_OP_ERASE ? g[0].d.row : g[0].d.row / geo_.pages_per_block;
  const uint32_t die = geo_.die_of_block(block0), ch = geo_.channel_of_die(die);
  const uint32_t page = kind == FC_OP_ERASE ? 0 : g[0].d.row % geo_.pages_per_block;
  uint64_t lat = 0;
  if (kind != FC_OP_ERASE) {
    uint32_t w = 0;
    dram_read(g[0].d.buf, &w, 4, &lat);  // the DRAM access latency of a page buffer (no side effect)
  }
  std::vector<uint64_t> done(n, a);
  uint64_t start = 0, end = 0;
  const uint64_t cmds = uint64_t(n) * t_.cmd_ps;
  fc_sqe lead = g.back().d;  // what the scheduler sees: the group as one operation of its kind
  lead.op = static_cast<uint8_t>(kind);
  switch (kind) {
    case FC_OP_READ: {
      const uint64_t tr = read_time(page);
      std::vector<uint64_t> x(n), bytes(n), retries(n);
      uint64_t xsum = 0, rsum = 0, bsum = 0;
      for (size_t i = 0; i < n; ++i) {
        bytes[i] = uint64_t(__builtin_popcount(g[i].d.slot_mask)) * geo_.lba_size;
        x[i] = t_.channel_ps(bytes[i]);
        retries[i] = FC_FLAG_RETRIES(cqe[i].flags);
        xsum += x[i], bsum += bytes[i], rsum += retries[i] * (t_.cmd_ps + tr + x[i]);
      }
      if (sched_.on()) {  // the other planes' command cycles are reserved with the data-out
        sched_group_ = static_cast<uint32_t>(n);
        const uint64_t t =
            sched_timed(lead, die, ch, block0, a, a, xsum + cmds - t_.cmd_ps, lat + t_.dma_ps(bsum), tr + rsum);
        sched_group_ = 1;
        std::fill(done.begin(), done.end(), t);
        for (size_t i = 0; i < n; ++i) multiplane_post(g[i], cqe[i], t);
        return;
      }
      start = reserve(ch, std::max(a, die_busy_until_[die]), cmds);
      uint64_t prev = start + cmds + tr;
      for (size_t i = 0; i < n; ++i) {
        uint64_t xs = reserve(ch, prev, x[i]);
        for (uint64_t r = 0; r < retries[i]; ++r) {  // each level: command, tR, data-out again
          const uint64_t c = reserve(ch, xs + x[i], t_.cmd_ps);
          xs = reserve(ch, c + t_.cmd_ps + tr, x[i]);
        }
        prev = xs + x[i];
        done[i] = prev + lat + t_.dma_ps(bytes[i]);
      }
      end = prev;
      break;
    }
    case FC_OP_PROGRAM: {
      const uint64_t x = t_.cmd_ps + t_.channel_ps(geo_.page_size);
      const uint64_t in = lat + t_.dma_ps(geo_.page_size);
      if (sched_.on()) {
        sched_group_ = static_cast<uint32_t>(n);
        const uint64_t t = sched_timed(lead, die, ch, block0, a, a + in, uint64_t(n) * x, 0, program_time(page));
        sched_group_ = 1;
        for (size_t i = 0; i < n; ++i) multiplane_post(g[i], cqe[i], t);
        return;
      }
      uint64_t prev = die_busy_until_[die];
      for (size_t i = 0; i < n; ++i) {  // data-in plane by plane, then one tPROG
        const uint64_t s = reserve(ch, std::max(g[i].arrival + in, prev), x);
        if (i == 0) start = s;
        prev = s + x;
      }
      end = prev + program_time(page);
      std::fill(done.begin(), done.end(), end);
      break;
    }
    default: {  // FC_OP_ERASE
      if (sched_.on()) {
        sched_group_ = static_cast<uint32_t>(n);
        const uint64_t t = sched_timed(lead, die, ch, block0, a, a, cmds - t_.cmd_ps, 0, t_.erase_ps);
        sched_group_ = 1;
        for (size_t i = 0; i < n; ++i) multiplane_post(g[i], cqe[i], t);
        return;
      }
      start = reserve(ch, std::max(a, die_busy_until_[die]), cmds);
      end = start + cmds + t_.erase_ps;
      std::fill(done.begin(), done.end(), end);
      break;
    }
  }
  die_busy_until_[die] = end;
  die_busy_ps_[die] += end - start;
  for (size_t i = 0; i < n; ++i) {
    if (observer_)
      observer_(FlashOpRecord{die, ch, static_cast<uint8_t>(kind), g[i].d.row, g[i].arrival, start, end, done[i]});
    multiplane_post(g[i], cqe[i], done[i]);
  }
}

}  // namespace ssdvp
