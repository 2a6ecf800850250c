#!/usr/bin/env python3
"""gc_scheduling.py - when GC runs (ftl.gc.trigger, ftl.gc.preempt), measured:
writes docs/results/gc-scheduling.md, its data (docs/results/gc-scheduling/
results.json) and its figures.

    scripts/gc_scheduling.py BUILD_DIR [--jobs N] [--seeds K] [--quick]
    scripts/gc_scheduling.py --render-only [--data DIR] [--page FILE]
        # the page again from DIR/gc-scheduling/results.json (default docs/results), written to FILE
        # (default docs/results/gc-scheduling.md); figures are redrawn only into the default place

Every point is `ssdvp run -c configs/small.yaml` (1 GiB of flash, 8 dies,
12.5 % spare) aged full (filled, then one drive-write of random overwrites),
run K times with different seeds (the workload's and the preconditioning's),
reported as the mean and a 95 % Student-t interval. Sections:
  loads      uniform and hot/cold 4 KiB requests (30 % reads), closed loop at
             QD32 and open loop at 30, 60 and 90 % of the closed loop's rate,
             for each trigger;
  bursts     the same in bursts (4,000 requests at 90 % of that rate, then
             200 ms quiet): what idle-time GC does to the tail;
  gap        watermarks with a growing gap between the marks: episode size
             and length;
  preempt    ftl.gc.preempt off, reads, all on the mixed load;
  timeline   bandwidth over time with the GC episodes shaded, one run per
             trigger (uniform, 60 % load).
The raw summaries stay under out/gc-scheduling/ (not committed).
"""
import argparse
import functools
import json
import os
import statistics
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "scripts"))
sys.path.insert(0, os.path.join(ROOT, "explore"))
from runpoint import pyplot  # noqa: E402
from ssdvp_explore import provenance as prov_mod  # noqa: E402
from ssdvp_explore.stats import mean_ci  # noqa: E402

OUT = os.path.join(ROOT, "out", "gc-scheduling")
PAGE = os.path.join(ROOT, "docs", "results", "gc-scheduling.md")
DATA_DIR = os.path.join(ROOT, "docs", "results", "gc-scheduling")
DATA = os.path.join(DATA_DIR, "results.json")
CONFIG = "configs/small.yaml"

AGED = ["precondition.fill=1", "precondition.random_drive_writes=1"]
WORKLOADS = {
    "uniform": ["workload.synthetic.pattern=uniform"],
    "hotcold": ["workload.synthetic.pattern=hotcold", "workload.synthetic.hot_requests=0.8",
                "workload.synthetic.hot_space=0.2"],
}
MIX = ["workload.synthetic.read_fraction=0.3"]
# The marks every trigger shares: GC starts below 16 free blocks (the
# threshold, the low watermark, idle's foreground mark, AutoSSD's target) and
# the others collect up to 64.
TRIGGERS = {
    "threshold": ["ftl.gc.trigger=threshold"],
    "watermarks": ["ftl.gc.trigger=watermarks", "ftl.gc.high_blocks=64"],
    "idle": ["ftl.gc.trigger=idle", "ftl.gc.high_blocks=64", "ftl.gc.idle_after=2ms"],
    "autossd": ["ftl.gc.trigger=autossd", "ftl.gc.high_blocks=64"],
}
LOADS = ["closed", 0.3, 0.6, 0.9]
REQUESTS = 60000
BURST = ["workload.synthetic.arrival=bursts", "workload.synthetic.burst_requests=2000",
         "workload.synthetic.burst_gap=200ms", "stats.interval=100ms", "stats.interval_histograms=true"]
# The bursts' tail is taken from latency_histograms.csv after this share of
# the run: the first bursts meet the pool where preconditioning left it.
BURST_SKIP = 0.3
GAPS = [8, 16, 32, 64, 128]
PREEMPT = ["off", "reads", "all"]


