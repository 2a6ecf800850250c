// timeline_attach.h - a single drive's run on a timeline (timeline.h): its
// host's requests (each flow on a track of its own), the firmware's CPU, GC
// victims and episodes and free-block counter, and every die's operations.
#pragma once

namespace ssdvp {

class Timeline;
class SsdSoc;
class HostDriver;
class FlowSet;

// Sets the observers that write to t (flows: null without flows).
void attach_timeline(Timeline& t, SsdSoc& soc, HostDriver& host, FlowSet* flows);

}  // namespace ssdvp
