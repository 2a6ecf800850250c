#!/usr/bin/env python3
"""gc-detector.py - the seed's OS-level GC detector on the file-level host: runs the
experiment, keeps what docs/results/gc-detector.md needs as committed data and
writes the page from it.

    python3 scripts/gc-detector.py [BUILD_DIR] [--jobs N] [--samples 3000] [--seeds 1,2,3]   runs everything
    python3 scripts/gc-detector.py --render DATA_DIR [--page OUT_MD]   runs nothing: the page from committed data

For each GC trigger (`threshold`: GC whenever free blocks are below 16, the
firmware's default; `watermarks`: GC in episodes from 16 up to 64 free blocks,
as drives collect in bursts; `watermarks-paced`: the same with the fio job
paced under GC's capacity, so that GC pauses between episodes):
1. Labelled runs for training: the fio job (seed 11) under the oracle TRIM
   policy and (seed 12) under none, host.iostat.enable writing iostat.csv.
2. `ssdvp_c45 train` on them (class: gc_frac >= 0.5, bandwidth columns
   dropped as in the seed), and again without the rolling-deviation
   attributes (the ablation); the tree is printed on the page.
3. Held-out runs: the fio job with another seed (21) and Filebench's
   fileserver and varmail personalities (seed 21): precision,
   recall and F1 of both trees against the trivial classifiers (always GC,
   never GC, the best one-attribute threshold on the training runs).
4. The experiment: configs/gcdet.yaml (fio, sustained) once per TRIM policy
   none, idle, detector, oracle, discard and workload seed: bandwidth per
   100 ms sample, samples under 89 % of the idle policy's mean (the seed's 400
   of 449 MB/s), mean bandwidth, WAF, erases, p99 write latency, each as a
   mean over the seeds with its 95 % interval; plots like the seed's Figs. 5-6.

The runs write out/gc-detector/<name>/. The committed data, in
docs/results/gc-detector/: results.csv (one row per policy run: its figures,
the trigger's threshold and its wall time), classifiers.csv (per held-out run:
F1 of the tree, the ablation, the one-attribute threshold and always-GC),
runs.csv (every run: its command and wall time), settings.json (the run's
samples, seeds and jobs, and per trigger its extra settings and one-attribute
classifier), tree*.txt (the trees, which the detector runs load) and
train*.txt (`ssdvp_c45 train`'s output, printed on the page), series*.csv
(per trigger, the first seed's bandwidth and GC label per second of simulated
time: the mean, least and greatest of its ten 100 ms samples, for the
figures) and provenance.json. Every statement on the page is computed from
these files.
"""
from __future__ import annotations

import concurrent.futures as cf
import csv
import json
import math
import os
import re
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "explore"))
sys.path.insert(0, os.path.join(ROOT, "scripts"))
from ssdvp_explore.stats import fmt_ci, mean_ci as ci  # noqa: E402
from runpoint import data_args, pyplot, read_results, save_png_svg, write_lines, write_provenance, write_results  # noqa: E402

PAGE = "gc-detector"
COMMAND = "python3 scripts/gc-detector.py"
PER_S = 10  # 100 ms samples per second of the figures' series
POLICIES = ["none", "idle", "detector", "oracle", "discard"]
TRIGGERS = {"threshold": [], "watermarks": ["ftl.gc.trigger=watermarks", "ftl.gc.high_blocks=64"],
            # the same job paced (open loop, 40 loops a second), under the drive's GC capacity: GC in episodes
            "watermarks-paced": ["ftl.gc.trigger=watermarks", "ftl.gc.high_blocks=64", "host.mode=open",
                                 "host.files.rate=40"]}
THRESH_FRACTION = 400.0 / 449.0  # the seed: 400 MB/s of a 449 MB/s mean
HELD_OUT = {
    "fio_s21": ["host.files.seed=21"],
    "fileserver_s21": ["host.files.seed=21", "host.files.personality=fileserver", "host.files.nfiles=4000"],
    "varmail_s21": ["host.files.seed=21", "host.files.personality=varmail"],
}  # (not webserver: its log file grows without bound and fills the file system within seconds at this rate)
DROP = ["time_s", "predicted", "trim_bytes", "rkB/s", "wkB/s"]  # ssdvp_c45's default drops


