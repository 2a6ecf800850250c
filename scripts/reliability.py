#!/usr/bin/env python3
"""Media faults and power cuts: regenerates docs/results/reliability.md.

Runs every experiment the page reports with build/platform/ssdvp (configs/small.yaml unless said):

  faults       one aged hot/cold run per fault setting (the table of scripts/fault-sweep.sh)
  cuts         scripts/power-cuts.sh, as the page gives its arguments: the eight set-ups (main), copyback GC
               (copyback), the trim log without checkpoints (trimlog), and short runs in iss and native mode
               (iss, native-short)
  single runs  the trim log's three variants under the same 20 cuts, checkpoint intervals against one cut,
               FUA without PLP, the trim log's cost with and without checkpoints, the counters across cuts,
               a saved drive with checkpoints cut after its load, the same cut in both CPU modes
  host FTL     build/testbench/firmware/firmware_host_ftl_power_test (its printed figures)

    python3 scripts/reliability.py [BUILD_DIR] [--quick] [--reuse]   runs them, keeps the data, writes the page
    python3 scripts/reliability.py --render DATA_DIR [--page OUT]     the page from committed data only

--quick makes fewer cuts (a smoke run; never commit its data). --reuse takes runs already in out/reliability/ as
they are. One run at a time. The data, in docs/results/reliability/: runs.csv (one row per ssdvp run: the summary
fields the page uses and its wall time), cuts.csv (one row per cut of every study), studies.csv (one row per
power-cuts.sh invocation: its arguments, exit status and wall time), host_ftl.json (the gtest's figures),
drive.json (the drive's configuration as the runs report it) and provenance.json. The runs' outputs go to
out/reliability/.
"""
import csv
import json
import os
import re
import shlex
import statistics
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "scripts"))
from runpoint import (ISS_QUIET_YAML, data_args, figure_lines, pick, pyplot, read_results, run_kept, save_png_svg,  # noqa: E402
                      set_args, write_lines, write_provenance, write_results)

PAGE = "reliability"
COMMAND = "python3 scripts/reliability.py"
OUT = os.path.join(ROOT, "out", PAGE)
CONFIG = "configs/small.yaml"

AGED = {"precondition.random_drive_writes": 1.0}
HOTCOLD = {"workload.synthetic.pattern": "hotcold"}
VARMAIL = {"workload.source": "files", "host.files.personality": "varmail", "host.files.fill": 0.6,
           "host.files.loops": 0, "host.trim.policy": "discard"}
NOPLP = {"power.plp": "false", "ftl.gc.durable": 1}

FAULT_BASE = dict(HOTCOLD, **{"workload.synthetic.requests": 100000, "workload.synthetic.read_fraction": 0.3},
                  **AGED)
FAULTS = [
    ("none", {}),
    ("program fail 2e-5", {"flash.fault.program_fail_rate": 0.00002}),
    ("program fail 1e-4", {"flash.fault.program_fail_rate": 0.0001}),
    ("erase fail 1e-2", {"flash.fault.erase_fail_rate": 0.01}),
    ("factory bad 5 %", {"flash.fault.factory_bad_rate": 0.05}),
    ("RBER 1.5e-3", {"flash.ecc.rber": 0.0015}),
    ("RBER 1.8e-3", {"flash.ecc.rber": 0.0018}),
    ("RBER 1.8e-3, no retry", {"flash.ecc.rber": 0.0018, "flash.ecc.retry_levels": 0}),
    ("RBER 1e-3, aged 4380 h at 2e-7/h", {"flash.ecc.rber": 0.001, "flash.ecc.rber_per_hour": 0.0000002,
                                          "flash.ecc.retention_offset": "4380h"}),
    ("read disturb, refresh at 20", {"flash.ecc.rber_per_read": 0.000001, "ftl.refresh.read_limit": 20}),
    # the same under the former default: the page shows whether the refresh acts under either
    ("read disturb, refresh at 20, pass", {"flash.ecc.rber_per_read": 0.000001, "ftl.refresh.read_limit": 20,
                                           "ftl.write.at_floor": "pass"}),
]

COPYBACK = "--set ftl.gc.copyback=1 --set ftl.gc.copyback_max_hops=4 --set ftl.gc.copyback_min_valid=50"
TRIMLOG_ON = "--set power.trim_log.mode=on"
SHORT = {"SPAN": "1s", "LIMIT": "4s", "PER_RUN": "5"}
# study: (cuts, seed, environment of scripts/power-cuts.sh); --quick: (cuts, environment added)
CUTS = {
    "main": (960, 4, {}),
    "copyback": (40, 5, {"EXTRA": COPYBACK}),
    "trimlog": (80, 7, {"CKPT": "0s", "EXTRA": TRIMLOG_ON}),
    "iss": (40, 1, dict(SHORT, CPU="iss")),
    "native-short": (40, 1, dict(SHORT, CPU="native")),
}
QUICK_CUTS = {
    "main": (40, {"PER_RUN": "5"}),
    "copyback": (10, {"PER_RUN": "5"}),
    "trimlog": (20, {"PER_RUN": "5"}),
    "iss": (4, {"PER_RUN": "1"}),
    "native-short": (4, {"PER_RUN": "1"}),
}

# varmail without PLP and without checkpoints, as power-cuts.sh makes its run 3 of seed 4
VARMAIL_CUTS = dict(NOPLP, **AGED, **VARMAIL, **{
    "power.cuts": 20, "power.cuts_span": "6s", "power.seed": 400003, "workload.synthetic.seed": 400003,
    "flash.fault.seed": 400003, "host.time_limit": "18s"})
TRIMLOG_ARMS = [("auto", {}), ("on", {"power.trim_log.mode": "on"}),
                ("on, gc_barrier 0", {"power.trim_log.mode": "on", "power.trim_log.gc_barrier": 0})]
CKPT_CUT = dict(AGED, **HOTCOLD, **{"workload.synthetic.requests": 400000, "power.cut_at": "2345ms",
                                    "power.plp": "true"})
CKPT_INTERVALS = ["0s", "1s", "300ms", "100ms"]
FUA_CUT = dict(AGED, **HOTCOLD, **NOPLP, **{"workload.synthetic.requests": 400000, "power.cut_at": "1500ms"})
FUA_FRACTIONS = [0, 0.25, 1]
LOG_COST = dict(NOPLP, **AGED, **VARMAIL, **{"host.time_limit": "10s", "host.files.journal": "ordered"})
LOG_ARMS = [("none", {"power.checkpoint.interval": "0s"}),
            ("checkpoints, log off", {"power.checkpoint.interval": "250ms", "power.trim_log.mode": "off"}),
            ("checkpoints and log", {"power.checkpoint.interval": "250ms"}),
            ("log alone", {"power.checkpoint.interval": "0s", "power.trim_log.mode": "on"})]
COUNTERS = dict(AGED, **VARMAIL, **NOPLP, **{"host.time_limit": "4s", "power.cuts": 6, "power.cuts_span": "3s",
                                               "power.seed": 3})
SAVED = dict(AGED, **NOPLP, **{"power.checkpoint.interval": "250ms"})
SAVED_CUTS = dict(HOTCOLD, **{"workload.synthetic.requests": 100000, "power.cuts": 3, "power.cuts_span": "1s",
                              "power.seed": 5})
ISS_SAME = {"power.cuts": 2, "power.cuts_span": "60s", "power.seed": 4, "power.plp": "true"}
HOST_FTL_TEST = os.path.join("testbench", "firmware", "firmware_host_ftl_power_test")

# the summary fields runs.csv keeps (exact names, or prefixes ending in '.')
KEEP = ["ftl.waf", "ftl.host_lba_writes", "ftl.gc_lba_writes", "ftl.erases", "ftl.gc_runs", "ftl.pad_slots",
        "ftl.trim_lbas", "ftl.lifetime.", "ftl.spare.nominal", "flash.erases", "flash.programs", "flash.copybacks",
        "latency_us.read.mean", "latency_us.read.p99", "latency_us.write.mean", "latency_us.write.p99",
        "host.errors", "host.writes", "host.flushes", "host.trims", "host.sim_time_s", "reliability.",
        "integrity.", "checkpoints.", "trim_log.", "journal.fsync_latency_us.mean", "journal.fsync_latency_us.p50",
        "journal.fsync_latency_us.p99", "journal.fsync_latency_us.count", "power.cuts", "power.cuts_asked", "power.violations",
        "power.deallocated_unchecked", "power.recovery_time_s_mean"]
# the config keys drive.json keeps
DRIVE = ["flash.channels", "flash.dies_per_channel", "flash.planes", "flash.blocks_per_plane", "flash.pages_per_block",
         "flash.page_size", "nvme.namespace_size", "ftl.gc.policy", "ftl.gc.threshold_blocks", "ftl.write.at_floor",
         "power.plp_pages", "power.trim_log.blocks", "flash.timing.read", "flash.timing.program", "flash.timing.erase"]
# per cut, the fields of power-cuts.sh's CSV that cut_row also writes for single runs
CUT_FIELDS = ["cut_at_s", "torn_programs", "torn_erases", "older_allowed", "durable_lost", "foreign", "unreadable",
              "violations", "recovery_pages", "recovery_time_s", "recovery_cpu_s", "during_gc", "during_checkpoint",
              "checkpoint_generation", "checkpoint_pages_read", "checkpoints_torn", "free_blocks", "blocks_reopened",
              "trim_log_lbas_unmapped", "deallocated_latest", "torn_copybacks", "deallocated_unchecked",
              "deallocations_persistent"]


def cut_row(c):
    """One cut of a summary's power.each as a cuts.csv row (power-cuts.sh's fields, and a few more)."""
    r, k = c["recovery"], c["check"]
    ops = r.get("cpu_ops", {})
    row = {"cut_at_s": c["cut_at_s"], "torn_programs": c["torn_programs"], "torn_erases": c["torn_erases"],
           "older_allowed": k["older_allowed"], "durable_lost": k["durable_lost"], "foreign": k["foreign"],
           "unreadable": k["unreadable"], "violations": c["violations"], "recovery_pages": r["pages_read"],
           "recovery_time_s": r["time_s"], "recovery_cpu_s": r["cpu_s"], "during_gc": int(c["during_gc"]),
           "during_checkpoint": int(c["during_checkpoint"]), "checkpoint_generation": r["checkpoint_generation"],
           "checkpoint_pages_read": r["checkpoint_pages_read"], "checkpoints_torn": r["checkpoints_torn"],
           "free_blocks": r["free_blocks"], "blocks_reopened": r.get("blocks_reopened", 0),
           "trim_log_lbas_unmapped": r.get("trim_log_lbas_unmapped", 0),
           "deallocated_latest": k.get("deallocated_latest", 0), "torn_copybacks": c.get("torn_copybacks", 0),
           "deallocated_unchecked": k.get("deallocated_unchecked", 0),
           "deallocations_persistent": int(c.get("deallocations_persistent", False)),
           "latest": k["latest"], "lbas_mapped": r["lbas_mapped"], "ready_at_s": c["ready_at_s"],
           "cpu_instructions": r.get("cpu_instructions", 0), "host_commands_failed": c["host_commands_failed"]}
    for op in ("ckpt_copy_word", "buffer_alloc", "flash_submit", "l2p_lookup"):
        row[f"op_{op}_s"] = ops.get(op, {}).get("time_s", 0)
        row[f"op_{op}_count"] = ops.get(op, {}).get("count", 0)
    return row


