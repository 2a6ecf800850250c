// host_ftl_hal.h - the host-level FTL's HAL: the firmware's own FTL sources
// (map.c, alloc.c, gc.c, place.c, ...) run on the host, pblk-like, over an
// Open-Channel 2.0 drive (nvme.command_set: open_channel, docs/models/ocssd.md).
//
// The HAL is the seam (firmware/hal/hal.h): a second struct ftl, initialised
// with the drive's geometry, sees this HAL instead of the SoC. Its DRAM is
// host memory; its flash controller's rings are the model's own ring engine
// (flash/flash_ring_engine.h: registers, descriptor checks, completion order
// and phase tags as FlashCtrl has them), and every
// flash operation it rings in becomes one Open-Channel vector command to the
// drive through an OcssdPort: a PROGRAM is a Vector Chunk Write of one
// ws_min unit (tokens as data, the OOB LPNs as per-sector metadata), a READ
// a Vector Chunk Read of the masked sectors (data and metadata back), an
// ERASE a Vector Chunk Reset, a COPY (the FTL's GC by copy, vcopy.c) a
// Vector Chunk Copy of one unit's sources to its row (no data to the host;
// the sources' LBAs come from the LBA list the HAL keeps, keep_lba_list). The bad-block table is the drive's offline
// chunks (chunk information log). Its CPU time goes to a host CPU with its
// own cost table (HostCpuCost), not to the controller. docs/models/host_ftl.md.
//
// A functional port executes each command to completion before the doorbell
// returns (as the firmware's ftl_func_* expect). A queued port (the timed
// platform's, host_ftl_block.h) sends it and returns; the HAL posts the
// flash completion when the port calls complete(), in simulated time.
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

extern "C" {
#include "ftl.h"
#include "hal.h"
#include "ocssd.h"
#include "ssdvp_hw.h"
}

#include "flash/flash_ring_engine.h"

namespace ssdvp {

class HostFtlHal;

// One Open-Channel command to the drive, executed to completion.
class OcssdPort {
 public:
  virtual ~OcssdPort() = default;
  // A queued port: submit() sends a command and returns at once, and the
  // port calls hal.complete(id, ...) when the drive completed it;
  // wait_any() blocks (a SystemC wait) until some command completed, false
  // when none is outstanding. A functional port runs vector() instead.
  virtual bool queued() const { return false; }
  virtual void submit(HostFtlHal& hal, uint32_t id, uint8_t opcode, const uint64_t* addrs, uint32_t n,
                      const uint32_t* data, const uint32_t* meta) {
    (void)hal, (void)id, (void)opcode, (void)addrs, (void)n, (void)data, (void)meta;
  }
  virtual bool wait_any() { return false; }
  virtual uint64_t now_ns() { return 0; }  // the FTL's clock (0: functional)
  // A vector command (OCSSD_OP_VECTOR_*) over n <= 64 sector addresses, with
  // one data token and one metadata word per sector (both may be null for a
  // reset): in for a write, out for a read. A Vector Chunk Copy has 2n
  // addresses (n sources, then n destinations) and no data or metadata.
  // Returns the completion status. (submit: the same arguments.)
  virtual uint16_t vector(uint8_t opcode, const uint64_t* addrs, uint32_t n, uint32_t* data, uint32_t* meta) = 0;
  // Admin: the Geometry, and `bytes` (<= 4096) of the chunk information log at byte offset off.
  virtual uint16_t geometry(ocssd_geometry* out) = 0;
  virtual uint16_t chunk_log(uint64_t off, uint32_t bytes, void* out) = 0;
  // Metadata words per sector the drive's namespace is formatted with
  // (nvme.ocssd.meta): 1, the LPN; 2, the LPN and the unit's sequence number
  // (metadata arrays above then hold 2n words, interleaved).
  uint32_t meta_words = 1;
};

// Get Log Page for `bytes` of the chunk information log at byte offset off
// (NUMD in CDW10 31:16 and CDW11 15:0, the offset in CDW12-13); the caller
// sets the command identifier and PRP1.
inline nvme_sqe chunk_log_command(uint64_t off, uint32_t bytes) {
  nvme_sqe q{};
  q.cdw0 = SSDVP_FIELD_PUT(NVME_CDW0_OPC, OCSSD_ADMIN_GET_LOG_PAGE);
  q.nsid = 1;
  const uint32_t numd = bytes / 4 - 1;
  q.cdw10 = OCSSD_LOG_CHUNK_INFO | (numd & 0xffffu) << 16;
  q.cdw11 = numd >> 16;
  q.cdw12 = uint32_t(off);
  q.cdw13 = uint32_t(off >> 32);
  return q;
}

// The host CPU the host FTL runs on: cycles per firmware operation at a clock.
// Defaults: the firmware's first estimates (fw_ops.def) at 3 GHz, an
// assumption (docs/models/host_ftl.md), not a measurement.
struct HostCpuCost {
  double clock_hz = 3e9;
  std::array<double, FW_OP_COUNT> cycles{};
  static HostCpuCost defaults();
};

class HostFtlHal {
 public:
  // geo: the drive's Geometry; dram_bytes: host memory for the FTL's tables.
  HostFtlHal(OcssdPort& port, const ocssd_geometry& geo, uint32_t dram_bytes,
             HostCpuCost cost = HostCpuCost::defaults());

