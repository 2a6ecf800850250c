"""docs/results/techniques.md: every seed's technique on one drive and five recorded applications."""
from __future__ import annotations

from . import Page, register, standard_body

register(Page(name="techniques", title="Every seed's technique on one drive and five recorded applications",
              sweep="explore/sweeps/techniques.yaml", by="config.ftl.placement.policy", baseline="double",
              keep=("detector.c45",), render=lambda ctx: standard_body(ctx)))
