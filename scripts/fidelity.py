#!/usr/bin/env python3
"""Renders docs/results/fidelity.md from fidelity_table's CSV and the queueing
test's output (scripts/fidelity.sh runs all three).

    fidelity.py fidelity.csv queueing.txt docs/results
    fidelity.py --render docs/results [OUT]   # from the committed data only (fidelity/fidelity.csv, queueing.txt,
                                              # runs.csv: each part's wall time)
"""
from __future__ import annotations

import os
import sys
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
matplotlib.rcParams["svg.hashsalt"] = "fidelity"  # the same figures give the same SVG bytes
import matplotlib.pyplot as plt  # noqa: E402
import pandas as pd  # noqa: E402

COMMAND = "bash scripts/fidelity.sh"


def label(row) -> str:
    p = row["policy"]
    return f"d-choices (d={int(row['d'])})" if p == "d-choices" else p


def fmt_sim(v) -> str:
    return "" if pd.isna(v) or v == "" else f"{float(v):.3f}"


def desn(row) -> str:
    """Desnoyers' greedy model and the firmware's distance from it, where the point has one."""
    v = row.get("desnoyers_greedy")
    if v is None or pd.isna(v) or v == "":
        return ""
    return f"{float(v):.3f} ({_pct(row.measured, float(v))})"


def uniform_table(df: pd.DataFrame) -> str:
    u = df[df.workload == "uniform"]
    rows = ["| policy | pages per block | S_f nominal | S_f effective | firmware | model | model | firmware vs model "
            "| Desnoyers' greedy model |",
            "|---|---|---|---|---|---|---|---|---|"]
    for _, r in u.iterrows():
        rows.append(f"| {label(r)} | {int(r.pages_per_block)} | {r.sf_nominal:.3f} | {r.sf_effective:.4f} | "
                    f"{r.measured:.3f} | {r.model:.3f} | {r.model_name} | {r.model_diff_pct:+.2f} % | {desn(r)} |")
    return "\n".join(rows)


def skewed_table(df: pd.DataFrame) -> str:
    s = df[df.workload != "uniform"]
    rows = ["| workload (r/f) | frontiers | policy | S_f effective | firmware | model | model | firmware vs model "
            "| page-level simulator, firmware's ties | page-level simulator, random ties "
            "| page-level simulator, oldest first | Desnoyers' greedy model |",
            "|---|---|---|---|---|---|---|---|---|---|---|---|"]
    for _, r in s.iterrows():
        rows.append(f"| {r.workload} | {r.frontiers} | {label(r)} | {r.sf_effective:.4f} | {r.measured:.3f} | "
                    f"{r.model:.3f} | {r.model_name} | {r.model_diff_pct:+.2f} % | {fmt_sim(r.page_sim)} | "
                    f"{fmt_sim(r.page_sim_random_ties)} | {fmt_sim(r.get('page_sim_oldest_ties'))} | {desn(r)} |")
    return "\n".join(rows)


def side_by_side(df: pd.DataFrame) -> str:
    """One row per policy at S_f = 0.125, 32 pages per block: uniform and each skewed case, firmware (model)."""
    d = df[((df.sf_nominal - 0.125).abs() < 1e-9) & (df.pages_per_block == 32)].copy()
    d["case"] = d.apply(lambda r: "uniform" if r.workload == "uniform" else f"{r.workload} {r.frontiers}", axis=1)
    d["pol"] = d.apply(label, axis=1)
    cases = list(dict.fromkeys(d["case"]))
    pols = [p for p in dict.fromkeys(d["pol"]) if (d[d.pol == p]["case"] != "uniform").any()]
    rows = ["| policy | " + " | ".join(cases) + " |", "|---|" + "---|" * len(cases)]
    for p in pols:
        cells = []
        for c in cases:
            x = d[(d.pol == p) & (d.case == c)]
            cells.append(f"{x.measured.iloc[0]:.3f} ({x.model.iloc[0]:.3f})" if len(x) else "")
        rows.append(f"| {p} | " + " | ".join(cells) + " |")
    return "\n".join(rows)


