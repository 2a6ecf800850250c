// c45_main.cpp - ssdvp_c45: offline training, scoring and printing of the
// GC detector's C4.5 tree (platform/host/gcdetect/c45.h).
//
//   ssdvp_c45 train -o TREE [--class COL] [--label-threshold X] [--drop A,B] [--cf 0.25] [--min-leaf 2]
//                   [--no-prune] CSV...
//   ssdvp_c45 eval TREE [--class COL] [--label-threshold X] [--positive gc] CSV...
//   ssdvp_c45 print TREE
//
// Defaults fit the sampler's iostat.csv: the class is gc_frac >= 0.5 ("gc",
// else "idle"), and time_s, predicted, trim_bytes and the bandwidth columns
// rkB/s, wkB/s are dropped (as the seed dropped bandwidth). Several CSVs are
// concatenated (same header). Exit 0 ok, 2 bad input (the message names the
// file), 1 other errors.
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "c45.h"

using namespace ssdvp::c45;

namespace {

const char* kUsage =
    "usage: ssdvp_c45 train -o TREE [--class COL] [--label-threshold X] [--drop A,B] [--cf CF] [--min-leaf M] "
    "[--no-prune] CSV...\n"
    "       ssdvp_c45 eval TREE [--class COL] [--label-threshold X] [--positive NAME] CSV...\n"
    "       ssdvp_c45 print TREE\n"
    "A negative --label-threshold reads the class column as names (e.g. the weather data's 'play').\n";

std::vector<std::string> split(const std::string& s) {
  std::vector<std::string> v;
  std::stringstream ss(s);
  std::string x;
  while (std::getline(ss, x, ','))
    if (!x.empty()) v.push_back(x);
  return v;
}

void append(Dataset& all, Dataset d, const std::string& path) {
  if (all.attrs.empty() && all.size() == 0) {
    all = std::move(d);
    return;
  }
  if (d.attrs.size() != all.attrs.size()) throw C45Error(path + ": its columns differ from the first CSV's");
  for (size_t i = 0; i < d.attrs.size(); ++i)
    if (d.attrs[i].name != all.attrs[i].name || d.attrs[i].nominal || all.attrs[i].nominal)
      throw C45Error(path + ": column '" + d.attrs[i].name +
                     "' differs from the first CSV's (concatenation needs the same continuous columns)");
  std::vector<int> map;
  for (const auto& c : d.classes) {
    int k = -1;
    for (size_t j = 0; j < all.classes.size(); ++j)
      if (all.classes[j] == c) k = int(j);
    if (k < 0) {
      k = int(all.classes.size());
      all.classes.push_back(c);
    }
    map.push_back(k);
  }
  for (size_t i = 0; i < d.size(); ++i) {
    all.x.push_back(std::move(d.x[i]));
    all.y.push_back(map[d.y[i]]);
  }
}

struct Options {
  std::string out, cls = "gc_frac", positive = "gc";
  double thr = 0.5, cf = 0.25;
  unsigned min_leaf = 2;
  bool prune = true;
  std::vector<std::string> drop = {"time_s", "predicted", "trim_bytes", "rkB/s", "wkB/s"};
  std::vector<std::string> files;
};

Options parse(int argc, char** argv) {
  Options o;
  for (int i = 2; i < argc; ++i) {
    const std::string a = argv[i];
    auto val = [&]() -> std::string {
      if (i + 1 >= argc) throw std::invalid_argument("option " + a + " needs a value");
      return argv[++i];
    };
    if (a == "-o")
      o.out = val();
    else if (a == "--class")
      o.cls = val();
    else if (a == "--label-threshold")
      o.thr = std::stod(val());
    else if (a == "--drop")
      o.drop = split(val());
    else if (a == "--cf")
      o.cf = std::stod(val());
    else if (a == "--min-leaf")
      o.min_leaf = unsigned(std::stoul(val()));
    else if (a == "--no-prune")
      o.prune = false;
    else if (a == "--positive")
      o.positive = val();
    else if (!a.empty() && a[0] == '-')
      throw std::invalid_argument("unknown option " + a);
    else
      o.files.push_back(a);
  }
  return o;
}

int cmd_print(const Options& o) {
  if (o.files.size() != 1) throw std::invalid_argument("print takes one tree file");
  const Tree t = Tree::load_file(o.files[0]);
  std::printf("%s", t.print().c_str());
  std::printf("\nNumber of leaves: %zu\nSize of the tree: %zu\n", t.leaves(), t.size());
  return 0;
}

int cmd_train(const Options& o) {
  if (o.out.empty()) throw std::invalid_argument("train needs -o TREE");
  if (o.files.empty()) throw std::invalid_argument("train needs at least one CSV");
  Dataset all;
  for (const auto& f : o.files) append(all, read_csv(f, o.cls, o.drop, o.thr), f);
  Params p;
  p.cf = o.cf;
  p.min_leaf = o.min_leaf;
  p.prune = o.prune;
  const Tree t = Tree::train(all, p);
  std::ofstream out(o.out);
  t.save(out);
  if (!out) throw C45Error(o.out + ": cannot write the tree file");
  std::printf("%s", t.print().c_str());
  std::printf("\nNumber of leaves: %zu\nSize of the tree: %zu\nTraining rows: %zu\n", t.leaves(), t.size(), all.size());
  std::string used;
  for (const auto& u : t.used_attributes()) used += (used.empty() ? "" : ", ") + u;
  std::printf("Attributes used: %s\n", used.empty() ? "(none: a single leaf)" : used.c_str());
  return 0;
}

// The counts and scores of one eval line.
void print_scores(const Scores& s) {
  std::printf("tp %llu fp %llu tn %llu fn %llu precision %.3f recall %.3f F1 %.3f\n", (unsigned long long)s.tp,
              (unsigned long long)s.fp, (unsigned long long)s.tn, (unsigned long long)s.fn, s.precision(), s.recall(),
              s.f1());
}

int cmd_eval(const Options& o) {
  if (o.files.size() < 2) throw std::invalid_argument("eval takes a tree file and at least one CSV");
  const Tree t = Tree::load_file(o.files[0]);
  Scores total;
  for (size_t i = 1; i < o.files.size(); ++i) {
    const Dataset d = read_csv_for(t, o.files[i], o.cls, o.thr);
    const Scores s = score(t, d, o.positive);
    std::printf("%s: rows %zu ", o.files[i].c_str(), d.size());
    print_scores(s);
    total.tp += s.tp;
    total.fp += s.fp;
    total.tn += s.tn;
    total.fn += s.fn;
  }
  std::printf("all: ");
  print_scores(total);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fputs(kUsage, stderr);
    return 2;
  }
  const std::string cmd = argv[1];
  try {
    const Options o = parse(argc, argv);
    if (cmd == "print") return cmd_print(o);
    if (cmd == "train") return cmd_train(o);
    if (cmd == "eval") return cmd_eval(o);
    throw std::invalid_argument("unknown command '" + cmd + "'");
  } catch (const C45Error& e) {
    std::fprintf(stderr, "ssdvp_c45: %s\n", e.what());
    return 2;
  } catch (const std::invalid_argument& e) {
    std::fprintf(stderr, "ssdvp_c45: %s\n%s", e.what(), kUsage);
    return 2;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "ssdvp_c45: %s\n", e.what());
    return 1;
  }
}
