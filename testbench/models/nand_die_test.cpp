// Bench for NandDie: the NAND rules on the functional store.
#include <gtest/gtest.h>

#include <vector>

#include "flash/nand_die.h"
#include "tiny_flash.h"

using namespace ssdvp;

namespace {
FlashGeometry small() { return ssdvp::testing::tiny_flash(); }
struct Page {
  std::vector<uint32_t> tok, lpn;
  explicit Page(uint32_t base) : tok(4), lpn(4) {
    for (uint32_t s = 0; s < 4; ++s) tok[s] = base + s, lpn[s] = 100 * base + s;
  }
};
}  // namespace

TEST(NandDie, FreshBlocksAreErased) {
  NandDie d(small());
  for (uint32_t b = 0; b < 4; ++b) {
    EXPECT_EQ(d.write_pointer(b), 0u);
    EXPECT_EQ(d.erase_count(b), 0u);
  }
}

TEST(NandDie, ProgramThenReadReturnsTokensLpnsSeq) {
  NandDie d(small());
  Page p(7);
  ASSERT_EQ(d.program(2, 0, p.tok.data(), p.lpn.data(), 42), FC_OK);
  std::vector<uint32_t> tok(4, 0xdead), lpn(4, 0xdead);
  uint32_t seq = 0, flags = 99;
  ASSERT_EQ(d.read(2, 0, 0b1010, tok.data(), lpn.data(), &seq, &flags), FC_OK);
  EXPECT_EQ(tok[0], 0xdeadu);  // unselected slots untouched
  EXPECT_EQ(tok[1], 8u);
  EXPECT_EQ(tok[3], 10u);
  EXPECT_EQ(lpn[1], 701u);
  EXPECT_EQ(seq, 42u);
  EXPECT_EQ(flags, 0u);
  EXPECT_EQ(d.write_pointer(2), 1u);
}

TEST(NandDie, ProgramOutOfOrderIsRejected) {
  NandDie d(small());
  Page p(1);
  EXPECT_EQ(d.program(0, 1, p.tok.data(), p.lpn.data(), 1), FC_ERR_ORDER);
  EXPECT_EQ(d.write_pointer(0), 0u);
  uint32_t flags = 0;
  ASSERT_EQ(d.read(0, 1, 1, nullptr, nullptr, nullptr, &flags), FC_OK);
  EXPECT_EQ(flags, FC_FLAG_ERASED);
}

TEST(NandDie, ProgramNotErasedIsRejected) {
  NandDie d(small());
  Page a(1), b(2);
  ASSERT_EQ(d.program(0, 0, a.tok.data(), a.lpn.data(), 1), FC_OK);
  ASSERT_EQ(d.program(0, 1, a.tok.data(), a.lpn.data(), 2), FC_OK);
  EXPECT_EQ(d.program(0, 0, b.tok.data(), b.lpn.data(), 3), FC_ERR_NOT_ERASED);
  uint32_t tok[4], seq = 0;
  ASSERT_EQ(d.read(0, 0, 0xf, tok, nullptr, &seq, nullptr), FC_OK);
  EXPECT_EQ(tok[0], 1u);  // unchanged
  EXPECT_EQ(seq, 1u);
}

TEST(NandDie, EraseResetsAndCounts) {
  NandDie d(small());
  Page a(1), b(5);
  for (uint32_t pg = 0; pg < 8; ++pg) ASSERT_EQ(d.program(3, pg, a.tok.data(), a.lpn.data(), pg), FC_OK);
  EXPECT_EQ(d.program(3, 8, a.tok.data(), a.lpn.data(), 9), FC_ERR_ADDRESS);
  ASSERT_EQ(d.erase(3), FC_OK);
  ASSERT_EQ(d.erase(3), FC_OK);  // erasing an erased block is legal and counts
  EXPECT_EQ(d.erase_count(3), 2u);
  EXPECT_EQ(d.erase_count(2), 0u);
  EXPECT_EQ(d.write_pointer(3), 0u);
  EXPECT_FALSE(d.is_programmed(3, 0));
  ASSERT_EQ(d.program(3, 0, b.tok.data(), b.lpn.data(), 77), FC_OK);
  uint32_t tok[4], seq = 0, flags = 1;
  ASSERT_EQ(d.read(3, 0, 0xf, tok, nullptr, &seq, &flags), FC_OK);
  EXPECT_EQ(tok[2], 7u);
  EXPECT_EQ(seq, 77u);
  EXPECT_EQ(flags, 0u);
}