def _pct(a: float, b: float) -> str:
    return f"{100 * (a / b - 1):+.1f} %"


def findings(df: pd.DataFrame) -> str:
    """The page's conclusions, computed from the table so they follow a regeneration."""
    out = []
    u = df[df.workload == "uniform"]
    out.append(f"- Uniform writes: all {len(u)} points within {u.model_diff_pct.abs().max():.2f} % of their model "
               f"(FIFO and random against closed forms, greedy and d-choices against the mean-field model).")
    sk = df[df.workload != "uniform"]
    for w, g in sk.groupby("workload", sort=False):
        def row(pol, fr):
            x = g[(g.policy == pol) & (g.frontiers == fr)]
            return x.iloc[0] if len(x) else None
        fm, fs = row("fifo", "host+gc"), row("fifo", "hot/cold")
        if fm is not None and fs is not None:
            out.append(f"- {w}, FIFO: {fm.measured:.3f} mixed and {fs.measured:.3f} separated "
                       f"({_pct(fs.measured, fm.measured)}): separation does not move FIFO, as Desnoyers' model says; "
                       f"both within {max(abs(fm.model_diff_pct), abs(fs.model_diff_pct)):.2f} % of it.")
        dm, ds = row("d-choices", "host+gc"), row("d-choices", "hot/cold")
        if dm is not None and ds is not None:
            sim = "" if pd.isna(dm.page_sim) or dm.page_sim == "" else (
                f" The page-level simulator gives {float(dm.page_sim):.3f} there ({_pct(dm.measured, float(dm.page_sim))} "
                f"from the firmware, the model {_pct(dm.model, float(dm.page_sim))} from it): the model takes a GC "
                f"block's hot share as binomial, but one victim's survivors are written together.")
            out.append(f"- {w}, d-choices (d = 10): separated {ds.measured:.3f}, {ds.model_diff_pct:+.2f} % from the "
                       f"mean-field model, whose state is exact there; mixed {dm.measured:.3f}, "
                       f"{dm.model_diff_pct:+.2f} %.{sim} Separation lowers d-choices' WAF by "
                       f"{-100 * (ds.measured / dm.measured - 1):.0f} %.")
        gm, gs = row("greedy", "host+gc"), row("greedy", "hot/cold")
        for r, name in ((gm, "mixed"), (gs, "separated")):
            if r is None or pd.isna(r.page_sim) or r.page_sim == "":
                continue
            ps, pr = float(r.page_sim), float(r.page_sim_random_ties)
            out.append(f"- {w}, greedy {name}: firmware {r.measured:.3f}, page-level simulator with the firmware's "
                       f"tie-breaking {ps:.3f} ({_pct(r.measured, ps)}); with random ties {pr:.3f}, "
                       f"{_pct(pr, r.model)} from the mean-field model ({r.model:.3f}). The firmware's rule (the block "
                       f"whose count changed last, usually a hot one) costs {_pct(ps, pr)} against random ties.")
        for r, name in ((row("greedy", "one"), "one frontier (Eq. 16)"), (gm, "host+GC frontiers (Eq. 16, which assumes one frontier: a GC frontier gathers relocated, "
                                                  "mostly cold pages and lowers the WAF)"),
                        (gs, "separated, two pools at p = f (Eq. 20-22)")):
            if r is None or pd.isna(r.get("desnoyers_greedy")) or r.get("desnoyers_greedy") == "":
                continue
            dg = float(r.desnoyers_greedy)
            sim = ""
            po = r.get("page_sim_oldest_ties")
            if r.frontiers == "one" and po is not None and not pd.isna(po) and po != "":
                ps, pr, po = float(r.page_sim), float(r.page_sim_random_ties), float(po)
                sim = (f" The page-level simulator, one frontier: with the firmware's tie-breaking {ps:.3f} "
                       f"({_pct(r.measured, ps)} from the firmware), with random ties {pr:.3f} ({_pct(pr, dg)} from "
                       f"the model), with the oldest block first, the LRW order Eq. 16 is built on, {po:.3f} "
                       f"({_pct(po, dg)} from the model). The firmware's rule costs {_pct(ps, po)} against the "
                       f"oldest first.")
            out.append(f"- {w}, greedy {name}: firmware {r.measured:.3f}, Desnoyers' greedy model "
                       f"{dg:.3f} ({_pct(r.measured, dg)}; he states 2 %).{sim}")
        if gs is not None and ds is not None:
            out.append(f"- {w}, separated: greedy ({gs.measured:.3f}) is worse than d-choices with d = 10 "
                       f"({ds.measured:.3f}): with one frontier per temperature, greedy keeps taking hot blocks that "
                       f"would have emptied anyway while the cold blocks' invalid pages stay unused; the "
                       f"mean-field model predicts the same order ({gs.model:.3f} against {ds.model:.3f}).")
    return "\n".join(out)


