// stream_log.cpp - see stream_log.h.
#include "stream_log.h"

#include <algorithm>
#include <cstdio>
#include <stdexcept>

#include "random.h"

namespace ssdvp::host {

namespace {

class StreamLog final : public Workload {
 public:
  StreamLog(std::unique_ptr<Workload> inner, const std::string& path) : in_(std::move(inner)), path_(path) {
    f_ = std::fopen(path.c_str(), "w");
    if (!f_) throw std::runtime_error("config key 'host.streams_log': cannot create '" + path + "'");
    if (std::fputs("time_ps,op,offset,length,stream\n", f_) < 0) fail();
  }
  ~StreamLog() override {
    if (f_) std::fclose(f_);
  }
  StreamLog(const StreamLog&) = delete;
  StreamLog& operator=(const StreamLog&) = delete;

  bool next(IoRequest& out) override {
    if (!in_->next(out)) {
      if (f_ && std::fflush(f_) != 0) fail();
      return false;
    }
    if (out.op == IoOp::write || out.op == IoOp::trim) {
      if (std::fprintf(f_, "%llu,%s,%llu,%llu,%u\n", static_cast<unsigned long long>(out.time_ps), to_string(out.op),
                       static_cast<unsigned long long>(out.offset), static_cast<unsigned long long>(out.length),
                       unsigned(out.stream)) < 0)
        fail();
    }
    return true;
  }
  void rewind() override { in_->rewind(); }  // a looped run records every pass, in order
  std::string describe() const override { return in_->describe() + ", streams logged to " + path_; }
  const WorkloadStats& stats() const override { return in_->stats(); }

 private:
  [[noreturn]] void fail() const {
    throw std::runtime_error("config key 'host.streams_log': cannot write '" + path_ + "'");
  }
  std::unique_ptr<Workload> in_;
  std::string path_;
  std::FILE* f_ = nullptr;
};

class RandomStreams final : public Workload {
 public:
  RandomStreams(std::unique_ptr<Workload> inner, uint32_t streams, uint64_t seed)
      : in_(std::move(inner)), streams_(streams), seed_(seed) {}
  bool next(IoRequest& out) override {
    if (!in_->next(out)) return false;
    if (out.op == IoOp::write) {
      uint64_t x = seed_ ^ (writes_++ * 0x9e3779b97f4a7c15ull);
      out.stream = uint8_t(1 + splitmix64(x) % streams_);
    }
    return true;
  }
  void rewind() override {
    in_->rewind();
    writes_ = 0;
  }
  std::string describe() const override { return in_->describe() + ", random streams 1.." + std::to_string(streams_); }
  const WorkloadStats& stats() const override { return in_->stats(); }

 private:
  std::unique_ptr<Workload> in_;
  uint32_t streams_;
  uint64_t seed_, writes_ = 0;
};

class RangeStreams final : public Workload {
 public:
  RangeStreams(std::unique_ptr<Workload> inner, std::vector<std::pair<uint64_t, uint64_t>> ranges, uint8_t stream,
               std::string what)
      : in_(std::move(inner)), ranges_(std::move(ranges)), stream_(stream), what_(std::move(what)) {
    std::sort(ranges_.begin(), ranges_.end());
  }
  bool next(IoRequest& out) override {
    if (!in_->next(out)) return false;
    if (out.op == IoOp::write) {
      // the last range beginning at or before the write's first byte
      auto it = std::upper_bound(ranges_.begin(), ranges_.end(), std::pair<uint64_t, uint64_t>{out.offset, UINT64_MAX});
      out.stream = it != ranges_.begin() && out.offset < std::prev(it)->second ? stream_ : 0;
    }
    return true;
  }
  void rewind() override { in_->rewind(); }
  std::string describe() const override {
    return in_->describe() + ", stream " + std::to_string(stream_) + " on writes into " + what_;
  }
  const WorkloadStats& stats() const override { return in_->stats(); }

 private:
  std::unique_ptr<Workload> in_;
  std::vector<std::pair<uint64_t, uint64_t>> ranges_;
  uint8_t stream_;
  std::string what_;
};

class FlushOrder final : public Workload {
 public:
  explicit FlushOrder(std::unique_ptr<Workload> inner) : in_(std::move(inner)) {}
  bool next(IoRequest& out) override {
    if (!in_->next(out)) return false;
    if (out.op == IoOp::flush || after_flush_) out.flags |= kIoBarrier;
    after_flush_ = out.op == IoOp::flush;
    return true;
  }
  void rewind() override {
    in_->rewind();
    after_flush_ = false;
  }
  std::string describe() const override { return in_->describe() + ", flushes ordered"; }
  const WorkloadStats& stats() const override { return in_->stats(); }

 private:
  std::unique_ptr<Workload> in_;
  bool after_flush_ = false;
};

}  // namespace

std::unique_ptr<Workload> make_range_streams(std::unique_ptr<Workload> inner,
                                             std::vector<std::pair<uint64_t, uint64_t>> ranges, uint8_t stream,
                                             const std::string& what) {
  if (stream == 0) throw std::invalid_argument("range streams: stream must be >= 1");
  if (ranges.empty()) throw std::invalid_argument("range streams: no ranges");
  return std::make_unique<RangeStreams>(std::move(inner), std::move(ranges), stream, what);
}

std::unique_ptr<Workload> make_flush_order(std::unique_ptr<Workload> inner) {
  return std::make_unique<FlushOrder>(std::move(inner));
}

std::unique_ptr<Workload> make_random_streams(std::unique_ptr<Workload> inner, uint32_t streams, uint64_t seed) {
  if (streams == 0 || streams > 255) throw std::invalid_argument("random streams: streams must be in [1, 255]");
  return std::make_unique<RandomStreams>(std::move(inner), streams, seed);
}

std::unique_ptr<Workload> make_stream_log(std::unique_ptr<Workload> inner, const std::string& path) {
  return std::make_unique<StreamLog>(std::move(inner), path);
}

}  // namespace ssdvp::host
