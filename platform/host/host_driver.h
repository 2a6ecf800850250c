// host_driver.h - the host's NVMe driver and workload replay.
//
// Replays a Workload against one SSD through an NVMe I/O queue pair in host
// memory: open loop (each request issued at its timestamp, waiting in a
// software queue while the device queue is full) or closed loop (a fixed
// number of requests outstanding). Requests are split into commands of at
// most max_transfer LBAs. A request that overlaps an in-flight write or
// deallocation, or a write that overlaps any in-flight request, waits for it
// (as a block layer would), so every read has one expected content: reads are
// checked against the scoreboard. Latency runs from a request's arrival (open
// loop) or issue (closed loop) to the host handling its last completion.
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
#include <vector>

#include "common/config.h"
#include "common/log.h"
#include "common/payload_pool.h"
#include "common/wake_timer.h"
#include "host/host_memory.h"
#include "host/inflight.h"
#include "host/latency_histogram.h"
#include "host/live_source.h"
#include "host/nvme_queue_pair.h"
#include "host/request_pacer.h"
#include "host/request_prefetch.h"
#include "host/scoreboard.h"
#include "host/shared_lbas.h"
#include "host/gcdetect/iostat.h"
#include "workload.h"

namespace ssdvp {

class NvmeCtrl;

// Device-side counters sampled into the time series.
struct DeviceSample {
  uint64_t host_lba_writes = 0, gc_lba_writes = 0, erases = 0, gc_victims = 0;
  uint32_t free_blocks = 0;
};

// The LBAs a byte range covers: [*lba, *lba + *n). With wrap, a range beyond
// the namespace of `lbas` LBAs is folded into it (start modulo lbas, pulled
// back so it ends inside; at most lbas long) and *wrapped is set. Returns
// false for an empty range.
bool lba_range(uint64_t offset, uint64_t length, uint32_t lba_size, uint64_t lbas, bool wrap, uint64_t* lba,
               uint64_t* n, bool* wrapped = nullptr);

// Latency percentiles of the requests completed in one interval (us; all 0
// when none completed).
struct IntervalLatency {
  uint64_t count;
  double p50, p99, p999, max;
  std::vector<LatencyHistogram::Bucket> buckets;  // the interval's histogram (stats.interval_histograms)
};

struct TimeseriesRow {
  double time_s;
  IntervalLatency read_latency, write_latency;
  double read_mbps, write_mbps, read_iops, write_iops;
  uint64_t gc_lba_moves, erases, gc_victims;
  uint32_t free_blocks;
};

struct HostResults {
  uint64_t requests = 0, reads = 0, writes = 0, trims = 0, flushes = 0;
  uint64_t read_bytes = 0, write_bytes = 0, trim_bytes = 0;
  uint64_t commands = 0, errors = 0, wrapped = 0;
  uint64_t dropped = 0;       // requests left unfinished: their queues were deleted at the flow's stop (abort)
  bool time_limited = false;  // host.time_limit cut the workload short
  std::map<uint16_t, uint64_t> errors_by_status;
  LatencyHistogram read_latency, write_latency;
  LatencyHistogram fsync_latency;  // first to last request of each fsync (IoRequest::flags)
  LatencyHistogram flush_latency;  // each flush command, as read_latency (summary: only when there were flushes)
  uint64_t start_ps = 0, end_ps = 0;
  std::vector<TimeseriesRow> timeseries;
  bool interval_histograms = false;   // the rows carry their latency buckets
  bool timeseries_truncated = false;  // stats.max_rows reached: the last row covers the rest of the run
  // Time integrals (request-ps) of the requests in the system, from the time
  // their latency starts to their completion, per class (read, write, other),
  // and of the commands outstanding at the device: divided by the run time,
  // the mean numbers in the system (Little's law: = throughput x mean latency).
  double in_system_ps[3] = {0, 0, 0};
  double device_commands_ps = 0;
};

// The I/O queue pair a driver uses and the LBAs it owns (flows.h: one per
// flow). create: the driver creates the pair itself (create_io_queue, as a
// lone host does); else whoever owns the admin queue sends Create I/O CQ/SQ.
struct HostQueue {
  uint16_t qid = 1;
  bool create = true;
  uint64_t lba_base = 0, lbas = 0;  // lbas 0: the whole namespace
};

class HostDriver : public sc_core::sc_module {
 public:
  tlm_utils::simple_initiator_socket<HostDriver> pcie;  // to the SSD's host_regs (doorbells)

