#!/usr/bin/env python3
"""gc-detector.py - regenerate docs/results/gc-detector.md.

    python3 scripts/gc-detector.py [--build-dir build] [--jobs 1] [--samples 3000]

1. Labelled runs for training: the fio job (seed 11) under the oracle TRIM
   policy and (seed 12) under none, host.iostat.enable writing iostat.csv.
2. `ssdvp_c45 train` on them (class: gc_frac >= 0.5, bandwidth columns
   dropped as in the seed); the tree is printed on the page.
3. Held-out runs: the fio job with another seed (21) and the fileserver
   personality (seed 21): precision, recall and F1 of the tree.
4. The experiment: configs/gcdet.yaml (fio, sustained, seed 1) once per TRIM
   policy none, idle, detector, oracle, discard; bandwidth per sample, samples
   under 89 % of the idle policy's mean (the seed's 400 of 449 MB/s), mean
   bandwidth, WAF, erases, p99 write latency; plots like the seed's Figs. 5-6.
Outputs: out/gc-detector/ (runs), docs/results/gc-detector/ (plots, tree,
table), docs/results/gc-detector.md.
"""
from __future__ import annotations

import argparse
import concurrent.futures as cf
import csv
import json
import os
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
POLICIES = ["none", "idle", "detector", "oracle", "discard"]
THRESH_FRACTION = 400.0 / 449.0  # the seed: 400 MB/s of a 449 MB/s mean


def run(bin_dir, name, sets, out_root):
    out = os.path.join(out_root, name)
    cmd = [os.path.join(bin_dir, "platform", "ssdvp"), "run", "-c", os.path.join(ROOT, "configs", "gcdet.yaml"),
           "-o", out, "--quiet"]
    for s in list(sets) + ["ftl.write.at_floor=pass"]:  # the page ran under pass, the default before room
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
    p = subprocess.run([os.path.join(bin_dir, "platform", "ssdvp_c45")] + args, cwd=ROOT, capture_output=True, text=True)
    if p.returncode != 0:
        sys.exit(f"ssdvp_c45 {' '.join(args)} failed:\n{p.stderr}")
    return p.stdout


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build-dir", default=os.path.join(ROOT, "build"))
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--samples", type=int, default=3000, help="samples (of 100 ms) per policy run")
    ap.add_argument("--train-samples", type=int, default=1000)
    a = ap.parse_args()
    bin_dir = os.path.abspath(a.build_dir)
    out_root = os.path.join(ROOT, "out", "gc-detector")
    res_dir = os.path.join(ROOT, "docs", "results", "gc-detector")
    os.makedirs(out_root, exist_ok=True)
    os.makedirs(res_dir, exist_ok=True)
    t_all = time.time()
    tl = lambda n: f"host.time_limit={n / 10:g}s"  # 100 ms samples

    # 1-3: training and held-out runs
    lab = {
        "train_fio_oracle_s11": ["host.files.seed=11", "host.trim.policy=oracle", tl(a.train_samples)],
        "train_fio_none_s12": ["host.files.seed=12", "host.trim.policy=none", tl(a.train_samples)],
        "test_fio_oracle_s21": ["host.files.seed=21", "host.trim.policy=oracle", tl(a.train_samples)],
        "test_fileserver_oracle_s21": ["host.files.seed=21", "host.trim.policy=oracle", "host.files.personality=fileserver",
                                       "host.files.nfiles=4000", tl(a.train_samples)],
    }
    runs = {}
    with cf.ThreadPoolExecutor(a.jobs) as ex:
        for name, out, summ, wall, cmd in ex.map(lambda kv: run(bin_dir, kv[0], kv[1], out_root), lab.items()):
            runs[name] = (out, summ, wall, cmd)
    tree = os.path.join(res_dir, "tree.txt")
    train_csvs = [os.path.join(runs[n][0], "iostat.csv") for n in lab if n.startswith("train")]
    train_out = c45(bin_dir, ["train", "-o", tree] + train_csvs)
    test_csvs = [os.path.join(runs[n][0], "iostat.csv") for n in lab if n.startswith("test")]
    eval_out = c45(bin_dir, ["eval", tree] + test_csvs)

    # 4: the policies
    pol = {p: ["host.files.seed=1", f"host.trim.policy={p}", tl(a.samples)] +
              ([f"host.detector.tree={os.path.relpath(tree, ROOT)}"] if p == "detector" else []) for p in POLICIES}
    with cf.ThreadPoolExecutor(a.jobs) as ex:
        for name, out, summ, wall, cmd in ex.map(lambda kv: run(bin_dir, "policy_" + kv[0], kv[1], out_root), pol.items()):
            runs[name] = (out, summ, wall, cmd)
    series, rows = {}, {}
    for p in POLICIES:
        out, summ, wall, cmd = runs["policy_" + p]
        ts = read_csv(os.path.join(out, "timeseries.csv"))
        io = read_csv(os.path.join(out, "iostat.csv"))
        bw = [float(r["write_mbps"]) for r in ts][: a.samples]
        gc = [float(r["gc_frac"]) for r in io][: a.samples]
        series[p] = (bw, gc, io)
        rows[p] = dict(mean=sum(bw) / len(bw), waf=summ["ftl"]["waf"], erases=summ["ftl"]["erases"],
                       p99=summ["latency_us"]["write"]["p99"] / 1000.0, gc=sum(gc) / len(gc),
                       trim_gb=summ["trim"]["files"]["trimmed_bytes"] / 1e9, batches=summ["trim"]["batches"],
                       wall=wall, cmd=cmd, n=len(bw))
    thr = THRESH_FRACTION * rows["idle"]["mean"]
    for p in POLICIES:
        rows[p]["under"] = sum(1 for v in series[p][0] if v < thr)
    # the detector inside its own run: prediction against the label
    det_io = series["detector"][2]
    tp = sum(1 for r in det_io if int(r["predicted"]) == 1 and float(r["gc_frac"]) >= 0.5)
    fp = sum(1 for r in det_io if int(r["predicted"]) == 1 and float(r["gc_frac"]) < 0.5)
    fn = sum(1 for r in det_io if int(r["predicted"]) != 1 and float(r["gc_frac"]) >= 0.5)
    tn = len(det_io) - tp - fp - fn
    prec = tp / (tp + fp) if tp + fp else 0
    rec = tp / (tp + fn) if tp + fn else 0
    f1 = 2 * prec * rec / (prec + rec) if prec + rec else 0

    with open(os.path.join(res_dir, "table.csv"), "w") as f:
        w = csv.writer(f)
        w.writerow(["policy", "samples", "mean_mbps", "samples_under_threshold", "threshold_mbps", "waf", "erases",
                    "p99_write_ms", "gc_active_fraction", "trim_batches", "trimmed_gb"])
        for p in POLICIES:
            r = rows[p]
            w.writerow([p, r["n"], f"{r['mean']:.1f}", r["under"], f"{thr:.1f}", f"{r['waf']:.3f}", r["erases"],
                        f"{r['p99']:.1f}", f"{r['gc']:.3f}", r["batches"], f"{r['trim_gb']:.2f}"])

    plots = plot(series, thr, res_dir, a.samples)
    write_page(a, rows, thr, train_out, eval_out, (tp, fp, tn, fn, prec, rec, f1), runs, lab, plots, time.time() - t_all)


