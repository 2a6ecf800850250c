// ocssd_test.cpp - the open-channel personality (ftl/ocssd.c) on the fake
// HAL's functional NVMe rings: Geometry and the chunk information log
// describe the flash, vector writes go to the write pointer and read back,
// resets free closed chunks, and every bad command completes with its
// Open-Channel status and changes nothing.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cstring>
#include <vector>

#include "ocssd_device.h"

using namespace octest;  // NOLINT(google-build-using-namespace): the harness of this test

TEST(Ocssd, GeometryDescribesTheFlash) {
  Oc o(open_channel_timed);
  const ftl_config& c = o.d.cfg;
  EXPECT_EQ(o.geo.major, 2);
  EXPECT_EQ(o.geo.num_grp, c.channels);
  EXPECT_EQ(o.geo.num_pu, c.dies_per_channel);
  EXPECT_EQ(o.geo.num_chk, c.blocks_per_die);
  EXPECT_EQ(o.geo.clba, c.pages_per_block * c.slots_per_page);
  EXPECT_EQ(o.geo.ws_min, c.slots_per_page);
  EXPECT_EQ(o.geo.mw_cunits, 0u);
  EXPECT_EQ(o.geo.trdt, 20000u);
  EXPECT_EQ(o.geo.tprt, 200000u);
  EXPECT_EQ(o.geo.tbet, 2000000u);
  // every field wide enough for its count, and no wider than needed
  const ocssd_lbaf& l = o.geo.lbaf;
  EXPECT_GE(1ull << l.grp_len, c.channels);
  EXPECT_LT(1ull << l.grp_len, 2ull * c.channels);
  EXPECT_GE(1ull << l.chk_len, c.blocks_per_die);
  EXPECT_GE(1ull << l.sec_len, o.geo.clba);
  EXPECT_LT(1ull << l.sec_len, 2ull * o.geo.clba);
  // a fresh drive: every chunk free at its first sector
  std::vector<ocssd_chunk_desc> log(4096 / sizeof(ocssd_chunk_desc));
  ASSERT_EQ(o.chunk_log(0, 4096, log.data()), NVME_SC_SUCCESS);
  for (size_t i = 0; i < log.size(); ++i) {
    EXPECT_EQ(log[i].state, OCSSD_CHUNK_FREE) << i;
    EXPECT_EQ(log[i].wp, log[i].slba) << i;
    EXPECT_EQ(log[i].cnlb, o.geo.clba) << i;
  }
  EXPECT_EQ(log[1].slba, o.addr(0, 0, 1, 0));  // group-major, then PU, then chunk
}

