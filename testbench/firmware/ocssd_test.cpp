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

#include "ftl_device.h"

extern "C" {
#include "ocssd.h"
}

namespace {

using ftltest::Device;
using ftltest::token_of;

constexpr uint32_t kData = 0x1000;    // host byte address of the data (tokens)
constexpr uint32_t kList = 0x10000;   // of a sector list
constexpr uint32_t kAdmin = 0x20000;  // of admin data

void open_channel(ftl_config& c) { c.command_set = FTL_CMDSET_OPEN_CHANNEL; }
// 60 chunks per PU: a 6-bit chunk field can name chunks 60..63, which do not exist.
void open_channel_60(ftl_config& c) {
  open_channel(c);
  c.blocks_per_die = 60;
}
void open_channel_timed(ftl_config& c) {
  open_channel(c);
  c.oc_read_ns = 20000;
  c.oc_program_ns = 200000;
  c.oc_erase_ns = 2000000;
}

struct Oc {
  Device d;
  uint16_t next_cid = 1;
  ocssd_geometry geo{};

  explicit Oc(void (*tune)(ftl_config&) = open_channel) : d(tune) {
    EXPECT_EQ(d.init(), 0);
    d.hal->host_words.assign(128 * 1024, 0);
    nvme_sqe q = cmd(OCSSD_ADMIN_GEOMETRY);
    q.prp1 = kAdmin;
    EXPECT_EQ(run(q, 0), NVME_SC_SUCCESS);
    std::memcpy(&geo, words(kAdmin), sizeof geo);
  }
  uint32_t* words(uint32_t byte_addr) { return d.hal->host_words.data() + byte_addr / 4; }
  static nvme_sqe cmd(uint8_t opc) {
    nvme_sqe q{};
    q.cdw0 = SSDVP_FIELD_PUT(NVME_CDW0_OPC, opc);
    q.nsid = 1;
    return q;
  }
  // Submits without running the firmware; returns the command identifier.
  uint16_t submit(nvme_sqe q, uint16_t sqid = 1) {
    const uint16_t cid = next_cid++;
    q.cdw0 |= SSDVP_FIELD_PUT(NVME_CDW0_CID, cid);
    d.hal->nvme_submit(q, sqid);
    return cid;
  }
  void settle() {
    for (int i = 0; i < 100000 && (ftl_poll(d.f) || ftl_busy(d.f)); ++i) {
    }
  }
  int status_of(uint16_t cid) {
    int status = -1, n = 0;
    for (const auto& c : d.hal->completions)
      if (c.cid == cid) status = c.status, ++n;
    EXPECT_LE(n, 1) << "command " << cid << " completed twice";
    return status;
  }
  int run(nvme_sqe q, uint16_t sqid = 1) {
    const uint16_t cid = submit(q, sqid);
    settle();
    return status_of(cid);
  }
  // A vector command over addrs (the list goes to host memory when there are several).
  nvme_sqe vector(uint8_t opc, const std::vector<uint64_t>& addrs) {
    nvme_sqe q = cmd(opc);
    q.prp1 = kData;
    uint64_t lbal = addrs.at(0);
    if (addrs.size() > 1) {
      std::memcpy(words(kList), addrs.data(), addrs.size() * 8);
      lbal = kList;
    }
    q.cdw10 = uint32_t(lbal);
    q.cdw11 = uint32_t(lbal >> 32);
    q.cdw12 = uint32_t(addrs.size() - 1);
    return q;
  }
  int write(const std::vector<uint64_t>& addrs, uint32_t version = 1) {
    for (size_t i = 0; i < addrs.size(); ++i) words(kData)[i] = token_of(addrs[i], version);
    return run(vector(OCSSD_OP_VECTOR_WRITE, addrs));
  }
  int read(const std::vector<uint64_t>& addrs, std::vector<uint32_t>* out = nullptr) {
    std::memset(words(kData), 0, addrs.size() * 4);
    const int st = run(vector(OCSSD_OP_VECTOR_READ, addrs));
    if (out) out->assign(words(kData), words(kData) + addrs.size());
    return st;
  }
  int reset(const std::vector<uint64_t>& addrs) { return run(vector(OCSSD_OP_VECTOR_RESET, addrs)); }
  uint64_t addr(uint32_t grp, uint32_t pu, uint32_t chk, uint32_t sec) const {
    return ocssd_addr(&geo.lbaf, grp, pu, chk, sec);
  }
  std::vector<uint64_t> sectors(uint32_t grp, uint32_t pu, uint32_t chk, uint32_t sec, uint32_t n) const {
    std::vector<uint64_t> v;
    for (uint32_t i = 0; i < n; ++i) v.push_back(addr(grp, pu, chk, sec + i));
    return v;
  }
  // The chunk information log entry of one chunk (-1 status on failure).
  int chunk(uint32_t grp, uint32_t pu, uint32_t chk, ocssd_chunk_desc* out) {
    const uint64_t index = (uint64_t(grp) * geo.num_pu + pu) * geo.num_chk + chk;
    return chunk_log(index * sizeof(ocssd_chunk_desc), sizeof(ocssd_chunk_desc), out);
  }
  int chunk_log(uint64_t offset, uint32_t bytes, void* out) {
    nvme_sqe q = cmd(OCSSD_ADMIN_GET_LOG_PAGE);
    q.prp1 = kAdmin;
    const uint32_t numd = bytes / 4 - 1;
    q.cdw10 = OCSSD_LOG_CHUNK_INFO | (numd & 0xffff) << 16;
    q.cdw11 = numd >> 16;
    q.cdw12 = uint32_t(offset);
    q.cdw13 = uint32_t(offset >> 32);
    const int st = run(q, 0);
    if (st == NVME_SC_SUCCESS && out) std::memcpy(out, words(kAdmin), bytes);
    return st;
  }
};

}  // namespace

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
