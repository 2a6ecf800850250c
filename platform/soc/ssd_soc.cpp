// ssd_soc.cpp - see ssd_soc.h.
#include "soc/ssd_soc.h"

#include <stdexcept>

extern "C" {
#include "hotness.h"
}

namespace ssdvp {

ftl_config make_ftl_config(Config& cfg, const FlashGeometry& geo) {
  ftl_config c;
  ftl_config_default(&c);
  c.channels = geo.channels;
  c.dies_per_channel = geo.dies_per_channel;
  c.blocks_per_die = geo.blocks_per_die();
  c.pages_per_block = geo.pages_per_block;
  c.slots_per_page = geo.slots_per_page();
  const uint64_t ns_bytes = cfg.get_size("nvme.namespace_size", "256GiB",
                                         "logical capacity exported to the host (the rest of the flash is spare)");
  if (ns_bytes % geo.lba_size || ns_bytes == 0)
    throw ConfigError("config key 'nvme.namespace_size': " + std::to_string(ns_bytes) +
                      " bytes is not a positive multiple of nvme.lba_size (" + std::to_string(geo.lba_size) + ")");
  if (ns_bytes >= geo.physical_bytes())
    throw ConfigError("config key 'nvme.namespace_size': " + std::to_string(ns_bytes) +
                      " bytes leaves no spare area on " + std::to_string(geo.physical_bytes()) + " bytes of flash");
  c.logical_lbas = ns_bytes / geo.lba_size;
  c.max_transfer_lbas = uint32_t(cfg.get_u64("ftl.max_transfer", 256, "largest command in LBAs (MDTS); larger host requests are split", 1, 65535));
  c.cmd_slots = uint32_t(cfg.get_u64("ftl.cmd_slots", 256, "host commands the firmware works on at once", 1, 65535));
  c.write_buffer_pages = uint32_t(cfg.get_u64("ftl.buffers.write_pages", 256, "DRAM page buffers for host writes (write-back cache)", 2, 1u << 20));
  c.read_buffer_pages = uint32_t(cfg.get_u64("ftl.buffers.read_pages", 128, "DRAM page buffers for host reads", 1, 1u << 20));
  c.gc_buffer_pages = uint32_t(cfg.get_u64("ftl.buffers.gc_pages", 64, "DRAM page buffers for GC reads and the GC frontier", 4, 1u << 20));
  const std::string policy = cfg.get_choice("ftl.gc.policy", "greedy", {"greedy", "fifo", "random", "cost_benefit", "dchoices"},
                                            "GC victim selection");
  c.gc_policy = policy == "greedy" ? FTL_GC_GREEDY
                : policy == "fifo" ? FTL_GC_FIFO
                : policy == "random" ? FTL_GC_RANDOM
                : policy == "cost_benefit" ? FTL_GC_COST_BENEFIT
                                           : FTL_GC_DCHOICES;
  c.gc_threshold_blocks = uint32_t(cfg.get_u64("ftl.gc.threshold_blocks", 128, "GC collects while free blocks are below this (HAML-SSD Table III: 128)", 2, 1u << 24));
  c.gc_reserve_blocks = uint32_t(cfg.get_u64("ftl.gc.reserve_blocks", 16, "host writes wait while free blocks are at or below this (kept for GC)", 1, 1u << 24));
  c.gc_max_active = uint32_t(cfg.get_u64("ftl.gc.max_active", 2, "victim blocks collected concurrently", 1, 64));
  c.gc_dchoices = uint32_t(cfg.get_u64("ftl.gc.dchoices", 10, "d: random candidates examined by the dchoices policy", 1, 1024));
  const std::string place = cfg.get_choice("ftl.placement.policy", "double", {"single", "double", "hotis", "asa", "haml", "stream"},
                                           "where host writes go: one frontier, host+GC, HOTIS, ASA-FTL, HAML-SSD, host stream IDs");
  c.placement = place == "single" ? FTL_PLACE_SINGLE
                : place == "double" ? FTL_PLACE_DOUBLE
                : place == "hotis" ? FTL_PLACE_HOTIS
                : place == "asa" ? FTL_PLACE_ASA
                : place == "haml" ? FTL_PLACE_HAML
                                  : FTL_PLACE_STREAM;
  c.gc_placement = cfg.get_choice("ftl.placement.gc", "separate", {"separate", "cluster"},
                                  "relocated data of hotis/asa/haml: its own frontier, or its slice's current class") == "cluster"
                       ? FTL_GC_PLACE_CLUSTER : FTL_GC_PLACE_SEPARATE;
  c.hot_classes = uint32_t(cfg.get_u64("ftl.hot.classes", 6, "K: classes of haml (K-Means clusters), streams of stream", 1, FTL_MAX_CLASSES));
  const uint64_t slice = cfg.get_size("ftl.hot.slice_size", "100MB", "logical space per monitored slice (HAML-SSD: 100 MB)");
  if (slice < geo.lba_size || slice / geo.lba_size > 0xffffffffull)
    throw ConfigError("config key 'ftl.hot.slice_size': " + std::to_string(slice) + " bytes is not between one LBA (" +
                      std::to_string(geo.lba_size) + " bytes) and 2^32 LBAs");
  c.hot_slice_lbas = uint32_t(slice / geo.lba_size);
  const uint64_t period_ps = cfg.get_time_ps("ftl.hot.period", "6h", "monitoring period T: slices are reclassified at its end (HAML-SSD: 6 h)");
  if (period_ps < 1000) throw ConfigError("config key 'ftl.hot.period': must be at least 1 ns");
  c.hot_period_ns = period_ps / 1000;
  c.hot_interval_rule = cfg.get_choice("ftl.hot.interval_rule", "per_slice", {"per_slice", "global"},
                                       "UpdateT: gap between updates of the same slice (the text) or of any slice (Algorithm 1, line 16)") == "global"
                            ? HOT_INTERVAL_GLOBAL : HOT_INTERVAL_PER_SLICE;
  c.hot_max_iter = uint32_t(cfg.get_u64("ftl.hot.max_iter", 10, "K-Means iteration limit", 1, 1000));
  c.cluster_engine = cfg.get_choice("ftl.cluster.engine", "software", {"software", "accel"},
                                    "who runs the K-Means of haml and asa: software (kmeans2d on the CPU) or accel (the K-Means accelerator)") == "accel"
                         ? FTL_CLUSTER_ACCEL : FTL_CLUSTER_SOFTWARE;
  c.hotis_min_writes = uint32_t(cfg.get_u64("ftl.hot.hotis.min_writes", 2, "HOTIS: a slice is hot with at least this many writes in the period ...", 1, 1u << 31));
  c.hotis_max_interval_ns = cfg.get_time_ps("ftl.hot.hotis.max_interval", "90min", "... and a mean update interval of at most this") / 1000;
  c.block_choice = cfg.get_choice("ftl.wear.block_choice", "fifo", {"fifo", "erase_count"},
                                  "free block a frontier opens: the die's oldest, or by erase count (hot: lowest, cold and GC: highest)") == "erase_count"
                       ? FTL_BLOCK_ERASE_COUNT : FTL_BLOCK_FIFO;
  c.wear_threshold = uint32_t(cfg.get_u64("ftl.wear.threshold", 0, "migrate cold data off the youngest block when erase counts spread by more (0: never)", 0, 1u << 30));
  c.wear_check_erases = uint32_t(cfg.get_u64("ftl.wear.check_erases", 64, "erases between two looks at the erase-count spread", 1, 1u << 30));
  c.streams_limit = uint32_t(cfg.get_u64("ftl.streams.limit", 8, "MSL: stream identifiers a namespace may allocate with the NVMe Streams directive (PM963: 8)", 1, FTL_MAX_CLASSES));
  c.seed = cfg.get_u64("ftl.seed", 1, "firmware PRNG seed (random victim choices)");
  c.dram_base = SSDVP_DRAM_BASE;
  return c;
}

SsdSoc::SsdSoc(sc_core::sc_module_name nm, Config& cfg)
    : sc_module(nm),
      bus("bus", cfg),
      dram("dram", cfg),
      intc("intc", cfg),
      timer("timer", cfg),
      flash("flash", cfg),
      nvme("nvme", cfg),
      accel("accel", cfg),
      geo_(flash.geometry()),
      cpu_(make_controller(cfg)) {
  fwcfg_ = make_ftl_config(cfg, geo_);
  fwcfg_.dram_size = uint32_t(std::min<uint64_t>(dram.size(), 0x80000000ull));
  char msg[512];
  if (ftl_config_check(&fwcfg_, msg, sizeof msg))
    throw ConfigError(std::string(name()) + ": firmware configuration rejected: " + msg);

  bus.attach("DRAM", dram.tsock);
  bus.attach("INTC", intc.regs);
  bus.attach("TIMER", timer.regs);
  bus.attach("NVME", nvme.regs);
  bus.attach("FLASH", flash.regs);
  bus.attach("ACCEL", accel.regs);
  cpu_->bind(bus, irq_cpu_);
  nvme.dma.bind(bus.tsock);
  flash.dma.bind(bus.tsock);
  accel.dma.bind(bus.tsock);

  nvme.irq_cmd(irq_cmd_);
  nvme.irq_done(irq_done_);
  flash.irq(irq_flash_);
  intc.irq_in[IRQ_NVME_CMD](irq_cmd_);
  intc.irq_in[IRQ_NVME_DONE](irq_done_);
  intc.irq_in[IRQ_FLASH](irq_flash_);
  accel.irq(irq_accel_);
  intc.irq_in[IRQ_ACCEL](irq_accel_);
  intc.irq_out(irq_cpu_);

}

void SsdSoc::boot() {
  flash.set_functional(true);
  try {
    cpu_->boot(fwcfg_);
  } catch (const std::runtime_error& e) {
    throw std::runtime_error(std::string(name()) + ": " + e.what());
  }
}

void SsdSoc::start() {
  flash.set_functional(false);
  cpu_->start();
}

}  // namespace ssdvp
