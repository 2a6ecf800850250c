// hostile_input_test.cpp - issue 35: hostile input and surprising defaults,
// through the real binary (SSDVP_BIN). No crash, no hang, no silent wrong
// result, nothing of the user's deleted. Each test fails without its fix.
#include <gtest/gtest.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

#include "run_command.h"

namespace fs = std::filesystem;
using ssdvp_test::contains;
using ssdvp_test::slurp;
using Result = ssdvp_test::CommandResult;

namespace {

const std::string kSmall = SSDVP_SOURCE_DIR "/configs/small.yaml";
const std::string kZns = SSDVP_SOURCE_DIR "/configs/zns.yaml";
// a short, empty-drive run of the small configuration
const std::string kQuick =
    " --set precondition.fill=0 --set precondition.random_drive_writes=0 --set workload.synthetic.requests=2000 ";

fs::path scratch(const std::string& name) { return ssdvp_test::scratch("ssdvp_hostile_input", name); }

std::string bin() { return std::string("'") + SSDVP_BIN + "' "; }

Result ssdvp(const fs::path& dir, const std::string& args) { return ssdvp_test::run_command(dir, bin() + args); }

nlohmann::json summary(const fs::path& out) { return nlohmann::json::parse(slurp(out / "summary.json")); }

bool has_warning(const nlohmann::json& j, const std::string& text) {
  if (!j.contains("warnings")) return false;
  for (const auto& w : j["warnings"])
    if (contains(w.get<std::string>(), text)) return true;
  return false;
}

// An mqsim trace of n 4 KiB writes then reads, 100 us apart, from `first_lba` (sectors).
void write_trace(const fs::path& p, int n, uint64_t first_sector = 0) {
  std::ofstream f(p);
  for (int i = 0; i < n; ++i)
    f << uint64_t(i) * 100000 << " 0 " << first_sector + uint64_t(i % 500) * 8 << " 8 " << (i < n / 2 ? 0 : 1) << "\n";
}

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

}  // namespace

// ---- crashes, hangs, memory --------------------------------------------------

TEST(HostileInput, RecursiveYamlAliasIsAConfigErrorNotAStackOverflow) {
  const fs::path d = scratch("alias_loop");
  std::ofstream(d / "loop.yaml") << "flash: &f {sub: *f}\n";
  for (const char* cmd : {"params", "run", "hostile"}) {
    const Result r =
        ssdvp(d, std::string(cmd) + " -c '" + (d / "loop.yaml").string() + "' -o '" + (d / "out").string() + "'");
    EXPECT_EQ(r.code, 2) << cmd << ": " << r.err;
    EXPECT_TRUE(contains(r.err, "nested more than")) << r.err;
    EXPECT_LT(r.err.size(), 1000u) << r.err;
  }
}

TEST(HostileInput, YamlAliasBombIsRefusedQuicklyWithAShortMessage) {
  const fs::path d = scratch("alias_bomb");
  for (int levels : {4, 9}) {
    std::ofstream f(d / "bomb.yaml");
    f << "a0: &a0 {x: 1, y: 2, z: 3, u: 4, v: 5, w: 6, p: 7, q: 8, r: 9}\n";
    for (int i = 1; i < levels; ++i) {
      f << "a" << i << ": &a" << i << " {";
      for (int k = 0; k < 9; ++k) f << (k ? ", " : "") << "k" << k << ": *a" << i - 1;
      f << "}\n";
    }
    f.close();
    const auto t0 = std::chrono::steady_clock::now();
    const Result r = ssdvp(d, "params -c '" + (d / "bomb.yaml").string() + "'");
    EXPECT_EQ(r.code, 2) << levels << ": " << r.err.substr(0, 500);
    // 9 levels: 9^9 keys, past the node limit; 4 levels: 7,380 unknown keys, 20 of them named
    EXPECT_TRUE(contains(r.err, levels == 9 ? "alias bomb" : "... and 7360 more")) << r.err.substr(0, 500);
    EXPECT_LT(r.err.size(), 4000u);  // was 518 KB for 4 levels
    EXPECT_LT(seconds_since(t0), 20.0) << levels;
  }
}

