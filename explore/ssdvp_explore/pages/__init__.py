"""Result pages: each page is a sweep file + a renderer writing docs/results/<page>.md.

To add a page, drop a module in this package that calls :func:`register`::

    from ssdvp_explore.pages import Page, register, standard_body

    register(Page(name="my-page", title="...", sweep="explore/sweeps/my-page.yaml",
                  render=lambda ctx: standard_body(ctx, intro="...")))

Every module of the package is imported on first use of :func:`pages`, so a
new file is all it takes; ``ssdvp-explore reproduce my-page`` regenerates it.
"""
from __future__ import annotations

import importlib
import pkgutil
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

import pandas as pd

_REGISTRY: dict[str, "Page"] = {}
_discovered = False


@dataclass
class Page:
    name: str                       # docs/results/<name>.md, figures in docs/results/<name>/
    title: str
    sweep: str                      # sweep file, relative to the repo root (or absolute)
    render: Callable[["PageContext"], str]
    by: str = "config.ftl.gc.policy"    # the compared key for the standard figures
    baseline: str | None = None         # normalized response time baseline (default: first value)
    keep: tuple[str, ...] = ()          # data files or folders of the page's folder not made by its sweep (kept)
    # sweeps run after `sweep`, in this order (a run may read a file a run of an earlier one wrote, e.g. a
    # trained model kept in the page's folder); each one's table is <page folder>/<its name>.csv and reaches the
    # renderer as ctx.extra["tables"][its name]
    then: tuple[str, ...] = ()


@dataclass
class PageContext:
    page: Page
    sweep: Any                      # ssdvp_explore.sweep.Sweep
    report: Any                     # ssdvp_explore.runner.SweepReport
    table: pd.DataFrame             # the full results table
    figures: dict[str, list[Path]]  # figure name -> [png, svg], paths relative to the page's .md
    table_csv: Path                 # relative to the page's .md
    command: str                    # the exact command that regenerates the page
    extra: dict = field(default_factory=dict)


def register(page: Page, replace: bool = False) -> Page:
    if page.name in _REGISTRY and not replace and _REGISTRY[page.name] is not page:
        raise ValueError(f"result page '{page.name}' registered twice")
    _REGISTRY[page.name] = page
    return page


def unregister(name: str):
    _REGISTRY.pop(name, None)


def pages() -> dict[str, Page]:
    global _discovered
    if not _discovered:
        _discovered = True
        for m in pkgutil.iter_modules(__path__):
            if not m.name.startswith("_"):
                importlib.import_module(f"{__name__}.{m.name}")
    return dict(_REGISTRY)


def markdown_table(df: pd.DataFrame, floatfmt: str = ".4g") -> str:
    """A GitHub markdown table (no tabulate needed); by default 4 significant digits, numbers of
    1,000 and more in full with thousands separators."""
    def cell(v):
        if isinstance(v, float):
            if pd.isna(v):
                return ""
            if floatfmt == ".4g" and abs(v) >= 1000:   # 15,950 rather than 1.595e+04
                return f"{v:,.0f}"
            return format(v, floatfmt)
        return str(v).replace("|", "\\|").replace("\n", " ")
    head = "| " + " | ".join(map(str, df.columns)) + " |"
    sep = "|" + "|".join("---:" if pd.api.types.is_numeric_dtype(df[c]) else "---" for c in df.columns) + "|"
    rows = ["| " + " | ".join(cell(v) for v in r) + " |" for r in df.itertuples(index=False)]
    return "\n".join([head, sep, *rows])


SUMMARY_METRICS = [
    ("ftl.waf", "WAF"), ("ftl.erases", "erases"), ("ftl.gc_runs", "GC runs"),
    ("host.iops", "IOPS"), ("host.bandwidth_mbps", "MB/s"),
    ("latency_us.read.mean", "read mean (us)"), ("latency_us.read.p99", "read p99 (us)"),
    ("latency_us.write.mean", "write mean (us)"), ("latency_us.write.p99", "write p99 (us)"),
]

FIGURE_CAPTIONS = {
    "waf_erases": "Write amplification and block erases",
    "response_time": "Normalized mean response time",
    "latency_cdf": "Latency CDF per workload (one line: every request of the runs of one value, from their "
                   "latency histograms)",
    "bandwidth": "Bandwidth over time, first seed of each run (GC periods shaded)",
    "clustering_cost": "Accelerator versus software clustering cost",
}


POINT_FIGURES = ("waf_erases", "response_time", "clustering_cost")   # one bar or point = a mean of runs


