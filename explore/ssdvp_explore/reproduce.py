"""`reproduce`: regenerate result pages under docs/results/ from nothing.

For each registered page: run its sweep (cached points are reused: a point's
hash covers its full config and the simulator version, so a cached result is
the result; --force reruns everything), build the table, draw the standard
figures, and write docs/results/<page>.md plus docs/results/<page>/ (table.csv,
figures as PNG + SVG). The page directory is recreated, so nothing stale stays.

A page states the exact simulator that made it (version, commit, binary
digest) and the source tree's commit. So `reproduce` refuses a source tree
with uncommitted changes, a binary built from one (`-dirty`) and a binary
built from another commit than the tree's, unless ``allow_dirty`` (the CLI's
``--allow-dirty``); the page then says so in its provenance.
"""
from __future__ import annotations

import shutil
import sys
import time
from pathlib import Path

from . import REPO_ROOT
from . import provenance as prov_mod
from .pages import Page, pages
from .plots import standard_figures
from .render import page_command, render
from .runner import RunnerError, run_sweep
from .sweep import load_sweep
from .table import build_table, load_histograms, load_timeseries, write_csv


def source_state(root: Path, binary: Path, out_dir: Path) -> tuple[str, list[str]]:
    """(one provenance line, the reasons the results would not be reproducible)."""
    prov = prov_mod.collect(binary, "", root, skip=_skip(root, out_dir))
    if prov["commit"] is None:   # not a git checkout: nothing to check the binary against
        return "source tree: not a git checkout", [p for p in prov_mod.problems(prov) if "commit" not in p]
    return (f"source tree: commit {prov['commit']}" + (" with uncommitted changes" if prov["dirty"] else ""),
            prov_mod.problems(prov))


def _skip(root: Path, out_dir: Path) -> list[str]:
    try:
        return [out_dir.resolve().relative_to(Path(root).resolve()).as_posix() + "/"]
    except ValueError:
        return []


def reproduce_page(page: Page, binary: Path, out_dir: Path | None = None, root: Path | None = None,
                   results: Path | None = None, jobs: int | None = None, scheduler=None, force: bool = False,
                   progress: bool | None = None, log=None):
    """Run the page's sweep, write its data folder (table.csv, figures,
    provenance.json), then render the page from that folder (render.render)."""
    root = Path(root) if root else REPO_ROOT
    out_dir = Path(out_dir) if out_dir else root / "docs" / "results"
    sweep_path = Path(page.sweep) if Path(page.sweep).is_absolute() else root / page.sweep
    sweep = load_sweep(sweep_path, root=root)
    t0 = time.monotonic()
    rep = run_sweep(sweep, binary, results=results, jobs=jobs, scheduler=scheduler, force=force,
                    progress=progress, log=log)
    table = build_table(sweep, rep.points, rep.results)
    pdir = out_dir / page.name
    kept = {k: (pdir / k).read_bytes() for k in page.keep if (pdir / k).exists()}
    if pdir.exists():
        shutil.rmtree(pdir)
    pdir.mkdir(parents=True)
    for k, data in kept.items():
        (pdir / k).write_bytes(data)
    write_csv(table, pdir / "table.csv")
    ts = load_timeseries(rep.results, table)
    standard_figures(table, pdir, timeseries=ts, by=page.by, baseline=page.baseline,
                     histograms=load_histograms(rep.results, table))
    prov = prov_mod.collect(binary, page_command([page.name]), root, skip=_skip(root, out_dir),
                            wall_s=time.monotonic() - t0)
    prov["runs"], prov["ran"], prov["cached"] = len(rep.points), rep.ran, rep.cached
    prov_mod.write(prov, pdir)
    return render(page, data_dir=out_dir, out_dir=out_dir, root=root, draw=True), rep


def reproduce(names: list[str] | None, binary: Path, allow_dirty: bool = False, **kw) -> list[tuple[Path, object]]:
    reg = pages()
    names = names or sorted(reg)
    unknown = [n for n in names if n not in reg]
    if unknown:
        raise KeyError(f"unknown result page(s): {', '.join(unknown)} (known: {', '.join(sorted(reg))})")
    root = Path(kw.get("root") or REPO_ROOT)
    out_dir = Path(kw.get("out_dir") or root / "docs" / "results")
    _, problems = source_state(root, binary, out_dir)
    if problems and not allow_dirty:
        raise RunnerError("a result page must name the exact version that made it, but "
                          + "; ".join(problems) + ". Commit and rebuild, or pass --allow-dirty "
                          "(the page's provenance then says it came from a dirty tree)")
    done = []
    for n in names:
        md, rep = reproduce_page(reg[n], binary, **kw)
        print(f"reproduce: wrote {md}" + (f" ({len(rep.failures)} failed runs)" if rep.failures else ""),
              file=sys.stderr)
        done.append((md, rep))
    return done
