// stream_predict.cpp - see stream_predict.h.
#include "stream_predict.h"

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <deque>
#include <exception>
#include <filesystem>
#include <cmath>
#include <fstream>
#include <iostream>
#include <mutex>
#include <numeric>
#include <sstream>
#include <stdexcept>
#include <thread>

#include <time.h>

#include "common/config.h"
#include "lstm.h"
#include "random.h"

namespace ssdvp::host {

const std::array<const char*, kFeatureCount> kFeatureNames = {
    "temperature", "reads",         "write_kib",          "read_kib", "mean_write_kib", "seq_fraction",
    "mean_gap_ms", "distinct_lbas", "overwrite_fraction", "trims",    "write_ratio"};

// ---- feature capture -------------------------------------------------------

FeatureCapture::FeatureCapture(uint64_t lbas, uint32_t lba_size, uint32_t chunks)
    : lbas_(lbas),
      lba_size_(lba_size),
      chunks_(uint32_t(std::min<uint64_t>(chunks, lbas))),
      stamp_(lbas, 0),
      acc_(chunks_) {}

uint32_t FeatureCapture::chunk_of(uint64_t offset) const {
  const uint64_t lba = (offset / lba_size_) % lbas_;
  return uint32_t((unsigned __int128)lba * chunks_ / lbas_);
}

void FeatureCapture::record(const IoRequest& r) {
  if (r.op == IoOp::flush || r.length == 0) return;
  const uint64_t first = (r.offset / lba_size_) % lbas_;
  const uint64_t n =
      std::min<uint64_t>((r.offset + r.length + lba_size_ - 1) / lba_size_ - r.offset / lba_size_, lbas_);
  uint32_t last_chunk = UINT32_MAX;
  for (uint64_t i = 0; i < n; ++i) {
    const uint64_t lba = (first + i) % lbas_;
    const uint32_t c = uint32_t((unsigned __int128)lba * chunks_ / lbas_);
    Acc& a = acc_[c];
    const bool new_chunk = c != last_chunk;
    last_chunk = c;
    switch (r.op) {
      case IoOp::write:
        if (new_chunk) {
          if (a.writes) {
            a.gap_sum_ps += double(r.time_ps - std::min(r.time_ps, a.last_ps));
            a.gaps++;
          }
          a.seq += a.next_lba == lba;
          a.writes++;
          a.last_ps = r.time_ps;
        }
        a.wbytes += lba_size_;
        a.wlbas++;
        a.distinct += stamp_[lba] != period_;
        a.overwrites += stamp_[lba] != 0;
        stamp_[lba] = period_;
        a.next_lba = lba + 1;
        break;
      case IoOp::read:
        if (new_chunk) a.reads++;
        a.rbytes += lba_size_;
        break;
      case IoOp::trim:
        if (new_chunk) a.trims++;
        stamp_[lba] = 0;
        break;
      default: break;
    }
  }
}

void FeatureCapture::close_period(std::vector<float>& out) {
  out.assign(size_t(chunks_) * kFeatureCount, 0.0f);
  for (uint32_t c = 0; c < chunks_; ++c) {
    const Acc& a = acc_[c];
    float* f = &out[size_t(c) * kFeatureCount];
    f[0] = float(a.writes);
    f[1] = float(a.reads);
    f[2] = float(double(a.wbytes) / 1024);
    f[3] = float(double(a.rbytes) / 1024);
    f[4] = a.writes ? float(double(a.wbytes) / 1024 / a.writes) : 0.0f;
    f[5] = a.writes ? float(double(a.seq) / a.writes) : 0.0f;
    f[6] = a.gaps ? float(a.gap_sum_ps / a.gaps * 1e-9) : 0.0f;
    f[7] = float(a.distinct);
    f[8] = a.wlbas ? float(double(a.overwrites) / double(a.wlbas)) : 0.0f;
    f[9] = float(a.trims);
    f[10] = a.writes + a.reads ? float(double(a.writes) / (a.writes + a.reads)) : 0.0f;
  }
  std::fill(acc_.begin(), acc_.end(), Acc{});
  if (++period_ == 0) {  // stamps wrapped: keep "written before" only
    for (auto& s : stamp_)
      if (s) s = 1;
    period_ = 2;
  }
}

// ---- clustering and statistics -------------------------------------------

std::vector<uint16_t> kmeans1d(const std::vector<uint16_t>& x, uint32_t k, uint32_t max_iter,
                               std::vector<uint8_t>& labels) {
  std::vector<uint16_t> cx(k);
  for (uint32_t c = 0; c < k; ++c) cx[c] = k <= 1 ? 0 : uint16_t(c * 511u / (k - 1));
  labels.assign(x.size(), uint8_t(k));
  for (uint32_t it = 0; it < max_iter; ++it) {
    std::vector<uint64_t> sum(k, 0), cnt(k, 0);
    uint64_t changed = 0;
    for (size_t i = 0; i < x.size(); ++i) {
      uint32_t best = 0, bestd = UINT32_MAX;
      for (uint32_t c = 0; c < k; ++c) {
        const int32_t d = int32_t(x[i]) - cx[c];
        const uint32_t dd = uint32_t(d * d);
        if (dd < bestd) {
          bestd = dd;
          best = c;
        }
      }
      changed += labels[i] != best;
      labels[i] = uint8_t(best);
      sum[best] += x[i];
      cnt[best]++;
    }
    for (uint32_t c = 0; c < k; ++c)
      if (cnt[c]) cx[c] = uint16_t(sum[c] / cnt[c]);
    if (!changed) break;
  }
  return cx;
}

double pearson(const std::vector<double>& a, const std::vector<double>& b) {
  const size_t n = std::min(a.size(), b.size());
  if (n < 2) return 0;
  double ma = 0, mb = 0;
  for (size_t i = 0; i < n; ++i) ma += a[i], mb += b[i];
  ma /= double(n), mb /= double(n);
  double sab = 0, saa = 0, sbb = 0;
  for (size_t i = 0; i < n; ++i) {
    sab += (a[i] - ma) * (b[i] - mb);
    saa += (a[i] - ma) * (a[i] - ma);
    sbb += (b[i] - mb) * (b[i] - mb);
  }
  return saa > 0 && sbb > 0 ? sab / std::sqrt(saa * sbb) : 0;
}

static std::vector<double> ranks(const std::vector<double>& v) {
  std::vector<size_t> idx(v.size());
  std::iota(idx.begin(), idx.end(), 0);
  std::sort(idx.begin(), idx.end(), [&](size_t i, size_t j) { return v[i] < v[j]; });
  std::vector<double> r(v.size());
  for (size_t i = 0; i < idx.size();) {
    size_t j = i;
    while (j + 1 < idx.size() && v[idx[j + 1]] == v[idx[i]]) ++j;
    for (size_t m = i; m <= j; ++m) r[idx[m]] = 0.5 * double(i + j);
    i = j + 1;
  }
  return r;
}

double spearman(const std::vector<double>& a, const std::vector<double>& b) { return pearson(ranks(a), ranks(b)); }

// ---- the spec -------------------------------------------------------------

PredictSpec PredictSpec::from_config(ssdvp::Config& cfg, uint64_t lbas, uint32_t lba_size, uint32_t classes) {
  const std::string p = "host.predict.";
  PredictSpec s;
  s.chunks = uint32_t(cfg.get_u64(p + "chunks"));
  s.period_ps = cfg.get_time_ps(p + "period");
  if (s.period_ps == 0) throw ConfigError("config key 'host.predict.period': must be positive");
  s.streams = uint32_t(cfg.get_u64(p + "streams", std::min<uint32_t>(8, classes)));
  if (s.streams > classes)
    throw ConfigError("config key 'host.predict.streams': " + std::to_string(s.streams) +
                      " streams but ftl.hot.classes is " + std::to_string(classes));
  s.k = uint32_t(cfg.get_u64(p + "k"));
  s.batch = uint32_t(cfg.get_u64(p + "batch"));
  s.hidden = uint32_t(cfg.get_u64(p + "hidden"));
  s.select = uint32_t(cfg.get_u64(p + "select"));
  s.features = cfg.get_string(p + "features");
  s.train_periods = uint32_t(cfg.get_u64(p + "train_periods"));
  s.epochs = uint32_t(cfg.get_u64(p + "epochs"));
  s.max_samples = cfg.get_u64(p + "max_samples");
  s.lr = cfg.get_double(p + "learning_rate");
  s.seed = cfg.get_u64(p + "seed");
  s.cpu_ns_per_mac = cfg.get_double(p + "cpu_ns_per_mac");
  s.cpu_ns_per_train_mac = cfg.get_double(p + "cpu_ns_per_train_mac");
  s.model_in = cfg.get_string(p + "model");
  s.model_out = cfg.get_string(p + "model_out");
  s.report = cfg.get_string(p + "report");
  if (s.k + 1 >= s.train_periods)
    throw ConfigError("config key 'host.predict.train_periods': must exceed host.predict.k + 1");
  s.lbas = lbas;
  s.lba_size = lba_size;
  return s;
}

// ---- the wrapper ------------------------------------------------------------

namespace {

using Clock = std::chrono::steady_clock;
double secs(Clock::duration d) { return std::chrono::duration<double>(d).count(); }

// CPU seconds the calling thread has used. Training and each period's prediction are timed with it, so
// their cost does not grow with the machine's load as wall time does; the per-request capture is timed with
// the steady clock, which is cheap enough to read twice per request (the thread's CPU clock is a system call).
double thread_cpu_s() {
  timespec t{};
  if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t) != 0) return 0;
  return double(t.tv_sec) + double(t.tv_nsec) * 1e-9;
}

