// register_bank.h - a block's registers, built from the one table.
//
// RegisterBank("FLASH") creates one 32-bit register for every
// REG(FLASH, ...) row of firmware/include/ssdvp_regs.def. A model then
// attaches handlers to the rows it needs (on_read / on_write); a register
// without a handler simply holds its value. transport() serves a TLM generic
// payload: guest mistakes (unmapped offset, access size other than 4, write
// to a read-only register) get a TLM error response, never an assert.
#pragma once

#include <systemc>
#include <tlm>

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace ssdvp {

enum class RegAccess { ro, wo, rw };

struct RegisterInfo {
  std::string block;
  std::string name;
  uint32_t offset;
  RegAccess access;
  std::string description;
};

// Every REG row of the table, in table order.
const std::vector<RegisterInfo>& register_table();

// One FIELD row: bits msb:lsb of a register.
struct FieldInfo {
  std::string block;
  std::string reg;
  std::string name;
  uint32_t offset;  // of the register
  uint32_t msb, lsb;
  RegAccess access;
  std::string description;
  uint32_t mask() const { return uint32_t(((uint64_t(1) << (msb - lsb + 1)) - 1) << lsb); }
  uint32_t get(uint32_t reg_value) const { return (reg_value & mask()) >> lsb; }
  uint32_t put(uint32_t reg_value, uint32_t v) const { return (reg_value & ~mask()) | ((v << lsb) & mask()); }
};

// Every FIELD row of the table, in table order.
const std::vector<FieldInfo>& field_table();

struct RegionInfo {
  std::string name;
  uint64_t base;
  uint64_t size;
  std::string description;
};
// Every REGION row of the table, in table order.
const std::vector<RegionInfo>& region_table();
// The region called `name`; throws std::out_of_range if there is none.
const RegionInfo& region(const std::string& name);

class RegisterBank {
 public:
  explicit RegisterBank(const std::string& block);

  void on_read(uint32_t offset, std::function<uint32_t()> handler);
  void on_write(uint32_t offset, std::function<void(uint32_t)> handler);

  uint32_t get(uint32_t offset) const;
  void set(uint32_t offset, uint32_t value);
  // A field of the register at offset, by its FIELD row's name (throws
  // std::invalid_argument for a field the table does not have: a model bug).
  uint32_t get_field(uint32_t offset, const std::string& field) const;
  void set_field(uint32_t offset, const std::string& field, uint32_t value);
  const FieldInfo& field(uint32_t offset, const std::string& name) const;

  // Serves one access; adds nothing to delay (the caller adds its latency).
  // Returns false (and sets the payload's response status) on a guest error.
  bool transport(tlm::tlm_generic_payload& tx);
  // The same for one 4-byte access at offset, without a payload (the direct
  // register path, common/register_path.h): reads into or writes from
  // *value; returns TLM_OK_RESPONSE, or the error transport() would set
  // (a misaligned offset: burst error; no register there: address error; a
  // read of a write-only or a write of a read-only register: command error),
  // counted in errors() the same way.
  tlm::tlm_response_status access(bool write, uint64_t offset, uint32_t* value);
  // A debug access (transport_dbg), without side effects: a read returns the
  // live value (read handlers must have none), a write changes only a
  // register without a write handler (a handler could ring a doorbell).
  // Returns the bytes accessed (4), or 0 for a refused or bad access; counts
  // no error.
  unsigned transport_dbg(tlm::tlm_generic_payload& tx);

  const std::string& block() const { return block_; }
  size_t size() const { return regs_.size(); }
  // Count of rejected accesses (for stats and tests).
  uint64_t errors() const { return errors_; }

 private:
  struct Reg {
    RegisterInfo info;
    uint32_t value = 0;
    std::function<uint32_t()> read;
    std::function<void(uint32_t)> write;
  };
  Reg* find(uint32_t offset);
  // The register an access names, or null (response status set) if malformed.
  Reg* target(tlm::tlm_generic_payload& tx);
  // The register at offset, or null with *st the error (misaligned: burst
  // error; no register there: address error).
  Reg* find_aligned(uint64_t offset, tlm::tlm_response_status* st);
  const Reg* find(uint32_t offset) const;

  std::string block_;
  std::vector<Reg> regs_;       // sorted by offset
  std::vector<int16_t> index_;  // offset / 4 -> position in regs_, or -1
  uint64_t errors_ = 0;
};

}  // namespace ssdvp