TEST(HostileInput, PipedTraceIsReadOnceAndReplayedWhole) {
  const fs::path d = scratch("pipe");
  write_trace(d / "t.trace", 400);
  // auto-detection, then the reading pass, then the replay: three reads of one pipe
  const Result r =
      ssdvp_test::run_command(d, "cat '" + (d / "t.trace").string() + "' | " + bin() + "run -c '" + kSmall +
                                     "' --trace /dev/stdin" + kQuick + "--quiet -o '" + (d / "out").string() + "'");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(summary(d / "out")["workload"]["requests"].get<uint64_t>(), 400u);
}

TEST(HostileInput, NamedFifoTraceSaysItWaitsForAWriter) {
  const fs::path d = scratch("fifo");
  write_trace(d / "t.trace", 200);
  ASSERT_EQ(::mkfifo((d / "f").c_str(), 0600), 0);
  // the writer comes a second after ssdvp opened the FIFO
  ASSERT_EQ(std::system(("(sleep 1; cat '" + (d / "t.trace").string() + "' > '" + (d / "f").string() + "') &").c_str()),
            0);
  const Result r = ssdvp(d, "run -c '" + kSmall + "' --trace '" + (d / "f").string() + "'" + kQuick + "--quiet -o '" +
                                (d / "out").string() + "'");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_TRUE(contains(r.err, "FIFO: waiting for a writer")) << r.err;
  EXPECT_EQ(summary(d / "out")["workload"]["requests"].get<uint64_t>(), 200u);
}

TEST(HostileInput, TinyStatsIntervalKeepsTheTimeSeriesBounded) {
  const fs::path d = scratch("interval");
  const Result r = ssdvp(d, "run -c '" + kSmall + "'" + kQuick + "--set stats.interval=1ps --set stats.max_rows=500 " +
                                "--quiet -o '" + (d / "out").string() + "'");
  ASSERT_EQ(r.code, 0) << r.err;
  const std::string csv = slurp(d / "out" / "timeseries.csv");
  EXPECT_EQ(std::count(csv.begin(), csv.end(), '\n'), 1 + 500);  // header and the rows
  const auto j = summary(d / "out");
  EXPECT_TRUE(j["host"]["timeseries_truncated"].get<bool>());
  EXPECT_TRUE(has_warning(j, "stats.max_rows"));
  EXPECT_TRUE(contains(r.err, "stats.max_rows")) << r.err;
  EXPECT_EQ(j["ftl"]["host_lba_writes"].get<uint64_t>(), j["host"]["write_bytes"].get<uint64_t>() / 4096);
}

TEST(HostileInput, ZonedIoSizeLargerThanAZoneIsRefused) {
  const fs::path d = scratch("zns_io");
  const auto t0 = std::chrono::steady_clock::now();
  const Result r =
      ssdvp(d, "run -c '" + kZns + "' --set workload.zoned.io_size=1GiB -o '" + (d / "out").string() + "'");
  EXPECT_EQ(r.code, 2) << r.err;
  EXPECT_TRUE(contains(r.err, "workload.zoned.io_size")) << r.err;
  EXPECT_LT(seconds_since(t0), 30.0);
}

TEST(HostileInput, OneCommandSlotIsRefusedAtConfig) {
  const fs::path d = scratch("cmd_slots");
  const Result r = ssdvp(d, "params -c '" + kSmall + "' --set ftl.cmd_slots=1");
  EXPECT_EQ(r.code, 2) << r.err;
  EXPECT_TRUE(contains(r.err, "ftl.cmd_slots")) << r.err;
}

// ---- the user's files --------------------------------------------------------

