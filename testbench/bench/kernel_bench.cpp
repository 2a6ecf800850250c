// kernel_bench.cpp - the machine's raw SystemC/TLM speed: the baseline that
// scripts/bench.sh and docs/performance.md divide the model figures by.
//
//   BM_Kernel_MethodNextTrigger  one SC_METHOD activation per item (next_trigger(1 ns))
//   BM_Kernel_ThreadWait         one SC_THREAD wait(1 ns) per item (a coroutine switch)
//   BM_Kernel_WaitOrTimeout      one wait for an event 1 ns away or a time 1 s away per item:
//                                timer:0 wait(t, e), each leaving a dead entry in the kernel's
//                                timed queue; timer:1 a WakeTimer armed once per batch
//   BM_Tlm_BTransport/fresh      b_transport through simple sockets with a payload
//                                constructed per call (what CpuNative::access does)
//   BM_Tlm_BTransport/reused     the same with one payload reused
#include <benchmark/benchmark.h>

#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>

#include <cstdint>
#include <cstring>

#include "bench_fixtures.h"
#include "common/wake_timer.h"

namespace ssdvp::bench {
namespace {

using sc_core::SC_NS;
using sc_core::sc_time;

struct MethodLoop : sc_core::sc_module {
  uint64_t budget = 0, done = 0;
  sc_core::sc_event start;
  SC_HAS_PROCESS(MethodLoop);
  explicit MethodLoop(sc_core::sc_module_name n) : sc_module(n) {
    SC_METHOD(act);
    sensitive << start;
    dont_initialize();
  }
  void act() {
    if (budget == 0) {
      next_trigger(start);
      return;
    }
    --budget;
    ++done;
    next_trigger(1, SC_NS);
  }
};

struct ThreadLoop : sc_core::sc_module {
  uint64_t budget = 0, done = 0;
  sc_core::sc_event start;
  SC_HAS_PROCESS(ThreadLoop);
  explicit ThreadLoop(sc_core::sc_module_name n) : sc_module(n) { SC_THREAD(run); }
  void run() {
    for (;;) {
      wait(start);
      while (budget) {
        --budget;
        ++done;
        wait(1, SC_NS);
      }
    }
  }
};

// The host driver's wait: for the next completion (1 ns away) or the next
// statistics sample (one fixed time, 1 s after the batch began).
struct WaitLoop : sc_core::sc_module {
  uint64_t budget = 0, done = 0;
  bool use_timer = false;
  sc_core::sc_event start, completion;
  WakeTimer timer{"timer"};
  sc_core::sc_event_or_list either;  // built once: a list made per wait costs an allocation
  SC_HAS_PROCESS(WaitLoop);
  explicit WaitLoop(sc_core::sc_module_name n) : sc_module(n) {
    either |= timer.event();
    either |= completion;
    SC_THREAD(run);
  }
  void run() {
    for (;;) {
      wait(start);
      const uint64_t sample = sc_core::sc_time_stamp().value() + 1'000'000'000'000;  // 1 s in ps
      while (budget) {
        --budget;
        ++done;
        completion.notify(1, SC_NS);
        const uint64_t now = sc_core::sc_time_stamp().value();
        if (use_timer) {
          timer.arm(sample, now);
          wait(either);
        } else {
          wait(sc_time::from_value(sample - now), completion);
        }
      }
    }
  }
};

struct Target : sc_core::sc_module {
  tlm_utils::simple_target_socket<Target> tsock;
  uint32_t reg = 0;
  explicit Target(sc_core::sc_module_name n) : sc_module(n), tsock("tsock") {
    tsock.register_b_transport(this, &Target::b_transport);
  }
  void b_transport(tlm::tlm_generic_payload& tx, sc_time& delay) {
    if (tx.is_write())
      std::memcpy(&reg, tx.get_data_ptr(), 4);
    else
      std::memcpy(tx.get_data_ptr(), &reg, 4);
    delay += sc_time(10, SC_NS);
    tx.set_response_status(tlm::TLM_OK_RESPONSE);
  }
};

struct Initiator : sc_core::sc_module {
  tlm_utils::simple_initiator_socket<Initiator> isock;
  explicit Initiator(sc_core::sc_module_name n) : sc_module(n), isock("isock") {}
};

MethodLoop* g_method = nullptr;
ThreadLoop* g_thread = nullptr;
WaitLoop* g_wait = nullptr;
Initiator* g_init = nullptr;
Target* g_target = nullptr;

constexpr uint64_t kBatch = 10000;

void BM_Kernel_MethodNextTrigger(benchmark::State& state) {
  for (auto _ : state) {
    g_method->budget = kBatch;
    g_method->start.notify(sc_core::SC_ZERO_TIME);
    sc_core::sc_start();
  }
  state.SetItemsProcessed(int64_t(state.iterations() * kBatch));
  state.SetLabel("items = SC_METHOD activations");
}
BENCHMARK(BM_Kernel_MethodNextTrigger)->Unit(benchmark::kMillisecond);

void BM_Kernel_ThreadWait(benchmark::State& state) {
  for (auto _ : state) {
    g_thread->budget = kBatch;
    g_thread->start.notify(sc_core::SC_ZERO_TIME);
    sc_core::sc_start();
  }
  state.SetItemsProcessed(int64_t(state.iterations() * kBatch));
  state.SetLabel("items = SC_THREAD wait() resumptions");
}
BENCHMARK(BM_Kernel_ThreadWait)->Unit(benchmark::kMillisecond);

void BM_Kernel_WaitOrTimeout(benchmark::State& state) {
  g_wait->use_timer = state.range(0) != 0;
  for (auto _ : state) {
    g_wait->budget = kBatch;
    g_wait->start.notify(sc_core::SC_ZERO_TIME);
    sc_core::sc_start();  // the batch, then the sample time (the dead entries, or the timer, go then)
  }
  state.SetItemsProcessed(int64_t(state.iterations() * kBatch));
  state.SetLabel(g_wait->use_timer ? "WakeTimer armed once per batch" : "wait(t, e) per item");
}
BENCHMARK(BM_Kernel_WaitOrTimeout)->ArgName("timer")->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond);

void BM_Tlm_BTransport(benchmark::State& state) {
  const bool fresh = state.range(0) != 0;
  uint32_t v = 0;
  sc_time delay = sc_core::SC_ZERO_TIME;
  tlm::tlm_generic_payload reused;
  for (auto _ : state) {
    if (fresh) {
      tlm::tlm_generic_payload tx;
      tx.set_command(tlm::TLM_READ_COMMAND);
      tx.set_address(0);
      tx.set_data_ptr(reinterpret_cast<unsigned char*>(&v));
      tx.set_data_length(4);
      tx.set_streaming_width(4);
      tx.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
      g_init->isock->b_transport(tx, delay);
    } else {
      reused.set_command(tlm::TLM_READ_COMMAND);
      reused.set_address(0);
      reused.set_data_ptr(reinterpret_cast<unsigned char*>(&v));
      reused.set_data_length(4);
      reused.set_streaming_width(4);
      reused.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
      g_init->isock->b_transport(reused, delay);
    }
    benchmark::DoNotOptimize(v);
  }
  state.SetItemsProcessed(int64_t(state.iterations()));
  state.SetLabel(fresh ? "payload constructed per call" : "payload reused");
}
BENCHMARK(BM_Tlm_BTransport)->ArgName("fresh")->Arg(1)->Arg(0);

}  // namespace

void elaborate_kernel_fixtures() {
  g_method = new MethodLoop("bench_method");
  g_thread = new ThreadLoop("bench_thread");
  g_wait = new WaitLoop("bench_wait");
  g_init = new Initiator("bench_init");
  g_target = new Target("bench_target");
  g_init->isock.bind(g_target->tsock);
}

}  // namespace ssdvp::bench
