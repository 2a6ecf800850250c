"""docs/results/haml*.md: HAML-SSD's hotness queues against the placement
policies it is compared with (HAML-SSD Fig. 10-14, Table VI)."""
from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pandas as pd

from .. import stats
from . import Page, haml_findings, haml_paper_scale, haml_setup, markdown_table, register, standard_body
from ..plots import WORKLOAD, with_labels

POLICY = "config.ftl.placement.policy"
SEED = "config.precondition.seed"
NAMES = {"single": "single (Auto-SSD stand-in)", "double": "double (host/GC)", "hotis": "HOTIS",
         "asa": "ASA-FTL", "haml": "HAML-K", "stream": "oracle"}


# The Setup, Scaling and Policies paragraphs: built by haml_setup from the sweep (explore/sweeps/haml.yaml and
# its base configs/haml.yaml), docs/params.md's defaults, the trace files and haml/table.csv, not typed.
def setup(ctx, paragraphs: int = 3) -> str:
    """The first `paragraphs` of the setup text, from the repository the page's sweep is in and the committed
    results (ctx.extra["data_dir"]; a scratch render has copied only this page's folder)."""
    out_dir = Path(ctx.extra.get("out_dir", "docs/results"))
    text = haml_setup.text(root=ctx.sweep.root, data_dir=Path(ctx.extra.get("data_dir", out_dir)))
    return "\n\n".join(text.split("\n\n")[:paragraphs])


def _label(df: pd.DataFrame) -> pd.DataFrame:
    df = with_labels(df)
    return df[df["status"].isin(["ok", "violations"])]


def pivot_ci(df: pd.DataFrame, col: str, by: str, fmt: str, order=None) -> pd.DataFrame:
    """col by workload (rows) and `by` (columns, in `order`), each cell the mean over the point's runs (seeds)
    ± the half-width of its 95 % t interval (just the mean for one run), formatted by fmt."""
    def cell(xs):
        m, h = stats.mean_ci(list(xs.astype(float)))
        return f"{m:{fmt}}" + (f" ± {h:{fmt}}" if xs.count() > 1 else "")
    p = df.groupby([WORKLOAD, by], sort=False)[col].agg(cell).unstack(by)
    p = p[[c for c in (order or p.columns) if c in p.columns]]
    p = p.reindex(list(dict.fromkeys(df[WORKLOAD]))).reset_index().rename(columns={WORKLOAD: "workload"})
    p.columns = [NAMES.get(str(c), str(c)) for c in p.columns]
    return p


def _paired(df: pd.DataFrame, a: str, b: str, col: str = "ftl.waf") -> dict:
    """{workload: (mean, half-width)} of a's per-seed % change in col against b's, paired by drive history."""
    out = {}
    for w in dict.fromkeys(df[WORKLOAD]):
        d = df[df[WORKLOAD] == w]
        x, y = (d[d[POLICY] == p].set_index(SEED)[col].astype(float) for p in (a, b))
        ch = stats.paired_change(x, y)
        if ch:
            out[w] = stats.mean_ci(ch)
    return out


def paired_summary(df: pd.DataFrame, a: str, b: str) -> str:
    """The findings' sentence: where a's WAF differs from b's beyond the drive histories' 95 % interval."""
    pc = _paired(df, a, b)
    n = df[df[POLICY] == a].groupby(WORKLOAD).size().min()
    hi = [f"{haml_findings.LONG[w]} ({m:+.1f} ± {h:.1f} %)" for w, (m, h) in pc.items() if m - h > 0]
    lo = [f"{haml_findings.LONG[w]} ({m:+.1f} ± {h:.1f} %)" for w, (m, h) in pc.items() if m + h < 0]
    within = [haml_findings.LONG[w] for w, (m, h) in pc.items() if m - h <= 0 <= m + h]
    said = [f"above `{b}`'s beyond its 95 % interval on {haml_findings.and_list(hi)}" if hi else "",
            f"below it beyond the interval on {haml_findings.and_list(lo)}" if lo else ""]
    said = "; ".join(s for s in said if s) or f"nowhere beyond the 95 % interval of its difference from `{b}`'s"
    return (f"Paired by drive history ({haml_findings.fmt(n, 0)} per point), {NAMES[a]}'s WAF is {said}"
            + (f"; on {haml_findings.and_list(within)} the difference is within the spread of the drive histories"
               if within else "") + " (the per-workload changes are under Fig. 10 below).")


