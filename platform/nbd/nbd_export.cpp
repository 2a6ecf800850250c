// nbd_export.cpp - see nbd_export.h and docs/models/nbd.md.
#include "nbd/nbd_export.h"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <stdexcept>

#include "host/host_driver.h"
#include "run/simulation.h"
#include "soc/ssd_soc.h"

namespace ssdvp::nbd {

// One client connection. Its reader thread owns reading; replies are written
// under wmu by the reader (errors it answers itself) or the simulation thread.
struct Session {
  int fd = -1;
  uint64_t id = 0;
  std::mutex wmu;
  bool dead = false;  // (wmu) the socket failed or was closed
  std::mutex imu;
  std::condition_variable icv;
  uint32_t inflight = 0;  // (imu) requests queued or in the drive
  bool closing = false;   // (imu) the server is shutting down
  bool send(const uint8_t* a, size_t na, const uint8_t* b = nullptr, size_t nb = 0) {
    std::lock_guard<std::mutex> l(wmu);
    for (auto [p, n] : {std::pair<const uint8_t*, size_t>{a, na}, {b, nb}}) {
      while (!dead && n > 0) {
        const ssize_t w = ::send(fd, p, n, MSG_NOSIGNAL);
        if (w < 0 && errno == EINTR) continue;
        if (w <= 0) {
          dead = true;
          break;
        }
        p += w;
        n -= size_t(w);
      }
    }
    return !dead;
  }
  bool send(const std::vector<uint8_t>& v) { return send(v.data(), v.size()); }
  void done_one() {
    std::lock_guard<std::mutex> l(imu);
    --inflight;
    icv.notify_all();
  }
};

namespace {

bool read_full(int fd, void* buf, size_t n) {
  auto* p = static_cast<uint8_t*>(buf);
  while (n > 0) {
    const ssize_t r = ::recv(fd, p, n, 0);
    if (r < 0 && errno == EINTR) continue;
    if (r <= 0) return false;
    p += r;
    n -= size_t(r);
  }
  return true;
}

bool discard(int fd, uint64_t n) {
  uint8_t buf[4096];
  while (n > 0) {
    const size_t k = size_t(std::min<uint64_t>(n, sizeof buf));
    if (!read_full(fd, buf, k)) return false;
    n -= k;
  }
  return true;
}

constexpr uint32_t kMaxOptionData = 65536;  // protocol strings are at most 4096 bytes; options carry one or two

const char* action(host::IoOp op) {
  switch (op) {
    case host::IoOp::read: return "read";
    case host::IoOp::write: return "write";
    case host::IoOp::trim: return "trim";
    case host::IoOp::flush: return "sync";
  }
  return "?";
}

std::atomic<NbdExport*> g_export{nullptr};
extern "C" void on_signal(int) {
  if (NbdExport* e = g_export.load()) e->request_stop();
}

bool loopback_host(const std::string& h) { return h == "127.0.0.1" || h == "localhost" || h == "::1" || h == "[::1]"; }

}  // namespace

NbdExport::NbdExport(sc_core::sc_module_name nm, Config& cfg, uint64_t export_bytes, uint32_t lba_size)
    : sc_module(nm), export_bytes_(export_bytes), lba_size_(lba_size), store_(lba_size) {
  listen_key_ = cfg.get_string("nbd.listen");
  name_ = cfg.get_string("nbd.export_name");
  paced_ = cfg.get_choice("nbd.time") == "paced";
  admit_delay_ps_ = cfg.get_time_ps("nbd.admit_delay");
  pace_tick_ps_ = cfg.get_time_ps("nbd.pace_tick");
  const uint64_t max_payload = cfg.get_size("nbd.max_payload");
  if (max_payload > UINT32_MAX)  // NBD's length field is 32 bits: never taken modulo 2^32
    throw ConfigError("config key 'nbd.max_payload': " + std::to_string(max_payload) +
                      " bytes is more than NBD's 32-bit length field holds (at most 4294967295)");
  lim_.max_payload = uint32_t(max_payload);
  max_inflight_ = uint32_t(cfg.get_u64("nbd.max_inflight"));
  max_clients_ = uint32_t(cfg.get_u64("nbd.max_clients"));
  persistent_ = cfg.get_bool("nbd.persistent");
  allow_remote_ = cfg.get_bool("nbd.allow_remote");
  if (admit_delay_ps_ == 0) throw ConfigError("config key 'nbd.admit_delay': must be positive");
  if (pace_tick_ps_ == 0) throw ConfigError("config key 'nbd.pace_tick': must be positive");
  if (lim_.max_payload < lba_size_) throw ConfigError("config key 'nbd.max_payload': must be at least nvme.lba_size");
  lim_.export_size = export_bytes_;
  lim_.min_block = lba_size_;
  wall0_ = std::chrono::steady_clock::now();
  if (::pipe(wake_) != 0) throw std::runtime_error("nbd: cannot create a pipe");
  SC_THREAD(pacer);
}

NbdExport::~NbdExport() {
  shutdown();
  for (int& f : wake_)
    if (f >= 0) ::close(f), f = -1;
  if (rec_) std::fclose(rec_);
  if (rec_times_) std::fclose(rec_times_);
}

uint64_t NbdExport::wall_ns() const {
  return uint64_t(
      std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now() - wall0_).count());
}