class Runner:
    def __init__(self, build, reuse):
        self.binary = os.path.join(build, "platform", "ssdvp")
        self.build, self.reuse = build, reuse
        self.runs, self.cuts, self.studies, self.drive = [], [], [], {}

    def run(self, study, name, sets, config=CONFIG, extra=()):
        """One ssdvp run into out/reliability/<study>/<name>: its row in runs.csv, its cuts in cuts.csv."""
        d = os.path.join(OUT, study, re.sub(r"[^a-z0-9.]+", "_", name.lower()).strip("_"))
        s, wall = run_kept(self.binary, d, ["-c", config, *set_args(sets), *extra], reuse=self.reuse)
        row = {"study": study, "name": name, **pick(s, KEEP), "wall_s": wall}
        self.runs.append(row)
        p = s.get("power", {})
        for i, c in enumerate(p.get("each", [p] if "cut_at_s" in p else [])):  # power.cuts, or one power.cut_at
            self.cuts.append({"study": study, "run": name, "cut": i, **cut_row(c)})
        if not self.drive and config == CONFIG:
            self.drive = {k: s["config"].get(k) for k in DRIVE}
        print(f"{study}/{name}: WAF {s['ftl']['waf']:.3f} ({wall} s)", flush=True)
        return s

    def power_cuts(self, study, n, seed, env):
        """scripts/power-cuts.sh N SEED with env: its rows in cuts.csv, its wall time in studies.csv."""
        path = os.path.join(OUT, f"cuts-{study}.csv")
        wall_path, rc_path, log_path = path + ".wall_s", path + ".rc", path + ".log"
        if not (self.reuse and os.path.exists(wall_path)):
            os.makedirs(OUT, exist_ok=True)
            t0 = time.monotonic()
            p = subprocess.run(["bash", "scripts/power-cuts.sh", str(n), str(seed), path], cwd=ROOT,
                               env=dict(os.environ, SSDVP=self.binary, **env), capture_output=True, text=True)
            print(p.stdout + p.stderr, end="", flush=True)
            with open(log_path, "w") as f:
                f.write(p.stdout + p.stderr)
            with open(wall_path, "w") as f:
                f.write(f"{time.monotonic() - t0:.1f}\n")
            with open(rc_path, "w") as f:
                f.write(f"{p.returncode}\n")
        with open(wall_path) as f:
            wall = float(f.read())
        with open(rc_path) as f:
            rc = int(f.read())
        with open(log_path) as f:
            m = re.search(r"; (\d+) runs failed\)", f.read())
        with open(path, newline="") as f:
            rows = list(csv.DictReader(f))
        if not rows:
            sys.exit(f"power-cuts.sh {n} {seed} ({study}) made no cut; see its output above")
        env_text = " ".join(f"{k}={shlex.quote(v)}" for k, v in sorted(env.items()))
        self.studies.append({"study": study, "cuts_asked": n, "seed": seed, "env": env_text, "rc": rc,
                             "runs": len({r["run"] for r in rows}), "failed_runs": int(m.group(1)) if m else None,
                             "wall_s": wall})
        for r in rows:
            self.cuts.append({"study": study, **r})
        print(f"{study}: {len(rows)} cuts ({wall:.0f} s)", flush=True)


def host_ftl(build):
    """The figures firmware_host_ftl_power_test prints (its three batches)."""
    binary = os.path.join(build, HOST_FTL_TEST)
    t0 = time.monotonic()
    p = subprocess.run([binary], cwd=ROOT, capture_output=True, text=True)
    if p.returncode != 0:
        sys.exit(f"{binary} failed ({p.returncode}):\n{p.stdout[-2000:]}")
    return parse_host_ftl(p.stdout, time.monotonic() - t0)


def parse_host_ftl(text, wall):
    num = r"([0-9.]+)"
    m_fixed = re.search(rf"^{num} cuts \({num} with a GC victim open\): {num} LBAs latest, {num} an older unflushed "
                        rf"or newer, {num} unchecked \(trimmed\); {num} pages read, host CPU {num} ms", text, re.M)
    m_rand = re.search(rf"^{num} cuts at random instants, {num} with a GC victim open: {num} violations \(lost {num}, "
                       rf"foreign {num}\); {num} LBA checks: {num} latest, {num} older .*?, {num} unchecked", text, re.M)
    m_per = re.search(rf"^per recovery: host FTL {num} pages read by {num} vector reads, {num} chunks reopened, host "
                      rf"CPU {num} ms; the drive's chunk table: {num} pages read; {num} commands torn at the cut, "
                      rf"{num} torn pages met", text, re.M)
    m_nd = re.search(rf"^ftl.gc.durable 0: {num} violations in {num} cuts", text, re.M)
    if not (m_fixed and m_rand and m_per and m_nd):
        sys.exit(f"{HOST_FTL_TEST}: its output is not the one this script reads:\n{text[-2000:]}")
    f = [float(x) for x in m_fixed.groups()]
    r = [float(x) for x in m_rand.groups()]
    p = [float(x) for x in m_per.groups()]
    return {"fixed": dict(zip(["cuts", "during_gc", "latest", "older", "unchecked", "pages", "cpu_ms"], f)),
            "random": dict(zip(["cuts", "during_gc", "violations", "lost", "foreign", "checks", "latest", "older",
                                "unchecked"], r)),
            "per_recovery": dict(zip(["pages", "vector_reads", "reopened", "cpu_ms", "drive_pages", "torn_cmds",
                                      "torn_pages"], p)),
            "not_durable": {"violations": float(m_nd.group(1)), "cuts": float(m_nd.group(2))},
            "wall_s": round(wall, 1)}


def run_everything(a):
    build = os.path.join(ROOT, a.build)
    R = Runner(build, a.reuse)
    for label, sets in FAULTS:
        R.run("faults", label, dict(FAULT_BASE, **sets))
    for study, (n, seed, env) in CUTS.items():
        if a.quick:
            n, more = QUICK_CUTS[study]
            env = dict(env, **more)
        R.power_cuts(study, n, seed, env)
    for name, sets in TRIMLOG_ARMS:
        R.run("trimlog-cuts", name, dict(VARMAIL_CUTS, **sets))
    for iv in CKPT_INTERVALS:
        R.run("checkpoint-interval", iv, dict(CKPT_CUT, **{"power.checkpoint.interval": iv}))
    for fr in FUA_FRACTIONS:
        R.run("fua", str(fr), dict(FUA_CUT, **{"host.fua_fraction": fr}))
    for name, sets in LOG_ARMS:
        R.run("log-cost", name, dict(LOG_COST, **sets))
    R.run("counters", "varmail 6 cuts", COUNTERS)
    drive = os.path.join(OUT, "saved", "drive")
    if not (a.reuse and os.path.exists(drive)):
        os.makedirs(os.path.dirname(drive), exist_ok=True)
        t0 = time.monotonic()
        p = subprocess.run([R.binary, "run", "-q", "-c", CONFIG, *set_args(SAVED), "--save-state", drive,
                            "--precondition-only"], cwd=ROOT, capture_output=True, text=True,
                           env=dict(os.environ, SYSTEMC_DISABLE_COPYRIGHT_MESSAGE="1"))
        if p.returncode != 0:
            sys.exit(f"--save-state failed:\n{p.stderr[-2000:]}")
        R.runs.append({"study": "saved", "name": "save", "wall_s": round(time.monotonic() - t0, 1)})
    R.run("saved", "load and cut", dict(SAVED, **SAVED_CUTS), extra=["--load-state", drive])
    quiet = os.path.join(OUT, "iss-quiet.yaml")
    os.makedirs(OUT, exist_ok=True)
    with open(quiet, "w") as f:
        f.write(ISS_QUIET_YAML)
    for mode in ("native", "iss"):
        R.run("iss-same", mode, dict(ISS_SAME, **{"cpu.mode": mode}), config=quiet)
    hf = host_ftl(build)
    data = os.path.join(ROOT, "docs", "results", PAGE)
    os.makedirs(data, exist_ok=True)
    write_results(os.path.join(data, "runs.csv"), R.runs)
    write_results(os.path.join(data, "cuts.csv"), R.cuts)
    write_results(os.path.join(data, "studies.csv"), R.studies)
    with open(os.path.join(data, "host_ftl.json"), "w") as f:
        json.dump(hf, f, indent=1, sort_keys=True)
        f.write("\n")
    with open(os.path.join(data, "drive.json"), "w") as f:
        json.dump(dict(R.drive, quick=bool(a.quick)), f, indent=1, sort_keys=True)
        f.write("\n")
    return data


# ---------------------------------------------------------------------------------------------------- rendering

def load(data):
    runs = read_results(os.path.join(data, "runs.csv"))
    cuts = read_results(os.path.join(data, "cuts.csv"))
    studies = read_results(os.path.join(data, "studies.csv"))
    with open(os.path.join(data, "host_ftl.json")) as f:
        hf = json.load(f)
    with open(os.path.join(data, "drive.json")) as f:
        drive = json.load(f)
    for r in runs:  # a run's name as text, even where it reads as a number ("0", "0.25")
        r["name"] = str(r["name"])
    for c in cuts:  # the single runs' cuts name their run; power-cuts.sh's number it
        if c["study"] not in CUTS:
            c["run"] = str(c["run"])
    return runs, cuts, studies, hf, drive


def n0(v):
    """An integer with thousands separators."""
    return f"{round(v):,}"


def ms(v):
    """Seconds as ms (one decimal), or as us below 0.1 ms."""
    return f"{v * 1e3:.1f} ms" if abs(v) >= 1e-4 or v == 0 else f"{v * 1e6:.0f} us"


