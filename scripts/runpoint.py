"""Shared by the result-page scripts (dftl.py, flows_experiment.py, flash_features.py):
run one ssdvp point, read its summary back, and keep what a page needs of it as
committed data (results.csv and provenance.json under docs/results/<page>/), so
that the page renders from that data alone (--render DATA_DIR --page OUT_MD)."""
import argparse
import csv
import json
import os
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def _explore_on_path():
    """explore/ on sys.path once (its stats and provenance modules are standard library only), for the helpers
    below that import them when called; it was inserted again on every call before."""
    path = os.path.join(ROOT, "explore")
    if path not in sys.path:
        sys.path.insert(0, path)


# The iss-mode tests' drive and quiet workload (testbench/platform/iss_quiet.yaml, which iss_drive.h
# reads for them): 4,000 uniform requests at 20 per second on a 224 MiB drive; the dftl and reliability
# pages run it.
with open(os.path.join(ROOT, "testbench", "platform", "iss_quiet.yaml")) as _f:
    ISS_QUIET_YAML = _f.read()


def ssdvp_run(build, config, out, name, sets, quiet=False):
    """The command line of one point: `ssdvp run -c config -o out/name --set s ...` (paths from the root)."""
    cmd = [os.path.join(build, "platform", "ssdvp"), "run"] + (["-q"] if quiet else [])
    cmd += ["-c", config, "-o", os.path.join("out", out, name)]
    for s in sets:
        cmd += ["--set", s]
    return cmd


def run_point(cmd, name):
    """Runs cmd (an ssdvp command line) from the repository root; exits naming the point if it fails.
    Returns the run's wall seconds."""
    env = dict(os.environ, SYSTEMC_DISABLE_COPYRIGHT_MESSAGE="1")
    t0 = time.monotonic()
    r = subprocess.run(cmd, cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    wall = time.monotonic() - t0
    if r.returncode != 0:
        sys.exit(f"{name}: exit {r.returncode}\n{r.stdout[-3000:]}")
    print(f"{name}: done ({wall:.1f} s)", flush=True)
    return wall


def run_kept(binary, out_dir, args, reuse=False):
    """`binary run ARGS -o out_dir --quiet` from the repository's root; its summary and the run's wall seconds,
    kept in out_dir/wall_s. With reuse, a run already in out_dir (its summary.json) is taken as it is, with the
    wall time it recorded ("" when it recorded none). Exits naming the command and its stderr if the run fails."""
    summ, wall_file = os.path.join(out_dir, "summary.json"), os.path.join(out_dir, "wall_s")
    if not (reuse and os.path.exists(summ)):
        os.makedirs(out_dir, exist_ok=True)
        cmd = [str(binary), "run", *[str(a) for a in args], "-o", str(out_dir), "--quiet"]
        t0 = time.monotonic()
        p = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True,
                           env=dict(os.environ, SYSTEMC_DISABLE_COPYRIGHT_MESSAGE="1"))
        if p.returncode != 0:
            sys.exit(f"{' '.join(cmd)} failed ({p.returncode}):\n{p.stderr[-2000:]}")
        with open(wall_file, "w") as f:
            f.write(f"{time.monotonic() - t0:.1f}\n")
    with open(summ) as f:
        s = json.load(f)
    try:
        with open(wall_file) as f:
            wall = float(f.read().split()[0])
    except (OSError, ValueError, IndexError):
        wall = ""
    return s, wall


def set_args(sets):
    """--set KEY=VALUE arguments of a dict of settings, in its order."""
    return [x for k, v in sets.items() for x in ("--set", f"{k}={v}")]


def load_summary(out, name):
    """The point's summary.json under out/name, or None if it has not run."""
    path = os.path.join(out, name, "summary.json")
    if not os.path.exists(path):
        return None
    with open(path) as f:
        return json.load(f)


def page_args(page_only_help="rebuild the page from the runs found"):
    """The arguments every result-page script takes: BUILD_DIR, --jobs, --page-only (add more before parsing)."""
    ap = argparse.ArgumentParser()
    ap.add_argument("build")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--page-only", action="store_true", help=page_only_help)
    return ap