def run(bin_dir, name, sets, out_root):
    out = os.path.join(out_root, name)
    cmd = [os.path.join(bin_dir, "platform", "ssdvp"), "run", "-c", os.path.join(ROOT, "configs", "gcdet.yaml"),
           "-o", out, "--quiet"]
    for s in sets:
        cmd += ["--set", s]
    t0 = time.time()
    p = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True)
    if p.returncode != 0:
        sys.exit(f"run {name} failed ({p.returncode}): {' '.join(cmd)}\n{p.stderr}")
    with open(os.path.join(out, "summary.json")) as f:
        summ = json.load(f)
    return name, out, summ, time.time() - t0, " ".join(cmd[1:]).replace(ROOT + "/", "")


def read_csv(path):
    with open(path) as f:
        return list(csv.DictReader(f))


def c45(bin_dir, args):
    p = subprocess.run([os.path.join(bin_dir, "platform", "ssdvp_c45")] + args, cwd=ROOT, capture_output=True,
                       text=True)
    if p.returncode != 0:
        sys.exit(f"ssdvp_c45 {' '.join(args)} failed:\n{p.stderr}")
    return p.stdout


def eval_f1(text):
    """{csv path: (rows, precision, recall, F1)} from `ssdvp_c45 eval`'s lines."""
    out = {}
    for m in re.finditer(r"^(\S+): rows (\d+) tp \d+ fp \d+ tn \d+ fn \d+ precision ([\d.]+) recall ([\d.]+) "
                         r"F1 ([\d.]+)$", text, re.M):
        out[m.group(1)] = (int(m.group(2)), float(m.group(3)), float(m.group(4)), float(m.group(5)))
    return out


def f1_of(pred, label):
    tp = sum(1 for p, y in zip(pred, label) if p and y)
    fp = sum(1 for p, y in zip(pred, label) if p and not y)
    fn = sum(1 for p, y in zip(pred, label) if not p and y)
    return 2 * tp / (2 * tp + fp + fn) if tp else 0.0


def stump(train_rows):
    """The best one-attribute threshold classifier on the training rows (by F1): (attribute, threshold, above)."""
    label = [float(r["gc_frac"]) >= 0.5 for r in train_rows]
    attrs = [a for a in train_rows[0] if a not in DROP and a != "gc_frac"]
    best = (0.0, None, 0.0, True)
    for a in attrs:
        vals = [float(r[a]) for r in train_rows]
        for t in sorted(set(vals)):
            for above in (True, False):
                f = f1_of([(v > t) if above else (v <= t) for v in vals], label)
                if f > best[0]:
                    best = (f, a, t, above)
    return best[1], best[2], best[3]


def classifier_scores(rows, st):
    label = [float(r["gc_frac"]) >= 0.5 for r in rows]
    p = sum(label) / len(label) if label else 0.0
    a, t, above = st
    pred = [(float(r[a]) > t) if above else (float(r[a]) <= t) for r in rows]
    return dict(share=p, always=(2 * p / (1 + p) if p else 0.0), never=0.0, stump=f1_of(pred, label))