std::vector<int> parse_features(const std::string& list, const std::string& where) {
  std::vector<int> out;
  std::stringstream ss(list);
  std::string name;
  while (std::getline(ss, name, ',')) {
    name.erase(0, name.find_first_not_of(" \t"));
    name.erase(name.find_last_not_of(" \t") + 1);
    auto it = std::find_if(kFeatureNames.begin(), kFeatureNames.end(), [&](const char* n) { return name == n; });
    if (it == kFeatureNames.end()) {
      std::string all;
      for (const char* n : kFeatureNames) all += std::string(all.empty() ? "" : ", ") + n;
      throw ConfigError(where + ": unknown feature '" + name + "' (features: " + all + ")");
    }
    out.push_back(int(it - kFeatureNames.begin()));
  }
  if (out.empty()) throw ConfigError(where + ": no features");
  return out;
}

std::string feature_list(const std::vector<int>& f) {
  std::string s;
  for (int i : f) s += std::string(s.empty() ? "" : ",") + kFeatureNames[size_t(i)];
  return s;
}

// The periods' work (scoring, training, prediction, the clustering into streams) runs on a thread of its own,
// in period order: the host core the simulated host is charged for. The simulation thread only closes a
// period's feature record and hands it over. A period's streams apply at the first request at or after the
// simulated time its work finishes on that core (the later of the period's end and the previous period's
// work, plus its charged CPU time), whether the thread got there early or late, so every run makes the same
// assignments. The simulation waits for the thread only when a request reaches that time first: a prediction
// charged more than it takes (host.predict.cpu_ns_per_mac) never holds a request up, which matters in a live
// run (nbd.time: paced), where the simulation thread's wall time is the application's.
class PredictedStreams final : public Workload {
 public:
  PredictedStreams(std::unique_ptr<Workload> inner, const PredictSpec& s) : in_(std::move(inner)), s_(s) {
    if (s_.mode == "lstm" && !s_.model_in.empty()) load_model();
    // the network's shape, known before training picks the features: a period's cost is known before its work
    // runs, unless it trains
    sel_count_ = loaded_                 ? sel_.size()
                 : s_.features == "auto" ? size_t(s_.select)
                                         : parse_features(s_.features, "config key 'host.predict.features'").size();
    hidden_ = loaded_ ? uint32_t(net_.hidden()) : s_.hidden;
    reset();
  }
  ~PredictedStreams() override {
    try {
      write_report();
    } catch (...) {
    }
    {
      std::lock_guard<std::mutex> l(mu_);
      stop_ = true;
    }
    cv_.notify_all();
    if (worker_.joinable()) worker_.join();
  }
  bool next(IoRequest& out) override {
    if (!in_->next(out)) {
      settle();
      write_report();
      return false;
    }
    const uint64_t p = out.time_ps / s_.period_ps;
    while (p > period_) close_period();
    apply_due(out.time_ps);
    const auto t0 = Clock::now();
    cap_->record(out);
    if (out.op == IoOp::write) out.stream = uint8_t(stream_[cap_->chunk_of(out.offset)]);
    capture_s_ += secs(Clock::now() - t0);
    return true;
  }
  void rewind() override {
    in_->rewind();
    settle();
    reset();
  }
  std::string describe() const override { return in_->describe() + ", " + s_.mode + " streams"; }
  const WorkloadStats& stats() const override { return in_->stats(); }