def data_args(doc, page):
    """The arguments of a script whose page renders from committed data: BUILD_DIR (default build), --jobs,
    --render DATA_DIR (run nothing), --page OUT_MD (default docs/results/<page>.md)."""
    ap = argparse.ArgumentParser(description=doc, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("build", nargs="?", default="build", help="the build directory (default: build)")
    ap.add_argument("--jobs", type=int, default=1, help="runs at a time (default 1)")
    ap.add_argument("--render", metavar="DATA_DIR",
                    help=f"run nothing: render the page from this folder's data (docs/results/{page} is the committed one)")
    ap.add_argument("--page", default=os.path.join(ROOT, "docs", "results", f"{page}.md"),
                    help="the page to write; its figures go to the folder named after it beside it")
    return ap


def page_rows(a, page, command, run_all_points):
    """(rows, data folder) of a page rendered from committed data: with a.render, that folder's results.csv;
    else every point run (run_all_points(build dir, jobs) -> rows) and kept in docs/results/<page>/ with the
    provenance of the build that made them."""
    if a.render:
        data = a.render
    else:
        data = os.path.join(ROOT, "docs", "results", page)
        t0 = time.monotonic()
        build = os.path.join(ROOT, a.build)
        rows = run_all_points(build, a.jobs)
        write_results(os.path.join(data, "results.csv"), rows)
        write_provenance(os.path.join(build, "platform", "ssdvp"), command, data, time.monotonic() - t0)
    return read_results(os.path.join(data, "results.csv")), data


def write_lines(page_path, lines, data, command):
    """The page: its lines, then the provenance section of data's provenance.json."""
    lines = lines + [provenance_text(data, command).rstrip("\n")]
    os.makedirs(os.path.dirname(page_path), exist_ok=True)
    with open(page_path, "w") as f:
        f.write("\n".join(lines) + "\n")
    print("wrote", page_path, file=sys.stderr)


def runs_block(cmds):
    """A page's list of its runs' command lines (lists of arguments), from the repository's root."""
    return ["The runs (from the repository's root):", "", "```sh", *[" ".join(c) for c in cmds], "```", ""]


def figure_lines(drawn, figs_rel, stem, alt):
    """A page's figure (PNG, with a link to the SVG) when it was drawn."""
    return [f"![{alt}]({figs_rel}/{stem}.png)", "", f"([SVG]({figs_rel}/{stem}.svg))", ""] if drawn else []


def flatten(j, prefix=""):
    """The scalar fields of a summary (nested dicts) with dotted names; lists are left out."""
    out = {}
    for k, v in j.items():
        if isinstance(v, dict):
            out.update(flatten(v, f"{prefix}{k}."))
        elif v is None or isinstance(v, (bool, int, float, str)):
            out[f"{prefix}{k}"] = v
    return out


def pick(summary, keep):
    """The scalar fields of summary (flattened) named by keep: exact names or prefixes ending in '.'."""
    f = flatten(summary)
    return {k: v for k, v in f.items() if any(k == p or (p.endswith(".") and k.startswith(p)) for p in keep)}


def write_results(path, rows):
    """rows (dicts) as a CSV, the columns in order of first appearance (a row without one leaves it empty)."""
    cols = []
    for r in rows:
        cols += [k for k in r if k not in cols]
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=cols, lineterminator="\n")
        w.writeheader()
        w.writerows(rows)


def read_results(path):
    """The rows of a CSV write_results wrote: numbers as numbers, True/False as bools, empty cells as None."""
    def num(v):
        if v == "":
            return None
        if v in ("True", "False"):
            return v == "True"
        for t in (int, float):
            try:
                return t(v)
            except ValueError:
                pass
        return v
    with open(path, newline="") as f:
        return [{k: num(v) for k, v in r.items()} for r in csv.DictReader(f)]


def write_provenance(binary, command, data_dir, wall_s):
    """data_dir/provenance.json: the commit and binary that made the data (scripts/provenance.py)."""
    sys.path.insert(0, os.path.join(ROOT, "scripts"))
    from provenance import provenance_section
    provenance_section(binary, command, data_dir=data_dir, wall_s=wall_s)


def provenance_text(data_dir, command):
    """The page's provenance section, from data_dir/provenance.json."""
    _explore_on_path()
    from ssdvp_explore import provenance as prov_mod  # standard library only
    return prov_mod.section(prov_mod.read(data_dir), command)


def load_of(data_dir):
    """'load average A / B / C on N CPUs' as provenance.json records it, or 'load not recorded'."""
    p = os.path.join(data_dir, "provenance.json")
    try:
        with open(p) as f:
            prov = json.load(f)
        a, b, c = prov["load"]
        return f"load average {a:g} / {b:g} / {c:g} on {prov.get('cpus') or '?'} CPUs, {prov['date'][:10]}"
    except (OSError, ValueError, KeyError, TypeError):
        return "load not recorded"


def run_all(jobs, todo, fn):
    """fn(point) for every point of todo, jobs at a time."""
    with ThreadPoolExecutor(max_workers=jobs) as ex:
        list(ex.map(fn, todo))


def run_rows(jobs, todo, row_of):
    """row_of(point) for every point of todo, jobs at a time: the rows in todo's order."""
    with ThreadPoolExecutor(max_workers=jobs) as ex:
        return list(ex.map(row_of, todo))


def seed_arg(ap, default=3, what="the workloads' and preconditioning's seeds"):
    """--seeds N on a data_args() parser: runs per point, seeds 1..N of `what`."""
    ap.add_argument("--seeds", type=int, default=default, help=f"runs per point: seeds 1..N of {what} (default "
                    f"{default})")
    return ap


