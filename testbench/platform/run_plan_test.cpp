// run_plan_test.cpp - the run plan's one table of refused combinations
// (platform/run/run_plan.h): every row is broken by its own example and is
// the first row that example breaks (so its message is the one a user sees),
// no shipped config breaks a row, and docs/params.md lists the table as the
// binary has it.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "run/params.h"
#include "run/run_plan.h"

using ssdvp::Config;
using ssdvp::ConfigError;
using ssdvp::PlanRule;
using ssdvp::RunEntry;
using ssdvp::RunPlan;

namespace {

// The plan an example describes: "k=v" settings over the defaults, "--option"s
// of ssdvp run, "ssdvp serve", and array.level=raid5 for an array.
RunPlan plan_of(const std::string& example) {
  Config cfg;
  cfg.declare_all(ssdvp::param_registry());
  std::istringstream in(example);
  std::string tok;
  RunEntry entry = RunEntry::run;
  bool save = false, load = false, only = false;
  while (in >> tok) {
    if (tok == "ssdvp") {
      in >> tok;
      EXPECT_EQ(tok, "serve") << example;
      entry = RunEntry::serve;
    } else if (tok == "--save-state") {
      save = true;
    } else if (tok == "--load-state") {
      load = true;
    } else if (tok == "--precondition-only") {
      only = true;
    } else {
      cfg.set_assignment(tok);
      if (tok.rfind("array.level=", 0) == 0) entry = RunEntry::array;
    }
  }
  RunPlan p = RunPlan::read(cfg, entry);
  p.save_state = save;
  p.load_state = load;
  p.precondition_only = only;
  return p;
}

std::string slurp(const std::string& path) {
  std::ifstream f(path);
  std::ostringstream s;
  s << f.rdbuf();
  return s.str();
}

}  // namespace

TEST(RunPlan, EveryRuleIsTheFirstItsExampleBreaksAndNamesItsKey) {
  ASSERT_GE(ssdvp::plan_rules().size(), 30u);
  for (const PlanRule& r : ssdvp::plan_rules()) {
    SCOPED_TRACE(r.key + ": " + r.example);
    const RunPlan p = plan_of(r.example);
    EXPECT_TRUE(r.broken(p));
    try {
      p.check();
      ADD_FAILURE() << "not refused";
    } catch (const ConfigError& e) {
      EXPECT_EQ(std::string(e.what()), ssdvp::plan_rule_message(r));
      EXPECT_NE(std::string(e.what()).find(r.key), std::string::npos);
    }
  }
}

TEST(RunPlan, MessagesSayNotWithOrWhatIsNeededAndWhy) {
  const auto& rules = ssdvp::plan_rules();
  auto find = [&](const std::string& key, const std::string& with) -> const PlanRule& {
    for (const auto& r : rules)
      if (r.key == key && r.with == with) return r;
    throw std::runtime_error("no rule " + key + " / " + with);
  };
  EXPECT_EQ(ssdvp::plan_rule_message(find("power.cuts", "power.cut_at")),
            "config key 'power.cuts': not with power.cut_at (one or the other)");
  EXPECT_EQ(ssdvp::plan_rule_message(find("--precondition-only", "needs --save-state DIR")),
            "--precondition-only: needs --save-state DIR (it saves the drive and stops)");
}

TEST(RunPlan, DefaultsAndEveryShippedConfigBreakNoRule) {
  EXPECT_NO_THROW(plan_of("").check());
  for (const auto& e : std::filesystem::directory_iterator(SSDVP_SOURCE_DIR "/configs")) {
    if (e.path().extension() != ".yaml") continue;
    SCOPED_TRACE(e.path().string());
    Config cfg = Config::from_yaml_file(e.path().string());
    cfg.declare_all(ssdvp::param_registry());
    const bool array = cfg.has("array.level") && cfg.values().at("array.level") != "none";
    const RunPlan p = RunPlan::read(cfg, array ? RunEntry::array : RunEntry::run);
    EXPECT_NO_THROW(p.check());
    EXPECT_EQ(p.start(), p.preconditions() ? RunPlan::Start::preconditioned : RunPlan::Start::fresh);
  }
}

TEST(RunPlan, AnArrayIsCheckedOnlyOnWhatItBuilds) {
  // An array ignores the single drive's power and flows keys; it is refused a saved drive and a zoned log.
  EXPECT_NO_THROW(plan_of("array.level=raid5 power.cuts=2 flows.count=2").check());
  EXPECT_THROW(plan_of("array.level=raid5 workload.source=zoned").check(), ConfigError);
  EXPECT_THROW(plan_of("array.level=raid5 --load-state").check(), ConfigError);
}

TEST(RunPlan, ParamsPageListsTheTableAsTheBinaryHasIt) {
  const std::string page = slurp(SSDVP_SOURCE_DIR "/docs/params.md");
  EXPECT_NE(page.find(ssdvp::plan_rules_markdown()), std::string::npos)
      << "docs/params.md is stale: run scripts/gen-params-doc.sh";
}
