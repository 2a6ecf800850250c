#!/usr/bin/python3
"""The registry of docs/results/*.md: one row per page, and the tools that read it.

    scripts/results_pages.py check [--out DIR]   the page test (ctest -L pages): render-only, a few seconds
    scripts/results_pages.py status              each page, its data's commit, whether its code changed since
    scripts/results_pages.py render [PAGE...]    re-render pages from their committed data
    scripts/results_pages.py list                name, kind, cost, regenerate command (for reproduce-pages.sh)

Kinds:
  explore  made by `explore/ssdvp-explore reproduce NAME`; renders whole from
           docs/results/NAME/ (table.csv, provenance.json, kept data files):
           the check re-renders it and fails on any difference.
  script   made by a script that can render from committed data: ``render`` is
           its render-only argv ({data}: the pages directory, {out}: where to write).
  pending  made by a script that cannot yet render from committed data (``why``
           says what is missing); the check only checks the page's links.
  notes    a hand-written analysis page with no data of its own (links only).

Register a new page: add one Row below. A docs/results/*.md with no row fails
the check, and so does an explore or script page whose re-render differs from
the committed page, whose referenced figures or files are missing, or whose
provenance.json says its data came from an uncommitted tree or build.

Standard library only, except the explore renderer (pandas, matplotlib,
PyYAML: scripts/python-deps.txt), which `check` imports for explore pages.
"""
from __future__ import annotations

import argparse
import difflib
import re
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "docs" / "results"
sys.path.insert(0, str(ROOT / "explore"))
from ssdvp_explore import provenance as prov_mod  # noqa: E402  (stdlib only)

SIM = ["platform/", "models/", "firmware/", "configs/"]   # code a simulation result depends on
# what an explore page's data depends on besides the simulator (its renderer is the check's business)
EXPLORE = ["explore/ssdvp_explore/runner.py", "explore/ssdvp_explore/sweep.py", "explore/ssdvp_explore/table.py"]


@dataclass
class Row:
    name: str
    kind: str                       # explore | script | pending | notes
    regenerate: str = ""            # the command that remakes the data and the page (runs the simulator)
    cost: str = ""                  # measured cost of `regenerate`, and how it was measured
    quick: str = ""                 # a cheaper variant of `regenerate` (a smoke run; not for publishing)
    render: list[str] = field(default_factory=list)    # script pages: render-only argv
    deps: list[str] = field(default_factory=list)      # paths whose change makes the data stale
    why: str = ""                   # pending: what is missing to render from committed data
    wall: tuple[str, str] | None = None  # (file in the page's folder, or a glob; column): each run's wall time


def _explore(name: str, sweep: str, cost: str = "") -> Row:
    return Row(name, "explore", f"explore/ssdvp-explore reproduce {name}", cost, deps=SIM + EXPLORE + [sweep],
               wall=("table.csv", "run.wall_s"))


def recorded_cost(row: Row) -> str:
    """The cost of regenerating a page's data, from the wall times its committed data records."""
    import csv
    if not row.wall:
        prov = prov_mod.read(RESULTS / row.name)
        if prov and prov.get("wall_s"):
            return (f"{prov['wall_s']:,.0f} s of wall time (provenance.json, recorded under that day's load)" +
                    (f"; {row.cost}" if row.cost else ""))
        return row.cost or "not measured"
    w = []
    try:  # the file may be a glob (a page made in parts: one file per part)
        for path in sorted((RESULTS / row.name).glob(row.wall[0])):
            with open(path, newline="") as f:
                w += [float(r[row.wall[1]]) for r in csv.DictReader(f) if r.get(row.wall[1]) not in (None, "")]
    except (OSError, KeyError, ValueError):
        w = []
    if not w or not sum(w):
        return row.cost or f"not measured ({row.wall[0]} records no wall time)"
    text = (f"{len(w)} runs of {min(w):.0f}-{max(w):.0f} s, {sum(w):,.0f} s summed ({row.wall[1]} in "
            f"{row.wall[0]}, recorded under that day's load; divide by the parallel jobs)")
    return text + (f"; {row.cost}" if row.cost else "")