def by_point(rows, key="name"):
    """{row[key]: the point}: a row of each field's mean over the point's runs (its seeds; a field that is not a
    number in every run keeps the first run's value), with the runs themselves, in seed order, under "runs". A row
    without a seed column is seed 1."""
    groups = {}
    for r in rows:
        groups.setdefault(r[key], []).append(r)
    out = {}
    for k, rs in groups.items():
        rs = sorted(rs, key=lambda r: r.get("seed") or 1)
        p = {f: (sum(r[f] for r in rs) / len(rs) if all(isinstance(r.get(f), (int, float)) and
                                                       not isinstance(r.get(f), bool) for r in rs)
                 and len({r[f] for r in rs}) > 1 else rs[0].get(f))   # a setting the runs share stays as it is
             for f in rs[0]}
        p["runs"] = rs
        out[k] = p
    return out


def cell(point, field, spec=",.1f"):
    """A point's field as a table prints it: the mean ± the half-width of its 95 % t interval over the runs (the
    mean alone for one run; '-' when no run has it)."""
    _explore_on_path()
    from ssdvp_explore.stats import fmt_ci  # standard library only
    return fmt_ci([r[field] for r in point.get("runs", [point]) if r.get(field) is not None], spec) or "-"


def half_width(point, field):
    """The half-width of the 95 % t interval of a point's field over its runs (0 for one run), for error bars."""
    _explore_on_path()
    from ssdvp_explore.stats import mean_ci  # standard library only
    return mean_ci([r[field] for r in point.get("runs", [point]) if r.get(field) is not None])[1]


def per_seed(point, key):
    """{seed: the run's key} of a by_point() point (a row without a seed column is seed 1; runs without key left
    out)."""
    return {r.get("seed") or 1: r[key] for r in point.get("runs", [point]) if r.get(key) is not None}


def each(new, base, fn):
    """fn(new's run, base's run) for every seed both points ran."""
    b = {r.get("seed") or 1: r for r in base.get("runs", [base])}
    return [fn(r, b[r.get("seed") or 1]) for r in new.get("runs", [new]) if (r.get("seed") or 1) in b]


def change(new, base, key, spec="+.1f"):
    """new's key against base's (by_point() points), paired by seed: the mean of the per-seed changes ± the
    half-width of their 95 % t interval, 'm ± h %' ('m %' for one run), 'xN' past ten times, 'n/a' when no seed
    has both."""
    _explore_on_path()
    from ssdvp_explore.stats import fmt_ci, paired_change  # standard library only
    v = paired_change(per_seed(new, key), per_seed(base, key))
    if not v:
        return "n/a"
    m = sum(v) / len(v)
    return f"x{1 + m / 100:.0f}" if m >= 900 else fmt_ci(v, spec) + " %"


def seeds_line(points):
    """'One point is N runs (seeds 1 to N) ...' or the single-run sentence, for a page's regenerate paragraph."""
    n = sorted({len(p.get("runs", [p])) for p in points})
    s = sorted({r.get("seed") or 1 for p in points for r in p.get("runs", [p])})
    if n == [1]:
        return "One point is one run with the workloads' default seeds: single runs, without intervals."
    return (f"One point is {n[0] if len(n) == 1 else f'{n[0]} to {n[-1]}'} runs (seeds {s[0]} to {s[-1]}); each "
            "figure is their mean ± the half-width of its 95 % t interval.")


def flow_named(summary, name):
    """The summary's flow (flows.<i>.name) called name."""
    return next(f for f in summary["flows"]["flows"] if f["name"] == name)


def write_page(template, page, text, key="{{TABLE}}"):
    """The page: template with key replaced by text."""
    with open(template) as f:
        body = f.read()
    with open(page, "w") as f:
        f.write(body.replace(key, text))
    print("wrote", page)


def pyplot():
    """matplotlib's pyplot on the Agg backend, or None (and a note) when matplotlib is missing."""
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("matplotlib missing: no plot", file=sys.stderr)
        return None
    return plt


def save_figure(plt, fig, path):
    """Writes fig to path (its folder made) and closes it."""
    fig.tight_layout()
    os.makedirs(os.path.dirname(path), exist_ok=True)
    fig.savefig(path, dpi=90)
    plt.close(fig)


def save_png_svg(plt, fig, stem):
    """Writes fig as stem.png and stem.svg (no dates in them, so a re-render writes the same files) and closes it."""
    import matplotlib
    matplotlib.rcParams["svg.hashsalt"] = "ssdvp"
    os.makedirs(os.path.dirname(stem), exist_ok=True)
    fig.savefig(stem + ".png", dpi=90, bbox_inches="tight", metadata={"Software": None})
    fig.savefig(stem + ".svg", bbox_inches="tight", metadata={"Date": None})
    plt.close(fig)