def _save(fig, ax, figdir: Path, name: str, legend_size: int) -> str:
    """Legend, layout, PNG and SVG; the PNG's path relative to the page."""
    ax.legend(fontsize=legend_size)
    fig.tight_layout()
    fig.savefig(figdir / f"{name}.png", metadata={"Software": None})
    fig.savefig(figdir / f"{name}.svg", metadata={"Date": None})
    plt.close(fig)
    return f"fidelity/{name}.png"


def plots(df: pd.DataFrame, figdir: Path) -> list[str]:
    figdir.mkdir(parents=True, exist_ok=True)
    out = []
    # parity: firmware against model, every point
    fig, ax = plt.subplots(figsize=(5.5, 5))
    for (w, fr), g in df.groupby(["workload", "frontiers"], sort=False):
        ax.scatter(g.model, g.measured, label=f"{w} {fr}" if w != "uniform" else "uniform", s=28)
    lo, hi = df[["model", "measured"]].min().min() * 0.95, df[["model", "measured"]].max().max() * 1.05
    ax.plot([lo, hi], [lo, hi], "k--", lw=0.8)
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("model WAF")
    ax.set_ylabel("firmware WAF (functional run)")
    ax.set_title("Firmware against published models")
    out.append(_save(fig, ax, figdir, "parity", 8))
    # WAF by policy and case at S_f = 0.125, 32 pages per block
    d = df[((df.sf_nominal - 0.125).abs() < 1e-9) & (df.pages_per_block == 32)].copy()
    d["case"] = d.apply(lambda r: "uniform" if r.workload == "uniform" else f"{r.workload}\n{r.frontiers}", axis=1)
    d["pol"] = d.apply(label, axis=1)
    d = d[d.pol.isin(["fifo", "greedy", "d-choices (d=10)"])]
    cases = list(dict.fromkeys(d["case"]))
    pols = list(dict.fromkeys(d["pol"]))
    fig, ax = plt.subplots(figsize=(8, 4))
    w = 0.8 / len(pols)
    for i, p in enumerate(pols):
        xs, ys, ms = [], [], []
        for j, c in enumerate(cases):
            x = d[(d.pol == p) & (d.case == c)]
            if len(x):
                xs.append(j + i * w)
                ys.append(x.measured.iloc[0])
                ms.append(x.model.iloc[0])
        ax.bar(xs, ys, w, label=f"{p} (firmware)")
        ax.plot(xs, ms, "k_", ms=14, mew=2)
    ax.plot([], [], "k_", ms=14, mew=2, label="model")
    ax.set_xticks([j + 0.4 - w / 2 for j in range(len(cases))])
    ax.set_xticklabels(cases, fontsize=8)
    ax.set_ylabel("WAF")
    ax.set_title("S_f = 0.125, 32 pages per block: uniform and two-temperature workloads")
    out.append(_save(fig, ax, figdir, "waf_by_case", 8))
    # d-choices against d and b (uniform, S_f = 0.125), greedy as d = infinity
    u = df[(df.workload == "uniform") & ((df.sf_nominal - 0.125).abs() < 1e-9)]
    fig, ax = plt.subplots(figsize=(6, 4))
    for b, g in u.groupby("pages_per_block"):
        dc = g[g.policy == "d-choices"].sort_values("d")
        if dc.empty:
            continue
        line, = ax.plot(dc.d, dc.model, "-", label=f"b = {b}: mean-field model")
        ax.plot(dc.d, dc.measured, "o", color=line.get_color(), label=f"b = {b}: firmware")
        gr = g[g.policy == "greedy"]
        if len(gr):
            ax.axhline(gr.model.iloc[0], color=line.get_color(), ls=":", lw=0.8)
            ax.plot([60], [gr.measured.iloc[0]], "s", color=line.get_color())
    ax.set_xscale("log")
    ax.set_xlabel("d (squares at the right: greedy, dotted: its model)")
    ax.set_ylabel("WAF")
    ax.set_title("d-choices, uniform writes, S_f = 0.125")
    out.append(_save(fig, ax, figdir, "dchoices", 7))
    return out