TEST(HostileInput, UnwritableOutputOrSaveDirFailsBeforeSimulating) {
  const fs::path d = scratch("bad_out");
  // the whole default job would take minutes: the refusal must come first
  for (const std::string& opt :
       {std::string("-o /dev/null/x"), std::string("-o '" + (d / "o").string() + "' --save-state /dev/null/x")}) {
    const auto t0 = std::chrono::steady_clock::now();
    const Result r = ssdvp(d, "run -c '" + kSmall + "' --quiet " + opt);
    EXPECT_EQ(r.code, 2) << opt << ": " << r.err;
    EXPECT_TRUE(contains(r.err, "/dev/null/x")) << r.err;
    EXPECT_LT(seconds_since(t0), 15.0) << opt;
  }
}

TEST(HostileInput, RerunRemovesTheEarlierRunsOptionalOutputs) {
  const fs::path d = scratch("stale");
  const std::string out = " --quiet -o '" + (d / "out").string() + "'";
  ASSERT_EQ(ssdvp(d, "run -c '" + kSmall + "'" + kQuick + "--set stats.interval_histograms=true" + out).code, 0);
  ASSERT_TRUE(fs::exists(d / "out" / "latency_histograms.csv"));
  std::ofstream(d / "out" / "notes.txt") << "mine\n";
  ASSERT_EQ(ssdvp(d, "run -c '" + kSmall + "'" + kQuick + out).code, 0);
  EXPECT_FALSE(fs::exists(d / "out" / "latency_histograms.csv"));
  EXPECT_TRUE(fs::exists(d / "out" / "notes.txt"));  // not ssdvp's: kept
}

TEST(HostileInput, RelativeTimelineFileLandsInTheOutputDirectory) {
  const fs::path d = scratch("timeline");
  const Result r = ssdvp(
      d, "run -c '" + kSmall + "'" + kQuick + "--set timeline.file=tl.json --quiet -o '" + (d / "out").string() + "'");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_TRUE(fs::exists(d / "out" / "tl.json"));
  EXPECT_FALSE(fs::exists(d / "tl.json"));
}

TEST(HostileInput, DamagedSavedDriveIsRefusedByItsChecksum) {
  const fs::path d = scratch("checksum");
  const std::string state = " --save-state '" + (d / "drive").string() + "' --precondition-only";
  ASSERT_EQ(ssdvp(d, "run -c '" + kSmall +
                         "' --quiet --set precondition.fill=0.2 --set "
                         "precondition.random_drive_writes=0" +
                         state)
                .code,
            0);
  {  // one flipped byte in the middle of die 0's stored data
    std::fstream f(d / "drive" / "nand0.img", std::ios::in | std::ios::out | std::ios::binary);
    f.seekg(0, std::ios::end);
    const auto size = f.tellg();
    ASSERT_GT(size, 4096);
    f.seekg(size / 2);
    char c;
    f.read(&c, 1);
    c ^= 0x10;
    f.seekp(size / 2);
    f.write(&c, 1);
  }
  const Result r = ssdvp(d, "run -c '" + kSmall +
                                "' --quiet --set precondition.fill=0.2 --set "
                                "precondition.random_drive_writes=0 --load-state '" +
                                (d / "drive").string() + "' -o '" + (d / "out").string() + "'");
  EXPECT_EQ(r.code, 2) << r.err;
  EXPECT_TRUE(contains(r.err, "checksum")) << r.err;
}

