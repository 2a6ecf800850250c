// nvme_ctrl.h - the NVMe host interface of the SSD SoC.
//
// Host side: a BAR of doorbell registers (NVMe layout, stride 4: SQyTDBL at
// 0x1000 + 8y, CQyHDBL at 0x1004 + 8y) and a DMA master into host memory
// over a PCIe link (per-direction bandwidth, one-way latency). I/O queue
// pairs are created by create_io_queue(), which stands in for the admin
// queue's Create I/O SQ/CQ commands.
// Firmware side: NVME registers from the table and three rings in DRAM
// (ssdvp_hw.h): fetched commands (CMD), transfer requests (XFER) and
// finished transfers (DONE); two interrupt lines.
//
// Timing is computed when work is accepted (doorbell) against link
// reservations; effects the other side can observe (a fetched command in the
// CMD ring, a DONE entry, a completion and its MSI in host memory) are
// published by one SC_METHOD at their due times.
#pragma once

#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>

#include <cstdint>
#include <deque>
#include <vector>

#include "common/bus_device.h"
#include "common/dmi_socket.h"
#include "common/due_queue.h"
#include "common/payload_pool.h"
#include "nvme/nvme_arbiter.h"
#include "ssdvp_hw.h"

namespace ssdvp {

class NvmeCtrl : public BusDevice {  // regs: NVME registers (firmware)
 public:
  tlm_utils::simple_target_socket<NvmeCtrl> host_regs;    // host BAR (doorbells)
  tlm_utils::simple_initiator_socket<NvmeCtrl> host_dma;  // to host memory (SQ, CQ, data, MSI)
  DmiSocket dma;                                          // to the SoC bus (DRAM)
  sc_core::sc_out<bool> irq_cmd;                          // CMD ring not empty
  sc_core::sc_out<bool> irq_done;                         // DONE ring not empty

  NvmeCtrl(sc_core::sc_module_name name, Config& cfg);

  // Creates I/O queue pair qid (1-based) with its rings in host memory;
  // completions raise an MSI by writing `qid` to msi_addr; prio is the SQ's
  // class under weighted round robin (nvme_arbiter.h). Returns false (and
  // logs) on a bad qid, depth or address. The firmware's admin commands
  // Create I/O CQ/SQ reach the same queues through the Q_* registers.
  bool create_io_queue(uint16_t qid, uint64_t sq_addr, uint64_t cq_addr, uint32_t depth, uint64_t msi_addr,
                       NvmeArbiter::Priority prio = NvmeArbiter::medium);
  const NvmeArbiter& arbiter() const { return arb_; }
  // Admin queue (queue 0): its commands reach the firmware's CMD ring like
  // I/O commands, tagged SQ 0 (the firmware's admin handler, directives.c,
  // serves Directive Send/Receive and hands Set Features, Asynchronous Event
  // Requests and vendor commands to gcgate.c); completion dword 0 comes back
  // in nvme_xfer.dw0. Stands in for programming AQA/ASQ/ACQ. Returns false
  // (and logs) on a bad depth or when it exists already.
  bool create_admin_queue(uint64_t sq_addr, uint64_t cq_addr, uint32_t depth, uint64_t msi_addr);
  // Deletes I/O queue pair qid while it may be in use (stands in for the
  // admin Delete I/O Submission Queue then Delete I/O Completion Queue). As
  // NVMe says: the queue fetches no more; each command still in the SQ
  // completes with Command Aborted due to SQ Deletion (08h); commands the
  // firmware has complete normally; once every completion is posted the
  // queue is gone (doorbells to it are then invalid) and `deleted` is
  // notified. Returns false (and logs) for a queue that is not live.
  bool delete_io_queue(uint16_t qid);
  bool queue_live(uint16_t qid) const { return qid <= kMaxQueues && q_[qid].live; }
  // Power loss (platform/run/power_loss.h; call while the simulation is
  // paused): every queue, the admin queue included, and everything not yet
  // published (fetched commands, DONE entries, completions) is gone; fetching
  // stops until the firmware enables it again (NVME_ENABLE, the model's
  // CSTS.RDY) and the host creates its queues again (nvme_power.cpp).
  void power_loss();
  sc_core::sc_event deleted;

  static constexpr uint32_t kDoorbellBase = 0x1000;
  static constexpr uint32_t kMaxQueues = 64;

  struct Stats {
    uint64_t commands_fetched = 0;
    uint64_t completions = 0;
    uint64_t error_completions = 0;
    uint64_t invalid_doorbells = 0;
    uint64_t ring_errors = 0;
    uint64_t fetch_errors = 0;              // SQ entries not readable in host memory (dropped)
    uint64_t completion_errors = 0;         // CQ entries or MSIs not writable in host memory
    uint64_t aborted_sq_deletion = 0;       // commands completed with 08h by delete_io_queue
    uint64_t bytes_h2d = 0, bytes_d2h = 0;  // modelled bytes over the link
    uint64_t link_busy_up_ps = 0, link_busy_down_ps = 0;
    uint64_t msis = 0;                        // interrupts sent (MSI writes); fewer than completions with coalescing
    uint64_t publish_runs = 0, irq_runs = 0;  // activations of publish_method and irq_method (kernel events)
  };
  const Stats& stats() const { return stats_; }
  uint32_t lba_size() const { return lba_size_; }
  // The namespace size in LBAs the firmware reported (NSZE_LO/HI), as the
  // host's Identify Namespace would see it; 0 before the firmware set it.
  uint64_t namespace_lbas() const { return uint64_t(bank_.get(NVME_NSZE_HI)) << 32 | bank_.get(NVME_NSZE_LO); }
  // The firmware's debug channel (register DBG_GC): total time in ps GC has
  // been reported active up to `now_ps`, and whether it is active now. The
  // host reads it as the label of its GC detector (never as a feature).
  uint64_t debug_gc_active_ps(uint64_t now_ps) const;
  bool debug_gc_on() const { return dbg_gc_on_; }

