// hostile.cpp - see hostile.h.
#include "run/hostile.h"

#include <cstdio>
#include <cstring>
#include <functional>
#include <map>
#include <memory>

#include "host/host_memory.h"
#include "host/nvme_queue_pair.h"
#include "run/params.h"
#include "soc/ssd_soc.h"
#include "ssdvp_hw.h"

namespace ssdvp {
namespace {

using sc_core::sc_time;
constexpr int kTimedOut = -1;
constexpr uint16_t kStatusMask = 0x7ff;  // SCT and SC (not More, not DNR)

std::string status_text(int s) {
  if (s == kTimedOut) return "no completion";
  char b[64];
  const char* name = "";
  switch (s) {
    case NVME_SC_SUCCESS: name = " Success"; break;
    case NVME_SC_INVALID_OPCODE: name = " Invalid Opcode"; break;
    case NVME_SC_INVALID_FIELD: name = " Invalid Field"; break;
    case NVME_SC_DATA_XFER_ERROR: name = " Data Transfer Error"; break;
    case NVME_SC_ABORTED_SQ_DELETION: name = " Aborted (SQ Deletion)"; break;
    case NVME_SC_INVALID_NS: name = " Invalid Namespace"; break;
    case NVME_SC_LBA_OUT_OF_RANGE: name = " LBA Out of Range"; break;
    case NVME_SC_NS_NOT_READY: name = " Namespace Not Ready"; break;
    default: break;
  }
  std::snprintf(b, sizeof b, "0x%03x%s", unsigned(s), name);
  return b;
}

struct Hostile : sc_core::sc_module {
  tlm_utils::simple_initiator_socket<Hostile> pcie{"pcie"};
  Doorbells bells{pcie};
  HostMemory& mem;
  SsdSoc& soc;
  std::vector<HostileResult> results;
  std::function<void()> on_done;
  bool finished = false;
  uint16_t next_cid = 0;
  NvmeQueuePair admin, io;
  uint64_t buf = 0, buf2 = 0;

  SC_HAS_PROCESS(Hostile);
  Hostile(sc_core::sc_module_name n, HostMemory& m, SsdSoc& s) : sc_module(n), mem(m), soc(s) {
    admin = make_queue(0, 16);
    io = make_queue(1, 64);
    buf = mem.alloc(4 * 65536);
    buf2 = mem.alloc(4 * 65536);
    SC_THREAD(run);
  }
  NvmeQueuePair make_queue(uint16_t qid, uint32_t depth) { return NvmeQueuePair(mem, bells, qid, depth); }
  uint32_t* words(uint64_t host_addr) { return reinterpret_cast<uint32_t*>(mem.data() + host_addr); }