TEST(NandDie, ReadErasedPageFlagged) {
  NandDie d(small());
  Page a(1);
  ASSERT_EQ(d.program(1, 0, a.tok.data(), a.lpn.data(), 5), FC_OK);
  ASSERT_EQ(d.erase(1), FC_OK);  // old content stays in the arrays but must not show
  uint32_t tok[4] = {0, 0, 0, 0}, lpn[4] = {0, 0, 0, 0}, seq = 0, flags = 0;
  ASSERT_EQ(d.read(1, 0, 0xf, tok, lpn, &seq, &flags), FC_OK);
  EXPECT_EQ(flags, FC_FLAG_ERASED);
  for (int s = 0; s < 4; ++s) {
    EXPECT_EQ(tok[s], SSDVP_TOKEN_ERASED);
    EXPECT_EQ(lpn[s], SSDVP_LPN_NONE);
  }
}

TEST(NandDie, BadAddressAndMaskAreRejected) {
  NandDie d(small());
  uint32_t tok[4];
  EXPECT_EQ(d.read(4, 0, 1, tok, nullptr, nullptr, nullptr), FC_ERR_ADDRESS);
  EXPECT_EQ(d.read(0, 8, 1, tok, nullptr, nullptr, nullptr), FC_ERR_ADDRESS);
  EXPECT_EQ(d.read(0, 0, 0, tok, nullptr, nullptr, nullptr), FC_ERR_MASK);
  EXPECT_EQ(d.read(0, 0, 0x10, tok, nullptr, nullptr, nullptr), FC_ERR_MASK);
  EXPECT_EQ(d.erase(4), FC_ERR_ADDRESS);
}

TEST(NandDie, DefaultGeometryReservesUnder24BytesPerPage) {
  FlashGeometry g;  // 2400 blocks x 256 pages x 2 slots
  NandDie d(g);
  EXPECT_LT(double(d.reserved_bytes()) / double(g.pages_per_die()), 24.0);
}

// Faults and power loss: a torn page is consumed, reads uncorrectable until
// the block is erased; a torn block takes no program until erased.
TEST(NandDie, TornPagesReadUncorrectableUntilErased) {
  NandDie d(small());
  Page p(3);
  ASSERT_EQ(d.program(1, 0, p.tok.data(), p.lpn.data(), 5), FC_OK);
  ASSERT_EQ(d.program_torn(1, 1), FC_OK);  // a failed program
  EXPECT_EQ(d.program_torn(1, 3), FC_ERR_ORDER);
  EXPECT_EQ(d.write_pointer(1), 2u);
  ASSERT_EQ(d.program(1, 2, p.tok.data(), p.lpn.data(), 6), FC_OK);
  d.tear_page(1, 2);  // power cut during its program
  uint32_t tok[4] = {}, lpn[4] = {}, seq = 0, flags = 9;
  EXPECT_EQ(d.read(1, 0, 0xf, tok, lpn, &seq, &flags), FC_OK);
  EXPECT_EQ(seq, 5u);
  EXPECT_EQ(d.read(1, 1, 0xf, tok, lpn, &seq, &flags), FC_ERR_UNCORRECTABLE);
  EXPECT_EQ(d.read(1, 2, 0x1, tok, lpn, &seq, &flags), FC_ERR_UNCORRECTABLE);
  EXPECT_TRUE(d.is_torn(1, 1));
  EXPECT_FALSE(d.is_torn(1, 0));
  ASSERT_EQ(d.erase(1), FC_OK);
  EXPECT_FALSE(d.is_torn(1, 1));
  ASSERT_EQ(d.program(1, 0, p.tok.data(), p.lpn.data(), 7), FC_OK);
  ASSERT_EQ(d.program(1, 1, p.tok.data(), p.lpn.data(), 8), FC_OK);
  EXPECT_EQ(d.read(1, 1, 0xf, tok, lpn, &seq, &flags), FC_OK);
  EXPECT_EQ(seq, 8u);
}

