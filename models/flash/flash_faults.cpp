// flash_faults.cpp - see flash_faults.h.
#include "flash/flash_faults.h"

#include <algorithm>
#include <cmath>
#include <sstream>

namespace ssdvp {

FlashFaults::FlashFaults(Config& cfg, const FlashGeometry& geo) {
  const uint64_t seed = cfg.get_u64("flash.fault.seed");
  rng_ = seed * 0x9E3779B97F4A7C15ull + 0x2545F4914F6CDD1Dull;
  p_program_ = cfg.get_double("flash.fault.program_fail_rate");
  p_erase_ = cfg.get_double("flash.fault.erase_fail_rate");
  p_factory_ = cfg.get_double("flash.fault.factory_bad_rate");
  const std::string list = cfg.get_string("flash.fault.fail_blocks");
  ecc_bits_ = static_cast<uint32_t>(cfg.get_u64("flash.ecc.correctable_bits"));
  rber0_ = cfg.get_double("flash.ecc.rber");
  rber_pe_ = cfg.get_double("flash.ecc.rber_per_pe");
  rber_hour_ = cfg.get_double("flash.ecc.rber_per_hour");
  retention_offset_ps_ = cfg.get_time_ps("flash.ecc.retention_offset");
  rber_read_ = cfg.get_double("flash.ecc.rber_per_read");
  retry_levels_ = static_cast<uint32_t>(cfg.get_u64("flash.ecc.retry_levels"));
  retry_gain_ = cfg.get_double("flash.ecc.retry_gain");
  codeword_bits_ = geo.lba_size * 8;
  pages_per_block_ = geo.pages_per_block;
  errors_on_ = rber0_ > 0 || rber_pe_ > 0 || rber_hour_ > 0 || rber_read_ > 0;

  const uint32_t blocks = static_cast<uint32_t>(geo.total_blocks());
  bad_.assign((blocks + 31) / 32, 0);
  if (p_factory_ > 0)
    for (uint32_t b = 0; b < blocks; ++b)
      if (uniform() < p_factory_) {
        bad_[b >> 5] |= 1u << (b & 31);
        ++st_.factory_bad;
      }
  if (!list.empty()) {
    fail_list_.assign((blocks + 31) / 32, 0);
    std::stringstream ss(list);
    for (std::string item; std::getline(ss, item, ',');) {
      size_t pos = 0;
      unsigned long long b = 0;
      try {
        b = std::stoull(item, &pos);
      } catch (const std::exception&) {
        pos = 0;
      }
      while (pos < item.size() && item[pos] == ' ') ++pos;
      if (pos == 0 || pos != item.size() || b >= blocks)
        throw ConfigError("flash.fault.fail_blocks: '" + item + "' is not a block index below " +
                          std::to_string(blocks));
      fail_list_[b >> 5] |= 1u << (b & 31);
    }
  }
  if (errors_on_) {
    first_prog_ps_.assign(blocks, 0);
    reads_.assign(blocks, 0);
  }
}

double FlashFaults::uniform() {
  // splitmix64: deterministic on every platform for a seed
  uint64_t z = (rng_ += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  z ^= z >> 31;
  return double(z >> 11) * (1.0 / 9007199254740992.0);
}

uint32_t FlashFaults::poisson(double mean) {
  if (mean <= 0) return 0;
  if (mean > 40) {  // normal approximation (Box-Muller), plenty for a threshold test
    const double u1 = std::max(uniform(), 1e-300), u2 = uniform();
    const double z = std::sqrt(-2 * std::log(u1)) * std::cos(6.283185307179586 * u2);
    const double v = mean + std::sqrt(mean) * z + 0.5;
    return v <= 0 ? 0 : static_cast<uint32_t>(std::min(v, 4e9));
  }
  const double limit = std::exp(-mean);  // Knuth
  uint32_t k = 0;
  for (double p = uniform(); p > limit; p *= uniform()) ++k;
  return k;
}

bool FlashFaults::program_fails(uint32_t block) {
  bool fail = in_fail_list(block) || factory_bad(block);
  if (!fail && p_program_ > 0) fail = uniform() < p_program_;
  if (fail) ++st_.program_failures;
  return fail;
}

bool FlashFaults::erase_fails(uint32_t block) {
  bool fail = in_fail_list(block) || factory_bad(block);
  if (!fail && p_erase_ > 0) fail = uniform() < p_erase_;
  if (fail) ++st_.erase_failures;
  return fail;
}

void FlashFaults::on_program(uint32_t block, uint32_t page, uint64_t now_ps) {
  if (errors_on_ && page == 0) first_prog_ps_[block] = now_ps;
}

void FlashFaults::on_erase(uint32_t block) {
  if (!errors_on_) return;
  reads_[block] = 0;
  if (!inherited_.empty())
    for (uint32_t p = 0; p < pages_per_block_; ++p) inherited_.erase(block * pages_per_block_ + p);
}

uint32_t FlashFaults::inherited(uint32_t row) const {
  const auto it = inherited_.find(row);
  return it == inherited_.end() ? 0 : it->second;
}

void FlashFaults::copy(uint32_t src_block, uint32_t pe, uint32_t codewords, uint64_t now_ps, uint32_t src_row,
                       uint32_t dst_row) {
  if (!errors_on_) return;
  const uint32_t reads = reads_[src_block]++;
  const uint64_t age_ps =
      (now_ps > first_prog_ps_[src_block] ? now_ps - first_prog_ps_[src_block] : 0) + retention_offset_ps_;
  const double rber = rber0_ + rber_pe_ * pe + rber_hour_ * (double(age_ps) / 3.6e15) + rber_read_ * reads;
  const double mean = std::min(rber, 0.5) * codeword_bits_;
  const uint32_t carried = inherited(src_row);
  uint32_t worst = 0;
  for (uint32_t c = 0; c < codewords; ++c) worst = std::max(worst, poisson(mean));
  const uint64_t total = uint64_t(carried) + worst;
  if (total)
    inherited_[dst_row] = static_cast<uint32_t>(std::min<uint64_t>(total, codeword_bits_));
  else
    inherited_.erase(dst_row);
}

FlashFaults::ReadOutcome FlashFaults::read(uint32_t block, uint32_t pe, uint32_t codewords, uint64_t now_ps,
                                           uint32_t row) {
  ReadOutcome out;
  if (!errors_on_) return out;
  const uint32_t carried = inherited_.empty() || row == UINT32_MAX ? 0 : inherited(row);
  const uint32_t reads = reads_[block]++;
  const uint64_t age_ps = (now_ps > first_prog_ps_[block] ? now_ps - first_prog_ps_[block] : 0) + retention_offset_ps_;
  const double hours = double(age_ps) / 3.6e15;
  double rber = rber0_ + rber_pe_ * pe + rber_hour_ * hours + rber_read_ * reads;
  for (uint32_t level = 0;; ++level) {
    bool ok = true;
    const double mean = std::min(rber, 0.5) * codeword_bits_;
    for (uint32_t c = 0; c < codewords && ok; ++c) ok = uint64_t(carried) + poisson(mean) <= ecc_bits_;
    if (ok) break;
    if (level == retry_levels_) {
      out.uncorrectable = true;
      break;
    }
    ++out.retries;
    rber *= retry_gain_;
  }
  if (out.retries) {
    ++st_.reads_retried;
    st_.retry_levels += out.retries;
  }
  if (out.uncorrectable) ++st_.uncorrectable;
  return out;
}

}  // namespace ssdvp