TEST(HostileInput, ServeNeverRemovesAFileOrALiveServersSocket) {
  const fs::path d = scratch("unix");
  std::ofstream(d / "precious") << "my data\n";
  Result r = ssdvp(d, "serve -c '" + kSmall + "' --listen 'unix:" + (d / "precious").string() + "' -o '" +
                          (d / "out").string() + "'");
  EXPECT_EQ(r.code, 2) << r.err;
  EXPECT_TRUE(contains(r.err, "not a socket")) << r.err;
  EXPECT_EQ(slurp(d / "precious"), "my data\n");
  // a socket some server listens on
  const fs::path sock = d / "live.sock";
  const int fd = ::socket(AF_UNIX, SOCK_STREAM, 0);
  sockaddr_un a{};
  a.sun_family = AF_UNIX;
  std::strncpy(a.sun_path, sock.c_str(), sizeof a.sun_path - 1);
  ASSERT_EQ(::bind(fd, reinterpret_cast<sockaddr*>(&a), sizeof a), 0);
  ASSERT_EQ(::listen(fd, 4), 0);
  struct stat before {};
  ASSERT_EQ(::stat(sock.c_str(), &before), 0);
  r = ssdvp(d, "serve -c '" + kSmall + "' --listen 'unix:" + sock.string() + "' -o '" + (d / "out").string() + "'");
  EXPECT_EQ(r.code, 2) << r.err;
  EXPECT_TRUE(contains(r.err, "already listening")) << r.err;
  struct stat after {};
  ASSERT_EQ(::stat(sock.c_str(), &after), 0);
  EXPECT_EQ(before.st_ino, after.st_ino);  // the same socket, not replaced
  ::close(fd);
}

TEST(HostileInput, PortAndMaxPayloadOutOfRangeAreRefused) {
  const fs::path d = scratch("ranges");
  Result r = ssdvp(d, "serve -c '" + kSmall + "' --listen tcp:127.0.0.1:99999 -o '" + (d / "out").string() + "'");
  EXPECT_EQ(r.code, 2) << r.err;
  EXPECT_TRUE(contains(r.err, "99999")) << r.err;
  r = ssdvp(d, "serve -c '" + kSmall + "' --set nbd.max_payload=5GiB --listen tcp:127.0.0.1:0 -o '" +
                   (d / "out").string() + "'");
  EXPECT_EQ(r.code, 2) << r.err;
  EXPECT_TRUE(contains(r.err, "nbd.max_payload")) << r.err;
}

TEST(HostileInput, APortInUseIsAUsageErrorNamingIt) {
  const fs::path d = scratch("port_in_use");
  const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  ASSERT_GE(fd, 0);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  ASSERT_EQ(::bind(fd, reinterpret_cast<sockaddr*>(&a), sizeof a), 0);  // port 0: the kernel picks a free one
  ASSERT_EQ(::listen(fd, 4), 0);
  socklen_t len = sizeof a;
  ASSERT_EQ(::getsockname(fd, reinterpret_cast<sockaddr*>(&a), &len), 0);
  const std::string port = std::to_string(ntohs(a.sin_port));
  const Result r =
      ssdvp(d, "serve -c '" + kSmall + "' --listen tcp:127.0.0.1:" + port + " -o '" + (d / "out").string() + "'");
  ::close(fd);
  EXPECT_EQ(r.code, 2) << r.err;
  EXPECT_TRUE(contains(r.err, "cannot bind tcp:127.0.0.1:" + port)) << r.err;
  EXPECT_TRUE(contains(r.err, "in use")) << r.err;
}

TEST(HostileInput, RecordIntoAMissingFolderIsAUsageError) {
  const fs::path d = scratch("record");
  const Result r = ssdvp(d, "serve -c '" + kSmall + "' --listen tcp:127.0.0.1:0 --record '" +
                                (d / "missing" / "r.iolog").string() + "' -o '" + (d / "out").string() + "'");
  EXPECT_EQ(r.code, 2) << r.err;
  EXPECT_TRUE(contains(r.err, "--record")) << r.err;
}

// ---- silent wrong results ----------------------------------------------------