ROWS = [
    _explore("platform", "explore/sweeps/platform.yaml"),
    _explore("haml", "explore/sweeps/haml.yaml", "the paper-scale section is scripts/haml_scale.py's (not rerun "
             "by reproduce; its table holds each point's CPU seconds)"),
    _explore("haml-gc", "explore/sweeps/haml-gc.yaml"),
    _explore("haml-k", "explore/sweeps/haml-k.yaml"),
    _explore("haml-slice", "explore/sweeps/haml-slice.yaml"),
    _explore("haml-period", "explore/sweeps/haml-period.yaml"),
    _explore("raid", "explore/sweeps/raid.yaml"),
    _explore("raid-window", "explore/sweeps/raid-window.yaml"),
    _explore("raid-shape", "explore/sweeps/raid-shape.yaml"),
    _explore("raid-hold", "explore/sweeps/raid-hold.yaml"),
    _explore("raid-trigger", "explore/sweeps/raid-trigger.yaml"),
    Row("streams-recorded", "explore", "explore/ssdvp-explore reproduce streams-recorded", "",
        deps=SIM + EXPLORE + [f"explore/sweeps/streams-recorded{s}.yaml"
                              for s in ("", "-heldout", "-cpu", "-scale", "-sens")],
        wall=("table.csv", "run.wall_s")),
    _explore("haml-recorded", "explore/sweeps/haml-recorded.yaml"),
    _explore("haml-recorded-sens", "explore/sweeps/haml-recorded-sens.yaml"),
    _explore("haml-accel-tail", "explore/sweeps/haml-accel-tail.yaml"),
    _explore("techniques", "explore/sweeps/techniques.yaml"),
    _explore("techniques-closed", "explore/sweeps/techniques-closed.yaml"),
    Row("live-vs-replay", "script", "python3 scripts/live_vs_replay.py --repeats 3",
        render=["{python}", "scripts/live_vs_replay.py", "--render", "{data}/live-vs-replay", "--page",
                "{out}/live-vs-replay.md"],
        deps=SIM + ["scripts/live_vs_replay.py", "scripts/workloads/"], wall=("*/live.csv", "wall_s"),
        cost="live runs take the guest's wall time, one at a time; the replays are the rest"),
    Row("overview", "script", "python3 scripts/overview.py", "render only: 0.1 s (measured)",
        render=["{python}", "scripts/overview.py", "--data", "{data}", "--out", "{out}"],
        deps=["scripts/overview.py", "explore/ssdvp_explore/pages/techniques.py",
              "explore/ssdvp_explore/pages/raid_trigger.py", "docs/results/techniques/overview.csv",
              "docs/results/techniques-closed/overview.csv",
              "docs/results/raid-trigger/overview.csv"]),
    Row("accelerator", "script", "python3 scripts/accelerator.py",
        render=["{python}", "scripts/accelerator.py", "--render", "{data}/accelerator", "--page",
                "{out}/accelerator.md"],
        deps=SIM + ["accel/", "scripts/accelerator.py", "scripts/runpoint.py", "scripts/synth-accel.sh",
                    "traces/msr_heimdall_rw20_80_105.ascii"]),
    Row("calibration", "script", "bash scripts/calibrate.sh",
        render=["{python}", "scripts/calibrate.py", "--render", "{data}/calibration", "--page",
                "{out}/calibration.md"],
        deps=SIM + ["scripts/calibrate.py", "scripts/calibrate.sh", "scripts/runpoint.py"]),
    Row("dftl", "script", "python3 scripts/dftl.py",
        render=["{python}", "scripts/dftl.py", "--render", "{data}/dftl", "--page", "{out}/dftl.md"],
        deps=SIM + ["scripts/dftl.py", "scripts/runpoint.py"], wall=("results.csv", "wall_s")),
    Row("fidelity", "script", "bash scripts/fidelity.sh",
        render=["{python}", "scripts/fidelity.py", "--render", "{data}", "{out}"],
        deps=SIM + ["scripts/fidelity.sh", "scripts/fidelity.py", "scripts/fidelity_page.md.in", "testbench/reference/",
                    "testbench/fidelity/queueing_test.cpp"], wall=("runs.csv", "wall_s")),
    Row("flash-features", "script", "bash scripts/flash-features.sh",
        render=["{python}", "scripts/flash_features.py", "--render", "{data}/flash-features", "--page",
                "{out}/flash-features.md"],
        deps=SIM + ["scripts/flash_features.py", "scripts/flash_features_page.md.in", "scripts/runpoint.py"],
        wall=("results.csv", "wall_s")),
    Row("flows", "script", "python3 scripts/flows_experiment.py",
        render=["{python}", "scripts/flows_experiment.py", "--render", "{data}/flows", "--page", "{out}/flows.md"],
        deps=SIM + ["scripts/flows_experiment.py", "scripts/runpoint.py"], wall=("results.csv", "wall_s")),
    Row("flows-cmt", "script", "python3 scripts/flows_cmt.py",
        render=["{python}", "scripts/flows_cmt.py", "--render", "{data}/flows-cmt", "--page", "{out}/flows-cmt.md"],
        deps=SIM + ["scripts/flows_cmt.py", "scripts/runpoint.py"], wall=("results.csv", "wall_s")),
    Row("gc-detector-recorded", "script", "python3 scripts/gc_detector_recorded.py",
        render=["{python}", "scripts/gc_detector_recorded.py", "--render", "{data}/gc-detector-recorded", "--page",
                "{out}/gc-detector-recorded.md"],
        deps=SIM + ["scripts/gc_detector_recorded.py", "traces/workloads/"], wall=("results.csv", "wall_s")),
    Row("gc-detector", "script", "python3 scripts/gc-detector.py --jobs 2",
        render=["{python}", "scripts/gc-detector.py", "--render", "{data}/gc-detector", "--page",
                "{out}/gc-detector.md"],
        deps=SIM + ["scripts/gc-detector.py", "scripts/runpoint.py"], wall=("runs.csv", "wall_s")),
    Row("host_ftl_gc_copy", "script", "python3 scripts/host_ftl_gc_copy.py",
        render=["{python}", "scripts/host_ftl_gc_copy.py", "--render", "{data}/host_ftl_gc_copy", "--page",
                "{out}/host_ftl_gc_copy.md"],
        deps=SIM + ["scripts/host_ftl_gc_copy.py", "scripts/journal_experiment.py"], wall=("results.csv", "wall_s")),
    Row("journal", "script", "python3 scripts/journal_experiment.py", quick="python3 scripts/journal_experiment.py --quick",
        render=["{python}", "scripts/journal_experiment.py", "--render", "{data}/journal/results.csv",
                "--page", "{out}/journal.md"],
        deps=SIM + ["scripts/journal_experiment.py", "scripts/journal_findings.md"], wall=("results.csv", "wall_s")),
    Row("journal_ext4_real", "script", "python3 scripts/journal_ext4_real.py",
        render=["{python}", "scripts/journal_ext4_real.py", "--render", "{data}/journal_ext4_real", "--page",
                "{out}/journal_ext4_real.md"],
        deps=SIM + ["scripts/journal_ext4_real.py", "scripts/journal_ext4_real_findings.md",
                    "scripts/journal_experiment.py", "scripts/runpoint.py", "traces/nbd-ext4-journal.iolog.xz",
                    "traces/nbd-ext4-journal.layout", "docs/results/journal_host_ftl_timed/results.csv",
                    "docs/results/journal/results.csv"],
        wall=("results.csv", "wall_s")),
    Row("journal-recorded", "script", "python3 scripts/journal_recorded.py",
        render=["{python}", "scripts/journal_recorded.py", "--render", "{data}/journal-recorded", "--page",
                "{out}/journal-recorded.md"],
        deps=SIM + ["scripts/journal_recorded.py", "traces/workloads/"], wall=("results.csv", "wall_s")),
    Row("journal_host_ftl", "script", "python3 scripts/journal_host_ftl.py",
        render=["{python}", "scripts/journal_host_ftl.py", "--render", "{data}/journal_host_ftl", "--page",
                "{out}/journal_host_ftl.md"],
        deps=SIM + ["scripts/journal_host_ftl.py", "scripts/journal_experiment.py",
                    "testbench/firmware/host_ftl_journal.cpp"], wall=("results.csv", "wall_s")),
    Row("journal_host_ftl_timed", "script", "python3 scripts/journal_host_ftl_timed.py",
        render=["{python}", "scripts/journal_host_ftl_timed.py", "--render",
                "{data}/journal_host_ftl_timed/results.csv", "--page", "{out}/journal_host_ftl_timed.md"],
        deps=SIM + ["scripts/journal_host_ftl_timed.py", "scripts/journal_experiment.py"],
        wall=("results.csv", "wall_s")),
    Row("mqsim", "script", "python3 scripts/mqsim_backend.py",
        render=["{python}", "scripts/mqsim_backend.py", "--render", "{data}/mqsim", "--page", "{out}/mqsim.md"],
        deps=SIM + ["scripts/mqsim_backend.py", "scripts/mqsim_page.md.in", "scripts/runpoint.py"],
        wall=("results.csv", "wall_s")),
    Row("reliability", "script", "python3 scripts/reliability.py", quick="python3 scripts/reliability.py --quick",
        render=["{python}", "scripts/reliability.py", "--render", "{data}/reliability", "--page",
                "{out}/reliability.md"],
        deps=SIM + ["scripts/reliability.py", "scripts/power-cuts.sh", "scripts/runpoint.py",
                    "testbench/firmware/host_ftl_power_test.cpp"],
        wall=("*.csv", "wall_s"), cost="one run at a time"),
    Row("streams", "script", "python3 scripts/streams_experiment.py",
        quick="python3 scripts/streams_experiment.py --quick",
        render=["{python}", "scripts/streams_experiment.py", "--render", "{data}/streams", "--page",
                "{out}/streams.md"],
        deps=SIM + ["scripts/streams_experiment.py", "scripts/streams_findings.md", "scripts/streams_lifetimes.py"],
        wall=("runs.csv", "wall_s")),
    Row("gc-scheduling", "script", "scripts/gc_scheduling.py build", quick="scripts/gc_scheduling.py build --quick",
        render=["{python}", "scripts/gc_scheduling.py", "--render-only", "--data", "{data}", "--page",
                "{out}/gc-scheduling.md"],
        deps=SIM + ["scripts/gc_scheduling.py"],
        cost="its runs' total wall time is on the page and in gc-scheduling/provenance.json"),
    Row("workloads", "script", "/usr/bin/python3 scripts/workloads/characterise.py",
        "one pass over the recordings and four generator runs: 52 s (measured)",
        render=["{python}", "scripts/workloads/characterise.py", "--render", "{data}/workloads", "--out",
                "{out}/workloads.md"],
        deps=SIM + ["scripts/workloads/", "traces/workloads/"]),
    Row("haml-tables", "script", "/usr/bin/python3 scripts/haml_tables.py build",
        render=["{python}", "scripts/haml_tables.py", "--render-only", "--data", "{data}", "--page",
                "{out}/haml-tables.md"],
        deps=SIM + ["scripts/haml_tables.py", "explore/sweeps/haml-recorded.yaml", "traces/"],
        wall=("fig3_runs.csv", "wall_s")),
    Row("haml-double-stalls", "script", "python3 scripts/haml_double_stalls.py",
        render=["{python}", "scripts/haml_double_stalls.py", "--render", "{data}/haml-double-stalls", "--page",
                "{out}/haml-double-stalls.md"],
        deps=SIM + ["scripts/haml_double_stalls.py", "scripts/runpoint.py", "explore/sweeps/haml.yaml"],
        wall=("results.csv", "wall_s")),
]

