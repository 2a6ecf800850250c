// workload_views.h - views of a workload with its request times moved: the
// timed part after preconditioning consumed a prefix (rebased), a flow that
// starts late (delayed). Used by the runners and the flows.
#pragma once

#include <cstdint>
#include <memory>

#include "workload.h"

namespace ssdvp {

// A view of `inner` whose times start at 0 from its next request (the timed
// part after preconditioning consumed a prefix).
std::unique_ptr<host::Workload> make_rebased(host::Workload& inner);
// A workload whose request times are shifted by `delay_ps` (a flow's start).
std::unique_ptr<host::Workload> make_delayed(host::Workload& inner, uint64_t delay_ps);

}  // namespace ssdvp