def pct(a, b):
    """a against b as a signed percentage."""
    return f"{100 * (a - b) / b:+.0f} %" if b else "n/a"


def fold(a, b):
    """How many times a is b (a / b) as text."""
    return f"{a / b:.1f}x" if b else "n/a"


def mean(xs):
    xs = list(xs)
    return statistics.fmean(xs) if xs else 0.0


def about(a, b, tol=0.05):
    """'about the same as', 'more than' or 'less than' (a against b, within tol)."""
    if b and abs(a - b) / abs(b) <= tol:
        return "about as much as"
    return "more than" if a > b else "less than"


def setup_name(r):
    name = {"hotcold": "hot/cold"}.get(r["setup"], r["setup"])
    ck = "checkpoints" if str(r["checkpoints"]).lower() == "true" else "no checkpoints"
    plp = "PLP" if str(r["plp"]).lower() == "true" else "no PLP"
    return f"{name}, {plp}, {ck}"


def total(rows, k):
    return sum(int(r[k] or 0) for r in rows)


def cuts_summary(rows):
    """The figures power-cuts.sh prints at its end, from its rows."""
    ck = [r for r in rows if str(r["checkpoints"]).lower() == "true"]
    nock = [r for r in rows if str(r["checkpoints"]).lower() != "true"]

    def rec(rs):
        if not rs:
            return None
        return {"pages": mean(r["recovery_pages"] + r["checkpoint_pages_read"] for r in rs),
                "time": mean(r["recovery_time_s"] for r in rs), "cpu": mean(r["recovery_cpu_s"] for r in rs)}
    return {"cuts": len(rows), "plp": sum(str(r["plp"]).lower() == "true" for r in rows), "ckpt": len(ck),
            "violations": total(rows, "violations"), "mismatches": total(rows, "host_mismatches"),
            "during_gc": total(rows, "during_gc"), "during_checkpoint": total(rows, "during_checkpoint"),
            "torn_programs": total(rows, "torn_programs"), "torn_erases": total(rows, "torn_erases"),
            "checkpoints_torn": total(rows, "checkpoints_torn"), "reopened": total(rows, "blocks_reopened"),
            "trim_unmapped": total(rows, "trim_log_lbas_unmapped"), "dealloc_latest": total(rows, "deallocated_latest"),
            "unchecked": total(rows, "deallocated_unchecked"), "older": total(rows, "older_allowed"),
            "free_min": min((int(r["free_blocks"]) for r in rows), default=0),
            "torn_copybacks": total(rows, "torn_copybacks"),
            "cuts_torn_copybacks": sum(1 for r in rows if int(r["torn_copybacks"] or 0)),
            "nock": rec(nock), "withck": rec(ck)}


