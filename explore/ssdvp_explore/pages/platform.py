"""docs/results/platform.md: the GC victim policy on the small configuration."""
from . import Page, register, standard_body

INTRO = """\
The platform's first exploration: the garbage-collection victim policy of the
FTL (`ftl.gc.policy`) on the small configuration (`configs/small.yaml`), two
seeds each. Write amplification and erases show the policy's cost in flash
wear; the normalized response time and the latency tails show what the host
sees; the bandwidth timelines show GC stealing bandwidth."""

register(Page(name="platform", title="Platform: GC victim policy on the small config",
              sweep="explore/sweeps/platform.yaml", baseline="greedy",
              render=lambda ctx: standard_body(ctx, intro=INTRO)))
