"""The standard figures, from the results table (matplotlib, Agg, PNG + SVG).

Every function takes a table (:func:`ssdvp_explore.table.build_table`) or a
timeseries frame, writes ``<out>.png`` and ``<out>.svg`` and returns both paths.
Grouping columns default to the workload (trace name, else the workload
description) and the GC victim policy; seeds (and any other varied key) are
averaged.

Rules that keep the figures readable with many series:

- one panel per workload (small multiples) where a figure would otherwise
  draw workloads x values series; panels that are compared share their axes;
- one legend per figure, outside the axes, with one entry per compared value;
- error bars (standard deviation) only where a point averages more than one
  run; with one seed there is nothing to show;
- a numeric compared key (K, a slice size, a period: numbers with one unit)
  is an x axis with lines, not coloured bars;
- nothing is dropped silently: a figure that cannot show every run says
  "N of M runs shown" in its title.

Each ``draw_*`` function returns the matplotlib figure (tests count its
series); the public functions draw and save.
"""
from __future__ import annotations

import json
import os
import re
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402

POLICY = "config.ftl.gc.policy"
WORKLOAD = "workload_label"
PERCENTILES = [("p50", 0.5), ("p99", 0.99), ("p999", 0.999), ("p9999", 0.9999), ("max", 1.0)]
NINES = [(0.5, "50 %"), (0.9, "90 %"), (0.99, "99 %"), (0.999, "99.9 %"), (0.9999, "99.99 %"), (0.99999, "99.999 %")]
MAX_PANELS = 48

plt.rcParams.update({"svg.hashsalt": "ssdvp", "figure.dpi": 100, "savefig.dpi": 120,
                     "axes.grid": True, "grid.alpha": 0.3, "font.size": 9})

METRIC_NAMES = {
    "ftl.waf": "write amplification (WAF)",
    "ftl.erases": "block erases",
    "latency_us.all.mean": "mean response time",
    "latency_us.read.mean": "mean read latency",
    "latency_us.write.mean": "mean write latency",
}


def _plain(v, _pos=None) -> str:
    """A tick label as a plain rounded number (12,000 not 1.2e+04; 0.25 not 0.25000000001)."""
    if v == 0:
        return "0"
    return f"{v:,.0f}" if abs(v) >= 1000 else f"{float(f'{v:.6g}'):g}"


def tidy_axes(fig):
    """Round ticks on every numeric axis a figure has not fixed itself: linear axes on
    1/2/2.5/5 x 10^n steps, log axes on the decades, labels as plain numbers."""
    from matplotlib.ticker import FixedLocator, FuncFormatter, LogLocator, MaxNLocator, NullFormatter
    for ax in fig.axes:
        for axis, scale in ((ax.xaxis, ax.get_xscale()), (ax.yaxis, ax.get_yscale())):
            if isinstance(axis.get_major_locator(), FixedLocator):
                continue   # categorical or deliberately placed ticks
            if scale == "log":
                axis.set_major_locator(LogLocator(base=10))
                axis.set_minor_formatter(NullFormatter())
            elif scale == "linear":
                axis.set_major_locator(MaxNLocator(nbins=6, steps=[1, 2, 2.5, 5, 10]))
            else:
                continue
            axis.set_major_formatter(FuncFormatter(_plain))


def log_if_wide(ax, values, axis: str = "y", decades: float = 2.0) -> bool:
    """Log scale on ``axis`` when the (positive) values span more than ``decades`` decades."""
    v = np.asarray([x for x in np.ravel(values) if x == x], dtype=float)
    if v.size and (v > 0).all() and v.max() / v.min() > 10 ** decades:
        (ax.set_yscale if axis == "y" else ax.set_xscale)("log")
        return True
    return False


def save(fig, out: str | os.PathLike) -> list[Path]:
    """Write <out>.png and <out>.svg (reproducible: no dates in the metadata), ticks tidied."""
    tidy_axes(fig)
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


def _key_name(key: str) -> str:
    return key.removeprefix("config.")


_NUM = re.compile(r"^\s*([-+]?[0-9]*\.?[0-9]+(?:[eE][-+]?[0-9]+)?)\s*([A-Za-z%]*)\s*$")