  HostDriver(sc_core::sc_module_name name, Config& cfg, HostMemory& mem, NvmeCtrl& nvme, Scoreboard& sb,
             uint32_t lba_size, uint32_t max_transfer_lbas, const HostQueue& queue = HostQueue());
  const HostQueue& queue() const { return hq_; }
  // Its thread's resumptions after waiting (completions, arrivals, samples, submission time).
  uint64_t thread_wakeups() const { return thread_wakeups_; }
  // Its I/O queue pair (nvme_queue_pair.h): qid hq_.qid, queue_depth() + 1 entries.
  const NvmeQueuePair& queue_pair() const { return io_q_; }
  // Runs in the driver's thread when it starts, before replay (flows.cpp:
  // the admin commands that create the other flows' queues).
  void set_before_replay(std::function<void()> f) { before_replay_ = std::move(f); }
  // One admin command on the admin queue (created at the first call), from
  // the driver's thread; returns its NVMe status (host_admin.cpp).
  uint16_t admin(const nvme_sqe& e, uint32_t* dw0 = nullptr);

  void set_workload(host::Workload* w) { workload_ = w; }
  // Before replay, enable the NVMe Streams directive and allocate `streams`
  // stream resources over the admin queue (host_admin.cpp); 0: leave it off.
  void set_streams(uint32_t streams) { streams_wanted_ = streams; }
  struct StreamsGrant {
    uint32_t allocated = 0, limit = 0;  // NSA and MSL reported by the device
  };
  const StreamsGrant& streams_grant() const { return grant_; }
  void set_sampler(std::function<DeviceSample()> s) { sampler_ = std::move(s); }
  bool closed_loop() const { return pacer_.closed_loop(); }
  void set_on_finish(std::function<void()> f) { on_finish_ = std::move(f); }
  // Called for every completed request (timelines); null by default.
  struct RequestRecord {
    host::IoOp op;
    uint64_t lba, nlb, arrival_ps, done_ps;
    bool error;
  };
  void set_observer(std::function<void(const RequestRecord&)> o) { observer_ = std::move(o); }
  // Starts replay at the current simulated time (notified; the thread runs).
  void start() { start_ev_.notify(sc_core::SC_ZERO_TIME); }
  bool finished() const { return finished_; }
  uint32_t outstanding_commands() const { return busy_slots_; }  // submitted, not completed
  // Power loss (host_power.cpp; the driver's thread halted, the controller's
  // queues gone): every outstanding command fails with Command Aborted due to
  // Power Loss Notification (00h/05h), its request with it; the I/O queue
  // pair is created again, empty. Then power_up() lets the thread go on.
  void power_loss();
  void power_up();
  uint64_t power_aborted() const { return power_aborted_; }
  // An error the replay stopped on (a malformed trace line), rethrown by the runner.
  std::exception_ptr error() const { return error_; }
  const HostResults& results() const { return res_; }
  uint64_t queue_depth() const { return qd_; }
  // Block-layer counters of the device, as /proc/diskstats keeps them (iostat).
  gcdetect::BlockStats& block_stats() { return block_; }
  // Flows (flows.h): this driver's requests count in `b` instead (every flow
  // feeds the one device's counters, flow 0's, which the GC monitor reads).
  void feed_block_stats(gcdetect::BlockStats& b) { block_feed_ = &b; }
  // Requests read ahead from the workload (default 4096); a feedback-driven
  // workload (the file-level host's TRIMs) wants 1.
  void set_prefetch(size_t n) { prefetch_.set_depth(n); }
  // A live source (the NBD export) instead of the workload; see live_source.h.
  // With feed and layers (the run's workload chain around feed), each live
  // request passes through the layers, which may tag it (streams).
  void set_live(LiveSource* s, LiveFeed* feed = nullptr, host::Workload* layers = nullptr) {
    if (s && s != live_src_) wait_list_ |= s->arrival();
    live_src_ = s;
    live_feed_ = feed;
    live_layers_ = layers;
  }
  // nvme.command_set zns: zones of 2^zone_bits LBAs, zone_cap writable; a
  // trim becomes a Zone Management Send Reset of each zone it touches, and
  // the scoreboard forgets the whole zone (zns_host.cpp).
  void set_zones(uint32_t zone_bits, uint64_t zone_cap) { zone_bits_ = zone_bits, zone_cap_ = zone_cap; }
  // Flows whose LBAs overlap (flows.h): reads are checked by `s`'s rule for
  // writes of other queues in flight (shared_lbas.h); null: the scoreboard alone.
  void set_shared(SharedLbas* s) { shared_ = s; }
  // flows.<i>.stop_queues (flows.cpp, host_stop.cpp): at its stop the driver
  // deletes its queue pair through `del` (Delete I/O SQ, then Delete I/O CQ,
  // over the admin queue; returns the NVMe status). abort: at the stop time,
  // with its commands still outstanding (the controller completes the ones it
  // has not fetched with 08h; requests not yet issued are dropped); else once
  // every command completed (drain).
  void set_queue_deleter(std::function<uint16_t(bool cq)> del, bool abort) {
    deleter_ = std::move(del);
    abort_at_stop_ = abort;
  }
  bool queues_deleted() const { return queues_deleted_; }

