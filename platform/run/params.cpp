// params.cpp - see params.h.
#include "run/params.h"

#include "common/param_table.h"
#include "cpu/cpu_native.h"
#include "soc/ftl_params.h"

namespace ssdvp {
namespace {

void append_group(std::vector<ParamInfo>& out, const std::string& group) {
  if (group == "ftl") {
    for (auto& p : ftl_param_registry()) out.push_back(p);
  } else if (group == "cpu_cost") {
    for (int op = 0; op < FW_OP_COUNT; ++op) {
      const auto o = static_cast<enum fw_op>(op);
      const std::string def = std::to_string(CpuNative::default_cost(o));
      out.push_back(ParamInfo{std::string("cpu.cost.") + CpuNative::op_name(o), "u64", def,
                              CpuNative::cost_description(o), def, "", "", param_flags::per_device});
    }
  }
}

std::vector<ParamInfo> build_registry() {
  std::vector<ParamInfo> out;
  for (const ParamRow& r : param_rows()) {
    if (std::string(r.type) == "group")
      append_group(out, r.key);
    else
      out.push_back(ParamInfo{r.key, r.type, r.def, r.description(), r.def, "", r.range_text(), r.flags});
  }
  return out;
}

}  // namespace

const std::vector<ParamInfo>& param_registry() {
  static const std::vector<ParamInfo> registry = build_registry();
  return registry;
}

}  // namespace ssdvp