TEST(Ocssd, WritesAtTheWritePointerReadBackAndResetFreesTheChunk) {
  Oc o;
  const uint32_t S = o.geo.ws_min, clba = o.geo.clba;
  // one unit with a single-address scalar write, then the rest of the chunk by vectors of 8
  nvme_sqe scalar = Oc::cmd(NVME_OP_WRITE);
  scalar.prp1 = kData;
  scalar.cdw12 = SSDVP_FIELD_PUT(NVME_CDW12_NLB, S - 1);
  const uint64_t a0 = o.addr(1, 0, 3, 0);
  for (uint32_t i = 0; i < S; ++i) o.words(kData)[i] = token_of(a0 + i, 1);
  scalar.cdw10 = uint32_t(a0);
  scalar.cdw11 = uint32_t(a0 >> 32);
  ASSERT_EQ(o.run(scalar), NVME_SC_SUCCESS);
  ocssd_chunk_desc cd{};
  ASSERT_EQ(o.chunk(1, 0, 3, &cd), NVME_SC_SUCCESS);
  EXPECT_EQ(cd.state, OCSSD_CHUNK_OPEN);
  EXPECT_EQ(cd.wp, a0 + S);
  for (uint32_t s = S; s < clba; s += 8)
    ASSERT_EQ(o.write(o.sectors(1, 0, 3, s, std::min(8u, clba - s))), NVME_SC_SUCCESS) << s;
  ASSERT_EQ(o.chunk(1, 0, 3, &cd), NVME_SC_SUCCESS);
  EXPECT_EQ(cd.state, OCSSD_CHUNK_CLOSED);
  EXPECT_EQ(cd.wp, a0 + clba);
  // read back in a scrambled order, across pages
  std::vector<uint64_t> addrs;
  for (uint32_t i = 0; i < clba; i += 3) addrs.push_back(a0 + (i * 7) % clba);
  addrs.resize(std::min<size_t>(addrs.size(), OCSSD_MAX_VECTOR));
  std::vector<uint32_t> got;
  ASSERT_EQ(o.read(addrs, &got), NVME_SC_SUCCESS);
  for (size_t i = 0; i < addrs.size(); ++i) EXPECT_EQ(got[i], token_of(addrs[i], 1)) << i;
  // reset: free again, one erase more, unwritten, writable from sector 0
  ASSERT_EQ(o.reset({o.addr(1, 0, 3, 5)}), NVME_SC_SUCCESS);  // the sector bits are ignored
  ASSERT_EQ(o.chunk(1, 0, 3, &cd), NVME_SC_SUCCESS);
  EXPECT_EQ(cd.state, OCSSD_CHUNK_FREE);
  EXPECT_EQ(cd.wear_index, 1);
  EXPECT_EQ(cd.wp, a0);
  EXPECT_EQ(o.read({a0}), OCSSD_SC_UNWRITTEN);
  ASSERT_EQ(o.write(o.sectors(1, 0, 3, 0, S), 2), NVME_SC_SUCCESS);
  ASSERT_EQ(o.read(o.sectors(1, 0, 3, 0, S), &got), NVME_SC_SUCCESS);
  for (uint32_t i = 0; i < S; ++i) EXPECT_EQ(got[i], token_of(a0 + i, 2));
  EXPECT_EQ(o.d.hal->violations, 0u);
  EXPECT_EQ(o.d.hal->xfer_errors, 0u);
  EXPECT_EQ(ftl_get_stats(o.d.f)->gc_victims, 0u);  // no FTL ran
}

