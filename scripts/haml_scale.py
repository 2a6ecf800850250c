#!/usr/bin/python3
"""haml_scale.py - HAML-SSD's policy comparison at the paper's scale (issue 19):
the `haml` sweep's placement policies on its synthetic workloads, on the Table III
drive (configs/haml_table3_policies.yaml: 300 GiB of flash, 256 GiB exported),
each point starting from a saved aged drive. Prints the table of
docs/results/haml.md's paper-scale section.

    python3 scripts/haml_scale.py BUILD_DIR --state DIR [--writes N] [--policies double,haml]
        [--workloads hotcold,shifting] [--clean] [--table-only [--split S]]

A placement policy shapes what ageing did (its ftl.* keys are checked on load,
docs/state.md), so the drive is aged once per policy (sequential fill + one
drive-write of uniform random overwrites, `--save-state DIR/<policy>
--precondition-only`) and loaded by each workload's point. Ageing does not run
the workload (precondition.workload_fraction=0, so the workload's keys are not
part of the saved drive): each point's whole workload is timed, N host writes
(N / (1 - read fraction) requests). Saved drives are about 1.3 GB each: keep DIR
outside the repository; --clean deletes each drive after its policy's last point on it.
The traces at about 10 M LBA writes (msr-10m, dtrs-10m, tpcc-10m) are replayed
over about 800 s with T = 32 s, so they load drives aged with that T
(DIR/<policy>-T32s), one more ageing per policy.

Points already run (out/haml_scale/<workload>-<policy>/summary.json with the same
request count) are not run again; delete the directory to redo one. One point runs
at a time. Each point's command line, CPU time (user, sys), wall time and peak RSS,
of that process alone (/usr/bin/time), are in out/haml_scale/<point>/cmd.json.
"""
import argparse
import json
import os
import shutil
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "explore"))
from ssdvp_explore.pages.haml import NAMES, PAPER_SCALE_COLUMNS, cold_in_hot, paper_scale_table, rank_correlation  # noqa: E402,E501
CONFIG = "configs/haml_table3_policies.yaml"
OUT = os.path.join("out", "haml_scale")

# The `haml` sweep's policies (explore/sweeps/haml.yaml; the oracle is `stream`)
# and their names on the page. Every point carries the oracle's stream IDs (a
# host-side pre-pass over the whole workload; only `stream` places by them), so
# each policy's classes can be compared with real death times, as at 1 GiB.
POLICIES = NAMES
# The sweep's synthetic workloads (its fixed overrides and cases; T = 8 s and
# HOTIS's 2 s are the base config's ftl.hot keys). N host writes are
# N / (1 - read fraction) requests.
SYNTHETIC = ["workload.source=synthetic", "workload.synthetic.iops=5000", "workload.synthetic.read_fraction=0.2",
             "workload.synthetic.hot_space=0.1", "workload.synthetic.hot_requests=0.8",
             "workload.synthetic.shift_requests=50000", "workload.synthetic.cold_space=0.5"]
