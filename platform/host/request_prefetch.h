// request_prefetch.h - the requests a replaying thread reads ahead.
//
// A workload is read by an SC_METHOD (the kernel's own stack) into this
// buffer, never on a thread's coroutine stack: parsing errors are exceptions,
// and an exception thrown on a coroutine stack defeats AddressSanitizer's
// bookkeeping. The owner's method calls fill(); its thread, when need() says
// so, notifies that method and waits for it, then pop()s.
#pragma once

#include <deque>
#include <exception>

#include "workload.h"

namespace ssdvp {

class RequestPrefetch {
 public:
  static constexpr size_t kDepth = 4096;
  // Requests read ahead at most (default kDepth); a feedback-driven workload
  // (the file-level host's TRIMs) wants 1.
  void set_depth(size_t n) { depth_ = n ? n : 1; }
  // Reads up to depth requests ahead; keeps an exception the workload throws.
  void fill(host::Workload* w) {
    try {
      host::IoRequest io;
      while (q_.size() < depth_ && !end_) {
        if (w && w->next(io))
          q_.push_back(io);
        else
          end_ = true;
      }
    } catch (...) {
      error_ = std::current_exception();
      end_ = true;
      q_.clear();
    }
  }
  bool need() const { return q_.empty() && !end_; }
  bool pop(host::IoRequest& io) {
    if (error_ || q_.empty()) return false;
    io = q_.front();
    q_.pop_front();
    return true;
  }
  std::exception_ptr error() const { return error_; }

 private:
  std::deque<host::IoRequest> q_;
  size_t depth_ = kDepth;
  bool end_ = false;
  std::exception_ptr error_;
};

}  // namespace ssdvp
