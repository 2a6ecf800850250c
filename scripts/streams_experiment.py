#!/usr/bin/env python3
"""The multi-stream experiment: regenerates docs/results/streams/ (rows.json,
large_rows.json, table.csv, runs.csv, provenance.json) and docs/results/streams.md.

Runs build/platform/ssdvp on configs/streams.yaml for each application
workload (fio, rocksdb, mysql, rocksdb2) and each placement (none,
autostream, lstm, oracle: host stream IDs into the firmware's stream
placement; haml: HAML-SSD's in-drive placement without stream IDs), then
writes the results page, a CSV table and SVG bar charts (no plotting
library needed). Python 3 standard library only; one run at a time.

    python3 scripts/streams_experiment.py [--bin build/platform/ssdvp] [--out out/streams] [--quick]
                                          [--only fio,...] [--large | --no-large]
    python3 scripts/streams_experiment.py --render DATA_DIR --page OUT_MD   runs nothing: the page from data

Besides the small drive of configs/streams.yaml (1 GiB of flash), it runs
every workload on a drive four times larger (LARGE below, `out/streams/large/`),
where eight streams' open blocks are a small part of the spare. That drive is
filled once and saved (`ssdvp run --save-state`, docs/state.md); every larger
run loads it (`--load-state`) instead of filling 3.5 GiB again.
"""
import argparse
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
from ssdvp_explore.stats import fmt_ci, mean_ci, paired_change  # noqa: E402  (standard library only)

# Per workload: operations and the offered load (operations per second),
# chosen so that GC runs from the start and 'none' sees write stalls.
WORKLOADS = {
    "fio": {"workload.app.kind": "fio", "workload.app.operations": 300000, "workload.app.iops": 4000},
    "rocksdb": {"workload.app.kind": "rocksdb", "workload.app.operations": 300000, "workload.app.iops": 3000,
                "workload.app.footprint": 1.0, "workload.app.rocksdb.db_fraction": 0.85,
                "workload.app.rocksdb.sst_size": "1MiB", "workload.app.rocksdb.io_size": "64KiB"},
    "mysql": {"workload.app.kind": "mysql", "workload.app.operations": 100000, "workload.app.iops": 1200},
    "rocksdb2": {"workload.app.kind": "rocksdb2", "workload.app.operations": 300000, "workload.app.iops": 3000,
                 "workload.app.footprint": 1.0, "workload.app.rocksdb.db_fraction": 0.85,
                 "workload.app.rocksdb.sst_size": "1MiB", "workload.app.rocksdb.io_size": "64KiB"},
    # fio whose hot windows never move: chunk temperature then persists and is a lifetime signal (the
    # experiment that separates prediction from the cost of open blocks, docs/results/streams.md)
    "fio_fixed": {"workload.app.kind": "fio", "workload.app.operations": 300000, "workload.app.iops": 4000,
                  "workload.app.fio.shift": "0s"},
}
# Runs whose stream IDs are logged (host.streams_log) and scored against the data's real lifetimes
# (scripts/streams_lifetimes.py): the workloads where GC relocates data.
LIFETIME_WORKLOADS = ["fio", "mysql", "fio_fixed"]
POLICIES = {
    "none": {"host.streams": "none"},
    "autostream": {"host.streams": "autostream"},
    "lstm": {"host.streams": "lstm"},
    "oracle": {"host.streams": "oracle"},
    "haml": {"host.streams": "none", "ftl.placement.policy": "haml", "ftl.hot.classes": 6,
             "ftl.hot.slice_size": "1MiB", "ftl.hot.period": "5s"},
}

# The larger drive: 4 GiB of flash (1024 blocks a die), 3.5 GiB
# exported, the same 12.5 % spare; the workloads' operations scaled with the
# drive so that each run writes as many drive writes as on the small drive.
# Eight streams' open blocks (8 x 8 dies x 512 KiB) plus GC's are 36 MiB:
# 28 % of the small drive's 128 MiB spare, 7 % of this one's 512 MiB.
LARGE = {"flash.blocks_per_plane": 1024, "nvme.namespace_size": "3584MiB", "dram.size": "128MiB"}
LARGE_SCALE = 4
LARGE_WORKLOADS = ["fio", "rocksdb", "mysql", "rocksdb2"]
LARGE_POLICIES = ["none", "autostream", "lstm", "oracle", "random"]  # random: the open streams' cost here

# The seed's figures (its Section 4.1, on a Samsung PM963 with its own fio, RocksDB, MySQL and two-RocksDB
# Docker runs): its LSTM scheme against no streams and against AutoStream. MySQL's and Docker's performance
# figures are tpmC and per-application throughput, not write latency.
SEED = {
    "fio": "WAF -43.5 % (vs AutoStream -10.7 %), p99.99 write -79.3 %",
    "rocksdb": "WAF -35.9 % (vs AutoStream -10.7 %), write latency -29 %",
    "mysql": "WAF -21 % (vs AutoStream -4 %)",
    "rocksdb2": "WAF -34 %, throughput +28 % per instance",
}

# The cost of open frontiers: AutoStream with fewer streams (8 is the main table).
# And every write on a random one of the 8 streams: the cost of open streams without any information.
EXTRAS = {f"autostream-{n}": {"host.streams": "autostream", "host.predict.streams": n} for n in (2, 4)}
EXTRAS["random"] = {"host.streams": "random"}
EXTRA_WORKLOADS = ["fio", "mysql", "fio_fixed"]
# The rule at the host floor (ftl.write.at_floor; configs/streams.yaml sets room): fio with AutoStream under
# the other two, for the start-of-stream stall.
FLOOR = {f"autostream@{v}": {"host.streams": "autostream", "ftl.write.at_floor": v} for v in ("wait", "pass")}
FLOOR_WORKLOADS = ["fio"]


# A point's runs differ in these keys, all set to the run's seed: the application generator's random choices,
# the LSTM's weight initialisation and batch order and `random`'s stream draws (the drive is filled
# sequentially: nothing random).
SEED_KEYS = ("workload.app.seed", "host.predict.seed")


def run_dir(out, wl, pol, seed, large=False):
    return os.path.join(out, "large" if large else "", f"{wl}_{pol}_s{seed}")


def run(binary, out, wl, pol, quick, seed, large=False):
    d = run_dir(out, wl, pol, seed, large)
    os.makedirs(d, exist_ok=True)
    sets = dict(WORKLOADS[wl])
    sets.update({k: seed for k in SEED_KEYS})
    sets.update(POLICIES.get(pol) or EXTRAS.get(pol) or FLOOR[pol])
    if large:
        sets.update(LARGE)
        sets["workload.app.operations"] = sets["workload.app.operations"] * LARGE_SCALE
    if quick:
        sets["workload.app.operations"] = sets["workload.app.operations"] // 5
        sets["host.predict.train_periods"] = 4
        sets["host.predict.k"] = 2
    report = os.path.join(d, "predictor.json")
    sets["host.predict.report"] = report
    if wl in LIFETIME_WORKLOADS and pol != "haml":  # haml's classes are the drive's own, not stream IDs
        sets["host.streams_log"] = os.path.join(d, "streams.csv")
    cmd = [binary, "run", "-c", os.path.join(ROOT, "configs/streams.yaml"), "-o", d]
    for k, v in sets.items():
        cmd += ["--set", f"{k}={v}"]
    if large and pol in LARGE_POLICIES:  # the filled drive, saved once (the haml placement shapes its own)
        cmd += ["--load-state", large_drive(binary, out)]
    t0 = time.time()
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode != 0:
        sys.exit(f"{wl}/{pol}: ssdvp failed ({p.returncode}):\n{p.stderr}{p.stdout}")
    r = row_of(d, wl, pol, seed, large, round(time.time() - t0, 1))
    r["ssdvp"] = subprocess.run([binary, "--version"], capture_output=True, text=True).stdout.split("\n")[0].strip()
    print(f"{'4GiB ' if large else ''}{wl:9s} {pol:10s} seed {seed} WAF {r['waf']:.3f} erases {r['erases']} "
          f"p99.99 {r['w_p9999']:.0f} us ({r['wall_s']} s)", flush=True)
    return r


