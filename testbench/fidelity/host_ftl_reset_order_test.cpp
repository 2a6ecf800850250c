// host_ftl_reset_order_test.cpp - the host FTL's resets wait for the vector
// commands in flight on their chunk (HostFtlHal::flash_doorbell,
// docs/models/host_ftl.md "Order of a reset"). Open-Channel commands carry no
// order: without the hold, a host read of a GC victim's page sent in the same
// firmware pass as the victim's last copy completion met the victim's reset
// first and read the chunk erased. This run (Filebench's fileserver on the
// journal drive, GC by Vector Chunk Copy in batches of 8, seed 2) lost two
// LBAs that way before the hold.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>

#include "run_command.h"

TEST(HostFtlResetOrder, AResetWaitsForTheReadsOfItsChunk) {
  const auto dir = ssdvp_test::scratch("host_ftl_reset_order", "fileserver_copy8_s2");
  std::string cmd =
      std::string(SSDVP_BIN) + " run -q -c " SSDVP_SOURCE_DIR "/configs/journal.yaml -o '" + dir.string() + "'";
  for (const char* s : {"nvme.command_set=open_channel", "ftl.write.at_floor=pass", "host.files.personality=fileserver",
                        "host.files.nfiles=4000", "host.files.journal_stream=1", "host.ftl.gc_copy=vector_copy",
                        "host.ftl.copy_batch=8", "host.files.seed=2", "precondition.seed=2", "host.time_limit=20s"})
    cmd += std::string(" --set ") + s;
  const auto r = ssdvp_test::run_command(dir, cmd);
  ASSERT_EQ(r.code, 0) << cmd << "\n" << r.err;
  const auto s = nlohmann::json::parse(ssdvp_test::slurp(dir / "summary.json"));
  EXPECT_EQ(s["integrity"]["mismatches"].get<uint64_t>(), 0u);
  EXPECT_GT(s["integrity"]["reads_checked"].get<uint64_t>(), 100000u);
  // the premise: GC by copy ran, and the HAL held resets back for reads in flight on their chunks
  EXPECT_GT(s["host_ftl"]["vector_commands"]["copies"].get<uint64_t>(), 1000u);
  EXPECT_GT(s["host_ftl"]["vector_commands"]["resets_held"].get<uint64_t>(), 0u);
}
