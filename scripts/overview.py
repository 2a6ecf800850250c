#!/usr/bin/python3
"""docs/results/overview.md: the five seeds' techniques side by side.

Renders only: it runs nothing. Each page that measures techniques on the shared
recorded workloads writes ``docs/results/<page>/overview.csv`` (one row per
technique and workload: explore/ssdvp_explore/pages/__init__.py, overview_row):
techniques.md (every technique that runs on one drive) and raid-trigger.md
(RAID-5 GC coordination on the recorded database). A technique no file
provides is listed as "not yet measured". A re-render of the committed data
gives the committed page.

    python3 scripts/overview.py [--data docs/results] [--out docs/results]
"""
from __future__ import annotations

import argparse
import csv
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "explore"))

from ssdvp_explore import provenance as prov_mod  # noqa: E402
from ssdvp_explore.pages.raid_trigger import OVERVIEW_POLICIES  # noqa: E402
from ssdvp_explore.pages.techniques import TECHNIQUES  # noqa: E402

# (seed, technique, what it is, the page that measures it), in the page's order
EXPECTED = [(seed, t, what, "techniques") for t, seed, what in TECHNIQUES] + \
    [("-" if p == "normal" else "001", t, what, "raid-trigger") for p, (t, what) in OVERVIEW_POLICIES.items()]
COLUMNS = [("waf", "WAF", ".3f"), ("waf_change_pct", "WAF vs baseline (%)", "+.1f"), ("erases", "erases", ",.0f"),
           ("write_p9999_us", "write p99.99 (us)", ",.0f"), ("read_p9999_us", "read p99.99 (us)", ",.0f"),
           ("resp_rel", "response time vs baseline", ".3f"), ("mbps", "MB/s", ",.1f"),
           ("ctrl_cpu_s", "controller CPU (s)", ".2f"),
           ("host_cpu_s", "host CPU (s)", ".3f"), ("dram_mib", "FTL DRAM (MiB)", ".2f"),
           ("flash_gib", "flash traffic (GiB)", ".2f")]
FIGURES = [("waf_change_pct", "WAF change against the baseline (%)", False),
           ("write_p9999_us", "p99.99 write latency (us)", True)]
NOT_YET = "n/m"   # not measured
PAGES = ["techniques", "techniques-closed", "raid-trigger"]   # the pages that write overview.csv, in page order
REFERENCES = {"oracle"}   # not implementable: never "the best a drive can do"
SAME = 1.0   # a WAF change whose 95 % interval reaches above -1 % is not counted as a gain


def load(data: Path) -> tuple[dict, list[str], list[str]]:
    """{(technique, workload): row} from every docs/results/*/overview.csv, the workloads in file order, the files."""
    cells, workloads, files = {}, [], []
    pages = PAGES   # the measuring pages in this order, then any other
    for f in sorted(data.glob("*/overview.csv"), key=lambda f: (pages.index(f.parent.name)
                                                                 if f.parent.name in pages else len(pages), f)):
        files.append(f.relative_to(data).as_posix())
        with open(f, newline="") as fh:
            for r in csv.DictReader(fh):
                cells[(r["technique"], r["workload"])] = r
                if r["workload"] not in workloads:
                    workloads.append(r["workload"])
    return cells, workloads, files


def _f(v) -> float:
    try:
        return float(v)
    except (TypeError, ValueError):
        return float("nan")


def fmt(r: dict, key: str, spec: str) -> str:
    """'mean ± half-width' of a cell, 'mean' when its interval is 0 or absent, n/m when not measured."""
    m, h = _f(r.get(key)), _f(r.get(key + "_ci"))
    if m != m:
        return NOT_YET
    return format(m, spec) + (" ± " + format(h, spec.replace("+", "")) if h == h and h > 0 else "")


def baseline(cells: dict, w: str) -> str:
    """The row the workload's changes are against (its waf_change_pct is 0 by construction)."""
    for (t, wl), r in cells.items():
        if wl == w and _f(r.get("waf_change_pct")) == 0 and _f(r.get("waf_change_pct_ci")) == 0:
            return t
    return "?"


def resolved(r: dict) -> bool:
    """The whole 95 % interval of the WAF change below -SAME % (the techniques page's rule)."""
    m, h = _f(r.get("waf_change_pct")), _f(r.get("waf_change_pct_ci"))
    return m == m and m + (h if h == h else 0) < -SAME


