// zns_test.cpp - the zoned personality (ftl/zns.c over ftl/ocssd.c) on the
// fake HAL's functional NVMe rings: Identify and Report Zones describe the
// zones, writes at the write pointer and appends read back, every zone state
// and transition, the open and active limits, and every bad command gets its
// status and changes nothing.
#include <gtest/gtest.h>

#include <cstring>
#include <vector>

#include "ocssd_device.h"

extern "C" {
#include "zns.h"
}

using namespace octest;  // NOLINT(google-build-using-namespace): the harness of this test

namespace {

// The fake drive (2 x 2 dies x 64 blocks of 16 pages x 2 slots): 200 zones of 32 LBAs.
constexpr uint32_t kZones = 200;
void zns(ftl_config& c) {
  c.command_set = FTL_CMDSET_ZNS;
  c.logical_lbas = kZones * 32;
}
void zns_limited(ftl_config& c) {
  zns(c);
  c.zns_max_open = 2;
  c.zns_max_active = 3;
}

struct Zn : Oc {
  uint32_t cap, size, page;
  explicit Zn(void (*tune)(ftl_config&) = zns) : Oc(tune) {
    cap = d.cfg.pages_per_block * d.cfg.slots_per_page;
    size = 1u << zns_zone_bits(cap);
    page = d.cfg.slots_per_page;
  }
  uint64_t zslba(uint32_t z) const { return uint64_t(z) * size; }
  static nvme_sqe lba_cmd(uint8_t opc, uint64_t slba, uint32_t nlb) {
    nvme_sqe q = cmd(opc);
    q.prp1 = kData;
    q.cdw10 = uint32_t(slba);
    q.cdw11 = uint32_t(slba >> 32);
    q.cdw12 = SSDVP_FIELD_PUT(NVME_CDW12_NLB, nlb - 1);
    return q;
  }
  int write(uint64_t slba, uint32_t nlb, uint32_t version = 1) {
    for (uint32_t i = 0; i < nlb; ++i) words(kData)[i] = token_of(slba + i, version);
    return run(lba_cmd(NVME_OP_WRITE, slba, nlb));
  }
  // Zone Append of nlb tokens of `version` for LBAs from the one it returns in *lba.
  int append(uint32_t z, uint32_t nlb, uint64_t* lba, uint32_t version = 1) {
    ReportedAt probe = zone(z);
    for (uint32_t i = 0; i < nlb; ++i) words(kData)[i] = token_of(probe.wp + i, version);
    const int st = run(lba_cmd(ZNS_OP_APPEND, zslba(z), nlb));
    for (const auto& c : d.hal->completions) *lba = c.dw0;
    return st;
  }
  int read(uint64_t slba, uint32_t nlb, std::vector<uint32_t>* out = nullptr) {
    std::memset(words(kData), 0xa5, nlb * 4);
    const int st = run(lba_cmd(NVME_OP_READ, slba, nlb));
    if (out) out->assign(words(kData), words(kData) + nlb);
    return st;
  }
  int send(uint64_t slba, uint32_t zsa, bool all = false) {
    nvme_sqe q = cmd(ZNS_OP_MGMT_SEND);
    q.cdw10 = uint32_t(slba);
    q.cdw11 = uint32_t(slba >> 32);
    q.cdw13 = zsa | (all ? ZNS_SELECT_ALL : 0);
    return run(q);
  }
  // Report Zones from slba into kAdmin: its status.
  int report(uint64_t slba, uint32_t bytes, uint32_t filter = 0, bool partial = false, uint32_t zra = 0) {
    nvme_sqe q = cmd(ZNS_OP_MGMT_RECV);
    q.prp1 = kAdmin;
    q.cdw10 = uint32_t(slba);
    q.cdw11 = uint32_t(slba >> 32);
    q.cdw12 = bytes / 4 - 1;
    q.cdw13 = zra | filter << 8 | (partial ? ZNS_PARTIAL : 0);
    return run(q);
  }
  zns_report_header header() {
    zns_report_header h{};
    std::memcpy(&h, words(kAdmin), sizeof h);
    return h;
  }
  zns_zone_desc desc(uint32_t i) {
    zns_zone_desc z{};
    std::memcpy(&z, reinterpret_cast<uint8_t*>(words(kAdmin)) + 64 * (i + 1), sizeof z);
    return z;
  }
  struct ReportedAt {
    uint8_t state;
    uint64_t wp;
  };
  ReportedAt zone(uint32_t z) {
    EXPECT_EQ(report(zslba(z), 128), NVME_SC_SUCCESS);
    const zns_zone_desc dd = desc(0);
    EXPECT_EQ(dd.zslba, zslba(z));
    return {uint8_t(dd.zs >> 4), dd.wp};
  }
  uint8_t state(uint32_t z) { return zone(z).state; }
  int identify(uint32_t cns, uint32_t csi, uint32_t nsid = 1) {
    nvme_sqe q = cmd(ZNS_ADMIN_IDENTIFY);
    q.nsid = nsid;
    q.prp1 = kAdmin;
    q.cdw10 = cns;
    q.cdw11 = csi << 24;
    return run(q, 0);
  }
  template <typename T>
  T at(uint32_t byte) {
    T v{};
    std::memcpy(&v, reinterpret_cast<uint8_t*>(words(kAdmin)) + byte, sizeof v);
    return v;
  }
};

}  // namespace

