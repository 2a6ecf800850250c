// host_ftl_block.h - the timed host-level FTL: a pblk-like block device on
// the host between the host driver and an open-channel drive
// (nvme.command_set: open_channel; docs/models/host_ftl.md).
//
//   HostDriver --NVM commands on its queue in host memory--> HostFtlBlock
//     (the firmware's FTL sources in a second struct ftl, HAL host_ftl_hal.h)
//   HostFtlBlock --Open-Channel vector commands, I/O queue 1--> the SoC
//
// The host driver is built with HostQueue::create false and its doorbell
// socket bound to host_regs: its I/O queue is served here, in the host,
// with no PCIe between (the host driver's admin queue doorbells are passed
// on to the drive). The FTL runs in this module's thread: it places writes
// (complete once in its page buffers, as the device FTL's are), starts
// reads, trims and flushes, and its flash operations become vector commands
// on its own I/O queue pair of the SoC's NVMe controller (host.ftl.queue_depth
// outstanding), so they take the drive's firmware, PCIe and flash time. Its
// CPU time (the firmware's cost estimates x host.ftl.cost_scale at
// host.ftl.clock_hz) passes in simulated time on the one host CPU thread
// that runs it, before the vector commands and completions it leads to.
// With host.ftl.write_buffer > 0, writes complete once copied into a
// pblk-like ring buffer in host memory (host_write_buffer.h) instead, which
// a writer hands to the FTL a stripe at a time; reads of buffered LBAs are
// served from it, and a flush completes once what was buffered before it is
// on flash, without holding the block layer meanwhile.
#pragma once

#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>

#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "common/config.h"
#include "ftl/host_ftl_hal.h"
#include "ftl/host_write_buffer.h"
#include "host/host_memory.h"
#include "host/nvme_queue_pair.h"

namespace ssdvp {

class HostFtlBlock : public sc_core::sc_module, public OcssdPort {
 public:
  tlm_utils::simple_target_socket<HostFtlBlock> host_regs;  // the host driver's doorbells
  tlm_utils::simple_initiator_socket<HostFtlBlock> drive;   // to the SSD's doorbells (its host_regs)

  // host.ftl.* (read by every run, so that the keys are known in either personality).
  struct Keys {
    double clock_hz = 3e9, cost_scale = 1.0;
    uint32_t queue_depth = 64;
    bool vector_copy = false;   // host.ftl.gc_copy: vector_copy
    uint32_t copy_batch = 1;    // host.ftl.copy_batch
    uint64_t write_buffer = 0;  // host.ftl.write_buffer, bytes (0: no buffer)
    static Keys read(Config& cfg);
    // The write buffer's size against the drive's geometry (LBAs per page,
    // dies, bytes per LBA): "" or a message naming the key.
    std::string check_write_buffer(uint32_t lbas_per_page, uint32_t dies, uint32_t lba_bytes) const;
  };
  // tunables: the run's firmware configuration (ftl.* keys: placement, GC,
  // buffers, ...), whose geometry is replaced by the drive's Geometry.
  HostFtlBlock(sc_core::sc_module_name name, const Keys& keys, HostMemory& mem, const ftl_config& tunables);
  ~HostFtlBlock() override;

  // The host driver's I/O queue (its ring addresses and depth) served here.
  void attach_host(uint16_t qid, uint64_t sq_addr, uint64_t cq_addr, uint32_t depth);
  // In a SystemC thread, before anything else: creates I/O queue pair 1 on
  // the drive (create_io_queue), reads the Geometry and the chunk log over
  // the admin queue (admin: the host driver's) and initialises the FTL.
  // Returns an empty string, or what failed.
  using Admin = std::function<uint16_t(const nvme_sqe&)>;
  std::string init(const Admin& admin, const std::function<bool(uint64_t, uint64_t, uint32_t)>& create_queue);

  // Blocking access in a SystemC thread (preconditioning), in simulated time.
  int write(uint64_t lba, uint32_t n, const uint32_t* tokens, uint32_t stream);
  int trim(uint64_t lba, uint64_t n);
  int set_gc_threshold(uint32_t blocks);
  const ftl_stats& stats() const;
  const ftl_config& config() const { return cfg_; }

  // The timed part starts: figures are counted from here, and the block
  // layer serves the host driver's queue.
  void start();
  // The summary's "host_ftl" section: figures of the timed part.
  nlohmann::json summary(double span_s) const;
  std::string error() const { return error_; }
  // The drive's PCIe link bytes (host to drive, drive to host) so far, for the summary.
  void set_link_bytes(std::function<std::pair<uint64_t, uint64_t>()> fn) { link_bytes_ = std::move(fn); }

  // OcssdPort (queued)
  bool queued() const override { return true; }
  void submit(HostFtlHal& hal, uint32_t id, uint8_t opcode, const uint64_t* addrs, uint32_t n, const uint32_t* data,
              const uint32_t* meta) override;
  bool wait_any() override;
  uint64_t now_ns() override { return sc_core::sc_time_stamp().value() / 1000; }
  uint16_t vector(uint8_t, const uint64_t*, uint32_t, uint32_t*, uint32_t*) override { return NVME_SC_INTERNAL; }
  uint16_t geometry(ocssd_geometry* out) override;
  uint16_t chunk_log(uint64_t off, uint32_t bytes, void* out) override;