 private:
  struct Row {
    uint64_t period = 0;
    uint64_t train_macs = 0, infer_macs = 0, cpu_ps = 0, switch_delay_ps = 0;  // simulated host CPU
    double writes = 0, auto_mae = 0, auto_rho = 0, lstm_mae = 0, lstm_rho = 0, capture_s = 0, predict_s = 0;
    bool lstm_scored = false;
  };
  // One period's work: its feature record in, its row and streams out (the worker writes them; the
  // simulation thread reads them once done is set under mu_).
  struct Job {
    uint64_t end_ps = 0;
    bool trains = false;         // its cost is known only once it has run
    uint64_t known_cost_ps = 0;  // otherwise: its cost, before it runs
    std::vector<float> rec;
    Row row;
    std::vector<uint32_t> streams;
    std::exception_ptr error;
    bool done = false;
  };

  // simulated host CPU time of training and inference MACs at the configured rates
  uint64_t cost_ps(uint64_t train_macs, uint64_t infer_macs) const {
    return uint64_t(std::llround(double(train_macs) * s_.cpu_ns_per_train_mac * 1e3 +
                                 double(infer_macs) * s_.cpu_ns_per_mac * 1e3));
  }

  void reset() {  // (the worker is idle: everything handed over was settled before)
    cap_ = std::make_unique<FeatureCapture>(s_.lbas, s_.lba_size, s_.chunks);
    C_ = cap_->chunks();
    stream_.assign(C_, s_.streams);  // nothing known: the coldest stream
    hist_.clear();
    period_ = 0;
    trained_ = trained_sim_ = loaded_;
    pred_auto_.clear();
    pred_lstm_.clear();
    rows_.clear();
    capture_s_ = 0;
    jobs_.clear();
    cpu_free_ps_ = 0;
    train_macs_ = 0;
  }

