// kmeans_accel.h - the K-Means accelerator device (ACCEL region).
//
// Registers from the ACCEL rows of firmware/include/ssdvp_regs.def. START
// validates the programming, DMAs the N points from DRAM into the point SRAM
// (a b_transport over the SoC bus), runs the core (TLM or RTL, accel.impl)
// and schedules completion at start + CYCLES accelerator cycles, where
// CYCLES = DMA in + core compute + DMA out (docs/models/accel.md). At
// completion an SC_METHOD writes the labels to DST, publishes ITERS, CYCLES
// and the centroids, clears BUSY, sets DONE and drives irq = IRQ_EN &&
// (DONE || ERROR). Bad programming sets ERROR with an accel_error code and
// raises the interrupt the same way; nothing asserts, nothing hangs.
#pragma once

#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>

#include <cstdint>
#include <memory>
#include <vector>

#include "common/bus_device.h"
#include "ssdvp_hw.h"
#include "tlm/accel_core.h"

namespace ssdvp {

class KMeansAccel : public BusDevice {  // regs: ACCEL registers
 public:
  tlm_utils::simple_initiator_socket<KMeansAccel> dma;  // to the bus (DRAM)
  sc_core::sc_out<bool> irq;                            // done or error, if enabled

  KMeansAccel(sc_core::sc_module_name name, Config& cfg);

  const AccelShape& shape() const { return shape_; }
  const char* core_kind() const { return core_->kind(); }
  // Accelerator cycles as simulated time (rounded to the ps once, not per cycle).
  uint64_t cycles_to_ps(uint64_t cycles) const;
  uint64_t jobs() const { return jobs_; }
  uint64_t errors() const { return errors_; }
  uint64_t busy_ps() const { return busy_ps_; }  // summed job time
  // The last completed job's result (labels, centroids, iterations, compute cycles).
  const AccelResult& last_result() const { return result_; }

 private:
  SC_HAS_PROCESS(KMeansAccel);
  void write_ctrl(uint32_t v);
  void start();
  void fail(accel_error code, const char* what);
  bool dma_access(bool write, uint32_t addr, void* data, uint32_t bytes);
  void done_method();  // SC_METHOD: at the job's end, finish()
  void finish();       // DMA out, publish, DONE
  void irq_method();   // SC_METHOD: drives irq
  void notify_at(sc_core::sc_event& ev, uint64_t at_ps);

  AccelShape shape_;
  std::unique_ptr<AccelCore> core_;

  uint64_t at_ps_ = 0;  // local time of what is being served: a CTRL write or the job's end
  bool busy_ = false, done_ = false, error_ = false, irq_en_ = false;
  uint32_t error_code_ = ACCEL_ERR_NONE;
  uint32_t job_n_ = 0, job_dst_ = 0;
  uint64_t job_cycles_ = 0;
  std::vector<uint32_t> sram_;  // the point SRAM (what the DMA filled)
  AccelResult result_;
  sc_core::sc_event done_ev_, irq_ev_;
  uint64_t jobs_ = 0, errors_ = 0, busy_ps_ = 0;
};

}  // namespace ssdvp
