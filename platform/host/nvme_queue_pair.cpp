// nvme_queue_pair.cpp - see nvme_queue_pair.h.
#include "host/nvme_queue_pair.h"

namespace ssdvp {

NvmeQueuePair::NvmeQueuePair(HostMemory& mem, Doorbells& bells, uint16_t qid, uint32_t entries)
    : mem_(&mem), bells_(&bells), qid_(qid), entries_(entries) {
  sq_ = mem.alloc(uint64_t(entries) * sizeof(nvme_sqe));
  cq_ = mem.alloc(uint64_t(entries) * sizeof(nvme_cqe));
}

NvmeQueuePair::NvmeQueuePair(HostMemory& mem, Doorbells& bells, uint16_t qid, uint32_t entries, uint64_t sq_addr,
                             uint64_t cq_addr)
    : mem_(&mem), bells_(&bells), qid_(qid), entries_(entries), sq_(sq_addr), cq_(cq_addr) {}

bool NvmeQueuePair::create(NvmeCtrl& nvme) const {
  return qid_ ? nvme.create_io_queue(qid_, sq_, cq_, entries_, HostMemory::kMsiBase)
              : nvme.create_admin_queue(sq_, cq_, entries_, HostMemory::kMsiBase);
}

nvme_sqe NvmeQueuePair::create_cq_command() const {
  nvme_sqe e{};
  e.cdw0 = NVME_ADMIN_CREATE_CQ;
  e.prp1 = cq_;
  e.cdw10 = (entries_ - 1) << 16 | qid_;          // QSIZE (0's based), QID
  e.cdw11 = uint32_t(qid_) << 16 | 1u << 1 | 1u;  // IV = qid, IEN, PC
  return e;
}

nvme_sqe NvmeQueuePair::create_sq_command(uint32_t qprio) const {
  nvme_sqe e{};
  e.cdw0 = NVME_ADMIN_CREATE_SQ;
  e.prp1 = sq_;
  e.cdw10 = (entries_ - 1) << 16 | qid_;
  e.cdw11 = uint32_t(qid_) << 16 | qprio << 1 | 1u;  // CQID, QPRIO, PC
  return e;
}

nvme_sqe NvmeQueuePair::delete_command(bool cq) const {
  nvme_sqe e{};
  e.cdw0 = cq ? NVME_ADMIN_DELETE_CQ : NVME_ADMIN_DELETE_SQ;
  e.cdw10 = qid_;
  return e;
}

void NvmeQueuePair::reset() {
  std::memset(mem_->data() + cq_, 0, uint64_t(entries_) * sizeof(nvme_cqe));
  sq_tail_ = cq_head_ = 0;
  phase_ = true;
  sq_dirty_ = cq_dirty_ = false;
}

}  // namespace ssdvp