TEST(Ocssd, BadCommandsCompleteWithOpenChannelStatusesAndChangeNothing) {
  Oc o(open_channel_60);
  const uint32_t S = o.geo.ws_min;
  ASSERT_EQ(o.write(o.sectors(0, 1, 2, 0, 2 * S)), NVME_SC_SUCCESS);
  ocssd_chunk_desc before{}, after{};
  ASSERT_EQ(o.chunk(0, 1, 2, &before), NVME_SC_SUCCESS);
  // writes off the write pointer, short of a unit, not one unit, to a closed chunk
  EXPECT_EQ(o.write(o.sectors(0, 1, 2, 4 * S, S)), OCSSD_SC_OUT_OF_ORDER);
  EXPECT_EQ(o.write(o.sectors(0, 1, 2, 0, S)), OCSSD_SC_OUT_OF_ORDER);  // rewriting written sectors
  EXPECT_EQ(o.write(o.sectors(0, 1, 2, 2 * S, S - 1)), NVME_SC_INVALID_FIELD);
  std::vector<uint64_t> gap = o.sectors(0, 1, 2, 2 * S, S);
  gap.back() += 1;
  EXPECT_EQ(o.write(gap), NVME_SC_INVALID_FIELD);
  // a command whose second unit is wrong leaves the first unwritten too
  std::vector<uint64_t> half = o.sectors(0, 1, 2, 2 * S, S);
  for (uint64_t a : o.sectors(0, 1, 2, 5 * S, S)) half.push_back(a);
  EXPECT_EQ(o.write(half), OCSSD_SC_OUT_OF_ORDER);
  ASSERT_EQ(o.chunk(0, 1, 2, &after), NVME_SC_SUCCESS);
  EXPECT_EQ(after.wp, before.wp);
  // reads at or above the write pointer, of a free chunk
  EXPECT_EQ(o.read({o.addr(0, 1, 2, 2 * S)}), OCSSD_SC_UNWRITTEN);
  EXPECT_EQ(o.read({o.addr(0, 0, 0, 0)}), OCSSD_SC_UNWRITTEN);
  // resets of an open and a free chunk
  EXPECT_EQ(o.reset({o.addr(0, 1, 2, 0)}), OCSSD_SC_INVALID_RESET);
  EXPECT_EQ(o.reset({o.addr(0, 0, 0, 0)}), OCSSD_SC_INVALID_RESET);
  ASSERT_EQ(o.chunk(0, 1, 2, &after), NVME_SC_SUCCESS);
  EXPECT_EQ(after.state, OCSSD_CHUNK_OPEN);
  // addresses outside the geometry: each field one past its count, and bits above the fields
  const ocssd_lbaf& l = o.geo.lbaf;
  const uint32_t total_bits = l.grp_len + l.pu_len + l.chk_len + l.sec_len;
  ASSERT_LT(o.geo.num_chk, 1u << l.chk_len);
  for (uint64_t a : std::vector<uint64_t>{o.addr(0, 0, o.geo.num_chk, 0), o.addr(1, 1, (1u << l.chk_len) - 1, 3),
                                          uint64_t(1) << total_bits}) {
    EXPECT_EQ(o.read({a}), NVME_SC_LBA_OUT_OF_RANGE) << a;
    EXPECT_EQ(o.reset({a}), NVME_SC_LBA_OUT_OF_RANGE) << a;
  }
  EXPECT_EQ(o.write({uint64_t(1) << total_bits}), NVME_SC_INVALID_FIELD);  // one sector: short of a unit first
  std::vector<uint64_t> far = o.sectors(0, 0, 0, 0, S);
  for (auto& a : far) a |= uint64_t(1) << total_bits;
  EXPECT_EQ(o.write(far), NVME_SC_LBA_OUT_OF_RANGE);
  // an offline (bad) chunk
  const uint32_t bad_blk = (1 * o.d.cfg.channels + 1) * o.d.cfg.blocks_per_die + 7;  // PU 1 of group 1, chunk 7
  block_set_state(o.d.f, bad_blk, BLK_BAD);
  EXPECT_EQ(o.write(o.sectors(1, 1, 7, 0, S)), OCSSD_SC_OFFLINE_CHUNK);
  EXPECT_EQ(o.read({o.addr(1, 1, 7, 0)}), OCSSD_SC_OFFLINE_CHUNK);
  EXPECT_EQ(o.reset({o.addr(1, 1, 7, 0)}), OCSSD_SC_OFFLINE_CHUNK);
  ocssd_chunk_desc bad{};
  ASSERT_EQ(o.chunk(1, 1, 7, &bad), NVME_SC_SUCCESS);
  EXPECT_EQ(bad.state, OCSSD_CHUNK_OFFLINE);
  // opcodes and log requests the personality does not have
  nvme_sqe dsm = Oc::cmd(NVME_OP_DSM);
  EXPECT_EQ(o.run(dsm), NVME_SC_INVALID_OPCODE);
  nvme_sqe other_ns = o.vector(OCSSD_OP_VECTOR_READ, {o.addr(0, 1, 2, 0)});
  other_ns.nsid = 2;
  EXPECT_EQ(o.run(other_ns), NVME_SC_INVALID_NS);
  EXPECT_EQ(o.chunk_log(4, 32, nullptr), NVME_SC_INVALID_FIELD);    // not at a descriptor
  EXPECT_EQ(o.chunk_log(0, 8192, nullptr), NVME_SC_INVALID_FIELD);  // more than one transfer holds
  const uint64_t log_bytes = uint64_t(o.geo.num_grp) * o.geo.num_pu * o.geo.num_chk * 32;
  EXPECT_EQ(o.chunk_log(log_bytes, 32, nullptr), NVME_SC_INVALID_FIELD);  // past the end
  nvme_sqe list_outside = o.vector(OCSSD_OP_VECTOR_READ, o.sectors(0, 1, 2, 0, 4));
  list_outside.cdw10 = uint32_t(o.d.hal->host_words.size() * 4);  // the list is past host memory
  EXPECT_EQ(o.run(list_outside), NVME_SC_DATA_XFER_ERROR);
  // the good data is still there
  std::vector<uint32_t> got;
  ASSERT_EQ(o.read(o.sectors(0, 1, 2, 0, 2 * S), &got), NVME_SC_SUCCESS);
  for (uint32_t i = 0; i < 2 * S; ++i) EXPECT_EQ(got[i], token_of(o.addr(0, 1, 2, i), 1));
  EXPECT_EQ(o.d.hal->violations, 0u);
}