void NbdExport::set_record(const std::string& path) {
  if (path.empty()) return;
  rec_path_ = path;
  rec_ = std::fopen(path.c_str(), "w");
  rec_times_ = std::fopen((path + ".times.csv").c_str(), "w");
  if (!rec_ || !rec_times_) throw ConfigError("--record: cannot write " + path + ": " + std::strerror(errno));
  std::fprintf(rec_, "fio version 3 iolog\n");
  std::fprintf(
      rec_times_,
      "seq,client,cookie,op,offset,length,fua,sim_arrival_ps,sim_done_ps,wall_arrival_us,wall_reply_us,error\n");
}

void NbdExport::listen(const std::string& spec_in) {
  const std::string spec = spec_in.empty() ? listen_key_ : spec_in;
  const std::string what = spec_in.empty() ? "config key 'nbd.listen'" : "--listen";
  if (spec.rfind("unix:", 0) == 0) {
    unix_path_ = spec.substr(5);
    sockaddr_un a{};
    if (unix_path_.empty() || unix_path_.size() >= sizeof a.sun_path)
      throw ConfigError(what + ": bad Unix socket path '" + unix_path_ + "'");
    a.sun_family = AF_UNIX;
    std::memcpy(a.sun_path, unix_path_.c_str(), unix_path_.size() + 1);
    // Only a stale socket is replaced: a regular file (or anything but a
    // socket) is the user's and stays; a socket a live server answers on is
    // that server's.
    struct stat st {};
    if (::lstat(unix_path_.c_str(), &st) == 0) {
      if (!S_ISSOCK(st.st_mode))
        throw ConfigError(what + ": " + unix_path_ + " exists and is not a socket (not replacing it)");
      const int probe = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
      const bool live = probe >= 0 && ::connect(probe, reinterpret_cast<sockaddr*>(&a), sizeof a) == 0;
      if (probe >= 0) ::close(probe);
      if (live) throw ConfigError(what + ": a server is already listening on " + unix_path_);
      ::unlink(unix_path_.c_str());  // a stale socket (nobody listens)
    }
    listen_fd_ = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (listen_fd_ < 0 || ::bind(listen_fd_, reinterpret_cast<sockaddr*>(&a), sizeof a) != 0)
      throw ConfigError("nbd: cannot bind " + spec + ": " + std::strerror(errno));
  } else if (spec.rfind("tcp:", 0) == 0) {
    const std::string hp = spec.substr(4);
    const size_t colon = hp.rfind(':');
    if (colon == std::string::npos) throw ConfigError(what + ": expected tcp:HOST:PORT, got '" + spec + "'");
    std::string host = hp.substr(0, colon);
    const std::string port = hp.substr(colon + 1);
    if (!allow_remote_ && !loopback_host(host))
      throw ConfigError(what + ": '" + host +
                        "' is not a loopback address; set nbd.allow_remote: true to export the drive to the network");
    if (host.size() > 2 && host.front() == '[') host = host.substr(1, host.size() - 2);
    addrinfo hints{}, *res = nullptr;
    hints.ai_socktype = SOCK_STREAM;
    hints.ai_flags = AI_NUMERICSERV;
    if (port.empty() || port.size() > 5 || port.find_first_not_of("0123456789") != std::string::npos ||
        std::stoul(port) > 65535)
      throw ConfigError(what + ": port '" + port + "' in '" + spec + "' is not a port number (0 to 65535)");
    if (::getaddrinfo(host.c_str(), port.c_str(), &hints, &res) != 0 || !res)
      throw ConfigError(what + ": cannot resolve '" + spec + "'");
    listen_fd_ = ::socket(res->ai_family, SOCK_STREAM | SOCK_CLOEXEC, 0);
    int one = 1;
    if (listen_fd_ >= 0) ::setsockopt(listen_fd_, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    const bool ok = listen_fd_ >= 0 && ::bind(listen_fd_, res->ai_addr, res->ai_addrlen) == 0;
    ::freeaddrinfo(res);
    if (!ok) throw ConfigError("nbd: cannot bind " + spec + ": " + std::strerror(errno));
  } else {
    throw ConfigError(what + ": expected unix:PATH or tcp:HOST:PORT, got '" + spec + "'");
  }
  if (::listen(listen_fd_, 16) != 0)
    throw std::runtime_error("nbd: cannot listen on " + spec + ": " + std::strerror(errno));
  address_ = spec;
}

void NbdExport::start() {
  acceptor_ = std::thread([this] { accept_loop(); });
}

void NbdExport::request_stop() {
  stop_.store(true);
  const char c = 's';
  if (wake_[1] >= 0) (void)!::write(wake_[1], &c, 1);
}

void NbdExport::accept_loop() {
  for (;;) {
    pollfd p[2] = {{listen_fd_, POLLIN, 0}, {wake_[0], POLLIN, 0}};
    const int r = ::poll(p, 2, -1);
    if (r < 0 && errno == EINTR) continue;
    if (stop_.load() || (p[1].revents & POLLIN)) break;
    if (!(p[0].revents & POLLIN)) continue;
    const int fd = ::accept4(listen_fd_, nullptr, nullptr, SOCK_CLOEXEC);
    if (fd < 0) continue;
    int one = 1;
    ::setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);  // fails harmlessly on a Unix socket
    std::lock_guard<std::mutex> l(mu_);
    if (live_sessions_ >= max_clients_ || ended_) {
      ++refused_;
      ::close(fd);
      continue;
    }
    auto s = std::make_shared<Session>();
    s->fd = fd;
    s->id = ++connected_;
    ++live_sessions_;
    sessions_.push_back(s);
    readers_.emplace_back([this, s] { session_main(s); });
  }
  // Stop: no new clients; readers stop reading; queued and in-flight requests finish.
  std::lock_guard<std::mutex> l(mu_);
  for (auto& s : sessions_) ::shutdown(s->fd, SHUT_RD);
  ended_ = true;
  cv_.notify_all();
}