def numeric_values(values) -> tuple[dict, str] | None:
    """{value: number} and the common unit when every value is a number with
    the same unit ("3", "352KiB", "2000ms"); None for categorical values."""
    out, units = {}, set()
    for v in values:
        if isinstance(v, (int, float, np.integer, np.floating)) and not isinstance(v, bool):
            out[v], unit = float(v), ""
        else:
            m = _NUM.match(str(v))
            if not m:
                return None
            out[v], unit = float(m.group(1)), m.group(2)
        units.add(unit)
    return (out, units.pop()) if len(out) > 1 and len(units) == 1 else None


def _agg(df: pd.DataFrame, keys: list[str], metric: str) -> pd.DataFrame:
    """mean, std and count of metric per keys, key order as first seen."""
    return df.groupby(keys, sort=False)[metric].agg(["mean", "std", "count"]).reset_index()


def _colors(values) -> dict:
    cyc = plt.rcParams["axes.prop_cycle"].by_key()["color"]
    cmap = plt.get_cmap("tab20") if len(values) > len(cyc) else None
    return {v: (cmap(i % 20) if cmap else cyc[i % len(cyc)]) for i, v in enumerate(values)}


def legend_outside(fig, handles, labels, title: str | None = None):
    """One figure legend right of the axes (never over the data)."""
    if not handles:
        return None
    ncol = 1 if len(labels) <= 18 else 2
    return fig.legend(handles, labels, title=title, loc="upper left", bbox_to_anchor=(1.0, 0.95),
                      fontsize=8, title_fontsize=8, frameon=False, ncol=ncol)


def _grid(n: int, max_cols: int = 3):
    cols = min(max_cols, max(1, n))
    return (n + cols - 1) // cols, cols


def _bar_panel(ax, agg: pd.DataFrame, group: str, by: str, colors: dict, hues: list):
    """Bars per group (x) and compared value (colour); error bars only over >1 run."""
    groups = list(dict.fromkeys(agg[group]))
    width = 0.8 / max(1, len(hues))
    x = np.arange(len(groups))
    for i, h in enumerate(hues):
        sub = agg[agg[by] == h].set_index(group).reindex(groups)
        err = sub["std"].where(sub["count"] > 1) if "count" in sub else None
        has_err = err is not None and err.notna().any()
        ax.bar(x + (i - (len(hues) - 1) / 2) * width, sub["mean"], width, color=colors[h], label=str(h),
               yerr=err.fillna(0) if has_err else None, capsize=2 if has_err else 0)
    ax.set_xticks(x)
    rot = len(groups) > 3 or max((len(str(g)) for g in groups), default=0) > 14
    ax.set_xticklabels([str(g) for g in groups], rotation=25 if rot else 0, ha="right" if rot else "center")


def _line_panel(ax, agg: pd.DataFrame, group: str, by: str, num: dict, colors: dict):
    """A numeric compared key on x: one line per group (workload)."""
    for g in dict.fromkeys(agg[group]):
        sub = agg[agg[group] == g].copy()
        sub["x"] = sub[by].map(num)
        sub = sub.sort_values("x")
        err = sub["std"].where(sub["count"] > 1)
        ax.errorbar(sub["x"], sub["mean"], yerr=err if err.notna().any() else None, marker="o", ms=3,
                    capsize=2, color=colors[g], label=str(g))


def draw_metric_panels(df: pd.DataFrame, metrics: list[tuple[str, str]], by: str = POLICY,
                       group: str = WORKLOAD):
    """One panel per metric: bars (categorical key) or lines over the key (numeric key)."""
    df = _ok(with_labels(df))
    hues = list(dict.fromkeys(df[by]))
    num = numeric_values(hues)
    fig, axes = plt.subplots(1, len(metrics), figsize=(4.6 * len(metrics), 3.4), squeeze=False)
    groups = list(dict.fromkeys(df[group]))
    colors = _colors(groups if num else hues)
    for ax, (metric, title) in zip(axes[0], metrics):
        agg = _agg(df, [group, by], metric)
        if num:
            _line_panel(ax, agg, group, by, num[0], colors)
            ax.set_xlabel(_key_name(by) + (f" ({num[1]})" if num[1] else ""))
            if len(num[0]) and min(num[0].values()) > 0 and max(num[0].values()) / min(num[0].values()) > 20:
                ax.set_xscale("log")
            xs = sorted(set(num[0].values()))
            ax.set_xticks(xs, [_plain(x) for x in xs])   # the swept values themselves
            ax.minorticks_off()
        else:
            _bar_panel(ax, agg, group, by, colors, hues)
        log_if_wide(ax, agg["mean"])
        ax.set_ylabel(METRIC_NAMES.get(metric, metric))
        ax.set_title(title)
    h, lab = axes[0][0].get_legend_handles_labels()
    legend_outside(fig, h, lab, "workload" if num else _key_name(by))
    fig.tight_layout()
    return fig


