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


def _fake_ssdvp(tmp_path, code=0):
    """A stand-in for `ssdvp run ... -o DIR`: writes DIR/summary.json with its arguments and counts its calls."""
    exe = tmp_path / "fake-ssdvp"
    exe.write_text("#!/bin/sh\n"
                   f"echo x >> '{tmp_path}/calls'\n"
                   "while [ $# -gt 0 ]; do [ \"$1\" = -o ] && out=$2; shift; done\n"
                   f"[ {code} -ne 0 ] && {{ echo broken >&2; exit {code}; }}\n"
                   "printf '{\"waf\": 1.5}' > \"$out/summary.json\"\n")
    exe.chmod(0o755)
    return exe


def test_run_kept_runs_once_and_keeps_its_wall_time(tmp_path):
    exe = _fake_ssdvp(tmp_path)
    out = tmp_path / "point"
    s, wall = runpoint.run_kept(exe, out, ["-c", "x.yaml", *runpoint.set_args({"a.b": 1})])
    assert s == {"waf": 1.5} and isinstance(wall, float) and (out / "wall_s").exists()
    s2, wall2 = runpoint.run_kept(exe, out, [], reuse=True)   # taken as it is: no second run
    assert s2 == s and wall2 == wall
    assert (tmp_path / "calls").read_text().count("x") == 1
    runpoint.run_kept(exe, out, [])                           # without reuse: runs again
    assert (tmp_path / "calls").read_text().count("x") == 2


def test_run_kept_exits_naming_the_command(tmp_path):
    exe = _fake_ssdvp(tmp_path, code=3)
    with pytest.raises(SystemExit) as e:
        runpoint.run_kept(exe, tmp_path / "p", runpoint.set_args({"k": "v"}))
    assert "--set k=v" in str(e.value) and "broken" in str(e.value)


def test_a_point_is_the_mean_of_its_seeds_with_an_interval():
    rows = [{"name": "a", "seed": k, "waf": w, "label": f"run{k}", "ok": True} for k, w in ((2, 3.0), (1, 2.0), (3, 4.0))]
    rows.append({"name": "b", "waf": 5.0})  # no seed column: seed 1, one run
    by = runpoint.by_point(rows)
    assert by["a"]["waf"] == 3.0 and [r["seed"] for r in by["a"]["runs"]] == [1, 2, 3]
    assert by["a"]["label"] == "run1" and by["a"]["ok"] is True  # not numbers: the first run's (a bool is not one)
    assert by["a"]["name"] == "a" and isinstance(runpoint.by_point([dict(r, n=7) for r in rows])["a"]["n"], int)
    assert runpoint.cell(by["a"], "waf", ".2f") == "3.00 ± 2.48"  # t(2) 4.303 x sd 1 / sqrt(3)
    assert runpoint.cell(by["b"], "waf", ".2f") == "5.00" and runpoint.cell(by["b"], "gone") == "-"
    assert runpoint.seeds_line([by["a"]]).startswith("One point is 3 runs (seeds 1 to 3)")
    assert "single runs" in runpoint.seeds_line([by["b"]])


def test_a_change_is_paired_by_seed():
    new = runpoint.by_point([{"name": "n", "seed": k, "x": v} for k, v in ((1, 110.0), (2, 90.0), (3, 120.0))])["n"]
    base = runpoint.by_point([{"name": "b", "seed": k, "x": v} for k, v in ((1, 100.0), (2, 100.0), (4, 1.0))])["b"]
    # seeds 1 and 2 only: +10 % and -10 %; t(1) 12.706 x sd 14.14 / sqrt(2) = 127.1
    assert runpoint.change(new, base, "x") == "+0.0 ± 127.1 %"
    assert runpoint.each(new, base, lambda a, b: a["x"] - b["x"]) == [10.0, -10.0]
    one = {"name": "o", "x": 2000.0}  # a row without seeds is seed 1, its own only run
    assert runpoint.change(one, base, "x") == "x20" and runpoint.change(new, {"x": 0}, "x") == "n/a"
    assert runpoint.half_width(base, "x") > 0 and runpoint.half_width(one, "x") == 0