  // Simulation thread: the period's record, handed to the worker with what its work will cost.
  void close_period() {
    auto j = std::make_shared<Job>();
    const double t0 = thread_cpu_s();
    cap_->close_period(j->rec);
    j->row.predict_s = thread_cpu_s() - t0;  // (closing the record counts with the prediction)
    ++period_;
    j->end_ps = period_ * s_.period_ps;
    j->row.period = period_;
    j->row.capture_s = capture_s_;
    capture_s_ = 0;
    // the worker's decisions, mirrored: it trains once train_periods records are in (a rewind resets neither
    // count), then predicts once it has k records since the last reset
    if (!trained_sim_ && s_.mode == "lstm" && ++train_count_sim_ >= s_.train_periods) {
      j->trains = trained_sim_ = true;
      train_count_sim_ = 0;
    }
    const bool predicts = s_.mode == "lstm" && trained_sim_ && period_ >= s_.k;
    j->known_cost_ps = cost_ps(0, predicts ? Lstm::forward_macs(int(sel_count_), int(hidden_), int(s_.k), C_) : 0);
    jobs_.push_back(j);
    {
      std::lock_guard<std::mutex> l(mu_);
      todo_.push_back(j);
    }
    if (!worker_.joinable()) worker_ = std::thread([this] { work(); });
    cv_.notify_all();
  }

  void wait_for(const Job& j) const {
    std::unique_lock<std::mutex> l(mu_);
    cv_.wait(l, [&] { return j.done; });
    if (j.error) std::rethrow_exception(j.error);
  }

  // The row of a done job whose work starts on the host core when it is free at free_ps (its cost and its
  // switch delay filled in); free_ps moves to the work's end.
  Row finished_row(const Job& j, uint64_t& free_ps) const {
    Row r = j.row;
    r.cpu_ps = cost_ps(r.train_macs, r.infer_macs);
    free_ps = std::max(j.end_ps, free_ps) + r.cpu_ps;
    r.switch_delay_ps = free_ps - j.end_ps;
    return r;
  }

  // The front job's streams take over (its work is done by now in simulated time); its row is kept.
  void resolve() {
    Job& j = *jobs_.front();
    if (!j.trains && cost_ps(j.row.train_macs, j.row.infer_macs) != j.known_cost_ps)  // (a bug, not an input)
      throw std::logic_error("stream predictor: period " + std::to_string(j.row.period) +
                             "'s work cost other than foreseen");
    rows_.push_back(finished_row(j, cpu_free_ps_));
    stream_ = std::move(j.streams);
    jobs_.pop_front();
  }

  // Simulation thread, before a request at t takes its stream: every period's work finished by t applies.
  void apply_due(uint64_t t) {
    while (!jobs_.empty()) {
      const Job& j = *jobs_.front();
      if (std::max(j.end_ps, cpu_free_ps_) + j.known_cost_ps > t) return;  // (exact unless it trains)
      wait_for(j);
      if (std::max(j.end_ps, cpu_free_ps_) + cost_ps(j.row.train_macs, j.row.infer_macs) > t) return;
      resolve();
    }
  }

  // Every handed-over period's work done and applied (a rewind, the workload's end).
  void settle() {
    while (!jobs_.empty()) {
      wait_for(*jobs_.front());
      resolve();
    }
  }

  // The rows of every period closed so far, those not yet applied included (the summary and the report may
  // be read before the workload has ended); applies nothing.
  std::vector<Row> all_rows() const {
    std::vector<Row> rows = rows_;
    uint64_t free_ps = cpu_free_ps_;
    for (const auto& j : jobs_) {
      wait_for(*j);
      rows.push_back(finished_row(*j, free_ps));
    }
    return rows;
  }

  // The worker thread: each period's work, in order.
  void work() {
    for (;;) {
      std::shared_ptr<Job> j;
      {
        std::unique_lock<std::mutex> l(mu_);
        cv_.wait(l, [&] { return stop_ || !todo_.empty(); });
        if (todo_.empty()) return;
        j = todo_.front();
      }
      try {
        run(*j);
      } catch (...) {
        j->error = std::current_exception();
      }
      {
        std::lock_guard<std::mutex> l(mu_);
        todo_.pop_front();
        j->done = true;
      }
      cv_.notify_all();
    }
  }