TEST(Zns, IdentifyAndReportZonesDescribeTheZones) {
  Zn z;
  ASSERT_EQ(z.cap, 32u);
  ASSERT_EQ(z.identify(ZNS_CNS_NAMESPACE, 0), NVME_SC_SUCCESS);
  EXPECT_EQ(z.at<uint64_t>(ZNS_ID_NSZE), uint64_t(kZones) * z.size);
  EXPECT_EQ((z.at<uint32_t>(ZNS_ID_LBAF0) >> 16) & 0xff, zns_zone_bits(z.d.cfg.lba_bytes));
  ASSERT_EQ(z.identify(ZNS_CNS_CSI_NAMESPACE, ZNS_CSI), NVME_SC_SUCCESS);
  EXPECT_EQ(z.at<uint64_t>(ZNS_ID_LBAFE), z.size);
  EXPECT_EQ(z.at<uint32_t>(ZNS_ID_MAR), 0xffffffffu);  // no limits by default
  EXPECT_EQ(z.at<uint32_t>(ZNS_ID_MOR), 0xffffffffu);
  ASSERT_EQ(z.identify(ZNS_CNS_CSI_CONTROLLER, ZNS_CSI), NVME_SC_SUCCESS);
  EXPECT_EQ(uint64_t(4096) << z.at<uint8_t>(ZNS_ID_ZASL), uint64_t(OCSSD_MAX_VECTOR) * z.d.cfg.lba_bytes);
  EXPECT_EQ(z.identify(0x07, ZNS_CSI), NVME_SC_INVALID_FIELD);
  EXPECT_EQ(z.identify(ZNS_CNS_CSI_NAMESPACE, 0x01), NVME_SC_INVALID_FIELD);  // another command set
  EXPECT_EQ(z.identify(ZNS_CNS_CSI_NAMESPACE, ZNS_CSI, 2), NVME_SC_INVALID_NS);

  Zn lim(zns_limited);
  ASSERT_EQ(lim.identify(ZNS_CNS_CSI_NAMESPACE, ZNS_CSI), NVME_SC_SUCCESS);
  EXPECT_EQ(lim.at<uint32_t>(ZNS_ID_MAR), 2u);  // 0-based
  EXPECT_EQ(lim.at<uint32_t>(ZNS_ID_MOR), 1u);

  // a fresh drive: every zone empty, sequential write required, at its start
  ASSERT_EQ(z.report(0, 4096), NVME_SC_SUCCESS);
  EXPECT_EQ(z.header().nr_zones, kZones);  // all that match, not only those returned
  for (uint32_t i = 0; i < 63; ++i) {
    const zns_zone_desc d = z.desc(i);
    EXPECT_EQ(d.zt, ZNS_ZT_SEQ_REQUIRED);
    EXPECT_EQ(d.zs >> 4, ZNS_ZS_EMPTY);
    EXPECT_EQ(d.zcap, z.cap);
    EXPECT_EQ(d.zslba, z.zslba(i));
    EXPECT_EQ(d.wp, d.zslba);
  }
  ASSERT_EQ(z.report(z.zslba(kZones - 3) + 5, 4096, 0, true), NVME_SC_SUCCESS);  // from the zone holding the LBA
  EXPECT_EQ(z.header().nr_zones, 3u);
  EXPECT_EQ(z.desc(0).zslba, z.zslba(kZones - 3));
  ASSERT_EQ(z.report(0, 64 * 3, 0, true), NVME_SC_SUCCESS);  // room for two descriptors
  EXPECT_EQ(z.header().nr_zones, 2u);
  // the filter: one zone written
  ASSERT_EQ(z.write(z.zslba(7), 2), NVME_SC_SUCCESS);
  ASSERT_EQ(z.report(0, 4096, 2), NVME_SC_SUCCESS);  // implicitly opened
  EXPECT_EQ(z.header().nr_zones, 1u);
  EXPECT_EQ(z.desc(0).zslba, z.zslba(7));
  EXPECT_EQ(z.desc(0).wp, z.zslba(7) + 2);
  ASSERT_EQ(z.report(0, 4096, 1), NVME_SC_SUCCESS);  // empty
  EXPECT_EQ(z.header().nr_zones, kZones - 1);
}

