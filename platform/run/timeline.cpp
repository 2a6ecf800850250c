// timeline.cpp - see timeline.h.
#include "run/timeline.h"

#include <unistd.h>
#include <zlib.h>

#include <algorithm>
#include <cinttypes>
#include <filesystem>
#include <functional>
#include <queue>
#include <stdexcept>

namespace ssdvp {

namespace {

bool ends_with(const std::string& s, const std::string& suffix) {
  return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

// Trace-event times are microseconds: whole nanoseconds written exactly
// ("12.345"), so a lane's end and the next start compare as they did in ps.
void append_us(std::string& out, uint64_t ns) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%" PRIu64 ".%03u", ns / 1000, unsigned(ns % 1000));
  out += buf;
}

}  // namespace

Timeline::Timeline(const std::string& path, uint64_t start_ps, uint64_t duration_ps)
    : path_(path),
      tmp_(path + ".tmp"),
      gzip_(ends_with(path, ".gz")),
      start_(start_ps),
      end_(duration_ps ? start_ps + duration_ps : UINT64_MAX) {
  const auto dir = std::filesystem::path(path).parent_path();
  if (!dir.empty()) std::filesystem::create_directories(dir);
  f_ = std::fopen(tmp_.c_str(), "wb");  // opened now: an unwritable path fails before the run
  if (!f_) throw std::runtime_error("cannot write the timeline " + tmp_);
}

Timeline::~Timeline() {
  if (f_) {  // never closed: the run failed; leave nothing half-written
    std::fclose(f_);
    std::remove(tmp_.c_str());
  }
}

int Timeline::track(int pid, const std::string& process, const std::string& thread) {
  tracks_.push_back({pid, process, thread});
  return int(tracks_.size()) - 1;
}

void Timeline::span(int track, const char* name, uint64_t a, uint64_t b, const std::string& args) {
  last_ps_ = std::max(last_ps_, b);
  if (!in_window(a, b) || track < 0 || track >= int(tracks_.size())) return;
  spans_.push_back({a, std::max(a, b), name, track, args});
  ++events_;
}

void Timeline::counter(int pid, const char* name, uint64_t at, double value) {
  if (!in_window(at, at)) return;
  counters_.push_back({at, pid, name, value});
  ++events_;
}

void Timeline::gc_start(uint32_t block, uint64_t at) { gc_open_[block] = at; }

void Timeline::episode_end(uint64_t at) {
  episode_open_ = false;
  if (episode_track_ >= 0) span(episode_track_, "gc episode", episode_start_ps_, at);
}

void Timeline::gc_end(uint32_t block, uint64_t at) {
  auto it = gc_open_.find(block);
  if (it == gc_open_.end()) return;
  span(gc_track_, "gc victim", it->second, at, "\"block\":" + std::to_string(block));
  gc_open_.erase(it);
}

// The file's JSON objects, written in 1 MiB pieces (never the whole file in
// memory), compressed when the path ends in .gz (level 1: most of the gain at
// a fraction of the time).
struct Timeline::Writer {
  std::FILE* f;
  gzFile gz = nullptr;
  bool ok = true;
  bool first = true;
  std::string out = "[\n";
  Writer(std::FILE* file, bool gzip) : f(file) {
    if (gzip) {
      std::fflush(f);
      gz = gzdopen(dup(fileno(f)), "wb1");
      ok = gz != nullptr;
    }
  }
  void flush() {
    if (ok && !out.empty())
      ok = gz ? gzwrite(gz, out.data(), unsigned(out.size())) == int(out.size())
              : std::fwrite(out.data(), 1, out.size(), f) == out.size();
    out.clear();
  }
  void emit(const std::string& obj) {
    if (!first) out += ",\n";
    out += obj;
    first = false;
    if (out.size() >= (1u << 20)) flush();
  }
  // The closing bracket, everything flushed; false if anything failed.
  bool finish() {
    out += "\n]\n";
    flush();
    if (gz && gzclose(gz) != Z_OK) ok = false;
    return ok;
  }
};

// Lanes: spans of a track by start (longer first on ties); each goes to the
// lowest-numbered lane free at its start (ends at or before it). Sorts spans_;
// returns each span's lane, and each track's lanes in nlanes.
std::vector<uint32_t> Timeline::assign_lanes(std::vector<uint32_t>& nlanes) {
  std::stable_sort(spans_.begin(), spans_.end(), [](const Span& x, const Span& y) {
    if (x.track != y.track) return x.track < y.track;
    if (x.a / 1000 != y.a / 1000) return x.a < y.a;
    return x.b > y.b;
  });
  std::vector<uint32_t> lane(spans_.size());
  nlanes.assign(tracks_.size(), 0);
  for (size_t i = 0; i < spans_.size();) {
    const int t = spans_[i].track;
    using End = std::pair<uint64_t, uint32_t>;  // (end ns, lane)
    std::priority_queue<End, std::vector<End>, std::greater<End>> busy;
    std::priority_queue<uint32_t, std::vector<uint32_t>, std::greater<uint32_t>> free_lanes;
    uint32_t n = 0;
    for (; i < spans_.size() && spans_[i].track == t; ++i) {
      const uint64_t a = spans_[i].a / 1000;
      while (!busy.empty() && busy.top().first <= a) {
        free_lanes.push(busy.top().second);
        busy.pop();
      }
      uint32_t l;
      if (free_lanes.empty()) {
        l = n++;
      } else {
        l = free_lanes.top();
        free_lanes.pop();
      }
      lane[i] = l;
      busy.push({spans_[i].b / 1000, l});
    }
    nlanes[t] = n;
  }
  return lane;
}

// Process and thread names: per process, every track's lanes in registration
// order. Returns each track's first thread id.
std::vector<int> Timeline::write_tracks(Writer& w, const std::vector<uint32_t>& nlanes) {
  std::vector<int> first_tid(tracks_.size(), 0);
  std::map<int, int> next_tid;
  std::map<int, std::string> processes;
  char buf[512];
  lanes_ = 0;
  for (size_t t = 0; t < tracks_.size(); ++t) {
    const Track& tr = tracks_[t];
    if (!processes.count(tr.pid)) {
      processes[tr.pid] = tr.process;
      std::snprintf(buf, sizeof buf, R"({"name":"process_name","ph":"M","pid":%d,"args":{"name":"%s"}})", tr.pid,
                    tr.process.c_str());
      w.emit(buf);
    }
    int& next = next_tid[tr.pid];
    first_tid[t] = next + 1;
    const uint32_t n = std::max<uint32_t>(1, nlanes[t]);
    for (uint32_t l = 0; l < n; ++l) {
      const int tid = ++next;
      const std::string name = n == 1 ? tr.thread : tr.thread + " [" + std::to_string(l + 1) + "]";
      std::snprintf(buf, sizeof buf, R"({"name":"thread_name","ph":"M","pid":%d,"tid":%d,"args":{"name":"%s"}})",
                    tr.pid, tid, name.c_str());
      w.emit(buf);
      std::snprintf(buf, sizeof buf,
                    R"({"name":"thread_sort_index","ph":"M","pid":%d,"tid":%d,"args":{"sort_index":%d}})", tr.pid, tid,
                    tid);
      w.emit(buf);
      ++lanes_;
    }
  }
  return first_tid;
}

// The spans on their lanes, then the counter samples by time.
void Timeline::write_events(Writer& w, const std::vector<uint32_t>& lane, const std::vector<int>& first_tid) {
  char buf[512];
  for (size_t i = 0; i < spans_.size(); ++i) {
    const Span& s = spans_[i];
    const uint64_t a = s.a / 1000, b = s.b / 1000;
    std::string e = "{\"name\":\"";
    e += s.name;
    std::snprintf(buf, sizeof buf, "\",\"ph\":\"X\",\"pid\":%d,\"tid\":%d,\"ts\":", tracks_[s.track].pid,
                  first_tid[s.track] + int(lane[i]));
    e += buf;
    append_us(e, a);
    e += ",\"dur\":";
    append_us(e, b - a);
    if (!s.args.empty()) e += ",\"args\":{" + s.args + "}";
    e += "}";
    w.emit(e);
  }
  std::stable_sort(counters_.begin(), counters_.end(), [](const Counter& x, const Counter& y) { return x.at < y.at; });
  for (const Counter& c : counters_) {
    std::string e = "{\"name\":\"";
    e += c.name;
    std::snprintf(buf, sizeof buf, "\",\"ph\":\"C\",\"pid\":%d,\"ts\":", c.pid);
    e += buf;
    append_us(e, c.at / 1000);
    std::snprintf(buf, sizeof buf, ",\"args\":{\"value\":%g}}", c.value);
    e += buf;
    w.emit(e);
  }
}

void Timeline::close() {
  if (!f_) return;
  if (episode_open_ && episode_track_ >= 0) {  // still open when the run ended: up to the last event
    episode_open_ = false;
    span(episode_track_, "gc episode (open at the end)", episode_start_ps_, last_ps_);
  }
  std::vector<uint32_t> nlanes;
  const std::vector<uint32_t> lane = assign_lanes(nlanes);
  Writer w(f_, gzip_);
  const std::vector<int> first_tid = write_tracks(w, nlanes);
  write_events(w, lane, first_tid);
  bool ok = w.finish();
  spans_.clear();
  spans_.shrink_to_fit();
  ok = std::fclose(f_) == 0 && ok;
  f_ = nullptr;
  if (!ok) {
    std::remove(tmp_.c_str());
    throw std::runtime_error("cannot write the timeline " + tmp_);
  }
  std::filesystem::rename(tmp_, path_);
}

}  // namespace ssdvp