def paired_table(df: pd.DataFrame, a: str, order: list[str], col: str = "ftl.waf") -> str:
    """a's col against every other policy's on each workload, paired by drive history: the mean per-seed change
    ± its 95 % interval, in bold where the interval excludes 0."""
    others = [p for p in order if p != a and p in set(df[POLICY])]
    cols = {b: _paired(df, a, b, col) for b in others}
    rows = []
    for w in dict.fromkeys(df[WORKLOAD]):
        cells = []
        for b in others:
            m, h = cols[b].get(w, (float("nan"), 0.0))
            c = f"{m:+.1f} ± {h:.1f} %" if m == m else ""
            cells.append(f"**{c}**" if m == m and abs(m) > h else c)
        rows.append([w] + cells)
    return markdown_table(pd.DataFrame(rows, columns=["workload"] + [f"vs {NAMES.get(b, b)}" for b in others]))


def paired_lower(df: pd.DataFrame, a: str, among: list[str]) -> str:
    """The findings' sentence: on which workloads a policy of `among` has a WAF below a's beyond the 95 % interval
    of their paired difference."""
    found = {}
    for b in among:
        if b == a:
            continue
        for w, (m, h) in _paired(df, a, b).items():
            if m - h > 0:  # a above b beyond the interval
                found.setdefault(w, []).append(f"{haml_findings.NAME[b]} by {m:.1f} ± {h:.1f} %")
    ws = list(dict.fromkeys(df[WORKLOAD]))
    none = [haml_findings.LONG[w] for w in ws if w not in found]
    if not found:
        return (f"Paired by drive history, no policy a drive could run has a WAF below {haml_findings.NAME[a]}'s "
                "beyond the 95 % interval of their difference on any workload.")
    return (f"Paired by drive history, a policy a drive could run has a WAF below {haml_findings.NAME[a]}'s beyond "
            f"the 95 % interval on {haml_findings._of(len(found), len(ws))} workloads ("
            + "; ".join(f"{haml_findings.LONG[w]}: {haml_findings.and_list(v)}" for w, v in found.items()) + ")"
            + (f"; on {haml_findings.and_list(none)} none is, beyond the interval" if none else "") + ".")


def means(df: pd.DataFrame, by: str = POLICY) -> pd.DataFrame:
    """One row per (workload, by): each number the mean over the point's runs (seeds), any other column the first
    run's; the findings compare points by these means."""
    if df.empty:
        return df
    keys = [WORKLOAD, by]
    num = set(df.select_dtypes("number").columns)
    agg = {c: ("mean" if c in num else "first") for c in df.columns if c not in keys}
    return df.groupby(keys, sort=False, as_index=False).agg(agg)


def per_point(df: pd.DataFrame, by: str = POLICY) -> pd.DataFrame:
    """The table as the findings compare it: one row per (workload, by), rank_corr and cold_in_hot the means of
    each run's (with_classes before means: a point's class tables differ run to run)."""
    return means(with_classes(df), by)


def _matrix(cell):
    try:
        m = np.array(json.loads(cell) if isinstance(cell, str) else cell, dtype=float)
    except (TypeError, ValueError):
        return None
    return m[:, 1:] if m.ndim == 2 and m.shape[0] > 1 and m[:, 1:].sum() > 0 else None  # drop "no stream"


def rank_correlation(cell) -> float:
    """Spearman's rank correlation, over host-written LBAs, between the class
    a policy placed each LBA in and its oracle death-time class (from the
    contingency table placement.class_by_stream; ties get mid-ranks).
    +1: the policy orders data by how soon it dies; 0: no relation."""
    m = _matrix(cell)
    if m is None:
        return float("nan")
    def midranks(counts):
        c = np.cumsum(counts)
        return c - (counts - 1) / 2.0
    rx, ry = midranks(m.sum(axis=1)), midranks(m.sum(axis=0))
    w = m / m.sum()
    mx, my = (w.sum(axis=1) * rx).sum(), (w.sum(axis=0) * ry).sum()
    cov = (w * np.outer(rx - mx, ry - my)).sum()
    vx, vy = (w.sum(axis=1) * (rx - mx) ** 2).sum(), (w.sum(axis=0) * (ry - my) ** 2).sum()
    return float(cov / np.sqrt(vx * vy)) if vx > 0 and vy > 0 else float("nan")


