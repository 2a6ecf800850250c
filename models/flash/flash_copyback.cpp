// flash_copyback.cpp - copyback in the flash controller (FC_OP_COPYBACK, see
// flash_ctrl.h, docs/models/flash_ctrl.md "Copyback").
//
// The die senses the source page into its page register (00h-address-35h:
// one tR), the controller reads the source's spare bytes out (its LPNs and
// sequence number, a few bytes on the channel: the firmware learns which
// LBAs moved) and programs the register into the destination page
// (85h-address-10h: one tPROG). The page's data never crosses the channel
// and never meets the ECC engine: with bit errors on, the copy keeps the
// errors the source had (FlashFaults::copy). The rules: copyback_rules.h
// (same die, plane and page type) and NandDie::copy_page (source programmed,
// destination at its write pointer); a violation changes nothing and
// completes with its status.
#include <algorithm>

#include "flash/copyback_rules.h"
#include "flash/flash_ctrl.h"

namespace ssdvp {

bool FlashCtrl::copyback_page(const fc_sqe& d, const OpTarget& at, uint64_t arrival, fc_cqe& cqe, uint64_t* lat) {
  const uint32_t S = geo_.slots_per_page(), src = FC_COPYBACK_SRC(d);
  const CopybackVerdict v = copyback_check(geo_, cell_.bits, src, d.row);
  if (v.status != FC_OK) {
    cqe.status = static_cast<uint16_t>(violation(d, v.status, v.why));
    return false;
  }
  if (S < 32 && (FC_COPYBACK_DROP(d) >> S) != 0) {
    cqe.status = static_cast<uint16_t>(violation(d, FC_ERR_MASK, "copyback drop mask beyond the slots of a page"));
    return false;
  }
  const uint32_t sblock = src / geo_.pages_per_block, spage = src % geo_.pages_per_block;
  const uint32_t sbid = sblock % geo_.blocks_per_die();
  NandDie& nand = dies_[at.die];
  uint32_t buf[2 * 32 + 1];  // token[S] (untouched), lpn[S], seq
  if (!dram_read(d.buf, buf, FC_PAGE_BUF_BYTES(S), lat)) {
    cqe.status = static_cast<uint16_t>(violation(d, FC_ERR_DMA, "page buffer outside DRAM"));
    return false;
  }
  // The rules on the pages' state, before anything changes.
  if (!nand.is_programmed(sbid, spage)) {
    cqe.status = static_cast<uint16_t>(violation(d, FC_ERR_COPYBACK, "copyback source page is not programmed"));
    return false;
  }
  const uint32_t wp = nand.write_pointer(at.bid);
  if (at.page != wp) {
    const fc_status st = at.page < wp ? FC_ERR_NOT_ERASED : FC_ERR_ORDER;
    cqe.status = static_cast<uint16_t>(
        violation(d, st, st == FC_ERR_NOT_ERASED ? "page is not erased" : "program out of page order in its block"));
    return false;
  }
  // The source's spare bytes (a torn source's do not decode), then the copy.
  const uint32_t all = S >= 32 ? 0xffffffffu : (1u << S) - 1;
  const bool torn = nand.read(sbid, spage, all, nullptr, buf + S, buf + 2 * S, nullptr) == FC_ERR_UNCORRECTABLE;
  const bool fail = faults_.program_fails(at.block);
  uint32_t hops = 0;
  if (fail) {
    nand.program_torn(at.bid, at.page);
  } else {
    nand.copy_page(sbid, spage, at.bid, at.page, d.seq, &hops, FC_COPYBACK_DROP(d));
    faults_.copy(sblock, nand.erase_count(sbid), S, functional_ ? 0 : arrival, src, d.row);
    faults_.on_program(at.block, at.page, functional_ ? 0 : arrival);
  }
  if (!meta_.empty()) meta_.erase(d.row);  // a data page where a metadata page was once
  if (!dram_write(d.buf, buf, FC_PAGE_BUF_BYTES(S), lat)) {
    cqe.status = static_cast<uint16_t>(violation(d, FC_ERR_DMA, "page buffer outside DRAM"));
    return false;
  }
  cqe.flags = static_cast<uint16_t>(std::min<uint32_t>(hops, 255) << FC_FLAG_RETRIES_SHIFT);
  cqe.status = fail ? FC_ERR_PROGRAM_FAIL : torn ? FC_ERR_UNCORRECTABLE : FC_OK;
  ++n_copyback_;
  if (FC_COPYBACK_DROP(d)) ++n_copyback_drop_;
  return true;
}

// Command and address (00h-35h), tR of the source page, then the spare
// bytes out and the program command (85h-10h) on the channel, and tPROG of
// the destination page; no page data on the channel or through the DMA.
// Slots dropped from the copy's OOB (FC_COPYBACK_DROP) add a change-column
// command and the rewritten LPNs (4 bytes a slot) on the channel.
uint64_t FlashCtrl::copyback_timing(const fc_sqe& d, const OpTarget& at, uint64_t arrival, uint64_t lat) {
  const uint32_t S = geo_.slots_per_page();
  const uint64_t oob_bytes = 4ull * S + 4;
  const uint64_t oob = t_.channel_ps(oob_bytes) + (FC_COPYBACK_DROP(d) ? t_.cmd_ps + t_.channel_ps(4ull * S) : 0);
  const uint64_t tr = read_time(FC_COPYBACK_SRC(d) % geo_.pages_per_block), tp = program_time(at.page);
  if (sched_.on()) return sched_timed(d, at.die, at.ch, at.block, arrival, arrival, t_.cmd_ps + oob, 0, tr + tp);
  const uint64_t start = reserve(at.ch, std::max(arrival, die_busy_until_[at.die]), t_.cmd_ps);
  const uint64_t out = reserve(at.ch, start + t_.cmd_ps + tr, t_.cmd_ps + oob);
  const uint64_t end = out + t_.cmd_ps + oob + tp;
  return occupy(d, at, arrival, start, end, std::max(end, out + t_.cmd_ps + oob + lat + t_.dma_ps(oob_bytes)));
}

}  // namespace ssdvp
