// flash_ctrl.h - the flash controller: all channels and dies of one SSD.
//
// Firmware posts fc_sqe descriptors in a submission ring in DRAM and rings
// SQ_TAIL; the controller fetches them (DMI to DRAM through the bus, with a
// b_transport fallback), executes each one functionally at once against the
// NandDie stores, and computes its completion time with a resource calendar
// (dies in order with busy-until, channels with gap-filling interval lists).
// One SC_METHOD posts fc_cqe entries into the completion ring at their
// completion times and drives irq = (CQ_TAIL != CQ_HEAD). No thread per die,
// no wait() anywhere: b_transport may be called from outside a process in
// functional mode. Everything the firmware can do wrong is counted in ERRORS
// and completes with a status code; nothing asserts.
// See docs/models/flash_ctrl.md.
#pragma once

#include <systemc>
#include <tlm>

#include <cstdint>
#include <deque>
#include <functional>
#include <unordered_map>
#include <vector>

#include "common/bus_device.h"
#include "common/dmi_socket.h"
#include "common/due_queue.h"
#include "flash/flash_faults.h"
#include "flash/flash_geometry.h"
#include "flash/flash_ring_engine.h"
#include "flash/nand_die.h"
#include "ssdvp_hw.h"

namespace ssdvp {

// One executed flash operation, for timelines (times in ps).
struct FlashOpRecord {
  uint32_t die;
  uint32_t channel;
  uint8_t op;  // fc_opcode
  uint32_t row;
  uint64_t arrival;  // descriptor fetched
  uint64_t start;    // first channel cycle (command)
  uint64_t end;      // die free again (a read: data-out done)
  uint64_t done;     // completion due (a read: after its DRAM write)
};

class FlashCtrl : public BusDevice {  // regs: FLASH registers
 public:
  DmiSocket dma;              // to the bus (DRAM at SSDVP_DRAM_BASE)
  sc_core::sc_out<bool> irq;  // completion ring not empty

  FlashCtrl(sc_core::sc_module_name name, Config& cfg);

  // Functional mode: a doorbell executes every descriptor and posts its
  // completion at once, with no timing and no calendar effect; irq is not
  // driven. Leaving it re-evaluates irq (via an event). Switch while idle.
  void set_functional(bool on);
  bool functional() const { return functional_; }

  // Called for every operation executed in timed mode; null by default.
  void set_observer(std::function<void(const FlashOpRecord&)> observer) { observer_ = std::move(observer); }

  struct Timing {
    uint64_t read_ps, program_ps, erase_ps, cmd_ps, sq_fetch_ps, access_ps;
    double channel_mbps, dma_mbps;
    uint64_t channel_ps(uint64_t bytes) const;  // bytes over a flash channel
    uint64_t dma_ps(uint64_t bytes) const;      // bytes between the controller and DRAM
  };
  const Timing& timing() const { return t_; }
  const FlashGeometry& geometry() const { return geo_; }
  const NandDie& die(uint32_t i) const { return dies_.at(i); }

  uint64_t die_busy_ps(uint32_t die) const { return die_busy_ps_.at(die); }
  uint64_t channel_busy_ps(uint32_t channel) const { return ch_busy_.at(channel); }
  uint64_t reads() const { return n_read_; }
  uint64_t programs() const { return n_program_; }
  uint64_t erases() const { return n_erase_; }
  uint64_t suspends() const { return n_suspend_; }                 // program/erase suspensions (flash.suspend.*)
  uint64_t completion_runs() const { return n_completion_runs_; }  // activations of completion_method
  uint64_t read_bypasses() const { return n_bypass_; }             // reads that overtook a queued program/erase
  uint64_t gc_preemptions() const { return n_gc_preempt_; }        // host operations that went ahead of a queued GC one
  // CTRL.HOLD_GC (flash_hold.cpp): holds started, host operations that waited
  // for one to end, and their summed wait (ps, from arrival to the hold's end)
  uint64_t gc_holds() const { return hold_.holds; }
  uint64_t gc_held_ops() const { return hold_.ops; }
  uint64_t gc_held_wait_ps() const { return hold_.wait_ps; }
  uint64_t multiplane_ops() const { return n_mp_ops_; }  // multi-plane groups executed (flash_multiplane.cpp)
  uint64_t copybacks() const { return n_copyback_; }     // copybacks executed (flash_copyback.cpp)
  uint64_t copybacks_dropping() const { return n_copyback_drop_; }  // of which with FC_COPYBACK_DROP slots
  uint64_t violations() const { return violations_; }               // NAND rule / descriptor errors
  uint64_t errors() const { return errors_; }                       // ERRORS: violations + ring errors
  size_t completions_waiting() const { return due_.size() + rings_.completions_waiting(); }
  // Power loss now (outside any process, after the simulation stopped at the
  // cut): completions not yet due or not yet taken are dropped (the rings
  // stay usable for the power-fail handler; power-up programs them again). hold_power (power-loss protection): the
  // operations in flight finish, the NAND keeps what they did. Otherwise a
  // program that had not completed leaves its page torn (reads back
  // uncorrectable) and an erase that had not completed leaves its block torn
  // (unusable until erased again).
  struct CutResult {
    uint64_t torn_programs = 0, torn_erases = 0, dropped = 0;
    uint64_t torn_copybacks = 0;  // copyback destinations torn (also in torn_programs)
  };
  CutResult power_cut(bool hold_power);
  // Media faults (flash_faults.h): failures, retries, uncorrectable reads.
  const FlashFaults& faults() const { return faults_; }
  uint64_t torn_reads() const { return n_torn_read_; }  // reads of a torn page
  // A saved drive (platform/run/saved_state.h): the NAND arrays, and the
  // operation counters preconditioning left (reads, programs, erases).
  NandDie& die_store(uint32_t i) { return dies_.at(i); }
  void set_op_counts(uint64_t reads, uint64_t programs, uint64_t erases) {
    n_read_ = reads;
    n_program_ = programs;
    n_erase_ = erases;
  }

