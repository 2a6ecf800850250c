#!/usr/bin/python3
"""What a block-level replay loses: one application run live on the simulated drive under several placements,
against the replays of those live recordings under the same placements (docs/results/live-vs-replay.md).

A live run is `scripts/workloads/record.sh JOB` with the drive in `nbd.time: paced` (simulated time never runs
ahead of wall time, so the application waits for the drive's simulated latency and idle gaps are real
simulated time), preconditioned as used (`precondition.random_drive_writes` 1.0, one history per repeat) and
the file system made without mke2fs's discard (`WL_MKFS_NODISCARD=1`), so the drive the application sees is the
drive the replays see. Each live run records what reached the drive; each recording is then replayed by
`ssdvp run` under every placement, closed loop at the recording's queue depth with its flush ordering (the drive
sets the pace) and open loop at its timestamps (the application's pace as it was), on the same drive history.

    python3 scripts/live_vs_replay.py [--study NAME]  # the live runs, the replays, the page
    python3 scripts/live_vs_replay.py --reuse         # take the live runs and replays already in --out
    python3 scripts/live_vs_replay.py --render DIR    # run nothing: the page from DIR's CSVs

The live runs need the guest (scripts/workloads/record.sh: qemu, the application root) and take the machine's
wall time: run nothing else that is CPU-heavy beside them (the guest is emulated, and a starved emulator slows
the application, not the drive).
"""
import argparse
import csv
import json
import lzma
import os
import re
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "explore"))
sys.path.insert(0, os.path.join(ROOT, "scripts"))  # runpoint, when imported from elsewhere (its test)
from ssdvp_explore import provenance as prov_mod  # noqa: E402  (standard library only)
from ssdvp_explore.stats import as_float as num, fmt_ci, mean_ci  # noqa: E402
from runpoint import run_kept, set_args  # noqa: E402

NAME = "live-vs-replay"
CONFIG = "configs/workloads-1g.yaml"
LAYOUT = "traces/workloads/ext4-1g.layout"
# The studies: an application, its job's parameters (those of its committed recording in traces/workloads/, on
# a file system made without discard) and the techniques, as on the techniques pages
# (explore/sweeps/techniques.yaml); the first arm is the base the others are compared with.
STUDIES = {
    "fio-journal": {
        "wl": {"WL_DATA_MIB": 563, "WL_WRITE_MIB": 2048, "WL_SEED": 1, "WL_MKFS_NODISCARD": 1},
        "app": ("fio", "MB/s"),
        "what": "fio, 4 KiB random overwrites of a 563 MiB file through the page cache, `fsync` every 32 writes, "
                "rounds until the drive has taken 2,048 MiB (the committed recording's job and parameters)",
        "arms": {
            "double": {"ftl.placement.policy": "double", "ftl.hot.classes": 6},
            "journal-separated": {"ftl.placement.policy": "stream", "ftl.hot.classes": 2, "host.streams": "journal"},
            "gc-idle": {"ftl.placement.policy": "double", "ftl.hot.classes": 6, "ftl.gc.trigger": "idle"},
        }},
    "mariadb-oltp": {
        # the committed recording's data set; 1,024 MiB written (its 1,536 cost 18 minutes of TCG a run): the
        # install and prepare write about 500 MiB, then 60 s rounds of OLTP on the used drive
        "wl": {"WL_DATA_MIB": 200, "WL_WRITE_MIB": 1024, "WL_SEED": 1, "WL_MKFS_NODISCARD": 1},
        "app": ("sysbench", "tps"),
        "what": "MariaDB 10.11 under sysbench's OLTP read-write mix, 8 tables of 200 MiB in all, 4 client threads, "
                "60 s rounds until the drive has taken 1,024 MiB (the committed recording's job and data set; it "
                "wrote 1,536 MiB)",
        # the streams seed's 8 streams; the LSTM's period 5 s (one of the seed's 1/5/10 s), trained over its
        # first 8 periods, its CPU time charged (host.predict.cpu_ns_per_mac's default)
        "arms": {
            "none": {"ftl.placement.policy": "stream", "ftl.hot.classes": 8, "host.streams": "none"},
            "lstm": {"ftl.placement.policy": "stream", "ftl.hot.classes": 8, "host.streams": "lstm",
                     "host.predict.period": "5s", "host.predict.chunks": 10000, "host.predict.train_periods": 8},
        }},
}
COMMON = {"precondition.random_drive_writes": 1.0, "ftl.hot.slice_size": "400KiB", "ftl.cluster.engine": "software",
          "ftl.gc.high_blocks": 48, "host.files.ext4.layout": LAYOUT, "host.files.journal_stream": 1,
          "log.level": "error"}
