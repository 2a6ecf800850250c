// params_test.cpp - the parameter registry and the firmware's parameter
// table: every key is declared before any model reads it, every read agrees
// with the registry (type and default), a misspelt key's hint names only its
// near misses, and ftl_params.def's defaults and ranges are the same on the
// firmware side (ftl_config_default, ftl_config_check) and the platform side.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <functional>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <string>

#include "common/param_table.h"
#include "nvme/nvme_ctrl.h"
#include "stream_predict.h"

#include "run/params.h"
#include "run/saved_state.h"
#include "run/simulation.h"
#include "soc/ftl_params.h"
#include "soc/ssd_soc.h"

extern "C" {
#include "hotness.h"
}

using ssdvp::Config;
using ssdvp::ConfigError;

namespace {

Config small() { return Config::from_yaml_file(SSDVP_SOURCE_DIR "/configs/small.yaml"); }

std::string joined(const std::vector<std::string>& v) {
  std::string s;
  for (const auto& x : v) s += "\n  " + x;
  return s;
}

// Every key a build reads is in the registry with the same type and default;
// what it does not read is only what another mode reads.
void expect_registry_matches(Config& c, const std::string& other_mode_prefix) {
  ssdvp::Simulation sim(c);
  EXPECT_TRUE(c.drift().empty()) << joined(c.drift());
  for (const auto& k : c.unread())  // array.*: read by an array run (ArrayRegistry below); nbd.*: by ssdvp serve
    if (k.rfind("array.", 0) != 0 && k.rfind("nbd.", 0) != 0) {
      EXPECT_EQ(k.rfind(other_mode_prefix, 0), 0u) << "nobody reads " << k;
    }
  std::set<std::string> keys;
  for (const auto& p : c.params()) EXPECT_TRUE(keys.insert(p.key).second) << "declared twice: " << p.key;
}

}  // namespace

TEST(ParamRegistry, NativeBuildReadsExactlyTheRegistry) {
  Config c = small();
  c.set("log.ssd0.flash", "warn");  // a per-instance key is not drift
  expect_registry_matches(c, "cpu.iss.");
}

#ifdef SSDVP_HAVE_ISS
TEST(ParamRegistry, IssBuildReadsExactlyTheRegistry) {
  Config c = small();
  c.set("cpu.mode", "iss");
  // the ISS controller has no cost table, no native quantum and no direct register path
  ssdvp::Simulation sim(c);
  EXPECT_TRUE(c.drift().empty()) << joined(c.drift());
  for (const auto& k : c.unread())
    EXPECT_TRUE(k.rfind("cpu.cost.", 0) == 0 || k == "cpu.quantum" || k == "cpu.direct_registers" ||
                k.rfind("array.", 0) == 0 || k.rfind("nbd.", 0) == 0)
        << "nobody reads " << k;
}
#endif

TEST(ParamRegistry, ListIsTheSameWhateverTheModeOrTheReads) {
  // The list is the registry's: the same keys in the same order with and
  // without a build, and before the build every key is already known.
  Config before;
  before.declare_all(ssdvp::param_registry());
  Config c = small();
  ssdvp::Simulation sim(c);
  ASSERT_EQ(before.params().size(), c.params().size());
  for (size_t i = 0; i < c.params().size(); ++i) EXPECT_EQ(before.params()[i].key, c.params()[i].key) << i;
  EXPECT_TRUE(before.undeclared().empty());
}

TEST(ParamRegistry, HintNamesOnlyNearMisses) {
  Config c;
  c.declare_all(ssdvp::param_registry());
  EXPECT_EQ(c.near_misses("host.mdoe"), std::vector<std::string>{"host.mode"});
  EXPECT_EQ(c.near_misses("pcie.latancy"), std::vector<std::string>{"pcie.latency"});
  EXPECT_EQ(c.near_misses("nvme.fetch_bust"), std::vector<std::string>{"nvme.fetch_burst"});
  // the same last component in another section
  const auto m = c.near_misses("ftl.max_active");
  EXPECT_NE(std::find(m.begin(), m.end(), "ftl.gc.max_active"), m.end());
  EXPECT_TRUE(c.near_misses("cpu.cost.nonsense").empty());
  EXPECT_TRUE(c.near_misses("zzzz").empty());

  c.set("host.mdoe", "open");
  try {
    c.check_unknown();
    FAIL() << "host.mdoe accepted";
  } catch (const ConfigError& e) {
    const std::string msg = e.what();
    EXPECT_NE(msg.find("host.mdoe"), std::string::npos) << msg;
    EXPECT_NE(msg.find("host.mode"), std::string::npos) << msg;
    EXPECT_EQ(msg.find("host.queue_depth"), std::string::npos) << msg;  // not a list of valid keys
  }
}

