"""The real simulator (SSDVP_BIN, set by ctest) on a tiny config."""
import os
import subprocess

import pytest

from ssdvp_explore import REPO_ROOT
from ssdvp_explore.runner import resolve_binary, run_sweep, ssdvp_params
from ssdvp_explore.sweep import load_sweep
from ssdvp_explore.table import build_table, load_histograms, load_timeseries

pytestmark = pytest.mark.skipif(not os.environ.get("SSDVP_BIN"), reason="SSDVP_BIN not set (ctest sets it)")

TS_COLUMNS = ["time_s", "read_mbps", "write_mbps", "read_iops", "write_iops", "gc_lba_moves", "erases", "free_blocks",
              "read_p50_us", "read_p99_us", "read_p999_us", "read_max_us",
              "write_p50_us", "write_p99_us", "write_p999_us", "write_max_us"]


def test_real_ssdvp_tiny_sweep(tmp_path):
    binary = resolve_binary(None, REPO_ROOT)
    keys = ssdvp_params(binary, REPO_ROOT, "configs/small.yaml")
    assert keys and "ftl.gc.policy" in keys and "workload.synthetic.requests" in keys, "ssdvp params --format json"
    sw = tmp_path / "tiny.yaml"
    sw.write_text(f"""
name: tiny
base: {REPO_ROOT / 'configs' / 'small.yaml'}
set: {{workload.synthetic.requests: 2000}}
grid: {{ftl.gc.policy: [greedy, fifo]}}
timeout_s: 300
""")
    s = load_sweep(sw, root=REPO_ROOT)
    rep = run_sweep(s, binary, results=tmp_path / "results", jobs=2, progress=False, log=lambda m: None)
    errs = [(p.overrides, st["error"]) for p, st in rep.failures]
    assert not errs, errs
    t = build_table(s, rep.points, rep.results)
    assert len(t) == 2 and list(t["status"]) == ["ok", "ok"]
    assert list(t["config.ftl.gc.policy"]) == ["greedy", "fifo"]
    assert list(t["config.workload.synthetic.requests"].astype(str)) == ["2000", "2000"]
    for c in ["ssdvp_version", "host.iops", "host.bandwidth_mbps", "latency_us.read.p99", "latency_us.write.mean",
              "ftl.waf", "ftl.erases", "ftl.gc_runs", "integrity.mismatches", "utilization.die_mean", "run.wall_s"]:
        assert c in t.columns, c
    assert (t["host.writes"] + t["host.reads"] > 0).all()
    assert (t["integrity.mismatches"] == 0).all()
    ts = load_timeseries(rep.results, t)
    assert list(ts.columns) == ["point", *TS_COLUMNS] and len(ts) > 0
    # the whole latency distribution reaches the figures, not the table
    assert not [c for c in t.columns if c.endswith(".histogram")]
    hist = load_histograms(rep.results, t)
    for p in t["point"]:
        for op in ("read", "write"):
            assert sum(b[2] for b in hist[p][op]) == t.loc[t["point"] == p, f"latency_us.{op}.count"].iloc[0] > 0
    again = run_sweep(s, binary, results=tmp_path / "results", progress=False, log=lambda m: None)
    assert again.cached == 2 and again.ran == 0


def test_real_ssdvp_config_error_is_exit_2(tmp_path):
    binary = resolve_binary(None, REPO_ROOT)
    r = subprocess.run([str(binary), "run", "-c", "configs/small.yaml", "--set", "no.such.key=1",
                        "-o", str(tmp_path / "out"), "--quiet"], cwd=REPO_ROOT, capture_output=True, text=True,
                       timeout=120)
    assert r.returncode == 2 and "no.such.key" in r.stderr
    assert not (tmp_path / "out" / "summary.json").exists()