 private:
  struct Pending {  // a completion not yet due (DueQueue entry: time, order)
    fc_cqe cqe;
    uint8_t op;
    uint32_t row;
  };
  struct Interval {
    uint64_t start, end;
  };

  SC_HAS_PROCESS(FlashCtrl);
  // Local time (ps) of the register access being served (0 in functional mode).
  uint64_t doorbell_ps() const { return functional_ ? 0 : access_at_ps(); }

  void write_sq_tail(uint32_t v);
  void write_cq_head(uint32_t v);
  void ring_error(const char* what, uint32_t value);
  void write_bbt(uint32_t addr);
  void write_ctrl(uint32_t v);

  // Executes one descriptor; returns its completion time in ps.
  uint64_t execute(const fc_sqe& d, uint64_t arrival, fc_cqe& cqe);
  // execute()'s parts (flash_ctrl.cpp): checks, functional and timing parts per opcode.
  struct OpTarget {
    uint32_t block, page, die, bid, ch;  // global block row, page, die, block in the die, channel
  };
  struct ReadDone {
    uint64_t lat = 0;  // DRAM latency of the buffer and metadata transfers
    uint32_t codewords = 0, retries = 0;
  };
  static constexpr FlashOpcodes kOpcodes{true, false};  // copyback; no FC_OP_COPY (a host FTL's)
  OpTarget target(const fc_sqe& d) const;
  bool read_page(const fc_sqe& d, const OpTarget& at, uint64_t arrival, fc_cqe& cqe, ReadDone& r);
  bool program_page(const fc_sqe& d, const OpTarget& at, uint64_t arrival, fc_cqe& cqe, uint64_t* lat);
  void erase_block(const OpTarget& at, fc_cqe& cqe);
  uint64_t read_timing(const fc_sqe& d, const OpTarget& at, uint64_t arrival, const ReadDone& r);
  uint64_t program_timing(const fc_sqe& d, const OpTarget& at, uint64_t arrival, uint64_t lat);
  uint64_t erase_timing(const fc_sqe& d, const OpTarget& at, uint64_t arrival);
  // flash_copyback.cpp: FC_OP_COPYBACK (at: the destination); its rules, the
  // on-die copy and the source's OOB into the buffer; then its timing.
  bool copyback_page(const fc_sqe& d, const OpTarget& at, uint64_t arrival, fc_cqe& cqe, uint64_t* lat);
  uint64_t copyback_timing(const fc_sqe& d, const OpTarget& at, uint64_t arrival, uint64_t lat);
  uint64_t n_copyback_ = 0;
  uint64_t occupy(const fc_sqe& d, const OpTarget& at, uint64_t arrival, uint64_t start, uint64_t end, uint64_t done);
  fc_status violation(const fc_sqe& d, fc_status code, const char* reason);
  // Earliest start >= ready of a free interval of `len` on channel ch; reserves it.
  uint64_t reserve(uint32_t ch, uint64_t ready, uint64_t len);

