// register_fields_test.cpp - the FIELD rows of firmware/include/ssdvp_regs.def:
// every field lies inside an existing register, fields of one register do not
// overlap, a field is not writable in a read-only register, the C macros of
// ssdvp_hw.h agree with RegisterBank's table, and RegisterBank reads and
// writes fields by name.
#include <gtest/gtest.h>

#include <map>
#include <stdexcept>

#include "common/register_bank.h"
#include "ssdvp_hw.h"

using ssdvp::FieldInfo;
using ssdvp::RegAccess;

TEST(RegisterFields, EveryFieldFitsItsRegisterWithoutOverlap) {
  ASSERT_FALSE(ssdvp::field_table().empty());
  std::map<std::pair<std::string, uint32_t>, uint32_t> used;  // register -> bits taken
  for (const FieldInfo& f : ssdvp::field_table()) {
    SCOPED_TRACE(f.block + "_" + f.reg + "_" + f.name);
    EXPECT_LE(f.lsb, f.msb);
    EXPECT_LT(f.msb, 32u);
    const ssdvp::RegisterInfo* reg = nullptr;
    for (const auto& r : ssdvp::register_table())
      if (r.block == f.block && r.name == f.reg) reg = &r;
    ASSERT_NE(reg, nullptr) << "no register " << f.reg;
    EXPECT_EQ(reg->offset, f.offset);
    if (reg->access != RegAccess::rw) {
      EXPECT_EQ(f.access, reg->access) << "a field cannot be accessed otherwise than its register";
    }
    uint32_t& bits = used[{f.block, f.offset}];
    EXPECT_EQ(bits & f.mask(), 0u) << "overlaps another field";
    bits |= f.mask();
  }
}

TEST(RegisterFields, CMacrosAgreeWithTheTable) {
  std::map<std::string, uint32_t> c_masks = {
#define FIELD(block, reg, name, msb, lsb, access, desc) \
  {#block "_" #reg "_" #name, SSDVP_FIELD_MASK(block##_##reg##_##name)},
#include "ssdvp_regs.def"
  };
  ASSERT_EQ(c_masks.size(), ssdvp::field_table().size());
  for (const FieldInfo& f : ssdvp::field_table())
    EXPECT_EQ(c_masks.at(f.block + "_" + f.reg + "_" + f.name), f.mask()) << f.name;
  // the named masks the firmware has used since before the table had fields
  EXPECT_EQ(ACCEL_CTRL_START, 0x1u);
  EXPECT_EQ(ACCEL_CTRL_IRQ_EN, 0x2u);
  EXPECT_EQ(ACCEL_STATUS_ERROR, 0x4u);
  EXPECT_EQ(SSDVP_FIELD_GET(ACCEL_CENT0_Y, 0x01230045u), 0x123u);
  EXPECT_EQ(SSDVP_FIELD_PUT(ACCEL_CENT0_X, 0x3ffu), 0x1ffu);  // masked to 9 bits
  // NVMe command dwords
  EXPECT_EQ(SSDVP_FIELD_GET(NVME_CDW0_CID, 0xbeef0002u), 0xbeefu);
  EXPECT_EQ(SSDVP_FIELD_GET(NVME_CDW0_OPC, 0xbeef0002u), uint32_t(NVME_OP_READ));
  EXPECT_EQ(SSDVP_FIELD_PUT(NVME_CDW12_DTYPE, NVME_DTYPE_STREAMS), 1u << 20);
  EXPECT_EQ(SSDVP_FIELD_GET(NVME_CQE_STATUS_SF, 0x0101u), 0x080u);
  EXPECT_EQ(SSDVP_FIELD_GET(NVME_CQE_STATUS_P, 0x0101u), 1u);
}

TEST(RegisterFields, BankReadsAndWritesFieldsByName) {
  ssdvp::RegisterBank accel("ACCEL");
  accel.set(ACCEL_CENT0, 0);
  accel.set_field(ACCEL_CENT0, "X", 300);
  accel.set_field(ACCEL_CENT0, "Y", 511);
  EXPECT_EQ(accel.get(ACCEL_CENT0), 300u | (511u << 16));
  EXPECT_EQ(accel.get_field(ACCEL_CENT0, "X"), 300u);
  accel.set_field(ACCEL_CENT0, "X", 7);  // the other field stays
  EXPECT_EQ(accel.get_field(ACCEL_CENT0, "Y"), 511u);
  EXPECT_THROW(accel.get_field(ACCEL_CENT0, "Z"), std::invalid_argument);
  EXPECT_THROW(accel.get_field(ACCEL_N, "X"), std::invalid_argument);
}
