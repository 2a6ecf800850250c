// host_ftl_hal.h - the host-level FTL's HAL: the firmware's own FTL sources
// (map.c, alloc.c, gc.c, place.c, ...) run on the host, pblk-like, over an
// Open-Channel 2.0 drive (nvme.command_set: open_channel, docs/models/ocssd.md).
//
// The HAL is the seam (firmware/hal/hal.h): a second struct ftl, initialised
// with the drive's geometry, sees this HAL instead of the SoC. Its DRAM is
// host memory; its flash controller registers are emulated here, and every
// flash operation it rings in becomes one Open-Channel vector command to the
// drive through an OcssdPort: a PROGRAM is a Vector Chunk Write of one
// ws_min unit (tokens as data, the OOB LPNs as per-sector metadata), a READ
// a Vector Chunk Read of the masked sectors (data and metadata back), an
// ERASE a Vector Chunk Reset. The bad-block table is the drive's offline
// chunks (chunk information log). Its CPU time goes to a host CPU with its
// own cost table (HostCpuCost), not to the controller. docs/models/host_ftl.md.
//
// The port executes each command to completion before the doorbell returns
// (functional, as the firmware's ftl_func_* expect): the host FTL is driven
// through ftl_func_write/read/trim, its block-layer entry points.
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

namespace ssdvp {

// One Open-Channel command to the drive, executed to completion.
class OcssdPort {
 public:
  virtual ~OcssdPort() = default;
  // A vector command (OCSSD_OP_VECTOR_*) over n <= 64 sector addresses, with
  // one data token and one metadata word per sector (both may be null for a
  // reset): in for a write, out for a read. Returns the completion status.
  virtual uint16_t vector(uint8_t opcode, const uint64_t* addrs, uint32_t n, uint32_t* data, uint32_t* meta) = 0;
  // Admin: the Geometry, and `bytes` (<= 4096) of the chunk information log at byte offset off.
  virtual uint16_t geometry(ocssd_geometry* out) = 0;
  virtual uint16_t chunk_log(uint64_t off, uint32_t bytes, void* out) = 0;
};

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
  const std::array<uint64_t, FW_OP_COUNT>& op_counts() const { return op_count_; }
  // Open-Channel commands sent, and those that did not succeed.
  uint64_t writes = 0, reads = 0, resets = 0, failed = 0;
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
  void flash_doorbell(uint32_t tail);
  void fill_bad_block_table(uint32_t addr);
  uint16_t execute(const fc_sqe& e, uint16_t* flags);
  uint64_t address(uint32_t row, uint32_t sector) const;

  static const hal_ops ops_;
  struct hal hal_;
  OcssdPort& port_;
  ocssd_geometry geo_;
  HostCpuCost cost_;
  std::vector<uint8_t> dram_;
  std::map<uint32_t, uint32_t> regs_;
  uint32_t sq_head_ = 0, cq_tail_ = 0;
  double busy_ns_ = 0;
  std::array<uint64_t, FW_OP_COUNT> op_count_{};
};

}  // namespace ssdvp