 private:
  SC_HAS_PROCESS(HostFtlBlock);
  void b_transport(tlm::tlm_generic_payload& tx, sc_core::sc_time& delay);
  void serve();     // the block layer's thread
  void reap();      // SC_METHOD on MSIs: the drive's completions
  void sync_cpu();  // lets the host CPU time charged so far pass
  void send(uint32_t slot);
  bool fetch();  // takes the host driver's next command; false when none or no room
  // fetch's decode of one command: taken later (no room or slot now), taken
  // and pending (completes later), or taken and done with a status.
  struct Taken {
    bool later = false;
    bool pending = false;
    uint16_t status = NVME_SC_SUCCESS;
  };
  Taken take_rw(const nvme_sqe& e, uint16_t cid, bool write);
  uint16_t take_dsm(const nvme_sqe& e);
  Taken take_flush(uint16_t cid);
  void sweep();  // host commands the FTL finished, into finished_
  void finish(uint16_t cid, uint16_t status);
  // The write buffer's writer: hands the oldest buffered write to the FTL
  // when a stripe is buffered (or `all`), one FTL write at a time (so the
  // FTL places them in order). drain_all() returns once every buffered
  // write is placed (a flush, a trim of buffered LBAs), in simulated time.
  void drain(bool all);
  void drain_all();
  // Flushes behind the write buffer, in order: each waits until the writes
  // buffered before it are placed, then pads the FTL's open pages
  // (ftl_func_flush_submit) and completes once every flash operation sent
  // by then has. The block layer goes on meanwhile. True if one moved on.
  bool flush_progress();
  bool drain_placed();  // the FTL write of the drain is placed (its entry released); false while waiting

  struct Vec {  // a vector command in flight at the drive
    uint32_t id = 0;
    uint8_t opcode = 0;
    uint32_t n = 0;
    bool busy = false;
    uint64_t buf = 0;  // host memory: data, metadata, address list
  };
  struct Pending {
    uint32_t id;
    uint8_t opcode;
    uint32_t n;
    std::vector<uint64_t> addrs;
    std::vector<uint32_t> data, meta;
  };
  struct Inflight {  // a host command the FTL is serving
    uint32_t slot;   // its FTL command slot
    uint16_t cid;
    bool read;
    uint64_t buf;                                         // the host driver's token buffer
    std::vector<std::pair<uint32_t, uint32_t>> buffered;  // a read: (offset, token) the write buffer held at its start
  };

  HostMemory& mem_;
  ftl_config cfg_;
  double clock_hz_, cost_scale_;
  uint32_t qd_;
  bool vector_copy_;
  uint32_t copy_batch_;
  std::function<std::pair<uint64_t, uint64_t>()> link_bytes_;
  std::pair<uint64_t, uint64_t> link_at_start_{};
  uint64_t gc_ns_at_start_ = 0;  // ftl_gc_active_ns at start()
  // the drive side
  std::unique_ptr<HostFtlHal> hal_;
  HostFtlHal* hal_ptr_ = nullptr;
  std::unique_ptr<uint8_t[]> ftl_mem_;
  ftl* f_ = nullptr;
  Doorbells bells_{drive};
  NvmeQueuePair q_;  // I/O queue pair 1 of the drive
  uint64_t admin_buf_ = 0;
  std::vector<Vec> vec_;
  std::deque<Pending> pending_;
  uint32_t vec_busy_ = 0;
  sc_core::sc_event done_;
  Admin admin_;
  // the host side
  uint16_t hqid_ = 1;
  uint64_t hsq_ = 0, hcq_ = 0;
  uint32_t hdepth_ = 0, hsq_head_ = 0, hsq_tail_ = 0, hcq_tail_ = 0;
  bool hphase_ = true;
  std::vector<Inflight> inflight_;
  sc_core::sc_event work_, start_ev_;
  bool started_ = false;
  std::vector<std::pair<uint16_t, uint16_t>> finished_;  // (cid, status) to complete
  double synced_ns_ = 0;
  std::string error_;
  // figures at the start of the timed part
  ftl_stats at_start_{};
  double busy_at_start_ = 0;
  uint64_t vec_at_start_[7] = {};  // writes, reads, resets, failed, copies, copy_pages, resets_held
  uint64_t host_cmds_ = 0, max_vec_busy_ = 0;
  // the write buffer (host.ftl.write_buffer)
  uint64_t wb_bytes_ = 0;
  HostWriteBuffer wb_;
  uint64_t wb_unit_ = 0;              // LBAs the writer drains at a time: one page on every die
  uint32_t drain_slot_ = UINT32_MAX;  // the FTL command of the entry being placed
  bool wb_want_room_ = false;         // a write waits for room
  struct FlushWait {
    uint16_t cid;
    uint64_t upto;            // the buffer's writes numbered below this came before it
    bool padded = false;      // ftl_func_flush_submit done
    uint32_t vec_marker = 0;  // then: the flash operations numbered below this must complete
  };
  std::deque<FlushWait> flushes_;
  struct WbCounts {
    uint64_t writes = 0, room_waits = 0, read_hits = 0, read_partial = 0, read_hit_lbas = 0, flushes = 0,
             flush_waits = 0, flush_drained_lbas = 0, pad_lbas = 0, trim_drains = 0, drained_lbas = 0;
  } wbc_;
};

// One line for the printed summary ("" when the run had no host FTL).
std::string host_ftl_summary_line(const nlohmann::json& summary);

}  // namespace ssdvp
