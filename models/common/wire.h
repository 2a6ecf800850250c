// wire.h - a bool signal without an update phase, for interrupt lines.
//
// sc_signal<bool> delays every new value to the next delta cycle (update
// phase, then value_changed_event): an interrupt crossing source -> intc ->
// CPU took two delta cycles and two update phases per edge. A Wire takes the
// new value at once and notifies its events immediately, so a process
// sensitive to it runs in the same evaluation phase and reads the new value:
// a combinational line. It binds wherever an sc_signal<bool> does. Write it
// only from processes (immediate notification is not allowed in the update
// phase or during elaboration); it has one writer, unchecked.
#pragma once

#include <systemc>

namespace ssdvp {

// What a Wire calls on every change of its value (see Wire::listen).
class WireListener {
 public:
  virtual void wire_changed() = 0;  // the Wire's new value is already readable

 protected:
  ~WireListener() = default;
};

class Wire : public sc_core::sc_signal<bool> {
 public:
  Wire() : sc_core::sc_signal<bool>(sc_core::sc_gen_unique_name("wire")) {}
  explicit Wire(const char* name) : sc_core::sc_signal<bool>(name) {}

  void write(const bool& v) override {
    m_new_val = v;
    if (v == m_cur_val) return;
    m_cur_val = v;
    if (listener_) listener_->wire_changed();
    if (m_change_event_p) m_change_event_p->notify();
    sc_core::sc_event* edge = v ? m_posedge_event_p : m_negedge_event_p;
    if (edge) edge->notify();
  }

  // `l->wire_changed()` on every change from now on (one listener; a second
  // call replaces the first, nullptr removes it).
  void listen(WireListener* l) { listener_ = l; }
  WireListener* listener() const { return listener_; }

 private:
  WireListener* listener_ = nullptr;
};

}  // namespace ssdvp
