// nand_die.h - functional store of one NAND die and the NAND rules.
//
// Holds, per slot, the data token and the OOB LPN; per page, the OOB sequence
// number; per block, the write pointer (next page to program) and the erase
// count. Nothing else: no per-page objects. The arrays live in one anonymous
// MAP_NORESERVE mapping, so blocks that were never programmed cost no memory.
// Erase only resets the write pointer: a page at or past the write pointer
// reads as erased whatever the array holds.
//
// Rules: pages of a block are programmed in order, each once between erases
// (FC_ERR_ORDER, FC_ERR_NOT_ERASED); addresses outside the die are
// FC_ERR_ADDRESS; a read slot mask must be non-empty and within the page
// (FC_ERR_MASK). A rejected operation changes nothing. No timing here.
//
// Faults (decided by FlashFaults, recorded here): a page can be torn (a
// failed program, or one cut by power loss): it is consumed (the write
// pointer moved past it) and every read of it is FC_ERR_UNCORRECTABLE until
// the block is erased again.
//
// Copyback (FC_OP_COPYBACK): copy_page() moves a page inside the die; the
// copy's OOB keeps a hop count (consecutive copybacks without an ECC check,
// the source's plus one), in the same per-page byte as the torn mark.
#pragma once

#include <cstddef>
#include <cstdint>

#include "flash/flash_geometry.h"
#include "ssdvp_hw.h"

namespace ssdvp {

class NandDie {
 public:
  explicit NandDie(const FlashGeometry& geometry);
  ~NandDie();
  NandDie(const NandDie&) = delete;
  NandDie& operator=(const NandDie&) = delete;
  NandDie(NandDie&& other) noexcept;
  NandDie& operator=(NandDie&&) = delete;

  // block is the block index within this die. tokens/lpns: slots_per_page
  // entries each.
  fc_status program(uint32_t block, uint32_t page, const uint32_t* tokens, const uint32_t* lpns, uint32_t seq);
  // Fills tokens_out/lpns_out (slots_per_page entries each, indexed by slot)
  // for the slots in mask only; any output pointer may be null. flags_out gets
  // FC_FLAG_ERASED for a page that was not programmed since its last erase.
  fc_status read(uint32_t block, uint32_t page, uint32_t mask, uint32_t* tokens_out, uint32_t* lpns_out,
                 uint32_t* seq_out, uint32_t* flags_out) const;
  fc_status erase(uint32_t block);
  // Consumes the next page of the block like a program, but leaves it torn.
  fc_status program_torn(uint32_t block, uint32_t page);
  bool is_torn(uint32_t block, uint32_t page) const;
  // Copyback: the programmed source page (its tokens and LPNs as sensed; a
  // torn source gives a torn copy) into the destination page at its block's
  // write pointer, with sequence number seq and the source's hop count plus
  // one (at most kMaxHops). FC_ERR_ADDRESS, FC_ERR_COPYBACK (source not
  // programmed), FC_ERR_NOT_ERASED / FC_ERR_ORDER (the destination, as
  // program()). The die's plane and page-type rules are checked before
  // (flash/copyback_rules.h). The slots of drop_mask keep their data but
  // get SSDVP_LPN_NONE as their OOB LPN in the copy (the controller rewrote
  // them in the page register: FC_COPYBACK_DROP, ssdvp_hw.h).
  fc_status copy_page(uint32_t src_block, uint32_t src_page, uint32_t dst_block, uint32_t dst_page, uint32_t seq,
                      uint32_t* hops_out, uint32_t drop_mask = 0);
  // The page's copyback hop count (0: written by a program, or not programmed).
  uint32_t hops(uint32_t block, uint32_t page) const;
  static constexpr uint32_t kMaxHops = 127;
  // Power loss: a programmed page whose program did not complete becomes
  // torn; a block whose erase did not complete becomes unusable until erased
  // again (every page torn, none programmable).
  void tear_page(uint32_t block, uint32_t page);
  void tear_block(uint32_t block);

  uint32_t erase_count(uint32_t block) const;
  uint32_t write_pointer(uint32_t block) const;  // next page to program
  bool is_programmed(uint32_t block, uint32_t page) const;

  uint32_t blocks() const { return blocks_; }
  uint32_t pages_per_block() const { return pages_; }
  uint32_t slots_per_page() const { return slots_; }
  // Bytes reserved (address space, not resident memory).
  size_t reserved_bytes() const { return map_bytes_; }
  // The whole store, reserved_bytes() long (a saved drive: platform/run/saved_state.h).
  uint8_t* store() { return static_cast<uint8_t*>(map_); }

 private:
  uint64_t page_index(uint32_t block, uint32_t page) const { return uint64_t(block) * pages_ + page; }

  uint32_t blocks_, pages_, slots_;
  void* map_ = nullptr;
  size_t map_bytes_ = 0;
  uint32_t* token_ = nullptr;   // [blocks * pages * slots]
  uint32_t* lpn_ = nullptr;     // [blocks * pages * slots]
  uint32_t* seq_ = nullptr;     // [blocks * pages]
  uint32_t* erases_ = nullptr;  // [blocks]
  uint16_t* wp_ = nullptr;      // [blocks]
  uint8_t* torn_ = nullptr;     // [blocks * pages]: bit 0 torn, bits 7:1 copyback hops (OOB)
  uint16_t* torn_n_ = nullptr;  // [blocks]: pages whose torn_ byte is not 0 (an erase only touches torn_ when non-zero)
};

}  // namespace ssdvp