def waf_erase_bars(df: pd.DataFrame, out, by: str = POLICY, group: str = WORKLOAD) -> list[Path]:
    """WAF and block erases per workload and compared value."""
    return save(draw_metric_panels(df, [("ftl.waf", "WAF"), ("ftl.erases", "Erases")], by, group), out)


def draw_normalized_response_time(df: pd.DataFrame, by: str = POLICY, group: str = WORKLOAD,
                                  baseline: str | None = None, metric: str = "latency_us.all.mean"):
    df = _ok(with_labels(df)).copy()
    values = list(dict.fromkeys(df[by]))
    baseline = baseline if baseline is not None and baseline in values else (values[0] if values else None)
    base = df[df[by] == baseline].groupby(group)[metric].mean()
    col = f"{metric} relative"
    df[col] = df[metric] / df[group].map(base)
    what = METRIC_NAMES.get(metric, metric)
    fig = draw_metric_panels(df, [(col, f"{what.capitalize()} relative to {_key_name(by)} = {baseline}")], by, group)
    ax = fig.axes[0]
    ax.set_ylabel(f"{what} / {baseline}'s")
    ax.axhline(1.0, color="k", lw=0.8)
    return fig


def normalized_response_time(df: pd.DataFrame, out, by: str = POLICY, group: str = WORKLOAD,
                             baseline: str | None = None, metric: str = "latency_us.all.mean") -> list[Path]:
    """Mean response time of each value divided by the baseline value's, per workload."""
    return save(draw_normalized_response_time(df, by, group, baseline, metric), out)


def merge_histograms(hists: list) -> np.ndarray | None:
    """[[lo, hi, count], ...] lists (one per run) -> one array of rows (lo, hi, count), lo ascending."""
    acc: dict[tuple[float, float], float] = {}
    for h in hists:
        if isinstance(h, str):
            try:
                h = json.loads(h)
            except ValueError:
                continue
        for row in h or []:
            if len(row) == 3:
                acc[(float(row[0]), float(row[1]))] = acc.get((float(row[0]), float(row[1])), 0.0) + float(row[2])
    if not acc:
        return None
    return np.array([(lo, hi, n) for (lo, hi), n in sorted(acc.items())])


