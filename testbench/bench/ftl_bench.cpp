// ftl_bench.cpp - the firmware's functional write path against the fake HAL.
//
//   BM_FtlFuncWrite_RandomGC/small  items = single-LBA uniform random writes
//                                   (ftl_func_write) on a 1 GiB device
//                                   (8 dies x 512 blocks x 64 pages x 4 KiB,
//                                   12.5 % spare) after fill + 1 drive-write:
//                                   GC in steady state, L2P (0.9 MiB) in cache
//   BM_FtlFuncWrite_RandomGC/large  the same on configs/bench32g.yaml's geometry
//                                   (32 GiB physical, 28 GiB logical: L2P 28 MiB,
//                                   out of cache) after fill + 0.5 drive-write
//                                   (GC active); setup takes a while
// Counter waf: (host + GC relocated LBAs) / host LBAs during the measurement.
// The fake HAL's flash is functional (no timing) and its registers are a
// std::map, so this is an upper bound on the firmware's own cost per write.
#include <benchmark/benchmark.h>

#include <cstdint>
#include <map>
#include <memory>
#include <random>
#include <vector>

#include "fake_hal.h"

namespace {

struct FtlDev {
  ftl_config cfg{};
  std::unique_ptr<FakeHal> hal;
  std::unique_ptr<uint8_t[]> mem;
  ftl* f = nullptr;
  std::mt19937_64 rng{42};
  uint32_t token = 1;
  bool ok = false;

  FtlDev(bool large) {
    ftl_config_default(&cfg);
    cfg.slots_per_page = 1;
    if (large) {
      cfg.channels = 8, cfg.dies_per_channel = 4, cfg.blocks_per_die = 1024, cfg.pages_per_block = 256;
      cfg.logical_lbas = (28ull << 30) / 4096;
      cfg.gc_threshold_blocks = 64, cfg.gc_reserve_blocks = 16;
      cfg.write_buffer_pages = 256, cfg.read_buffer_pages = 64, cfg.gc_buffer_pages = 64;
    } else {
      cfg.channels = 4, cfg.dies_per_channel = 2, cfg.blocks_per_die = 512, cfg.pages_per_block = 64;
      cfg.logical_lbas =
          uint64_t(cfg.channels) * cfg.dies_per_channel * cfg.blocks_per_die * cfg.pages_per_block / 8 * 7;
      cfg.gc_threshold_blocks = 16, cfg.gc_reserve_blocks = 4;
      cfg.write_buffer_pages = 64, cfg.read_buffer_pages = 32, cfg.gc_buffer_pages = 32;
    }
    cfg.dram_size = uint32_t(ftl_dram_bytes(&cfg) + 4096);
    const uint32_t blocks = cfg.channels * cfg.dies_per_channel * cfg.blocks_per_die;
    hal = std::make_unique<FakeHal>(cfg.dram_size, blocks, cfg.pages_per_block, cfg.slots_per_page);
    mem.reset(new uint8_t[ftl_size()]);
    f = reinterpret_cast<ftl*>(mem.get());
    if (ftl_init(f, hal->hal(), &cfg) != 0) return;
    std::vector<uint32_t> tok(cfg.max_transfer_lbas);
    for (uint64_t l = 0; l < cfg.logical_lbas; l += cfg.max_transfer_lbas) {
      const uint32_t n = uint32_t(std::min<uint64_t>(cfg.max_transfer_lbas, cfg.logical_lbas - l));
      for (uint32_t i = 0; i < n; ++i) tok[i] = token++;
      if (ftl_func_write(f, l, n, tok.data()) != 0) return;
    }
    const uint64_t pre = uint64_t(double(cfg.logical_lbas) * (large ? 0.5 : 1.0));
    for (uint64_t i = 0; i < pre; ++i) {
      const uint32_t t = token++;
      if (ftl_func_write(f, rng() % cfg.logical_lbas, 1, &t) != 0) return;
    }
    ok = true;
  }
};

FtlDev& device(bool large) {
  static std::map<bool, std::unique_ptr<FtlDev>> devs;
  auto& d = devs[large];
  if (!d) d = std::make_unique<FtlDev>(large);
  return *d;
}

void BM_FtlFuncWrite_RandomGC(benchmark::State& state, bool large) {
  FtlDev& d = device(large);
  if (!d.ok) {
    state.SkipWithError(d.hal->log_lines.empty() ? "ftl setup failed" : d.hal->log_lines.back().c_str());
    return;
  }
  const ftl_stats* s = ftl_get_stats(d.f);
  const uint64_t h0 = s->host_lba_writes, g0 = s->gc_lba_writes;
  const uint64_t lbas = d.cfg.logical_lbas;
  for (auto _ : state) {
    const uint32_t t = d.token++;
    if (ftl_func_write(d.f, d.rng() % lbas, 1, &t) != 0) {
      state.SkipWithError("ftl_func_write failed");
      break;
    }
  }
  const uint64_t h = s->host_lba_writes - h0, g = s->gc_lba_writes - g0;
  state.SetItemsProcessed(int64_t(state.iterations()));
  state.counters["waf"] = h ? double(h + g) / double(h) : 0.0;
  state.counters["phys_pages"] =
      double(d.cfg.channels) * d.cfg.dies_per_channel * d.cfg.blocks_per_die * d.cfg.pages_per_block;
}
BENCHMARK_CAPTURE(BM_FtlFuncWrite_RandomGC, small, false);
BENCHMARK_CAPTURE(BM_FtlFuncWrite_RandomGC, large, true)->MinTime(2.0);

}  // namespace
