// host_ftl_run.cpp - a run with nvme.command_set open_channel: the host
// driver's queue is served by the host-level FTL (host/ftl/host_ftl_block.h),
// which talks Open-Channel to the SoC. Preconditioning writes through the
// same FTL, timed (the drive has no functional path for vector commands),
// in the host driver's thread before its replay; the timed part starts after.
#include <stdexcept>

#include "host/ftl/host_ftl_block.h"
#include "host/host_driver.h"
#include "run/run_component.h"
#include "soc/ssd_soc.h"
#include "ssdvp_geometry.h"

namespace ssdvp {

namespace {

class HostFtlComponent : public HostFtlRun {
 public:
  void attach(RunContext& x) override;
  const ftl_stats& stats() const override { return ftl_->stats(); }
  void start_timed(const std::function<void()>& precondition) override;
  FuncFtl func_ftl() override;

 private:
  nlohmann::json summary(const SummaryInput& x) const;
  RunContext* run_ = nullptr;
  std::unique_ptr<HostFtlBlock> ftl_;
  ftl_stats drive_at_start_{};  // the drive's counters when the host FTL's timed part began
};

void HostFtlComponent::attach(RunContext& x) {
  run_ = &x;
  SsdSoc& soc = x.soc;
  const HostFtlBlock::Keys keys = HostFtlBlock::Keys::read(x.cfg);
  // Flows and power cuts are refused by the run plan (run_plan.cpp): the host FTL's recovery is built
  // (HostFtlHal::recover, docs/models/host_ftl.md "Power cuts") and tested on the functional drive; the timed
  // run's cut, host restart and check through the host FTL are not.
  const ftl_config& fw = soc.fw_config();  // the drive's geometry (its Geometry command reports the same)
  if (const std::string e = keys.check_write_buffer(fw.slots_per_page, fw.channels * fw.dies_per_channel,
                                                    fw.lba_bytes ? fw.lba_bytes : SSDVP_GEO_LBA_BYTES);
      !e.empty())
    throw ConfigError(e);
  ftl_ = std::make_unique<HostFtlBlock>("host_ftl", keys, x.mem, soc.fw_config());
  x.host.pcie.bind(ftl_->host_regs);
  ftl_->drive.bind(soc.nvme.host_regs);
  ftl_->set_link_bytes([&soc] { return std::make_pair(soc.nvme.stats().bytes_h2d, soc.nvme.stats().bytes_d2h); });
  const NvmeQueuePair& q = x.host.queue_pair();
  ftl_->attach_host(q.qid(), q.sq_addr(), q.cq_addr(), q.entries());
  x.host_bound = true;
  x.host_ftl = this;
  x.contribute("host_ftl", [this](const SummaryInput& s) { return summary(s); });
}

nlohmann::json HostFtlComponent::summary(const SummaryInput& x) const {
  nlohmann::json j = ftl_->summary(double(x.h.end_ps - x.h.start_ps) * 1e-12);  // host_ftl_block.h
  const ftl_stats& d0 = drive_at_start_;  // the drive's holds for destination chunks (ocssd.c)
  j["drive_held"] = {{"commands", x.s->oc_held_cmds - d0.oc_held_cmds},
                     {"copies", x.s->oc_held_copies - d0.oc_held_copies},
                     {"held_s", double(x.s->oc_held_ns - d0.oc_held_ns) * 1e-9},
                     {"copies_held_s", double(x.s->oc_held_copy_ns - d0.oc_held_copy_ns) * 1e-9}};
  return j;
}

void HostFtlComponent::start_timed(const std::function<void()>& precondition) {
  HostDriver& host = run_->host;
  SsdSoc& soc = run_->soc;
  const std::string err = ftl_->init([&host](const nvme_sqe& e) { return host.admin(e); },
                                     [&soc](uint64_t sq, uint64_t cq, uint32_t depth) {
                                       return soc.nvme.create_io_queue(1, sq, cq, depth, HostMemory::kMsiBase);
                                     });
  if (!err.empty()) throw std::runtime_error(err);
  precondition();
  drive_at_start_ = soc.cpu().stats();
  ftl_->start();
}

FuncFtl HostFtlComponent::func_ftl() {
  HostFtlBlock& h = *ftl_;
  return FuncFtl{[&h](uint64_t lba, uint32_t n, const uint32_t* t, uint32_t s) { return h.write(lba, n, t, s); },
                 [&h](uint64_t lba, uint64_t n) { return h.trim(lba, n); },
                 [&h](uint32_t b) { return h.set_gc_threshold(b); }, [&h]() -> const ftl_stats& { return h.stats(); },
                 [](uint64_t) {}};
}

}  // namespace

std::unique_ptr<RunComponent> make_host_ftl_run() { return std::make_unique<HostFtlComponent>(); }

}  // namespace ssdvp
