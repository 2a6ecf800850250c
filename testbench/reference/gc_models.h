// gc_models.h - analytic write-amplification models of garbage collection,
// written for the test tree from published analysis. Nothing here includes or
// calls firmware code: these are the figures the firmware is checked against.
//
// Notation (docs/results/fidelity.md):
// T physical pages in N blocks of b pages, U logical pages, spare factor
// S_f = (T - U) / T, alpha = T / U = 1 / (1 - S_f), load rho = U / T.
// A two-temperature workload: a fraction f of the LBAs (the hot set) gets a
// fraction r of the writes; within a class writes are uniform.
//
// Models:
//  - fifo_waf: FIFO (LRU) victims, uniform writes. P. Desnoyers, "Analytic
//    models of SSD write performance", ACM TOS 10(2), 2014 (first in SYSTOR
//    2012): the victim's valid fraction u solves u = exp(-alpha (1 - u)),
//    WAF = 1 / (1 - u) = alpha / (alpha + W0(-alpha e^-alpha)).
//  - fifo_waf_classes: FIFO under k classes, the same paper's non-uniform LRU
//    model: a page written now reaches the head of the queue after T page
//    writes, i.e. T / A host writes (A the WAF); a page of class i is still
//    valid then with probability u_i = exp(-alpha r_i / (f_i A)); each class
//    i enters the queue at r_i / (1 - u_i) pages per host write (host writes
//    plus the relocations of its survivors), so A = sum_i r_i / (1 - u_i).
//    The survival of a page depends only on its time in the queue, so under
//    one shared FIFO it does not matter whether classes share blocks: hot/cold
//    separation into frontiers leaves FIFO's WAF unchanged.
//  - desnoyers_greedy_waf, desnoyers_greedy_waf_classes,
//    desnoyers_greedy_waf_pools: Desnoyers' greedy models (same paper,
//    sections on greedy cleaning). Uniform writes: greedy behaves like LRW
//    cleaning of a drive whose spare is raised by half a block's worth of
//    "free" pages per block (the victim's valid count is spread, and greedy
//    takes the low tail): with k = 1 + 1 / (2 b), A_greedy(alpha) =
//    A_lrw(k alpha) / k (his Eq. 12, "nearly exact" for practical b and
//    spare). Two temperatures without separation: the same substitution in
//    the non-uniform LRW model, A = A_lrw_hc(k alpha) / k (his Eq. 16,
//    stated accurate to within 2 % against his simulator). Two temperatures
//    with separation into a hot and a cold pool, each greedy, the pools
//    sharing the spare, a share p to the hot pool: alpha_h = (p (alpha - 1) +
//    f) / f, alpha_c = ((1 - p)(alpha - 1) + 1 - f) / (1 - f), A = r
//    A_greedy(alpha_h) + (1 - r) A_greedy(alpha_c) (his Eq. 20-22). He
//    minimises over p; a controller that runs one greedy choice over both
//    pools (ours: the fewest valid pages across all blocks) instead holds
//    the victims' valid fractions equal, and since A_greedy rises
//    monotonically as alpha falls, equal victims mean alpha_h = alpha_c,
//    i.e. p = f and A = A_greedy(alpha): separation removes the skew's cost
//    entirely (his conclusion for this traffic model). Assumptions (his):
//    single-page writes, uniform within a class, steady state, many blocks,
//    relocated pages written with host pages (one frontier) where the
//    classes are not separated.
//  - MeanField: the mean-field (fluid) model of B. Van Houdt, "A mean field
//    model for a class of garbage collection algorithms in flash-based solid
//    state drives", SIGMETRICS 2013 / Performance Evaluation 70(10) 2013, and
//    its hot/cold extension (Van Houdt, "Performance of garbage collection
//    algorithms for flash-based solid state drives with hot/cold data",
//    Performance Evaluation 2013; "On the necessity of hot and cold data
//    identification to reduce the write amplification in flash-based SSDs",
//    Performance Evaluation 82, 2014). The state is the fraction of blocks
//    holding (h, c) valid hot and cold pages; in the limit of many blocks it
//    evolves deterministically: each GC round removes one victim (greedy: the
//    fewest valid pages; d-choices: the fewest of d drawn uniformly at random;
//    random), writes a full block's worth of pages (the victim's valid pages
//    plus b - m host pages) and applies b - m host writes, each of which
//    invalidates a uniformly chosen valid page of its class. The fixed point
//    gives WAF = b / (b - m), m the victim's mean valid count. Written here
//    from that description (the state, the victim law and the drift), not
//    copied from the papers' code; greedy is the d -> infinity limit, computed
//    directly by taking the victim mass from the lowest occupied levels.
//    Uniform writes are the case f = r = 1. Assumptions: single-page writes,
//    uniform within a class, steady state, N -> infinity, every block holds
//    data (free and open blocks are a vanishing fraction), and a new block's
//    composition is binomial in its frontier's hot share.
//  - greedy_waf_uniform: the d = infinity fixed point in closed form for
//    uniform writes (the mean-field limit of Bux & Iliadis 2010 / Van Houdt
//    2013): levels above the victim level j hold x_i = rho b / ((b - m) i);
//    the victims come from j and j - 1 (a share q from j - 1, m = j - q), and
//    x_j = q rho b / ((b - m) j), and the masses sum to one:
//    rho b / (b - m) (H_b - H_j + q / j) = 1.
#pragma once