  struct hal* hal() {
    return &hal_;
  }
  // The host FTL's configuration for this drive: ftl_config_default with the
  // geometry filled in (the caller sets logical_lbas and any tunable).
  ftl_config config() const;

  // Host CPU time the FTL was charged, and per operation.
  double busy_ns() const { return busy_ns_; }
  void charge_op(enum fw_op op, uint32_t count) { charge(this, op, count); }
  // A queued port's completion of command id (data and metadata of a read).
  void complete(uint32_t id, uint16_t status, const uint32_t* data, const uint32_t* meta);
  // While set, the FTL's read of the flash CQ tail waits (port.wait_any) for
  // a completion when commands are outstanding and none is new: the
  // blocking ftl_func_* calls then run in simulated time.
  void set_blocking(bool on) { blocking_ = on; }
  size_t outstanding() const { return queued_.size(); }
  // Flash operations are numbered as they go to the port: the next one's
  // number, and whether every one numbered below `id` has completed.
  uint32_t next_command_id() const { return next_id_; }
  bool completed_before(uint32_t id) const { return queued_.empty() || queued_.begin()->first >= id; }
  // Keeps the LBA (OOB metadata) of every sector the FTL programs or copies,
  // in host memory (4 bytes per sector of the drive), as pblk keeps each
  // line's LBA list: a copy's completion reports its sources' LBAs from it.
  // Needed for ftl_set_gc_copy; without it a COPY fails (FC_ERR_OPCODE).
  // Consecutive COPY operations of one doorbell sent as one Vector Chunk
  // Copy: at most this many (host.ftl.copy_batch; default 1).
  void set_copy_batch(uint32_t units) { copy_batch_ = units ? units : 1; }
  void keep_lba_list() { lbas_.assign(size_t(geo_.num_grp) * geo_.num_pu * geo_.num_chk * geo_.clba, SSDVP_LPN_NONE); }
  const std::array<uint64_t, FW_OP_COUNT>& op_counts() const { return op_count_; }
  // After a power cut (the host's memory and the drive's volatile state
  // lost): the FTL f, on a fresh HostFtlHal over the same drive, rebuilds its
  // tables with the firmware's own recovery (ftl_recover, power.c) through
  // this HAL: every written page of every chunk read back with its per-sector
  // LPNs and the unit's sequence number, newest wins; open chunks go back to
  // write points at their write pointers. Needs the drive formatted with
  // sequence numbers (port.meta_words 2, nvme.ocssd.meta lpn_seq), GC by
  // read and write back (no LBA list, host.ftl.gc_copy) and no checkpoints
  // (power.checkpoint.*: the HAL stores no checkpoint payload); otherwise -1 and
  // *why names the key. Its CPU time is charged to this HAL's host CPU.
  int recover(ftl* f, const ftl_config& cfg, std::string* why);
  // Host DRAM the recovery needs above the FTL's tables (power.c's scratch).
  static uint32_t recovery_dram(const ftl_config& cfg);
  // Open-Channel commands sent, and those that did not succeed.
  // Open-Channel commands sent (copies: Vector Chunk Copies, copy_pages: the
  // FTL's COPY operations, consecutive ones of a doorbell in one command).
  uint64_t writes = 0, reads = 0, resets = 0, copies = 0, copy_pages = 0, failed = 0;
  // Resets the HAL held back because an operation it had sent on the same
  // chunk was still outstanding (see flash_doorbell).
  uint64_t resets_held = 0;
  std::vector<std::string> log_lines;

