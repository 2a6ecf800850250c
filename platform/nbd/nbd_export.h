// nbd_export.h - the simulated drive's namespace exported as an NBD server.
//
// Threads: the SystemC simulation runs on the process's main thread; one
// accept thread and one reader thread per client do the socket side. A
// reader does the handshake, decodes requests (nbd_proto.h), answers bad ones
// at once and queues good ones; the host driver's thread takes them from the
// queue as a LiveSource (host/live_source.h), and replies are written from the
// simulation thread when the drive completes them. Real bytes live in a
// PageStore keyed by the tokens the drive moves (page_store.h).
//
// Time (nbd.time): as_fast_as_possible - simulated time stops while the host
// has nothing outstanding, and a request arrives at the simulated time it is
// picked up (plus nbd.admit_delay); paced - simulated time never runs ahead
// of wall time (checked every nbd.pace_tick), as FEMU does. In both, the
// summary's latencies are simulated; the client sees wall time.
//
// Recorder (--record FILE): every request as the drive saw it, in fio iolog v3
// with picosecond timestamps (its requests name the file "ssdvp", which tells
// the replay the unit: workload.fio_time_unit_ps 0, the default), and a
// FILE.times.csv with simulated and wall times per request.
#pragma once

#include <systemc>

#include <atomic>
#include <condition_variable>
#include <cstdio>
#include <deque>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <unordered_map>
#include <vector>

#include <nlohmann/json.hpp>

#include "common/config.h"
#include "host/live_source.h"
#include "nbd/nbd_proto.h"
#include "nbd/page_store.h"

namespace ssdvp::nbd {

struct Session;

class NbdExport : public sc_core::sc_module, public LiveSource {
 public:
  NbdExport(sc_core::sc_module_name name, Config& cfg, uint64_t export_bytes, uint32_t lba_size);
  ~NbdExport() override;

  // Opens the listening socket: "unix:PATH" or "tcp:HOST:PORT" (empty: the
  // nbd.listen key). Throws ConfigError for a bad or non-loopback address
  // (unless nbd.allow_remote) and std::runtime_error when it cannot bind.
  void listen(const std::string& spec);
  const std::string& address() const { return address_; }
  void start();         // the accept thread
  void request_stop();  // async-signal-safe: ends the session (in-flight requests finish)
  void shutdown();      // after the simulation: closes every socket, joins threads
  void set_record(const std::string& path);

  nlohmann::json summary(double wall_s) const;

  // LiveSource
  bool poll(host::IoRequest& io, uint64_t rel_now) override;
  Idle idle() override;
  const sc_core::sc_event& arrival() const override { return arrival_ev_; }
  void on_write_tokens(uint64_t tag, uint64_t lba, const uint32_t* tokens, uint32_t n) override;
  void on_read_tokens(uint64_t tag, uint64_t lba, const uint32_t* tokens, uint32_t n) override;
  void on_complete(uint64_t tag, bool error, uint64_t arrival_ps, uint64_t done_ps) override;

 private:
  struct Pending {
    std::shared_ptr<Session> s;
    Request req;
    std::vector<uint8_t> data;  // a write's payload; a read's reply
    host::IoOp op = host::IoOp::read;
    bool fua = false, flushing = false, error = false;
    uint64_t seq = 0;
    uint64_t wall_in_ns = 0;
    uint64_t sim_in_ps = 0;
  };
  SC_HAS_PROCESS(NbdExport);
  void pacer();
  void accept_loop();
  void session_main(std::shared_ptr<Session> s);
  bool handshake(Session& s);
  // The handshake's NBD_OPT_INFO / NBD_OPT_GO with its data d: -1 close the
  // connection, 0 go on with the options, 1 transmission starts (GO).
  int option_info(Session& s, uint32_t opt, const std::vector<uint8_t>& d, uint16_t tflags);
  void transmission(const std::shared_ptr<Session>& s);
  void enqueue(std::unique_ptr<Pending> p, bool front);
  void session_done(Session& s);
  void reply(Pending& p, uint32_t error);
  uint64_t wall_ns() const;

  // configuration
  uint64_t export_bytes_;
  uint32_t lba_size_;
  Limits lim_;
  std::string name_, listen_key_, address_, unix_path_;
  bool paced_ = false, persistent_ = false, allow_remote_ = false;
  uint64_t admit_delay_ps_ = 0, pace_tick_ps_ = 0;
  uint32_t max_clients_ = 0, max_inflight_ = 0;

  // network side
  int listen_fd_ = -1;
  int wake_[2] = {-1, -1};
  std::thread acceptor_;
  std::vector<std::thread> readers_;
  std::vector<std::shared_ptr<Session>> sessions_;

  // shared (mu_)
  mutable std::mutex mu_;
  std::condition_variable cv_;
  std::deque<std::unique_ptr<Pending>> pending_;
  bool ended_ = false;
  std::atomic<bool> stop_{false};
  uint32_t live_sessions_ = 0;
  uint64_t connected_ = 0, refused_ = 0, handshake_failures_ = 0;
  uint64_t handshakes_ok_ = 0;  // clients that got past the handshake: the server ends after the last of them
  std::unordered_map<std::string, uint64_t> rejected_;  // requests answered with an error by the reader, by reason
  uint64_t zero_length_ = 0;

  // simulation side
  std::unordered_map<uint64_t, std::unique_ptr<Pending>> inflight_;
  uint64_t next_seq_ = 1;
  bool started_ = false;
  uint64_t wall_base_ns_ = 0, sim_base_ps_ = 0;
  sc_core::sc_event arrival_ev_, started_ev_;
  PageStore store_;
  uint64_t by_cmd_[9] = {};
  uint64_t io_errors_ = 0, read_bytes_ = 0, write_bytes_ = 0, fua_flushes_ = 0;
  std::chrono::steady_clock::time_point wall0_;

  // recorder
  std::FILE* rec_ = nullptr;
  std::FILE* rec_times_ = nullptr;
  std::string rec_path_;
};

// ssdvp serve: builds the simulation from cfg, exports it on `listen`
// (empty: nbd.listen), records to `record` (empty: none), runs until the
// session ends, writes the outputs into out_dir. Returns the run's outcome
// (summary with an "nbd" section).
struct ServeResult {
  nlohmann::json summary;
  bool clean = true;
  std::string error;
};
ServeResult serve(Config& cfg, const std::string& listen, const std::string& record, const std::string& out_dir);
void print_nbd_summary(const nlohmann::json& summary);

}  // namespace ssdvp::nbd