LINK = re.compile(r"!?\[[^\]]*\]\(([^)\s]+)\)")


def rows() -> dict[str, Row]:
    return {r.name: r for r in ROWS}


def local_links(md: Path) -> list[str]:
    """Relative links of a page to files (figures, data), without anchors or web addresses."""
    out = []
    for target in LINK.findall(md.read_text()):
        target = target.split("#")[0]
        if target and not re.match(r"^[a-z]+:", target):
            out.append(target)
    return out


def render_into(row: Row, data: Path, out: Path) -> Path | None:
    """Render one page from data/ into out/; the rendered .md, or None for kinds that do not render."""
    if row.kind == "explore":
        from ssdvp_explore.render import render
        return render(row.name, data_dir=data, out_dir=out, root=ROOT)
    if row.kind == "script":
        argv = [a.format(data=data, out=out, python=sys.executable) for a in row.render]
        subprocess.run(argv, cwd=ROOT, check=True)
        return out / f"{row.name}.md"
    return None


def check(out: Path | None = None, only: list[str] | None = None) -> int:
    reg = rows()
    errors, notes = [], []
    pages = sorted(p.stem for p in RESULTS.glob("*.md"))
    for name in pages:
        if name not in reg:
            errors.append(f"{name}.md: no row in scripts/results_pages.py (a results page needs a renderer and "
                          "its data; see that file's docstring)")
    for name in reg:
        if name not in pages:
            errors.append(f"{name}: registered in scripts/results_pages.py but docs/results/{name}.md is missing")
    tmp = Path(out) if out else Path(tempfile.mkdtemp(prefix="pages-"))
    tmp.mkdir(parents=True, exist_ok=True)
    for name in pages:
        row = reg.get(name)
        if row is None or (only and name not in only):
            continue
        md = RESULTS / f"{name}.md"
        for link in local_links(md):
            if not (md.parent / link).exists():
                errors.append(f"{name}.md: links to {link}, which does not exist")
        if row.kind in ("pending", "notes"):
            if row.kind == "pending":
                notes.append(f"{name}: not rendered from data ({row.why})")
            continue
        try:
            got = render_into(row, RESULTS, tmp)
        except Exception as e:  # noqa: BLE001  (any renderer failure is the page's failure)
            errors.append(f"{name}.md: its renderer failed: {type(e).__name__}: {e}")
            continue
        want, have = md.read_text(), got.read_text()
        if want != have:
            diff = "".join(list(difflib.unified_diff(want.splitlines(True), have.splitlines(True),
                                                     f"docs/results/{name}.md (committed)",
                                                     f"{got} (rendered from data)", n=1))[:40])
            errors.append(f"{name}.md differs from its rendering from docs/results/{name}/ (edited by hand, or "
                          f"the renderer changed: re-render with `scripts/results_pages.py render {name}`):\n{diff}")
        provs = provenances(name)
        if not provs and row.wall:
            notes.append(f"{name}: its data has no provenance.json (made before provenance was recorded)")
        for prov in provs:
            for p in prov_mod.problems(prov):
                errors.append(f"{name}: its data is not reproducible as is: {p}")
    if not out:
        shutil.rmtree(tmp, ignore_errors=True)
    for n in notes:
        print(f"note: {n}")
    for e in errors:
        print(f"FAIL: {e}", file=sys.stderr)
    rendered = sum(1 for n in pages if n in reg and reg[n].kind in ("explore", "script"))
    print(f"pages: {len(pages)} pages, {rendered} rendered from data and compared, "
          f"{sum(1 for r in ROWS if r.kind == 'pending')} pending, {len(errors)} failures")
    return 1 if errors else 0


