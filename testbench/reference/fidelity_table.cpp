// fidelity_table.cpp - the table of docs/results/fidelity.md: the firmware's
// steady-state WAF (functional runs on the fake HAL, testbench/firmware/
// waf_measure.h) next to the analytic models of gc_models.h and, with --sim,
// the independent page-level simulator of page_sim.h, for uniform and
// two-temperature workloads. Prints CSV on stdout (scripts/fidelity.sh).
//
//   fidelity_table [--sim] [--quick] [--part uniform|skewed]
//     --sim    also run page_sim.h at the skewed greedy points, with the
//              firmware's tie-breaking (the block whose valid count changed
//              last) and with uniformly random ties (the mean-field model's),
//              at the one-frontier points also with the oldest block first
//              (the LRW order Desnoyers' Eq. 16 builds on), and at the skewed
//              d-choices point with host and GC frontiers
//     --quick  fewer drive writes (a smoke run, not for the page)
//     --part   only the uniform or only the skewed points (two processes)
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "gc_models.h"
#include "page_sim.h"
#include "waf_measure.h"

namespace {

struct Point {
  std::string workload;  // "uniform" or "80/20" (r/f in percent)
  double f, r;
  int policy;
  uint32_t d;
  bool separate;  // hot/cold frontiers (oracle classes), relocations stay in class
  double sf;
  uint32_t b = 32;      // pages per block
  bool single = false;  // one frontier for host and relocated pages (Desnoyers' greedy model's setting)
};

// Every point: 2^19 pages (16384 blocks of 32 pages), one die.
constexpr uint64_t kPages = 1ull << 19;

const char* policy_name(int p) {
  switch (p) {
    case FTL_GC_GREEDY: return "greedy";
    case FTL_GC_FIFO: return "fifo";
    case FTL_GC_RANDOM: return "random";
    case FTL_GC_DCHOICES: return "d-choices";
    default: return "?";
  }
}

// The model for a point and its name.
double model(const Point& p, double sf, uint32_t b, std::string* name) {
  const bool uniform = p.f >= 1;
  const auto fr = p.single ? ref::Frontiers::single : p.separate ? ref::Frontiers::by_class : ref::Frontiers::host_gc;
  switch (p.policy) {
    case FTL_GC_FIFO:
      *name = uniform ? "Desnoyers (Lambert W)" : "Desnoyers (non-uniform LRU)";
      return uniform ? ref::fifo_waf(sf) : ref::fifo_waf_classes(sf, {p.f, 1 - p.f}, {p.r, 1 - p.r});
    case FTL_GC_RANDOM:
      *name = "1/S_f";
      return uniform ? 1.0 / sf : ref::MeanField(sf, int(b), p.f, p.r, ref::Victim::random, 1, fr).solve(60, 0.2);
    case FTL_GC_GREEDY:
      *name = "mean field (Van Houdt)";
      return uniform ? ref::greedy_waf_uniform(sf, int(b))
                     : ref::MeanField(sf, int(b), p.f, p.r, ref::Victim::greedy, 0, fr).solve(60, 0.05);
    default:
      *name = "mean field (Van Houdt)";
      return ref::MeanField(sf, int(b), p.f, p.r, ref::Victim::dchoices, int(p.d), fr).solve(uniform ? 40 : 60, 0.02);
  }
}

// Desnoyers' greedy models (gc_models.h), at the greedy points: uniform (Eq.
// 12); two temperatures mixed (Eq. 16, written for one frontier); separated
// into two pools at the spare split one greedy choice settles at (Eq. 20-22,
// p = f). Negative: no such model for the point.
double desnoyers_greedy(const Point& p, double sf, uint32_t b) {
  if (p.policy != FTL_GC_GREEDY) return -1;
  if (p.f >= 1) return ref::desnoyers_greedy_waf(sf, int(b));
  if (p.separate) return ref::desnoyers_greedy_waf_pools(sf, int(b), p.f, p.r);
  return ref::desnoyers_greedy_waf_classes(sf, int(b), {p.f, 1 - p.f}, {p.r, 1 - p.r});
}

}  // namespace