void NbdExport::session_main(std::shared_ptr<Session> s) {
  if (handshake(*s)) {
    {
      std::lock_guard<std::mutex> l(mu_);
      ++handshakes_ok_;
    }
    transmission(s);
  } else {
    std::lock_guard<std::mutex> l(mu_);
    ++handshake_failures_;
  }
  {
    std::unique_lock<std::mutex> l(s->imu);
    s->icv.wait(l, [&] { return s->inflight == 0 || s->closing; });
  }
  {
    std::lock_guard<std::mutex> l(s->wmu);
    s->dead = true;
    ::shutdown(s->fd, SHUT_RDWR);
  }
  session_done(*s);
}

void NbdExport::session_done(Session&) {
  std::lock_guard<std::mutex> l(mu_);
  --live_sessions_;
  // A connection that never completed the handshake (a port scanner, an HTTP
  // probe) does not end the server: it ends after the last real client.
  if (!persistent_ && live_sessions_ == 0 && handshakes_ok_ > 0) ended_ = true;
  cv_.notify_all();
}

bool NbdExport::handshake(Session& s) {
  if (!s.send(greeting())) return false;
  uint8_t cf[4];
  if (!read_full(s.fd, cf, 4)) return false;
  const uint32_t cflags = get32(cf);
  if (cflags & ~(kClientFixedNewstyle | kClientNoZeroes))
    return false;  // unknown client flags: the protocol says close
  const bool no_zeroes = cflags & kClientNoZeroes;
  const uint16_t tflags =
      TF_HAS_FLAGS | TF_SEND_FLUSH | TF_SEND_FUA | TF_SEND_TRIM | TF_SEND_WRITE_ZEROES | TF_CAN_MULTI_CONN;
  for (;;) {
    uint8_t h[16];
    if (!read_full(s.fd, h, 16) || get64(h) != kOptMagic) return false;
    const uint32_t opt = get32(h + 8), len = get32(h + 12);
    if (len > kMaxOptionData) {
      s.send(option_reply(opt, REP_ERR_TOO_BIG, {}));
      return false;
    }
    std::vector<uint8_t> d(len);
    if (len && !read_full(s.fd, d.data(), len)) return false;
    auto known = [this](const std::string& n) { return n.empty() || n == name_; };
    switch (opt) {
      case OPT_EXPORT_NAME: {
        if (!known(std::string(d.begin(), d.end())) || stop_.load()) return false;  // no way to report it but to close
        std::vector<uint8_t> b;
        put64(b, export_bytes_);
        put16(b, tflags);
        if (!no_zeroes) b.resize(b.size() + 124, 0);
        return s.send(b);
      }
      case OPT_ABORT: s.send(option_reply(opt, REP_ACK, {})); return false;
      case OPT_LIST: {
        if (len) {
          s.send(option_reply(opt, REP_ERR_INVALID, {}));
          break;
        }
        std::vector<uint8_t> b;
        put32(b, uint32_t(name_.size()));
        b.insert(b.end(), name_.begin(), name_.end());
        if (!s.send(option_reply(opt, REP_SERVER, b)) || !s.send(option_reply(opt, REP_ACK, {}))) return false;
        break;
      }
      case OPT_INFO:
      case OPT_GO: {
        const int r = option_info(s, opt, d, tflags);
        if (r != 0) return r > 0;
        break;
      }
      default:  // STARTTLS, structured replies, meta contexts, extended headers: not offered
        if (!s.send(option_reply(opt, REP_ERR_UNSUP, {}))) return false;
        break;
    }
  }
}

