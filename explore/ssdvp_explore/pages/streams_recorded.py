"""docs/results/streams-recorded.md: the LSTM multi-stream seed's placements (and HAML-SSD's) on recorded real
applications. Every figure and verdict is computed here from the sweep's table; the seed's numbers are the only
ones typed in."""
from __future__ import annotations

from pathlib import Path

import pandas as pd

from ..stats import fmt_ci, mean_ci
from . import Page, closing, markdown_table, opening, own_figure, register, saturated

STREAMS = "config.host.streams"
PLACE = "config.ftl.placement.policy"
ORDER = ["none", "autostream", "lstm", "oracle", "haml"]
# The seed's Section 4.1 (Samsung PM963, its own fio, RocksDB, MySQL and Docker runs): WAF against no streams.
SEED = "fio -43.5 % (AutoStream -10.7 %), RocksDB -35.9 %, MySQL -21 % (AutoStream -4 %), two RocksDB in Docker -34 %"

INTRO = """\
**Setup.** The recordings of [workloads.md](workloads.md) made on the 1 GiB drive
(`configs/workloads-1g.yaml`: 4 channels x 2 dies, 292 blocks a plane of 64 pages of 8 KiB, 1 GiB exported, 12.3 %
spare, preconditioned full, greedy GC below 16 free blocks), replayed open loop at their recorded times on the
drive they were recorded on: `filebench-fileserver` and `filebench-varmail` (Filebench's personalities by `fbp`
on ext4 in the Linux guest, 2.3 and 2.6 drive-writes; the only recordings so far whose replay makes this drive
collect). Placements as on [streams.md](streams.md): `none` (no stream IDs), `autostream` (the chunk's
temperature cluster of the last period), `lstm` (the seed's LSTM predicting each chunk's next-period
temperature), `oracle` (each write's real death-time class from a pre-pass of the trace) and `haml` (HAML-SSD's
in-drive placement, 6 classes, 1 MiB slices, a 0.5 s period, no stream IDs). The seed's 8 streams and 10,000
chunks, and a 0.5 s period with 8 training periods (`host.predict.*`): the recordings span 14.5 s and 28.5 s of
simulated time (a recording's timestamps are the serving drive's, not the guest's wall clock), where the seed's
1-10 s periods ran over hour-long runs; with `ftl.placement.policy: stream` each stream has its own open block on
every die (8 streams x 8 dies x 512 KiB = 32 MiB, 22 % of the 144 MiB spare). Three seeds of the predictor
(`host.predict.seed`, the LSTM's weights and batch order); the other placements make no random choice, so their
three runs agree. A cell is the mean and, after ±, the half-width of its 95 % interval (Student's t)."""


def _label(df: pd.DataFrame) -> pd.DataFrame:
    df = df[df["status"].isin(["ok", "violations"])].copy()
    df["placement"] = [p if p == "haml" else s for s, p in zip(df[STREAMS].astype(str), df[PLACE].astype(str))]
    df["workload"] = df["config.workload.trace"].astype(str).map(lambda t: Path(t).name.replace(".iolog", ""))
    return df


def _table(df: pd.DataFrame, col: str, fmt: str) -> pd.DataFrame:
    rows = []
    for w in sorted(df["workload"].unique()):
        sub = df[df["workload"] == w]
        rows.append({"workload": w, **{p: fmt_ci(sub[sub["placement"] == p][col], fmt) for p in ORDER}})
    return pd.DataFrame(rows)


def _change(df: pd.DataFrame, col: str) -> dict:
    """{(workload, placement): % change of the mean against none's mean}."""
    out = {}
    for w in df["workload"].unique():
        base = mean_ci(df[(df["workload"] == w) & (df["placement"] == "none")][col])[0]
        for p in ORDER[1:]:
            m = mean_ci(df[(df["workload"] == w) & (df["placement"] == p)][col])[0]
            out[(w, p)] = 100 * (m / base - 1) if base == base and base else float("nan")
    return out


def _fig(df: pd.DataFrame, out: Path) -> list[Path]:
    from ..plots import legend_outside, plt, save
    wl = sorted(df["workload"].unique())
    fig, axes = plt.subplots(1, 2, figsize=(9, 3.2))
    width = 0.8 / len(ORDER)
    for ax, col, yl, log in ((axes[0], "ftl.waf", "WAF", False),
                             (axes[1], "latency_us.write.p9999", "p99.99 write latency (us, log)", True)):
        for i, p in enumerate(ORDER):
            ms, hs = [], []
            for w in wl:
                m, h = mean_ci(df[(df["workload"] == w) & (df["placement"] == p)][col])
                ms.append(m)
                hs.append(0 if h != h else h)
            ax.bar([j + (i - (len(ORDER) - 1) / 2) * width for j in range(len(wl))], ms, width, yerr=hs, capsize=2,
                   label=p)
        ax.set_xticks(range(len(wl)), wl)
        ax.set_ylabel(yl)
        if log:
            ax.set_yscale("log")
        else:
            ax.set_ylim(bottom=1.0)
    fig.tight_layout()
    legend_outside(fig, *axes[0].get_legend_handles_labels(), "placement")
    return save(fig, out)



