"""Shared by the result-page scripts (dftl.py, flows_experiment.py, flash_features.py):
run one ssdvp point and read its summary back."""
import argparse
import json
import os
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def ssdvp_run(build, config, out, name, sets, quiet=False):
    """The command line of one point: `ssdvp run -c config -o out/name --set s ...` (paths from the root)."""
    cmd = [os.path.join(build, "platform", "ssdvp"), "run"] + (["-q"] if quiet else [])
    cmd += ["-c", config, "-o", os.path.join("out", out, name)]
    for s in sets:
        cmd += ["--set", s]
    return cmd


def run_point(cmd, name):
    """Runs cmd (an ssdvp command line) from the repository root; exits naming the point if it fails."""
    env = dict(os.environ, SYSTEMC_DISABLE_COPYRIGHT_MESSAGE="1")
    r = subprocess.run(cmd, cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if r.returncode != 0:
        sys.exit(f"{name}: exit {r.returncode}\n{r.stdout[-3000:]}")
    print(f"{name}: done", flush=True)


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


def run_all(jobs, todo, fn):
    """fn(point) for every point of todo, jobs at a time."""
    with ThreadPoolExecutor(max_workers=jobs) as ex:
        list(ex.map(fn, todo))


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