def plot(series, thr, res_dir, n):
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("matplotlib missing: no plots (apt-get install python3-matplotlib)", file=sys.stderr)
        return False
    fig, axes = plt.subplots(len(POLICIES), 1, figsize=(10, 2.1 * len(POLICIES)), sharex=True, sharey=True)
    for ax, p in zip(axes, POLICIES):
        bw, gc, _ = series[p]
        x = [i + 1 for i in range(len(bw))]
        ax.fill_between(x, 0, [g * max(bw) for g in gc], color="#f2c6c6", step="pre", lw=0, label="GC active (label)")
        ax.plot(x, bw, lw=0.6, color="#1f4e9e", label="write bandwidth")
        ax.axhline(thr, color="k", lw=0.8, ls="--", label=f"threshold {thr:.0f} MB/s")
        ax.set_ylabel("MB/s")
        mean = sum(bw) / len(bw)
        ax.set_title(f"TRIM policy {p}: mean {mean:.0f} MB/s, {sum(1 for v in bw if v < thr)} samples under threshold",
                     fontsize=9)
    axes[0].legend(loc="upper right", fontsize=7, ncol=3)
    axes[-1].set_xlabel("sample (100 ms of simulated time; the seed's seconds)")
    fig.tight_layout()
    for ext in ("png", "svg"):
        fig.savefig(os.path.join(res_dir, f"bandwidth.{ext}"), dpi=110)
    plt.close(fig)
    return True