int NbdExport::option_info(Session& s, uint32_t opt, const std::vector<uint8_t>& d, uint16_t tflags) {
  std::string name;
  std::vector<uint16_t> infos;
  if (!parse_info_request(d.data(), d.size(), &name, &infos))
    return s.send(option_reply(opt, REP_ERR_INVALID, {})) ? 0 : -1;
  if (!(name.empty() || name == name_)) return s.send(option_reply(opt, REP_ERR_UNKNOWN, {})) ? 0 : -1;
  if (stop_.load()) {
    s.send(option_reply(opt, REP_ERR_SHUTDOWN, {}));
    return -1;
  }
  std::vector<uint8_t> e;
  put16(e, INFO_EXPORT);
  put64(e, export_bytes_);
  put16(e, tflags);
  std::vector<uint8_t> bs;  // sent whether asked or not: the server needs aligned requests
  put16(bs, INFO_BLOCK_SIZE);
  put32(bs, lim_.min_block);
  put32(bs, std::max<uint32_t>(lim_.min_block, 4096u));  // preferred: the protocol's usual page size
  put32(bs, lim_.max_payload);
  bool ok = s.send(option_reply(opt, REP_INFO, e)) && s.send(option_reply(opt, REP_INFO, bs));
  if (std::find(infos.begin(), infos.end(), INFO_NAME) != infos.end()) {
    std::vector<uint8_t> nb;
    put16(nb, INFO_NAME);
    nb.insert(nb.end(), name_.begin(), name_.end());
    ok = ok && s.send(option_reply(opt, REP_INFO, nb));
  }
  ok = ok && s.send(option_reply(opt, REP_ACK, {}));
  if (!ok) return -1;
  return opt == OPT_GO ? 1 : 0;
}

