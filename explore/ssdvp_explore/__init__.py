"""ssdvp_explore: design-space exploration sweeps over the ssdvp simulator.

Sweeps (YAML) -> cached runs of ``ssdvp run`` (local pool or Dask cluster)
-> one tidy CSV table -> standard figures -> result pages under docs/results/.
See docs/exploration.md.
"""
from pathlib import Path

__version__ = "0.1.0"

# explore/ssdvp_explore/__init__.py -> the repository root.
REPO_ROOT = Path(__file__).resolve().parents[2]