MODES = {"closed": {"host.mode": "closed", "workload.flush_order": "true"}, "open": {"host.mode": "open"}}
LIVE_COLS = ["study", "arm", "repeat", "recording", "requests", "queue_depth", "drive_writes", "app_rate", "app_runtime_s", "guest_run_s", "waf", "erases", "gc_lbas", "write_p99_us", "flush_p99_us",
             "sim_s", "sha256_xz", "wall_s", "load", "sim_cpu_s", "extra_wait_us", "extra_wait_p99_us",
             "extra_wait_over_1ms_pct", "drive_busy_pct", "app_rounds"]
REPLAY_COLS = ["study", "recorded_under", "repeat", "arm", "mode", "waf", "erases", "gc_lbas", "mbps", "write_p99_us",
               "flush_p99_us", "sim_s", "mismatches", "wall_s"]


def nested(flat):
    """{'a.b': v} -> {'a': {'b': v}}."""
    out = {}
    for k, v in flat.items():
        d = out
        *path, last = k.split(".")
        for p in path:
            d = d.setdefault(p, {})
        d[last] = v
    return out


def merge(base, over):
    for k, v in over.items():
        if isinstance(v, dict) and isinstance(base.get(k), dict):
            merge(base[k], v)
        else:
            base[k] = v
    return base


def live_config(path, study, arm, repeat):
    import yaml
    cfg = yaml.safe_load(open(os.path.join(ROOT, CONFIG)))
    # record.sh runs the server in the run's folder: the layout's path absolute
    merge(cfg, nested(dict(COMMON, **STUDIES[study]["arms"][arm], **{
        "precondition.seed": repeat, "nbd.time": "paced", "host.files.ext4.layout": os.path.join(ROOT, LAYOUT)})))
    with open(path, "w") as f:
        f.write(f"# {NAME}: {CONFIG} with {study}'s {arm} arm, drive history {repeat}, paced "
                "(scripts/live_vs_replay.py)\n")
        yaml.safe_dump(cfg, f, sort_keys=False)


def grab(log, tag):
    return [line[line.index(tag):].strip() for line in log.splitlines() if tag in line]


def app_rounds(study, log):
    """[(amount, seconds)] per timed round, from the guest's log: fio's MB written and its runtime; sysbench's
    transactions and the round's time by its own clock (N transactions at R a second: N / R s, a little over the
    job's RUN_S of 60 s, since sysbench lets the transactions in flight finish)."""
    if STUDIES[study]["app"][0] == "fio":
        app = [line.split()[1].split(";") for line in grab(log, "WL-APP ")]
        return [(float(a[0]) * 1024 / 1e6, float(a[3]) / 1e3) for a in app]
    rounds = [(int(m.group(1)), float(m.group(2))) for line in grab(log, "WL-SYSBENCH")
              for m in [re.search(r"transactions: (\d+) \(([\d.]+) per sec\.\)", line)] if m]
    return [(n, n / r) for n, r in rounds if r > 0]


def app_figures(study, log):
    """(rate, seconds): the application's own throughput (fio: MB/s written; sysbench: transactions a second)
    over its timed rounds, from the guest's log."""
    rounds = app_rounds(study, log)
    amount, secs = sum(a for a, _ in rounds), sum(t for _, t in rounds)
    digits = 3 if STUDIES[study]["app"][0] == "fio" else 2
    return (round(amount / secs, digits) if secs else "", round(secs, 1))


def rounds_text(rounds):
    """app_rounds as the live table keeps it: 'amount/seconds' per round, space-separated."""
    return " ".join(f"{a:.6g}/{t:.6g}" for a, t in rounds)


def rate_over(text, m):
    """The rate over the first m rounds of a rounds_text ('' when it has fewer, or none recorded)."""
    rounds = [tuple(float(x) for x in r.split("/")) for r in (text or "").split()]
    if len(rounds) < m or m < 1:
        return ""
    secs = sum(t for _, t in rounds[:m])
    return sum(a for a, _ in rounds[:m]) / secs if secs else ""