TEST(NandDie, TornBlockNeedsAnErase) {
  NandDie d(small());
  Page p(4);
  d.tear_block(2);  // an erase cut short
  uint32_t tok[4] = {}, flags = 0;
  EXPECT_EQ(d.read(2, 0, 0xf, tok, nullptr, nullptr, &flags), FC_ERR_UNCORRECTABLE);
  EXPECT_EQ(d.program(2, 0, p.tok.data(), p.lpn.data(), 1), FC_ERR_NOT_ERASED);
  ASSERT_EQ(d.erase(2), FC_OK);
  EXPECT_EQ(d.program(2, 0, p.tok.data(), p.lpn.data(), 1), FC_OK);
  EXPECT_EQ(d.read(2, 1, 0xf, tok, nullptr, nullptr, &flags), FC_OK);
  EXPECT_EQ(flags, uint32_t(FC_FLAG_ERASED));
}

// Copyback: the page moves with its tokens and LPNs, a new sequence number
// and a hop count one above the source's; the destination follows the
// program rules; an erase clears the counts; a torn source gives a torn copy.
TEST(NandDie, CopyPageCarriesDataAndCountsHops) {
  NandDie d(small());
  Page p(7);
  ASSERT_EQ(d.program(0, 0, p.tok.data(), p.lpn.data(), 5), FC_OK);
  uint32_t hops = 0;
  EXPECT_EQ(d.copy_page(0, 1, 2, 0, 6, &hops), FC_ERR_COPYBACK) << "source not programmed";
  EXPECT_EQ(d.copy_page(0, 0, 2, 1, 6, &hops), FC_ERR_ORDER);
  EXPECT_EQ(d.write_pointer(2), 0u) << "a rejected copy changes nothing";
  ASSERT_EQ(d.copy_page(0, 0, 2, 0, 6, &hops), FC_OK);
  EXPECT_EQ(hops, 1u);
  EXPECT_EQ(d.copy_page(0, 0, 2, 0, 6, &hops), FC_ERR_NOT_ERASED);
  std::vector<uint32_t> tok(4), lpn(4);
  uint32_t seq = 0, flags = 9;
  ASSERT_EQ(d.read(2, 0, 0xf, tok.data(), lpn.data(), &seq, &flags), FC_OK);
  EXPECT_EQ(tok, p.tok);
  EXPECT_EQ(lpn, p.lpn);
  EXPECT_EQ(seq, 6u);
  EXPECT_EQ(flags, 0u);
  ASSERT_EQ(d.copy_page(2, 0, 3, 0, 7, &hops), FC_OK);
  EXPECT_EQ(hops, 2u);
  EXPECT_EQ(d.hops(3, 0), 2u);
  EXPECT_EQ(d.hops(0, 0), 0u);
  EXPECT_FALSE(d.is_torn(3, 0));
  d.tear_page(3, 0);  // a cut while the copy was programmed
  EXPECT_TRUE(d.is_torn(3, 0));
  EXPECT_EQ(d.read(3, 0, 0x1, tok.data(), nullptr, nullptr, nullptr), FC_ERR_UNCORRECTABLE);
  ASSERT_EQ(d.copy_page(3, 0, 1, 0, 8, &hops), FC_OK);
  EXPECT_TRUE(d.is_torn(1, 0)) << "no ECC on the way: a torn page copies as torn";
  ASSERT_EQ(d.erase(2), FC_OK);
  ASSERT_EQ(d.program(2, 0, p.tok.data(), p.lpn.data(), 9), FC_OK);
  EXPECT_EQ(d.hops(2, 0), 0u) << "an erase clears the counts";
  ASSERT_EQ(d.erase(3), FC_OK);
  EXPECT_FALSE(d.is_torn(3, 0));
}
