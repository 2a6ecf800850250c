"""Shared fixtures: the package on sys.path, a fake ssdvp, a throwaway project root."""
import os
import stat
import sys
import textwrap
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
sys.path.insert(0, str(REPO / "explore"))
# Dask workers (spawned processes) import ssdvp_explore too.
os.environ["PYTHONPATH"] = os.pathsep.join(filter(None, [str(REPO / "explore"), os.environ.get("PYTHONPATH")]))

SMALL = """\
ftl:
  gc:
    policy: greedy
workload:
  synthetic:
    requests: 500
"""


@pytest.fixture
def fake_bin(tmp_path) -> Path:
    """An executable wrapping fake_ssdvp.py with this interpreter."""
    p = tmp_path / "bin" / "ssdvp"
    p.parent.mkdir()
    p.write_text(f'#!/bin/sh\nexec "{sys.executable}" "{HERE / "fake_ssdvp.py"}" "$@"\n')
    p.chmod(p.stat().st_mode | stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH)
    return p


@pytest.fixture
def proj(tmp_path) -> Path:
    """A project root with configs/small.yaml and two traces."""
    root = tmp_path / "proj"
    (root / "configs").mkdir(parents=True)
    (root / "traces").mkdir()
    (root / "configs" / "small.yaml").write_text(SMALL)
    (root / "traces" / "a.ascii").write_text("".join(f"0 W {i} 8\n" for i in range(30)))
    (root / "traces" / "b.ascii").write_text("".join(f"0 R {i} 8\n" for i in range(50)))
    return root


@pytest.fixture
def make_sweep(proj):
    def make(text: str, name: str = "sweep.yaml") -> Path:
        p = proj / name
        p.write_text(textwrap.dedent(text))
        return p
    return make


@pytest.fixture
def run_log(tmp_path, monkeypatch) -> Path:
    """FAKE_SSDVP_LOG: one line per fake `ssdvp run`."""
    log = tmp_path / "runs.log"
    monkeypatch.setenv("FAKE_SSDVP_LOG", str(log))
    return log


def runs(log: Path) -> int:
    return len(log.read_text().splitlines()) if log.exists() else 0