def cold_in_hot(cell) -> float:
    """Share of the hottest class's LBAs that are never rewritten (oracle's coldest class)."""
    m = _matrix(cell)
    if m is None or not m[0].sum():
        return float("nan")
    never = np.nonzero(m.sum(axis=0))[0].max()  # the oracle's coldest class in use
    return float(m[0, never] / m[0].sum())


# The paper-scale section (scripts/haml_scale.py, not a sweep point): its table
# is docs/results/haml/paper_scale.csv, which `scripts/haml_scale.py ... --csv`
# writes from the points' summary.json, and its text haml_paper_scale.render,
# which computes every figure the CSV holds from it.
PAPER_SCALE_CSV = "paper_scale.csv"
# beside it, written by the same `--csv` from the same points: each point's WAF over the first --split
# seconds and after them (and what else its time series and summary hold), each ageing's and point's
# process (CPU, wall, RSS, when, load), and the points' provenance (build, commit, commands)
PAPER_SCALE_SPLIT = "paper_scale_split.csv"
PAPER_SCALE_RUNS = "paper_scale_runs.csv"
PAPER_SCALE_PROVENANCE = "paper_scale_provenance.json"
PAPER_SCALE_COLUMNS = ["workload", "policy", "host_lba_writes", "waf", "erases", "gc_runs", "read_mean_us",
                       "read_p99_us", "write_mean_us", "write_p999_us", "hottest_class_share", "rank_corr",
                       "cold_in_hot", "cpu_user_s", "cpu_sys_s", "peak_rss_mib"]