def provenances(name: str) -> list[dict]:
    """The provenance records of a page's data: its folder's (and its <part>_provenance.json, a part made by a
    separate command), or, for a page whose parts are made by separate commands (one subfolder each, e.g.
    live-vs-replay's studies), each subfolder's."""
    prov = prov_mod.read(RESULTS / name)
    folder = RESULTS / name
    if prov is not None:   # and a part made by another command (haml's paper_scale_provenance.json)
        parts = sorted(folder.glob("*_" + prov_mod.FILE))
        return [prov] + [p for p in (prov_mod.read(folder, f.name) for f in parts) if p is not None]
    subs = sorted(d for d in folder.iterdir() if d.is_dir()) if folder.is_dir() else []
    return [p for p in (prov_mod.read(d) for d in subs) if p is not None]


def data_commit(name: str) -> tuple[str | None, str]:
    """(commit the page's data was made at (the oldest, if its parts were made apart), where that was read from)."""
    provs = [p for p in provenances(name) if p.get("commit")]
    if provs:
        if len(provs) == 1:
            return provs[0]["commit"], "provenance.json"
        behind = lambda c: int(prov_mod.git(ROOT, "rev-list", "--count", f"{c}..HEAD") or 0)  # noqa: E731
        oldest = max((p["commit"] for p in provs), key=behind)
        return oldest, f"the oldest of {len(provs)} provenance.json"
    md = RESULTS / f"{name}.md"
    m = re.search(r"(?:source tree: commit |ssdvp \S*\+)([0-9a-f]{7,40})", md.read_text()) if md.exists() else None
    if m:
        full = prov_mod.git(ROOT, "rev-parse", "--verify", "--quiet", m.group(1) + "^{commit}")
        return full or m.group(1), "the page's provenance text"
    last = prov_mod.git(ROOT, "log", "-1", "--format=%H", "--", f"docs/results/{name}.md")
    return last, "no provenance: the last commit of the page itself"


