// looped.cpp - make_looped(): replays a workload several times or forever.
#include <stdexcept>

#include "workload.h"

namespace ssdvp::host {
namespace {

class LoopedWorkload final : public Workload {
 public:
  LoopedWorkload(std::unique_ptr<Workload> inner, uint64_t loops, uint64_t quiet_ps)
      : inner_(std::move(inner)), loops_(loops), quiet_(quiet_ps) {
    if (!inner_) throw std::invalid_argument("make_looped: no inner workload");
  }

  bool next(IoRequest& out) override {
    if (done_) return false;
    for (;;) {
      if (inner_->next(out)) {
        ++in_pass_;
        last_ = out.time_ps;
        if (out.time_ps > UINT64_MAX - offset_)
          throw TraceError(inner_->describe() + ": looped time passes 2^64 ps in pass " + std::to_string(pass_ + 1));
        out.time_ps += offset_;
        return true;
      }
      // End of a pass.
      if (in_pass_ == 0) {  // empty workload: looping would never yield anything
        done_ = true;
        return false;
      }
      if (!gap_known_) {
        gap_ = in_pass_ > 1 ? last_ / (in_pass_ - 1) : 0;
        gap_known_ = true;
      }
      ++pass_;
      if (loops_ != 0 && pass_ >= loops_) {
        done_ = true;
        return false;
      }
      // offset_ + last_ + gap_ + quiet_, each sum checked against 2^64
      if (gap_ > UINT64_MAX - last_ || quiet_ > UINT64_MAX - last_ - gap_ ||
          offset_ > UINT64_MAX - last_ - gap_ - quiet_)
        throw TraceError(inner_->describe() + ": looped time passes 2^64 ps in pass " + std::to_string(pass_ + 1));
      offset_ += last_ + gap_ + quiet_;
      in_pass_ = 0;
      last_ = 0;
      inner_->rewind();
    }
  }

  void rewind() override {
    inner_->rewind();
    pass_ = 0;
    offset_ = 0;
    in_pass_ = 0;
    last_ = 0;
    done_ = false;
  }

  std::string describe() const override {
    return inner_->describe() + ", looped " +
           (loops_ == 0 ? std::string("forever") : std::to_string(loops_) + " times") +
           (quiet_ ? ", " + std::to_string(quiet_) + " ps quiet between passes" : std::string());
  }

  const WorkloadStats& stats() const override { return inner_->stats(); }

 private:
  std::unique_ptr<Workload> inner_;
  uint64_t loops_;
  uint64_t quiet_;        // extra time between passes (workload.loop_gap)
  uint64_t pass_ = 0;     // completed passes
  uint64_t offset_ = 0;   // added to the inner times of the current pass
  uint64_t in_pass_ = 0;  // records of the current pass
  uint64_t last_ = 0;     // inner time of the last record of the current pass
  uint64_t gap_ = 0;      // mean inter-arrival time of the first pass
  bool gap_known_ = false;
  bool done_ = false;
};

}  // namespace

std::unique_ptr<Workload> make_looped(std::unique_ptr<Workload> inner, uint64_t loops, uint64_t quiet_ps) {
  return std::make_unique<LoopedWorkload>(std::move(inner), loops, quiet_ps);
}

}  // namespace ssdvp::host
