// fake_hal.h - a HAL back-end for firmware unit tests.
//
// DRAM is a plain buffer at SSDVP_DRAM_BASE. The flash controller is
// functional: its rings are the model's own ring engine
// (flash/flash_ring_engine.h: the same registers, checks, completion order
// and phase tags), and a doorbell on FLASH SQ_TAIL executes every new
// descriptor at once against the flash model's own NAND store
// (ssdvp::NandDie, one die holding every block: the same rules, erased-page
// reads and OOB as the model) and posts its completion. The NVMe controller is functional too: the
// test puts commands in the CMD ring (nvme_submit, as a fetch would), a
// doorbell on XFER_TAIL moves tokens between DRAM and a host memory at once,
// posts DONE entries and records completions. Time is a counter the test
// advances.
#pragma once

#include <algorithm>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

extern "C" {
#include "ftl.h"
#include "hal.h"
#include "ssdvp_hw.h"
}

#include "flash/flash_geometry.h"
#include "flash/flash_ring_engine.h"
#include "flash/nand_die.h"

class FakeHal {
 public:
  FakeHal(uint32_t dram_bytes, uint32_t blocks, uint32_t pages_per_block, uint32_t slots_per_page);

  struct hal* hal() {
    return &hal_;
  }
  uint64_t now_ns = 0;
  uint64_t cycles[FW_OP_COUNT] = {};
  std::vector<std::string> log_lines;
  uint64_t violations = 0;
  uint64_t gc_victims_traced = 0;
  std::vector<uint32_t> program_rows;  // every programmed row, in order
  // Metadata payloads (fc_sqe.meta) by row, as FlashCtrl keeps them (flash_meta.cpp).
  std::map<uint32_t, std::vector<uint8_t>> meta;
  uint32_t erase_count(uint32_t block) const { return nand_.erase_count(block); }
  // Several planes per die (cfg.planes_per_die > 1): multi-plane groups
  // (FC_OP_PLANE_* ... plain opcode, ssdvp_hw.h) are held per die until their
  // last descriptor and checked against the NAND rules as the flash model
  // checks them (flash/multiplane_rules.h): a group that breaks one completes
  // every member with its status and counts one violation (with
  // cfg.mp_same_block, also the same-block-index rule). Without it a
  // group's members run one by one, unchecked.
  void set_geometry(const ftl_config& cfg);
  // Programs in flight for as long as a test wants: with hold_programs set,
  // a PROGRAM is executed at its doorbell (its NAND effect is there) but its
  // completion waits in held_programs until release_program posts it, with
  // the status it had or the one given (a program failure, say).
  bool hold_programs = false;
  struct HeldCompletion {
    fc_sqe sqe;
    uint16_t status;
    uint16_t flags;
  };
  std::vector<HeldCompletion> held_programs;  // in submission order
  void release_program(size_t i, int status = -1);
  // A power cut: the DRAM's content is gone (filled with a pattern); the NAND keeps its pages.
  void lose_dram() { std::fill(dram_.begin(), dram_.end(), uint8_t(0xa5)); }
  // A program or an erase the cut interrupted: the page (row) reads uncorrectable; every page of the block
  // is torn until its next erase.
  void tear_page(uint32_t row) { nand_.tear_page(row / ppb_, row % ppb_); }
  void tear_block(uint32_t block) { nand_.tear_block(block); }
  uint64_t multiplane_groups = 0;      // groups of two or more planes executed
  uint64_t multiplane_violations = 0;  // groups refused by the rules (also in violations)
  uint64_t multiplane_erases = 0;      // erases executed in groups of two or more planes
  // Copybacks (FC_OP_COPYBACK) are checked as the flash model checks them
  // (flash/copyback_rules.h with the geometry set_geometry gave, page types
  // by cfg.cell_bits; NandDie::copy_page) and executed without faults.
  uint64_t copybacks = 0;
  uint64_t copybacks_dropping = 0;    // copybacks with slots dropped from the copy's OOB (FC_COPYBACK_DROP)
  bool ignore_copyback_drop = false;  // tests: copies keep every slot's LPN (a controller not rewriting them)
  uint32_t page_hops(uint32_t row) const { return nand_.hops(row / ppb_, row % ppb_); }
  // FLASH CTRL.CQ_PHASE as the controller honours it (the ring engine):
  // completions carry the phase tag (FC_FLAG_PHASE), 1 on the first pass
  // after CQ_BASE, CQ_SIZE or CTRL is written, flipped at every wrap. Reads of
  // CQ_TAIL are counted; ring programming errors (the model's ERRORS) too.
  uint64_t cq_tail_reads = 0;
  uint64_t ring_errors = 0;