// Many commands in flight at once, over more units than there are page
// buffers: they wait in order, every program reaches its die at the write
// pointer (the NAND rules of the fake flash would count a violation), and
// every sector reads back what was written last, over several resets.
TEST(Ocssd, CommandsInFlightKeepWritePointerOrderAndIntegrityOverResets) {
  Oc o;
  const uint32_t S = o.geo.ws_min, clba = o.geo.clba;
  const uint32_t chunks = 6;
  std::vector<uint32_t> version(chunks, 0);
  auto where = [&](uint32_t k) {
    return std::array<uint32_t, 3>{k % o.geo.num_grp, k / o.geo.num_grp % o.geo.num_pu, 10 + k};
  };
  for (uint32_t round = 1; round <= 3; ++round) {
    std::vector<uint16_t> cids;
    // interleave the chunks, 4 units per command, all submitted before the firmware runs
    for (uint32_t s = 0; s < clba; s += 4 * S)
      for (uint32_t k = 0; k < chunks; ++k) {
        const auto w = where(k);
        std::vector<uint64_t> addrs = o.sectors(w[0], w[1], w[2], s, std::min(4 * S, clba - s));
        nvme_sqe q = o.vector(OCSSD_OP_VECTOR_WRITE, addrs);
        // each command its own data and list buffers (they are read when the firmware runs)
        const uint32_t data = kData + 0x400 * uint32_t(cids.size() % 32),
                       list =
                           kList + 0x400 * uint32_t(cids.size() % 32 + 1);  // (vector() writes its own list at kList)
        for (size_t i = 0; i < addrs.size(); ++i) o.words(data)[i] = token_of(addrs[i], round);
        std::memcpy(o.words(list), addrs.data(), addrs.size() * 8);
        q.prp1 = data;
        q.cdw10 = list;
        q.cdw11 = 0;
        cids.push_back(o.submit(q));
        if (cids.size() % 6 == 0) o.settle();  // the CMD ring holds 7 (8 command slots)
      }
    o.settle();
    for (uint16_t cid : cids) ASSERT_EQ(o.status_of(cid), NVME_SC_SUCCESS) << "round " << round << " cid " << cid;
    for (uint32_t k = 0; k < chunks; ++k) {
      version[k] = round;
      const auto w = where(k);
      for (uint32_t s = 0; s < clba; s += OCSSD_MAX_VECTOR) {
        std::vector<uint32_t> got;
        const auto addrs = o.sectors(w[0], w[1], w[2], s, std::min(OCSSD_MAX_VECTOR, clba - s));
        ASSERT_EQ(o.read(addrs, &got), NVME_SC_SUCCESS);
        for (size_t i = 0; i < addrs.size(); ++i) ASSERT_EQ(got[i], token_of(addrs[i], version[k])) << k << " " << i;
      }
    }
    std::vector<uint64_t> all;
    for (uint32_t k = 0; k < chunks; ++k) all.push_back(o.addr(where(k)[0], where(k)[1], where(k)[2], 0));
    all.push_back(all.front());  // named twice: reset once
    ASSERT_EQ(o.reset(all), NVME_SC_SUCCESS);
  }
  EXPECT_EQ(o.d.hal->violations, 0u);
  EXPECT_EQ(o.d.hal->xfer_errors, 0u);
  for (uint32_t k = 0; k < chunks; ++k) {
    ocssd_chunk_desc cd{};
    ASSERT_EQ(o.chunk(where(k)[0], where(k)[1], where(k)[2], &cd), NVME_SC_SUCCESS);
    EXPECT_EQ(cd.state, OCSSD_CHUNK_FREE);
    EXPECT_EQ(cd.wear_index, 3);
  }
}

TEST(Ocssd, FunctionalAccessIsRefusedWithoutAnLbaSpace) {
  Oc o;
  uint32_t t = 1;
  EXPECT_EQ(ftl_func_write(o.d.f, 0, 1, &t), -1);
  EXPECT_NE(o.d.hal->log_lines.back().find("nvme.command_set"), std::string::npos);
}

