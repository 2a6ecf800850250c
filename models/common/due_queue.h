// due_queue.h - "what becomes visible when": the pending effects of a model
// that computes completion times when work is accepted and publishes each
// effect at its due time from an SC_METHOD (the flash controller's
// completions, the NVMe controller's CMD tail moves, DONE entries and host
// completions).
//
// A min-heap on (time, order): effects due at one time come out in the
// order they were pushed. The order number push() returns names an entry
// for retime() (the flash scheduler moves completions when a read overtakes
// them). The queue knows no SystemC: a model wakes its method for
// next_time() as it sees fit.
#pragma once

#include <algorithm>
#include <cstdint>
#include <utility>
#include <vector>

namespace ssdvp {

template <class T>
class DueQueue {
 public:
  struct Entry {
    uint64_t time;   // due (ps)
    uint64_t order;  // push order
    T item;
  };

  // Adds item, due at time; returns its order number.
  uint64_t push(uint64_t time, const T& item) {
    heap_.push_back(Entry{time, order_, item});
    std::push_heap(heap_.begin(), heap_.end(), later);
    return order_++;
  }
  uint64_t push(uint64_t time, T&& item) {
    heap_.push_back(Entry{time, order_, std::move(item)});
    std::push_heap(heap_.begin(), heap_.end(), later);
    return order_++;
  }
  bool empty() const { return heap_.empty(); }
  size_t size() const { return heap_.size(); }
  // The earliest entry (queue not empty) and its due time (UINT64_MAX if empty).
  const Entry& top() const { return heap_.front(); }
  uint64_t next_time() const { return heap_.empty() ? UINT64_MAX : heap_.front().time; }
  // The order number the next push() returns.
  uint64_t next_order() const { return order_; }
  // Removes the earliest entry (queue not empty) and returns it.
  Entry pop() {
    std::pop_heap(heap_.begin(), heap_.end(), later);
    Entry e = std::move(heap_.back());
    heap_.pop_back();
    return e;
  }
  // Calls f(entry) for each entry due at or before now, earliest first,
  // removing it first (f may push).
  template <class F>
  void pop_due(uint64_t now, F&& f) {
    while (!heap_.empty() && heap_.front().time <= now) f(pop());
  }
  // Moves the entry with this order number to time; true if it moved. Call
  // reorder() once after a batch of moves.
  bool retime(uint64_t order, uint64_t time) {
    for (Entry& e : heap_)
      if (e.order == order) {
        const bool moved = e.time != time;
        e.time = time;
        return moved;
      }
    return false;
  }
  // Moves the count entries with order numbers first .. first + count - 1
  // (a multi-plane group's completions) to time; true if any moved.
  bool retime_range(uint64_t first, uint32_t count, uint64_t time) {
    bool moved = false;
    uint32_t found = 0;
    for (Entry& e : heap_)
      if (e.order >= first && e.order < first + count) {
        moved |= e.time != time;
        e.time = time;
        if (++found == count) break;
      }
    return moved;
  }
  void reorder() { std::make_heap(heap_.begin(), heap_.end(), later); }
  void clear() { heap_.clear(); }
  // The entries in no particular order.
  typename std::vector<Entry>::const_iterator begin() const { return heap_.begin(); }
  typename std::vector<Entry>::const_iterator end() const { return heap_.end(); }

 private:
  static bool later(const Entry& a, const Entry& b) { return a.time != b.time ? a.time > b.time : a.order > b.order; }
  std::vector<Entry> heap_;
  uint64_t order_ = 0;
};

}  // namespace ssdvp
