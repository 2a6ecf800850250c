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

import re
import shutil
import subprocess
import sys
from pathlib import Path

from . import REPO_ROOT
from .pages import Page, PageContext, pages
from .plots import standard_figures
from .runner import RunnerError, run_sweep, ssdvp_version
from .sweep import load_sweep
from .table import build_table, load_histograms, load_timeseries, write_csv


def page_command(names: list[str]) -> str:
    return "explore/ssdvp-explore reproduce " + " ".join(names)


def _git(root: Path, *args: str) -> str | None:
    try:
        r = subprocess.run(["git", "-C", str(root), *args], capture_output=True, text=True, timeout=60)
    except (OSError, subprocess.TimeoutExpired):
        return None
    return r.stdout.rstrip("\n") if r.returncode == 0 else None


def source_state(root: Path, binary: Path, out_dir: Path) -> tuple[str, list[str]]:
    """(one provenance line, the reasons the results would not be reproducible)."""
    problems = []
    version = ssdvp_version(binary)
    m = re.search(r"\+([0-9a-f]{7,40})(-dirty)?\b", version)
    if "-dirty" in version:
        problems.append(f"the simulator was built from a tree with uncommitted changes ({version})")
    head = _git(root, "rev-parse", "HEAD")
    if head is None:
        return "source tree: not a git checkout", problems
    if m and not head.startswith(m.group(1)):
        problems.append(f"the simulator was built from commit {m.group(1)}, the tree is at {head[:12]}: rebuild it")
    try:
        skip = out_dir.resolve().relative_to(Path(root).resolve()).as_posix() + "/"
    except ValueError:
        skip = None
    status = _git(root, "status", "--porcelain", "--untracked-files=all") or ""
    changed = [ln[3:] for ln in status.splitlines() if ln[3:] and not (skip and ln[3:].startswith(skip))]
    if changed:
        problems.append(f"the source tree has uncommitted changes ({', '.join(changed[:5])}"
                        f"{', ...' if len(changed) > 5 else ''})")
    return f"source tree: commit {head}" + (" with uncommitted changes" if changed else ""), problems


def reproduce_page(page: Page, binary: Path, out_dir: Path | None = None, root: Path | None = None,
                   results: Path | None = None, jobs: int | None = None, scheduler=None, force: bool = False,
                   progress: bool | None = None, log=None, tree: str = ""):
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
    figs = standard_figures(table, pdir, timeseries=ts, by=page.by, baseline=page.baseline,
                            histograms=load_histograms(rep.results, table))
    rel = {k: [p.relative_to(out_dir) for p in v] for k, v in figs.items()}
    ctx = PageContext(page=page, sweep=sweep, report=rep, table=table, figures=rel,
                      table_csv=(pdir / "table.csv").relative_to(out_dir), command=page_command([page.name]),
                      extra={"tree": tree} if tree else {})
    text = page.render(ctx)
    md = out_dir / f"{page.name}.md"
    tmp = md.with_name(f".{md.name}.tmp")
    tmp.write_text(text if text.endswith("\n") else text + "\n")
    tmp.replace(md)
    return md, rep


def reproduce(names: list[str] | None, binary: Path, allow_dirty: bool = False, **kw) -> list[tuple[Path, object]]:
    reg = pages()
    names = names or sorted(reg)
    unknown = [n for n in names if n not in reg]
    if unknown:
        raise KeyError(f"unknown result page(s): {', '.join(unknown)} (known: {', '.join(sorted(reg))})")
    root = Path(kw.get("root") or REPO_ROOT)
    out_dir = Path(kw.get("out_dir") or root / "docs" / "results")
    tree, problems = source_state(root, binary, out_dir)
    if problems and not allow_dirty:
        raise RunnerError("a result page must name the exact version that made it, but "
                          + "; ".join(problems) + ". Commit and rebuild, or pass --allow-dirty "
                          "(the page then says it came from a dirty tree)")
    if problems:
        tree += " (reproduced with --allow-dirty: " + "; ".join(problems) + ")"
    done = []
    for n in names:
        md, rep = reproduce_page(reg[n], binary, tree=tree, **kw)
        print(f"reproduce: wrote {md}" + (f" ({len(rep.failures)} failed runs)" if rep.failures else ""),
              file=sys.stderr)
        done.append((md, rep))
    return done