def experiment(a, bin_dir, out_root, res_dir, trig, extra):
    """One trigger's runs; its trees, train*.txt and series*.csv written to res_dir. Returns (policy rows,
    classifier rows, run rows, the trigger's settings)."""
    sfx = suffix(trig)
    tl = lambda n: f"host.time_limit={n / 10:g}s"  # 100 ms samples
    lab = {
        f"train_fio_oracle_s11{sfx}": ["host.files.seed=11", "host.trim.policy=oracle", tl(a.train_samples)],
        f"train_fio_none_s12{sfx}": ["host.files.seed=12", "host.trim.policy=none", tl(a.train_samples)],
    }
    for k, v in HELD_OUT.items():
        lab[f"test_{k}{sfx}"] = v + ["host.trim.policy=oracle", tl(a.train_samples)]
    runs = {}
    with cf.ThreadPoolExecutor(a.jobs) as ex:
        for name, out, summ, wall, cmd in ex.map(lambda kv: run(bin_dir, kv[0], kv[1] + extra, out_root), lab.items()):
            runs[name] = (out, summ, wall, cmd)
    tree = os.path.join(res_dir, f"tree{sfx.replace('_', '-')}.txt")
    tree_nodev = os.path.join(res_dir, f"tree{sfx.replace('_', '-')}-no-deviations.txt")
    train = [os.path.join(runs[n][0], "iostat.csv") for n in lab if n.startswith("train")]
    test = {n: os.path.join(runs[n][0], "iostat.csv") for n in lab if n.startswith("test")}
    train_out = c45(bin_dir, ["train", "-o", tree] + train)
    with open(os.path.join(res_dir, f"train{sfx.replace('_', '-')}.txt"), "w") as f:
        f.write(train_out.strip() + "\n")
    hdr = read_csv(train[0])[0].keys()
    devs = [h for h in hdr if h.endswith("_avgdev")]
    c45(bin_dir, ["train", "-o", tree_nodev, "--drop", ",".join(DROP + devs)] + train)
    ev = eval_f1(c45(bin_dir, ["eval", tree] + list(test.values())))
    ev_nodev = eval_f1(c45(bin_dir, ["eval", tree_nodev] + list(test.values())))
    st = stump([r for f in train for r in read_csv(f)])
    clf = []
    for n, path in test.items():
        rows = read_csv(path)
        clf.append(dict(trigger=trig, run=n.removeprefix("test_").removesuffix(sfx), rows=len(rows),
                        **classifier_scores(rows, st), tree=ev.get(path, (0, 0, 0, float("nan")))[3],
                        nodev=ev_nodev.get(path, (0, 0, 0, float("nan")))[3]))

    seeds = [int(s) for s in a.seeds.split(",")]
    pol = {}
    for p in POLICIES:
        for s in seeds:
            pol[f"policy_{p}_s{s}{sfx}"] = [f"host.files.seed={s}", f"host.trim.policy={p}", tl(a.samples)] + \
                ([f"host.detector.tree={os.path.relpath(tree, ROOT)}"] if p == "detector" else [])
    with cf.ThreadPoolExecutor(a.jobs) as ex:
        for name, out, summ, wall, cmd in ex.map(lambda kv: run(bin_dir, kv[0], kv[1] + extra, out_root), pol.items()):
            runs[name] = (out, summ, wall, cmd)
    per = []
    series = {}
    for p in POLICIES:
        for s in seeds:
            out, summ, wall, cmd = runs[f"policy_{p}_s{s}{sfx}"]
            ts = read_csv(os.path.join(out, "timeseries.csv"))
            io = read_csv(os.path.join(out, "iostat.csv"))
            bw = [float(r["write_mbps"]) for r in ts][: a.samples]
            gc = [float(r["gc_frac"]) for r in io][: a.samples]
            if s == seeds[0]:
                series[p] = (bw, gc)
            det = None
            if p == "detector":
                y = [float(r["gc_frac"]) >= 0.5 for r in io]
                det = f1_of([int(r["predicted"]) == 1 for r in io], y)
            per.append(dict(trigger=trig, policy=p, seed=s, n=len(bw), mean=sum(bw) / len(bw), bw=bw,
                            waf=summ["ftl"]["waf"], erases=summ["ftl"]["erases"],
                            p99=summ["latency_us"]["write"]["p99"] / 1000.0, gc=sum(gc) / len(gc),
                            labelled=sum(1 for g in gc if g >= 0.5) / len(gc),
                            episodes=summ["ftl"].get("gc_schedule", {}).get("episodes", float("nan")),
                            batches=summ["trim"]["batches"], trim_gb=summ["trim"]["files"]["trimmed_bytes"] / 1e9,
                            det_f1=det, wall_s=round(wall, 1)))
    thr = THRESH_FRACTION * ci([r["mean"] for r in per if r["policy"] == "idle"])[0]
    for r in per:
        r["under"] = sum(1 for v in r.pop("bw") if v < thr)
        r["thr"] = thr
    write_results(os.path.join(res_dir, f"series{sfx.replace('_', '-')}.csv"), per_second(series))
    run_rows = [dict(trigger=trig, name=n, wall_s=round(runs[n][2], 1), command=runs[n][3])
                for n in list(lab) + list(pol)]
    return per, clf, run_rows, dict(extra=extra, stump=list(st))


def suffix(trig):
    return "" if trig == "threshold" else "_" + trig