int main(int argc, char** argv) {
  bool sim = false, quick = false, header = true;
  std::string part;
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--sim"))
      sim = true;
    else if (!std::strcmp(argv[i], "--quick"))
      quick = true;
    else if (!std::strcmp(argv[i], "--part") && i + 1 < argc &&
             (!std::strcmp(argv[i + 1], "uniform") || !std::strcmp(argv[i + 1], "skewed"))) {
      part = argv[++i];
      header = part == "uniform";
    } else {
      std::fprintf(stderr, "fidelity_table: unknown argument '%s' (use --sim, --quick, --part uniform|skewed)\n",
                   argv[i]);
      return 2;
    }
  }
  std::vector<Point> pts;
  for (double sf : {0.125, 0.28}) {
    pts.push_back({"uniform", 1, 1, FTL_GC_FIFO, 0, false, sf});
    pts.push_back({"uniform", 1, 1, FTL_GC_GREEDY, 0, false, sf});
    pts.push_back({"uniform", 1, 1, FTL_GC_DCHOICES, 2, false, sf});
    pts.push_back({"uniform", 1, 1, FTL_GC_DCHOICES, 10, false, sf});
    pts.push_back({"uniform", 1, 1, FTL_GC_RANDOM, 0, false, sf});
  }
  // d-choices against d and b (Van Houdt's figures vary both)
  for (uint32_t b : {16u, 64u})
    for (uint32_t d : {2u, 5u, 10u, 30u}) pts.push_back({"uniform", 1, 1, FTL_GC_DCHOICES, d, false, 0.125, b});
  for (uint32_t b : {16u, 64u}) pts.push_back({"uniform", 1, 1, FTL_GC_GREEDY, 0, false, 0.125, b});
  // 80/20, 60/10 (a tenth of the LBAs gets 60 % of the writes) and 90/10
  // (its cold data turns over once every 9 drive writes: the longest runs)
  for (auto fr : {std::pair<double, double>{0.2, 0.8}, {0.1, 0.6}, {0.1, 0.9}}) {
    const std::string w = std::to_string(int(fr.second * 100 + 0.5)) + "/" + std::to_string(int(fr.first * 100 + 0.5));
    for (bool sep : {false, true})
      for (int pol : {FTL_GC_FIFO, FTL_GC_GREEDY, FTL_GC_DCHOICES})
        pts.push_back({w, fr.first, fr.second, pol, pol == FTL_GC_DCHOICES ? 10u : 0u, sep, 0.125});
    // greedy with one frontier: the setting of Desnoyers' non-uniform greedy model
    pts.push_back({w, fr.first, fr.second, FTL_GC_GREEDY, 0u, false, 0.125, 32, true});
  }

  if (!part.empty()) {
    std::vector<Point> keep;
    for (const Point& p : pts)
      if ((p.f >= 1) == (part == "uniform")) keep.push_back(p);
    pts.swap(keep);
  }
  if (header)
    std::printf(
        "workload,f,r,frontiers,policy,d,pages_per_block,sf_nominal,sf_effective,measured,model,model_name,"
        "model_diff_pct,page_sim,page_sim_random_ties,desnoyers_greedy,page_sim_oldest_ties\n");
  for (const Point& p : pts) {
    const uint32_t b = p.b;
    waf::WafSetup s;
    s.T = kPages;
    s.policy = p.policy;
    s.ppb = b;
    s.sf = p.sf;
    s.dies = 1;
    s.dchoices = p.d ? p.d : 10;
    s.hot_lbas = p.f;
    s.hot_writes = p.r;
    s.oracle_classes = p.separate;
    if (p.single) s.placement = FTL_PLACE_SINGLE;
    // cold LBAs are rewritten every (1 - f) / (1 - r) drive writes: warm up
    // over several of those so cold blocks turn over
    const double cold_period = p.f >= 1 ? 1 : (1 - p.f) / (1 - p.r);
    s.warm_drive_writes = quick ? 1 : std::max(3.0, 2.0 * cold_period);
    s.measure_drive_writes = quick ? 0.5 : std::max(2.0, 0.5 * cold_period);
    const waf::WafResult r = waf::measure(s);
    if (!r.clean) {
      std::fprintf(stderr, "fidelity_table: run %s %s failed its self-check\n", p.workload.c_str(),
                   policy_name(p.policy));
      return 1;
    }
    std::string name;
    const double m = model(p, r.sf_eff, b, &name);
    std::string ps, ps_random, ps_oldest;
    if (sim && p.f < 1 && (p.policy == FTL_GC_GREEDY || (p.policy == FTL_GC_DCHOICES && !p.separate))) {
      ref::PageSim::Config c;
      c.blocks = uint32_t(kPages / b);
      c.pages_per_block = b;
      c.logical_pages = uint64_t(std::llround(double(kPages) * (1.0 - p.sf)));
      c.victim = p.policy == FTL_GC_GREEDY ? ref::SimVictim::greedy : ref::SimVictim::dchoices;
      c.d = s.dchoices;
      c.frontiers = p.single ? ref::Frontiers::single : p.separate ? ref::Frontiers::by_class : ref::Frontiers::host_gc;
      c.tie = ref::TieBreak::latest_change;
      ps = std::to_string(ref::page_sim_waf(c, p.f, p.r, s.warm_drive_writes, s.measure_drive_writes));
      if (p.policy == FTL_GC_GREEDY) {
        c.tie = ref::TieBreak::random;
        ps_random = std::to_string(ref::page_sim_waf(c, p.f, p.r, s.warm_drive_writes, s.measure_drive_writes));
        if (p.single) {
          c.tie = ref::TieBreak::oldest_closed;
          ps_oldest = std::to_string(ref::page_sim_waf(c, p.f, p.r, s.warm_drive_writes, s.measure_drive_writes));
        }
      }
    }
    const double dg = desnoyers_greedy(p, r.sf_eff, b);
    const std::string desn = dg > 0 ? std::to_string(dg) : "";
    std::printf("%s,%.2f,%.2f,%s,%s,%u,%u,%.4f,%.5f,%.4f,%.4f,%s,%+.2f,%s,%s,%s,%s\n", p.workload.c_str(), p.f, p.r,
                p.single     ? "one"
                : p.separate ? "hot/cold"
                             : "host+gc",
                policy_name(p.policy), p.policy == FTL_GC_DCHOICES ? p.d : 0u, b, p.sf, r.sf_eff, r.waf, m,
                name.c_str(), 100 * (r.waf / m - 1), ps.c_str(), ps_random.c_str(), desn.c_str(), ps_oldest.c_str());
    std::fflush(stdout);
  }
  return 0;
}
