// params.h - the parameter registry of the platform: every configuration key,
// from platform/run/params.def, the firmware's firmware/api/ftl_params.def
// and the cost table firmware/hal/fw_ops.def. Simulation declares it in its
// Config before any model reads (Config::declare_all).
#pragma once

#include <vector>

#include "common/config.h"

namespace ssdvp {

// Every key, in the order `ssdvp params` lists them. Built once (immutable).
const std::vector<ParamInfo>& param_registry();

}  // namespace ssdvp