def trim(r):
    """A row as the page's data keeps it: the predictor's report reduced to the figures the page shows."""
    r = dict(r)
    pred = r.get("pred")
    if pred:
        keep = {k: pred[k] for k in ("selected", "train_cpu_s", "trained_at_period", "pearson", "features", "clocks")
                if k in pred}
        for p in ("autostream", "lstm"):
            if p in pred:
                keep[p] = {k: v for k, v in pred[p].items() if isinstance(v, (int, float, str, bool))}
        keep["per_period"] = [{k: x[k] for k in ("period", "capture_ms", "predict_ms", "host_cpu_s") if k in x}
                              for x in pred.get("per_period", [])]
        r["pred"] = keep
    return r


def keep_data(data, rows, large_rows, binary, t0):
    """The page's data in data/: rows.json, large_rows.json, runs.csv (each run's wall time) and provenance.json."""
    os.makedirs(data, exist_ok=True)
    with open(os.path.join(data, "rows.json"), "w") as f:
        json.dump([trim(r) for r in rows], f, indent=0, sort_keys=True)
        f.write("\n")
    with open(os.path.join(data, "large_rows.json"), "w") as f:
        json.dump([trim(r) for r in large_rows], f, indent=0, sort_keys=True)
        f.write("\n")
    with open(os.path.join(data, "runs.csv"), "w", newline="") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(["drive", "workload", "policy", "seed", "wall_s"])
        for drive, rs in (("1GiB", rows), ("4GiB", large_rows)):
            for r in rs:
                w.writerow([drive, r["workload"], r["policy"], r.get("seed", 1), r.get("wall_s", "")])
    sys.path.insert(0, os.path.join(ROOT, "scripts"))
    from provenance import provenance_section  # explore's form: version, binary digest, commit
    provenance_section(binary, "python3 scripts/streams_experiment.py", data_dir=data,
                       wall_s=time.monotonic() - t0)


def large_drive(binary, out):
    """The larger drive after its sequential fill, saved once in out/large/drive and loaded by every larger
    run: the fill does not depend on the workload or the stream assignment (docs/state.md lists the keys that
    shape a saved drive; ssdvp refuses a drive whose keys differ from the run's)."""
    d = os.path.join(out, "large", "drive")
    if not os.path.exists(os.path.join(d, "state.json")):
        cmd = [binary, "run", "-q", "-c", os.path.join(ROOT, "configs/streams.yaml"), "--save-state", d,
               "--precondition-only"]
        for k, v in LARGE.items():
            cmd += ["--set", f"{k}={v}"]
        p = subprocess.run(cmd, capture_output=True, text=True)
        if p.returncode != 0:
            sys.exit(f"saving the larger drive failed ({p.returncode}):\n{p.stderr}{p.stdout}")
    return d


def row_of(d, wl, pol, seed, large, wall_s):
    """A table row from one run's outputs (summary.json, predictor.json)."""
    report = os.path.join(d, "predictor.json")
    with open(os.path.join(d, "summary.json")) as f:
        s = json.load(f)
    r = {"workload": wl, "policy": pol, "seed": seed, "large": large, "waf": s["ftl"]["waf"], "erases": s["ftl"]["erases"],
         "stalls": s["ftl"]["write_stalls"], "w_mean": s["latency_us"]["write"]["mean"],
         "w_p9999": s["latency_us"]["write"]["p9999"], "wall_s": wall_s,
         "sim_s": s["host"]["sim_time_s"], "free_min": s["ftl"].get("free_blocks_min")}
    if os.path.exists(report) and pol in ("autostream", "lstm"):
        with open(report) as f:
            r["pred"] = json.load(f)
    log = os.path.join(d, "streams.csv")
    if os.path.exists(log):  # how well the streams separated the data by real lifetime
        a = analyse_lifetimes(log, (LARGE if large else {}).get("nvme.namespace_size", "896MiB"))
        r["life"] = {k: a[k] for k in ("spread", "nmi", "streams_used", "workload_sd_class")}
    return r


def analyse_lifetimes(log, namespace):
    sys.path.insert(0, os.path.join(ROOT, "scripts"))
    import streams_lifetimes as sl
    return sl.analyse(log, sl.size_bytes(namespace), 4096, 8)


def collect(out, large):
    """Rows of every finished run under out/ (or out/large/), for a page from runs made by several processes
    or cut short (--collect)."""
    base = os.path.join(out, "large") if large else out
    pols = LARGE_POLICIES if large else list(POLICIES) + list(EXTRAS) + list(FLOOR)
    rows = []
    for wl in (LARGE_WORKLOADS if large else WORKLOADS):
        for pol in pols:
            for name in sorted(os.listdir(base)) if os.path.isdir(base) else []:
                m = re.fullmatch(re.escape(f"{wl}_{pol}") + r"_s(\d+)", name)
                if m and os.path.exists(os.path.join(base, name, "summary.json")):
                    rows.append(row_of(os.path.join(base, name), wl, pol, int(m.group(1)), large, None))
    return rows


def nice_ticks(lo, hi, n=5):
    """Round tick values (1, 2, 2.5 or 5 times a power of ten) covering [lo, hi]."""
    import math
    if hi <= lo:
        hi = lo + 1
    raw = (hi - lo) / n
    mag = 10 ** math.floor(math.log10(raw))
    step = next(m * mag for m in (1, 2, 2.5, 5, 10) if m * mag >= raw)
    first = math.floor(lo / step) * step
    return [round(first + i * step, 10) for i in range(int(math.ceil((hi - first) / step)) + 1)]


def tick_label(v):
    return f"{v:,.0f}" if abs(v) >= 1000 or v == int(v) else f"{v:g}"


def _bounds(v, e):
    """An error bar's (low, high) ends: e is a half-width (a symmetric interval) or the (low, high) pair itself."""
    if isinstance(e, (tuple, list)):
        return tuple(e)
    return (v - (e or 0), v + (e or 0))


def mpl_bars(path, title, groups, series, values, unit, errs=None):
    """The chart of svg_bars drawn by matplotlib with explore's figure rules, as
    <path> (SVG) and the same name in PNG; False when matplotlib is not installed."""
    try:
        sys.path.insert(0, os.path.join(ROOT, "explore"))
        from ssdvp_explore.plots import legend_outside, log_if_wide, plt, save
    except ImportError:
        return False
    fig, ax = plt.subplots(figsize=(max(6.0, 0.9 * len(groups) * max(1, len(series)) / 3 + 3), 3.4))
    width = 0.8 / len(series)
    for i, s in enumerate(series):
        have = [g for g in groups if values.get((g, s)) is not None]
        xs = [groups.index(g) + (i - (len(series) - 1) / 2) * width for g in have]
        ax.bar(xs, [values[(g, s)] for g in have], width, label=str(s),
               yerr=[[values[(g, s)] - _bounds(values[(g, s)], errs.get((g, s)))[0] for g in have],
                     [_bounds(values[(g, s)], errs.get((g, s)))[1] - values[(g, s)] for g in have]] if errs else None,
               capsize=2)
    tilt = len(groups) > 6
    ax.set_xticks(range(len(groups)), [str(g) for g in groups], rotation=30 if tilt else 0, ha="right" if tilt else "center")
    ax.axhline(0, color="black", lw=0.8)
    log_if_wide(ax, [v for v in values.values() if v is not None])
    ax.set_ylabel(unit)
    ax.set_title(title)
    fig.tight_layout()
    legend_outside(fig, *ax.get_legend_handles_labels())
    save(fig, os.path.splitext(path)[0])
    return True


