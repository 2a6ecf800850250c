// host_admin.cpp - the host driver's admin queue: before replay, the NVMe
// Streams directive is enabled and stream resources allocated (Directive
// Send / Directive Receive, NVMe 1.4 section 9), as the Linux driver did for
// write-hint streams. See docs/models/nvme_ctrl.md, "Streams directive".
#include <cstdio>
#include <cstring>
#include <memory>
#include <stdexcept>
#include <string>

#include "host/host_driver.h"
#include "nvme/nvme_ctrl.h"

namespace ssdvp {
namespace {
constexpr uint32_t kAdminDepth = 4;
constexpr uint32_t kDirTypeIdentify = 0, kDirTypeStreams = 1;
}  // namespace

uint16_t HostDriver::admin_exec(nvme_sqe e, uint32_t* dw0) {
  NvmeQueuePair& q = *admin_q_;
  e.cdw0 = (e.cdw0 & 0xffff) | (uint32_t(q.sq_tail()) << 16);  // cid: the slot
  q.push(e);
  q.ring_sq();
  const uint64_t t0 = sc_core::sc_time_stamp().value(), stall_ps = pacer_.stall_ps();
  for (;;) {
    nvme_cqe c;
    if (q.pop(&c)) {
      q.ring_cq();
      if (dw0) *dw0 = c.dw0;
      return NvmeQueuePair::status(c);
    }
    if (stall_ps && sc_core::sc_time_stamp().value() - t0 >= stall_ps)
      throw std::runtime_error("host: admin command 0x" + std::to_string(e.cdw0 & 0xff) +
                               " did not complete (host.stall_timeout)");
    wait(sc_core::sc_time::from_value(stall_ps ? stall_ps : 1000000000000ull),
         mem_.msi_event(0));  // the admin CQ's vector
  }
}

void HostDriver::ensure_admin() {
  if (admin_q_) return;
  admin_q_ = std::make_unique<NvmeQueuePair>(mem_, bells_, 0, kAdminDepth);
  if (!admin_q_->create(nvme_)) throw std::runtime_error(std::string(name()) + ": could not create the admin queue");
}

uint16_t HostDriver::admin(const nvme_sqe& e, uint32_t* dw0) {
  ensure_admin();
  return admin_exec(e, dw0);
}

void HostDriver::setup_streams() {
  ensure_admin();
  const uint64_t buf = mem_.alloc(64);
  auto fail = [](const char* what, uint16_t st) {
    throw std::runtime_error(std::string("host.streams: ") + what + " failed with NVMe status 0x" + [&] {
      char b[8];
      std::snprintf(b, sizeof b, "%03x", st);
      return std::string(b);
    }());
  };
  nvme_sqe e{};
  e.cdw0 = NVME_ADMIN_DIRECTIVE_SEND;
  e.nsid = 1;
  e.cdw11 = (kDirTypeIdentify << 8) | NVME_DIR_SND_ID_ENABLE;
  e.cdw12 = (kDirTypeStreams << 8) | 1u;  // enable Streams
  if (uint16_t st = admin_exec(e, nullptr)) fail("Directive Send (enable Streams)", st);
  e = nvme_sqe{};
  e.cdw0 = NVME_ADMIN_DIRECTIVE_RECV;
  e.nsid = 1;
  e.prp1 = buf;
  e.cdw10 = 32 / 4 - 1;  // NUMD: the 32-byte Streams parameters
  e.cdw11 = (kDirTypeStreams << 8) | NVME_DIR_RCV_ST_PARAMS;
  if (uint16_t st = admin_exec(e, nullptr)) fail("Directive Receive (Streams parameters)", st);
  uint16_t msl;
  std::memcpy(&msl, mem_.data() + buf, 2);
  grant_.limit = msl;
  e = nvme_sqe{};
  e.cdw0 = NVME_ADMIN_DIRECTIVE_RECV;
  e.nsid = 1;
  e.cdw11 = (kDirTypeStreams << 8) | NVME_DIR_RCV_ST_ALLOCATE;
  e.cdw12 = streams_wanted_ & 0xffff;  // NSR
  uint32_t nsa = 0;
  if (uint16_t st = admin_exec(e, &nsa)) fail("Directive Receive (Allocate Resources)", st);
  grant_.allocated = nsa & 0xffff;
  if (grant_.allocated < streams_wanted_)
    throw std::runtime_error("host.streams: the device allocated " + std::to_string(grant_.allocated) +
                             " streams of the " + std::to_string(streams_wanted_) + " the host needs (its limit is " +
                             std::to_string(msl) + ": raise ftl.streams.limit or lower ftl.hot.classes)");
}

// Interrupt Coalescing (Set Features 08h): the controller sends one MSI per
// host.coalesce.entries completions, or host.coalesce.time after the first.
void HostDriver::setup_coalescing() {
  ensure_admin();
  nvme_sqe e{};
  e.cdw0 = 0x09;  // Set Features
  e.cdw10 = NVME_FEAT_IRQ_COALESCING;
  e.cdw11 = coalesce_dw11_;
  if (uint16_t st = admin_exec(e, nullptr)) {
    char b[8];
    std::snprintf(b, sizeof b, "%03x", st);
    throw std::runtime_error(
        std::string("host.coalesce: Set Features (Interrupt Coalescing) failed with NVMe status 0x") + b);
  }
}

}  // namespace ssdvp