TEST(Zns, WritesAtTheWritePointerAndAppendsReadBackThroughEveryState) {
  Zn z;
  const uint32_t P = z.page, cap = z.cap;
  const uint64_t a = z.zslba(3);
  std::vector<uint32_t> got;
  ASSERT_EQ(z.write(a, 2 * P), NVME_SC_SUCCESS);
  auto r = z.zone(3);
  EXPECT_EQ(r.state, ZNS_ZS_IMPLICIT_OPEN);
  EXPECT_EQ(r.wp, a + 2 * P);
  // the written LBAs read back; those above the write pointer (and of an empty zone) read deallocated
  ASSERT_EQ(z.read(a, 4 * P, &got), NVME_SC_SUCCESS);
  for (uint32_t i = 0; i < 4 * P; ++i) EXPECT_EQ(got[i], i < 2 * P ? token_of(a + i, 1) : SSDVP_TOKEN_DEALLOCATED) << i;
  ASSERT_EQ(z.read(z.zslba(4), 8, &got), NVME_SC_SUCCESS);
  for (uint32_t t : got) EXPECT_EQ(t, SSDVP_TOKEN_DEALLOCATED);
  // the rest of the zone: full, and a write to it fails
  for (uint32_t s = 2 * P; s < cap; s += 4 * P) ASSERT_EQ(z.write(a + s, std::min(4 * P, cap - s)), NVME_SC_SUCCESS);
  r = z.zone(3);
  EXPECT_EQ(r.state, ZNS_ZS_FULL);
  EXPECT_EQ(r.wp, a + cap);
  EXPECT_EQ(z.write(a + cap - P, P), ZNS_SC_FULL);
  ASSERT_EQ(z.read(a, cap, &got), NVME_SC_SUCCESS);
  for (uint32_t i = 0; i < cap; ++i) EXPECT_EQ(got[i], token_of(a + i, 1)) << i;
  // reset: empty, one erase more, deallocated, writable from its start
  const uint32_t blk = (3 % 4) * z.d.cfg.blocks_per_die + 3 / 4;  // zone 3: die 3, block 0 of it
  const uint32_t erases = z.d.hal->erase_count(blk);
  ASSERT_EQ(z.send(a, ZNS_ZSA_RESET), NVME_SC_SUCCESS);
  EXPECT_EQ(z.d.hal->erase_count(blk), erases + 1);
  r = z.zone(3);
  EXPECT_EQ(r.state, ZNS_ZS_EMPTY);
  EXPECT_EQ(r.wp, a);
  ASSERT_EQ(z.read(a, P, &got), NVME_SC_SUCCESS);
  EXPECT_EQ(got[0], SSDVP_TOKEN_DEALLOCATED);
  ASSERT_EQ(z.write(a, P, 2), NVME_SC_SUCCESS);
  ASSERT_EQ(z.read(a, P, &got), NVME_SC_SUCCESS);
  EXPECT_EQ(got[0], token_of(a, 2));
  // Zone Append: the drive picks the LBA (the write pointer) and returns it
  uint64_t lba = 0;
  ASSERT_EQ(z.append(5, 2 * P, &lba), NVME_SC_SUCCESS);
  EXPECT_EQ(lba, z.zslba(5));
  ASSERT_EQ(z.append(5, P, &lba, 3), NVME_SC_SUCCESS);
  EXPECT_EQ(lba, z.zslba(5) + 2 * P);
  ASSERT_EQ(z.read(z.zslba(5) + 2 * P, P, &got), NVME_SC_SUCCESS);
  EXPECT_EQ(got[0], token_of(z.zslba(5) + 2 * P, 3));
  // explicit open, close, open again by a write, finish: the written part stays readable
  ASSERT_EQ(z.send(z.zslba(6), ZNS_ZSA_OPEN), NVME_SC_SUCCESS);
  EXPECT_EQ(z.state(6), ZNS_ZS_EXPLICIT_OPEN);
  ASSERT_EQ(z.write(z.zslba(6), P), NVME_SC_SUCCESS);
  EXPECT_EQ(z.state(6), ZNS_ZS_EXPLICIT_OPEN);  // a write keeps it explicitly opened
  ASSERT_EQ(z.send(z.zslba(6), ZNS_ZSA_CLOSE), NVME_SC_SUCCESS);
  EXPECT_EQ(z.state(6), ZNS_ZS_CLOSED);
  ASSERT_EQ(z.write(z.zslba(6) + P, P), NVME_SC_SUCCESS);
  EXPECT_EQ(z.state(6), ZNS_ZS_IMPLICIT_OPEN);
  ASSERT_EQ(z.send(z.zslba(6), ZNS_ZSA_FINISH), NVME_SC_SUCCESS);
  r = z.zone(6);
  EXPECT_EQ(r.state, ZNS_ZS_FULL);
  EXPECT_EQ(r.wp, z.zslba(6) + cap);
  ASSERT_EQ(z.read(z.zslba(6), 4 * P, &got), NVME_SC_SUCCESS);
  for (uint32_t i = 0; i < 4 * P; ++i)
    EXPECT_EQ(got[i], i < 2 * P ? token_of(z.zslba(6) + i, 1) : SSDVP_TOKEN_DEALLOCATED) << i;
  EXPECT_EQ(z.write(z.zslba(6) + 2 * P, P), ZNS_SC_FULL);
  // an empty zone finished and reset costs no erase
  const uint32_t blk9 = (9 % 4) * z.d.cfg.blocks_per_die + 9 / 4;
  ASSERT_EQ(z.send(z.zslba(9), ZNS_ZSA_FINISH), NVME_SC_SUCCESS);
  EXPECT_EQ(z.state(9), ZNS_ZS_FULL);
  ASSERT_EQ(z.send(z.zslba(9), ZNS_ZSA_RESET), NVME_SC_SUCCESS);
  EXPECT_EQ(z.state(9), ZNS_ZS_EMPTY);
  EXPECT_EQ(z.d.hal->erase_count(blk9), 0u);
  // flush completes; the NAND rules held; the drive ran no FTL
  EXPECT_EQ(z.run(Oc::cmd(NVME_OP_FLUSH)), NVME_SC_SUCCESS);
  EXPECT_EQ(z.d.hal->violations, 0u);
  EXPECT_EQ(z.d.hal->xfer_errors, 0u);
  EXPECT_EQ(ftl_get_stats(z.d.f)->gc_victims, 0u);
}

