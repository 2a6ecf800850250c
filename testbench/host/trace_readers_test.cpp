// Trace readers: every format on hand-written fixtures (exact ps and byte
// values worked out by hand from each format's documentation), malformed
// lines, CRLF, missing final newline, detection, options, looping, and the
// bundled real traces end to end.
#include <gtest/gtest.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>
#include <vector>

#include "workload.h"

using namespace ssdvp::host;

namespace {

std::string fixture(const std::string& name) {
  return std::string(SSDVP_SOURCE_DIR) + "/testbench/host/fixtures/" + name;
}
std::string bundled(const std::string& name) { return std::string(SSDVP_SOURCE_DIR) + "/traces/" + name; }

// Writes `bytes` to a fresh temporary file and returns its path.
std::string temp_trace(const std::string& bytes, const std::string& suffix = ".trace") {
  static std::atomic<int> n{0};
  const std::string path =
      ::testing::TempDir() + "ssdvp_trace_" + std::to_string(::getpid()) + "_" + std::to_string(n++) + suffix;
  std::ofstream(path, std::ios::binary) << bytes;
  return path;
}

TraceOptions fmt(TraceFormat f) {
  TraceOptions o;
  o.format = f;
  return o;
}

std::vector<IoRequest> read_all(Workload& w) {
  std::vector<IoRequest> v;
  IoRequest q;
  while (w.next(q)) v.push_back(q);
  return v;
}

std::vector<IoRequest> read_all(const std::string& path, const TraceOptions& o) {
  auto w = open_trace(path, o);
  return read_all(*w);
}

void expect_req(const IoRequest& q, uint64_t time_ps, uint64_t offset, uint64_t length, IoOp op, uint32_t device,
                uint64_t line) {
  EXPECT_EQ(q.time_ps, time_ps) << "line " << q.line;
  EXPECT_EQ(q.offset, offset) << "line " << q.line;
  EXPECT_EQ(q.length, length) << "line " << q.line;
  EXPECT_EQ(q.op, op) << "line " << q.line;
  EXPECT_EQ(q.device, device) << "line " << q.line;
  EXPECT_EQ(q.line, line);
}

// Opens `bytes` as `f` and expects a TraceError at `line` mentioning `what`.
void expect_error(TraceFormat f, const std::string& bytes, uint64_t line, const std::string& what) {
  const std::string path = temp_trace(bytes);
  try {
    read_all(path, fmt(f));
    ADD_FAILURE() << "no TraceError for " << to_string(f) << " input:\n" << bytes;
  } catch (const TraceError& e) {
    const std::string msg = e.what();
    EXPECT_NE(msg.find(path + ":" + std::to_string(line) + ": expected "), std::string::npos) << msg;
    EXPECT_NE(msg.find(what), std::string::npos) << msg;
  }
}

// --- mqsim ------------------------------------------------------------------

TEST(MqsimTrace, UnitsRebaseClampAndZeroLength) {
  auto w = open_trace(fixture("mqsim_basic.ascii"), fmt(TraceFormat::mqsim));
  auto v = read_all(*w);
  ASSERT_EQ(v.size(), 4u);
  // 1000 ns is the first record: rebased to 0. LBA in 512-byte sectors.
  expect_req(v[0], 0, 0, 8 * 512, IoOp::read, 0, 1);
  expect_req(v[1], 1500 * 1000ull, 16 * 512, 16 * 512, IoOp::write, 1, 2);
  expect_req(v[2], 1500 * 1000ull, 100 * 512, 512, IoOp::read, 0, 3);
  // 2000 ns < 2500 ns: clamped to the previous time.
  expect_req(v[3], 1500 * 1000ull, 8 * 512, 8 * 512, IoOp::write, 0, 4);
  const auto& s = w->stats();
  EXPECT_EQ(s.lines, 5u);
  EXPECT_EQ(s.records, 4u);
  EXPECT_EQ(s.reads, 2u);
  EXPECT_EQ(s.writes, 2u);
  EXPECT_EQ(s.read_bytes, 4096u + 512u);
  EXPECT_EQ(s.write_bytes, 8192u + 4096u);
  EXPECT_EQ(s.clamped, 1u);
  EXPECT_EQ(s.skipped_zero_length, 1u);
  EXPECT_EQ(s.skipped(), 1u);
}

TEST(MqsimTrace, CrlfBlankLineAndNoFinalNewline) {
  auto v = read_all(fixture("mqsim_crlf_nonl.ascii"), fmt(TraceFormat::mqsim));
  ASSERT_EQ(v.size(), 3u);
  expect_req(v[0], 0, 2048 * 512, 8 * 512, IoOp::write, 0, 1);
  expect_req(v[1], 500 * 1000ull, 4096 * 512, 16 * 512, IoOp::read, 3, 2);
  expect_req(v[2], 1000 * 1000ull, 8 * 512, 512, IoOp::write, 0, 4);  // line 3 is blank
}

TEST(MqsimTrace, ZeroLengthIsAnErrorWhenNotSkipped) {
  TraceOptions o = fmt(TraceFormat::mqsim);
  o.skip_zero_length = false;
  const std::string path = fixture("mqsim_basic.ascii");
  try {
    read_all(path, o);
    FAIL() << "expected TraceError";
  } catch (const TraceError& e) {
    EXPECT_NE(std::string(e.what()).find(path + ":5: expected a non-zero request size"), std::string::npos) << e.what();
  }
}

TEST(MqsimTrace, MalformedLines) {
  expect_error(TraceFormat::mqsim, "0 0 0 8 1\n10 0 0 8\n", 2, "5 blank-separated fields");
  expect_error(TraceFormat::mqsim, "0 0 0 8 1\n10 0 0 8 1 7\n", 2, "5 blank-separated fields");
  expect_error(TraceFormat::mqsim, "0 0 0 8 1\n0 0 0 8 1\nabc 0 0 8 1\n", 3, "arrival time (ns, field 1), got 'abc'");
  expect_error(TraceFormat::mqsim, "0 0 -5 8 1\n", 1, "start LBA (512-byte sectors, field 3), got '-5'");
  expect_error(TraceFormat::mqsim, "0 0 5 8 2\n", 1, "type 0 (write) or 1 (read) in field 5, got '2'");
  expect_error(TraceFormat::mqsim, "1.5 0 5 8 1\n", 1, "got '1.5'");
  expect_error(TraceFormat::mqsim, "0 0 36028797018963968 8 1\n", 1, "start LBA below 2^55 sectors");
}

// --- disksim ----------------------------------------------------------------

TEST(DisksimTrace, MillisecondsBlocksAndReadFlag) {
  auto v = read_all(fixture("disksim_basic.trace"), fmt(TraceFormat::disksim));
  ASSERT_EQ(v.size(), 4u);
  expect_req(v[0], 0, 1024 * 512, 8 * 512, IoOp::read, 0, 1);
  expect_req(v[1], 1500000000ull, 2048 * 512, 16 * 512, IoOp::write, 0, 2);  // 1.5 ms
  expect_req(v[2], 2000251000ull, 0, 512, IoOp::read, 1, 3);                 // 2.000251 ms, flags 0x1
  expect_req(v[3], 12500000000ull, 4096 * 512, 8 * 512, IoOp::read, 0, 4);   // flags 3: bit 0 set
}

TEST(DisksimTrace, ExponentsAndSubPicosecondRounding) {
  // 1.25e1 ms = 12.5 ms; 12.5000000015 ms = 12500000001.5 ps -> rounds half up.
  auto v = read_all(temp_trace("0 0 0 8 1\n1.25e1 0 0 8 1\n12.5000000015 0 0 8 1\n"), fmt(TraceFormat::disksim));
  ASSERT_EQ(v.size(), 3u);
  EXPECT_EQ(v[1].time_ps, 12500000000ull);
  EXPECT_EQ(v[2].time_ps, 12500000002ull);
}

TEST(DisksimTrace, MalformedLines) {
  expect_error(TraceFormat::disksim, "0.0 0 0 8 1\n0.5 0 0 8 zz\n", 2, "hexadecimal request flags (field 5), got 'zz'");
  expect_error(TraceFormat::disksim, "-1.0 0 0 8 1\n", 1, "arrival time (ms, field 1), got '-1.0'");
  expect_error(TraceFormat::disksim, "nan 0 0 8 1\n", 1, "got 'nan'");
  expect_error(TraceFormat::disksim, "0.0 0 0\n", 1, "5 blank-separated fields");
}

// --- msr --------------------------------------------------------------------

TEST(MsrTrace, FiletimeTicksBytesAndCaseInsensitiveType) {
  auto w = open_trace(fixture("msr_basic.csv"), fmt(TraceFormat::msr));
  auto v = read_all(*w);
  ASSERT_EQ(v.size(), 4u);
  expect_req(v[0], 0, 3154152960ull, 32768, IoOp::read, 1, 1);
  // (128166372016382155 - 128166372003061629) ticks * 100 ns = 1.3320526 s
  expect_req(v[1], 1332052600000ull, 3154152960ull, 4096, IoOp::write, 1, 2);
  // (128166372026382245 - 128166372003061629) ticks * 100 ns
  expect_req(v[2], 2332061600000ull, 1024, 512, IoOp::write, 0, 3);
  // 5 ticks earlier than line 3: clamped
  expect_req(v[3], 2332061600000ull, 0, 65536, IoOp::read, 1, 4);
  EXPECT_EQ(w->stats().clamped, 1u);
}

TEST(MsrTrace, DeviceFilter) {
  TraceOptions o = fmt(TraceFormat::msr);
  o.device = 1;
  auto w = open_trace(fixture("msr_basic.csv"), o);
  auto v = read_all(*w);
  ASSERT_EQ(v.size(), 3u);
  for (const auto& q : v) EXPECT_EQ(q.device, 1u);
  // Line 3 (disk 0) is filtered out before the order check, so line 4 is in order.
  expect_req(v[2], 2332061100000ull, 0, 65536, IoOp::read, 1, 4);
  EXPECT_EQ(w->stats().skipped_device, 1u);
  EXPECT_EQ(w->stats().clamped, 0u);
}

TEST(MsrTrace, MalformedLines) {
  expect_error(TraceFormat::msr, "128166372003061629,hm,1,Read,0,4096,1\n128166372003061630,hm,1,Erase,0,4096,1\n", 2,
               "Type Read or Write (field 4), got 'Erase'");
  expect_error(TraceFormat::msr, "128166372003061629,hm,1,Read,0,4096\n", 1, "7 comma-separated fields");
  expect_error(TraceFormat::msr, "128166372003061629,hm,1,Read,0,4k,1\n", 1, "Size (bytes, field 6), got '4k'");
  expect_error(TraceFormat::msr, "128166372003061629,,1,Read,0,4096,1\n", 1, "a Hostname (field 2)");
}

// --- systor -----------------------------------------------------------------

TEST(SystorTrace, HeaderCrlfUnixSecondsAndEmptyResponse) {
  auto w = open_trace(fixture("systor_header_crlf.csv"), fmt(TraceFormat::systor));
  auto v = read_all(*w);
  ASSERT_EQ(v.size(), 3u);
  expect_req(v[0], 0, 7560847360ull, 4096, IoOp::read, 3, 2);
  expect_req(v[1], 10006000000ull, 7560851456ull, 8192, IoOp::write, 3, 3);  // 0.010006 s, exact
  expect_req(v[2], 1497166000000ull, 0, 512, IoOp::write, 0, 4);             // 1.497166 s
  EXPECT_EQ(w->stats().lines, 4u);
  EXPECT_EQ(w->stats().skipped(), 0u);  // the header is neither a record nor a skip
}

TEST(SystorTrace, OnlyTheExactHeaderIsSkipped) {
  expect_error(TraceFormat::systor, "Timestamp,Response,IOType,LUN,Offset,Bytes\n1487894400.1,0.1,R,0,0,4096\n", 1,
               "Timestamp (Unix seconds, field 1), got 'Timestamp'");
  expect_error(TraceFormat::systor, "1487894400.1,0.1,X,0,0,4096\n", 1, "IOType R or W (field 3), got 'X'");
  expect_error(TraceFormat::systor, "1487894400.1,0.1,R,0,0\n", 1, "6 comma-separated fields");
}

// --- spc --------------------------------------------------------------------

TEST(SpcTrace, SecondsBlocksBytesExtraFieldsNoFinalNewline) {
  auto v = read_all(fixture("spc_nonl.spc"), fmt(TraceFormat::spc));
  ASSERT_EQ(v.size(), 5u);
  expect_req(v[0], 0, 303567ull * 512, 3584, IoOp::write, 0, 1);
  expect_req(v[1], 0, 55590ull * 512, 3072, IoOp::write, 1, 2);
  expect_req(v[2], 26214000000ull, 303574ull * 512, 3584, IoOp::write, 0, 3);
  expect_req(v[3], 78643000000ull, 55596ull * 512, 3072, IoOp::read, 1, 4);  // trailing fields tolerated
  expect_req(v[4], 1500000000000ull, 0, 512, IoOp::read, 2, 5);              // last line, no newline
}

TEST(SpcTrace, MalformedLines) {
  expect_error(TraceFormat::spc, "0,1,512,w,0.0\n0,1,512,x,0.1\n", 2, "Opcode r, R, w or W (field 4), got 'x'");
  expect_error(TraceFormat::spc, "0,1,512,w\n", 1, "at least 5 comma-separated fields");
  expect_error(TraceFormat::spc, "0,1,512,w,abc\n", 1, "Timestamp (seconds, field 5), got 'abc'");
}

// --- blkparse ---------------------------------------------------------------

TEST(BlkparseTrace, QueueEventsRwbsAndSummarySkipped) {
  auto w = open_trace(fixture("blkparse_basic.txt"), fmt(TraceFormat::blkparse));
  auto v = read_all(*w);
  ASSERT_EQ(v.size(), 7u);
  const uint32_t sda = (8u << 20) | 0, sdb = (8u << 20) | 16;
  expect_req(v[0], 0, 223490ull * 512, 8 * 512, IoOp::write, sda, 1);
  expect_req(v[1], 150000000ull, 1000 * 512, 16 * 512, IoOp::read, sda, 4);    // 0.000150000 s
  expect_req(v[2], 200000000ull, 2048 * 512, 2048 * 512, IoOp::trim, sda, 5);  // DS: discard
  expect_req(v[3], 300000000ull, 0, 0, IoOp::flush, sda, 6);                   // FN, no sectors
  expect_req(v[4], 310000000ull, 0, 0, IoOp::flush, sda, 7);                   // FWS, no sectors
  expect_req(v[5], 400000000ull, 5000 * 512, 8 * 512, IoOp::write, sda, 8);    // WS
  expect_req(v[6], 500000000ull, 64 * 512, 32 * 512, IoOp::read, sdb, 9);      // RA on 8,16
  const auto& s = w->stats();
  EXPECT_EQ(s.flushes, 2u);
  EXPECT_EQ(s.trims, 1u);
  // G, I, m, C, "Q N" and the 8 non-blank summary lines.
  EXPECT_EQ(s.skipped_unsupported, 13u);
}

TEST(BlkparseTrace, OtherActionAndDeviceFilter) {
  TraceOptions o = fmt(TraceFormat::blkparse);
  o.blkparse_action = "C";
  auto v = read_all(fixture("blkparse_basic.txt"), o);
  ASSERT_EQ(v.size(), 1u);
  expect_req(v[0], 0, 223490ull * 512, 8 * 512, IoOp::write, 8u << 20, 11);

  o.blkparse_action = "Q";
  o.device = (8 << 20) | 16;
  v = read_all(fixture("blkparse_basic.txt"), o);
  ASSERT_EQ(v.size(), 1u);
  EXPECT_EQ(v[0].time_ps, 0u);  // the first accepted record is the time origin
  EXPECT_EQ(v[0].line, 9u);
}

TEST(BlkparseTrace, MalformedLines) {
  expect_error(TraceFormat::blkparse, "  8,0  3  1  0.000000000  697  Q   W 223490 + x [a]\n", 1,
               "sector count (field 10), got 'x'");
  expect_error(TraceFormat::blkparse, "  8,0  3  1  0.000000000  697  Q   W [a]\n", 1,
               "'sector + count' after the RWBS");
  expect_error(TraceFormat::blkparse, "  8,0  3  1  zero  697  Q   W 1 + 8 [a]\n", 1, "time (seconds, field 4)");
  expect_error(TraceFormat::blkparse, "  8,0  3  1\n", 1, "blkparse event fields");
  // a NUL inside the device field: an error naming the line, not a line dropped
  expect_error(TraceFormat::blkparse,
               std::string("  8,0  3  1  0.0  697  Q   W 1 + 8 [a]\n  8\0,0  3  2  0.1  697  Q   W 9 + 8 [a]\n", 79), 2,
               "major,minor");
}

// --- fio --------------------------------------------------------------------

TEST(FioTrace, Version2ActionsFilesAndWait) {
  auto w = open_trace(fixture("fio_v2.log"), fmt(TraceFormat::fio));
  auto v = read_all(*w);
  ASSERT_EQ(v.size(), 5u);
  expect_req(v[0], 0, 0, 4096, IoOp::write, 0, 4);
  expect_req(v[1], 0, 4096, 8192, IoOp::read, 0, 5);
  expect_req(v[2], 0, 1048576, 65536, IoOp::trim, 1, 8);     // second file -> device 1
  expect_req(v[3], 250000000ull, 0, 0, IoOp::flush, 0, 10);  // after "wait 250" (microseconds)
  expect_req(v[4], 250000000ull, 0, 0, IoOp::flush, 0, 11);  // datasync
  EXPECT_EQ(w->stats().skipped_unsupported, 7u);             // 2 add, 2 open, wait, 2 close
}

// fio's write_iolog (3.33) writes microseconds: the default unit; a log in
// milliseconds says so (fio_time_unit_ps).
TEST(FioTrace, Version3TimestampsDefaultMicroseconds) {
  auto v = read_all(fixture("fio_v3.log"), fmt(TraceFormat::fio));
  ASSERT_EQ(v.size(), 4u);
  EXPECT_EQ(v[1].time_ps, 12000000ull);  // 17 - 5 us
  EXPECT_EQ(v[3].time_ps, 20000000ull);
}

// ssdvp serve --record writes ps and names the file "ssdvp": the default unit
// (0) tells the two apart by the first request's file; a set unit wins.
TEST(FioTrace, Version3UnitFromTheLogUnlessSet) {
  const std::string rec = temp_trace("fio version 3 iolog\n5 ssdvp write 0 4096\n17 ssdvp read 8192 4096\n");
  auto v = read_all(rec, fmt(TraceFormat::fio));
  ASSERT_EQ(v.size(), 2u);
  EXPECT_EQ(v[1].time_ps, 12u);  // ps
  TraceOptions o = fmt(TraceFormat::fio);
  o.fio_time_unit_ps = 1000000;
  EXPECT_EQ(read_all(rec, o)[1].time_ps, 12000000u);
  const std::string other = temp_trace("fio version 3 iolog\n5 /dev/sdb write 0 4096\n17 /dev/sdb read 0 4096\n");
  EXPECT_EQ(read_all(other, fmt(TraceFormat::fio))[1].time_ps, 12000000u);  // fio's us
  auto w = open_trace(rec, fmt(TraceFormat::fio));
  EXPECT_NE(w->describe().find("fio_time_unit=auto"), std::string::npos) << w->describe();
}

TEST(FioTrace, Version3MillisecondUnit) {
  TraceOptions o = fmt(TraceFormat::fio);
  o.fio_time_unit_ps = 1000000000;
  auto v = read_all(fixture("fio_v3.log"), o);
  ASSERT_EQ(v.size(), 4u);
  expect_req(v[0], 0, 0, 4096, IoOp::write, 0, 4);
  expect_req(v[1], 12000000000ull, 8192, 4096, IoOp::read, 0, 5);  // 17 - 5 ms
  expect_req(v[2], 15000000000ull, 0, 1048576, IoOp::trim, 0, 6);
  expect_req(v[3], 20000000000ull, 0, 0, IoOp::flush, 0, 7);
}

TEST(FioTrace, MalformedLines) {
  expect_error(TraceFormat::fio, "fio version 1 iolog\n", 1,
               "the header 'fio version 2 iolog' or 'fio version 3 iolog'");
  expect_error(TraceFormat::fio, "fio version 2 iolog\n/dev/sda add\n/dev/sda erase 0 4096\n", 3,
               "a fio action (read, write, trim, sync, datasync, add, open, close, wait), got 'erase'");
  expect_error(TraceFormat::fio, "fio version 2 iolog\n/dev/sda read 4096\n", 2, "'offset length' after 'read'");
  expect_error(TraceFormat::fio, "fio version 3 iolog\nx /dev/sda read 0 4096\n", 2, "timestamp (field 1), got 'x'");
}

// --- compressed traces (xz, gzip: known by their first bytes) ------------------

// Runs `cmd` through the shell; the test fails (not skips) when it fails: xz
// and gzip are in every Debian base system.
void sh(const std::string& cmd) { ASSERT_EQ(std::system(cmd.c_str()), 0) << cmd; }

void expect_same(const std::vector<IoRequest>& a, const std::vector<IoRequest>& b) {
  ASSERT_EQ(a.size(), b.size());
  for (size_t i = 0; i < a.size(); ++i) {
    EXPECT_EQ(a[i].time_ps, b[i].time_ps) << i;
    EXPECT_EQ(a[i].offset, b[i].offset) << i;
    EXPECT_EQ(a[i].length, b[i].length) << i;
    EXPECT_EQ(a[i].op, b[i].op) << i;
    EXPECT_EQ(a[i].device, b[i].device) << i;
    EXPECT_EQ(a[i].line, b[i].line) << i;
  }
}

TEST(CompressedTrace, XzAndGzipReadAsThePlainFileWhateverTheirName) {
  const std::string plain = fixture("mqsim_basic.ascii");
  const auto want = read_all(plain, fmt(TraceFormat::mqsim));
  ASSERT_EQ(want.size(), 4u);                                                      // its zero-length record skipped
  const std::string xz = temp_trace("", ".trace"), gz = temp_trace("", ".ascii");  // no telling suffix
  sh("xz -c '" + plain + "' > '" + xz + "'");
  sh("gzip -c '" + plain + "' > '" + gz + "'");
  expect_same(read_all(xz, fmt(TraceFormat::mqsim)), want);
  expect_same(read_all(gz, fmt(TraceFormat::mqsim)), want);
  EXPECT_EQ(detect_trace_format(xz), TraceFormat::mqsim);  // detection reads the unpacked lines
  auto w = open_trace(xz, fmt(TraceFormat::mqsim));
  expect_same(read_all(*w), want);
  w->rewind();  // a looped trace rereads the unpacked copy
  expect_same(read_all(*w), want);
  // Concatenated members and streams (`cat a.gz b.gz`, `xz` of several files) are one trace.
  const std::string gz2 = temp_trace("", ".gz"), xz2 = temp_trace("", ".xz");
  sh("cat '" + gz + "' '" + gz + "' > '" + gz2 + "'");
  sh("cat '" + xz + "' '" + xz + "' > '" + xz2 + "'");
  EXPECT_EQ(read_all(gz2, fmt(TraceFormat::mqsim)).size(), 8u);
  EXPECT_EQ(read_all(xz2, fmt(TraceFormat::mqsim)).size(), 8u);
}

TEST(CompressedTrace, TruncatedOrDamagedStreamNamesTheFileAndWhatWasExpected) {
  std::string body;
  for (int i = 0; i < 20000; ++i) body += std::to_string(i * 1000) + " 0 " + std::to_string(i * 8) + " 8 0\n";
  const std::string plain = temp_trace(body);
  for (const std::string tool : {"xz", "gzip"}) {
    const std::string packed = temp_trace("", "." + tool), cut = temp_trace("", "." + tool + "-cut");
    sh(tool + " -c '" + plain + "' > '" + packed + "'");
    sh("head -c $(( $(stat -c %s '" + packed + "') / 2 )) '" + packed + "' > '" + cut + "'");
    try {
      read_all(cut, fmt(TraceFormat::mqsim));
      FAIL() << tool << ": a truncated stream was read";
    } catch (const TraceError& e) {
      const std::string m = e.what();
      EXPECT_NE(m.find(cut + ": expected a complete " + tool + " stream, got a truncated stream"), std::string::npos)
          << m;
    }
    const std::string bad = temp_trace("", "." + tool + "-bad");  // a byte in the middle flipped
    sh("cp '" + packed + "' '" + bad + "' && printf '\\377' | dd of='" + bad + "' bs=1 seek=$(( $(stat -c %s '" +
       packed + "') / 2 )) conv=notrunc status=none");
    try {
      read_all(bad, fmt(TraceFormat::mqsim));
      FAIL() << tool << ": a damaged stream was read";
    } catch (const TraceError& e) {
      EXPECT_NE(std::string(e.what()).find(bad + ": expected a complete " + tool + " stream, got "), std::string::npos)
          << e.what();
    }
  }
}

TEST(CompressedTrace, ARecordingIsReadAsCommittedAndItsTimeUnitIsNamedWhenWrong) {
  // traces/workloads/ holds recordings of ssdvp serve --record: fio v3 iologs in ps, xz-compressed.
  const std::string rec = bundled("workloads/rocksdb-1g.iolog.xz");
  TraceOptions o = fmt(TraceFormat::fio);
  o.fio_time_unit_ps = 1;
  auto w = open_trace(rec, o);
  const auto v = read_all(*w);
  // Its provenance (traces/workloads/rocksdb-1g.json): 5196 records: 4056 writes, 20 reads, 56 trims, 1064 syncs.
  EXPECT_EQ(w->stats().records, 5196u);
  EXPECT_EQ(w->stats().writes, 4056u);
  EXPECT_EQ(w->stats().reads, 20u);
  EXPECT_EQ(w->stats().trims, 56u);
  o.fio_time_unit_ps = 1000000;  // fio's microseconds: a ps recording's times overflow at some line
  o.time_scale = 1e6;
  try {
    read_all(rec, o);
    FAIL() << "a recording's ps timestamps read as us x 1e6 fit in 2^64 ps";
  } catch (const TraceError& e) {
    EXPECT_NE(std::string(e.what()).find("set workload.fio_time_unit_ps: 1"), std::string::npos) << e.what();
  }
}

// --- common behaviour ---------------------------------------------------------

TEST(TraceOptionsTest, TimeScaleMultipliesInterArrivalTimes) {
  TraceOptions o = fmt(TraceFormat::mqsim);
  o.time_scale = 2.5;
  auto v = read_all(fixture("mqsim_basic.ascii"), o);
  ASSERT_EQ(v.size(), 4u);
  EXPECT_EQ(v[0].time_ps, 0u);
  EXPECT_EQ(v[1].time_ps, 3750000u);  // 1.5 us * 2.5
  o.time_scale = 0;
  v = read_all(fixture("mqsim_basic.ascii"), o);
  for (const auto& q : v) EXPECT_EQ(q.time_ps, 0u);
  o.time_scale = -1;
  EXPECT_THROW(open_trace(fixture("mqsim_basic.ascii"), o), std::invalid_argument);
}

TEST(TraceOptionsTest, ParseTraceFormatNamesAndError) {
  EXPECT_EQ(parse_trace_format("mqsim"), TraceFormat::mqsim);
  EXPECT_EQ(parse_trace_format("disksim"), TraceFormat::disksim);
  EXPECT_EQ(parse_trace_format("msr"), TraceFormat::msr);
  EXPECT_EQ(parse_trace_format("systor"), TraceFormat::systor);
  EXPECT_EQ(parse_trace_format("spc"), TraceFormat::spc);
  EXPECT_EQ(parse_trace_format("blkparse"), TraceFormat::blkparse);
  EXPECT_EQ(parse_trace_format("fio"), TraceFormat::fio);
  try {
    parse_trace_format("ascii");
    FAIL();
  } catch (const std::invalid_argument& e) {
    EXPECT_STREQ(e.what(), "unknown trace format 'ascii' (valid: mqsim, disksim, msr, systor, spc, blkparse, fio)");
  }
}

TEST(TraceOptionsTest, MissingFileNamesThePath) {
  try {
    open_trace("/nonexistent/x.csv", fmt(TraceFormat::msr));
    FAIL();
  } catch (const TraceError& e) {
    EXPECT_NE(std::string(e.what()).find("/nonexistent/x.csv: cannot open trace"), std::string::npos);
  }
}

TEST(TraceOptionsTest, DescribeNamesFormatFileAndOptions) {
  TraceOptions o = fmt(TraceFormat::blkparse);
  o.device = 3;
  auto w = open_trace(fixture("blkparse_basic.txt"), o);
  EXPECT_EQ(w->describe(), "blkparse trace '" + fixture("blkparse_basic.txt") +
                               "' (device=3, time_scale=1, skip_zero_length=true, action=Q)");
}

TEST(TraceOptionsTest, RewindRestartsAtTimeZeroAndStatsAccumulate) {
  auto w = open_trace(fixture("fio_v2.log"), fmt(TraceFormat::fio));
  auto a = read_all(*w);
  w->rewind();
  auto b = read_all(*w);
  ASSERT_EQ(a.size(), b.size());
  for (size_t i = 0; i < a.size(); ++i) {
    EXPECT_EQ(a[i].time_ps, b[i].time_ps);
    EXPECT_EQ(a[i].device, b[i].device);
    EXPECT_EQ(a[i].line, b[i].line);
  }
  EXPECT_EQ(w->stats().records, 2 * a.size());
}

TEST(TraceOptionsTest, Utf8ByteOrderMarkIsIgnored) {
  auto v = read_all(temp_trace("\xEF\xBB\xBF"
                               "0 0 0 8 1\n"),
                    fmt(TraceFormat::mqsim));
  ASSERT_EQ(v.size(), 1u);
  EXPECT_EQ(v[0].length, 4096u);
}

TEST(TraceOptionsTest, LongLinesAcrossBufferBoundaries) {
  // Records straddle the reader's 1 MiB buffer boundary many times.
  std::string text;
  uint64_t n = 0;
  while (text.size() < (3u << 20)) {
    text += std::to_string(n * 1000) + " 0 " + std::to_string(n * 8) + " 8 " + (n % 2 ? "1" : "0") + "\n";
    ++n;
  }
  auto v = read_all(temp_trace(text), fmt(TraceFormat::mqsim));
  ASSERT_EQ(v.size(), n);
  for (uint64_t i = 0; i < n; i += 9973) {
    EXPECT_EQ(v[i].time_ps, i * 1000000);
    EXPECT_EQ(v[i].offset, i * 4096);
    EXPECT_EQ(v[i].line, i + 1);
  }
}

// --- detection -------------------------------------------------------------

TEST(TraceDetection, EachFormat) {
  EXPECT_EQ(detect_trace_format(fixture("mqsim_basic.ascii")), TraceFormat::mqsim);
  EXPECT_EQ(detect_trace_format(fixture("mqsim_crlf_nonl.ascii")), TraceFormat::mqsim);
  EXPECT_EQ(detect_trace_format(fixture("disksim_basic.trace")), TraceFormat::disksim);
  EXPECT_EQ(detect_trace_format(fixture("msr_basic.csv")), TraceFormat::msr);
  EXPECT_EQ(detect_trace_format(fixture("systor_header_crlf.csv")), TraceFormat::systor);
  EXPECT_EQ(detect_trace_format(fixture("spc_nonl.spc")), TraceFormat::spc);
  EXPECT_EQ(detect_trace_format(fixture("blkparse_basic.txt")), TraceFormat::blkparse);
  EXPECT_EQ(detect_trace_format(fixture("fio_v2.log")), TraceFormat::fio);
  EXPECT_EQ(detect_trace_format(fixture("fio_v3.log")), TraceFormat::fio);
  EXPECT_EQ(detect_trace_format(bundled("msr_heimdall_rw20_80_105.ascii")), TraceFormat::mqsim);
  EXPECT_EQ(detect_trace_format(bundled("tpcc-small.ascii")), TraceFormat::mqsim);
  // A SYSTOR file without the header.
  EXPECT_EQ(detect_trace_format(temp_trace("1487894400.002834,0.000314,R,3,7560847360,4096\n")), TraceFormat::systor);
}

TEST(TraceDetection, OpenTraceWithDetect) {
  TraceOptions o;
  o.format = TraceFormat::fio;  // ignored with detect
  o.detect = true;
  auto w = open_trace(fixture("msr_basic.csv"), o);
  EXPECT_EQ(read_all(*w).size(), 4u);
  EXPECT_EQ(w->describe().rfind("msr trace", 0), 0u);
}

TEST(TraceDetection, UnknownFormatSaysWhatItTried) {
  const std::string path = fixture("unknown_format.txt");
  try {
    detect_trace_format(path);
    FAIL();
  } catch (const TraceError& e) {
    const std::string m = e.what();
    EXPECT_NE(m.find(path + ": could not tell the trace format"), std::string::npos) << m;
    EXPECT_NE(m.find("tried fio, systor, msr, spc, blkparse, disksim, mqsim"), std::string::npos) << m;
    EXPECT_NE(m.find("mqsim: " + path + ":1: expected 5 blank-separated fields"), std::string::npos) << m;
  }
  EXPECT_THROW(detect_trace_format(temp_trace("\n\n  \n")), TraceError);
}

// --- looping -----------------------------------------------------------------

TEST(LoopedWorkload, TimesContinueAfterTheMeanGap) {
  // mqsim_basic: times 0, 1.5us, 1.5us, 1.5us -> mean gap 1.5us / 3 = 0.5us.
  auto w = make_looped(open_trace(fixture("mqsim_basic.ascii"), fmt(TraceFormat::mqsim)), 3);
  auto v = read_all(*w);
  ASSERT_EQ(v.size(), 12u);
  EXPECT_EQ(v[3].time_ps, 1500000u);
  EXPECT_EQ(v[4].time_ps, 2000000u);  // 1.5us + 0.5us
  EXPECT_EQ(v[4].line, 1u);
  EXPECT_EQ(v[5].time_ps, 3500000u);
  EXPECT_EQ(v[8].time_ps, 4000000u);  // second pass ends at 3.5us; + 0.5us
  EXPECT_EQ(v[11].time_ps, 5500000u);
  EXPECT_EQ(w->stats().records, 12u);
  for (size_t i = 1; i < v.size(); ++i) EXPECT_GE(v[i].time_ps, v[i - 1].time_ps);
  IoRequest q;
  EXPECT_FALSE(w->next(q));
  EXPECT_NE(w->describe().find("looped 3 times"), std::string::npos);
}

TEST(LoopedWorkload, QuietTimeBetweenPasses) {
  // As TimesContinueAfterTheMeanGap, with 10us of quiet (workload.loop_gap) before passes 2 and 3.
  auto w = make_looped(open_trace(fixture("mqsim_basic.ascii"), fmt(TraceFormat::mqsim)), 3, 10000000);
  auto v = read_all(*w);
  ASSERT_EQ(v.size(), 12u);
  EXPECT_EQ(v[3].time_ps, 1500000u);
  EXPECT_EQ(v[4].time_ps, 12000000u);  // 1.5us + 0.5us + 10us
  EXPECT_EQ(v[7].time_ps, 13500000u);
  EXPECT_EQ(v[8].time_ps, 24000000u);  // second pass ends at 13.5us; + 0.5us + 10us
  EXPECT_EQ(v[11].time_ps, 25500000u);
  EXPECT_NE(w->describe().find("10000000 ps quiet between passes"), std::string::npos);
  w->rewind();  // a rewind starts again at time 0
  IoRequest q;
  ASSERT_TRUE(w->next(q));
  EXPECT_EQ(q.time_ps, 0u);
}

// A loop gap that would carry the next pass past 2^64 ps is a TraceError naming the pass, not a wrapped time.
TEST(LoopedWorkload, AGapPastTwoToTheSixtyFourIsAnError) {
  auto w = make_looped(open_trace(fixture("mqsim_basic.ascii"), fmt(TraceFormat::mqsim)), 0, UINT64_MAX / 3);
  IoRequest q;
  uint64_t last = 0;
  try {
    for (int i = 0; i < 100; ++i) {
      ASSERT_TRUE(w->next(q));
      EXPECT_GE(q.time_ps, last);
      last = q.time_ps;
    }
    FAIL() << "no error after 100 records";
  } catch (const TraceError& e) {
    EXPECT_NE(std::string(e.what()).find("passes 2^64 ps in pass 4"), std::string::npos) << e.what();
  }
}

TEST(LoopedWorkload, ForeverAndEmpty) {
  auto w = make_looped(open_trace(fixture("disksim_basic.trace"), fmt(TraceFormat::disksim)), 0);
  IoRequest q;
  uint64_t last = 0;
  for (int i = 0; i < 1000; ++i) {
    ASSERT_TRUE(w->next(q));
    EXPECT_GE(q.time_ps, last);
    last = q.time_ps;
  }
  // 250 passes of 12.5 ms plus 249 mean gaps of 12.5/3 ms (floor in ps).
  EXPECT_EQ(last, 249 * (12500000000ull + 12500000000ull / 3) + 12500000000ull);
  auto empty = make_looped(open_trace(temp_trace("\n"), fmt(TraceFormat::mqsim)), 0);
  EXPECT_FALSE(empty->next(q));
}

// --- reads and writes swapped (workload.swap_reads_writes) --------------------

TEST(SwappedWorkload, ReadsBecomeWritesAndWritesReadsAndNothingElseMoves) {
  auto plain = read_all(*open_trace(bundled("msr_heimdall_rw20_80_105.ascii"), fmt(TraceFormat::mqsim)));
  auto w = make_swapped(open_trace(bundled("msr_heimdall_rw20_80_105.ascii"), fmt(TraceFormat::mqsim)));
  auto v = read_all(*w);
  ASSERT_EQ(v.size(), plain.size());
  uint64_t reads = 0;
  for (size_t i = 0; i < v.size(); ++i) {
    EXPECT_EQ(v[i].op, plain[i].op == IoOp::read ? IoOp::write : IoOp::read) << i;
    EXPECT_EQ(v[i].offset, plain[i].offset);
    EXPECT_EQ(v[i].length, plain[i].length);
    EXPECT_EQ(v[i].time_ps, plain[i].time_ps);
    reads += v[i].op == IoOp::read;
  }
  EXPECT_EQ(reads, 7980u);  // the file's writes
  EXPECT_NE(w->describe().find("swapped"), std::string::npos);
  w->rewind();
  IoRequest q;
  ASSERT_TRUE(w->next(q));
  EXPECT_EQ(q.op, plain[0].op == IoOp::read ? IoOp::write : IoOp::read);
}

// A recording's mkfs discard: the trims before the first write dropped, the
// later ones kept, and again on every pass (workload.leading_discards: drop).
TEST(WithoutLeadingDiscards, DropsOnlyTheTrimsBeforeTheFirstWriteOnEveryPass) {
  const std::string log =
      "fio version 3 iolog\n"
      "0 /dev/nbd0 add\n"
      "0 /dev/nbd0 open\n"
      "10 /dev/nbd0 trim 0 1048576\n"
      "20 /dev/nbd0 trim 1048576 1048576\n"
      "30 /dev/nbd0 read 0 4096\n"
      "40 /dev/nbd0 write 8192 4096\n"
      "50 /dev/nbd0 trim 8192 4096\n"
      "60 /dev/nbd0 write 0 4096\n";
  const std::string path = temp_trace(log, ".iolog");
  TraceOptions o = fmt(TraceFormat::fio);
  o.fio_time_unit_ps = 1;
  const auto plain = read_all(*open_trace(path, o));
  ASSERT_EQ(plain.size(), 6u);
  auto w = make_without_leading_discards(open_trace(path, o));
  for (int pass = 0; pass < 2; ++pass) {
    const auto v = read_all(*w);
    ASSERT_EQ(v.size(), 4u) << pass;
    EXPECT_EQ(v[0].op, IoOp::read);             // a read before the first write stays
    EXPECT_EQ(v[0].time_ps, plain[2].time_ps);  // times as read (relative to the first record)
    EXPECT_EQ(v[1].op, IoOp::write);
    EXPECT_EQ(v[2].op, IoOp::trim);  // after the first write: kept
    EXPECT_EQ(v[2].offset, 8192u);
    EXPECT_EQ(v[3].op, IoOp::write);
    w->rewind();
  }
  const WorkloadStats& st = w->stats();
  EXPECT_EQ(st.skipped_dropped, 4u);  // two a pass
  EXPECT_EQ(st.records, 12u - 4u);
  EXPECT_EQ(st.trims, 6u - 4u);
  EXPECT_EQ(st.trim_bytes, 2u * 4096u);
  EXPECT_EQ(st.skipped(), st.skipped_unsupported + 4u);
  EXPECT_NE(w->describe().find("discards before the first write dropped"), std::string::npos);
}

// --- the bundled real traces ------------------------------------------------

TEST(BundledTraces, MsrHeimdallEndToEnd) {
  auto w = open_trace(bundled("msr_heimdall_rw20_80_105.ascii"), fmt(TraceFormat::mqsim));
  IoRequest q, last;
  uint64_t n = 0;
  while (w->next(q)) {
    if (n) {
      EXPECT_GE(q.time_ps, last.time_ps);
    }
    EXPECT_EQ(q.offset % 512, 0u);
    last = q;
    ++n;
  }
  EXPECT_EQ(n, 10000u);
  EXPECT_EQ(w->stats().reads, 2020u);
  EXPECT_EQ(w->stats().writes, 7980u);
  EXPECT_EQ(w->stats().skipped(), 0u);
  EXPECT_EQ(w->stats().clamped, 0u);
  // Last line: "242904693000 0 1998977 15 0"
  expect_req(last, 242904693000000ull, 1998977ull * 512, 15 * 512, IoOp::write, 0, 10000);
}

TEST(BundledTraces, TpccRebasedAndDeviceFilter) {
  auto all = read_all(bundled("tpcc-small.ascii"), fmt(TraceFormat::mqsim));
  ASSERT_EQ(all.size(), 6999u);
  // First line "938513000 4 264719034 16 0", last "1075002000 7 160057354 16 0".
  expect_req(all.front(), 0, 264719034ull * 512, 16 * 512, IoOp::write, 4, 1);
  expect_req(all.back(), (1075002000ull - 938513000ull) * 1000, 160057354ull * 512, 16 * 512, IoOp::write, 7, 6999);
  TraceOptions o = fmt(TraceFormat::mqsim);
  o.device = 8;
  auto w = open_trace(bundled("tpcc-small.ascii"), o);
  EXPECT_EQ(read_all(*w).size(), 150u);
  EXPECT_EQ(w->stats().skipped_device, 6999u - 150u);
}

}  // namespace
