// timeline.h - a Chrome trace-event / Perfetto timeline of a window of a run.
//
// Tracks: host requests (arrival to completion), the firmware CPU (busy
// between waking and going idle), GC victims (selection to erase issue) and
// every NAND die's operations, plus the free-block count as a counter. Events
// that overlap [start, start + duration) are kept.
//
// The trace-event format requires complete ("X") slices on one thread track to
// nest; requests at queue depth 32, concurrent GC victims and a die's next
// command cycle overlapping the previous operation's data transfer do not.
// So spans are collected per logical track and laid out when the run ends:
// each logical track becomes as many lanes (thread tracks) as it needs, and a
// lane never holds two overlapping slices (greedy interval colouring: the
// fewest lanes possible). "requests" at queue depth 32 therefore shows as up
// to 32 lanes, one per busy queue slot. Timestamps are whole nanoseconds.
//
// The file is a JSON array that ui.perfetto.dev and chrome://tracing open;
// a path ending in ".gz" is written gzip-compressed (both tools open it as
// is). Written to a temporary file and renamed into place when the run ends.
// Memory: about 100 bytes per kept span until then (a whole 100k-request run
// of configs/small.yaml: 671k slices, +68 MB; 56 MB of JSON, 7.4 MB gzipped).
#pragma once

#include <cstdint>
#include <cstdio>
#include <map>
#include <string>
#include <vector>

namespace ssdvp {

class Timeline {
 public:
  Timeline(const std::string& path, uint64_t start_ps, uint64_t duration_ps);
  ~Timeline();
  Timeline(const Timeline&) = delete;
  Timeline& operator=(const Timeline&) = delete;

  // A logical track (pid groups: 1 host, 2 firmware, 3 dies); returns its id.
  // Its spans may overlap: close() splits it into non-overlapping lanes.
  int track(int pid, const std::string& process, const std::string& thread);
  void span(int track, const char* name, uint64_t start_ps, uint64_t end_ps, const std::string& args_json = "");
  void counter(int pid, const char* name, uint64_t at_ps, double value);
  // GC victims: one span per victim from selection to its erase, on `track`;
  // GC episodes (the firmware's HAL_TRACE_GC_EPISODE_START/END: from a
  // victim's start until none is open and the trigger wants none), one span
  // each on `episodes`.
  void set_gc_track(int track, int episodes) {
    gc_track_ = track;
    episode_track_ = episodes;
  }
  void gc_start(uint32_t block, uint64_t at_ps);
  void gc_end(uint32_t block, uint64_t at_ps);
  void episode_start(uint64_t at_ps) {
    episode_start_ps_ = at_ps;
    episode_open_ = true;
  }
  void episode_end(uint64_t at_ps);
  // Lays out the lanes, writes the file and renames it into place.
  void close();
  // Spans and counter samples kept so far.
  uint64_t events() const { return events_; }
  // Thread tracks written by close() (lanes of every logical track).
  uint64_t lanes() const { return lanes_; }

 private:
  struct Track {
    int pid;
    std::string process, thread;
  };
  struct Span {
    uint64_t a, b;
    const char* name;
    int track;
    std::string args;
  };
  struct Counter {
    uint64_t at;
    int pid;
    const char* name;
    double value;
  };
  struct Writer;  // close()'s output (timeline.cpp)
  std::vector<uint32_t> assign_lanes(std::vector<uint32_t>& nlanes);
  std::vector<int> write_tracks(Writer& w, const std::vector<uint32_t>& nlanes);
  void write_events(Writer& w, const std::vector<uint32_t>& lane, const std::vector<int>& first_tid);
  bool in_window(uint64_t a, uint64_t b) const { return b >= start_ && a < end_; }
  std::string path_, tmp_;
  bool gzip_;
  std::FILE* f_ = nullptr;
  uint64_t start_, end_;
  uint64_t events_ = 0, lanes_ = 0;
  int gc_track_ = -1, episode_track_ = -1;
  uint64_t episode_start_ps_ = 0, last_ps_ = 0;  // last_ps_: the latest span end seen
  bool episode_open_ = false;
  std::vector<Track> tracks_;
  std::vector<Span> spans_;
  std::vector<Counter> counters_;
  std::map<uint32_t, uint64_t> gc_open_;  // victim block -> start
};

}  // namespace ssdvp
