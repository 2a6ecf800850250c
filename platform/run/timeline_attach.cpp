// timeline_attach.cpp - see timeline_attach.h.
#include "run/timeline_attach.h"

#include <string>
#include <vector>

#include "host/flows.h"
#include "host/host_driver.h"
#include "run/timeline.h"
#include "soc/ssd_soc.h"

namespace ssdvp {

// Timeline tracks: pid 1 host (requests), pid 2 firmware (CPU, GC victims,
// free-block counter), pid 3 dies (one track per die). A track whose spans
// overlap is split into lanes when the file is written (timeline.h).
void attach_timeline(Timeline& t, SsdSoc& soc, HostDriver& host, FlowSet* flows) {
  const int requests = t.track(1, "host", "requests");
  const int cpu = t.track(2, "ssd0 firmware", "cpu");
  t.set_gc_track(t.track(2, "ssd0 firmware", "gc victims"), t.track(2, "ssd0 firmware", "gc episodes"));
  const auto& geo = soc.geometry();
  std::vector<int> die_track(geo.dies());
  for (uint32_t d = 0; d < geo.dies(); ++d)
    die_track[d] =
        t.track(3, "ssd0 dies", "die " + std::to_string(d) + " (ch " + std::to_string(geo.channel_of_die(d)) + ")");
  auto spans = [&t](int track) {
    return [&t, track](const HostDriver::RequestRecord& r) {
      static const char* names[] = {"read", "write", "trim", "flush"};
      t.span(track, names[int(r.op)], r.arrival_ps, r.done_ps,
             "\"lba\":" + std::to_string(r.lba) + ",\"nlb\":" + std::to_string(r.nlb) +
                 (r.error ? ",\"error\":true" : ""));
    };
  };
  host.set_observer(spans(requests));  // flow 0's with flows; each other flow on a track of its own
  for (size_t i = 1; flows && i < flows->size(); ++i)
    flows->driver(i).set_observer(spans(t.track(1, "host", flows->name(i) + " requests")));
  soc.cpu().on_busy = [&t, cpu](uint64_t a, uint64_t b) { t.span(cpu, "busy", a, b); };
  soc.cpu().on_trace = [&soc, &t](enum hal_trace_event ev, uint32_t arg, uint64_t at) {
    if (ev == HAL_TRACE_GC_EPISODE_START) {
      t.episode_start(at);
    } else if (ev == HAL_TRACE_GC_EPISODE_END) {
      t.episode_end(at);
    } else if (ev == HAL_TRACE_GC_VICTIM_START) {
      t.gc_start(arg, at);
      t.counter(2, "free blocks", at, soc.cpu().stats().free_blocks);
    } else if (ev == HAL_TRACE_GC_VICTIM_END) {
      t.gc_end(arg, at);
    }
  };
  soc.flash.set_observer([&t, die_track](const FlashOpRecord& r) {
    static const char* names[] = {"?", "read", "program", "erase", "?", "?", "?", "copyback"};
    if (r.die < die_track.size())
      t.span(die_track[r.die], names[r.op <= 7 ? r.op : 0], r.start, r.done, "\"row\":" + std::to_string(r.row));
  });
}

}  // namespace ssdvp
