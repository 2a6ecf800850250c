// ocssd_port.h - an OcssdPort (platform/host/ftl/host_ftl_hal.h) onto a drive
// in the open-channel personality on the fake HAL: each command goes through
// the drive firmware's NVMe rings and runs to completion (functional).
#pragma once

#include <cstring>
#include <vector>

#include "fake_hal.h"
#include "ftl/host_ftl_hal.h"

namespace octest {

class FakeDrivePort : public ssdvp::OcssdPort {
 public:
  // hal and f: the drive (ftl_init done with command_set open_channel).
  FakeDrivePort(FakeHal& hal, ftl* f) : hal_(hal), f_(f) {
    if (hal_.host_words.size() < kWords) hal_.host_words.assign(kWords, 0);
  }
  uint16_t vector(uint8_t opc, const uint64_t* addrs, uint32_t n, uint32_t* data, uint32_t* meta) override {
    if (die_after == 0) return NVME_SC_INTERNAL;  // no power: nothing reaches the drive
    if (die_after > 0 && --die_after == 0 && tear_at_cut &&
        (opc == OCSSD_OP_VECTOR_WRITE || opc == OCSSD_OP_VECTOR_RESET)) {
      die_after = -1;  // the command in flight at the cut: it runs, then its pages or chunks are torn
      const uint16_t st = vector(opc, addrs, n, data, meta);
      die_after = 0;
      if (st == NVME_SC_SUCCESS) tear(opc, addrs, n);
      ++torn;
      return NVME_SC_INTERNAL;  // never completed
    }
    nvme_sqe q = command(opc);
    q.prp1 = kData;
    uint64_t lbal = addrs[0];
    if (n > 1) {
      std::memcpy(words(kList), addrs, size_t(n) * 8);
      lbal = kList;
    }
    q.cdw10 = uint32_t(lbal);
    q.cdw11 = uint32_t(lbal >> 32);
    q.cdw12 = n - 1;
    if (opc == OCSSD_OP_VECTOR_COPY) {  // the destinations follow the sources
      uint64_t dst = addrs[n];
      if (n > 1) {
        std::memcpy(words(kDst), addrs + n, size_t(n) * 8);
        dst = kDst;
      }
      q.cdw14 = uint32_t(dst);
      q.cdw15 = uint32_t(dst >> 32);
    }
    if (opc == OCSSD_OP_VECTOR_WRITE) {
      std::memcpy(words(kData), data, size_t(n) * 4);
      std::memcpy(words(kMeta), meta, size_t(n) * 4 * meta_words);
    }
    if (meta) q.mptr = kMeta;
    const uint16_t st = run(q, 1);
    if (opc == OCSSD_OP_VECTOR_WRITE) data_sectors[0] += n;
    if (opc == OCSSD_OP_VECTOR_READ) data_sectors[1] += n;
    if (opc == OCSSD_OP_VECTOR_READ && st == NVME_SC_SUCCESS) {
      std::memcpy(data, words(kData), size_t(n) * 4);
      std::memcpy(meta, words(kMeta), size_t(n) * 4 * meta_words);
    }
    ++commands;
    return st;
  }
  uint16_t geometry(ocssd_geometry* out) override {
    nvme_sqe q = command(OCSSD_ADMIN_GEOMETRY);
    q.prp1 = kAdmin;
    const uint16_t st = run(q, 0);
    if (st == NVME_SC_SUCCESS) std::memcpy(out, words(kAdmin), sizeof *out);
    return st;
  }
  uint16_t chunk_log(uint64_t off, uint32_t bytes, void* out) override {
    nvme_sqe q = ssdvp::chunk_log_command(off, bytes);
    q.prp1 = kAdmin;
    const uint16_t st = run(q, 0);
    if (st == NVME_SC_SUCCESS && out) std::memcpy(out, words(kAdmin), bytes);
    return st;
  }
  uint64_t commands = 0;
  // A power cut in the middle of the host's work: after this many more
  // vector commands the drive executes none (each fails with Internal Error,
  // the flash untouched) until it is set to -1 again (-1: never).
  int64_t die_after = -1;
  bool dead() const { return die_after == 0; }
  // The command in flight at the cut (the last of die_after), if a write or a reset, is torn: its units
  // read Unrecovered Read Error below the write pointer, its chunks every page (until reset again).
  bool tear_at_cut = false;
  uint64_t torn = 0;              // commands torn so
  uint64_t data_sectors[2] = {};  // sectors of data (with their metadata) sent to the drive [0], to the host [1]

 private:
  static constexpr uint32_t kData = 0x1000, kMeta = 0x2000, kList = 0x3000, kDst = 0x3800, kAdmin = 0x4000,
                            kWords = 0x2000;
  uint32_t* words(uint32_t byte_addr) { return hal_.host_words.data() + byte_addr / 4; }
  // The drive's block and page of each unit (or chunk) of a command, torn on the NAND.
  void tear(uint8_t opc, const uint64_t* addrs, uint32_t n) {
    if (!geo_.ws_min && geometry(&geo_) != NVME_SC_SUCCESS) return;
    const ocssd_lbaf& l = geo_.lbaf;
    for (uint32_t i = 0; i < n; i += opc == OCSSD_OP_VECTOR_RESET ? 1 : geo_.ws_min) {
      const uint64_t a = addrs[i];
      const uint32_t block = (ocssd_pu(&l, a) * geo_.num_grp + ocssd_grp(&l, a)) * geo_.num_chk + ocssd_chk(&l, a);
      if (opc == OCSSD_OP_VECTOR_RESET)
        hal_.tear_block(block);
      else
        hal_.tear_page(block * (geo_.clba / geo_.ws_min) + ocssd_sec(&l, a) / geo_.ws_min);
    }
  }
  ocssd_geometry geo_{};
  static nvme_sqe command(uint8_t opc) {
    nvme_sqe q{};
    q.cdw0 = SSDVP_FIELD_PUT(NVME_CDW0_OPC, opc);
    q.nsid = 1;
    return q;
  }
  uint16_t run(nvme_sqe q, uint16_t sqid) {
    hal_.completions.clear();
    q.cdw0 |= SSDVP_FIELD_PUT(NVME_CDW0_CID, 1);
    hal_.nvme_submit(q, sqid);
    while (ftl_poll(f_) || ftl_busy(f_)) {
    }
    return hal_.completions.size() == 1 ? hal_.completions[0].status : uint16_t(NVME_SC_INTERNAL);
  }
  FakeHal& hal_;
  ftl* f_;
};

}  // namespace octest
