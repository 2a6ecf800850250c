// register_bank.cpp - see register_bank.h.
#include "register_bank.h"

#include <algorithm>
#include <cstring>
#include <stdexcept>

#include "ssdvp_hw.h"

namespace ssdvp {

const std::vector<RegisterInfo>& register_table() {
  static const std::vector<RegisterInfo> table = {
#define RO ::ssdvp::RegAccess::ro
#define WO ::ssdvp::RegAccess::wo
#define RW ::ssdvp::RegAccess::rw
#define REG(block, name, offset, access, desc) {#block, #name, offset, access, desc},
#include "ssdvp_regs.def"
#undef RO
#undef WO
#undef RW
  };
  return table;
}

const std::vector<FieldInfo>& field_table() {
  static const std::vector<FieldInfo> table = {
#define RO ::ssdvp::RegAccess::ro
#define WO ::ssdvp::RegAccess::wo
#define RW ::ssdvp::RegAccess::rw
#define FIELD(block, reg, name, msb, lsb, access, desc) {#block, #reg, #name, block##_##reg, msb, lsb, access, desc},
#include "ssdvp_regs.def"
#undef RO
#undef WO
#undef RW
  };
  return table;
}

const std::vector<RegionInfo>& region_table() {
  static const std::vector<RegionInfo> table = {
#define REGION(name, base, size, desc) {#name, base, size, desc},
#include "ssdvp_regs.def"
  };
  return table;
}

const RegionInfo& region(const std::string& name) {
  for (const auto& r : region_table())
    if (r.name == name) return r;
  throw std::out_of_range("no region '" + name + "' in the address map");
}

RegisterBank::RegisterBank(const std::string& block) : block_(block) {
  for (const auto& r : register_table())
    if (r.block == block) regs_.push_back(Reg{r, 0, {}, {}});
  if (regs_.empty()) throw std::invalid_argument("no registers for block '" + block + "' in ssdvp_regs.def");
  std::sort(regs_.begin(), regs_.end(), [](const Reg& a, const Reg& b) { return a.info.offset < b.info.offset; });
  index_.assign(regs_.back().info.offset / 4 + 1, -1);
  for (size_t i = 0; i < regs_.size(); ++i)
    if (regs_[i].info.offset % 4 == 0) index_[regs_[i].info.offset / 4] = int16_t(i);
}

RegisterBank::Reg* RegisterBank::find(uint32_t offset) {
  if (offset % 4 || offset / 4 >= index_.size()) return nullptr;
  const int16_t i = index_[offset / 4];
  return i < 0 ? nullptr : &regs_[size_t(i)];
}
const RegisterBank::Reg* RegisterBank::find(uint32_t offset) const {
  return const_cast<RegisterBank*>(this)->find(offset);
}

void RegisterBank::on_read(uint32_t offset, std::function<uint32_t()> h) {
  Reg* r = find(offset);
  if (!r) throw std::invalid_argument(block_ + ": no register at offset " + std::to_string(offset));
  r->read = std::move(h);
}
void RegisterBank::on_write(uint32_t offset, std::function<void(uint32_t)> h) {
  Reg* r = find(offset);
  if (!r) throw std::invalid_argument(block_ + ": no register at offset " + std::to_string(offset));
  r->write = std::move(h);
}
uint32_t RegisterBank::get(uint32_t offset) const {
  const Reg* r = find(offset);
  return r ? r->value : 0;
}
void RegisterBank::set(uint32_t offset, uint32_t value) {
  if (Reg* r = find(offset)) r->value = value;
}

const FieldInfo& RegisterBank::field(uint32_t offset, const std::string& name) const {
  for (const auto& f : field_table())
    if (f.block == block_ && f.offset == offset && f.name == name) return f;
  throw std::invalid_argument(block_ + ": no field " + name + " in the register at offset " + std::to_string(offset));
}
uint32_t RegisterBank::get_field(uint32_t offset, const std::string& name) const {
  return field(offset, name).get(get(offset));
}
void RegisterBank::set_field(uint32_t offset, const std::string& name, uint32_t value) {
  set(offset, field(offset, name).put(get(offset), value));
}

namespace {
// One whole 32-bit word: the only payload shape a register takes.
bool one_word(const tlm::tlm_generic_payload& tx) {
  return tx.get_data_length() == 4 && tx.get_streaming_width() >= 4 && !tx.get_byte_enable_ptr();
}
}  // namespace

RegisterBank::Reg* RegisterBank::target(tlm::tlm_generic_payload& tx) {
  tlm::tlm_response_status st = tlm::TLM_BURST_ERROR_RESPONSE;
  Reg* r = one_word(tx) ? find_aligned(tx.get_address(), &st) : nullptr;
  if (!r) tx.set_response_status(st);
  return r;
}

bool RegisterBank::transport(tlm::tlm_generic_payload& tx) {
  uint32_t v = 0;
  tlm::tlm_response_status st = tlm::TLM_OK_RESPONSE;
  if (!one_word(tx)) {
    ++errors_;
    st = tlm::TLM_BURST_ERROR_RESPONSE;
  } else if (tx.is_read() || tx.is_write()) {
    if (tx.is_write()) std::memcpy(&v, tx.get_data_ptr(), 4);
    st = access(tx.is_write(), tx.get_address(), &v);
  } else if (!find_aligned(tx.get_address(), &st)) {  // an ignore command: decoded, nothing done
    ++errors_;
  }
  tx.set_response_status(st);
  if (st != tlm::TLM_OK_RESPONSE) return false;
  if (tx.is_read()) std::memcpy(tx.get_data_ptr(), &v, 4);
  return true;
}

RegisterBank::Reg* RegisterBank::find_aligned(uint64_t offset, tlm::tlm_response_status* st) {
  if (offset % 4) {
    *st = tlm::TLM_BURST_ERROR_RESPONSE;
    return nullptr;
  }
  Reg* r = offset <= UINT32_MAX ? find(static_cast<uint32_t>(offset)) : nullptr;
  if (!r) *st = tlm::TLM_ADDRESS_ERROR_RESPONSE;
  return r;
}

tlm::tlm_response_status RegisterBank::access(bool write, uint64_t offset, uint32_t* value) {
  tlm::tlm_response_status st = tlm::TLM_OK_RESPONSE;
  Reg* r = find_aligned(offset, &st);
  if (r && r->info.access == (write ? RegAccess::ro : RegAccess::wo)) st = tlm::TLM_COMMAND_ERROR_RESPONSE;
  if (st != tlm::TLM_OK_RESPONSE) {
    ++errors_;
    return st;
  }
  if (write) {
    r->value = *value;
    if (r->write) r->write(*value);
  } else {
    *value = r->read ? r->read() : r->value;
  }
  return tlm::TLM_OK_RESPONSE;
}

unsigned RegisterBank::transport_dbg(tlm::tlm_generic_payload& tx) {
  Reg* r = target(tx);
  if (!r) return 0;
  if (tx.is_read()) {
    const uint32_t v = r->read ? r->read() : r->value;
    std::memcpy(tx.get_data_ptr(), &v, 4);
  } else if (tx.is_write()) {
    if (r->write) return 0;  // only its handler could take it: no side effects here
    std::memcpy(&r->value, tx.get_data_ptr(), 4);
  }
  tx.set_response_status(tlm::TLM_OK_RESPONSE);
  return 4;
}

}  // namespace ssdvp
