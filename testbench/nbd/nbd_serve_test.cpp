// nbd_serve_test.cpp - `ssdvp serve` (the real binary, SSDVP_BIN) driven by a
// small NBD client written here: bytes read back as written, every kind of
// bad request answered with the protocol's error while the connection goes
// on, option negotiation, several clients at once, a client that disconnects
// inside a request, loopback-only listening, and a recorded session that
// `ssdvp run` replays to identical simulated results.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "nbd/nbd_proto.h"
#include "run_command.h"

namespace fs = std::filesystem;
using namespace ssdvp::nbd;

namespace {

const std::string kConfig = SSDVP_SOURCE_DIR "/configs/nbd.yaml";

// `ssdvp serve` in the background on a Unix socket in dir.
class Server {
 public:
  Server(const fs::path& dir, const std::string& args) : dir_(dir), sock_(dir / "nbd.sock") {
    const std::string cmd = std::string("exec '") + SSDVP_BIN + "' serve -c '" + kConfig +
                            "' --listen 'unix:" + sock_.string() + "' -o '" + (dir / "out").string() + "' " + args +
                            " >'" + (dir / "serve.out").string() + "' 2>'" + (dir / "serve.err").string() + "'";
    pid_ = ::fork();
    if (pid_ == 0) {
      ::setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1", 1);
      ::execl("/bin/sh", "sh", "-c", cmd.c_str(), static_cast<char*>(nullptr));
      ::_exit(127);
    }
    for (int i = 0; i < 600 && !fs::exists(sock_); ++i) {
      int st = 0;
      if (::waitpid(pid_, &st, WNOHANG) == pid_) {  // refused its config: exited without listening
        pid_ = -1;
        early_exit_ = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
        break;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
  }
  ~Server() {
    if (pid_ > 0) {
      ::kill(pid_, SIGKILL);
      ::waitpid(pid_, nullptr, 0);
    }
  }
  const fs::path& sock() const { return sock_; }
  int wait_exit(bool terminate) {
    if (pid_ <= 0) return early_exit_;
    if (terminate) ::kill(pid_, SIGTERM);
    int st = 0;
    for (int i = 0; i < 1200; ++i) {  // at most a minute
      if (::waitpid(pid_, &st, WNOHANG) == pid_) {
        pid_ = -1;
        return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    return -2;
  }
  nlohmann::json summary() const { return nlohmann::json::parse(ssdvp_test::slurp(dir_ / "out" / "summary.json")); }
  std::string err() const { return ssdvp_test::slurp(dir_ / "serve.err"); }

 private:
  fs::path dir_, sock_;
  pid_t pid_ = -1;
  int early_exit_ = -2;  // the exit status when it ended before listening
};

bool read_n(int fd, void* p, size_t n) {
  auto* b = static_cast<uint8_t*>(p);
  while (n) {
    const ssize_t r = ::recv(fd, b, n, 0);
    if (r <= 0) return false;
    b += r;
    n -= size_t(r);
  }
  return true;
}
bool write_n(int fd, const void* p, size_t n) {
  auto* b = static_cast<const uint8_t*>(p);
  while (n) {
    const ssize_t r = ::send(fd, b, n, MSG_NOSIGNAL);
    if (r <= 0) return false;
    b += r;
    n -= size_t(r);
  }
  return true;
}

class Client {
 public:
  explicit Client(const fs::path& sock) {
    sockaddr_un a{};
    a.sun_family = AF_UNIX;
    std::strncpy(a.sun_path, sock.c_str(), sizeof a.sun_path - 1);
    // The socket file appears at the server's bind(), connections succeed
    // from its listen(): on a loaded machine a client can come in between
    // (ECONNREFUSED), so it tries again for up to 10 s, on a fresh socket.
    for (int i = 0; i < 400; ++i) {
      fd_ = ::socket(AF_UNIX, SOCK_STREAM, 0);
      timeval tv{30, 0};  // a hung server fails the test instead of hanging it
      ::setsockopt(fd_, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
      connected_ = ::connect(fd_, reinterpret_cast<sockaddr*>(&a), sizeof a) == 0;
      if (connected_ || (errno != ECONNREFUSED && errno != ENOENT)) break;
      ::close(fd_);
      std::this_thread::sleep_for(std::chrono::milliseconds(25));
    }
  }
  ~Client() { ::close(fd_); }
  int fd() const { return fd_; }
  // Greeting and client flags.
  bool hello() {
    uint8_t g[18];
    if (!connected_ || !read_n(fd_, g, sizeof g)) return false;
    if (get64(g) != kNbdMagic || get64(g + 8) != kOptMagic) return false;
    std::vector<uint8_t> f;
    put32(f, kClientFixedNewstyle | kClientNoZeroes);
    return write_n(fd_, f.data(), f.size());
  }
  void option(uint32_t opt, const std::vector<uint8_t>& data) {
    std::vector<uint8_t> b;
    put64(b, kOptMagic);
    put32(b, opt);
    put32(b, uint32_t(data.size()));
    b.insert(b.end(), data.begin(), data.end());
    write_n(fd_, b.data(), b.size());
  }
  // One option reply: type and data (type 0 when the connection closed).
  std::pair<uint32_t, std::vector<uint8_t>> option_reply() {
    uint8_t h[20];
    if (!read_n(fd_, h, sizeof h) || get64(h) != kRepMagic) return {0, {}};
    std::vector<uint8_t> d(get32(h + 16));
    if (!d.empty() && !read_n(fd_, d.data(), d.size())) return {0, {}};
    return {get32(h + 12), d};
  }
  static std::vector<uint8_t> info_data(const std::string& name) {
    std::vector<uint8_t> d;
    put32(d, uint32_t(name.size()));
    d.insert(d.end(), name.begin(), name.end());
    put16(d, 1);
    put16(d, INFO_BLOCK_SIZE);
    return d;
  }
  // hello + NBD_OPT_GO; the export size (0 on failure).
  uint64_t go(const std::string& name = "ssdvp") {
    if (!hello()) return 0;
    option(OPT_GO, info_data(name));
    uint64_t size = 0;
    for (;;) {
      auto [type, d] = option_reply();
      if (type == REP_INFO && d.size() >= 12 && get16(d.data()) == INFO_EXPORT) size = get64(d.data() + 2);
      if (type == REP_INFO && d.size() >= 14 && get16(d.data()) == INFO_BLOCK_SIZE) min_block = get32(d.data() + 2);
      if (type != REP_INFO) return type == REP_ACK ? size : 0;
    }
  }
  void send(uint16_t type, uint64_t off, uint32_t len, uint16_t flags, uint64_t cookie, const uint8_t* data = nullptr) {
    Request r;
    r.type = type, r.offset = off, r.length = len, r.flags = flags, r.cookie = cookie;
    auto b = request_bytes(r);
    if (data) b.insert(b.end(), data, data + len);
    write_n(fd_, b.data(), b.size());
  }
  // One simple reply; a successful read's data into *data (read_len bytes).
  bool reply(uint64_t* cookie, uint32_t* error, std::vector<uint8_t>* data = nullptr, uint32_t read_len = 0) {
    uint8_t h[kSimpleReplyHeader];
    if (!read_n(fd_, h, sizeof h) || get32(h) != kSimpleReplyMagic) return false;
    *error = get32(h + 4);
    *cookie = get64(h + 8);
    if (data && *error == 0 && read_len) {
      data->resize(read_len);
      return read_n(fd_, data->data(), read_len);
    }
    return true;
  }
  uint32_t cmd(uint16_t type, uint64_t off, uint32_t len, uint16_t flags = 0, const uint8_t* data = nullptr,
               std::vector<uint8_t>* out = nullptr) {
    send(type, off, len, flags, ++cookie_, data);
    uint64_t c = 0;
    uint32_t e = 0xffffffffu;
    if (!reply(&c, &e, out, type == CMD_READ ? len : 0) || c != cookie_) return 0xffffffffu;
    return e;
  }
  void disc() { send(CMD_DISC, 0, 0, 0, ++cookie_); }
  uint32_t min_block = 0;

 private:
  int fd_ = -1;
  bool connected_ = false;
  uint64_t cookie_ = 0;
};

std::vector<uint8_t> random_bytes(size_t n, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<uint8_t> v(n);
  for (auto& x : v) x = uint8_t(rng());
  return v;
}

fs::path scratch(const std::string& name) { return ssdvp_test::scratch("ssdvp_nbd", name); }

}  // namespace

TEST(NbdServe, BytesReadBackAsWrittenAndBadRequestsGetTheirErrors) {
  const fs::path d = scratch("data");
  Server srv(d, "--set nbd.max_payload=256KiB");
  Client c(srv.sock());
  const uint64_t size = c.go();
  ASSERT_EQ(size, 896ull << 20) << srv.err();
  EXPECT_EQ(c.min_block, 4096u);
  const auto a = random_bytes(3 * 4096, 1), b = random_bytes(64 * 4096, 2);
  std::vector<uint8_t> got;
  EXPECT_EQ(c.cmd(CMD_WRITE, 40960, uint32_t(a.size()), CMD_FLAG_FUA, a.data()), 0u);
  EXPECT_EQ(c.cmd(CMD_WRITE, 100 << 20, uint32_t(b.size()), 0, b.data()), 0u);
  EXPECT_EQ(c.cmd(CMD_READ, 40960, uint32_t(a.size()), 0, nullptr, &got), 0u);
  EXPECT_EQ(got, a);
  EXPECT_EQ(c.cmd(CMD_READ, 100 << 20, uint32_t(b.size()), 0, nullptr, &got), 0u);
  EXPECT_EQ(got, b);
  // overwrite the middle page, read across all three
  const auto m = random_bytes(4096, 3);
  EXPECT_EQ(c.cmd(CMD_WRITE, 45056, 4096, 0, m.data()), 0u);
  EXPECT_EQ(c.cmd(CMD_READ, 40960, uint32_t(a.size()), 0, nullptr, &got), 0u);
  auto want = a;
  std::copy(m.begin(), m.end(), want.begin() + 4096);
  EXPECT_EQ(got, want);
  // never written (preconditioned content) and trimmed/zeroed ranges read as zeros
  EXPECT_EQ(c.cmd(CMD_READ, 500 << 20, 8192, 0, nullptr, &got), 0u);
  EXPECT_EQ(got, std::vector<uint8_t>(8192, 0));
  EXPECT_EQ(c.cmd(CMD_TRIM, 40960, 4096), 0u);
  EXPECT_EQ(c.cmd(CMD_WRITE_ZEROES, 49152, 4096, CMD_FLAG_NO_HOLE | CMD_FLAG_FUA), 0u);
  EXPECT_EQ(c.cmd(CMD_READ, 40960, uint32_t(a.size()), 0, nullptr, &got), 0u);
  want = std::vector<uint8_t>(a.size(), 0);
  std::copy(m.begin(), m.end(), want.begin() + 4096);
  EXPECT_EQ(got, want);
  EXPECT_EQ(c.cmd(CMD_FLUSH, 0, 0), 0u);
  // bad requests: each answered, the connection goes on
  EXPECT_EQ(c.cmd(CMD_READ, size, 4096), uint32_t(E_INVAL));
  const auto big = random_bytes(8192, 4);
  EXPECT_EQ(c.cmd(CMD_WRITE, size - 4096, 8192, 0, big.data()), uint32_t(E_NOSPC));
  EXPECT_EQ(c.cmd(CMD_READ, 512, 4096), uint32_t(E_INVAL));
  EXPECT_EQ(c.cmd(CMD_READ, 0, 512 << 10), uint32_t(E_INVAL));  // beyond nbd.max_payload
  EXPECT_EQ(c.cmd(CMD_BLOCK_STATUS, 0, 4096), uint32_t(E_INVAL));
  EXPECT_EQ(c.cmd(CMD_READ, 0, 4096, CMD_FLAG_FUA), uint32_t(E_INVAL));
  EXPECT_EQ(c.cmd(CMD_READ, 0, 0), 0u);
  EXPECT_EQ(c.cmd(CMD_READ, 100 << 20, 4096, 0, nullptr, &got), 0u);
  EXPECT_TRUE(std::equal(got.begin(), got.end(), b.begin()));
  c.disc();
  ASSERT_EQ(srv.wait_exit(false), 0) << srv.err();  // the last client left: the session ends
  const auto j = srv.summary();
  EXPECT_EQ(j["integrity"]["mismatches"], 0);
  EXPECT_GT(j["integrity"]["reads_checked"].get<uint64_t>(), 60u);
  EXPECT_EQ(j["nbd"]["store"]["poisoned_reads"], 0);
  EXPECT_EQ(j["nbd"]["io_errors"], 0);
  EXPECT_EQ(j["nbd"]["zero_length"], 1);
  EXPECT_EQ(j["nbd"]["rejected"]["beyond the end of the export"], 2);
  EXPECT_EQ(j["nbd"]["fua_flushes"], 2);
  EXPECT_GT(j["host"]["flushes"].get<uint64_t>(), 2u);
}

// A client's writes go through the run's workload layers as a trace's do:
// with host.streams set, the drive sees them on streams (ssdvp serve used to
// pass live requests around the layers, so every write arrived untagged).
TEST(NbdServe, StreamLayersTagLiveWrites) {
  const fs::path d = scratch("streams");
  Server srv(d, "--set host.streams=random --set ftl.placement.policy=stream --set ftl.hot.classes=4");
  Client c(srv.sock());
  ASSERT_TRUE(c.go()) << srv.err();
  const auto a = random_bytes(4096, 7);
  for (uint64_t i = 0; i < 64; ++i) EXPECT_EQ(c.cmd(CMD_WRITE, (i * 37 % 4096) << 12, 4096, 0, a.data()), 0u);
  EXPECT_EQ(c.cmd(CMD_FLUSH, 0, 0), 0u);
  c.disc();
  ASSERT_EQ(srv.wait_exit(false), 0) << srv.err();
  const auto j = srv.summary();
  EXPECT_EQ(j["integrity"]["mismatches"], 0);
  // class_by_stream[class][stream]: writes by the class they went to and the stream they came on (0: none)
  const auto& by = j["placement"]["class_by_stream"];
  ASSERT_EQ(by.size(), 4u) << j["placement"].dump();
  std::vector<uint64_t> per_stream(by[0].size(), 0);
  for (const auto& row : by)
    for (size_t s = 0; s < row.size(); ++s) per_stream[s] += row[s].get<uint64_t>();
  EXPECT_EQ(per_stream[0], 0u) << by.dump();  // none untagged
  uint64_t tagged = 0, streams_used = 0;
  for (size_t s = 1; s < per_stream.size(); ++s) {
    tagged += per_stream[s];
    streams_used += per_stream[s] > 0;
  }
  EXPECT_EQ(tagged, 64u) << by.dump();
  EXPECT_GE(streams_used, 3u) << by.dump();  // random over streams 1..4
}

// The oracle reads the whole workload ahead: a client's is not known, so
// serve refuses it by name.
TEST(NbdServe, OracleStreamsAreRefused) {
  const fs::path d = scratch("oracle");
  Server srv(d, "--set host.streams=oracle --set ftl.placement.policy=stream --set ftl.hot.classes=4");
  EXPECT_NE(srv.wait_exit(false), 0);
  EXPECT_NE(srv.err().find("host.streams"), std::string::npos) << srv.err();
}

TEST(NbdServe, OptionNegotiation) {
  const fs::path d = scratch("options");
  Server srv(d, "--set nbd.persistent=true");
  {
    Client c(srv.sock());
    ASSERT_TRUE(c.hello()) << srv.err();
    c.option(OPT_LIST, {});
    auto [t, data] = c.option_reply();
    ASSERT_EQ(t, REP_SERVER);
    ASSERT_GE(data.size(), 4u);
    EXPECT_EQ(std::string(data.begin() + 4, data.end()), "ssdvp");
    EXPECT_EQ(c.option_reply().first, REP_ACK);
    c.option(OPT_LIST, {1, 2, 3});
    EXPECT_EQ(c.option_reply().first, REP_ERR_INVALID);
    c.option(OPT_INFO, Client::info_data("nosuch"));
    EXPECT_EQ(c.option_reply().first, REP_ERR_UNKNOWN);
    c.option(OPT_INFO, {0, 0, 0, 9});  // name length beyond the data
    EXPECT_EQ(c.option_reply().first, REP_ERR_INVALID);
    c.option(OPT_STRUCTURED_REPLY, {});
    EXPECT_EQ(c.option_reply().first, REP_ERR_UNSUP);
    c.option(OPT_INFO, Client::info_data(""));  // the default export
    uint32_t t2;
    do t2 = c.option_reply().first;
    while (t2 == REP_INFO);
    EXPECT_EQ(t2, REP_ACK);
    c.option(OPT_ABORT, {});
    EXPECT_EQ(c.option_reply().first, REP_ACK);
  }
  {  // the oldest fixed-newstyle path: NBD_OPT_EXPORT_NAME
    Client c(srv.sock());
    ASSERT_TRUE(c.hello());
    c.option(OPT_EXPORT_NAME, {'s', 's', 'd', 'v', 'p'});
    uint8_t info[10];
    ASSERT_TRUE(read_n(c.fd(), info, sizeof info));
    EXPECT_EQ(get64(info), 896ull << 20);
    EXPECT_TRUE(get16(info + 8) & TF_SEND_FUA);
    EXPECT_EQ(c.cmd(CMD_FLUSH, 0, 0), 0u);
    c.disc();
  }
  EXPECT_EQ(srv.wait_exit(true), 0) << srv.err();
}

TEST(NbdServe, SeveralClientsAtOnceAndHostileOnes) {
  const fs::path d = scratch("clients");
  Server srv(d, "--set nbd.persistent=true");
  const uint32_t chunk = 32 * 4096;
  std::vector<std::thread> ts;
  std::vector<int> ok(4, 0);
  for (int k = 0; k < 4; ++k)
    ts.emplace_back([&, k] {
      Client c(srv.sock());
      if (!c.go()) return;
      int good = 0;
      for (int i = 0; i < 8; ++i) {
        const uint64_t off = (uint64_t(k) * 8 + uint64_t(i)) * chunk;
        const auto v = random_bytes(chunk, uint64_t(k * 100 + i));
        std::vector<uint8_t> got;
        good += c.cmd(CMD_WRITE, off, chunk, 0, v.data()) == 0 && c.cmd(CMD_READ, off, chunk, 0, nullptr, &got) == 0 &&
                got == v;
      }
      ok[size_t(k)] = good;
      c.disc();
    });
  {  // disconnects inside a write's payload
    Client h(srv.sock());
    ASSERT_TRUE(h.go());
    Request r;
    r.type = CMD_WRITE, r.offset = 0, r.length = chunk, r.cookie = 7;
    auto b = request_bytes(r);
    b.resize(b.size() + 1000, 0xab);
    write_n(h.fd(), b.data(), b.size());
  }
  {  // garbage instead of a request: the server closes the connection
    Client h(srv.sock());
    ASSERT_TRUE(h.go());
    const std::string junk = "GET / HTTP/1.1\r\nHost: localhost\r\nAccept: */*\r\n\r\n";
    write_n(h.fd(), junk.data(), junk.size());
    uint8_t x;
    EXPECT_LE(::recv(h.fd(), &x, 1, 0), 0);
  }
  {  // garbage instead of the handshake
    Client h(srv.sock());
    uint8_t g[18];
    ASSERT_TRUE(read_n(h.fd(), g, sizeof g));
    write_n(h.fd(), "\xff\xff\xff\xff", 4);
    uint8_t x;
    EXPECT_LE(::recv(h.fd(), &x, 1, 0), 0);
  }
  for (auto& t : ts) t.join();
  for (int k = 0; k < 4; ++k) EXPECT_EQ(ok[size_t(k)], 8) << "client " << k;
  {  // a later client sees every client's data; the aborted write wrote nothing
    Client c(srv.sock());
    ASSERT_TRUE(c.go());
    for (int k = 0; k < 4; ++k) {
      std::vector<uint8_t> got;
      const uint64_t off = (uint64_t(k) * 8 + 7) * chunk;
      ASSERT_EQ(c.cmd(CMD_READ, off, chunk, 0, nullptr, &got), 0u);
      EXPECT_EQ(got, random_bytes(chunk, uint64_t(k * 100 + 7)));
    }
    c.disc();
  }
  ASSERT_EQ(srv.wait_exit(true), 0) << srv.err();
  const auto j = srv.summary();
  EXPECT_EQ(j["integrity"]["mismatches"], 0);
  EXPECT_EQ(j["nbd"]["clients"], 8);
  EXPECT_EQ(j["nbd"]["handshake_failures"], 1);
  EXPECT_EQ(j["nbd"]["rejected"]["disconnected inside a write's payload"], 1);
  EXPECT_EQ(j["nbd"]["rejected"]["bad request magic (connection closed)"], 1);
}

TEST(NbdServe, ListensOnLoopbackOnlyUnlessAllowed) {
  const fs::path d = scratch("loopback");
  auto r = ssdvp_test::run_command(d, std::string("'") + SSDVP_BIN + "' serve -c '" + kConfig +
                                          "' --listen tcp:0.0.0.0:10809 -o '" + (d / "out").string() + "'");
  EXPECT_EQ(r.code, 2) << r.err;
  EXPECT_TRUE(ssdvp_test::contains(r.err, "nbd.allow_remote")) << r.err;
  r = ssdvp_test::run_command(d, std::string("'") + SSDVP_BIN + "' serve -c '" + kConfig + "' --listen bogus -o '" +
                                     (d / "out").string() + "'");
  EXPECT_EQ(r.code, 2) << r.err;
  EXPECT_TRUE(ssdvp_test::contains(r.err, "--listen")) << r.err;
}

// A session with overlapping, pipelined requests of every kind, recorded and
// replayed by `ssdvp run`: the same simulated results to the picosecond.
TEST(NbdServe, RecordedSessionReplaysToIdenticalResults) {
  const fs::path d = scratch("record");
  const fs::path rec = d / "session.iolog";
  {
    Server srv(d, "--record '" + rec.string() + "'");
    Client c(srv.sock());
    ASSERT_TRUE(c.go()) << srv.err();
    std::mt19937_64 rng(5);
    uint64_t cookie = 1000;
    for (int burst = 0; burst < 40; ++burst) {
      const int n = 1 + int(rng() % 16);
      std::map<uint64_t, uint32_t> lens;  // reads by cookie
      for (int i = 0; i < n; ++i) {
        const uint64_t off = (rng() % 4096) * 4096;
        const uint32_t len = uint32_t(1 + rng() % 16) * 4096;
        const unsigned kind = unsigned(rng() % 10);
        ++cookie;
        if (kind < 4) {
          c.send(CMD_READ, off, len, 0, cookie);
          lens[cookie] = len;
        } else if (kind < 8) {
          const auto v = random_bytes(len, cookie);
          c.send(CMD_WRITE, off, len, kind == 7 ? CMD_FLAG_FUA : 0, cookie, v.data());
        } else if (kind == 8) {
          c.send(CMD_TRIM, off, len, 0, cookie);
        } else {
          c.send(CMD_FLUSH, 0, 0, 0, cookie);
        }
      }
      // replies come in any order; a read's data follows its header
      for (int i = 0; i < n; ++i) {
        uint8_t h[kSimpleReplyHeader];
        ASSERT_TRUE(read_n(c.fd(), h, sizeof h));
        ASSERT_EQ(get32(h + 4), 0u);
        auto it = lens.find(get64(h + 8));
        if (it != lens.end()) {
          std::vector<uint8_t> data(it->second);
          ASSERT_TRUE(read_n(c.fd(), data.data(), data.size()));
        }
      }
    }
    c.disc();
    ASSERT_EQ(srv.wait_exit(false), 0) << srv.err();
    const auto live = srv.summary();
    const fs::path d2 = d / "replay";
    fs::create_directories(d2);
    const auto r = ssdvp_test::run_command(
        d2, std::string("'") + SSDVP_BIN + "' run -c '" + kConfig + "' --trace '" + rec.string() +
                "' --trace-format fio --set workload.fio_time_unit_ps=1 -o '" + (d2 / "out").string() + "'");
    ASSERT_EQ(r.code, 0) << r.err;
    const auto rep = nlohmann::json::parse(ssdvp_test::slurp(d2 / "out" / "summary.json"));
    EXPECT_GT(live["workload"]["requests"].get<uint64_t>(), 200u);
    EXPECT_EQ(live["workload"]["requests"], rep["workload"]["requests"]);
    for (const char* k : {"reads", "writes", "trims", "flushes", "sim_time_s", "iops"})
      EXPECT_EQ(live["host"][k], rep["host"][k]) << k;
    for (const char* op : {"read", "write"})
      for (const char* k : {"count", "mean", "p50", "p99", "max"})
        EXPECT_EQ(live["latency_us"][op][k], rep["latency_us"][op][k]) << op << " " << k;
    EXPECT_EQ(live["ftl"], rep["ftl"]);
    EXPECT_EQ(live["integrity"], rep["integrity"]);
    EXPECT_EQ(live["flash"], rep["flash"]);
  }
  // the times file: one row per request with simulated and wall times
  const std::string times = ssdvp_test::slurp(rec.string() + ".times.csv");
  EXPECT_TRUE(ssdvp_test::contains(times, "sim_arrival_ps,sim_done_ps,wall_arrival_us,wall_reply_us"));
}

// Issue 35: a connection that never completes the handshake (an HTTP probe)
// does not end a non-persistent server; the first real client does, when it
// leaves.
TEST(NbdServe, StrayConnectionBeforeTheFirstClientDoesNotEndTheServer) {
  const fs::path d = scratch("stray");
  Server srv(d, "");
  {
    Client h(srv.sock());
    uint8_t g[18];
    ASSERT_TRUE(read_n(h.fd(), g, sizeof g));
    const std::string junk = "GET / HTTP/1.1\r\nHost: localhost\r\n\r\n";
    write_n(h.fd(), junk.data(), junk.size());
    uint8_t x;
    EXPECT_LE(::recv(h.fd(), &x, 1, 0), 0);  // closed by the server
  }
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  Client c(srv.sock());
  ASSERT_GT(c.go(), 0u) << srv.err();  // the server is still there
  EXPECT_EQ(c.cmd(CMD_READ, 0, 4096), 0u);
  c.disc();
  ASSERT_EQ(srv.wait_exit(false), 0) << srv.err();
  EXPECT_EQ(srv.summary()["nbd"]["clients"].get<uint64_t>(), 2u);
}