  // flash_sched.cpp: read priority and program/erase suspend (flash.read_priority,
  // flash.suspend.*); off by default, and then none of it runs.
  struct SchedOp {
    uint64_t order = 0;   // heap order of its completion (when it owns one)
    uint8_t op = 0;       // FC_OP_*
    bool owns = true;     // carries the completion (false: the part before a suspension)
    bool resume = false;  // the rest of a suspended program/erase
    bool urgent = false;  // a read flash.priority_reads names
    bool gc = false;      // FC_HINT_GC: a host operation may go ahead of it (CTRL.PREEMPT_GC)
    uint32_t block = 0;   // global block row
    uint32_t suspends = 0;
    uint32_t group = 1;  // completions it carries: orders order .. order + group - 1 (a multi-plane group)
    uint64_t ready = 0, xfer = 0, post = 0,
             array = 0;  // inputs (ps): earliest start, channel time, after the die (read), array time left
    uint64_t start = 0, array_start = 0, array_end = 0, end = 0, done = 0;  // computed (ps)
    uint64_t res_start[2] = {0, 0}, res_len[2] = {0, 0};
    uint8_t nres = 0;  // channel reservations held
  };
  struct Sched {
    bool read_priority = false, suspend = false, all_reads = false;
    bool preempt_gc = false;  // CTRL.PREEMPT_GC: FC_HINT_HOST operations go ahead of queued FC_HINT_GC ones
    uint32_t max_suspends = 0;
    uint32_t max_reads = 0;  // reads served in one suspension (0: no limit)
    uint64_t suspend_ps = 0, resume_ps = 0;
    std::vector<std::vector<SchedOp>> die;  // per die, in die order, ops not yet over
    bool on() const { return read_priority || suspend || preempt_gc; }
  };
  // flash_page_types.cpp: per-page-type tR and tPROG (flash.cell.*); with one
  // bit per cell (the default) every page takes flash.timing.read/program.
  struct PageTypes {
    uint32_t bits = 1;
    bool oneshot = false;
    std::vector<uint64_t> read_ps, program_ps;  // per type, LSB first
  };
  void page_types_config(Config& cfg);
  // flash_hold.cpp: GC victim holds (CTRL.HOLD_GC). An operation marked
  // FC_HINT_USER for a held die (channel) does its NAND array part at
  // submission and waits, untimed, in `parked`; the erase (or HOLD_END) that
  // ends the hold times the waiting operations of that die (channel) after it.
  struct Parked {
    fc_sqe d;
    OpTarget at;
    uint64_t arrival;
    fc_cqe cqe;
    ReadDone r;
    uint64_t lat;
  };
  struct Hold {
    uint32_t mode = FLASH_HOLD_GC_NONE;
    std::vector<std::vector<uint32_t>> victims;  // per die (channel): victim blocks whose hold is open
    std::deque<Parked> parked;                   // in submission order
    uint64_t holds = 0, ops = 0, wait_ps = 0;
  };
  uint32_t hold_key(const OpTarget& at) const { return hold_.mode == FLASH_HOLD_GC_CHANNEL ? at.ch : at.die; }
  bool hold_back(const fc_sqe& d, uint64_t arrival);  // true: d was parked (or failed and completed)
  void hold_track(const fc_sqe& d, uint64_t done);    // after an FC_HINT_VICTIM operation was timed
  void hold_end(uint32_t key, uint32_t block, uint64_t at);
  void hold_cut(bool hold_power, CutResult& r);
  Hold hold_;
  uint64_t read_time(uint32_t page) const { return cell_.read_ps[cell_.bits == 1 ? 0 : page % cell_.bits]; }
  uint64_t program_time(uint32_t page) const;
  void sched_config(Config& cfg);
  uint64_t sched_timed(const fc_sqe& d, uint32_t die, uint32_t ch, uint32_t block, uint64_t arrival, uint64_t ready,
                       uint64_t xfer, uint64_t post, uint64_t array);
  void sched_time_op(SchedOp& o, uint32_t die, uint32_t ch, uint64_t die_free);
  void sched_untime_op(const SchedOp& o, uint32_t die, uint32_t ch);
  void unreserve(uint32_t ch, uint64_t start, uint64_t len);

  // flash_multiplane.cpp: multi-plane groups (FC_OP_PLANE_*), one being
  // received per die. multiplane_take returns true if d belongs to a group
  // (it is then held, or the group it ends is executed and its completions
  // posted).
  struct MpMember {
    fc_sqe d;
    uint64_t arrival;
  };
  bool multiplane_take(const fc_sqe& d, uint64_t arrival);
  void multiplane_run(uint32_t die);
  void multiplane_post(const MpMember& m, const fc_cqe& cqe, uint64_t done);
  std::vector<std::vector<MpMember>> mp_;  // per die: the group being received
  uint32_t mp_open_ = 0;                   // dies whose group in mp_ is not empty
  bool mp_untimed_ = false;                // execute() does the functional part only (a member of a group)
  uint32_t sched_group_ = 1;               // completions the next sched_timed() operation carries
  uint64_t n_mp_ops_ = 0;
  bool mp_same_block_ = false;
  uint64_t n_copyback_drop_ = 0;  // copybacks that dropped stale slots from the copy's OOB (flash_copyback.cpp)  //
                                  // flash.multiplane_same_block (multiplane_rules.h)

