// bus_target.h - the base of every bus-attached target: a register block or a
// memory.
//
// A BusTarget is an sc_module with what a target needs whatever sits behind
// its socket:
//   - `tsock`, the target socket the bus attaches by region name, decoding a
//     window of window() bytes at a granularity of align() bytes. An access
//     not wholly inside [0, window) gets TLM_ADDRESS_ERROR_RESPONSE; one whose
//     address or length is not a multiple of align(), or whose streaming
//     width is below its length, gets TLM_BURST_ERROR_RESPONSE. Either is
//     counted in rejected(), logged (debug) and never reaches the block nor
//     costs time; a debug access so refused returns 0 and counts nothing.
//   - the access timing (annotate()): a fixed access time and, for a target
//     with a bandwidth, a transfer time at that peak bandwidth shared by all
//     initiators through one busy-until reservation;
//   - the access's clock: access_at_ps(), the initiator's local time when the
//     access being served arrived (kernel time plus its annotated delay);
//   - the DMI grant: a target with a byte store grants it once
//     (grant_dmi()) for its whole window, with the access time as read and
//     write latency; without a grant DMI is denied for the whole window;
//   - the logger (log.<instance>).
// The block behind the socket implements serve() (and serve_dbg()), called
// only for accesses that passed the checks above. A block that decodes every
// access itself (a RegisterBank's offset index is a window and granularity
// check of its own) may instead give the base its own b_transport, called
// directly by the socket (the firmware's every register access goes through
// it: one indirect call and one check fewer); it calls note_arrival() first
// and answers every access it cannot serve with an error response. Guest
// mistakes get a TLM error response, never an assert.
#pragma once

#include <systemc>
#include <tlm>
#include <tlm_utils/simple_target_socket.h>

#include <cstdint>

#include "common/config.h"
#include "common/log.h"

namespace ssdvp {

class BusTarget : public sc_core::sc_module {
 public:
  tlm_utils::simple_target_socket<BusTarget> tsock;

  uint64_t window() const { return window_; }
  unsigned align() const { return align_; }
  // The fixed access time (ps) and the peak bandwidth (MB/s, 0: none).
  uint64_t access_ps() const { return access_ps_; }
  double bandwidth_mbps() const { return mbps_; }
  // Bytes at the peak bandwidth, in ps (0 without a bandwidth).
  uint64_t transfer_ps(uint64_t bytes) const;
  // Accesses refused by the window or granularity checks (not debug ones).
  uint64_t rejected() const { return rejected_; }

 protected:
  using BTransport = void (BusTarget::*)(tlm::tlm_generic_payload&, sc_core::sc_time&);
  // socket_name: the socket's SystemC name ("regs" for a register block);
  // own_b_transport: the block's own b_transport (see above), or null for
  // the base's checks and serve(). The window, granularity and timing are
  // set by the block's constructor (set_window(), set_timing()), so that it
  // reads its config keys in its own order.
  BusTarget(sc_core::sc_module_name name, Config& cfg, const char* socket_name, BTransport own_b_transport = nullptr);

  // The decoded window (bytes, at least 1) and the access granularity (a
  // power of two).
  void set_window(uint64_t bytes, unsigned align);
  // The fixed access time and, if mbps > 0, the shared peak bandwidth.
  void set_timing(uint64_t access_ps, double mbps = 0);
  // Grants DMI to [store, store + window()) from now on.
  void grant_dmi(uint8_t* store) { dmi_store_ = store; }

  // Serves an access that passed the checks: moves the data, sets the
  // response status and annotates its time (annotate()) where the block's
  // timing rule says. (Called by a block's own b_transport, if it has one,
  // for what its own decode accepts.)
  virtual void serve(tlm::tlm_generic_payload& tx, sc_core::sc_time& delay) = 0;
  // Serves a debug access that passed the checks, without side effects;
  // returns the bytes accessed (0: refused).
  virtual unsigned serve_dbg(tlm::tlm_generic_payload& tx) = 0;

  // Adds the time of an access of n bytes to delay: the access time, after
  // the transfer at the shared bandwidth (which starts when this access has
  // arrived and the transfers reserved before it are done) if there is one.
  void annotate(sc_core::sc_time& delay, uint64_t n) {
    if (mbps_ > 0)
      annotate_shared(delay, n);
    else
      delay += access_time_;
  }
  // The same in picoseconds: delay_ps plus the access's time.
  uint64_t annotated_ps(uint64_t delay_ps, uint64_t n) {
    if (mbps_ == 0) return delay_ps + access_ps_;
    sc_core::sc_time d = sc_core::sc_time::from_value(delay_ps);
    annotate_shared(d, n);
    return d.value();
  }
  // Records the access's arrival (its annotated delay) for access_at_ps():
  // the first thing a block's own b_transport does.
  void note_arrival(const sc_core::sc_time& delay) { access_delay_ps_ = delay.value(); }
  void note_arrival_ps(uint64_t delay_ps) { access_delay_ps_ = delay_ps; }

  // The initiator's local time (ps) when the access being served arrived:
  // the kernel's time plus the access's annotated delay, read only by the
  // handlers that need it (one time read per access at most).
  uint64_t access_at_ps() const { return sc_core::sc_time_stamp().value() + access_delay_ps_; }
  // How far the access being served lies ahead of the kernel's time (ps).
  uint64_t access_delay_ps() const { return access_delay_ps_; }

  Logger log_;

 private:
  void b_transport(tlm::tlm_generic_payload& tx, sc_core::sc_time& delay);
  unsigned transport_dbg(tlm::tlm_generic_payload& tx);
  bool get_direct_mem_ptr(tlm::tlm_generic_payload& tx, tlm::tlm_dmi& dmi);
  void annotate_shared(sc_core::sc_time& delay, uint64_t n);
  // The response status for an access that fails the window or granularity
  // checks, or TLM_OK_RESPONSE.
  tlm::tlm_response_status check(const tlm::tlm_generic_payload& tx) const {
    const uint64_t a = tx.get_address(), n = tx.get_data_length();
    if (a >= window_ || n > window_ - a) return tlm::TLM_ADDRESS_ERROR_RESPONSE;
    if (((a | n) & (align_ - 1)) || tx.get_streaming_width() < n) return tlm::TLM_BURST_ERROR_RESPONSE;
    return tlm::TLM_OK_RESPONSE;
  }

  uint64_t window_ = 1;
  unsigned align_ = 1;
  uint64_t access_ps_ = 0;
  sc_core::sc_time access_time_;  // access_ps_, made once
  double mbps_ = 0;
  uint64_t busy_until_ps_ = 0;    // the shared bandwidth's reservation
  uint64_t access_delay_ps_ = 0;  // the annotated delay of the access being served
  uint8_t* dmi_store_ = nullptr;
  uint64_t rejected_ = 0;
};

}  // namespace ssdvp
