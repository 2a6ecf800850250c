// array_ctrl.h - a host RAID-5 controller over N simulated SSDs.
//
// Host side of the array (it lives in the host, like Linux md or a RAID HBA
// driver, and talks to each SSD only through NVMe): one I/O queue pair and one
// admin queue per device in that device's host memory, a software queue per
// device for commands beyond the queue depth, stripe locks, parity kept as
// data (the token of a parity LBA is the XOR of the tokens of its stripe's
// data LBAs), read-modify-write or reconstruct-write chosen per stripe by the
// fewer device reads (as md does), read reconstruction around a device in GC
// or with a deep queue, and GC coordination through NVMe features the drives
// implement (firmware/ftl/gcgate.c): Predictable Latency Mode windows set by
// Set Features (gcsync, gcsync_plus, harmonia), a GC lock granted by a vendor
// admin command on the drive's asynchronous request (gclock), a vendor
// "collect now" command sent to every drive at once when one asks for a
// global collection (harmonia) or to a drive whose window opens (free-block
// banking), and vendor asynchronous events for GC start and end (what
// reconstruction decides on). Trims are forwarded as whole parity rows,
// flushes to every device.
//
// Measurement only (never a decision): each drive's real GC activity, from
// its firmware's trace hook, gives every read the number of devices that were
// collecting while it was served (the slides' 0GC..4GC+ histogram).
// See docs/models/raid.md.
#pragma once

#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>

#include <cstdint>
#include <deque>
#include <exception>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include <nlohmann/json.hpp>

#include "array/stripe_map.h"
#include "common/config.h"
#include "common/wake_timer.h"
#include "host/latency_histogram.h"
#include "host/request_pacer.h"
#include "host/request_prefetch.h"
#include "host/scoreboard.h"
#include "ssdvp_hw.h"
#include "workload.h"

namespace ssdvp {
class Device;
class Timeline;
}  // namespace ssdvp

namespace ssdvp::array {

enum class Coordination { normal, gcsync, gcsync_plus, gclock, harmonia };
enum class Reconstruct { never, on_gc, on_busy };
const char* to_string(Coordination c);
const char* to_string(Reconstruct r);

struct ArrayParams {
  uint32_t devices = 4;
  uint64_t chunk_bytes = 65536;
  Coordination coordination = Coordination::normal;
  Reconstruct reconstruct = Reconstruct::never;
  uint32_t busy_depth = 8;                        // on_busy: commands queued at a device beyond which it counts as busy
  uint64_t window_ps = 0;                         // array.gc.time_window
  uint64_t buffer_ps = 0;                         // array.gc.buffer_time
  uint32_t harmonia_blocks = 4;                   // array.gc.harmonia_blocks
  uint32_t bank_blocks = 0;                       // array.gc.bank_blocks
  int64_t fail_device = -1;                       // array.fail.device (-1: none)
  uint64_t fail_ps = 0;                           // array.fail.at
  bool spare = false;                             // array.rebuild.spare
  uint64_t rebuild_rate = 0;                      // array.rebuild.rate, bytes per second
  uint64_t xor_ps_per_kib = 0, stripe_op_ps = 0;  // array.cpu.*
  uint32_t device_qd = 32;                        // NVMe I/O queue depth per device
  RequestPacer pacer;  // open/closed loop (closed: host.queue_depth array requests), time limit, stall
  bool lba_wrap = true;
  // Reads and checks every array.* key (and the host.* keys the array
  // shares with a single-device run). Throws ConfigError naming the key.
  static ArrayParams from_config(Config& cfg);
};

// The GC window schedule: whether device c of n may collect at time t (ps
// since the timed part started), and the next time any device's answer
// changes. normal, gclock and harmonia have no windows (always open).
struct WindowSchedule {
  Coordination policy;
  uint32_t n;
  uint64_t tw, tb;
  bool open(uint32_t c, uint64_t t) const;
  uint64_t next_change(uint64_t t) const;  // UINT64_MAX: never
};

class ArrayController : public sc_core::sc_module {
 public:
  ArrayController(sc_core::sc_module_name name, const ArrayParams& p, std::vector<Device*> devices, uint32_t lba_size,
                  uint32_t max_transfer_lbas);
  ~ArrayController() override;

  const StripeMap& map() const { return map_; }
  Scoreboard& scoreboard() { return sb_; }

  // Preconditioning (functional, before the timed part): writes array LBAs
  // [lba, lba + n) with new tokens and the stripes' parity to the devices.
  void precondition_write(uint64_t lba, uint64_t n);