 private:
  struct Request {
    host::IoRequest io;
    uint64_t arrival_ps;
    uint64_t lba, nlb;    // in device LBAs
    uint64_t issued = 0;  // LBAs handed to commands so far
    uint32_t outstanding = 0;
    bool error = false;
    uint64_t id;
    bool counted = false;  // entered the in-system integrals
  };
  struct Slot {
    bool busy = false;
    uint64_t request = 0;
    host::IoOp op = host::IoOp::read;
    uint64_t lba = 0;
    uint32_t nlb = 0;
    uint64_t buf = 0;  // host address of its token buffer
    bool fua = false;  // a write with force unit access (host.fua_fraction)
    uint64_t seq = 0;  // its SharedLbas command number (flows sharing LBAs)
  };

  SC_HAS_PROCESS(HostDriver);
  void run();
  // The workload is read by an SC_METHOD (the kernel's own stack) into a
  // prefetch buffer: parsing errors are exceptions, and an exception thrown
  // on a thread's coroutine stack defeats AddressSanitizer's bookkeeping.
  void refill();
  bool next_request(host::IoRequest& io);  // in the thread; false at the end or on an error
  bool admit(Request& r);                  // maps bytes to LBAs; false if it has none
  bool issue_some(Request& r);             // issues commands of r while slots allow; true when all issued
  nvme_sqe flush_command(const Request& r, uint32_t slot);
  nvme_sqe io_command(const Request& r, uint32_t slot, uint64_t lba, uint32_t n);
  uint32_t trim_piece(uint64_t lba, uint64_t left) const;        // zns_host.cpp: LBAs of one trim command
  nvme_sqe zone_reset(nvme_sqe e, uint32_t slot, uint64_t lba);  // zns_host.cpp: the trim as a zone reset
  uint32_t zone_bits_ = 0;
  uint64_t zone_cap_ = 0;  // 0: not a zoned namespace
  bool conflicts(host::IoOp op, uint64_t lba, uint64_t n) const;
  SharedLbas* shared_ = nullptr;
  void shared_done(const Slot& sl, uint16_t status);  // shared_lbas_hooks.cpp
  std::function<uint16_t(bool)> deleter_;             // host_stop.cpp
  bool abort_at_stop_ = false, queues_deleted_ = false;
  void delete_queues(uint64_t now);
  uint32_t free_slot() const;
  void submit(uint32_t slot, const nvme_sqe& e);
  void reap();  // handles new completion entries
  void complete_command(const nvme_cqe& c, uint64_t now);
  void complete_request(Request& r, uint64_t now);
  void sample(uint64_t now, bool final_row);
  // host_admin.cpp: the admin queue, used once before replay.
  void setup_streams();
  void setup_coalescing();      // Set Features 08h (host.coalesce.*; host_admin.cpp)
  uint32_t coalesce_dw11_ = 0;  // its dword 11 (THR 7:0, TIME 15:8); 0: not sent
  uint16_t admin_exec(nvme_sqe e, uint32_t* dw0);
  void ensure_admin();
  HostQueue hq_;
  uint64_t lba_end_ = 0;  // hq_.lba_base + lbas_: LBAs the scoreboard checks
  std::function<void()> before_replay_;
  uint32_t streams_wanted_ = 0;
  StreamsGrant grant_;
  std::unique_ptr<NvmeQueuePair> admin_q_;  // made at its first use (ensure_admin)
  // Occupancy integrals (HostResults::in_system_ps): advance to now, then
  // count a request in (its latency clock may have started before now) or out.
  void occupancy_advance(uint64_t now);
  void occupancy_enter(Request& r, uint64_t now);
  void occupancy_leave(const Request& r, uint64_t now);
  static int occupancy_class(host::IoOp op);
  uint64_t occ_last_ps_ = 0;
  uint64_t occ_n_[3] = {0, 0, 0};