def main(argv: list[str]) -> int:
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "explore"))
    from ssdvp_explore import provenance as prov_mod  # standard library only
    if len(argv) in (3, 4) and argv[1] == "--render":   # from the committed data only
        data, results = Path(argv[2]), Path(argv[3] if len(argv) == 4 else argv[2])
        csv, queueing = data / "fidelity" / "fidelity.csv", data / "fidelity" / "queueing.txt"
        prov = prov_mod.read(data / "fidelity")
    elif len(argv) == 4:
        csv, queueing, results = Path(argv[1]), Path(argv[2]), Path(argv[3])
        prov = None
    else:
        print(__doc__, file=sys.stderr)
        return 2
    df = pd.read_csv(csv, keep_default_na=True)
    figdir = results / "fidelity"
    figs = plots(df, figdir)
    runs_csv = csv.parent / "runs.csv"   # each part's wall time (scripts/fidelity.sh)
    runs = pd.read_csv(runs_csv) if runs_csv.exists() else None
    if runs is not None and runs_csv.resolve() != (figdir / "runs.csv").resolve():
        runs.to_csv(figdir / "runs.csv", index=False)
    if csv.resolve() != (figdir / "fidelity.csv").resolve():
        df.to_csv(figdir / "fidelity.csv", index=False)
    q = [ln for ln in queueing.read_text().splitlines()
         if any(k in ln for k in ("IOPS", "mean in system", "M/D/1"))]
    if queueing.resolve() != (figdir / "queueing.txt").resolve():
        (figdir / "queueing.txt").write_text("\n".join(q) + "\n")   # the lines the page quotes: its data
    wall = float(runs.wall_s.sum()) if runs is not None else None
    if prov is None:   # a run: record how its data was made
        build = Path(os.environ.get("BUILD_DIR", Path(__file__).resolve().parent.parent / "build"))
        prov = prov_mod.collect(build / "platform" / "ssdvp", COMMAND, Path(__file__).resolve().parent.parent,
                                skip=["docs/results/"], wall_s=wall)
        prov_mod.write(prov, figdir)
    load = prov.get("load") if prov else None
    cost = (f"its {len(runs)} parts ({', '.join(runs.part)}) ran one at a time in {wall:,.0f} s of wall time "
            "as fidelity/runs.csv records it" if runs is not None else "its wall time is not recorded")
    cost += (f", at load average {load[0]:g} / {load[1]:g} / {load[2]:g} on {prov.get('cpus') or '?'} CPUs"
             if load else "")
    tmpl = (Path(__file__).with_name("fidelity_page.md.in")).read_text()
    page = tmpl.format(command=COMMAND, cost=cost, uniform=uniform_table(df), skewed=skewed_table(df),
                       findings=findings(df), side=side_by_side(df), queueing="\n".join(q), parity=figs[0],
                       by_case=figs[1], dchoices=figs[2])
    page = page.rstrip("\n") + "\n\n" + prov_mod.section(prov)
    (results / "fidelity.md").write_text(page)
    print(f"wrote {results / 'fidelity.md'} and {figdir}/")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
