// gcdetect_bench.cpp - the GC detector's per-sample and per-I/O host work.
//
//   BM_GcDetect_Sample      items = samples: iostat -x fields from two
//                           counter snapshots, the 50-sample rolling average
//                           deviation, and one C4.5 classification (a tree
//                           of depth ~6 trained on synthetic data of the 34
//                           features)
//   BM_GcDetect_BlockStats  items = requests accounted (start + done)
#include <benchmark/benchmark.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <random>
#include <string>

#include "c45.h"
#include "iostat.h"

namespace {

using namespace ssdvp;

c45::Tree synthetic_tree() {
  // 34 continuous features; the class depends on a few thresholds.
  const std::string path = "/tmp/ssdvp_gcdetect_bench_" + std::to_string(::getpid()) + ".csv";
  {
    std::ofstream f(path);
    const auto names = gcdetect::feature_names();
    for (const auto& n : names) f << n << ',';
    f << "gc_frac\n";
    std::mt19937_64 rng(1);
    std::uniform_real_distribution<double> u(0, 1000);
    for (int i = 0; i < 3000; ++i) {
      double x[34];
      for (double& v : x) v = u(rng);
      const bool gc = (x[1] < 400 && x[7] > 200) || (x[12] > 900 && x[20] < 300) || x[30] < 50;
      for (double v : x) f << v << ',';
      f << (gc ? 1 : 0) << "\n";
    }
  }
  c45::Tree t = c45::Tree::train(c45::read_csv(path, "gc_frac", {}, 0.5));
  std::remove(path.c_str());
  return t;
}

void BM_GcDetect_Sample(benchmark::State& state) {
  const c45::Tree tree = synthetic_tree();
  gcdetect::BlockStats b;
  gcdetect::RollingDeviation dev(50);
  gcdetect::DiskCounters prev = b.snapshot(0);
  uint64_t now = 0;
  std::vector<double> feat(34);
  int gc = 0;
  for (auto _ : state) {
    // one sample's worth of counters (a few requests), then the sample itself
    for (int k = 0; k < 4; ++k) {
      b.start(now);
      now += 1000000000ull;
      b.done(gcdetect::kWrite, 512 * 1024, now - 1000000000ull, now);
    }
    const gcdetect::DiskCounters cur = b.snapshot(now);
    const auto f = gcdetect::iostat_fields(prev, cur, 100000000000ull);
    const auto d = dev.push(f);
    prev = cur;
    for (size_t i = 0; i < 17; ++i) {
      feat[i] = f[i];
      feat[17 + i] = d[i];
    }
    gc += tree.classify(feat.data());
  }
  benchmark::DoNotOptimize(gc);
  state.SetItemsProcessed(int64_t(state.iterations()));
  state.counters["tree_nodes"] = double(tree.size());
}
BENCHMARK(BM_GcDetect_Sample);

void BM_GcDetect_BlockStats(benchmark::State& state) {
  gcdetect::BlockStats b;
  uint64_t now = 0;
  for (auto _ : state) {
    b.start(now);
    now += 1000;
    b.done(gcdetect::kWrite, 4096, now - 1000, now);
    benchmark::DoNotOptimize(b);
    benchmark::ClobberMemory();
  }
  benchmark::DoNotOptimize(b.snapshot(now).ios[1]);
  state.SetItemsProcessed(int64_t(state.iterations()));
}
BENCHMARK(BM_GcDetect_BlockStats);

}  // namespace