void NbdExport::transmission(const std::shared_ptr<Session>& s) {
  uint8_t h[kRequestHeader];
  while (read_full(s->fd, h, sizeof h)) {
    Request r;
    const Decode d = decode_request(h, sizeof h, lim_, &r);
    if (d == Decode::kBadMagic) {
      std::lock_guard<std::mutex> l(mu_);
      ++rejected_["bad request magic (connection closed)"];
      break;
    }
    if (d == Decode::kOk && r.type == CMD_DISC) break;
    auto p = std::make_unique<Pending>();
    if (r.type == CMD_WRITE) {
      if (d == Decode::kTooBig) {  // its payload is not read: answer and close
        s->send(simple_reply(reply_error(d, r.type), r.cookie));
        std::lock_guard<std::mutex> l(mu_);
        ++rejected_[to_string(d)];
        break;
      }
      if (d == Decode::kOk) {
        p->data.resize(r.length);
        if (!read_full(s->fd, p->data.data(), r.length)) {
          std::lock_guard<std::mutex> l(mu_);
          ++rejected_["disconnected inside a write's payload"];
          break;
        }
      } else if (!discard(s->fd, r.length)) {
        break;
      }
    }
    if (d != Decode::kOk || stop_.load()) {
      const uint32_t err = d != Decode::kOk ? reply_error(d, r.type) : uint32_t(E_SHUTDOWN);
      s->send(simple_reply(err, r.cookie));
      std::lock_guard<std::mutex> l(mu_);
      if (d == Decode::kZeroLength)
        ++zero_length_;
      else
        ++rejected_[d != Decode::kOk ? to_string(d) : "server shutting down"];
      continue;
    }
    p->s = s;
    p->req = r;
    p->wall_in_ns = wall_ns();
    switch (r.type) {
      case CMD_READ: p->op = host::IoOp::read; break;
      case CMD_WRITE: p->op = host::IoOp::write; break;
      case CMD_TRIM: p->op = host::IoOp::trim; break;
      case CMD_WRITE_ZEROES:  // a hole unless the client insists on allocation
        p->op = (r.flags & CMD_FLAG_NO_HOLE) ? host::IoOp::write : host::IoOp::trim;
        break;
      default: p->op = host::IoOp::flush; break;
    }
    p->fua = (r.flags & CMD_FLAG_FUA) && r.type != CMD_FLUSH;
    {
      std::unique_lock<std::mutex> l(s->imu);
      s->icv.wait(l, [&] { return s->inflight < max_inflight_ || s->closing; });
      if (s->closing) break;
      ++s->inflight;
    }
    enqueue(std::move(p), false);
  }
}

void NbdExport::enqueue(std::unique_ptr<Pending> p, bool front) {
  std::lock_guard<std::mutex> l(mu_);
  if (front)
    pending_.push_front(std::move(p));
  else
    pending_.push_back(std::move(p));
  cv_.notify_all();
}

// ---- simulation side -------------------------------------------------------