def paper_scale_table(rows: list[dict]) -> str:
    """The paper-scale table, one row per point (rows: PAPER_SCALE_COLUMNS, numbers or '')."""
    def num(r, k, fmt):
        v = r.get(k, "")
        return "" if v in ("", None) or v != v else format(float(v), fmt)
    lines = ["| workload | policy | host writes | WAF | erases | GC victims | read mean (us) | read p99 (us) | "
             "write mean (us) | write p99.9 (us) | hottest class share | rank corr. | never rewritten in hottest | "
             "CPU s (user + sys) | peak RSS MiB |",
             "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for r in rows:
        lines.append(f"| {r['workload']} | {NAMES.get(r['policy'], r['policy'])} | {num(r, 'host_lba_writes', ',.0f')} | "
                     f"{num(r, 'waf', '.3f')} | {num(r, 'erases', ',.0f')} | {num(r, 'gc_runs', ',.0f')} | "
                     f"{num(r, 'read_mean_us', ',.1f')} | {num(r, 'read_p99_us', ',.1f')} | "
                     f"{num(r, 'write_mean_us', ',.1f')} | {num(r, 'write_p999_us', ',.0f')} | "
                     f"{num(r, 'hottest_class_share', '.2f')} | {num(r, 'rank_corr', '.3f')} | "
                     f"{num(r, 'cold_in_hot', '.3f')} | {num(r, 'cpu_user_s', '.1f')} + {num(r, 'cpu_sys_s', '.1f')} | "
                     f"{num(r, 'peak_rss_mib', ',.0f')} |")
    return "\n".join(lines)


def paper_scale_rows(data_dir: Path, name: str = PAPER_SCALE_CSV) -> list[dict]:
    import csv
    try:
        with open(Path(data_dir) / name, newline="") as f:
            return list(csv.DictReader(f))
    except OSError:
        return []


def paper_scale_extra(data_dir: Path) -> dict:
    """The files beside paper_scale.csv (None where one is missing: the data committed before they existed)."""
    from .. import provenance
    return {"split": paper_scale_rows(data_dir, PAPER_SCALE_SPLIT) or None,
            "runs": paper_scale_rows(data_dir, PAPER_SCALE_RUNS) or None,
            "prov": provenance.read(data_dir, PAPER_SCALE_PROVENANCE)}


def paper_scale_section(rows: list[dict], extra: dict | None = None, df: pd.DataFrame | None = None) -> str:
    """The section from paper_scale.csv's rows, the files beside it (paper_scale_extra) and the 1 GiB table
    (df: per_point()'s one row per point; its figures are quoted)."""
    if not rows:
        return f"## At the paper's scale (HAML-SSD Table III)\n\n(no data: {PAPER_SCALE_CSV} is missing)"
    gib = haml_paper_scale.gib_figures(df) if df is not None and not df.empty else None
    return haml_paper_scale.render(rows, paper_scale_table(rows), gib=gib, **(extra or {}))


def with_classes(df: pd.DataFrame) -> pd.DataFrame:
    """df with rank_corr and cold_in_hot from placement.class_by_stream (NaN where a run has none)."""
    df = df.copy()
    col = df["placement.class_by_stream"] if "placement.class_by_stream" in df else pd.Series([None] * len(df), index=df.index)
    df["rank_corr"] = col.map(rank_correlation)
    df["cold_in_hot"] = col.map(cold_in_hot)
    return df


def sensitivity_runs(data_dir: Path) -> dict[str, pd.DataFrame]:
    """The sensitivity pages' tables (haml-k, -slice, -period, -gc) from their committed folders in data_dir, one
    row per run, labelled as their pages label them (haml-period with its "T (paper h)" column); a missing table
    is an error naming it (the findings quote them)."""
    from ..render import read_table
    out = {}
    for name in haml_findings.KNOBS:
        path = data_dir / name / "table.csv"
        if not path.exists():
            raise FileNotFoundError(f"{path} is missing: haml.md's findings quote the {name} page's table")
        df = _label(read_table(path))
        out[name] = _hours(df.copy()) if name == "haml-period" else df
    return out


def sensitivity_tables(data_dir: Path, runs: dict[str, pd.DataFrame] | None = None) -> dict[str, pd.DataFrame]:
    """The sensitivity pages' tables with one row per (workload, knob value): the means over its runs (drive
    histories), as the findings compare them."""
    runs = runs if runs is not None else sensitivity_runs(data_dir)
    return {name: per_point(df, haml_findings.KNOBS[name]) for name, df in runs.items()}


def sensitivity_pairs(runs: dict[str, pd.DataFrame]):
    """(page, workload, a, b) -> (mean, half-width) of the WAF at knob value a against value b in %, paired by
    drive history on that page's runs (haml_findings.render's sens_pc); None where fewer than two histories
    have both (one run per point: the findings then compare means)."""
    def pc(name, w, a, b):
        df, knob = runs[name], haml_findings.KNOBS[name]
        if SEED not in df:
            return None
        d = df[df[WORKLOAD] == w]
        x, y = (d[d[knob].map(haml_findings._key) == haml_findings._key(v)].set_index(SEED)["ftl.waf"].astype(float)
                for v in (a, b))
        ch = stats.paired_change(x, y)
        return stats.mean_ci(ch) if len(ch) > 1 else None
    return pc


def findings(df: pd.DataFrame, sens: dict[str, pd.DataFrame], rows: list[dict],
             sens_runs: dict[str, pd.DataFrame] | None = None) -> str:
    """The "What the recorded run shows" block, every figure computed from the page's table (df, labelled),
    the sensitivity pages' tables (sens; sens_runs: the same, one row per run, for their changes paired by drive
    history) and paper_scale.csv's rows (haml_findings, haml_paper_scale)."""
    bullet = haml_paper_scale.finding(rows) if rows else f"- (no paper-scale data: {PAPER_SCALE_CSV} is missing)"
    seeded = SEED in df and df[SEED].nunique() > 1
    paired = (paired_summary(df, "haml", "double") + " " + paired_lower(df, "haml", haml_findings.RUNNABLE)
              if seeded else "")
    rt = _paired(df, "haml", "double", "latency_us.all.mean") if seeded else None
    return haml_findings.render(per_point(df), sens, bullet, paired, rt,
                                sensitivity_pairs(sens_runs) if sens_runs is not None else None)


def render_main(ctx) -> str:
    df = _label(ctx.table)
    order = list(NAMES)
    out_dir = Path(ctx.extra.get("out_dir", "docs/results"))
    scale_rows = paper_scale_rows(out_dir / ctx.page.name)
    scale_extra = paper_scale_extra(out_dir / ctx.page.name)
    # the sensitivity pages' tables from the committed data (a scratch render has copied only this page's folder)
    sens_runs = sensitivity_runs(Path(ctx.extra.get("data_dir", out_dir)))
    sens = sensitivity_tables(Path(), sens_runs)
    body = standard_body(ctx, intro=setup(ctx) + "\n\n" + findings(df, sens, scale_rows, sens_runs))
    extra = ["## Tables", ""]
    if not df.empty:
        runs = df.groupby([WORKLOAD, POLICY]).size()
        n = f"{runs.min()}" if runs.min() == runs.max() else f"{runs.min()}-{runs.max()}"
        extra += [f"Each cell: the mean over the point's runs ({n}, one per drive history "
                  f"`{SEED}`) ± the half-width of its 95 % t interval." if runs.max() > 1 else "One run per point.",
                  ""]
        extra += ["Write amplification (HAML-SSD Fig. 10):", "", markdown_table(pivot_ci(df, "ftl.waf", POLICY, ".3f", order)), ""]
        if runs.max() > 1 and SEED in df:
            extra += ["HAML-K's WAF against each other policy's on the same drive history: the mean of the per-history "
                      "changes ± its 95 % interval, in bold where the interval excludes 0:", "",
                      paired_table(df, "haml", order), ""]
        extra += ["Block erases in the timed half (Table VI):", "",
                  markdown_table(pivot_ci(df, "ftl.erases", POLICY, ",.0f", order)), ""]
        df = df.copy()
        df["latency_us.all.mean"] = df["latency_us.all.mean"].astype(float)
        keys = [WORKLOAD, SEED] if SEED in df else [WORKLOAD]   # each run against `single` on its drive history
        single = df[df[POLICY] == "single"].groupby(keys)["latency_us.all.mean"].first().rename("single_rt")
        df = df.join(single, on=keys).copy()  # one block: the columns added below do not fragment it
        df["normalized_response"] = df["latency_us.all.mean"] / df["single_rt"]
        extra += ["Mean response time normalized to `single` on the same drive history (Fig. 11):", "",
                  markdown_table(pivot_ci(df, "normalized_response", POLICY, ".3f", order)), ""]
        df["erase_spread"] = df["ftl.erase_count.max"] - df["ftl.erase_count.min"]
        extra += ["Erase-count spread, max minus min over all blocks (wear levelling):", "",
                  markdown_table(pivot_ci(df, "erase_spread", POLICY, ".0f", order)), ""]
        if "placement.class_by_stream" in df:
            df["rank_corr"] = df["placement.class_by_stream"].map(rank_correlation)
            df["cold_in_hot"] = df["placement.class_by_stream"].map(cold_in_hot)
            extra += ["How well each policy's classes follow real death times: Spearman's rank correlation, over "
                      "host-written LBAs, between the class a policy chose (hot to cold) and the oracle's death-time "
                      "class (1 = perfectly ordered, 0 = unrelated; one-class policies have none). From "
                      "`placement.class_by_stream` in summary.json (every run carries oracle stream IDs, which "
                      "only the oracle policy uses):", "",
                      markdown_table(pivot_ci(df, "rank_corr", POLICY, ".3f", order)), "",
                      "Share of the hottest class's LBAs that are never rewritten in the timed half:", "",
                      markdown_table(pivot_ci(df, "cold_in_hot", POLICY, ".3f", order)), ""]
        if "placement.monitor_cpu_s" in df:
            extra += ["CPU seconds the monitor and software K-Means took in the timed half:", "",
                      markdown_table(pivot_ci(df, "placement.monitor_cpu_s", POLICY, ".4f", order)), ""]
    extra += [paper_scale_section(scale_rows, scale_extra, per_point(_label(ctx.table))), ""]
    extra += ["## Sensitivity of HAML-K", "",
              "- [K from 3 to 8 (Fig. 12)](haml-k.md)",
              "- [slice size (Fig. 13)](haml-slice.md)",
              "- [period T (Fig. 14)](haml-period.md)",
              "- [relocated data: own frontier or the slice's class](haml-gc.md)", ""]
    marker = "## Figures"
    return body.replace(marker, "\n".join(extra) + "\n" + marker, 1) if marker in body else body + "\n" + "\n".join(extra)


def sensitivity(key: str, intro: str, xlabel: str, transform=None):
    def render(ctx) -> str:
        df = _label(ctx.table)
        body = standard_body(ctx, intro=setup(ctx, 2) + "\n\n" + intro)
        if df.empty:
            return body
        df = df.copy()
        if transform:
            df = transform(df)
        runs = df.groupby([WORKLOAD, key]).size()
        n = f"{runs.min()}" if runs.min() == runs.max() else f"{runs.min()}-{runs.max()}"
        extra = [f"Each cell: the mean over the point's runs ({n}, one per drive history `{SEED}`) ± the "
                 "half-width of its 95 % t interval." if runs.max() > 1 else "One run per point.", "",
                 f"## WAF by {xlabel}", "", markdown_table(pivot_ci(df, "ftl.waf", key, ".3f")), "",
                 f"## Erases by {xlabel}", "", markdown_table(pivot_ci(df, "ftl.erases", key, ",.0f")), ""]
        if "placement.class_by_stream" in df:
            df["rank_corr"] = df["placement.class_by_stream"].map(rank_correlation)
            extra += [f"## Rank correlation of class and death time by {xlabel}", "",
                      markdown_table(pivot_ci(df, "rank_corr", key, ".3f")), ""]
        marker = "## Figures"
        return body.replace(marker, "\n".join(extra) + "\n" + marker, 1) if marker in body else body
    return render


def _hours(df: pd.DataFrame) -> pd.DataFrame:
    """T as the paper's hours: 6 h is each workload's reference period."""
    ref = {"msr_heimdall_rw20_80_105": 10.0, "postmark": 20.0, "synthetic shifting": 8.0}
    t = df["config.ftl.hot.period"].astype(str).str.removesuffix("ms").astype(float) / 1000
    df["T (paper h)"] = (6 * t / df[WORKLOAD].map(ref)).round(0).astype(int)
    return df


register(Page(name="haml", title="HAML-SSD: hotness queues and the policies it is compared with",
              sweep="explore/sweeps/haml.yaml", by=POLICY, baseline="single", render=render_main,
              keep=(PAPER_SCALE_CSV, PAPER_SCALE_SPLIT, PAPER_SCALE_RUNS, PAPER_SCALE_PROVENANCE)))
register(Page(name="haml-gc", title="HAML-SSD: where relocated data goes",
              sweep="explore/sweeps/haml-gc.yaml", by="config.ftl.placement.gc",
              render=sensitivity("config.ftl.placement.gc",
                                 "HAML-K with relocated data on a GC frontier of its own (`separate`) or in the "
                                 "class its slice is in now (`cluster`).", "GC placement")))
register(Page(name="haml-k", title="HAML-SSD: the number of clusters K (Fig. 12)",
              sweep="explore/sweeps/haml-k.yaml", by="config.ftl.hot.classes",
              render=sensitivity("config.ftl.hot.classes", "HAML-K for K from 3 to 8 on three workloads.", "K")))
register(Page(name="haml-slice", title="HAML-SSD: slice size (Fig. 13)",
              sweep="explore/sweeps/haml-slice.yaml", by="config.ftl.hot.slice_size",
              render=sensitivity("config.ftl.hot.slice_size",
                                 "Slice sizes 36, 176, 352, 704 and 1,408 KiB on the 896 MiB namespace: the paper's 10, "
                                 "50, 100, 200 and 400 MB on 256 GB (25,600 down to 640 slices there; 24,889 down to "
                                 "652 here).", "slice size")))
register(Page(name="haml-period", title="HAML-SSD: the monitoring period T (Fig. 14)",
              sweep="explore/sweeps/haml-period.yaml", by="config.ftl.hot.period",
              render=sensitivity("T (paper h)",
                                 "T at 1, 2, 4, 6, 8 and 12 'paper hours': each workload's reference period (its "
                                 "6 h: 10 s for the MSR excerpt, 20 s for PostMark, 8 s for the synthetic workload) "
                                 "times 1/6 to 2.", "T (paper h)", transform=_hours)))