def write_page(a, rows, thr, train_out, eval_out, det, runs, lab, plots, wall_all):
    tp, fp, tn, fn, prec, rec, f1 = det
    L = []
    L.append("# GC detector: TRIM when the host sees garbage collection\n")
    L.append("Generated by `python3 scripts/gc-detector.py` (about "
             f"{wall_all / 60:.0f} min on this machine with `--jobs {a.jobs}`); do not edit by hand.\n")
    L.append("The seed (an OS-level GC detector: C4.5 on iostat features, TRIM when GC is detected) claims that "
             "an OS which cannot see inside the drive can learn when it collects garbage from what `iostat` shows "
             "each second, and that sending its pending TRIMs at that moment cuts the seconds of degraded bandwidth: "
             "137 to 66 seconds under 400 MB/s in 3000 s, mean bandwidth 449 to 462 MB/s.\n")
    L.append("## Setup and scale\n")
    L.append("- Drive: `configs/gcdet.yaml`, 4 channels x 2 dies, 1 GiB of flash, 896 MiB exported, greedy GC below "
             "16 free blocks, aged by a full sequential fill (so the file system's free space holds stale data).\n"
             "- Host: the file-level host (`workload.source: files`, docs/models/host_files.md), the seed's fio job: "
             "8 files filling 80 % of the namespace, 512 KiB random overwrites at queue depth 32, no idle time; each "
             "file is replaced (a new one laid out, then the old one deleted) after its size in writes, so deleted "
             "extents become pending discards. The free space at the start also counts as pending (never trimmed).\n"
             f"- Scale: the seed's 3000 one-second samples become {a.samples} samples of 100 ms "
             f"(`host.iostat.interval`, `stats.interval`); each policy run is {a.samples / 10:g} s of simulated time "
             "(each run's wall time is in the table at the end). One sample carries some 10 to 50 requests of 512 KiB where "
             "the seed's second carried some 900 (449 MB/s); the seed does not give its drive's capacity, so "
             "the drive is not scaled to it.\n"
             f"- Threshold: {THRESH_FRACTION * 100:.0f} % of the `idle` policy's mean bandwidth (the seed's 400 of "
             f"449 MB/s, its automatic-TRIM baseline) = **{thr:.1f} MB/s**.\n")
    L.append("## The detector\n")
    L.append("Training (offline): `ssdvp_c45 train` on the iostat series of two labelled runs of the fio job "
             "(seed 11 under the oracle policy, so GC comes and goes; seed 12 under none, so it never stops). "
             "Label: GC active at least half of the sample (`gc_frac >= 0.5`, read from the firmware's DBG_GC "
             "register). Attributes: the 17 `iostat -x` fields and their average deviation over the last 50 "
             "samples, less rkB/s and wkB/s (the seed dropped bandwidth; their deviations stay). C4.5 with "
             "minimum leaf 2 and pruning at CF 0.25. The tree:\n")
    L.append("```\n" + train_out.strip() + "\n```\n")
    L.append("Held out (a different seed, and a different workload: Filebench's fileserver with 4000 files), "
             "`ssdvp_c45 eval` (precision, recall and F1 of the class gc):\n")
    L.append("```\n" + eval_out.strip().replace(ROOT + "/", "") + "\n```\n")
    L.append(f"Inside the detector's own policy run (seed 1): tp {tp}, fp {fp}, tn {tn}, fn {fn}: precision "
             f"{prec:.3f}, recall {rec:.3f}, F1 {f1:.3f}. Classification runs once per sample inside the simulation "
             "and is charged `host.detector.cpu_cost` (2 us of simulated host time, above the measured cost: "
             "docs/performance.md) before its TRIMs are queued.\n")
    L.append("## Bandwidth per TRIM policy\n")
    L.append("| policy | mean MB/s | samples under threshold | WAF | erases | p99 write latency ms | GC active | policy triggers | trimmed GB |")
    L.append("|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    for p in POLICIES:
        r = rows[p]
        L.append(f"| {p} | {r['mean']:.1f} | {r['under']} of {r['n']} | {r['waf']:.3f} | {r['erases']} | {r['p99']:.1f} | "
                 f"{r['gc'] * 100:.0f} % | {r['batches']} | {r['trim_gb']:.2f} |")
    L.append("")
    L.append("GC active: the mean over samples of the fraction of the sample the firmware had a GC victim open. "
             "Policy triggers: samples after which the policy sent a non-empty batch (`discard` trims at each "
             "delete instead). Trimmed GB: all discards sent, including the initially free space. "
             "Table: `docs/results/gc-detector/table.csv`.\n")
    if plots:
        L.append("![bandwidth per sample, one panel per policy](gc-detector/bandwidth.svg)\n")
        L.append("Bandwidth per 100 ms sample, one panel per policy (the seed's Figs. 5 and 6 are the `idle` and "
                 "`detector` panels); shaded: the fraction of the sample GC was active (the label), scaled to the "
                 "panel; dashed: the threshold.\n")
    d, i, o, n, dc = rows["detector"], rows["idle"], rows["oracle"], rows["none"], rows["discard"]
    L.append("## What it shows\n")
    if d["under"] < i["under"] and d["mean"] > i["mean"]:
        L.append(f"- **The seed's direction holds**: `detector` has fewer samples under the threshold than `idle` "
                 f"({d['under']} against {i['under']} of {d['n']}) and a higher mean bandwidth ({d['mean']:.1f} against "
                 f"{i['mean']:.1f} MB/s), with WAF {d['waf']:.3f} against {i['waf']:.3f} and p99 write latency "
                 f"{d['p99']:.0f} against {i['p99']:.0f} ms.")
    else:
        L.append(f"- **The seed's direction does not hold here**: `detector` {d['under']} samples under the threshold, "
                 f"mean {d['mean']:.1f} MB/s; `idle` {i['under']}, {i['mean']:.1f} MB/s.")
    L.append(f"- `idle` never fires under a sustained load (the host is never idle: {i['batches']} triggers), so it "
             f"is `none` ({n['mean']:.1f} MB/s, WAF {n['waf']:.3f}): the seed's observation that automatic TRIM "
             f"does not help a drive that never sees downtime. GC is then active {n['gc'] * 100:.0f} % of the "
             "time and keeps copying the stale contents of the file system's free space.")
    L.append("- The effect is far larger than the seed's (137 to 66 seconds, +3 % mean bandwidth): here the "
             "file system's never-trimmed free space (20 % of the namespace, plus each deleted file) is larger "
             "than the drive's own spare area (12.5 %), so trimming it more than doubles the spare GC works with. "
             "The seed's drive and file system are not described well enough to match that ratio; the page "
             "does not try to.")
    spread = max(d["mean"], o["mean"], dc["mean"]) / min(d["mean"], o["mean"], dc["mean"]) - 1
    L.append(f"- `detector`, `oracle` (TRIM exactly when the firmware collects) and `discard` (TRIM at delete) "
             f"end within {spread * 100:.1f} % of each other in mean bandwidth ({d['mean']:.1f}, {o['mean']:.1f}, "
             f"{dc['mean']:.1f} MB/s). With TRIM, GC is still active {o['gc'] * 100:.0f} % of the time (the drive "
             "writes flat out and collects cheap, nearly empty victims), so a sample labelled GC follows almost "
             "every file replacement and \"TRIM when GC runs\" sends each deleted file's extents within a sample "
             "or so of `discard`. At this scale TRIM timing makes no measurable difference; what matters is that "
             "the discards are sent at all.")
    L.append(f"- Detector errors: inside its own run the tree misses {fn} of {tp + fn} GC samples and fires on {fp} "
             f"of {fp + tn} quiet ones, and each miss only delays a batch to the next positive sample, so it "
             f"reaches {100 * d['mean'] / o['mean']:.1f} % of the oracle's mean bandwidth. On the held-out fio run "
             "(another seed) it scores as well, but on the fileserver personality it finds none of the few GC "
             "samples: the tree's main attribute is w/s, which for fixed 512 KiB requests carries exactly the "
             "bandwidth the seed meant to leave out, and its thresholds do not transfer to a workload of small "
             "files. A detector for mixed workloads would need training data from them (or request-size-free "
             "attributes only).\n")
    L.append("## Reproduce\n")
    L.append("```sh\nbash scripts/build.sh && python3 scripts/gc-detector.py --jobs 2\n```\n")
    L.append("Every run sets `ftl.write.at_floor: pass` (the script does; the commands below show it), the default before it became `room`: the figures ran under it and have not been regenerated under `room`.\n")
    L.append("Each run's exact command (outputs in `out/gc-detector/<name>/`):\n")
    L.append("| run | wall s | command |")
    L.append("|---|---:|---|")
    for name in list(lab) + ["policy_" + p for p in POLICIES]:
        _, _, wall, cmd = runs[name]
        L.append(f"| {name} | {wall:.0f} | `{cmd}` |")
    L.append("")
    sys.path.insert(0, os.path.join(ROOT, "scripts"))
    from provenance import provenance_section
    L.append(provenance_section(os.path.join(os.path.abspath(a.build_dir), "platform", "ssdvp"), "python3 scripts/gc-detector.py --jobs 2",
                                data_dir=os.path.join(ROOT, "docs", "results", "gc-detector"), wall_s=wall_all))
    with open(os.path.join(ROOT, "docs", "results", "gc-detector.md"), "w") as f:
        f.write("\n".join(L) + "\n")
    print("wrote docs/results/gc-detector.md")


if __name__ == "__main__":
    main()