TEST(HostileInput, TraceOptionKeysTheDocsNameAreAccepted) {
  const fs::path d = scratch("keys");
  const Result r =
      ssdvp(d, "params -c '" + kSmall +
                   "' --set workload.blkparse_action=D --set workload.skip_zero_length=false --format json");
  ASSERT_EQ(r.code, 0) << r.err;
  const auto a = nlohmann::json::parse(r.out);
  int found = 0;
  for (const auto& p : a) {
    if (p["key"] == "workload.blkparse_action") {
      EXPECT_EQ(p["value"], "D");
      ++found;
    }
    if (p["key"] == "workload.skip_zero_length") {
      EXPECT_EQ(p["value"], "false");
      ++found;
    }
    if (p["key"] == "workload.fio_time_unit_ps") {
      EXPECT_EQ(p["default"], "0");  // from the log: ps for ssdvp's recordings, us (fio's write_iolog) otherwise
      ++found;
    }
  }
  EXPECT_EQ(found, 3);
}

TEST(HostileInput, FailedAndFoldedRequestsAreWarnedAbout) {
  const fs::path d = scratch("wrap");
  write_trace(d / "far.trace", 400, uint64_t(2) << 30);  // 1 TiB in: beyond the 896 MiB namespace
  const std::string base = "run -c '" + kSmall + "' --trace '" + (d / "far.trace").string() +
                           "' --trace-format mqsim --set precondition.fill=0 --set precondition.random_drive_writes=0 "
                           "--quiet -o '" +
                           (d / "out").string() + "'";
  Result r = ssdvp(d, base + " --set host.lba_wrap=false");
  ASSERT_EQ(r.code, 0) << r.err;
  auto j = summary(d / "out");
  EXPECT_GT(j["host"]["errors"].get<uint64_t>(), 0u);
  EXPECT_TRUE(has_warning(j, "0x080")) << j["warnings"];
  EXPECT_TRUE(contains(r.err, "commands failed")) << r.err;  // on stderr even with --quiet
  r = ssdvp(d, base);
  ASSERT_EQ(r.code, 0) << r.err;
  j = summary(d / "out");
  EXPECT_EQ(j["workload"]["wrapped_requests"].get<uint64_t>(), 400u);
  EXPECT_TRUE(has_warning(j, "folded")) << j["warnings"];
}

TEST(HostileInput, SubLbaAndHugeRecordsAreCountedOnStderrBeforeTheRun) {
  // a 512-byte write, two 2^62-byte reads and three whole-LBA writes (mqsim: time dev sector sectors op)
  const fs::path d = scratch("odd_sizes");
  {
    std::ofstream f(d / "t.ascii");
    f << "0 0 8 1 0\n";                       // 512 B: under one 4 KiB LBA
    f << "100000 0 16 9007199254740992 1\n";  // 2^53 sectors = 2^62 bytes
    f << "200000 0 16 9007199254740992 1\n";
    for (int i = 0; i < 3; ++i) f << 300000 + i * 100000 << " 0 " << 64 + 8 * i << " 8 0\n";
  }
  const Result r = ssdvp(d, "run -c '" + kSmall + "'" + kQuick + "--trace '" + (d / "t.ascii").string() +
                                "' --trace-format mqsim --quiet -o '" + (d / "out").string() + "'");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_TRUE(contains(r.err, "1 records are not whole 4096-byte LBAs")) << r.err;
  EXPECT_TRUE(contains(r.err, "2 records are longer than the")) << r.err;
}

TEST(HostileInput, PowerCutAfterTheEndOfTheRunIsWarnedAbout) {
  const fs::path d = scratch("cut_late");
  const Result r =
      ssdvp(d, "run -c '" + kSmall + "'" + kQuick + "--set power.cut_at=1h --quiet -o '" + (d / "out").string() + "'");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_TRUE(has_warning(summary(d / "out"), "power.cut_at")) << r.err;
}

