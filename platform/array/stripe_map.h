// stripe_map.h - RAID-5 address mapping, left-symmetric (Linux md's default).
//
// N devices, chunks of C LBAs. Stripe s holds N - 1 data chunks and one
// parity chunk at device LBAs [s*C, (s+1)*C) of every device. The parity of
// stripe s is on device N-1 - (s mod N); data chunk j (0..N-2) of stripe s is
// on device (parity + 1 + j) mod N, so consecutive chunks of the array walk
// round the devices starting just after the parity (md's
// ALGORITHM_LEFT_SYMMETRIC in raid5_compute_sector). Array LBA a is in stripe
// a / (C*(N-1)), data chunk (a mod C*(N-1)) / C, at offset a mod C.
#pragma once

#include <cstdint>

namespace ssdvp::array {

struct ChunkLoc {
  uint64_t stripe;
  uint32_t data_index;  // j: the chunk's place among the stripe's data chunks
  uint32_t device;
  uint64_t offset;  // within the chunk
  uint64_t device_lba;
};

class StripeMap {
 public:
  // devices >= 2, chunk_lbas >= 1; device_lbas: the smallest device's size
  // (the array uses whole stripes only).
  StripeMap(uint32_t devices, uint64_t chunk_lbas, uint64_t device_lbas)
      : n_(devices), chunk_(chunk_lbas), stripes_(device_lbas / chunk_lbas) {}

  uint32_t devices() const { return n_; }
  uint32_t data_chunks() const { return n_ - 1; }
  uint64_t chunk_lbas() const { return chunk_; }
  uint64_t stripes() const { return stripes_; }
  uint64_t stripe_lbas() const { return chunk_ * (n_ - 1); }  // data LBAs per stripe
  uint64_t array_lbas() const { return stripes_ * stripe_lbas(); }

  uint32_t parity_device(uint64_t stripe) const { return n_ - 1 - uint32_t(stripe % n_); }
  uint32_t data_device(uint64_t stripe, uint32_t j) const { return (parity_device(stripe) + 1 + j) % n_; }
  // The data index of device d in stripe s, or UINT32_MAX for its parity device.
  uint32_t data_index_of(uint64_t stripe, uint32_t d) const {
    const uint32_t p = parity_device(stripe);
    return d == p ? UINT32_MAX : (d + n_ - p - 1) % n_;
  }
  ChunkLoc locate(uint64_t array_lba) const {
    ChunkLoc l;
    l.stripe = array_lba / stripe_lbas();
    const uint64_t in = array_lba % stripe_lbas();
    l.data_index = uint32_t(in / chunk_);
    l.offset = in % chunk_;
    l.device = data_device(l.stripe, l.data_index);
    l.device_lba = l.stripe * chunk_ + l.offset;
    return l;
  }
  uint64_t array_lba(uint64_t stripe, uint32_t j, uint64_t offset) const {
    return stripe * stripe_lbas() + uint64_t(j) * chunk_ + offset;
  }

 private:
  uint32_t n_;
  uint64_t chunk_, stripes_;
};

}  // namespace ssdvp::array
