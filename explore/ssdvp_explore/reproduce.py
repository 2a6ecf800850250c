"""`reproduce`: regenerate result pages under docs/results/ from nothing.

For each registered page: run its sweep (cached points are reused: a point's
hash covers its full config and the simulator version, so a cached result is
the result; --force reruns everything), build the table, draw the standard
figures, and write docs/results/<page>.md plus docs/results/<page>/ (table.csv,
figures as PNG + SVG). The page directory is recreated, so nothing stale stays.
"""
from __future__ import annotations

import shutil
import sys
from pathlib import Path

from . import REPO_ROOT
from .pages import Page, PageContext, pages
from .plots import standard_figures
from .runner import run_sweep
from .sweep import load_sweep
from .table import build_table, load_timeseries, write_csv


def page_command(names: list[str]) -> str:
    return "explore/ssdvp-explore reproduce " + " ".join(names)


def reproduce_page(page: Page, binary: Path, out_dir: Path | None = None, root: Path | None = None,
                   results: Path | None = None, jobs: int | None = None, scheduler=None, force: bool = False,
                   progress: bool | None = None, log=None):
    root = Path(root) if root else REPO_ROOT
    out_dir = Path(out_dir) if out_dir else root / "docs" / "results"
    sweep_path = Path(page.sweep) if Path(page.sweep).is_absolute() else root / page.sweep
    sweep = load_sweep(sweep_path, root=root)
    rep = run_sweep(sweep, binary, results=results, jobs=jobs, scheduler=scheduler, force=force,
                    progress=progress, log=log)
    table = build_table(sweep, rep.points, rep.results)
    pdir = out_dir / page.name
    if pdir.exists():
        shutil.rmtree(pdir)
    pdir.mkdir(parents=True)
    write_csv(table, pdir / "table.csv")
    ts = load_timeseries(rep.results, table)
    figs = standard_figures(table, pdir, timeseries=ts, by=page.by, baseline=page.baseline)
    rel = {k: [p.relative_to(out_dir) for p in v] for k, v in figs.items()}
    ctx = PageContext(page=page, sweep=sweep, report=rep, table=table, figures=rel, extra={"out_dir": out_dir},
                      table_csv=(pdir / "table.csv").relative_to(out_dir), command=page_command([page.name]))
    text = page.render(ctx)
    md = out_dir / f"{page.name}.md"
    tmp = md.with_name(f".{md.name}.tmp")
    tmp.write_text(text if text.endswith("\n") else text + "\n")
    tmp.replace(md)
    return md, rep


def reproduce(names: list[str] | None, binary: Path, **kw) -> list[tuple[Path, object]]:
    reg = pages()
    names = names or sorted(reg)
    unknown = [n for n in names if n not in reg]
    if unknown:
        raise KeyError(f"unknown result page(s): {', '.join(unknown)} (known: {', '.join(sorted(reg))})")
    done = []
    for n in names:
        md, rep = reproduce_page(reg[n], binary, **kw)
        print(f"reproduce: wrote {md}" + (f" ({len(rep.failures)} failed runs)" if rep.failures else ""),
              file=sys.stderr)
        done.append((md, rep))
    return done
