// host_ftl_journal.cpp - the journal/data separation experiment's four arms,
// functional: the same file-level workload with its ext4-like journal
// (platform/host/fs, configs/journal.yaml) through
//   device FTL: the firmware in the NVM personality on a functional drive
//               (the fake HAL's NAND: the flash model's rules), the journal's
//               writes untagged (mixed) or on NVMe stream 1 (separated);
//   host FTL:   the same firmware sources on the host (HostFtlHal) over the
//               firmware in the open-channel personality on the same kind of
//               drive, the journal on the single write point (pblk's, mixed)
//               or its own (separated).
// No simulated time: it measures what placement decides (WAF, GC moves,
// erases, integrity) and the host FTL's CPU time by its cost table; the
// timed device-FTL arms are scripts/journal_experiment.py's.
// Prints one JSON object. Used by scripts/journal_host_ftl.py.
//
//   host_ftl_journal -c configs/journal.yaml --arm host|device --separate 0|1
//                    [--drive-writes X] [--service-us U] [--set key=value ...]
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "common/config.h"
#include "fake_hal.h"
#include "flash/flash_geometry.h"
#include "fs/personalities.h"
#include "ftl/host_ftl_hal.h"
#include "ocssd_port.h"
#include "soc/ftl_params.h"

namespace {

uint32_t token_of(uint64_t lba, uint32_t version) {
  uint64_t x = lba * 0x9E3779B97F4A7C15ull ^ (uint64_t(version) << 32 | version);
  x ^= x >> 31;
  x *= 0xBF58476D1CE4E5B9ull;
  x ^= x >> 29;
  const uint32_t t = uint32_t(x);
  return t == SSDVP_TOKEN_DEALLOCATED || t == SSDVP_TOKEN_ERASED ? 1 : t;
}

[[noreturn]] void die(const std::string& msg) {
  std::fprintf(stderr, "host_ftl_journal: %s\n", msg.c_str());
  std::exit(2);
}

struct Drive {  // a firmware on the fake HAL
  ftl_config cfg{};
  std::unique_ptr<FakeHal> hal;
  std::unique_ptr<uint8_t[]> mem;
  ftl* f = nullptr;
  explicit Drive(const ftl_config& c) : cfg(c) {
    cfg.dram_size = uint32_t(ftl_dram_bytes(&cfg) + 4096);
    hal = std::make_unique<FakeHal>(cfg.dram_size, cfg.channels * cfg.dies_per_channel * cfg.blocks_per_die,
                                    cfg.pages_per_block, cfg.slots_per_page);
    mem.reset(new uint8_t[ftl_size()]);
    f = reinterpret_cast<ftl*>(mem.get());
    if (ftl_init(f, hal->hal(), &cfg)) die("drive: " + (hal->log_lines.empty() ? "" : hal->log_lines.back()));
  }
};

}  // namespace