#include <boost/math/special_functions/lambert_w.hpp>
#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <vector>

namespace ref {

inline double fifo_waf(double sf) {
  const double a = 1.0 / (1.0 - sf);
  return a / (a + boost::math::lambert_w0(-a * std::exp(-a)));
}

// FIFO under classes (fractions of LBAs f[i], of writes r[i]); see above.
inline double fifo_waf_classes(double sf, const std::vector<double>& f, const std::vector<double>& r) {
  const double alpha = 1.0 / (1.0 - sf);
  auto g = [&](double A) {
    double s = 0;
    for (size_t i = 0; i < f.size(); ++i) {
      if (r[i] <= 0) continue;
      s += r[i] / (1.0 - std::exp(-alpha * r[i] / (f[i] * A)));
    }
    return s - A;  // > 0 below the root, < 0 above
  };
  double lo = 1.0, hi = 1e6;
  for (int it = 0; it < 200; ++it) {
    const double mid = std::sqrt(lo * hi);
    (g(mid) > 0 ? lo : hi) = mid;
  }
  return std::sqrt(lo * hi);
}

// Desnoyers' greedy models (see above): A_lrw at the raised spare, scaled.
inline double desnoyers_k(int b) { return 1.0 + 1.0 / (2.0 * b); }
inline double sf_of_alpha(double alpha) { return 1.0 - 1.0 / alpha; }

inline double desnoyers_greedy_waf(double sf, int b) {
  const double k = desnoyers_k(b), alpha = 1.0 / (1.0 - sf);
  return fifo_waf(sf_of_alpha(k * alpha)) / k;
}

inline double desnoyers_greedy_waf_classes(double sf, int b, const std::vector<double>& f,
                                           const std::vector<double>& r) {
  const double k = desnoyers_k(b), alpha = 1.0 / (1.0 - sf);
  return fifo_waf_classes(sf_of_alpha(k * alpha), f, r) / k;
}

// Two pools (hot share f of the LBAs, r of the writes), the hot pool holding a
// share p of the spare. p < 0: the share a single greedy choice over both
// pools settles at, p = f (see above).
inline double desnoyers_greedy_waf_pools(double sf, int b, double f, double r, double p = -1) {
  if (p < 0) p = f;
  const double alpha = 1.0 / (1.0 - sf);
  const double ah = (p * (alpha - 1) + f) / f, ac = ((1 - p) * (alpha - 1) + (1 - f)) / (1 - f);
  return r * desnoyers_greedy_waf(sf_of_alpha(ah), b) + (1 - r) * desnoyers_greedy_waf(sf_of_alpha(ac), b);
}

// Desnoyers' optimum over p (golden-section search; the function is unimodal
// in p on (0, 1)): what a controller that sizes its pools could reach.
inline double desnoyers_greedy_waf_pools_best(double sf, int b, double f, double r, double* p_best = nullptr) {
  double lo = 1e-4, hi = 1 - 1e-4;
  const double g = (std::sqrt(5.0) - 1) / 2;
  auto A = [&](double p) { return desnoyers_greedy_waf_pools(sf, b, f, r, p); };
  double x1 = hi - g * (hi - lo), x2 = lo + g * (hi - lo), f1 = A(x1), f2 = A(x2);
  for (int it = 0; it < 100; ++it) {
    if (f1 < f2) {
      hi = x2, x2 = x1, f2 = f1, x1 = hi - g * (hi - lo), f1 = A(x1);
    } else {
      lo = x1, x1 = x2, f1 = f2, x2 = lo + g * (hi - lo), f2 = A(x2);
    }
  }
  if (p_best) *p_best = 0.5 * (lo + hi);
  return A(0.5 * (lo + hi));
}

// Greedy, uniform writes, mean-field limit (closed form above).
inline double greedy_waf_uniform(double sf, int b) {
  const double rho = 1.0 - sf;
  std::vector<double> H(b + 1, 0.0);
  for (int i = 1; i <= b; ++i) H[i] = H[i - 1] + 1.0 / i;
  // For victim level j, solve for q in [0, 1]: F(q) = rho b/(b - j + q) (H_b - H_j + q/j) - 1 = 0.
  for (int j = b; j >= 1; --j) {
    auto F = [&](double q) { return rho * b / (b - j + q) * (H[b] - H[j] + q / j) - 1.0; };
    const double f0 = F(0.0), f1 = F(1.0);
    if ((f0 <= 0 && f1 >= 0) || (f0 >= 0 && f1 <= 0)) {
      double lo = 0, hi = 1;
      for (int it = 0; it < 100; ++it) {
        const double mid = 0.5 * (lo + hi);
        ((F(mid) > 0) == (f1 > 0) ? hi : lo) = mid;
      }
      const double m = j - 0.5 * (lo + hi);
      return b / (b - m);
    }
  }
  throw std::runtime_error("greedy_waf_uniform: no fixed point");
}

enum class Victim { greedy, dchoices, random };
// Where pages go: one frontier for everything; host and GC frontiers; or one
// frontier per temperature, relocated pages staying with their temperature.
enum class Frontiers { single, host_gc, by_class };

struct MeanFieldResult {
  double waf;
  double waf_hot_victims_share;  // share of victims that held only hot pages (separation) - diagnostics
};

// The mean-field fluid model above, two temperatures (f, r); f = r = 1 is
// uniform. Integrated to its fixed point by explicit steps of dt blocks per
// block; the run length is in drive writes of U.
class MeanField {
 public:
  MeanField(double sf, int b, double f, double r, Victim v, int d, Frontiers fr)
      : sf_(sf), b_(b), f_(f), r_(r), v_(v), d_(d), fr_(fr) {}

