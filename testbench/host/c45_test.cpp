// C4.5: the textbook weather data gives the known tree; gain ratio and the
// pessimistic error estimate match hand computations (Quinlan 1993); a
// synthetic threshold is learned exactly; the tree file round-trips and bad
// files and CSVs are clear errors naming the file.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>

#include "c45.h"

using namespace ssdvp::c45;

namespace {

const std::string kWeather = std::string(SSDVP_SOURCE_DIR) + "/testbench/host/fixtures/weather.csv";

std::string tmp(const std::string& name, const std::string& text) {
  const auto p = std::filesystem::temp_directory_path() / ("c45_test_" + std::to_string(::getpid()) + "_" + name);
  std::ofstream(p) << text;
  return p.string();
}

}  // namespace

TEST(C45, EntropyAndGainRatioByHand) {
  const Dataset d = read_csv(kWeather, "play", {}, -1);
  ASSERT_EQ(d.size(), 14u);
  std::vector<size_t> all(14);
  for (size_t i = 0; i < 14; ++i) all[i] = i;
  // 9 yes, 5 no: -(9/14) log2(9/14) - (5/14) log2(5/14)
  EXPECT_NEAR(entropy({9, 5}), 0.940286, 1e-6);
  double gain = 0;
  // outlook: sunny 2/3, overcast 4/0, rainy 3/2
  // gain = 0.940286 - (5/14 * 0.970951 * 2) = 0.246750; split info = 1.577406
  const double gr = gain_ratio_nominal(d, all, d.attr_index("outlook"), &gain);
  EXPECT_NEAR(gain, 0.246750, 1e-6);
  EXPECT_NEAR(gr, 0.246750 / 1.577406, 1e-6);
  // windy: false 6/2, true 3/3: gain 0.048127, split info 0.985228
  const double gw = gain_ratio_nominal(d, all, d.attr_index("windy"), &gain);
  EXPECT_NEAR(gain, 0.048127, 1e-6);
  EXPECT_NEAR(gw, 0.048127 / 0.985228, 1e-5);
}

TEST(C45, PessimisticErrorsMatchQuinlansExample) {
  // Quinlan (1993) p. 41: U25%(0,6) = 0.206, U25%(0,9) = 0.143,
  // U25%(0,1) = 0.750, U25%(1,16) = 0.157.
  EXPECT_NEAR(cf_coefficient(0.25), 0.6925, 1e-12);
  EXPECT_NEAR((0 + add_errs(6, 0, 0.25)) / 6, 0.206, 5e-4);
  EXPECT_NEAR((0 + add_errs(9, 0, 0.25)) / 9, 0.143, 5e-4);
  EXPECT_NEAR((0 + add_errs(1, 0, 0.25)) / 1, 0.750, 5e-4);
  EXPECT_NEAR((1 + add_errs(16, 1, 0.25)) / 16, 0.157, 5e-4);
  // The book's decision: the subtree's 6x0.206 + 9x0.143 + 1x0.750 = 3.273
  // predicted errors exceed the leaf's 16x0.157 = 2.512, so it is replaced.
  const double subtree = add_errs(6, 0, 0.25) + add_errs(9, 0, 0.25) + add_errs(1, 0, 0.25);
  const double leaf = 1 + add_errs(16, 1, 0.25);
  // (the book rounds U to 3 decimals: 16 x 0.0005 = 0.008 of slack)
  EXPECT_NEAR(subtree, 3.273, 8e-3);
  EXPECT_NEAR(leaf, 2.512, 8e-3);
  EXPECT_LT(leaf, subtree + 0.1);
  // Lower confidence (smaller CF) means more pessimism.
  EXPECT_GT(add_errs(16, 1, 0.1), add_errs(16, 1, 0.25));
}

TEST(C45, PruningReplacesTheBooksSubtree) {
  // 16 cases: a split into 6 + 9 + 1 pure branches whose majority class
  // differs from one case only; pessimistic pruning collapses it.
  std::ostringstream csv;
  csv << "a,c\n";
  for (int i = 0; i < 6; ++i) csv << "x,dem\n";
  for (int i = 0; i < 9; ++i) csv << "y,dem\n";
  csv << "z,rep\n";
  const Dataset d = read_csv(tmp("book.csv", csv.str()), "c", {}, -1);
  Params p;
  p.min_leaf = 1;
  p.prune = false;
  const Tree unpruned = Tree::train(d, p);
  EXPECT_GT(unpruned.leaves(), 1u);
  p.prune = true;
  const Tree pruned = Tree::train(d, p);
  EXPECT_EQ(pruned.leaves(), 1u);
  EXPECT_EQ(pruned.classes()[pruned.root().cls], "dem");
}