  void set_workload(host::Workload* w) { workload_ = w; }
  void set_on_finish(std::function<void()> f) { on_finish_ = std::move(f); }
  // Called every interval_ps of the timed part (the devices' per-die samples).
  void set_sampler(std::function<void()> f, uint64_t interval_ps) {
    sampler_ = std::move(f);
    sample_ps_ = interval_ps;
  }
  // One GC track and one window track per device on t (processes "array GC").
  void set_timeline(Timeline* t);
  // Measurement hook: device d's firmware opened (start) or closed a GC victim.
  void gc_trace(uint32_t d, bool start, uint64_t at_ps);
  void start() { start_ev_.notify(sc_core::SC_ZERO_TIME); }
  bool finished() const { return finished_; }
  bool closed_loop() const { return p_.pacer.closed_loop(); }
  std::exception_ptr error() const { return error_; }

  // The array's part of the summary (devices' firmware figures are added by
  // the runner).
  nlohmann::json summary() const;
  uint64_t mismatches() const { return sb_.mismatches() + dev_mismatches_ + rebuild_mismatches_; }
  uint64_t lock_overlaps() const { return lock_overlaps_; }
  double sim_seconds() const { return double(end_ps_ - start_ps_) * 1e-12; }
  uint64_t requests() const { return requests_; }

 private:
  nlohmann::json gc_summary() const;        // part of summary()
  nlohmann::json degraded_summary() const;  // part of summary()
  struct DevIo {
    uint64_t op;  // stripe operation id
    uint32_t dev;
    bool write;
    uint64_t lba;  // device LBA
    uint32_t n;
    uint32_t buf_dev;     // the op's token buffer (per device) ...
    uint64_t buf_off;     // ... and the offset in it of lba
    uint8_t special = 0;  // kTrim: deallocate [lba, lba + n); kFlush: flush the device
  };
  static constexpr uint8_t kTrim = 1, kFlush = 2, kRebuild = 3;
  struct Slot {
    bool busy = false;
    DevIo io{};
    uint64_t host_buf = 0;
  };
  struct AdminSlot {
    bool busy = false;
    uint8_t opcode = 0;
  };
  struct Port;
  struct Request {
    host::IoRequest io;
    uint64_t arrival_ps;
    uint64_t lba, nlb;
    uint32_t ops = 0;
    uint64_t gc_seen_mask = 0;  // devices found collecting during it (measurement)
  };
  struct Op {
    uint64_t id, req, stripe;
    bool write;                      // a write, trim or flush (takes the stripe lock exclusively; a flush takes none)
    uint8_t special = 0;             // kTrim, kFlush or kRebuild (no request: rebuilds the stripe onto the spare)
    uint32_t lost = UINT32_MAX;      // the failed device, when this stripe had none to stand in for it at op_start
    uint64_t first, n;               // array LBAs [first, first + n), inside the stripe
    uint64_t o0, o1;                 // hull of the chunk offsets it touches
    std::vector<uint64_t> wlo, whi;  // per data index: offsets touched [lo, hi)
    std::vector<std::vector<uint32_t>> tok;  // per device: tokens over [o0, o1)
    uint32_t phase = 0;                      // 0 waiting for the lock, 1 reading, 2 writing
    uint32_t outstanding = 0;
    bool rmw = false;
    uint32_t recon = UINT32_MAX;  // device read around (reconstruction)
  };
  struct StripeLock {
    std::deque<uint64_t> q;
    uint32_t readers = 0;
    bool writer = false;
  };

  SC_HAS_PROCESS(ArrayController);
  void run();
  void replay();
  void setup_gc_features(bool windows);
  void fail_device(uint64_t now);
  void wait_for_work(bool have_next, const host::IoRequest& io, bool rebuilding, uint64_t now);
  void refill();
  bool next_request(host::IoRequest& io);
  void admit(const host::IoRequest& io, uint64_t arrival);
  void lock_grant(uint64_t stripe);
  void op_start(Op& op);
  // op_start's kinds: a trim or flush (every device), a read, a write.
  void op_start_special(Op& op);
  void op_start_read(Op& op);
  void op_start_write(Op& op);
  // Reads offsets [lo, hi) of the stripe's device d (the spare stands in once rebuilt).
  void op_read(Op& op, uint32_t d, uint64_t lo, uint64_t hi);
  void op_read_phase_done(Op& op);
  void op_finish(Op& op);
  void issue(const DevIo& io);
  void pump(uint32_t d);  // waiting -> slots
  void ring_all();
  void reap(uint32_t d);
  void io_done(Port& p, const Slot& s, uint16_t status);
  void admin(uint32_t d, const nvme_sqe& e, uint8_t opcode);
  void admin_done(uint32_t d, uint8_t opcode, uint32_t dw0, uint16_t status);
  void windows_update(uint64_t now);
  void lock_request(uint32_t d, uint64_t now);
  void lock_release(uint32_t d, uint64_t now);
  void collect(uint32_t d, uint32_t blocks);
  // Degraded mode: the device holding device d's chunks of stripe s (the
  // spare once that stripe is rebuilt), and whether d's chunk is lost there.
  uint32_t phys(uint32_t d, uint64_t s) const {
    return failed_ && d == uint32_t(p_.fail_device) && s < rebuilt_ ? spare_dev_ : d;
  }
  bool lost(uint32_t d, uint64_t s) const { return failed_ && d == uint32_t(p_.fail_device) && s >= rebuilt_; }
  void rebuild_step(uint64_t now);
  uint64_t add_special_op(uint64_t req, uint64_t stripe, uint8_t kind);  // a flush or a rebuild step: its id
  void xor_cost(uint64_t tokens) { xor_tokens_ += tokens; }  // vendor C2h: collect up to the threshold + blocks
  void global_gc_request(uint32_t d, uint64_t now);
  void collect_done(uint32_t d, uint64_t now);
  bool device_flagged(uint32_t d) const;
  uint32_t gc_devices_during(uint64_t since) const;
  void complete_request(uint64_t id, uint64_t now);

