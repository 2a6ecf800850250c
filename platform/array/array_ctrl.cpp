// array_ctrl.cpp - see array_ctrl.h.
#include "array/array_ctrl.h"

#include <algorithm>
#include <cstring>
#include <stdexcept>

#include "ssdvp_hw.h"  // the GC coordination commands and events
#include "host/host_driver.h"
#include "host/host_memory.h"
#include "host/nvme_queue_pair.h"
#include "nvme/nvme_ctrl.h"
#include "run/device.h"
#include "run/simulation.h"
#include "run/timeline.h"
#include "soc/ssd_soc.h"

namespace ssdvp::array {
namespace {

uint64_t now_ps() { return sc_core::sc_time_stamp().value(); }
constexpr uint32_t kAdminDepth = 16;
constexpr uint32_t kAers = 2;  // Asynchronous Event Requests kept outstanding per device

}  // namespace

const char* to_string(Coordination c) {
  switch (c) {
    case Coordination::normal: return "normal";
    case Coordination::gcsync: return "gcsync";
    case Coordination::gcsync_plus: return "gcsync_plus";
    case Coordination::gclock: return "gclock";
    case Coordination::harmonia: return "harmonia";
  }
  return "?";
}

const char* to_string(Reconstruct r) {
  switch (r) {
    case Reconstruct::never: return "never";
    case Reconstruct::on_gc: return "on_gc";
    case Reconstruct::on_busy: return "on_busy";
  }
  return "?";
}

ArrayParams ArrayParams::from_config(Config& cfg) {
  ArrayParams p;
  const uint64_t n = cfg.get_u64("array.devices");
  if (n < 3 || n > 16)
    throw ConfigError("config key 'array.devices': " + std::to_string(n) + " devices; RAID-5 here takes 3..16");
  p.devices = uint32_t(n);
  p.chunk_bytes = cfg.get_size("array.chunk");
  const std::string co = cfg.get_choice("array.gc_coordination");
  p.coordination = co == "gcsync"        ? Coordination::gcsync
                   : co == "gcsync_plus" ? Coordination::gcsync_plus
                   : co == "gclock"      ? Coordination::gclock
                   : co == "harmonia"    ? Coordination::harmonia
                                         : Coordination::normal;
  p.window_ps = cfg.get_time_ps("array.gc.time_window");
  p.buffer_ps = cfg.get_time_ps("array.gc.buffer_time");
  p.harmonia_blocks = uint32_t(cfg.get_u64("array.gc.harmonia_blocks"));
  p.bank_blocks = uint32_t(cfg.get_u64("array.gc.bank_blocks"));
  p.fail_device = cfg.get_i64("array.fail.device");
  if (p.fail_device < -1 || p.fail_device >= int64_t(p.devices))
    throw ConfigError("config key 'array.fail.device': " + std::to_string(p.fail_device) +
                      " is not a device of the array (0.." + std::to_string(p.devices - 1) + ", or -1 for none)");
  p.fail_ps = cfg.get_time_ps("array.fail.at");
  p.spare = cfg.get_bool("array.rebuild.spare");
  p.rebuild_rate = cfg.get_size("array.rebuild.rate");
  if (p.spare && p.rebuild_rate == 0)
    throw ConfigError("config key 'array.rebuild.rate': must be positive with a spare");
  p.xor_ps_per_kib = cfg.get_time_ps("array.cpu.xor_per_kib");
  p.stripe_op_ps = cfg.get_time_ps("array.cpu.stripe_op");
  const bool windows = p.coordination == Coordination::gcsync || p.coordination == Coordination::gcsync_plus;
  if (windows && p.window_ps == 0)
    throw ConfigError("config key 'array.gc.time_window': must be positive with array.gc_coordination: " + co);
  const std::string rc = cfg.get_choice("array.reconstruct");
  p.reconstruct = rc == "on_gc" ? Reconstruct::on_gc : rc == "on_busy" ? Reconstruct::on_busy : Reconstruct::never;
  p.busy_depth = uint32_t(cfg.get_u64("array.reconstruct_depth"));
  p.device_qd = uint32_t(cfg.get_u64("array.device_queue_depth"));
  p.pacer = RequestPacer::from_config(cfg);  // the host driver's rule (host.mode auto: files too)
  p.lba_wrap = cfg.get_bool("host.lba_wrap");
  return p;
}

// ---- windows ------------------------------------------------------------------

bool WindowSchedule::open(uint32_t c, uint64_t t) const {
  switch (policy) {
    case Coordination::gcsync: return (t / tw) % n == c;
    case Coordination::gcsync_plus: {
      const uint64_t P = tw + tb;
      return (t / P) % n == c && t % P < tw;
    }
    default: return true;
  }
}

uint64_t WindowSchedule::next_change(uint64_t t) const {
  switch (policy) {
    case Coordination::gcsync: return (t / tw + 1) * tw;
    case Coordination::gcsync_plus: {
      const uint64_t P = tw + tb, k = t / P;
      return t % P < tw ? k * P + tw : (k + 1) * P;
    }
    default: return UINT64_MAX;
  }
}

// ---- ports ----------------------------------------------------------------------

struct ArrayController::Port {
  Device* dev = nullptr;
  NvmeCtrl* nvme = nullptr;
  HostMemory* mem = nullptr;
  std::unique_ptr<tlm_utils::simple_initiator_socket<ArrayController>> sock;
  std::unique_ptr<Doorbells> bells;  // through sock
  NvmeQueuePair io, adm;             // I/O queue pair 1 and the admin queue (nvme_queue_pair.h)
  std::vector<Slot> slots;
  uint32_t busy = 0;
  std::deque<DevIo> waiting;
  std::vector<AdminSlot> aslots;
  std::deque<std::pair<nvme_sqe, uint8_t>> await;
  // what the device told us (asynchronous events) and what we set
  bool known_gc = false;
  uint32_t window = 0;  // last PLM window set (0: none)
  uint64_t window_since = 0;
  // measurement: the firmware's real GC activity
  uint32_t gc_open = 0;
  uint64_t gc_since = 0, gc_last_end = 0;
  bool ever_gc = false;
  bool collecting = false;  // a C2h collection asked and not reported done
  uint64_t collect_since = 0;
  // counters
  uint64_t reads = 0, writes = 0, recon_reads = 0, max_queue = 0, gc_reports = 0;
};

ArrayController::ArrayController(sc_core::sc_module_name nm, const ArrayParams& p, std::vector<Device*> devices,
                                 uint32_t lba_size, uint32_t max_transfer)
    : sc_module(nm),
      p_(p),
      map_(p.devices, p.chunk_bytes / lba_size, devices.front()->soc().logical_lbas()),
      lba_size_(lba_size),
      max_transfer_(max_transfer),
      sb_(map_.array_lbas()),
      gc_hist_(devices.size() + 1, 0),
      lat_by_gc_(devices.size() + 1) {
  sched_ = WindowSchedule{p.coordination, p.devices, p.window_ps, p.buffer_ps};
  if (devices.size() > p.devices) spare_dev_ = p.devices;  // the hot spare, after the members
  for (uint32_t d = 0; d < devices.size(); ++d) {
    auto port = std::make_unique<Port>();
    Device& dev = *devices[d];
    port->dev = &dev;
    port->nvme = &dev.soc().nvme;
    port->mem = &dev.memory();
    port->sock =
        std::make_unique<tlm_utils::simple_initiator_socket<ArrayController>>(("pcie" + std::to_string(d)).c_str());
    port->sock->bind(dev.soc().nvme.host_regs);
    HostMemory& m = *port->mem;
    port->bells = std::make_unique<Doorbells>(*port->sock);
    port->io = NvmeQueuePair(m, *port->bells, 1, p.device_qd + 1);
    port->adm = NvmeQueuePair(m, *port->bells, 0, kAdminDepth);
    port->slots.resize(p.device_qd);
    for (auto& s : port->slots) s.host_buf = m.alloc(uint64_t(max_transfer) * 4);
    port->aslots.resize(kAdminDepth - 1);
    if (!port->io.create(*port->nvme) || !port->adm.create(*port->nvme))
      throw std::runtime_error(std::string(name()) + ": could not create the queues of device " + std::to_string(d));
    any_msi_ |= m.msi_event();
    devtok_.emplace_back(dev.soc().logical_lbas(), SSDVP_TOKEN_DEALLOCATED);
    ports_.push_back(std::move(port));
  }
  any_msi_ |= wake_.event();
  SC_THREAD(run);
  SC_METHOD(refill);
  sensitive << refill_ev_;
  dont_initialize();
}

ArrayController::~ArrayController() = default;

// ---- preconditioning ---------------------------------------------------------------

void ArrayController::precondition_write(uint64_t lba, uint64_t n) {
  const uint64_t C = map_.chunk_lbas();
  std::vector<uint32_t> tok;
  while (n) {
    const ChunkLoc first = map_.locate(lba);
    const uint64_t in_stripe = std::min<uint64_t>(n, map_.stripe_lbas() - (lba - map_.array_lba(first.stripe, 0, 0)));
    uint64_t o0 = C, o1 = 0;
    for (uint64_t a = lba; a < lba + in_stripe;) {  // data, chunk piece by chunk piece
      const ChunkLoc l = map_.locate(a);
      const uint64_t k = std::min<uint64_t>(C - l.offset, lba + in_stripe - a);
      tok.resize(k);
      for (uint64_t i = 0; i < k; ++i) devtok_[l.device][l.device_lba + i] = tok[i] = sb_.write(a + i);
      if (ports_[l.device]->dev->soc().cpu().func_write(l.device_lba, uint32_t(k), tok.data(), 0) != 0)
        throw std::runtime_error("preconditioning: device " + std::to_string(l.device) + " failed a functional write");
      o0 = std::min(o0, l.offset);
      o1 = std::max(o1, l.offset + k);
      a += k;
    }
    const uint32_t pd = map_.parity_device(first.stripe);
    const uint64_t base = first.stripe * C;
    tok.assign(o1 - o0, 0);
    for (uint32_t d = 0; d < map_.devices(); ++d)
      if (d != pd)
        for (uint64_t o = o0; o < o1; ++o) tok[o - o0] ^= devtok_[d][base + o];
    for (uint64_t o = o0; o < o1; ++o) devtok_[pd][base + o] = tok[o - o0];
    if (ports_[pd]->dev->soc().cpu().func_write(base + o0, uint32_t(o1 - o0), tok.data(), 0) != 0)
      throw std::runtime_error("preconditioning: device " + std::to_string(pd) + " failed a functional parity write");
    lba += in_stripe;
    n -= in_stripe;
  }
}

// ---- workload ---------------------------------------------------------------------

void ArrayController::refill() {
  prefetch_.fill(workload_);
  if (prefetch_.error()) error_ = prefetch_.error();
  refilled_ev_.notify();
}

bool ArrayController::next_request(host::IoRequest& io) {
  if (prefetch_.need()) {
    refill_ev_.notify();
    wait(refilled_ev_);
  }
  return !error_ && prefetch_.pop(io);
}

void ArrayController::admit(const host::IoRequest& io, uint64_t arrival) {
  if (io.op == host::IoOp::flush) {  // to every device, no stripe lock (docs/models/raid.md)
    const uint64_t id = next_req_++;
    Request& r = reqs_[id];
    r.io = io;
    r.arrival_ps = arrival;
    r.lba = r.nlb = 0;
    r.ops = 1;
    ready_.push_back(add_special_op(id, UINT64_MAX, kFlush));
    return;
  }
  uint64_t lba, nlb;
  bool wrapped = false;
  if (!lba_range(io.offset, io.length, lba_size_, map_.array_lbas(), true, &lba, &nlb, &wrapped)) return;
  if (wrapped && !p_.lba_wrap) {
    ++out_of_range_;  // host.lba_wrap: false: a request beyond the array fails (it is not sent)
    return;
  }
  wrapped_ += wrapped;
  const uint64_t id = next_req_++;
  Request& r = reqs_[id];
  r.io = io;
  r.arrival_ps = arrival;
  r.lba = lba;
  r.nlb = nlb;
  const uint64_t C = map_.chunk_lbas();
  for (uint64_t a = lba; a < lba + nlb;) {
    const ChunkLoc l = map_.locate(a);
    const uint64_t stripe_end = map_.array_lba(l.stripe + 1, 0, 0);
    const uint64_t k = std::min(stripe_end, lba + nlb) - a;
    Op op;
    op.id = next_op_++;
    op.req = id;
    op.stripe = l.stripe;
    op.write = io.op != host::IoOp::read;
    op.special = io.op == host::IoOp::trim ? kTrim : 0;
    op.first = a;
    op.n = k;
    op.wlo.assign(map_.data_chunks(), 0);
    op.whi.assign(map_.data_chunks(), 0);
    op.o0 = C;
    op.o1 = 0;
    for (uint64_t b = a; b < a + k;) {
      const ChunkLoc m = map_.locate(b);
      const uint64_t piece = std::min<uint64_t>(C - m.offset, a + k - b);
      op.wlo[m.data_index] = m.offset;
      op.whi[m.data_index] = m.offset + piece;
      op.o0 = std::min(op.o0, m.offset);
      op.o1 = std::max(op.o1, m.offset + piece);
      b += piece;
    }
    op.tok.assign(map_.devices(), {});
    r.ops++;
    ops_.emplace(op.id, std::move(op));
    locks_[l.stripe].q.push_back(next_op_ - 1);
    lock_grant(l.stripe);
    a += k;
  }
}

// ---- stripe locks: reads share, writes exclude, first come first served -------------

void ArrayController::lock_grant(uint64_t stripe) {
  StripeLock& L = locks_[stripe];
  while (!L.q.empty()) {
    Op& op = ops_.at(L.q.front());
    if (op.write) {
      if (L.readers || L.writer) break;
      L.writer = true;
    } else {
      if (L.writer) break;
      L.readers++;
    }
    ready_.push_back(op.id);
    L.q.pop_front();
    if (op.write) break;
  }
}

// ---- stripe operations ------------------------------------------------------------------

bool ArrayController::device_flagged(uint32_t d) const {
  const Port& p = *ports_[d];
  if (failed_ && d == uint32_t(p_.fail_device)) return false;
  if (p_.reconstruct == Reconstruct::on_gc) return p.known_gc;
  if (p_.reconstruct == Reconstruct::on_busy) return p.busy + p.waiting.size() > p_.busy_depth;
  return false;
}

void ArrayController::op_read(Op& op, uint32_t d, uint64_t lo, uint64_t hi) {
  const uint64_t base = op.stripe * map_.chunk_lbas();
  issue(DevIo{op.id, phys(d, op.stripe), false, base + lo, uint32_t(hi - lo), d, lo - op.o0});
  op.outstanding++;
}

void ArrayController::op_start(Op& op) {
  for (auto& t : op.tok) t.assign(op.o1 - op.o0, 0);
  op.phase = 1;
  ++stripe_ops_;
  if (op.special == kRebuild) {  // read the survivors' whole chunks (op_read_phase_done writes the spare)
    for (uint32_t d = 0; d < map_.devices(); ++d)
      if (d != uint32_t(p_.fail_device)) op_read(op, d, 0, map_.chunk_lbas());
    return;
  }
  if (op.special) return op_start_special(op);
  if (!op.write) return op_start_read(op);
  op_start_write(op);
}

void ArrayController::op_start_special(Op& op) {
  // A flush goes to every device. A trim deallocates only whole parity rows:
  // the offsets where every data chunk of the stripe is trimmed, on all N
  // devices, parity included (a deallocated LBA reads as zeroes, token 0, and
  // the XOR of zeroes is zero, so the row stays consistent). The trimmed
  // LBAs of partly trimmed rows are not forwarded and keep their data, as md
  // does with partial-stripe discards; the array scoreboard records as
  // trimmed only what was deallocated.
  const uint32_t N = map_.devices();
  const uint64_t base = op.stripe * map_.chunk_lbas();
  op.phase = 2;
  uint64_t r0 = 0, r1 = map_.chunk_lbas();
  if (op.special == kTrim) {
    for (uint32_t j = 0; j < map_.data_chunks(); ++j) {
      r0 = std::max(r0, op.wlo[j]);
      r1 = std::min(r1, op.whi[j]);
    }
    if (r1 < r0) r1 = r0;
    trim_kept_lbas_ += op.n - (r1 - r0) * map_.data_chunks();
    trim_rows_ += r1 - r0;
    for (uint32_t j = 0; j < map_.data_chunks(); ++j)
      for (uint64_t o = r0; o < r1; ++o) sb_.trim(map_.array_lba(op.stripe, j, o));
    for (uint32_t d = 0; d < N; ++d)
      for (uint64_t o = r0; o < r1; ++o) devtok_[phys(d, op.stripe)][base + o] = SSDVP_TOKEN_DEALLOCATED;
    if (r1 == r0) return op_finish(op);
    for (uint32_t d = 0; d < N; ++d)
      if (!lost(d, op.stripe)) {
        issue(DevIo{op.id, phys(d, op.stripe), true, base + r0, uint32_t(r1 - r0), d, 0, kTrim});
        op.outstanding++;
      }
    if (op.outstanding == 0) op_finish(op);
    return;
  }
  for (uint32_t d = 0; d < ports_.size(); ++d)  // a flush: every device still in use
    if (!(failed_ && d == uint32_t(p_.fail_device))) {
      issue(DevIo{op.id, d, true, 0, 0, d, 0, kFlush});
      op.outstanding++;
    }
  if (op.outstanding == 0) op_finish(op);
}

void ArrayController::op_start_read(Op& op) {
  const uint32_t N = map_.devices(), fd = uint32_t(p_.fail_device);
  const bool degraded = failed_ && lost(fd, op.stripe);
  // Degraded: a read that needs the failed device's chunk is reconstructed from the others.
  const uint32_t jf = degraded ? map_.data_index_of(op.stripe, fd) : UINT32_MAX;
  if (jf != UINT32_MAX && op.whi[jf] > op.wlo[jf]) {
    op.recon = fd;
    ++degraded_reads_;
  } else if (p_.reconstruct != Reconstruct::never && !degraded) {
    // Reconstruct around one flagged device among those read, if no other device is flagged.
    uint32_t flagged = 0, target = UINT32_MAX;
    for (uint32_t d = 0; d < N; ++d)
      if (device_flagged(d)) {
        ++flagged;
        const uint32_t j = map_.data_index_of(op.stripe, d);
        if (j != UINT32_MAX && op.whi[j] > op.wlo[j]) target = d;
      }
    if (flagged == 1 && target != UINT32_MAX) op.recon = target;
  }
  if (op.recon == UINT32_MAX) {
    for (uint32_t j = 0; j < map_.data_chunks(); ++j)
      if (op.whi[j] > op.wlo[j]) op_read(op, map_.data_device(op.stripe, j), op.wlo[j], op.whi[j]);
    return;
  }
  if (op.recon != fd || !degraded) ++reconstructions_;
  xor_cost((N - 1) * (op.o1 - op.o0));
  for (uint32_t d = 0; d < N; ++d)
    if (d != op.recon) {
      op_read(op, d, op.o0, op.o1);
      ++recon_device_reads_;
      ports_[d]->recon_reads++;
    }
}

void ArrayController::op_start_write(Op& op) {
  const uint32_t N = map_.devices(), fd = uint32_t(p_.fail_device);
  if (failed_ && lost(fd, op.stripe)) {
    // A degraded write reads the surviving devices over the rows it writes,
    // rebuilds the lost chunk's rows from them (op_read_phase_done), computes
    // parity from all data and writes everything but the failed device.
    op.lost = fd;
    op.rmw = false;
    ++degraded_writes_;
    for (uint32_t d = 0; d < N; ++d)
      if (d != fd) op_read(op, d, op.o0, op.o1);
    if (op.outstanding == 0) op_read_phase_done(op);
    return;
  }
  // Choose read-modify-write or reconstruct-write by the fewer reads.
  uint32_t touched = 0, rcw_reads = 0;
  for (uint32_t j = 0; j < map_.data_chunks(); ++j) {
    const bool t = op.whi[j] > op.wlo[j];
    touched += t;
    if (!(t && op.wlo[j] <= op.o0 && op.whi[j] >= op.o1)) ++rcw_reads;  // needs old data over [o0, o1)
  }
  const uint32_t rmw_reads = touched + 1;
  op.rmw = rmw_reads < rcw_reads;
  if (op.rmw) {
    ++rmw_;
    for (uint32_t j = 0; j < map_.data_chunks(); ++j)
      if (op.whi[j] > op.wlo[j]) op_read(op, map_.data_device(op.stripe, j), op.wlo[j], op.whi[j]);
    op_read(op, map_.parity_device(op.stripe), op.o0, op.o1);
  } else {
    if (rcw_reads == 0 && op.o0 == 0 && op.o1 == map_.chunk_lbas())
      ++full_stripe_;
    else
      ++rcw_;
    for (uint32_t j = 0; j < map_.data_chunks(); ++j) {
      const bool t = op.whi[j] > op.wlo[j];
      if (!(t && op.wlo[j] <= op.o0 && op.whi[j] >= op.o1)) op_read(op, map_.data_device(op.stripe, j), op.o0, op.o1);
    }
  }
  if (op.outstanding == 0) op_read_phase_done(op);
}

void ArrayController::op_read_phase_done(Op& op) {
  if (!op.write) return op_finish(op);
  const uint32_t pd = map_.parity_device(op.stripe);
  const uint64_t base = op.stripe * map_.chunk_lbas();
  const uint64_t span = op.o1 - op.o0;
  if (op.lost != UINT32_MAX || op.special == kRebuild) {  // the lost device's rows: the XOR of the others
    const uint32_t f = op.special == kRebuild ? uint32_t(p_.fail_device) : op.lost;
    std::vector<uint32_t>& t = op.tok[f];
    std::fill(t.begin(), t.end(), 0u);
    for (uint32_t e = 0; e < map_.devices(); ++e)
      if (e != f)
        for (uint64_t i = 0; i < span; ++i) t[i] ^= op.tok[e][i];
    xor_cost((map_.devices() - 1) * span);
  }
  if (op.special == kRebuild) {  // checked against what the failed device should hold, written to the spare
    const uint32_t f = uint32_t(p_.fail_device);
    for (uint64_t i = 0; i < span; ++i) {
      ++rebuild_checked_;
      if (op.tok[f][i] != devtok_[f][base + i]) ++rebuild_mismatches_;
      devtok_[spare_dev_][base + i] = op.tok[f][i];
    }
    op.phase = 2;
    issue(DevIo{op.id, spare_dev_, true, base, uint32_t(span), f, 0});
    op.outstanding++;
    return;
  }
  // New data tokens (the array scoreboard moves now: this op holds the stripe).
  std::vector<uint32_t>& par = op.tok[pd];
  if (op.rmw) {
    for (uint32_t j = 0; j < map_.data_chunks(); ++j) {
      const uint32_t d = map_.data_device(op.stripe, j);
      for (uint64_t o = op.wlo[j]; o < op.whi[j]; ++o) {
        const uint32_t nt = sb_.write(map_.array_lba(op.stripe, j, o));
        par[o - op.o0] ^= op.tok[d][o - op.o0] ^ nt;
        op.tok[d][o - op.o0] = nt;
      }
      xor_cost(2 * (op.whi[j] - op.wlo[j]));
    }
  } else {
    xor_cost(map_.data_chunks() * span);
    std::fill(par.begin(), par.end(), 0u);
    for (uint32_t j = 0; j < map_.data_chunks(); ++j) {
      const uint32_t d = map_.data_device(op.stripe, j);
      for (uint64_t o = op.wlo[j]; o < op.whi[j]; ++o)
        op.tok[d][o - op.o0] = sb_.write(map_.array_lba(op.stripe, j, o));
      for (uint64_t o = op.o0; o < op.o1; ++o) par[o - op.o0] ^= op.tok[d][o - op.o0];
    }
  }
  op.phase = 2;
  for (uint32_t j = 0; j < map_.data_chunks(); ++j)
    if (op.whi[j] > op.wlo[j]) {
      const uint32_t d = map_.data_device(op.stripe, j);
      for (uint64_t o = op.wlo[j]; o < op.whi[j]; ++o) devtok_[phys(d, op.stripe)][base + o] = op.tok[d][o - op.o0];
      if (d == op.lost) continue;  // degraded: the lost chunk lives on in the parity
      issue(DevIo{op.id, phys(d, op.stripe), true, base + op.wlo[j], uint32_t(op.whi[j] - op.wlo[j]), d,
                  op.wlo[j] - op.o0});
      op.outstanding++;
    }
  for (uint64_t o = op.o0; o < op.o1; ++o) devtok_[phys(pd, op.stripe)][base + o] = par[o - op.o0];
  if (pd != op.lost) {
    issue(DevIo{op.id, phys(pd, op.stripe), true, base + op.o0, uint32_t(op.o1 - op.o0), pd, 0});
    op.outstanding++;
  }
  if (op.outstanding == 0) op_finish(op);
}

void ArrayController::op_finish(Op& op) {
  if (op.special == kFlush) {
    const uint64_t req = op.req;
    ops_.erase(op.id);
    Request& r = reqs_.at(req);
    if (--r.ops == 0) complete_request(req, now_ps());
    return;
  }
  if (!op.write) {
    // What the host gets, checked against what it wrote: direct reads, or the XOR of the others.
    for (uint32_t j = 0; j < map_.data_chunks(); ++j) {
      const uint32_t d = map_.data_device(op.stripe, j);
      for (uint64_t o = op.wlo[j]; o < op.whi[j]; ++o) {
        uint32_t t = op.tok[d][o - op.o0];
        if (d == op.recon) {
          t = 0;
          for (uint32_t e = 0; e < map_.devices(); ++e)
            if (e != d) t ^= op.tok[e][o - op.o0];
        }
        sb_.check(map_.array_lba(op.stripe, j, o), t);
      }
    }
  }
  StripeLock& L = locks_[op.stripe];
  if (op.write)
    L.writer = false;
  else
    L.readers--;
  const uint64_t stripe = op.stripe, req = op.req;
  const bool rebuild = op.special == kRebuild;
  ops_.erase(op.id);
  lock_grant(stripe);
  if (L.q.empty() && !L.writer && !L.readers) locks_.erase(stripe);
  if (rebuild) {  // the spare holds this stripe now; the next one starts at the rebuild rate
    rebuilt_ = stripe + 1;
    rebuild_busy_ = false;
    const uint64_t stripes = map_.array_lbas() / map_.stripe_lbas();
    const double bytes = double(rebuilt_) * double(map_.chunk_lbas()) * lba_size_;
    next_rebuild_ = rebuilt_ < stripes ? rebuild_begin_ + uint64_t(bytes / double(p_.rebuild_rate) * 1e12) : UINT64_MAX;
    if (rebuilt_ == stripes) rebuild_end_ = now_ps();
    return;
  }
  Request& r = reqs_.at(req);
  if (--r.ops == 0) complete_request(req, now_ps());
}

uint32_t ArrayController::gc_devices_during(uint64_t since) const {
  uint32_t n = 0;
  for (uint32_t d = 0; d < ports_.size(); ++d) {
    const Port& p = *ports_[d];
    if (failed_ && d == uint32_t(p_.fail_device)) continue;  // out of the array
    n += p.gc_open > 0 || (p.ever_gc && p.gc_last_end >= since);
  }
  return n;
}

uint64_t ArrayController::add_special_op(uint64_t req, uint64_t stripe, uint8_t kind) {
  Op op;
  op.id = next_op_++;
  op.req = req;
  op.stripe = stripe;
  op.write = true;
  op.special = kind;
  op.first = op.n = op.o0 = 0;
  op.o1 = kind == kRebuild ? map_.chunk_lbas() : 0;  // a rebuild covers whole chunks
  op.tok.assign(kind == kRebuild ? map_.devices() : 0, {});
  const uint64_t id = op.id;
  ops_.emplace(id, std::move(op));
  return id;
}

void ArrayController::rebuild_step(uint64_t) {
  rebuild_busy_ = true;
  locks_[rebuilt_].q.push_back(add_special_op(UINT64_MAX, rebuilt_, kRebuild));
  lock_grant(rebuilt_);
}

void ArrayController::complete_request(uint64_t id, uint64_t now) {
  Request& r = reqs_.at(id);
  const uint64_t lat = (now - r.arrival_ps) / 1000;
  if (r.io.op == host::IoOp::read) {
    ++reads_;
    read_bytes_ += r.nlb * lba_size_;
    read_lat_.add(lat);
    const uint32_t g = gc_devices_during(r.arrival_ps);
    gc_hist_[g]++;
    if (collecting_now_ >= 2 || (multi_ever_ && multi_last_end_ >= r.arrival_ps)) ++instant_collisions_;
    lat_by_gc_[g].add(lat);
  } else if (r.io.op == host::IoOp::trim) {
    ++trims_;
    trim_array_lbas_ += r.nlb;
  } else if (r.io.op == host::IoOp::flush) {
    ++flushes_;
  } else {
    ++writes_;
    write_bytes_ += r.nlb * lba_size_;
    write_lat_.add(lat);
  }
  ++requests_;
  end_ps_ = now;
  reqs_.erase(id);
}

// ---- device queues -------------------------------------------------------------------

void ArrayController::issue(const DevIo& io) {
  Port& p = *ports_[io.dev];
  if (io.special) {  // one command (a DSM range holds up to 2^32 LBAs)
    p.waiting.push_back(io);
    p.max_queue = std::max<uint64_t>(p.max_queue, p.busy + p.waiting.size());
    return;
  }
  for (uint32_t done = 0; done < io.n;) {  // split at the device's largest transfer
    DevIo part = io;
    part.lba = io.lba + done;
    part.buf_off = io.buf_off + done;
    part.n = std::min(io.n - done, max_transfer_);
    p.waiting.push_back(part);
    done += part.n;
    if (done < io.n) ops_.at(io.op).outstanding++;  // one more part to wait for
  }
  p.max_queue = std::max<uint64_t>(p.max_queue, p.busy + p.waiting.size());
}

void ArrayController::pump(uint32_t d) {
  Port& p = *ports_[d];
  while (!p.waiting.empty() && p.busy < p_.device_qd) {
    uint32_t s = 0;
    while (p.slots[s].busy) ++s;
    Slot& sl = p.slots[s];
    sl.busy = true;
    sl.io = p.waiting.front();
    p.waiting.pop_front();
    ++p.busy;
    nvme_sqe e{};
    e.cdw0 = (sl.io.write ? NVME_OP_WRITE : NVME_OP_READ) | (s << 16);
    e.nsid = 1;
    e.prp1 = sl.host_buf;
    e.cdw10 = uint32_t(sl.io.lba);
    e.cdw11 = uint32_t(sl.io.lba >> 32);
    e.cdw12 = sl.io.n - 1;
    if (sl.io.special == kFlush) {
      e.cdw0 = SSDVP_FIELD_PUT(NVME_CDW0_OPC, NVME_OP_FLUSH) | SSDVP_FIELD_PUT(NVME_CDW0_CID, s);
      e.prp1 = e.cdw10 = e.cdw11 = e.cdw12 = 0;
    } else if (sl.io.special == kTrim) {
      const nvme_dsm_range range{0, sl.io.n, sl.io.lba};
      std::memcpy(p.mem->data() + sl.host_buf, &range, sizeof range);
      e.cdw0 = SSDVP_FIELD_PUT(NVME_CDW0_OPC, NVME_OP_DSM) | SSDVP_FIELD_PUT(NVME_CDW0_CID, s);
      e.cdw10 = SSDVP_FIELD_PUT(NVME_CDW10_DSM_NR, 0);  // one range
      e.cdw11 = SSDVP_FIELD_PUT(NVME_CDW11_DSM_AD, 1);  // deallocate
      e.cdw12 = 0;
      ++trim_device_cmds_;
    } else if (sl.io.write) {
      const Op& op = ops_.at(sl.io.op);
      std::memcpy(p.mem->data() + sl.host_buf, op.tok[sl.io.buf_dev].data() + sl.io.buf_off, sl.io.n * 4u);
      ++p.writes;
    } else {
      ++p.reads;
    }
    p.io.push(e);
  }
  while (!p.await.empty()) {
    uint32_t s = 0;
    while (s < p.aslots.size() && p.aslots[s].busy) ++s;
    if (s == p.aslots.size()) break;
    nvme_sqe e = p.await.front().first;
    p.aslots[s].busy = true;
    p.aslots[s].opcode = p.await.front().second;
    p.await.pop_front();
    e.cdw0 = (e.cdw0 & 0xffff) | (s << 16);
    p.adm.push(e);
  }
}

void ArrayController::ring_all() {
  for (uint32_t d = 0; d < ports_.size(); ++d) {
    pump(d);
    Port& p = *ports_[d];
    p.adm.ring_sq();
    p.io.ring_sq();
  }
}

void ArrayController::admin(uint32_t d, const nvme_sqe& e, uint8_t opcode) { ports_[d]->await.emplace_back(e, opcode); }

void ArrayController::reap(uint32_t d) {
  Port& p = *ports_[d];
  nvme_cqe c;
  while (p.io.pop(&c)) {
    if (c.cid >= p.slots.size() || !p.slots[c.cid].busy) {
      ++errors_;
      continue;
    }
    Slot& sl = p.slots[c.cid];
    sl.busy = false;
    --p.busy;
    io_done(p, sl, NvmeQueuePair::status(c));
  }
  while (p.adm.pop(&c)) {
    if (c.cid >= p.aslots.size() || !p.aslots[c.cid].busy) {
      ++errors_;
      continue;
    }
    p.aslots[c.cid].busy = false;
    admin_done(d, p.aslots[c.cid].opcode, c.dw0, NvmeQueuePair::status(c));
  }
  p.io.ring_cq();
  p.adm.ring_cq();
}

void ArrayController::io_done(Port& p, const Slot& s, uint16_t status) {
  const DevIo& io = s.io;
  Op& op = ops_.at(io.op);
  if (status != NVME_SC_SUCCESS) {
    ++errors_;
  } else if (!io.write && !io.special) {
    const auto* t = reinterpret_cast<const uint32_t*>(p.mem->data() + s.host_buf);
    std::memcpy(op.tok[io.buf_dev].data() + io.buf_off, t, io.n * 4u);
    const auto& expect = devtok_[io.dev];
    for (uint32_t i = 0; i < io.n; ++i) {  // every device read (data, old data, parity) checked
      ++dev_checked_;
      if (t[i] != expect[io.lba + i]) ++dev_mismatches_;
    }
  }
  if (--op.outstanding) return;
  if (op.phase == 1)
    op_read_phase_done(op);
  else
    op_finish(op);
}

// ---- GC coordination ---------------------------------------------------------------------

void ArrayController::admin_done(uint32_t d, uint8_t opcode, uint32_t dw0, uint16_t status) {
  if (status != NVME_SC_SUCCESS) {
    ++errors_;
    return;
  }
  if (opcode != NVME_ADMIN_ASYNC_EVENT_REQUEST) return;
  ++aens_;
  Port& p = *ports_[d];
  const uint64_t now = now_ps();
  if ((dw0 & 7) == 7 && ((dw0 >> 16) & 0xff) == 0xc0) {
    switch ((dw0 >> 8) & 0xff) {
      case GCGATE_EV_GC_START:
        p.known_gc = true;
        ++p.gc_reports;
        break;
      case GCGATE_EV_GC_END: p.known_gc = false; break;
      case GCGATE_EV_LOCK_REQUEST: lock_request(d, now); break;
      case GCGATE_EV_LOCK_RELEASE: lock_release(d, now); break;
      case GCGATE_EV_GGC_REQUEST: global_gc_request(d, now); break;
      case GCGATE_EV_COLLECT_DONE: collect_done(d, now); break;
      default: break;
    }
  }
  nvme_sqe e{};
  e.cdw0 = NVME_ADMIN_ASYNC_EVENT_REQUEST;
  admin(d, e, NVME_ADMIN_ASYNC_EVENT_REQUEST);
}

void ArrayController::lock_request(uint32_t d, uint64_t now) {
  if (holder_ == int32_t(d) || std::find(lock_waiters_.begin(), lock_waiters_.end(), d) != lock_waiters_.end()) return;
  if (holder_ < 0) {
    holder_ = int32_t(d);
    hold_begin_ = now;
    ++grants_;
    nvme_sqe e{};
    e.cdw0 = NVME_ADMIN_VS_GC_LOCK;
    e.cdw10 = 1;
    admin(d, e, NVME_ADMIN_VS_GC_LOCK);
  } else {
    lock_waiters_.push_back(d);  // a refused device waits for the next release (see docs)
    max_waiters_ = std::max(max_waiters_, lock_waiters_.size());
  }
}

void ArrayController::lock_release(uint32_t d, uint64_t now) {
  if (holder_ != int32_t(d)) {
    ++lock_overlaps_;
    return;
  }
  hold_sum_ += now - hold_begin_;
  hold_max_ = std::max(hold_max_, now - hold_begin_);
  holder_ = -1;
  if (!lock_waiters_.empty()) {
    const uint32_t next = lock_waiters_.front();
    lock_waiters_.pop_front();
    lock_request(next, now);
  }
}

void ArrayController::collect(uint32_t d, uint32_t blocks) {
  Port& p = *ports_[d];
  if (!p.collecting) p.collect_since = now_ps();
  p.collecting = true;
  nvme_sqe e{};
  e.cdw0 = NVME_ADMIN_VS_GC_COLLECT;
  e.cdw10 = 1;
  e.cdw11 = blocks;
  admin(d, e, NVME_ADMIN_VS_GC_COLLECT);
  ++collects_sent_;
}

// Harmonia's reactive global GC (Kim et al., MSST 2011): a drive that needs to
// collect asks (event 5); the controller then tells every drive, idle or not,
// to collect at once, and the global collection ends when all have reported
// their target reached. A request during a global collection starts another
// one after it.
void ArrayController::global_gc_request(uint32_t, uint64_t now) {
  ++ggc_requests_;
  if (p_.coordination != Coordination::harmonia) return;
  if (ggc_active_) {
    ggc_pending_ = true;
    return;
  }
  ggc_active_ = true;
  ggc_begin_ = now;
  ++ggc_rounds_;
  ggc_outstanding_ = uint32_t(ports_.size());
  for (uint32_t d = 0; d < ports_.size(); ++d) collect(d, p_.harmonia_blocks);
}

void ArrayController::collect_done(uint32_t d, uint64_t now) {
  Port& p = *ports_[d];
  ++collects_done_;
  if (p.collecting && timeline_) timeline_->span(window_track_[d], "collect", p.collect_since, now);
  p.collecting = false;
  if (!ggc_active_ || ggc_outstanding_ == 0 || --ggc_outstanding_) return;
  ggc_active_ = false;
  ggc_sum_ += now - ggc_begin_;
  ggc_max_ = std::max(ggc_max_, now - ggc_begin_);
  if (ggc_pending_) {
    ggc_pending_ = false;
    global_gc_request(d, now);
    --ggc_requests_;  // the same request, served now
  }
}

void ArrayController::windows_update(uint64_t now) {
  const uint64_t t = now - t0_;
  for (uint32_t d = 0; d < ports_.size(); ++d) {
    Port& p = *ports_[d];
    const uint32_t c =
        failed_ && d == spare_dev_ ? uint32_t(p_.fail_device) : d;  // the spare takes the failed device's windows
    const uint32_t w = sched_.open(c, t) ? NVME_PLM_NDWIN : NVME_PLM_DTWIN;
    if (w == p.window) continue;
    if (timeline_ && p.window == NVME_PLM_NDWIN) timeline_->span(window_track_[d], "NDWIN", p.window_since, now);
    p.window = w;
    p.window_since = now;
    nvme_sqe e{};
    e.cdw0 = NVME_ADMIN_SET_FEATURES;
    e.cdw10 = NVME_FEAT_PLM_WINDOW;
    e.cdw12 = w;
    admin(d, e, NVME_ADMIN_SET_FEATURES);
    ++set_features_;
    if (w == NVME_PLM_NDWIN && p_.bank_blocks) collect(d, p_.bank_blocks);  // bank free blocks while allowed
  }
  next_window_ = t0_ + sched_.next_change(t);
}

void ArrayController::set_timeline(Timeline* t) {
  timeline_ = t;
  for (uint32_t d = 0; d < ports_.size(); ++d) {
    gc_track_.push_back(t->track(10, "array GC (firmware activity)", "ssd" + std::to_string(d) + " gc"));
    window_track_.push_back(t->track(11, "array GC windows (PLM NDWIN)", "ssd" + std::to_string(d) + " window"));
  }
}

void ArrayController::gc_trace(uint32_t d, bool start, uint64_t at) {
  Port& p = *ports_[d];
  if (start) {
    if (p.gc_open++ == 0) {
      p.gc_since = at;
      ++collecting_now_;
      if (collecting_now_ >= 2) multi_ever_ = true;
      max_concurrent_gc_ = std::max(max_concurrent_gc_, collecting_now_);
    }
    p.ever_gc = true;
  } else if (p.gc_open && --p.gc_open == 0) {
    p.gc_last_end = at;
    if (collecting_now_-- == 2) multi_last_end_ = at;
    if (timeline_) timeline_->span(gc_track_[d], "GC", p.gc_since, at);
  }
}

// ---- the controller's thread ---------------------------------------------------------------

void ArrayController::run() {
  wait(start_ev_);
  try {
    replay();
  } catch (...) {
    error_ = std::current_exception();
  }
  if (on_finish_) on_finish_();
}

void ArrayController::replay() {
  t0_ = start_ps_ = end_ps_ = now_ps();
  p_.pacer.start(t0_);
  const bool windows = p_.coordination == Coordination::gcsync || p_.coordination == Coordination::gcsync_plus;
  setup_gc_features(windows);
  if (windows) windows_update(t0_);
  if (sampler_ && sample_ps_) next_sample_ = t0_;
  if (!workload_) {
    finished_ = true;
    return;
  }
  RequestPacer& pacer = p_.pacer;
  host::IoRequest io;
  bool have_next = next_request(io);
  pacer.progress(now_ps());
  for (;;) {
    const uint64_t now = now_ps();
    if (pacer.past_limit(now)) have_next = false;
    while (have_next && pacer.due(io.time_ps, reqs_.size(), now)) {
      admit(io, pacer.arrival(io.time_ps, now));
      have_next = next_request(io);
    }
    if (windows && now >= next_window_) windows_update(now);
    if (p_.fail_device >= 0 && !failed_ && now >= t0_ + p_.fail_ps) fail_device(now);
    if (failed_ && !rebuild_busy_ && now >= next_rebuild_) rebuild_step(now);
    while (!ready_.empty()) {
      const uint64_t id = ready_.front();
      ready_.pop_front();
      op_start(ops_.at(id));
    }
    if (now >= next_sample_) {
      sampler_();
      next_sample_ = now + sample_ps_;
    }
    ring_all();
    const bool rebuilding = failed_ && spare_dev_ != UINT32_MAX && rebuild_end_ == 0;
    if (!have_next && reqs_.empty() && !rebuilding) break;
    wait_for_work(have_next, io, rebuilding, now);
    const uint64_t before = requests_ + dev_checked_;
    for (uint32_t d = 0; d < ports_.size(); ++d) reap(d);
    if (requests_ + dev_checked_ != before || reqs_.empty()) pacer.progress(now_ps());
    if (pacer.stalled(now_ps(), !reqs_.empty()))
      throw std::runtime_error("array: no request completed in " + std::to_string(double(pacer.stall_ps()) * 1e-12) +
                               " s of simulated time: a device is stuck (host.stall_timeout)");
  }
  if (timeline_)
    for (uint32_t d = 0; d < ports_.size(); ++d)
      if (ports_[d]->window == NVME_PLM_NDWIN)
        timeline_->span(window_track_[d], "NDWIN", ports_[d]->window_since, now_ps());
  finished_ = true;
}

// Before the replay: each device reports GC start and end (and takes the
// GC lock mode, or Harmonia's), PLM enabled for the window policies, and
// asynchronous event requests kept outstanding.
void ArrayController::setup_gc_features(bool windows) {
  for (uint32_t d = 0; d < ports_.size(); ++d) {
    nvme_sqe e{};
    e.cdw0 = NVME_ADMIN_SET_FEATURES;  // GC start/end events; GCLock mode
    e.cdw10 = NVME_FEAT_VS_GC_REPORT;
    e.cdw11 = 1u | (p_.coordination == Coordination::gclock ? 2u : 0u) |
              (p_.coordination == Coordination::harmonia ? 4u : 0u);
    admin(d, e, NVME_ADMIN_SET_FEATURES);
    if (windows) {
      e.cdw10 = NVME_FEAT_PLM_CONFIG;
      e.cdw11 = 0;  // NVM set 0
      e.cdw12 = 1;  // enable
      admin(d, e, NVME_ADMIN_SET_FEATURES);
      ++set_features_;
    }
    for (uint32_t k = 0; k < kAers; ++k) {
      nvme_sqe a{};
      a.cdw0 = NVME_ADMIN_ASYNC_EVENT_REQUEST;
      admin(d, a, NVME_ADMIN_ASYNC_EVENT_REQUEST);
    }
  }
}

// array.fail.*: the device drops out of the array at `now`.
void ArrayController::fail_device(uint64_t now) {
  failed_ = true;
  failed_at_ = now;
  Port& fp = *ports_[uint32_t(p_.fail_device)];
  if (fp.gc_open) {
    fp.gc_open = 0;
    fp.gc_last_end = now;
    --collecting_now_;
  }
  if (spare_dev_ != UINT32_MAX) rebuild_begin_ = next_rebuild_ = now;
}

// Waits for an MSI of any device or the next thing due: a window change, a
// sample, the device failure, a rebuild step, an arrival, the stall limit.
void ArrayController::wait_for_work(bool have_next, const host::IoRequest& io, bool rebuilding, uint64_t now) {
  const RequestPacer& pacer = p_.pacer;
  uint64_t wake = std::min(next_window_, next_sample_);
  if (p_.fail_device >= 0 && !failed_ && (have_next || !reqs_.empty())) wake = std::min(wake, t0_ + p_.fail_ps);
  if (rebuilding && !rebuild_busy_) wake = std::min(wake, next_rebuild_);
  if (have_next && !pacer.closed_loop()) wake = std::min(wake, t0_ + io.time_ps);
  if (pacer.stall_ps() && !reqs_.empty()) wake = std::min(wake, pacer.stall_at());
  if (wake <= now) return;
  wake_.arm(wake, now);  // not a timed wait: no dead kernel entry per I/O (wake_timer.h)
  wait(any_msi_);
}

// ---- summary ---------------------------------------------------------------------------------

nlohmann::json ArrayController::summary() const {
  using nlohmann::json;
  const double sim_s = sim_seconds();
  json hist = json::object(), lat = json::object();
  uint64_t collisions = 0;
  for (uint32_t g = 0; g < gc_hist_.size(); ++g) {
    const std::string k = std::to_string(g) + "GC";
    hist[k] = gc_hist_[g];
    if (g >= 2) collisions += gc_hist_[g];
    if (gc_hist_[g]) lat[k] = latency_json(lat_by_gc_[g]);
  }
  uint64_t four_plus = 0;
  for (uint32_t g = 4; g < gc_hist_.size(); ++g) four_plus += gc_hist_[g];
  json devs = json::array();
  for (const auto& p : ports_)
    devs.push_back({{"reads", p->reads},
                    {"writes", p->writes},
                    {"reconstruction_reads", p->recon_reads},
                    {"max_queue", p->max_queue},
                    {"gc_reported", p->gc_reports}});
  json j = {
      {"level", "raid5"},
      {"devices", map_.devices()},
      {"chunk_lbas", map_.chunk_lbas()},
      {"array_lbas", map_.array_lbas()},
      {"gc_coordination", to_string(p_.coordination)},
      {"reconstruct", to_string(p_.reconstruct)},
      {"requests", requests_},
      {"reads", reads_},
      {"writes", writes_},
      {"trims",
       {{"requests", trims_},
        {"array_lbas", trim_array_lbas_},
        {"rows_deallocated", trim_rows_},
        {"lbas_not_forwarded", trim_kept_lbas_},
        {"device_commands", trim_device_cmds_}}},
      {"flushes", flushes_},
      {"wrapped_requests", wrapped_},
      {"out_of_range_requests", out_of_range_},
      {"sim_time_s", sim_s},
      {"iops", sim_s > 0 ? double(reads_ + writes_) / sim_s : 0.0},
      {"bandwidth_mbps", sim_s > 0 ? double(read_bytes_ + write_bytes_) / 1e6 / sim_s : 0.0},
      {"latency_us", {{"read", latency_json(read_lat_)}, {"write", latency_json(write_lat_)}}},
      {"reads_by_gc_devices", hist},
      {"reads_4gc_plus", four_plus},
      {"collisions", collisions},
      {"collisions_at_one_instant", instant_collisions_},
      {"max_devices_collecting", max_concurrent_gc_},
      {"read_latency_by_gc_devices_us", lat},
      {"stripe_writes", {{"full", full_stripe_}, {"reconstruct_write", rcw_}, {"read_modify_write", rmw_}}},
      {"reconstructions", reconstructions_},
      {"reconstruction_device_reads", recon_device_reads_},
      {"host_cpu",
       {{"xor_bytes", xor_tokens_ * lba_size_},
        {"stripe_ops", stripe_ops_},
        {"seconds", double(xor_tokens_) * lba_size_ / 1024.0 * double(p_.xor_ps_per_kib) * 1e-12 +
                        double(stripe_ops_) * double(p_.stripe_op_ps) * 1e-12},
        {"utilization", sim_s > 0 ? (double(xor_tokens_) * lba_size_ / 1024.0 * double(p_.xor_ps_per_kib) * 1e-12 +
                                     double(stripe_ops_) * double(p_.stripe_op_ps) * 1e-12) /
                                        sim_s
                                  : 0.0}}},
      {"plm_set_features", set_features_},
      {"async_events", aens_},
      {"errors", errors_},
      {"devices_io", devs},
      {"integrity",
       {{"reads_checked", sb_.checked()},
        {"mismatches", sb_.mismatches()},
        {"device_reads_checked", dev_checked_},
        {"device_mismatches", dev_mismatches_}}}};
  j.update(gc_summary());
  j["degraded"] = degraded_summary();
  return j;
}

// array.gc_coordination's figures: the GC lock, global GC, collect commands.
nlohmann::json ArrayController::gc_summary() const {
  return {{"gc_lock",
           {{"grants", grants_},
            {"mean_hold_ms", grants_ ? double(hold_sum_) / double(grants_) * 1e-9 : 0.0},
            {"max_hold_ms", double(hold_max_) * 1e-9},
            {"max_waiters", max_waiters_},
            {"overlaps", lock_overlaps_}}},
          {"global_gc",
           {{"requests", ggc_requests_},
            {"collections", ggc_rounds_},
            {"mean_ms", ggc_rounds_ ? double(ggc_sum_) / double(ggc_rounds_) * 1e-9 : 0.0},
            {"max_ms", double(ggc_max_) * 1e-9}}},
          {"collect_commands", {{"sent", collects_sent_}, {"done", collects_done_}}}};
}

// array.fail_device: the failed device, degraded I/O and the rebuild.
nlohmann::json ArrayController::degraded_summary() const {
  return {{"failed_device", p_.fail_device},
          {"failed", failed_},
          {"failed_at_s", double(failed_at_) * 1e-12},
          {"degraded_reads", degraded_reads_},
          {"degraded_writes", degraded_writes_},
          {"rebuild",
           {{"spare", spare_dev_ != UINT32_MAX},
            {"stripes_rebuilt", rebuilt_},
            {"stripes", map_.array_lbas() / map_.stripe_lbas()},
            {"begin_s", double(rebuild_begin_) * 1e-12},
            {"end_s", double(rebuild_end_) * 1e-12},
            {"lbas_checked", rebuild_checked_},
            {"mismatches", rebuild_mismatches_}}}};
}

}  // namespace ssdvp::array