TEST(Zns, BadCommandsGetZonedStatusesAndChangeNothing) {
  Zn z;
  const uint32_t P = z.page, cap = z.cap;
  const uint64_t a = z.zslba(10);
  ASSERT_EQ(z.write(a, 2 * P), NVME_SC_SUCCESS);
  // writes: off the write pointer (ahead and behind), crossing the capacity, not whole pages, too long
  EXPECT_EQ(z.write(a + 4 * P, P), ZNS_SC_INVALID_WRITE);
  EXPECT_EQ(z.write(a, P), ZNS_SC_INVALID_WRITE);
  for (uint32_t s = 2 * P; s < cap - 2 * P; s += 2 * P) ASSERT_EQ(z.write(a + s, 2 * P), NVME_SC_SUCCESS);
  EXPECT_EQ(z.write(a + cap - 2 * P, 4 * P), ZNS_SC_BOUNDARY);
  EXPECT_EQ(z.write(a + cap - 2 * P, P + 1), NVME_SC_INVALID_FIELD);
  EXPECT_EQ(z.write(a + cap - 2 * P, OCSSD_MAX_VECTOR + P), NVME_SC_INVALID_FIELD);
  uint64_t lba = 0;
  EXPECT_EQ(z.append(10, 4 * P, &lba), ZNS_SC_BOUNDARY);                          // more than the zone has left
  EXPECT_EQ(z.run(Zn::lba_cmd(ZNS_OP_APPEND, a + P, P)), NVME_SC_INVALID_FIELD);  // not the zone's first LBA
  auto r = z.zone(10);
  EXPECT_EQ(r.wp, a + cap - 2 * P);  // nothing moved
  EXPECT_EQ(r.state, ZNS_ZS_IMPLICIT_OPEN);
  // LBAs beyond the namespace, a read across zones
  const uint64_t end = uint64_t(kZones) * z.size;
  EXPECT_EQ(z.write(end, P), NVME_SC_LBA_OUT_OF_RANGE);
  EXPECT_EQ(z.read(end - 1, 2), NVME_SC_LBA_OUT_OF_RANGE);
  EXPECT_EQ(z.read(a + z.size - 1, 2), ZNS_SC_BOUNDARY);
  // zone management: unknown action, not a zone's first LBA, beyond the namespace, bad receive fields
  EXPECT_EQ(z.send(a, 0x06), NVME_SC_INVALID_FIELD);
  EXPECT_EQ(z.send(a + 1, ZNS_ZSA_RESET), NVME_SC_INVALID_FIELD);
  EXPECT_EQ(z.send(end, ZNS_ZSA_RESET), NVME_SC_LBA_OUT_OF_RANGE);
  EXPECT_EQ(z.report(0, 4096, 0, false, 1), NVME_SC_INVALID_FIELD);  // extended report: not supported
  EXPECT_EQ(z.report(0, 4096, 8), NVME_SC_INVALID_FIELD);            // no such filter
  EXPECT_EQ(z.report(0, 8192), NVME_SC_INVALID_FIELD);               // more than one transfer holds
  EXPECT_EQ(z.report(end, 4096), NVME_SC_LBA_OUT_OF_RANGE);
  // transitions the state machine does not have
  EXPECT_EQ(z.send(z.zslba(11), ZNS_ZSA_CLOSE), ZNS_SC_INVALID_TRANSITION);  // empty
  EXPECT_EQ(z.send(z.zslba(11), ZNS_ZSA_OFFLINE), ZNS_SC_INVALID_TRANSITION);
  ASSERT_EQ(z.send(z.zslba(11), ZNS_ZSA_FINISH), NVME_SC_SUCCESS);
  EXPECT_EQ(z.send(z.zslba(11), ZNS_ZSA_OPEN), ZNS_SC_INVALID_TRANSITION);  // full
  EXPECT_EQ(z.send(z.zslba(11), ZNS_ZSA_CLOSE), ZNS_SC_INVALID_TRANSITION);
  EXPECT_EQ(z.state(11), ZNS_ZS_FULL);
  // a failed program: the zone becomes read-only; its data stays readable, writes fail
  const uint32_t blk10 = (10 % 4) * z.d.cfg.blocks_per_die + 10 / 4;
  zns_program_failed(z.d.f, blk10);
  EXPECT_EQ(z.state(10), ZNS_ZS_READ_ONLY);
  EXPECT_EQ(z.write(a + cap - 2 * P, P), ZNS_SC_READ_ONLY);
  std::vector<uint32_t> got;
  ASSERT_EQ(z.read(a, P, &got), NVME_SC_SUCCESS);
  EXPECT_EQ(got[0], token_of(a, 1));
  for (uint32_t zsa : {ZNS_ZSA_OPEN, ZNS_ZSA_CLOSE, ZNS_ZSA_FINISH, ZNS_ZSA_RESET})
    EXPECT_EQ(z.send(a, zsa), ZNS_SC_INVALID_TRANSITION) << zsa;
  // read-only to offline (the host's Offline action): reads and writes fail, the block is retired
  ASSERT_EQ(z.send(a, ZNS_ZSA_OFFLINE), NVME_SC_SUCCESS);
  EXPECT_EQ(z.state(10), ZNS_ZS_OFFLINE);
  EXPECT_EQ(z.read(a, P), ZNS_SC_OFFLINE);
  EXPECT_EQ(z.write(a, P), ZNS_SC_OFFLINE);
  EXPECT_EQ(z.send(a, ZNS_ZSA_RESET), ZNS_SC_INVALID_TRANSITION);
  EXPECT_EQ(z.d.f->blk_state[blk10], BLK_BAD);
  // a failed erase takes its zone offline; a factory bad block's zone starts offline
  zns_erase_failed(z.d.f, (12 % 4) * z.d.cfg.blocks_per_die + 12 / 4);
  EXPECT_EQ(z.state(12), ZNS_ZS_OFFLINE);
  // opcodes the personality does not have, another namespace
  EXPECT_EQ(z.run(Oc::cmd(NVME_OP_DSM)), NVME_SC_INVALID_OPCODE);
  EXPECT_EQ(z.run(Oc::cmd(OCSSD_OP_VECTOR_WRITE)), NVME_SC_INVALID_OPCODE);
  nvme_sqe other = Zn::lba_cmd(NVME_OP_READ, a, 1);
  other.nsid = 2;
  EXPECT_EQ(z.run(other), NVME_SC_INVALID_NS);
  EXPECT_EQ(z.d.hal->violations, 0u);
}

