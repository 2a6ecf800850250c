#!/usr/bin/python3
"""haml_scale.py - HAML-SSD's policy comparison at the paper's scale (issue 19):
the `haml` sweep's placement policies on its synthetic workloads, on the Table III
drive (configs/haml_table3_policies.yaml: 300 GiB of flash, 256 GiB exported),
each point starting from a saved aged drive. Prints the table of
docs/results/haml.md's paper-scale section.

    python3 scripts/haml_scale.py BUILD_DIR --state DIR [--writes N[,N...]] [--policies double,haml]
        [--workloads hotcold,shifting] [--clean] [--jobs J] [--table-only|--data-only] [--csv [PATH]] [--split S]

The page's points are all of them, made at one commit by one command, then made
into the page's data by a second that runs nothing:

    scripts/haml_scale.py build --state DIR --writes 1000000,10000000 --clean
    scripts/haml_scale.py build --state DIR --writes 1000000,10000000 --data-only --csv --split 20
    explore/ssdvp-explore render haml

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
command line) are not run again; delete the directory to redo one. The runs on
one saved drive (its ageing, then its points) go one at a time; --jobs J (default
1) runs J drives side by side (each run is one process; paper_scale_runs.csv holds
every run's CPU time, wall time and peak RSS, and the page's run notes sum them).
A run's figures do not depend on J, only its wall time. After a run fails no
other run starts. Each point's command line, CPU time (user, sys), wall time and
peak RSS, of that process alone (/usr/bin/time), its start (UTC) and the machine's load
averages then are in out/haml_scale/<point>/cmd.json; each ageing's in
out/haml_scale/age-<drive>.json.

--csv (with --data-only it runs nothing) writes the page's data from the points
that have run, into docs/results/haml/ (or beside PATH):
  paper_scale.csv             the table (merged: a point's row replaces the one of
                              its workload, policy and host writes to two figures;
                              in table order when the points replace every row);
  paper_scale_split.csv       per point, from its timeseries.csv and summary.json:
                              the WAF over the first S seconds (--split, default
                              20; the file keeps S) and after them and over the
                              second half, the free pool's minimum in each window,
                              the timed part's length, write stalls, effective
                              spare, the monitor's CPU and classifications;
  paper_scale_runs.csv        per ageing and per point: CPU user/sys, wall, peak
                              RSS, start and end (recorded, or the record's file
                              time for runs made before the script kept the
                              start), 1-minute load at the start, the command;
  paper_scale_provenance.json the build every point's summary.json names (its
                              commit, the binary's sha256: BUILD must still hold
                              that binary), both commands above, the runs' dates.
It is an error, and nothing is written, if the points were made by more than one
build or by a build of an uncommitted tree, or if paper_scale.csv has rows these
points would not replace (their provenance would not be this data's).
"""
import argparse
import csv
import datetime
import json
import os
import re
import shutil
import subprocess
import sys
import threading
from concurrent.futures import ThreadPoolExecutor  # the runs are processes: threads only wait

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "explore"))
from ssdvp_explore import provenance  # noqa: E402
from ssdvp_explore.pages.haml import (NAMES, PAPER_SCALE_COLUMNS, PAPER_SCALE_PROVENANCE, PAPER_SCALE_RUNS,  # noqa: E402
                                      PAPER_SCALE_SPLIT, cold_in_hot, paper_scale_table, rank_correlation)
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


def started():
    """When a run starts, the machine's load averages then and its CPU count (kept in cmd.json and
    age-<drive>.json: the page's run notes)."""
    return {"start_utc": provenance.utc(), "load": provenance.load_average(), "cpus": os.cpu_count()}


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
        raise RunError(f"exit {r.returncode}: {' '.join(cmd)} (log: {log})")
    with open(timing) as f:
        wall, user, system, rss_kib = f.read().split()[-4:]
    return {"user_s": float(user), "sys_s": float(system), "wall_s": float(wall), "peak_rss_mb": int(rss_kib) / 1024.0}


class RunError(Exception):
    """A run exited with an error (the message names its command and log)."""


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
    start = started()
    cpu = run(cmd, os.path.join(ROOT, OUT, f"age-{name}.log"))
    with open(os.path.join(ROOT, OUT, f"age-{name}.json"), "w") as f:
        json.dump({"cmd": cmd, **start, **cpu}, f, indent=1)
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
    start = started()
    cpu = run(cmd, os.path.join(d, "log.txt"))
    with open(os.path.join(d, "cmd.json"), "w") as f:
        json.dump({"cmd": cmd, **start, **cpu}, f, indent=1)
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


