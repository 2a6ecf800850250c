// hostile_test.cpp - the hostile NVMe host (platform/run/hostile.h) on
// configs/small.yaml: every case completes with its NVMe status or is
// refused, and the device goes on serving valid commands.
#include <gtest/gtest.h>

#include <set>
#include <string>

#include "run/hostile.h"

using namespace ssdvp;

namespace {

Config small_config() {
  Config c = Config::from_yaml_file(SSDVP_SOURCE_DIR "/configs/small.yaml");
  c.set("log.level", "error");
  return c;
}

}  // namespace

TEST(Hostile, EveryCaseCompletesWithItsStatusOrIsRefused) {
  const std::vector<HostileResult> r = run_hostile(small_config());
  std::set<std::string> kinds;
  for (const HostileResult& x : r) {
    EXPECT_TRUE(x.ok) << x.name << ": expected " << x.expected << ", observed " << x.observed;
    kinds.insert(x.name.substr(0, x.name.find(':')));
  }
  // Each kind of hostile input the issue names was tried.
  for (const char* k :
       {"namespace not ready", "invalid opcode", "invalid field", "invalid namespace", "LBA out of range",
        "PRP outside host memory", "SQ outside host memory", "queue deleted while in use", "after all of it"})
    EXPECT_TRUE(kinds.count(k)) << k;
  // The namespace-not-ready case ran (not the "not tried" line).
  bool not_ready_ran = false;
  for (const HostileResult& x : r)
    if (x.name == "namespace not ready: read before ftl.ns_ready_after") not_ready_ran = x.observed.find("0x082") == 0;
  EXPECT_TRUE(not_ready_ran);
}