TEST(Zns, OpenAndActiveLimitsCloseImplicitZonesOrRefuse) {
  Zn z(zns_limited);  // 2 open, 3 active
  const uint32_t P = z.page;
  ASSERT_EQ(z.write(z.zslba(0), P), NVME_SC_SUCCESS);
  ASSERT_EQ(z.write(z.zslba(1), P), NVME_SC_SUCCESS);
  // a third zone: the drive closes an implicitly opened one to make room
  ASSERT_EQ(z.write(z.zslba(2), P), NVME_SC_SUCCESS);
  EXPECT_EQ(z.state(0), ZNS_ZS_CLOSED);
  EXPECT_EQ(z.state(1), ZNS_ZS_IMPLICIT_OPEN);
  EXPECT_EQ(z.state(2), ZNS_ZS_IMPLICIT_OPEN);
  // three active: a fourth zone cannot open, by write or explicitly
  EXPECT_EQ(z.write(z.zslba(3), P), ZNS_SC_TOO_MANY_ACTIVE);
  EXPECT_EQ(z.send(z.zslba(3), ZNS_ZSA_OPEN), ZNS_SC_TOO_MANY_ACTIVE);
  EXPECT_EQ(z.state(3), ZNS_ZS_EMPTY);
  // a finished zone frees its resource
  ASSERT_EQ(z.send(z.zslba(0), ZNS_ZSA_FINISH), NVME_SC_SUCCESS);
  ASSERT_EQ(z.write(z.zslba(3), P), NVME_SC_SUCCESS);
  EXPECT_EQ(z.state(1), ZNS_ZS_CLOSED);
  // explicitly opened zones are never closed by the drive
  ASSERT_EQ(z.send(0, ZNS_ZSA_RESET, true), NVME_SC_SUCCESS);
  ASSERT_EQ(z.report(0, 4096, 1), NVME_SC_SUCCESS);
  EXPECT_EQ(z.header().nr_zones, kZones);  // all empty again
  ASSERT_EQ(z.send(z.zslba(0), ZNS_ZSA_OPEN), NVME_SC_SUCCESS);
  ASSERT_EQ(z.send(z.zslba(1), ZNS_ZSA_OPEN), NVME_SC_SUCCESS);
  EXPECT_EQ(z.write(z.zslba(2), P), ZNS_SC_TOO_MANY_OPEN);
  EXPECT_EQ(z.send(z.zslba(2), ZNS_ZSA_OPEN), ZNS_SC_TOO_MANY_OPEN);
  ASSERT_EQ(z.write(z.zslba(0), P), NVME_SC_SUCCESS);  // an open zone takes writes
  ASSERT_EQ(z.send(z.zslba(0), ZNS_ZSA_CLOSE), NVME_SC_SUCCESS);
  ASSERT_EQ(z.write(z.zslba(2), P), NVME_SC_SUCCESS);
  // select all: close every open zone; opening all three closed ones exceeds the limit, and opens none
  ASSERT_EQ(z.send(0, ZNS_ZSA_CLOSE, true), NVME_SC_SUCCESS);
  ASSERT_EQ(z.report(0, 4096, 4), NVME_SC_SUCCESS);
  EXPECT_EQ(z.header().nr_zones, 3u);  // zone 1, opened but never written, is closed too
  EXPECT_EQ(z.send(0, ZNS_ZSA_OPEN, true), ZNS_SC_TOO_MANY_OPEN);
  ASSERT_EQ(z.report(0, 4096, 4), NVME_SC_SUCCESS);
  EXPECT_EQ(z.header().nr_zones, 3u);
  // finish all, then reset all: every zone empty, each written block erased once (zone 1's was never written)
  ASSERT_EQ(z.send(0, ZNS_ZSA_FINISH, true), NVME_SC_SUCCESS);
  ASSERT_EQ(z.report(0, 4096, 5), NVME_SC_SUCCESS);
  EXPECT_EQ(z.header().nr_zones, 3u);
  const uint64_t erases = ftl_get_stats(z.d.f)->erases;
  ASSERT_EQ(z.send(0, ZNS_ZSA_RESET, true), NVME_SC_SUCCESS);
  EXPECT_EQ(ftl_get_stats(z.d.f)->erases, erases + 2);
  ASSERT_EQ(z.report(0, 4096, 1), NVME_SC_SUCCESS);
  EXPECT_EQ(z.header().nr_zones, kZones);
  EXPECT_EQ(z.d.hal->violations, 0u);
}