TEST(ParamRegistry, MisspeltKeyIsReportedBeforeTheBuild) {
  // The typo's default would make the platform invalid (1 die per channel of
  // 8 is fine, but reserve >= threshold is not): the key is named first.
  Config c = small();
  c.set("ftl.gc.treshold_blocks", "2");
  c.set("ftl.gc.reserve_blocks", "100000");
  try {
    ssdvp::Simulation sim(c);
    FAIL() << "accepted";
  } catch (const ConfigError& e) {
    const std::string msg = e.what();
    EXPECT_NE(msg.find("ftl.gc.treshold_blocks"), std::string::npos) << msg;
    EXPECT_NE(msg.find("perhaps misspelt ftl.gc.threshold_blocks"), std::string::npos) << msg;
  }
}

// --- the parameter table: a key read by name takes everything from its row ---

std::string error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const ConfigError& e) {
    return e.what();
  }
  return "";
}

// Reads a row by its key alone, as a model does; the value as text.
std::string read_by_key(Config& c, const ssdvp::ParamRow& r) {
  const std::string t = r.type;
  if (t == "u64") return r.computed_default() ? std::to_string(c.get_u64(r.key, 1)) : std::to_string(c.get_u64(r.key));
  if (t == "i64") return std::to_string(c.get_i64(r.key));
  if (t == "double") return std::to_string(c.get_double(r.key));
  if (t == "bool") return c.get_bool(r.key) ? "true" : "false";
  if (t == "time") return ssdvp::format_time_ps(c.get_time_ps(r.key));
  if (t == "size")
    return r.computed_default() ? std::to_string(c.get_size(r.key, 4096)) : std::to_string(c.get_size(r.key));
  if (r.is_choice()) return c.get_choice(r.key);
  return r.computed_default() ? c.get_string(r.key, "x") : c.get_string(r.key);
}

TEST(ParamTable, EveryRowReadsByKeyWithItsDefault) {
  // every row's default is a valid value of its type, inside its range (a
  // choice: one of its names); with and without the registry declared
  Config bare;
  Config reg;
  reg.declare_all(ssdvp::param_registry());
  size_t rows = 0;
  for (const auto& r : ssdvp::param_rows()) {
    if (std::string(r.type) == "group") continue;
    ++rows;
    EXPECT_EQ(error_of([&] { read_by_key(bare, r); }), "") << r.key;
    EXPECT_EQ(error_of([&] { read_by_key(reg, r); }), "") << r.key;
    if (r.is_choice()) {
      const auto ch = r.choices();
      EXPECT_NE(std::find(ch.begin(), ch.end(), r.def), ch.end()) << r.key;
    }
  }
  EXPECT_GT(rows, 200u);
  EXPECT_TRUE(reg.drift().empty()) << joined(reg.drift());
  // the registry shows each row as it is
  std::map<std::string, ssdvp::ParamInfo> info;
  for (const auto& p : ssdvp::param_registry()) info[p.key] = p;
  for (const auto& r : ssdvp::param_rows()) {
    if (std::string(r.type) == "group") continue;
    const auto& p = info.at(r.key);
    EXPECT_EQ(p.type, r.type);
    EXPECT_EQ(p.default_value, r.def);
    EXPECT_EQ(p.description, r.description());
    EXPECT_EQ(p.flags, r.flags) << r.key;
  }
  EXPECT_EQ(info.at("flash.channels").range, "1 to 1024");
  EXPECT_EQ(info.at("dram.bandwidth_mbps").range, "0.001 or more");
  EXPECT_EQ(info.at("log.level").description, "default log level of every model (error|warn|info|debug|trace)");
  EXPECT_EQ(ssdvp::param_flag_names(info.at("dram.size").flags),
            (std::vector<std::string>{"shapes_drive", "per_device"}));  // as `ssdvp params` shows them
}

