// host_ftl_run.cpp - a run with nvme.command_set open_channel: the host
// driver's queue is served by the host-level FTL (host/ftl/host_ftl_block.h),
// which talks Open-Channel to the SoC. Preconditioning writes through the
// same FTL, timed (the drive has no functional path for vector commands),
// in the host driver's thread before its replay; the timed part starts after.
#include <stdexcept>

#include "host/ftl/host_ftl_block.h"
#include "host/host_driver.h"
#include "run/device_state.h"
#include "run/simulation.h"
#include "soc/ssd_soc.h"
#include "ssdvp_geometry.h"

namespace ssdvp {

bool Simulation::build_host_ftl() {
  Config& cfg = cfg_;
  const HostFtlBlock::Keys keys = HostFtlBlock::Keys::read(cfg);
  if (soc_->fw_config().command_set != FTL_CMDSET_OPEN_CHANNEL) return false;
  // Flows and power cuts are refused by the run plan (run_plan.cpp): the host FTL's recovery is built
  // (HostFtlHal::recover, docs/models/host_ftl.md "Power cuts") and tested on the functional drive; the timed
  // run's cut, host restart and check through the host FTL are not.
  const ftl_config& fw = soc_->fw_config();  // the drive's geometry (its Geometry command reports the same)
  if (const std::string e = keys.check_write_buffer(fw.slots_per_page, fw.channels * fw.dies_per_channel,
                                                    fw.lba_bytes ? fw.lba_bytes : SSDVP_GEO_LBA_BYTES);
      !e.empty())
    throw ConfigError(e);
  host_ftl_ = std::make_unique<HostFtlBlock>("host_ftl", keys, *mem_, soc_->fw_config());
  host_->pcie.bind(host_ftl_->host_regs);
  host_ftl_->drive.bind(soc_->nvme.host_regs);
  host_ftl_->set_link_bytes(
      [this] { return std::make_pair(soc_->nvme.stats().bytes_h2d, soc_->nvme.stats().bytes_d2h); });
  const NvmeQueuePair& q = host_->queue_pair();
  host_ftl_->attach_host(q.qid(), q.sq_addr(), q.cq_addr(), q.entries());
  contribute("host_ftl", [this](const SummaryInput& x) {
    nlohmann::json j = host_ftl_->summary(double(x.h.end_ps - x.h.start_ps) * 1e-12);  // host_ftl_block.h
    const ftl_stats& d0 = drive_at_host_ftl_start_;  // the drive's holds for destination chunks (ocssd.c)
    j["drive_held"] = {{"commands", x.s->oc_held_cmds - d0.oc_held_cmds},
                       {"copies", x.s->oc_held_copies - d0.oc_held_copies},
                       {"held_s", double(x.s->oc_held_ns - d0.oc_held_ns) * 1e-9},
                       {"copies_held_s", double(x.s->oc_held_copy_ns - d0.oc_held_copy_ns) * 1e-9}};
    return j;
  });
  return true;
}

void Simulation::start_host_ftl() {
  host_->set_before_replay([this] {
    const std::string err = host_ftl_->init([this](const nvme_sqe& e) { return host_->admin(e); },
                                            [this](uint64_t sq, uint64_t cq, uint32_t depth) {
                                              return soc_->nvme.create_io_queue(1, sq, cq, depth, HostMemory::kMsiBase);
                                            });
    if (!err.empty()) throw std::runtime_error(err);
    precondition();
    drive_at_host_ftl_start_ = soc_->cpu().stats();
    host_ftl_->start();
    device_->start(host_ftl_->stats().free_blocks);  // the free pool is the host FTL's
  });
}

FuncFtl Simulation::func_ftl() {
  if (host_ftl_) {
    HostFtlBlock& h = *host_ftl_;
    return FuncFtl{[&h](uint64_t lba, uint32_t n, const uint32_t* t, uint32_t s) { return h.write(lba, n, t, s); },
                   [&h](uint64_t lba, uint64_t n) { return h.trim(lba, n); },
                   [&h](uint32_t b) { return h.set_gc_threshold(b); }, [&h]() -> const ftl_stats& { return h.stats(); },
                   [](uint64_t) {}};
  }
  Controller& fw = soc_->cpu();
  return FuncFtl{[&fw](uint64_t lba, uint32_t n, const uint32_t* t, uint32_t s) { return fw.func_write(lba, n, t, s); },
                 [&fw](uint64_t lba, uint64_t n) { return fw.func_trim(lba, n); },
                 [&fw](uint32_t b) { return fw.func_set_gc_threshold(b); },
                 [&fw]() -> const ftl_stats& { return fw.stats(); },
                 [&fw](uint64_t ns) { fw.set_functional_time_ns(ns); }};
}

}  // namespace ssdvp