TEST(HostileInput, PowerCutsWhoseChecksWouldTakeDaysAreRefused) {
  // small.yaml's namespace is 229,376 LBAs and every cut reads all of them back
  const fs::path d = scratch("cuts_many");
  const auto t0 = std::chrono::steady_clock::now();
  Result r = ssdvp(d, "run -c '" + kSmall + "' --set power.cuts=1000000 --quiet -o '" + (d / "out").string() + "'");
  EXPECT_EQ(r.code, 2) << r.err;
  EXPECT_TRUE(contains(r.err, "power.cuts")) << r.err;
  EXPECT_TRUE(contains(r.err, "at most 9362 cuts")) << r.err;  // 2^31 / 229,376
  EXPECT_LT(seconds_since(t0), 60.0);                          // refused before simulating
  EXPECT_FALSE(fs::exists(d / "out" / "summary.json"));
  r = ssdvp(d, "run -c '" + kSmall + "'" + kQuick +
                   "--set power.cuts=2 --set power.check_budget_lbas=458752 --quiet -o '" + (d / "out").string() +
                   "'");  // exactly two checks' worth: allowed
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(summary(d / "out")["power"]["cuts_asked"].get<uint64_t>(), 2u);
}

TEST(HostileInput, NoPowerLossProtectionMakesGcDurable) {
  const fs::path d = scratch("plp");
  Result r = ssdvp(d, "params -c '" + kSmall + "' --set power.plp=false --format json");
  ASSERT_EQ(r.code, 0) << r.err;
  auto value = [](const std::string& out, const char* key) {
    for (const auto& p : nlohmann::json::parse(out))
      if (p["key"] == key) return p["value"].get<std::string>();
    return std::string("?");
  };
  EXPECT_EQ(value(r.out, "ftl.gc.durable"), "1");
  r = ssdvp(d, "params -c '" + kSmall + "' --format json");  // with PLP: unchanged
  EXPECT_EQ(value(r.out, "ftl.gc.durable"), "0");
  r = ssdvp(d, "params -c '" + kSmall + "' --set power.plp=false --set ftl.gc.durable=0 --format json");  // given
  EXPECT_EQ(value(r.out, "ftl.gc.durable"), "0");
}

TEST(HostileInput, FailedZonedWritesAreNoMismatches) {
  const fs::path d = scratch("zns_fail");
  const Result r = ssdvp(d, "run -c '" + kZns +
                                "' --set nvme.zns.max_active=2 --set workload.zoned.requests=5000 "
                                "--quiet -o '" +
                                (d / "out").string() + "'");
  const auto j = summary(d / "out");
  EXPECT_GT(j["host"]["errors"].get<uint64_t>(), 0u) << r.err;
  EXPECT_EQ(j["integrity"]["mismatches"].get<uint64_t>(), 0u);
  EXPECT_EQ(r.code, 0) << r.err;
}

// ---- messages and exit codes -------------------------------------------------

TEST(HostileInput, UnknownParamsFormatIsAUsageError) {
  const fs::path d = scratch("format");
  const Result r = ssdvp(d, "params --format bogus");
  EXPECT_EQ(r.code, 2) << r.err;
  EXPECT_TRUE(contains(r.err, "bogus")) << r.err;
}

TEST(HostileInput, ControlBytesInMessagesAreEscaped) {
  const fs::path d = scratch("esc");
  const Result r = ssdvp(d, "params --set \"$(printf 'bad\\033[31mkey\\007')=1\"");
  EXPECT_EQ(r.code, 2) << r.err;
  EXPECT_EQ(r.err.find('\x1b'), std::string::npos) << r.err;
  EXPECT_EQ(r.err.find('\x07'), std::string::npos) << r.err;
  EXPECT_TRUE(contains(r.err, "\\x1b")) << r.err;
}

// ---- docs/outputs.md ---------------------------------------------------------

