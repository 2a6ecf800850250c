// lstm.cpp - see lstm.h.
#include "lstm.h"

#include <cmath>
#include <istream>
#include <ostream>

#include "random.h"

namespace ssdvp::host {
namespace {

Eigen::MatrixXd sigmoid(const Eigen::MatrixXd& z) { return (1.0 + (-z.array()).exp()).inverse().matrix(); }

}  // namespace

Lstm::Lstm(int inputs, int hidden, uint64_t seed) : n_in_(inputs), n_h_(hidden) {
  Xoshiro256 rng(seed);
  auto init = [&](Eigen::MatrixXd& m, int rows, int cols, double scale) {
    m.resize(rows, cols);
    for (int i = 0; i < rows; ++i)
      for (int j = 0; j < cols; ++j) m(i, j) = (rng.uniform() * 2 - 1) * scale;
  };
  init(W_, 4 * n_h_, n_in_, 1.0 / std::sqrt(double(n_in_)));
  init(U_, 4 * n_h_, n_h_, 1.0 / std::sqrt(double(n_h_)));
  b_ = Eigen::VectorXd::Zero(4 * n_h_);
  b_.segment(n_h_, n_h_).setOnes();  // forget-gate bias 1
  Eigen::MatrixXd wy;
  init(wy, n_h_, 1, 1.0 / std::sqrt(double(n_h_)));
  wy_ = wy.col(0);
  by_ = 0;
  m_ = v_ = Eigen::VectorXd::Zero(Eigen::Index(param_count()));
}

size_t Lstm::param_count() const { return size_t(W_.size() + U_.size() + b_.size() + wy_.size() + 1); }

Eigen::VectorXd Lstm::params() const {
  Eigen::VectorXd p(static_cast<Eigen::Index>(param_count()));
  Eigen::Index o = 0;
  p.segment(o, W_.size()) = Eigen::Map<const Eigen::VectorXd>(W_.data(), W_.size());
  o += W_.size();
  p.segment(o, U_.size()) = Eigen::Map<const Eigen::VectorXd>(U_.data(), U_.size());
  o += U_.size();
  p.segment(o, b_.size()) = b_;
  o += b_.size();
  p.segment(o, wy_.size()) = wy_;
  o += wy_.size();
  p(o) = by_;
  return p;
}

void Lstm::set_params(const Eigen::VectorXd& p) {
  Eigen::Index o = 0;
  Eigen::Map<Eigen::VectorXd>(W_.data(), W_.size()) = p.segment(o, W_.size());
  o += W_.size();
  Eigen::Map<Eigen::VectorXd>(U_.data(), U_.size()) = p.segment(o, U_.size());
  o += U_.size();
  b_ = p.segment(o, b_.size());
  o += b_.size();
  wy_ = p.segment(o, wy_.size());
  o += wy_.size();
  by_ = p(o);
}

uint64_t Lstm::forward_macs(int inputs, int hidden, int k, uint64_t batch) {
  const uint64_t I = uint64_t(inputs), H = uint64_t(hidden);
  return batch * (uint64_t(k) * 4 * H * (I + H) + H);
}

uint64_t Lstm::train_step_macs(int inputs, int hidden, int k, uint64_t batch) {
  const uint64_t I = uint64_t(inputs), H = uint64_t(hidden);
  const uint64_t params = 4 * H * I + 4 * H * H + 4 * H + H + 1;
  return forward_macs(inputs, hidden, k, batch) + batch * (2 * H + uint64_t(k) * (4 * H * I + 8 * H * H)) + 3 * params;
}

Eigen::VectorXd Lstm::forward(const std::vector<Eigen::MatrixXd>& xs) const {
  const Eigen::Index B = xs.empty() ? 0 : xs[0].cols();
  Eigen::MatrixXd h = Eigen::MatrixXd::Zero(n_h_, B), c = h;
  for (const auto& x : xs) {
    Eigen::MatrixXd z = W_ * x + U_ * h;
    z.colwise() += b_;
    const Eigen::MatrixXd i = sigmoid(z.topRows(n_h_)), f = sigmoid(z.middleRows(n_h_, n_h_)),
                          o = sigmoid(z.middleRows(2 * n_h_, n_h_)), g = z.bottomRows(n_h_).array().tanh().matrix();
    c = (f.array() * c.array() + i.array() * g.array()).matrix();
    h = (o.array() * c.array().tanh()).matrix();
  }
  return (wy_.transpose() * h).transpose().array() + by_;
}

double Lstm::loss(const std::vector<Eigen::MatrixXd>& xs, const Eigen::VectorXd& y, Eigen::VectorXd* grad) const {
  const size_t K = xs.size();
  const Eigen::Index B = y.size(), H = n_h_;
  std::vector<Eigen::MatrixXd> hs(K + 1), cs(K + 1), I(K), F(K), O(K), G(K);
  hs[0] = Eigen::MatrixXd::Zero(H, B);
  cs[0] = hs[0];
  for (size_t t = 0; t < K; ++t) {
    Eigen::MatrixXd z = W_ * xs[t] + U_ * hs[t];
    z.colwise() += b_;
    I[t] = sigmoid(z.topRows(H));
    F[t] = sigmoid(z.middleRows(H, H));
    O[t] = sigmoid(z.middleRows(2 * H, H));
    G[t] = z.bottomRows(H).array().tanh().matrix();
    cs[t + 1] = (F[t].array() * cs[t].array() + I[t].array() * G[t].array()).matrix();
    hs[t + 1] = (O[t].array() * cs[t + 1].array().tanh()).matrix();
  }
  const Eigen::VectorXd out = (wy_.transpose() * hs[K]).transpose().array() + by_;
  const Eigen::VectorXd err = out - y;
  const double L = err.squaredNorm() / double(B);
  if (!grad) return L;
  const Eigen::RowVectorXd dout = (2.0 / double(B)) * err.transpose();  // dL/dout
  Eigen::MatrixXd dW = Eigen::MatrixXd::Zero(W_.rows(), W_.cols()), dU = Eigen::MatrixXd::Zero(U_.rows(), U_.cols());
  Eigen::VectorXd db = Eigen::VectorXd::Zero(b_.size());
  const Eigen::VectorXd dwy = hs[K] * dout.transpose();
  const double dby = dout.sum();
  Eigen::MatrixXd dh = wy_ * dout, dc = Eigen::MatrixXd::Zero(H, B);
  for (size_t t = K; t-- > 0;) {
    const Eigen::ArrayXXd tc = cs[t + 1].array().tanh();
    const Eigen::ArrayXXd dO = dh.array() * tc;
    dc = (dc.array() + dh.array() * O[t].array() * (1 - tc * tc)).matrix();
    const Eigen::ArrayXXd dI = dc.array() * G[t].array(), dF = dc.array() * cs[t].array(),
                          dG = dc.array() * I[t].array();
    Eigen::MatrixXd dz(4 * H, B);
    dz.topRows(H) = (dI * I[t].array() * (1 - I[t].array())).matrix();
    dz.middleRows(H, H) = (dF * F[t].array() * (1 - F[t].array())).matrix();
    dz.middleRows(2 * H, H) = (dO * O[t].array() * (1 - O[t].array())).matrix();
    dz.bottomRows(H) = (dG * (1 - G[t].array() * G[t].array())).matrix();
    dW += dz * xs[t].transpose();
    dU += dz * hs[t].transpose();
    db += dz.rowwise().sum();
    dh = U_.transpose() * dz;
    dc = (dc.array() * F[t].array()).matrix();
  }
  grad->resize(Eigen::Index(param_count()));
  Eigen::Index o = 0;
  grad->segment(o, dW.size()) = Eigen::Map<const Eigen::VectorXd>(dW.data(), dW.size());
  o += dW.size();
  grad->segment(o, dU.size()) = Eigen::Map<const Eigen::VectorXd>(dU.data(), dU.size());
  o += dU.size();
  grad->segment(o, db.size()) = db;
  o += db.size();
  grad->segment(o, dwy.size()) = dwy;
  o += dwy.size();
  (*grad)(o) = dby;
  return L;
}

double Lstm::train_step(const std::vector<Eigen::MatrixXd>& xs, const Eigen::VectorXd& y, double lr) {
  Eigen::VectorXd g;
  const double L = loss(xs, y, &g);
  constexpr double b1 = 0.9, b2 = 0.999, eps = 1e-8;
  ++t_;
  m_ = b1 * m_ + (1 - b1) * g;
  v_ = b2 * v_ + (1 - b2) * g.cwiseProduct(g);
  const double c1 = 1 - std::pow(b1, double(t_)), c2 = 1 - std::pow(b2, double(t_));
  Eigen::VectorXd p = params();
  p.array() -= lr * (m_.array() / c1) / ((v_.array() / c2).sqrt() + eps);
  set_params(p);
  return L;
}

void Lstm::save(std::ostream& o) const {
  o.precision(17);
  o << n_in_ << ' ' << n_h_ << '\n';
  const Eigen::VectorXd p = params();
  for (Eigen::Index i = 0; i < p.size(); ++i) o << p(i) << (i + 1 == p.size() ? '\n' : ' ');
}

bool Lstm::load(std::istream& in) {
  int ni = 0, nh = 0;
  if (!(in >> ni >> nh) || ni < 1 || nh < 1 || ni > 1000 || nh > 1000) return false;
  *this = Lstm(ni, nh, 0);
  Eigen::VectorXd p(static_cast<Eigen::Index>(param_count()));
  for (Eigen::Index i = 0; i < p.size(); ++i)
    if (!(in >> p(i)) || !std::isfinite(p(i))) return false;
  set_params(p);
  return true;
}

}  // namespace ssdvp::host
