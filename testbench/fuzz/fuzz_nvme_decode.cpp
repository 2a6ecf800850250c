// fuzz_nvme_decode.cpp - libFuzzer harness: the firmware's NVMe command
// decoder (firmware/ftl/hostif.c, and the admin units below it:
// directives.c, gcgate.c), on the fake HAL of the firmware tests.
//
// Input: records of 65 bytes, each a control byte and a 64-byte submission
// queue entry, as the NVMe controller would fetch them; what is left after
// the last record fills the start of host memory (data, DSM range lists).
// Control byte: bit 0 the admin queue (SQ 0) instead of I/O queue 1; bit 1
// run the firmware until idle before this command (otherwise up to four
// commands wait in the ring together). The harness gives each command its own
// CID.
//
// Properties: every command completes exactly once (an Asynchronous Event
// Request may stay held, as the spec allows), the firmware never reaches a
// fatal error, never breaks a NAND rule and goes idle.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <vector>

#include "fake_hal.h"

extern "C" {
#include "ftl_internal.h"
}

namespace {

constexpr size_t kRecord = 1 + sizeof(nvme_sqe);
constexpr uint32_t kHostWords = 16 * 1024;  // 64 KiB of host memory
constexpr int kMaxPolls = 200000;

void check(bool ok, const char* what, uint32_t arg = 0) {
  if (!ok) {
    std::fprintf(stderr, "fuzz_nvme_decode: property broken: %s (%u)\n", what, arg);
    std::abort();
  }
}

struct Drive {
  ftl_config cfg{};
  std::unique_ptr<FakeHal> hal;
  std::unique_ptr<uint8_t[]> mem;
  ftl* f = nullptr;

  Drive() {
    // The firmware tests' small drive (fake_hal.h), with fewer blocks and
    // LBAs, so that they run out under a short input.
    fake_small_drive_config(cfg, 32, 3000);
    cfg.dram_size = uint32_t(ftl_dram_bytes(&cfg) + 4096);
    const uint32_t blocks = cfg.channels * cfg.dies_per_channel * cfg.blocks_per_die;
    hal = std::make_unique<FakeHal>(cfg.dram_size, blocks, cfg.pages_per_block, cfg.slots_per_page);
    mem.reset(new uint8_t[ftl_size()]);
    f = reinterpret_cast<ftl*>(mem.get());
    check(ftl_init(f, hal->hal(), &cfg) == 0, "ftl_init failed");
    hal->host_words.assign(kHostWords, 0);
  }
  void run_until_idle() {
    int i = 0;
    while (i < kMaxPolls && (ftl_poll(f) || ftl_busy(f))) ++i;
    check(i < kMaxPolls, "the firmware does not go idle");
  }
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  Drive d;
  const size_t records = size / kRecord;
  const size_t rest = size - records * kRecord;
  std::memcpy(d.hal->host_words.data(), data + records * kRecord, std::min<size_t>(rest, kHostWords * 4));
  std::vector<bool> may_hold;  // by CID: an AER, which may stay outstanding
  uint32_t queued = 0;
  for (size_t r = 0; r < records && r < 512; ++r) {
    const uint8_t ctl = data[r * kRecord];
    nvme_sqe q;
    std::memcpy(&q, data + r * kRecord + 1, sizeof q);
    const uint16_t cid = uint16_t(may_hold.size());
    q.cdw0 = (q.cdw0 & 0xffff) | SSDVP_FIELD_PUT(NVME_CDW0_CID, cid);
    const bool admin = ctl & 1;
    may_hold.push_back(admin && SSDVP_FIELD_GET(NVME_CDW0_OPC, q.cdw0) == NVME_ADMIN_ASYNC_EVENT_REQUEST);
    if ((ctl & 2) || queued == 4) {
      d.run_until_idle();
      queued = 0;
    }
    d.hal->nvme_submit(q, admin ? 0 : 1);
    ++queued;
  }
  d.run_until_idle();
  std::vector<uint32_t> seen(may_hold.size(), 0);
  for (const auto& c : d.hal->completions) {
    check(c.cid < seen.size(), "a completion for a command never sent", c.cid);
    check(++seen[c.cid] == 1, "a command completed twice", c.cid);
  }
  for (size_t cid = 0; cid < seen.size(); ++cid)
    check(seen[cid] == 1 || may_hold[cid], "a command never completed", uint32_t(cid));
  check(!d.f->fatal, "the firmware reached a fatal error");
  check(d.hal->violations == 0, "a NAND rule was broken");
  return 0;
}
