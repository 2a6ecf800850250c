// swapped.cpp - make_swapped(): a trace's reads replayed as writes and its
// writes as reads (workload.swap_reads_writes), for a trace whose op code
// is read the other way by the study being compared with (the RAID-5 GC
// slides' DTRS row, docs/results/raid-hold.md).
#include <stdexcept>

#include "workload.h"

namespace ssdvp::host {
namespace {

class SwappedWorkload final : public Workload {
 public:
  explicit SwappedWorkload(std::unique_ptr<Workload> inner) : inner_(std::move(inner)) {
    if (!inner_) throw std::invalid_argument("make_swapped: no inner workload");
  }
  bool next(IoRequest& out) override {
    if (!inner_->next(out)) return false;
    if (out.op == IoOp::read)
      out.op = IoOp::write;
    else if (out.op == IoOp::write)
      out.op = IoOp::read;
    return true;
  }
  void rewind() override { inner_->rewind(); }
  std::string describe() const override { return inner_->describe() + ", reads and writes swapped"; }
  const WorkloadStats& stats() const override { return inner_->stats(); }  // (as the file has them)

 private:
  std::unique_ptr<Workload> inner_;
};

}  // namespace

std::unique_ptr<Workload> make_swapped(std::unique_ptr<Workload> inner) {
  return std::make_unique<SwappedWorkload>(std::move(inner));
}

}  // namespace ssdvp::host
