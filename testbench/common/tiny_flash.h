// tiny_flash.h - the smallest flash the model tests use: one die of one
// plane, 4 blocks of 8 pages of 16 KiB (4 LBA slots of 4 KiB each), so a
// test can fill, invalidate and erase every block by hand.
#pragma once

#include "flash/flash_geometry.h"

namespace ssdvp::testing {

inline FlashGeometry tiny_flash() {
  FlashGeometry g;
  g.channels = 1;
  g.dies_per_channel = 1;
  g.planes_per_die = 1;
  g.blocks_per_plane = 4;
  g.pages_per_block = 8;
  g.page_size = 16384;
  g.lba_size = 4096;  // 4 slots a page
  return g;
}

}  // namespace ssdvp::testing