  // One period's work: score the last predictions, train once the training periods are in, predict the next
  // period and cluster the prediction into streams.
  void run(Job& j) {
    if (s_.on_period_work) s_.on_period_work(j.row.period);
    const double t0 = thread_cpu_s();
    Row& row = j.row;
    std::vector<double> actual(C_);
    for (uint32_t c = 0; c < C_; ++c) actual[c] = j.rec[size_t(c) * kFeatureCount];
    row.writes = std::accumulate(actual.begin(), actual.end(), 0.0);
    if (!pred_auto_.empty()) score(pred_auto_, actual, row.auto_mae, row.auto_rho);
    if (!pred_lstm_.empty()) score(pred_lstm_, actual, row.lstm_mae, row.lstm_rho), row.lstm_scored = true;
    hist_.push_back(std::move(j.rec));
    if (!trained_ && s_.mode == "lstm") {
      train_hist_.push_back(hist_.back());
      if (train_hist_.size() >= s_.train_periods) {
        train(row.period);
        row.train_macs = train_macs_;
      }
    }
    while (hist_.size() > s_.k) hist_.pop_front();
    // predictions for the next period
    pred_auto_ = actual;
    pred_lstm_.clear();
    if (s_.mode == "lstm" && trained_ && hist_.size() >= s_.k) {
      pred_lstm_ = predict();
      row.infer_macs = Lstm::forward_macs(int(sel_.size()), net_.hidden(), int(s_.k), C_);
    }
    j.streams = assign(s_.mode == "lstm" && !pred_lstm_.empty() ? pred_lstm_ : pred_auto_);
    row.predict_s += thread_cpu_s() - t0;
  }

  static void score(const std::vector<double>& pred, const std::vector<double>& act, double& mae, double& rho) {
    double e = 0;
    for (size_t i = 0; i < act.size(); ++i) e += std::fabs(pred[i] - act[i]);
    mae = e / double(act.size());
    rho = spearman(pred, act);
  }

  // The streams (1 hottest .. streams) the predictions give every chunk.
  std::vector<uint32_t> assign(const std::vector<double>& pred) const {
    double mx = 0;
    for (double v : pred) mx = std::max(mx, std::log1p(std::max(0.0, v)));
    std::vector<uint16_t> x(C_);
    for (uint32_t c = 0; c < C_; ++c)
      x[c] = mx > 0 ? uint16_t(std::lround(511.0 * std::log1p(std::max(0.0, pred[c])) / mx)) : 0;
    std::vector<uint8_t> lab;
    const auto cx = kmeans1d(x, s_.streams, 10, lab);
    std::vector<uint32_t> rank(s_.streams);
    for (uint32_t i = 0; i < s_.streams; ++i) {
      uint32_t r = 0;
      for (uint32_t j = 0; j < s_.streams; ++j) r += cx[j] > cx[i] || (cx[j] == cx[i] && j < i);
      rank[i] = r;
    }
    std::vector<uint32_t> out(C_);
    for (uint32_t c = 0; c < C_; ++c) out[c] = rank[lab[c]] + 1;
    return out;
  }

  // input of chunk c at time offset: the selected, scaled features of the last k records
  double feat(const std::vector<float>& rec, uint32_t c, size_t j) const {
    return std::log1p(std::max(0.0, double(rec[size_t(c) * kFeatureCount + size_t(sel_[j])]))) / scale_[j];
  }

  std::vector<double> predict() const {
    std::vector<double> out(C_);
    const uint32_t B = 1000;
    for (uint32_t c0 = 0; c0 < C_; c0 += B) {
      const uint32_t n = std::min(B, C_ - c0);
      std::vector<Eigen::MatrixXd> xs(s_.k, Eigen::MatrixXd(sel_.size(), n));
      for (uint32_t t = 0; t < s_.k; ++t)
        for (uint32_t i = 0; i < n; ++i)
          for (size_t j = 0; j < sel_.size(); ++j) xs[t](Eigen::Index(j), i) = feat(hist_[t], c0 + i, j);
      const Eigen::VectorXd y = net_.forward(xs);
      for (uint32_t i = 0; i < n; ++i) out[c0 + i] = std::max(0.0, std::expm1(std::max(0.0, y(i)) * tscale_));
    }
    return out;
  }

