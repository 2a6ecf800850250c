// zns_host.cpp - the host driver on a zoned namespace (nvme.command_set zns,
// docs/models/zns.md): a trim request resets the zones it touches, one Zone
// Management Send Reset per zone, and the scoreboard forgets each whole zone
// (a reset empties it: its LBAs read as deallocated).
#include <algorithm>

#include "host/host_driver.h"

extern "C" {
#include "zns.h"
}

namespace ssdvp {

uint32_t HostDriver::trim_piece(uint64_t lba, uint64_t left) const {
  if (!zone_cap_) return uint32_t(std::min<uint64_t>(left, UINT32_MAX));  // one Dataset Management range
  const uint64_t zone_end = ((lba >> zone_bits_) + 1) << zone_bits_;
  return uint32_t(std::min(left, zone_end - lba));
}

nvme_sqe HostDriver::zone_reset(nvme_sqe e, uint32_t slot, uint64_t lba) {
  const uint64_t zslba = lba >> zone_bits_ << zone_bits_;
  for (uint64_t i = zslba; i < zslba + zone_cap_ && i < lba_end_; ++i) sb_.trim(i);
  e.cdw0 = SSDVP_FIELD_PUT(NVME_CDW0_OPC, ZNS_OP_MGMT_SEND) | SSDVP_FIELD_PUT(NVME_CDW0_CID, slot);
  e.cdw10 = uint32_t(zslba);
  e.cdw11 = uint32_t(zslba >> 32);
  e.cdw13 = ZNS_ZSA_RESET;
  return e;
}

}  // namespace ssdvp