 private:
  static uint32_t read32(void* ctx, uint32_t addr);
  static void write32(void* ctx, uint32_t addr, uint32_t value);
  static void* dram(void* ctx, uint32_t addr, uint32_t bytes);
  static void wait_irq(void* ctx);
  static void charge(void* ctx, enum fw_op op, uint32_t count);
  static uint64_t time_ns(void* ctx);
  static void log(void* ctx, int level, const char* msg);
  static void trace(void* ctx, enum hal_trace_event ev, uint32_t arg);
  void flash_doorbell();  // the descriptors up to SQ_TAIL, each to the port
  void fill_bad_block_table(uint32_t addr);
  uint16_t execute(const fc_sqe& e, uint16_t* flags);
  // One descriptor as a vector command: its opcode and addresses (0 sectors: a bad descriptor, *st its status).
  uint32_t prepare(const fc_sqe& e, uint8_t* opcode, uint64_t* addrs, uint16_t* st);
  // The drive's status (and a read's data) back into the descriptor's buffer: the flash controller's status.
  uint16_t finish(const fc_sqe& e, uint16_t st, const uint32_t* data, const uint32_t* meta, uint16_t* flags);
  void post(const fc_cqe& c);
  void send_copies(const std::vector<fc_sqe>& batch);
  // The chunks (the firmware's blocks) descriptor e reads, programs or
  // resets, copies' sources included.
  std::vector<uint32_t> chunks_of(const std::vector<fc_sqe>& sent);
  void track(const std::vector<fc_sqe>& sent);  // a command's chunks are busy until it completes
  void untrack(const std::vector<fc_sqe>& done);
  void send(const fc_sqe& e);  // one descriptor (not a copy) through the queued port
  void release_resets();       // sends the held resets whose chunk is no longer busy
  uint64_t address(uint32_t row, uint32_t sector) const;
  // A program's per-sector metadata from its page buffer: the LPNs, and with
  // two words a sector the page's sequence number after each (into out).
  const uint32_t* program_meta(const uint32_t* buf, uint32_t n, uint32_t* out) const;
  uint64_t sectors() const { return uint64_t(geo_.num_grp) * geo_.num_pu * geo_.num_chk * geo_.clba; }

  static const hal_ops ops_;
  struct hal hal_;
  OcssdPort& port_;
  ocssd_geometry geo_;
  HostCpuCost cost_;
  std::vector<uint8_t> dram_;
  std::map<uint32_t, uint32_t> regs_;
  HalDram dram_port_{&HostFtlHal::dram, this};  // the ring engine's view of the host memory
  FlashRingEngine rings_;                       // errors count in `failed`
  FlashGeometry flash_geo_;                     // the drive's Geometry as the flash controller's (descriptor checks)
  bool blocking_ = false;
  uint32_t next_id_ = 0;
  std::map<uint32_t, std::vector<fc_sqe>> queued_;  // sent through a queued port, by id (a copy: several)
  std::map<uint32_t, uint32_t> busy_;               // chunk -> queued commands touching it
  std::vector<fc_sqe> held_resets_;                 // resets waiting for their chunk (arrival order)
  std::vector<uint32_t> lbas_;
  uint32_t copy_batch_ = 1;  // keep_lba_list: each sector's LBA, by firmware slot address
  double busy_ns_ = 0;
  std::array<uint64_t, FW_OP_COUNT> op_count_{};
};

}  // namespace ssdvp