TEST(ParamTable, AKeyWithoutARowOrOfAnotherTypeIsAnError) {
  Config c;
  std::string e = error_of([&] { c.get_u64("flash.chanels"); });
  EXPECT_NE(e.find("'flash.chanels'"), std::string::npos) << e;
  EXPECT_NE(e.find("no row"), std::string::npos) << e;
  e = error_of([&] { c.get_u64("flash.timing.read"); });  // a time
  EXPECT_NE(e.find("'flash.timing.read'"), std::string::npos) << e;
  EXPECT_NE(e.find("read as u64"), std::string::npos) << e;
  e = error_of([&] { c.get_string("ftl.placement.policy"); });  // another table's key
  EXPECT_NE(e.find("no row"), std::string::npos) << e;
  e = error_of([&] { c.get_string("host.mode"); });  // a choice read as any string
  EXPECT_NE(e.find("is a choice"), std::string::npos) << e;
  // a computed default is passed, a fixed one never
  e = error_of([&] { c.get_size("workload.synthetic.align"); });
  EXPECT_NE(e.find("computed"), std::string::npos) << e;
  e = error_of([&] { c.get_u64("flash.channels", 4); });
  EXPECT_NE(e.find("fixed"), std::string::npos) << e;
  EXPECT_EQ(c.get_size("workload.synthetic.align", 8192), 8192u);
}

TEST(ParamTable, RangeAndChoicesComeFromTheRow) {
  Config c;
  EXPECT_EQ(c.get_u64("flash.channels"), 8u);
  EXPECT_EQ(c.get_time_ps("flash.timing.read"), 20000000u);
  c.set("flash.channels", "0");
  std::string e = error_of([&] { c.get_u64("flash.channels"); });
  EXPECT_NE(e.find("config key 'flash.channels': value 0 is outside [1, 1024]"), std::string::npos) << e;
  c.set("precondition.fill", "1.5");
  e = error_of([&] { c.get_double("precondition.fill"); });
  EXPECT_NE(e.find("value 1.5 is outside [0, 1]"), std::string::npos) << e;
  c.set("log.level", "loud");
  e = error_of([&] { c.get_choice("log.level"); });
  EXPECT_NE(e.find("'loud' is not one of error|warn|info|debug|trace"), std::string::npos) << e;
}

// A range that restates a constant of the code says the same number.
TEST(ParamTable, RangesThatRestateAConstantAgreeWithIt) {
  uint64_t lo = 0, hi = 0;
  ssdvp::param_range_u64(*ssdvp::param_row("flows.count"), lo, hi);
  EXPECT_EQ(hi, ssdvp::NvmeCtrl::kMaxQueues);  // one I/O queue pair per flow
  ssdvp::param_range_u64(*ssdvp::param_row("host.predict.select"), lo, hi);
  EXPECT_EQ(hi, uint64_t(ssdvp::host::kFeatureCount));
  // the geometry's defaults (ssdvp_geometry.h, the firmware's) are the table's
  const ssdvp::FlashGeometry g;
  Config c;
  const ssdvp::FlashGeometry t = ssdvp::FlashGeometry::from_config(c);
  EXPECT_EQ(g.channels, t.channels);
  EXPECT_EQ(g.dies_per_channel, t.dies_per_channel);
  EXPECT_EQ(g.planes_per_die, t.planes_per_die);
  EXPECT_EQ(g.blocks_per_plane, t.blocks_per_plane);
  EXPECT_EQ(g.pages_per_block, t.pages_per_block);
  EXPECT_EQ(g.page_size, t.page_size);
  EXPECT_EQ(g.lba_size, t.lba_size);
}

