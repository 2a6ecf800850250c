// nvme_queue_pair.h - the host side of one NVMe queue pair, on ring.h's
// rules: a submission queue the host pushes commands into and announces with
// the SQ tail doorbell, and a completion queue it reaps by phase tag and
// releases with the CQ head doorbell, both rings in host memory.
//
// Every host of the platform keeps its queues with it: the host driver (its
// I/O queue and its admin queue; the flows' queues are created from its
// create commands), the host-level FTL towards the drive, the RAID
// controller towards each device and the hostile host. What a command means,
// which command id it carries and when to ring are the user's: push() puts
// an entry at the tail and ring_sq() writes the tail doorbell once for every
// push since the last ring; pop() takes the head entry when its phase tag is
// the current one (flipped each time the head wraps), and ring_cq() writes
// the head doorbell once for every pop since the last ring.
//
// A ring of `entries` entries holds at most entries - 1 commands (ring.h):
// a user with a queue depth of qd makes a pair of qd + 1 entries.
#pragma once

#include <systemc>
#include <tlm>

#include <cstdint>
#include <cstring>

#include "common/payload_pool.h"
#include "common/ring.h"
#include "common/tlm_access.h"
#include "host/host_memory.h"
#include "nvme/nvme_ctrl.h"
#include "ssdvp_hw.h"

namespace ssdvp {

// A host's register writes into one controller's BAR (its doorbells),
// through an initiator socket bound to the controller's host_regs.
class Doorbells {
 public:
  explicit Doorbells(tlm::tlm_initiator_socket<>& sock) : sock_(&sock) {}
  // Writes `value` at `offset`; returns the delay the target annotated.
  sc_core::sc_time write(uint32_t offset, uint32_t value) {
    PayloadPool::Lease tx(pool_);
    sc_core::sc_time d = sc_core::SC_ZERO_TIME;
    prepare_access(*tx, true, offset, &value, 4);
    (*sock_)->b_transport(*tx, d);
    return d;
  }

 private:
  tlm::tlm_initiator_socket<>* sock_;
  PayloadPool pool_;
};

class NvmeQueuePair {
 public:
  NvmeQueuePair() = default;  // no rings yet: assigned before use
  // Queue pair qid (0: the admin queue) of `entries` entries per ring, both
  // allocated in mem; doorbells through `bells`.
  NvmeQueuePair(HostMemory& mem, Doorbells& bells, uint16_t qid, uint32_t entries);
  // The same with rings the caller placed (the hostile host: an SQ outside
  // host memory).
  NvmeQueuePair(HostMemory& mem, Doorbells& bells, uint16_t qid, uint32_t entries, uint64_t sq_addr, uint64_t cq_addr);

  uint16_t qid() const { return qid_; }
  uint32_t entries() const { return entries_; }
  uint64_t sq_addr() const { return sq_; }
  uint64_t cq_addr() const { return cq_; }
  uint32_t sq_doorbell() const { return NvmeCtrl::kDoorbellBase + 8 * qid_; }
  uint32_t cq_doorbell() const { return sq_doorbell() + 4; }

  // Creates the pair at the controller directly (create_io_queue, or
  // create_admin_queue for qid 0), its completions raising MSI vector qid;
  // false when the controller refuses.
  bool create(NvmeCtrl& nvme) const;
  // The admin commands that create it over another queue: Create I/O CQ
  // (interrupt vector qid, enabled) and Create I/O SQ (on CQ qid, class qprio).
  nvme_sqe create_cq_command() const;
  nvme_sqe create_sq_command(uint32_t qprio) const;
  // Delete I/O SQ (cq false) or Delete I/O CQ of this pair.
  nvme_sqe delete_command(bool cq) const;
  // After the controller forgot the pair (power loss): both rings empty, the
  // CQ's entries cleared, the phase tag back to 1, nothing left to ring.
  void reset();

  // Submission: `e` copied to the SQ tail (the caller has room: at most
  // entries - 1 outstanding); the doorbell waits for ring_sq().
  uint32_t sq_tail() const { return sq_tail_; }
  void push(const nvme_sqe& e) {
    std::memcpy(mem_->data() + sq_ + uint64_t(sq_tail_) * sizeof(nvme_sqe), &e, sizeof e);
    sq_tail_ = ring_next(sq_tail_, entries_);
    sq_dirty_ = true;
  }
  // The SQ tail doorbell, if anything was pushed since the last one; returns
  // the delay the controller annotated.
  sc_core::sc_time ring_sq() {
    if (!sq_dirty_) return sc_core::SC_ZERO_TIME;
    sq_dirty_ = false;
    return bells_->write(sq_doorbell(), sq_tail_);
  }

  // Completion: the CQ head entry into *c, taken, when the controller posted
  // it (its phase tag is the current one); false when there is none.
  bool pop(nvme_cqe* c) {
    std::memcpy(c, mem_->data() + cq_ + uint64_t(cq_head_) * sizeof(nvme_cqe), sizeof *c);
    if (bool(SSDVP_FIELD_GET(NVME_CQE_STATUS_P, c->status)) != phase_) return false;
    cq_head_ = ring_next(cq_head_, entries_);
    if (cq_head_ == 0) phase_ = !phase_;
    cq_dirty_ = true;
    return true;
  }
  // The CQ head doorbell, if anything was popped since the last one.
  sc_core::sc_time ring_cq() {
    if (!cq_dirty_) return sc_core::SC_ZERO_TIME;
    cq_dirty_ = false;
    return bells_->write(cq_doorbell(), cq_head_);
  }

  static uint16_t status(const nvme_cqe& c) { return uint16_t(SSDVP_FIELD_GET(NVME_CQE_STATUS_SF, c.status)); }

 private:
  HostMemory* mem_ = nullptr;
  Doorbells* bells_ = nullptr;
  uint16_t qid_ = 0;
  uint32_t entries_ = 0;
  uint64_t sq_ = 0, cq_ = 0;
  uint32_t sq_tail_ = 0, cq_head_ = 0;
  bool phase_ = true, sq_dirty_ = false, cq_dirty_ = false;
};

}  // namespace ssdvp