bool NbdExport::poll(host::IoRequest& io, uint64_t rel_now) {
  std::unique_ptr<Pending> p;
  {
    std::lock_guard<std::mutex> l(mu_);
    if (pending_.empty()) return false;
    p = std::move(pending_.front());
    pending_.pop_front();
  }
  const uint64_t now = sc_core::sc_time_stamp().value();
  // The very first request arrives when the replay starts; every later one
  // strictly after the instant it was picked up, so that a replay of the
  // recorded times wakes the host driver exactly as this session did.
  const uint64_t t = (!started_ && rel_now == 0) ? 0 : rel_now + admit_delay_ps_;
  if (!started_) {
    started_ = true;
    sim_base_ps_ = now;
    wall_base_ns_ = wall_ns();
    started_ev_.notify(sc_core::SC_ZERO_TIME);
  }
  io = host::IoRequest{};
  io.time_ps = t;
  if (!p->flushing) p->seq = next_seq_++;
  io.line = p->seq;
  if (p->flushing) {
    io.op = host::IoOp::flush;
  } else {
    io.op = p->op;
    io.offset = p->req.offset;
    io.length = p->op == host::IoOp::flush ? 0 : p->req.length;
    if (p->op == host::IoOp::read) p->data.assign(p->req.length, 0);
    if (p->req.type < 9) ++by_cmd_[p->req.type];
    p->sim_in_ps = now + (t - rel_now);
  }
  if (rec_) {
    if (io.op == host::IoOp::flush)
      std::fprintf(rec_, "%llu ssdvp sync 0 0\n", (unsigned long long)t);
    else
      std::fprintf(rec_, "%llu ssdvp %s %llu %llu\n", (unsigned long long)t, action(io.op),
                   (unsigned long long)io.offset, (unsigned long long)io.length);
  }
  inflight_[p->seq] = std::move(p);
  return true;
}

LiveSource::Idle NbdExport::idle() {
  std::unique_lock<std::mutex> l(mu_);
  if (!pending_.empty()) return Idle::again;
  if (ended_) return Idle::end;
  if (paced_ && started_) return Idle::wait;  // the pacer moves time on and wakes the host
  // as_fast_as_possible (and paced before the first request): simulated time
  // stands still until a request arrives or the session ends.
  cv_.wait(l, [&] { return !pending_.empty() || ended_; });
  return pending_.empty() ? Idle::end : Idle::again;
}

void NbdExport::pacer() {
  if (!paced_) return;
  wait(started_ev_);
  for (;;) {
    wait(sc_core::sc_time::from_value(pace_tick_ps_));
    const uint64_t sim_ns = (sc_core::sc_time_stamp().value() - sim_base_ps_) / 1000;
    std::unique_lock<std::mutex> l(mu_);
    const uint64_t wall = wall_ns() - wall_base_ns_;
    if (sim_ns > wall)
      cv_.wait_for(l, std::chrono::nanoseconds(sim_ns - wall), [&] { return !pending_.empty() || ended_; });
    if (!pending_.empty() || ended_) arrival_ev_.notify(sc_core::SC_ZERO_TIME);
    if (ended_ && pending_.empty() && inflight_.empty()) return;
  }
}

void NbdExport::on_write_tokens(uint64_t tag, uint64_t lba, const uint32_t* tokens, uint32_t n) {
  auto it = inflight_.find(tag);
  if (it == inflight_.end()) return;
  const Pending& p = *it->second;
  for (uint32_t i = 0; i < n; ++i) {
    const uint64_t off = (lba + i) * lba_size_ - p.req.offset;
    store_.write(lba + i, tokens[i], p.data.empty() || off + lba_size_ > p.data.size() ? nullptr : p.data.data() + off);
  }
}

void NbdExport::on_read_tokens(uint64_t tag, uint64_t lba, const uint32_t* tokens, uint32_t n) {
  auto it = inflight_.find(tag);
  if (it == inflight_.end()) return;
  Pending& p = *it->second;
  for (uint32_t i = 0; i < n; ++i) {
    const uint64_t off = (lba + i) * lba_size_ - p.req.offset;
    if (off + lba_size_ <= p.data.size()) store_.read(lba + i, tokens[i], p.data.data() + off);
  }
}

