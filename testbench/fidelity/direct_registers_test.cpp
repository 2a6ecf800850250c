// direct_registers_test.cpp - cpu.direct_registers (common/register_path.h):
// the native CPU's register accesses on the direct path are the same
// accesses as TLM transactions through the bus, so a run with the path on
// (the default) and off must agree in every summary field but the key itself
// and the process's own ones (ssdvp_version and
// ssdvp_test::kProcessRunFields). Checked on the small drive's mixed random job with GC
// active, which reaches every register block the firmware uses.
#include <gtest/gtest.h>

#include <string>

#include <nlohmann/json.hpp>

#include "run_command.h"

using nlohmann::json;

namespace {

json run_ssdvp(const std::string& name, bool direct) {
  const std::string args = "-c " SSDVP_SOURCE_DIR
                           "/configs/small.yaml --set workload.synthetic.requests=20000 --set "
                           "workload.synthetic.read_fraction=0.3 --set cpu.direct_registers=" +
                           std::string(direct ? "true" : "false");
  json s = json::parse(ssdvp_test::run_summary(SSDVP_BIN, "direct_registers", name, args));
  s.erase("ssdvp_version");
  s["config"].erase("cpu.direct_registers");
  for (const char* k : ssdvp_test::kProcessRunFields) s["run"].erase(k);
  return s;
}

TEST(DirectRegisters, OnIsTheSameRunAsEveryAccessThroughTheBus) {
  const json on = run_ssdvp("on", true), off = run_ssdvp("off", false);
  ASSERT_TRUE(on.contains("host") && on.contains("cpu"));
  EXPECT_GT(on["host"]["commands"].get<double>(), 0);
  for (const auto& [part, value] : off.items()) EXPECT_EQ(on[part], value) << part;
  EXPECT_EQ(on.size(), off.size());
}

}  // namespace
