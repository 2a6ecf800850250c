// payload_pool.h - reuse of tlm_generic_payload objects on hot paths.
//
// Constructing a payload allocates its extension array and destroying it
// frees it: about as much as the transaction it carries on a register or
// doorbell path. A PayloadPool hands out a payload and takes it back; nested
// use (a transport that re-enters the same initiator) gets another one, so it
// is safe wherever a local payload was. The payload comes back as it was
// left; the caller sets every field it uses (prepare_access does).
#pragma once

#include <tlm>

#include <memory>
#include <vector>

namespace ssdvp {

class PayloadPool {
 public:
  class Lease {
   public:
    explicit Lease(PayloadPool& pool) : pool_(pool), tx_(pool.take()) {}
    ~Lease() { pool_.give(std::move(tx_)); }
    Lease(const Lease&) = delete;
    Lease& operator=(const Lease&) = delete;
    tlm::tlm_generic_payload& operator*() { return *tx_; }
    tlm::tlm_generic_payload* operator->() { return tx_.get(); }

   private:
    PayloadPool& pool_;
    std::unique_ptr<tlm::tlm_generic_payload> tx_;
  };

 private:
  std::unique_ptr<tlm::tlm_generic_payload> take() {
    if (free_.empty()) return std::make_unique<tlm::tlm_generic_payload>();
    auto tx = std::move(free_.back());
    free_.pop_back();
    return tx;
  }
  void give(std::unique_ptr<tlm::tlm_generic_payload> tx) { free_.push_back(std::move(tx)); }
  std::vector<std::unique_ptr<tlm::tlm_generic_payload>> free_;
};

}  // namespace ssdvp
