// timeline.cpp - see timeline.h.
#include "run/timeline.h"

#include <cinttypes>
#include <filesystem>
#include <stdexcept>

namespace ssdvp {

Timeline::Timeline(const std::string& path, uint64_t start_ps, uint64_t duration_ps)
    : path_(path), tmp_(path + ".tmp"), start_(start_ps), end_(duration_ps ? start_ps + duration_ps : UINT64_MAX) {
  const auto dir = std::filesystem::path(path).parent_path();
  if (!dir.empty()) std::filesystem::create_directories(dir);
  f_ = std::fopen(tmp_.c_str(), "w");
  if (!f_) throw std::runtime_error("cannot write the timeline " + tmp_);
  std::fputs("[\n", f_);
}

Timeline::~Timeline() {
  if (f_) {  // never closed: the run failed; leave nothing half-written
    std::fclose(f_);
    std::remove(tmp_.c_str());
  }
}

void Timeline::emit(const std::string& obj) {
  std::fputs(first_ ? "" : ",\n", f_);
  std::fputs(obj.c_str(), f_);
  first_ = false;
  ++events_;
}

void Timeline::name_track(int pid, int tid, const std::string& process, const std::string& thread) {
  char buf[512];
  std::snprintf(buf, sizeof buf, R"({"name":"process_name","ph":"M","pid":%d,"args":{"name":"%s"}})", pid, process.c_str());
  emit(buf);
  std::snprintf(buf, sizeof buf, R"({"name":"thread_name","ph":"M","pid":%d,"tid":%d,"args":{"name":"%s"}})", pid, tid,
                thread.c_str());
  emit(buf);
}

void Timeline::span(int pid, int tid, const char* name, uint64_t a, uint64_t b, const std::string& args) {
  if (!in_window(a, b)) return;
  char buf[512];
  // trace-event times are in microseconds; keep ns resolution
  std::snprintf(buf, sizeof buf, R"({"name":"%s","ph":"X","pid":%d,"tid":%d,"ts":%.3f,"dur":%.3f%s%s%s})", name, pid,
                tid, double(a) / 1e6, double(b - a) / 1e6, args.empty() ? "" : R"(,"args":{)", args.c_str(),
                args.empty() ? "" : "}");
  emit(buf);
}

void Timeline::counter(int pid, const char* name, uint64_t at, double value) {
  if (!in_window(at, at)) return;
  char buf[256];
  std::snprintf(buf, sizeof buf, R"({"name":"%s","ph":"C","pid":%d,"ts":%.3f,"args":{"value":%g}})", name, pid,
                double(at) / 1e6, value);
  emit(buf);
}

void Timeline::gc_start(uint32_t block, uint64_t at) { gc_open_[block] = at; }

void Timeline::gc_end(uint32_t block, uint64_t at) {
  auto it = gc_open_.find(block);
  if (it == gc_open_.end()) return;
  span(2, 2, "gc victim", it->second, at, "\"block\":" + std::to_string(block));
  gc_open_.erase(it);
}

void Timeline::close() {
  if (!f_) return;
  std::fputs("\n]\n", f_);
  const bool ok = std::fclose(f_) == 0;
  f_ = nullptr;
  if (!ok) throw std::runtime_error("cannot write the timeline " + tmp_);
  std::filesystem::rename(tmp_, path_);
}

}  // namespace ssdvp