def summary_table(ctx: PageContext, metrics=SUMMARY_METRICS) -> pd.DataFrame:
    """Mean of the main metrics per workload and compared key (over seeds)."""
    from ..plots import WORKLOAD, with_labels
    df = with_labels(ctx.table)
    df = df[df["status"].isin(["ok", "violations"])]
    by = ctx.page.by
    keys = [WORKLOAD, by] if df[WORKLOAD].nunique() > 1 else [by]
    present = [(c, n) for c, n in metrics if c in df]
    if df.empty or not present or by not in df:
        return pd.DataFrame()
    g = df.groupby(keys, sort=False)
    out = g[[c for c, _ in present]].mean().reset_index()
    out.insert(len(keys), "runs", g.size().to_numpy())
    return out.rename(columns={**{c: n for c, n in present}, by: by.removeprefix("config."),
                               WORKLOAD: "workload"})


FLOOR_NOTE = ("Ran under `ftl.write.at_floor: pass` (pinned in the sweep file), the default before it "
              "became `room` (docs/firmware.md); not yet regenerated under `room`.")


def floor_note(sweep) -> list[str]:
    """The line a page pinned to the old ftl.write.at_floor default carries (empty if not pinned)."""
    return [FLOOR_NOTE, ""] if sweep.set.get("ftl.write.at_floor") == "pass" else []


def figures_section(ctx: PageContext, only: tuple[str, ...] | None = None, heading: str = "## Figures") -> list[str]:
    """The standard figures reproduce drew for the page (all, or the names in only), each with its caption."""
    names = [n for n in ctx.figures if only is None or n in only]
    if not names:
        return []
    from ..plots import point_note
    note = point_note(ctx.table, ctx.page.by)
    lines = [heading, ""]
    for name in names:
        paths = ctx.figures[name]
        png = next((p for p in paths if p.suffix == ".png"), paths[0])
        svg = next((p for p in paths if p.suffix == ".svg"), None)
        cap = FIGURE_CAPTIONS.get(name, name)
        what = f" ({note})" if note and name in POINT_FIGURES else ""
        lines += [f"![{cap}]({png.as_posix()})", "",
                  f"*{cap}*{what}" + (f" ([SVG]({svg.as_posix()}))" if svg else ""), ""]
    return lines


def opening(ctx: PageContext, renderer: str, intro: str, runs: int, per_point: str) -> list[str]:
    """The start of a generated seed page: title, the do-not-edit banner naming its renderer, the command that
    regenerates it, its setup text and how many runs it holds."""
    return [f"# {ctx.page.title}", "",
            "<!-- Generated by ssdvp_explore (explore/). Do not edit: edit the page's renderer "
            f"(explore/ssdvp_explore/pages/{renderer}) or sweep file and regenerate. -->", "",
            "Regenerate from nothing:", "", "```sh", f"explore/ssdvp-explore reproduce {ctx.page.name}", "```", "",
            intro, "", f"{runs} runs ({per_point} per point).", ""]


def own_figure(ctx: PageContext, draw, stem: str, alt: str, caption: str) -> list[str]:
    """A page's own figure: drawn by draw(path without suffix) into docs/results/<page>/<stem>.png/.svg (not when
    rendering only), and its lines; a figure that cannot be drawn must not lose the page."""
    out = Path(ctx.extra.get("out_dir", "docs/results")) / ctx.page.name / stem
    try:
        if ctx.extra.get("draw", True):
            draw(out)
        return ["## Figure", "", f"![{alt}]({ctx.page.name}/{stem}.png)", "", f"*{caption}*", ""]
    except Exception as e:
        return [f"(figure not drawn: {e})", ""]


def closing(ctx: PageContext, reviewer: str, base: str) -> list[str]:
    """The end of a seed page: the reviewer's questions answered, the full table, the sweep and its base, provenance."""
    return ["## What a reviewer would ask", "", reviewer, "",
            f"Full table (one row per run, every config key and metric): [{ctx.table_csv.name}]"
            f"({ctx.table_csv.as_posix()})", "", f"Sweep `{ctx.page.sweep}`, base `{base}`.", "",
            provenance_section(ctx)]


# docs/results/<page>/overview.csv, the rows a page gives docs/results/overview.md (scripts/overview.py): per metric
# the mean of a point's runs and, in <metric>_ci, the half-width of its 95 % interval (empty: not measured)
OVERVIEW_METRICS = ["waf", "waf_change_pct", "erases", "write_p9999_us", "read_p9999_us", "resp_rel", "mbps",
                    "ctrl_cpu_s", "host_cpu_s", "dram_mib", "flash_gib"]


