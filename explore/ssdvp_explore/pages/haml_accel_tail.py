"""docs/results/haml-accel-tail.md: HAML-K's K-Means on the controller CPU against the K-Means accelerator at the
smallest slices the accelerator holds here, at a short and at the base period: the host's tail latency. Every
figure and verdict is computed here from the sweep's table."""
from __future__ import annotations

from pathlib import Path

import pandas as pd

from ..stats import fmt_ci, mean_ci, paired_change
from . import Page, closing, markdown_table, opening, own_figure, recording_line, register, saturated

ENGINE, PERIOD = "config.ftl.cluster.engine", "config.ftl.hot.period"
SEED = "config.precondition.seed"
METRICS = [("latency_us.write.p9999", "write p99.99 (us)"), ("latency_us.read.p9999", "read p99.99 (us)"),
           ("resp_us", "mean response (us)")]

INTRO = """\
**The question.** HAML-SSD puts its K-Means on a hardware unit so that clustering many small slices often does not
cost the controller's CPU time. Where the firmware clusters on the CPU, the clustering takes the CPU away from the
host's commands for as long as it runs; the sensitivity page ([haml-recorded-sens.md](haml-recorded-sens.md))
measures what that does to the mean response time at the base period. Here: the host's **tail** (p99.99) at the
smallest slices the accelerator holds on this drive and at a period eight times shorter, where the clustering is
longest and most frequent.

**Setup.** HAML-K (K = 6, at most 10 K-Means iterations a period, relocated data on a frontier of its own) with
48 KiB slices: 21,846 slices of the 1 GiB drive, the most that fit the accelerator's point memory (25,600 points,
the paper's smallest-slice count, which would be 41.9 KiB here, not a whole number of 8 KiB LBAs), on the
setting of [haml-recorded-sens.md](haml-recorded-sens.md): the drive each recording was made on
(`configs/workloads-1g.yaml`, used: a sequential fill and one drive-write of random overwrites), open loop at x8
(`workload.time_scale: 8`):

{recordings}

Periods T = 0.5 s (1/16 s of the recording) and 4 s (the sensitivity page's base). The clustering runs on the
controller CPU (`ftl.cluster.engine: software`, its cost charged from the CPU's cost table) or on the accelerator
(`accel`, [models/accel.md](../models/accel.md): the same classes, bit-exact; the firmware programs it and waits
for its interrupt). Three drive histories per point (`precondition.seed` 1, 2, 3); a cell is the mean and, after
±, the half-width of its 95 % interval (Student's t); a change is per drive history, accelerator against CPU."""


def _label(df: pd.DataFrame) -> pd.DataFrame:
    df = df[df["status"].isin(["ok", "violations"])].copy()
    df["workload"] = df["config.workload.trace"].astype(str).map(lambda t: Path(t).name.replace(".iolog", ""))
    df[ENGINE] = df[ENGINE].astype(str)
    df[PERIOD] = df[PERIOD].astype(str)
    rc, wc = df["latency_us.read.count"].fillna(0), df["latency_us.write.count"].fillna(0)
    df["resp_us"] = (rc * df["latency_us.read.mean"].fillna(0) + wc * df["latency_us.write.mean"].fillna(0)) / (rc + wc)
    ops = [c for c in df.columns if c.startswith(("cpu.ops.kmeans_", "cpu.ops.hot_close_slice")) and c.endswith(".time_s")]
    df["cluster_ms"] = 1000 * df[ops].fillna(0).sum(axis=1) if ops else 0.0
    return df


def _periods(df: pd.DataFrame) -> list[str]:
    from ..units import quantity
    return sorted(df[PERIOD].unique(), key=quantity)


def _pairs(df: pd.DataFrame, wl: str, period: str, key: str) -> list[float]:
    """Per drive history: the accelerator's value over the CPU's, in %."""
    g = df[(df["workload"] == wl) & (df[PERIOD] == period)]
    sw = g[g[ENGINE] == "software"].set_index(SEED)[key]
    hw = g[g[ENGINE] == "accel"].set_index(SEED)[key]
    return paired_change(hw, sw)


def _table(df: pd.DataFrame) -> pd.DataFrame:
    rows = []
    for wl in sorted(df["workload"].unique()):
        for period in _periods(df):
            for eng in ("software", "accel"):
                g = df[(df["workload"] == wl) & (df[PERIOD] == period) & (df[ENGINE] == eng)]
                if g.empty:
                    continue
                r = {"workload": wl, "T": period, "clustering": "CPU" if eng == "software" else "accelerator"}
                for key, label in METRICS:
                    r[label] = fmt_ci(g[key], ".0f")
                r["clustering CPU (ms)"] = fmt_ci(g["cluster_ms"], ".0f")
                r["WAF"] = fmt_ci(g["ftl.waf"], ".3f")
                r["accelerator jobs / errors"] = (f"{g['accel.jobs'].mean():.0f} / {g['accel.errors'].fillna(0).sum():.0f}"
                                                  if eng == "accel" and "accel.jobs" in g else "")
                rows.append(r)
    return pd.DataFrame(rows)


def _changes(df: pd.DataFrame) -> pd.DataFrame:
    rows = []
    for wl in sorted(df["workload"].unique()):
        for period in _periods(df):
            r = {"workload": wl, "T": period}
            for key, label in METRICS:
                r[label.replace(" (us)", "") + ", accelerator vs CPU"] = fmt_ci(_pairs(df, wl, period, key), "+.1f") + " %"
            rows.append(r)
    return pd.DataFrame(rows)