def answer(cells: dict, workloads: list[str]) -> list[str]:
    """Per workload, the implementable technique with the lowest WAF among those whose gain is resolved, and its
    price against the baseline."""
    out = []
    for w in workloads:
        rows = {t: r for (t, wl), r in cells.items() if wl == w and _f(r.get("waf")) == _f(r.get("waf"))}
        base = baseline(cells, w)
        b = rows.get(base, {})
        cand = {t: r for t, r in rows.items() if t not in REFERENCES and t != base and resolved(r)}
        line = f"- **{w}** (baseline `{base}`, WAF {fmt(b, 'waf', '.3f')}): "
        if not cand:
            line += f"no technique lowers WAF by more than {SAME:g} % beyond the noise"
        else:
            best = min(cand, key=lambda t: _f(cand[t]["waf"]))
            r = cand[best]
            line += (f"`{best}`, WAF {fmt(r, 'waf_change_pct', '+.1f')} %" +
                     (f" (also lower: {', '.join(f'`{t}`' for t in cand if t != best)})" if len(cand) > 1 else "") +
                     f"; at the price of response time {fmt(r, 'resp_rel', '.3f')}x the baseline's, write p99.99 "
                     f"{fmt(r, 'write_p9999_us', ',.0f')} us against {fmt(b, 'write_p9999_us', ',.0f')}")
            extra = [(k, n) for k, n in (("host_cpu_s", "s of host CPU"), ("ctrl_cpu_s", "s of controller CPU"),
                                         ("dram_mib", "MiB of FTL DRAM"))
                     if _f(r.get(k)) - _f(b.get(k)) > 0.05 * max(_f(b.get(k)), 0.01)]
            if extra:
                line += ", " + ", ".join(f"{_f(r[k]) - _f(b[k]):+.3g} {n}" for k, n in extra)
        if "oracle" in rows:
            line += f"; the oracle (placement by real death time) {fmt(rows['oracle'], 'waf_change_pct', '+.1f')} %"
        out.append(line + ".")
    return out


def draw(cells: dict, workloads: list[str], key: str, name: str, log: bool, out: Path) -> bool:
    """One marker per technique and workload with its interval (PNG and SVG, the explore figures' rules)."""
    techs = [t for _, t, _, _ in EXPECTED if any(_f(cells.get((t, w), {}).get(key)) == _f(cells.get((t, w), {}).get(key))
                                                  for w in workloads)]
    if not techs:
        return False
    from ssdvp_explore.plots import legend_outside, plt, save
    fig, ax = plt.subplots(figsize=(7, 0.3 * len(techs) + 1.2))
    off = 0.7 / max(1, len(workloads))
    for j, w in enumerate(workloads):
        pts = [(i, _f(cells[(t, w)][key]), _f(cells[(t, w)].get(key + "_ci")))
               for i, t in enumerate(techs) if (t, w) in cells and _f(cells[(t, w)][key]) == _f(cells[(t, w)][key])]
        if pts:
            ys, xs, hs = zip(*pts)
            ax.errorbar(xs, [y + (j - (len(workloads) - 1) / 2) * off for y in ys],
                        xerr=[h if h == h else 0 for h in hs], fmt="o", ms=3, capsize=2, label=w)
    ax.set_yticks(range(len(techs)), techs)
    ax.invert_yaxis()
    ax.set_xlabel(name)
    ax.grid(axis="x", alpha=0.3)
    if log:
        ax.set_xscale("log")
    else:
        ax.axvline(0, color="k", lw=0.8)
    fig.tight_layout()
    legend_outside(fig, *ax.get_legend_handles_labels(), "workload")
    save(fig, out)
    return True


