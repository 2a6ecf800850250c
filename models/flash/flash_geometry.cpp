// flash_geometry.cpp - see flash_geometry.h.
#include "flash/flash_geometry.h"

#include "common/config.h"

namespace ssdvp {
namespace {

[[noreturn]] void bad(const char* key, const std::string& what) {
  throw ConfigError("config key '" + std::string(key) + "': " + what);
}

}  // namespace

FlashGeometry FlashGeometry::from_config(Config& cfg) {
  FlashGeometry g;  // starts at the defaults
  g.channels = static_cast<uint32_t>(cfg.get_u64("flash.channels"));
  g.dies_per_channel = static_cast<uint32_t>(cfg.get_u64("flash.dies_per_channel"));
  g.planes_per_die = static_cast<uint32_t>(cfg.get_u64("flash.planes_per_die"));
  g.blocks_per_plane = static_cast<uint32_t>(cfg.get_u64("flash.blocks_per_plane"));
  g.pages_per_block = static_cast<uint32_t>(cfg.get_u64("flash.pages_per_block"));
  const uint64_t page = cfg.get_size("flash.page_size");
  const uint64_t lba = cfg.get_size("nvme.lba_size");
  if (page < 1 || page > (1u << 20)) bad("flash.page_size", "must be between 1 B and 1 MiB");
  if (lba != 512 && lba != 4096) bad("nvme.lba_size", "must be 512 or 4096 bytes, got " + std::to_string(lba));
  g.page_size = static_cast<uint32_t>(page);
  g.lba_size = static_cast<uint32_t>(lba);
  g.validate();
  return g;
}

void FlashGeometry::validate() const {
  if (channels < 1) bad("flash.channels", "must be at least 1");
  if (dies_per_channel < 1) bad("flash.dies_per_channel", "must be at least 1");
  if (planes_per_die < 1) bad("flash.planes_per_die", "must be at least 1");
  if (blocks_per_plane < 1) bad("flash.blocks_per_plane", "must be at least 1");
  if (pages_per_block < 1 || pages_per_block > 65535) bad("flash.pages_per_block", "must be in [1, 65535]");
  if (lba_size != 512 && lba_size != 4096) bad("nvme.lba_size", "must be 512 or 4096 bytes");
  if (page_size < lba_size || page_size % lba_size != 0)
    bad("flash.page_size", "must be a multiple of nvme.lba_size (" + std::to_string(lba_size) + ")");
  if (slots_per_page() > 32)
    bad("flash.page_size", "holds " + std::to_string(slots_per_page()) + " LBAs; at most 32 fit a slot mask");
  const uint64_t dies64 = uint64_t(channels) * dies_per_channel;
  const uint64_t blocks64 = dies64 * planes_per_die * blocks_per_plane;
  if (blocks64 * pages_per_block >= (uint64_t(1) << 32))
    bad("flash.blocks_per_plane", "the geometry has " + std::to_string(blocks64 * pages_per_block) +
                                      " pages; page rows must fit 32 bits (flash.channels x flash.dies_per_channel x "
                                      "flash.planes_per_die x flash.blocks_per_plane x flash.pages_per_block < 2^32)");
}

}  // namespace ssdvp
