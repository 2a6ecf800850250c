"""Render an explore result page from its committed data only (no simulation).

docs/results/<page>/ holds everything a page is made of: table.csv (one row
per run), provenance.json (ssdvp_explore.provenance) and the figures drawn
from the runs' time series and latency histograms (which are not committed:
those figures are kept as drawn). The page's markdown is a function of that
folder, so ``reproduce`` writes the folder and then renders through here, and
the page test (scripts/check-pages.py) renders through here into a scratch
directory and compares.
"""
from __future__ import annotations

import shutil
from dataclasses import dataclass, field
from pathlib import Path

import pandas as pd

from . import REPO_ROOT
from . import provenance as prov_mod
from .pages import Page, PageContext, pages
from .sweep import load_sweep

# standard figure names in the order standard_figures draws them
FIGURE_ORDER = ["waf_erases", "response_time", "latency_cdf", "bandwidth", "clustering_cost"]


@dataclass
class DataReport:
    """What a renderer reads of a sweep's report, from the committed data."""
    points: list
    version: str
    failures: list = field(default_factory=list)


def read_table(path: Path) -> pd.DataFrame:
    return pd.read_csv(path, keep_default_na=False, na_values=[""], low_memory=False)


def identity(prov: dict | None) -> str:
    """ssdvp's version and binary digest, as a point hash records them."""
    if not prov:
        return "not recorded"
    v, d = prov.get("ssdvp") or "", prov.get("binary_sha256")
    return f"{v} sha256:{d}".strip() if d else v


def existing_figures(pdir: Path, rel_to: Path) -> dict[str, list[Path]]:
    figs = {}
    for name in FIGURE_ORDER:
        paths = [pdir / f"{name}.{ext}" for ext in ("png", "svg") if (pdir / f"{name}.{ext}").exists()]
        if paths:
            figs[name] = [p.relative_to(rel_to) for p in paths]
    return figs


def render(page: Page | str, data_dir: Path | None = None, out_dir: Path | None = None,
           root: Path | None = None, draw: bool = False) -> Path:
    """Write <out_dir>/<page>.md from <data_dir>/<page>/ (default both docs/results).
    With out_dir != data_dir the data folder is copied there first, so a
    renderer that draws its own figures (raid) draws into the scratch copy."""
    page = pages()[page] if isinstance(page, str) else page
    root = Path(root) if root else REPO_ROOT
    data_dir = Path(data_dir) if data_dir else root / "docs" / "results"
    out_dir = Path(out_dir) if out_dir else data_dir
    src = data_dir / page.name
    pdir = out_dir / page.name
    if pdir.resolve() != src.resolve():
        if pdir.exists():
            shutil.rmtree(pdir)
        shutil.copytree(src, pdir)
    sweep_path = Path(page.sweep) if Path(page.sweep).is_absolute() else root / page.sweep
    sweep = load_sweep(sweep_path, root=root)
    table = read_table(pdir / "table.csv")
    if draw:   # the standard figures drawn from the table alone (the others need the runs' files)
        from .plots import normalized_response_time, waf_erase_bars, with_labels
        if {"ftl.waf", "ftl.erases"} <= set(table) and page.by in table:
            waf_erase_bars(table, pdir / "waf_erases", by=page.by)
        if "latency_us.all.mean" in with_labels(table) and page.by in table:
            normalized_response_time(table, pdir / "response_time", by=page.by, baseline=page.baseline)
    prov = prov_mod.read(pdir)
    rep = DataReport(points=list(table["point"]) if "point" in table else [None] * len(table),
                     version=identity(prov))
    ctx = PageContext(page=page, sweep=sweep, report=rep, table=table, figures=existing_figures(pdir, out_dir),
                      table_csv=(pdir / "table.csv").relative_to(out_dir), command=page_command([page.name]),
                      extra={"out_dir": out_dir, "data_dir": data_dir, "provenance": prov, "draw": draw, "tables": _pre_tables(page, pdir, root)})
    text = page.render(ctx)
    md = out_dir / f"{page.name}.md"
    tmp = md.with_name(f".{md.name}.tmp")
    tmp.write_text(text if text.endswith("\n") else text + "\n")
    tmp.replace(md)
    return md


def _pre_tables(page: Page, pdir: Path, root: Path) -> dict:
    """The tables of the page's further sweeps (Page.then), by sweep name."""
    out = {}
    for sp in page.then:
        name = load_sweep(Path(sp) if Path(sp).is_absolute() else root / sp, root=root).name
        out[name] = read_table(pdir / f"{name}.csv")
    return out


def page_command(names: list[str]) -> str:
    return "explore/ssdvp-explore reproduce " + " ".join(names)
