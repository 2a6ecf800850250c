// flash_ring_engine.h - the flash controller's side of its descriptor rings,
// without SystemC: the one implementation of the FLASH ring registers, the
// descriptor fetch, the descriptor checks and the completion posting with
// its phase tag (ssdvp_hw.h, "flash controller").
//
// Three producers drive it: the flash controller model (FlashCtrl, which adds
// NAND execution and timing), the firmware tests' fake HAL (functional NAND
// through NandDie) and the host-level FTL's HAL (each descriptor becomes an
// Open-Channel command to a drive). They differ only in what a descriptor
// does; the ring protocol the firmware sees is this one. docs/models/flash_ctrl.md.
//
// Register semantics (as FlashCtrl has always had them): a ring is enabled
// once BASE and SIZE are both non-zero and keep the layout rules (ring.h);
// writing either resets its indices (and the completion ring's phase tag to
// 1). SQ_TAIL and CQ_HEAD must be below SIZE on an enabled ring. Completions
// wait in order in the engine while the completion ring is full and go in
// when CQ_HEAD frees room. Everything the firmware can get wrong goes to the
// error callback (the controller's ERRORS register); nothing asserts.
#pragma once

#include <cstdint>
#include <deque>
#include <functional>
#include <string>

#include "flash/flash_geometry.h"
#include "ssdvp_hw.h"

namespace ssdvp {

// DRAM as a producer reaches it (the controller through its DMA socket, a HAL
// through its buffer). read/write return false when [addr, addr + n) is not
// DRAM it can reach; *latency_ps (when not null) accumulates the access time.
class FlashDram {
 public:
  virtual ~FlashDram() = default;
  virtual bool read(uint64_t addr, void* dst, uint32_t n, uint64_t* latency_ps) = 0;
  virtual bool write(uint64_t addr, const void* src, uint32_t n, uint64_t* latency_ps) = 0;
  virtual bool reachable(uint64_t addr, uint64_t bytes) = 0;
};

// DRAM a HAL holds in its own memory (the fake HAL's, the host FTL's):
// resolve(ctx, addr, bytes) is the host pointer of [addr, addr + bytes), or
// null outside it (the signature of the HAL's dram operation, hal.h).
class HalDram final : public FlashDram {
 public:
  using Resolve = void* (*)(void* ctx, uint32_t addr, uint32_t bytes);
  HalDram(Resolve resolve, void* ctx) : resolve_(resolve), ctx_(ctx) {}
  bool read(uint64_t addr, void* dst, uint32_t n, uint64_t* latency_ps) override;
  bool write(uint64_t addr, const void* src, uint32_t n, uint64_t* latency_ps) override;
  bool reachable(uint64_t addr, uint64_t bytes) override;

 private:
  void* at(uint64_t addr, uint64_t bytes) const;
  Resolve resolve_;
  void* ctx_;
};

// Which opcodes a producer executes (the others complete with FC_ERR_OPCODE).
struct FlashOpcodes {
  bool copyback = false;  // FC_OP_COPYBACK (an on-die copy: the controller model)
  bool copy = false;      // FC_OP_COPY (a copy anywhere on the flash: a host FTL's HAL)
};

// The checks of a descriptor that need no NAND state, for a plain opcode (a
// multi-plane member is checked by its kind). FC_OK, or the status it
// completes with and *why the reason.
fc_status flash_check_descriptor(const FlashGeometry& geo, const FlashOpcodes& ops, const fc_sqe& d, const char** why);

class FlashRingEngine {
 public:
  // on_error(what, value): a firmware error the controller records (ERRORS,
  // LAST_ERR_ROW = value, LAST_ERR_CODE = FC_ERR_DMA).
  using ErrorFn = std::function<void(const std::string& what, uint32_t value)>;
  FlashRingEngine(FlashDram& dram, ErrorFn on_error) : dram_(dram), on_error_(std::move(on_error)) {}

  // ---- registers -----------------------------------------------------------
  // Whether FLASH register `offset` is one the engine holds (the ring
  // registers and CTRL).
  static bool holds(uint32_t offset) { return offset <= FLASH_CQ_HEAD || offset == FLASH_CTRL; }
  // The value of FLASH register `offset` (SQ_/CQ_ BASE, SIZE, HEAD, TAIL,
  // CTRL), 0 for one the engine does not hold.
  uint32_t read(uint32_t offset) const;
  // SQ_BASE, SQ_SIZE, CQ_BASE, CQ_SIZE (re-validate and reset the ring),
  // SQ_TAIL (new descriptors: fetch them with next()), CQ_HEAD (room: call
  // post_ready()). Returns false when the write was refused (reported).
  bool write(uint32_t offset, uint32_t value);
  // CTRL: the completion ring starts again (indices 0, phase tag 1) with the
  // new value; refused (reported, false) while completions are not taken or
  // still wait here, or when the caller says some are in flight.
  bool write_ctrl(uint32_t value, bool completions_in_flight);
  uint32_t ctrl() const { return ctrl_; }
  bool phase_tags() const { return (ctrl_ & FLASH_CTRL_CQ_PHASE) != 0; }

  // ---- submissions ---------------------------------------------------------
  // The next descriptor up to SQ_TAIL into *d (its DRAM read time added to
  // *latency_ps when not null); false when there is none, or the ring became
  // unreadable (reported, ring disabled).
  bool next(fc_sqe* d, uint64_t* latency_ps = nullptr);
  // The next descriptor without taking it (false: none, or unreadable).
  bool peek(fc_sqe* d) { return read_head(d, nullptr); }
  bool submissions_waiting() const { return sq_.enabled && sq_.head != sq_.tail; }

  // ---- completions ---------------------------------------------------------
  // A completion, in order behind those waiting; post_ready() writes them.
  void complete(const fc_cqe& c) { ready_.push_back(c); }
  // Waiting completions into the completion ring while it has room (each
  // with its phase tag under CTRL.CQ_PHASE).
  void post_ready();
  size_t completions_waiting() const { return ready_.size(); }
  // The interrupt line: the completion ring holds entries not taken.
  bool irq() const { return cq_.enabled && cq_.tail != cq_.head; }
  uint32_t cq_head() const { return cq_.head; }
  uint32_t cq_tail() const { return cq_.tail; }
  // Power loss: waiting completions dropped (their count returned) and the
  // entries not taken forgotten; the rings stay programmed.
  size_t power_cut();

 private:
  struct Ring {
    uint32_t base = 0, size = 0, head = 0, tail = 0;
    bool enabled = false;
    bool phase = true;  // the phase tag of the entry written at tail next (CTRL.CQ_PHASE)
  };
  void program(Ring& r, const char* which, uint32_t entry_bytes);
  bool doorbell(const Ring& r, uint32_t& index, uint32_t v, const char* reg, const char* ring);
  bool read_head(fc_sqe* d, uint64_t* latency_ps);  // the descriptor at SQ_HEAD (false: none, or unreadable)

  FlashDram& dram_;
  ErrorFn on_error_;
  Ring sq_, cq_;
  uint32_t ctrl_ = 0;
  std::deque<fc_cqe> ready_;
};

}  // namespace ssdvp