def svg_bars(path, title, groups, series, values, unit, errs=None):
    """Grouped bar chart: values[(group, series)] -> number, as <path> (SVG) and PNG beside
    it (matplotlib, explore's figure rules); without matplotlib, a plain SVG drawn here.
    errs[(group, series)]: the bar's error bar, the half-width of its 95 % interval or its (low, high) ends.
    Negative values are drawn below a zero line; values spanning more than two decades (all
    positive) get a log axis; ticks are round numbers; the legend sits right of the plot."""
    if not mpl_bars(path, title, groups, series, values, unit, errs):
        plain_svg_bars(path, title, groups, series, values, unit, errs)


def plain_svg_bars(path, title, groups, series, values, unit, errs=None):
    """svg_bars without matplotlib: the SVG written by hand, by the same rules."""
    import math
    tilt = len(groups) > 6  # long group names: slanted labels, more room below
    legend_w = 20 + 7 * max(len(str(s)) for s in series)
    L, T, B = 70, 40, 110 if tilt else 40
    W, H = 700 + legend_w, 360 if tilt else 320
    PW = W - L - legend_w - 20   # the plot's width
    colors = ["#888888", "#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b", "#e377c2"]
    vals = [v for v in values.values() if v is not None]
    pos = [v for v in vals if v > 0]
    log = bool(vals) and len(pos) == len(vals) and max(pos) / min(pos) > 100
    if log:
        lo, hi = 10 ** math.floor(math.log10(min(pos))), 10 ** math.ceil(math.log10(max(pos)))
        ticks = [10 ** e for e in range(round(math.log10(lo)), round(math.log10(hi)) + 1)]
        def y_of(v):
            return H - B - (H - B - T) * (math.log10(v) - math.log10(lo)) / (math.log10(hi) - math.log10(lo))
        base = lo
    else:
        ends = vals + [b for k, v in values.items() if v is not None for b in _bounds(v, (errs or {}).get(k))]
        ticks = nice_ticks(min(ends + [0.0]), max(ends + [0.0]) * 1.05 or 1.0)
        lo, hi = ticks[0], ticks[-1]
        def y_of(v):
            return H - B - (H - B - T) * (v - lo) / (hi - lo)
        base = 0.0
    gw = PW / len(groups)
    bw = gw * 0.8 / len(series)
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{W}" height="{H}" font-family="sans-serif" font-size="12">',
           f'<text x="{L + PW / 2}" y="18" text-anchor="middle" font-size="14">{title}</text>']
    for t in ticks:
        y = y_of(t)
        out.append(f'<text x="{L-5}" y="{y+4:.1f}" text-anchor="end">{tick_label(t)}</text>')
        out.append(f'<line x1="{L}" y1="{y:.1f}" x2="{L + PW}" y2="{y:.1f}" stroke="#ddd"/>')
    out.append(f'<line x1="{L}" y1="{y_of(base):.1f}" x2="{L + PW}" y2="{y_of(base):.1f}" stroke="black"/>')
    out.append(f'<line x1="{L}" y1="{T}" x2="{L}" y2="{H-B}" stroke="black"/>')
    ylab = unit + (" (log scale)" if log else "")
    out.append(f'<text x="14" y="{(H-B+T)/2}" transform="rotate(-90 14 {(H-B+T)/2})" text-anchor="middle">{ylab}</text>')
    for gi, g in enumerate(groups):
        x0 = L + gi * gw + gw * 0.1
        gx = L + gi * gw + gw / 2
        if tilt:
            out.append(f'<text x="{gx}" y="{H-B+14}" text-anchor="end" transform="rotate(-35 {gx} {H-B+14})">{g}</text>')
        else:
            out.append(f'<text x="{gx}" y="{H-B+18}" text-anchor="middle">{g}</text>')
        for si, s in enumerate(series):
            v = values.get((g, s))
            if v is None:
                continue
            y0, y1 = sorted((y_of(base), y_of(v)))
            out.append(f'<rect x="{x0 + si*bw:.1f}" y="{y0:.1f}" width="{bw*0.95:.1f}" height="{y1 - y0:.1f}" '
                       f'fill="{colors[si % len(colors)]}"><title>{g} {s}: {v:.4g}</title></rect>')
            e_lo, e_hi = _bounds(v, (errs or {}).get((g, s)))
            if e_hi > e_lo and (not log or e_lo > 0):
                cx = x0 + si * bw + bw * 0.475
                out.append(f'<line x1="{cx:.1f}" y1="{y_of(e_lo):.1f}" x2="{cx:.1f}" y2="{y_of(e_hi):.1f}" '
                           'stroke="black"/>')
    for si, s in enumerate(series):
        ly = T + 4 + si * 18
        out.append(f'<rect x="{L + PW + 16}" y="{ly}" width="12" height="12" fill="{colors[si % len(colors)]}"/>')
        out.append(f'<text x="{L + PW + 32}" y="{ly + 10}">{s}</text>')
    out.append("</svg>")
    with open(path, "w") as f:
        f.write("\n".join(out) + "\n")


def pct(a, b):
    """a against b as the other pages' tables print a single run's change: "+9.3 %", or "x12" past ten times."""
    if not b:
        return "n/a"
    if a / b >= 10:
        return f"x{a / b:.0f}"
    return f"{100.0 * (a - b) / b:+.1f} %"


def _num(v):
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def _avg(vals):
    """The mean of a point's runs' values of one field: numbers averaged, dicts per key and number lists per
    position (recursively), anything else (feature names) the first run's."""
    vals = [v for v in vals if v is not None]
    if not vals:
        return None
    if all(_num(v) for v in vals):
        return sum(vals) / len(vals)
    if all(isinstance(v, dict) for v in vals):
        return {k: _avg([v.get(k) for v in vals]) for k in vals[0]}
    if all(isinstance(v, list) for v in vals) and len({len(v) for v in vals}) == 1 and vals[0] \
            and not all(isinstance(x, str) for x in vals[0]):
        return [_avg(list(x)) for x in zip(*vals)]
    return vals[0]


def points(rows):
    """{(workload, placement): row} with each figure the mean over the point's runs (its seeds) and the runs
    themselves under "runs" (a row without a seed is seed 1)."""
    groups = {}
    for r in rows:
        groups.setdefault((r["workload"], r["policy"]), []).append(r)
    return {k: dict(_avg(v), runs=sorted(v, key=lambda r: r.get("seed", 1))) for k, v in groups.items()}


def _get(r, key):
    for part in key.split("."):
        r = r.get(part) if isinstance(r, dict) else None
    return r


def runs(r):
    return r.get("runs") or [r]


def ci(r, key, fmt=".3f"):
    """A point's figure as 'mean ± half-width of its 95 % interval' over its runs ('mean' for one run)."""
    return fmt_ci([v for v in (_get(x, key) for x in runs(r)) if v is not None], fmt)


def paired(r, base, key="waf"):
    """r's change over base in %, per seed both points ran."""
    return paired_change({x.get("seed", 1): _get(x, key) for x in runs(r)},
                         {x.get("seed", 1): _get(x, key) for x in runs(base)})


def chg(r, base, key="waf"):
    """r's change over base, paired by seed: 'm ± h %' (the 95 % interval; 'm %' for one run)."""
    v = paired(r, base, key)
    return fmt_ci(v, "+.1f") + " %" if v else "n/a"


