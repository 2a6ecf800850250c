"""The standard figures from a synthetic table."""
import numpy as np
import pandas as pd

from ssdvp_explore import plots


def synthetic_table():
    rows = []
    rng = np.random.default_rng(0)
    for trace in ["traces/a.ascii", "traces/b.ascii"]:
        for pol in ["greedy", "fifo", "cost_benefit"]:
            for impl in ["sw", "accel"]:
                for seed in [1, 2]:
                    waf = {"greedy": 1.6, "fifo": 2.1, "cost_benefit": 1.5}[pol] + rng.random() / 10
                    rows.append({
                        "sweep": "s", "point": f"{trace}{pol}{impl}{seed}", "status": "ok", "exit_code": 0,
                        "error": "", "config.workload.trace": trace, "config.ftl.gc.policy": pol,
                        "config.ftl.clustering.impl": impl, "config.workload.synthetic.seed": str(seed),
                        "ftl.waf": waf, "ftl.erases": int(100 * waf),
                        "latency_us.read.count": 300, "latency_us.write.count": 700,
                        **{f"latency_us.{op}.{k}": base * waf * m for op, base in (("read", 60), ("write", 200))
                           for k, m in (("mean", 1), ("p50", .9), ("p99", 3), ("p999", 6), ("p9999", 9), ("max", 12))},
                        "accel.clustering.cycles": 1000 if impl == "accel" else 50000,
                        "accel.clustering.time_us": 1.0 if impl == "accel" else 40.0})
    rows.append({"sweep": "s", "point": "bad", "status": "failed", "exit_code": 2, "error": "exit 2",
                 "config.workload.trace": "traces/a.ascii", "config.ftl.gc.policy": "random"})
    return pd.DataFrame(rows)


def _files(paths):
    assert [p.suffix for p in paths] == [".png", ".svg"]
    for p in paths:
        assert p.is_file() and p.stat().st_size > 1000
    assert paths[1].read_text().lstrip().startswith("<?xml")


def test_each_figure(tmp_path):
    t = synthetic_table()
    _files(plots.waf_erase_bars(t, tmp_path / "waf"))
    _files(plots.normalized_response_time(t, tmp_path / "rt", baseline="greedy"))
    _files(plots.latency_cdf(t, tmp_path / "cdf"))
    _files(plots.clustering_cost(t, tmp_path / "clu"))
    ts = pd.DataFrame({"time_s": np.arange(1, 21) * 0.01, "read_mbps": 100.0, "write_mbps": 200.0,
                       "read_iops": 1, "write_iops": 1, "gc_lba_moves": [0, 0, 5, 6, 0] * 4, "erases": 0,
                       "free_blocks": 10})
    assert plots.gc_periods(ts)[0] == (0.02, 0.04)
    assert len(plots.gc_periods(ts)) == 4
    _files(plots.bandwidth_over_time({"a / greedy": ts, "a / fifo": ts}, tmp_path / "bw"))


def test_derived_columns():
    t = plots.with_labels(synthetic_table())
    assert set(t["workload_label"]) == {"a", "b"}
    r = t.iloc[0]
    assert np.isclose(r["latency_us.all.mean"], (300 * r["latency_us.read.mean"] + 700 * r["latency_us.write.mean"]) / 1000)


def test_standard_figures(tmp_path):
    figs = plots.standard_figures(synthetic_table(), tmp_path)
    assert set(figs) == {"waf_erases", "response_time", "latency_cdf", "clustering_cost"}
    assert len(list(tmp_path.glob("*.png"))) == 4 and len(list(tmp_path.glob("*.svg"))) == 4
