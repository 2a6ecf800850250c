#!/usr/bin/python3
"""haml_tables.py - HAML-SSD's Table I, Table II and Fig. 3 on our workloads:
writes docs/results/haml-tables.md, its data (docs/results/haml-tables/*.csv,
provenance.json) and its figure.

    /usr/bin/python3 scripts/haml_tables.py [BUILD_DIR] [--jobs N]
    /usr/bin/python3 scripts/haml_tables.py --render-only [--data DIR] [--page FILE]
        # the page again from DIR/haml-tables/ (default docs/results); with --page the figure is not redrawn

Table I: per workload, the Pearson r between the per-slice features UpdateF
(writes in the period) and UpdateT (mean update interval, the firmware's
per_slice rule: firmware/ftl/hotness.c) over (slice, period) pairs with at least
one write, pooled over periods; and, beyond the paper, the Spearman rank
correlation of each feature with the slice's writes in the next period and
UpdateT's partial one given UpdateF. Intervals: 95 % percentile bootstrap over
periods (whole periods resampled). The recordings (traces/workloads/) and the
bundled MQSim traces (traces/) are read by one reader, read_writes().

Table II: sklearn's K-Means, Mean-Shift, agglomerative (HAC) and DBSCAN timed on
1000-point samples of our scaled (UpdateF, UpdateT) features, with how well
each clustering separates slices by next-period writes (eta^2) and the cluster
count it finds.

Fig. 3: ssdvp runs of the haml-recorded setup (explore/sweeps/haml-recorded.yaml)
with ftl.hot.features freq_interval and freq, three preconditioning seeds:
the GC victims' invalid-share histogram (summary.json ftl.gc_victim_invalid).
Needs numpy, pandas, matplotlib, PyYAML and scikit-learn (scripts/python-deps.txt).
"""
from __future__ import annotations

import argparse
import csv
import json
import math
import os
import subprocess
import sys
import time
import warnings
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

os.environ.setdefault("OMP_NUM_THREADS", "1")        # one thread per algorithm: timings comparable on a
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")   # shared machine (sklearn's threaded K-Means oversubscribes)
import numpy as np  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "explore"))
from ssdvp_explore import provenance as prov_mod  # noqa: E402
from ssdvp_explore import workloads as recorded  # noqa: E402
from ssdvp_explore.stats import fmt_ci, mean_ci  # noqa: E402
from ssdvp_explore.units import size_bytes, time_ns  # noqa: E402

NAME = "haml-tables"
DATA_DIR = ROOT / "docs" / "results" / NAME
PAGE = ROOT / "docs" / "results" / f"{NAME}.md"
SWEEP = ROOT / "explore" / "sweeps" / "haml-recorded.yaml"
HAML_SWEEP = ROOT / "explore" / "sweeps" / "haml.yaml"     # haml.md's replays of the bundled traces
OUT = ROOT / "out" / NAME

RECORDINGS = ["filebench-fileserver", "filebench-varmail"]
# bundled MQSim-format traces (traces/README.md): name -> file
TRACES = {"msr-heimdall": "msr_heimdall_rw20_80_105.ascii", "dtrs": "dtrs.ascii", "postmark": "postmark.ascii",
          "tpcc-small": "tpcc-small.ascii"}
FIG3_TRACES = ["msr-heimdall", "postmark"]   # Fig. 3's bundled traces, replayed as haml.md replays them
PAPER_SLICES = 2560          # 100 MB slices of the paper's 256 GB drive
TRACE_PERIODS = 20           # periods a bundled trace is cut into (the paper: 6 h periods of week-long traces)
BOOT = 400                   # bootstrap resamples (of periods)
PAPER_T1 = {"prn_1": -0.03, "proj_1": 0.06, "usr_2": 0.05, "prxy_0": 0.17, "proj_0": 0.14, "usr_1": 0.03,
            "stg_1": 0.07, "web_2": 0.18, "LUN0": 0.04}
NEAR_ZERO = 0.2              # the paper's largest |r| is 0.18: "around 0" is |r| < 0.2 here
PAPER_T2 = {"kmeans": (8.61, "O(n)"), "meanshift": (43.4, "O(n^2)"), "hac": (20.1, "O(n^2)"),
            "dbscan": (9.52, "O(n^2) worst")}
T2_POINTS = 1000
T2_SAMPLES = 3               # 1000-point samples per workload
T2_REPEATS = 2               # timings of each algorithm per sample (round robin)
K = 6                        # the firmware's classes (ftl.hot.classes of haml-recorded)
BINS = ["[0,20)", "[20,40)", "[40,60)", "[60,80)", "[80,100]"]
ARMS = {"freq_interval": "UpdateF + UpdateT", "freq": "UpdateF alone"}
SEEDS = [1, 2, 3]
ACCEL_CSV = ROOT / "docs" / "results" / "accelerator" / "sweep_uniform.csv"


# ---- reading ----------------------------------------------------------------------------------------------------