def ratio(r, base, key="w_p9999"):
    """r's figure over base's, paired by seed, for figures whose ratio spans decades (tail latencies): the
    geometric mean of the per-seed ratios with its 95 % interval on the log scale, 'x89 (x37 to x211)'."""
    v = [1 + x / 100 for x in paired(r, base, key)]
    if not v or min(v) <= 0:
        return "n/a"
    m, h = mean_ci([math.log(x) for x in v])

    def x(f):
        return f"x{f:.2f}" if f < 10 else f"x{f:,.0f}"
    return x(math.exp(m)) + (f" ({x(math.exp(m - h))} to {x(math.exp(m + h))})" if len(v) > 1 else "")


def runs_per_point(rows):
    """'N runs per point (seeds a-b)' or, where points differ, the range of runs per point."""
    n = sorted({len(runs(r)) for r in rows})
    seeds = sorted({x.get("seed", 1) for r in rows for x in runs(r)})
    if n == [1]:
        return "one run (seed 1): single runs, without intervals"
    return (f"{n[0]} runs" if len(n) == 1 else f"{n[0]} to {n[-1]} runs") + f" (seeds {seeds[0]} to {seeds[-1]})"


def plan(args):
    """The points this invocation runs: (large, workload, placement), from --only, --extras, --policies and
    --large / --no-large."""
    only = args.only.split(",") if args.only else None
    pols = args.policies.split(",") if args.policies else None
    pts = []
    if args.large is not False:
        pts += [(True, w, p) for w in LARGE_WORKLOADS for p in LARGE_POLICIES
                if (not only or w in only) and (not pols or p in pols)]
    if not args.large:
        todo = only or list(WORKLOADS)
        if args.extras:
            pts += [(False, w, p) for w in EXTRA_WORKLOADS if w in todo for p in EXTRAS if not pols or p in pols]
        else:
            pts += [(False, w, p) for w in todo for p in POLICIES]
            pts += [(False, w, p) for w in todo if w in EXTRA_WORKLOADS for p in EXTRAS]
            pts += [(False, w, p) for w in todo if w in FLOOR_WORKLOADS for p in FLOOR]
    return pts


def ordered(rows, large):
    order = LARGE_POLICIES if large else list(POLICIES) + list(EXTRAS) + list(FLOOR)
    wls = LARGE_WORKLOADS if large else list(WORKLOADS)
    return sorted(rows, key=lambda r: (wls.index(r["workload"]), order.index(r["policy"]), r.get("seed", 1)))


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--bin", default=os.path.join(ROOT, "build/platform/ssdvp"))
    ap.add_argument("--out", default=os.path.join(ROOT, "out/streams"))
    ap.add_argument("--page", "--doc", dest="doc", default=os.path.join(ROOT, "docs/results/streams.md"))
    ap.add_argument("--seeds", type=int, default=3,
                    help="runs per point, seeds 1..N of " + " and ".join(SEED_KEYS) + " (default 3)")
    ap.add_argument("--jobs", type=int, default=1, help="runs at a time (default 1; each run is one process)")
    ap.add_argument("--quick", action="store_true", help="a fifth of the operations (a smoke run; do not publish)")
    ap.add_argument("--only", default="", help="rerun only these workloads (comma list), keep the others' rows")
    ap.add_argument("--extras", action="store_true", help="run only the fewer-streams runs, keep the other rows")
    ap.add_argument("--render", metavar="DATA_DIR",
                    help="run nothing: render the page from this folder's data (docs/results/streams is the "
                         "committed one)")
    ap.add_argument("--large", dest="large", action="store_true", default=None,
                    help="run only the larger drive's rows, keep the small drive's")
    ap.add_argument("--no-large", dest="large", action="store_false", help="skip the larger drive's rows, keep them")
    ap.add_argument("--policies", default="",
                    help="with --large or --extras: run only these placements (comma list)")
    ap.add_argument("--collect", action="store_true",
                    help="only rewrite the page from the finished runs' outputs under --out (both drives)")
    args = ap.parse_args()
    if args.seeds < 1 or args.jobs < 1:
        sys.exit("--seeds and --jobs: expected 1 or more")
    t0 = time.monotonic()
    if args.render:
        with open(os.path.join(args.render, "rows.json")) as f:
            rows = json.load(f)
        with open(os.path.join(args.render, "large_rows.json")) as f:
            large_rows = json.load(f)
        render(args, rows, large_rows, args.render)
        return
    data = os.path.join(ROOT, "docs/results/streams")
    paths = {False: os.path.join(args.out, "rows.json"), True: os.path.join(args.out, "large", "rows.json")}
    kept = {}
    for large, path in paths.items():  # the rows this invocation does not rerun: the last run's, or the page's
        src = path if os.path.exists(path) else os.path.join(data, "large_rows.json" if large else "rows.json")
        kept[large] = json.load(open(src)) if os.path.exists(src) else []
    if args.collect:
        kept = {large: collect(args.out, large) for large in paths}
    else:
        pts = plan(args)
        if any(large for large, _, _ in pts):
            large_drive(args.bin, args.out)  # saved once, before the runs that load it start
        jobs = [(large, w, p, k) for large, w, p in pts for k in range(1, args.seeds + 1)]
        from concurrent.futures import ThreadPoolExecutor  # the runs are processes: threads only wait
        with ThreadPoolExecutor(args.jobs) as ex:
            new = list(ex.map(lambda j: run(args.bin, args.out, j[1], j[2], args.quick, j[3], j[0]), jobs))
        for large in paths:
            redo = {(w, p) for lg, w, p in pts if lg == large}
            kept[large] = [r for r in kept[large] if (r["workload"], r["policy"]) not in redo] + \
                [r for r in new if r["large"] == large]
    for large, path in paths.items():
        kept[large] = ordered(kept[large], large)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w") as f:
            json.dump(kept[large], f)
    rows, large_rows = kept[False], kept[True]
    keep_data(data, rows, large_rows, args.bin, t0)
    with open(os.path.join(data, "table.csv"), "w") as f:
        f.write("workload,policy,seed,waf,erases,write_stalls,write_mean_us,write_p9999_us,mae,spearman,sim_s,"
                "wall_s\n")
        for r in rows:
            sc = r.get("pred", {}).get(r["policy"], {})
            f.write(f"{r['workload']},{r['policy']},{r.get('seed', 1)},{r['waf']:.4f},{r['erases']},{r['stalls']},"
                    f"{r['w_mean']:.1f},{r['w_p9999']:.1f},{sc.get('mae', '')},{sc.get('spearman', '')},"
                    f"{r['sim_s']:.1f},{r['wall_s']}\n")
    render(args, [trim(r) for r in rows], [trim(r) for r in large_rows], data)