def per_second(series):
    """Rows of the figures' series: per second (PER_S samples), each policy's bandwidth (mean, least, greatest of
    its samples) and GC label (mean), rounded to what a figure shows."""
    n = max(len(bw) for bw, _ in series.values())
    rows = []
    for i in range(0, n, PER_S):
        r = {"t_s": i // PER_S}
        for p, (bw, gc) in series.items():
            b, g = bw[i:i + PER_S], gc[i:i + PER_S]
            r.update({f"{p}.mbps": round(sum(b) / len(b), 1) if b else None,
                      f"{p}.mbps_min": round(min(b), 1) if b else None, f"{p}.mbps_max": round(max(b), 1) if b else None,
                      f"{p}.gc": round(sum(g) / len(g), 2) if g else None})
        rows.append(r)
    return rows


def plot(rows, per, thr, figs, trig, sfx):
    """The trigger's figure, one panel per policy, from its series rows; False without matplotlib."""
    plt = pyplot()
    if plt is None:
        return False
    # the SVG draws the filled areas as a bitmap (at the figure's dpi, 72) and the lines as vectors: a third of
    # the size of an all-vector SVG
    fig, axes = plt.subplots(len(POLICIES), 1, figsize=(9, 1.75 * len(POLICIES)), sharex=True, sharey=True, dpi=72)
    top = max(r[f"{p}.mbps_max"] for r in rows for p in POLICIES if r[f"{p}.mbps_max"] is not None)
    for ax, p in zip(axes, POLICIES):
        pr = [r for r in rows if r[f"{p}.mbps"] is not None]
        x = [r["t_s"] for r in pr] + [pr[-1]["t_s"] + 1]
        edge = lambda k: [r[k] for r in pr] + [pr[-1][k]]  # noqa: E731  (steps drawn to the last second's end)
        ax.fill_between(x, 0, [g * top for g in edge(f"{p}.gc")], color="#f2c6c6", step="post", lw=0,
                        label="GC active (label)", rasterized=True)
        ax.fill_between(x, edge(f"{p}.mbps_min"), edge(f"{p}.mbps_max"), color="#9db5de", step="post", lw=0,
                        label="write bandwidth, its 100 ms samples' range", rasterized=True)
        ax.step(x, edge(f"{p}.mbps"), where="post", lw=0.7, color="#1f4e9e", label="write bandwidth, mean")
        ax.axhline(thr, color="k", lw=0.8, ls="--", label=f"threshold {thr:.0f} MB/s")
        ax.set_ylabel("MB/s")
        first = per[p][0]
        ax.set_title(f"GC trigger {trig}, TRIM policy {p}, first seed: mean {first['mean']:.0f} MB/s, "
                     f"{first['under']} samples under threshold", fontsize=9)
    axes[0].legend(loc="upper right", fontsize=7, ncol=4)
    axes[-1].set_xlabel("simulated time (s; the seed's samples were seconds, ours are 100 ms)")
    fig.tight_layout()
    with plt.rc_context({"svg.fonttype": "none"}):  # the SVG's text as text, not as glyph outlines
        save_png_svg(plt, fig, os.path.join(figs, f"bandwidth{sfx.replace('_', '-')}"))
    return True


def run_all(a):
    """Every trigger's runs, kept as data in docs/results/gc-detector/ with the provenance of the build."""
    bin_dir = os.path.join(ROOT, a.build)
    out_root = os.path.join(ROOT, "out", "gc-detector")
    res_dir = os.path.join(ROOT, "docs", "results", PAGE)
    os.makedirs(out_root, exist_ok=True)
    os.makedirs(res_dir, exist_ok=True)
    for f in os.listdir(res_dir):  # nothing stale stays
        os.remove(os.path.join(res_dir, f))
    t_all = time.monotonic()
    per, clf, runs, trig = [], [], [], {}
    for t, extra in TRIGGERS.items():
        p, c, r, s = experiment(a, bin_dir, out_root, res_dir, t, extra)
        per += p
        clf += c
        runs += r
        trig[t] = s
    write_results(os.path.join(res_dir, "results.csv"), per)
    write_results(os.path.join(res_dir, "classifiers.csv"), clf)
    write_results(os.path.join(res_dir, "runs.csv"), runs)
    with open(os.path.join(res_dir, "settings.json"), "w") as f:
        json.dump({"jobs": a.jobs, "samples": a.samples, "train_samples": a.train_samples, "seeds": a.seeds,
                   "triggers": trig}, f, indent=1, sort_keys=True)
        f.write("\n")
    write_provenance(os.path.join(bin_dir, "platform", "ssdvp"), COMMAND, res_dir, time.monotonic() - t_all)
    return res_dir


def load(data):
    """What the page needs, from the data folder: (settings, per trigger: its results)."""
    with open(os.path.join(data, "settings.json")) as f:
        st = json.load(f)
    per = read_results(os.path.join(data, "results.csv"))
    clf = read_results(os.path.join(data, "classifiers.csv"))
    runs = read_results(os.path.join(data, "runs.csv"))
    res = []
    for trig, t in st["triggers"].items():
        sfx = suffix(trig)
        with open(os.path.join(data, f"train{sfx.replace('_', '-')}.txt")) as f:
            train_out = f.read()
        mine = [r for r in per if r["trigger"] == trig]
        res.append(dict(trig=trig, extra=t["extra"], stump=tuple(t["stump"]), train_out=train_out, sfx=sfx,
                        per={p: [r for r in mine if r["policy"] == p] for p in POLICIES}, thr=mine[0]["thr"],
                        clf={c["run"]: c for c in clf if c["trigger"] == trig},
                        runs=[r for r in runs if r["trigger"] == trig],
                        series=read_results(os.path.join(data, f"series{sfx.replace('_', '-')}.csv"))))
    return st, res


def main():
    ap = data_args(__doc__, PAGE)
    ap.add_argument("--samples", type=int, default=3000, help="samples (of 100 ms) per policy run")
    ap.add_argument("--train-samples", type=int, default=1000)
    ap.add_argument("--seeds", default="1,2,3", help="workload seeds of the policy runs")
    a = ap.parse_args()
    data = a.render or run_all(a)
    st, res = load(data)
    page = os.path.abspath(a.page)
    figs = os.path.join(os.path.dirname(page), PAGE)
    for r in res:
        r["figure"] = plot(r["series"], r["per"], r["thr"], figs, r["trig"], r["sfx"])
    with open(os.path.join(data, "provenance.json")) as f:
        wall_all = json.load(f).get("wall_s") or 0.0
    write_lines(page, page_lines(st, res, wall_all), data, COMMAND)


def rng(vals, f="{:.3f}"):
    vals = [v for v in vals if v == v]
    if not vals:
        return "n/a"
    lo, hi = f.format(min(vals)), f.format(max(vals))
    return lo if lo == hi else f"{lo}-{hi}"


def page_lines(st, res, wall_all):
    """The page's lines (its provenance section is write_lines')."""
    L = ["# GC detector: TRIM when the host sees garbage collection\n",
         "Generated by `python3 scripts/gc-detector.py` (about "
         f"{wall_all / 60:.0f} min on this machine with `--jobs {st['jobs']}`); do not edit by hand.\n",
         "The seed (an OS-level GC detector: C4.5 on iostat features, TRIM when GC is detected) claims that an OS "
         "which cannot see inside the drive can learn when it collects garbage from what `iostat` shows each "
         "second, and that sending its pending TRIMs at that moment cuts the seconds of degraded bandwidth: 137 to "
         "66 seconds under 400 MB/s in 3000 s, mean bandwidth 449 to 462 MB/s, against the OS's automatic TRIM "
         "(which a never-idle load starves). Its drive shows GC as episodes: two bandwidth drops in 3000 s.\n",
         "## Setup and scale\n",
         "- Drive: `configs/gcdet.yaml`, 4 channels x 2 dies, 1 GiB of flash, 896 MiB exported, greedy GC, aged by "
         "a full sequential fill (so the file system's free space holds stale data). Two GC triggers "
         "([firmware/gc.md](../firmware/gc.md)): `threshold` (the firmware's default: GC whenever free blocks are "
         "below 16, one victim at a time, so under a sustained load it never stops) and `watermarks` (GC in "
         "episodes: it starts below 16 free blocks and collects up to 64, then pauses; drives collect in such "
         "bursts, and the seed's drive shows them); and `watermarks-paced`, the same with the fio job paced to 40 "
         "loops a second, open loop (`host.mode: open`, `host.files.rate: 40`), under what GC can keep up with, so "
         "that GC pauses between episodes (flat out it never does: the drive cannot get ahead of the writes).\n"
         "- Host: the file-level host (`workload.source: files`, docs/models/host_files.md), the seed's fio job: 8 "
         "files filling 80 % of the namespace, 512 KiB random overwrites at queue depth 32, no idle time; each file "
         "is replaced (a new one laid out, then the old one deleted) after its size in writes, so deleted extents "
         "become pending discards. The free space at the start also counts as pending (never trimmed).\n"
         f"- Scale: the seed's 3000 one-second samples become {st['samples']} samples of 100 ms (`host.iostat.interval`, "
         f"`stats.interval`); each policy run is {st['samples'] / 10:g} s of simulated time, once per workload seed "
         f"({st['seeds']}); a cell `m ± h` is the mean over the seeds and the half-width of its 95 % interval (Student's "
         "t). One sample carries some 10 to 50 requests of 512 KiB where the seed's second carried some 900; the "
         "seed does not give its drive's capacity, so the drive is not scaled to it.\n"
         f"- Threshold: {THRESH_FRACTION * 100:.0f} % of the `idle` policy's mean bandwidth under the same trigger "
         "(the seed's 400 of 449 MB/s, its automatic-TRIM baseline).\n"]
    for r in res:
        L += section(st, r)
    L += summary(res)
    L += ["## Reproduce\n", f"```sh\nbash scripts/build.sh && {COMMAND} --jobs {st['jobs']}\n```\n",
          "Each run's exact command (outputs in `out/gc-detector/<name>/`):\n", "| run | wall s | command |",
          "|---|---:|---|"]
    for r in res:
        for run in r["runs"]:
            L.append(f"| {run['name']} | {run['wall_s']:.0f} | `{run['command']}` |")
    L.append("")
    return L


# A held-out run is scored only with at least this many samples of each class: with fewer (fileserver and
# varmail under `threshold` have one GC sample in 1,000) every classifier's F1 is about 0 and says nothing.
MIN_CLASS = 20


def judge(c):
    """A held-out run's comparison: None if it has fewer than MIN_CLASS samples of either class, else (margin,
    half, beats): the tree's F1 less the better trivial classifier's, twice the two F1s' combined standard
    error, and whether the margin exceeds it. The standard error is a rough one, sqrt(F1 (1 - F1) / GC
    samples) per classifier, unpaired; consecutive samples are correlated, so it understates the spread."""
    pos = round(c["share"] * c["rows"])
    if pos < MIN_CLASS or c["rows"] - pos < MIN_CLASS:
        return None
    best = max(c["always"], c["stump"])
    half = 2 * math.sqrt((c["tree"] * (1 - c["tree"]) + best * (1 - best)) / pos)
    margin = c["tree"] - best
    return margin, half, margin > half


def beats_line(clf):
    """(beaten, scored, text): how many held-out runs the tree beats the trivial classifiers on, of those with
    both classes, and the sentence that says so run by run."""
    judged = {n: judge(c) for n, c in clf.items()}
    scored = {n: j for n, j in judged.items() if j}
    few = [n for n, j in judged.items() if not j]
    beaten = [n for n, j in scored.items() if j[2]]
    parts = [f"{n} {j[0]:+.3f} ± {j[1]:.3f}" for n, j in scored.items()]
    text = (f"The tree beats both the always-GC and the one-threshold classifier on {len(beaten)} of {len(scored)} "
            f"held-out runs with at least {MIN_CLASS} samples of each class")
    text += f" (its F1 less the better one's, ± twice their standard error: {'; '.join(parts)})" if parts else ""
    text += (f"; {', '.join(few)} {'has' if len(few) == 1 else 'have'} fewer GC or idle samples than that: "
             "nothing to score" if few else "")
    return len(beaten), len(scored), text + "."


def section(st, r):
    trig, per, thr, sfx, clf = r["trig"], r["per"], r["thr"], r["sfx"].replace("_", "-"), r["clf"]
    col = lambda p, k: [x[k] for x in per[p]]
    L = [f"## GC trigger `{trig}`\n", "### The detector\n",
         "Training (offline): `ssdvp_c45 train` on the iostat series of two labelled runs of the fio job (seed 11 "
         "under the oracle policy, seed 12 under none). Label: GC active at least half of the sample "
         "(`gc_frac >= 0.5`, from the firmware's DBG_GC register). Attributes: the 17 `iostat -x` fields and their "
         "average deviation over the last 50 samples, less rkB/s and wkB/s (the seed dropped bandwidth; their "
         f"deviations stay). C4.5 with minimum leaf 2 and pruning at CF 0.25 (`gc-detector/tree{sfx}.txt`):\n",
         "```\n" + r["train_out"].strip() + "\n```\n",
         "Held out: the fio job with another seed, and Filebench's fileserver (4,000 files) and varmail "
         "personalities, each 100 s under the oracle TRIM policy (not webserver: its log file grows without bound "
         "and fills the file system within seconds at this rate). F1 of the class gc for the tree, the tree trained "
         f"without the deviation attributes (`tree{sfx}-no-deviations.txt`, the ablation), the best one-attribute "
         f"threshold on the training runs (`{r['stump'][0]} {'>' if r['stump'][2] else '<='} {r['stump'][1]:g}`), "
         "and the trivial classifiers (always GC; never GC scores 0); the oracle scores 1 by definition.\n",
         "| held-out run | samples | labelled GC | tree | tree without deviations | one threshold | always GC |",
         "|---|---:|---:|---:|---:|---:|---:|"]
    for n, c in clf.items():
        L.append(f"| {n} | {c['rows']} | {100 * c['share']:.0f} % | "
                 f"{c['tree']:.3f} | {c['nodev']:.3f} | {c['stump']:.3f} | {c['always']:.3f} |")
    L += ["", beats_line(clf)[2] + " The standard error is a rough one (each F1's binomial error over the run's "
          "GC samples, unpaired; consecutive samples are correlated, so it understates the spread). Inside the "
          f"detector's own policy runs its F1 is {fmt_ci(col('detector', 'det_f1'), '.3f')}.\n",
          "### Bandwidth per TRIM policy\n",
          f"Threshold **{thr:.1f} MB/s**. Seeds {st['seeds']}.\n",
          "| policy | mean MB/s | samples under threshold | WAF | erases | p99 write latency ms | GC active | samples "
          "labelled GC | GC episodes | policy triggers | trimmed GB |",
          "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for p in POLICIES:
        L.append(f"| {p} | {fmt_ci(col(p, 'mean'))} | {fmt_ci(col(p, 'under'))} of {per[p][0]['n']} | "
                 f"{fmt_ci(col(p, 'waf'), '.3f')} | {fmt_ci(col(p, 'erases'), '.0f')} | {fmt_ci(col(p, 'p99'))} | "
                 f"{fmt_ci([100 * x for x in col(p, 'gc')], '.0f')} % | "
                 f"{fmt_ci([100 * x for x in col(p, 'labelled')], '.0f')} % | {fmt_ci(col(p, 'episodes'), '.0f')} | "
                 f"{fmt_ci(col(p, 'batches'), '.0f')} | {fmt_ci(col(p, 'trim_gb'), '.2f')} |")
    L += ["", "GC active: the mean over samples of the fraction of the sample the firmware had a GC victim open. GC "
          "episodes: from a victim opened with none open to the last victim closed (`ftl.gc_schedule`). Policy "
          "triggers: samples after which the policy sent a non-empty batch (`discard` trims at each delete "
          "instead). Per-run rows: `docs/results/gc-detector/results.csv`.\n"]
    if r["figure"]:
        L += [f"![bandwidth per second, one panel per policy, trigger {trig}](gc-detector/bandwidth{sfx}.png)\n",
              f"([SVG](gc-detector/bandwidth{sfx}.svg)) Write bandwidth of the first seed, one panel per policy (the "
              "seed's Figs. 5 and 6 are the `idle` and `detector` panels), per second of simulated time: the line is "
              "the mean of its ten 100 ms samples, the blue band their range (a sample under the threshold shows as "
              "the band reaching below the dashed line); shaded red: the fraction of the second GC was active (the "
              "label), scaled to the panel; dashed: the threshold.\n"]
    return L


def summary(res):
    L = ["## What it shows\n"]
    by = {r["trig"]: r for r in res}
    for t, r in by.items():
        per = r["per"]
        m = lambda p, k: ci([x[k] for x in per[p]])[0]
        d_u, i_u, d_m, i_m = m("detector", "under"), m("idle", "under"), m("detector", "mean"), m("idle", "mean")
        ok = d_u < i_u and d_m > i_m
        if "host.mode=open" in r["extra"]:  # paced: the bandwidth is the offered load; GC's cost shows in latency
            L.append(f"- **`{t}`: paced, so the bandwidth is the offered load** (every policy "
                     f"{rng([m(p, 'mean') for p in POLICIES], '{:.1f}')} MB/s) and samples under the threshold measure "
                     "how evenly writes complete, not GC's cost; GC's cost shows in the write latency: p99 "
                     + ", ".join(f"`{p}` {m(p, 'p99'):.0f} ms" for p in POLICIES) + ", WAF "
                     + ", ".join(f"`{p}` {m(p, 'waf'):.2f}" for p in POLICIES) + f". Under `none`, "
                     f"{100 * m('none', 'labelled'):.0f} % of the samples are labelled GC "
                     f"({m('none', 'episodes'):.0f} GC episodes in {per['none'][0]['n'] / 10:g} s): GC comes and goes.")
            continue
        L.append(f"- **`{t}`: the seed's direction {'holds' if ok else 'does not hold'}**: `detector` "
                 f"{d_u:.0f} samples under the threshold and {d_m:.1f} MB/s mean, `idle` {i_u:.0f} and "
                 f"{i_m:.1f} MB/s (the seed: 137 to 66 s, 449 to 462 MB/s); `idle` sent "
                 f"{m('idle', 'batches'):.0f} batches (the host is never idle), `discard` reached {m('discard', 'mean'):.1f} "
                 f"MB/s and `oracle` {m('oracle', 'mean'):.1f}. Under `none`, {100 * m('none', 'labelled'):.0f} % of "
                 f"the samples are labelled GC ({m('none', 'episodes'):.0f} GC episodes in {per['none'][0]['n'] / 10:g} s).")
    for t, r in by.items():
        scored = [c for c in r["clf"].values() if judge(c)]
        if not scored:
            L.append(f"- **`{t}`, the detector against trivial classifiers**: no held-out run has {MIN_CLASS} samples "
                     "of each class.")
            continue
        L.append(f"- **`{t}`, the detector against trivial classifiers** on the {len(scored)} held-out "
                 f"run{'s' if len(scored) > 1 else ''} with both classes: tree F1 {rng([c['tree'] for c in scored])}, "
                 f"always-GC {rng([c['always'] for c in scored])}, one threshold {rng([c['stump'] for c in scored])}; "
                 f"without the deviation attributes the tree scores {rng([c['nodev'] for c in scored])}.")
    L.append("- The magnitude of the TRIM effect (several times the seed's) comes from the file system's never-trimmed "
             "free space (20 % of the namespace, plus each deleted file) being larger than the drive's own spare "
             "(12.5 %): trimming it more than doubles the spare GC works with. Sweeps of the spare area and of "
             "the drive's fill before the job, GC in watermark episodes, an open-loop replay with idle gaps and "
             "longer runs are made on recorded ext4 file systems: [gc-detector-recorded.md](gc-detector-recorded.md)."
             "\n")
    L += ["## Verdict per claim\n", "| claim (the seed) | here |", "|---|---|"]
    for t, r in by.items():
        per = r["per"]
        m = lambda p, k: ci([x[k] for x in per[p]])[0]

        def below(k, per=per):
            """The detector's whole 95 % interval (over the seeds) under automatic TRIM's."""
            (dm, dh), (im, ih) = (ci([x[k] for x in per[p]]) for p in ("detector", "idle"))
            return dm + dh < im - ih
        if "host.mode=open" in r["extra"]:
            ok = below("p99") and m("detector", "p99") < 0.8 * m("idle", "p99")
            L.append(f"| `{t}`: detector-driven TRIM cuts GC's cost against automatic TRIM (paced: judged on p99 "
                     f"write latency) | {'reproduced' if ok else 'not reproduced'}"
                     f": {m('idle', 'p99'):.0f} to {m('detector', 'p99'):.0f} ms; but `discard` (TRIM at delete, no "
                     f"detector) gets {m('discard', 'p99'):.0f} ms |")
        else:
            L.append(f"| `{t}`: detector-driven TRIM cuts the seconds under the threshold against automatic TRIM | "
                     f"{'reproduced' if below('under') else 'not reproduced'}: "
                     f"{m('idle', 'under'):.0f} to {m('detector', 'under'):.0f} samples; but `discard` (TRIM at delete, "
                     f"no detector) gets {m('discard', 'under'):.0f} |")
        clf = r["clf"]
        beaten, scored, _ = beats_line(clf)
        # Reproduced needs the tree ahead on every run with both classes and at least two such runs: one run
        # that the tree wins by about its standard error is a partial result.
        verdict = ("cannot be judged" if not scored else "reproduced" if beaten == scored >= 2 else
                   "partly" if beaten else "not reproduced")
        L.append(f"| `{t}`: iostat features identify GC | {verdict}: the tree beats the trivial classifiers by more "
                 f"than twice the standard error on {beaten} of the {scored} held-out runs with both classes "
                 f"(of {len(clf)}) |")
    L.append("")
    return L


if __name__ == "__main__":
    main()