  bool dram_read(uint64_t addr, void* dst, uint32_t n, uint64_t* latency_ps);
  bool dram_write(uint64_t addr, const void* src, uint32_t n, uint64_t* latency_ps);
  bool dram_reachable(uint64_t addr, uint64_t bytes);

  void complete(uint64_t time, const fc_cqe& cqe, uint8_t op = 0, uint32_t row = 0);
  void schedule_wake(uint64_t time);  // completion_method at time (ps), see flash_ctrl.cpp
  void schedule_poke(uint64_t time);
  void completion_method();  // SC_METHOD

  FlashGeometry geo_;
  // x / d and x % d by shift and mask when d is a power of two (the usual
  // geometry), a division otherwise: target() runs for every descriptor.
  struct FastDiv {
    uint32_t d = 1, shift = 0;
    bool pow2 = true;
    void set(uint32_t v) {
      d = v;
      pow2 = v && (v & (v - 1)) == 0;
      shift = pow2 ? uint32_t(__builtin_ctz(v)) : 0;
    }
    uint32_t div(uint32_t x) const { return pow2 ? x >> shift : x / d; }
    uint32_t mod(uint32_t x) const { return pow2 ? x & (d - 1) : x % d; }
  };
  FastDiv per_block_, per_die_, channels_;  // pages per block, blocks per die, channels
  Timing t_;
  std::vector<NandDie> dies_;
  // Metadata payloads (fc_sqe.meta: the firmware's checkpoint pages) by page
  // row: the bytes of a page the token model does not carry. Read back only
  // while the page reads as programmed and not torn (flash_meta.cpp).
  std::unordered_map<uint32_t, std::vector<uint8_t>> meta_;
  bool meta_program(const fc_sqe& d, bool failed, uint64_t* lat);
  bool meta_read(const fc_sqe& d, uint32_t flags, bool uncorrectable, uint64_t* lat);
  FlashFaults faults_;
  uint32_t bbt_addr_ = 0;
  bool functional_ = false;
  std::function<void(const FlashOpRecord&)> observer_;

  // DRAM as the ring engine reaches it: through the DMA socket.
  struct Dma : FlashDram {
    FlashCtrl& c;
    explicit Dma(FlashCtrl& ctrl) : c(ctrl) {}
    bool read(uint64_t a, void* d, uint32_t n, uint64_t* lat) override { return c.dram_read(a, d, n, lat); }
    bool write(uint64_t a, const void* s, uint32_t n, uint64_t* lat) override { return c.dram_write(a, s, n, lat); }
    bool reachable(uint64_t a, uint64_t n) override { return c.dram_reachable(a, n); }
  };
  Dma dma_port_{*this};
  FlashRingEngine rings_;  // the SQ/CQ registers, fetch, completions waiting for room, phase tags
  uint64_t fetch_free_ps_ = 0;

  // per die: when it is free again (ps) and its summed busy time (ps); per channel: summed busy time
  std::vector<uint64_t> die_busy_until_, die_busy_ps_, ch_busy_;
  std::vector<std::vector<Interval>> calendar_;  // per channel, sorted by start
  Sched sched_;
  PageTypes cell_;
  uint64_t n_suspend_ = 0, n_bypass_ = 0, n_gc_preempt_ = 0;
  uint64_t n_completion_runs_ = 0;
  std::vector<size_t> cal_head_;  // per channel: first interval that may still matter

  DueQueue<Pending> due_;          // completions by due time (common/due_queue.h)
  sc_core::sc_event wake_;         // the earliest completion is due
  uint64_t wake_at_ = UINT64_MAX;  // when wake_ is scheduled (ps; none: UINT64_MAX)
  uint64_t quantum_ps_ = 0;        // flash.completion_quantum: wake-ups on multiples of it (0: at each completion)
  sc_core::sc_event poke_;         // re-evaluate irq after a CQ_HEAD write or leaving functional mode
  uint64_t poke_at_ = UINT64_MAX;

  uint64_t n_read_ = 0, n_program_ = 0, n_erase_ = 0, violations_ = 0, n_torn_read_ = 0;
  uint32_t errors_ = 0, last_err_row_ = 0, last_err_code_ = 0;
};

}  // namespace ssdvp
