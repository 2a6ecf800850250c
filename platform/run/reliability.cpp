// reliability.cpp - see reliability.h.
#include "run/reliability.h"

#include <cstdio>

#include "flash/flash_ctrl.h"

namespace ssdvp {

nlohmann::json reliability_json(const FlashCtrl& flash, const ftl_stats& s, const ftl_stats& a) {
  const FlashFaults::Stats& f = flash.faults().stats();
  return {{"flash",
           {{"program_failures", f.program_failures},
            {"erase_failures", f.erase_failures},
            {"factory_bad_blocks", f.factory_bad},
            {"reads_retried", f.reads_retried},
            {"retry_levels", f.retry_levels},
            {"uncorrectable_reads", f.uncorrectable},
            {"torn_page_reads", flash.torn_reads()}}},
          {"ftl",
           {{"program_failures", s.program_failures - a.program_failures},
            {"erase_failures", s.erase_failures - a.erase_failures},
            {"retired_blocks", s.retired_blocks - a.retired_blocks},
            {"retired_blocks_total", s.retired_blocks},
            {"factory_bad_blocks", s.factory_bad_blocks},
            {"rewritten_lbas", s.rewritten_lbas - a.rewritten_lbas},
            {"reads_retried", s.reads_retried - a.reads_retried},
            {"read_retries", s.read_retries - a.read_retries},
            {"uncorrectable_reads", s.uncorrectable_reads - a.uncorrectable_reads},
            {"lost_lbas", s.lost_lbas - a.lost_lbas},
            {"refreshes", s.refreshes - a.refreshes}}}};
}

std::string reliability_line(const nlohmann::json& r) {
  const auto& f = r["ftl"];
  const uint64_t any = f["program_failures"].get<uint64_t>() + f["erase_failures"].get<uint64_t>() +
                       f["retired_blocks_total"].get<uint64_t>() + f["factory_bad_blocks"].get<uint64_t>() +
                       f["reads_retried"].get<uint64_t>() + f["uncorrectable_reads"].get<uint64_t>() +
                       f["refreshes"].get<uint64_t>();
  if (!any) return "";
  char b[400];
  std::snprintf(
      b, sizeof b,
      "media: %llu program / %llu erase failures, %llu blocks retired (%llu in all, +%llu factory bad), %llu LBAs "
      "rewritten; %llu reads retried (%llu levels), %llu uncorrectable, %llu LBAs lost, %llu refreshes",
      (unsigned long long)f["program_failures"].get<uint64_t>(),
      (unsigned long long)f["erase_failures"].get<uint64_t>(), (unsigned long long)f["retired_blocks"].get<uint64_t>(),
      (unsigned long long)f["retired_blocks_total"].get<uint64_t>(),
      (unsigned long long)f["factory_bad_blocks"].get<uint64_t>(),
      (unsigned long long)f["rewritten_lbas"].get<uint64_t>(), (unsigned long long)f["reads_retried"].get<uint64_t>(),
      (unsigned long long)f["read_retries"].get<uint64_t>(),
      (unsigned long long)f["uncorrectable_reads"].get<uint64_t>(), (unsigned long long)f["lost_lbas"].get<uint64_t>(),
      (unsigned long long)f["refreshes"].get<uint64_t>());
  return b;
}

}  // namespace ssdvp
