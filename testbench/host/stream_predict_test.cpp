// stream_predict_test.cpp - the host-side stream predictor: the LSTM's
// gradients against finite differences and its training on a known task,
// the 1-D K-Means against the firmware's kmeans2d, per-chunk feature
// capture, AutoStream's stream ranking, model-file checks, and the
// application workload generators (platform/host/workload/).
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <future>
#include <map>
#include <sstream>
#include <thread>
#include <vector>

#include <time.h>

#include "apps.h"
#include "common/config.h"
#include "hotness.h"
#include "lstm.h"
#include "random.h"
#include "stream_predict.h"
#include "vector_workload.h"

using namespace ssdvp::host;

namespace {

std::vector<Eigen::MatrixXd> random_seq(int k, int in, int batch, Xoshiro256& rng) {
  std::vector<Eigen::MatrixXd> xs(size_t(k), Eigen::MatrixXd(in, batch));
  for (auto& x : xs)
    for (int i = 0; i < in; ++i)
      for (int j = 0; j < batch; ++j) x(i, j) = rng.uniform() * 2 - 1;
  return xs;
}

TEST(Lstm, GradientMatchesFiniteDifferences) {
  Xoshiro256 rng(3);
  Lstm net(3, 4, 7);
  const auto xs = random_seq(4, 3, 5, rng);
  Eigen::VectorXd y(5);
  for (int i = 0; i < 5; ++i) y(i) = rng.uniform();
  Eigen::VectorXd g;
  net.loss(xs, y, &g);
  const Eigen::VectorXd p0 = net.params();
  ASSERT_EQ(size_t(g.size()), net.param_count());
  double worst = 0;
  for (Eigen::Index i = 0; i < p0.size(); ++i) {
    const double h = 1e-6;
    Eigen::VectorXd p = p0;
    p(i) += h;
    net.set_params(p);
    const double up = net.loss(xs, y, nullptr);
    p(i) -= 2 * h;
    net.set_params(p);
    const double down = net.loss(xs, y, nullptr);
    const double num = (up - down) / (2 * h);
    worst = std::max(worst, std::fabs(num - g(i)) / std::max(1e-3, std::fabs(num) + std::fabs(g(i))));
  }
  net.set_params(p0);
  EXPECT_LT(worst, 1e-5) << "largest relative difference between BPTT and finite differences";
}

// One chunk whose temperature follows a fixed cycle: the next value is a
// function of the last k, so the loss must fall far below that of guessing.
TEST(Lstm, TrainingLossFallsOnAFixedTemperatureCycle) {
  const std::vector<double> cycle = {0.0, 0.2, 0.9, 0.5, 0.1, 0.7};
  const int k = 5, B = (int)cycle.size();
  std::vector<Eigen::MatrixXd> xs(k, Eigen::MatrixXd(1, B));
  Eigen::VectorXd y(B);
  for (int s = 0; s < B; ++s) {  // every phase of the cycle is one sample
    for (int t = 0; t < k; ++t) xs[size_t(t)](0, s) = cycle[size_t((s + t) % B)];
    y(s) = cycle[size_t((s + k) % B)];
  }
  Lstm net(1, 8, 1);
  const double first = net.loss(xs, y, nullptr);
  double last = first;
  for (int i = 0; i < 1500; ++i) last = net.train_step(xs, y, 0.02);
  const double var = (y.array() - y.mean()).square().mean();
  EXPECT_LT(last, first / 20);
  EXPECT_LT(last, var / 20) << "the mean would give " << var;
  const Eigen::VectorXd out = net.forward(xs);
  for (int s = 0; s < B; ++s) EXPECT_NEAR(out(s), y(s), 0.1) << "phase " << s;
}

TEST(Lstm, SaveAndLoadGiveTheSameOutputs) {
  Xoshiro256 rng(5);
  Lstm a(2, 3, 9), b;
  const auto xs = random_seq(5, 2, 4, rng);
  std::stringstream ss;
  a.save(ss);
  ASSERT_TRUE(b.load(ss));
  EXPECT_LT((a.forward(xs) - b.forward(xs)).cwiseAbs().maxCoeff(), 1e-12);
  std::stringstream bad("2 3 0.5 nope");
  EXPECT_FALSE(b.load(bad));
}

TEST(KMeans1d, AgreesWithTheFirmwaresKmeans2dOnTheDiagonal) {
  Xoshiro256 rng(11);
  for (uint32_t k : {2u, 3u, 8u}) {
    std::vector<uint16_t> x(3000);
    for (auto& v : x) v = uint16_t(rng.uniform() < 0.7 ? rng.below(40) : 200 + rng.below(312));
    std::vector<uint8_t> lab1, lab2(x.size());
    const auto c1 = kmeans1d(x, k, 10, lab1);
    uint16_t cx[8], cy[8];
    uint32_t it = 0;
    ASSERT_EQ(kmeans2d(nullptr, x.data(), x.data(), uint32_t(x.size()), k, 10, lab2.data(), cx, cy, &it), KMEANS_OK);
    for (uint32_t c = 0; c < k; ++c) EXPECT_EQ(c1[c], cx[c]) << "k " << k << " centroid " << c;
    EXPECT_EQ(lab1, lab2) << "k " << k;
  }
}

TEST(Statistics, RankAndLinearCorrelation) {
  EXPECT_NEAR(spearman({1, 2, 3, 4}, {10, 20, 25, 1000}), 1.0, 1e-12);
  EXPECT_NEAR(spearman({1, 2, 3, 4}, {4, 3, 2, 1}), -1.0, 1e-12);
  EXPECT_LT(pearson({1, 2, 3, 4}, {10, 20, 25, 1000}), 0.9);      // not linear
  EXPECT_EQ(pearson({1, 1, 1}, {1, 2, 3}), 0.0);                  // constant side
  EXPECT_NEAR(spearman({0, 0, 1, 1}, {0, 0, 1, 1}), 1.0, 1e-12);  // ties
}

IoRequest req(IoOp op, uint64_t t_us, uint64_t lba, uint64_t n) {
  IoRequest r;
  r.op = op;
  r.time_ps = t_us * 1000000;
  r.offset = lba * 4096;
  r.length = n * 4096;
  return r;
}

TEST(FeatureCapture, RecordsOfOnePeriodMatchTheRequests) {
  FeatureCapture cap(100, 4096, 10);  // 10 LBAs per chunk
  cap.record(req(IoOp::write, 0, 0, 2));
  cap.record(req(IoOp::write, 1000, 2, 1));  // sequential after the first
  cap.record(req(IoOp::write, 3000, 0, 1));  // overwrite of LBA 0
  cap.record(req(IoOp::read, 3500, 50, 1));
  cap.record(req(IoOp::trim, 4000, 90, 2));
  std::vector<float> rec;
  cap.close_period(rec);
  auto f = [&](uint32_t chunk, const char* name) {
    for (int i = 0; i < kFeatureCount; ++i)
      if (std::string(kFeatureNames[size_t(i)]) == name) return rec[size_t(chunk) * kFeatureCount + size_t(i)];
    ADD_FAILURE() << name;
    return -1.0f;
  };
  EXPECT_EQ(f(0, "temperature"), 3);
  EXPECT_EQ(f(0, "write_kib"), 16);
  EXPECT_NEAR(f(0, "mean_write_kib"), 16.0 / 3, 1e-5);
  EXPECT_NEAR(f(0, "seq_fraction"), 1.0 / 3, 1e-6);
  EXPECT_NEAR(f(0, "mean_gap_ms"), 1.5, 1e-6);
  EXPECT_EQ(f(0, "distinct_lbas"), 3);
  EXPECT_NEAR(f(0, "overwrite_fraction"), 0.25, 1e-6);
  EXPECT_EQ(f(0, "write_ratio"), 1);
  EXPECT_EQ(f(5, "reads"), 1);
  EXPECT_EQ(f(5, "read_kib"), 4);
  EXPECT_EQ(f(5, "temperature"), 0);
  EXPECT_EQ(f(9, "trims"), 1);
  cap.record(req(IoOp::write, 6000000, 1, 1));  // next period: LBA 1 was written before
  cap.close_period(rec);
  EXPECT_EQ(f(0, "temperature"), 1);
  EXPECT_EQ(f(0, "overwrite_fraction"), 1);
  EXPECT_EQ(f(0, "distinct_lbas"), 1);
}

PredictSpec small_spec(const std::string& mode) {
  PredictSpec s;
  s.mode = mode;
  s.lbas = 1000;
  s.lba_size = 4096;
  s.chunks = 10;                   // 100 LBAs per chunk
  s.period_ps = 1000000000000ull;  // 1 s
  s.streams = 8;
  return s;
}

TEST(PredictedStreams, AutostreamRanksLastPeriodsHottestChunkFirst) {
  std::vector<IoRequest> v;
  for (int i = 0; i < 10; ++i) v.push_back(req(IoOp::write, 1000 * i, 5, 1));  // chunk 0: 10 writes
  v.push_back(req(IoOp::write, 20000, 150, 1));                                // chunk 1: one
  v.push_back(req(IoOp::write, 1500000, 7, 1));                                // period 1: chunk 0
  v.push_back(req(IoOp::write, 1500001, 155, 1));                              // chunk 1
  v.push_back(req(IoOp::write, 1500002, 550, 1));                              // chunk 5, not written last period
  auto w = make_predicted_streams(std::make_unique<VectorWorkload>(v), small_spec("autostream"));
  IoRequest r;
  std::vector<uint8_t> streams;
  while (w->next(r)) streams.push_back(r.stream);
  ASSERT_EQ(streams.size(), 14u);
  for (size_t i = 0; i < 11; ++i) EXPECT_EQ(streams[i], 8) << "nothing known in period 0: the coldest stream";
  EXPECT_EQ(streams[11], 1);
  // one write against ten: log scale 148 of 511, nearest the initial centroid
  // 146 of eight (kmeans2d's rules); clusters left empty keep their initial
  // centroids and their ranks, so the stream says how hot, not just the order
  EXPECT_EQ(streams[12], 6);
  EXPECT_EQ(streams[13], 8);
}

// A model file: the header line, then head (features, k, scales), then the weights.
void write_model(const std::string& path, const std::string& head, const Lstm& net) {
  std::ofstream o(path);
  o << "ssdvp-lstm-model 1\n" << head;
  net.save(o);
}

TEST(PredictedStreams, AModelFileNotMatchingTheConfiguredFeaturesIsRefused) {
  const std::string path = ::testing::TempDir() + "stream_model.txt";
  write_model(path, "features temperature,reads\nk 5\nscales 1 1 1\n", Lstm(2, 3, 1));
  PredictSpec s = small_spec("lstm");
  s.model_in = path;
  s.features = "temperature,write_kib";
  try {
    make_predicted_streams(std::make_unique<VectorWorkload>(std::vector<IoRequest>{}), s);
    FAIL() << "no error";
  } catch (const ssdvp::ConfigError& e) {
    EXPECT_NE(std::string(e.what()).find(path + ":2"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("temperature,reads"), std::string::npos) << e.what();
  }
  s.features = "temperature,reads";
  s.k = 4;
  EXPECT_THROW(make_predicted_streams(std::make_unique<VectorWorkload>(std::vector<IoRequest>{}), s),
               ssdvp::ConfigError);
  s.k = 5;
  EXPECT_NO_THROW(make_predicted_streams(std::make_unique<VectorWorkload>(std::vector<IoRequest>{}), s));
  {
    std::ofstream o(path);
    o << "not a model\n";
  }
  try {
    make_predicted_streams(std::make_unique<VectorWorkload>(std::vector<IoRequest>{}), s);
    FAIL() << "no error";
  } catch (const ssdvp::ConfigError& e) {
    EXPECT_NE(std::string(e.what()).find(path + ":1"), std::string::npos) << e.what();
  }
  std::remove(path.c_str());
}

// The LSTM's CPU cost: a model that predicts the same temperature for every
// chunk (all in the hottest stream) after AutoStream's first period, which
// left the chunks not written in period 1 in the coldest stream; so a write
// to such a chunk in period 2 says which assignment was in force.
struct CostRun {
  std::vector<uint8_t> streams;
  nlohmann::json summary;
};

PredictSpec constant_model_spec(const std::string& path, double ns_per_mac) {
  Lstm net(1, 2, 1);
  Eigen::VectorXd p = Eigen::VectorXd::Zero(Eigen::Index(net.param_count()));
  p(p.size() - 1) = 1;  // b_y = 1, every other weight 0: a constant output
  net.set_params(p);
  write_model(path, "features temperature\nk 2\nscales 1 1\n", net);
  PredictSpec s = small_spec("lstm");
  s.model_in = path;
  s.features = "temperature";
  s.k = 2;
  s.cpu_ns_per_mac = ns_per_mac;
  return s;
}

std::vector<IoRequest> cost_requests(const std::vector<uint64_t>& probe_us) {
  std::vector<IoRequest> v = {req(IoOp::write, 0, 0, 1), req(IoOp::write, 1000000, 0, 1),
                              req(IoOp::write, 2000000, 0, 1)};          // closes period 1: the LSTM's first prediction
  for (uint64_t t : probe_us) v.push_back(req(IoOp::write, t, 550, 1));  // chunk 5
  return v;
}

CostRun cost_run(double ns_per_mac, const std::vector<uint64_t>& probe_us) {
  // one file per test: ctest runs the tests of this file as parallel processes
  const std::string path = ::testing::TempDir() + "stream_cost_model_" +
                           ::testing::UnitTest::GetInstance()->current_test_info()->name() + ".txt";
  const PredictSpec s = constant_model_spec(path, ns_per_mac);
  auto w = make_predicted_streams(std::make_unique<VectorWorkload>(cost_requests(probe_us)), s);
  CostRun out;
  IoRequest r;
  while (w->next(r)) out.streams.push_back(r.stream);
  out.summary = predictor_summary(*w);
  std::remove(path.c_str());
  return out;
}

TEST(PredictedStreams, WithoutCpuCostTheLstmsClassesApplyAtThePeriodsEnd) {
  const CostRun r = cost_run(0, {2000000, 2000001});
  ASSERT_EQ(r.streams.size(), 5u);
  EXPECT_EQ(r.streams[3], 1) << "the constant prediction puts every chunk in the hottest stream at once";
  EXPECT_EQ(r.streams[4], 1);
  EXPECT_EQ(r.summary["cpu"]["total_s"].get<double>(), 0.0);
  EXPECT_EQ(r.summary["cpu"]["switch_delay_s_max"].get<double>(), 0.0);
  EXPECT_GT(r.summary["cpu"]["infer_macs"].get<uint64_t>(), 0u) << "MACs are counted even when free";
}

TEST(PredictedStreams, CpuCostDelaysTheSwitchByExactlyTheChargedTime) {
  // 10 chunks x (k 2 x 4H(I + H) + H) with I = 1, H = 2: 500 MACs a prediction
  const uint64_t macs = 10 * (2 * 4 * 2 * (1 + 2) + 2);
  ASSERT_EQ(Lstm::forward_macs(1, 2, 2, 10), macs);
  const double ns = 1000;  // 500 MACs: 500 us
  const CostRun r = cost_run(ns, {2000000, 2000499, 2000500, 2000501});
  ASSERT_EQ(r.streams.size(), 7u);
  EXPECT_EQ(r.streams[3], 8) << "at the period's end the old assignment (chunk 5 unwritten: coldest) holds";
  EXPECT_EQ(r.streams[4], 8) << "1 us before the inference finishes";
  EXPECT_EQ(r.streams[5], 1) << "when it finishes";
  EXPECT_EQ(r.streams[6], 1);
  const auto& cpu = r.summary["cpu"];
  EXPECT_EQ(cpu["infer_macs"].get<uint64_t>(), macs) << "one prediction so far (period 2 never closes)";
  EXPECT_EQ(cpu["train_macs"].get<uint64_t>(), 0u) << "a loaded model is not trained";
  EXPECT_DOUBLE_EQ(cpu["total_s"].get<double>(), double(macs) * ns * 1e-9) << "reported CPU = MACs x key";
  EXPECT_DOUBLE_EQ(cpu["infer_s"].get<double>(), double(macs) * ns * 1e-9);
  EXPECT_DOUBLE_EQ(cpu["switch_delay_s_max"].get<double>(), 500e-6);
  EXPECT_DOUBLE_EQ(cpu["core_share"].get<double>(), double(macs) * ns * 1e-9 / 2.0) << "2 periods of 1 s";
}

// The periods' work runs on the predictor's own thread: while the LSTM's first prediction (charged 500 us) is
// held back on that thread, the requests before it is due are answered, with the old assignment; the request
// at the due time waits for it and gets the new one: the same streams as a run whose work is never late.
TEST(PredictedStreams, RequestsBeforeAPredictionIsDueDoNotWaitForIt) {
  const std::string path = ::testing::TempDir() + "stream_async_model.txt";
  PredictSpec s = constant_model_spec(path, 1000);
  std::promise<void> release;
  std::shared_future<void> released = release.get_future().share();
  std::atomic<uint64_t> started{0};
  s.on_period_work = [&](uint64_t period) {
    started = period;
    if (period == 2) released.wait();  // the period whose work predicts, held back
  };
  auto w = make_predicted_streams(std::make_unique<VectorWorkload>(cost_requests({2000000, 2000499, 2000500})), s);
  std::vector<uint8_t> streams;
  const auto next_within = [&](const char* what) {  // one request, failing (not hanging) if it waits
    auto f = std::async(std::launch::async, [&] {
      IoRequest r;
      return w->next(r) ? int(r.stream) : -1;
    });
    if (f.wait_for(std::chrono::seconds(20)) != std::future_status::ready) {
      release.set_value();  // let it finish, then fail
      f.wait();
      ADD_FAILURE() << what << ": waited for the prediction held on the predictor's thread";
      return false;
    }
    streams.push_back(uint8_t(f.get()));
    return true;
  };
  for (const char* what : {"period 0", "period 1", "the request that closes periods 1 and 2",
                           "chunk 5 at period 2's end", "1 us before the prediction is due"})
    if (!next_within(what)) return;
  for (int i = 0; i < 20000 && started.load() != 2; ++i)  // the worker reaches period 2's work in its own time
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  EXPECT_EQ(started.load(), 2u) << "period 2's work had started and was held";
  release.set_value();
  IoRequest r;
  ASSERT_TRUE(w->next(r)) << "the request when the prediction is due";
  streams.push_back(r.stream);
  EXPECT_FALSE(w->next(r));
  std::remove(path.c_str());
  ASSERT_EQ(streams.size(), 6u);
  EXPECT_EQ(streams[3], 8) << "at period 2's end the old assignment (chunk 5 unwritten: coldest) holds";
  EXPECT_EQ(streams[4], 8);
  EXPECT_EQ(streams[5], 1) << "when the prediction is due, its assignment";
  EXPECT_EQ(streams, cost_run(1000, {2000000, 2000499, 2000500}).streams) << "as in a run whose work is never late";
}

// The report (host.predict.report): JSON that parses, saying which clock timed
// what; training and each period's prediction are the predictor thread's CPU
// time, which cannot exceed the process's CPU time over the whole run.
TEST(PredictedStreams, ReportTimesTrainingAndPredictionInThreadCpuTime) {
  const std::string path = ::testing::TempDir() + "stream_report.json";
  PredictSpec s = small_spec("lstm");
  s.k = 2;
  s.train_periods = 3;
  s.epochs = 2;
  s.report = path;
  std::vector<IoRequest> v;
  Xoshiro256 rng(7);
  for (uint64_t p = 0; p < 8; ++p)  // 8 periods of 1 s, 40 writes each over the 10 chunks
    for (uint64_t i = 0; i < 40; ++i) v.push_back(req(IoOp::write, p * 1000000 + i * 1000, rng.next() % 1000, 1));
  const auto process_cpu_ms = [] {
    timespec t{};
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return double(t.tv_sec) * 1e3 + double(t.tv_nsec) * 1e-6;
  };
  const double t0 = process_cpu_ms();
  {
    auto w = make_predicted_streams(std::make_unique<VectorWorkload>(v), s);
    IoRequest r;
    while (w->next(r)) {
    }
  }
  const double cpu_ms = process_cpu_ms() - t0;
  std::ifstream in(path);
  ASSERT_TRUE(in.good()) << path;
  const nlohmann::json j = nlohmann::json::parse(in);
  EXPECT_EQ(j["clocks"],
            nlohmann::json::parse(R"({"capture": "steady", "predict": "thread_cpu", "train": "thread_cpu"})"));
  EXPECT_EQ(j["trained_at_period"].get<int>(), 3);
  const double train_ms = 1e3 * j["train_cpu_s"].get<double>();
  EXPECT_GT(train_ms, 0) << "training did work";
  double predict_ms = 0, trained_period_ms = 0;
  ASSERT_EQ(j["per_period"].size(), 7u) << "periods 1-7 closed (the last one is still open when the trace ends)";
  for (const auto& p : j["per_period"]) {
    EXPECT_GE(p["predict_ms"].get<double>(), 0);
    EXPECT_GE(p["capture_ms"].get<double>(), 0);
    predict_ms += p["predict_ms"].get<double>();
    if (p["period"].get<int>() == 3) trained_period_ms = p["predict_ms"].get<double>();
  }
  EXPECT_LE(train_ms, trained_period_ms) << "the period that trained counts its training in its predict time";
  EXPECT_LE(predict_ms, cpu_ms) << "one thread's CPU time within the process's";
  std::remove(path.c_str());
}

TEST(Lstm, TrainStepMacsCountForwardBackwardAndAdam) {
  const int I = 4, H = 16, k = 5;
  const uint64_t B = 100, params = Lstm(I, H, 1).param_count();
  EXPECT_EQ(Lstm::forward_macs(I, H, k, B), B * (k * 4 * H * (I + H) + H));
  EXPECT_EQ(Lstm::train_step_macs(I, H, k, B),
            Lstm::forward_macs(I, H, k, B) + B * (2 * H + k * (4 * H * I + 8 * H * H)) + 3 * params);
}

// ---- application workloads ----------------------------------------------

AppSpec app(const std::string& kind) {
  AppSpec s;
  s.kind = kind;
  s.operations = 20000;
  s.iops = 1000;
  s.device_bytes = 256ull << 20;
  s.sst_bytes = 1u << 20;
  s.io_bytes = 64u << 10;
  return s;
}

std::vector<IoRequest> drain(Workload& w) {
  std::vector<IoRequest> v;
  IoRequest r;
  while (w.next(r)) v.push_back(r);
  return v;
}

TEST(AppWorkloads, StayInsideTheirFootprintAndRepeatAfterRewind) {
  for (const char* kind : {"fio", "rocksdb", "mysql", "rocksdb2"}) {
    AppSpec s = app(kind);
    auto w = make_app(s);
    const auto a = drain(*w);
    ASSERT_FALSE(a.empty()) << kind;
    const uint64_t limit = uint64_t(double(s.device_bytes) * s.footprint);
    uint64_t prev = 0;
    for (const auto& r : a) {
      EXPECT_LE(r.offset + r.length, limit) << kind;
      EXPECT_GE(r.time_ps, prev) << kind;
      prev = r.time_ps;
    }
    w->rewind();
    const auto b = drain(*w);
    ASSERT_EQ(a.size(), b.size()) << kind;
    for (size_t i = 0; i < a.size(); ++i)
      ASSERT_TRUE(a[i].offset == b[i].offset && a[i].op == b[i].op) << kind << " " << i;
  }
}

TEST(AppWorkloads, FioHotWindowTakesMostWritesAndMoves) {
  AppSpec s = app("fio");
  s.fio_jobs = 1;
  s.fio_shift_s = 5;
  auto v = drain(*make_app(s));
  // per 5 s: the busiest tenth of the area (in 1 MiB buckets) takes most writes, and it moves
  std::map<uint64_t, std::map<uint64_t, uint64_t>> per;  // window -> bucket -> writes
  for (const auto& r : v) per[r.time_ps / 5000000000000ull][r.offset >> 20]++;
  std::vector<uint64_t> top;
  for (auto& [win, buckets] : per) {
    std::vector<uint64_t> n;
    uint64_t total = 0, best = 0, best_bucket = 0;
    for (auto& [b, c] : buckets) n.push_back(c), total += c;
    for (auto& [b, c] : buckets)
      if (c > best) best = c, best_bucket = b;
    std::sort(n.rbegin(), n.rend());
    uint64_t hot = 0;
    for (size_t i = 0; i < n.size() && i < 23; ++i) hot += n[i];  // 10 % of 230 MiB
    EXPECT_GT(double(hot) / double(total), 0.7) << "window " << win;
    top.push_back(best_bucket);
  }
  ASSERT_GE(top.size(), 3u);
  EXPECT_NE(top[0], top[1]);
}

TEST(AppWorkloads, RocksdbFlushesCompactsAndTrimsWholeFiles) {
  auto v = drain(*make_app(app("rocksdb")));
  uint64_t reads = 0, trims = 0, big = 0;
  for (const auto& r : v) {
    reads += r.op == IoOp::read;
    trims += r.op == IoOp::trim;
    big += r.op == IoOp::write && r.length == 64u << 10;
    if (r.op == IoOp::trim) {
      EXPECT_EQ(r.length, 1u << 20);
    }
  }
  EXPECT_GT(big, 16u * 20);  // flushes and compactions of 1 MiB files in 64 KiB requests
  EXPECT_GT(reads, 100u);    // compactions read their inputs
  EXPECT_GT(trims, 20u);
}

TEST(AppWorkloads, MysqlRedoLogIsSequentialAndPagesHaveStableHotChunks) {
  AppSpec s = app("mysql");
  auto v = drain(*make_app(s));
  uint64_t redo_prev = UINT64_MAX, seq = 0, redo = 0;
  std::map<uint64_t, uint64_t> chunk_writes;
  uint64_t table = UINT64_MAX;  // the table space starts after the redo log
  for (const auto& r : v)
    if (r.op == IoOp::write && r.length != 4096) table = std::min(table, r.offset);
  for (const auto& r : v) {
    if (r.op != IoOp::write) continue;
    if (r.length == 4096) {
      if (redo_prev != UINT64_MAX) seq += r.offset == redo_prev + 4096 || r.offset == 0;
      redo_prev = r.offset;
      ++redo;
    } else {
      chunk_writes[(r.offset - table) >> 20]++;
    }
  }
  EXPECT_EQ(seq + 1, redo);
  std::vector<uint64_t> n;
  uint64_t total = 0;
  for (auto& [c, w] : chunk_writes) n.push_back(w), total += w;
  std::sort(n.rbegin(), n.rend());
  uint64_t hot = 0;
  for (size_t i = 0; i < n.size() / 8; ++i) hot += n[i];
  EXPECT_GT(double(hot) / double(total), 0.6);
}

}  // namespace
