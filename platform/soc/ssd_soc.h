// ssd_soc.h - one SSD controller SoC: models wired by region name, and the
// firmware running on the CPU model.
//
//   nvme.host_regs / nvme.host_dma  <- the host side binds here (PCIe)
//   cpu.bus, nvme.dma, flash.dma, accel.dma -> bus -> DRAM, INTC, NVME, FLASH, ACCEL
//   nvme.irq_cmd/irq_done, flash.irq, accel.irq -> intc -> cpu.irq
//   cpu: CpuNative or CpuIss (cpu.mode), behind soc/controller.h
//
// Several SoCs can live in one simulation (distinct instance names); none
// shares state with another.
#pragma once

#include <systemc>

#include <memory>
#include <string>

#include "common/config.h"
#include "common/wire.h"
#include "dram/dram.h"
#include "flash/flash_ctrl.h"
#include "flash/flash_geometry.h"
#include "interconnect/bus.h"
#include "interconnect/intc.h"
#include "nvme/nvme_ctrl.h"
#include "soc/controller.h"
#include "tlm/kmeans_accel.h"

extern "C" {
#include "ftl.h"
}

namespace ssdvp {

class SsdSoc : public sc_core::sc_module {
 public:
  Bus bus;
  Dram dram;
  Intc intc;
  FlashCtrl flash;
  NvmeCtrl nvme;
  KMeansAccel accel;  // accel.impl: TLM or verilated RTL core

  // Reads every parameter it needs from cfg; throws ConfigError naming the
  // key on an invalid or inconsistent configuration.
  SsdSoc(sc_core::sc_module_name name, Config& cfg);

  // Call after elaboration (sc_start(SC_ZERO_TIME)), from outside any process:
  // initialises the firmware functionally. Throws std::runtime_error if the
  // firmware refuses its configuration.
  void boot();
  // The controller CPU and its firmware (cpu.mode: native or iss):
  // functional access for preconditioning, statistics, end-of-run queries.
  Controller& cpu() { return *cpu_; }
  const Controller& cpu() const { return *cpu_; }
  // Switches to timed simulation and starts the firmware's event loop.
  void start();
  // Asks the firmware loop to return at its next wake-up.
  void stop() { cpu_->request_stop(); }

  const FlashGeometry& geometry() const { return geo_; }
  const ftl_config& fw_config() const { return fwcfg_; }
  uint64_t logical_lbas() const { return fwcfg_.logical_lbas; }
  uint32_t lba_size() const { return geo_.lba_size; }

 private:
  FlashGeometry geo_;
  ftl_config fwcfg_{};
  std::unique_ptr<Controller> cpu_;
  Wire irq_cmd_, irq_done_, irq_flash_, irq_cpu_;  // combinational interrupt lines (common/wire.h)
  sc_core::sc_signal<bool> irq_accel_;
};

// Builds the firmware configuration (ftl.* keys) for a geometry.
ftl_config make_ftl_config(Config& cfg, const FlashGeometry& geo);

}  // namespace ssdvp