  // A doorbell write of the host's choosing (a tail it never pushed to).
  void doorbell(uint32_t off, uint32_t v) { wait(bells.write(off, v)); }
  void ring_sq(NvmeQueuePair& q) { wait(q.ring_sq()); }
  uint16_t put(NvmeQueuePair& q, nvme_sqe e) {
    const uint16_t cid = next_cid++;
    e.cdw0 = (e.cdw0 & 0xffff) | SSDVP_FIELD_PUT(NVME_CDW0_CID, cid);
    q.push(e);
    return cid;
  }
  // Takes the completions posted so far into `got` (cid -> status; a second
  // completion of one cid is recorded as `twice`).
  void reap(NvmeQueuePair& q, std::map<uint16_t, int>& got, uint32_t& twice) {
    bool any = false;
    nvme_cqe c;
    while (q.pop(&c)) {
      if (!got.emplace(c.cid, NvmeQueuePair::status(c) & kStatusMask).second) ++twice;
      any = true;
    }
    // A deleted queue takes no doorbells any more.
    if (any && soc.nvme.queue_live(q.qid())) wait(q.ring_cq());
  }
  // Submits one command and waits up to `limit` for its completion.
  int exec(NvmeQueuePair& q, nvme_sqe e, sc_time limit = sc_time(50, sc_core::SC_MS)) {
    const uint16_t cid = put(q, e);
    ring_sq(q);
    const sc_time deadline = sc_core::sc_time_stamp() + limit;
    std::map<uint16_t, int> got;
    uint32_t twice = 0;
    for (;;) {
      const size_t before = got.size();
      reap(q, got, twice);
      auto it = got.find(cid);
      if (it != got.end()) return it->second;
      if (sc_core::sc_time_stamp() >= deadline) return kTimedOut;
      if (got.size() == before) wait(deadline - sc_core::sc_time_stamp(), mem.msi_event());
    }
  }
  static nvme_sqe rw(uint8_t op, uint64_t slba, uint32_t nlb, uint64_t prp, uint32_t nsid = 1) {
    nvme_sqe e{};
    e.cdw0 = SSDVP_FIELD_PUT(NVME_CDW0_OPC, op);
    e.nsid = nsid;
    e.prp1 = prp;
    e.cdw10 = uint32_t(slba);
    e.cdw11 = uint32_t(slba >> 32);
    e.cdw12 = SSDVP_FIELD_PUT(NVME_CDW12_NLB, nlb - 1);
    return e;
  }
  static nvme_sqe dsm(uint64_t ranges, uint32_t n) {
    nvme_sqe e{};
    e.cdw0 = SSDVP_FIELD_PUT(NVME_CDW0_OPC, NVME_OP_DSM);
    e.nsid = 1;
    e.prp1 = ranges;
    e.cdw10 = SSDVP_FIELD_PUT(NVME_CDW10_DSM_NR, n - 1);
    e.cdw11 = SSDVP_FIELD_PUT(NVME_CDW11_DSM_AD, 1);
    return e;
  }
  void expect(const std::string& name, int want, int got) {
    results.push_back({name, status_text(want), status_text(got), want == got});
  }
  void note(const std::string& name, const std::string& want, const std::string& got, bool ok) {
    results.push_back({name, want, got, ok});
  }
  // A write of n LBAs with tokens seed.. and a read back; true if they match.
  bool round_trip(uint64_t lba, uint32_t n, uint32_t seed) {
    for (uint32_t i = 0; i < n; ++i) words(buf)[i] = seed + i;
    if (exec(io, rw(NVME_OP_WRITE, lba, n, buf)) != NVME_SC_SUCCESS) return false;
    std::memset(words(buf2), 0xee, 4 * n);
    if (exec(io, rw(NVME_OP_READ, lba, n, buf2)) != NVME_SC_SUCCESS) return false;
    for (uint32_t i = 0; i < n; ++i)
      if (words(buf2)[i] != seed + i) return false;
    return true;
  }

  void run() {
    const uint64_t lbas = soc.logical_lbas();
    const uint32_t mdts = soc.fw_config().max_transfer_lbas;
    const uint64_t outside = mem.size() + (1ull << 30);  // no host memory there

    // Namespace not ready (the firmware's ftl.ns_ready_after).
    const uint64_t ready_ns = soc.fw_config().ns_ready_ns;
    if (ready_ns) {
      expect("namespace not ready: read before ftl.ns_ready_after", NVME_SC_NS_NOT_READY,
             exec(io, rw(NVME_OP_READ, 0, 1, buf)));
      const sc_time ready = sc_time::from_value(ready_ns * 1000);
      if (sc_core::sc_time_stamp() < ready) wait(ready - sc_core::sc_time_stamp());
      expect("namespace not ready: the same read after", NVME_SC_SUCCESS, exec(io, rw(NVME_OP_READ, 0, 1, buf)));
    } else {
      note("namespace not ready", "0x082 Namespace Not Ready", "not tried: ftl.ns_ready_after is 0", true);
    }

    // Invalid opcode.
    expect("invalid opcode: I/O 0x42", NVME_SC_INVALID_OPCODE, exec(io, rw(0x42, 0, 1, buf)));
    nvme_sqe a{};
    a.cdw0 = SSDVP_FIELD_PUT(NVME_CDW0_OPC, 0x7f);
    expect("invalid opcode: admin 0x7f", NVME_SC_INVALID_OPCODE, exec(admin, a));

    // Invalid field.
    expect("invalid field: more LBAs than MDTS", NVME_SC_INVALID_FIELD, exec(io, rw(NVME_OP_WRITE, 0, mdts + 1, buf)));
    nvme_sqe fused = rw(NVME_OP_WRITE, 0, 1, buf);
    fused.cdw0 |= SSDVP_FIELD_PUT(NVME_CDW0_FUSE, 1);
    expect("invalid field: fused operation", NVME_SC_INVALID_FIELD, exec(io, fused));
    nvme_sqe sgl = rw(NVME_OP_READ, 0, 1, buf);
    sgl.cdw0 |= SSDVP_FIELD_PUT(NVME_CDW0_PSDT, 1);
    expect("invalid field: SGL data pointer (PSDT 1)", NVME_SC_INVALID_FIELD, exec(io, sgl));
    nvme_sqe dir = rw(NVME_OP_WRITE, 0, 1, buf);
    dir.cdw12 |= SSDVP_FIELD_PUT(NVME_CDW12_DTYPE, 7);
    expect("invalid field: write directive type 7", NVME_SC_INVALID_FIELD, exec(io, dir));

    // Invalid namespace.
    expect("invalid namespace: NSID 2", NVME_SC_INVALID_NS, exec(io, rw(NVME_OP_WRITE, 0, 1, buf, 2)));
    expect("invalid namespace: NSID 0", NVME_SC_INVALID_NS, exec(io, rw(NVME_OP_READ, 0, 1, buf, 0)));

    // LBA out of range.
    expect("LBA out of range: start at the namespace size", NVME_SC_LBA_OUT_OF_RANGE,
           exec(io, rw(NVME_OP_READ, lbas, 1, buf)));
    expect("LBA out of range: range crossing the end", NVME_SC_LBA_OUT_OF_RANGE,
           exec(io, rw(NVME_OP_WRITE, lbas - 2, 4, buf)));
    expect("LBA out of range: start above 2^32", NVME_SC_LBA_OUT_OF_RANGE,
           exec(io, rw(NVME_OP_READ, (1ull << 32) + 5, 1, buf)));
    nvme_dsm_range r{};
    r.slba = lbas - 1;
    r.nlb = 8;
    std::memcpy(mem.data() + buf, &r, sizeof r);
    expect("LBA out of range: deallocate past the end", NVME_SC_LBA_OUT_OF_RANGE, exec(io, dsm(buf, 1)));

    // A PRP outside host memory.
    expect("PRP outside host memory: write", NVME_SC_DATA_XFER_ERROR, exec(io, rw(NVME_OP_WRITE, 8, 4, outside)));
    expect("PRP outside host memory: read", NVME_SC_DATA_XFER_ERROR, exec(io, rw(NVME_OP_READ, 8, 4, outside)));
    expect("PRP outside host memory: deallocate ranges", NVME_SC_DATA_XFER_ERROR, exec(io, dsm(outside, 2)));

    sq_outside_host_memory(outside);
    queue_deleted_while_in_use(lbas, mdts);

    const bool still = round_trip(lbas / 2, 16, 0x7000);
    note("after all of it: write/read round trip on queue 1", "tokens match", still ? "tokens match" : "mismatch",
         still);
    finished = true;
    if (on_done) on_done();
  }