def render(data: Path, out: Path | None = None) -> str:
    out = out or data
    cells, workloads, files = load(data)
    lines = ["# Overview: the seeds' techniques side by side", "",
             "<!-- Generated by scripts/overview.py from docs/results/*/overview.csv. Do not edit: "
             "edit the script or the data and re-render (scripts/results_pages.py render overview). -->", "",
             "Which technique reduces GC overhead most, on which workload, at what price: every technique of the "
             "five seed papers, with `single`, `double`, the oracle and the GC scheduling modes as references, on "
             "recorded real applications. Each cell is what the page that measured it wrote to "
             "`docs/results/<page>/overview.csv`: the mean over its runs and, after ±, the half-width of the 95 % "
             "interval (the page gives the setup, the runs and the per-run table). Changes are against the "
             "workload's baseline on the same drive history: `double` on one drive ([techniques.md]"
             "(techniques.md)), `raid-normal` on the RAID-5 array ([raid-trigger.md](raid-trigger.md); there "
             "the response time is the mean read's and the host CPU the array controller's). `n/m`: not measured. "
             "Throughput: the open-loop replays ([techniques.md](techniques.md), the array) deliver the recording's "
             "own (slowed) rate for every technique that keeps up, so they give no MB/s; the same recordings "
             "closed loop ([techniques-closed.md](techniques-closed.md), workloads marked \"closed loop\") do, "
             "without idle time. The K-Means accelerator's area (`haml-accel`): "
             "[models/accel.md](../models/accel.md), section Area.",
             "", "Re-render (no simulation, under a second):", "", "```sh", "python3 scripts/overview.py", "```", ""]
    lines += ["## Techniques", "", "| seed | technique | what it is | measured on |", "|---|---|---|---|"]
    for seed, tech, what, page in EXPECTED:
        have = {}
        for (t, _), r in cells.items():
            if t == tech:
                have[r.get("page") or page] = have.get(r.get("page") or page, 0) + 1
        lines.append(f"| {seed} | `{tech}` | {what} | " +
                     ("; ".join(f"[{p}.md]({p}.md): {n} workloads" for p, n in have.items()) if have else
                      f"{page}.md: not yet measured") + " |")
    lines += ["", "## The answer, per workload", ""]
    if not workloads:
        lines += ["No page has written its overview.csv yet: no cell is measured.", ""]
    lines += answer(cells, workloads) + [""]
    for w in workloads:
        lines += [f"## {w}", "", "| technique | " + " | ".join(n for _, n, _ in COLUMNS) + " |",
                  "|---|" + "---:|" * len(COLUMNS)]
        for _, tech, _, _ in EXPECTED:
            if (tech, w) in cells:
                lines.append(f"| `{tech}` | " + " | ".join(fmt(cells[(tech, w)], k, s) for k, _, s in COLUMNS) + " |")
        lines.append("")
    if workloads:
        lines += ["## Figures", ""]
        for key, name, log in FIGURES:
            if draw(cells, workloads, key, name, log, out / "overview" / key):
                lines += [f"![{name}](overview/{key}.png)", "",
                          f"*{name} per technique and workload: the mean over the page's runs, whisker: its 95 % "
                          f"interval; cells not measured are left out* ([SVG](overview/{key}.svg))", ""]
    lines += ["## Data", ""]
    lines += [f"- [{f}]({f})" for f in files] or ["- none yet"]
    lines += ["", *provenance_lines(data, files)]
    return "\n".join(lines) + "\n"


def provenance_lines(data: Path, files: list[str]) -> list[str]:
    """The provenance of the data this page draws from: each page's commit (its provenance.json), and the one
    commit when they share it (as a "source tree: commit" line, which results_pages.py status reads)."""
    commits = {}
    for f in files:
        prov = prov_mod.read(data / Path(f).parent) or {}
        commits[Path(f).parent.as_posix()] = prov.get("commit")
    if not commits:
        return []
    out = ["## Provenance", "", "This page runs nothing: it renders the data above, which the pages made at these "
           "commits:", ""]
    out += [f"- {page}: " + (f"commit {c[:12]}" if c else "no provenance recorded") for page, c in commits.items()]
    one = set(commits.values())
    if len(one) == 1 and None not in one:
        out += ["", f"- source tree: commit {one.pop()}"]
    else:
        out += ["", "- the pages' data are from more than one commit"]
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--data", default=str(ROOT / "docs" / "results"), help="the pages directory holding the data")
    ap.add_argument("--out", help="where to write overview.md (default: --data)")
    a = ap.parse_args()
    out = Path(a.out or a.data)
    out.mkdir(parents=True, exist_ok=True)
    (out / "overview.md").write_text(render(Path(a.data), out))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