def sets_for(point, seed):
    """The --set list of one run of a point (dict with workload, trigger, load, extra)."""
    s = AGED + MIX + WORKLOADS[point["workload"]] + TRIGGERS[point["trigger"]] + point.get("extra", [])
    s += [f"workload.synthetic.requests={REQUESTS}", f"workload.synthetic.seed={seed}", f"precondition.seed={seed}"]
    if point.get("iops"):
        s += ["host.mode=open", f"workload.synthetic.iops={point['iops']:.0f}"]
    return s


def run_one(build, name, sets):
    """Runs one ssdvp point into out/gc-scheduling/name; its summary. A summary already there is taken only when
    the same binary (its sha256) made it with the same command line, as out/<name>/cmd.json records; otherwise the
    point runs again, so the page's provenance names the build that made every one of its runs."""
    out = os.path.join(OUT, name)
    path = os.path.join(out, "summary.json")
    binary = os.path.join(build, "platform", "ssdvp")
    cmd = [binary, "run", "-q", "-c", CONFIG, "-o", out]
    for s in sets:
        cmd += ["--set", s]
    key = {"cmd": [os.path.relpath(c, ROOT) if c in (binary, out) else c for c in cmd],
           "binary_sha256": binary_sha(binary)}
    if not (os.path.exists(path) and read_json(os.path.join(out, "cmd.json")) == key):
        env = dict(os.environ, SYSTEMC_DISABLE_COPYRIGHT_MESSAGE="1")
        r = subprocess.run(cmd, cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        if r.returncode != 0:
            sys.exit(f"{name}: exit {r.returncode}\n{' '.join(cmd)}\n{r.stdout[-3000:]}")
        with open(os.path.join(out, "cmd.json"), "w") as f:
            json.dump(key, f)
        print(f"{name}: done", flush=True)
    return read_json(path)


def read_json(path):
    """A JSON file's content, or None when it is not there."""
    try:
        with open(path) as f:
            return json.load(f)
    except FileNotFoundError:
        return None


@functools.lru_cache(maxsize=None)
def binary_sha(binary):
    """The simulator's sha256 (hashed once per run of this script; a rebuild between runs of it changes it)."""
    return prov_mod.sha256(binary)


def steady_tail(out, skip):
    """p99 and p99.99 (us) of reads and writes over the intervals after the first `skip` of the run, from
    latency_histograms.csv (each bucket counted at its upper edge)."""
    rows = []
    with open(os.path.join(out, "latency_histograms.csv")) as f:
        f.readline()
        for line in f:
            t, op, lo, hi, n = line.strip().split(",")
            rows.append((float(t), op, float(hi), int(n)))
    end = max(r[0] for r in rows) if rows else 0.0
    res = {}
    for op in ("read", "write"):
        b = sorted((hi, n) for t, o, hi, n in rows if o == op and t > skip * end)
        total = sum(n for _, n in b)
        for q, key in ((0.99, "p99"), (0.9999, "p9999")):
            acc, val = 0, float("nan")
            for hi, n in b:
                acc += n
                if acc >= q * total:
                    val = hi
                    break
            res[f"{op}_{key}_steady"] = val
    return res


def extract(s, out=None):
    """The figures the page uses from one summary (and the steady part's tail when out has histograms)."""
    lat = s["latency_us"]
    f = s["ftl"]
    g = f["gc_schedule"]
    return {
        "waf": f["waf"],
        "erases": f["erases"],
        "iops": s["host"]["iops"],
        "mbps": s["host"]["bandwidth_mbps"],
        "read_mean": lat["read"]["mean"], "read_p99": lat["read"]["p99"], "read_p9999": lat["read"]["p9999"],
        "write_mean": lat["write"]["mean"], "write_p99": lat["write"]["p99"], "write_p9999": lat["write"]["p9999"],
        "episodes": g["episodes"], "episode_mean_ms": g["episode_mean_s"] * 1e3,
        "victims_per_episode": f["gc_runs"] / g["episodes"] if g["episodes"] else 0.0,
        "gc_active_share": f["gc_active_s"] / s["host"]["sim_time_s"] if s["host"]["sim_time_s"] else 0.0,
        "idle_victims": g["idle_victims"], "autossd_share": g["autossd_share_mean"],
        "gc_preemptions": s["flash"].get("gc_preemptions", 0),
        "free_blocks_mean": f["spare"]["free_blocks_mean"],
        "mismatches": s["integrity"]["mismatches"],
        "wall_s": s["run"].get("wall_s", 0.0),
    } | (steady_tail(out, BURST_SKIP) if out and os.path.exists(os.path.join(out, "latency_histograms.csv")) else {})


def measure(build, jobs, seeds, quick):
    """Runs every section; returns the data the page is rendered from."""
    os.makedirs(OUT, exist_ok=True)
    seed_list = list(range(1, seeds + 1))
    points = []  # (section, key dict)
    every = []   # every run's summary, for the page's cost

    def many(todo):
        with ThreadPoolExecutor(max_workers=jobs) as ex:
            got = list(ex.map(lambda t: run_one(build, t[0], t[1]), todo))
        every.extend(got)
        return got

    # The sustainable rate: the closed loop's IOPS under the default trigger (per workload, seed 1..K mean).
    workloads = ["uniform"] if quick else list(WORKLOADS)
    rates = {}
    for w in workloads:
        runs = many([(f"rate-{w}-s{k}", sets_for({"workload": w, "trigger": "threshold"}, k)) for k in seed_list])
        rates[w] = statistics.fmean(r["host"]["iops"] for r in runs)
    triggers = list(TRIGGERS)
    loads = ["closed", 0.6] if quick else LOADS
    for w in workloads:
        for load in loads:
            for t in triggers:
                p = {"section": "loads", "workload": w, "trigger": t, "load": load}
                if load != "closed":
                    p["iops"] = rates[w] * load
                points.append(p)
        for t in triggers:
            points.append({"section": "bursts", "workload": w, "trigger": t, "load": "bursts",
                           "iops": rates[w] * 0.9, "extra": BURST})
    for g in GAPS[:2] if quick else GAPS:
        points.append({"section": "gap", "workload": "uniform", "trigger": "watermarks", "load": 0.3, "gap": g,
                       "iops": rates["uniform"] * 0.3, "extra": [f"ftl.gc.high_blocks={16 + g}"]})
    for m in PREEMPT:
        for load in ["closed", 0.6]:
            p = {"section": "preempt", "workload": "uniform", "trigger": "threshold", "load": load, "preempt": m,
                 "extra": [f"ftl.gc.preempt={m}"]}
            if load != "closed":
                p["iops"] = rates["uniform"] * load
            points.append(p)

    def name(p, k):
        parts = [p["section"], p["workload"], p["trigger"], str(p["load"])]
        if "gap" in p:
            parts.append(f"gap{p['gap']}")
        if "preempt" in p:
            parts.append(p["preempt"])
        return "-".join(parts) + f"-s{k}"

    todo = [(name(p, k), sets_for(p, k)) for p in points for k in seed_list]
    t0 = time.time()
    results = many(todo)
    wall = time.time() - t0
    by_name = dict(zip([t[0] for t in todo], results))
    rows = []
    for p in points:
        runs = [extract(by_name[name(p, k)], os.path.join(OUT, name(p, k))) for k in seed_list]
        row = {k: v for k, v in p.items() if k != "extra"}
        row["runs"] = len(runs)
        row["sets"] = sets_for(p, 1)
        for key in runs[0]:
            row[key] = mean_ci([r[key] for r in runs])
        rows.append(row)
    # Bandwidth over time with GC episodes shaded: one run per trigger.
    series = {}
    if "uniform" in rates:
        for t in triggers:
            nm = f"series-uniform-{t}"
            os.makedirs(os.path.join(OUT, nm), exist_ok=True)
            p = {"workload": "uniform", "trigger": t, "iops": rates["uniform"] * 0.6,
                 "extra": ["stats.interval=20ms", f"timeline.file={os.path.join(OUT, nm, 'timeline.json')}",
                           "timeline.duration=0s"]}
            every.append(run_one(build, nm, sets_for(p, 1)))
            series[t] = read_series(os.path.join(OUT, nm))
    return {"rates": rates, "rows": rows, "series": series, "seeds": seeds, "requests": REQUESTS,
            "runs": len(todo), "wall_s": wall, "jobs": jobs, "all_runs": len(every),
            "run_wall_s": sum(r["run"].get("wall_s", 0.0) for r in every)}


def cost_line(data):
    """What regenerating the page costs, from the runs' own wall times (their summaries' run.wall_s), which a
    re-run whose points were all taken from out/ does not shorten."""
    if "run_wall_s" in data:
        summed = f"{data['all_runs']} runs ({data['runs']} in the tables), {data['run_wall_s']:,.0f} s of wall time " \
            "summed as their summaries record it"
    else:  # data made before the script kept every run's wall time: the tables' runs only
        summed = (f"{data['runs']} runs in the tables, {sum(r['wall_s'][0] * r['runs'] for r in data['rows']):,.0f} s "
                  "of wall time summed as their summaries record it")
    return (f"{summed}; {data['wall_s'] / 60:.1f} minutes elapsed with {data['jobs']} at a time on this project's "
            "2-core machine (`--quick`: one seed, fewer points).")


def read_series(out):
    """timeseries.csv's time, write and read bandwidth, free blocks, and the timeline's GC episodes."""
    cols = {}
    with open(os.path.join(out, "timeseries.csv")) as f:
        head = f.readline().strip().split(",")
        rows = [line.strip().split(",") for line in f if line.strip()]
    for key in ("time_s", "write_mbps", "read_mbps", "free_blocks"):
        i = head.index(key)
        cols[key] = [float(r[i]) for r in rows]
    episodes = []
    with open(os.path.join(out, "timeline.json")) as f:
        for ev in json.load(f):
            if str(ev.get("name", "")).startswith("gc episode") and ev.get("ph") == "X":
                episodes.append([ev["ts"] * 1e-6, (ev["ts"] + ev["dur"]) * 1e-6])
    cols["episodes"] = sorted(episodes)
    return cols


def provenance(build, command, wall_s):
    """Where the data came from (explore/ssdvp_explore/provenance.py, standard library only)."""
    return prov_mod.collect(os.path.join(build, "platform", "ssdvp"), command, ROOT,
                            skip=["docs/results/", "out/"], wall_s=wall_s)  # other pages' data is not source


# ---- the page ----------------------------------------------------------------------------------------------------


def num(x, digits=3):
    """x for a table: whole numbers with thousands separators from 100 on, else `digits` significant digits."""
    if abs(x) >= 100:
        return f"{x:,.0f}"
    return f"{x:.{digits}g}"


def fmt(mc, digits=3, scale=1.0):
    """A (mean, half-width) cell: 'mean ± half-width', or the mean alone for one run."""
    m, c = mc
    if m != m:
        return "n/a"
    return f"{num(m * scale, digits)} ± {num(c * scale, 2)}" if c else num(m * scale, digits)


def load_name(load):
    return "closed QD32" if load == "closed" else "bursts" if load == "bursts" else f"open {int(load * 100)} %"


def rows_of(data, section, **kw):
    return [r for r in data["rows"] if r["section"] == section and all(r.get(k) == v for k, v in kw.items())]


def table(rows, cols):
    head = "| " + " | ".join(c[0] for c in cols) + " |\n|" + "---|" * len(cols) + "\n"
    return head + "".join("| " + " | ".join(c[1](r) for c in cols) + " |\n" for r in rows)


LOAD_COLS = [
    ("load", lambda r: load_name(r["load"])), ("trigger", lambda r: f"`{r['trigger']}`"),
    ("WAF", lambda r: fmt(r["waf"], 4)), ("MB/s", lambda r: fmt(r["mbps"])),
    ("write p99 (us)", lambda r: fmt(r["write_p99"])), ("write p99.99 (us)", lambda r: fmt(r["write_p9999"])),
    ("read p99 (us)", lambda r: fmt(r["read_p99"])), ("read p99.99 (us)", lambda r: fmt(r["read_p9999"])),
    ("episodes", lambda r: fmt(r["episodes"])), ("victims / episode", lambda r: fmt(r["victims_per_episode"])),
    ("GC active (%)", lambda r: fmt(r["gc_active_share"], 3, 100).replace("100 ± 0", "100")),
]


def figure_loads(plt, data, workload, path):
    """p99.99 write and read latency against load, one line per trigger (log y)."""
    fig, axes = plt.subplots(1, 2, figsize=(10, 3.8))
    loads = [x for x in LOADS if rows_of(data, "loads", workload=workload, load=x)]
    for t in TRIGGERS:
        for ax, key, title in ((axes[0], "write_p9999", "write p99.99"), (axes[1], "read_p9999", "read p99.99")):
            ys, es = [], []
            for x in loads:
                r = rows_of(data, "loads", workload=workload, load=x, trigger=t)[0]
                ys.append(r[key][0])
                es.append(r[key][1])
            ax.errorbar(range(len(loads)), ys, yerr=es, marker="o", capsize=3, label=t)
            ax.set_title(title)
            ax.set_xticks(range(len(loads)))
            ax.set_xticklabels([load_name(x) for x in loads])
            ax.set_yscale("log")
            ax.set_ylabel("latency (us)")
    axes[1].legend(loc="upper left", bbox_to_anchor=(1.02, 1.0), title="ftl.gc.trigger")
    save(plt, fig, path)


def figure_series(plt, data, path):
    """Write bandwidth over time per trigger, GC episodes shaded."""
    series = data["series"]
    fig, axes = plt.subplots(len(series), 1, figsize=(10, 1.9 * len(series)), sharex=True)
    for ax, (t, s) in zip(axes, series.items()):
        ax.plot(s["time_s"], s["write_mbps"], lw=0.8, color="tab:blue")
        for a, b in s["episodes"]:
            ax.axvspan(a, b, color="tab:red", alpha=0.25, lw=0)
        ax.set_ylabel("write MB/s")
        ax.set_title(f"{t}: {len(s['episodes'])} GC episode{'s' if len(s['episodes']) != 1 else ''} (shaded)",
                     fontsize=9, loc="left")
    axes[-1].set_xlabel("simulated time (s)")
    save(plt, fig, path)


def figure_gap(plt, data, path):
    rows = rows_of(data, "gap")
    fig, axes = plt.subplots(1, 2, figsize=(9, 3.4))
    xs = [r["gap"] for r in rows]
    axes[0].errorbar(xs, [r["victims_per_episode"][0] for r in rows],
                     yerr=[r["victims_per_episode"][1] for r in rows], marker="o", capsize=3, label="measured")
    axes[0].plot(xs, xs, "k--", lw=0.8, label="high - low")
    axes[0].set_xlabel("high - low (blocks)")
    axes[0].set_ylabel("victims per episode")
    axes[0].set_xscale("log", base=2)
    axes[0].set_yscale("log", base=2)
    axes[0].legend(loc="upper left")
    axes[1].errorbar(xs, [r["episode_mean_ms"][0] for r in rows], yerr=[r["episode_mean_ms"][1] for r in rows],
                     marker="o", capsize=3)
    axes[1].set_xlabel("high - low (blocks)")
    axes[1].set_ylabel("mean episode (ms)")
    axes[1].set_xscale("log", base=2)
    axes[1].set_yscale("log")
    save(plt, fig, path)


def save(plt, fig, path):
    fig.tight_layout()
    os.makedirs(os.path.dirname(path), exist_ok=True)
    fig.savefig(path + ".png", dpi=90)
    fig.savefig(path + ".svg")
    plt.close(fig)


def render(data, page=PAGE, figures=True):
    plt = pyplot() if figures else None
    rel = "gc-scheduling/"
    if plt:
        for w in data["rates"]:
            figure_loads(plt, data, w, os.path.join(DATA_DIR, f"loads-{w}"))
        if data["series"]:
            figure_series(plt, data, os.path.join(DATA_DIR, "episodes"))
        if rows_of(data, "gap"):
            figure_gap(plt, data, os.path.join(DATA_DIR, "gap"))
    prov = data["provenance"]
    k = data["seeds"]
    out = ["# GC scheduling: when GC runs, and what it costs", "",
           f"Generated by `{prov['command']}` from [`gc-scheduling/results.json`]({rel}results.json); "
           "do not edit (`scripts/gc_scheduling.py --render-only` renders it again).", ""]
    out += ["What `ftl.gc.trigger` (threshold, watermarks, idle, autossd) and `ftl.gc.preempt` do to write "
            "amplification and to the latency tail, on the same aged drive and workloads "
            "([firmware/gc.md](../firmware/gc.md#gc-scheduling) says how each works).", "",
            "**Set-up.** `configs/small.yaml` (1 GiB of flash, 8 dies, 12.5 % spare, 64-page blocks, GC at 16 free "
            "blocks, reserve 4), aged full: filled, then one drive-write of random overwrites. "
            f"{data['requests']} requests of 4 KiB, 30 % reads, uniform or hot/cold (80 % of requests to 20 % of "
            "the space). Every trigger starts GC below 16 free blocks; watermarks, idle and autossd collect up to "
            "64 (`ftl.gc.high_blocks`); idle's host is idle after 2 ms without a command. "
            f"**Each cell is the mean of {k} runs** (seeds 1..{k} of the workload and of the preconditioning) "
            "**± the half-width of its 95 % Student-t interval**; each figure's point is the same.", ""]
    rates = ", ".join(f"{w} {r:,.0f} IOPS" for w, r in data["rates"].items())
    out += [f"The open-loop loads are fractions of the closed loop's rate under the default trigger ({rates}; the "
            "mean over the seeds).", ""]
    for w in data["rates"]:
        out += [f"## Loads: {w}", "", table(rows_of(data, "loads", workload=w), LOAD_COLS),
                f"![p99.99 latency by load, {w}]({rel}loads-{w}.png)", "",
                f"*p99.99 write and read latency (log scale) by load and trigger, {w}; each point the mean of {k} "
                "runs with its 95 % interval.*", ""]
    out += ["## Bursty load: what idle-time GC buys", "",
            "Bursts of 2,000 requests at 90 % of the closed loop's rate, each after 200 ms of quiet. The first "
            "bursts meet the free pool where preconditioning left it (at the threshold), so the tail below is "
            f"taken over the intervals after the first {int(BURST_SKIP * 100)} % of each run (100 ms histograms, "
            "`latency_histograms.csv`; a bucket counts at its upper edge), beside the whole run's.", ""]
    out += [table(rows_of(data, "bursts"), [
        ("workload", lambda r: r["workload"]), ("trigger", lambda r: f"`{r['trigger']}`"),
        ("WAF", lambda r: fmt(r["waf"], 4)), ("free blocks (mean)", lambda r: fmt(r["free_blocks_mean"])),
        ("idle victims", lambda r: fmt(r["idle_victims"])),
        ("write p99 steady (us)", lambda r: fmt(r["write_p99_steady"])),
        ("write p99.99 steady (us)", lambda r: fmt(r["write_p9999_steady"])),
        ("read p99.99 steady (us)", lambda r: fmt(r["read_p9999_steady"])),
        ("write p99.99 whole run (us)", lambda r: fmt(r["write_p9999"])),
        ("read p99.99 whole run (us)", lambda r: fmt(r["read_p9999"]))]), ""]
    out += findings_bursts(data)
    if rows_of(data, "gap"):
        out += ["## Watermarks: episodes follow the gap", "",
                "`watermarks` with the low mark at 16 and the high mark 8..128 blocks above it, uniform, open loop at "
                "30 % (in closed loop the host holds the pool at the reserve and GC never stops: one episode "
                "whatever the marks).", "",
                table(rows_of(data, "gap"), [("high − low", lambda r: str(r["gap"])),
                                            ("episodes", lambda r: fmt(r["episodes"])),
                                            ("victims / episode", lambda r: fmt(r["victims_per_episode"])),
                                            ("mean episode (ms)", lambda r: fmt(r["episode_mean_ms"])),
                                            ("WAF", lambda r: fmt(r["waf"], 4)),
                                            ("write p99.99 (us)", lambda r: fmt(r["write_p9999"]))]),
                f"![episodes against the gap]({rel}gap.png)", "",
                f"*Victims per episode (against the line high − low) and mean episode length; each point the mean of "
                f"{k} runs with its 95 % interval.*", ""]
    out += ["## Preemption", "",
            "`ftl.gc.preempt` under the default trigger, uniform load: host reads (`reads`), or host reads and "
            "host page programs (`all`), go ahead of GC's operations queued on their die.", "",
            table(rows_of(data, "preempt"), [("load", lambda r: load_name(r["load"])),
                                            ("preempt", lambda r: f"`{r['preempt']}`"),
                                            ("preemptions", lambda r: fmt(r["gc_preemptions"])),
                                            ("WAF", lambda r: fmt(r["waf"], 4)), ("MB/s", lambda r: fmt(r["mbps"])),
                                            ("read mean (us)", lambda r: fmt(r["read_mean"])),
                                            ("read p99.99 (us)", lambda r: fmt(r["read_p9999"])),
                                            ("write p99.99 (us)", lambda r: fmt(r["write_p9999"]))]), ""]
    if data["series"]:
        out += ["## GC episodes over time", "", f"![write bandwidth with GC episodes]({rel}episodes.png)", "",
                "*Write bandwidth (20 ms intervals) of one run per trigger (uniform, open loop at 60 %, seed 1), the "
                "GC episodes from the run's timeline shaded.*", ""]
    out += findings(data)
    out += ["## Reproduce", "", "```sh", prov["command"], "scripts/gc_scheduling.py --render-only   # the page alone",
            "```", "",
            cost_line(data), "",
            prov_mod.section(prov)]
    with open(page, "w") as f:
        f.write("\n".join(out))
    print("wrote", page)


def cell(data, section, key, **kw):
    rs = rows_of(data, section, **kw)
    return rs[0][key] if rs else (float("nan"), 0.0)


def differs(a, b):
    """a and b (mean, half-width) do not overlap: a real difference at these intervals."""
    return abs(a[0] - b[0]) > a[1] + b[1]


def findings_bursts(data):
    lines = []
    for w in data["rates"]:
        th = rows_of(data, "bursts", workload=w, trigger="threshold")
        idle = rows_of(data, "bursts", workload=w, trigger="idle")
        if not th or not idle:
            continue
        a, b = th[0], idle[0]
        k = "write_p9999_steady"
        lower = b[k][0] < a[k][0] and differs(a[k], b[k])
        lines.append(f"- **{w}**: idle GC started {b['idle_victims'][0]:.0f} victims in the quiet; steady write "
                     f"p99.99 {fmt(a[k])} us under `threshold` against {fmt(b[k])} us under `idle` "
                     f"({'lower, beyond the intervals' if lower else 'not lower beyond the intervals'}), at WAF "
                     f"{fmt(a['waf'], 4)} against {fmt(b['waf'], 4)}"
                     f"{' (idle GC collects blocks earlier, with more valid data in them)' if b['waf'][0] > a['waf'][0] else ''}.")
    return lines + [""]


def findings(data):
    """What the data says, each sentence computed from it (beyond the intervals or not)."""
    out = ["## Findings", ""]

    def cmp(a, b):
        if not differs(a, b):
            return "no different beyond the intervals"
        return "lower" if b[0] < a[0] else "higher"

    for w in data["rates"]:
        closed = {t: cell(data, "loads", "waf", workload=w, trigger=t, load="closed") for t in TRIGGERS}
        same = all(not differs(closed["threshold"], v) for v in closed.values())
        out.append(f"- **{w}, closed loop**: the host keeps the free pool at the reserve, so GC never stops (one "
                   "episode) and the trigger " + ("does not matter: every trigger's WAF is within the threshold's "
                                                  "interval." if same else "moves WAF only a little: " +
                                                  ", ".join(f"`{t}` {fmt(v, 4)}" for t, v in closed.items()) + "."))
        opens = [x for x in LOADS if x != "closed" and rows_of(data, "loads", workload=w, load=x)]
        idle_eq = all(cell(data, "loads", "waf", workload=w, trigger="idle", load=x)[0] ==
                      cell(data, "loads", "waf", workload=w, trigger="threshold", load=x)[0] for x in opens)
        if idle_eq:
            out.append(f"- **{w}, open loop**: `idle` equals `threshold` to the digit at every load: requests arrive "
                       "every fraction of a millisecond, so the host is never idle for 2 ms and background GC never "
                       "starts (its case is the bursty load below).")
        for x in opens:
            th_r = cell(data, "loads", "read_p9999", workload=w, trigger="threshold", load=x)
            au_r = cell(data, "loads", "read_p9999", workload=w, trigger="autossd", load=x)
            th_w = cell(data, "loads", "waf", workload=w, trigger="threshold", load=x)
            au_w = cell(data, "loads", "waf", workload=w, trigger="autossd", load=x)
            wm_w = cell(data, "loads", "waf", workload=w, trigger="watermarks", load=x)
            out.append(f"- **{w}, {load_name(x)}**: `autossd` read p99.99 {fmt(au_r)} us against {fmt(th_r)} us "
                       f"under `threshold` ({cmp(th_r, au_r)}), at WAF {fmt(au_w, 4)} against {fmt(th_w, 4)} "
                       f"({cmp(th_w, au_w)}): GC paced by its share interferes less with reads and runs all the "
                       f"time. `watermarks` costs WAF {fmt(wm_w, 4)} ({cmp(th_w, wm_w)}): the pool it holds above "
                       "the low mark is spare that holds no data.")
    gaps = rows_of(data, "gap")
    if len(gaps) > 1:
        a, b = gaps[0], gaps[-1]
        out.append(f"- **Episodes follow the gap**: from high − low = {a['gap']} to {b['gap']} blocks, victims per "
                   f"episode go from {fmt(a['victims_per_episode'])} to {fmt(b['victims_per_episode'])} and the "
                   f"mean episode from {fmt(a['episode_mean_ms'])} to {fmt(b['episode_mean_ms'])} ms. An episode "
                   "collects several times the gap: GC refills the pool only by 1 − (valid share) of a block per "
                   "victim while the host goes on writing.")
    off = cell(data, "preempt", "read_mean", preempt="off", load=0.6)
    for m in ("reads", "all"):
        on = cell(data, "preempt", "read_mean", preempt=m, load=0.6)
        out.append(f"- **Preemption `{m}`, open 60 %**: read mean {fmt(on)} us against {fmt(off)} us without "
                   f"({cmp(off, on)}); in closed loop almost nothing is preempted, because at the reserve GC's "
                   "operations carry no hint (host writes are waiting for GC there).")
    return out + [""]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("build", nargs="?", default=os.path.join(ROOT, "build"))
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--seeds", type=int, default=3)
    ap.add_argument("--quick", action="store_true", help="one seed, fewer points (a check, not the page's data)")
    ap.add_argument("--render-only", action="store_true", help="render the page from the committed results.json")
    ap.add_argument("--data", help="with --render-only: the results directory holding gc-scheduling/results.json")
    ap.add_argument("--page", help="with --render-only: where to write the page (figures are then not redrawn)")
    a = ap.parse_args()
    if a.render_only:
        data = os.path.join(a.data, "gc-scheduling", "results.json") if a.data else DATA
        with open(data) as f:
            render(json.load(f), a.page or PAGE, figures=not a.page)
        return
    seeds = 1 if a.quick else a.seeds
    cmd = "scripts/gc_scheduling.py " + os.path.relpath(a.build, ROOT) + (" --quick" if a.quick else "") + \
        (f" --seeds {a.seeds}" if a.seeds != 3 and not a.quick else "")
    data = measure(a.build, a.jobs, seeds, a.quick)
    data["provenance"] = provenance(a.build, cmd, data["wall_s"])
    os.makedirs(DATA_DIR, exist_ok=True)
    prov_mod.write(data["provenance"], DATA_DIR)
    with open(DATA, "w") as f:
        json.dump(data, f, indent=1)
    render(data)


if __name__ == "__main__":
    main()
