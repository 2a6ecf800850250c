// flash_faults.h - media faults of the NAND array: program and erase
// failures, factory bad blocks, and raw bit errors with ECC and read retry.
//
// The flash controller asks this model, per operation, whether it fails;
// the NAND store (nand_die.h) records the result (a failed program leaves a
// torn page). Every rate defaults to 0, and with all of them 0 the model
// draws no random numbers and changes nothing (timing, statuses, figures).
//
// Bit errors. A page read sees, in each codeword (one LBA slot of
// lba_size bytes), a Poisson-distributed number of raw bit errors with mean
// RBER x codeword bits, where
//   RBER = flash.ecc.rber + rber_per_pe x (erase count of the block)
//        + rber_per_hour x (hours since the block's first program after its
//          erase, plus flash.ecc.retention_offset)
//        + rber_per_read x (reads of the block since its erase: read disturb).
// ECC corrects up to flash.ecc.correctable_bits per codeword. If a codeword
// of the read has more, the controller retries with shifted read references:
// retry level k sees RBER x retry_gain^k, and costs another command, tR and
// data-out. After flash.ecc.retry_levels failed levels the read is
// uncorrectable (FC_ERR_UNCORRECTABLE).
//
// Copyback (FC_OP_COPYBACK) moves a page inside the die without ECC: the
// copy holds the bit errors the source read had (drawn as a read's first
// level would see them, plus what the source itself inherited) as written
// data. A later read of the copy sees, in each codeword, those inherited
// errors plus its own fresh ones; read retry only lowers the fresh ones.
// The model is a statement of the
// mechanism, not a calibrated device: the coefficients are inputs.
// See docs/models/nand_die.md ("Faults").
#pragma once

#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

#include "common/config.h"
#include "flash/flash_geometry.h"

namespace ssdvp {

class FlashFaults {
 public:
  FlashFaults(Config& cfg, const FlashGeometry& geo);

  struct Stats {
    uint64_t program_failures = 0, erase_failures = 0;
    uint64_t reads_retried = 0, retry_levels = 0, uncorrectable = 0;
    uint64_t factory_bad = 0;
  };

  // Decisions; block is the global block index (the erase row).
  bool program_fails(uint32_t block);
  bool erase_fails(uint32_t block);
  bool factory_bad(uint32_t block) const { return (bad_[block >> 5] >> (block & 31)) & 1u; }
  // The factory bad-block bitmap: bit b of word b / 32.
  const std::vector<uint32_t>& factory_bitmap() const { return bad_; }

  void on_program(uint32_t block, uint32_t page, uint64_t now_ps);
  void on_erase(uint32_t block);

  struct ReadOutcome {
    uint32_t retries = 0;
    bool uncorrectable = false;
  };
  // A read of `codewords` slots of block (erase count pe) at now_ps; counts
  // the read for read disturb.
  // row: the page row read (its inherited errors, if it is a copyback's copy).
  ReadOutcome read(uint32_t block, uint32_t pe, uint32_t codewords, uint64_t now_ps, uint32_t row = UINT32_MAX);
  // A copyback of src_row (block src_block, erase count pe) into dst_row at
  // now_ps: the source is sensed once (read disturb counts it) and its raw
  // errors (the worst of its codewords) become dst_row's inherited errors.
  void copy(uint32_t src_block, uint32_t pe, uint32_t codewords, uint64_t now_ps, uint32_t src_row, uint32_t dst_row);
  // Inherited raw bit errors per codeword of a page (0: none).
  uint32_t inherited(uint32_t row) const;

  bool bit_errors_on() const { return errors_on_; }
  const Stats& stats() const { return st_; }

 private:
  double uniform();
  uint32_t poisson(double mean);
  bool in_fail_list(uint32_t block) const {
    return !fail_list_.empty() && ((fail_list_[block >> 5] >> (block & 31)) & 1u);
  }

  uint64_t rng_;
  double p_program_, p_erase_, p_factory_;
  double rber0_, rber_pe_, rber_hour_, rber_read_, retry_gain_;
  uint64_t retention_offset_ps_;
  uint32_t ecc_bits_, retry_levels_, codeword_bits_;
  bool errors_on_;
  std::vector<uint32_t> bad_, fail_list_;             // bitmaps over all blocks
  std::vector<uint64_t> first_prog_ps_;               // per block (bit-error model only)
  std::vector<uint32_t> reads_;                       // per block, since its erase
  std::unordered_map<uint32_t, uint32_t> inherited_;  // page row -> bit errors a copyback wrote (bit errors on)
  uint32_t pages_per_block_ = 1;
  Stats st_;
};

}  // namespace ssdvp