def row_key(r):
    """A row's identity in paper_scale.csv: workload, policy and host writes to two significant figures
    (a rerun of a point may write a few LBAs more or fewer; 1 M and 10 M stay apart)."""
    return (r["workload"], r["policy"], f"{float(r['host_lba_writes']):.2g}")


def read_csv(path):
    if not os.path.exists(path):
        return []
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def write_csv(rows, path):
    """Merge rows into the page's data (docs/results/haml/paper_scale.csv): a row replaces the one of its
    row_key, new rows go last; if rows replace every row there, the file is rows in their (table) order."""
    new = {row_key(r): r for r in rows}
    old = read_csv(path)
    if all(row_key(r) in new for r in old):
        merged = list(new.values())
    else:
        merged = [new.pop(row_key(r), r) for r in old] + list(new.values())
    with open(path, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=PAPER_SCALE_COLUMNS)
        w.writeheader()
        w.writerows(merged)


def stale_rows(rows, path):
    """The rows of the CSV at path that rows would not replace (made by other runs than these points)."""
    mine = {row_key(r) for r in rows}
    return [r for r in read_csv(path) if row_key(r) not in mine]


def split_stats(d, split_s):
    """From the point's timeseries.csv (one row per sample of the timed part): the WAF over the first split_s
    seconds, after them and over the second half of the timed part (host LBA writes from write_mbps, GC
    moves per interval), the free pool's minimum in the first split_s seconds and after, and the timed
    part's simulated length."""
    path = os.path.join(d, "timeseries.csv")
    with open(path, newline="") as f:
        ts = list(csv.DictReader(f))
    if not ts:
        raise DataError(f"{path} has no samples")
    try:
        end = float(ts[-1]["time_s"])
        host, gc, free = {"first": 0.0, "after": 0.0, "second": 0.0}, {"first": 0, "after": 0, "second": 0}, {}
        t0 = 0.0
        for r in ts:
            t = float(r["time_s"])
            h, g = float(r["write_mbps"]) * (t - t0) * 1e6 / 4096, int(r["gc_lba_moves"])
            for k in ("first" if t <= split_s else "after",) + (("second",) if t > end / 2 else ()):
                host[k] += h
                gc[k] += g
            k = "first" if t <= split_s else "after"
            free[k] = min(free.get(k, int(r["free_blocks"])), int(r["free_blocks"]))
            t0 = t
    except (KeyError, ValueError) as e:
        raise DataError(f"{path}: not a time series this script can read ({type(e).__name__}: {e})")
    waf = {k: (host[k] + gc[k]) / host[k] if host[k] else float("nan") for k in host}
    return {"waf_first": waf["first"], "waf_after": waf["after"], "waf_second_half": waf["second"],
            "free_blocks_min_first": free.get("first", ""), "free_blocks_min_after": free.get("after", ""),
            "timed_s": end}


def split_waf(d, split_s):
    """WAF over the timed part's first split_s seconds and over the rest (split_stats)."""
    st = split_stats(d, split_s)
    return [st["waf_first"], st["waf_after"]]


class DataError(Exception):
    """The points cannot be made into the page's data as they are (the message says why)."""


# paper_scale_split.csv: what each point's time series and summary.json hold beyond the table's columns
SPLIT_COLUMNS = ["workload", "policy", "host_lba_writes", "split_s", "waf_first", "waf_after", "waf_second_half",
                 "free_blocks_min_first", "free_blocks_min_after", "timed_s", "write_stalls", "spare_effective",
                 "monitor_cpu_s", "classifications"]
# paper_scale_runs.csv: each ageing and point process (/usr/bin/time), when it ran and the load then.
# dated_by: "recorded" (start_utc in its json) or "file mtime" (the json's mtime is its end; runs made
# before the script recorded the start); the command with the binary as BUILD/platform/ssdvp and the
# saved drives as DIR/<drive>
RUNS_COLUMNS = ["kind", "name", "workload", "policy", "host_lba_writes", "user_s", "sys_s", "wall_s",
                "peak_rss_mib", "start_utc", "end_utc", "dated_by", "load_1min", "cpus", "cmd"]


def _num(v):
    return "" if v is None or v != v else v   # NaN and absent: empty, as in paper_scale.csv