READ_FRACTION = 0.2
# Real traces, replayed at their own LBAs (each fits in 256 GiB, so nothing is
# folded), looped and sped up so that the replay lasts about 25 periods of 8 s
# (the 1 GiB page's rule, T = 1/25 of the replay), which lets them share the
# synthetic workloads' saved drives (ftl.hot.* keys are part of a saved drive).
# PostMark: 2.18 M LBA writes a pass, 5 passes (10.9 M) at 12.5x speed (196 s).
# Its writes average 830 KiB, so it gets the default 64 MiB of host memory, as at
# 1 GiB (host keys are not part of a saved drive; 1 MiB gave the same figures).
# The other three write little per pass (LBA writes a pass: MSR 14,264, TPC-C
# 7,995, DTRS 185,789), so they are looped to about 1 M LBA writes (a 1 M-write
# synthetic point's volume) and sped up to last about 200 s: MSR 70 passes of
# 243 s at 0.012 (204 s), DTRS 5 passes of 30,000 s at 0.0013 (195 s), TPC-C
# 125 passes of 0.136 s at 12x slower (205 s; its 16 devices are replayed as
# one, at their own LBAs, as at 1 GiB). Every trace gets the default 64 MiB of
# host memory, as at 1 GiB.
TRACES = {
    "postmark": ["workload.source=trace", "workload.trace=traces/postmark.ascii", "workload.format=mqsim",
                 "workload.loops=5", "workload.time_scale=0.08", "host.memory=64MiB"],
    "msr": ["workload.source=trace", "workload.trace=traces/msr_heimdall_rw20_80_105.ascii", "workload.format=mqsim",
            "workload.loops=70", "workload.time_scale=0.012", "host.memory=64MiB"],
    "dtrs": ["workload.source=trace", "workload.trace=traces/dtrs.ascii", "workload.format=mqsim",
             "workload.loops=5", "workload.time_scale=0.0013", "host.memory=64MiB"],
    "tpcc": ["workload.source=trace", "workload.trace=traces/tpcc-small.ascii", "workload.format=mqsim",
             "workload.loops=125", "workload.time_scale=12", "host.memory=64MiB"],
}
# The same three at about 10 M LBA writes. At 200 s that would be 200 MiB/s of
# writes, more than this drive's GC sustains (PostMark's 217 MiB/s emptied the
# free pool), so they are replayed over about 800 s (about 50 MiB/s) with
# T = 32 s (1/25 of the replay), and T being part of a saved drive, they load
# drives aged with T = 32 s (DIR/<policy>-T32s): MSR 700 passes at 0.0047
# (800 s), DTRS 54 passes at 0.000494 (800 s), TPC-C 1,250 passes at 4.7x its
# recorded time (799 s).
LONG_PERIOD = "32s"
LONG = {
    "msr-10m": ["workload.source=trace", "workload.trace=traces/msr_heimdall_rw20_80_105.ascii",
                "workload.format=mqsim", "workload.loops=700", "workload.time_scale=0.0047", "host.memory=64MiB"],
    "dtrs-10m": ["workload.source=trace", "workload.trace=traces/dtrs.ascii", "workload.format=mqsim",
                 "workload.loops=54", "workload.time_scale=0.000494", "host.memory=64MiB"],
    "tpcc-10m": ["workload.source=trace", "workload.trace=traces/tpcc-small.ascii", "workload.format=mqsim",
                 "workload.loops=1250", "workload.time_scale=4.7", "host.memory=64MiB"],
}
TRACES.update(LONG)
WORKLOADS = ["hotcold", "shifting"] + list(TRACES)
AGE = ["precondition.workload_fraction=0"]


def drive_of(policy, workload=None):
    """The saved drive a point loads: its directory name under --state and the keys ageing adds."""
    if workload in LONG:
        return f"{policy}-T{LONG_PERIOD}", [f"ftl.hot.period={LONG_PERIOD}"]
    return policy, []


def sets_of(policy, workload=None, writes=None):
    s = [f"ftl.placement.policy={policy}", "host.streams=oracle"] + AGE + drive_of(policy, workload)[1]
    if workload in TRACES:
        s += TRACES[workload]
    elif workload:
        s += SYNTHETIC + [f"workload.synthetic.pattern={workload}", f"workload.synthetic.requests={round(writes / (1 - READ_FRACTION))}"]
    return s


def command(build, sets, extra):
    cmd = [os.path.join(build, "platform", "ssdvp"), "run", "-q", "-c", CONFIG]
    for s in sets:
        cmd += ["--set", s]
    return cmd + extra


def run(cmd, log):
    """Runs cmd from the repository root under /usr/bin/time; returns that process's own
    CPU seconds (user, sys), wall seconds and peak RSS (getrusage's RUSAGE_CHILDREN would
    give the largest RSS of every child so far, so an ageing run's would hide the point's)."""
    env = dict(os.environ, SYSTEMC_DISABLE_COPYRIGHT_MESSAGE="1")
    timing = log + ".time"
    with open(log, "w") as f:
        r = subprocess.run(["/usr/bin/time", "-o", timing, "-f", "%e %U %S %M"] + cmd, cwd=ROOT, env=env,
                           stdout=f, stderr=subprocess.STDOUT)
    if r.returncode != 0:
        sys.exit(f"exit {r.returncode}: {' '.join(cmd)} (log: {log})")
    with open(timing) as f:
        wall, user, system, rss_kib = f.read().split()[-4:]
    return {"user_s": float(user), "sys_s": float(system), "wall_s": float(wall), "peak_rss_mb": int(rss_kib) / 1024.0}


def age_cmd(build, state, policy, workload=None):
    """The drive a policy's point on workload loads: its name, directory and the command that ages it."""
    name, extra = drive_of(policy, workload)
    d = os.path.join(state, name)
    return name, d, command(build, sets_of(policy) + extra, ["--save-state", d, "--precondition-only"])