def _prediction(df: pd.DataFrame) -> list[str]:
    """How well each predictor foretold the next period's chunk temperature, in the LSTM runs (which score
    AutoStream's last-period rule on the same periods): summary.json's host.predictor."""
    col = "host.predictor.lstm.spearman"
    if col not in df:
        return []
    rows = []
    for w in sorted(df["workload"].unique()):
        sub = df[(df["workload"] == w) & (df["placement"] == "lstm")]
        rows.append({"workload": w, "periods": fmt_ci(sub["host.predictor.periods"], ".0f"),
                     "LSTM trained at period": fmt_ci(sub["host.predictor.trained_at_period"], ".0f"),
                     "LSTM periods scored": fmt_ci(sub["host.predictor.lstm_periods_scored"], ".0f"),
                     "LSTM MAE": fmt_ci(sub["host.predictor.lstm.mae"], ".3f"),
                     "LSTM rank correlation": fmt_ci(sub[col], ".3f"),
                     "AutoStream MAE": fmt_ci(sub["host.predictor.autostream.mae"], ".3f"),
                     "AutoStream rank correlation": fmt_ci(sub["host.predictor.autostream.spearman"], ".3f")})
    return ["## Prediction quality", "",
            "Mean absolute error (in temperature classes) and rank correlation (Spearman) of the predicted against "
            "the real next-period temperature of the chunks written, means over the scored periods "
            "(`host.predictor` in summary.json), in the LSTM runs; AutoStream's rule scored on every period from "
            "the third. A rank correlation near 0 orders chunks no better than chance.", "",
            markdown_table(pd.DataFrame(rows)), ""]

def render(ctx) -> str:
    df = _label(ctx.table)
    waf = _change(df, "ftl.waf")
    lat = _change(df, "latency_us.write.p9999")
    wl = sorted(df["workload"].unique())
    n = df.groupby(["workload", "placement"]).size()
    find = []
    for w in wl:
        base = mean_ci(df[(df["workload"] == w) & (df["placement"] == "none")]["ftl.waf"])[0]
        parts = ", ".join(f"{p} {waf[(w, p)]:+.1f} %" for p in ORDER[1:])
        find.append(f"- **{w}** (WAF {base:.3f} with no streams): WAF against `none`: {parts}; p99.99 write latency: " +
                    ", ".join(f"{p} {lat[(w, p)]:+.0f} %" for p in ORDER[1:]) + ".")
    lstm = [waf[(w, "lstm")] for w in wl]
    orc = [waf[(w, "oracle")] for w in wl]
    verdict = ("reproduced" if max(lstm) < -15 else "partly" if max(lstm) < -3 else "not reproduced")
    lines = opening(ctx, "streams_recorded.py", INTRO, len(df), f"{n.min()}-{n.max()}") + [
             "## What the runs show", "", *find, "", saturated(df, "placement"), "",
             f"- The oracle bounds what any stream assignment can gain here: {min(orc):+.1f} to {max(orc):+.1f} % "
             "WAF. What a predictor cannot gain when even the oracle gains little is the workload's, not the "
             "predictor's.", "",
             "## Verdict", "", "| claim (the seed) | here |", "|---|---|",
             f"| the LSTM's streams cut WAF against no streams ({SEED}) | {verdict} on recorded Filebench "
             f"workloads: LSTM {min(lstm):+.1f} to {max(lstm):+.1f} %, the oracle {min(orc):+.1f} to {max(orc):+.1f} % "
             "(not the seed's applications: RocksDB and MySQL recordings are not made yet) |", "",
             *_prediction(df),
             "## WAF", "", markdown_table(_table(df, "ftl.waf", ".3f")), "",
             "## p99.99 write latency (us)", "", markdown_table(_table(df, "latency_us.write.p9999", ".0f")), "",
             "## Mean write latency (us)", "", markdown_table(_table(df, "latency_us.write.mean", ".1f")), "",
             "## Erases", "", markdown_table(_table(df, "ftl.erases", ".0f")), ""]
    lines += own_figure(ctx, lambda out: _fig(df, out), "waf_latency", "WAF and p99.99 write latency per placement",
                        "WAF and p99.99 write latency (log axis) per recording and placement; bar: the mean of the predictor "
                        "seeds, whisker: its 95 % interval")
    lines += closing(ctx, REVIEWER, "configs/workloads-1g.yaml")
    return "\n".join(lines)


REVIEWER = """\
- *These are not the seed's applications.* No: Filebench's fileserver and varmail on ext4, recorded in the guest.
  The seed's RocksDB and MySQL runs need recordings of db_bench and a TPC-C-like MariaDB load on a drive large
  enough for their compactions, which are not made yet ([workloads.md](workloads.md) says why and what they cost).
- *The LSTM trains and is scored on the same run.* It does here: it learns online, from the first periods of the
  replay (8 training periods of 0.5 s), and predicts the rest. Training on one recording and scoring on another of
  the same application is not done yet.
- *Its CPU time is not charged.* It is not: stream assignment costs no simulated host time here.
- *The replay cannot slow the application down.* A block replay issues its requests at their recorded times,
  whatever the placement; throughput effects (the seed's tpmC and Docker figures) need the application run live
  on the drive.
- *Is the spread noise?* Three predictor seeds per point; the recordings and the other placements are fixed."""

register(Page(name="streams-recorded", title="Multi-stream placement on recorded Filebench workloads",
              sweep="explore/sweeps/streams-recorded.yaml", by=STREAMS, baseline="none", render=render))
