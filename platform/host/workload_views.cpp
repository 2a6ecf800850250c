// workload_views.cpp - see workload_views.h.
#include "host/workload_views.h"

namespace ssdvp {
namespace {

// Skips the first `skip` requests' time: the timed part starts at 0.
class Rebased : public host::Workload {
 public:
  explicit Rebased(host::Workload& inner) : in_(inner) {}
  bool next(host::IoRequest& r) override {
    if (!in_.next(r)) return false;
    if (!based_) {
      base_ = r.time_ps;
      based_ = true;
    }
    r.time_ps = r.time_ps >= base_ ? r.time_ps - base_ : 0;
    return true;
  }
  void rewind() override {
    in_.rewind();
    based_ = false;
  }
  std::string describe() const override { return in_.describe(); }
  const host::WorkloadStats& stats() const override { return in_.stats(); }

 private:
  host::Workload& in_;
  uint64_t base_ = 0;
  bool based_ = false;
};

class Delayed : public host::Workload {
 public:
  Delayed(host::Workload& inner, uint64_t d) : in_(inner), d_(d) {}
  bool next(host::IoRequest& r) override {
    if (!in_.next(r)) return false;
    r.time_ps += d_;
    return true;
  }
  void rewind() override { in_.rewind(); }
  std::string describe() const override { return in_.describe(); }
  const host::WorkloadStats& stats() const override { return in_.stats(); }

 private:
  host::Workload& in_;
  uint64_t d_;
};

}  // namespace

std::unique_ptr<host::Workload> make_rebased(host::Workload& inner) { return std::make_unique<Rebased>(inner); }

std::unique_ptr<host::Workload> make_delayed(host::Workload& inner, uint64_t delay_ps) {
  return std::make_unique<Delayed>(inner, delay_ps);
}

}  // namespace ssdvp