// Per-sector metadata (MPTR, 4 bytes a sector) is stored in the page's OOB
// with the data and returned by reads, as pblk keeps each sector's LBA there.
TEST(Ocssd, MetadataTravelsWithEachSector) {
  Oc o;
  constexpr uint32_t kMeta = 0x30000;
  std::vector<uint64_t> addrs = o.sectors(0, 1, 4, 0, 4 * o.geo.ws_min);
  nvme_sqe q = o.vector(OCSSD_OP_VECTOR_WRITE, addrs);
  for (size_t i = 0; i < addrs.size(); ++i) {
    o.words(kData)[i] = token_of(addrs[i], 1);
    o.words(kMeta)[i] = 1000 + uint32_t(i);
  }
  q.mptr = kMeta;
  ASSERT_EQ(o.run(q), NVME_SC_SUCCESS);
  std::reverse(addrs.begin(), addrs.end());
  q = o.vector(OCSSD_OP_VECTOR_READ, addrs);
  q.mptr = kMeta;
  std::memset(o.words(kMeta), 0, addrs.size() * 4);
  ASSERT_EQ(o.run(q), NVME_SC_SUCCESS);
  for (size_t i = 0; i < addrs.size(); ++i) {
    EXPECT_EQ(o.words(kData)[i], token_of(addrs[i], 1)) << i;
    EXPECT_EQ(o.words(kMeta)[i], 1000 + addrs.size() - 1 - i) << i;
  }
  q.mptr = uint64_t(o.d.hal->host_words.size()) * 4;  // metadata outside host memory
  EXPECT_EQ(o.run(q), NVME_SC_DATA_XFER_ERROR);
}