void NbdExport::reply(Pending& p, uint32_t error) {
  const auto h = simple_reply(error, p.req.cookie);
  if (p.req.type == CMD_READ && error == E_OK)
    p.s->send(h.data(), h.size(), p.data.data(), p.data.size());
  else
    p.s->send(h);
  p.s->done_one();
}

void NbdExport::on_complete(uint64_t tag, bool error, uint64_t, uint64_t done_ps) {
  auto it = inflight_.find(tag);
  if (it == inflight_.end()) return;
  std::unique_ptr<Pending> p = std::move(it->second);
  inflight_.erase(it);
  p->error = p->error || error;
  if (!p->flushing && !error) {
    if (p->op == host::IoOp::trim)  // the drive reads these back deallocated: drop their bytes
      for (uint64_t l = p->req.offset / lba_size_, e = (p->req.offset + p->req.length) / lba_size_; l < e; ++l)
        store_.forget(l);
    if (p->op == host::IoOp::read) read_bytes_ += p->req.length;
    if (p->op == host::IoOp::write) write_bytes_ += p->req.length;
  }
  if (p->fua && !p->flushing && !p->error) {  // FUA: durable before the reply, by a flush after the write
    p->flushing = true;
    ++fua_flushes_;
    enqueue(std::move(p), true);
    return;
  }
  io_errors_ += p->error;
  if (rec_times_) {
    std::fprintf(rec_times_, "%llu,%llu,%llu,%s,%llu,%u,%d,%llu,%llu,%.3f,%.3f,%d\n", (unsigned long long)p->seq,
                 (unsigned long long)p->s->id, (unsigned long long)p->req.cookie, action(p->op),
                 (unsigned long long)p->req.offset, p->req.length, int(p->fua), (unsigned long long)p->sim_in_ps,
                 (unsigned long long)done_ps, double(p->wall_in_ns) / 1000.0, double(wall_ns()) / 1000.0,
                 int(p->error));
  }
  reply(*p, p->error ? E_IO : E_OK);
}

void NbdExport::shutdown() {
  request_stop();
  if (acceptor_.joinable()) acceptor_.join();
  std::vector<std::shared_ptr<Session>> sessions;
  {
    std::lock_guard<std::mutex> l(mu_);
    sessions = sessions_;
    // Requests the simulation never took (it ended first): answered as shut down.
    for (auto& p : pending_) {
      p->s->send(simple_reply(E_SHUTDOWN, p->req.cookie));
      p->s->done_one();
    }
    pending_.clear();
  }
  for (auto& s : sessions) {
    std::lock_guard<std::mutex> l(s->imu);
    s->closing = true;
    s->icv.notify_all();
  }
  for (auto& t : readers_)
    if (t.joinable()) t.join();
  readers_.clear();
  for (auto& s : sessions)
    if (s->fd >= 0) ::close(s->fd), s->fd = -1;
  sessions_.clear();
  if (listen_fd_ >= 0) {
    ::close(listen_fd_);
    listen_fd_ = -1;
    if (!unix_path_.empty()) ::unlink(unix_path_.c_str());
  }
  if (rec_) std::fflush(rec_);
  if (rec_times_) std::fflush(rec_times_);
}

nlohmann::json NbdExport::summary(double wall_s) const {
  using nlohmann::json;
  std::lock_guard<std::mutex> l(mu_);
  static const char* names[] = {"read",  "write",        "disc",         "flush", "trim",
                                "cache", "write_zeroes", "block_status", "resize"};
  json cmds = json::object();
  uint64_t total = 0;
  for (int i = 0; i < 9; ++i)
    if (by_cmd_[i]) cmds[names[i]] = by_cmd_[i], total += by_cmd_[i];
  json rej = json::object();
  for (const auto& [k, v] : rejected_) rej[k] = v;
  const uint64_t pages = store_.pages(), data_pages = store_.data_pages();
  return {{"address", address_},
          {"time", paced_ ? "paced" : "as_fast_as_possible"},
          {"clients", connected_},
          {"clients_refused", refused_},
          {"handshake_failures", handshake_failures_},
          {"requests", total},
          {"by_command", cmds},
          {"fua_flushes", fua_flushes_},
          {"zero_length", zero_length_},
          {"rejected", rej},
          {"io_errors", io_errors_},
          {"read_bytes", read_bytes_},
          {"write_bytes", write_bytes_},
          {"store",
           {{"lbas", pages},
            {"data_pages", data_pages},
            {"data_bytes", data_pages * lba_size_},
            {"poisoned_reads", store_.poisoned()}}},
          {"wall_s", wall_s},
          {"requests_per_wall_s", wall_s > 0 ? double(total) / wall_s : 0.0},
          {"record", rec_path_}};
}