def setup_table(rows, recovery=False):
    """One row per set-up (in the order the runs came), the cuts' totals."""
    by = {}
    for r in rows:
        by.setdefault(setup_name(r), []).append(r)
    if recovery:
        L = ["| set-up | cuts | violations | during GC | torn programs / erases | read older (allowed) | reopened | "
             "recovery pages read (scan + checkpoint), mean | recovery, simulated (of it CPU), mean |",
             "|---|---:|---:|---:|---:|---:|---:|---:|---:|"]
    else:
        L = ["| set-up | cuts | violations | during GC | torn programs / erases | read older (allowed) | reopened | "
             "LBAs unmapped by the trim log | deallocated LBAs left unchecked | least free blocks after recovery |",
             "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for name, rs in by.items():
        v = total(rs, "violations")
        head = (f"| {name} | {len(rs)} | {'**' + str(v) + '**' if v else v} | {total(rs, 'during_gc')} | "
                f"{n0(total(rs, 'torn_programs'))} / {n0(total(rs, 'torn_erases'))} | {n0(total(rs, 'older_allowed'))} | "
                f"{n0(total(rs, 'blocks_reopened'))} |")
        if recovery:
            L.append(head + f" {n0(mean(r['recovery_pages'] + r['checkpoint_pages_read'] for r in rs))} | "
                     f"{ms(mean(r['recovery_time_s'] for r in rs))} ({ms(mean(r['recovery_cpu_s'] for r in rs))}) |")
        else:
            L.append(head + f" {n0(total(rs, 'trim_log_lbas_unmapped'))} | {n0(total(rs, 'deallocated_unchecked'))} | "
                     f"{min(int(r['free_blocks']) for r in rs)} |")
    return L


def study_cmd(st):
    env = (st["env"] + " ") if st["env"] else ""
    return f"{env}bash scripts/power-cuts.sh {st['cuts_asked']} {st['seed']} out/reliability/cuts-{st['study']}.csv"


def verdict_cuts(s):
    v = f"{s['violations']} violations" if s["violations"] else "0 violations"
    return f"{n0(s['cuts'])} cuts, {v}, {s['mismatches']} integrity mismatches between cuts"


def recovery_text(s):
    parts = []
    if s["nock"]:
        parts.append(f"{n0(s['nock']['pages'])} pages in {ms(s['nock']['time'])} simulated "
                     f"({ms(s['nock']['cpu'])} CPU) on average without checkpoints")
    if s["withck"]:
        parts.append(f"{n0(s['withck']['pages'])} pages in {ms(s['withck']['time'])} "
                     f"({ms(s['withck']['cpu'])} CPU) with them")
    return "Recovery read " + ", ".join(parts) + "." if parts else ""


def fault_section(runs, drive, drawn):
    f = {r["name"]: r for r in runs if r["study"] == "faults"}
    base = f["none"]
    L = ["## Fault rates against WAF and latency", "",
         "**Setup.** `configs/small.yaml` "
         f"({drive_text(drive)}), filled and aged by one drive write of random overwrites, then "
         f"{n0(FAULT_BASE['workload.synthetic.requests'])} hot/cold requests of 4 KiB "
         f"({100 * FAULT_BASE['workload.synthetic.read_fraction']:.0f} % reads), closed loop at the config's queue "
         "depth. One row per fault setting; everything else identical (same workload seed, same fault seed). "
         "(`scripts/fault-sweep.sh` prints the same table from runs of its own.)", "",
         "| faults | settings | WAF | read mean / p99 (us) | write mean / p99 (us) | blocks retired | reads retried | "
         "uncorrectable | LBAs lost by GC | refreshes | host errors |",
         "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for label, sets in FAULTS:
        r = f[label]
        st = ", ".join(f"`{k}={v}`" for k, v in sets.items()) or "-"
        L.append(f"| {label} | {st} | {r['ftl.waf']:.3f} | {r['latency_us.read.mean']:.0f} / "
                 f"{r['latency_us.read.p99']:.0f} | {r['latency_us.write.mean']:.0f} / {r['latency_us.write.p99']:.0f} | "
                 f"{r['reliability.ftl.retired_blocks_total']} (+{r['reliability.ftl.factory_bad_blocks']} factory) | "
                 f"{n0(r['reliability.ftl.reads_retried'])} | {n0(r['reliability.ftl.uncorrectable_reads'])} | "
                 f"{n0(r['reliability.ftl.lost_lbas'])} | {r['reliability.ftl.refreshes']} | {n0(r['host.errors'])} |")
    L += ["", "\"blocks retired\" counts the whole life (preconditioning included); the other counters the timed part.",
          ""]
    blocks = total_blocks(drive)
    spare = round(blocks * base["ftl.spare.nominal"])
    fb, er, pf, pf2 = f["factory bad 5 %"], f["erase fail 1e-2"], f["program fail 1e-4"], f["program fail 2e-5"]
    nf = fb["reliability.ftl.factory_bad_blocks"]
    ne, npf, npf2 = (er["reliability.ftl.retired_blocks_total"], pf["reliability.ftl.retired_blocks_total"],
                     pf2["reliability.ftl.retired_blocks_total"])
    w0 = base["ftl.waf"]
    L += figure_lines(drawn, PAGE, "waf_faults", "WAF per fault setting")
    L += ["**What it shows.**", "",
          f"- **Bad blocks cost spare, and spare is what WAF lives on.** Every retired or factory-bad block leaves "
          f"the free pool for good. On this drive {nf} factory bad blocks ({100 * nf / blocks:.1f} % of {n0(blocks)}) "
          f"cut the spare from {spare} blocks to {spare - nf}, and WAF goes from {w0:.3f} to {fb['ftl.waf']:.3f} "
          f"({pct(fb['ftl.waf'], w0)}); the {ne} blocks a 1 % erase-failure rate retires give {er['ftl.waf']:.3f} "
          f"({pct(er['ftl.waf'], w0)}), and a program-failure rate of 1e-4 ({npf} blocks retired) "
          f"{pf['ftl.waf']:.3f} ({pct(pf['ftl.waf'], w0)}); at 2e-5 ({npf2} blocks) {pf2['ftl.waf']:.3f}. "
          f"Per block out of the pool that is {per_block(fb, w0, nf)}, {per_block(er, w0, ne)} and "
          f"{per_block(pf, w0, npf)} of WAF: the mechanism is the spare factor, not the failures' own work (a "
          "failed program rewrites one page and collects one block early). At realistic rates (below 1e-6 per "
          "program) nothing would be visible in a run this long."]
    r15, r18, nr = f["RBER 1.5e-3"], f["RBER 1.8e-3"], f["RBER 1.8e-3, no retry"]
    L += [f"- **Read retry {retry_verdict(r18, base)}**, with {n0(r18['reliability.ftl.reads_retried'])} reads "
          f"retried at RBER 1.8e-3 ({n0(r15['reliability.ftl.reads_retried'])} at 1.5e-3): the mean read latency is "
          f"{r18['latency_us.read.mean']:.0f} us against {base['latency_us.read.mean']:.0f} us without faults "
          f"({pct(r18['latency_us.read.mean'], base['latency_us.read.mean'])}). A retry costs a command, another "
          f"tR{timing(drive, 'flash.timing.read')} and a data-out on a die whose reads already wait behind programs"
          f"{timing(drive, 'flash.timing.program')} and erases{timing(drive, 'flash.timing.erase')} of this "
          "write-heavy, GC-heavy mix. A read-mostly workload on an idle drive shows it "
          "(`MediaFaults.ReadRetriesCostTime` asserts the increase on one)."]
    L += [f"- **Without retry, ECC failures lose data**: {n0(nr['reliability.ftl.uncorrectable_reads'])} reads "
          f"failed, GC lost {n0(nr['reliability.ftl.lost_lbas'])} LBAs it could not read (`lost_lbas`), and "
          f"{n0(nr['host.errors'])} host reads completed with Unrecovered Read Error (02h/81h). Its WAF "
          f"({nr['ftl.waf']:.3f} against {r18['ftl.waf']:.3f} with retry) is "
          + ("lower, and that is not a gain: the LBAs lost are valid data GC no longer moves. "
             if nr["ftl.waf"] < r18["ftl.waf"] else "not lower. ")
          + "Read retry is what keeps the other rows' uncorrectable reads at "
          + f"{max(f[k]['reliability.ftl.uncorrectable_reads'] for k in f if k != 'RBER 1.8e-3, no retry')}."]
    ag = f["RBER 1e-3, aged 4380 h at 2e-7/h"]
    L += [f"- **Retention** works through the same RBER: a drive that sat half a year before the run (4380 h at "
          f"2e-7 per hour over a base of 1e-3) needs retries on {n0(ag['reliability.ftl.reads_retried'])} reads."]
    rd, rp = f["read disturb, refresh at 20"], f["read disturb, refresh at 20, pass"]
    nrd, nrp = rd["reliability.ftl.refreshes"], rp["reliability.ftl.refreshes"]
    text = ("- **Read-disturb refresh** (a closed block read 20 times since its erase is collected) "
            + (f"collected {nrd} blocks; WAF {rd['ftl.waf']:.3f} against {w0:.3f} without "
               f"({pct(rd['ftl.waf'], w0)})." if nrd else
               f"collected no block under the default `ftl.write.at_floor: {drive.get('ftl.write.at_floor')}` "
               f"(the row reads as the one without faults: WAF {rd['ftl.waf']:.3f} against {w0:.3f})."))
    text += (f" The same setting under `ftl.write.at_floor: pass` (its own row, where the mean read latency is "
             f"{rp['latency_us.read.mean']:.0f} us against {rd['latency_us.read.mean']:.0f} us) refreshed {nrp} "
             f"blocks, WAF {rp['ftl.waf']:.3f}" + (
                 f" against {f['none']['ftl.waf']:.3f} without faults under the default; this run does not show "
                 "why the default leaves no block at the limit." if nrp and not nrd else "."))
    L += [text]
    L += ["", "The coefficients are inputs chosen to make each mechanism visible on a short run, not measurements "
          "of a device.", ""]
    return L


def per_block(r, w0, n):
    return f"{(r['ftl.waf'] - w0) / n:+.4f}" if n else "n/a"


def retry_verdict(r18, base):
    d = (r18["latency_us.read.mean"] - base["latency_us.read.mean"]) / base["latency_us.read.mean"]
    if abs(d) < 0.05:
        return "barely moves read latency here"
    return "raises read latency here" if d > 0 else "does not raise read latency here"


def timing(drive, k):
    v = drive.get(k)
    return f" ({v})" if v else ""


def total_blocks(drive):
    g = lambda k: int(drive.get(k) or 1)  # noqa: E731
    return g("flash.channels") * g("flash.dies_per_channel") * g("flash.planes") * g("flash.blocks_per_plane")


def drive_text(drive):
    return (f"{drive.get('flash.channels')} channels x {drive.get('flash.dies_per_channel')} dies, "
            f"{n0(total_blocks(drive))} blocks, {drive.get('nvme.namespace_size')} exported, "
            f"{drive.get('ftl.gc.policy')} GC below {drive.get('ftl.gc.threshold_blocks')} free blocks, "
            f"`ftl.write.at_floor: {drive.get('ftl.write.at_floor')}`")


def page_lines(page, data):
    runs, cuts, studies, hf, drive = load(data)
    st = {s["study"]: s for s in studies}
    by_study = {}
    for c in cuts:
        by_study.setdefault(c["study"], []).append(c)
    single = {(r["study"], r["name"]): r for r in runs}
    figs = os.path.join(os.path.dirname(os.path.abspath(page)), PAGE)
    drawn = draw_faults(figs, [r for r in runs if r["study"] == "faults"])
    L = ["# Reliability: media faults and power cuts", "",
         "What flash faults cost in write amplification and latency, and whether data survives power cuts in the "
         "middle of GC-heavy runs. The models: [models/nand_die.md](../models/nand_die.md#faults) (fault model), "
         "[models/flash_ctrl.md](../models/flash_ctrl.md#power-loss) (the cut), "
         "[firmware/power.md](../firmware/power.md) (what the firmware does), [outputs.md](../outputs.md) (the "
         "`reliability` and `power` sections of summary.json).", "",
         "**Regenerate**: `python3 scripts/reliability.py` runs every experiment below, one run at a time, keeps "
         "the figures in [reliability/](reliability/) and writes this page from them "
         "(`--render docs/results/reliability` rewrites it from the kept data alone; `--quick` makes fewer cuts, "
         f"a smoke run). Its cost: {cost_text(runs, studies, hf)}.", ""]
    if drive.get("quick"):
        L += ["**These data are from a `--quick` run (fewer cuts than the full script makes): not for publishing.**",
              ""]
    L += fault_section(runs, drive, drawn)
    L += power_cut_section(by_study, st, drive)
    L += copyback_section(by_study, st)
    L += counters_section(single)
    L += saved_section(single, cuts)
    L += iss_section(by_study, st, cuts)
    L += recovery_section(by_study)
    L += checkpoint_section(single, cuts, drive)
    L += fua_section(single, cuts)
    L += log_section(single)
    L += persistent_section(single, cuts, by_study, st, drive)
    L += host_ftl_section(hf)
    return L


def cost_text(runs, studies, hf):
    w = [float(r["wall_s"]) for r in runs if r["wall_s"] not in (None, "")]
    ws = [float(s["wall_s"]) for s in studies]
    iss = sum(float(s["wall_s"]) for s in studies if s["study"] == "iss")
    return (f"{n0(sum(w) + sum(ws) + hf['wall_s'])} s of wall time in all, of it {n0(iss)} s the iss-mode cuts and "
            f"{n0(sum(ws) - iss)} s the other power-cuts.sh studies (each run's wall time is in runs.csv and "
            "studies.csv, recorded under that day's load)")


def power_cut_section(by_study, st, drive):
    rows = by_study["main"]
    s = cuts_summary(rows)
    m = st["main"]
    per = int(dict(x.split("=", 1) for x in m["env"].split()).get("PER_RUN", 20)) if m["env"] else 20
    L = ["## Power cuts", "",
         f"**Regenerate** this section alone: `{study_cmd(m)}` (one row per cut, the totals on its last lines; "
         "exit 1 on any violation). The CI subset is `testbench/fidelity/power_test.cpp` (`ctest -R PowerCut`: "
         "single cuts, three cuts in one run, repeated cuts, FUA, trims after a checkpoint) and "
         "`testbench/firmware/power_test.cpp` (`ctest -R FtlPower`, the fake HAL).", "",
         f"**Setup.** `configs/small.yaml`, aged by one drive write of random overwrites; each run takes "
         f"`power.cuts: {per}` instants uniform in [0, 6 s) of its timed part's time powered up (the recoveries' "
         "time is not counted, so no cut falls on a drive still recovering; `power.seed` differs per run), on "
         "eight set-ups in turn: a hot/cold synthetic workload (GC relocating throughout) and the varmail file "
         "workload (a flush after every few writes, a deallocation at every file deleted: `host.trim.policy: "
         "discard`), each with power-loss protection (`power.plp: true`, capacitor budget "
         f"{drive.get('power.plp_pages')} pages) and without it (`power.plp: false`, with `ftl.gc.durable: 1`), "
         "without and with checkpoints (`power.checkpoint.interval: 250ms`). At each cut the firmware rebuilds its "
         "tables from the flash alone, in simulated time, the host reads every LBA back, the scoreboard takes what "
         "it read, the host's outstanding commands fail (00h/05h) and the run goes on to the next cut: later cuts "
         "hit a drive that has been recovered before, and the host's reads between cuts are checked too "
         "(`integrity.mismatches`).", "",
         f"**Result: {verdict_cuts(s)}** ({s['plp']} cuts with PLP, {s['ckpt']} with checkpoints"
         + (f"; power-cuts.sh exited {m['rc']}" if m["rc"] else "") + "). "
         f"{s['during_gc']} cuts during GC relocation, {s['during_checkpoint']} during a checkpoint "
         + (f"({s['checkpoints_torn']} newest checkpoints torn: recovery fell back to the previous one)"
            if s["checkpoints_torn"] else "(no newest checkpoint torn)") + "; "
         f"{n0(s['torn_programs'])} programs and {n0(s['torn_erases'])} erases torn; {n0(s['reopened'])} partly "
         f"written blocks reopened at recovery; the free pool after recovery at its lowest {blocks(s['free_min'])} "
         f"({runs_completed(m)}); "
         f"{n0(s['trim_unmapped'])} LBAs deallocated after the newest checkpoint unmapped by the trim log. "
         + recovery_text(s), ""]
    L += setup_table(rows)
    L += ["", "What a cut is checked against (`Scoreboard::check_recovered`): the latest version; or, for a write "
          "that was not durable (in flight, or, without protection, not covered by a completed Flush and not "
          "written with FUA), an older version, never one older than the durable one; never another LBA's data or "
          "garbage. Deallocated LBAs: where the drive persists deallocations (checkpoints with their trim log, or "
          "`power.trim_log.mode: on`) a deallocation is checked like a write: an LBA deallocated last reads "
          "deallocated (NVMe's Deallocate with DLFEAT \"reads zeroes\": here the deallocated token), or, only "
          "where the deallocation was not durable (without protection: no Flush completed after it), the data it "
          "had before, never one older than the durable state; with protection every acknowledged deallocation is "
          "durable. Where the drive does not persist them, a deallocated LBA may read any older copy GC has not "
          "erased yet (GC must be free to erase a deallocated copy: that is what deallocation is for), so an LBA "
          "deallocated last, or deallocated since its durable state and written again without a flush, is left "
          "unchecked (`deallocated_unchecked`) but for another LBA's data or garbage, which the token of every "
          "version would catch; after the check the scoreboard takes what was read as the LBA's content.", ""]
    L += repeated_cuts_text(rows)
    return L


def repeated_cuts_text(rows):
    hc = [r for r in rows if r["setup"] == "hotcold" and str(r["plp"]).lower() == "true"
          and str(r["checkpoints"]).lower() != "true"]
    run0 = [r for r in hc if r["run"] == min(x["run"] for x in hc)] if hc else []
    L = ["**Repeated cuts and the free pool.** Each cut leaves partly written blocks, one per open frontier and "
         "die. Recovery (`frontier_adopt` in `firmware/ftl/alloc.c`, called by `recover_scan`) gives a partly "
         "written block back to a write frontier at its write pointer, the frontiers GC writes to first, one block "
         "per lane (die, or plane with `ftl.multiplane`); it closes one only when every frontier already has a "
         "block open on that lane. Above the write pointer the pages are erased: the NAND programs a block's pages "
         "in order (`FC_ERR_ORDER` otherwise, `models/flash/nand_die.cpp`), and the scan's write pointer is the "
         "first page that reads erased. A torn page (the program the cut interrupted) sits below it, reads "
         "uncorrectable, holds no mapped LBA and is collected with its block. Were the blocks closed instead, "
         "cut after cut without time for GC to catch up would drain the free pool until GC had nowhere to "
         "relocate."]
    if run0:
        fb = [int(r["free_blocks"]) for r in run0]
        ro = [int(r["blocks_reopened"]) for r in run0]
        L[-1] += (f" On the hot/cold run with PLP above ({len(run0)} cuts, `power.seed` of its run "
                  f"{run0[0]['run']}), the pool after each recovery held {min(fb)}-{max(fb)} free blocks "
                  f"({'first ' + str(fb[0]) + ', last ' + str(fb[-1])}), and {min(ro)}-{max(ro)} partly written "
                  "blocks were reopened per cut (`power.each[].recovery.blocks_reopened`).")
    L[-1] += (" Regressions: `FtlPower.RepeatedCutsReopenPartlyWrittenBlocksAndKeepTheFreePool` (fake HAL: the pool "
              "after recovery stays within one block per die of where it was, cut after cut) and "
              "`PowerCut.RepeatedCutsReopenPartlyWrittenBlocksAndTheRunCompletes`.")
    return L + [""]


def copyback_section(by_study, st):
    rows = by_study["copyback"]
    s = cuts_summary(rows)
    nop = [r for r in rows if str(r["plp"]).lower() != "true"]
    cps = [int(r["copybacks"] or 0) for r in rows if int(r["copybacks"] or 0)]
    L = ["## Copyback under power cuts", "",
         f"GC moving pages by copyback (`ftl.gc.copyback: 1`, up to 4 hops, and partly valid pages too: "
         "`ftl.gc.copyback_min_valid: 50`) makes each GC job a chain of copybacks on its victim's die, and a cut "
         f"tears the destinations of those in flight. `{study_cmd(st['copyback'])}` (hot/cold with and without "
         f"PLP, no checkpoints):", "", f"**{verdict_cuts(s)}**; {s['during_gc']} of them during GC relocation"
         + (f", {n0(mean(cps))} copybacks per run on average (preconditioning included)" if cps else "") + ". "
         + torn_copyback_text(nop) + " The stale slots of partly valid copies "
         "carry no LPN (`FC_COPYBACK_DROP`), so recovery cannot map stale data from them (with the LPNs kept it "
         "does: `CopybackFirmware.PartlyValidPagesDropStaleSlotsAndSurviveACut`). CI subset: "
         "`CopybackPowerCut.CutsDuringCopybackChainsRecoverWithoutViolations` "
         "(`testbench/fidelity/copyback_power_test.cpp`).", ""]
    L += setup_table(rows)
    return L + [""]


def runs_completed(st):
    """Whether every run of a power-cuts.sh study completed (a drive stuck on an empty free pool fails its run)."""
    k = st.get("failed_runs")
    if k is None:
        return "power-cuts.sh did not say whether every run completed"
    return "every run completed" if k == 0 else f"{k} runs failed: a stuck drive fails on `host.stall_timeout`"


def blocks(n):
    return f"{n} block" if n == 1 else f"{n} blocks"


def torn_copyback_text(nop):
    k, n = sum(1 for r in nop if int(r["torn_copybacks"] or 0)), total(nop, "torn_copybacks")
    if not k:
        return (f"Without PLP none of the {len(nop)} cuts fell on a copyback in flight (the "
                f"{n0(total(nop, 'torn_programs'))} torn programs were others); where one does, its victim still "
                "holds the data (a victim is erased only after its copybacks complete) and recovery maps it there.")
    return (f"Without PLP {k} of the {len(nop)} cuts fell on copyback chains and tore {n0(n)} copyback destinations "
            f"(of the {n0(total(nop, 'torn_programs'))} torn programs); the victims still held that data (a victim is "
            "erased only after its copybacks complete) and recovery mapped it there.")


def counters_section(single):
    r = single[("counters", "varmail 6 cuts")]
    life, flash = r["ftl.lifetime.erases"], r["flash.erases"]
    return ["## Summary counters across cuts", "",
            "With `power.cuts` the summary's timed-part firmware figures (`ftl.waf`, `gc_runs`, `erases`, "
            "`gc_lba_writes`, `trim_lbas`, `ftl.lifetime`, the `mapping`, `reliability` and `checkpoints` "
            "sections) count over every segment the drive was powered up: the recovered firmware counts from 0, "
            "and the platform carries, at each cut, what the recovery lost of every counter field of `struct "
            "ftl_stats` (`platform/run/cut_counters.h`) and adds it to what the firmware reports, in the summary "
            "and in the host's per-interval samples; gauges (free blocks and their minimum, bad-block counts, a "
            "checkpoint in progress, the last recovery's fields) are left as reported. A counter added to "
            "`struct ftl_stats` later is carried without a change here; a new gauge must be added to the list in "
            "`cut_counters.cpp`.", "",
            "On the varmail run of `PowerCut.WithoutCheckpointsDeallocatedLbasAndCountersAcrossCuts` (no PLP, no "
            f"checkpoints, `power.seed=3`, 4 s, `power.cuts: {r['power.cuts_asked']}` in 3 s: {cuts_made(r)}): "
            "the timed part reports "
            f"{n0(r['ftl.erases'])} erases and {n0(r['ftl.gc_runs'])} GC runs, WAF {r['ftl.waf']:.3f}, and a "
            f"lifetime of {n0(life)} erases against the flash's {n0(flash)} (the other {n0(flash - life)} were torn "
            f"or in flight at the cuts); {r['power.violations']} violations. The recoveries' own reads are in "
            "`power.each[].recovery`, not in these figures.", ""]


def cuts_made(r):
    made, asked = r["power.cuts"], r["power.cuts_asked"]
    return f"all {made} made" if made == asked else f"{made} made before the run ended"


def saved_section(single, cuts):
    r = single[("saved", "load and cut")]
    cs = [c for c in cuts if c["study"] == "saved"]
    from_ck = sum(1 for c in cs if int(c["checkpoint_generation"] or 0) > 0)
    return ["## Saved drives with checkpoints", "",
            "A drive saved with `--save-state` while checkpoints are on is loaded with the checkpoint image, its "
            "buffers, the area list and the trim log page at this instance's addresses (`firmware/ftl/state.c`; "
            "their contents come with the DRAM image), so the first checkpoint after a load writes where it should. "
            "A drive whose preconditioning already wrote a checkpoint or a trim log page is refused at "
            "`--save-state` (their bytes are payloads the flash controller keeps, which a saved drive does not "
            "carry), naming `power.checkpoint.writes` and `power.checkpoint.interval`; `power.cut_at` stays "
            "refused with a saved drive.", "",
            f"Measured: `configs/small.yaml` aged and saved with checkpoints every 250 ms and no PLP "
            f"(`--precondition-only`), loaded, then hot/cold with `power.cuts: {r['power.cuts']}` in 1 s: "
            f"{len(cs)} cuts, {from_ck} recovered from a checkpoint taken after the load, "
            f"{r['power.violations']} violations, {r['integrity.mismatches']} integrity mismatches "
            "(`SavedState.WithCheckpointsCutsAfterTheLoadRecoverFromThem` is the same in CI).", ""]


def iss_section(by_study, st, cuts):
    same = {m: [c for c in cuts if c["study"] == "iss-same" and c["run"] == m] for m in ("native", "iss")}
    L = ["## Power loss in iss mode", "",
         "`power.cut_at` and `power.cuts` work with `cpu.mode: iss` as with native mode, through the same platform "
         "code (`platform/run/power_loss.cpp`); only the controller under it differs "
         "(`platform/soc/controller.cpp`, [cpu_iss.md](../models/cpu_iss.md)):", "",
         "- the power-fail handler (`ftl_power_fail`, with PLP) and the check's reads (`ftl_func_read`) are "
         "boot-block calls on the RV32 core (`ISS_CALL_POWER_FAIL`, `ISS_CALL_READ` in `firmware/iss/iss_main.c`), "
         "run functionally on the program's state as the cut left it;",
         "- power-up is `CpuIss::power_cycle`: the thread running the program is suspended for good where it waits "
         "(its registers and stack are lost), SRAM outside the image is overwritten, the core comes out of reset "
         "(registers, CSRs, pending wait and stop requests, the local time offset), and the program starts again "
         "at its entry point in a new thread: crt0 initialises `.data` and `.bss` again, `main()` finds "
         "`power_up = ISS_POWER_UP_RECOVER` in the boot block and runs `ftl_recover` in simulated time, timed by "
         "the instructions it retires (its flash reads through the flash controller, as natively), then parks; "
         "the platform checks every LBA and resumes it into `ftl_main`. The recovery's summary fields are native "
         "mode's, plus `recovery.cpu_instructions` (0 natively).", "",
         "Nothing stays refused in iss mode that works natively (`power.cuts` with flows or `host.streams`, and "
         "`power.cut_at` with a saved drive, are refused in both modes). Tests: `ctest -R 'IssPowerCut|CpuIss'` "
         "(`testbench/platform/iss_power_test.cpp`).", "",
         "**The same cut in both modes**: the iss tests' 256 MiB drive and quiet workload (4,000 requests at 20 "
         "per second, each finding the drive idle; `IssPowerCut.RecoversTheSameDurableStateAsNativeForTheSameCuts`"
         "), two cuts with PLP (`power.seed=4`, instants in 60 s):", "",
         "| cut | mode | at (s) | pages read | LBAs mapped | free blocks | reopened | latest / older | recovery, "
         "simulated | of it CPU | instructions |", "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for i in range(min(len(same["native"]), len(same["iss"]))):
        for m in ("native", "iss"):
            c = same[m][i]
            ins = f"{c['cpu_instructions'] / 1e6:.1f} M" if c["cpu_instructions"] else "-"
            L.append(f"| {i + 1} | {m} | {c['cut_at_s']:.3f} | {n0(c['recovery_pages'])} | {n0(c['lbas_mapped'])} | "
                     f"{c['free_blocks']} | {c['blocks_reopened']} | {n0(c['latest'])} / {n0(c['older_allowed'])} | "
                     f"{ms(c['recovery_time_s'])} | {ms(c['recovery_cpu_s'])} | {ins} |")
    L.append("")
    if len(same["native"]) >= 2 and len(same["iss"]) >= 2:
        a, b = same["native"], same["iss"]
        eq = all(a[i][k] == b[i][k] for i in range(2) for k in ("recovery_pages", "lbas_mapped", "free_blocks",
                                                              "blocks_reopened", "latest", "older_allowed"))
        down = lambda c: c["ready_at_s"] - c["cut_at_s"]  # noqa: E731
        L += [("The two modes recover the same durable state (every count above equal); only the recovery's "
               "duration differs, native charging its cost table and iss retiring instructions. "
               if eq else "The two modes do not recover the same counts here (the table shows where); the "
               "recovery's duration differs too, native charging its cost table and iss retiring instructions. ")
              + f"The second cut falls {ms(b[1]['cut_at_s'] - a[1]['cut_at_s'])} later in iss mode (the instants "
              f"count the time powered up, and the first recovery took {ms(down(b[0]) - down(a[0]))} longer). The "
              f"recovery's CPU time on the ISS is {fold(b[0]['recovery_cpu_s'], a[0]['recovery_cpu_s'])} the cost "
              f"table's; the scan's reads overlap most of it, so the recovery as a whole changes by "
              f"{pct(b[0]['recovery_time_s'], a[0]['recovery_time_s'])}. Per operation "
              "(`recovery.cpu_ops`, first cut): the ISS attributes to a marker every instruction since the "
              "previous one, so work the cost table charges nothing for (the program's start-up, `ftl_init`'s "
              "table set-up, the scan's own loop) lands on whichever marker follows it: "
              + "; ".join(f"`{op}` {ms(b[0][f'op_{op}_s'])} against {ms(a[0][f'op_{op}_s'])} "
                          f"({n0(a[0][f'op_{op}_count'])} counted natively)"
                          for op in ("ckpt_copy_word", "buffer_alloc", "flash_submit", "l2p_lookup")) + ".", ""]
    iss, nat = by_study["iss"], by_study["native-short"]
    si, sn = cuts_summary(iss), cuts_summary(nat)
    s = st["iss"]
    nruns = s["runs"]
    L += ["**Random cuts in iss mode**: `" + study_cmd(s) + "` "
          f"({nruns} runs, {s['wall_s'] / max(nruns, 1) / 60:.1f} minutes of wall time per run: each ages the drive "
          "functionally on the ISS, then runs 4 s of simulated time with its cuts in the first second). "
          f"**{verdict_cuts(si)}** ({si['plp']} with PLP, {si['ckpt']} with checkpoints); "
          f"{si['during_gc']} during GC relocation, {si['during_checkpoint']} during a checkpoint; "
          f"{n0(si['torn_programs'])} programs and {n0(si['torn_erases'])} erases torn; {n0(si['reopened'])} partly "
          f"written blocks reopened; {n0(si['trim_unmapped'])} LBAs unmapped by the trim log. " + recovery_text(si),
          ""]
    L += setup_table(iss, recovery=True)
    L += ["", f"The same command with `CPU=native` ({st['native-short']['wall_s']:.0f} s of wall time), for "
          "comparison; its cuts fall on other work in flight (the timing differs), so the set-ups compare, not the "
          f"rows: {verdict_cuts(sn)}.", ""]
    L += setup_table(nat, recovery=True)
    if si["nock"] and sn["nock"]:
        L += ["", f"In iss mode a full scan's recovery takes {ms(si['nock']['time'])} against "
              f"{ms(sn['nock']['time'])} natively on average ({pct(si['nock']['time'], sn['nock']['time'])}) and its "
              f"CPU time is {fold(si['nock']['cpu'], sn['nock']['cpu'])} ({ms(si['nock']['cpu'])} against "
              f"{ms(sn['nock']['cpu'])}): the instructions the cost table charges nothing for land on the markers "
              "that follow them. With checkpoints the means mix checkpoint loads with full scans (a cut before the "
              "run's first checkpoint completed) and which cuts are which differs between the modes, so those rows "
              "do not compare directly. More cuts cost more runs of the same script (a larger N)."]
    return L + [""]


def recovery_section(by_study):
    s = cuts_summary(by_study["main"])
    L = ["## Recovery in simulated time", "",
         "Recovery runs on the controller CPU as firmware work from the instant of the cut (`ftl_recover`): its "
         "checkpoint reads and scan reads go through the flash controller to the dies and channels, its table work "
         "is charged from the cost table, and the NVMe controller fetches no host command until it is done (the "
         "host's first command after power-up waits). The summary's `power.recovery.time_s` is that simulated "
         "time, `cpu_s` the CPU's busy part of it, `cpu_ops` where it went (docs/outputs.md). The scan takes the "
         "dies in turn: the blocks of one die are numbered together, so a scan in index order would keep every "
         "read buffer on the same die."]
    if s["nock"] and s["withck"]:
        L[-1] += (f" On the power cuts above, a full scan took {ms(s['nock']['time'])} on average, of it "
                  f"{100 * s['nock']['cpu'] / s['nock']['time']:.0f} % CPU ({ms(s['nock']['cpu'])}: flash "
                  f"submissions and completions, and one lookup per slot read); with checkpoints "
                  f"{ms(s['withck']['time'])}, of it {100 * s['withck']['cpu'] / s['withck']['time']:.0f} % CPU.")
    return L + [""]


def checkpoint_section(single, cuts, drive):
    rs = [single[("checkpoint-interval", iv)] for iv in CKPT_INTERVALS]
    cs = {c["run"]: c for c in cuts if c["study"] == "checkpoint-interval"}
    L = ["## Checkpoints: recovery time against their cost", "",
         "One run per interval, the same cut (`power.cut_at: 2345ms`), hot/cold GC-heavy on the aged drive, with "
         "power-loss protection; the figures are the summary's `ftl`, `checkpoints` and `power.recovery` fields:",
         "", "| `power.checkpoint.interval` | checkpoints | metadata LBA writes | placement held (drain) | host LBAs "
         "written | GC LBAs | GC / host | WAF | pages read at recovery (scan + checkpoint) | recovery, simulated (of "
         "it CPU) | violations |", "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for iv, r in zip(CKPT_INTERVALS, rs):
        c = cs.get(iv)
        rec = (f"{n0(c['recovery_pages'])} + {n0(c['checkpoint_pages_read'])} | {ms(c['recovery_time_s'])} "
               f"({ms(c['recovery_cpu_s'])}) | {c['violations']}") if c else "(no cut: the run ended first) | - | -"
        L.append(f"| {'off' if iv == '0s' else iv} | {n0(r.get('checkpoints.taken') or 0)} | "
                 f"{n0(r.get('checkpoints.metadata_lba_writes') or 0)} | {ms(r.get('checkpoints.drain_s') or 0)} | "
                 f"{n0(r['ftl.host_lba_writes'])} | {n0(r['ftl.gc_lba_writes'])} | "
                 f"{r['ftl.gc_lba_writes'] / r['ftl.host_lba_writes']:.2f} | {r['ftl.waf']:.3f} | {rec} |")
    L.append("")
    off, c_off = rs[0], cs.get("0s")
    if not c_off or any(iv not in cs for iv in CKPT_INTERVALS):
        return L
    pages = {iv: cs[iv]["recovery_pages"] + cs[iv]["checkpoint_pages_read"] for iv in CKPT_INTERVALS}
    t = {iv: cs[iv]["recovery_time_s"] for iv in CKPT_INTERVALS}
    ck_pages = cs["300ms"]["checkpoint_pages_read"]
    L += [f"A checkpoint of this drive is the L2P, erase counts and block states, read back as "
          f"{ck_pages} pages at recovery (the first page of both areas, then the newer area whole). Recovery then "
          "reads the first page of every block and the whole of the blocks written since the snapshot: at a 300 ms "
          f"interval {fold(pages['0s'], pages['300ms'])} fewer pages than the full scan, ready in "
          f"{ms(t['300ms'])} of simulated time against {ms(t['0s'])}: {fold(t['0s'], t['300ms'])} sooner"
          + (", less than the pages alone would give, because the checkpoint's pages are read one after the other "
             "(one die busy at a time) and the first-page probes of every block come before the whole-block reads."
             if t["0s"] / t["300ms"] < pages["0s"] / pages["300ms"] else ".")
          + (" Shorter intervals stop paying: at 100 ms recovery read "
             f"{'more' if pages['100ms'] > pages['300ms'] else 'no fewer'} pages than at 300 ms "
             f"({n0(pages['100ms'])} against {n0(pages['300ms'])}), because what it scans depends on how much was "
             "written between the last complete checkpoint's snapshot and the cut, and the first-page reads of "
             "every block are a floor whatever the interval."
             if pages["100ms"] >= pages["300ms"] else
             f" At 100 ms recovery read fewer pages still ({n0(pages['100ms'])} against {n0(pages['300ms'])} at "
             "300 ms); the first-page reads of every block are a floor whatever the interval.")]
    gh = lambda r: r["ftl.gc_lba_writes"] / r["ftl.host_lba_writes"]  # noqa: E731
    md = [r.get("checkpoints.metadata_lba_writes", 0) / r["ftl.host_lba_writes"] for r in rs[1:]]
    drains = [r["checkpoints.drain_s"] / r["checkpoints.taken"] for r in rs[1:] if r.get("checkpoints.taken")]
    hw = [pct(r["ftl.host_lba_writes"], off["ftl.host_lba_writes"]) for r in rs[1:]]
    one = rs[1]
    L += ["", f"The cost is not only the metadata writes. WAF goes from {off['ftl.waf']:.3f} to "
          f"{min(r['ftl.waf'] for r in rs[1:]):.3f}-{max(r['ftl.waf'] for r in rs[1:]):.3f}; GC/host is "
          f"{gh(off):.2f} without checkpoints and {min(map(gh, rs[1:])):.2f}-{max(map(gh, rs[1:])):.2f} with them "
          "(the two checkpoint areas come out of the spare, and GC works harder with less spare), and the metadata "
          f"writes add {min(md):.2f}-{max(md):.2f}. The drain before each snapshot (placement held until the "
          f"programs in flight complete, {ms(min(drains))}-{ms(max(drains))} each) costs host throughput too: "
          f"host writes before the cut change by {', '.join(hw)} at 1 s, 300 ms and 100 ms. An interval of a "
          f"second cuts the recovery time {fold(t['0s'], t['1s'])} for a WAF cost of "
          f"{pct(one['ftl.waf'], off['ftl.waf'])} on this aged, GC-bound drive.", "",
          "Cut during a checkpoint (`ctest -R PowerCut.CutDuringACheckpoint`): without PLP, a cut while the second "
          "checkpoint is programmed leaves the newer area unreadable whole (`checkpoints_torn: 1`); recovery starts "
          "from the first checkpoint and scans what was written since it, with no violation. A cut during the "
          "erase of the area leaves its first page erased, so it is not a candidate at all.", ""]
    return L


def fua_section(single, cuts):
    rs = [single[("fua", str(fr))] for fr in FUA_FRACTIONS]
    cs = {c["run"]: c for c in cuts if c["study"] == "fua"}
    L = ["## FUA without power-loss protection", "",
         "The same cut (`power.cut_at: 1500ms`), hot/cold GC-heavy, no PLP, no flushes at all; a fraction of the "
         "writes with FUA (`host.fua_fraction`):", "",
         "| `host.fua_fraction` | host LBAs written before the cut | padding slots | WAF | write mean / p99 (us) | "
         "LBAs read older after the cut | durable lost |", "|---|---:|---:|---:|---:|---:|---:|"]
    for fr, r in zip(FUA_FRACTIONS, rs):
        c = cs.get(str(fr)) or {}
        L.append(f"| {fr} | {n0(r['ftl.host_lba_writes'])} | {n0(r['ftl.pad_slots'])} | {r['ftl.waf']:.3f} | "
                 f"{r['latency_us.write.mean']:.0f} / {r['latency_us.write.p99']:.0f} | "
                 f"{n0(c.get('older_allowed', 0))} | {c.get('durable_lost', '-')} |")
    a, q, b = rs
    L += ["", "A write with FUA completes only once its page is programmed: the firmware pads and programs the host "
          "frontiers' open pages and waits, as for a flush, until no program is in flight. With every write FUA "
          f"the drive pads {fold(b['ftl.pad_slots'], a['ftl.pad_slots'])} as many slots, WAF goes from "
          f"{a['ftl.waf']:.3f} to {b['ftl.waf']:.3f} and host writes before the cut change by "
          f"{pct(b['ftl.host_lba_writes'], a['ftl.host_lba_writes'])}; a quarter of the writes with FUA changes WAF "
          f"by {pct(q['ftl.waf'], a['ftl.waf'])} and writes by {pct(q['ftl.host_lba_writes'], a['ftl.host_lba_writes'])}. "
          "What it buys: with FUA every acknowledged write is durable (the scoreboard's floor is its version, "
          f"`PowerCut.WithoutPlpFua*`); without it, on this run, {n0((cs.get('0') or {}).get('older_allowed', 0))} "
          "LBAs read an older version after the cut (allowed: not durable), and nothing promised fewer. A drive with "
          "power-loss protection does not need FUA, and the firmware still honours it (its cost would be the same).",
          ""]
    return L


def fsync(r):
    g = lambda k: r.get(f"journal.fsync_latency_us.{k}") or 0  # noqa: E731
    return f"{g('mean'):.0f} / {g('p50'):.0f} / {g('p99'):,.0f}"


def log_section(single):
    rs = {n: single[("log-cost", n)] for n, _ in LOG_ARMS}
    none, off, on, alone = (rs[n] for n, _ in LOG_ARMS)
    L = ["## Deallocations after the last checkpoint", "",
         "Design ([firmware/power.md](../firmware/power.md#trim-log-ftltrimlogc)): every deallocation is a record "
         "(first LBA, count, a number of the drive's sequence counter) in a DRAM page that is programmed into the "
         "newest checkpoint's area after its image on a Flush, when full and by the power-fail handler with PLP; "
         "recovery replays the records newer than the checkpoint after the scan, unmapping each LBA whose newest "
         "copy is older than the record. Deallocations wait while a checkpoint is under way, so each checkpoint's "
         "snapshot holds every record made before it, and the log starts again after it. `power.trim_log.mode: "
         "off` keeps the checkpoints without the log (deallocations then are not persistent).", "",
         "**Check**: `ctest -R 'FtlPower|PowerCut.WithCheckpointsTrims'`: on the fake HAL a deallocation followed by "
         "a Flush after the checkpoint reads deallocated after a cut without PLP, the same without the Flush reads "
         "its old data (allowed: not durable), and with PLP two cuts in a row keep both; on the SoC (varmail "
         "deleting files, no PLP, checkpoints every 250 ms) every deallocated LBA is checked, with no violation.",
         "", "**Cost**: one page program per Flush that follows deallocations (metadata, in `checkpoints.programs` "
         "and WAF), and deallocations wait out each checkpoint. Measured on varmail (no PLP, the file system's "
         "ordered journal, `host.files.journal: ordered`, 10 s, no cuts), four arms: neither checkpoints nor log, "
         "checkpoints without their log, checkpoints with it, and the log alone in areas of its own (next "
         "section):", "",
         "| arm | host LBAs written | flushes | WAF | metadata LBA writes | checkpoints | fsync mean / p50 / p99 (us) |",
         "|---|---:|---:|---:|---:|---:|---:|"]
    for n, _ in LOG_ARMS:
        r = rs[n]
        meta = (r.get("checkpoints.metadata_lba_writes") or 0) + (r.get("trim_log.metadata_lba_writes") or 0)
        L.append(f"| {n} | {n0(r['ftl.host_lba_writes'])} | {n0(r['host.flushes'])} | {r['ftl.waf']:.3f} | "
                 f"{n0(meta)} | {n0(r.get('checkpoints.taken') or 0)} | {fsync(r)} |")
    d_log = on["ftl.waf"] - off["ftl.waf"]
    d_ck = off["ftl.waf"] - none["ftl.waf"]
    meta_on = on.get("checkpoints.metadata_lba_writes") or 0
    meta_off = off.get("checkpoints.metadata_lba_writes") or 0
    p50 = lambda r: r.get("journal.fsync_latency_us.p50") or 0  # noqa: E731
    L += ["", f"The log's own share is the difference between the two checkpointed arms: "
          f"{n0(meta_on - meta_off)} more metadata LBA writes and WAF {pct(on['ftl.waf'], off['ftl.waf'])} "
          f"({d_log:+.3f}), against {d_ck:+.3f} for the checkpoints themselves; the log costs "
          f"{about(d_log, d_ck, 0.2)} the checkpoints on this workload"
          + (", because each log page is programmed nearly empty (a few records of 12 bytes in a page)"
             if d_log > 1.2 * d_ck else "") +
          f". The fsync median goes from {p50(off):.0f} us (checkpoints without the log) to {p50(on):.0f} us with "
          f"it ({pct(p50(on), p50(off))}), and host writes in the 10 s change by "
          f"{pct(on['ftl.host_lba_writes'], off['ftl.host_lba_writes'])}. Gathering records over several flushes is "
          "not possible without weakening what a Flush promises; a smaller log unit (a partial-page program, or the "
          "records carried in the OOB of the data pages a flush programs anyway) would be the way to cut it.", ""]
    return L


def persistent_section(single, cuts, by_study, st, drive):
    arms = {n: single[("trimlog-cuts", n)] for n, _ in TRIMLOG_ARMS}
    cs = {n: [c for c in cuts if c["study"] == "trimlog-cuts" and c["run"] == n] for n, _ in TRIMLOG_ARMS}
    L = ["## Persistent deallocations without checkpoints", "",
         "Design ([firmware/power.md](../firmware/power.md#trim-log-without-checkpoints-powertrim_logmode-on)): "
         "`power.trim_log.mode: on` without checkpoints gives the trim log two areas of its own "
         f"(`power.trim_log.blocks` each, {drive.get('power.trim_log.blocks')} on this drive). Records are programmed as with checkpoints (on a "
         "Flush or FUA write, when the page is full, by the power-fail handler with PLP); each area starts with a "
         "bitmap of the LBAs deallocated at its sequence number, taken when the log moves to the other area (the "
         "area full, or after a recovery). A **GC erase barrier** makes a victim wait until every record made "
         "before it was finished is on flash: the victim may hold the newest copy of an LBA deallocated since, "
         "and were that deallocation lost, recovery would map an older copy, older than what the host had made "
         "durable. The host's check is strict for deallocations whenever the drive persists them "
         "(`ftl_trims_persistent`: checkpoints with the log, or this), and each cut reports "
         "`deallocations_persistent`. The default stays `auto` (no log without checkpoints): a drive that is never "
         "cut would pay the reserved blocks and the log's programs for nothing.", "",
         "**Check**: `ctest -R 'FtlPower.TrimLog|PowerCut.TrimLog'`. On the fake HAL "
         "(`testbench/firmware/power_test.cpp`): a flushed deallocation survives a cut with the log on and does "
         "not with `auto`; with one-block areas the log moves between its areas again and again and cuts after a "
         "Flush read back exactly what the host wrote and deallocated; a cut in the middle of a move falls back to "
         "the older area and keeps every deallocation; and the barrier: LBAs written twice (the second version "
         "flushed, alone in its blocks), then deallocated without a Flush, GC erases those blocks, the power is "
         "cut: with the barrier they read deallocated, without it (`power.trim_log.gc_barrier: 0`) the first "
         "version comes back, older than the durable second. On the SoC: "
         "`PowerCut.TrimLogWithoutCheckpointsChecksEveryDeallocatedLba`.", "",
         "**The same 20 cuts, three ways**: varmail without PLP and without checkpoints, `power.seed=400003` (the "
         "run power-cuts.sh makes as its run 3 of seed 4), with the log `auto` (none: the relaxed check), `on`, "
         "and `on` without the barrier:", "",
         "| `power.trim_log` | cuts | violations | deallocated LBAs left unchecked (all cuts) | LBAs read "
         "deallocated, checked | LBAs unmapped by the log | read older (allowed) | recovery (ms, mean) | WAF |",
         "|---|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for n, _ in TRIMLOG_ARMS:
        c, r = cs[n], arms[n]
        persist = any(int(x["deallocations_persistent"]) for x in c)
        L.append(f"| `{n}` | {len(c)} | {total(c, 'violations')} | {n0(total(c, 'deallocated_unchecked'))} | "
                 f"{n0(total(c, 'deallocated_latest')) if persist else '(not checked)'} | "
                 f"{n0(total(c, 'trim_log_lbas_unmapped'))} | {n0(total(c, 'older_allowed'))} | "
                 f"{mean(x['recovery_time_s'] for x in c) * 1e3:.0f} | {r['ftl.waf']:.3f} |")
    a, o, nb = cs["auto"], cs["on"], cs["on, gc_barrier 0"]
    if a and o:
        L += ["", f"With the log every LBA is checked at every cut ({n0(total(o, 'deallocated_unchecked'))} left "
              f"unchecked; about {n0(mean(x['deallocated_latest'] for x in o))} per cut read deallocated); without "
              f"it {n0(total(a, 'deallocated_unchecked'))} checks were skipped "
              f"({n0(a[0]['deallocated_unchecked'])} at the first cut). Without the barrier these cuts found "
              f"{total(nb, 'violations')} violations"
              + (": the barrier matters only when GC finishes a victim between a deallocation and the next log "
                 "page, and varmail flushes every few operations, so the window is short; the fake-HAL test builds "
                 "that history on purpose and shows the violation, so the barrier's evidence is the unit test, not "
                 "a run." if total(nb, "violations") == 0 else ".")
              + f" Recovery takes {mean(x['recovery_time_s'] for x in o) * 1e3 - mean(x['recovery_time_s'] for x in a) * 1e3:+.0f} "
              "ms with the log on average (its bitmap and log pages and a pass over the bitmap). WAF here counts "
              "the whole run including the cuts' segments (the log's cost alone is measured below).", ""]
    s = cuts_summary(by_study["trimlog"])
    L += [f"**More cuts**: `{study_cmd(st['trimlog'])}` (hot/cold and varmail, each with and without PLP, no "
          f"checkpoints, the log on): **{verdict_cuts(s)}**, {n0(s['unchecked'])} deallocated LBAs left unchecked; "
          f"{s['during_gc']} during GC, {n0(s['torn_programs'])} programs and {n0(s['torn_erases'])} erases torn; "
          f"{n0(s['dealloc_latest'])} deallocated LBA reads checked (hot/cold sends no deallocation), "
          f"{n0(s['trim_unmapped'])} LBAs unmapped from the log; the free pool after recovery at its lowest "
          f"{blocks(s['free_min'])} ({runs_completed(st['trimlog'])}). " + recovery_text(s), ""]
    L += setup_table(by_study["trimlog"])
    none, alone = single[("log-cost", "none")], single[("log-cost", "log alone")]
    lm = alone.get("trim_log.metadata_lba_writes") or 0
    L += ["", "**Cost on varmail without cuts** (the arms \"none\" and \"log alone\" of the table in the section "
          "above):", "",
          "| `power.trim_log.mode` | host LBAs written (10 s) | flushes | WAF | metadata LBA writes (log programs) | "
          "moves (area erases) | GC erases that waited | fsync mean / p50 / p99 (us) |",
          "|---|---:|---:|---:|---:|---:|---:|---:|"]
    for n, r in (("auto (no log)", none), ("on", alone)):
        L.append(f"| `{n}` | {n0(r['ftl.host_lba_writes'])} | {n0(r['host.flushes'])} | {r['ftl.waf']:.3f} | "
                 f"{n0(r.get('trim_log.metadata_lba_writes') or 0)} ({n0(r.get('trim_log.programs') or 0)}) | "
                 f"{n0(r.get('trim_log.moves') or 0)} ({n0(r.get('trim_log.erases') or 0)}) | "
                 f"{n0(r.get('trim_log.gc_erases_waited') or 0)} | {fsync(r)} |")
    p50 = lambda r: r.get("journal.fsync_latency_us.p50") or 0  # noqa: E731
    L += ["", f"The log adds {alone['ftl.waf'] - none['ftl.waf']:+.3f} to WAF ({n0(lm)} metadata LBA writes for "
          f"{n0(alone['ftl.host_lba_writes'])} host ones), the fsync median goes from {p50(none):.0f} to "
          f"{p50(alone):.0f} us ({pct(p50(alone), p50(none))}) and host writes in the 10 s change by "
          f"{pct(alone['ftl.host_lba_writes'], none['ftl.host_lba_writes'])}: the log page's program in each Flush "
          f"that follows deallocations. The barrier made {n0(alone.get('trim_log.gc_erases_waited') or 0)} GC erases "
          "wait for a log page; the moves cost an erase per area block, the bitmap's pages and a pass over the L2P. "
          "What would cut the log's cost is the same as with checkpoints: a smaller log unit than a page.", ""]
    return L


def host_ftl_section(hf):
    r, f, p, nd = hf["random"], hf["fixed"], hf["per_recovery"], hf["not_durable"]
    return ["## Power cuts through the host FTL", "",
            "Open-channel personality with the firmware's FTL on the host "
            "([host_ftl.md](../models/host_ftl.md#power-cuts-recovery-through-the-host-ftl)): host and drive lose "
            "power together; the drive rebuilds its chunk table from the flash, the host FTL its L2P with the "
            "firmware's recovery through Open-Channel vector reads (per-sector LPN and the unit's sequence number, "
            "`nvme.ocssd.meta: lpn_seq`), then every LBA is checked.", "",
            "**Regenerate**: `build/testbench/firmware/firmware_host_ftl_power_test` (ctest "
            "`firmware_host_ftl_power_test`; the figures are the lines it prints). Functional, on the firmware "
            "tests' small open-channel drive with `ftl.gc.durable: 1`: the namespace filled and flushed, then random "
            "writes of a few LBAs with a trim and a flush every few dozen steps (GC relocating from the first pass "
            "on). A cut falls after a number of vector commands (random, seeded, or at fixed counts): in the random "
            "batches the command in flight at the cut, if a write or a reset, is torn (its unit reads Unrecovered "
            "Read Error below the write pointer; a reset's chunk every page, until reset again), the drive executes "
            "no command after it, and the host's call in progress fails; then power-up and the check of every LBA, "
            "the host going on from what it read. Functional runs: no recovery time in simulated time.", "",
            "| batch | cuts | with a GC victim open | violations (lost, foreign) | LBA checks: latest / older or "
            "newer / unchecked (trimmed) |", "|---|---:|---:|---:|---|",
            f"| random instants, torn, `ftl.gc.durable: 1` | {r['cuts']:.0f} | {r['during_gc']:.0f} | "
            f"{r['violations']:.0f} ({r['lost']:.0f}, {r['foreign']:.0f}) | {n0(r['latest'])} / {n0(r['older'])} / "
            f"{n0(r['unchecked'])} |",
            f"| fixed instants, none torn | {f['cuts']:.0f} | {f['during_gc']:.0f} | 0 (the test asserts it) | "
            f"{n0(f['latest'])} / "
            f"{n0(f['older'])} / {n0(f['unchecked'])} |",
            f"| random instants, torn, `ftl.gc.durable: 0` | {nd['cuts']:.0f} | | {nd['violations']:.0f} | |", "",
            f"Per recovery (the random batch): the host FTL read {n0(p['pages'])} pages by {n0(p['vector_reads'])} "
            f"Vector Chunk Reads (free chunks answer Unwritten from the drive's chunk table, no flash read), reopened "
            f"{p['reopened']:.1f} chunks as write points, and took {p['cpu_ms']:.3f} ms of host CPU; "
            f"{p['torn_cmds']:.0f} of the {r['cuts']:.0f} cuts tore a write or a reset, and the recoveries met "
            f"{p['torn_pages']:.0f} torn pages and went past them; the drive's own scan of its chunk table read "
            f"{n0(p['drive_pages'])} pages. \"Older\" are LBAs whose writes after the last flush were lost with the "
            "host's buffer (allowed); \"unchecked\", LBAs whose last durable state is a trim (deallocations are not "
            "durable without a trim log: they may read an older version of their own, never foreign data).", "",
            ("Findings: nothing flushed was lost and nothing foreign appeared"
             if r["violations"] == 0 else f"Findings: {r['violations']:.0f} violations with durable GC")
            + f", including {r['during_gc']:.0f} cuts with a GC victim open and {p['torn_cmds']:.0f} torn commands. "
            "Three conditions are needed: the sequence number per unit (without it newest-wins has no order), "
            f"durable GC (`ftl.gc.durable: 0` lost {nd['violations']:.0f} LBAs in {nd['cuts']:.0f} cuts: a victim "
            "reset while its relocated data was still in the host's page buffers; the host has no capacitor), and "
            "durable GC that also programs the host's write points before the erase (a flushed version's page made "
            "stale by a newer write still in the host's page buffer must not be erased before that write is on "
            "flash). `ftl.gc.durable` programs every write point's partly filled page before a victim's erase "
            "(`firmware/ftl/gc.c`, the same firmware in the drive: it applies to the device FTL's runs without "
            "power-loss protection above too).", ""]


def draw_faults(figs, rows):
    plt = pyplot()
    if plt is None or not rows:
        return False
    fig, ax = plt.subplots(figsize=(8, 3.6))
    labels = [r["name"] for r in rows]
    ax.barh(range(len(rows)), [r["ftl.waf"] for r in rows], color="#4878a8")
    ax.set_yticks(range(len(rows)))
    ax.set_yticklabels(labels, fontsize=8)
    ax.invert_yaxis()
    ax.axvline(rows[0]["ftl.waf"], color="grey", lw=0.8, ls="--")
    ax.set_xlabel("WAF (dashed: no faults)")
    ax.set_title("Fault setting against WAF (configs/small.yaml, aged, hot/cold)", fontsize=9)
    save_png_svg(plt, fig, os.path.join(figs, "waf_faults"))
    return True


def main():
    ap = data_args(__doc__, PAGE)
    ap.add_argument("--quick", action="store_true", help="fewer cuts: a smoke run, not for publishing")
    ap.add_argument("--reuse", action="store_true", help="take runs already in out/reliability/ as they are")
    a = ap.parse_args()
    if a.jobs != 1:
        sys.exit("reliability.py runs one run at a time (--jobs 1)")
    if a.render:
        data = a.render
    else:
        t0 = time.monotonic()
        data = run_everything(a)
        write_provenance(os.path.join(ROOT, a.build, "platform", "ssdvp"),
                         COMMAND + (" --quick" if a.quick else ""), data, time.monotonic() - t0)
    page = os.path.abspath(a.page)
    write_lines(page, page_lines(page, data), data, COMMAND)


if __name__ == "__main__":
    main()
