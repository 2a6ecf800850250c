// stream_predict.h - host-side stream assignment from predicted chunk
// temperatures (the LSTM stream-prediction paper, docs/results/streams.md).
//
// FeatureCapture (the paper's StoneNeedle): the namespace is cut into
// `chunks` equal chunks; every period each chunk gets a record of
// kFeatureCount features (kFeatureNames): temperature (write requests in the
// period, the paper's definition) first.
//
// The wrapper (make_predicted_streams) passes the workload through, captures
// every request, and at each period boundary (request timestamps) predicts
// every chunk's temperature next period, clusters the predictions with a
// 1-D K-Means (kmeans1d: the firmware's kmeans2d rules on one axis) into
// `streams` groups ranked hottest (stream 1) to coldest, and tags each write
// with its chunk's stream.
//   autostream: T'(t+1) = T(t)
//   lstm:       an LSTM (lstm.h) over the last k records of the selected
//               features; trained by BPTT + Adam on the first train_periods
//               periods (AutoStream's prediction is used meanwhile), or
//               loaded from a model file
// Both predictions are scored every period against the real temperature
// (MAE, Spearman rank correlation); the report (JSON) holds the scores, the
// Pearson correlation of every feature with next-period temperature, the
// selected features, and host CPU time per period.
//
// CPU cost (simulated, deterministic): the LSTM's multiply-accumulates of a
// period (training, when it trains then, and inference over every chunk) at
// cpu_ns_per_mac (inference) and cpu_ns_per_train_mac on one host core, which runs one period's work at a time:
// the work of period p starts at max(p's end, when p-1's work finished), and
// the streams it assigns take effect for writes from when it finishes (until
// then the previous assignment stays). AutoStream's rule costs no MACs.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "workload.h"

namespace ssdvp {
class Config;
}

namespace ssdvp::host {

constexpr int kFeatureCount = 11;
extern const std::array<const char*, kFeatureCount> kFeatureNames;

class FeatureCapture {
 public:
  FeatureCapture(uint64_t lbas, uint32_t lba_size, uint32_t chunks);
  uint32_t chunks() const { return chunks_; }
  uint32_t chunk_of(uint64_t offset) const;
  void record(const IoRequest& r);
  // Closes the period: out gets chunks x kFeatureCount values, row major.
  void close_period(std::vector<float>& out);

 private:
  struct Acc {
    uint32_t writes = 0, reads = 0, trims = 0, seq = 0, distinct = 0, overwrites = 0, gaps = 0;
    uint64_t wbytes = 0, rbytes = 0, wlbas = 0, next_lba = UINT64_MAX, last_ps = 0;
    double gap_sum_ps = 0;
  };
  uint64_t lbas_;
  uint32_t lba_size_, chunks_;
  uint16_t period_ = 1;          // stamp of the current period (never 0)
  std::vector<uint16_t> stamp_;  // per LBA: period of its last write (0: never written)
  std::vector<Acc> acc_;
};

// 1-D K-Means with kmeans2d's rules: values in 0..511, initial centroids
// i * 511 / (k - 1), ties to the lower index, integer means, stop when no
// label changes or after max_iter. Returns centroids; labels filled.
std::vector<uint16_t> kmeans1d(const std::vector<uint16_t>& x, uint32_t k, uint32_t max_iter,
                               std::vector<uint8_t>& labels);

// Spearman rank correlation (average ranks for ties); 0 if a side is constant.
double spearman(const std::vector<double>& a, const std::vector<double>& b);
double pearson(const std::vector<double>& a, const std::vector<double>& b);

struct PredictSpec {
  std::string mode = "autostream";  // autostream or lstm
  uint32_t chunks = 10000;
  uint64_t period_ps = 5000000000000ull;
  uint32_t streams = 8;
  uint32_t k = 5;        // records per LSTM input sequence
  uint32_t batch = 100;  // chunks per training batch
  uint32_t hidden = 16;
  uint32_t select = 4;            // features kept by Pearson correlation
  std::string features = "auto";  // or a comma-separated list of feature names
  uint32_t train_periods = 12;
  uint32_t epochs = 10;
  uint64_t max_samples = 20000;
  double lr = 0.01;
  uint64_t seed = 1;
  // Host CPU time charged per LSTM multiply-accumulate of inference
  // (Lstm::forward_macs) and of training (train_step_macs); the classes a
  // period's prediction gives take effect when that work would have finished
  // on one core (both 0: at the period's end).
  double cpu_ns_per_mac = 0, cpu_ns_per_train_mac = 0;
  std::string model_in, model_out, report;
  uint64_t lbas = 0;
  uint32_t lba_size = 4096;
  // Tests only: called on the predictor's own thread as each period's work starts (its argument: the
  // period), e.g. to hold the work back and show that requests do not wait for it.
  std::function<void(uint64_t)> on_period_work;

  static PredictSpec from_config(ssdvp::Config& cfg, uint64_t lbas, uint32_t lba_size, uint32_t classes);
};

std::unique_ptr<Workload> make_predicted_streams(std::unique_ptr<Workload> inner, const PredictSpec& spec);

// The headline of a predicted-streams workload's report (host.predict.report
// has it all): periods, when the LSTM was trained and on how many samples, each
// predictor's mean absolute error and rank correlation against the next
// period's real temperature, and the simulated CPU cost (MACs, seconds, share
// of one core, how late the classes switched); the wall-clock times of the
// simulator's own predictor are in the report only. Null for any other workload.
nlohmann::json predictor_summary(const Workload& w);

}  // namespace ssdvp::host
