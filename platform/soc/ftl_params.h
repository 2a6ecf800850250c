// ftl_params.h - the firmware's tunables (firmware/api/ftl_params.def) on the
// platform side: their rows in the parameter registry, and the mapping from a
// Config into struct ftl_config. Both are generated from the table, so a key,
// its default and its range are written once.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "common/config.h"

extern "C" {
#include "ftl.h"
}

namespace ssdvp {

// One registry row per table row, in table order.
std::vector<ParamInfo> ftl_param_registry();

// Reads every table key into c (c's geometry must be set: sizes are
// converted to LBAs of lba_size bytes). A value outside the row's range is a
// ConfigError naming the key. Returns the byte values of the size keys, by
// key, for checks that need them (a namespace that is a whole number of LBAs).
std::map<std::string, uint64_t> read_ftl_params(Config& cfg, uint32_t lba_size, ftl_config& c);
// One choice of the table (FTL_CHOICE) read as the table says, for a reader
// outside the firmware's mapping (the run plan): its name.
std::string read_ftl_choice(Config& cfg, const std::string& key);

}  // namespace ssdvp