def age(build, state, policy, workload=None):
    """Ages and saves the drive a policy's point on workload loads (unless it is there)."""
    name, d, cmd = age_cmd(build, state, policy, workload)
    if os.path.exists(os.path.join(d, "state.json")):
        return
    os.makedirs(os.path.join(ROOT, OUT), exist_ok=True)
    print(f"age {name}: {' '.join(cmd)}", flush=True)
    cpu = run(cmd, os.path.join(ROOT, OUT, f"age-{name}.log"))
    with open(os.path.join(ROOT, OUT, f"age-{name}.json"), "w") as f:
        json.dump({"cmd": cmd, **cpu}, f, indent=1)
    print(f"age {name}: {cpu['user_s']:.1f} + {cpu['sys_s']:.1f} s CPU, {cpu['wall_s']:.0f} s wall, "
          f"{cpu['peak_rss_mb']:,.0f} MB peak RSS", flush=True)


def point_name(workload, policy, writes):
    """out/haml_scale/<workload>-<policy>[-<writes>] (a trace's length is fixed by its loops)."""
    if workload in TRACES:
        return f"{workload}-{policy}"
    return f"{workload}-{policy}-" + (f"{writes // 1_000_000}M" if writes % 1_000_000 == 0 else str(writes))


def point_dir(workload, policy, writes):
    return os.path.join(ROOT, OUT, point_name(workload, policy, writes))


def point_cmd(build, state, workload, policy, writes):
    return command(build, sets_of(policy, workload, writes),
                   ["--load-state", os.path.join(state, drive_of(policy, workload)[0]), "-o",
                    os.path.relpath(point_dir(workload, policy, writes), ROOT)])


def done(cmd, d):
    """The point in directory d has run with this command line."""
    try:
        with open(os.path.join(d, "cmd.json")) as f:
            return json.load(f)["cmd"] == cmd and os.path.exists(os.path.join(d, "summary.json"))
    except (OSError, KeyError, ValueError):
        return False


def point(cmd, d):
    name = os.path.basename(d)
    print(f"{name}: {' '.join(cmd)}", flush=True)
    os.makedirs(d, exist_ok=True)
    cpu = run(cmd, os.path.join(d, "log.txt"))
    with open(os.path.join(d, "cmd.json"), "w") as f:
        json.dump({"cmd": cmd, **cpu}, f, indent=1)
    print(f"{name}: {cpu['user_s']:.1f} + {cpu['sys_s']:.1f} s CPU, {cpu['wall_s']:.0f} s wall, "
          f"{cpu['peak_rss_mb']:,.0f} MB peak RSS", flush=True)


def point_rows(workloads, policies, writes):
    """(workload, policy, directory) of every point in table order: each count of writes in turn, then the traces."""
    rows = []
    for n in writes:
        rows += [(w, p, point_dir(w, p, n)) for w in workloads if w not in TRACES for p in policies]
    return rows + [(w, p, point_dir(w, p, 0)) for w in workloads if w in TRACES for p in policies]


def point_values(w, p, d):
    """One row of the paper-scale table (PAPER_SCALE_COLUMNS) from a point's summary.json and cmd.json; None if not run."""
    try:
        with open(os.path.join(d, "summary.json")) as f:
            j = json.load(f)
        with open(os.path.join(d, "cmd.json")) as f:
            c = json.load(f)
    except OSError:
        return None
    lat = j["latency_us"]
    cls = j["placement"]["class_lba_writes"]
    conf = j["placement"]["class_by_stream"]
    rc, ch = rank_correlation(conf), cold_in_hot(conf)
    return {"workload": w, "policy": p, "host_lba_writes": j["ftl"]["host_lba_writes"], "waf": j["ftl"]["waf"],
            "erases": j["ftl"]["erases"], "gc_runs": j["ftl"]["gc_runs"], "read_mean_us": lat["read"]["mean"],
            "read_p99_us": lat["read"]["p99"], "write_mean_us": lat["write"]["mean"],
            "write_p999_us": lat["write"]["p999"],
            "hottest_class_share": cls[0] / sum(cls) if len(cls) > 1 and sum(cls) else "",
            "rank_corr": "" if rc != rc else rc, "cold_in_hot": "" if ch != ch else ch,  # NaN: one class
            "cpu_user_s": c["user_s"], "cpu_sys_s": c["sys_s"], "peak_rss_mib": c["peak_rss_mb"]}


def table_rows(workloads, policies, writes):
    """The page's rows: one per point that has run (each count of writes in turn, then the traces)."""
    return [r for r in (point_values(w, p, d) for w, p, d in point_rows(workloads, policies, writes)) if r]