def harness(times_csv):
    """What the guest waited beyond the drive, from `ssdvp serve --record`'s per-request times (NAME.times.csv):
    each request's wall-clock wait (received whole -> reply sent) minus its simulated latency, in us: mean, p99 and
    the share (%) of requests that waited more than 1 ms beyond theirs; and the share (%) of the session's
    simulated time in which the drive had at least one request (the most of the application's time that waiting
    on the drive can account for). In `nbd.time: paced` a request waits beyond its simulated latency while the
    simulation thread is busy with something else (a GC burst it computes slower than real time, a period's stream
    prediction that is due before its thread has done it); a negative wait is a request the simulator served while
    catching up."""
    extra, spans = [], []
    with open(times_csv) as f:
        cols = next(f).strip().split(",")
        i = {c: cols.index(c) for c in ("sim_arrival_ps", "sim_done_ps", "wall_arrival_us", "wall_reply_us")}
        for line in f:
            c = line.split(",")
            spans.append((int(c[i["sim_arrival_ps"]]), int(c[i["sim_done_ps"]])))
            extra.append(float(c[i["wall_reply_us"]]) - float(c[i["wall_arrival_us"]])
                         - (spans[-1][1] - spans[-1][0]) / 1e6)
    if not extra:
        return "", "", "", ""
    extra.sort()
    spans.sort()
    busy, (lo, hi) = 0, spans[0]
    for a, b in spans[1:]:
        if a > hi:
            busy, lo, hi = busy + hi - lo, a, b
        else:
            hi = max(hi, b)
    busy += hi - lo
    whole = max(b for _, b in spans) - spans[0][0]
    return (round(sum(extra) / len(extra), 1), round(extra[min(len(extra) - 1, int(0.99 * len(extra)))], 1),
            round(100 * sum(e > 1000 for e in extra) / len(extra), 2),
            round(100 * busy / whole, 2) if whole else "")


def live(binary, out, study, arm, repeat, reuse, cache):
    name = f"{study}-live-{arm}-r{repeat}"
    d = os.path.join(out, "live", name)
    rec = os.path.join(d, f"{name}.iolog.xz")
    if not (reuse and os.path.exists(rec)):
        os.makedirs(d, exist_ok=True)
        cfg = os.path.join(d, "config.yaml")
        live_config(cfg, study, arm, repeat)
        env = dict(os.environ, SSDVP=binary, WL_CONFIG=cfg, REC_NAME=name, OUTDIR=d,
                   SYSTEMC_DISABLE_COPYRIGHT_MESSAGE="1")
        if cache:
            env["SSDVP_GUEST_CACHE"] = cache
        t0 = time.time()
        p = subprocess.run(["bash", os.path.join(ROOT, "scripts/workloads/record.sh"), study,
                            *[f"{k}={v}" for k, v in STUDIES[study]["wl"].items()]], env=env, capture_output=True,
                           text=True)
        if p.returncode != 0:
            sys.exit(f"live run {name} failed ({p.returncode}):\n{p.stdout[-2000:]}\n{p.stderr[-2000:]}")
        with open(os.path.join(d, "wall_s"), "w") as f:
            f.write(f"{time.time() - t0:.1f} {' '.join(f'{x:.2f}' for x in os.getloadavg())}\n")
        print(p.stdout.strip().splitlines()[-1], flush=True)
    prov = json.load(open(os.path.join(d, f"{name}.json")))
    s = json.load(open(os.path.join(d, "out", "summary.json")))
    log = open(os.path.join(d, "guest.log"), errors="replace").read().replace("\r", "")
    rate, secs = app_figures(study, log)
    per_round = rounds_text(app_rounds(study, log))
    run_s = grab(log, "WL-RUN-SECONDS")[0].split()
    wall, *load = open(os.path.join(d, "wall_s")).read().split()
    lat = s["latency_us"]
    wait, wait99, over, busy = harness(os.path.join(d, "session.iolog.times.csv"))
    return {"study": study, "arm": arm, "repeat": repeat, "recording": name, "requests": prov["requests"],
            "queue_depth": prov["queue_depth"], "drive_writes": prov["drive"]["drive_writes"],
            "app_rate": rate, "app_runtime_s": secs, "guest_run_s": round(float(run_s[2]) - float(run_s[1]), 1),
            "waf": round(s["ftl"]["waf"], 5), "erases": s["ftl"]["erases"], "gc_lbas": s["ftl"]["gc_lba_writes"],
            "write_p99_us": lat["write"]["p99"], "flush_p99_us": lat.get("flush", {}).get("p99", ""),
            "sim_s": round(s["host"]["sim_time_s"], 2), "sha256_xz": prov["sha256_xz"], "wall_s": float(wall),
            "load": " ".join(load), "sim_cpu_s": round(s["run"]["cpu_s"], 2) if "cpu_s" in s["run"] else "",
            "extra_wait_us": wait, "extra_wait_p99_us": wait99, "extra_wait_over_1ms_pct": over,
            "drive_busy_pct": busy, "app_rounds": per_round}


