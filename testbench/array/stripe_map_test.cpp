// stripe_map_test.cpp - the RAID-5 map against a layout built by hand, and
// the GC window schedules against their definitions.
//
// The reference lays chunks out the way the left-symmetric algorithm is
// described (md's raid5 layout 2): stripe by stripe, parity on the last
// device for stripe 0 and one device further left each stripe, data chunks
// starting on the device right of the parity and wrapping round. Every array
// LBA is then placed by walking that table, and the map must agree LBA by
// LBA; every device LBA holds exactly one data LBA or one parity LBA.
#include <gtest/gtest.h>

#include <vector>

#include "array/array_ctrl.h"
#include "array/stripe_map.h"

using ssdvp::array::Coordination;
using ssdvp::array::StripeMap;
using ssdvp::array::WindowSchedule;

namespace {

struct RefCell {
  int64_t array_lba = -1;  // -1: parity
};

}  // namespace

TEST(StripeMap, MatchesABruteForceLeftSymmetricLayout) {
  for (uint32_t n = 3; n <= 8; ++n) {
    for (uint64_t chunk : {1ull, 3ull, 16ull}) {
      const uint64_t dev_lbas = chunk * (2 * n + 3) + chunk / 2;  // not a whole number of stripes
      const StripeMap m(n, chunk, dev_lbas);
      const uint64_t stripes = dev_lbas / chunk;
      ASSERT_EQ(m.stripes(), stripes);
      ASSERT_EQ(m.array_lbas(), stripes * chunk * (n - 1));
      // The reference table: device x device LBA -> array LBA or parity.
      std::vector<std::vector<RefCell>> ref(n, std::vector<RefCell>(stripes * chunk));
      uint64_t next = 0;
      int parity = int(n) - 1;
      for (uint64_t s = 0; s < stripes; ++s) {
        int dev = (parity + 1) % int(n);
        for (uint32_t j = 0; j + 1 < n; ++j) {
          for (uint64_t o = 0; o < chunk; ++o) ref[dev][s * chunk + o].array_lba = int64_t(next++);
          dev = (dev + 1) % int(n);
        }
        ASSERT_EQ(dev, parity);  // the data wrapped round to the parity device
        parity = (parity + int(n) - 1) % int(n);
      }
      ASSERT_EQ(next, m.array_lbas());
      std::vector<uint64_t> seen(m.array_lbas(), 0);
      for (uint32_t d = 0; d < n; ++d)
        for (uint64_t l = 0; l < stripes * chunk; ++l) {
          const uint64_t s = l / chunk;
          const int64_t a = ref[d][l].array_lba;
          if (a < 0) {
            EXPECT_EQ(m.parity_device(s), d) << "n=" << n << " chunk=" << chunk << " stripe " << s;
            EXPECT_EQ(m.data_index_of(s, d), UINT32_MAX);
            continue;
          }
          ++seen[uint64_t(a)];
          const auto loc = m.locate(uint64_t(a));
          EXPECT_EQ(loc.device, d) << "n=" << n << " chunk=" << chunk << " array LBA " << a;
          EXPECT_EQ(loc.device_lba, l) << "n=" << n << " chunk=" << chunk << " array LBA " << a;
          EXPECT_EQ(loc.stripe, s);
          EXPECT_EQ(m.data_device(s, loc.data_index), d);
          EXPECT_EQ(m.data_index_of(s, d), loc.data_index);
          EXPECT_EQ(m.array_lba(s, loc.data_index, loc.offset), uint64_t(a));
        }
      for (uint64_t a = 0; a < m.array_lbas(); ++a)
        ASSERT_EQ(seen[a], 1u) << "array LBA " << a << " placed " << seen[a] << " times";
    }
  }
}

TEST(WindowSchedule, GcsyncWindowsTileTimeOneDeviceAtATime) {
  const uint64_t tw = 7;
  for (uint32_t n = 3; n <= 6; ++n) {
    const WindowSchedule w{Coordination::gcsync, n, tw, 0};
    for (uint64_t t = 0; t < 5 * n * tw; ++t) {
      uint32_t open = 0;
      for (uint32_t c = 0; c < n; ++c) open += w.open(c, t);
      EXPECT_EQ(open, 1u) << "t=" << t;
      EXPECT_TRUE(w.open(uint32_t((t / tw) % n), t));
      EXPECT_GT(w.next_change(t), t);
      EXPECT_EQ(w.next_change(t) % tw, 0u);
    }
  }
}

TEST(WindowSchedule, GcsyncPlusWindowsAreSeparatedByTheBufferTime) {
  const uint64_t tw = 5, tb = 3;
  const uint32_t n = 4;
  const WindowSchedule w{Coordination::gcsync_plus, n, tw, tb};
  int64_t last_close = -1;
  int last_dev = -1;
  for (uint64_t t = 0; t < 6 * n * (tw + tb); ++t) {
    uint32_t open = 0;
    for (uint32_t c = 0; c < n; ++c)
      if (w.open(c, t)) {
        ++open;
        // [(tw+tb)(n i + c), (tw+tb)(n i + c + 1) - tb)
        const uint64_t k = t / (tw + tb);
        EXPECT_EQ(k % n, c);
        EXPECT_LT(t, (k + 1) * (tw + tb) - tb);
        if (last_dev != int(c) && last_close >= 0) {
          EXPECT_GE(int64_t(t) - last_close, int64_t(tb)) << "t=" << t;
        }
        last_dev = int(c);
        last_close = int64_t(t) + 1;
      }
    EXPECT_LE(open, 1u);
    // next_change is the first later time at which some device's answer differs
    const uint64_t nc = w.next_change(t);
    for (uint64_t u = t + 1; u < nc; ++u)
      for (uint32_t c = 0; c < n; ++c) ASSERT_EQ(w.open(c, u), w.open(c, t)) << "t=" << t << " u=" << u;
  }
}

TEST(WindowSchedule, HarmoniaHasNoWindows) {
  // Harmonia coordinates by global collections the controller starts when a
  // drive asks (array_ctrl.cpp), not by a time schedule: always open.
  const WindowSchedule w{Coordination::harmonia, 4, 10, 0};
  for (uint64_t t = 0; t < 200; ++t)
    for (uint32_t c = 0; c < 4; ++c) EXPECT_TRUE(w.open(c, t));
  EXPECT_EQ(w.next_change(0), UINT64_MAX);
}

// An array run reads every array.* key of the registry with its type and
// default (platform/run/params.def), and declares nothing else outside it
// but per-device overrides.
#include "array/array_sim.h"
#include "common/config.h"

TEST(ArrayRegistry, AnArrayRunReadsEveryArrayKeyOfTheRegistry) {
  ssdvp::Config c = ssdvp::Config::from_yaml_file(SSDVP_SOURCE_DIR "/configs/raid.yaml");
  c.set("array.dev1.ftl.gc.policy", "fifo");
  ssdvp::array::ArraySimulation sim(c);
  for (const auto& d : c.drift()) EXPECT_EQ(d.rfind("array.dev1.", 0), 0u) << d;
  for (const auto& k : c.unread()) EXPECT_NE(k.rfind("array.", 0), 0u) << "an array run does not read " << k;
}
