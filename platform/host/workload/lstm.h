// lstm.h - a one-layer LSTM regressor in Eigen for the stream predictor
// (docs/results/streams.md): a sequence of k feature records of a chunk in,
// the chunk's (scaled) temperature next period out.
//
//   i,f,o = sigmoid(W_{i,f,o} x_t + U_{i,f,o} h_{t-1} + b), g = tanh(W_g x_t + U_g h_{t-1} + b_g)
//   c_t = f * c_{t-1} + i * g,  h_t = o * tanh(c_t),  y = w_y . h_k + b_y
//
// Loss: mean squared error over a batch. Gradients by backpropagation
// through time (exact; checked against finite differences in
// testbench/host/lstm_test.cpp); updates by Adam. No SystemC, no threads.
#pragma once

#include <Eigen/Dense>

#include <cstdint>
#include <iosfwd>
#include <vector>

namespace ssdvp::host {

class Lstm {
 public:
  Lstm() = default;
  Lstm(int inputs, int hidden, uint64_t seed);

  int inputs() const { return n_in_; }
  int hidden() const { return n_h_; }

  // xs: k matrices of (inputs x batch), oldest first. Returns (batch) outputs.
  Eigen::VectorXd forward(const std::vector<Eigen::MatrixXd>& xs) const;
  // Mean squared error of forward(xs) against y; fills the gradient of every
  // parameter (flattened in params() order) when grad is not null.
  double loss(const std::vector<Eigen::MatrixXd>& xs, const Eigen::VectorXd& y, Eigen::VectorXd* grad) const;
  // One Adam step on a batch; returns the loss before the step.
  double train_step(const std::vector<Eigen::MatrixXd>& xs, const Eigen::VectorXd& y, double lr);

  // Multiply-accumulates of the products the methods compute (gate and
  // output matrix-vector products; the element-wise gate functions are not
  // counted: host.predict.cpu_ns_per_mac, calibrated on forward, covers them):
  //   forward     batch x (k x 4H(I + H) + H)
  //   train_step  forward, plus backward batch x (2H + k x (4H I + 8H H)),
  //               plus Adam's update at 3 a parameter
  static uint64_t forward_macs(int inputs, int hidden, int k, uint64_t batch);
  static uint64_t train_step_macs(int inputs, int hidden, int k, uint64_t batch);

  // All parameters, flattened: W (4H x I), U (4H x H), b (4H), wy (H), by (1).
  Eigen::VectorXd params() const;
  void set_params(const Eigen::VectorXd& p);
  size_t param_count() const;

  void save(std::ostream& o) const;
  // Reads what save wrote; false on a malformed body (the caller names the file).
  bool load(std::istream& in);

 private:
  int n_in_ = 0, n_h_ = 0;
  Eigen::MatrixXd W_, U_;
  Eigen::VectorXd b_, wy_;
  double by_ = 0;
  // Adam state
  Eigen::VectorXd m_, v_;
  uint64_t t_ = 0;
};

}  // namespace ssdvp::host
