// ssd_soc.cpp - see ssd_soc.h.
#include "soc/ssd_soc.h"

#include <stdexcept>

#include "flash/multiplane_rules.h"
#include "soc/ftl_params.h"

namespace ssdvp {

ftl_config make_ftl_config(Config& cfg, const FlashGeometry& geo) {
  ftl_config c;
  ftl_config_default(&c);
  c.channels = geo.channels;
  c.dies_per_channel = geo.dies_per_channel;
  c.blocks_per_die = geo.blocks_per_die();
  c.planes_per_die = geo.planes_per_die;
  c.pages_per_block = geo.pages_per_block;
  c.slots_per_page = geo.slots_per_page();
  c.lba_bytes = geo.lba_size;
  c.cell_bits = static_cast<uint32_t>(cfg.get_u64("flash.cell.bits"));
  c.mp_same_block = cfg.get_bool(kMultiplaneSameBlockKey) ? 1 : 0;
  // every tunable of firmware/api/ftl_params.def, with its range
  const auto sizes = read_ftl_params(cfg, geo.lba_size, c);
  const uint64_t ns_bytes = sizes.at("nvme.namespace_size");
  if (ns_bytes % geo.lba_size)
    throw ConfigError("config key 'nvme.namespace_size': " + std::to_string(ns_bytes) +
                      " bytes is not a positive multiple of nvme.lba_size (" + std::to_string(geo.lba_size) + ")");
  if (ns_bytes >= geo.physical_bytes())
    throw ConfigError("config key 'nvme.namespace_size': " + std::to_string(ns_bytes) +
                      " bytes leaves no spare area on " + std::to_string(geo.physical_bytes()) + " bytes of flash");
  c.dram_base = SSDVP_DRAM_BASE;
  return c;
}

SsdSoc::SsdSoc(sc_core::sc_module_name nm, Config& cfg)
    : sc_module(nm),
      bus("bus", cfg),
      dram("dram", cfg),
      intc("intc", cfg),
      flash("flash", cfg),
      nvme("nvme", cfg),
      accel("accel", cfg),
      geo_(flash.geometry()),
      cpu_(make_controller(cfg)) {
  fwcfg_ = make_ftl_config(cfg, geo_);
  fwcfg_.oc_read_ns = uint32_t(flash.timing().read_ps / 1000);  // the open-channel Geometry's timing hints
  fwcfg_.oc_program_ns = uint32_t(flash.timing().program_ps / 1000);
  fwcfg_.oc_erase_ns = uint32_t(flash.timing().erase_ps / 1000);
  fwcfg_.dram_size = uint32_t(std::min<uint64_t>(dram.size(), 0x80000000ull));
  char msg[512];
  if (ftl_config_check(&fwcfg_, msg, sizeof msg))
    throw ConfigError(std::string(name()) + ": firmware configuration rejected: " + msg);

  bus.attach("DRAM", dram.tsock);
  bus.attach("INTC", intc);
  bus.attach("NVME", nvme);
  bus.attach("FLASH", flash);
  bus.attach("ACCEL", accel);
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
  // The namespace the firmware reports to the host (NSZE) must be the one it
  // was configured with: the host addresses logical_lbas() LBAs. (A test
  // image that never runs ftl_init reports none.)
  if (nvme.namespace_lbas() != 0 && nvme.namespace_lbas() != fwcfg_.logical_lbas)
    throw std::runtime_error(std::string(name()) + ": the firmware reported a namespace of " +
                             std::to_string(nvme.namespace_lbas()) + " LBAs (NSZE), configured " +
                             std::to_string(fwcfg_.logical_lbas));
}

void SsdSoc::start() {
  flash.set_functional(false);
  cpu_->start();
}

}  // namespace ssdvp