def read_writes(path: Path) -> tuple[np.ndarray, np.ndarray, np.ndarray, float]:
    """The write requests of a trace: (time ns, offset bytes, length bytes) in file order, times rebased to the
    first record and made non-decreasing (the simulator issues a backwards record at the previous record's time),
    and the trace's span in ns. Reads fio iologs with times in ps (our recordings: `fio version 3 iolog`,
    `<t> <dev> <op> <offset> <length>`, plain or .xz) through ssdvp_explore.workloads.read_iolog, where every
    I/O record (read, write, trim, sync, datasync) counts for the times; and MQSim/DiskSim ASCII
    (`<t ns> <dev> <lba> <sectors> <0 write|1 read>`, 512-byte sectors; the device field is folded into one
    device)."""
    fio = str(path).endswith(".xz")
    if not fio:
        with open(path) as f:
            fio = f.readline().startswith("fio version")
    if fio:
        log = recorded.read_iolog(path, time_unit_ps=recorded.TIME_UNIT_PS)   # ps, as the recordings
        t, w, off, ln = log.time_ps / 1000.0, log.op == recorded.WRITE, log.offset, log.length
    else:
        t, off, ln, w = [], [], [], []
        with open(path) as f:
            for line in f:
                p = line.split()
                if len(p) < 5:
                    continue
                t.append(float(p[0]))
                w.append(p[4] == "0")
                off.append(int(p[2]) * 512)
                ln.append(int(p[3]) * 512)
        t = np.array(t, dtype=np.float64)
        w = np.array(w, dtype=bool)
        off, ln = np.array(off, dtype=np.int64), np.array(ln, dtype=np.int64)
    t = np.maximum.accumulate(t)
    t -= t[0]
    return t[w], off[w], ln[w], float(t[-1])


def sweep(path: Path = SWEEP) -> dict:
    import yaml
    return yaml.safe_load(path.read_text())


def sweep_set(name: str) -> dict:
    """The keys the sweep sets for workload `name`: its common `set` with the workload entry's own on top."""
    sw = sweep()
    keys = dict(sw.get("set", {}))
    for w in sw.get("workloads", []):
        if isinstance(w, dict) and w.get("name") == name:
            keys.update(w.get("set", {}))
            return keys
        if w == name:
            return keys
    raise SystemExit(f"haml_tables: {SWEEP.relative_to(ROOT)} has no workload {name}")


