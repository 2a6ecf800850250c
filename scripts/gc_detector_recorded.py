#!/usr/bin/env python3
"""gc_detector_recorded.py - the GC detector's TRIM policies on recorded file systems:
regenerates docs/results/gc-detector-recorded.md and its data (gc-detector-recorded/).

    python3 scripts/gc_detector_recorded.py [--bin build/platform/ssdvp] [--jobs 2] [--seeds 1,2,3] [--long]
    python3 scripts/gc_detector_recorded.py --render docs/results/gc-detector-recorded

docs/results/gc-detector.md runs the seed's study on the file-level host, whose
file system is ours. Here the file systems are real: recordings of ext4 in the
Linux guest mounted with `discard` (traces/workloads/, made by
scripts/workloads/record.sh with WL_DISCARD=1; fio-randwrite-512k mounts it
itself), so every delete reached the drive as a discard. Each replay holds the
trace's discards (`workload.trace_discards: hold`) and a TRIM policy decides
when the host sends them: `send` (as recorded: what the `discard` mount
option does), `none` (never), `idle` (after host.trim.idle_time with %util 0),
`detector` (when the C4.5 tree classifies the last 100 ms iostat sample as
GC), `oracle` (when the firmware's GC label says so). Replays are closed loop
at the recording's queue depth with its flush ordering (`host.mode: closed`,
`workload.flush_order: true`), as the seed's sustained fio job runs, so the
policies are judged by bandwidth as the seed judges them, and by WAF and write
latency. Each point: three drive histories (`precondition.seed`, after a
sequential fill and one drive-write of random overwrites), mean and 95 %
interval. Every arm samples iostat (`send` too: the sampler only reads
counters), so every run's per-sample bandwidth is known.

The tree is trained on the training recordings' `none` and `oracle` runs of
the first seed (the same runs the tables use, run first; iostat.csv, class
gc_frac >= 0.5, ssdvp_c45's default dropped columns). Against it, offline on
every detector run's own samples: always-GC, never-GC, the best single-feature
threshold (feature, direction and threshold chosen on the training samples to
maximise F1) and the tree trained on the same samples without the rolling
deviation columns (*_avgdev). The recordings mounted without `discard`
(NODISCARD) are replayed once more per seed under the detector, only to score
the classifiers, in two drive states: the recording's mkfs discard kept (held
like every trace discard: the detector releases it at its first GC call) and
dropped (a file system made without discard on a used drive, as haml-recorded
replays the databases).

Further studies (extra.csv, `--no-extra` leaves them out): the default arms with
GC in watermark episodes (`ftl.gc.trigger: watermarks`); the training fio
recording open loop at a fifth of its pace, twice with a 5 s gap
(`workload.loop_gap`) so that `idle` has idle time to act in; the same recording
looped closed loop for LONG_S of simulated time (`--long`: 3,000 s, the seed's
length); and a sweep of the drive's fill before the job (`precondition.fill`,
the recording's mkfs discard dropped).

Committed data (docs/results/gc-detector-recorded/): results.csv (per run),
classify.csv (per detector run and classifier: tp, fp, fn, tn), op.csv (the
spare-area sweep: per run), extra/ (the further studies: extra.csv per run, their provenance.json when made by
--extra-only, long-cost.json: the measured wall time of one 3,000 s run), stump.json (the
threshold classifier), tree.txt and tree-noavgdev.txt (the trees as printed),
series/NAME.csv (per-sample bandwidth, GC label and detector call of the
`idle`, `detector` and `send` runs), provenance.json; the figure is drawn from
series/ into the page's folder.
"""
from __future__ import annotations

import argparse
import csv
import json
import os
import re
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "explore"))
from ssdvp_explore import provenance as prov_mod  # noqa: E402  (standard library only)
from ssdvp_explore import workloads as wl_mod  # noqa: E402
from ssdvp_explore.stats import as_float as num, fmt_ci, mean_ci  # noqa: E402

TRAIN = ["fio-randwrite-512k", "filebench-fileserver-discard", "filebench-varmail-discard"]
HELD_OUT = ["postmark-discard"]  # (Filebench webserver deletes nothing: no discards to hold)
# recorded without the discard mount option: no deletes to hold, only the classifier is scored on them
NODISCARD = ["filebench-webserver", "postmark", "rocksdb-1g", "mariadb-oltp"]
LEADS = {"held": "send", "dropped": "drop"}  # a NODISCARD replay's mkfs discard -> workload.leading_discards
ARMS = ["send", "none", "idle", "detector", "oracle"]
SERIES_ARMS = ["idle", "detector", "send"]
FIG_WLS = ["fio-randwrite-512k", "postmark-discard"]  # the figure: one training, the held-out recording
# the spare-area sweep: the training fio recording at three namespace sizes on the same flash (the recording
# spans 4 GiB of LBAs, so the namespace can only grow: the space above it is filled by the preconditioning and
# never trimmed, which takes it from the spare area)
OP_WL = "fio-randwrite-512k"
OP_NS = ["4GiB", "4352MiB", "4480MiB"]  # the first is the recording's drive (configs/workloads.yaml)
OP_ARMS = ["idle", "detector", "send"]
OP_COLS = ["namespace", "spare_pct", "arm", "seed", "bandwidth_mbps", "waf", "write_p99_us", "thr_mbps", "under",
           "samples", "wall_s"]
# The further studies (extra.csv), each arm per precondition.seed: (study, recordings, variants, arms), a variant
# (label, --set overrides). Time under the threshold is counted against half the median of `send`'s samples in the
# same study, recording and variant.
LONG_S = 300  # the long runs' simulated length (--long: 3000, the seed's)
OPEN = ["host.mode=open", "workload.time_scale=5", "workload.loops=2", "workload.loop_gap=5s"]
USED = ["workload.leading_discards=drop"]  # the file system made without discard on the used drive
FILLS = [0.25, 0.5, 1.0]


def studies(long_s=LONG_S):
    return [("watermarks", TRAIN + HELD_OUT, [("watermarks", ["ftl.gc.trigger=watermarks"])],
             ["send", "idle", "detector"]),
            ("open", [OP_WL], [("open, x5, 2 passes, 5 s gap", OPEN)], ["none", "idle", "detector", "send"]),
            ("long", [OP_WL], [(f"{long_s} s", ["workload.loops=0", f"host.time_limit={long_s}s"] + USED)],
             ["idle", "detector", "send"]),
            ("fill", [OP_WL], [(f"fill {f:g}", [f"precondition.fill={f:g}", "precondition.random_drive_writes=0",
                                                "precondition.free_pool=asis"] + USED) for f in FILLS],
             ["idle", "detector", "send"])]


X_COLS = ["study", "workload", "variant", "arm", "seed", "bandwidth_mbps", "waf", "write_p99_us", "write_mean_us",
          "host_trims", "released_bytes", "gc_share", "thr_mbps", "under", "samples", "w_await_late_ms", "sim_s",
          "mismatches", "wall_s"]
IDLE = "200ms"  # host.trim.idle_time: two samples of %util 0
INTERVAL_S = 0.1  # host.iostat.interval
DROP = ["time_s", "predicted", "trim_bytes", "rkB/s", "wkB/s"]  # ssdvp_c45's default dropped columns
CLASSIFIERS = [("c45", "C4.5 tree (the detector)"), ("c45_noavgdev", "C4.5 tree without *_avgdev"),
               ("stump", "best single-feature threshold"), ("always", "always GC"), ("never", "never GC")]
PAPER = {"idle_under_s": 137, "det_under_s": 66, "run_s": 3000, "idle_mbps": 449, "det_mbps": 462, "thr": 400}
CSV_COLS = ["workload", "role", "arm", "seed", "bandwidth_mbps", "waf", "write_p99_us", "write_mean_us",
            "host_trims", "held_bytes", "released_bytes", "pending_bytes_at_end", "samples", "gc_share", "tp", "fp",
            "fn", "mismatches", "sim_s", "wall_s"]
CLS_COLS = ["workload", "role", "seed", "classifier", "tp", "fp", "fn", "tn"]
ROLE_TEXT = {"train": "train", "held_out": "held out", "nodiscard_held": "held out, no discard, mkfs discard held",
             "nodiscard_dropped": "held out, no discard, mkfs discard dropped"}


def common_sets(name: str, seed: int) -> tuple[str, list[str]]:
    prov = wl_mod.provenance(ROOT, name)
    sets = [f"{k}={v}" for k, v in wl_mod.overrides(ROOT, name).items()]
    sets += ["host.mode=closed", f"host.queue_depth={max(1, int(prov['queue_depth']))}", "workload.flush_order=true",
             "ftl.debug.gc_register=1", f"host.iostat.interval={int(INTERVAL_S * 1000)}ms",
             "precondition.random_drive_writes=1.0", f"precondition.seed={seed}", "log.level=error",
             "host.iostat.enable=true"]
    return os.path.join(ROOT, prov["drive"]["config"]), sets


