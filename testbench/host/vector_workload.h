// vector_workload.h - a Workload over a fixed list of requests, for the host
// tests that wrap a workload (oracle, stream predictor, stream log).
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "workload.h"

namespace ssdvp::host {

class VectorWorkload final : public Workload {
 public:
  explicit VectorWorkload(std::vector<IoRequest> r) : r_(std::move(r)) {}
  bool next(IoRequest& out) override {
    if (at_ >= r_.size()) return false;
    out = r_[at_++];
    return true;
  }
  void rewind() override { at_ = 0; }
  std::string describe() const override { return "vector"; }
  const WorkloadStats& stats() const override { return st_; }

 private:
  std::vector<IoRequest> r_;
  size_t at_ = 0;
  WorkloadStats st_;
};

}  // namespace ssdvp::host