// Vector Chunk Copy (93h): the drive reads the sources and programs them at
// the destinations' write pointers with their OOB metadata, with no data
// crossing to the host; against a read to the host and a write back, the
// same flash operations and a fraction of the host transfers. Bad copies
// change nothing, and a write behind a copy on the same chunk keeps order.
TEST(Ocssd, VectorCopyMovesDataAndMetadataOnTheDrive) {
  Oc o;
  constexpr uint32_t kMeta = 0x30000, kDst = 0x18000;
  const uint32_t S = o.geo.ws_min;
  std::vector<uint64_t> src = o.sectors(0, 1, 4, 0, 8 * S);
  nvme_sqe w = o.vector(OCSSD_OP_VECTOR_WRITE, src);
  for (size_t i = 0; i < src.size(); ++i) {
    o.words(kData)[i] = token_of(src[i], 1);
    o.words(kMeta)[i] = 500 + uint32_t(i);
  }
  w.mptr = kMeta;
  ASSERT_EQ(o.run(w), NVME_SC_SUCCESS);
  // copy 2 units' worth of scattered sources to chunk (1, 1, 9) at its write pointer
  std::vector<uint64_t> from = {src[7], src[1], src[12], src[3]};
  from.resize(2 * S, src[0]);
  for (size_t i = 4; i < from.size(); ++i) from[i] = src[8 + i];
  const std::vector<uint64_t> to = o.sectors(1, 1, 9, 0, 2 * S);
  auto copy = [&](const std::vector<uint64_t>& a, const std::vector<uint64_t>& b) {
    nvme_sqe q = o.vector(OCSSD_OP_VECTOR_COPY, a);
    std::memcpy(o.words(kDst), b.data(), b.size() * 8);
    const uint64_t dlbal = b.size() > 1 ? kDst : b[0];  // one destination: its address
    q.cdw14 = uint32_t(dlbal);
    q.cdw15 = uint32_t(dlbal >> 32);
    return q;
  };
  const uint64_t xfers0 = o.d.hal->cycles[FW_OP_xfer_complete], reads0 = ftl_get_stats(o.d.f)->flash_reads;
  ASSERT_EQ(o.run(copy(from, to)), NVME_SC_SUCCESS);
  const uint64_t copy_xfers = o.d.hal->cycles[FW_OP_xfer_complete] - xfers0;
  const uint64_t copy_reads = ftl_get_stats(o.d.f)->flash_reads - reads0;
  ocssd_chunk_desc cd{};
  ASSERT_EQ(o.chunk(1, 1, 9, &cd), NVME_SC_SUCCESS);
  EXPECT_EQ(cd.wp, to[0] + 2 * S);
  nvme_sqe r = o.vector(OCSSD_OP_VECTOR_READ, to);
  r.mptr = kMeta;
  std::memset(o.words(kMeta), 0, 64 * 4);
  ASSERT_EQ(o.run(r), NVME_SC_SUCCESS);
  for (size_t i = 0; i < to.size(); ++i) {
    const size_t k = size_t(std::find(src.begin(), src.end(), from[i]) - src.begin());
    EXPECT_EQ(o.words(kData)[i], token_of(src[k], 1)) << i;  // the source's data
    EXPECT_EQ(o.words(kMeta)[i], 500 + k) << i;              // and its OOB metadata
  }
  // the same move by the host: read the sources (data + metadata out), write them back (in)
  const uint64_t xfers1 = o.d.hal->cycles[FW_OP_xfer_complete];
  nvme_sqe rd = o.vector(OCSSD_OP_VECTOR_READ, from);
  rd.mptr = kMeta;
  ASSERT_EQ(o.run(rd), NVME_SC_SUCCESS);
  nvme_sqe wr = o.vector(OCSSD_OP_VECTOR_WRITE, o.sectors(1, 1, 9, 2 * S, 2 * S));
  wr.mptr = kMeta;
  ASSERT_EQ(o.run(wr), NVME_SC_SUCCESS);
  const uint64_t host_xfers = o.d.hal->cycles[FW_OP_xfer_complete] - xfers1;
  EXPECT_EQ(copy_reads, 4u);  // sectors of 4 pages: one flash read each, as the host's read needs
  std::printf("transfers: copy %llu (two lists), read + write %llu\n", (unsigned long long)copy_xfers,
              (unsigned long long)host_xfers);
  EXPECT_LT(copy_xfers, host_xfers);
  // bad copies change nothing: an unwritten source, a destination off its write pointer, part of a unit
  ASSERT_EQ(o.chunk(1, 1, 9, &cd), NVME_SC_SUCCESS);
  const uint64_t wp = cd.wp;
  std::vector<uint64_t> unwritten = from;
  unwritten[1] = o.addr(0, 1, 4, 8 * S);
  EXPECT_EQ(o.run(copy(unwritten, o.sectors(1, 1, 9, 4 * S, 2 * S))), OCSSD_SC_UNWRITTEN);
  EXPECT_EQ(o.run(copy(from, o.sectors(1, 1, 9, 6 * S, 2 * S))), OCSSD_SC_OUT_OF_ORDER);
  EXPECT_EQ(o.run(copy({from[0]}, {o.addr(1, 1, 9, 4 * S)})), NVME_SC_INVALID_FIELD);
  ASSERT_EQ(o.chunk(1, 1, 9, &cd), NVME_SC_SUCCESS);
  EXPECT_EQ(cd.wp, wp);
  // a copy and a write to the next unit of the same chunk in flight together: both land in order
  const uint16_t c1 = o.submit(copy(from, o.sectors(1, 1, 9, 4 * S, 2 * S)));
  std::vector<uint64_t> next = o.sectors(1, 1, 9, 6 * S, S);
  for (size_t i = 0; i < next.size(); ++i) o.words(kData + 0x800)[i] = token_of(next[i], 7);
  nvme_sqe wn = Oc::cmd(OCSSD_OP_VECTOR_WRITE);
  wn.prp1 = kData + 0x800;
  std::memcpy(o.words(kList + 0x800), next.data(), next.size() * 8);
  wn.cdw10 = kList + 0x800;
  wn.cdw12 = uint32_t(next.size() - 1);
  const uint16_t c2 = o.submit(wn);
  o.settle();
  EXPECT_EQ(o.status_of(c1), NVME_SC_SUCCESS);
  EXPECT_EQ(o.status_of(c2), NVME_SC_SUCCESS);
  std::vector<uint32_t> got;
  ASSERT_EQ(o.read(next, &got), NVME_SC_SUCCESS);
  for (size_t i = 0; i < next.size(); ++i) EXPECT_EQ(got[i], token_of(next[i], 7));
  EXPECT_EQ(o.d.hal->violations, 0u);
  EXPECT_EQ(o.d.hal->xfer_errors, 0u);
}