  // step: the explicit step as a fraction of the stability limit (smaller is
  // more accurate; greedy's victim law is discontinuous and needs it small).
  double solve(double drive_writes = 40.0, double step = 0.2) {
    const int b = b_;
    const double rho = 1.0 - sf_;
    const int S = (b + 1) * (b + 1);
    std::vector<double> x(S, 0.0), nx(S);
    auto at = [b](int h, int c) { return h * (b + 1) + c; };
    // Start from a drive written once in order: full blocks, hot and cold
    // apart, rho of the blocks with data and the rest empty (valid 0).
    const double hot_blocks = rho * f_, cold_blocks = rho * (1 - f_);
    x[at(b, 0)] += hot_blocks;
    x[at(0, b)] += cold_blocks;
    x[at(0, 0)] += 1.0 - hot_blocks - cold_blocks;
    // Stability of the explicit step: one step's invalidations must not empty a state.
    const double hot_rate = f_ > 0 && r_ > 0 ? r_ / (f_ * rho * b) : 0,
                 cold_rate = f_ < 1 && r_ < 1 ? (1 - r_) / ((1 - f_) * rho * b) : 0;
    const double dt = step / (b * b * std::max(hot_rate, cold_rate));
    const double steps_per_dw = rho / dt;  // a step writes dt*b pages; a drive write is rho*b pages per block
    const long steps = long(drive_writes * steps_per_dw);
    double waf_acc = 0;
    long waf_n = 0;
    std::vector<double> bin_host(b + 1), bin_gc(b + 1);
    for (long step = 0; step < steps; ++step) {
      // 1. victims: dt mass, by the policy; the valid pages they hold
      double mh = 0, mc = 0;
      remove_victims(x, dt, &mh, &mc);
      mh /= dt;
      mc /= dt;
      const double m = mh + mc, host = b - m;
      // 2. new full blocks
      if (fr_ == Frontiers::by_class) {
        x[at(b, 0)] += dt * (mh + r_ * host) / b;
        x[at(0, b)] += dt * (mc + (1 - r_) * host) / b;
      } else if (fr_ == Frontiers::single) {
        binomial(b, (mh + r_ * host) / b, &bin_host);
        for (int h = 0; h <= b; ++h) x[at(h, b - h)] += dt * bin_host[h];
      } else {
        binomial(b, r_, &bin_host);
        binomial(b, m > 0 ? mh / m : 0.0, &bin_gc);
        for (int h = 0; h <= b; ++h) x[at(h, b - h)] += dt * (host * bin_host[h] + m * bin_gc[h]) / b;
      }
      // 3. host writes invalidate a uniformly chosen valid page of their class
      double Hv = 0, Cv = 0;
      for (int h = 0; h <= b; ++h)
        for (int c = 0; c <= cmax(h); ++c) {
          Hv += h * x[at(h, c)];
          Cv += c * x[at(h, c)];
        }
      const double kh = Hv > 0 ? dt * host * r_ / Hv : 0, kc = Cv > 0 ? dt * host * (1 - r_) / Cv : 0;
      std::fill(nx.begin(), nx.end(), 0.0);
      for (int h = 0; h <= b; ++h)
        for (int c = 0; c <= cmax(h); ++c) {
          const double v = x[at(h, c)];
          if (v == 0) continue;
          const double oh = kh * h * v, oc = kc * c * v;
          nx[at(h, c)] += v - oh - oc;
          if (h) nx[at(h - 1, c)] += oh;
          if (c) nx[at(h, c - 1)] += oc;
        }
      x.swap(nx);
      if (step > steps / 2) {  // average the second half
        waf_acc += b / host;
        ++waf_n;
      }
    }
    return waf_acc / waf_n;
  }

