// c45.cpp - see c45.h.
#include "c45.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <functional>
#include <map>
#include <numeric>
#include <sstream>

namespace ssdvp::c45 {
namespace {

double xlogx(double x) { return x > 0 ? x * std::log2(x) : 0; }

std::vector<std::string> split_csv(const std::string& line) {
  std::vector<std::string> out;
  std::string cur;
  for (char c : line) {
    if (c == ',') {
      out.push_back(cur);
      cur.clear();
    } else if (c != '\r') {
      cur += c;
    }
  }
  out.push_back(cur);
  for (auto& s : out) {
    const auto b = s.find_first_not_of(" \t");
    const auto e = s.find_last_not_of(" \t");
    s = b == std::string::npos ? "" : s.substr(b, e - b + 1);
  }
  return out;
}

bool parse_num(const std::string& s, double* v) {
  if (s.empty()) return false;
  char* end = nullptr;
  *v = std::strtod(s.c_str(), &end);
  return end && *end == 0 && std::isfinite(*v);
}

struct Builder {
  const Dataset& d;
  const Params& p;
  std::vector<std::vector<double>> sorted_all;  // per continuous attribute: all training values, sorted

  int nclass() const { return int(d.classes.size()); }

  std::vector<double> counts(const std::vector<size_t>& idx) const {
    std::vector<double> c(d.classes.size(), 0);
    for (size_t i : idx) c[d.y[i]] += 1;
    return c;
  }

  struct Split {
    bool ok = false;
    double gain = 0, ratio = 0, threshold = 0;
  };

  Split eval_nominal(const std::vector<size_t>& idx, int a, double base) const {
    Split s;
    const size_t nv = d.attrs[a].values.size();
    std::vector<std::vector<double>> c(nv, std::vector<double>(d.classes.size(), 0));
    std::vector<double> tot(nv, 0);
    for (size_t i : idx) {
      const size_t v = size_t(d.x[i][a]);
      c[v][d.y[i]] += 1;
      tot[v] += 1;
    }
    int big = 0;
    for (double t : tot) big += t >= p.min_leaf;
    if (big < 2) return s;
    const double n = double(idx.size());
    double rest = 0, si = 0;
    for (size_t v = 0; v < nv; ++v) {
      if (tot[v] == 0) continue;
      rest += tot[v] / n * entropy(c[v]);
      si -= xlogx(tot[v] / n);
    }
    s.gain = base - rest;
    if (s.gain <= 1e-10 || si <= 0) return s;
    s.ratio = s.gain / si;
    s.ok = true;
    return s;
  }

  Split eval_continuous(const std::vector<size_t>& idx, int a, double base) const {
    Split s;
    const size_t n = idx.size();
    std::vector<size_t> o(idx);
    std::sort(o.begin(), o.end(), [&](size_t i, size_t j) { return d.x[i][a] < d.x[j][a]; });
    const double min_split = std::min(25.0, std::max(double(p.min_leaf), 0.1 * double(n) / double(d.classes.size())));
    std::vector<double> left(d.classes.size(), 0), right = counts(idx);
    double best_rest = 1e300;
    size_t best_i = 0, cuts = 0;
    for (size_t i = 1; i < n; ++i) {
      left[d.y[o[i - 1]]] += 1;
      right[d.y[o[i - 1]]] -= 1;
      if (d.x[o[i - 1]][a] >= d.x[o[i]][a]) continue;  // no cut between equal values
      if (double(i) < min_split || double(n - i) < min_split) continue;
      ++cuts;
      const double rest = (double(i) * entropy(left) + double(n - i) * entropy(right)) / double(n);
      if (rest < best_rest - 1e-12) {
        best_rest = rest;
        best_i = i;
      }
    }
    if (!cuts) return s;
    s.gain = base - best_rest - std::log2(double(cuts)) / double(n);  // MDL correction (release 8)
    if (s.gain <= 1e-10) return s;
    const double fl = double(best_i) / double(n), fr = 1 - fl;
    const double si = -xlogx(fl) - xlogx(fr);
    s.ratio = s.gain / si;
    // The largest training value not above the midpoint of the cut.
    const double mid = (d.x[o[best_i - 1]][a] + d.x[o[best_i]][a]) / 2;
    const auto& all = sorted_all[a];
    auto it = std::upper_bound(all.begin(), all.end(), mid);
    s.threshold = it == all.begin() ? d.x[o[best_i - 1]][a] : *(it - 1);
    s.ok = true;
    return s;
  }

