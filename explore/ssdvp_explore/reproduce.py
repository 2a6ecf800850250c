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
    """Run the page's sweep and then its further sweeps (Page.then, each
    table as <name>.csv), write its data folder (table.csv, figures,
    provenance.json; Page.keep's files kept), then render the page from that
    folder (render.render)."""
    root = Path(root) if root else REPO_ROOT
    out_dir = Path(out_dir) if out_dir else root / "docs" / "results"
    t0 = time.monotonic()
    sweep_path = Path(page.sweep) if Path(page.sweep).is_absolute() else root / page.sweep
    sweep = load_sweep(sweep_path, root=root)
    rep = run_sweep(sweep, binary, results=results, jobs=jobs, scheduler=scheduler, force=force,
                    progress=progress, log=log)
    table = build_table(sweep, rep.points, rep.results)
    more, ran, cached, runs = {}, 0, 0, 0
    for sp in page.then:   # in order, after the main sweep: a later sweep may read what an earlier one wrote
        sw = load_sweep(Path(sp) if Path(sp).is_absolute() else root / sp, root=root)
        r = run_sweep(sw, binary, results=results, jobs=jobs, scheduler=scheduler, force=force,
                      progress=progress, log=log)
        more[sw.name] = build_table(sw, r.points, r.results)
        ran, cached, runs = ran + r.ran, cached + r.cached, runs + len(r.points)
    pdir = out_dir / page.name
    kept = _keep(pdir, page.keep)
    if pdir.exists():
        shutil.rmtree(pdir)
    pdir.mkdir(parents=True)
    for k, data in kept.items():
        (pdir / k).parent.mkdir(parents=True, exist_ok=True)
        (pdir / k).write_bytes(data)
    write_csv(table, pdir / "table.csv")
    for name, t in more.items():
        write_csv(t, pdir / f"{name}.csv")
    ts = load_timeseries(rep.results, table)
    standard_figures(table, pdir, timeseries=ts, by=page.by, baseline=page.baseline,
                     histograms=load_histograms(rep.results, table))
    prov = prov_mod.collect(binary, page_command([page.name]), root, skip=_skip(root, out_dir),
                            wall_s=time.monotonic() - t0)
    prov["runs"], prov["ran"], prov["cached"] = runs + len(rep.points), ran + rep.ran, cached + rep.cached
    prov_mod.write(prov, pdir)
    return render(page, data_dir=out_dir, out_dir=out_dir, root=root, draw=True), rep


def _keep(pdir: Path, keep: tuple[str, ...]) -> dict[str, bytes]:
    """{path relative to pdir: bytes} of the kept files, a kept folder's files included."""
    out = {}
    for k in keep:
        p = pdir / k
        files = sorted(f for f in p.rglob("*") if f.is_file()) if p.is_dir() else [p] if p.is_file() else []
        for f in files:
            out[f.relative_to(pdir).as_posix()] = f.read_bytes()
    return out


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
