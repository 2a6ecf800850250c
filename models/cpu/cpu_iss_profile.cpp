// cpu_iss_profile.cpp - CpuIss::write_profile (see cpu_iss.h): the
// instructions each firmware function ran, from the block hook's counts
// (cpu.iss.profile). A block is charged to the function its first
// instruction is in; a block the slice stopped before it ran is not counted.
#include <algorithm>
#include <cstdio>
#include <map>
#include <vector>

#include "cpu/cpu_iss.h"

namespace ssdvp {

void CpuIss::write_profile() const {
  std::map<std::string, uint64_t> by_func;
  uint64_t total = 0;
  for (const auto& [addr, b] : block_len_) {
    if (!b.runs) continue;
    auto it = funcs_.upper_bound(addr);
    std::string name = "?";
    if (it != funcs_.begin()) {
      --it;
      if (addr - it->first < std::max<uint32_t>(it->second.size, 1)) name = it->second.name;
    }
    by_func[name] += b.runs * b.len;
    total += b.runs * b.len;
  }
  std::vector<std::pair<uint64_t, std::string>> rows;
  for (const auto& [name, n] : by_func) rows.emplace_back(n, name);
  std::sort(rows.rbegin(), rows.rend());
  FILE* f = std::fopen(profile_path_.c_str(), "w");
  if (!f) {
    SSDVP_LOG(log_, error, "cpu.iss.profile: cannot write '%s'", profile_path_.c_str());
    return;
  }
  std::fprintf(
      f, "# firmware instructions by function (cpu.iss.profile), all of the run\ninstructions\tshare\tfunction\n");
  for (const auto& [n, name] : rows)
    std::fprintf(f, "%llu\t%.4f\t%s\n", (unsigned long long)n, total ? double(n) / double(total) : 0.0, name.c_str());
  std::fclose(f);
}

}  // namespace ssdvp