def split_row(w, p, d, split_s):
    with open(os.path.join(d, "summary.json")) as f:
        j = json.load(f)
    st = split_stats(d, split_s)
    ftl, pl = j.get("ftl", {}), j.get("placement", {})
    return {"workload": w, "policy": p, "host_lba_writes": ftl["host_lba_writes"], "split_s": f"{split_s:g}",
            **{k: _num(v) for k, v in st.items()}, "write_stalls": _num(ftl.get("write_stalls")),
            "spare_effective": _num(ftl.get("spare", {}).get("effective")),
            "monitor_cpu_s": _num(pl.get("monitor_cpu_s")), "classifications": _num(pl.get("cluster_runs"))}


def portable(cmd):
    """A recorded command line without this machine's paths: BUILD/platform/ssdvp, DIR/<saved drive>."""
    out = ["BUILD/platform/ssdvp"] + list(cmd[1:])
    for i, a in enumerate(out[:-1]):
        if a in ("--load-state", "--save-state"):
            out[i + 1] = "DIR/" + os.path.basename(out[i + 1].rstrip("/"))
    return " ".join(out)


def run_row(kind, name, path, w="", p="", host=""):
    """One row of paper_scale_runs.csv from a cmd.json or age-<drive>.json."""
    try:
        with open(path) as f:
            c = json.load(f)
        wall = float(c["wall_s"])
        if c.get("start_utc"):
            start = datetime.datetime.fromisoformat(c["start_utc"])
            end, by = start + datetime.timedelta(seconds=wall), "recorded"
        else:
            end = datetime.datetime.fromtimestamp(os.path.getmtime(path), datetime.timezone.utc)
            start, by = end - datetime.timedelta(seconds=wall), "file mtime"
        load = c.get("load")
        return {"kind": kind, "name": name, "workload": w, "policy": p, "host_lba_writes": host,
                "user_s": c["user_s"], "sys_s": c["sys_s"], "wall_s": wall, "peak_rss_mib": c["peak_rss_mb"],
                "start_utc": provenance.utc(start), "end_utc": provenance.utc(end), "dated_by": by,
                "load_1min": load[0] if load else "", "cpus": c.get("cpus") or "", "cmd": portable(c["cmd"])}
    except (KeyError, ValueError, TypeError) as e:
        raise DataError(f"{path}: not a run record this script wrote ({type(e).__name__}: {e})")


def version_of(d):
    path = os.path.join(d, "summary.json")
    with open(path) as f:
        v = json.load(f).get("ssdvp_version")
    if not v:
        raise DataError(f"{path} has no ssdvp_version")
    return v.removeprefix("ssdvp ").strip()


def points_provenance(points, binary, commands):
    """The provenance of the points [(name, directory)]: the one build every point's summary.json names
    (an error naming the points if they disagree or if a build came from an uncommitted tree), that binary's
    sha256 (binary must be it: the build the points ran), and the commands that remake and post-process them."""
    if not points:
        raise DataError("no point has run: nothing to make data from")
    by = {}
    for name, d in points:
        by.setdefault(version_of(d), []).append(name)
    dirty = {v: n for v, n in by.items() if "-dirty" in v}
    if dirty:
        raise DataError("points made by a build of an uncommitted tree, which no commit reproduces: "
                        + "; ".join(f"{v}: {', '.join(n)}" for v, n in dirty.items()))
    if len(by) > 1:
        raise DataError("the points were not all made by one build, so no one commit reproduces them: "
                        + "; ".join(f"ssdvp {v}: {', '.join(n)}" for v, n in sorted(by.items()))
                        + " (rerun the others at one commit)")
    version = next(iter(by))
    m = re.search(r"\+([0-9a-f]{7,40})$", version)
    if not m:
        raise DataError(f"ssdvp_version {version!r} names no commit")
    commit = provenance.git(ROOT, "rev-parse", "--verify", "--quiet", m.group(1) + "^{commit}") or m.group(1)
    have = provenance.binary_version(binary)
    if have is None:
        raise DataError(f"{binary}: no binary that answers --version; pass the build the points ran with "
                        "(its sha256 is part of the data's provenance)")
    if have.removeprefix("ssdvp ").strip() != version:
        raise DataError(f"{binary} is {have}, the points were made by ssdvp {version}: pass the build they ran with")
    return {"commit": commit, "dirty": [], "ssdvp": f"ssdvp {version}",
            "binary": os.path.relpath(binary, ROOT) if binary.startswith(ROOT + os.sep) else binary,
            "binary_sha256": provenance.sha256(binary), "command": commands[0], "postprocess": commands[1],
            "points": len(points), "written": provenance.utc(), "written_by": "scripts/haml_scale.py --csv"}