  std::unique_ptr<Node> build(const std::vector<size_t>& idx, int parent_cls) {
    auto node = std::make_unique<Node>();
    const auto c = counts(idx);
    node->n = double(idx.size());
    node->cls = idx.empty() ? parent_cls : int(std::max_element(c.begin(), c.end()) - c.begin());
    node->errors = node->n - (idx.empty() ? 0 : c[node->cls]);
    if (node->errors == 0 || node->n < 2.0 * p.min_leaf) return node;
    const double base = entropy(c);
    std::vector<Split> sp(d.attrs.size());
    double sum_gain = 0;
    int valid = 0;
    for (size_t a = 0; a < d.attrs.size(); ++a) {
      sp[a] = d.attrs[a].nominal ? eval_nominal(idx, int(a), base) : eval_continuous(idx, int(a), base);
      if (sp[a].ok) {
        sum_gain += sp[a].gain;
        ++valid;
      }
    }
    if (!valid) return node;
    const double avg = sum_gain / valid;
    int best = -1;
    for (size_t a = 0; a < d.attrs.size(); ++a)
      if (sp[a].ok && sp[a].gain >= avg - 1e-3 && (best < 0 || sp[a].ratio > sp[best].ratio + 1e-12)) best = int(a);
    if (best < 0) return node;
    node->leaf = false;
    node->attr = best;
    if (d.attrs[best].nominal) {
      std::vector<std::vector<size_t>> parts(d.attrs[best].values.size());
      for (size_t i : idx) parts[size_t(d.x[i][best])].push_back(i);
      for (auto& part : parts) node->kids.push_back(build(part, node->cls));
    } else {
      node->threshold = sp[best].threshold;
      std::vector<size_t> l, r;
      for (size_t i : idx) (d.x[i][best] <= node->threshold ? l : r).push_back(i);
      if (l.empty() || r.empty()) {  // cannot happen with a snapped threshold; be safe
        node->leaf = true;
        node->attr = -1;
        return node;
      }
      node->kids.push_back(build(l, node->cls));
      node->kids.push_back(build(r, node->cls));
    }
    return node;
  }
};

// Bottom-up subtree replacement; returns the estimated errors of the (pruned) subtree.
double prune(Node& nd, double cf) {
  const double leaf_est = nd.errors + add_errs(nd.n, nd.errors, cf);
  if (nd.leaf) return leaf_est;
  double tree_est = 0;
  for (auto& k : nd.kids) tree_est += prune(*k, cf);
  if (leaf_est <= tree_est + 0.1) {
    nd.leaf = true;
    nd.attr = -1;
    nd.kids.clear();
    return leaf_est;
  }
  return tree_est;
}

std::string fmt_num(double v) {
  char b[64];
  std::snprintf(b, sizeof b, "%.17g", v);
  // shortest text that round-trips
  for (int prec = 1; prec <= 17; ++prec) {
    char s[64];
    std::snprintf(s, sizeof s, "%.*g", prec, v);
    if (std::strtod(s, nullptr) == v) return s;
  }
  return b;
}

std::string fmt_print(double v) {
  char b[64];
  std::snprintf(b, sizeof b, "%.6g", v);
  return b;
}

}  // namespace

int Dataset::attr_index(const std::string& name) const {
  for (size_t i = 0; i < attrs.size(); ++i)
    if (attrs[i].name == name) return int(i);
  return -1;
}

double entropy(const std::vector<double>& c) {
  double n = 0;
  for (double v : c) n += v;
  if (n <= 0) return 0;
  double h = 0;
  for (double v : c) h -= xlogx(v / n);
  return h;
}

double gain_ratio_nominal(const Dataset& d, const std::vector<size_t>& idx, int a, double* gain) {
  Params p;
  p.min_leaf = 0;
  Builder b{d, p, {}};
  const auto s = b.eval_nominal(idx, a, entropy(b.counts(idx)));
  if (gain) *gain = s.gain;
  return s.ratio;
}

double cf_coefficient(double cf) {
  // C4.5's table of the normal deviate (Prune.c), interpolated linearly.
  static const double val[] = {0, 0.001, 0.005, 0.01, 0.05, 0.10, 0.20, 0.40, 1.00};
  static const double dev[] = {4.0, 3.09, 2.58, 2.33, 1.65, 1.28, 0.84, 0.25, 0.00};
  int i = 0;
  while (i < 8 && cf > val[i]) ++i;
  if (i == 0) return dev[0];
  return dev[i - 1] + (dev[i] - dev[i - 1]) * (cf - val[i - 1]) / (val[i] - val[i - 1]);
}

double add_errs(double n, double e, double cf) {
  // C4.5's AddErrs (Prune.c): n * U_cf(e, n) - e.
  if (n <= 0) return 0;
  const double z = cf_coefficient(cf), coeff = z * z;
  const double val0 = n * (1 - std::exp(std::log(cf) / n));
  if (e < 1e-6) return val0;
  if (e < 0.9999) return val0 + e * (add_errs(n, 1.0, cf) - val0);
  if (e + 0.5 >= n) return 0.67 * (n - e);
  const double pr =
      (e + 0.5 + coeff / 2 + std::sqrt(coeff * ((e + 0.5) * (1 - (e + 0.5) / n) + coeff / 4))) / (n + coeff);
  return n * pr - e;
}

Tree Tree::train(const Dataset& d, const Params& p) {
  if (d.size() == 0) throw C45Error("c45: no training rows");
  if (d.classes.empty()) throw C45Error("c45: no classes");
  if (!(p.cf > 0 && p.cf <= 0.5)) throw C45Error("c45: confidence factor must be in (0, 0.5]");
  Builder b{d, p, std::vector<std::vector<double>>(d.attrs.size())};
  for (size_t a = 0; a < d.attrs.size(); ++a) {
    if (d.attrs[a].nominal) continue;
    auto& v = b.sorted_all[a];
    for (const auto& row : d.x) v.push_back(row[a]);
    std::sort(v.begin(), v.end());
  }
  std::vector<size_t> idx(d.size());
  std::iota(idx.begin(), idx.end(), 0);
  Tree t;
  t.attrs_ = d.attrs;
  t.classes_ = d.classes;
  t.root_ = b.build(idx, 0);
  if (p.prune) prune(*t.root_, p.cf);
  return t;
}

int Tree::classify(const double* row) const {
  const Node* n = root_.get();
  while (!n->leaf) {
    const double v = row[n->attr];
    if (attrs_[n->attr].nominal) {
      const size_t k = size_t(v);
      if (k >= n->kids.size()) return n->cls;
      n = n->kids[k].get();
    } else {
      n = n->kids[v <= n->threshold ? 0 : 1].get();
    }
  }
  return n->cls;
}

size_t Tree::leaves() const {
  std::function<size_t(const Node&)> f = [&](const Node& n) -> size_t {
    if (n.leaf) return 1;
    size_t s = 0;
    for (auto& k : n.kids) s += f(*k);
    return s;
  };
  return root_ ? f(*root_) : 0;
}

size_t Tree::size() const {
  std::function<size_t(const Node&)> f = [&](const Node& n) -> size_t {
    size_t s = 1;
    for (auto& k : n.kids) s += f(*k);
    return s;
  };
  return root_ ? f(*root_) : 0;
}

std::vector<std::string> Tree::used_attributes() const {
  std::vector<std::string> out;
  std::function<void(const Node&)> f = [&](const Node& n) {
    if (n.leaf) return;
    const std::string& nm = attrs_[n.attr].name;
    if (std::find(out.begin(), out.end(), nm) == out.end()) out.push_back(nm);
    for (auto& k : n.kids) f(*k);
  };
  if (root_) f(*root_);
  return out;
}

void Tree::save(std::ostream& os) const {
  os << "c45-tree 1\n";
  os << "classes";
  for (const auto& c : classes_) os << ' ' << c;
  os << "\nattributes " << attrs_.size() << "\n";
  for (const auto& a : attrs_) {
    os << "attr " << a.name << (a.nominal ? " nominal" : " continuous");
    for (const auto& v : a.values) os << ' ' << v;
    os << "\n";
  }
  std::function<void(const Node&)> f = [&](const Node& n) {
    if (n.leaf) {
      os << "leaf " << n.cls << ' ' << fmt_num(n.n) << ' ' << fmt_num(n.errors) << "\n";
      return;
    }
    if (attrs_[n.attr].nominal)
      os << "nominal " << n.attr << ' ' << n.cls << ' ' << fmt_num(n.n) << ' ' << fmt_num(n.errors) << "\n";
    else
      os << "split " << n.attr << ' ' << fmt_num(n.threshold) << ' ' << n.cls << ' ' << fmt_num(n.n) << ' '
         << fmt_num(n.errors) << "\n";
    for (auto& k : n.kids) f(*k);
  };
  f(*root_);
}

namespace {

// A tree file's lines, without comments and blank lines; errors name the
// file, the line and what it holds.
struct TreeLines {
  std::istream& is;
  const std::string& origin;
  std::string line;
  size_t lineno = 0;

