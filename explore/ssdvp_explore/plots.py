"""The standard figures, from the results table (matplotlib, Agg, PNG + SVG).

Every function takes a table (:func:`ssdvp_explore.table.build_table`) or a
timeseries frame, writes ``<out>.png`` and ``<out>.svg`` and returns both paths.
Grouping columns default to the workload (trace name, else the workload
description) and the GC victim policy; seeds (and any other varied key) are
averaged, with the standard deviation as error bars.
"""
from __future__ import annotations

import os
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402

POLICY = "config.ftl.gc.policy"
WORKLOAD = "workload_label"
PERCENTILES = [("p50", 0.5), ("p99", 0.99), ("p999", 0.999), ("p9999", 0.9999), ("max", 1.0)]

plt.rcParams.update({"svg.hashsalt": "ssdvp", "figure.dpi": 100, "savefig.dpi": 120,
                     "axes.grid": True, "grid.alpha": 0.3, "font.size": 9})


def save(fig, out: str | os.PathLike) -> list[Path]:
    """Write <out>.png and <out>.svg (reproducible: no dates in the metadata)."""
    out = Path(out)
    out.parent.mkdir(parents=True, exist_ok=True)
    paths = []
    for ext, meta in (("png", {"Software": None}), ("svg", {"Date": None, "Creator": None})):
        p = out.with_name(out.name + "." + ext)
        fig.savefig(p, format=ext, bbox_inches="tight", metadata=meta)
        paths.append(p)
    plt.close(fig)
    return paths


def with_labels(df: pd.DataFrame) -> pd.DataFrame:
    """Add derived columns: workload_label, latency_us.all.mean (count-weighted read+write)."""
    df = df.copy()
    for c in df.columns:   # nullable Int64 (table integers) -> float64 for numpy/matplotlib
        if pd.api.types.is_extension_array_dtype(df[c].dtype) and pd.api.types.is_numeric_dtype(df[c].dtype):
            df[c] = df[c].astype("float64")
    if WORKLOAD not in df:
        trace = df.get("config.workload.trace", pd.Series([""] * len(df), index=df.index)).fillna("").astype(str)
        src = df.get("config.workload.source", pd.Series([""] * len(df), index=df.index)).fillna("").astype(str)
        pat = df.get("config.workload.synthetic.pattern", pd.Series([""] * len(df), index=df.index)).fillna("").astype(str)
        # the label must not carry the seed, or "means over seeds" would not merge them
        df[WORKLOAD] = [os.path.splitext(os.path.basename(t))[0] if (t and s != "synthetic") else
                        ("synthetic " + p if p else "synthetic") for t, s, p in zip(trace, src, pat)]
    rc, wc = "latency_us.read.count", "latency_us.write.count"
    if "latency_us.all.mean" not in df and {rc, wc, "latency_us.read.mean", "latency_us.write.mean"} <= set(df):
        n = df[rc].fillna(0) + df[wc].fillna(0)
        tot = df[rc].fillna(0) * df["latency_us.read.mean"].fillna(0) + \
            df[wc].fillna(0) * df["latency_us.write.mean"].fillna(0)
        df["latency_us.all.mean"] = (tot / n.replace(0, np.nan))
    return df


def _ok(df: pd.DataFrame) -> pd.DataFrame:
    return df[df["status"].isin(["ok", "violations"])] if "status" in df else df


def _agg(df: pd.DataFrame, keys: list[str], metric: str) -> pd.DataFrame:
    """mean and std of metric per keys, key order as first seen."""
    g = df.groupby(keys, sort=False)[metric].agg(["mean", "std", "count"]).reset_index()
    return g


def _grouped_bars(ax, agg: pd.DataFrame, group: str, by: str, ylabel: str, title: str | None = None):
    groups = list(dict.fromkeys(agg[group]))
    hues = list(dict.fromkeys(agg[by]))
    width = 0.8 / max(1, len(hues))
    x = np.arange(len(groups))
    for i, h in enumerate(hues):
        sub = agg[agg[by] == h].set_index(group).reindex(groups)
        ax.bar(x + (i - (len(hues) - 1) / 2) * width, sub["mean"], width,
               yerr=sub["std"].fillna(0), capsize=2, label=str(h))
    ax.set_xticks(x)
    ax.set_xticklabels([str(g) for g in groups], rotation=20 if len(groups) > 3 else 0, ha="right" if len(groups) > 3 else "center")
    ax.set_ylabel(ylabel)
    if title:
        ax.set_title(title)