def data_files(workloads, policies, writes, split_s, binary, commands):
    """What --csv writes beside paper_scale.csv, from the points that have run: the rows of
    paper_scale_split.csv and paper_scale_runs.csv and the provenance (all made before anything is written)."""
    points = [(w, p, d) for w, p, d in point_rows(workloads, policies, writes)
              if os.path.exists(os.path.join(d, "summary.json"))]
    prov = points_provenance([(os.path.basename(d), d) for _, _, d in points], binary, commands)
    split, runs, drives = [], [], {}
    for w, p, d in points:
        row = split_row(w, p, d, split_s)
        split.append(row)
        runs.append(run_row("point", os.path.basename(d), os.path.join(d, "cmd.json"), w, p, row["host_lba_writes"]))
        drives.setdefault(drive_of(p, w)[0], p)
    ages = []
    for drive, p in drives.items():
        path = os.path.join(ROOT, OUT, f"age-{drive}.json")
        if os.path.exists(path):
            ages.append(run_row("age", drive, path, "", p))
        else:
            print(f"haml_scale.py: no record of ageing {drive} ({path}): not in {PAPER_SCALE_RUNS}", file=sys.stderr)
    runs = ages + runs
    prov["ageings"] = len(ages)
    prov["split_s"] = split_s
    prov["first_start"] = min(r["start_utc"] for r in runs)
    prov["date"] = max(r["end_utc"] for r in runs)   # the last run's end
    loads = [r["load_1min"] for r in runs if r["load_1min"] != ""]
    prov["load"] = [min(loads), max(loads)] if loads else None   # 1-minute load at the runs' starts
    prov["cpus"] = next((r["cpus"] for r in runs if r["cpus"] != ""), None)
    return split, runs, prov


def write_rows(rows, columns, path):
    with open(path, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=columns)
        w.writeheader()
        w.writerows(rows)


def write_data(rows, workloads, policies, writes, csv_path, split_s, binary, commands):
    """--csv: paper_scale.csv (merged) and, beside it, paper_scale_split.csv, paper_scale_runs.csv and
    paper_scale_provenance.json, all from the same points; an error (nothing written) if the CSV would keep
    rows these points do not replace, since the provenance would not cover them."""
    old = stale_rows(rows, csv_path)
    if old:
        raise DataError(f"{csv_path} has rows these points do not replace ("
                        + ", ".join(f"{r['workload']}/{r['policy']}/{r['host_lba_writes']}" for r in old[:8])
                        + (", ..." if len(old) > 8 else "") + "): their provenance would not be this data's; "
                        "select their points too, or delete the rows")
    split, runs, prov = data_files(workloads, policies, writes, split_s, binary, commands)
    folder = os.path.dirname(os.path.abspath(csv_path))
    write_csv(rows, csv_path)
    write_rows(split, SPLIT_COLUMNS, os.path.join(folder, PAPER_SCALE_SPLIT))
    write_rows(runs, RUNS_COLUMNS, os.path.join(folder, PAPER_SCALE_RUNS))
    provenance.write(prov, folder, PAPER_SCALE_PROVENANCE)


def commands(build, writes, policies, workloads, split_s):
    """The command that remakes these points from nothing and the one that makes them into the page's data."""
    b = os.path.relpath(build, ROOT) if build.startswith(ROOT + os.sep) else "BUILD"
    sel = ["--writes", ",".join(str(n) for n in writes)]
    if policies != list(POLICIES):
        sel += ["--policies", ",".join(policies)]
    if workloads != WORKLOADS:
        sel += ["--workloads", ",".join(workloads)]
    base = ["scripts/haml_scale.py", b, "--state", "DIR"] + sel
    return " ".join(base + ["--clean"]), " ".join(base + ["--data-only", "--csv", "--split", f"{split_s:g}"])


def split_table(workloads, policies, writes, split_s):
    """WAF before and after split_s seconds, one row per point that has run."""
    lines = [f"| workload | policy | host writes | WAF first {split_s:g} s | WAF after {split_s:g} s | WAF |",
             "|---|---|---:|---:|---:|---:|"]
    for w, p, d in point_rows(workloads, policies, writes):
        try:
            with open(os.path.join(d, "summary.json")) as f:
                j = json.load(f)
            a, b = split_waf(d, split_s)
        except (OSError, DataError):
            continue
        lines.append(f"| {w} | {POLICIES[p]} | {j['ftl']['host_lba_writes']:,} | {a:.3f} | {b:.3f} | {j['ftl']['waf']:.3f} |")
    return "\n".join(lines)