def workloads() -> list[dict]:
    """Every workload of Tables I and II: name, file, slice bytes, period ns, drive bytes, where they come from."""
    out = []
    for name in RECORDINGS:
        path = recorded.unpack(ROOT, name)
        drive = recorded.provenance(ROOT, name)["drive"]["export_bytes"]
        sw = sweep_set(name)
        # the period in the recording's own time: the sweep replays it time_scale times slower
        period_ns = time_ns(sw["ftl.hot.period"]) / float(sw.get("workload.time_scale", 1))
        out.append({"workload": name, "path": path, "kind": "recording", "slice": size_bytes(sw["ftl.hot.slice_size"]),
                    "period_ns": int(round(period_ns)), "drive": drive})
    for name, file in TRACES.items():
        path = ROOT / "traces" / file
        t, off, ln, span = read_writes(path)
        top = int((off + ln).max())       # the drive: the highest address written, 2,560 slices of it
        out.append({"workload": name, "path": path, "kind": "bundled trace",
                    "slice": -(-top // PAPER_SLICES), "period_ns": int(span / TRACE_PERIODS) + 1, "drive": top})
    return out


# ---- the monitor --------------------------------------------------------------------------------------------------


def monitor(wl: dict) -> dict:
    """The firmware's monitor (hotness.c, per_slice rule) replayed on the trace's writes. A write request of n
    LBAs records once in every slice it touches (place_note_write); a period closes at the first write at least T
    after the period's start, which starts the next one (hot_period_due); UpdateT of a slice with c >= 1 writes is
    the sum of the gaps from the period's start to its first write and between its writes, over c (integer ns),
    T with none. The last period never closes (no clustering uses it) and is left out.
    Returns per (slice, closed period) with at least one write: arrays slice, period, F, T_fw (firmware rule),
    T_text (the paper's text: mean gap between consecutive writes, T with fewer than 2), next-period writes
    (for periods whose successor also closed, else -1), and the periods' count."""
    t, off, ln, _ = read_writes(wl["path"])
    S, T = wl["slice"], wl["period_ns"]
    first, last = off // S, (off + ln - 1) // S
    pid = np.empty(len(t), dtype=np.int64)
    starts = [0.0]
    start = 0.0
    for i, ti in enumerate(t.tolist()):
        if ti - start >= T:
            start = ti
            starts.append(ti)
        pid[i] = len(starts) - 1
    n = (last - first + 1)
    idx = np.repeat(np.arange(len(t)), n)
    sl = np.repeat(first, n) + (np.arange(n.sum()) - np.repeat(np.cumsum(n) - n, n))
    tt, pp = t[idx], pid[idx]
    closed = len(starts) - 1                       # periods 0 .. closed-1 closed
    slices = int(-(-wl["drive"] // S))
    key = pp * slices + sl
    order = np.lexsort((tt, key))
    key, tt, pp, sl = key[order], tt[order], pp[order], sl[order]
    uk, first_i, counts = np.unique(key, return_index=True, return_counts=True)
    last_i = first_i + counts - 1
    per, sli = uk // slices, uk % slices
    st = np.array(starts)[per]
    t_fw = np.floor((tt[last_i] - st) / counts)
    t_text = np.where(counts >= 2, (tt[last_i] - tt[first_i]) / np.maximum(counts - 1, 1), float(T))
    nxt_map = dict(zip(uk.tolist(), counts.tolist()))
    nxt = np.array([nxt_map.get(int(k + slices), 0) if p + 1 < closed else -1 for k, p in zip(uk, per)],
                   dtype=np.int64)
    keep = per < closed
    return {"slice": sli[keep], "period": per[keep], "F": counts[keep].astype(float), "T_fw": t_fw[keep],
            "T_text": t_text[keep], "next": nxt[keep], "periods": closed, "slices": slices,
            "writes": len(t), "span_s": float(t[-1]) * 1e-9 if len(t) else 0.0}


# ---- Table I ------------------------------------------------------------------------------------------------------


def _rank(x: np.ndarray) -> np.ndarray:
    from scipy.stats import rankdata
    return rankdata(x)


def _pearson(x, y) -> float:
    x, y = x - x.mean(), y - y.mean()
    d = math.sqrt(float((x * x).sum()) * float((y * y).sum()))
    return float((x * y).sum()) / d if d else float("nan")


def _stats(m: dict, rows: np.ndarray) -> dict:
    F, Tf, Tt, N = m["F"][rows], m["T_fw"][rows], m["T_text"][rows], m["next"][rows]
    out = {"r": _pearson(F, Tf), "r_text": _pearson(F, Tt)}
    h = N >= 0
    if h.sum() > 2:
        rf, rt, rn = _rank(F[h]), _rank(Tf[h]), _rank(N[h].astype(float))
        s_fn, s_tn, s_ft = _pearson(rf, rn), _pearson(rt, rn), _pearson(rf, rt)
        den = math.sqrt(max((1 - s_ft ** 2) * (1 - s_fn ** 2), 0.0))
        out.update(rho_f_next=s_fn, rho_t_next=s_tn, partial_t_next=(s_tn - s_ft * s_fn) / den if den else float("nan"))
    else:
        out.update(rho_f_next=float("nan"), rho_t_next=float("nan"), partial_t_next=float("nan"))
    return out


def table1_row(wl: dict, m: dict, seed: int = 1) -> dict:
    """Point estimates over all pairs and 95 % bootstrap intervals over periods."""
    by_p = [np.flatnonzero(m["period"] == p) for p in range(m["periods"])]
    by_p = [b for b in by_p if len(b)]
    point = _stats(m, np.arange(len(m["F"])))
    rng = np.random.default_rng(seed)
    boot = {k: [] for k in point}
    for _ in range(BOOT):
        pick = rng.integers(0, len(by_p), len(by_p))
        s = _stats(m, np.concatenate([by_p[i] for i in pick]))
        for k, v in s.items():
            boot[k].append(v)
    row = {"workload": wl["workload"], "kind": wl["kind"], "slice_bytes": wl["slice"], "slices": m["slices"],
           "period_s": wl["period_ns"] * 1e-9, "periods": m["periods"], "span_s": m["span_s"],
           "write_requests": m["writes"], "pairs": len(m["F"]), "pairs_with_next": int((m["next"] >= 0).sum()),
           "one_write_share": float((m["F"] == 1).mean()) if len(m["F"]) else float("nan")}
    for k, v in point.items():
        b = np.array([x for x in boot[k] if x == x])
        row[k] = v
        row[k + "_lo"] = float(np.percentile(b, 2.5)) if len(b) else float("nan")
        row[k + "_hi"] = float(np.percentile(b, 97.5)) if len(b) else float("nan")
    return row


# ---- Table II -----------------------------------------------------------------------------------------------------


def scaled_points(m: dict) -> tuple[np.ndarray, np.ndarray]:
    """(f9, t9) of the written (slice, period) pairs whose next period closed, scaled per period as
    hot_close_period does (v * 511 / max over all slices, integer; UpdateT's max is T when a slice went unwritten),
    and their next-period writes."""
    f9, t9 = np.zeros(len(m["F"])), np.zeros(len(m["F"]))
    for p in np.unique(m["period"]):
        r = m["period"] == p
        fmax = m["F"][r].max()
        tmax = max(m["T_fw"][r].max(), m["period_ns"] if r.sum() < m["slices"] else 0)
        f9[r] = np.floor(m["F"][r] * 511 / fmax)
        t9[r] = np.floor(m["T_fw"][r] * 511 / tmax) if tmax else 0
    h = m["next"] >= 0
    return np.column_stack([f9[h], t9[h]]), m["next"][h].astype(float)


def algorithms() -> dict:
    from sklearn.cluster import DBSCAN, AgglomerativeClustering, KMeans, MeanShift
    return {"kmeans": lambda: KMeans(n_clusters=K, n_init=10, random_state=0),
            "kmeans_n_init_1": lambda: KMeans(n_clusters=K, n_init=1, random_state=0),
            "meanshift": lambda: MeanShift(),
            "hac": lambda: AgglomerativeClustering(n_clusters=K),
            "dbscan": lambda: DBSCAN(),
            "dbscan_eps16": lambda: DBSCAN(eps=16)}


def eta2(labels: np.ndarray, y: np.ndarray) -> tuple[float, float]:
    """(eta^2, epsilon^2): the share of y's variance between the label groups, and the same adjusted for the number
    of groups (1 - within mean square / total mean square); DBSCAN's noise (-1) is a group of its own."""
    sst = float(((y - y.mean()) ** 2).sum())
    groups = np.unique(labels)
    ssw = sum(float(((y[labels == g] - y[labels == g].mean()) ** 2).sum()) for g in groups)
    n, k = len(y), len(groups)
    if not sst:
        return float("nan"), float("nan")
    return 1 - ssw / sst, (1 - (ssw / (n - k)) / (sst / (n - 1))) if n > k else float("nan")


def table2_runs(monitored: dict) -> list[dict]:
    """One row per (workload, sample, repeat, algorithm): seconds, clusters, eta^2, epsilon^2."""
    algs = algorithms()
    rows = []
    warm = np.random.default_rng(0).integers(0, 512, (T2_POINTS, 2)).astype(float)
    for make in algs.values():           # first calls load code and set up thread pools: not timed
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            make().fit(warm)
    for wname, m in monitored.items():
        X, y = scaled_points(m)
        if len(X) < T2_POINTS:
            continue
        for s in range(T2_SAMPLES):
            pick = np.random.default_rng(100 + s).choice(len(X), T2_POINTS, replace=False)
            x, yy = X[pick], y[pick]
            for r in range(T2_REPEATS):
                for a, make in algs.items():
                    with warnings.catch_warnings():
                        warnings.simplefilter("ignore")
                        t0 = time.perf_counter()
                        lab = make().fit(x).labels_
                        dt = time.perf_counter() - t0
                    e, eps = eta2(lab, yy)
                    rows.append({"workload": wname, "sample": s, "repeat": r, "algorithm": a, "seconds": dt,
                                 "clusters": int(len(set(lab.tolist()) - {-1})), "noise": int((lab == -1).sum()),
                                 "eta2": e, "epsilon2": eps})
    return rows


def firmware_cost(n: int = T2_POINTS, k: int = K) -> dict:
    """The firmware's kmeans2d and the accelerator at n points, K = k, 10 iterations: linear interpolation in N
    between the rows of docs/results/accelerator/sweep_uniform.csv around n (both are linear in N there)."""
    with open(ACCEL_CSV, newline="") as f:
        rows = sorted((r for r in csv.DictReader(f) if int(r["k"]) == k), key=lambda r: int(r["n"]))
    lo = max((r for r in rows if int(r["n"]) <= n), key=lambda r: int(r["n"]))
    hi = min((r for r in rows if int(r["n"]) >= n), key=lambda r: int(r["n"]))
    w = 0 if hi is lo else (n - int(lo["n"])) / (int(hi["n"]) - int(lo["n"]))
    def at(col):
        return float(lo[col]) + w * (float(hi[col]) - float(lo[col]))
    return {"n": n, "k": k, "n_lo": int(lo["n"]), "n_hi": int(hi["n"]), "sw_iss_us": at("sw_iss_us"),
            "accel_l1_total_us": at("accel_l1_total_us")}


# ---- Fig. 3: ssdvp runs -------------------------------------------------------------------------------------------


def run_setup(workload: str, arm: str, seed: int) -> tuple[str, list[str]]:
    """(base config, --set list) of one Fig. 3 run: a recording as haml-recorded.yaml replays it, a bundled
    trace as haml.yaml does (its case for that trace)."""
    if workload in RECORDINGS:  # the sweep's common set with the recording's own entry on top (its T, time scale)
        sw = sweep()
        sets = {**sweep_set(workload), "ftl.placement.policy": "haml", "ftl.gc.trigger": "threshold",
                "host.streams": "none", **recorded.overrides(ROOT, workload)}
    else:
        sw = sweep(HAML_SWEEP)
        trace = f"traces/{TRACES[workload]}"
        case = next(c for c in sw["cases"] if c["workload.source"] == "trace" and c["workload.trace"] == trace)
        sets = {**sw["set"], **case, "ftl.placement.policy": "haml"}
    sets.update({"ftl.hot.features": arm, "precondition.seed": seed})
    return sw["base"], [f"{k}={v}" for k, v in sets.items()]


def run_one(build: Path, workload: str, arm: str, seed: int) -> dict:
    out = OUT / f"{workload}-{arm}-s{seed}"
    summary = out / "summary.json"
    binary = build / "platform" / "ssdvp"
    version = prov_mod.binary_version(binary)
    made_by = json.loads(summary.read_text()).get("ssdvp_version") if summary.exists() else None
    base, sets = run_setup(workload, arm, seed)
    cmd = [str(binary), "run", "-q", "-c", str(ROOT / base), "-o", str(out)]
    for s in sets:
        cmd += ["--set", s]
    same = (out / "cmd").exists() and (out / "cmd").read_text() == " ".join(cmd) + "\n"
    if not made_by or not version or not version.endswith(made_by) or not same:  # none yet, another build's or setup
        env = dict(os.environ, SYSTEMC_DISABLE_COPYRIGHT_MESSAGE="1")
        t0 = time.time()
        r = subprocess.run(cmd, cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        if r.returncode != 0:
            sys.exit(f"{out.name}: exit {r.returncode}\n{' '.join(cmd)}\n{r.stdout[-3000:]}")
        (out / "wall_s").write_text(f"{time.time() - t0:.3f}\n")
        (out / "cmd").write_text(" ".join(cmd) + "\n")
        print(f"{out.name}: done", flush=True)
    s = json.loads(summary.read_text())
    hist = s["ftl"]["gc_victim_invalid"]
    row = {"workload": workload, "arm": arm, "seed": seed, "waf": s["ftl"]["waf"], "gc_runs": s["ftl"]["gc_runs"],
           "erases": s["ftl"]["erases"], "victims": sum(hist), "wall_s": float((out / "wall_s").read_text())}
    for b, c in zip(BINS, hist):
        row[f"bin {b}"] = c
    return row


def fig3_runs(build: Path, jobs: int) -> list[dict]:
    todo = [(w, a, s) for w in RECORDINGS + FIG3_TRACES for a in ARMS for s in SEEDS]
    with ThreadPoolExecutor(max_workers=jobs) as ex:
        return list(ex.map(lambda p: run_one(build, *p), todo))


# ---- data ---------------------------------------------------------------------------------------------------------


def write_csv(rows: list[dict], path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(rows[0]))
        w.writeheader()
        for r in rows:
            w.writerow({k: (f"{v:.6g}" if isinstance(v, float) else v) for k, v in r.items()})


def read_csv(path: Path) -> list[dict]:
    def conv(v):
        try:
            return int(v)
        except ValueError:
            try:
                return float(v)
            except ValueError:
                return v
    with open(path, newline="") as f:
        return [{k: conv(v) for k, v in r.items()} for r in csv.DictReader(f)]


def measure(build: Path, jobs: int) -> float:
    t0 = time.time()
    wls = workloads()
    DATA_DIR.mkdir(parents=True, exist_ok=True)
    monitored = {}
    t1 = []
    for wl in wls:
        m = monitor(wl)
        m["period_ns"] = wl["period_ns"]
        monitored[wl["workload"]] = m
        t1.append(table1_row(wl, m))
        print(f"table I: {wl['workload']} done", flush=True)
    write_csv(t1, DATA_DIR / "table1.csv")
    write_csv(table2_runs({w: monitored[w] for w in RECORDINGS + ["msr-heimdall"] if w in monitored}),
              DATA_DIR / "table2_runs.csv")
    print("table II: done", flush=True)
    write_csv([firmware_cost()], DATA_DIR / "firmware_kmeans.csv")
    write_csv(fig3_runs(build, jobs), DATA_DIR / "fig3_runs.csv")
    return time.time() - t0


# ---- the page -----------------------------------------------------------------------------------------------------


def ci(v: float, lo: float, hi: float, d: int = 2) -> str:
    return f"{v:.{d}f} [{lo:.{d}f}, {hi:.{d}f}]" if v == v else "n/a"


def median_ci(xs: list[float], seed: int = 0) -> tuple[float, float, float]:
    """(median, 95 % bootstrap interval of the median)."""
    a = np.array(xs, dtype=float)
    rng = np.random.default_rng(seed)
    b = np.median(a[rng.integers(0, len(a), (2000, len(a)))], axis=1)
    return float(np.median(a)), float(np.percentile(b, 2.5)), float(np.percentile(b, 97.5))


def verdict_table1(t1: list[dict]) -> tuple[str, str]:
    near = [r for r in t1 if -NEAR_ZERO < r["r_lo"] and r["r_hi"] < NEAR_ZERO]
    below = [r for r in t1 if r["r_hi"] <= -NEAR_ZERO]
    n = len(t1)
    word = "reproduced" if len(near) == n else "partly" if near else "not reproduced"
    why = (f"{len(near)} of {n} workloads have r's whole interval inside (-{NEAR_ZERO}, {NEAR_ZERO}), the paper's "
           f"range; " + (", ".join(f"{r['workload']} r = {r['r']:.2f}" for r in t1 if r not in near) or "none outside")
           + (f" ({len(below)} clearly negative: frequent slices have short intervals)" if below else ""))
    return word, why


def verdict_both(t1: list[dict]) -> tuple[str, str]:
    adds = [r for r in t1 if r["partial_t_next_lo"] > 0 or r["partial_t_next_hi"] < 0]
    valid = [r for r in t1 if r["partial_t_next"] == r["partial_t_next"]]
    n = len(valid)
    word = "reproduced" if adds and len(adds) == n else "partly" if adds else "not reproduced"
    return word, (f"UpdateT predicts next-period writes beyond what UpdateF does (partial rank correlation's interval "
                  f"excludes 0) on {len(adds)} of {n} workloads"
                  + (": " + ", ".join(f"{r['workload']} {r['partial_t_next']:+.2f}" for r in adds) if adds else "")
                  + f"; UpdateF's own rank correlation with the next period is {min(r['rho_f_next'] for r in valid):.2f} "
                  f"to {max(r['rho_f_next'] for r in valid):.2f}. (r near 0 would not show this either way: r is "
                  "about the two features, not about what they predict)")


def table2_summary(runs: list[dict]) -> dict:
    out = {}
    for a in algorithms_names(runs):
        rs = [r for r in runs if r["algorithm"] == a]
        ms = [r["seconds"] * 1e3 for r in rs]
        ratio = {}
        for base in ("kmeans", "kmeans_n_init_1"):
            km = {(r["workload"], r["sample"], r["repeat"]): r["seconds"] for r in runs if r["algorithm"] == base}
            ratio[base] = median_ci([r["seconds"] / km[(r["workload"], r["sample"], r["repeat"])] for r in rs])
        out[a] = {"ms": median_ci(ms), "ratio": ratio["kmeans"], "ratio1": ratio["kmeans_n_init_1"], "n": len(rs)}
        for w in sorted({r["workload"] for r in rs}):
            ws = [r for r in rs if r["workload"] == w]
            out[a][w] = {"clusters": mean_ci([r["clusters"] for r in ws]), "eta2": mean_ci([r["eta2"] for r in ws]),
                         "epsilon2": mean_ci([r["epsilon2"] for r in ws]),
                         "noise": mean_ci([r["noise"] for r in ws])}
    return out


def algorithms_names(runs):
    seen = []
    for r in runs:
        if r["algorithm"] not in seen:
            seen.append(r["algorithm"])
    return seen


def verdict_table2(s: dict) -> tuple[str, str]:
    others = [a for a in ("meanshift", "hac", "dbscan") if a in s]
    faster = [a for a in others if s[a]["ratio"][1] > 1]
    faster1 = [a for a in others if s[a]["ratio1"][1] > 1]
    word = "reproduced" if len(faster) == len(others) else "partly" if faster else "not reproduced"
    label = {"meanshift": "Mean-Shift", "hac": "HAC", "dbscan": "DBSCAN (defaults)"}
    return word, ("of " + ", ".join(label[a] for a in others) + ", K-Means with sklearn 1.2's default n_init = 10 is "
                  "faster (the ratio's interval above 1) than " + (", ".join(label[a] for a in faster) or "none")
                  + "; with n_init = 1 (one start, as the firmware runs it) than "
                  + (", ".join(label[a] for a in faster1) or "none"))


def fig3_summary(runs: list[dict]) -> dict:
    out = {}
    for w in RECORDINGS + FIG3_TRACES:
        for a in ARMS:
            rs = [r for r in runs if r["workload"] == w and r["arm"] == a]
            if not rs:
                continue
            shares = {b: [100.0 * r[f"bin {b}"] / r["victims"] if r["victims"] else float("nan") for r in rs]
                      for b in BINS}
            out[(w, a)] = {"shares": shares, "waf": [r["waf"] for r in rs], "victims": [r["victims"] for r in rs],
                           "gc_runs": [r["gc_runs"] for r in rs]}
    return out


def verdict_fig3(f3: dict) -> tuple[str, str]:
    """The paper: with UpdateT more victims at 60-80 % invalid (and fewer to migrate); WAF lower."""
    parts, yes = [], 0
    for w in RECORDINGS + FIG3_TRACES:
        if (w, "freq") not in f3:
            continue
        a, b = f3[(w, "freq_interval")], f3[(w, "freq")]
        d = [x - y for x, y in zip(a["shares"]["[60,80)"], b["shares"]["[60,80)"])]
        dm, dh = mean_ci(d)
        wm, wh = mean_ci([x - y for x, y in zip(a["waf"], b["waf"])])
        more = dm - dh > 0
        lower_waf = wm + wh < 0
        yes += more and lower_waf
        lo = [sum(x[i] for x in (a["shares"]["[0,20)"], a["shares"]["[20,40)"]))
              - sum(x[i] for x in (b["shares"]["[0,20)"], b["shares"]["[20,40)"])) for i in range(len(a["waf"]))]
        lm, lh = mean_ci(lo)
        parts.append(f"{w}: 60-80 % bin {dm:+.1f} ± {dh:.1f} points with UpdateT, 0-40 % {lm:+.1f} ± {lh:.1f}, "
                     f"WAF {wm:+.3f} ± {wh:.3f}")
    n = len(parts)
    word = "reproduced" if n and yes == n else "partly" if yes else "not reproduced"
    return word, "; ".join(parts) + (" (paired by seed; reproduced where the 60-80 % bin's and WAF's intervals "
                                     "both have the paper's sign)")


def figure(f3: dict, path: Path) -> None:
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    ws = [w for w in RECORDINGS + FIG3_TRACES if (w, "freq") in f3]
    cols = min(len(ws), 2)
    rows = -(-len(ws) // cols)
    fig, axes = plt.subplots(rows, cols, figsize=(5.2 * cols, 3.4 * rows), sharey=True, squeeze=False)
    x = np.arange(len(BINS))
    for ax, w in zip(axes.flat, ws):
        for i, (a, label) in enumerate(ARMS.items()):
            ms = [mean_ci(f3[(w, a)]["shares"][b]) for b in BINS]
            ax.bar(x + (i - 0.5) * 0.38, [m for m, _ in ms], 0.38, yerr=[h for _, h in ms], capsize=3, label=label)
        ax.set_xticks(x, [b + " %" for b in BINS], fontsize=8)
        ax.set_title(w, fontsize=10)
        ax.set_xlabel("invalid share of the GC victim at its choice")
        ax.grid(axis="y", alpha=0.3)
    for r in range(rows):
        axes[r][0].set_ylabel("share of GC victims (%)")
    axes[0][0].legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=90)
    plt.close(fig)


def render(data: Path, page: Path, figures: bool) -> None:
    d = data / NAME
    t1 = read_csv(d / "table1.csv")
    t2 = read_csv(d / "table2_runs.csv")
    fw = read_csv(d / "firmware_kmeans.csv")[0]
    f3runs = read_csv(d / "fig3_runs.csv")
    prov = prov_mod.read(d)
    f3 = fig3_summary(f3runs)
    if figures:
        figure(f3, d / "fig3.png")
    v1, w1 = verdict_table1(t1)
    vb, wb = verdict_both(t1)
    s2 = table2_summary(t2)
    v2, w2 = verdict_table2(s2)
    v3, w3 = verdict_fig3(f3)
    rec = [r for r in t1 if r["kind"] == "recording"]
    bundled = [r for r in t1 if r["kind"] != "recording"] or t1
    out = ["# HAML-SSD's Table I, Table II and Fig. 3 on our workloads", "",
           "<!-- Generated by scripts/haml_tables.py from docs/results/haml-tables/; do not edit "
           "(`scripts/results_pages.py render haml-tables` renders it again). -->", "",
           f"Generated by `{prov['command'] if prov else '?'}` from the data in [haml-tables/](haml-tables/) "
           f"(commit {prov['commit'][:12] if prov and prov.get('commit') else '?'}). HAML-SSD clusters slices of the "
           "logical space on two features per period T: UpdateF, the slice's writes in the period, and UpdateT, the "
           "mean interval between its updates. The paper backs the two features with Table I (they are "
           "uncorrelated), the clustering algorithm with Table II (K-Means is the fastest), and UpdateT with Fig. 3 "
           "(with it GC victims are emptier). The simulated comparison of policies on the same recordings is "
           "[haml-recorded.md](haml-recorded.md).", "",
           "## Verdict per claim", "",
           "| claim of the paper | verdict | why (computed from the data below) |", "|---|---|---|",
           f"| Table I: r(UpdateF, UpdateT) is around 0 | {v1} | {w1} |",
           f"| Table I's reading: the two features carry different information, so both should be used | {vb} | {wb} |",
           f"| Table II: K-Means is faster than Mean-Shift, HAC and DBSCAN | {v2} | {w2} |",
           f"| Fig. 3: with UpdateT more GC victims are 60-80 % invalid, so GC migrates less | {v3} | {w3} |", ""]
    # ---- Table I
    out += ["## Table I: correlation of UpdateF and UpdateT", "",
            "Per workload, over the (slice, period) pairs with at least one write, pooled over the closed periods: "
            "**r** is Pearson's r of UpdateF and UpdateT with the firmware's rule (`ftl.hot.interval_rule: per_slice`, "
            "firmware/ftl/hotness.c: the gaps from the period's start to the first write and between writes, over "
            "the writes; so one write gives the time from the period's start, not T); **r (text)** the same with "
            "the paper's text's rule (mean gap between consecutive writes, T with fewer than two). What the paper "
            "did not measure: **ρ(F, next)** and **ρ(T, next)**, Spearman's rank correlation of each feature with "
            "the slice's writes in the next period (pairs whose next period also closed), and **partial ρ(T, next | F)**, "
            "what UpdateT tells about the next period once UpdateF is known. Brackets: 95 % percentile bootstrap "
            f"interval, {BOOT} resamples of whole periods.", "",
            "| workload | slice | T | periods | pairs | one-write share | r | r (text) | ρ(F, next) | ρ(T, next) | "
            "partial ρ(T, next \\| F) |", "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for r in t1:
        sl = r["slice_bytes"]
        sls = f"{sl / 1024:.0f} KiB" if sl < 1 << 20 else f"{sl / (1 << 20):.1f} MiB"
        out.append(f"| {r['workload']} ({r['kind']}) | {sls} | {r['period_s']:.4g} s | {r['periods']} | "
                   f"{r['pairs']:,} | {100 * r['one_write_share']:.0f} % | {ci(r['r'], r['r_lo'], r['r_hi'])} | "
                   f"{ci(r['r_text'], r['r_text_lo'], r['r_text_hi'])} | "
                   f"{ci(r['rho_f_next'], r['rho_f_next_lo'], r['rho_f_next_hi'])} | "
                   f"{ci(r['rho_t_next'], r['rho_t_next_lo'], r['rho_t_next_hi'])} | "
                   f"{ci(r['partial_t_next'], r['partial_t_next_lo'], r['partial_t_next_hi'])} |")
    out += ["", "The paper's Table I (MSR Cambridge and Systor'17 traces, 100 MB slices of a 256 GB drive, 6 h periods): "
            + ", ".join(f"{k} {v:+.2f}" for k, v in PAPER_T1.items()) + ".", "",
            "Slices and periods: the recordings use the haml-recorded page's values (explore/sweeps/haml-recorded.yaml: "
            f"{rec[0]['slice_bytes'] // 1024 if rec else '?'} KiB slices, {rec[0]['slices'] if rec else 0:,} of "
            "the 1 GiB drive, T = "
            f"{rec[0]['period_s'] if rec else '?'} s). A bundled trace (traces/README.md) keeps the paper's proportion: "
            f"{PAPER_SLICES:,} slices over the highest address it writes, and T = its span / {TRACE_PERIODS} so it "
            f"has {TRACE_PERIODS} periods (the last, open one is never clustered and is left out). Periods close as "
            "the firmware's do: at the first write at least T after the period's start. The bundled traces are "
            f"small ({min(r['write_requests'] for r in bundled):,} to {max(r['write_requests'] for r in bundled):,} "
            "write requests). r and r (text) differ through the pairs with one write (the one-write share column): "
            "the firmware's rule gives them the time from the period's start to that write, the text's rule T.", ""]
    # ---- Table II
    algs = [a for a in ("kmeans", "kmeans_n_init_1", "meanshift", "hac", "dbscan", "dbscan_eps16") if a in s2]
    wl2 = sorted({r["workload"] for r in t2})
    names = {"kmeans": "K-Means (n_init = 10, sklearn 1.2's default)", "kmeans_n_init_1": "K-Means (n_init = 1)",
             "meanshift": "Mean-Shift (bandwidth estimated, the default)", "hac": "HAC (ward, 6 clusters)",
             "dbscan": "DBSCAN (eps 0.5, min_samples 5: the defaults)",
             "dbscan_eps16": "DBSCAN (eps 16, min_samples 5)"}
    out += ["## Table II: clustering 1,000 points", "",
            f"sklearn {t2_version(prov)} on {T2_POINTS:,}-point samples of our features (UpdateF, UpdateT scaled "
            "per period to [0, 511] as the firmware scales them, written slices whose next period closed) of "
            f"{', '.join(wl2)}: {T2_SAMPLES} samples per workload, each algorithm timed {T2_REPEATS} times per "
            "sample, round robin so the shared 2-core machine's noise falls on all alike. Time: median and its 95 % "
            "bootstrap interval; ratio: each timing over K-Means's (n_init = 10) in the same round, median and "
            f"interval. K = {K} where the algorithm takes it (the firmware's classes). **η²**: the share of the "
            "variance of the slices' next-period writes that cluster membership explains (ε²: the same adjusted for "
            "the number of clusters, which η² rewards); clusters: how many the algorithm found (DBSCAN's noise "
            "points are a group of their own in η²). Mean ± 95 % interval over the samples.", "",
            "| algorithm | complexity (paper) | paper (ms) | ours (ms) | ratio to K-Means | ratio to K-Means "
            "(n_init = 1) | " + " | ".join(f"{w}: clusters | η² | ε²" for w in wl2) + " |",
            "|---|---|---:|---:|---:|---:|" + "---:|---:|---:|" * len(wl2)]
    for a in algs:
        p = PAPER_T2.get(a)
        m, lo, hi = s2[a]["ms"]
        rm, rlo, rhi = s2[a]["ratio"]
        r1, r1lo, r1hi = s2[a]["ratio1"]
        cells = []
        for w in wl2:
            c = s2[a][w]
            cells += [f"{c['clusters'][0]:.1f} ± {c['clusters'][1]:.1f}", f"{c['eta2'][0]:.3f} ± {c['eta2'][1]:.3f}",
                      f"{c['epsilon2'][0]:.3f} ± {c['epsilon2'][1]:.3f}"]
        out.append(f"| {names[a]} | {p[1] if p else ''} | {p[0] if p else ''} | {m:.2f} [{lo:.2f}, {hi:.2f}] | "
                   f"{rm:.2f} [{rlo:.2f}, {rhi:.2f}] | {r1:.2f} [{r1lo:.2f}, {r1hi:.2f}] | " + " | ".join(cells) + " |")
    out += ["", f"Beside them, the firmware's own K-Means at {fw['n']:,} points, K = {fw['k']}, 10 iterations (from "
            "[accelerator.md](accelerator.md)'s committed sweep, docs/results/accelerator/sweep_uniform.csv, linear "
            f"between N = {fw['n_lo']:,} and {fw['n_hi']:,}): `kmeans2d` on the modelled 1 GHz RV32 controller "
            f"{fw['sw_iss_us'] / 1e3:.2f} ms (ISS), the K-Means accelerator (1 lane, with DMA) "
            f"{fw['accel_l1_total_us']:.1f} µs. The firmware's fixed diagonal start and integer arithmetic are not "
            "sklearn's k-means++; its labels are not in the η² columns.", ""]
    # ---- Fig. 3
    out += ["## Fig. 3: GC victims by their invalid share, with and without UpdateT", "",
            "`ftl.placement.policy: haml` on the haml-recorded setup (configs/workloads-1g.yaml and the sweep's "
            "`set`: K = 6, 400 KiB slices, T = 0.5 s, relocated data on its own frontier, greedy GC), each recording "
            "replayed once, and on two bundled traces as [haml.md](haml.md) replays them (explore/sweeps/haml.yaml: "
            "configs/haml.yaml, 1 GiB of flash, 896 MiB exported, K = 6; " + ", ".join(FIG3_TRACES) + " with that "
            "sweep's loops, time scale and T), with `ftl.hot.features: freq_interval` (UpdateF + UpdateT, the default) "
            "and `freq` "
            "(UpdateF alone: the paper's arm without UpdateT), preconditioning seeds " + ", ".join(map(str, SEEDS))
            + ". Every GC victim of the timed part is counted at its choice in the bin of its invalid share "
            "(1 - valid LBAs / the block's LBAs; summary.json `ftl.gc_victim_invalid`, docs/outputs.md). "
            "Share of victims per bin (%), mean ± 95 % interval over the seeds.", "",
            "![GC victims by invalid share](haml-tables/fig3.png)", "",
            "| workload | features | " + " | ".join(BINS) + " | victims | WAF |",
            "|---|---|" + "---:|" * (len(BINS) + 2)]
    for (w, a), v in f3.items():
        out.append(f"| {w} | {ARMS[a]} (`{a}`) | " + " | ".join(fmt_ci(v["shares"][b], ".1f") for b in BINS)
                   + f" | {fmt_ci(v['victims'], '.0f')} | {fmt_ci(v['waf'], '.3f')} |")
    same = sum(1 for r in f3runs if r["victims"] == r["gc_runs"])
    out += ["", f"The bins sum to the run's GC victims (`gc_runs`) in {same} of {len(f3runs)} runs."]
    out += ["", "The paper's Fig. 3 (its traces; bars read from the figure are not given in our summary of it): with "
            "UpdateT more blocks are 60-80 % invalid and more are 0-40 %, fewer in between; it reports no WAF for "
            "this figure.", ""]
    wall = sum(r["wall_s"] for r in f3runs)
    out += ["## Reproduce", "", "```sh", prov["command"] if prov else "/usr/bin/python3 scripts/haml_tables.py build",
            "/usr/bin/python3 scripts/haml_tables.py --render-only   # the page alone, from the committed data", "```",
            "", f"The {len(f3runs)} simulation runs took {wall / 60:.1f} minutes of wall time summed (2 at a time on "
            "this project's 2-core machine); the summaries stay under out/haml-tables/ (not committed).", "",
            prov_mod.section(prov)]
    page.write_text("\n".join(out) + "\n")
    print("wrote", page)


def t2_version(prov) -> str:
    return (prov or {}).get("sklearn", "?")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("build", nargs="?", default=str(ROOT / "build"))
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--render-only", action="store_true", help="render the page from the committed data")
    ap.add_argument("--data", help="with --render-only: the results directory holding haml-tables/")
    ap.add_argument("--page", help="with --render-only: where to write the page (the figure is then not redrawn)")
    a = ap.parse_args()
    if a.render_only:
        render(Path(a.data) if a.data else PAGE.parent, Path(a.page) if a.page else PAGE, figures=not a.page)
        return
    build = Path(a.build).resolve()
    cmd = "/usr/bin/python3 scripts/haml_tables.py " + os.path.relpath(build, ROOT)
    wall = measure(build, min(a.jobs, 2))
    prov = prov_mod.collect(build / "platform" / "ssdvp", cmd, ROOT, skip=["docs/results/", "out/"],
                            wall_s=wall)
    import sklearn
    prov["sklearn"] = sklearn.__version__
    prov_mod.write(prov, DATA_DIR)
    render(PAGE.parent, PAGE, figures=True)


if __name__ == "__main__":
    main()