  void train(uint64_t period) {
    const double t0 = thread_cpu_s();
    const size_t P = train_hist_.size();
    // Pearson r of every feature at t with temperature at t + 1
    pearson_.assign(kFeatureCount, 0.0);
    for (int f = 0; f < kFeatureCount; ++f) {
      std::vector<double> a, b;
      for (size_t t = 0; t + 1 < P; ++t)
        for (uint32_t c = 0; c < C_; ++c) {
          a.push_back(train_hist_[t][size_t(c) * kFeatureCount + size_t(f)]);
          b.push_back(train_hist_[t + 1][size_t(c) * kFeatureCount]);
        }
      pearson_[size_t(f)] = pearson(a, b);
    }
    if (s_.features == "auto") {
      std::vector<int> order(kFeatureCount);
      std::iota(order.begin(), order.end(), 0);
      std::stable_sort(order.begin(), order.end(),
                       [&](int a, int b) { return std::fabs(pearson_[size_t(a)]) > std::fabs(pearson_[size_t(b)]); });
      sel_.assign(order.begin(), order.begin() + s_.select);
    } else {
      sel_ = parse_features(s_.features, "config key 'host.predict.features'");
    }
    std::cerr << "stream predictor: Pearson r with next-period temperature:";
    for (int f = 0; f < kFeatureCount; ++f) std::cerr << ' ' << kFeatureNames[size_t(f)] << '=' << pearson_[size_t(f)];
    std::cerr << "\nstream predictor: selected " << feature_list(sel_) << '\n';
    // scales: the largest log1p value in training
    scale_.assign(sel_.size(), 1e-9);
    tscale_ = 1e-9;
    for (const auto& rec : train_hist_)
      for (uint32_t c = 0; c < C_; ++c) {
        for (size_t j = 0; j < sel_.size(); ++j)
          scale_[j] =
              std::max(scale_[j], std::log1p(std::max(0.0, double(rec[size_t(c) * kFeatureCount + size_t(sel_[j])]))));
        tscale_ = std::max(tscale_, std::log1p(double(rec[size_t(c) * kFeatureCount])));
      }
    // samples: (chunk, end period); inactive windows mostly left out
    Xoshiro256 rng(s_.seed);
    std::vector<std::pair<uint32_t, uint32_t>> samples;
    for (uint32_t t = s_.k - 1; t + 1 < P; ++t)
      for (uint32_t c = 0; c < C_; ++c) {
        bool active = train_hist_[t + 1][size_t(c) * kFeatureCount] > 0;
        for (uint32_t d = 0; d < s_.k && !active; ++d) active = train_hist_[t - d][size_t(c) * kFeatureCount] > 0;
        if (active || rng.below(10) == 0) samples.emplace_back(c, t);
      }
    // at most max_samples, a uniform choice
    for (size_t i = 0; i < samples.size() && i < s_.max_samples; ++i)
      std::swap(samples[i], samples[i + rng.below(samples.size() - i)]);
    if (samples.size() > s_.max_samples) samples.resize(s_.max_samples);
    net_ = Lstm(int(sel_.size()), int(s_.hidden), s_.seed);
    loss_.clear();
    train_macs_ = 0;
    for (uint32_t e = 0; e < s_.epochs && !samples.empty(); ++e) {
      for (size_t i = samples.size(); i > 1; --i) std::swap(samples[i - 1], samples[rng.below(i)]);
      double sum = 0;
      size_t nb = 0;
      for (size_t b0 = 0; b0 < samples.size(); b0 += s_.batch) {
        const size_t n = std::min<size_t>(s_.batch, samples.size() - b0);
        std::vector<Eigen::MatrixXd> xs(s_.k, Eigen::MatrixXd(sel_.size(), n));
        Eigen::VectorXd y(static_cast<Eigen::Index>(n));
        for (size_t i = 0; i < n; ++i) {
          const auto [c, t] = samples[b0 + i];
          for (uint32_t d = 0; d < s_.k; ++d)
            for (size_t j = 0; j < sel_.size(); ++j)
              xs[d](Eigen::Index(j), Eigen::Index(i)) = feat(train_hist_[t + 1 - s_.k + d], c, j);
          y(Eigen::Index(i)) = std::log1p(double(train_hist_[t + 1][size_t(c) * kFeatureCount])) / tscale_;
        }
        sum += net_.train_step(xs, y, s_.lr);
        train_macs_ += Lstm::train_step_macs(int(sel_.size()), int(s_.hidden), int(s_.k), n);
        ++nb;
      }
      loss_.push_back(nb ? sum / double(nb) : 0);
    }
    train_samples_ = samples.size();
    train_s_ = thread_cpu_s() - t0;
    trained_at_ = period;
    trained_ = true;
    train_hist_.clear();
    if (!s_.model_out.empty()) save_model();
  }

  void save_model() const {
    const std::filesystem::path dir = std::filesystem::path(s_.model_out).parent_path();
    std::error_code ec;
    if (!dir.empty()) std::filesystem::create_directories(dir, ec);  // (a failure shows as the open's)
    std::ofstream o(s_.model_out);
    if (!o) throw std::runtime_error("host.predict.model_out: cannot write " + s_.model_out);
    o.precision(17);
    o << "ssdvp-lstm-model 1\nfeatures " << feature_list(sel_) << "\nk " << s_.k << "\nscales";
    for (double v : scale_) o << ' ' << v;
    o << ' ' << tscale_ << '\n';
    net_.save(o);
  }