def render(args, rows, large_rows, data):
    """The page and its figures (beside the page, in streams/) from the rows as the data keeps them."""
    figdir = os.path.join(os.path.dirname(os.path.abspath(args.doc)), "streams")
    os.makedirs(figdir, exist_ok=True)
    by = points(rows)
    wls = [w for w in WORKLOADS if (w, "none") in by and (w, "lstm") in by]  # runs cut short: whole workloads only
    pols = list(POLICIES)

    def half(key, scale=1.0):  # each point's 95 % half-width
        return {k: mean_ci([_get(x, key) * scale for x in runs(v) if _get(x, key) is not None])[1]
                for k, v in by.items()}
    svg_bars(os.path.join(figdir, "waf.svg"), "WAF by workload and placement", wls, pols,
             {k: v["waf"] for k, v in by.items()}, "WAF", half("waf"))
    svg_bars(os.path.join(figdir, "p9999.svg"), "p99.99 write latency", wls, pols,  # whiskers: lowest to highest run
             {k: v["w_p9999"] / 1000 for k, v in by.items()}, "ms",
             {k: (min(x["w_p9999"] for x in runs(v)) / 1000, max(x["w_p9999"] for x in runs(v)) / 1000)
              for k, v in by.items()})
    rho = {(w, p): (by[(w, "lstm")], "pred." + p + (".spearman" if p == "lstm" else ".spearman_lstm_periods"))
           for w in wls for p in ["autostream", "lstm"] if "pred" in by[(w, "lstm")]}
    svg_bars(os.path.join(figdir, "spearman.svg"), "Rank correlation of predicted and real next-period temperature",
             wls, ["autostream", "lstm"], {k: _get(r, key) for k, (r, key) in rho.items()}, "Spearman rho",
             {k: mean_ci([_get(x, key) for x in runs(r)])[1] for k, (r, key) in rho.items()})
    feats = None
    pear = {}
    for w in wls:
        pr = by[(w, "lstm")].get("pred")
        if pr and pr.get("pearson"):
            feats = pr["features"]
            for i, name in enumerate(feats):
                pear[(name, w)] = abs(pr["pearson"][i])
    if feats:
        svg_bars(os.path.join(figdir, "pearson.svg"), "|Pearson r| of each feature with next-period temperature",
                 feats, wls, pear, "|r|")
    write_doc(args, rows, by, wls, pols, large_rows, data)


def large_table(lb, by):
    """The larger drive's points beside the small drive's (same workloads, same placements) and the seed's."""
    L = ["| workload | placement | WAF, 1 GiB | vs none | WAF, 4 GiB | vs none | vs autostream | "
         "write p99.99 (us), 1 GiB | write p99.99 (us), 4 GiB | vs none | free blocks min, 4 GiB | "
         "the seed (its LSTM scheme, PM963) |",
         "|---|---|---|---|---|---|---|---|---|---|---|---|"]
    for w in LARGE_WORKLOADS:
        if (w, "none") not in lb:
            continue
        b, sb = lb[(w, "none")], by.get((w, "none"))
        for p in LARGE_POLICIES:
            r, s, a = lb.get((w, p)), by.get((w, p)), lb.get((w, "autostream"))
            if not r:
                continue
            vs_none = p != "none"
            L.append("| " + " | ".join([
                w, p,
                ci(s, "waf") if s else "not run",
                chg(s, sb) if s and sb and vs_none else "",
                ci(r, "waf"),
                chg(r, b) if vs_none else "",
                chg(r, a) if p == "lstm" and a else "",
                ci(s, "w_p9999", ",.0f") if s else "not run",
                ci(r, "w_p9999", ",.0f"),
                ratio(r, b) if vs_none else "",
                ci(r, "free_min", ".0f"),
                SEED.get(w, "") if p == ("lstm" if (w, "lstm") in lb else "none") else ""]) + " |")
    return "\n".join(L)


def large_section(large_rows, by):
    """The larger drive's section of the page (its heading up to the findings)."""
    return ("### A drive where eight streams do not eat the spare\n\n"
            f"The same runs on a drive {LARGE_SCALE} times larger (`" + ", ".join(f"{k}={v}" for k, v in LARGE.items())
            + f"`; 12.5 % spare as above, operations x {LARGE_SCALE} so that each run writes as many drive writes): "
            "eight streams' open blocks on every die plus GC's frontier (36 MiB) are 7 % of its 512 MiB spare "
            "instead of 28 % of 128 MiB. The drive is filled once and saved (`--save-state`, docs/state.md); "
            "each run loads it. `python3 scripts/streams_experiment.py --large` reruns these rows alone "
            "(outputs in `out/streams/large/`). The last column is the seed's result for its LSTM scheme "
            "against no streams (and AutoStream) on its drive, for comparison with the `lstm` row (with the "
            "`none` row where `lstm` was not run); what differs "
            "and why is in the findings below.\n\n" + large_table(points(large_rows), by) + "\n" + made_by(large_rows))


def made_by(large_rows):
    """Which simulator made which of the larger drive's rows (they may come from several runs)."""
    groups = {}
    for r in large_rows:
        who = r.get("ssdvp")
        if who:
            groups.setdefault(who, []).append(f"{r['workload']}/{r['policy']}/{r.get('seed', 1)}")
    if len(groups) < 2:
        return ""
    return "\nRows by simulator: " + "; ".join(f"{', '.join(v)}: {k}" for k, v in groups.items()) + ".\n"


def floor_table(by):
    """fio with AutoStream under each rule at the host floor (room: the main table's row)."""
    L = ["| `ftl.write.at_floor` | WAF | write mean (us) | write p99.99 (us) | write stalls |", "|---|---|---|---|---|"]
    for rule, pol in (("`wait`", "autostream@wait"), ("`pass`", "autostream@pass"), ("`room` (the default)", "autostream")):
        r = by.get(("fio", pol))
        if r:
            L.append(f"| {rule} | {ci(r, 'waf')} | {ci(r, 'w_mean', ',.1f')} | {ci(r, 'w_p9999', ',.0f')} | "
                     f"{ci(r, 'stalls', ',.0f')} |")
    return "\n".join(L)