// Every read by key in the sources (a literal key) names a row of the type
// read: a key only a rare mode reads is checked too.
TEST(ParamTable, EveryKeyReadInTheSourcesHasARowOfItsType) {
  namespace fs = std::filesystem;
  const std::regex read(R"re(\.get_(u64|i64|double|bool|string|choice|time_ps|size)\(\s*"([^"]+)"\s*[,)])re");
  size_t n = 0;
  for (const char* dir : {"models", "accel", "platform"})
    for (const auto& f : fs::recursive_directory_iterator(fs::path(SSDVP_SOURCE_DIR) / dir)) {
      const std::string ext = f.path().extension().string();
      if (ext != ".cpp" && ext != ".h") continue;
      std::ifstream in(f.path());
      std::stringstream ss;
      ss << in.rdbuf();
      const std::string text = ss.str();
      for (std::sregex_iterator it(text.begin(), text.end(), read), end; it != end; ++it) {
        const std::string kind = (*it)[1], key = (*it)[2];
        const bool key_only = it->str().back() == ')';
        const ssdvp::ParamRow* r = ssdvp::param_row(key);
        if (!r) {
          // another table's keys (ftl_params.def) are read through it
          EXPECT_FALSE(key_only) << f.path() << ": " << key << " has no row in params.def";
          continue;
        }
        ++n;
        const std::string type = kind == "time_ps" ? "time" : kind == "choice" ? "string" : kind;
        EXPECT_EQ(type, r->type) << f.path() << ": " << key;
        if (key_only) {
          EXPECT_EQ(kind == "choice", r->is_choice()) << f.path() << ": " << key;
        }
      }
    }
  EXPECT_GT(n, 50u);
}

// --- which keys shape a saved drive: the flags, where a prefix rule was ---

// The rule run/saved_state.cpp applied by key prefix before the tables had
// flags (issue 34), kept here as the reference the flags must reproduce.
bool old_prefix_rule(const std::string& k, bool workload_preconditioned) {
  auto starts = [&](const char* p) { return k.rfind(p, 0) == 0; };
  for (const char* p :
       {"flash.timing.", "flash.suspend.", "flash.read_priority", "flash.priority_reads", "flash.channel.",
        "flash.dma.", "flash.sq_fetch", "flash.completion_quantum", "flash.access", "ftl.ns_ready_after", "ftl.debug."})
    if (starts(p)) return false;  // timing or reporting only: free to differ
  bool shapes = starts("flash.") || starts("ftl.") || starts("precondition.") || starts("power.checkpoint.") ||
                starts("power.trim_log.") || k == "nvme.lba_size" || k == "nvme.namespace_size" ||
                k == "nvme.command_set" || k == "dram.size" || k == "cpu.mode";
  if (workload_preconditioned)
    shapes = shapes || starts("workload.") || k == "host.streams" || starts("host.oracle.") ||
             starts("host.predict.") || starts("host.files.");
  return shapes;
}

TEST(SavedStateKeys, TheShapesDriveFlagsSelectWhatThePrefixRuleDid) {
  Config c;
  c.declare_all(ssdvp::param_registry());
  for (bool pre : {false, true}) {
    const auto keys = ssdvp::drive_shaping_keys(c, pre);
    size_t n = 0;
    for (const auto& p : c.params()) {
      EXPECT_EQ(keys.contains(p.key), old_prefix_rule(p.key, pre)) << p.key << (pre ? " (preconditioned)" : "");
      n += keys.contains(p.key);
    }
    EXPECT_GT(n, pre ? 150u : 80u);
  }
}

// --- per-instance overrides: which keys from the flags, one reader ---

TEST(InstanceOverrides, FlowsAndArrayDevicesOverrideTheKeysTheirFlagAllows) {
  const ssdvp::InstanceKind flow = {"flows.",
                                    "flow",
                                    "flows.count",
                                    "a flow's key is flows.<i>.<key>",
                                    "a flow sets its own keys",
                                    ssdvp::param_flags::per_flow};
  const ssdvp::InstanceKind dev = {"array.dev",
                                   "device",
                                   "array.devices",
                                   "a per-device override is array.dev<i>.<key>",
                                   "a device overrides its SSD's keys",
                                   ssdvp::param_flags::per_device};
  auto with = [](const std::vector<std::string>& kvs) {
    Config c;
    for (const auto& kv : kvs) c.set_assignment(kv);
    c.declare_all(ssdvp::param_registry());
    return c;
  };
  Config c = with({"flows.count=2", "flows.1.host.queue_depth=4", "flows.1.workload.synthetic.iops=100",
                   "flows.0.name=a", "array.dev1.ftl.gc.policy=fifo", "array.devices=4"});
  const auto f = ssdvp::read_instance_overrides(c, flow, 2);
  EXPECT_TRUE(f.keys[0].empty());  // flows.0.name is the flow's own key
  ASSERT_EQ(f.keys[1].size(), 2u);
  EXPECT_EQ(f.keys[1][0], std::make_pair(std::string("host.queue_depth"), std::string("4")));
  EXPECT_EQ(f.first[1], "flows.1.host.queue_depth");
  const auto d = ssdvp::read_instance_overrides(c, dev, 4);
  ASSERT_EQ(d.keys[1].size(), 1u);
  EXPECT_EQ(d.keys[1][0].first, "ftl.gc.policy");
  // the override keys are known now; the flow's own key is its reader's
  EXPECT_EQ(c.undeclared(), std::vector<std::string>{"flows.0.name"});
  const struct {
    std::string set;
    bool flows;
    std::string says;
  } bad[] = {
      {"flows.1.flash.channels=2", true,
       "config key 'flows.1.flash.channels': a flow sets its own keys; "
       "'flash.channels' is shared by all flows"},
      {"flows.1.workload.sorce=x", true,
       "config key 'flows.1.workload.sorce': 'workload.sorce' is not a parameter "
       "(perhaps workload.source)"},
      {"flows.2.name=x", true, "config key 'flows.2.name': flow 2 does not exist (flows.count: 2)"},
      {"flows.x.name=a", true, "config key 'flows.x.name': a flow's key is flows.<i>.<key>, i in 0..1"},
      {"array.dev1.workload.source=trace", false, "'workload.source' is shared by all devices"},
      {"array.dev9.ftl.gc.policy=fifo", false,
       "config key 'array.dev9.ftl.gc.policy': device 9 does not exist "
       "(array.devices: 2)"},
      {"array.devx.ftl.gc.policy=fifo", false, "a per-device override is array.dev<i>.<key>, i in 0..1"},
  };
  for (const auto& b : bad) {
    Config x = with({b.set});
    const std::string e = error_of([&] { ssdvp::read_instance_overrides(x, b.flows ? flow : dev, 2); });
    EXPECT_NE(e.find(b.says), std::string::npos) << b.set << ": " << e;
  }
}

TEST(InstanceOverrides, AFlowsOwnKeysReadByKeyFromTheirInstanceRows) {
  Config c;
  c.set("flows.3.priority", "high");
  EXPECT_EQ(c.get_choice("flows.3.priority"), "high");
  EXPECT_EQ(c.get_choice("flows.2.stop_queues"), "keep");
  EXPECT_EQ(c.get_string("flows.2.name", "flow2"), "flow2");
  c.set("flows.1.share", "2");
  EXPECT_NE(error_of([&] { c.get_double("flows.1.share"); }).find("'flows.1.share': value 2 is outside [0, 1]"),
            std::string::npos);
  EXPECT_EQ(ssdvp::param_row("flows.<i>.name"), ssdvp::param_row("flows.12.name"));
  EXPECT_EQ(ssdvp::param_row("flows.x.name"), nullptr);
}

// --- the firmware's table: one source for both sides ---

TEST(FtlParams, PlatformDefaultsEqualFirmwareDefaults) {
  ftl_config fw;
  ftl_config_default(&fw);
  // every table field from the platform's reading of an empty config (4 KiB
  // LBAs, as the firmware's defaults assume)
  ftl_config zero;
  ftl_config_default(&zero);
#define FTL_PARAM(key, field, kind, def, min, max, unit, flags, desc) zero.field = 0;
#include "ftl_params.def"
  Config c;
  ssdvp::read_ftl_params(c, 4096, zero);
#define FTL_PARAM(key, field, kind, def, min, max, unit, flags, desc) EXPECT_EQ(zero.field, fw.field) << key;
#include "ftl_params.def"
  char msg[256];
  EXPECT_EQ(ftl_config_check(&fw, msg, sizeof msg), 0) << msg;
}

TEST(FtlParams, RegistryRowsShowTheTableDefaults) {
  std::map<std::string, ssdvp::ParamInfo> rows;
  for (const auto& p : ssdvp::param_registry()) rows[p.key] = p;
  EXPECT_EQ(rows.at("ftl.hot.slice_size").default_value, "100MB");
  EXPECT_EQ(rows.at("ftl.hot.period").default_value, "6h");
  EXPECT_EQ(rows.at("ftl.hot.hotis.max_interval").default_value, "90min");
  EXPECT_EQ(rows.at("nvme.namespace_size").default_value, "256GiB");
  EXPECT_EQ(rows.at("ftl.gc.policy").default_value, "greedy");
  EXPECT_EQ(rows.at("ftl.gc.max_active").range, "1 to 64 blocks");
  EXPECT_EQ(rows.at("ftl.hot.period").range, "1 ns or more");
  EXPECT_EQ(rows.at("ftl.seed").range, "");
  EXPECT_EQ(rows.at("ftl.gc.max_active").unit, "blocks");
}

// Every row's range is enforced by the firmware (naming the key) and by the
// platform (naming the key), from the same numbers.
TEST(FtlParams, EveryRangeIsCheckedOnBothSides) {
  struct Row {
    const char* key;
    uint64_t min, max;
    void (*set)(ftl_config&, uint64_t);
  };
  const Row rows[] = {
#define FTL_PARAM(key, field, kind, def, min, max, unit, flags, desc) \
  {key, uint64_t(min), uint64_t(max), [](ftl_config& c, uint64_t v) { c.field = static_cast<decltype(c.field)>(v); }},
#include "ftl_params.def"
  };
  int checked = 0;
  for (const Row& r : rows) {
    std::vector<uint64_t> bad;
    if (r.min > 0) bad.push_back(r.min - 1);
    if (r.max < UINT32_MAX) bad.push_back(r.max + 1);
    for (uint64_t v : bad) {
      ftl_config c;
      ftl_config_default(&c);
      r.set(c, v);
      char msg[256] = "";
      EXPECT_NE(ftl_config_check(&c, msg, sizeof msg), 0) << r.key << " = " << v;
      EXPECT_NE(std::string(msg).find(r.key), std::string::npos) << msg;
      ++checked;
    }
  }
  EXPECT_GT(checked, 30);
  // the platform side, for an integer, a size, a time and a choice
  for (const char* kv : {"ftl.gc.max_active=65", "ftl.hot.slice_size=1KiB", "ftl.hot.period=10ps", "ftl.gc.policy=lru",
                         "ftl.buffers.gc_pages=3", "nvme.namespace_size=0"}) {
    Config c = small();
    c.set_assignment(kv);
    const std::string key = std::string(kv).substr(0, std::string(kv).find('='));
    try {
      ssdvp::make_ftl_config(c, ssdvp::FlashGeometry::from_config(c));
      ADD_FAILURE() << kv << " accepted";
    } catch (const ConfigError& e) {
      EXPECT_NE(std::string(e.what()).find(key), std::string::npos) << e.what();
    }
  }
  Config ok = small();
  EXPECT_NO_THROW(ssdvp::make_ftl_config(ok, ssdvp::FlashGeometry::from_config(ok)));
}

// A size key the user sets (FTL_SIZE rows) is whole LBAs or refused, naming
// the key and the two whole sizes around it; the default (the paper's 100 MB
// slices) rounds down, as the table says.
TEST(FtlParams, ASizeTheUserSetsIsWholeLbas) {
  Config c = small();
  c.set("ftl.hot.slice_size", "42KiB");
  const std::string msg = error_of([&] { ssdvp::make_ftl_config(c, ssdvp::FlashGeometry::from_config(c)); });
  EXPECT_NE(msg.find("ftl.hot.slice_size"), std::string::npos) << msg;
  EXPECT_NE(msg.find("40KiB"), std::string::npos) << msg;
  EXPECT_NE(msg.find("44KiB"), std::string::npos) << msg;

  c.set("ftl.hot.slice_size", "48KiB");
  EXPECT_EQ(ssdvp::make_ftl_config(c, ssdvp::FlashGeometry::from_config(c)).hot_slice_lbas, 12u);

  Config d = small();
  EXPECT_EQ(ssdvp::make_ftl_config(d, ssdvp::FlashGeometry::from_config(d)).hot_slice_lbas,
            100ull * 1000 * 1000 / 4096);
}