  void sq_outside_host_memory(uint64_t outside) {
    NvmeQueuePair q(mem, bells, 2, 16, outside, mem.alloc(16 * sizeof(nvme_cqe)));
    const uint64_t before = soc.nvme.stats().fetch_errors;
    if (!q.create(soc.nvme)) {
      note("SQ outside host memory", "refused", "create_io_queue failed", false);
      return;
    }
    doorbell(q.sq_doorbell(), 1);  // one entry, which is not in host memory
    wait(sc_time(100, sc_core::SC_US));
    std::map<uint16_t, int> got;
    uint32_t twice = 0;
    reap(q, got, twice);
    const uint64_t dropped = soc.nvme.stats().fetch_errors - before;
    note("SQ outside host memory: entry refused", "refused: 1 fetch error, no completion",
         std::to_string(dropped) + " fetch error(s), " + std::to_string(got.size()) + " completion(s)",
         dropped == 1 && got.empty());
    soc.nvme.delete_io_queue(q.qid());
  }

  void queue_deleted_while_in_use(uint64_t lbas, uint32_t mdts) {
    // More one-LBA writes than the firmware's command ring holds, so that
    // some are still in the SQ when the delete comes.
    constexpr uint32_t kCommands = 1000;
    NvmeQueuePair q = make_queue(3, 1024);
    const uint64_t data = mem.alloc(4 * kCommands);
    const uint64_t base = lbas / 4;
    if (!q.create(soc.nvme)) {
      note("queue deleted while in use", "every command completes once", "create_io_queue failed", false);
      return;
    }
    std::map<uint16_t, uint32_t> index;  // cid -> command number
    for (uint32_t i = 0; i < kCommands; ++i) {
      words(data)[i] = 0x50000000u + i;
      index[put(q, rw(NVME_OP_WRITE, base + i, 1, data + 4 * i))] = i;
    }
    ring_sq(q);
    const bool accepted = soc.nvme.delete_io_queue(q.qid());
    std::map<uint16_t, int> got;
    uint32_t twice = 0;
    const sc_time deadline = sc_core::sc_time_stamp() + sc_time(1, sc_core::SC_SEC);
    for (;;) {  // (an MSI may land while reap() rings a doorbell: look again before waiting)
      const size_t before = got.size();
      reap(q, got, twice);
      if (got.size() >= kCommands || sc_core::sc_time_stamp() >= deadline) break;
      if (got.size() == before) wait(deadline - sc_core::sc_time_stamp(), mem.msi_event());
    }
    uint32_t ok = 0, aborted = 0, other = 0;
    for (const auto& [cid, st] : got) {
      if (!index.count(cid))
        ++other;
      else if (st == NVME_SC_SUCCESS)
        ++ok;
      else if (st == NVME_SC_ABORTED_SQ_DELETION)
        ++aborted;
      else
        ++other;
    }
    const bool gone = !soc.nvme.queue_live(q.qid());
    note("queue deleted while in use: completions", "each of 1000 once: success or 0x008, some of each",
         std::to_string(ok) + " success, " + std::to_string(aborted) + " aborted, " + std::to_string(other) +
             " other, " + std::to_string(twice) + " twice, " + std::to_string(kCommands - got.size()) + " missing",
         accepted && ok + aborted == kCommands && ok > 0 && aborted > 0 && twice == 0 && other == 0);
    const uint64_t invalid_before = soc.nvme.stats().invalid_doorbells;
    doorbell(q.sq_doorbell(), 1);
    note("queue deleted while in use: the queue is gone", "deleted; a later doorbell is invalid",
         std::string(gone ? "deleted" : "still live") + "; " +
             std::to_string(soc.nvme.stats().invalid_doorbells - invalid_before) + " invalid doorbell(s)",
         gone && soc.nvme.stats().invalid_doorbells == invalid_before + 1);
    // What the device holds: a successful write reads back, an aborted one
    // was never applied (the LBAs were never written before).
    uint32_t wrong = 0;
    for (uint32_t at = 0; at < kCommands; at += mdts) {
      const uint32_t n = std::min(mdts, kCommands - at);
      if (exec(io, rw(NVME_OP_READ, base + at, n, buf2)) != NVME_SC_SUCCESS) {
        wrong += n;
        continue;
      }
      for (const auto& [cid, i] : index) {
        if (i < at || i >= at + n) continue;
        auto it = got.find(cid);
        const uint32_t want =
            it != got.end() && it->second == NVME_SC_SUCCESS ? 0x50000000u + i : uint32_t(SSDVP_TOKEN_DEALLOCATED);
        wrong += words(buf2)[i - at] != want;
      }
    }
    note("queue deleted while in use: data", "successful writes read back, aborted ones deallocated",
         std::to_string(wrong) + " LBA(s) wrong", wrong == 0);
  }
};

}  // namespace

std::vector<HostileResult> run_hostile(Config cfg) {
  cfg.declare_all(param_registry());
  cfg.check_unknown(true);
  if (!cfg.has("ftl.ns_ready_after")) cfg.set("ftl.ns_ready_after", "100us");
  SsdSoc soc("ssd0", cfg);
  HostMemory mem("host_mem", cfg.get_size("host.memory"));
  Hostile host("hostile", mem, soc);
  host.pcie.bind(soc.nvme.host_regs);
  soc.nvme.host_dma.bind(mem.tsock);
  if (!host.admin.create(soc.nvme) || !host.io.create(soc.nvme))
    throw std::runtime_error("hostile: the first queues could not be created");
  host.on_done = [&] {
    soc.stop();
    sc_core::sc_stop();
  };
  sc_core::sc_start(sc_core::SC_ZERO_TIME);
  soc.boot();
  soc.start();
  sc_core::sc_start(sc_time(60, sc_core::SC_SEC));
  std::vector<HostileResult> r = host.results;
  if (!host.finished) r.push_back({"all cases ran", "finished", "stopped after 60 s of simulated time", false});
  const NvmeCtrl::Stats& s = soc.nvme.stats();
  r.push_back({"controller: no ring errors (firmware bugs)", "0", std::to_string(s.ring_errors), s.ring_errors == 0});
  r.push_back(
      {"flash: no NAND rule violations", "0", std::to_string(soc.flash.violations()), soc.flash.violations() == 0});
  r.push_back({"firmware: no bus errors", "0", std::to_string(soc.cpu().usage().bus_errors),
               soc.cpu().usage().bus_errors == 0});
  return r;
}

int hostile_command(const Config& cfg, bool quiet) {
  const std::vector<HostileResult> r = run_hostile(cfg);
  size_t failed = 0;
  for (const HostileResult& x : r) failed += !x.ok;
  if (!quiet || failed) {
    std::printf("%-4s %-54s %-36s %s\n", "", "case", "expected", "observed");
    for (const HostileResult& x : r)
      std::printf("%-4s %-54s %-36s %s\n", x.ok ? "ok" : "FAIL", x.name.c_str(), x.expected.c_str(),
                  x.observed.c_str());
    std::printf("%zu of %zu cases hold\n", r.size() - failed, r.size());
  }
  return failed ? 3 : 0;
}

}  // namespace ssdvp