// ---- ssdvp serve -------------------------------------------------------------

ServeResult serve(Config& cfg, const std::string& listen, const std::string& record, const std::string& out_dir) {
  ServeResult res;
  if (cfg.has("host.mode") && cfg.values().at("host.mode") != "open")
    std::fprintf(stderr, "ssdvp serve: host.mode %s ignored: requests are issued as clients send them (open)\n",
                 cfg.values().at("host.mode").c_str());
  cfg.set("host.mode", "open");
  const auto t0 = std::chrono::steady_clock::now();
  Simulation sim(cfg, RunEntry::serve);  // the plan refuses what clients replace (run_plan.cpp)
  const uint32_t lba = sim.soc().lba_size();
  NbdExport ex("nbd", cfg, sim.soc().logical_lbas() * lba, lba);
  sim.host().set_live(&ex, sim.live_feed(), sim.live_workload());
  ex.listen(listen);
  ex.set_record(record);
  g_export.store(&ex);
  struct sigaction sa {};
  sa.sa_handler = on_signal;
  sigemptyset(&sa.sa_mask);
  struct sigaction old_int {
  }, old_term{};
  sigaction(SIGINT, &sa, &old_int);
  sigaction(SIGTERM, &sa, &old_term);
  ex.start();
  std::fprintf(stderr, "ssdvp serve: exporting '%s' (%llu bytes) on %s\n", cfg.get_string("nbd.export_name").c_str(),
               (unsigned long long)(sim.soc().logical_lbas() * lba), ex.address().c_str());
  std::fflush(stderr);
  RunOutcome r = sim.run();
  ex.shutdown();
  g_export.store(nullptr);
  sigaction(SIGINT, &old_int, nullptr);
  sigaction(SIGTERM, &old_term, nullptr);
  if (!r.error.empty()) {
    res.error = r.error;
    res.clean = false;
    return res;
  }
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  r.summary["nbd"] = ex.summary(wall);
  r.summary["workload"]["description"] = "NBD clients on " + ex.address();
  r.clean = r.clean && r.summary["nbd"]["store"]["poisoned_reads"] == 0;
  sim.write_outputs(out_dir, r);
  res.summary = r.summary;
  res.clean = r.clean;
  return res;
}

void print_nbd_summary(const nlohmann::json& j) {
  if (!j.contains("nbd")) return;
  const auto& n = j["nbd"];
  std::printf(
      "nbd: %llu clients, %llu requests (%s), %llu rejected kinds, %llu I/O errors; store %llu pages (%.1f MiB), "
      "%llu poisoned reads; %.0f requests per wall second\n",
      (unsigned long long)n["clients"].get<uint64_t>(), (unsigned long long)n["requests"].get<uint64_t>(),
      n["by_command"].dump().c_str(), (unsigned long long)n["rejected"].size(),
      (unsigned long long)n["io_errors"].get<uint64_t>(), (unsigned long long)n["store"]["data_pages"].get<uint64_t>(),
      double(n["store"]["data_bytes"].get<uint64_t>()) / 1048576.0,
      (unsigned long long)n["store"]["poisoned_reads"].get<uint64_t>(), n["requests_per_wall_s"].get<double>());
}

}  // namespace ssdvp::nbd