def replay(binary, out, rec_row, arm, mode, reuse):
    name, study = rec_row["recording"], rec_row["study"]
    src = os.path.join(out, "live", name, f"{name}.iolog.xz")
    plain = os.path.join(out, "replay", f"{name}.iolog")
    if not os.path.exists(plain):
        os.makedirs(os.path.dirname(plain), exist_ok=True)
        with lzma.open(src) as fi, open(plain + ".part", "wb") as fo:
            fo.write(fi.read())
        os.replace(plain + ".part", plain)
    d = os.path.join(out, "replay", f"{name}_{arm}_{mode}")
    sets = dict(COMMON, **STUDIES[study]["arms"][arm], **MODES[mode], **{
        "precondition.seed": rec_row["repeat"], "workload.source": "trace", "workload.trace": plain,
        "workload.format": "fio", "workload.fio_time_unit_ps": 1})
    if mode == "closed":
        sets["host.queue_depth"] = max(1, int(rec_row["queue_depth"]))
    s, wall = run_kept(binary, d, ["-c", os.path.join(ROOT, CONFIG), *set_args(sets)], reuse)
    lat = s["latency_us"]
    r = {"study": study, "recorded_under": rec_row["arm"], "repeat": rec_row["repeat"], "arm": arm, "mode": mode,
         "waf": round(s["ftl"]["waf"], 5), "erases": s["ftl"]["erases"], "gc_lbas": s["ftl"]["gc_lba_writes"],
         "mbps": round(s["host"]["bandwidth_mbps"], 3), "write_p99_us": lat["write"]["p99"],
         "flush_p99_us": lat.get("flush", {}).get("p99", ""), "sim_s": round(s["host"]["sim_time_s"], 2),
         "mismatches": s["integrity"]["mismatches"], "wall_s": wall}
    print(f"replay {name:40s} {arm:18s} {mode:6s} WAF {r['waf']:.3f} {r['mbps']:.2f} MB/s", flush=True)
    return r


# ---------------------------------------------------------------------------------------------------------------
# the page

def pick(rows, **kw):
    return [r for r in rows if all(str(r[k]) == str(v) for k, v in kw.items())]


def by_repeat(rows, key, **kw):
    return {int(r["repeat"]): num(r[key]) for r in pick(rows, **kw)}


def change_by_repeat(a, b, ratio=False):
    """{repeat: a against b, in % (or as a ratio)} over the repeats both have."""
    return {k: a[k] / b[k] if ratio else 100 * (a[k] / b[k] - 1) for k in sorted(set(a) & set(b)) if b[k]}


def change(a, b, ratio=False):
    """change_by_repeat's values, in repeat order."""
    return list(change_by_repeat(a, b, ratio).values())


def draw(figdir, study, live_rows, rep_rows):
    """WAF per arm: live, and the replays of the base arm's live recording (closed, open), 95 % intervals."""
    from ssdvp_explore.plots import legend_outside, plt, save
    arms = [a for a in STUDIES[study]["arms"] if pick(live_rows, arm=a)]
    base = arms[0]
    series = [("live", lambda a: [num(r["waf"]) for r in pick(live_rows, arm=a)])]
    for mode in MODES:
        series.append((f"replay of the {base} live recording, {mode} loop",
                       lambda a, m=mode: [num(r["waf"]) for r in pick(rep_rows, recorded_under=base, arm=a, mode=m)]))
    fig, ax = plt.subplots(figsize=(5.6, 3.4))
    width = 0.8 / len(series)
    for i, (label, f) in enumerate(series):
        ms = [mean_ci(f(a)) for a in arms]
        xs = [k + (i - (len(series) - 1) / 2) * width for k in range(len(arms))]
        ax.bar(xs, [m for m, _ in ms], width, yerr=[h for _, h in ms], capsize=2, label=label,
               error_kw={"elinewidth": 0.7})
    ax.set_xticks(range(len(arms)), arms, fontsize=9)
    ax.set_ylabel("WAF")
    ax.set_title(f"{study}: WAF live and replayed", fontsize=9)
    fig.tight_layout()
    legend_outside(fig, *ax.get_legend_handles_labels())
    save(fig, os.path.join(figdir, f"{study}-waf"))


def measured(rows, key="extra_wait_us"):
    """The live rows that recorded key (and the simulator's CPU): data made before a column existed has it empty."""
    return [r for r in rows if r.get(key, "") != "" and r.get("sim_cpu_s", "") != ""]


def cpu_share(rows):
    """The simulator's CPU time as % of each run's wall time."""
    return [100 * num(r["sim_cpu_s"]) / num(r["wall_s"]) for r in rows]