TEST(C45, WeatherGivesTheKnownTree) {
  const Dataset d = read_csv(kWeather, "play", {}, -1);
  const Tree t = Tree::train(d);
  const std::string expect =
      "outlook = sunny\n"
      "|   humidity <= 75: yes (2.0)\n"
      "|   humidity > 75: no (3.0)\n"
      "outlook = overcast: yes (4.0)\n"
      "outlook = rainy\n"
      "|   windy = false: yes (3.0)\n"
      "|   windy = true: no (2.0)\n";
  EXPECT_EQ(t.print(), expect);
  EXPECT_EQ(t.leaves(), 5u);
  // It classifies its training data without error.
  EXPECT_EQ(score(t, d, "yes").fp + score(t, d, "yes").fn, 0u);
}

TEST(C45, SyntheticThresholdLearnedExactly) {
  std::mt19937_64 rng(3);
  std::uniform_real_distribution<double> u(0, 100), noise(0, 1);
  std::ostringstream csv;
  csv << "x,junk,label\n";
  double below = -1, above = 1e9;
  for (int i = 0; i < 2000; ++i) {
    const double x = std::round(u(rng) * 1000) / 1000;
    csv << x << ',' << noise(rng) << ',' << (x > 37.5 ? 1 : 0) << "\n";
    if (x <= 37.5)
      below = std::max(below, x);
    else
      above = std::min(above, x);
  }
  const Dataset d = read_csv(tmp("thr.csv", csv.str()), "label", {}, 0.5);
  const Tree t = Tree::train(d);
  ASSERT_FALSE(t.root().leaf);
  EXPECT_EQ(t.attributes()[t.root().attr].name, "x");
  // The cut lies between the two classes; C4.5 places it on the largest
  // training value not above the midpoint, i.e. the largest "idle" x.
  EXPECT_EQ(t.root().threshold, below);
  EXPECT_LT(t.root().threshold, above);
  EXPECT_EQ(t.leaves(), 2u);
  const Scores s = score(t, d, "gc");
  EXPECT_EQ(s.fp + s.fn, 0u);
  EXPECT_EQ(t.used_attributes(), std::vector<std::string>{"x"});
}

TEST(C45, TreeFileRoundTrips) {
  const Dataset d = read_csv(kWeather, "play", {}, -1);
  const Tree t = Tree::train(d);
  std::stringstream ss;
  t.save(ss);
  const Tree u = Tree::load(ss, "mem");
  EXPECT_EQ(u.print(), t.print());
  for (const auto& row : d.x) EXPECT_EQ(u.classify(row.data()), t.classify(row.data()));
}

TEST(C45, BadTreeFilesNameFileAndLine) {
  auto err = [](const std::string& text) {
    std::istringstream is(text);
    try {
      Tree::load(is, "t.tree");
    } catch (const C45Error& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_NE(err("hello\n").find("t.tree:1: expected the header"), std::string::npos);
  EXPECT_NE(err("c45-tree 1\nclasses idle gc\nattributes 1\nattr x continuous\nsplit 0 zz 0 1 0\n").find("t.tree:5:"),
            std::string::npos);
  EXPECT_NE(
      err("c45-tree 1\nclasses idle gc\nattributes 1\nattr x continuous\nsplit 3 1 0 1 0\n").find("attribute index"),
      std::string::npos);
  EXPECT_NE(err("c45-tree 1\nclasses idle gc\nattributes 1\nattr x continuous\nsplit 0 1 0 1 0\nleaf 0 1 0\n")
                .find("unexpected end of file"),
            std::string::npos);
  EXPECT_NE(err("c45-tree 1\nclasses idle gc\nattributes 1\nattr x continuous\nleaf 5 1 0\n").find("class index"),
            std::string::npos);
  EXPECT_THROW(Tree::load_file("/nonexistent/x.tree"), C45Error);
}

TEST(C45, CsvErrorsNameFileAndColumn) {
  const Dataset d = read_csv(kWeather, "play", {}, -1);
  const Tree t = Tree::train(d);
  const std::string missing = tmp("missing.csv", "outlook,temperature,windy,play\nsunny,80,true,no\n");
  try {
    read_csv_for(t, missing, "play", -1);
    FAIL() << "no error";
  } catch (const C45Error& e) {
    EXPECT_NE(std::string(e.what()).find(missing + ": missing column 'humidity'"), std::string::npos) << e.what();
  }
  const std::string nolabel = tmp("nolabel.csv", "x,y\n1,2\n");
  EXPECT_THROW(read_csv(nolabel, "gc_frac", {}, 0.5), C45Error);
  const std::string ragged = tmp("ragged.csv", "x,gc_frac\n1,2\n3\n");
  try {
    read_csv(ragged, "gc_frac", {}, 0.5);
    FAIL() << "no error";
  } catch (const C45Error& e) {
    EXPECT_NE(std::string(e.what()).find(ragged + ":3:"), std::string::npos) << e.what();
  }
  const std::string badnum = tmp("badnum.csv", "x,gc_frac\n1,abc\n");
  EXPECT_THROW(read_csv(badnum, "gc_frac", {}, 0.5), C45Error);
}