 private:
  struct Ring {
    uint32_t base = 0, size = 0, head = 0, tail = 0;
    bool ok = false;
  };
  struct Queue {
    bool live = false;  // the SQ exists (fetch, SQ doorbell)
    bool cq = false;    // the CQ of this id exists (completions, CQ doorbell)
    uint16_t cqid = 0;  // the SQ's completion queue
    uint32_t cq_depth = 0, msi_vec = 0;
    uint64_t sq_addr = 0, cq_addr = 0, msi_addr = 0;
    uint32_t depth = 0;
    uint32_t sq_tail = 0, sq_head = 0;  // sq_head: next entry to fetch
    uint32_t cq_tail = 0, cq_head = 0;
    bool phase = true;
    std::deque<nvme_cqe> cq_backlog;  // completions waiting for CQ room
    bool deleting = false;            // delete_io_queue: no fetch, gone once drained
    bool sq_only = false;             // Delete I/O SQ (admin): the CQ of this id stays
    bool ien = true;                  // CQ: interrupts enabled (Create I/O CQ's IEN)
    uint32_t in_flight = 0;           // fetched, completion not yet posted
  };
  enum class EvKind : uint8_t { cmd_visible, done_entry, completion, coalesce_timer };
  // Small (32 bytes), as it is moved through the due queue's heap: a fetched
  // command is already in the CMD ring, so cmd_visible carries nothing.
  struct Event {
    uint64_t time;  // due (ps); the queue keeps it with the order of scheduling
    EvKind kind;
    uint16_t qid;
    union {
      nvme_cqe cqe;    // completion (first: Event{} zeroes all of it)
      nvme_done done;  // done_entry
    };
  };

  SC_HAS_PROCESS(NvmeCtrl);
  void host_b_transport(tlm::tlm_generic_payload& tx, sc_core::sc_time& delay);
  // Local time (ps) at which the register access being served takes effect.
  uint64_t access_end_ps() const { return access_at_ps() + access_ps(); }
  void write_xfer_tail(uint32_t v);
  void write_cmd_head(uint32_t v);
  void write_done_head(uint32_t v);

  void write_ring(Ring& r, uint32_t entry_bytes);
  void fetch(uint64_t now_ps);                          // fetch host commands while the CMD ring has room
  void process_xfers(uint64_t now_ps);                  // serve the XFER ring
  uint64_t link_read(uint64_t at_ps, uint64_t bytes);   // device reads host memory: data arrives
  uint64_t link_write(uint64_t at_ps, uint64_t bytes);  // device writes host memory: data lands
  void schedule(Event&& ev);
  void publish_method();
  void irq_method();
  void post_completion(uint16_t qid, nvme_cqe cqe);
  // Interrupt Coalescing (Set Features 08h, register IRQ_COAL; nvme_coalesce.cpp):
  // a completion posted on CQ `cqid` raises its vector's MSI now, or counts
  // towards the aggregation threshold with a timer for the aggregation time.
  void interrupt(uint16_t cqid);
  void coalesce_timer(uint16_t cqid, uint64_t due_ps);
  void send_msi(const Queue& cq);
  struct Coalesce {  // one interrupt vector's completions not yet signalled
    uint32_t pending = 0;
    uint64_t deadline_ps = 0;
  };
  std::vector<Coalesce> coalesce_;  // by vector
  uint64_t coalesce_unit_ps_ = 0;   // nvme.coalesce_time_unit
  void debug_gc_write(bool on, uint64_t at_ps);
  bool dbg_gc_on_ = false;
  uint64_t dbg_gc_since_ = 0, dbg_gc_ps_ = 0;
  bool add_queue(uint16_t qid, uint64_t sq_addr, uint64_t cq_addr, uint32_t depth, uint64_t msi_addr);
  void finish_delete(uint16_t qid);                // removes a deleting queue once nothing is in flight
  uint32_t queue_command(uint32_t cmd);            // NVME_Q_CMD (admin Create I/O CQ/SQ): the NVMe status
  uint32_t delete_command(bool cq, uint16_t qid);  // NVME_Q_CMD delete SQ/CQ (admin 00h/04h): the NVMe status
  uint32_t vectors_ = 65;                          // nvme.interrupt_vectors
  uint32_t admin_deletes_ = 0;                     // Delete I/O SQ commands still draining their SQ
  std::deque<nvme_cqe> held_admin_;                // admin completions held until they are done

  bool host_access(bool write, uint64_t addr, void* data, uint32_t len);
  uint8_t* dram_ptr(uint32_t addr, uint32_t len) { return dma.dmi_ptr(addr, len); }

  uint32_t lba_size_;
  uint64_t link_latency_ps_;
  double link_mbps_;
  uint64_t fetch_ps_, cqe_ps_;
  uint32_t fetch_burst_;

  Ring cmd_, xfer_, done_;
  uint32_t cmd_visible_tail_ = 0;
  std::vector<Queue> q_;
  std::vector<uint16_t> live_;  // created queue ids, in creation order
  NvmeArbiter arb_;             // which SQ is fetched next (nvme.arbitration)
  uint32_t mqes_ = 65535;       // largest queue, 0's based
  uint64_t up_free_ = 0, down_free_ = 0, engine_free_ = 0;
  DueQueue<Event> events_;  // effects by due time (common/due_queue.h)
  sc_core::sc_event publish_ev_, irq_ev_;
  PayloadPool payloads_;  // for host_access (common/payload_pool.h)
  Stats stats_;
};

}  // namespace ssdvp