def write_csv(rows, path):
    """Merge rows into the page's data (docs/results/haml/paper_scale.csv): a row replaces the one of its
    (workload, policy, host writes), new rows go last."""
    import csv
    old = []
    if os.path.exists(path):
        with open(path, newline="") as f:
            old = list(csv.DictReader(f))
    key = lambda r: (r["workload"], r["policy"], str(int(float(r["host_lba_writes"]))))  # noqa: E731
    new = {key(r): r for r in rows}
    merged = [new.pop(key(r), r) for r in old] + list(new.values())
    with open(path, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=PAPER_SCALE_COLUMNS)
        w.writeheader()
        w.writerows(merged)


def split_waf(d, split_s):
    """WAF over the timed part's first split_s seconds and over the rest, from the
    point's timeseries.csv (host LBA writes from write_mbps, GC moves per interval)."""
    import csv
    host, gc, t0 = [0.0, 0.0], [0, 0], 0.0
    with open(os.path.join(d, "timeseries.csv")) as f:
        for r in csv.DictReader(f):
            t = float(r["time_s"])
            i = 0 if t <= split_s else 1
            host[i] += float(r["write_mbps"]) * (t - t0) * 1e6 / 4096
            gc[i] += int(r["gc_lba_moves"])
            t0 = t
    return [(host[i] + gc[i]) / host[i] if host[i] else float("nan") for i in (0, 1)]


def split_table(workloads, policies, writes, split_s):
    """WAF before and after split_s seconds, one row per point that has run."""
    lines = [f"| workload | policy | host writes | WAF first {split_s:g} s | WAF after {split_s:g} s | WAF |",
             "|---|---|---:|---:|---:|---:|"]
    for w, p, d in point_rows(workloads, policies, writes):
        try:
            with open(os.path.join(d, "summary.json")) as f:
                j = json.load(f)
            a, b = split_waf(d, split_s)
        except OSError:
            continue
        lines.append(f"| {w} | {POLICIES[p]} | {j['ftl']['host_lba_writes']:,} | {a:.3f} | {b:.3f} | {j['ftl']['waf']:.3f} |")
    return "\n".join(lines)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("build", help="the build directory (holds platform/ssdvp)")
    ap.add_argument("--state", required=True, help="directory for the saved drives (outside the repository)")
    ap.add_argument("--writes", default="10000000",
                    help="host writes per synthetic point (default 10 M); comma-separated: each in turn")
    ap.add_argument("--policies", default=",".join(POLICIES), help="comma-separated, in run order")
    ap.add_argument("--workloads", default=",".join(WORKLOADS), help="comma-separated")
    ap.add_argument("--clean", action="store_true", help="delete each saved drive after its policy's last point on it")
    ap.add_argument("--table-only", action="store_true", help="print the table of what has run")
    ap.add_argument("--csv", nargs="?", const=os.path.join(ROOT, "docs", "results", "haml", "paper_scale.csv"),
                    help="merge the rows into the page's data (default docs/results/haml/paper_scale.csv); "
                         "then `explore/ssdvp-explore render haml` re-renders the page")
    ap.add_argument("--split", type=float, default=0,
                    help="also print each point's WAF over the first SPLIT seconds and after them")
    a = ap.parse_args()
    policies = a.policies.split(",")
    workloads = a.workloads.split(",")
    for p in policies:
        if p not in POLICIES:
            sys.exit(f"--policies: unknown policy '{p}' (one of {', '.join(POLICIES)})")
    for w in workloads:
        if w not in WORKLOADS:
            sys.exit(f"--workloads: unknown workload '{w}' (one of {', '.join(WORKLOADS)})")
    writes = [int(n) for n in a.writes.split(",")]
    build = os.path.abspath(a.build)
    state = os.path.abspath(a.state)
    if not a.table_only:
        for p in policies:
            todo = [(w, point_cmd(build, state, w, p, n), point_dir(w, p, n)) for n in writes for w in workloads]
            todo = [t for i, t in enumerate(todo) if not done(t[1], t[2]) and t[1:] not in [u[1:] for u in todo[:i]]]
            for drive in dict.fromkeys(drive_of(p, w)[0] for w, _, _ in todo):  # each drive in turn
                mine = [t for t in todo if drive_of(p, t[0])[0] == drive]
                age(build, state, p, mine[0][0])
                for _, c, d in mine:
                    point(c, d)
                if a.clean:
                    shutil.rmtree(os.path.join(state, drive), ignore_errors=True)
    rows = table_rows(workloads, policies, writes)
    print(paper_scale_table(rows))
    if a.csv:
        write_csv(rows, a.csv)
    if a.split:
        print()
        print(split_table(workloads, policies, writes, a.split))


if __name__ == "__main__":
    main()
