// leading_discards.cpp - make_without_leading_discards(): a trace's discards
// before its first write dropped (workload.leading_discards: drop). A
// recording of a file system starts with mkfs's discard of the whole device
// (mke2fs's default); dropping it replays the file system as made with
// nodiscard on a used drive, whose old data stays valid until overwritten or
// trimmed (docs/traces.md, "Leading discards").
#include <stdexcept>

#include "workload.h"

namespace ssdvp::host {
namespace {

class WithoutLeadingDiscards final : public Workload {
 public:
  explicit WithoutLeadingDiscards(std::unique_ptr<Workload> inner) : inner_(std::move(inner)) {
    if (!inner_) throw std::invalid_argument("make_without_leading_discards: no inner workload");
  }
  bool next(IoRequest& out) override {
    while (inner_->next(out)) {
      if (out.op == IoOp::trim && !written_) {
        ++dropped_;
        dropped_bytes_ += out.length;
        continue;
      }
      written_ = written_ || out.op == IoOp::write;
      return true;
    }
    return false;
  }
  void rewind() override {  // each pass starts with the file system made again
    inner_->rewind();
    written_ = false;
  }
  std::string describe() const override { return inner_->describe() + ", discards before the first write dropped"; }
  // The inner trace's counts without the dropped discards (counted as skipped).
  const WorkloadStats& stats() const override {
    stats_ = inner_->stats();
    stats_.records -= dropped_;
    stats_.trims -= dropped_;
    stats_.trim_bytes -= dropped_bytes_;
    stats_.skipped_dropped = dropped_;
    return stats_;
  }

 private:
  std::unique_ptr<Workload> inner_;
  bool written_ = false;
  uint64_t dropped_ = 0, dropped_bytes_ = 0;
  mutable WorkloadStats stats_;
};

}  // namespace

std::unique_ptr<Workload> make_without_leading_discards(std::unique_ptr<Workload> inner) {
  return std::make_unique<WithoutLeadingDiscards>(std::move(inner));
}

}  // namespace ssdvp::host
