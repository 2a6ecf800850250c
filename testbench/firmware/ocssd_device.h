// ocssd_device.h - a drive in the open-channel personality on the fake HAL,
// with a host that sends it Open-Channel commands through the functional
// NVMe rings (ocssd_test.cpp, host_ftl_test.cpp).
#pragma once

#include <gtest/gtest.h>

#include <cstring>
#include <vector>

#include "ftl_device.h"
#include "ocssd_port.h"

extern "C" {
#include "ocssd.h"
}

namespace octest {

using ftltest::Device;
using ftltest::token_of;

constexpr uint32_t kData = 0x1000;    // host byte address of the data (tokens)
constexpr uint32_t kList = 0x10000;   // of a sector list
constexpr uint32_t kAdmin = 0x20000;  // of admin data

inline void open_channel(ftl_config& c) { c.command_set = FTL_CMDSET_OPEN_CHANNEL; }
// 60 chunks per PU: a 6-bit chunk field can name chunks 60..63, which do not exist.
inline void open_channel_60(ftl_config& c) {
  open_channel(c);
  c.blocks_per_die = 60;
}
inline void open_channel_timed(ftl_config& c) {
  open_channel(c);
  c.oc_read_ns = 20000;
  c.oc_program_ns = 200000;
  c.oc_erase_ns = 2000000;
}

// The firmware tests' small drive (6000 LBAs, its GC thresholds and
// buffers) as a host FTL's tunables, over a drive of `chunks` chunks per PU.
inline void small_host_ftl_tunables(ftl_config& cfg, uint32_t chunks) {
  ftl_config small{};
  fake_small_drive_config(small, chunks, 6000);
  cfg.logical_lbas = small.logical_lbas;
  cfg.gc_threshold_blocks = small.gc_threshold_blocks;
  cfg.gc_reserve_blocks = small.gc_reserve_blocks;
  cfg.cmd_slots = small.cmd_slots;
  cfg.write_buffer_pages = small.write_buffer_pages;
  cfg.read_buffer_pages = small.read_buffer_pages;
  cfg.gc_buffer_pages = small.gc_buffer_pages;
  cfg.max_transfer_lbas = small.max_transfer_lbas;
}

struct Oc {
  Device d;
  uint16_t next_cid = 1;
  ocssd_geometry geo{};

  // extra_dram: the drive's DRAM above its tables (its recovery's scratch: 4 bytes a page).
  explicit Oc(void (*tune)(ftl_config&) = open_channel, uint32_t extra_dram = 4096) : d(tune, extra_dram) {
    EXPECT_EQ(d.init(), 0);
    d.hal->host_words.assign(128 * 1024, 0);
    nvme_sqe q = cmd(OCSSD_ADMIN_GEOMETRY);
    q.prp1 = kAdmin;
    EXPECT_EQ(run(q, 0), NVME_SC_SUCCESS);
    std::memcpy(&geo, words(kAdmin), sizeof geo);
  }
  uint32_t* words(uint32_t byte_addr) { return d.hal->host_words.data() + byte_addr / 4; }
  static nvme_sqe cmd(uint8_t opc) {
    nvme_sqe q{};
    q.cdw0 = SSDVP_FIELD_PUT(NVME_CDW0_OPC, opc);
    q.nsid = 1;
    return q;
  }
  // Submits without running the firmware; returns the command identifier.
  uint16_t submit(nvme_sqe q, uint16_t sqid = 1) {
    const uint16_t cid = next_cid++;
    q.cdw0 |= SSDVP_FIELD_PUT(NVME_CDW0_CID, cid);
    d.hal->nvme_submit(q, sqid);
    return cid;
  }
  void settle() {
    for (int i = 0; i < 100000 && (ftl_poll(d.f) || ftl_busy(d.f)); ++i) {
    }
  }
  int status_of(uint16_t cid) {
    int status = -1, n = 0;
    for (const auto& c : d.hal->completions)
      if (c.cid == cid) status = c.status, ++n;
    EXPECT_LE(n, 1) << "command " << cid << " completed twice";
    return status;
  }
  int run(nvme_sqe q, uint16_t sqid = 1) {
    d.hal->completions.clear();  // (identifiers wrap after 65535 commands)
    const uint16_t cid = submit(q, sqid);
    settle();
    return status_of(cid);
  }
  // A vector command over addrs (the list goes to host memory when there are several).
  nvme_sqe vector(uint8_t opc, const std::vector<uint64_t>& addrs) {
    nvme_sqe q = cmd(opc);
    q.prp1 = kData;
    uint64_t lbal = addrs.at(0);
    if (addrs.size() > 1) {
      std::memcpy(words(kList), addrs.data(), addrs.size() * 8);
      lbal = kList;
    }
    q.cdw10 = uint32_t(lbal);
    q.cdw11 = uint32_t(lbal >> 32);
    q.cdw12 = uint32_t(addrs.size() - 1);
    return q;
  }
  int write(const std::vector<uint64_t>& addrs, uint32_t version = 1) {
    for (size_t i = 0; i < addrs.size(); ++i) words(kData)[i] = token_of(addrs[i], version);
    return run(vector(OCSSD_OP_VECTOR_WRITE, addrs));
  }
  int read(const std::vector<uint64_t>& addrs, std::vector<uint32_t>* out = nullptr) {
    std::memset(words(kData), 0, addrs.size() * 4);
    const int st = run(vector(OCSSD_OP_VECTOR_READ, addrs));
    if (out) out->assign(words(kData), words(kData) + addrs.size());
    return st;
  }
  int reset(const std::vector<uint64_t>& addrs) { return run(vector(OCSSD_OP_VECTOR_RESET, addrs)); }
  uint64_t addr(uint32_t grp, uint32_t pu, uint32_t chk, uint32_t sec) const {
    return ocssd_addr(&geo.lbaf, grp, pu, chk, sec);
  }
  std::vector<uint64_t> sectors(uint32_t grp, uint32_t pu, uint32_t chk, uint32_t sec, uint32_t n) const {
    std::vector<uint64_t> v;
    for (uint32_t i = 0; i < n; ++i) v.push_back(addr(grp, pu, chk, sec + i));
    return v;
  }
  // The chunk information log entry of one chunk (-1 status on failure).
  int chunk(uint32_t grp, uint32_t pu, uint32_t chk, ocssd_chunk_desc* out) {
    const uint64_t index = (uint64_t(grp) * geo.num_pu + pu) * geo.num_chk + chk;
    return chunk_log(index * sizeof(ocssd_chunk_desc), sizeof(ocssd_chunk_desc), out);
  }
  int chunk_log(uint64_t offset, uint32_t bytes, void* out) {
    FakeDrivePort port(*d.hal, d.f);  // (its admin buffer is free between commands)
    return port.chunk_log(offset, bytes, out);
  }
};

}  // namespace octest
