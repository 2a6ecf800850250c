// timeline.h - a Chrome trace-event / Perfetto timeline of a window of a run.
//
// Tracks: host requests (arrival to completion), the firmware CPU (busy
// between waking and going idle), GC victims (selection to erase issue) and
// every NAND die's operations, plus the free-block count as a counter. Events
// that overlap [start, start + duration) are written; the file is a JSON array
// that ui.perfetto.dev and chrome://tracing open. Written to a temporary file
// and renamed into place when the run ends.
#pragma once

#include <cstdint>
#include <cstdio>
#include <map>
#include <string>

namespace ssdvp {

class Timeline {
 public:
  Timeline(const std::string& path, uint64_t start_ps, uint64_t duration_ps);
  ~Timeline();
  Timeline(const Timeline&) = delete;
  Timeline& operator=(const Timeline&) = delete;

  // pid groups: 1 host, 2 firmware, 3 dies. tid within a group.
  void name_track(int pid, int tid, const std::string& process, const std::string& thread);
  void span(int pid, int tid, const char* name, uint64_t start_ps, uint64_t end_ps, const std::string& args_json = "");
  void counter(int pid, const char* name, uint64_t at_ps, double value);
  void gc_start(uint32_t block, uint64_t at_ps);
  void gc_end(uint32_t block, uint64_t at_ps);
  // Finishes the JSON and renames the file into place.
  void close();
  uint64_t events() const { return events_; }

 private:
  bool in_window(uint64_t a, uint64_t b) const { return b >= start_ && a < end_; }
  void emit(const std::string& obj);
  std::string path_, tmp_;
  std::FILE* f_ = nullptr;
  uint64_t start_, end_;
  uint64_t events_ = 0;
  bool first_ = true;
  std::map<uint32_t, uint64_t> gc_open_;  // victim block -> start
};

}  // namespace ssdvp