def drive_groups(build, state, policies, workloads, writes):
    """The runs still to do, by saved drive in run order: [(policy, drive, [(workload, cmd, dir)])]. A
    drive's points all load it, so its ageing comes first and its points one after another."""
    groups = []
    for p in policies:
        todo = [(w, point_cmd(build, state, w, p, n), point_dir(w, p, n)) for n in writes for w in workloads]
        todo = [t for i, t in enumerate(todo) if not done(t[1], t[2]) and t[1:] not in [u[1:] for u in todo[:i]]]
        for drive in dict.fromkeys(drive_of(p, w)[0] for w, _, _ in todo):  # each drive in turn
            groups.append((p, drive, [t for t in todo if drive_of(p, t[0])[0] == drive]))
    return groups


def run_all(build, state, policies, workloads, writes, clean, jobs=1):
    """Ages each drive and runs its points; jobs drives at a time. After a run fails no other run
    starts (those under way end), and the first failure is raised (RunError)."""
    stop = threading.Event()

    def one(group):
        p, drive, mine = group
        runs = [lambda: age(build, state, p, mine[0][0])] + [lambda c=c, d=d: point(c, d) for _, c, d in mine]
        try:
            for r in runs:
                if stop.is_set():
                    return
                r()
        except RunError:
            stop.set()
            raise
        if clean:
            shutil.rmtree(os.path.join(state, drive), ignore_errors=True)

    groups = drive_groups(build, state, policies, workloads, writes)
    with ThreadPoolExecutor(max_workers=max(1, jobs)) as ex:
        futures = [ex.submit(one, g) for g in groups]
    for f in futures:  # the first failure in run order
        f.result()


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("build", help="the build directory (holds platform/ssdvp)")
    ap.add_argument("--state", required=True, help="directory for the saved drives (outside the repository)")
    ap.add_argument("--writes", default="10000000",
                    help="host writes per synthetic point (default 10 M); comma-separated: each in turn")
    ap.add_argument("--policies", default=",".join(POLICIES), help="comma-separated, in run order")
    ap.add_argument("--workloads", default=",".join(WORKLOADS), help="comma-separated")
    ap.add_argument("--clean", action="store_true", help="delete each saved drive after its policy's last point on it")
    ap.add_argument("--jobs", type=int, default=1,
                    help="saved drives whose runs go side by side (default 1: every run in turn)")
    ap.add_argument("--table-only", "--data-only", dest="table_only", action="store_true",
                    help="run nothing: print the table of what has run (with --csv: write the page's data)")
    ap.add_argument("--csv", nargs="?", const=os.path.join(ROOT, "docs", "results", "haml", "paper_scale.csv"),
                    help="merge the rows into the page's data (default docs/results/haml/paper_scale.csv) and "
                         "write paper_scale_split.csv, paper_scale_runs.csv and paper_scale_provenance.json "
                         "beside it; then `explore/ssdvp-explore render haml` re-renders the page")
    ap.add_argument("--split", type=float, default=None,
                    help="also print each point's WAF over the first SPLIT seconds and after them "
                         "(with --csv: default 20, kept in paper_scale_split.csv)")
    a = ap.parse_args()
    policies = a.policies.split(",")
    workloads = a.workloads.split(",")
    for p in policies:
        if p not in POLICIES:
            sys.exit(f"--policies: unknown policy '{p}' (one of {', '.join(POLICIES)})")
    for w in workloads:
        if w not in WORKLOADS:
            sys.exit(f"--workloads: unknown workload '{w}' (one of {', '.join(WORKLOADS)})")
    if a.jobs < 1:
        sys.exit(f"--jobs: {a.jobs} is not a positive number of drives")
    try:
        writes = [int(n) for n in a.writes.split(",")]
    except ValueError:
        sys.exit(f"--writes: '{a.writes}' is not a comma-separated list of whole numbers")
    build = os.path.abspath(a.build)
    state = os.path.abspath(a.state)
    if not a.table_only:
        try:
            run_all(build, state, policies, workloads, writes, a.clean, a.jobs)
        except RunError as e:
            sys.exit(str(e))
    rows = table_rows(workloads, policies, writes)
    print(paper_scale_table(rows))
    split_s = a.split if a.split is not None else (20.0 if a.csv else 0)
    if a.split is not None and a.split <= 0:
        sys.exit(f"--split: {a.split:g} is not a positive number of seconds")
    if a.csv:
        try:
            write_data(rows, workloads, policies, writes, a.csv, split_s,
                       os.path.join(build, "platform", "ssdvp"), commands(build, writes, policies, workloads, split_s))
        except (DataError, OSError) as e:
            sys.exit(f"haml_scale.py --csv: {e}")
    if split_s:
        print()
        print(split_table(workloads, policies, writes, split_s))


if __name__ == "__main__":
    main()
