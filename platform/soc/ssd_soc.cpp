// ssd_soc.cpp - see ssd_soc.h.
#include "soc/ssd_soc.h"

#include <stdexcept>

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
  c.gc_separate_frontier = cfg.get_bool("ftl.gc.separate_frontier", true, "relocated data goes to its own frontier (else with host writes)") ? 1 : 0;
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
      cpu("cpu", cfg),
      geo_(flash.geometry()) {
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
  cpu.bus.bind(bus.tsock);
  nvme.dma.bind(bus.tsock);
  flash.dma.bind(bus.tsock);

  nvme.irq_cmd(irq_cmd_);
  nvme.irq_done(irq_done_);
  flash.irq(irq_flash_);
  intc.irq_in[IRQ_NVME_CMD](irq_cmd_);
  intc.irq_in[IRQ_NVME_DONE](irq_done_);
  intc.irq_in[IRQ_FLASH](irq_flash_);
  intc.irq_in[IRQ_ACCEL](irq_accel_);  // no accelerator yet: held low
  intc.irq_out(irq_cpu_);
  cpu.irq(irq_cpu_);

  fw_mem_.reset(new uint8_t[ftl_size()]);
  fw_ = reinterpret_cast<struct ftl*>(fw_mem_.get());
  cpu.set_firmware([this] { ftl_main(fw_); });
}

void SsdSoc::boot() {
  cpu.set_functional(true);
  flash.set_functional(true);
  if (ftl_init(fw_, cpu.hal(), &fwcfg_) != 0)
    throw std::runtime_error(std::string(name()) + ": firmware initialisation failed (see the log above)");
}

void SsdSoc::start() {
  flash.set_functional(false);
  cpu.set_functional(false);
  cpu.start();
}

}  // namespace ssdvp
