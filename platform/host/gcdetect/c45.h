// c45.h - a small C4.5 decision tree (Quinlan 1993) for the host's GC
// detector: training, pessimistic pruning, classification, a text file format
// and a printer. No SystemC; used by the `ssdvp_c45` command, by the
// simulation (classification once per sample) and by the tests.
//
// What it implements of C4.5 (release 8, as Weka's J48 also does):
//  - split selection by gain ratio among the candidate splits whose
//    information gain is at least the average gain of all candidates;
//  - nominal attributes split multi-way, continuous ones binary (value <= t);
//    the threshold is the largest value of the attribute in the whole
//    training set not above the midpoint of the best cut (so it is a value
//    seen in the data, as C4.5 prints it);
//  - the MDL correction of a continuous split's gain: log2(cuts) / N;
//  - a minimum leaf size m (C4.5's -m, default 2): a split needs two
//    branches with at least m cases, each side of a cut at least
//    max(m, min(25, 0.1 * N / classes)) cases;
//  - pessimistic error pruning by subtree replacement at confidence factor
//    CF (default 0.25): a subtree becomes a leaf when the leaf's estimated
//    errors N * U_CF(E, N) are at most the sum of its branches' + 0.1
//    (U_CF as C4.5's AddErrs computes it).
// Not implemented: subtree raising, missing values (the CSVs have none),
// case weights, windowing.
#pragma once

#include <cstdint>
#include <iosfwd>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

namespace ssdvp::c45 {

// Bad input (a CSV without a needed column, an unparsable tree file): the
// message names the file (and line or column).
class C45Error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct Attribute {
  std::string name;
  bool nominal = false;
  std::vector<std::string> values;  // nominal: the value names (index = coded value)
};

// A training or test set: rows of attribute values (nominal values coded as
// their index, stored as double) and a class index per row.
struct Dataset {
  std::vector<Attribute> attrs;
  std::vector<std::string> classes;
  std::vector<std::vector<double>> x;
  std::vector<int> y;
  size_t size() const { return y.size(); }
  int attr_index(const std::string& name) const;  // -1 if absent
};

struct Params {
  double cf = 0.25;       // confidence factor of pruning (0 < cf <= 0.5)
  uint32_t min_leaf = 2;  // C4.5's -m
  bool prune = true;
};

struct Node {
  bool leaf = true;
  int cls = 0;                              // majority class (the prediction of a leaf)
  double n = 0, errors = 0;                 // training cases reaching the node, of them not of class `cls`
  int attr = -1;                            // split attribute
  double threshold = 0;                     // continuous: branch 0 is value <= threshold, branch 1 the rest
  std::vector<std::unique_ptr<Node>> kids;  // nominal: one per value
};

class Tree {
 public:
  Tree() = default;
  Tree(Tree&&) = default;
  Tree& operator=(Tree&&) = default;

  static Tree train(const Dataset& d, const Params& p = {});
  // Class index of one row (values in the order of attributes()).
  int classify(const double* row) const;
  // Writes the tree in its text format; load() reads it back. load() throws
  // C45Error naming `origin` and the line.
  void save(std::ostream& os) const;
  static Tree load(std::istream& is, const std::string& origin);
  static Tree load_file(const std::string& path);
  // C4.5's printout ("humidity <= 75: yes (2.0)").
  std::string print() const;

  const std::vector<Attribute>& attributes() const { return attrs_; }
  const std::vector<std::string>& classes() const { return classes_; }
  const Node& root() const { return *root_; }
  size_t leaves() const;
  size_t size() const;  // nodes
  // Attributes the tree tests, in order of first use (preorder).
  std::vector<std::string> used_attributes() const;

 private:
  std::vector<Attribute> attrs_;
  std::vector<std::string> classes_;
  std::unique_ptr<Node> root_;
};

// --- the pieces, exposed for tests ---

// Entropy in bits of class counts.
double entropy(const std::vector<double>& counts);
// Gain ratio of splitting the rows `idx` of d by nominal attribute a (all
// values, empty branches excluded from the split information).
double gain_ratio_nominal(const Dataset& d, const std::vector<size_t>& idx, int a, double* gain = nullptr);
// C4.5's extra errors at confidence cf for e errors in n cases:
// n * U_cf(e, n) - e, computed as C4.5's AddErrs (Prune.c) does, with the
// normal deviate interpolated from its table (cf_coefficient: 0.6925 at
// 0.25, so U_0.25(1, 16) = 0.157 as in Quinlan's book, p. 41).
double add_errs(double n, double e, double cf);
double cf_coefficient(double cf);

// Reads a CSV with a header row. Columns named in `drop` are ignored (if present); the
// class column `class_col` is nominal. If label_threshold is set
// (>= 0), the class column is numeric and a row is class "gc" when its
// value >= label_threshold, else "idle". A column whose every value parses
// as a number is continuous, else nominal. Throws C45Error naming the file
// (and line/column).
Dataset read_csv(const std::string& path, const std::string& class_col, const std::vector<std::string>& drop,
                 double label_threshold = -1);
// Rows of `path` arranged in the attribute order of `tree` (columns missing
// from the file: C45Error naming the file and the column) and their classes
// (from class_col as for read_csv).
Dataset read_csv_for(const Tree& tree, const std::string& path, const std::string& class_col,
                     double label_threshold = -1);

struct Scores {
  uint64_t tp = 0, fp = 0, tn = 0, fn = 0;
  double precision() const { return tp + fp ? double(tp) / double(tp + fp) : 0; }
  double recall() const { return tp + fn ? double(tp) / double(tp + fn) : 0; }
  double f1() const {
    const double p = precision(), r = recall();
    return p + r > 0 ? 2 * p * r / (p + r) : 0;
  }
};
// Scores the tree on d, class `positive` (a class name) as positive.
Scores score(const Tree& t, const Dataset& d, const std::string& positive);

}  // namespace ssdvp::c45