def harness_section(arms, live_rows):
    """The simulator's own CPU and what the guest waited beyond the drive, per technique (runs that recorded it)."""
    rows = measured(live_rows)
    if not rows:
        return []
    busy = bool(measured(rows, "drive_busy_pct"))
    L = ["", "**The harness.** A live run's application shares the machine with the simulator, and in `nbd.time: "
         "paced` a request waits, in wall time, for its simulated latency and for whatever else holds the "
         "simulation thread then (a GC burst the simulator computes slower than real time; a stream prediction due "
         "before the predictor's own thread has done it, as the LSTM's training can be). Per request: its "
         "wall-clock wait (received whole to reply sent) minus its simulated latency, from the session's per-request times; the simulator's whole CPU "
         "time (`run.cpu_s`) against the run's wall time (the guest's emulated CPU takes the rest of the machine); "
         "and the share of the session in which the drive had at least one request: the most of the application's "
         "time that waiting on the drive can account for, so the most a technique can move its throughput through "
         "the drive (shown once a run has measured it).",
         "", "| technique | runs | simulator CPU s | share of wall time, % | wait beyond simulated latency, mean us "
         "| p99 us | requests > 1 ms beyond, % |" + (" drive busy, % of the session |" if busy else ""),
         "|---|---|---|---|---|---|---|" + ("---|" if busy else "")]
    for a in arms:
        rs = pick(rows, arm=a)
        if not rs:
            continue
        L.append(f"| {a} | {len(rs)} | {fmt_ci([num(r['sim_cpu_s']) for r in rs], '.1f')} | "
                 f"{fmt_ci(cpu_share(rs), '.1f')} | "
                 f"{fmt_ci([num(r['extra_wait_us']) for r in rs], '.0f')} | "
                 f"{fmt_ci([num(r['extra_wait_p99_us']) for r in rs], '.0f')} | "
                 f"{fmt_ci([num(r['extra_wait_over_1ms_pct']) for r in rs], '.2f')} |"
                 + (f" {fmt_ci([num(r['drive_busy_pct']) for r in measured(rs, 'drive_busy_pct')], '.1f')} |"
                    if busy else ""))
    return L


def harness_words(live_rows, a, base):
    """The harness's figures of technique a against base, for the throughput verdict ('' without them)."""
    got = {}
    for arm in (a, base):
        rs = measured(pick(live_rows, arm=arm))
        if not rs:
            return ""
        got[arm] = (fmt_ci([num(r["extra_wait_us"]) for r in rs], ".0f"), fmt_ci(cpu_share(rs), ".1f"),
                    fmt_ci([num(r["drive_busy_pct"]) for r in rs], ".1f")
                    if len(measured(rs, "drive_busy_pct")) == len(rs) else "")
    busy = (f" The drive had a request in flight {got[a][2]} % of the session under `{a}` and {got[base][2]} % under "
            f"`{base}`: waiting on it can account for at most that share of the application's time."
            if got[a][2] and got[base][2] else "")
    return (f" Beside it, the harness: each request waited {got[a][0]} us beyond its simulated latency under `{a}` "
            f"against {got[base][0]} us under `{base}`, and the simulator took {got[a][1]} % against {got[base][1]} % "
            "of the run's wall time." + busy)


def common_rounds_words(live_rows, a, base, m, app):
    """The application's rate of technique a against base over the first m rounds of every run ('' without)."""
    if m < 1:
        return ""
    rate = {arm: {int(r["repeat"]): rate_over(r["app_rounds"], m) for r in pick(live_rows, arm=arm)}
            for arm in (a, base)}
    ratio = change(rate[a], rate[base], True)
    if not ratio:
        return ""
    mc, hc = mean_ci(ratio)
    return (f" Over the first {m} rounds, which every live run completed (a run's whole rate also depends on how "
            f"many rounds it took to write its share): {app} {mc:.3f} ± {hc:.3f}x.")