int main(int argc, char** argv) {
  std::string config, arm = "host";
  int separate = 0;
  double drive_writes = 2.0, service_us = 100;
  std::vector<std::pair<std::string, std::string>> sets;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    auto val = [&]() -> std::string {
      if (i + 1 >= argc) die("missing value after " + a);
      return argv[++i];
    };
    if (a == "-c")
      config = val();
    else if (a == "--arm")
      arm = val();
    else if (a == "--separate")
      separate = std::atoi(val().c_str());
    else if (a == "--drive-writes")
      drive_writes = std::atof(val().c_str());
    else if (a == "--service-us")
      service_us = std::atof(val().c_str());
    else if (a == "--set") {
      const std::string kv = val();
      const auto eq = kv.find('=');
      if (eq == std::string::npos) die("--set needs key=value, got '" + kv + "'");
      sets.emplace_back(kv.substr(0, eq), kv.substr(eq + 1));
    } else
      die("unknown argument '" + a + "'");
  }
  if (config.empty() || (arm != "host" && arm != "device")) die("usage: -c CONFIG --arm host|device --separate 0|1");
  try {
    ssdvp::Config cfg = ssdvp::Config::from_yaml_file(config);
    for (const auto& kv : sets) cfg.set(kv.first, kv.second);
    cfg.set("host.files.journal_stream", separate ? "1" : "0");
    const ssdvp::FlashGeometry geo = ssdvp::FlashGeometry::from_config(cfg);
    ftl_config fc;
    ftl_config_default(&fc);
    fc.channels = geo.channels;
    fc.dies_per_channel = geo.dies_per_channel;
    fc.blocks_per_die = geo.blocks_per_die();
    fc.pages_per_block = geo.pages_per_block;
    fc.slots_per_page = geo.slots_per_page();
    ssdvp::read_ftl_params(cfg, geo.lba_size, fc);  // the config's ftl.* tunables, for whichever FTL runs
    const uint64_t lbas = fc.logical_lbas;
    ssdvp::fs::FilesSpec spec = ssdvp::fs::FilesSpec::from_config(cfg, lbas * geo.lba_size, geo.lba_size, false);

    // The FTL the workload talks to: the device's (NVM personality) or the host's over an open-channel drive.
    std::unique_ptr<Drive> drive;
    std::unique_ptr<octest::FakeDrivePort> port;
    std::unique_ptr<ssdvp::HostFtlHal> hal;
    std::unique_ptr<uint8_t[]> host_mem;
    ftl* f = nullptr;
    if (arm == "device") {
      drive = std::make_unique<Drive>(fc);
      f = drive->f;
    } else {
      ftl_config oc = fc;
      oc.command_set = FTL_CMDSET_OPEN_CHANNEL;
      drive = std::make_unique<Drive>(oc);
      port = std::make_unique<octest::FakeDrivePort>(*drive->hal, drive->f);
      ocssd_geometry g{};
      if (port->geometry(&g) != NVME_SC_SUCCESS) die("Geometry failed");
      ftl_config hc = fc;
      hc.dram_base = SSDVP_DRAM_BASE;
      hc.dram_size = uint32_t(ftl_dram_bytes(&hc) + 4096);
      hal = std::make_unique<ssdvp::HostFtlHal>(*port, g, hc.dram_size);
      host_mem.reset(new uint8_t[ftl_size()]);
      f = reinterpret_cast<ftl*>(host_mem.get());
      if (ftl_init(f, hal->hal(), &hc)) die("host FTL: " + (hal->log_lines.empty() ? "" : hal->log_lines.back()));
    }

    // Preconditioning as configs/journal.yaml's precondition.fill 1.0: every LBA once, in order.
    std::vector<uint32_t> version(lbas, 0), t(4096);
    for (uint64_t at = 0; at < lbas; at += t.size()) {
      const uint32_t n = uint32_t(std::min<uint64_t>(t.size(), lbas - at));
      for (uint32_t i = 0; i < n; ++i) t[i] = token_of(at + i, ++version[at + i]);
      if (ftl_func_write(f, at, n, t.data())) die("preconditioning write failed");
    }
    const ftl_stats base = *ftl_get_stats(f);
    const double cpu0 = hal ? hal->busy_ns() : 0;

    ssdvp::fs::FileWorkload wl(spec);
    uint64_t clock_ps = 0, requests = 0, host_lbas = 0, journal_lbas = 0, checked = 0, mismatches = 0, ios = 0;
    wl.set_clock([&] { return clock_ps; });
    const uint64_t budget = uint64_t(drive_writes * double(lbas));
    ssdvp::host::IoRequest r;
    while (host_lbas < budget && wl.next(r)) {
      ++requests;
      clock_ps += uint64_t(service_us * 1e6);  // a fixed service time per request drives the commit timer
      const uint64_t lba = r.offset / geo.lba_size, n = r.length / geo.lba_size;
      if (lba + n > lbas) die("request beyond the namespace");
      switch (r.op) {
        case ssdvp::host::IoOp::write:
          ++ios;
          for (uint64_t done = 0; done < n;) {
            const uint32_t k = uint32_t(std::min<uint64_t>(t.size(), n - done));
            for (uint32_t i = 0; i < k; ++i) t[i] = token_of(lba + done + i, ++version[lba + done + i]);
            if (ftl_func_write_stream(f, lba + done, k, t.data(), r.stream)) die("write failed");
            done += k;
          }
          host_lbas += n;
          break;
        case ssdvp::host::IoOp::read:
          ++ios;
          for (uint64_t done = 0; done < n;) {
            const uint32_t k = uint32_t(std::min<uint64_t>(t.size(), n - done));
            if (ftl_func_read(f, lba + done, k, t.data())) die("read failed");
            for (uint32_t i = 0; i < k; ++i) {
              const uint32_t v = version[lba + done + i];
              mismatches += t[i] != (v ? token_of(lba + done + i, v) : SSDVP_TOKEN_DEALLOCATED);
            }
            checked += k;
            done += k;
          }
          break;
        case ssdvp::host::IoOp::trim:
          if (ftl_func_trim(f, lba, n)) die("trim failed");
          for (uint64_t i = 0; i < n; ++i) version[lba + i] = 0;
          break;
        case ssdvp::host::IoOp::flush:
          if (ftl_func_flush(f)) die("flush failed");
          break;
      }
    }
    journal_lbas = wl.journal() ? wl.journal()->stats().log_blocks * (spec.block_bytes / geo.lba_size) : 0;
    const ftl_stats& s = *ftl_get_stats(f);
    const uint64_t hw = s.host_lba_writes - base.host_lba_writes, gw = s.gc_lba_writes - base.gc_lba_writes;
    const double cpu = hal ? hal->busy_ns() - cpu0 : 0;
    std::printf(
        "{\"arm\": \"%s\", \"separate\": %d, \"personality\": \"%s\", \"requests\": %llu, \"host_lbas\": %llu, "
        "\"journal_lbas\": %llu, \"gc_lbas\": %llu, \"pad_lbas\": %llu, \"waf\": %.4f, \"erases\": %llu, "
        "\"reads_checked\": %llu, "
        "\"mismatches\": %llu, \"host_cpu_ms\": %.3f, \"host_cpu_us_per_io\": %.3f, \"ocssd_commands\": %llu, "
        "\"self_check\": %llu, \"nand_violations\": %llu}\n",
        arm.c_str(), separate, spec.personality.c_str(), (unsigned long long)requests, (unsigned long long)hw,
        (unsigned long long)journal_lbas, (unsigned long long)gw, (unsigned long long)(s.pad_slots - base.pad_slots),
        hw ? double(hw + gw) / double(hw) : 0.0, (unsigned long long)(s.erases - base.erases),
        (unsigned long long)checked, (unsigned long long)mismatches, cpu / 1e6, ios ? cpu / 1e3 / double(ios) : 0.0,
        (unsigned long long)(port ? port->commands : 0), (unsigned long long)ftl_self_check(f),
        (unsigned long long)drive->hal->violations);
    return mismatches || drive->hal->violations ? 3 : 0;
  } catch (const std::exception& e) {
    die(e.what());
  }
}
