// test_initiator.h - a small TLM initiator for the model benches.
//
// Runs `body` in an SC_THREAD; read32/write32/access do a b_transport with a
// local delay (temporal decoupling) that the caller may sync with sync().
#pragma once

#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>

#include <cstdint>
#include <cstring>
#include <functional>
#include <vector>

namespace ssdvp::test {

struct TestInitiator : sc_core::sc_module {
  tlm_utils::simple_initiator_socket<TestInitiator> isock;
  std::function<void(TestInitiator&)> body;
  sc_core::sc_time local;  // annotated delay not yet waited for
  bool done = false;

  SC_HAS_PROCESS(TestInitiator);
  explicit TestInitiator(sc_core::sc_module_name n) : sc_module(n), isock("isock") {
    SC_THREAD(run);
    isock.register_invalidate_direct_mem_ptr(this, &TestInitiator::invalidate);
  }

  tlm::tlm_response_status access(tlm::tlm_command cmd, uint64_t addr, void* data, unsigned len) {
    tlm::tlm_generic_payload tx;
    tx.set_command(cmd);
    tx.set_address(addr);
    tx.set_data_ptr(static_cast<unsigned char*>(data));
    tx.set_data_length(len);
    tx.set_streaming_width(len);
    tx.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
    isock->b_transport(tx, local);
    return tx.get_response_status();
  }
  uint32_t read32(uint64_t addr, tlm::tlm_response_status* st = nullptr) {
    uint32_t v = 0;
    auto s = access(tlm::TLM_READ_COMMAND, addr, &v, 4);
    if (st) *st = s;
    return v;
  }
  tlm::tlm_response_status write32(uint64_t addr, uint32_t v) { return access(tlm::TLM_WRITE_COMMAND, addr, &v, 4); }
  // Waits for the annotated delay so that sc_time_stamp() is the local time.
  void sync() {
    wait(local);
    local = sc_core::SC_ZERO_TIME;
  }
  bool dmi(uint64_t addr, tlm::tlm_dmi& d) {
    tlm::tlm_generic_payload tx;
    tx.set_address(addr);
    tx.set_command(tlm::TLM_READ_COMMAND);
    return isock->get_direct_mem_ptr(tx, d);
  }

  std::vector<std::pair<uint64_t, uint64_t>> invalidations;

 private:
  void run() {
    if (body) body(*this);
    done = true;
    sc_core::sc_stop();
  }
  void invalidate(sc_dt::uint64 s, sc_dt::uint64 e) { invalidations.emplace_back(s, e); }
};

}  // namespace ssdvp::test
