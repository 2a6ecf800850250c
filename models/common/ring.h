// ring.h - one set of rules for the descriptor rings the controllers share
// with the firmware (flash SQ/CQ, NVMe CMD/XFER/DONE) and for the host's
// NVMe queues.
//
// A ring of `size` entries has free-running head and tail indices wrapped at
// size: empty when head == tail, so it holds at most size - 1 entries. The
// layout rules (firmware rings in DRAM): a power of two of at least
// min_entries entries, a 4-byte aligned base, every byte inside DRAM. An
// index written by the other side (a tail or head doorbell) must be below
// size, on a ring that is set up.
#pragma once

#include <cstdint>
#include <functional>

namespace ssdvp {

// (index + 1) % size without a division on the usual path (index < size).
inline uint32_t ring_next(uint32_t index, uint32_t size) { return index + 1 < size ? index + 1 : (index + 1) % size; }
inline uint32_t ring_used(uint32_t head, uint32_t tail, uint32_t size) { return (tail + size - head) % size; }
inline uint32_t ring_room(uint32_t head, uint32_t tail, uint32_t size) { return (head + size - tail - 1) % size; }
inline bool ring_full(uint32_t head, uint32_t tail, uint32_t size) { return ring_next(tail, size) == head; }
inline bool ring_index_ok(bool set_up, uint32_t index, uint32_t size) { return set_up && index < size; }

// Why a ring of `entries` entries of `entry_bytes` bytes at `base` breaks the
// layout rules, or null if it keeps them. inside_dram(addr, bytes) tells
// whether [addr, addr + bytes) is DRAM the controller can reach.
inline const char* ring_layout_fault(uint64_t base, uint32_t entries, uint32_t entry_bytes, uint32_t min_entries,
                                     const std::function<bool(uint64_t, uint64_t)>& inside_dram) {
  if (entries & (entries - 1)) return "size is not a power of two";
  if (entries < min_entries) return "too few entries";
  if (base % 4) return "base is not 4-byte aligned";
  if (!inside_dram(base, uint64_t(entries) * entry_bytes)) return "ring is not inside DRAM";
  return nullptr;
}

}  // namespace ssdvp