// Every field of summary.json (top level and one level down) is in
// docs/outputs.md: a top-level key as a "### `key`" section or a row of the
// top-level table, a field as a `name` in its section.
TEST(HostileInput, OutputsDocNamesEverySummaryField) {
  const fs::path d = scratch("outputs_doc");
  const Result r = ssdvp(d, "run -c '" + kSmall + "'" + kQuick + "--quiet -o '" + (d / "out").string() + "'");
  ASSERT_EQ(r.code, 0) << r.err;
  const auto j = summary(d / "out");
  const std::string doc = slurp(SSDVP_SOURCE_DIR "/docs/outputs.md");
  // the text of each "### `name`..." section, up to the next heading
  auto section = [&doc](const std::string& key) -> std::string {
    const std::string head = "### `" + key + "`";
    const size_t at = doc.find(head);
    if (at == std::string::npos) return "";
    const size_t end = doc.find("\n#", at + head.size());
    return doc.substr(at, end == std::string::npos ? std::string::npos : end - at);
  };
  const size_t top_at = doc.find("### Top level");
  ASSERT_NE(top_at, std::string::npos);
  const std::string top = doc.substr(top_at, doc.find("\n#", top_at + 4) - top_at);
  std::string missing;
  for (const auto& [key, value] : j.items()) {
    const std::string s = section(key);
    if (s.empty() && !contains(top, "`" + key + "`")) {
      missing += " " + key;
      continue;
    }
    if (!value.is_object() || key == "config") continue;
    for (const auto& [field, v] : value.items()) {
      (void)v;
      if (!contains(s, "`" + field + "`")) missing += " " + key + "." + field;
    }
  }
  EXPECT_TRUE(missing.empty()) << "summary.json fields docs/outputs.md does not name:" << missing;
}

// An open-loop host that outruns the drive is told so (summary and stderr);
// one the drive keeps up with is not.
TEST(HostileInput, SaturatingOpenLoopIsWarnedAbout) {
  const fs::path d = scratch("saturate");
  const std::string base =
      "run -c '" + kSmall + "'" + kQuick + "--set host.mode=open --quiet -o '" + (d / "out").string() + "' ";
  Result r = ssdvp(d, base + "--set workload.synthetic.iops=2000000");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_TRUE(has_warning(summary(d / "out"), "outran the drive")) << summary(d / "out")["warnings"];
  EXPECT_TRUE(contains(r.err, "outran the drive")) << r.err;
  r = ssdvp(d, base + "--set workload.synthetic.iops=1000");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_FALSE(has_warning(summary(d / "out"), "outran the drive"));
}

// On a terminal a long run shows its progress on stderr (simulated time,
// requests done, an estimate) and clears the line at the end; --quiet and a
// pipe show none. `script` gives the run a terminal. The line first shows
// after a wall second: the run is long enough (1,000,000 requests, about 5 s
// on a quiet machine; 200,000 once ended under a second) to reach it.
TEST(HostileInput, ALongRunShowsItsProgressOnATerminal) {
  const fs::path d = scratch("progress");
  // a progress line every 20 ms: the run's first one however fast the machine
  const std::string run = bin() + "run -c '" + kSmall +
                          "' --set workload.synthetic.requests=200000 --set log.progress_interval=0.02 -o '" +
                          (d / "out").string() + "'";
  const Result tty = ssdvp_test::run_command(d, "script -qec \"" + run + "\" /dev/null");
  ASSERT_EQ(tty.code, 0) << tty.err;
  EXPECT_TRUE(contains(tty.out, "ssdvp: simulated ")) << tty.out.substr(0, 400);
  EXPECT_TRUE(contains(tty.out, "requests done of 200000")) << tty.out.substr(0, 400);
  EXPECT_TRUE(contains(tty.out, "s left")) << tty.out.substr(0, 400);
  const Result piped =
      ssdvp(d, "run -c '" + kSmall + "' --set workload.synthetic.requests=200000 -o '" + (d / "out2").string() + "'");
  ASSERT_EQ(piped.code, 0) << piped.err;
  EXPECT_FALSE(contains(piped.err, "ssdvp: simulated ")) << "no progress line into a pipe";
}