  void load_model() {
    const std::string& f = s_.model_in;
    std::ifstream in(f);
    if (!in) throw ConfigError("config key 'host.predict.model': cannot open " + f);
    std::string line, word;
    int line_no = 0;
    auto next_line = [&](const char* what) {
      ++line_no;
      if (!std::getline(in, line))
        throw ConfigError(f + ":" + std::to_string(line_no) + ": expected " + what + ", got the end of the file");
    };
    next_line("the header 'ssdvp-lstm-model 1'");
    if (line != "ssdvp-lstm-model 1") throw ConfigError(f + ":1: expected 'ssdvp-lstm-model 1', got '" + line + "'");
    next_line("'features <list>'");
    if (line.rfind("features ", 0) != 0) throw ConfigError(f + ":2: expected 'features <list>', got '" + line + "'");
    sel_ = parse_features(line.substr(9), f + ":2");
    if (s_.features != "auto") {
      const auto want = parse_features(s_.features, "config key 'host.predict.features'");
      if (want != sel_)
        throw ConfigError(f + ":2: the model was trained on features " + feature_list(sel_) +
                          " but host.predict.features is " + feature_list(want));
    }
    next_line("'k <records>'");
    if (line != "k " + std::to_string(s_.k))
      throw ConfigError(f + ":3: the model takes '" + line + "' records but host.predict.k is " + std::to_string(s_.k));
    next_line("'scales ...'");
    std::istringstream sc(line);
    sc >> word;
    scale_.assign(sel_.size(), 0);
    for (auto& v : scale_) sc >> v;
    sc >> tscale_;
    if (word != "scales" || !sc || tscale_ <= 0)
      throw ConfigError(f + ":4: expected 'scales' and " + std::to_string(sel_.size() + 1) + " positive numbers");
    if (!net_.load(in) || net_.inputs() != int(sel_.size()))
      throw ConfigError(f + ":5: malformed LSTM weights (or their input count differs from the " +
                        std::to_string(sel_.size()) + " features)");
    loaded_ = true;
  }

  // The mean of get over the scored periods: the LSTM's (lstm_only), or
  // every period from the third (AutoStream's first prediction is scored then).
  static double mean(const std::vector<Row>& rows, double Row::*get, bool lstm_only) {
    double s = 0;
    size_t n = 0;
    for (const Row& r : rows) {
      if (lstm_only && !r.lstm_scored) continue;
      if (!lstm_only && r.period < 2) continue;
      s += r.*get;
      ++n;
    }
    return n ? s / double(n) : 0.0;
  }
  // The mean of get over the periods the LSTM was scored on (AutoStream's, compared on the same periods).
  static double since(const std::vector<Row>& rows, double Row::*get) {
    double s = 0;
    size_t n = 0;
    for (const Row& r : rows)
      if (r.lstm_scored) s += r.*get, ++n;
    return n ? s / double(n) : 0.0;
  }

 public:
  nlohmann::json headline() const {
    const std::vector<Row> rows = all_rows();
    size_t scored = 0;
    for (const Row& r : rows) scored += r.lstm_scored;
    return {
        {"mode", s_.mode},
        {"periods", rows.size()},
        {"trained_at_period", trained_at_},
        {"train_samples", train_samples_},
        {"lstm_periods_scored", scored},
        {"autostream", {{"mae", mean(rows, &Row::auto_mae, false)}, {"spearman", mean(rows, &Row::auto_rho, false)}}},
        {"lstm", {{"mae", mean(rows, &Row::lstm_mae, true)}, {"spearman", mean(rows, &Row::lstm_rho, true)}}},
        {"cpu", cpu_summary(rows)}};  // (the simulator's own wall-clock times: in the report only)
  }

  // The simulated host CPU the predictor took: MACs x host.predict.cpu_ns_per_mac.
  nlohmann::json cpu_summary(const std::vector<Row>& rows) const {
    uint64_t train = 0, infer = 0, ps = 0, delay_max = 0, infer_periods = 0;
    double delay_sum = 0, period_max = 0;
    for (const Row& r : rows) {
      train += r.train_macs;
      infer += r.infer_macs;
      ps += r.cpu_ps;
      infer_periods += r.infer_macs > 0;
      delay_sum += double(r.switch_delay_ps);
      delay_max = std::max(delay_max, r.switch_delay_ps);
      period_max = std::max(period_max, double(r.cpu_ps) * 1e-12);
    }
    const double n = double(rows.size()), span_s = n * double(s_.period_ps) * 1e-12;
    return {{"ns_per_mac", s_.cpu_ns_per_mac},
            {"ns_per_train_mac", s_.cpu_ns_per_train_mac},
            {"train_macs", train},
            {"infer_macs", infer},
            {"infer_macs_per_period", infer_periods ? double(infer) / double(infer_periods) : 0.0},
            {"train_s", double(train) * s_.cpu_ns_per_train_mac * 1e-9},
            {"infer_s", double(infer) * s_.cpu_ns_per_mac * 1e-9},
            {"total_s", double(ps) * 1e-12},
            {"s_per_period", n > 0 ? double(ps) * 1e-12 / n : 0.0},
            {"max_period_s", period_max},
            {"core_share", span_s > 0 ? double(ps) * 1e-12 / span_s : 0.0},
            {"switch_delay_s_mean", n > 0 ? delay_sum * 1e-12 / n : 0.0},
            {"switch_delay_s_max", double(delay_max) * 1e-12}};
  }

