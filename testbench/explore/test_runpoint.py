"""scripts/runpoint.py: the rows of parallel runs come back in the points' order; a flow found by its name."""
import sys
import time
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "scripts"))
import runpoint  # noqa: E402


def test_rows_keep_the_points_order_whichever_run_ends_first():
    def row_of(p):
        time.sleep(0.02 * (4 - p))  # the last point ends first
        return {"name": p}
    assert [r["name"] for r in runpoint.run_rows(4, [0, 1, 2, 3], row_of)] == [0, 1, 2, 3]


def test_flow_named():
    j = {"flows": {"flows": [{"name": "reader", "iops": 1}, {"name": "writer", "iops": 2}]}}
    assert runpoint.flow_named(j, "writer")["iops"] == 2
    with pytest.raises(StopIteration):
        runpoint.flow_named(j, "nobody")
