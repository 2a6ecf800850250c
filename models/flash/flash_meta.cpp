// flash_meta.cpp - metadata payloads of flash pages (fc_sqe.meta).
//
// The platform carries data as tokens, one 32-bit word per LBA
// (docs/architecture.md). The firmware's own metadata pages - checkpoints of
// the L2P and the block table (firmware/ftl/ckpt.c) - are bytes, as dense as
// a page holds: a PROGRAM with fc_sqe.meta set takes meta_bytes bytes from
// that DRAM address with the page, and a READ with it set writes them back
// there. Timing is the page's (a program transfers and programs a whole page
// anyway). What a power cut or a failed program tears, or an erase clears,
// reads back as the page does: uncorrectable or erased, without payload.
#include <algorithm>

#include "flash/flash_ctrl.h"

namespace ssdvp {

bool FlashCtrl::meta_program(const fc_sqe& d, bool failed, uint64_t* lat) {
  if (!d.meta) {
    if (!meta_.empty()) meta_.erase(d.row);  // a data page where a metadata page was once
    return true;
  }
  std::vector<uint8_t> bytes(d.meta_bytes);
  if (!bytes.empty() && !dram_read(d.meta, bytes.data(), d.meta_bytes, lat)) return false;
  if (failed)
    meta_.erase(d.row);
  else
    meta_[d.row] = std::move(bytes);
  return true;
}

bool FlashCtrl::meta_read(const fc_sqe& d, uint32_t flags, bool uncorrectable, uint64_t* lat) {
  if (!d.meta || uncorrectable || (flags & FC_FLAG_ERASED)) return true;
  const auto it = meta_.find(d.row);
  if (it == meta_.end()) return true;
  const uint32_t n = std::min<uint32_t>(d.meta_bytes, uint32_t(it->second.size()));
  return n == 0 || dram_write(d.meta, it->second.data(), n, lat);
}

}  // namespace ssdvp