 private:
  void write_report() {
    if (s_.report.empty() || reported_) return;
    reported_ = true;
    const std::vector<Row> rows = all_rows();
    std::ofstream o(s_.report);
    if (!o) return;
    o << "{\n  \"mode\": \"" << s_.mode << "\", \"chunks\": " << C_
      << ", \"period_s\": " << double(s_.period_ps) * 1e-12 << ", \"streams\": " << s_.streams << ", \"k\": " << s_.k
      << ",\n  \"features\": [";
    for (int f = 0; f < kFeatureCount; ++f) o << (f ? ", " : "") << '"' << kFeatureNames[size_t(f)] << '"';
    o << "],\n  \"pearson\": [";
    for (size_t f = 0; f < pearson_.size(); ++f) o << (f ? ", " : "") << pearson_[f];
    o << "],\n  \"selected\": [";
    for (size_t j = 0; j < sel_.size(); ++j) o << (j ? ", " : "") << '"' << kFeatureNames[size_t(sel_[j])] << '"';
    o << "],\n  \"periods\": " << rows.size() << ", \"trained_at_period\": " << trained_at_
      << ", \"train_samples\": " << train_samples_ << ", \"train_cpu_s\": " << train_s_
      << ",\n  \"clocks\": {\"capture\": \"steady\", \"predict\": \"thread_cpu\", \"train\": \"thread_cpu\"}"
      << ",\n  \"train_loss\": [";
    for (size_t i = 0; i < loss_.size(); ++i) o << (i ? ", " : "") << loss_[i];
    o << "],\n  \"autostream\": {\"mae\": " << mean(rows, &Row::auto_mae, false)
      << ", \"spearman\": " << mean(rows, &Row::auto_rho, false)
      << ", \"mae_lstm_periods\": " << since(rows, &Row::auto_mae)
      << ", \"spearman_lstm_periods\": " << since(rows, &Row::auto_rho)
      << "},\n  \"lstm\": {\"mae\": " << mean(rows, &Row::lstm_mae, true)
      << ", \"spearman\": " << mean(rows, &Row::lstm_rho, true)
      << "},\n  \"cpu_per_period_ms\": {\"capture\": " << 1e3 * mean(rows, &Row::capture_s, false)
      << ", \"predict\": " << 1e3 * mean(rows, &Row::predict_s, false) << "},\n  \"per_period\": [";
    for (size_t i = 0; i < rows.size(); ++i) {
      const Row& r = rows[i];
      o << (i ? ",\n    " : "\n    ") << "{\"period\": " << r.period << ", \"writes\": " << r.writes
        << ", \"auto_mae\": " << r.auto_mae << ", \"auto_rho\": " << r.auto_rho
        << ", \"lstm_mae\": " << (r.lstm_scored ? r.lstm_mae : -1)
        << ", \"lstm_rho\": " << (r.lstm_scored ? r.lstm_rho : 0) << ", \"capture_ms\": " << r.capture_s * 1e3
        << ", \"predict_ms\": " << r.predict_s * 1e3 << ", \"train_macs\": " << r.train_macs
        << ", \"infer_macs\": " << r.infer_macs << ", \"host_cpu_s\": " << double(r.cpu_ps) * 1e-12
        << ", \"switch_delay_s\": " << double(r.switch_delay_ps) * 1e-12 << "}";
    }
    o << "\n  ]\n}\n";
  }

  std::unique_ptr<Workload> in_;
  PredictSpec s_;
  std::unique_ptr<FeatureCapture> cap_;
  uint32_t C_ = 0;
  std::vector<uint32_t> stream_;
  std::deque<std::vector<float>> hist_;
  std::vector<std::vector<float>> train_hist_;
  uint64_t period_ = 0, trained_at_ = 0, train_samples_ = 0;
  bool trained_ = false, loaded_ = false, reported_ = false;
  uint64_t cpu_free_ps_ = 0, train_macs_ = 0;
  // the simulation thread's side: the periods handed over and not yet applied, and its mirror of the
  // worker's training decision
  std::deque<std::shared_ptr<Job>> jobs_;
  bool trained_sim_ = false;
  uint64_t train_count_sim_ = 0;
  size_t sel_count_ = 0;
  uint32_t hidden_ = 0;
  // the worker: the periods it has still to do, in order
  std::thread worker_;
  mutable std::mutex mu_;
  mutable std::condition_variable cv_;
  std::deque<std::shared_ptr<Job>> todo_;
  bool stop_ = false;
  std::vector<double> pred_auto_, pred_lstm_, pearson_, scale_, loss_;
  double tscale_ = 1, capture_s_ = 0, train_s_ = 0;
  std::vector<int> sel_;
  Lstm net_;
  std::vector<Row> rows_;
};

}  // namespace

std::unique_ptr<Workload> make_predicted_streams(std::unique_ptr<Workload> inner, const PredictSpec& spec) {
  return std::make_unique<PredictedStreams>(std::move(inner), spec);
}

nlohmann::json predictor_summary(const Workload& w) {
  const auto* p = dynamic_cast<const PredictedStreams*>(&w);
  return p ? p->headline() : nlohmann::json();
}

}  // namespace ssdvp::host
