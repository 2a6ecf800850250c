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


def many_series_table(by="config.ftl.placement.policy", values=("single", "double", "hotis", "asa", "haml", "stream"),
                      workloads=6, seeds=(1,)):
    """Like the HAML page: workloads x compared values, one seed (36 runs)."""
    rows = []
    for w in range(workloads):
        for i, v in enumerate(values):
            for seed in seeds:
                m = 1 + 0.1 * i + 0.05 * w + 0.01 * seed
                rows.append({"sweep": "s", "point": f"w{w}-{v}-{seed}", "status": "ok", "error": "",
                             "config.workload.trace": f"traces/workload{w}.ascii", by: v,
                             "config.workload.synthetic.seed": str(seed),
                             "ftl.waf": 2 * m, "ftl.erases": 100 * m,
                             "latency_us.read.count": 300, "latency_us.write.count": 700,
                             **{f"latency_us.{op}.{k}": base * m * f for op, base in (("read", 60), ("write", 200))
                                for k, f in (("mean", 1), ("p50", .9), ("p99", 3), ("p999", 6), ("p9999", 9),
                                             ("max", 12))}})
    return pd.DataFrame(rows)


def _legend_labels(fig):
    assert len(fig.legends) == 1, "one figure legend, outside the axes"
    for ax in fig.axes:
        assert ax.get_legend() is None, "no legend inside an axes"
    return [t.get_text() for t in fig.legends[0].get_texts()]


def _error_bars(fig):
    from matplotlib.container import ErrorbarContainer
    return sum(isinstance(c, ErrorbarContainer) and any(len(seg.get_segments()) for seg in c.lines[2])
               for ax in fig.axes for c in ax.containers)


def test_legends_count_the_runs_in_the_table():
    """36 runs (6 workloads x 6 policies, one seed): every figure's legend has
    one entry per policy, each workload's panel one line per policy that ran
    there, nothing truncated, no error bars, no internal jargon on y labels."""
    import matplotlib.pyplot as plt
    by = "config.ftl.placement.policy"
    t = many_series_table()
    t = t[~((t["config.workload.trace"] == "traces/workload5.ascii") & (t[by] == "stream"))]  # one run missing
    policies = list(dict.fromkeys(t[by]))
    workloads = plots.with_labels(t)["workload_label"].unique()

    fig = plots.draw_latency_cdf(t, by=by)
    assert _legend_labels(fig) == policies
    panels = [ax for ax in fig.axes if ax.get_visible()]
    assert len(panels) == 2 * len(workloads)                    # small multiples: op x workload
    for ax in panels:
        w = ax.get_title().split(":")[0]
        assert len(ax.get_lines()) == (t[t["config.workload.trace"].str.contains(w + ".")][by].nunique())
    plt.close(fig)

    for fig in (plots.draw_metric_panels(t, [("ftl.waf", "WAF"), ("ftl.erases", "Erases")], by=by),
                plots.draw_normalized_response_time(t, by=by, baseline="single")):
        assert _legend_labels(fig) == policies
        assert _error_bars(fig) == 0                             # one seed: nothing to put in an error bar
        bars = sum(np.isfinite(b.get_height()) for ax in fig.axes for c in ax.containers for b in c)
        assert bars == len(t) * len(fig.axes)                    # one bar per run and panel
        for ax in fig.axes:
            assert "all.mean" not in ax.get_ylabel() and "latency_us" not in ax.get_ylabel()
        plt.close(fig)
    fig = plots.draw_normalized_response_time(t, by=by, baseline="single")
    assert fig.axes[0].get_ylabel() == "mean response time / single's"
    plt.close(fig)

    ts = pd.DataFrame({"time_s": [0.1, 0.2], "read_mbps": 1.0, "write_mbps": 2.0, "gc_lba_moves": [0, 1]})
    series = {(w, p): ts for w, p in zip(plots.with_labels(t)["workload_label"], t[by])}
    fig = plots.draw_bandwidth_over_time(series, total=len(series))
    assert sum(ax.get_visible() for ax in fig.axes) == len(t) == 35
    assert fig._suptitle is None                                  # all shown, nothing to say
    plt.close(fig)
    fig = plots.draw_bandwidth_over_time(dict(list(series.items())[:8]), total=len(series))
    assert fig._suptitle.get_text() == "8 of 35 runs shown"       # cut, and it says so
    plt.close(fig)


def test_error_bars_only_over_several_seeds():
    import matplotlib.pyplot as plt
    t = many_series_table(workloads=2, seeds=(1, 2, 3))
    fig = plots.draw_metric_panels(t, [("ftl.waf", "WAF")], by="config.ftl.placement.policy")
    assert _error_bars(fig) == 6 * 1                              # a bar group per value, each with errors
    plt.close(fig)


def test_numeric_parameters_are_lines():
    """K (3..8) and a slice size with a unit are x axes with one line per workload, not bars."""
    import matplotlib.pyplot as plt
    for by, values, unit in (("config.ftl.hot.classes", ("3", "4", "5", "6", "7", "8"), ""),
                             ("config.ftl.hot.slice_size", ("36KiB", "176KiB", "352KiB", "704KiB"), "KiB")):
        t = many_series_table(by=by, values=values, workloads=3)
        fig = plots.draw_metric_panels(t, [("ftl.waf", "WAF")], by=by)
        ax = fig.axes[0]
        assert not [c for c in ax.containers if c.__class__.__name__ == "BarContainer"]
        lines = [ln for ln in ax.get_lines() if len(ln.get_xdata()) > 1]
        assert len(lines) == 3 and all(len(ln.get_xdata()) == len(values) for ln in lines)
        assert sorted(lines[0].get_xdata()) == sorted(float(v.removesuffix(unit)) for v in values)
        assert _legend_labels(fig) == list(plots.with_labels(t)["workload_label"].unique())
        assert ax.get_xlabel() == by.removeprefix("config.") + (f" ({unit})" if unit else "")
        plt.close(fig)
    assert plots.numeric_values(["greedy", "fifo"]) is None
    assert plots.numeric_values(["1ms", "2s"]) is None             # mixed units: categorical


def test_cdf_from_histograms_is_the_real_distribution():
    import matplotlib.pyplot as plt
    t = many_series_table(values=("a", "b"), workloads=1)
    # run a: 90 requests at 10-11 us, 10 at 1000-1010 us; run b: all at 20-21 us
    hist = {t["point"][0]: {"read": [[10.0, 11.0, 90], [1000.0, 1010.0, 10]]},
            t["point"][1]: {"read": [[20.0, 21.0, 100]]}}
    fig = plots.draw_latency_cdf(t, by="config.ftl.placement.policy", ops=("read",), histograms=hist)
    assert "percentiles only" not in fig._suptitle.get_text()
    a = fig.axes[0].get_lines()[0]
    assert list(a.get_xdata()) == [11.0, 1010.0]
    assert np.allclose(a.get_ydata(), [1.0, 2.0])                 # 90 % -> 1 nine; 100 % -> log10(100)
    plt.close(fig)
    fig = plots.draw_latency_cdf(t, by="config.ftl.placement.policy", ops=("read",))
    assert "percentiles only" in fig._suptitle.get_text()
    plt.close(fig)