  C45Error fail(const std::string& what) const {
    return C45Error(origin + ":" + std::to_string(lineno) + ": " + what + (line.empty() ? "" : ", got '" + line + "'"));
  }
  bool next(bool required) {
    while (std::getline(is, line)) {
      ++lineno;
      if (!line.empty() && line.back() == '\r') line.pop_back();
      if (!line.empty() && line[0] != '#') return true;
    }
    line.clear();
    if (required) throw fail("unexpected end of file");
    return false;
  }
};

// 'classes <name>...'
std::vector<std::string> read_classes(TreeLines& in) {
  in.next(true);
  std::istringstream ss(in.line);
  std::string w;
  ss >> w;
  if (w != "classes") throw in.fail("expected 'classes <name>...'");
  std::vector<std::string> classes;
  while (ss >> w) classes.push_back(w);
  if (classes.empty()) throw in.fail("expected at least one class name");
  return classes;
}

// 'attributes <count>', then one 'attr' line each.
std::vector<Attribute> read_attributes(TreeLines& in) {
  in.next(true);
  size_t na = 0;
  {
    std::istringstream ss(in.line);
    std::string w;
    if (!(ss >> w >> na) || w != "attributes") throw in.fail("expected 'attributes <count>'");
  }
  std::vector<Attribute> attrs;
  for (size_t i = 0; i < na; ++i) {
    in.next(true);
    std::istringstream ss(in.line);
    std::string w, kind;
    Attribute a;
    if (!(ss >> w >> a.name >> kind) || w != "attr" || (kind != "nominal" && kind != "continuous"))
      throw in.fail("expected 'attr <name> continuous|nominal [values...]'");
    a.nominal = kind == "nominal";
    while (ss >> w) a.values.push_back(w);
    if (a.nominal && a.values.empty()) throw in.fail("nominal attribute '" + a.name + "' has no values");
    attrs.push_back(a);
  }
  return attrs;
}

// One node line and its subtrees, preorder.
std::unique_ptr<Node> read_node(TreeLines& in, const std::vector<std::string>& classes,
                                const std::vector<Attribute>& attrs, int depth) {
  if (depth > 10000) throw in.fail("tree too deep");
  in.next(true);
  std::istringstream ss(in.line);
  std::string kind;
  ss >> kind;
  auto n = std::make_unique<Node>();
  auto check_cls = [&] {
    if (n->cls < 0 || size_t(n->cls) >= classes.size()) throw in.fail("class index out of range");
  };
  auto check_attr = [&](bool nominal) {
    if (n->attr < 0 || size_t(n->attr) >= attrs.size()) throw in.fail("attribute index out of range");
    if (attrs[n->attr].nominal != nominal) throw in.fail("split kind does not match the attribute's type");
  };
  size_t kids = 0;
  if (kind == "leaf") {
    if (!(ss >> n->cls >> n->n >> n->errors)) throw in.fail("expected 'leaf <class> <n> <errors>'");
    check_cls();
  } else if (kind == "split") {
    n->leaf = false;
    if (!(ss >> n->attr >> n->threshold >> n->cls >> n->n >> n->errors))
      throw in.fail("expected 'split <attr> <threshold> <class> <n> <errors>'");
    check_cls();
    check_attr(false);
    kids = 2;
  } else if (kind == "nominal") {
    n->leaf = false;
    if (!(ss >> n->attr >> n->cls >> n->n >> n->errors))
      throw in.fail("expected 'nominal <attr> <class> <n> <errors>'");
    check_cls();
    check_attr(true);
    kids = attrs[n->attr].values.size();
  } else {
    throw in.fail("expected a node: 'leaf', 'split' or 'nominal'");
  }
  std::string extra;
  if (ss >> extra) throw in.fail("trailing text on a node line");
  for (size_t k = 0; k < kids; ++k) n->kids.push_back(read_node(in, classes, attrs, depth + 1));
  return n;
}

}  // namespace

Tree Tree::load(std::istream& is, const std::string& origin) {
  TreeLines in{is, origin, {}, 0};
  Tree t;
  in.next(true);
  if (in.line != "c45-tree 1") throw in.fail("expected the header 'c45-tree 1' (not a tree file?)");
  t.classes_ = read_classes(in);
  t.attrs_ = read_attributes(in);
  t.root_ = read_node(in, t.classes_, t.attrs_, 0);
  if (in.next(false)) throw in.fail("text after the end of the tree");
  return t;
}

Tree Tree::load_file(const std::string& path) {
  std::ifstream f(path);
  if (!f) throw C45Error(path + ": cannot open the tree file");
  return load(f, path);
}

std::string Tree::print() const {
  std::ostringstream os;
  auto tail = [&](const Node& n) {
    char b[96];
    if (n.errors > 0)
      std::snprintf(b, sizeof b, ": %s (%.1f/%.1f)\n", classes_[n.cls].c_str(), n.n, n.errors);
    else
      std::snprintf(b, sizeof b, ": %s (%.1f)\n", classes_[n.cls].c_str(), n.n);
    return std::string(b);
  };
  std::function<void(const Node&, int)> f = [&](const Node& n, int depth) {
    const Attribute& a = attrs_[n.attr];
    for (size_t k = 0; k < n.kids.size(); ++k) {
      std::string pre;
      for (int i = 0; i < depth; ++i) pre += "|   ";
      std::string cond =
          a.nominal ? a.name + " = " + a.values[k] : a.name + (k == 0 ? " <= " : " > ") + fmt_print(n.threshold);
      const Node& kid = *n.kids[k];
      if (kid.leaf) {
        os << pre << cond << tail(kid);
      } else {
        os << pre << cond << "\n";
        f(kid, depth + 1);
      }
    }
  };
  if (root_->leaf)
    os << tail(*root_).substr(2);
  else
    f(*root_, 0);
  return os.str();
}

namespace {

struct RawCsv {
  std::vector<std::string> header;
  std::vector<std::vector<std::string>> rows;
  std::vector<size_t> lines;
};

RawCsv read_raw(const std::string& path) {
  std::ifstream f(path);
  if (!f) throw C45Error(path + ": cannot open the CSV file");
  RawCsv r;
  std::string line;
  size_t lineno = 0;
  while (std::getline(f, line)) {
    ++lineno;
    if (line.empty() || line == "\r") continue;
    auto cells = split_csv(line);
    if (r.header.empty()) {
      r.header = cells;
      for (const auto& h : r.header) {
        if (h.empty()) throw C45Error(path + ":" + std::to_string(lineno) + ": empty column name in the header");
        if (h.find_first_of(" \t") != std::string::npos)
          throw C45Error(path + ":" + std::to_string(lineno) + ": column name '" + h + "' contains white space");
      }
      continue;
    }
    if (cells.size() != r.header.size())
      throw C45Error(path + ":" + std::to_string(lineno) + ": expected " + std::to_string(r.header.size()) +
                     " fields (as in the header), got " + std::to_string(cells.size()));
    r.rows.push_back(std::move(cells));
    r.lines.push_back(lineno);
  }
  if (r.header.empty()) throw C45Error(path + ": empty file (expected a header row)");
  return r;
}

int column(const RawCsv& r, const std::string& name, const std::string& path, const std::string& why) {
  for (size_t i = 0; i < r.header.size(); ++i)
    if (r.header[i] == name) return int(i);
  throw C45Error(path + ": missing column '" + name + "'" + why);
}

void read_class(const RawCsv& r, const std::string& path, int ci, double thr, Dataset& d) {
  if (thr >= 0) {
    d.classes = {"idle", "gc"};
    for (size_t i = 0; i < r.rows.size(); ++i) {
      double v;
      if (!parse_num(r.rows[i][ci], &v))
        throw C45Error(path + ":" + std::to_string(r.lines[i]) + ": column '" + r.header[ci] +
                       "': expected a number, got '" + r.rows[i][ci] + "'");
      d.y.push_back(v >= thr ? 1 : 0);
    }
    return;
  }
  std::map<std::string, int> idx;
  for (const auto& c : d.classes) idx[c] = int(idx.size());
  for (size_t i = 0; i < r.rows.size(); ++i) {
    const std::string& v = r.rows[i][ci];
    if (v.empty()) throw C45Error(path + ":" + std::to_string(r.lines[i]) + ": empty class value");
    auto it = idx.find(v);
    if (it == idx.end()) {
      it = idx.emplace(v, int(d.classes.size())).first;
      d.classes.push_back(v);
    }
    d.y.push_back(it->second);
  }
}

}  // namespace

Dataset read_csv(const std::string& path, const std::string& class_col, const std::vector<std::string>& drop,
                 double label_threshold) {
  const RawCsv r = read_raw(path);
  const int ci = column(r, class_col, path, " (the class/label column)");
  Dataset d;
  std::vector<int> cols;
  for (size_t c = 0; c < r.header.size(); ++c) {
    if (int(c) == ci || std::find(drop.begin(), drop.end(), r.header[c]) != drop.end()) continue;
    Attribute a;
    a.name = r.header[c];
    for (const auto& row : r.rows) {
      double v;
      if (!parse_num(row[c], &v)) {
        a.nominal = true;
        break;
      }
    }
    d.attrs.push_back(a);
    cols.push_back(int(c));
  }
  d.x.assign(r.rows.size(), std::vector<double>(cols.size()));
  for (size_t k = 0; k < cols.size(); ++k) {
    Attribute& a = d.attrs[k];
    std::map<std::string, int> vi;
    for (size_t i = 0; i < r.rows.size(); ++i) {
      const std::string& s = r.rows[i][cols[k]];
      if (s.empty())
        throw C45Error(path + ":" + std::to_string(r.lines[i]) + ": empty value in column '" + a.name +
                       "' (missing values are not supported)");
      if (a.nominal) {
        auto it = vi.find(s);
        if (it == vi.end()) {
          it = vi.emplace(s, int(a.values.size())).first;
          a.values.push_back(s);
        }
        d.x[i][k] = it->second;
      } else {
        parse_num(s, &d.x[i][k]);
      }
    }
  }
  read_class(r, path, ci, label_threshold, d);
  return d;
}

Dataset read_csv_for(const Tree& tree, const std::string& path, const std::string& class_col, double label_threshold) {
  const RawCsv r = read_raw(path);
  Dataset d;
  d.attrs = tree.attributes();
  std::vector<int> cols;
  for (const auto& a : d.attrs) cols.push_back(column(r, a.name, path, " (an attribute of the tree)"));
  const int ci = column(r, class_col, path, " (the class/label column)");
  d.x.assign(r.rows.size(), std::vector<double>(cols.size()));
  for (size_t k = 0; k < cols.size(); ++k) {
    const Attribute& a = d.attrs[k];
    for (size_t i = 0; i < r.rows.size(); ++i) {
      const std::string& s = r.rows[i][cols[k]];
      const std::string where = path + ":" + std::to_string(r.lines[i]) + ": column '" + a.name + "'";
      if (a.nominal) {
        auto it = std::find(a.values.begin(), a.values.end(), s);
        if (it == a.values.end()) throw C45Error(where + ": value '" + s + "' unknown to the tree");
        d.x[i][k] = double(it - a.values.begin());
      } else if (!parse_num(s, &d.x[i][k])) {
        throw C45Error(where + ": expected a number, got '" + s + "'");
      }
    }
  }
  d.classes = tree.classes();
  if (label_threshold >= 0 && d.classes != std::vector<std::string>{"idle", "gc"})
    throw C45Error(path + ": the tree's classes are not idle/gc, so a label threshold does not apply");
  read_class(r, path, ci, label_threshold, d);
  if (label_threshold < 0 && d.classes.size() != tree.classes().size())
    throw C45Error(path + ": class values unknown to the tree in column '" + class_col + "'");
  return d;
}

Scores score(const Tree& t, const Dataset& d, const std::string& positive) {
  const auto& cl = t.classes();
  const auto it = std::find(cl.begin(), cl.end(), positive);
  if (it == cl.end()) throw C45Error("c45: class '" + positive + "' is not a class of the tree");
  const int pos = int(it - cl.begin());
  Scores s;
  for (size_t i = 0; i < d.size(); ++i) {
    const bool pred = t.classify(d.x[i].data()) == pos, truth = d.y[i] == pos;
    if (pred && truth)
      ++s.tp;
    else if (pred)
      ++s.fp;
    else if (truth)
      ++s.fn;
    else
      ++s.tn;
  }
  return s;
}

}  // namespace ssdvp::c45
