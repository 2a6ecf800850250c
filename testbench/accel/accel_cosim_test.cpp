// Co-simulation: the verilated RTL core (accel/rtl/kmeans_core.v) against
// the TLM core on random and edge datasets: identical labels, centroids,
// iterations and cycle counts. The RTL runs ~N x iterations cycles per job,
// so only a few cases are large.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>
#include <fstream>
#include <string>

#include "common/config.h"
#include "rtl/rtl_core.h"
#include "tlm/accel_core.h"
#include "tlm/accel_datasets.h"

using namespace ssdvp;
using accel_data::Kind;

namespace {

void compare(RtlCore& rtl, const std::vector<uint32_t>& pts, uint32_t k, uint32_t max_iter, const std::string& what) {
  TlmCore tlm(rtl_built_shape());
  AccelResult a, b;
  tlm.run(pts, k, max_iter, a);
  rtl.run(pts, k, max_iter, b);
  ASSERT_EQ(a.iterations, b.iterations) << what;
  ASSERT_EQ(a.compute_cycles, b.compute_cycles) << what;
  for (uint32_t c = 0; c < 8; ++c) {
    EXPECT_EQ(a.cx[c], b.cx[c]) << what << " cluster " << c;
    EXPECT_EQ(a.cy[c], b.cy[c]) << what << " cluster " << c;
  }
  size_t diff = 0;
  for (size_t i = 0; i < pts.size(); ++i) diff += a.labels[i] != b.labels[i];
  EXPECT_EQ(0u, diff) << what << ": labels differ";
}

TEST(AccelCosim, SmallAndEdgeDatasetsEveryK) {
  RtlCore rtl(rtl_built_shape(), "");
  const Kind kinds[] = {Kind::uniform, Kind::blobs,    Kind::all_equal, Kind::duplicates,
                        Kind::corner,  Kind::extremes, Kind::ties};
  uint32_t seed = 100;
  for (Kind kind : kinds)
    for (uint32_t n : {1u, 3u, 97u, 640u})
      for (uint32_t k = 1; k <= 8; ++k)
        for (uint32_t max_iter : {0u, 1u, 10u})
          compare(rtl, accel_data::make(kind, n, seed++), k, max_iter,
                  std::string(accel_data::kind_name(kind)) + " n=" + std::to_string(n) + " k=" + std::to_string(k) +
                      " max_iter=" + std::to_string(max_iter));
}

TEST(AccelCosim, LargeDatasets) {
  RtlCore rtl(rtl_built_shape(), "");
  const auto t0 = std::chrono::steady_clock::now();
  const uint64_t c0 = rtl.rtl_cycles();
  compare(rtl, accel_data::make(Kind::blobs, 25600, 7), 8, 10, "blobs n=25600 k=8");
  compare(rtl, accel_data::make(Kind::uniform, 25600, 8), 3, 10, "uniform n=25600 k=3");
  compare(rtl, accel_data::make(Kind::blobs, 2560, 9), 6, 10, "blobs n=2560 k=6");
  compare(rtl, accel_data::make(Kind::corner, 12800, 10), 8, 10, "corner n=12800 k=8");
  const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  const uint64_t cycles = rtl.rtl_cycles() - c0;
  std::printf("co-simulation: %llu RTL cycles in %.2f s = %.2f M cycles/s\n", static_cast<unsigned long long>(cycles),
              s, cycles / s / 1e6);
  RecordProperty("rtl_mcycles_per_s", std::to_string(cycles / s / 1e6));
}

TEST(AccelCosim, VcdOnRequest) {
  const std::string path = std::string(SSDVP_BINARY_DIR) + "/accel_cosim_test.vcd";
  std::remove(path.c_str());
  {
    RtlCore rtl(rtl_built_shape(), path);
    compare(rtl, accel_data::make(Kind::blobs, 40, 3), 4, 5, "vcd job");
  }
  std::ifstream f(path);
  std::string text((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
  EXPECT_NE(std::string::npos, text.find("$enddefinitions"));
  EXPECT_NE(std::string::npos, text.find("cycles"));
  std::remove(path.c_str());
}

TEST(AccelCosim, ConfigChoosesTheRtlCoreAndRefusesAShapeItWasNotBuiltWith) {
  Config cfg = Config::from_yaml_string("accel: {impl: rtl}");
  auto core = make_accel_core(cfg, AccelShape::from_config(cfg));
  EXPECT_STREQ("rtl", core->kind());
  Config bad = Config::from_yaml_string("accel: {impl: rtl, dividers: 5}");
  EXPECT_THROW(make_accel_core(bad, AccelShape::from_config(bad)), ConfigError);
}

}  // namespace