def run_dir(out, name, arm, seed, lead="", ns=""):
    return os.path.join(out, f"{name}_{arm}{'_' + lead if lead else ''}{'_ns' + ns if ns else ''}_s{seed}")


def run(binary, out, name, arm, seed, lead, ns, tree, extra=(), d=None):
    cfg, sets = common_sets(name, seed)
    if arm == "send":
        sets.append("workload.trace_discards=send")
    else:
        sets += ["workload.trace_discards=hold", f"host.trim.policy={arm}", f"host.trim.idle_time={IDLE}"]
    if arm == "detector":
        sets.append(f"host.detector.tree={tree}")
    if lead:
        sets.append(f"workload.leading_discards={LEADS[lead]}")
    if ns:
        sets.append(f"nvme.namespace_size={ns}")
    sets += list(extra)  # later --set wins
    d = d or run_dir(out, name, arm, seed, lead, ns)
    cmd = [binary, "run", "-c", cfg, "-o", d, "--quiet"] + [x for s in sets for x in ("--set", s)]
    t0 = time.time()
    p = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True)
    if p.returncode != 0:
        sys.exit(f"run {d} failed ({p.returncode}): {' '.join(cmd)}\n{p.stderr}")
    return d, time.time() - t0


def read_iostat(d):
    return list(csv.DictReader(open(os.path.join(d, "iostat.csv"))))


def label(x):
    return float(x["gc_frac"]) >= 0.5


def mbps(x):
    """A sample's bandwidth, read and write, in MB/s (iostat's kB are KiB)."""
    return (float(x["rkB/s"]) + float(x["wkB/s"])) * 1024 / 1e6


def row_of(d, name, role, arm, seed, wall):
    j = json.load(open(os.path.join(d, "summary.json")))
    h, lat, held = j["host"], j["latency_us"]["write"], j.get("trim", {}).get("held", {})
    r = {"workload": name, "role": role, "arm": arm, "seed": seed, "bandwidth_mbps": h["bandwidth_mbps"],
         "waf": j["ftl"]["waf"], "write_p99_us": lat["p99"], "write_mean_us": lat["mean"], "host_trims": h["trims"],
         "held_bytes": held.get("held_bytes", ""), "released_bytes": held.get("released_bytes", ""),
         "pending_bytes_at_end": held.get("pending_bytes_at_end", ""),
         "mismatches": j["integrity"]["mismatches"], "sim_s": h["sim_time_s"], "wall_s": round(wall, 1)}
    if os.path.exists(os.path.join(d, "iostat.csv")):
        rows = read_iostat(d)
        lab = [label(x) for x in rows]
        pred = [x["predicted"] == "1" for x in rows]
        r.update(samples=len(rows), gc_share=round(sum(lab) / len(lab), 4) if rows else "")
        if arm == "detector":
            r.update(tp=sum(p and y for p, y in zip(pred, lab)), fp=sum(p and not y for p, y in zip(pred, lab)),
                     fn=sum(y and not p for p, y in zip(pred, lab)))
    return r


def size_bytes(v):
    m = re.fullmatch(r"([0-9.]+)\s*([KMGT]?)(i?)B?", v.strip())
    if not m:
        raise ValueError(f"not a size: {v}")
    return float(m.group(1)) * (1024 if m.group(3) else 1000) ** " KMGT".index(m.group(2) or " ")


def spare_pct(d):
    """The run's spare area: the share of the flash not exported, from summary.json's config."""
    c = json.load(open(os.path.join(d, "summary.json")))["config"]
    flash = (int(c["flash.channels"]) * int(c["flash.dies_per_channel"]) * int(c["flash.planes_per_die"])
             * int(c["flash.blocks_per_plane"]) * int(c["flash.pages_per_block"]) * size_bytes(c["flash.page_size"]))
    return 100 * (1 - size_bytes(c["nvme.namespace_size"]) / flash), c["nvme.namespace_size"]


def op_rows(done, seeds, wall):
    """op.csv: per spare-area run, bandwidth and samples under half the median of `send`'s samples there."""
    out = []
    for ns in OP_NS:
        key = (lambda arm, s: (OP_WL, arm, s, "", "")) if ns == OP_NS[0] else (lambda arm, s: (OP_WL, arm, s, "", ns))
        if not all(key(a, s) in done for a in OP_ARMS for s in seeds):
            continue
        thr = 0.5 * median([mbps(x) for s in seeds for x in read_iostat(done[key("send", s)][0])])
        for arm in OP_ARMS:
            for s in seeds:
                d = done[key(arm, s)][0]
                j = json.load(open(os.path.join(d, "summary.json")))
                bw = [mbps(x) for x in read_iostat(d)]
                sp, nsz = spare_pct(d)
                out.append(dict(namespace=nsz, spare_pct=round(sp, 2), arm=arm, seed=s,
                                bandwidth_mbps=j["host"]["bandwidth_mbps"], waf=j["ftl"]["waf"],
                                write_p99_us=j["latency_us"]["write"]["p99"], thr_mbps=round(thr, 2),
                                under=sum(v < thr for v in bw), samples=len(bw), wall_s=round(wall[key(arm, s)], 1)))
    return out


def x_dir(out, study, name, vi, arm, seed):
    return os.path.join(out, f"x-{study}{vi}_{name}_{arm}_s{seed}")


