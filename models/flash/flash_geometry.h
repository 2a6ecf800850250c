// flash_geometry.h - the shape of the NAND array behind one flash controller.
//
// Dies are numbered d = way * channels + channel, so consecutive dies sit on
// different channels (ssdvp_hw.h). Blocks are numbered across the whole array:
// block b lives on die b / blocks_per_die(); a page row is
// b * pages_per_block + page. Block-in-die i is in plane i % planes_per_die;
// multi-plane operations address one block per plane (multiplane_rules.h).
#pragma once

#include <cstdint>

#include "ssdvp_geometry.h"

namespace ssdvp {

class Config;

struct FlashGeometry {
  // The defaults (firmware/include/ssdvp_geometry.h, shared with the firmware).
  uint32_t channels = SSDVP_GEO_CHANNELS;
  uint32_t dies_per_channel = SSDVP_GEO_DIES_PER_CHANNEL;
  uint32_t planes_per_die = SSDVP_GEO_PLANES_PER_DIE;
  uint32_t blocks_per_plane = SSDVP_GEO_BLOCKS_PER_PLANE;
  uint32_t pages_per_block = SSDVP_GEO_PAGES_PER_BLOCK;
  uint32_t page_size = SSDVP_GEO_PAGE_BYTES;  // bytes
  uint32_t lba_size = SSDVP_GEO_LBA_BYTES;    // bytes

  uint32_t dies() const { return channels * dies_per_channel; }
  uint32_t blocks_per_die() const { return planes_per_die * blocks_per_plane; }
  uint32_t total_blocks() const { return dies() * blocks_per_die(); }
  uint32_t slots_per_page() const { return page_size / lba_size; }
  uint64_t pages_per_die() const { return uint64_t(blocks_per_die()) * pages_per_block; }
  uint64_t pages_total() const { return uint64_t(total_blocks()) * pages_per_block; }
  uint64_t physical_bytes() const { return pages_total() * page_size; }
  uint32_t die_of_block(uint32_t block) const { return block / blocks_per_die(); }
  uint32_t channel_of_die(uint32_t die) const { return die % channels; }
  uint32_t plane_of_block(uint32_t block) const { return (block % blocks_per_die()) % planes_per_die; }

  // Reads flash.* and nvme.lba_size, then validate(). Throws ConfigError
  // naming the offending key.
  static FlashGeometry from_config(Config& cfg);
  // Throws ConfigError naming the key of the first impossible value.
  void validate() const;
};

}  // namespace ssdvp