def overview_row(seed: str, technique: str, what: str, workload: str, page: str, values: dict) -> dict:
    """One row of overview.csv: values maps a metric of OVERVIEW_METRICS to the runs' values (missing: empty)."""
    from ..stats import mean_ci
    r = {"seed": seed, "technique": technique, "what": what, "workload": workload, "page": page,
         "runs": max((len(v) for v in values.values()), default=0)}
    for name in OVERVIEW_METRICS:
        m, h = mean_ci(values.get(name, []))
        r[name], r[name + "_ci"] = (f"{m:.10g}", f"{h:.10g}") if m == m else ("", "")
    return r


def write_overview(ctx: PageContext, rows: list[dict]) -> None:
    """The page's overview.csv, beside its data (in the output folder when rendering elsewhere)."""
    import csv
    out = Path(ctx.extra.get("out_dir", "docs/results")) / ctx.page.name / "overview.csv"
    out.parent.mkdir(parents=True, exist_ok=True)
    with open(out, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(rows[0]), lineterminator="\n")
        w.writeheader()
        w.writerows(rows)


def recording_line(root: Path, name: str) -> str:
    """A recorded workload as a list item: its job and parameters, drive-writes and requests (from
    traces/workloads/NAME.json)."""
    from .. import workloads as wl_mod
    try:
        j = wl_mod.provenance(root, name)
        job = j["job"]["file"].rsplit("/", 1)[-1].replace(".sh", "")
        params = (j["job"]["parameters"] or [""])[0].replace("WL-PARAMS ", "")
        return (f"- `{name}`: job `{job}` ({params}), {j['drive']['drive_writes']:.2f} drive-writes, "
                f"{j['requests']:,} requests")
    except (OSError, KeyError, ValueError):
        return f"- `{name}`"


def saturated(df: pd.DataFrame, by: str) -> str:
    """Which runs warned that the open-loop arrivals outran the drive (their latencies are mostly host queueing)."""
    # (a table has a warnings column when any of its runs warned of anything)
    sat = df["warnings"].astype(str).str.contains("outran") if "warnings" in df else pd.Series(False, df.index)
    if not sat.any():
        return f"None of the {len(df)} runs saturated (no run warned that its open-loop arrivals outran the drive)."
    per = df[sat].groupby(["workload", by]).size()
    return (f"**{int(sat.sum())} of {len(df)} runs were saturated**: the recording's arrivals outran the drive and "
            "requests queued in the host, so their latencies are mostly that wait (" +
            ", ".join(f"{w} {p}: {n}" for (w, p), n in per.items()) + "). A recording's timestamps are those of "
            "the drive it was served by, as fast as it went, so a placement slower than that drive's queues up: "
            "compare latencies only between unsaturated runs.")


def standard_body(ctx: PageContext, intro: str = "") -> str:
    """The usual page: intro, how to regenerate, summary table, figures, failures, provenance."""
    sw, rep = ctx.sweep, ctx.report
    axes = ", ".join(f"`{k}`" for k in sw.axis_keys) or "none"
    lines = [f"# {ctx.page.title}", "",
             "<!-- Generated by ssdvp_explore (explore/). Do not edit: edit the page's renderer "
             "or sweep file and regenerate. -->", ""]
    if intro:
        lines += [intro.strip(), ""]
    lines += ["Regenerate this page from nothing:", "", "```sh", ctx.command, "```", "",
              f"Sweep `{_rel(sw.path, sw.root)}` over base config `{sw.base_arg}`; "
              f"varied: {axes}; {len(rep.points)} runs.", ""]
    if sw.set:
        lines += ["Fixed overrides: " + ", ".join(f"`{k}={v}`" for k, v in sw.set.items()), ""]
    lines += floor_note(sw)
    st = summary_table(ctx)
    if not st.empty:
        lines += ["## Results", "", "Means over seeds.", "", markdown_table(st), ""]
    lines += [f"Full table (one row per run, every config key and metric): [{ctx.table_csv.name}]({ctx.table_csv.as_posix()})", ""]
    lines += figures_section(ctx)
    failed = ctx.table[~ctx.table["status"].eq("ok")]
    if len(failed):
        lines += ["## Runs with errors", "", markdown_table(failed[["point", "status", "error"]].assign(
            point=failed["point"].str[:12])), ""]
    lines += [provenance_section(ctx), f"Base config: `{sw.base_arg}`.", ""]
    return "\n".join(lines)


def provenance_section(ctx: PageContext) -> str:
    """The page's provenance, from the provenance.json of its data."""
    from ..provenance import section
    return section(ctx.extra.get("provenance"), ctx.command)


def _rel(p: Path, root: Path) -> str:
    try:
        return Path(p).resolve().relative_to(root).as_posix()
    except ValueError:
        return str(p)