def write_doc(args, rows, by, wls, pols, large_rows, data):
    L = []
    A = L.append
    A("# Multi-stream placement from predicted temperature (LSTM, AutoStream) against no streams, an oracle and HAML-SSD\n")
    A("<!-- Generated by scripts/streams_experiment.py. Do not edit: edit the script and regenerate. -->\n")
    sys.path.insert(0, os.path.join(ROOT, "explore"))
    from ssdvp_explore import provenance as prov_mod  # standard library only
    prov = prov_mod.read(data)
    load = prov.get("load") if prov else None
    ws = [r.get("wall_s") or 0 for r in rows]
    wl_ = [r.get("wall_s") or 0 for r in large_rows]
    cmd = (prov or {}).get("command") or "python3 scripts/streams_experiment.py"
    A(f"**Regenerate** ({len(ws)} runs on the small drive of {min(ws):.0f}-{max(ws):.0f} s each and "
      f"{len(wl_)} on the larger one of {min(wl_, default=0):.0f}-{max(wl_, default=0):.0f} s each: "
      f"{sum(ws) + sum(wl_):,.0f} s of wall time summed over the runs as streams/runs.csv records it"
      + (f", load average {load[0]:g} / {load[1]:g} / {load[2]:g} on {prov.get('cpus') or '?'} CPUs" if load else "")
      + f"): `{cmd}` "
      "(runs `build/platform/ssdvp` on `configs/streams.yaml`, `--jobs N` runs at a time; outputs in "
      "`out/streams/`, or `--out DIR`: the larger drive's saved state and the stream logs take a few hundred "
      "MiB). Render again from the committed data: `python3 scripts/streams_experiment.py --render "
      "docs/results/streams --page docs/results/streams.md` (`streams/rows.json` and `streams/large_rows.json`: "
      f"every run's figures the page shows). One point is {runs_per_point(list(by.values()))}; a point's runs differ "
      "in " + " and ".join(f"`{k}`" for k in SEED_KEYS) + " (the application generator's random choices, the "
      "LSTM's initialisation and batch order, the random streams' draws; the drive is filled sequentially, so its "
      "history is the same). Every figure "
      "is the mean over a point's runs with the half-width of its 95 % t interval; a change against another "
      "placement (\"vs none\") is paired by seed: the mean of the per-seed changes and their interval.\n")
    A("**Setup.** The small drive of `configs/small.yaml` (1 GiB of flash, 896 MiB exported, 12.5 % spare, "
      "greedy GC below 16 free blocks), filled sequentially before the timed run, eight host classes "
      "(`ftl.hot.classes: 8`), the firmware's `stream` placement (stream *s* writes class *s* - 1, one open "
      "block per die per class; relocated data has a frontier of its own; `ftl.write.at_floor: room`, the "
      "firmware's default, set explicitly in the config: at the host floor a stream writes on the dies where it "
      "has an open block, while it has fewer pages in flight than open blocks, instead of waiting for a block on "
      "its next die, and waiting writes to other streams pass; the start-of-stream stall below). The host "
      "enables the NVMe Streams "
      "directive and allocates eight streams over the admin queue before the run. Workloads are the "
      "application generators (`workload.source: app`, docs/traces.md) open loop:\n")
    for w, s in WORKLOADS.items():
        A(f"- `{w}`: " + ", ".join(f"`{k.replace('workload.app.', '')}={v}`" for k, v in s.items() if k != "workload.app.kind"))
    A("")
    A("**Placements.** `none`: no stream IDs (everything on one host frontier; the paper's baseline). "
      "`autostream`: each write takes its chunk's stream from last period's temperature, T'(t+1) = T(t), "
      "clustered like the LSTM's. `lstm`: an LSTM over the last k = 5 records of the selected features "
      "predicts each chunk's temperature next period; trained by BPTT and Adam on the first 8 periods "
      "(AutoStream's assignment meanwhile), then used online. Both: 10,000 chunks, 5 s periods, 1-D K-Means "
      "(kmeans2d's rules) of log(1 + predicted temperature) into 8 streams, hottest first. `oracle`: every "
      "write's real death-time class (a pre-pass over the workload). `haml`: HAML-SSD's in-drive placement "
      "(2-D K-Means on update frequency and interval, K = 6) with 1 MiB slices and a 5 s period, no stream "
      "IDs.\n")
    A("## Results\n")
    A("| workload | placement | WAF | vs none | erases | write stalls | write mean (us) | write p99.99 (us) | vs none |")
    A("|---|---|---|---|---|---|---|---|---|")
    for w in wls:
        base = by[(w, "none")]
        for p in pols:
            r = by.get((w, p))
            if not r:
                continue
            A(f"| {w} | {p} | {ci(r, 'waf')} | {chg(r, base) if p != 'none' else ''} | {ci(r, 'erases', ',.0f')} | "
              f"{ci(r, 'stalls', ',.0f')} | {ci(r, 'w_mean', ',.0f')} | {ci(r, 'w_p9999', ',.0f')} | "
              f"{ratio(r, base) if p != 'none' else ''} |")
    A("\n**Fewer streams, and random streams.** AutoStream with 2 and 4 streams (`host.predict.streams`; 8 "
      "above), and every write on one of the 8 streams drawn at random (`host.streams: random`: the cost of "
      "eight open streams without any information about lifetimes):\n")
    A("| workload | streams | WAF | vs none | write stalls | write p99.99 (us) |")
    A("|---|---|---|---|---|---|")
    for w in EXTRA_WORKLOADS:
        base = by.get((w, "none"))
        for p in ["none"] + list(EXTRAS) + ["autostream"]:
            r = by.get((w, p))
            if r:
                n = {"none": "none", "random": "8, random"}.get(p, p.split("-")[1] if "-" in p else "8")
                A(f"| {w} | {n} | {ci(r, 'waf')} | {chg(r, base) if base and p != 'none' else ''} | "
                  f"{ci(r, 'stalls', ',.0f')} | {ci(r, 'w_p9999', ',.0f')} |")
    A("\n![WAF](streams/waf.svg)\n\n![p99.99 write latency](streams/p9999.svg)\n")
    A("Each bar is the mean over a point's runs; the WAF whiskers are its 95 % interval, the p99.99 whiskers "
      "(a log axis, where a symmetric interval would reach below zero) the lowest and highest run.\n")
    life = [r for r in by.values() if r.get("life") and r["policy"] not in FLOOR]  # the floor rules: their own table
    if life:
        A("### How well the streams separate data by lifetime\n")
        A("Every write's stream ID is logged (`--set host.streams_log=FILE`) and scored against the data's real "
          "death distance (the LBAs the host writes before the LBA is written again or trimmed, as the oracle "
          "computes it), in the oracle's 8 classes, one doubling of the distance each "
          "(`python3 scripts/streams_lifetimes.py FILE`). *Spread*: the standard deviation of the death class "
          "inside a stream, pooled over the streams (in doublings; `none` has one stream, so its spread is the "
          "workload's own). *NMI*: the mutual information of stream and death class over the class's entropy "
          "(0: the stream says nothing about when the data dies, 1: everything). *Streams used*: streams with at "
          "least 1 % of the written LBAs.\n")
        A("| workload | placement | WAF | vs none | spread (doublings) | NMI | streams used |")
        A("|---|---|---|---|---|---|---|")
        for r in life:
            base = by.get((r["workload"], "none"))
            A(f"| {r['workload']} | {r['policy']} | {ci(r, 'waf')} | "
              f"{chg(r, base) if base and r['policy'] != 'none' else ''} | {ci(r, 'life.spread', '.2f')} | "
              f"{ci(r, 'life.nmi')} | {ci(r, 'life.streams_used', '.1f')} |")
        A("")
    A("### Prediction error\n")
    A("Mean over the periods after training, every chunk, against the real temperature (write requests) of "
      "the next period. AutoStream is scored over the same periods.\n")
    A("| workload | AutoStream MAE | LSTM MAE | AutoStream Spearman | LSTM Spearman | selected features | "
      "train CPU (s) | capture CPU / period (ms) | predict CPU / period (ms) | charged host CPU / period (ms) |")
    A("|---|---|---|---|---|---|---|---|---|---|")
    for w in wls:
        r = by[(w, "lstm")]
        if not r.get("pred"):
            continue
        sel = {", ".join(x["pred"]["selected"]) for x in runs(r)}
        sel = sel.pop() if len(sel) == 1 else "; ".join(f"seed {x.get('seed', 1)}: {', '.join(x['pred']['selected'])}"
                                                         for x in runs(r))
        cpu = [period_cpu(x["pred"]) for x in runs(r)]
        A(f"| {w} | {ci(r, 'pred.autostream.mae_lstm_periods')} | {ci(r, 'pred.lstm.mae')} | "
          f"{ci(r, 'pred.autostream.spearman_lstm_periods')} | {ci(r, 'pred.lstm.spearman')} | {sel} | "
          f"{ci(r, 'pred.train_cpu_s', '.1f')} | {fmt_ci([c[0] for c in cpu])} | {fmt_ci([c[1] for c in cpu])} | "
          f"{fmt_ci([c[2] for c in cpu]) or 'not recorded'} |")
    A("\n![Spearman](streams/spearman.svg)\n\n![Pearson](streams/pearson.svg)\n")
    A("Capture and predict columns average the periods after the one that trained (its cost is the train "
      "column); predict covers closing the records, the LSTM over all chunks and the K-Means. "
      + predictor_clocks(rows) + "; `build/testbench/bench/ssdvp_bench "
      "--benchmark_filter='FeatureCapture|Lstm|Kmeans1d'` measures the pieces alone. The simulated host is "
      "charged its own CPU time for the LSTM (`host.predict.cpu_ns_per_mac`, `host.predict.cpu_ns_per_train_mac`): "
      "a period's new streams apply only once that work would have finished on one core.\n")
    if large_rows:
        A(large_section(large_rows, by))
    A(findings(by, points(large_rows)))
    A("\n" + prov_mod.section(prov, "python3 scripts/streams_experiment.py"))
    with open(args.doc, "w") as f:
        f.write("\n".join(L) + "\n")


FINDINGS = open(os.path.join(ROOT, "scripts/streams_findings.md")).read() if os.path.exists(
    os.path.join(ROOT, "scripts/streams_findings.md")) else ""


