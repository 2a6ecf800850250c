// Bench for FlashGeometry: defaults, derived figures, validation by key.
#include <gtest/gtest.h>

#include "common/config.h"
#include "flash/flash_geometry.h"

using namespace ssdvp;

namespace {
// Returns the ConfigError text of building a geometry from `yaml`, or "".
std::string error_of(const std::string& yaml) {
  Config cfg = Config::from_yaml_string(yaml);
  try {
    FlashGeometry::from_config(cfg);
  } catch (const ConfigError& e) {
    return e.what();
  }
  return "";
}
}  // namespace

TEST(FlashGeometry, DefaultsAreHamlSsdTableIII) {
  Config cfg;
  const FlashGeometry g = FlashGeometry::from_config(cfg);
  EXPECT_EQ(g.dies(), 64u);
  EXPECT_EQ(g.blocks_per_die(), 2400u);
  EXPECT_EQ(g.slots_per_page(), 2u);
  EXPECT_EQ(g.pages_total(), 64ull * 2400 * 256);
  EXPECT_EQ(g.physical_bytes(), 300ull << 30);
}

TEST(FlashGeometry, ConsecutiveDiesOnDifferentChannels) {
  Config cfg =
      Config::from_yaml_string("flash: {channels: 4, dies_per_channel: 2, blocks_per_plane: 10, planes_per_die: 2}");
  const FlashGeometry g = FlashGeometry::from_config(cfg);
  EXPECT_EQ(g.blocks_per_die(), 20u);
  EXPECT_EQ(g.die_of_block(19), 0u);
  EXPECT_EQ(g.die_of_block(20), 1u);
  EXPECT_EQ(g.channel_of_die(0), 0u);
  EXPECT_EQ(g.channel_of_die(1), 1u);
  EXPECT_EQ(g.channel_of_die(4), 0u);
  EXPECT_EQ(g.channel_of_die(7), 3u);
}

TEST(FlashGeometry, ValidationNamesTheKey) {
  EXPECT_NE(error_of("flash: {channels: 0}").find("flash.channels"), std::string::npos);
  EXPECT_NE(error_of("flash: {pages_per_block: 70000}").find("flash.pages_per_block"), std::string::npos);
  EXPECT_NE(error_of("flash: {page_size: 6KiB}").find("flash.page_size"), std::string::npos);
  EXPECT_NE(error_of("flash: {page_size: 32KiB}\nnvme: {lba_size: 512}").find("flash.page_size"),
            std::string::npos);  // 64 slots > 32
  EXPECT_NE(error_of("nvme: {lba_size: 1024}").find("nvme.lba_size"), std::string::npos);
  EXPECT_NE(error_of("flash: {blocks_per_plane: 100000, pages_per_block: 1024}").find("2^32"), std::string::npos);
  EXPECT_EQ(error_of("flash: {page_size: 16KiB}\nnvme: {lba_size: 512}"), "");  // 32 slots is the limit
}