def cdf_points(buckets: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(latency, fraction of requests at or below it) at every bucket's upper edge."""
    n = buckets[:, 2].sum()
    return buckets[:, 1], np.cumsum(buckets[:, 2]) / n


def _nines(f: np.ndarray, n: float) -> np.ndarray:
    """-log10(1 - F); F = 1 is drawn at the resolution of n samples."""
    return -np.log10(np.maximum(1.0 - f, 1.0 / max(n, 1.0)))


def draw_latency_cdf(df: pd.DataFrame, by: str = POLICY, group: str = WORKLOAD,
                     ops: tuple[str, ...] = ("read", "write"), histograms: dict | None = None):
    """Latency CDFs: one panel per (op, workload), one line per compared value.

    With ``histograms`` ({point: {op: [[lo, hi, count], ...]}}, from
    :func:`ssdvp_explore.table.load_histograms`) each line is the real CDF of
    every request (runs of one value merged); without, a polyline through the
    summary percentiles (p50 .. max), and the title says so. The y axis is a
    "nines" scale, so the tail gets the room."""
    df = _ok(with_labels(df))
    hues = list(dict.fromkeys(df[by]))
    colors = _colors(hues)
    groups = list(dict.fromkeys(df[group]))
    shown = groups[:MAX_PANELS // max(1, len(ops))]
    # rows: workloads, columns: ops (a page is taller than wide); one y scale,
    # one x scale per op column
    fig, axes = plt.subplots(len(shown), len(ops), figsize=(4.2 * len(ops), 2.6 * len(shown) + 0.6),
                             squeeze=False, sharey=True, sharex="col")
    real = False
    for c, op in enumerate(ops):
        for r, g in enumerate(shown):
            ax = axes[r][c]
            sub = df[df[group] == g]
            for h in hues:
                runs = sub[sub[by] == h]
                if runs.empty:
                    continue
                merged = merge_histograms([histograms.get(p, {}).get(op) for p in runs["point"]]) \
                    if histograms and "point" in runs else None
                if merged is not None:
                    x, f = cdf_points(merged)
                    ax.step(x, _nines(f, merged[:, 2].sum()), where="post", color=colors[h], lw=1.2, label=str(h))
                    real = True
                else:
                    cols = [f"latency_us.{op}.{k}" for k, _ in PERCENTILES]
                    if not set(cols) <= set(runs):
                        continue
                    vals = runs[cols].mean().to_numpy(dtype=float)
                    ax.plot(vals, _nines(np.array([p for _, p in PERCENTILES]), 1e5), marker="o", ms=3,
                            color=colors[h], label=str(h))
            ax.set_xscale("log")
            ax.set_yticks([-np.log10(1 - p) for p, _ in NINES])
            ax.set_yticklabels([lab for _, lab in NINES])
            ax.set_ylim(0, -np.log10(1 - NINES[-1][0]))
            if r == len(shown) - 1:
                ax.set_xlabel(f"{op} latency (us)")
            if c == 0:
                ax.set_ylabel("requests at or below")
            ax.set_title(f"{g}: {op}" if len(shown) > 1 or g else op, fontsize=9)
    title = "Latency CDF" + ("" if real else " (through the summary percentiles only)")
    if len(shown) < len(groups):
        title += f" ({len(shown)} of {len(groups)} workloads shown)"
    fig.suptitle(title, fontsize=10, y=1.0)
    handles = {}
    for ax in fig.axes:
        for hdl, lab in zip(*ax.get_legend_handles_labels()):
            handles.setdefault(lab, hdl)
    fig.tight_layout()
    legend_outside(fig, list(handles.values()), list(handles), _key_name(by))
    return fig


def latency_cdf(df: pd.DataFrame, out, by: str = POLICY, group: str = WORKLOAD,
                ops: tuple[str, ...] = ("read", "write"), histograms: dict | None = None) -> list[Path]:
    """Latency CDFs per workload and op (see :func:`draw_latency_cdf`)."""
    return save(draw_latency_cdf(df, by, group, ops, histograms), out)


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


def draw_bandwidth_over_time(series: dict, total: int | None = None, cols: int | None = None):
    """Read/write bandwidth over time, one panel per run, GC periods shaded.

    ``series``: {label: timeseries} or {(row, column): timeseries} for a grid
    (rows: workloads, columns: compared values; panels of a row share axes).
    ``total``: how many runs there were, when ``series`` holds fewer."""
    keys = list(series)
    grid = bool(keys) and all(isinstance(k, tuple) and len(k) == 2 for k in keys)
    if grid:
        rows_l = list(dict.fromkeys(k[0] for k in keys))
        cols_l = list(dict.fromkeys(k[1] for k in keys))
        nr, nc = len(rows_l), len(cols_l)
        pos = {k: (rows_l.index(k[0]), cols_l.index(k[1])) for k in keys}
    else:
        nr, nc = _grid(len(keys), cols or (1 if len(keys) <= 4 else 3))
        pos = {k: divmod(i, nc) for i, k in enumerate(keys)}
    nr, nc = max(1, nr), max(1, nc)
    fig, axes = plt.subplots(nr, nc, figsize=(max(7.0, 3.0 * nc), 1.9 * nr + 0.8), squeeze=False,
                             sharex="row" if grid else True, sharey="row" if grid else False)
    used = set()
    for k, ts in series.items():
        r, c = pos[k]
        ax = axes[r][c]
        used.add((r, c))
        for s, e in gc_periods(ts):
            ax.axvspan(s, e, color="tab:red", alpha=0.12, lw=0)
        ax.plot(ts["time_s"], ts["read_mbps"], label="read", lw=1, color="tab:blue")
        ax.plot(ts["time_s"], ts["write_mbps"], label="write", lw=1, color="tab:orange")
        ax.set_title(" / ".join(map(str, k)) if grid else str(k), fontsize=8, loc="left")
        if c == 0:
            ax.set_ylabel("MB/s")
        if r == nr - 1 or (r + 1, c) not in pos.values():
            ax.set_xlabel("simulated time (s)")
    for r in range(nr):
        for c in range(nc):
            if (r, c) not in used:
                axes[r][c].set_visible(False)
    if total is not None and total > len(series):
        fig.suptitle(f"{len(series)} of {total} runs shown", fontsize=10)
    from matplotlib.patches import Patch
    h = [plt.Line2D([], [], color="tab:blue"), plt.Line2D([], [], color="tab:orange"),
         Patch(color="tab:red", alpha=0.2)]
    fig.tight_layout()
    legend_outside(fig, h, ["read", "write", "GC active"])
    return fig


def bandwidth_over_time(series: dict, out, total: int | None = None) -> list[Path]:
    """Read/write bandwidth over time, one panel per run, GC periods shaded."""
    return save(draw_bandwidth_over_time(series, total), out)


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
    return save(draw_metric_panels(df, [(c, c) for c in costs], impl, group), out)


def bandwidth_series(ok: pd.DataFrame, timeseries: pd.DataFrame, by: str) -> tuple[dict, int]:
    """The first seed of each (workload, compared value) as a grid of panels,
    at most MAX_PANELS; returns (series, runs there were)."""
    first = ok.drop_duplicates([WORKLOAD, by])
    series = {}
    for _, r in first.iterrows():
        if len(series) >= MAX_PANELS:
            break
        ts = timeseries[timeseries["point"] == r["point"]]
        if not ts.empty:
            series[(r[WORKLOAD], r[by])] = ts
    return series, len(first)


WORKLOAD_KEYS = ("config.workload.trace", "config.workload.source", "config.workload.synthetic.pattern")


def merged_keys(df: pd.DataFrame, by: str, keep: tuple[str, ...] = ()) -> list[str]:
    """Config keys, other than the seeds, that vary within one workload and one value
    of ``by``: the standard figures would average their values into one point."""
    df = with_labels(df)
    if by not in df or df.empty:
        return []
    out = []
    for c in df.columns:
        if not c.startswith("config.") or c == by or c in WORKLOAD_KEYS or c in keep or "seed" in c:
            continue
        if (df.assign(_v=df[c].astype(str)).groupby([WORKLOAD, by], sort=False)["_v"].nunique() > 1).any():
            out.append(c)
    return out


def point_note(df: pd.DataFrame, by: str) -> str:
    """What one bar or point of the standard figures is: runs per workload and value, and the seeds."""
    ok = _ok(with_labels(df))
    if ok.empty or by not in ok:
        return ""
    n = ok.groupby([WORKLOAD, by], sort=False).size()
    runs = f"{n.min()}" if n.min() == n.max() else f"{n.min()}-{n.max()}"
    seeds = sorted({str(v) for c in ok.columns if c.startswith("config.") and "seed" in c
                    and ok[c].nunique() > 1 for v in ok[c].dropna()})
    text = f"one bar or point: the mean of {runs} run(s) of one workload and one `{_key_name(by)}` value"
    if seeds:
        text += f" (seeds {', '.join(seeds)}; error bars: one standard deviation)"
    merged = merged_keys(ok, by)
    if merged:
        text += "; averaged over " + ", ".join(f"`{_key_name(k)}`" for k in merged)
    return text


def standard_figures(df: pd.DataFrame, outdir, timeseries: pd.DataFrame | None = None, by: str = POLICY,
                     baseline: str | None = None, histograms: dict | None = None) -> dict[str, list[Path]]:
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
        figs["latency_cdf"] = latency_cdf(df, outdir / "latency_cdf", by=by, histograms=histograms)
    if timeseries is not None and not timeseries.empty:
        series, total = bandwidth_series(ok, timeseries, by)
        if series:
            figs["bandwidth"] = bandwidth_over_time(series, outdir / "bandwidth", total=total)
    if any("clustering" in c and not c.startswith("config.") for c in df.columns):
        impl = next((c for c in df.columns if c.startswith("config.") and "clustering" in c), by)
        try:
            figs["clustering_cost"] = clustering_cost(df, outdir / "clustering_cost", impl=impl)
        except ValueError:
            pass
    return figs