def predictor_clocks(rows):
    """What the capture, predict and train columns measured, from the reports' `clocks` (a simulator that
    wrote none timed all three with the wall clock), as a clause the page's sentence goes on from."""
    clocks = {tuple(sorted((x["pred"].get("clocks") or {}).items())) for r in rows for x in runs(r) if x.get("pred")}
    if clocks == {(("capture", "steady"), ("predict", "thread_cpu"), ("train", "thread_cpu"))}:
        return ("Train and predict are CPU time of the threads that ran them (they do not grow with the machine's "
                "load), capture wall-clock time summed over the period's requests")
    if clocks == {()}:
        return "They are wall-clock time of the simulator's host process on a shared machine"
    return ("Their clocks differ between runs (the runs came from different builds: "
            + "; ".join(", ".join(f"{k} {v}" for k, v in c) or "none named" for c in sorted(clocks)) + ")")


def period_cpu(pred):
    """(capture, predict, charged) CPU ms per period of one run, averaged over the periods after the one that
    trained: capture and predict as the simulator's process measured them, charged the host CPU time the
    simulated host spent (host.predict.cpu_ns_per_mac per multiply-accumulate) before the period's streams
    applied."""
    per = [x for x in pred["per_period"] if x["period"] > pred["trained_at_period"]]
    n = max(1, len(per))
    return (sum(x["capture_ms"] for x in per) / n, sum(x["predict_ms"] for x in per) / n,
            1000 * sum(x.get("host_cpu_s", float("nan")) for x in per) / n)


def _pred(r, m, key):
    """A prediction score of placement m (autostream scored over the LSTM's periods) from a workload's lstm row."""
    pr = r["pred"][m]
    return pr[key + "_lstm_periods"] if m == "autostream" else pr[key]


def _signed(v):
    return f"{v:+.1f}"


# {name:WORKLOADS[|PLACEMENTS[|BASE]]} in the findings: the figure of each (workload, placement), workloads and
# placements comma lists (several figures print as "lo to hi"); an L before the name reads the larger drive.
# Each name: (value of a row r given the rows by (workload, placement) `d`, number format, unit).
FIGURES = {
    "waf": (lambda d, w, p, b: d[(w, p)]["waf"], "{:.3f}".format, ""),
    "waf2": (lambda d, w, p, b: d[(w, p)]["waf"], "{:.2f}".format, ""),
    # the WAF change, paired by seed (one figure prints with its 95 % interval)
    "vs": (lambda d, w, p, b: paired(d[(w, p)], d[(w, b)]), _signed, " %"),
    "cost": (lambda d, w, p, b: 100 * (d[(w, "random")]["waf"] / d[(w, "none")]["waf"] - 1), "{:.1f}".format, ""),
    "rec": (lambda d, w, p, b: 100 * (d[(w, "random")]["waf"] - d[(w, p)]["waf"]) / d[(w, "none")]["waf"],
            "{:.1f}".format, ""),  # points of random's WAF cost that p recovers
    "nmi": (lambda d, w, p, b: d[(w, p)]["life"]["nmi"], "{:.3f}".format, ""),
    "nmi2": (lambda d, w, p, b: d[(w, p)]["life"]["nmi"], "{:.2f}".format, ""),
    "nmipct": (lambda d, w, p, b: 100 * d[(w, p)]["life"]["nmi"], "{:.0f}".format, " %"),
    "spread": (lambda d, w, p, b: d[(w, p)]["life"]["spread"], "{:.2f}".format, ""),
    "mae": (lambda d, w, p, b: _pred(d[(w, "lstm")], p, "mae"), "{:.2f}".format, ""),
    "rho": (lambda d, w, p, b: _pred(d[(w, "lstm")], p, "spearman"), "{:+.2f}".format, ""),
    "p": (lambda d, w, p, b: d[(w, p)]["w_p9999"], None, ""),  # p99.99 write latency, us or ms
    # the predictor's CPU time as the lstm runs measured it: capture and predict per period (ms), training (s)
    "cap": (lambda d, w, p, b: [period_cpu(x["pred"])[0] for x in runs(d[(w, "lstm")])], "{:.1f}".format, " ms"),
    "pms": (lambda d, w, p, b: [period_cpu(x["pred"])[1] for x in runs(d[(w, "lstm")])], "{:.0f}".format, " ms"),
    "train": (lambda d, w, p, b: [x["pred"]["train_cpu_s"] for x in runs(d[(w, "lstm")])], "{:.1f}".format, " s"),
    "charged": (lambda d, w, p, b: [period_cpu(x["pred"])[2] for x in runs(d[(w, "lstm")])], "{:.0f}".format,
                " ms"),
}


def _latency(us):
    return f"{us / 1000:.1f} ms" if us >= 1000 else f"{us:.0f} us"


def fill_figures(text, small, large):
    """The findings with every {name:...} figure filled from the rows (FIGURES); a figure whose row or field the
    data lack is an error naming it."""
    def one(m):
        big, name, args = m.group(1) == "L", m.group(2), m.group(3).split("|")
        get, fmt, unit = FIGURES[name]
        d = large if big else small
        try:
            got = [get(d, w, p, args[2] if len(args) > 2 else "none")
                   for w in args[0].split(",") for p in (args[1] if len(args) > 1 else "").split(",")]
            if any(isinstance(v, list) and not v for v in got):
                raise KeyError("no runs to pair")
        except (KeyError, TypeError, IndexError, ZeroDivisionError) as e:
            sys.exit(f"scripts/streams_findings.md: {m.group(0)}: not in the data ({e!r})")
        if len(got) == 1 and isinstance(got[0], list) and len(got[0]) > 1:  # one figure over several runs
            mid, h = mean_ci(got[0])
            return f"{fmt(mid)} ± {fmt(h).lstrip('+')}{unit}"
        vals = sorted(mean_ci(v)[0] if isinstance(v, list) else v for v in got)
        if fmt is None:
            out = [_latency(v) for v in vals]
            return out[0] if out[0] == out[-1] else f"{out[0]} to {out[-1]}"
        lo, hi = fmt(vals[0]), fmt(vals[-1])
        return (lo if lo == hi else f"{lo} to {hi}") + unit
    names = "|".join(sorted(FIGURES, key=len, reverse=True))
    return re.sub(r"\{(L?)(" + names + r"):([^{}]+)\}", one, text)


def _w(d, w, p):
    return d[(w, p)]["waf"]


def _near_random(d, w, p):
    """p sits next to random: above none, it recovers less than a third of what random streams cost over none."""
    return _w(d, w, "none") < _w(d, w, p) and _w(d, w, "random") - _w(d, w, p) < (_w(d, w, "random")
                                                                                  - _w(d, w, "none")) / 3


def _above(d, w, p, b, key="waf"):
    """p's figure is above b's, paired by seed: the 95 % interval of the per-seed changes lies above 0 (one run:
    its change is above 0)."""
    m, h = mean_ci(paired(d[(w, p)], d[(w, b)], key))
    return m - h > 0


def _above_each(d, w, p, b, key):
    """p's figure is above b's on every seed both ran (the claim for tails, whose per-seed ratios span decades)."""
    v = paired(d[(w, p)], d[(w, b)], key)
    return bool(v) and min(v) > 0


def _below_each(d, w, p, b, key="waf"):
    v = paired(d[(w, p)], d[(w, b)], key)
    return bool(v) and max(v) < 0


def _below(d, w, p, b, key="waf"):
    m, h = mean_ci(paired(d[(w, p)], d[(w, b)], key))
    return m + h < 0