def waf_erase_bars(df: pd.DataFrame, out, by: str = POLICY, group: str = WORKLOAD) -> list[Path]:
    """WAF and block erases, bars per workload (x) and policy (colour)."""
    df = _ok(with_labels(df))
    fig, axes = plt.subplots(1, 2, figsize=(10, 3.6))
    _grouped_bars(axes[0], _agg(df, [group, by], "ftl.waf"), group, by, "write amplification (WAF)", "WAF")
    _grouped_bars(axes[1], _agg(df, [group, by], "ftl.erases"), group, by, "block erases", "Erases")
    axes[1].legend(title=by.removeprefix("config."), fontsize=8, loc="best")
    return save(fig, out)


def normalized_response_time(df: pd.DataFrame, out, by: str = POLICY, group: str = WORKLOAD,
                             baseline: str | None = None, metric: str = "latency_us.all.mean") -> list[Path]:
    """Mean response time of each policy divided by the baseline policy's, per workload."""
    df = _ok(with_labels(df))
    agg = _agg(df, [group, by], metric)
    baseline = baseline if baseline is not None else (agg[by].iloc[0] if len(agg) else None)
    base = agg[agg[by] == baseline].set_index(group)["mean"]
    agg["std"] = agg["std"] / agg[group].map(base)
    agg["mean"] = agg["mean"] / agg[group].map(base)
    fig, ax = plt.subplots(figsize=(7, 3.6))
    _grouped_bars(ax, agg, group, by, f"{metric.removeprefix('latency_us.')} / {baseline}",
                  f"Response time normalized to {baseline}")
    ax.axhline(1.0, color="k", lw=0.8)
    ax.legend(title=by.removeprefix("config."), fontsize=8)
    return save(fig, out)


def latency_cdf(df: pd.DataFrame, out, by: str = POLICY, group: str = WORKLOAD,
                ops: tuple[str, ...] = ("read", "write")) -> list[Path]:
    """Latency CDF tails from the summary percentiles (p50 .. max), one panel per op.

    The y axis is the percentile on a "nines" scale (-log10(1-p)); curves are
    averaged over seeds. One line per (workload, policy)."""
    df = _ok(with_labels(df))
    fig, axes = plt.subplots(1, len(ops), figsize=(5 * len(ops), 3.6), squeeze=False)
    nines = [-np.log10(max(1 - p, 1e-5)) for _, p in PERCENTILES]
    multi = df[group].nunique() > 1
    for ax, op in zip(axes[0], ops):
        cols = [f"latency_us.{op}.{k}" for k, _ in PERCENTILES]
        if not set(cols) <= set(df):
            ax.set_title(f"{op}: no data")
            continue
        for (g, b), sub in df.groupby([group, by], sort=False):
            vals = sub[cols].mean().to_numpy(dtype=float)
            ax.plot(vals, nines, marker="o", ms=3, label=f"{g} / {b}" if multi else str(b))
        ax.set_xscale("log")
        ax.set_yticks(nines)
        ax.set_yticklabels([k for k, _ in PERCENTILES])
        ax.set_xlabel(f"{op} latency (us)")
        ax.set_ylabel("percentile")
        ax.set_title(f"{op} latency CDF")
    axes[0][-1].legend(fontsize=7)
    return save(fig, out)


def gc_periods(ts: pd.DataFrame, col: str = "gc_lba_moves") -> list[tuple[float, float]]:
    """Contiguous time spans of intervals with GC activity (interval i spans (t[i-1], t[i]])."""
    if col not in ts or ts.empty:
        return []
    t = ts["time_s"].to_numpy(dtype=float)
    starts = np.concatenate([[0.0], t[:-1]])
    spans, cur = [], None
    for s, e, active in zip(starts, t, ts[col].fillna(0).to_numpy() > 0):
        if active:
            cur = (cur[0], e) if cur else (s, e)
        elif cur:
            spans.append(cur)
            cur = None
    if cur:
        spans.append(cur)
    return spans


