// ftl_device.h - a small FTL on the fake HAL with a host scoreboard, for
// firmware unit tests.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <vector>

#include "fake_hal.h"

extern "C" {
#include "ftl_internal.h"
}

namespace ftltest {

inline uint32_t token_of(uint64_t lba, uint32_t version) {
  uint64_t x = lba * 0x9E3779B97F4A7C15ull ^ (uint64_t(version) << 32 | version);
  x ^= x >> 31;
  x *= 0xBF58476D1CE4E5B9ull;
  x ^= x >> 29;
  uint32_t t = uint32_t(x);
  return t == SSDVP_TOKEN_DEALLOCATED || t == SSDVP_TOKEN_ERASED ? 1 : t;
}

struct Device {
  ftl_config cfg{};
  std::unique_ptr<FakeHal> hal;
  std::unique_ptr<uint8_t[]> mem;
  ftl* f = nullptr;
  std::vector<uint32_t> version;  // host scoreboard: 0 = never written / trimmed

  // extra_dram: DRAM above the firmware's tables (recovery's scratch needs 4 bytes a page).
  explicit Device(void (*tune)(ftl_config&) = nullptr, uint32_t extra_dram = 4096) {
    fake_small_drive_config(cfg, 64, 6000);
    if (tune) tune(cfg);
    cfg.dram_size = uint32_t(ftl_dram_bytes(&cfg) + extra_dram);
    const uint32_t blocks = cfg.channels * cfg.dies_per_channel * cfg.blocks_per_die;
    hal = std::make_unique<FakeHal>(cfg.dram_size, blocks, cfg.pages_per_block, cfg.slots_per_page);
    if (cfg.planes_per_die > 1) hal->set_geometry(cfg);  // multi-plane groups checked as the model does
    mem.reset(new uint8_t[ftl_size()]);
    f = reinterpret_cast<ftl*>(mem.get());
    version.assign(cfg.logical_lbas, 0);
  }
  // The firmware programs and drives the flash rings within the controller's
  // rules (flash/flash_ring_engine.h) in every test that uses this device.
  ~Device() { EXPECT_EQ(hal->ring_errors, 0u) << (hal->log_lines.empty() ? "" : hal->log_lines.back()); }
  Device(const Device&) = delete;
  Device& operator=(const Device&) = delete;
  int init() { return ftl_init(f, hal->hal(), &cfg); }

  void write(uint64_t lba, uint32_t n, uint32_t stream = 0) {
    std::vector<uint32_t> t(n);
    for (uint32_t i = 0; i < n; ++i) t[i] = token_of(lba + i, ++version[lba + i]);
    ASSERT_EQ(ftl_func_write_stream(f, lba, n, t.data(), stream), 0)
        << (hal->log_lines.empty() ? "" : hal->log_lines.back());
  }
  // Number of LBAs in [lba, lba+n) whose read does not match the scoreboard.
  uint64_t mismatches(uint64_t lba, uint64_t n) {
    uint64_t bad = 0;
    std::vector<uint32_t> t(64);
    for (uint64_t at = lba; at < lba + n; at += 64) {
      const uint32_t k = uint32_t(std::min<uint64_t>(64, lba + n - at));
      EXPECT_EQ(ftl_func_read(f, at, k, t.data()), 0);
      for (uint32_t i = 0; i < k; ++i) {
        const uint32_t v = version[at + i];
        const uint32_t want = v ? token_of(at + i, v) : SSDVP_TOKEN_DEALLOCATED;
        bad += t[i] != want;
      }
    }
    return bad;
  }
};

}  // namespace ftltest