def study_section(study, live_rows, rep_rows, prov):
    st = STUDIES[study]
    arms = [a for a in st["arms"] if pick(live_rows, arm=a)]
    base, others = arms[0], arms[1:]
    app, unit = st["app"]
    reps = sorted({int(r["repeat"]) for r in live_rows})
    live_wall = sum(num(r["wall_s"]) for r in live_rows)
    rep_wall = sum(num(r["wall_s"]) for r in rep_rows)
    L = [f"## {study}", "",
         f"**The application**: `{study}` (`scripts/workloads/jobs/{study}.sh`: {st['what']}; `"
         + " ".join(f"{k}={v}" for k, v in st["wl"].items()) + "`). The techniques:", ""]
    for a in arms:
        L.append(f"- `{a}`: " + ", ".join(f"`{k}: {v}`" for k, v in st["arms"][a].items()))
    L += ["", f"Repeats: {len(reps)} per technique (drive histories {', '.join(map(str, reps))}); "
          f"{len(live_rows)} live runs, {live_wall:,.0f} s of wall time, one at a time (another study's may run beside "
          f"them: each run's load is in its table); {len(rep_rows)} replays, "
          f"{rep_wall:,.0f} s summed. The application's figure: {app}'s own ({unit}"
          + (", write bandwidth from its terse output, per round, summed" if app == "fio" else
             ", transactions over the timed rounds' elapsed time, both from sysbench's report per round") + ").", ""]
    # live
    L += ["### Live", "", f"| technique | {app} {unit} | WAF | erases | write p99 us | flush p99 us | guest run s | "
          "requests | drive-writes |", "|---|---|---|---|---|---|---|---|---|"]
    for a in arms:
        rs = pick(live_rows, arm=a)
        L.append(f"| {a} | {fmt_ci([num(r['app_rate']) for r in rs], '.2f')} | "
                 f"{fmt_ci([num(r['waf']) for r in rs], '.3f')} | {fmt_ci([num(r['erases']) for r in rs], '.0f')} | "
                 f"{fmt_ci([num(r['write_p99_us']) for r in rs], '.0f')} | "
                 f"{fmt_ci([num(r['flush_p99_us']) for r in rs], '.0f')} | "
                 f"{fmt_ci([num(r['guest_run_s']) for r in rs], '.0f')} | "
                 f"{fmt_ci([num(r['requests']) for r in rs], '.0f')} | "
                 f"{fmt_ci([num(r['drive_writes']) for r in rs], '.3f')} |")
    L += harness_section(arms, live_rows)
    L += ["", f"![{study}: WAF live and replayed]({NAME}/{study}-waf.png)", "",
          "One bar: the mean over the repeats (one live run or replay per drive history), 95 % interval.", ""]
    # the technique's effect
    L += ["### A technique's effect, live and as a replay predicts it", "",
          f"What a replay study does: record once (here: the live `{base}` run), replay under each technique, read "
          "off the change. Against it, the change the technique made live. Changes are per drive history.", "",
          f"| technique | WAF change live | replayed, closed | replayed, open | {app} {unit} live, x {base} | "
          "drive MB/s replayed closed, x |", "|---|---|---|---|---|---|"]
    verdicts = []
    # the rounds every live run completed (a run's whole-run rate also depends on how many rounds it needed)
    common = (min(len(r["app_rounds"].split()) for r in live_rows)
              if all(r.get("app_rounds", "") != "" for r in live_rows) else 0)
    for a in others:
        lw = change(by_repeat(live_rows, "waf", arm=a), by_repeat(live_rows, "waf", arm=base))
        rw = {m: change(by_repeat(rep_rows, "waf", recorded_under=base, arm=a, mode=m),
                        by_repeat(rep_rows, "waf", recorded_under=base, arm=base, mode=m)) for m in MODES}
        lt = change(by_repeat(live_rows, "app_rate", arm=a), by_repeat(live_rows, "app_rate", arm=base), True)
        rt = change(by_repeat(rep_rows, "mbps", recorded_under=base, arm=a, mode="closed"),
                    by_repeat(rep_rows, "mbps", recorded_under=base, arm=base, mode="closed"), True)
        L.append(f"| {a} | {fmt_ci(lw, '+.1f')} % | {fmt_ci(rw['closed'], '+.1f')} % | {fmt_ci(rw['open'], '+.1f')} % "
                 f"| {fmt_ci(lt, '.3f')}x | {fmt_ci(rt, '.3f')}x |")
        lwd = change_by_repeat(by_repeat(live_rows, "waf", arm=a), by_repeat(live_rows, "waf", arm=base))
        for m in MODES:
            rwd = change_by_repeat(by_repeat(rep_rows, "waf", recorded_under=base, arm=a, mode=m),
                                   by_repeat(rep_rows, "waf", recorded_under=base, arm=base, mode=m))
            err = [rwd[k] - lwd[k] for k in sorted(set(lwd) & set(rwd))]
            if not err:
                continue
            me, he = mean_ci(err)
            agree = abs(me) <= he or len(err) < 2
            verdicts.append(f"- `{a}`, WAF, {m}-loop replay: predicts {mean_ci(rw[m])[0]:+.1f} % against "
                            f"{mean_ci(lw)[0]:+.1f} % live; its error per drive history {me:+.1f} ± {he:.1f} points: "
                            + ("no error beyond the interval." if agree and len(err) > 1 else
                               "one drive history: no interval." if len(err) < 2 else
                               f"the replay's WAF change is {abs(me):.1f} points "
                               + ("lower (better) than the application got live." if me < 0 else
                                  "higher (worse) than the application got live.")))
        if lt and rt:
            ml, hl = mean_ci(lt)
            mr, hr = mean_ci(rt)
            word = ("the replay's gain is larger than the application's" if mr - hr > ml + hl else
                    "the replay's gain is smaller than the application's" if mr + hr < ml - hl else
                    "the two overlap within their intervals")
            verdicts.append(f"- `{a}`, throughput: {app} live {ml:.3f} ± {hl:.3f}x `{base}`'s; the closed-loop "
                            f"replay's drive throughput {mr:.3f} ± {hr:.3f}x: {word}." + harness_words(live_rows, a, base)
                            + common_rounds_words(live_rows, a, base, common, app))
    L += [""] + verdicts + [""]
    L += ["### The technique's effect on each recording", "",
          "The same change replayed on every live recording: if a technique's effect differs between the recordings "
          "made under different techniques by more than between drive histories, the application's requests "
          "themselves changed with the drive it ran on (feedback a single recording cannot carry).", "",
          f"| recorded under | technique | WAF change vs `{base}`, closed | open |", "|---|---|---|---|"]
    for rec in arms:
        for a in others:
            ch = {m: change(by_repeat(rep_rows, "waf", recorded_under=rec, arm=a, mode=m),
                            by_repeat(rep_rows, "waf", recorded_under=rec, arm=base, mode=m)) for m in MODES}
            L.append(f"| {rec} | {a} | {fmt_ci(ch['closed'], '+.1f')} % | {fmt_ci(ch['open'], '+.1f')} % |")
    L += [""]
    L += ["### Each live run replayed under its own technique", "",
          "How closely a replay reproduces the very run it was recorded from (same technique, same drive history):",
          "", "| technique | WAF live | replayed, closed | replayed, open | flush p99 us live | closed | open |",
          "|---|---|---|---|---|---|---|"]
    for a in arms:
        own = {m: pick(rep_rows, recorded_under=a, arm=a, mode=m) for m in MODES}
        lv = pick(live_rows, arm=a)
        L.append(f"| {a} | {fmt_ci([num(r['waf']) for r in lv], '.3f')} | "
                 f"{fmt_ci([num(r['waf']) for r in own['closed']], '.3f')} | "
                 f"{fmt_ci([num(r['waf']) for r in own['open']], '.3f')} | "
                 f"{fmt_ci([num(r['flush_p99_us']) for r in lv], '.0f')} | "
                 f"{fmt_ci([num(r['flush_p99_us']) for r in own['closed']], '.0f')} | "
                 f"{fmt_ci([num(r['flush_p99_us']) for r in own['open']], '.0f')} |")
    L += ["", "<details><summary>Every replay and every live run</summary>", "",
          "| recorded under | repeat | replayed under | loop | WAF | erases | MB/s | write p99 us | flush p99 us | "
          "sim s | mismatches |", "|---|---|---|---|---|---|---|---|---|---|---|"]
    order = list(st["arms"])
    for r in sorted(rep_rows, key=lambda r: (order.index(r["recorded_under"]), int(r["repeat"]),
                                             order.index(r["arm"]), r["mode"])):
        L.append(f"| {r['recorded_under']} | {r['repeat']} | {r['arm']} | {r['mode']} | {num(r['waf']):.3f} | "
                 f"{r['erases']} | {num(r['mbps']):.2f} | {r['write_p99_us']} | {r['flush_p99_us']} | {r['sim_s']} | "
                 f"{r['mismatches']} |")
    L += ["", f"| technique | repeat | {app} {unit} | WAF | requests | queue depth | simulated s | wall s | "
          "load (1, 5, 15 min) at its end | recording sha256 (xz) |", "|---|---|---|---|---|---|---|---|---|---|"]
    for r in live_rows:
        L.append(f"| {r['arm']} | {r['repeat']} | {r['app_rate']} | {num(r['waf']):.3f} | {r['requests']} | "
                 f"{r['queue_depth']} | {r['sim_s']} | {num(r['wall_s']):.0f} | {r['load']} | "
                 f"`{r['sha256_xz'][:16]}` |")
    L += ["", "</details>", "", prov_mod.section(prov, heading="### Provenance")]
    return L