def status() -> int:
    reg = rows()
    print(f"{'page':24s} {'kind':8s} {'data commit':12s} {'behind':>6s}  code changed since (of its dependencies)")
    for name in sorted(p.stem for p in RESULTS.glob("*.md")):
        row = reg.get(name)
        if row is None:
            print(f"{name:24s} {'?':8s} not registered in scripts/results_pages.py")
            continue
        commit, src = data_commit(name)
        if row.kind == "script" and not row.deps[1:]:
            print(f"{name:24s} {row.kind:8s} {'-':12s} {'':>6s}  render only: no simulation data")
            continue
        if not commit:
            print(f"{name:24s} {row.kind:8s} {'?':12s} {'':>6s}  ({src})")
            continue
        behind = prov_mod.git(ROOT, "rev-list", "--count", f"{commit}..HEAD") or "?"
        changed = prov_mod.git(ROOT, "diff", "--name-only", commit, "HEAD", "--", *row.deps) if row.deps else ""
        files = [f for f in (changed or "").splitlines() if f]
        what = "no" if not files else f"yes, {len(files)} files ({', '.join(sorted({f.split('/')[0] for f in files}))})"
        flag = "" if src.endswith("provenance.json") else f" [commit from {src}]"
        print(f"{name:24s} {row.kind:8s} {commit[:12]:12s} {behind:>6s}  {what}{flag}")
    return 0


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    p = sub.add_parser("check", help="the page test: every page registered, rendered whole from its data, links exist")
    p.add_argument("--out", help="keep the rendered pages here (default: a temporary directory)")
    p.add_argument("pages", nargs="*")
    sub.add_parser("status", help="each page, its data's commit, whether code it depends on changed since")
    p = sub.add_parser("render", help="re-render pages (explore and script kinds) from their committed data")
    p.add_argument("pages", nargs="*")
    p = sub.add_parser("list", help="tab-separated: name, kind, regenerate command, quick command, cost")
    p.add_argument("--machine", action="store_true", help="fields separated by US (0x1f), empty fields kept")
    a = ap.parse_args(argv)
    if a.cmd == "check":
        return check(Path(a.out) if a.out else None, a.pages or None)
    if a.cmd == "status":
        return status()
    if a.cmd == "render":
        for r in ROWS:
            if (not a.pages or r.name in a.pages) and r.kind in ("explore", "script"):
                print(f"render: {render_into(r, RESULTS, RESULTS)}", file=sys.stderr)
        return 0
    for r in ROWS:
        print(("\x1f" if a.machine else "\t").join([r.name, r.kind, r.regenerate, r.quick, recorded_cost(r)]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