_PRED = ("fio", "mysql", "fio_fixed")
# What the findings' prose says, checked on the data at each rendering: (S: small drive, L: larger drive)
CLAIMS = [
    ("AutoStream and the LSTM raise WAF over none on fio, mysql and fio_fixed (small drive; paired by seed, the "
     "interval above 0)",
     lambda S, L: all(_above(S, w, p, "none") for w in _PRED for p in ("autostream", "lstm"))),
    ("the oracle's streams beat none on fio, mysql and fio_fixed (small drive; paired, the interval below 0)",
     lambda S, L: all(_below(S, w, "oracle", "none") for w in _PRED)),
    ("random streams cost more than any other placement on fio, mysql and fio_fixed (small drive)",
     lambda S, L: all(_w(S, w, "random") > _w(S, w, p) for w in _PRED
                      for p in ("none", "autostream", "lstm", "oracle", "haml"))),
    ("AutoStream and the LSTM sit next to random (recover less than a third of its cost; small drive)",
     lambda S, L: all(_near_random(S, w, p) for w in _PRED for p in ("autostream", "lstm"))),
    ("AutoStream with 2 and 4 streams: fewer streams cost less, and none beats none (fio, mysql)",
     lambda S, L: all(_w(S, w, "none") < _w(S, w, "autostream-2") < _w(S, w, "autostream-4") < _w(S, w, "autostream")
                      for w in ("fio", "mysql"))),
    ("random streams carry no lifetime information (NMI below 0.01), the predicted ones little (below 0.2)",
     lambda S, L: all(S[(w, "random")]["life"]["nmi"] < 0.01 and S[(w, "autostream")]["life"]["nmi"] < 0.2
                      and S[(w, "lstm")]["life"]["nmi"] < 0.2 for w in _PRED)),
    ("AutoStream's spread on fio_fixed is already near the exponential floor of 1.85 doublings (within 0.1)",
     lambda S, L: abs(S[("fio_fixed", "autostream")]["life"]["spread"] - 1.85) < 0.1),
    ("on mysql the LSTM's MAE is about half AutoStream's (0.4-0.6), at the same NMI (within 0.02), and its WAF is "
     "not below AutoStream's (paired)",
     lambda S, L: 0.4 < _pred(S[("mysql", "lstm")], "lstm", "mae") / _pred(S[("mysql", "lstm")], "autostream", "mae")
     < 0.6 and abs(S[("mysql", "lstm")]["life"]["nmi"] - S[("mysql", "autostream")]["life"]["nmi"]) < 0.02
     and not _below(S, "mysql", "lstm", "autostream")),
    ("on fio the signal is weaker than on mysql and fio_fixed (lower NMI for both predictors)",
     lambda S, L: all(S[("fio", p)]["life"]["nmi"] < min(S[(w, p)]["life"]["nmi"] for w in ("mysql", "fio_fixed"))
                      for p in ("autostream", "lstm"))),
    ("larger drive: random streams cost less than on the small drive, still more than none (fio, mysql)",
     lambda S, L: all(_above(L, w, "random", "none") and _w(L, w, "random") / _w(L, w, "none")
                      < _w(S, w, "random") / _w(S, w, "none") for w in ("fio", "mysql"))),
    ("larger drive: AutoStream and the LSTM stay above none (paired); next to random except the LSTM on mysql",
     lambda S, L: all(_above(L, w, p, "none") for w in ("fio", "mysql") for p in ("autostream", "lstm"))
     and _near_random(L, "fio", "autostream") and _near_random(L, "fio", "lstm")
     and _near_random(L, "mysql", "autostream") and not _near_random(L, "mysql", "lstm")),
    ("larger drive: the oracle gains more than on the small drive (fio, mysql)",
     lambda S, L: all(_w(L, w, "oracle") / _w(L, w, "none") < _w(S, w, "oracle") / _w(S, w, "none")
                      for w in ("fio", "mysql"))),
    ("larger drive: the LSTM is level with AutoStream on fio (within 0.5 %) and below it on mysql on every seed, "
     "though not beyond the paired interval",
     lambda S, L: abs(_w(L, "fio", "lstm") / _w(L, "fio", "autostream") - 1) < 0.005
     and _below_each(L, "mysql", "lstm", "autostream") and not _below(L, "mysql", "lstm", "autostream")),
    ("the floor rules: wait and pass have tails far longer than room (x10 and more on p99.99)",
     lambda S, L: all(S[("fio", p)]["w_p9999"] > 10 * S[("fio", "autostream")]["w_p9999"]
                      for p in ("autostream@wait", "autostream@pass"))),
    ("every placement that opens several frontiers has a longer write tail (p99.99) than none on fio and mysql, "
     "on every seed",
     lambda S, L: all(_above_each(S, w, p, "none", "w_p9999") for w in ("fio", "mysql")
                      for p in ("autostream", "lstm", "oracle", "haml", "random"))),
    ("on RocksDB-like workloads AutoStream's Spearman rho is negative and the LSTM's above +0.5",
     lambda S, L: all(_pred(S[(w, "lstm")], "autostream", "spearman") < 0 < 0.5 < _pred(S[(w, "lstm")], "lstm",
                                                                                       "spearman")
                      for w in ("rocksdb", "rocksdb2"))),
    ("on mysql the LSTM halves the MAE at the same rank correlation (within 0.05); on fio and fio_fixed its MAE "
     "is lower and its rank correlation lower too",
     lambda S, L: abs(_pred(S[("mysql", "lstm")], "lstm", "spearman")
                      - _pred(S[("mysql", "lstm")], "autostream", "spearman")) < 0.05
     and all(_pred(S[(w, "lstm")], "lstm", "mae") < _pred(S[(w, "lstm")], "autostream", "mae")
             and _pred(S[(w, "lstm")], "lstm", "spearman") < _pred(S[(w, "lstm")], "autostream", "spearman")
             for w in ("fio", "fio_fixed"))),
    ("RocksDB-like: WAF 1.00 (below 1.01) under every placement on both drives",
     lambda S, L: all(r["waf"] < 1.01 for d in (S, L) for (w, p), r in d.items() if w in ("rocksdb", "rocksdb2"))),
    ("the LSTM's prediction step costs under 2 % of its 5 s period on every workload, and the host CPU time "
     "charged for it is more than it took",
     lambda S, L: all(max(period_cpu(x["pred"])[1] for x in runs(S[(w, "lstm")])) < 100 for w in WORKLOADS
                      if (w, "lstm") in S)
     and all(period_cpu(x["pred"])[2] > period_cpu(x["pred"])[1] for w in WORKLOADS if (w, "lstm") in S
             for x in runs(S[(w, "lstm")]))),
    ("HAML-SSD lands between none and the stream policies on fio, mysql and fio_fixed (small drive)",
     lambda S, L: all(_w(S, w, "none") < _w(S, w, "haml") < min(_w(S, w, "autostream"), _w(S, w, "lstm"))
                      for w in _PRED)),
]


def findings(small, large):
    """The findings section: the floor rules' table, the figures filled from the rows, and every claim of CLAIMS
    checked (a claim the data no longer support stops the rendering: rewrite scripts/streams_findings.md)."""
    sys.path.insert(0, os.path.join(ROOT, "explore"))
    from ssdvp_explore import claims  # standard library only
    false, unchecked = claims.check(CLAIMS, small, large)
    lines = [f"  - {text}" for text in false] + [f"  - {text}: its rows are not in the data ({why})"
                                                   for text, why in unchecked]
    if lines:
        sys.exit("scripts/streams_findings.md makes claims the data no longer support (rewrite them, and "
                 "CLAIMS in scripts/streams_experiment.py):\n" + "\n".join(lines))
    return fill_figures(FINDINGS.replace("{{FLOOR}}", floor_table(small)), small, large)

if __name__ == "__main__":
    main()