  Logger log_;
  HostMemory& mem_;
  NvmeCtrl& nvme_;
  Scoreboard& sb_;
  host::Workload* workload_ = nullptr;
  std::function<DeviceSample()> sampler_;
  std::function<void()> on_finish_;
  std::function<void(const RequestRecord&)> observer_;
  sc_core::sc_event start_ev_;

  uint32_t lba_size_, max_transfer_;
  uint64_t lbas_;
  RequestPacer pacer_;  // host.mode, host.queue_depth, host.time_limit, host.stall_timeout
  uint32_t qd_;         // pacer_.depth(): the I/O queue's depth
  bool lba_wrap_;
  uint64_t interval_ps_;
  uint64_t max_rows_ = 1000000;  // stats.max_rows
  uint64_t submit_ps_;
  double fua_fraction_ = 0, fua_acc_ = 0;  // host.fua_fraction: FUA on that share of write commands
  uint64_t msis_seen_ = 0;                 // the CQ vector's MSIs when the thread last waited (an MSI is latched)
  uint64_t thread_wakeups_ = 0;
  WakeTimer wake_{"wake"};  // wait_for_work's next arrival, sample or stop time
  // What wait_for_work waits on, built once (a list made per wait costs an
  // allocation): wake_, the CQ's vector (IV = qid), a live source's arrivals.
  sc_core::sc_event_or_list wait_list_;

  Doorbells bells_{pcie};  // the I/O and admin queues' doorbells
  NvmeQueuePair io_q_;
  std::vector<Slot> slots_;
  InflightIndex inflight_{0};  // free slots and single-LBA commands in flight (inflight.h)
  uint32_t busy_slots_ = 0;
  std::map<uint64_t, Request> live_;  // admitted and not yet complete, by id
  std::deque<uint64_t> waiting_;      // ids of those not yet wholly issued, in arrival order
  uint64_t next_id_ = 0;
  // Admission of each open fsync's first request, oldest first: a file system
  // commits its fsyncs in order (each ends with a barrier write), so the next
  // fsync end closes the oldest; a later fsync may begin before it ends.
  std::deque<uint64_t> fsync_begins_;
  uint64_t charged_commands_ = 0;
  bool finished_ = false;
  std::exception_ptr error_;
  void replay();
  // replay()'s parts (host_driver.cpp): reading/pacing, submission, waiting, completion handling.
  struct Arrivals {
    host::IoRequest next;  // the next request not yet admitted (while more)
    bool more = false;
  };
  bool replay_begin();
  void take_arrivals(Arrivals& a, uint64_t now);
  void issue_waiting(uint64_t now);
  void wait_for_work(const Arrivals& a, uint64_t now);
  bool handle_completions();
  RequestPrefetch prefetch_;
  LiveSource* live_src_ = nullptr;
  LiveFeed* live_feed_ = nullptr;          // the innermost of live_layers_
  host::Workload* live_layers_ = nullptr;  // the run's workload layers around live_feed_
  sc_core::sc_event refill_ev_, refilled_ev_;
  gcdetect::BlockStats block_;
  gcdetect::BlockStats* block_feed_ = &block_;  // where start/done are counted

  HostResults res_;
  uint64_t power_aborted_ = 0;  // commands failed by power loss (host_power.cpp)
  // time series state
  uint64_t next_sample_ps_ = 0, last_sample_ps_ = 0;
  uint64_t iv_read_bytes_ = 0, iv_write_bytes_ = 0, iv_reads_ = 0, iv_writes_ = 0;
  LatencyHistogram iv_read_lat_, iv_write_lat_;  // this interval's completions
  DeviceSample last_dev_{};
};

}  // namespace ssdvp