def x_rows(xdone, xjobs):
    """extra.csv: per run of the further studies; time under half the median of `send`'s samples of its group."""
    out = []
    groups = list(dict.fromkeys((j[0], j[1], j[2]) for j in xjobs))
    for g in groups:
        js = [j for j in xjobs if j[:3] == g]
        send = [x for j in js if j[4] == "send" for x in read_iostat(xdone[j][0])]
        thr = 0.5 * median([mbps(x) for x in send]) if send else float("nan")
        for j in js:
            d, wall = xdone[j]
            sm = json.load(open(os.path.join(d, "summary.json")))
            rows = read_iostat(d)
            bw = [mbps(x) for x in rows]
            late = rows[len(rows) // 2:]  # the run's second half of samples: w_await weighted by writes
            ws = sum(float(x["w/s"]) for x in late)
            held = sm.get("trim", {}).get("held", {})
            out.append(dict(study=j[0], workload=j[1], variant=j[3], arm=j[4], seed=j[5],
                            bandwidth_mbps=sm["host"]["bandwidth_mbps"], waf=sm["ftl"]["waf"],
                            write_p99_us=sm["latency_us"]["write"]["p99"],
                            write_mean_us=sm["latency_us"]["write"]["mean"], host_trims=sm["host"]["trims"],
                            released_bytes=held.get("released_bytes", ""),
                            gc_share=round(sum(label(x) for x in rows) / len(rows), 4) if rows else "",
                            thr_mbps=round(thr, 2), under=sum(v < thr for v in bw), samples=len(bw),
                            w_await_late_ms=round(sum(float(x["w_await"]) * float(x["w/s"]) for x in late) / ws, 3)
                            if ws else "",
                            sim_s=sm["host"]["sim_time_s"], mismatches=sm["integrity"]["mismatches"],
                            wall_s=round(wall, 1)))
    return out


# ---- the classifiers, offline ----

def features(header):
    return [c for c in header if c not in DROP and c != "gc_frac"]


def best_stump(samples):
    """The single-feature threshold with the best F1 on ``samples`` (iostat rows): (feature, op, threshold, F1),
    op '>' (GC when the feature exceeds the threshold) or '<='. Thresholds are the samples' own values."""
    y = [label(x) for x in samples]
    npos, best = sum(y), None
    for f in features(list(samples[0].keys())):
        pairs = sorted((float(x[f]), t) for x, t in zip(samples, y))
        vals_ = [v for v, _ in pairs]
        cum = [0]
        for _, t in pairs:
            cum.append(cum[-1] + t)
        n = len(pairs)
        i = 0
        while i < n:
            j = i
            while j < n and vals_[j] == vals_[i]:
                j += 1
            # threshold vals_[i]: '<=' takes the first j samples, '>' the rest
            for op, tp, pp in (("<=", cum[j], j), (">", npos - cum[j], n - j)):
                if pp == 0 or pp == n:
                    continue  # a constant classifier (always/never GC is scored on its own)
                f1_ = 2 * tp / (pp + npos)
                if best is None or f1_ > best[3] + 1e-12:
                    best = (f, op, vals_[i], f1_)
            i = j
    return best


def stump_predict(st, x):
    v = float(x[st["feature"]])
    return v > st["threshold"] if st["op"] == ">" else v <= st["threshold"]


def counts(pred, lab):
    return dict(tp=sum(p and y for p, y in zip(pred, lab)), fp=sum(p and not y for p, y in zip(pred, lab)),
                fn=sum(y and not p for p, y in zip(pred, lab)), tn=sum(not p and not y for p, y in zip(pred, lab)))


def c45_eval(c45, tree, path):
    p = subprocess.run([c45, "eval", tree, path], capture_output=True, text=True)
    if p.returncode:
        sys.exit(f"ssdvp_c45 eval {tree} {path} failed:\n{p.stderr}")
    m = re.search(r"tp (\d+) fp (\d+) tn (\d+) fn (\d+)", p.stdout.splitlines()[0])
    return dict(tp=int(m.group(1)), fp=int(m.group(2)), tn=int(m.group(3)), fn=int(m.group(4)))


def classify_rows(c45, trees, st, d, name, role, seed):
    rows = read_iostat(d)
    lab = [label(x) for x in rows]
    out = []
    for key, _ in CLASSIFIERS:
        if key == "c45":  # the calls the detector made online; offline (below) on the CSV's rounded fields
            c = counts([x["predicted"] == "1" for x in rows], lab)
            out.append(dict(workload=name, role=role, seed=seed, classifier="c45_offline",
                            **c45_eval(c45, trees[key], os.path.join(d, "iostat.csv"))))
        elif key in trees:
            c = c45_eval(c45, trees[key], os.path.join(d, "iostat.csv"))
        elif key == "stump":
            c = counts([stump_predict(st, x) for x in rows], lab)
        else:
            c = counts([key == "always"] * len(rows), lab)
        out.append(dict(workload=name, role=role, seed=seed, classifier=key, **c))
    return out


def write_series(d, path, arm, seed, append):
    with open(path, "a" if append else "w", newline="") as f:
        w = csv.writer(f)
        if not append:
            w.writerow(["arm", "seed", "t_s", "mbps", "gc", "called"])
        for x in read_iostat(d):
            w.writerow([arm, seed, x["time_s"].rstrip("0").rstrip("."), f"{mbps(x):.1f}", int(label(x)),
                        int(x["predicted"] == "1")])


def vals(rows, w, arm, key):
    return [num(r[key]) for r in rows if r["workload"] == w and r["arm"] == arm]


def f1(tp, fp, fn):
    return 2 * tp / (2 * tp + fp + fn) if tp else 0.0


def change(rows, w, arm, base, key):
    """Per seed, % change of arm against base: (mean, half-width)."""
    a = {r["seed"]: num(r[key]) for r in rows if r["workload"] == w and r["arm"] == arm}
    b = {r["seed"]: num(r[key]) for r in rows if r["workload"] == w and r["arm"] == base}
    return mean_ci([100 * (a[s] / b[s] - 1) for s in a if s in b and b[s]])


def fmt_pct(m, h):
    return f"{m:+.1f} % ± {h:.1f}"


def scores(c):
    """(precision, recall, F1) of one run's counts; NaN where undefined (nothing called GC / no GC sample)."""
    tp, fp, fn = (int(c[k]) for k in ("tp", "fp", "fn"))
    nan = float("nan")
    return (tp / (tp + fp) if tp + fp else nan, tp / (tp + fn) if tp + fn else nan,
            2 * tp / (2 * tp + fp + fn) if tp + fp + fn else nan)


def cls_groups(cls):
    """[(workload, role)] in page order."""
    seen = []
    for r in cls:
        if (r["workload"], r["role"]) not in seen:
            seen.append((r["workload"], r["role"]))
    order = list(ROLE_TEXT)
    return sorted(seen, key=lambda g: (order.index(g[1]), seen.index(g)))


def cls_metric(cls, w, role, key, k):
    """Per seed, metric k (0 precision, 1 recall, 2 F1) of classifier key."""
    return {r["seed"]: scores(r)[k] for r in cls if r["workload"] == w and r["role"] == role and r["classifier"] == key}


def verdict(m, h, up="better", down="worse"):
    if m != m:
        return "undefined"
    return f"**{up}**" if m - h > 0 else (f"**{down}**" if m + h < 0 else "**not distinguishable**")


def under(series, thr):
    """{(arm, seed): (samples under thr, samples)}."""
    out = {}
    for r in series:
        k = (r["arm"], r["seed"])
        a, n = out.get(k, (0, 0))
        out[k] = (a + (num(r["mbps"]) < thr), n + 1)
    return out


def median(xs):
    v = sorted(xs)
    n = len(v)
    return (v[n // 2] + v[(n - 1) // 2]) / 2 if v else float("nan")


def thresholds(series_by_wl):
    """Per recording: half the median per-sample bandwidth of its `send` runs (all seeds)."""
    return {w: 0.5 * median([num(r["mbps"]) for r in s if r["arm"] == "send"]) for w, s in series_by_wl.items()}


def spans(t, flag):
    """[(start, end)] of the runs of samples with flag set; sample i covers (t[i] - interval, t[i]]."""
    out = []
    for x, f in zip(t, flag):
        if not f:
            continue
        if out and abs(out[-1][1] - (x - INTERVAL_S)) < 1e-9:
            out[-1] = (out[-1][0], x)
        else:
            out.append((x - INTERVAL_S, x))
    return out


def plot(series_by_wl, thr, fig_dir):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.patches import Patch
    from matplotlib.lines import Line2D
    matplotlib.rcParams["svg.hashsalt"] = "ssdvp-gc-detector-recorded"
    wls = [w for w in FIG_WLS if w in series_by_wl]
    if not wls:
        return []
    fig, axes = plt.subplots(len(SERIES_ARMS), len(wls), figsize=(5.2 * len(wls), 1.9 * len(SERIES_ARMS) + 0.9),
                             sharey="col", squeeze=False)
    for c, w in enumerate(wls):
        s = [r for r in series_by_wl[w] if r["seed"] == "1"]
        top = max(num(r["mbps"]) for r in s) * 1.18
        for k, arm in enumerate(SERIES_ARMS):
            ax = axes[k][c]
            a = [r for r in s if r["arm"] == arm]
            t = [num(r["t_s"]) for r in a]
            bw = [num(r["mbps"]) for r in a]
            gc = [r["gc"] == "1" for r in a]
            for lo, hi in spans(t, gc):
                ax.axvspan(lo, hi, color="#f2c6c6", lw=0)
            ax.plot(t, bw, lw=0.7, color="#1f4e9e", drawstyle="steps-pre")
            ax.axhline(thr[w], color="k", lw=0.7, ls="--")
            called = [x for x, r in zip(t, a) if r["called"] == "1"]
            if called:
                ax.plot(called, [top * 0.95] * len(called), "|", color="#c77c00", ms=5, mew=0.8)
            n_under = sum(v < thr[w] for v in bw)
            ax.set_title(f"{w}, {arm}: mean {sum(bw) / len(bw):.0f} MB/s, {n_under * INTERVAL_S:.1f} s "
                         f"of {len(bw) * INTERVAL_S:.1f} s under {thr[w]:.0f}", fontsize=8)
            ax.set_ylim(0, top)
            ax.set_xlim(0, max(t))
            ax.tick_params(labelsize=7)
            if c == 0:
                ax.set_ylabel("MB/s", fontsize=8)
        axes[-1][c].set_xlabel("simulated time (s)", fontsize=8)
    handles = [Line2D([], [], color="#1f4e9e", lw=0.9, label="bandwidth per sample"),
               Patch(color="#f2c6c6", label="GC active >= half the sample (firmware label)"),
               Line2D([], [], color="#c77c00", marker="|", ls="", ms=7, label="detector called GC (detector arm)"),
               Line2D([], [], color="k", lw=0.8, ls="--", label="threshold: half the median of send's samples")]
    fig.legend(handles=handles, loc="lower center", ncol=2, fontsize=7, frameon=False)
    fig.tight_layout(rect=(0, 0.08, 1, 1))
    os.makedirs(fig_dir, exist_ok=True)
    names = []
    for ext in ("svg", "png"):
        fn = f"bandwidth.{ext}"
        fig.savefig(os.path.join(fig_dir, fn), dpi=110, metadata={"Date": None} if ext == "svg" else {"Software": None})
        names.append(fn)
    plt.close(fig)
    return names


def page(rows, cls, st, tree_text, tree2_text, series_by_wl, op, xr, cmd, prov, fig_names, xprov=None, xcost=None):
    wls = [w for w in TRAIN + HELD_OUT if any(r["workload"] == w for r in rows)]
    missing = [w for w in TRAIN + HELD_OUT + NODISCARD if not any(r["workload"] == w for r in rows)]
    seeds = sorted({int(r["seed"]) for r in rows})
    op_extra = [r for r in op if r["namespace"] != op[0]["namespace"]]  # the default namespace's are in rows
    wall = sum(num(r["wall_s"]) for r in rows + op_extra + xr)
    nod = sorted({r["workload"] for r in rows if r["role"].startswith("nodiscard")}, key=NODISCARD.index)
    L = ["# The GC detector's TRIM policies on recorded file systems", "",
         "<!-- generated by scripts/gc_detector_recorded.py; do not edit -->", "",
         f"Regenerate ({len(rows) + len(op_extra) + len(xr)} runs, {wall:,.0f} s of wall time summed, two at a time):", "", "```sh", cmd, "```",
         "", "Render again from the committed data: `python3 scripts/gc_detector_recorded.py --render "
         "docs/results/gc-detector-recorded`.", "",
         "**Setup.** [gc-detector.md](gc-detector.md) runs the seed's study (an iostat-based C4.5 GC detector that "
         "sends the file system's pending TRIMs when it sees GC, against automatic TRIM) on the file-level host, whose "
         "file system is a model. Here the file systems are real: ext4 in the Linux guest on the simulated drive, "
         "mounted with `discard` so every delete reached the drive as a discard, recorded by "
         "`scripts/workloads/record.sh` ([workloads.md](workloads.md)). Each replay holds the trace's discards "
         "(`workload.trace_discards: hold`, [host_files.md](../models/host_files.md)): they become pending, a later "
         "write to a pending LBA takes it back, and the TRIM policy decides when the host sends the rest. Policies: "
         "`send` (as recorded: what `discard` does), `none` (never), `idle` (after "
         f"{IDLE} with %util 0: the seed's automatic TRIM), `detector` (the tree below classifies the last 100 ms "
         "sample as GC), `oracle` (the firmware's GC label says GC ran at least half the sample: the detector's "
         "upper bound). Held discards include mkfs's discard of the whole device, so under `none` the drive never "
         "learns that the file system's free space is free (a drive whose file system never trimmed). Replays run "
         "closed loop at the recording's queue depth with its flush ordering (`host.mode: closed`, "
         "`workload.flush_order: true`) on the drive each was recorded on (its provenance names the config), as the "
         "seed's sustained job runs; the policies are judged by bandwidth as the seed judges them, and by WAF and "
         "p99 write latency. Every run samples iostat every 100 ms (`host.iostat.enable`, `send` too). Every drive "
         "is aged first (a sequential fill and one drive-write of random overwrites) "
         f"with `precondition.seed` {', '.join(str(s) for s in seeds)}: a cell is the mean over those histories "
         "and, after ±, the half-width of its 95 % interval (Student t).", "",
         f"Training recordings: {', '.join(f'`{w}`' for w in TRAIN if w in wls)}; held out: "
         f"{', '.join(f'`{w}`' for w in HELD_OUT if w in wls) or 'none'}"
         + (f"; held out for the classifier only (recorded without `discard`): {', '.join(f'`{w}`' for w in nod)}"
            if nod else "") + "."]
    if missing:
        L += ["", f"Not in this run: {', '.join(f'`{w}`' for w in missing)}."]
    L += ["", "## Bandwidth, WAF and write latency per policy", ""]
    for key, title, fmt in (("bandwidth_mbps", "Bandwidth (MB/s)", ".1f"), ("waf", "WAF", ".3f"),
                            ("write_p99_us", "p99 write latency (us)", ",.0f")):
        L += [f"**{title}**", "", "| recording | role | " + " | ".join(f"`{a}`" for a in ARMS) + " |",
              "|---|---|" + "---|" * len(ARMS)]
        for w in wls:
            role = "train" if w in TRAIN else "held out"
            L.append(f"| `{w}` | {role} | " + " | ".join(fmt_ci(vals(rows, w, a, key), fmt) for a in ARMS) + " |")
        L.append("")
    L += classifier_section(rows, cls, st, tree_text, tree2_text)
    thr = thresholds(series_by_wl)
    L += time_section(rows, series_by_wl, thr, fig_names)
    L += op_section(op)
    L += extra_sections(xr, cmd, xcost)
    L += verdict_section(rows, cls, series_by_wl, thr, wls, op, xr)
    L += ["", prov_mod.section(prov)]
    if xprov:
        L += [prov_mod.section(xprov, heading="## Provenance of the further studies (extra/)")]
    return L


def offline_note(cls):
    """How far the tree's offline calls on the rounded CSV fields are from its online calls."""
    on = {(r["workload"], r["role"], r["seed"]): r for r in cls if r["classifier"] == "c45"}
    off = {(r["workload"], r["role"], r["seed"]): r for r in cls if r["classifier"] == "c45_offline"}
    d = [max(abs(int(on[k][c]) - int(off[k][c])) for c in ("tp", "fp", "fn", "tn")) for k in on if k in off]
    bad = [x for x in d if x]
    return (f"the same tree evaluated on them (`ssdvp_c45 eval`) repeats the online calls in {len(d) - len(bad)} of "
            f"{len(d)} runs{f', and is off by at most {max(bad)} samples in a count in the others' if bad else ''}.")


def classifier_section(rows, cls, st, tree_text, tree2_text):
    groups = cls_groups(cls)
    L = ["## The detector against trivial classifiers", "",
         "Every classifier is scored offline on each `detector` run's own 100 ms samples (label: the firmware's GC "
         "register says GC ran at least half the sample), so all see the same samples. The C4.5 row is the calls "
         "the detector made online; the others are computed from iostat.csv, whose fields are printed to 6 "
         f"significant digits: {offline_note(cls)} Classifiers: "
         "**C4.5** (the detector's tree); **C4.5 w/o avgdev** (the same training samples, the rolling-deviation "
         "columns `*_avgdev` dropped as well: what those columns contribute); **threshold** (the single iostat "
         f"column and threshold with the best F1 on the training samples: `{st['feature']} {st['op']} "
         f"{st['threshold']:g}`, training F1 {st['train_f1']:.3f}, among the {st['n_features']} columns the tree may "
         "use); **always GC**; **never GC** (F1 0, precision undefined). Training samples: the training recordings' "
         f"`none` and `oracle` runs of the first seed ({st['train_samples']:,} samples). A cell is the mean over the "
         "seeds of each run's score, ± its 95 % interval; precision is left out of a mean where a run called "
         "nothing GC.", ""]
    nod = [g for g in groups if g[1].startswith("nodiscard")]
    if nod:
        held = {(r["workload"], r["role"]): r for r in rows if r["arm"] == "detector" and r["seed"] == "1"}
        parts = []
        for g in nod:
            r = held.get(g)
            if r and num(r["held_bytes"]):
                parts.append(f"`{g[0]}` ({'mkfs held' if g[1].endswith('held') else 'mkfs dropped'}) "
                             f"{num(r['held_bytes']) / 2**20:.0f} MiB held, {num(r['released_bytes']) / 2**20:.0f} "
                             "released")
        L += ["The recordings made without `discard` have no deletes to hold; they are replayed under the detector "
              "(`workload.trace_discards: hold`, the tree loaded) only to score the classifiers, in two drive states: "
              "the recording's mkfs discard of the whole device kept (`workload.leading_discards: send`): it is held "
              "like every trace discard, so the drive starts full of stale data and the detector releases it at its "
              "first GC call, as under the discard recordings; and dropped (`drop`: a file system made without "
              "discard on the used drive, as [haml-recorded.md](haml-recorded.md) replays the databases), where only "
              "the few discards the guest sent besides mkfs's are held and the drive collects throughout. Held and "
              "released, seed 1: " + ("; ".join(parts) or "none") + ".", ""]
    L += ["**F1**", "", "| recording | role | samples (all seeds) | GC share | " + " | ".join(t for _, t in CLASSIFIERS) + " |",
          "|---|---|---|---|" + "---|" * len(CLASSIFIERS)]
    for w, role in groups:
        d = [r for r in cls if r["workload"] == w and r["role"] == role and r["classifier"] == "always"]
        n = [int(r["tp"]) + int(r["fp"]) + int(r["fn"]) + int(r["tn"]) for r in d]
        share = [(int(r["tp"]) + int(r["fn"])) / k for r, k in zip(d, n) if k]
        L.append(f"| `{w}` | {ROLE_TEXT[role]} | {sum(n):,} | {fmt_ci(share, '.2f')} | " + " | ".join(
            fmt_ci(list(cls_metric(cls, w, role, k, 2).values()), ".3f") for k, _ in CLASSIFIERS) + " |")
    L += ["", "**Precision / recall**", "", "| recording | role | " + " | ".join(t for _, t in CLASSIFIERS[:3])
          + " |", "|---|---|" + "---|" * 3]
    for w, role in groups:
        cells = []
        for k, _ in CLASSIFIERS[:3]:
            p = fmt_ci(list(cls_metric(cls, w, role, k, 0).values()), ".3f") or "n/a"
            rc = fmt_ci(list(cls_metric(cls, w, role, k, 1).values()), ".3f") or "n/a"
            cells.append(f"{p} / {rc}")
        L.append(f"| `{w}` | {ROLE_TEXT[role]} | " + " | ".join(cells) + " |")
    L += ["", "(always GC: recall 1, precision the GC share; never GC: recall 0.)", "",
          "The tree (`ssdvp_c45 print`):", "", "```", tree_text.rstrip(), "```", "",
          "The tree without the `*_avgdev` columns:", "", "```", tree2_text.rstrip(), "```", ""]
    return L


def time_section(rows, series_by_wl, thr, fig_names):
    L = ["## Bandwidth over time, and time under a threshold", ""]
    if not series_by_wl:
        return L + ["No per-sample series in the data.", ""]
    if fig_names:
        figw = [w for w in FIG_WLS if w in series_by_wl]
        L += [f"![bandwidth per 100 ms sample of {', '.join(figw)} under idle, detector and send TRIM, first seed]"
              f"(gc-detector-recorded/{fig_names[0]})", "",
              f"Above: {' and '.join(f'`{w}`' for w in figw)}, precondition.seed 1, per 100 ms sample: bandwidth "
              "(read and write), shaded where the firmware's label says GC ran at least half the sample, ticks at "
              "the top where the detector called GC (only the `detector` arm loads the tree), the threshold "
              "dashed. Each panel has its own time axis: every arm replays the same requests, so a slower arm runs "
              "longer. ([PNG](gc-detector-recorded/bandwidth.png))", ""]
    L += ["The seed counts 1-s samples under 400 MB/s over a 3,000 s fio run. Its drive's bandwidth is not ours, so "
          "the threshold here is taken from the data: half the median per-sample bandwidth of the recording's `send` "
          "runs (all seeds), per recording; time under it is the number of 100 ms samples below it times 0.1 s, and "
          "the share of the run's samples. Mean bandwidth is the run's (summary.json). The seed's figures beside: "
          f"{PAPER['idle_under_s']} s -> {PAPER['det_under_s']} s under {PAPER['thr']} MB/s of {PAPER['run_s']:,} s, "
          f"{PAPER['idle_mbps']} -> {PAPER['det_mbps']} MB/s, automatic TRIM -> detector.", "",
          "| recording | threshold (MB/s) | arm | time under (s) | share of the run (%) | mean bandwidth (MB/s) |",
          "|---|---|---|---|---|---|"]
    for w, s in series_by_wl.items():
        u = under(s, thr[w])
        for arm in SERIES_ARMS:
            ks = [k for k in u if k[0] == arm]
            L.append(f"| `{w}` | {thr[w]:.1f} | `{arm}` | {fmt_ci([u[k][0] * INTERVAL_S for k in ks], '.1f')} | "
                     f"{fmt_ci([100 * u[k][0] / u[k][1] for k in ks], '.1f')} | "
                     f"{fmt_ci(vals(rows, w, arm, 'bandwidth_mbps'), '.1f')} |")
    p = PAPER
    L += [f"| seed paper (fio, 3,000 s) | {p['thr']} | automatic TRIM | {p['idle_under_s']} | "
          f"{100 * p['idle_under_s'] / p['run_s']:.1f} | {p['idle_mbps']} |",
          f"| seed paper (fio, 3,000 s) | {p['thr']} | detector | {p['det_under_s']} | "
          f"{100 * p['det_under_s'] / p['run_s']:.1f} | {p['det_mbps']} |", "",
          "**`detector` against `idle`** (per seed, then mean ± 95 % interval), the seed's change beside:", "",
          "| recording | time under the threshold | mean bandwidth | seed paper: time under | seed paper: bandwidth |",
          "|---|---|---|---|---|"]
    for w, s in series_by_wl.items():
        u = under(s, thr[w])
        ch = [100 * (u[("detector", sd)][0] / u[("idle", sd)][0] - 1)
              for (a, sd) in u if a == "idle" and ("detector", sd) in u and u[("idle", sd)][0]]
        m, h = change(rows, w, "detector", "idle", "bandwidth_mbps")
        L.append(f"| `{w}` | {fmt_pct(*mean_ci(ch)) if ch else 'n/a (idle never under)'} | {fmt_pct(m, h)} | "
                 f"{100 * (p['det_under_s'] / p['idle_under_s'] - 1):+.0f} % | "
                 f"{100 * (p['det_mbps'] / p['idle_mbps'] - 1):+.1f} % |")
    return L + [""]


def op_change(op, ns, arm, base, f):
    """Per seed, % change of f(row) of arm against base at namespace ns: (mean, half-width), or None."""
    a = {r["seed"]: f(r) for r in op if r["namespace"] == ns and r["arm"] == arm}
    b = {r["seed"]: f(r) for r in op if r["namespace"] == ns and r["arm"] == base}
    v = [100 * (a[s] / b[s] - 1) for s in a if s in b and b[s]]
    return mean_ci(v) if v else None


def op_section(op):
    L = ["## Spare area: where the seed's figure sits", ""]
    if not op:
        return L + ["Not in this data (`--no-op`).", ""]
    nss = list(dict.fromkeys(r["namespace"] for r in op))
    L += [f"`{OP_WL}` under `idle`, `detector` and `send` on the same flash with the namespace grown (the recording "
          "spans 4 GiB of LBAs, so the namespace cannot shrink): the space above 4 GiB is filled by the "
          "preconditioning and never trimmed, which takes it from the spare area. Spare area = 1 - namespace / "
          "flash. Time under: samples below half the median of that drive's `send` samples (the threshold column), "
          "times 0.1 s; changes per seed, mean ± 95 % interval. The seed's drive and its figures beside. (More spare "
          "than the recording's drive has would need more flash, `flash.blocks_per_plane`, not a smaller namespace: "
          "not run.)", "",
          "| namespace | spare (%) | threshold (MB/s) | `idle` MB/s | `detector` MB/s | `send` MB/s | detector vs idle: "
          "bandwidth | detector vs idle: time under | detector vs send: bandwidth | WAF `idle` / `detector` |",
          "|---|---|---|---|---|---|---|---|---|---|"]
    for ns in nss:
        rs = [r for r in op if r["namespace"] == ns]

        def col(arm, key, fmt=".1f", rs=rs):
            return fmt_ci([num(r[key]) for r in rs if r["arm"] == arm], fmt)
        bw = op_change(op, ns, "detector", "idle", lambda r: num(r["bandwidth_mbps"]))
        tu = op_change(op, ns, "detector", "idle", lambda r: num(r["under"]))
        bs = op_change(op, ns, "detector", "send", lambda r: num(r["bandwidth_mbps"]))
        L.append(f"| {ns} | {num(rs[0]['spare_pct']):.1f} | {num(rs[0]['thr_mbps']):.0f} | "
                 f"{col('idle', 'bandwidth_mbps')} | {col('detector', 'bandwidth_mbps')} | "
                 f"{col('send', 'bandwidth_mbps')} | {fmt_pct(*bw) if bw else 'n/a'} | "
                 f"{fmt_pct(*tu) if tu else 'n/a (idle never under)'} | {fmt_pct(*bs) if bs else 'n/a'} | "
                 f"{col('idle', 'waf', '.2f')} / {col('detector', 'waf', '.2f')} |")
    p = PAPER
    L += [f"| seed paper | | {p['thr']} | {p['idle_mbps']} (automatic TRIM) | {p['det_mbps']} | | "
          f"{100 * (p['det_mbps'] / p['idle_mbps'] - 1):+.1f} % | {100 * (p['det_under_s'] / p['idle_under_s'] - 1):+.0f} "
          "% | | |", ""]
    return L


def verdict_section(rows, cls, series_by_wl, thr, wls, op, xr):
    L = ["## Verdicts", "", "Each claim of the seed, per recording, computed from the tables above (a difference "
         "counts when its 95 % interval over the seeds excludes 0).", "",
         "**Claim 1: iostat's fields identify GC** (the seed's tree: high accuracy on held-out fio runs). The "
         "detector's F1 against always GC, the single-feature threshold and the tree without `*_avgdev` (better "
         "there: the rolling deviations help), difference per seed:",
         ""]
    for w, role in cls_groups(cls):
        det = cls_metric(cls, w, role, "c45", 2)
        parts = []
        for k, name in (("always", "always GC"), ("stump", "the threshold"), ("c45_noavgdev", "the tree w/o avgdev")):
            o = cls_metric(cls, w, role, k, 2)
            d = [det[s] - o[s] for s in det if s in o and det[s] == det[s] and o[s] == o[s]]
            m, h = mean_ci(d)
            parts.append(f"against {name} {m:+.3f} ± {h:.3f}: {verdict(m, h)}" if d else f"against {name}: undefined")
        L.append(f"- `{w}` ({ROLE_TEXT[role]}): F1 {fmt_ci(list(det.values()), '.3f')}; " + "; ".join(parts) + ".")
    tally = {}
    for w, role in cls_groups(cls):
        det = cls_metric(cls, w, role, "c45", 2)
        for k in ("always", "stump", "c45_noavgdev"):
            o = cls_metric(cls, w, role, k, 2)
            d = [det[s] - o[s] for s in det if s in o and det[s] == det[s] and o[s] == o[s]]
            m, h = mean_ci(d)
            key = "better" if d and m - h > 0 else ("worse" if d and m + h < 0 else "tie")
            tally.setdefault((k, role != "train"), {}).setdefault(key, 0)
            tally[(k, role != "train")][key] += 1

    def tl(k, held):
        t = tally.get((k, held), {})
        return f"better on {t.get('better', 0)}, worse on {t.get('worse', 0)}, not distinguishable on {t.get('tie', 0)}"
    L += ["", f"In sum, on the {sum(tally.get(('always', True), {}).values())} held-out rows the detector's tree is, "
          f"against always GC: {tl('always', True)}; against the single threshold: {tl('stump', True)}; against the "
          f"same tree without the rolling deviations (what `*_avgdev` adds): {tl('c45_noavgdev', True)}. On the "
          f"{sum(tally.get(('always', False), {}).values())} training recordings (other runs than the training ones): "
          f"against always GC {tl('always', False)}; against the threshold {tl('stump', False)}; against the tree "
          f"without `*_avgdev` {tl('c45_noavgdev', False)}."]
    L += ["", "**Claim 2: TRIM sent when GC is detected raises bandwidth against automatic TRIM** (seed: mean "
          f"{PAPER['idle_mbps']} -> {PAPER['det_mbps']} MB/s, 52 % fewer samples under {PAPER['thr']} MB/s):", ""]
    for w in wls:
        v = []
        m, h = change(rows, w, "detector", "none", "bandwidth_mbps")
        v.append(f"detector against no TRIM: bandwidth {fmt_pct(m, h)}")
        m2, h2 = change(rows, w, "detector", "idle", "bandwidth_mbps")
        v.append(f"against automatic TRIM (idle) {fmt_pct(m2, h2)}")
        m3, h3 = change(rows, w, "detector", "oracle", "bandwidth_mbps")
        v.append(f"against the oracle {fmt_pct(m3, h3)}")
        m4, h4 = change(rows, w, "detector", "send", "bandwidth_mbps")
        v.append(f"against TRIM at delete {fmt_pct(m4, h4)}")
        mw, hw = change(rows, w, "detector", "none", "waf")
        v.append(f"WAF against no TRIM {fmt_pct(mw, hw)}")
        extra = ""
        if w in series_by_wl:
            u = under(series_by_wl[w], thr[w])
            ch = [100 * (u[("detector", sd)][0] / u[("idle", sd)][0] - 1)
                  for (a, sd) in u if a == "idle" and ("detector", sd) in u and u[("idle", sd)][0]]
            if ch:
                mu, hu = mean_ci(ch)
                extra = (f"; time under {thr[w]:.0f} MB/s against idle {fmt_pct(mu, hu)}: fewer samples under: "
                         f"{verdict(-mu, hu, 'yes', 'no')}")
        L.append(f"- `{w}` ({'train' if w in TRAIN else 'held out'}): " + "; ".join(v) + extra + ". Beats automatic "
                 f"TRIM: {verdict(m2, h2, 'yes', 'no')}; beats TRIM at delete (`send`): {verdict(m4, h4, 'yes', 'no')}"
                 f"; as good as the oracle: **{'yes' if abs(m3) <= max(h3, 1.0) else 'no'}**.")
    if op:
        nss = list(dict.fromkeys(r["namespace"] for r in op))
        ch = [(ns, op_change(op, ns, "detector", "idle", lambda r: num(r["bandwidth_mbps"]))) for ns in nss]
        L += ["", f"**Spare area** (`{OP_WL}`): detector against automatic TRIM, bandwidth "
              + "; ".join(f"{num(next(r['spare_pct'] for r in op if r['namespace'] == ns)):.1f} % spare "
                          f"{fmt_pct(*c) if c else 'n/a'}" for ns, c in ch)
              + f" (the seed: {100 * (PAPER['det_mbps'] / PAPER['idle_mbps'] - 1):+.1f} %)."]
    for study, title in (("watermarks", "GC in episodes"), ("open", "Open loop with idle gaps"),
                         ("long", "Long runs"), ("fill", "Drive fill")):
        if any(r["study"] == study for r in xr):
            L += ["", f"**{title}**: " + "; ".join(x_verdicts(xr, study)) + "."]
    L += ["", "Under a closed-loop replay the host is never idle, so `idle` never sends and equals `none`: the "
          "seed's automatic TRIM had idle time to trim in, these replays have none, so against it the detector "
          "gains what TRIM gains at all. `send` is what a `discard` mount gives for free, and the seed did not "
          "compare against it. Open loop with idle gaps `idle` does send (the TRIMs column of that table)."]
    return L


def x_vals(xr, study, w, v, arm, key):
    return [num(r[key]) for r in xr if (r["study"], r["workload"], r["variant"], r["arm"]) == (study, w, v, arm)]


def x_change(xr, study, w, v, arm, base, key):
    """Per seed, % change of key of arm against base in one group: (mean, half-width), or None."""
    def get(a_):
        return {r["seed"]: num(r[key]) for r in xr
                if (r["study"], r["workload"], r["variant"], r["arm"]) == (study, w, v, a_)}
    a, b = get(arm), get(base)
    d = [100 * (a[s_] / b[s_] - 1) for s_ in a if s_ in b and b[s_]]
    return mean_ci(d) if d else None


def x_groups(xr, study):
    return list(dict.fromkeys((r["workload"], r["variant"]) for r in xr if r["study"] == study))


def x_tables(xr, study):
    """The per-arm table and the detector's changes of one study."""
    gs = x_groups(xr, study)
    arms = list(dict.fromkeys(r["arm"] for r in xr if r["study"] == study))
    L = ["| recording | variant | arm | bandwidth (MB/s) | WAF | write mean (us) | write p99 (us) | write await, "
         "second half (ms) | TRIMs sent | GC share | threshold (MB/s) | time under (s) | under (% of samples) | "
         "simulated (s) |", "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"]
    for w, v in gs:
        for arm in arms:
            rs = [r for r in xr if (r["study"], r["workload"], r["variant"], r["arm"]) == (study, w, v, arm)]
            if not rs:
                continue

            def c(key, fmt, rs=rs):
                return fmt_ci([num(r[key]) for r in rs], fmt)
            L.append(f"| `{w}` | {v} | `{arm}` | {c('bandwidth_mbps', '.1f')} | {c('waf', '.3f')} | "
                     f"{c('write_mean_us', ',.0f')} | {c('write_p99_us', ',.0f')} | {c('w_await_late_ms', '.2f')} | "
                     f"{c('host_trims', ',.0f')} | "
                     f"{c('gc_share', '.2f')} | {num(rs[0]['thr_mbps']):.1f} | "
                     f"{fmt_ci([num(r['under']) * INTERVAL_S for r in rs], '.1f')} | "
                     f"{fmt_ci([100 * num(r['under']) / num(r['samples']) for r in rs if num(r['samples'])], '.1f')} "
                     f"| {c('sim_s', '.1f')} |")
    L += ["", "The detector's change, per seed, then mean ± 95 % interval:", "",
          "| recording | variant | against `idle`: bandwidth | against `idle`: time under | against `idle`: write "
          "mean | against `idle`: write await, second half | against `send`: bandwidth | against `send`: write mean |",
          "|---|---|---|---|---|---|---|---|"]
    for w, v in gs:
        cells = []
        for base, key in (("idle", "bandwidth_mbps"), ("idle", "under"), ("idle", "write_mean_us"),
                          ("idle", "w_await_late_ms"), ("send", "bandwidth_mbps"), ("send", "write_mean_us")):
            ch = x_change(xr, study, w, v, "detector", base, key)
            cells.append(fmt_pct(*ch) if ch else ("n/a (`idle` never under)" if key == "under" else "n/a"))
        L.append(f"| `{w}` | {v} | " + " | ".join(cells) + " |")
    return L + [""]


def x_verdicts(xr, study):
    """One line per group: beats automatic TRIM / matches send, from the intervals."""
    out = []
    for w, v in x_groups(xr, study):
        bi = x_change(xr, study, w, v, "detector", "idle", "bandwidth_mbps")
        li = x_change(xr, study, w, v, "detector", "idle", "write_mean_us")
        la = x_change(xr, study, w, v, "detector", "idle", "w_await_late_ms")
        bs = x_change(xr, study, w, v, "detector", "send", "bandwidth_mbps")
        ui = x_change(xr, study, w, v, "detector", "idle", "under")
        parts = []
        if bi:
            parts.append(f"bandwidth against `idle` {fmt_pct(*bi)}: {verdict(bi[0], bi[1], 'higher', 'lower')}")
        if ui:
            parts.append(f"time under against `idle` {fmt_pct(*ui)}: {verdict(-ui[0], ui[1], 'less', 'more')}")
        if li:
            parts.append(f"mean write latency against `idle` {fmt_pct(*li)}: "
                         f"{verdict(-li[0], li[1], 'lower', 'higher')}")
        if la:
            parts.append(f"write await in the second half against `idle` {fmt_pct(*la)}: "
                         f"{verdict(-la[0], la[1], 'lower', 'higher')}")
        if bs:
            parts.append(f"bandwidth against `send` {fmt_pct(*bs)}: {verdict(bs[0], bs[1], 'higher', 'lower')}")
        out.append(f"`{w}`, {v}: " + "; ".join(parts))
    return out


def extra_sections(xr, cmd, cost=None):
    p = PAPER
    seed_line = (f"The seed (fio, {p['run_s']:,} s): automatic TRIM {p['idle_mbps']} MB/s and {p['idle_under_s']} s "
                 f"({100 * p['idle_under_s'] / p['run_s']:.1f} %) under {p['thr']} MB/s; detector {p['det_mbps']} MB/s "
                 f"and {p['det_under_s']} s ({100 * p['det_under_s'] / p['run_s']:.1f} %): bandwidth "
                 f"{100 * (p['det_mbps'] / p['idle_mbps'] - 1):+.1f} %, time under "
                 f"{100 * (p['det_under_s'] / p['idle_under_s'] - 1):+.0f} %.")
    if not xr:
        return ["## Further studies", "", "Not in this data (`--no-extra`).", ""]
    L = ["## Further studies: GC in episodes, idle gaps, long runs, drive fill", "",
         "Four more replays, each arm under every `precondition.seed`, the same tree loaded for `detector`. In every "
         "table the threshold is half the median per-sample bandwidth of `send`'s runs in the same recording and "
         "variant, time under is the 100 ms samples below it times 0.1 s, write await in the second half is iostat's "
         "`w_await` over the run's second half of samples weighted by writes (after the first gap in the open-loop "
         "replay), and a change is taken per seed, then mean ± 95 % interval. " + seed_line, ""]
    st = {r["study"] for r in xr}
    if "watermarks" in st:
        L += ["### GC in episodes (`ftl.gc.trigger: watermarks`)", "",
              "The tables above collect while free blocks are below `ftl.gc.threshold_blocks` (128; the `threshold` "
              "trigger, the default): GC is a steady trickle. With `watermarks` GC starts below the same 128 free "
              "blocks and collects up to `ftl.gc.high_blocks` (256, its default) before it stops: GC in episodes, "
              "which the seed's detector is built to see. Replays as above (closed loop); `none` is left out "
              "(closed loop, `idle` never sends and equals it, as above).", ""]
        L += x_tables(xr, "watermarks")
    if "open" in st:
        L += ["### Open loop with idle gaps: the seed's automatic TRIM at work", "",
              f"Closed loop the host is never idle, so `idle` never sends. Here `{OP_WL}` is replayed open loop "
              "(`host.mode: open`: each request at its time) at a fifth of its recorded pace "
              "(`workload.time_scale: 5`: the recording offers 271 MB/s, 9.5 GB in 35 s; a fifth, 54 MB/s, is below "
              "the 62 MB/s the never-trimmed drive sustains closed loop, so every arm can keep up and the drive "
              "idles in the gaps under each), two passes with 5 s of quiet between them (`workload.loops: 2`, "
              "`workload.loop_gap: 5s`; within a pass the recording has no 200 ms gap, scaled or not, except two "
              "of 0.6 s at its start). `idle` sends what is pending after 200 ms of %util 0: in the gaps, and at "
              "each pass's start. Each pass begins with the recording's mkfs discard of the whole device (held "
              "like the others under every arm but `send`). Open loop the bandwidth is the offered load while the "
              "drive keeps up, so write latency is the measure here, over the run and over its second half (the "
              "second pass, after `idle` had the gap to trim in); time under counts the samples where the drive fell "
              "behind or the host paused.", ""]
        L += x_tables(xr, "open")
    if "long" in st:
        v = next(r["variant"] for r in xr if r["study"] == "long")
        w_ = sorted({num(r["wall_s"]) for r in xr if r["study"] == "long"})
        L += [f"### Long runs ({v} of simulated time; the seed ran {p['run_s']:,} s)", "",
              f"`{OP_WL}` looped closed loop (`workload.loops: 0`) until `host.time_limit` ({v}), so every arm runs "
              "the same simulated time, as the seed's do. Looping replays the recording's mkfs discard at each "
              "pass, which would trim the whole drive every 35 s under `send`; so here it is dropped "
              "(`workload.leading_discards: drop`: the file system made without discard on the aged drive), and "
              "what the arms decide on is the job's own deletes (two of its eight files after each fio round). "
              f"One run costs {w_[0]:,.0f}-{w_[-1]:,.0f} s of wall time here"
              + (f"; one {cost['sim_s']:,.0f} s run as `--long` makes them (`{cost['arm']}`, seed {cost['seed']}, "
                 f"{cost['ssdvp']}; extra/long-cost.json), measured on this machine (load "
                 f"average {cost['load']}), cost {cost['wall_s']:,.0f} s of wall time and gave "
                 f"{cost['bandwidth_mbps']} MB/s at WAF {cost['waf']} (its 300 s counterpart below: "
                 + fmt_ci(x_vals(xr, 'long', OP_WL, v, cost['arm'], 'bandwidth_mbps'), '.1f') + " MB/s, WAF "
                 + fmt_ci(x_vals(xr, 'long', OP_WL, v, cost['arm'], 'waf'), '.3f') + ")"
                 if cost else "; a 3,000 s run (`--long`) costs about ten times that")
              + ", too long for three seeds of three arms within this page's budget, so the default is the "
              "length given.", ""]
        L += x_tables(xr, "long")
        L += [f"| seed paper (fio) | {p['run_s']:,} s | automatic TRIM / detector | {p['idle_mbps']} / "
              f"{p['det_mbps']} | | | | | | | {p['thr']} | {p['idle_under_s']} / {p['det_under_s']} | "
              f"{100 * p['idle_under_s'] / p['run_s']:.1f} / {100 * p['det_under_s'] / p['run_s']:.1f} | "
              f"{p['run_s']:,} |", ""]
    if "fill" in st:
        L += ["### Drive fill before the job", "",
              f"Only the spare area is swept above. Here `{OP_WL}` replays on drives whose logical space was filled "
              f"to {', '.join(f'{f:g}' for f in FILLS)} of the namespace before the job (`precondition.fill`, "
              "sequentially, no random overwrites and no settling of the free pool: "
              "`precondition.random_drive_writes: 0`, `precondition.free_pool: asis`), with the recording's mkfs "
              "discard dropped (`workload.leading_discards: drop`): the file system made without discard on a drive "
              "that full, so the old data in the file system's free space stays valid to the drive under every arm "
              "and the arms differ in the job's deletes only. Closed loop, as the tables above. The sequential fill "
              "draws no random number, so `precondition.seed` leaves these drives alike and the replay is "
              "deterministic: the seeds' runs are identical (intervals 0), one drive history per fill, not three.",
              ""]
        L += x_tables(xr, "fill")
    return L


def read_data(data):
    rows = list(csv.DictReader(open(os.path.join(data, "results.csv"))))
    cls = list(csv.DictReader(open(os.path.join(data, "classify.csv"))))
    st = json.load(open(os.path.join(data, "stump.json")))
    tree_text = open(os.path.join(data, "tree.txt")).read()
    tree2_text = open(os.path.join(data, "tree-noavgdev.txt")).read()
    series = {}
    for w in TRAIN + HELD_OUT:
        p = os.path.join(data, "series", f"{w}.csv")
        if os.path.exists(p):
            series[w] = list(csv.DictReader(open(p)))
    p = os.path.join(data, "op.csv")
    op = list(csv.DictReader(open(p))) if os.path.exists(p) else []
    p = os.path.join(data, "extra", "extra.csv")
    xr = list(csv.DictReader(open(p))) if os.path.exists(p) else []
    return rows, cls, st, tree_text, tree2_text, series, op, xr


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--bin", default=os.path.join(ROOT, "build/platform/ssdvp"))
    ap.add_argument("--c45", default=os.path.join(ROOT, "build/platform/ssdvp_c45"))
    ap.add_argument("--out", default=os.path.join(ROOT, "out/gc-detector-recorded"))
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--seeds", default="1,2,3")
    ap.add_argument("--page", default=os.path.join(ROOT, "docs/results/gc-detector-recorded.md"))
    ap.add_argument("--render", metavar="DATA_DIR", help="run nothing: render from this folder's committed data")
    ap.add_argument("--reuse", action="store_true",
                    help="keep runs already in --out (their summary.json exists): for trying the analysis, not for "
                         "publishing")
    ap.add_argument("--no-op", dest="op", action="store_false",
                    help=f"leave out the spare-area sweep ({len(OP_NS) - 1} more namespace sizes of {OP_WL})")
    ap.add_argument("--no-extra", dest="extra", action="store_false",
                    help="leave out the further studies (watermarks, open loop, long runs, fill; extra.csv)")
    ap.add_argument("--extra-only", action="store_true",
                    help="run only the further studies (and the training runs, for the tree, which must print as "
                         "the committed tree.txt): writes extra/ (extra.csv, its own provenance.json) and renders the "
                         "page with the committed rest")
    ap.add_argument("--long", action="store_true",
                    help=f"long runs of 3,000 s of simulated time, the seed's length (default {LONG_S} s)")
    a = ap.parse_args()
    page_dir = os.path.dirname(os.path.abspath(a.page))
    data = a.render or os.path.join(page_dir, "gc-detector-recorded")
    cmd = "python3 scripts/gc_detector_recorded.py" + (f" --seeds {a.seeds}" if a.seeds != "1,2,3" else "") \
        + ("" if a.op else " --no-op") + ("" if a.extra else " --no-extra") + (" --long" if a.long else "")
    xcmd = cmd + (" --extra-only" if a.extra_only and " --extra-only" not in cmd else "")
    if a.extra_only:
        cmd = "python3 scripts/gc_detector_recorded.py" + (f" --seeds {a.seeds}" if a.seeds != "1,2,3" else "")
    if not a.render:
        t0 = time.monotonic()
        seeds = [int(s) for s in a.seeds.split(",")]
        have = set(wl_mod.names(ROOT))
        train = [w for w in TRAIN if w in have]
        held = [w for w in HELD_OUT if w in have]
        nod = [w for w in NODISCARD if w in have]
        if not train:
            sys.exit(f"no training recording in traces/workloads/ (wanted {', '.join(TRAIN)})")
        os.makedirs(a.out, exist_ok=True)
        tree, tree2 = os.path.join(a.out, "tree.txt"), os.path.join(a.out, "tree-noavgdev.txt")
        jobs = [(w, arm, s, "", "") for s in seeds for w in train + held for arm in ARMS]
        jobs += [(w, "detector", s, lead, "") for s in seeds for lead in LEADS for w in nod]
        op_jobs = [(OP_WL, arm, s, "", ns) for ns in OP_NS[1:] for s in seeds for arm in OP_ARMS] \
            if a.op and OP_WL in train else []
        if a.extra_only:
            jobs, op_jobs = [], []
        role = {j: ("train" if j[0] in train else "held_out") if not j[3] else f"nodiscard_{j[3]}" for j in jobs}

        def go(j, tr):
            d = run_dir(a.out, *j)
            if a.reuse and os.path.exists(os.path.join(d, "summary.json")):
                return d, 0.0
            return run(a.bin, a.out, *j, tr)
        # the labelled training runs are the first seed's none and oracle runs of the training recordings:
        # run those first, train on them, then the rest (the detector runs need the tree)
        first = [(w, arm, seeds[0], "", "") for w in train for arm in ("none", "oracle")]
        with ThreadPoolExecutor(max_workers=max(1, a.jobs)) as ex:
            done = dict(zip(first, ex.map(lambda j: go(j, ""), first)))
        train_csv = [os.path.join(done[j][0], "iostat.csv") for j in first]
        header = next(csv.reader(open(train_csv[0])))
        avgdev = [c for c in header if c.endswith("_avgdev")]
        for out_tree, drop in ((tree, DROP), (tree2, DROP + avgdev)):
            p = subprocess.run([a.c45, "train", "-o", out_tree, "--drop", ",".join(drop)] + train_csv,
                               capture_output=True, text=True)
            if p.returncode:
                sys.exit(f"ssdvp_c45 train failed:\n{p.stderr}")
        tree_text, tree2_text = (subprocess.run([a.c45, "print", t], capture_output=True, text=True,
                                                check=True).stdout for t in (tree, tree2))
        if a.extra_only and tree_text != open(os.path.join(data, "tree.txt")).read():
            sys.exit("--extra-only: the tree trained now is not the committed tree.txt: regenerate the whole page")
        samples = [x for c in train_csv for x in csv.DictReader(open(c))]
        f, op, thr, tf1 = best_stump(samples)
        st = dict(feature=f, op=op, threshold=thr, train_f1=round(tf1, 6), train_samples=len(samples),
                  n_features=len(features(header)))
        rest = [j for j in jobs + op_jobs if j not in done]
        xjobs = [(st_, w, vi, label_, arm, s, tuple(sets))
                 for st_, wls_, variants, arms in studies(3000 if a.long else LONG_S) for w in wls_ if w in have
                 for vi, (label_, sets) in enumerate(variants) for arm in arms for s in seeds] if a.extra else []

        def xgo(j):
            d = x_dir(a.out, j[0], j[1], j[2], j[4], j[5])
            if a.reuse and os.path.exists(os.path.join(d, "summary.json")):
                return d, 0.0
            return run(a.bin, a.out, j[1], j[4], j[5], "", "", tree, j[6], d)
        # the long runs first: the pool's tail is then short runs
        xjobs.sort(key=lambda j: j[0] != "long")
        with ThreadPoolExecutor(max_workers=max(1, a.jobs)) as ex:
            xf = [ex.submit(xgo, j) for j in xjobs]
            done.update(zip(rest, ex.map(lambda j: go(j, tree), rest)))
            xdone = {j: f.result() for j, f in zip(xjobs, xf)}
        rows = [row_of(done[j][0], j[0], role[j], j[1], j[2], done[j][1]) for j in jobs]
        cls = [c for j in jobs if j[1] == "detector"
               for c in classify_rows(a.c45, {"c45": tree, "c45_noavgdev": tree2}, st, done[j][0], j[0], role[j],
                                      j[2])]
        xr = x_rows(xdone, xjobs)
        xdata = os.path.join(data, "extra")
        if xr:
            os.makedirs(xdata, exist_ok=True)
            with open(os.path.join(xdata, "extra.csv"), "w", newline="") as fh:
                wr = csv.DictWriter(fh, fieldnames=X_COLS, extrasaction="ignore")
                wr.writeheader()
                wr.writerows(xr)
        if a.extra_only:
            prov_mod.write(prov_mod.collect(a.bin, xcmd, ROOT, skip=["docs/results/"], wall_s=time.monotonic() - t0),
                           xdata)
        elif os.path.exists(os.path.join(xdata, prov_mod.FILE)):
            os.remove(os.path.join(xdata, prov_mod.FILE))  # the page's provenance covers extra.csv too
    if not a.render and not a.extra_only:
        os.makedirs(os.path.join(data, "series"), exist_ok=True)
        for w in train + held:
            first_one = True
            for arm in SERIES_ARMS:
                for s in seeds:
                    write_series(done[(w, arm, s, "", "")][0], os.path.join(data, "series", f"{w}.csv"), arm, s,
                                 not first_one)
                    first_one = False
        op = op_rows(done, seeds, {j: done[j][1] for j in done}) if op_jobs else []
        for fn, cols, rr in (("results.csv", CSV_COLS, rows), ("classify.csv", CLS_COLS, cls), ("op.csv", OP_COLS, op)):
            if not rr:
                continue
            with open(os.path.join(data, fn), "w", newline="") as fh:
                wr = csv.DictWriter(fh, fieldnames=cols, extrasaction="ignore")
                wr.writeheader()
                wr.writerows(rr)
        with open(os.path.join(data, "stump.json"), "w") as fh:
            json.dump(st, fh, indent=1, sort_keys=True)
            fh.write("\n")
        for fn, text in (("tree.txt", tree_text), ("tree-noavgdev.txt", tree2_text)):
            with open(os.path.join(data, fn), "w") as fh:
                fh.write(text)
        prov = prov_mod.collect(a.bin, cmd, ROOT, skip=["docs/results/"], wall_s=time.monotonic() - t0)
        prov_mod.write(prov, data)
    rows, cls, st, tree_text, tree2_text, series, op, xr = read_data(data)
    prov = prov_mod.read(data)
    thr = thresholds(series)
    fig_names = plot(series, thr, os.path.join(page_dir, "gc-detector-recorded"))
    with open(a.page, "w") as f:
        cost_p = os.path.join(data, "extra", "long-cost.json")
        f.write("\n".join(page(rows, cls, st, tree_text, tree2_text, series, op, xr, cmd, prov, fig_names,
                               prov_mod.read(os.path.join(data, "extra")),
                               json.load(open(cost_p)) if os.path.exists(cost_p) else None)) + "\n")
    bad = [(r["workload"], r["arm"], r["seed"]) for r in rows + xr if num(r["mismatches"])]
    if bad:
        sys.exit(f"integrity mismatches in {bad}")


if __name__ == "__main__":
    main()
