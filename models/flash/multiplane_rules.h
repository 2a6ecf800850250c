// multiplane_rules.h - the NAND rules of a multi-plane group (ssdvp_hw.h,
// fc_opcode), as the flash controller model checks them; the firmware tests'
// fake HAL checks the same rules once it is given the geometry
// (FakeHal::set_geometry, testbench/firmware/fake_hal.h).
//
// A group is n descriptors: n - 1 plane opcodes (FC_OP_PLANE_*) then the
// plain opcode of the same kind. Rules (the vendor rule adopted, as in ONFI
// parts without block-address restrictions): every member on the same die,
// each in another plane (block-in-die % planes_per_die), at the same page
// offset (READ, PROGRAM); the blocks within their planes are free. At most
// planes_per_die members follows from the planes rule. With same_block
// (flash.multiplane_same_block, the rule of many vendors' parts) every member
// must also address the same block index within its plane (block-in-die /
// planes_per_die).
#pragma once

#include <cstddef>
#include <cstdint>

#include "flash/flash_geometry.h"
#include "ssdvp_hw.h"

namespace ssdvp {

// The configuration key of the same-block-index rule; the flash controller
// checks it and the platform hands it to the firmware (ftl_config.mp_same_block).
inline constexpr const char* kMultiplaneSameBlockKey = "flash.multiplane_same_block";

struct MultiplaneVerdict {
  fc_status status = FC_OK;  // FC_OK, FC_ERR_ADDRESS (a row outside the geometry) or FC_ERR_MULTIPLANE
  const char* why = nullptr;
  size_t member = 0;  // the first member that breaks it
};

inline MultiplaneVerdict multiplane_check(const FlashGeometry& g, const fc_sqe* d, size_t n, bool same_block = false) {
  MultiplaneVerdict v;
  if (n == 0) return v;
  const uint32_t kind = FC_OP_KIND(d[n - 1].op);
  const bool erase = kind == FC_OP_ERASE;
  uint32_t die0 = 0, page0 = 0, index0 = 0;
  uint64_t planes_seen = 0;
  for (size_t i = 0; i < n; ++i) {
    v.member = i;
    if (FC_OP_KIND(d[i].op) != kind) {
      v.status = FC_ERR_MULTIPLANE, v.why = "multi-plane group mixes operations";
      return v;
    }
    if (erase ? d[i].row >= g.total_blocks() : d[i].row >= g.pages_total()) {
      v.status = FC_ERR_ADDRESS, v.why = "row outside the geometry";
      return v;
    }
    const uint32_t block = erase ? d[i].row : d[i].row / g.pages_per_block;
    const uint32_t die = g.die_of_block(block), plane = g.plane_of_block(block);
    const uint32_t page = erase ? 0 : d[i].row % g.pages_per_block;
    const uint32_t index = (block % g.blocks_per_die()) / g.planes_per_die;
    if (i == 0) die0 = die, page0 = page, index0 = index;
    if (die != die0) {
      v.status = FC_ERR_MULTIPLANE, v.why = "multi-plane group spans dies";
      return v;
    }
    if (planes_seen & (uint64_t(1) << plane)) {
      v.status = FC_ERR_MULTIPLANE, v.why = "multi-plane group names a plane twice";
      return v;
    }
    planes_seen |= uint64_t(1) << plane;
    if (page != page0) {
      v.status = FC_ERR_MULTIPLANE, v.why = "multi-plane group at different page offsets";
      return v;
    }
    if (same_block && index != index0) {
      v.status = FC_ERR_MULTIPLANE,
      v.why = "multi-plane group at different block indices (flash.multiplane_same_block)";
      return v;
    }
  }
  return v;
}

}  // namespace ssdvp