def bandwidth_over_time(series: dict[str, pd.DataFrame], out) -> list[Path]:
    """Read/write bandwidth over time, one panel per run, GC periods shaded."""
    n = max(1, len(series))
    fig, axes = plt.subplots(n, 1, figsize=(9, 1.9 * n + 0.6), sharex=True, squeeze=False)
    for ax, (label, ts) in zip(axes[:, 0], series.items()):
        for s, e in gc_periods(ts):
            ax.axvspan(s, e, color="tab:red", alpha=0.12, lw=0)
        ax.plot(ts["time_s"], ts["read_mbps"], label="read", lw=1)
        ax.plot(ts["time_s"], ts["write_mbps"], label="write", lw=1)
        ax.set_ylabel("MB/s")
        ax.set_title(label, fontsize=8, loc="left")
    axes[-1, 0].set_xlabel("simulated time (s)")
    from matplotlib.patches import Patch
    h, lab = axes[0, 0].get_legend_handles_labels()
    axes[0, 0].legend(h + [Patch(color="tab:red", alpha=0.2)], lab + ["GC active"], fontsize=7, loc="upper right")
    return save(fig, out)


def clustering_cost(df: pd.DataFrame, out, impl: str = "config.ftl.clustering.impl",
                    costs: list[str] | None = None, group: str = WORKLOAD) -> list[Path]:
    """Accelerator versus software clustering: one panel per cost metric, bars per implementation.

    ``costs`` defaults to every numeric column whose name contains 'clustering'
    (and is not a config column)."""
    df = _ok(with_labels(df))
    if costs is None:
        costs = [c for c in df.columns if "clustering" in c and not c.startswith("config.")
                 and pd.api.types.is_numeric_dtype(df[c])]
    if not costs:
        raise ValueError("clustering_cost: no clustering cost columns in the table")
    fig, axes = plt.subplots(1, len(costs), figsize=(4 * len(costs), 3.4), squeeze=False)
    for ax, c in zip(axes[0], costs):
        _grouped_bars(ax, _agg(df, [group, impl], c), group, impl, c, c)
    axes[0][-1].legend(title=impl.removeprefix("config."), fontsize=8)
    return save(fig, out)


def standard_figures(df: pd.DataFrame, outdir, timeseries: pd.DataFrame | None = None, by: str = POLICY,
                     baseline: str | None = None, max_series: int = 8) -> dict[str, list[Path]]:
    """Every standard figure the table has data for. Returns {figure name: [png, svg]}."""
    outdir = Path(outdir)
    df = with_labels(df)
    figs: dict[str, list[Path]] = {}
    ok = _ok(df)
    if ok.empty or by not in df:
        return figs
    if {"ftl.waf", "ftl.erases"} <= set(df):
        figs["waf_erases"] = waf_erase_bars(df, outdir / "waf_erases", by=by)
    if "latency_us.all.mean" in df:
        figs["response_time"] = normalized_response_time(df, outdir / "response_time", by=by, baseline=baseline)
    if "latency_us.read.p99" in df or "latency_us.write.p99" in df:
        figs["latency_cdf"] = latency_cdf(df, outdir / "latency_cdf", by=by)
    if timeseries is not None and not timeseries.empty:
        # one run per (workload, policy): the first seed
        first = ok.drop_duplicates([WORKLOAD, by])
        series = {}
        for _, r in first.head(max_series).iterrows():
            ts = timeseries[timeseries["point"] == r["point"]]
            if not ts.empty:
                series[f"{r[WORKLOAD]} / {r[by]}"] = ts
        if series:
            figs["bandwidth"] = bandwidth_over_time(series, outdir / "bandwidth")
    if any("clustering" in c and not c.startswith("config.") for c in df.columns):
        impl = next((c for c in df.columns if c.startswith("config.") and "clustering" in c), by)
        try:
            figs["clustering_cost"] = clustering_cost(df, outdir / "clustering_cost", impl=impl)
        except ValueError:
            pass
    return figs