// Many writes and appends in flight over several zones, more pages than page
// buffers: they keep write-pointer order (the fake flash counts a violation
// for a program out of page order) and read back, over rounds of reset-all.
TEST(Zns, WritesInFlightKeepWritePointerOrderOverResets) {
  Zn z;
  const uint32_t P = z.page, cap = z.cap, zones = 6;
  for (uint32_t round = 1; round <= 3; ++round) {
    std::vector<uint16_t> cids;
    for (uint32_t s = 0; s < cap; s += 2 * P)
      for (uint32_t k = 0; k < zones; ++k) {
        const uint64_t lba = z.zslba(20 + k) + s;
        const bool append = k % 2;  // odd zones by Zone Append
        nvme_sqe q = Zn::lba_cmd(append ? uint8_t(ZNS_OP_APPEND) : uint8_t(NVME_OP_WRITE),
                                 append ? z.zslba(20 + k) : lba, 2 * P);
        const uint32_t data = kData + 0x400 * uint32_t(cids.size() % 32);
        for (uint32_t i = 0; i < 2 * P; ++i) z.words(data)[i] = token_of(lba + i, round);
        q.prp1 = data;
        cids.push_back(z.submit(q));
        if (cids.size() % 6 == 0) z.settle();  // the CMD ring holds 7
      }
    z.settle();
    for (uint16_t cid : cids) ASSERT_EQ(z.status_of(cid), NVME_SC_SUCCESS) << "round " << round << " cid " << cid;
    for (uint32_t k = 0; k < zones; ++k) {
      std::vector<uint32_t> got;
      ASSERT_EQ(z.read(z.zslba(20 + k), cap, &got), NVME_SC_SUCCESS);
      for (uint32_t i = 0; i < cap; ++i) ASSERT_EQ(got[i], token_of(z.zslba(20 + k) + i, round)) << k << " " << i;
      EXPECT_EQ(z.state(20 + k), ZNS_ZS_FULL);
    }
    ASSERT_EQ(z.send(0, ZNS_ZSA_RESET, true), NVME_SC_SUCCESS);
  }
  EXPECT_EQ(z.d.hal->violations, 0u);
  EXPECT_EQ(z.d.hal->xfer_errors, 0u);
  EXPECT_EQ(ftl_get_stats(z.d.f)->erases, 3u * zones);
}

TEST(Zns, ANamespaceOfPartZonesIsAConfigurationError) {
  ftl_config c{};
  fake_small_drive_config(c, 64, 6000);
  zns(c);
  c.dram_size = 64u << 20;
  char msg[256] = "";
  EXPECT_EQ(ftl_config_check(&c, msg, sizeof msg), 0) << msg;
  c.logical_lbas += 1;
  EXPECT_NE(ftl_config_check(&c, msg, sizeof msg), 0);
  EXPECT_NE(std::string(msg).find("nvme.namespace_size"), std::string::npos) << msg;
  c.logical_lbas = uint64_t(257) * 32;  // one zone more than blocks
  EXPECT_NE(ftl_config_check(&c, msg, sizeof msg), 0);
}
