// power_check.h - what every power cut's check in a run's summary.json must
// show (issue 20), whichever CPU mode ran the firmware: nothing durable lost,
// nothing foreign, nothing unreadable, every LBA accounted for (its latest
// version, an older one that was not durable, or deallocated), and a recovery
// that read flash and took simulated time, part of it the CPU's.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <nlohmann/json.hpp>

namespace ssdvp_test {

// check: the cut's "check" object; violations: its violation count;
// recovery: its "recovery" object; lbas: the namespace's LBAs.
inline void expect_cut_recovered(const nlohmann::json& check, const nlohmann::json& violations,
                                 const nlohmann::json& recovery, uint64_t lbas) {
  const auto u = [](const nlohmann::json& j) { return j.get<uint64_t>(); };
  EXPECT_EQ(u(check["lbas"]), lbas);
  EXPECT_EQ(u(check["durable_lost"]), 0u);
  EXPECT_EQ(u(check["foreign"]), 0u);
  EXPECT_EQ(u(check["unreadable"]), 0u);
  EXPECT_EQ(u(violations), 0u);
  EXPECT_EQ(u(check["latest"]) + u(check["older_allowed"]) + u(check["deallocated_unchecked"]), lbas);
  EXPECT_GT(u(check["latest"]), lbas * 9 / 10);  // what is older was not durable
  EXPECT_GT(u(recovery["pages_read"]), 0u);
  EXPECT_GT(recovery["time_s"].get<double>(), 0.0);
  EXPECT_GT(recovery["cpu_s"].get<double>(), 0.0);
  EXPECT_LE(recovery["cpu_s"].get<double>(), recovery["time_s"].get<double>());
}

}  // namespace ssdvp_test
