// nand_die.cpp - see nand_die.h.
#include "flash/nand_die.h"

#include <sys/mman.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <new>
#include <stdexcept>
#include <string>

namespace ssdvp {
namespace {

size_t align_up(size_t v, size_t a) { return (v + a - 1) / a * a; }

}  // namespace

NandDie::NandDie(const FlashGeometry& g)
    : blocks_(g.blocks_per_die()), pages_(g.pages_per_block), slots_(g.slots_per_page()) {
  const size_t pages = size_t(blocks_) * pages_;
  const size_t slots = pages * slots_;
  size_t off = 0;
  const size_t token_off = off;
  off = align_up(off + slots * 4, 64);
  const size_t lpn_off = off;
  off = align_up(off + slots * 4, 64);
  const size_t seq_off = off;
  off = align_up(off + pages * 4, 64);
  const size_t erase_off = off;
  off = align_up(off + size_t(blocks_) * 4, 64);
  const size_t wp_off = off;
  off = align_up(off + size_t(blocks_) * 2, 64);
  const size_t torn_n_off = off;
  off = align_up(off + size_t(blocks_) * 2, 64);
  const size_t torn_off = off;
  off += pages;
  map_bytes_ = align_up(off, 4096);
  map_ = mmap(nullptr, map_bytes_, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (map_ == MAP_FAILED) {
    map_ = nullptr;
    throw std::runtime_error("NandDie: cannot reserve " + std::to_string(map_bytes_) +
                             " bytes: " + std::strerror(errno));
  }
  madvise(map_, map_bytes_, MADV_HUGEPAGE);  // random access at scale: fewer TLB misses (a hint; may fail)
  auto* base = static_cast<uint8_t*>(map_);
  token_ = reinterpret_cast<uint32_t*>(base + token_off);
  lpn_ = reinterpret_cast<uint32_t*>(base + lpn_off);
  seq_ = reinterpret_cast<uint32_t*>(base + seq_off);
  erases_ = reinterpret_cast<uint32_t*>(base + erase_off);
  wp_ = reinterpret_cast<uint16_t*>(base + wp_off);  // zero: every block starts erased
  torn_ = base + torn_off;
  torn_n_ = reinterpret_cast<uint16_t*>(base + torn_n_off);
}

NandDie::NandDie(NandDie&& o) noexcept
    : blocks_(o.blocks_),
      pages_(o.pages_),
      slots_(o.slots_),
      map_(o.map_),
      map_bytes_(o.map_bytes_),
      token_(o.token_),
      lpn_(o.lpn_),
      seq_(o.seq_),
      erases_(o.erases_),
      wp_(o.wp_),
      torn_(o.torn_),
      torn_n_(o.torn_n_) {
  o.map_ = nullptr;
  o.map_bytes_ = 0;
}

NandDie::~NandDie() {
  if (map_) munmap(map_, map_bytes_);
}

fc_status NandDie::program(uint32_t block, uint32_t page, const uint32_t* tokens, const uint32_t* lpns, uint32_t seq) {
  if (block >= blocks_ || page >= pages_) return FC_ERR_ADDRESS;
  if (page < wp_[block]) return FC_ERR_NOT_ERASED;
  if (page > wp_[block]) return FC_ERR_ORDER;
  const uint64_t p = page_index(block, page);
  std::memcpy(token_ + p * slots_, tokens, size_t(slots_) * 4);
  std::memcpy(lpn_ + p * slots_, lpns, size_t(slots_) * 4);
  seq_[p] = seq;
  wp_[block] = static_cast<uint16_t>(page + 1);
  return FC_OK;
}

fc_status NandDie::read(uint32_t block, uint32_t page, uint32_t mask, uint32_t* tokens_out, uint32_t* lpns_out,
                        uint32_t* seq_out, uint32_t* flags_out) const {
  if (block >= blocks_ || page >= pages_) return FC_ERR_ADDRESS;
  const uint32_t valid = slots_ >= 32 ? 0xffffffffu : ((1u << slots_) - 1);
  if (mask == 0 || (mask & ~valid)) return FC_ERR_MASK;
  const bool erased = page >= wp_[block];
  const uint64_t p = page_index(block, page);
  if (!erased && torn_n_[block] && (torn_[p] & 1u)) {
    if (flags_out) *flags_out = 0;
    return FC_ERR_UNCORRECTABLE;
  }
  for (uint32_t s = 0; s < slots_; ++s) {
    if (!(mask & (1u << s))) continue;
    if (tokens_out) tokens_out[s] = erased ? SSDVP_TOKEN_ERASED : token_[p * slots_ + s];
    if (lpns_out) lpns_out[s] = erased ? SSDVP_LPN_NONE : lpn_[p * slots_ + s];
  }
  if (seq_out) *seq_out = erased ? 0xffffffffu : seq_[p];
  if (flags_out) *flags_out = erased ? FC_FLAG_ERASED : 0;
  return FC_OK;
}

fc_status NandDie::erase(uint32_t block) {
  if (block >= blocks_) return FC_ERR_ADDRESS;
  if (torn_n_[block]) std::memset(torn_ + page_index(block, 0), 0, pages_);
  torn_n_[block] = 0;
  wp_[block] = 0;
  ++erases_[block];
  return FC_OK;
}

fc_status NandDie::program_torn(uint32_t block, uint32_t page) {
  if (block >= blocks_ || page >= pages_) return FC_ERR_ADDRESS;
  if (page < wp_[block]) return FC_ERR_NOT_ERASED;
  if (page > wp_[block]) return FC_ERR_ORDER;
  torn_[page_index(block, page)] = 1;
  ++torn_n_[block];
  wp_[block] = static_cast<uint16_t>(page + 1);
  return FC_OK;
}

void NandDie::tear_page(uint32_t block, uint32_t page) {
  if (block >= blocks_ || page >= wp_[block]) return;
  uint8_t& b = torn_[page_index(block, page)];
  if (b & 1u) return;
  if (!b) ++torn_n_[block];
  b = 1;  // torn: its hop count no longer matters
}

void NandDie::tear_block(uint32_t block) {
  if (block >= blocks_) return;
  std::memset(torn_ + page_index(block, 0), 1, pages_);
  torn_n_[block] = static_cast<uint16_t>(pages_);
  wp_[block] = static_cast<uint16_t>(pages_);
}

bool NandDie::is_torn(uint32_t block, uint32_t page) const {
  return block < blocks_ && page < wp_[block] && (torn_[page_index(block, page)] & 1u);
}

uint32_t NandDie::hops(uint32_t block, uint32_t page) const {
  if (block >= blocks_ || page >= wp_[block]) return 0;
  return torn_[page_index(block, page)] >> 1;
}

fc_status NandDie::copy_page(uint32_t src_block, uint32_t src_page, uint32_t dst_block, uint32_t dst_page, uint32_t seq,
                             uint32_t* hops_out, uint32_t drop_mask) {
  if (src_block >= blocks_ || src_page >= pages_ || dst_block >= blocks_ || dst_page >= pages_) return FC_ERR_ADDRESS;
  if (src_page >= wp_[src_block]) return FC_ERR_COPYBACK;
  if (dst_page < wp_[dst_block]) return FC_ERR_NOT_ERASED;
  if (dst_page > wp_[dst_block]) return FC_ERR_ORDER;
  const uint64_t s = page_index(src_block, src_page), d = page_index(dst_block, dst_page);
  std::memcpy(token_ + d * slots_, token_ + s * slots_, size_t(slots_) * 4);
  std::memcpy(lpn_ + d * slots_, lpn_ + s * slots_, size_t(slots_) * 4);
  for (uint32_t k = 0; k < slots_; ++k)
    if (drop_mask & (1u << k)) lpn_[d * slots_ + k] = SSDVP_LPN_NONE;
  seq_[d] = seq;
  const uint32_t hops = std::min<uint32_t>((torn_[s] >> 1) + 1, kMaxHops);
  const uint8_t flag = (torn_[s] & 1u) ? uint8_t(1) : static_cast<uint8_t>(hops << 1);  // a torn source: a torn copy
  torn_[d] = flag;                                                                      // erased page: its byte was 0
  ++torn_n_[dst_block];
  wp_[dst_block] = static_cast<uint16_t>(dst_page + 1);
  if (hops_out) *hops_out = hops;
  return FC_OK;
}

uint32_t NandDie::erase_count(uint32_t block) const { return block < blocks_ ? erases_[block] : 0; }
uint32_t NandDie::write_pointer(uint32_t block) const { return block < blocks_ ? wp_[block] : 0; }
bool NandDie::is_programmed(uint32_t block, uint32_t page) const { return block < blocks_ && page < wp_[block]; }

}  // namespace ssdvp