def page(studies):
    """studies: [(study, live_rows, rep_rows, prov, command)]."""
    L = ["# Live against replayed: what a block-level replay loses", "",
         "<!-- generated by scripts/live_vs_replay.py; do not edit -->", "",
         "Regenerate (each study's cost is in its section; a live run takes the guest's wall time):", "", "```sh"]
    L += [c for *_, c in studies] + ["```", "",
                                     f"Render again from the committed data: `python3 scripts/live_vs_replay.py "
                                     f"--render docs/results/{NAME}`.", "",
                                     "Every other results page replays recordings ([workloads.md](workloads.md)): "
                                     "the application ran once, on one drive, and what reached that drive is played "
                                     "again under each technique. The application never sees the drive it is "
                                     "replayed on, so a technique that makes the drive faster cannot make the "
                                     "application issue its requests sooner, and one that makes it slower cannot "
                                     "hold the application back. This page measures what that costs: an "
                                     "application is run live under each technique, and each live run's recording "
                                     "is replayed under every technique.", ""]
    L += ["## Setup", "",
          f"**The drive**: `{CONFIG}` (1 GiB exported, 4 channels x 2 dies, greedy GC), used: preconditioned with "
          "a sequential fill and one drive-write of random overwrites (`precondition.random_drive_writes: 1.0`), "
          "drive history `precondition.seed` = the repeat; the file system made by mke2fs with its defaults but "
          "`-E nodiscard` (`WL_MKFS_NODISCARD=1`), so the drive stays used; the techniques as on "
          "[techniques.md](techniques.md), with `" + "`, `".join(f"{k}: {v}" for k, v in COMMON.items()
                                                               if k != "log.level") + "` for all.", "",
          "**Live**: the Debian 12 guest under qemu TCG on `ssdvp serve --record` with `nbd.time: paced`: "
          "simulated time never runs ahead of wall time, so each request takes at least its simulated latency in "
          "wall time, and the application's own pauses are simulated idle time in which background work (the idle "
          "GC trigger) runs. The guest's CPU is emulated, several times slower than the host's, so the "
          "application's compute between I/Os is stretched and the drive's share of the application's time is "
          "smaller than on real hardware: a technique's effect on the application's throughput here is a lower "
          "bound of the effect on a real machine with this drive.", "",
          "**Replayed**: each live run's recording by `ssdvp run` under every technique on the same drive history: "
          "closed loop at the recording's queue depth with its flush ordering (the drive sets the pace; MB/s is the "
          "drive's), and open loop at the recorded timestamps (the application's pace as it was).", "",
          "A live run is not deterministic (the guest's timing depends on the host's), so its repeats vary by more "
          "than the drive history alone, and the regeneration does not give these figures to the digit. Intervals "
          "are 95 % (t) over the repeats. The live recordings are not committed (each one's hash is in its table).",
          ""]
    for study, live_rows, rep_rows, prov, _ in studies:
        L += study_section(study, live_rows, rep_rows, prov)
    return L


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--study", action="append", choices=list(STUDIES),
                    help="run this study (repeatable; default: all); the others' committed data are kept")
    ap.add_argument("--bin", default=os.path.join(ROOT, "build/platform/ssdvp"))
    ap.add_argument("--out", default=os.path.join(ROOT, "out", NAME))
    ap.add_argument("--repeats", type=int, default=2)
    ap.add_argument("--guest-cache", default=os.environ.get("SSDVP_GUEST_CACHE", ""),
                    help="record.sh's SSDVP_GUEST_CACHE (kernel, initramfs, application roots)")
    ap.add_argument("--reuse", action="store_true", help="take the live runs and replays already in --out")
    ap.add_argument("--page", default=os.path.join(ROOT, "docs", "results", f"{NAME}.md"))
    ap.add_argument("--render", metavar="DATA_DIR", help="run nothing: render from this folder's CSVs")
    a = ap.parse_args()
    figdir = os.path.join(os.path.dirname(os.path.abspath(a.page)), NAME)
    data = a.render or figdir
    if a.repeats < 2:
        sys.exit("--repeats: expected 2 or more (a point is several runs with an interval)")
    if not a.render:
        for study in a.study or list(STUDIES):
            t0 = time.monotonic()
            cmd = f"python3 scripts/live_vs_replay.py --study {study}" + \
                (f" --repeats {a.repeats}" if a.repeats != 2 else "")
            arms = list(STUDIES[study]["arms"])
            # repeat-major, the arms interleaved, so a drift of the machine's load falls on every arm alike
            live_rows = [live(a.bin, a.out, study, arm, k, a.reuse, a.guest_cache)
                         for k in range(1, a.repeats + 1) for arm in arms]
            rep_rows = [replay(a.bin, a.out, lr, arm, mode, a.reuse) for lr in live_rows for arm in arms
                        for mode in MODES]
            d = os.path.join(data, study)
            os.makedirs(d, exist_ok=True)
            for fn, cols, rows in (("live.csv", LIVE_COLS, live_rows), ("replays.csv", REPLAY_COLS, rep_rows)):
                with open(os.path.join(d, fn), "w", newline="") as f:
                    wr = csv.DictWriter(f, fieldnames=cols)
                    wr.writeheader()
                    wr.writerows(rows)
            prov_mod.write(prov_mod.collect(a.bin, cmd, ROOT, skip=["docs/results/"], wall_s=time.monotonic() - t0), d)
    studies = []
    for study in STUDIES:
        d = os.path.join(data, study)
        if not os.path.exists(os.path.join(d, "live.csv")):
            continue
        live_rows = list(csv.DictReader(open(os.path.join(d, "live.csv"))))
        rep_rows = list(csv.DictReader(open(os.path.join(d, "replays.csv"))))
        prov = prov_mod.read(d)
        studies.append((study, live_rows, rep_rows, prov,
                        (prov or {}).get("command") or f"python3 scripts/live_vs_replay.py --study {study}"))
        bad = [(r["recorded_under"], r["repeat"], r["arm"], r["mode"]) for r in rep_rows if num(r["mismatches"])]
        if bad:
            sys.exit(f"{study}: integrity mismatches in the replays {bad}")
        draw(figdir, study, live_rows, rep_rows)
    if not studies:
        sys.exit(f"no study's data in {data} (live.csv)")
    with open(a.page, "w") as f:
        f.write("\n".join(page(studies)) + "\n")


if __name__ == "__main__":
    main()