  ArrayParams p_;
  StripeMap map_;
  uint32_t lba_size_, max_transfer_;
  Scoreboard sb_;                              // array LBAs: what every read must return
  std::vector<std::vector<uint32_t>> devtok_;  // per device LBA: what the device must hold (data or parity)
  std::vector<std::unique_ptr<Port>> ports_;
  WindowSchedule sched_;

  host::Workload* workload_ = nullptr;
  std::function<void()> on_finish_, sampler_;
  uint64_t sample_ps_ = 0, next_sample_ = UINT64_MAX;
  Timeline* timeline_ = nullptr;
  std::vector<int> gc_track_, window_track_;  // per device, on timeline_
  sc_core::sc_event start_ev_, refill_ev_, refilled_ev_;
  sc_core::sc_event_or_list any_msi_;  // every device's MSI and wake_
  WakeTimer wake_{"wake"};  // wait_for_work's next window change, sample, failure, rebuild step, arrival or stall limit
  RequestPrefetch prefetch_;
  std::exception_ptr error_;
  bool finished_ = false;

  std::map<uint64_t, Request> reqs_;
  std::unordered_map<uint64_t, Op> ops_;
  std::unordered_map<uint64_t, StripeLock> locks_;
  std::deque<uint64_t> ready_;
  uint64_t next_req_ = 0, next_op_ = 0;
  uint64_t t0_ = 0, next_window_ = UINT64_MAX;

  // gclock
  int32_t holder_ = -1;
  uint64_t hold_begin_ = 0, hold_sum_ = 0, hold_max_ = 0, grants_ = 0;
  std::deque<uint32_t> lock_waiters_;
  size_t max_waiters_ = 0;
  uint64_t lock_overlaps_ = 0;       // release from a device that was not the holder (must stay 0)
  uint32_t max_concurrent_gc_ = 0;   // most devices collecting at once (measurement)
  uint64_t instant_collisions_ = 0;  // reads during which 2+ devices collected at the same instant (measurement)
  uint32_t collecting_now_ = 0;      // devices with a victim open now
  bool multi_ever_ = false;
  uint64_t multi_last_end_ = 0;  // when 2+ devices last stopped collecting at once

  // harmonia (global collections) and free-block banking
  bool ggc_active_ = false, ggc_pending_ = false;
  uint32_t ggc_outstanding_ = 0;
  uint64_t ggc_rounds_ = 0, ggc_begin_ = 0, ggc_sum_ = 0, ggc_max_ = 0, ggc_requests_ = 0;
  uint64_t collects_sent_ = 0, collects_done_ = 0;

  // degraded mode and rebuild
  bool failed_ = false, rebuild_busy_ = false;
  uint32_t spare_dev_ = UINT32_MAX;  // port index of the spare
  uint64_t rebuilt_ = 0;             // stripes [0, rebuilt_) are on the spare
  uint64_t failed_at_ = 0, rebuild_begin_ = 0, rebuild_end_ = 0, next_rebuild_ = UINT64_MAX;
  uint64_t degraded_reads_ = 0, degraded_writes_ = 0, rebuild_mismatches_ = 0, rebuild_checked_ = 0;
  // RAID-driver CPU (host): tokens XORed, stripe operations
  uint64_t xor_tokens_ = 0, stripe_ops_ = 0;

  // results
  uint64_t start_ps_ = 0, end_ps_ = 0, requests_ = 0, reads_ = 0, writes_ = 0, wrapped_ = 0, out_of_range_ = 0;
  uint64_t trims_ = 0, flushes_ = 0, trim_array_lbas_ = 0, trim_rows_ = 0, trim_kept_lbas_ = 0, trim_device_cmds_ = 0;
  uint64_t read_bytes_ = 0, write_bytes_ = 0;
  LatencyHistogram read_lat_, write_lat_;
  std::vector<uint64_t> gc_hist_;  // reads by devices collecting while served
  std::vector<LatencyHistogram> lat_by_gc_;
  uint64_t full_stripe_ = 0, rcw_ = 0, rmw_ = 0, reconstructions_ = 0, recon_device_reads_ = 0;
  uint64_t dev_checked_ = 0, dev_mismatches_ = 0, set_features_ = 0, aens_ = 0, errors_ = 0;
};

}  // namespace ssdvp::array
