// nvme_arbiter.h - which submission queue the NVMe controller fetches from
// next (NVMe base specification, "Command Arbitration").
//
// Round robin (CC.AMS 000b, the default): every live SQ, the admin queue
// included, takes its turn in creation order; a turn launches up to the
// Arbitration Burst commands.
//
// Weighted round robin with urgent priority class (CC.AMS 001b): three
// strict levels. The admin queue first, then the urgent queues (round robin
// among them), then the weighted classes high, medium and low: each class
// may launch its weight in commands per round (HPW/MPW/LPW + 1), round robin
// among its queues, up to the burst per turn; the class keeps its turns until
// its credit is spent or none of its queues has a command, then the next
// class (high, medium, low) goes. When no class with a waiting command has
// credit left, a new round gives every class its weight again. A queue's
// class is the QPRIO of its Create I/O Submission Queue command.
//
// The arbiter holds no commands: the caller says how many wait in each queue
// (pick()), fetches at most the quota it gets and reports what it took
// (took()). No SystemC; tests/testbench/models/nvme_arbiter_test.cpp works
// the orders out by hand.
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

namespace ssdvp {

class NvmeArbiter {
 public:
  enum class Mechanism : uint8_t { rr, wrr };
  // QPRIO of Create I/O SQ (CDW11 bits 2:1).
  enum Priority : uint8_t { urgent = 0, high = 1, medium = 2, low = 3 };

  explicit NvmeArbiter(uint32_t burst = 8) : burst_(burst ? burst : 1) {}

  void set_mechanism(Mechanism m) { mech_ = m; }
  Mechanism mechanism() const { return mech_; }
  // Arbitration feature (Set Features 01h, dword 11): AB bits 2:0 (burst
  // 2^AB, 7: no limit), LPW 15:8, MPW 23:16, HPW 31:24 (0's based weights).
  void set_feature(uint32_t dw11);
  uint32_t feature() const;  // as Get Features would return it
  uint32_t burst() const { return burst_; }
  uint32_t weight(Priority p) const { return weight_[p]; }  // 1..256

  void add(uint16_t qid, Priority p);  // qid 0 is the admin queue
  void remove(uint16_t qid);

  // The queue to fetch from next and how many commands it may launch
  // (>= 1); false when no queue has a command. waiting(qid) is the number
  // of commands in that SQ that can be fetched now.
  bool pick(const std::function<uint32_t(uint16_t)>& waiting, uint16_t* qid, uint32_t* quota);
  // The caller launched n commands from qid after pick() chose it.
  void took(uint16_t qid, uint32_t n);

 private:
  struct Entry {
    uint16_t qid;
    Priority prio;
  };
  // Next queue with work in `list` from position *pos (round robin); the
  // position moves past it. -1 when none has work.
  int next_in(const std::vector<uint16_t>& list, uint32_t* pos, const std::function<uint32_t(uint16_t)>& waiting);
  std::vector<uint16_t>& class_list(int c) { return cls_[c]; }

  Mechanism mech_ = Mechanism::rr;
  uint32_t burst_;
  uint32_t weight_[4] = {1, 1, 1, 1};  // [urgent] unused
  std::vector<Entry> all_;             // creation order (round robin)
  uint32_t rr_ = 0;
  std::vector<uint16_t> cls_[4];  // wrr: queues per class, creation order
  uint32_t cls_pos_[4] = {0, 0, 0, 0};
  uint32_t credit_[4] = {0, 0, 0, 0};
  int cur_ = high;  // weighted class whose turn it is
  bool admin_ = false;
};

}  // namespace ssdvp