def _findings(df: pd.DataFrame) -> list[str]:
    out = []
    for period in _periods(df):
        for key, label in METRICS:
            parts = []
            for wl in sorted(df["workload"].unique()):
                c = _pairs(df, wl, period, key)
                if not c:
                    continue
                m, h = mean_ci(c)
                word = "lower" if m + h < 0 else "higher" if m - h > 0 else "no different: the interval spans 0"
                parts.append(f"{wl} {m:+.1f} ± {h:.1f} % ({word})")
            if parts:
                out.append(f"- **T = {period}, {label.replace(' (us)', '')}**, accelerator against CPU: "
                           + "; ".join(parts) + ".")
        cpu = df[(df[PERIOD] == period) & (df[ENGINE] == "software")]["cluster_ms"]
        acc = df[(df[PERIOD] == period) & (df[ENGINE] == "accel")]["cluster_ms"]
        if len(cpu) and len(acc):
            per = _per_period(df, period)
            out.append(f"- T = {period}: the clustering took {cpu.min():.0f}-{cpu.max():.0f} ms of controller CPU a "
                       f"run on the CPU, {acc.min():.0f}-{acc.max():.0f} ms with the accelerator (what stays on the "
                       "CPU: closing the period's slices and programming the unit)"
                       + (f"; on the CPU one period's clustering holds the controller for: {per}." if per else "."))
    return out


def _per_period(df: pd.DataFrame, period: str) -> str:
    """The CPU's clustering time per period, per workload (periods: the accelerator runs' jobs, one a period)."""
    parts = []
    for wl in sorted(df["workload"].unique()):
        g = df[(df["workload"] == wl) & (df[PERIOD] == period)]
        sw, hw = g[g[ENGINE] == "software"], g[g[ENGINE] == "accel"]
        if sw.empty or "accel.jobs" not in hw or not hw["accel.jobs"].mean():
            continue
        parts.append(f"{wl} {sw['cluster_ms'].mean() / hw['accel.jobs'].mean():.0f} ms (its write p99.99 "
                     f"{sw['latency_us.write.p9999'].mean() / 1000:.0f} ms, read {sw['latency_us.read.p9999'].mean() / 1000:.0f} ms)")
    return ", ".join(parts)


def _fig(df: pd.DataFrame, out: Path):
    from ..plots import legend_outside, plt, save
    wl = sorted(df["workload"].unique())
    periods = _periods(df)
    fig, axes = plt.subplots(1, len(METRICS) - 1, figsize=(9, 3.4))
    width = 0.8 / (2 * len(periods))
    i = 0
    for period in periods:
        for eng, name in (("software", "CPU"), ("accel", "accelerator")):
            for ax, (key, label) in zip(axes, METRICS[:-1]):
                ms = [mean_ci(df[(df["workload"] == w) & (df[PERIOD] == period) & (df[ENGINE] == eng)][key])
                      for w in wl]
                xs = [k + (i - (2 * len(periods) - 1) / 2) * width for k in range(len(wl))]
                ax.bar(xs, [m for m, _ in ms], width, yerr=[h for _, h in ms], capsize=1.5,
                       label=f"T = {period}, {name}", error_kw={"elinewidth": 0.7})
            i += 1
    for ax, (key, label) in zip(axes, METRICS[:-1]):
        ax.set_yscale("log")
        ax.set_xticks(range(len(wl)), wl, rotation=20, ha="right", fontsize=8)
        ax.set_ylabel(label)
    fig.tight_layout()
    legend_outside(fig, *axes[0].get_legend_handles_labels(), "period, clustering")
    return save(fig, out)


def _intro(df: pd.DataFrame, root: Path) -> str:
    return INTRO.format(recordings="\n".join(recording_line(root, w) for w in sorted(df["workload"].unique())))


def render(ctx) -> str:
    df = _label(ctx.table)
    n = df.groupby(["workload", ENGINE, PERIOD]).size()
    lines = opening(ctx, "haml_accel_tail.py", _intro(df, ctx.sweep.root), len(df), f"{n.min()}-{n.max()}") + [
        "## What the runs show", "", *_findings(df), "", saturated(df, ENGINE), "",
        "## Accelerator against CPU, per drive history", "", markdown_table(_changes(df)), "",
        "## Every point", "", markdown_table(_table(df)), ""]
    lines += own_figure(ctx, lambda out: _fig(df, out), "tail", "Host p99.99 with the clustering on the CPU and on "
                        "the accelerator", "Write and read p99.99 (log axis) per recording, period and clustering "
                        "engine; bar: the mean of 3 drive histories, whisker: its 95 % interval")
    lines += closing(ctx, REVIEWER, "configs/workloads-1g.yaml")
    return "\n".join(lines)


REVIEWER = """\
- *Why not the paper's 25,600 slices exactly?* A slice is a whole number of 8 KiB LBAs here; 40 KiB slices would
  make 26,215, more than the accelerator's 25,600-point memory, so 48 KiB (21,846) is the smallest that fits.
- *Is the CPU's clustering cost real?* It is the firmware's K-Means, charged at the controller CPU's cost per
  operation ([calibration.md](calibration.md)); the accelerator's time is its own model's (cycles of its
  pipeline and DMA at its clock, [models/accel.md](../models/accel.md)).
- *Is the spread noise?* Three drive histories per point with 95 % intervals; the recordings and K-Means are
  deterministic, so the two engines' classes are the same and only their timing differs."""

register(Page(name="haml-accel-tail", title="HAML-SSD's clustering on the CPU or the accelerator: the host's tail",
              sweep="explore/sweeps/haml-accel-tail.yaml", by=ENGINE, baseline=None, render=render))
