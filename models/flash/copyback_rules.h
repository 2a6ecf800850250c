// copyback_rules.h - the NAND rules of a copyback (FC_OP_COPYBACK, ssdvp_hw.h)
// that depend on the geometry only, as the flash controller model checks
// them; the firmware tests' fake HAL checks the same (testbench/firmware/
// fake_hal.cpp). The rules on the pages' state (source programmed,
// destination at its write pointer) are NandDie::copy_page's.
//
// A die moves data internally only through its page register, which serves
// one plane: source and destination on the same die and in the same plane
// (block-in-die % planes_per_die). With several bits per cell the page is
// sensed and programmed as one page type: the same type (page % cell_bits).
#pragma once

#include <cstdint>

#include "flash/flash_geometry.h"
#include "ssdvp_hw.h"

namespace ssdvp {

struct CopybackVerdict {
  fc_status status = FC_OK;  // FC_OK, FC_ERR_ADDRESS or FC_ERR_COPYBACK
  const char* why = nullptr;
};

inline CopybackVerdict copyback_check(const FlashGeometry& g, uint32_t cell_bits, uint32_t src_row, uint32_t dst_row) {
  CopybackVerdict v;
  if (src_row >= g.pages_total() || dst_row >= g.pages_total()) {
    v.status = FC_ERR_ADDRESS, v.why = "copyback page row outside the geometry";
    return v;
  }
  const uint32_t sb = src_row / g.pages_per_block, db = dst_row / g.pages_per_block;
  if (g.die_of_block(sb) != g.die_of_block(db)) {
    v.status = FC_ERR_COPYBACK, v.why = "copyback source and destination on different dies";
  } else if (g.plane_of_block(sb) != g.plane_of_block(db)) {
    v.status = FC_ERR_COPYBACK, v.why = "copyback source and destination in different planes";
  } else if (cell_bits > 1 && (src_row % g.pages_per_block) % cell_bits != (dst_row % g.pages_per_block) % cell_bits) {
    v.status = FC_ERR_COPYBACK, v.why = "copyback source and destination of different page types";
  }
  return v;
}

}  // namespace ssdvp