  // NVMe side: the test is the host (and the controller's fetch).
  struct Completion {
    uint16_t cid;
    uint16_t status;   // NVMe status field (SCT << 8 | SC)
    uint32_t dw0 = 0;  // completion dword 0 (Zone Append: the LBA written)
  };
  std::vector<Completion> completions;  // in posting order
  std::vector<uint32_t> host_words;     // host memory, 4-byte words; a PRP is a byte address into it
  uint64_t uncorrectable_reads = 0;     // reads of torn pages (tear_page): also in violations
  uint64_t xfer_errors = 0;             // transfers outside host memory or DRAM
  // Places a command in the firmware's CMD ring (after ftl_init programmed it),
  // as fetched from submission queue `sqid` (0: the admin queue).
  void nvme_submit(const nvme_sqe& sqe, uint16_t sqid = 1);

 private:
  static uint32_t read32(void* ctx, uint32_t addr);
  static void write32(void* ctx, uint32_t addr, uint32_t value);
  static void* dram(void* ctx, uint32_t addr, uint32_t bytes);
  static void wait_irq(void* ctx);
  static void charge(void* ctx, enum fw_op op, uint32_t count);
  static uint64_t time_ns(void* ctx);
  static void log(void* ctx, int level, const char* msg);
  static void trace(void* ctx, enum hal_trace_event ev, uint32_t arg);
  void flash_doorbell();  // executes the descriptors up to SQ_TAIL
  void xfer_doorbell(uint32_t tail);
  uint32_t reg(uint32_t nvme_offset) { return regs_[SSDVP_NVME_BASE + nvme_offset]; }
  uint16_t execute(const fc_sqe& e, uint16_t* flags);
  void post(const fc_sqe& e, uint16_t status, uint16_t flags) {
    if (hold_programs && FC_OP_KIND(e.op) == FC_OP_PROGRAM)
      held_programs.push_back({e, status, flags});
    else
      rings_.complete(fc_cqe{e.tag, status, flags});
  }
  void run_group(std::vector<fc_sqe>& g);
  fc_status copyback(const fc_sqe& e, uint32_t* buf, uint16_t* flags);
  uint32_t cell_bits_ = 1;
  bool same_block_ = false;  // cfg.mp_same_block: groups only at one block index (flash.multiplane_same_block)
  ssdvp::FlashGeometry geo_;
  std::vector<std::vector<fc_sqe>> groups_;  // per die: plane descriptors waiting for their group's end

  static const hal_ops ops_;
  struct hal hal_;
  std::vector<uint8_t> dram_;
  std::map<uint32_t, uint32_t> regs_;
  uint32_t blocks_, ppb_, slots_;
  ssdvp::NandDie nand_;
  ssdvp::HalDram dram_port_{&FakeHal::dram, this};  // the ring engine's view of the DRAM buffer
  ssdvp::FlashRingEngine rings_;
  uint32_t xfer_head_ = 0;
};

// The small drive of the firmware tests (ftl_device.h) and the NVMe decoder's
// fuzz harness: 2 channels x 2 dies x blocks_per_die blocks of 16 pages of 2
// slots, tight buffers and GC thresholds, so that LBAs and blocks run out
// under a short test or input. cfg starts from ftl_config_default.
inline void fake_small_drive_config(ftl_config& cfg, uint32_t blocks_per_die, uint64_t logical_lbas) {
  ftl_config_default(&cfg);
  cfg.channels = 2;
  cfg.dies_per_channel = 2;
  cfg.blocks_per_die = blocks_per_die;
  cfg.pages_per_block = 16;
  cfg.slots_per_page = 2;
  cfg.logical_lbas = logical_lbas;
  cfg.gc_threshold_blocks = 8;
  cfg.gc_reserve_blocks = 2;
  cfg.cmd_slots = 8;
  cfg.write_buffer_pages = 8;
  cfg.read_buffer_pages = 4;
  cfg.gc_buffer_pages = 8;
  cfg.max_transfer_lbas = 64;
}
