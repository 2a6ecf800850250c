// ssdvp-accel-sweep's software side measured on the RV32 ISS: kmeans2d
// cross-compiled (accel/tools/kmeans_iss.c) must give the host build's labels
// and iterations on every case, and the native cost table (configs/
// cpu_cost.yaml, whose K-Means split is fitted on this very measurement by
// scripts/calibrate.sh) must predict its instruction count across N and K.
// A change to kmeans2d or to the compiler flags that moves its cost fails
// here until the table is recalibrated.
#include <gtest/gtest.h>

#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "run_command.h"

namespace {

std::vector<std::map<std::string, std::string>> run_sweep(const std::string& name, const std::string& args) {
  const auto r =
      ssdvp_test::run_command(ssdvp_test::scratch("ssdvp_sweep", name), std::string(SSDVP_ACCEL_SWEEP) + " " + args);
  EXPECT_EQ(r.code, 0) << r.err;
  std::vector<std::map<std::string, std::string>> rows;
  std::istringstream in(r.out);
  std::string line;
  std::vector<std::string> head;
  auto split = [](const std::string& l) {
    std::vector<std::string> v;
    std::stringstream ss(l);
    std::string c;
    while (std::getline(ss, c, ',')) v.push_back(c);
    return v;
  };
  while (std::getline(in, line)) {
    if (line.empty()) continue;
    if (head.empty()) {
      if (line.rfind("n,k,", 0) == 0) head = split(line);
      continue;
    }
    const auto cells = split(line);
    std::map<std::string, std::string> row;
    for (size_t i = 0; i < head.size() && i < cells.size(); ++i) row[head[i]] = cells[i];
    rows.push_back(row);
  }
  return rows;
}

TEST(AccelSweepIss, KmeansOnTheIssMatchesTheHostAndTheCalibratedTable) {
  const auto rows = run_sweep("uniform", "--lanes 1");
  ASSERT_EQ(rows.size(), 36u);  // N 640..25,600 x K 3..8
  for (const auto& r : rows) {
    SCOPED_TRACE("N=" + r.at("n") + " K=" + r.at("k"));
    EXPECT_EQ(r.at("iss_match"), "yes");
    const double iss = std::stod(r.at("sw_iss_instructions")), table = std::stod(r.at("sw_cycles"));
    EXPECT_GT(iss, 1000.0);
    EXPECT_NEAR(table / iss, 1.0, 0.05) << "table " << table << " cycles, ISS " << iss << " instructions (cpi 1)";
  }
}

TEST(AccelSweepIss, ConvergingDataStopsAtTheSameIterationOnBothSides) {
  const auto rows = run_sweep("blobs", "--data blobs --iters 100 --lanes 1");
  ASSERT_EQ(rows.size(), 36u);
  int early = 0;
  for (const auto& r : rows) {
    EXPECT_EQ(r.at("iss_match"), "yes") << "N=" << r.at("n") << " K=" << r.at("k");
    early += std::stoi(r.at("iterations")) < 100;
  }
  EXPECT_GT(early, 30);  // clustered data converges: the comparison covers the stop test
}

TEST(AccelSweepIss, AWrongImageIsNamed) {
  // a missing file, and an ELF that is not the K-Means program (the sweep itself is not RV32 at all)
  for (const std::string& elf : {std::string("/nonexistent.elf"), std::string(SSDVP_ACCEL_SWEEP)}) {
    const auto r = ssdvp_test::run_command(ssdvp_test::scratch("ssdvp_sweep", "wrong_image"),
                                           std::string(SSDVP_ACCEL_SWEEP) + " --iss-elf " + elf);
    EXPECT_NE(r.code, 0) << elf;
    EXPECT_TRUE(ssdvp_test::contains(r.err, elf)) << r.err;
  }
}

TEST(AccelSweep, NoIssRunsWithoutTheIssColumns) {
  // --no-iss once aborted in elaboration (the cost-table CPU's port unbound)
  const auto rows = run_sweep("no_iss", "--no-iss --lanes 1 --iters 3");
  ASSERT_EQ(rows.size(), 36u);
  for (const auto& r : rows) EXPECT_GT(std::stod(r.at("sw_cycles")), 0.0) << "N=" << r.at("n");
}

}  // namespace
