// predict_bench.cpp - the host-side stream predictor's cost per period
// (docs/results/streams.md): feature capture per request, and at a period
// boundary the close of 10,000 chunk records, the LSTM's inference over all
// chunks (k = 5, 4 features, 16 hidden units) and the 1-D K-Means into 8
// streams.
//
//   BM_FeatureCapture_Record     items = requests recorded (4 KiB writes, random LBAs)
//   BM_FeatureCapture_Close      items = chunk records closed (10,000 a period)
//   BM_Lstm_Infer                items = chunks predicted (batches of 1,000);
//                                counter ns_per_mac: ns per Lstm::forward_macs
//                                multiply-accumulate, the measurement behind
//                                host.predict.cpu_ns_per_mac's default
//   BM_Lstm_TrainStep            items = samples trained (batches of 100);
//                                ns_per_mac per Lstm::train_step_macs
//   BM_Kmeans1d                  items = chunks clustered (10,000 into 8)
#include <benchmark/benchmark.h>

#include <vector>

#include "lstm.h"
#include "random.h"
#include "stream_predict.h"

namespace {

using namespace ssdvp::host;
constexpr uint64_t kLbas = 896ull << 8;  // 896 MiB of 4 KiB LBAs

void BM_FeatureCapture_Record(benchmark::State& state) {
  FeatureCapture cap(kLbas, 4096, 10000);
  Xoshiro256 rng(1);
  std::vector<IoRequest> v(1 << 14);
  for (size_t i = 0; i < v.size(); ++i) {
    v[i].op = IoOp::write;
    v[i].offset = rng.below(kLbas) * 4096;
    v[i].length = 4096;
    v[i].time_ps = i * 200000000ull;
  }
  size_t i = 0;
  for (auto _ : state) {
    cap.record(v[i]);
    i = (i + 1) & (v.size() - 1);
  }
  state.SetItemsProcessed(int64_t(state.iterations()));
}
BENCHMARK(BM_FeatureCapture_Record);

void BM_FeatureCapture_Close(benchmark::State& state) {
  FeatureCapture cap(kLbas, 4096, 10000);
  std::vector<float> rec;
  for (auto _ : state) {
    cap.close_period(rec);
    benchmark::DoNotOptimize(rec.data());
  }
  state.SetItemsProcessed(int64_t(state.iterations()) * 10000);
}
BENCHMARK(BM_FeatureCapture_Close);

void BM_Lstm_Infer(benchmark::State& state) {
  Lstm net(4, 16, 1);
  Xoshiro256 rng(2);
  std::vector<Eigen::MatrixXd> xs(5, Eigen::MatrixXd(4, 1000));
  for (auto& x : xs)
    for (Eigen::Index i = 0; i < x.size(); ++i) x(i) = rng.uniform();
  for (auto _ : state) benchmark::DoNotOptimize(net.forward(xs).sum());
  state.SetItemsProcessed(int64_t(state.iterations()) * 1000);
  state.counters["ns_per_mac"] =
      benchmark::Counter(double(Lstm::forward_macs(4, 16, 5, 1000)) * 1e-9,
                         benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
}
BENCHMARK(BM_Lstm_Infer);

void BM_Lstm_TrainStep(benchmark::State& state) {
  Lstm net(4, 16, 1);
  Xoshiro256 rng(2);
  std::vector<Eigen::MatrixXd> xs(5, Eigen::MatrixXd(4, 100));
  for (auto& x : xs)
    for (Eigen::Index i = 0; i < x.size(); ++i) x(i) = rng.uniform();
  Eigen::VectorXd y(100);
  for (Eigen::Index i = 0; i < y.size(); ++i) y(i) = rng.uniform();
  for (auto _ : state) benchmark::DoNotOptimize(net.train_step(xs, y, 1e-6));
  state.SetItemsProcessed(int64_t(state.iterations()) * 100);
  state.counters["ns_per_mac"] =
      benchmark::Counter(double(Lstm::train_step_macs(4, 16, 5, 100)) * 1e-9,
                         benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
}
BENCHMARK(BM_Lstm_TrainStep);

void BM_Kmeans1d(benchmark::State& state) {
  Xoshiro256 rng(3);
  std::vector<uint16_t> x(10000);
  for (auto& v : x) v = uint16_t(rng.uniform() < 0.8 ? rng.below(60) : rng.below(512));
  std::vector<uint8_t> lab;
  for (auto _ : state) benchmark::DoNotOptimize(kmeans1d(x, 8, 10, lab).data());
  state.SetItemsProcessed(int64_t(state.iterations()) * 10000);
}
BENCHMARK(BM_Kmeans1d);

}  // namespace