 private:
  void remove_victims(std::vector<double>& x, double dt, double* mh, double* mc) const {
    const int b = b_;
    auto at = [b](int h, int c) { return h * (b + 1) + c; };
    // mass by total valid count
    std::vector<double> level(b + 1, 0.0);
    for (int h = 0; h <= b; ++h)
      for (int c = 0; c <= cmax(h); ++c) level[h + c] += x[at(h, c)];
    std::vector<double> take(b + 1, 0.0);  // fraction of each level removed
    if (v_ == Victim::greedy) {
      double need = dt;
      for (int l = 0; l <= b && need > 0; ++l) {
        if (level[l] <= 0) continue;
        const double t = std::min(need, level[l]);
        take[l] = t / level[l];
        need -= t;
      }
    } else {
      const int d = v_ == Victim::random ? 1 : d_;
      double tot = 0;
      for (double v : level) tot += v;
      double above = 0;  // mass with more than l valid, as a fraction
      std::vector<double> p(b + 1);
      for (int l = b; l >= 0; --l) {
        const double ge = (above + level[l]) / tot;
        p[l] = std::pow(ge, d) - std::pow(above / tot, d);
        above += level[l];
      }
      for (int l = 0; l <= b; ++l)
        if (level[l] > 0) take[l] = std::min(1.0, dt * p[l] / level[l]);
    }
    for (int h = 0; h <= b; ++h)
      for (int c = 0; c <= cmax(h); ++c) {
        const double t = x[at(h, c)] * take[h + c];
        x[at(h, c)] -= t;
        *mh += t * h;
        *mc += t * c;
      }
  }

  // uniform writes (f = 1) keep every page hot: one dimension suffices
  int cmax(int h) const { return f_ >= 1 ? 0 : b_ - h; }

  static void binomial(int n, double p, std::vector<double>* out) {
    p = std::min(1.0, std::max(0.0, p));
    for (int k = 0; k <= n; ++k)
      (*out)[k] = std::exp(std::lgamma(n + 1.0) - std::lgamma(k + 1.0) - std::lgamma(n - k + 1.0) +
                           (k ? k * std::log(p) : 0.0) + (n - k ? (n - k) * std::log1p(-p) : 0.0));
  }

  double sf_;
  int b_;
  double f_, r_;
  Victim v_;
  int d_;
  Frontiers fr_;
};

}  // namespace ref
