#!/usr/bin/env python3
"""The journal/data separation experiment: regenerates docs/results/journal.md.

Runs build/platform/ssdvp on configs/journal.yaml (an ext4-like journal in
ordered mode over the file-level host, docs/models/host_journal.md) for each
workload (fio random and sequential 4 KiB writes with fsync after each,
Filebench fileserver and varmail) and each device-FTL arm (journal writes
untagged: one write point; tagged with NVMe stream 1: their own frontier),
with host.files.seed 1..--seeds (default 5), then writes the results page, a CSV
table (one row per run, its seed in a column) and SVG bar charts (standard
library only; one run at a time). The page shows each point's mean over the seeds
and each change of separated against mixed as the mean of the per-seed changes
(the same seed in both arms) with its 95 % t interval (explore/ssdvp_explore/stats.py).
The hand-written findings appended to the page (scripts/journal_findings.md) get
their figures from the rows (fill_findings), and the page fails to render when the
rows contradict one of its CLAIMS. A results.csv without a seed column (made before
--seeds) is one run per point, seed 1.

    python3 scripts/journal_experiment.py [--bin build/platform/ssdvp] [--out out/journal] [--seeds N] [--quick] [--reuse]
    python3 scripts/journal_experiment.py --render docs/results/journal/results.csv [--page OUT]
"""
import argparse
import csv
import json
import os
import re
import statistics
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "scripts"))
sys.path.insert(0, os.path.join(ROOT, "explore"))
from streams_experiment import svg_bars  # noqa: E402  (shared SVG bars)
from ssdvp_explore.stats import mean_ci, paired_change  # noqa: E402  (standard library only)
from ssdvp_explore import claims  # noqa: E402  (standard library only)

WORKLOADS = {
    "fio-rand": {"host.files.personality": "fio", "host.files.fio.rw": "randwrite"},
    "fio-seq": {"host.files.personality": "fio", "host.files.fio.rw": "write"},
    "fileserver": {"host.files.personality": "fileserver", "host.files.nfiles": 4000},
    "varmail": {"host.files.personality": "varmail", "host.files.nfiles": 20000},
    # sensitivity: fewer flushes, a larger journal
    "fio-rand-fsync16": {"host.files.personality": "fio", "host.files.fio.rw": "randwrite", "host.files.fio.fsync": 16},
    "varmail-j64": {"host.files.personality": "varmail", "host.files.nfiles": 20000, "host.files.journal_size": "64MiB"},
}
# Device-FTL arms, each under two GC victim policies (greedy is the config's;
# cost-benefit weighs a block's age, which decides the result here).
ARMS = {
    "mixed/greedy": {"host.files.journal_stream": 0},
    "separated/greedy": {"host.files.journal_stream": 1},
    "mixed/cost-benefit": {"host.files.journal_stream": 0, "ftl.gc.policy": "cost_benefit"},
    "separated/cost-benefit": {"host.files.journal_stream": 1, "ftl.gc.policy": "cost_benefit"},
}
TIME_LIMIT = "60s"
SEEDS = 5  # runs per point by default: host.files.seed 1..SEEDS


def timed_args(doc, out, page, time_help):
    """The timed experiments' command line: --bin, --out, --time (default 20s), --reuse, --page."""
    ap = argparse.ArgumentParser(description=doc.splitlines()[0])
    ap.add_argument("--bin", default=os.path.join(ROOT, "build/platform/ssdvp"))
    ap.add_argument("--out", default=os.path.join(ROOT, out))
    ap.add_argument("--time", default="20s", help=time_help)
    ap.add_argument("--reuse", action="store_true", help="take the summaries already in --out")
    ap.add_argument("--page", default=os.path.join(ROOT, page))
    return ap.parse_args()


def run_summary(binary, config, d, sets, label, reuse=False):
    """`ssdvp run -c config -o d --set ...` (unless reuse and d has a summary already): its summary.json."""
    os.makedirs(d, exist_ok=True)
    cmd = [binary, "run", "-c", os.path.join(ROOT, config), "-o", d, "--quiet"]
    for k, v in sets.items():
        cmd += ["--set", f"{k}={v}"]
    if not (reuse and os.path.exists(os.path.join(d, "summary.json"))):
        p = subprocess.run(cmd, capture_output=True, text=True)
        if p.returncode != 0:
            sys.exit(f"{label}: ssdvp failed ({p.returncode}):\n{p.stderr}{p.stdout}")
    with open(os.path.join(d, "summary.json")) as f:
        return json.load(f)


def run(binary, out, wl, arm, quick, reuse=False, seed=None):
    """One run of WL in ARM: its row. With a seed, host.files.seed is set to it, the run has its own directory
    (..._s<seed>) and the row a seed column; without one (journal_host_ftl_timed.py's calls), neither."""
    d = os.path.join(out, f"{wl}_{arm.replace('/', '_')}" + (f"_s{seed}" if seed is not None else ""))
    sets = dict(WORKLOADS[wl])
    sets.update(ARMS[arm])
    if seed is not None:
        sets["host.files.seed"] = seed
    sets["host.time_limit"] = "15s" if quick else TIME_LIMIT
    sets["ftl.write.at_floor"] = "pass"  # the pages' figures ran under pass, the default before room
    t0 = time.time()
    s = run_summary(binary, "configs/journal.yaml", d, sets, f"{wl}/{arm}", reuse)
    h, jn = s["host"], s["journal"]
    host_bytes = s["ftl"]["host_lba_writes"] * 4096
    ftl = s["ftl"]
    host_lbas = ftl["host_lba_writes"]
    # pad_slots is the firmware's lifetime count; preconditioning sends no flush, so it is the timed part's
    r = {"workload": wl, "arm": arm, **({"seed": seed} if seed is not None else {}),
         "waf": ftl["waf"], "erases": ftl["erases"],
         "flash_waf": (host_lbas + ftl["gc_lba_writes"] + ftl["pad_slots"]) / host_lbas if host_lbas else 0.0,
         "pad_lbas": ftl["pad_slots"], "flushes": h["flushes"],
         "victim_valid": ftl["gc_lba_writes"] / ftl["gc_runs"] if ftl["gc_runs"] else 0.0,
         "mbps": h["bandwidth_mbps"], "iops": h["iops"],
         "fsync_p50_us": jn["fsync_latency_us"]["p50"], "fsync_p99_us": jn["fsync_latency_us"]["p99"],
         "fsyncs": jn["fsync_latency_us"]["count"],
         "journal_share": jn["log_bytes"] / host_bytes if host_bytes else 0.0,
         "checkpoint_mb": jn["checkpoint_bytes"] / 1e6, "mismatches": s["integrity"]["mismatches"],
         "reads_checked": s["integrity"]["reads_checked"], "sim_s": h["sim_time_s"],
         "wall_s": round(time.time() - t0, 1)}
    print(f"{wl:10s} {arm:22s}" + (f" seed {seed}" if seed is not None else "") + f" WAF {r['waf']:.3f} flash WAF {r['flash_waf']:.3f} erases {r['erases']:6d} {r['mbps']:7.2f} MB/s {r['iops']:8.0f} IOPS "
          f"fsync p50 {r['fsync_p50_us']:.0f} p99 {r['fsync_p99_us']:.0f} us, journal {100*r['journal_share']:.0f} % "
          f"of writes ({r['wall_s']} s)", flush=True)
    return r


def read_rows(path):
    """The rows of a results.csv this script wrote, with their numbers as numbers."""
    def num(v):
        for t in (int, float):
            try:
                return t(v)
            except ValueError:
                pass
        return v
    with open(path, newline="") as f:
        return [{k: num(v) for k, v in r.items()} for r in csv.DictReader(f)]


EXT4_REAL = os.path.join(ROOT, "docs/results/journal_ext4_real")  # the data of journal_ext4_real.md, quoted at the end
QUOTED = ("ext4-real ", "model ")  # keyed()'s prefixes of journal_ext4_real.md's rows


class Point(dict):
    """A (workload, arm)'s figures over its runs: each field's mean (a field that is not a number in every run
    keeps the first run's value; one run's row is kept as it is), and .runs, {seed: that run's row}, which
    points() sets."""
    runs: dict


def points(rows):
    """The rows by (workload, arm) as Points; a row without a seed column (results.csv before --seeds, and
    journal_ext4_real.md's rows) is seed 1, or the next seed when its point already has one."""
    groups = {}
    for r in rows:
        runs = groups.setdefault((r["workload"], r["arm"]), {})
        seed = r.get("seed")
        runs[seed if seed not in (None, "") else len(runs) + 1] = r
    by = {}
    for key, runs in groups.items():
        rs = list(runs.values())
        if len(rs) == 1:
            p = Point(rs[0])
        else:
            def isnum(v):
                return isinstance(v, (int, float)) and not isinstance(v, bool)
            p = Point({f: statistics.fmean(r[f] for r in rs) if all(isnum(r.get(f)) for r in rs) else rs[0][f]
                       for f in rs[0]})
            p.pop("seed", None)
        p.runs = runs
        by[key] = p
    return by


def keyed(rows, ext4_real=EXT4_REAL):
    """The rows by (workload, arm) as Points (points()), with journal_ext4_real.md's replays as
    ("ext4-real MODE", arm) and the model's figures it compares with as ("model WORKLOAD", arm) when its data is
    there (one row each: one run, the model's already the mean of its seeds)."""
    by = points(rows)
    for name, key, prefix in (("results.csv", "mode", QUOTED[0]), ("model.csv", "workload", QUOTED[1])):
        path = os.path.join(ext4_real, name)
        if os.path.exists(path):
            by.update(points([dict(r, workload=prefix + r[key]) for r in read_rows(path)]))
    return by


def seeds(by):
    """The seeds of the experiment's own points in `by` (journal_ext4_real.md's left out), sorted."""
    return sorted({s for k, p in by.items() if not k[0].startswith(QUOTED) for s in p.runs})


def span(seeds):
    """Seeds as the page names them: "1..5" when consecutive, else "1, 3, 4"."""
    return f"{seeds[0]}..{seeds[-1]}" if seeds == list(range(seeds[0], seeds[-1] + 1)) else ", ".join(map(str, seeds))


def arms(arm, other):
    """ARM and OTHER, OTHER without a GC policy ("mixed") taking ARM's."""
    if "/" in arm and "/" not in other:
        other += arm[arm.index("/"):]
    return arm, other


def pair(by, wl, arm, other, field):
    """A workload's field in ARM and in OTHER (arms()), their means over the seeds."""
    arm, other = arms(arm, other)
    return by[(wl, arm)][field], by[(wl, other)][field]


class Change(float):
    """A relative change (0.021: +2.1 %): the mean over the seeds both arms ran of the per-seed change (paired by
    seed, stats.paired_change); .half: the half-width of its 95 % t interval (0 with one seed), .n: the seeds."""
    half, n = 0.0, 1


def change(by, wl, arm, other, field):
    """ARM's change against OTHER (pair()'s arguments) as a Change; FIELD is a row's key or a function of a row.
    KeyError when a point is absent or the two share no seed, ZeroDivisionError when every base is zero."""
    arm, other = arms(arm, other)
    a, b = by[(wl, arm)].runs, by[(wl, other)].runs
    if not set(a) & set(b):
        raise KeyError((wl, arm, other))
    val = field if callable(field) else (lambda r: r[field])
    xs = paired_change({s: val(r) for s, r in a.items()}, {s: val(r) for s, r in b.items()})
    if not xs:
        raise ZeroDivisionError(f"{wl} {other} {field}: zero in every seed")
    m, h = mean_ci(xs)
    c = Change(m / 100)
    c.half, c.n = h / 100, len(xs)
    return c


def fmt_change(c):
    """A change as the tables print it: "-4.6 %" (ASCII minus, as before --seeds; "x12" for one run's ratio of
    10 or more), "+2.1 ± 0.8 %" with two seeds or more."""
    if c.n < 2:
        return f"x{1 + c:.0f}" if 1 + c >= 10 else f"{100 * c:+.1f} %"
    return f"{100 * c:+.1f} ± {100 * c.half:.1f} %"


def fill_findings(text, by):
    """The findings with their figures filled in from the rows `by` (keyed()); an HTML comment is dropped.

    {WL|ARM|FIELD|SPEC}         a row's field (the mean over the seeds) by a format spec; a spec ending in % prints
                                x100 and " %" ("0.2 %")
    {pct:WL|ARM|OTHER|FIELD}    ARM's change against OTHER ("mixed" for the mixed arm of ARM's GC policy): the mean
                                over the seeds of the per-seed change (change()), signed, whole percent, Unicode
                                minus: "+2 %", "−15 %"; pct.1: one decimal ("−14.5 %")
    {abs:...}, {abs.1:...}      its magnitude, where the sentence says the direction in words: "11 %"
    {pct±:...}, {abs±.1:...}    the same with the half-width of its 95 % interval over the seeds, in the same
                                digits: "+2 ± 1 %", "14.5 ± 3.2 %"; with one seed just the value ("+2 %")
    {range:SEL;SEL...}          several changes (means), the one nearest zero first (the lowest if their signs
                                differ): "−12..−27 %", once if both ends round equal; range.1: one decimal;
                                SEL is WL,WL...|ARM,ARM...|OTHER|FIELD, every WL with every ARM
    {table:WL|ARM|OTHER|FIELD}  a change as the results tables print it ("-4.6 %", "+2.1 ± 0.8 %": fmt_change())
    {seeds}                     what a point is: "one run with one seed", or "the mean of 5 runs (seeds 1..5)"
    WL "ext4-real MODE" and "model WL" are journal_ext4_real.md's rows (see keyed()). A figure whose row is absent
    reads "(not in the data)"."""
    def signed(c, digits):
        return f"{100 * c:+.{digits}f}".replace("-", "−")

    def one(m):
        kind, ci, digits, sel = m.group(1) or "", m.group(2), int(m.group(3) or 0), m.group(4)
        p = sel.split("|")
        try:
            if not kind and sel == "seeds":
                s = seeds(by)
                return f"the mean of {len(s)} runs (seeds {span(s)})" if len(s) > 1 else "one run with one seed"
            if kind == "range" and not ci:
                c = [change(by, wl, arm, other, f) for s in sel.split(";") for wls, arms_, other, f in [s.split("|")]
                     for wl in wls.split(",") for arm in arms_.split(",")]
                c.sort(key=abs if min(c) >= 0 or max(c) <= 0 else None)
                lo, hi = signed(c[0], digits), signed(c[-1], digits)
                return f"{lo} %" if lo == hi else f"{lo}..{hi} %"
            if kind == "table" and not ci and len(p) == 4:
                return fmt_change(change(by, *p))
            if kind in ("pct", "abs") and len(p) == 4:
                c = change(by, *p)
                v = signed(c, digits)
                v = v.lstrip("+−") if kind == "abs" else v
                return f"{v} ± {100 * c.half:.{digits}f} %" if ci and c.n >= 2 else f"{v} %"
            if not kind and len(p) == 4:
                v = format(by[(p[0], p[1])][p[2]], p[3])
                return v[:-1] + " %" if p[3].endswith("%") else v
        except KeyError:
            return "(not in the data)"
        except ZeroDivisionError:
            return "n/a"
        raise ValueError(f"findings placeholder {m.group(0)}: see fill_findings() in scripts/journal_experiment.py")
    text = re.sub(r"<!--.*?-->\n?", "", text, flags=re.S)
    return re.sub(r"\{(?:(pct|abs|range|table)(±)?(?:\.(\d))?:)?([^{}]*)\}", one, text)


FSYNC_HEAVY = ("fio-rand", "fio-seq", "varmail")
GC = ("greedy", "cost-benefit")
NOISE = 0.02  # "nothing" is within 2 %; with one seed, a claimed direction needs more than that (see up())


def sep(by, wl, gc, field):
    """Separation's change under a GC policy: separated/GC against mixed/GC (a Change)."""
    return change(by, wl, "separated/" + gc, "mixed/" + gc, field)


def beyond(c, x):
    """A change above x: with two seeds or more its 95 % interval lies above x, with one the change is."""
    return c - c.half > x if c.n >= 2 else c > x


def up(c):
    """Higher: with two seeds or more the 95 % interval of the paired change excludes 0 on the upper side; with
    one seed (no interval) the change exceeds NOISE."""
    return beyond(c, 0.0 if c.n >= 2 else NOISE)


def down(c):
    """Lower: up()'s mirror."""
    return c + c.half < 0 if c.n >= 2 else c < -NOISE


def same(c):
    """Changes nothing: the 95 % interval lies within ±NOISE (with one seed, the change does)."""
    return abs(c) + c.half <= NOISE


def every_run(by, wl, arm):
    """The rows of a point's runs."""
    return list(by[(wl, arm)].runs.values())


def victims_per_write(r):
    """GC victims per host write: (WAF - 1) / valid LBAs per victim."""
    return (r["waf"] - 1) / r["victim_valid"]


REAL = "ext4-real closed"
# What scripts/journal_findings.md says in words, checked against keyed() rows at render time: (claim, predicate).
# A change is separated against mixed, paired by seed (change()). "Higher", "lower", "worse", "helps", "raises",
# "grows" mean up() or down(): with two seeds or more the change's 95 % interval excludes 0, with one seed the
# change is beyond NOISE; "changes nothing" means same(): the interval within ±NOISE. Comparisons of two changes
# ("by less than") and the seed's threshold compare the means; what every arm shows ("never fsyncs", "70..80 %")
# holds for every run. A claim whose rows are absent is skipped.
CLAIMS = [
    ("under greedy GC separation makes WAF worse on every fsync-heavy workload (fio-rand, fio-seq, varmail)",
     lambda by: all(up(sep(by, w, "greedy", "waf")) for w in FSYNC_HEAVY)),
    ("under greedy GC separation lowers throughput (IOPS and MB/s) on every fsync-heavy workload",
     lambda by: all(down(sep(by, w, "greedy", f)) for w in FSYNC_HEAVY for f in ("iops", "mbps"))),
    ("under cost-benefit GC separation helps varmail: WAF and erases lower, though its fsync p99 grows",
     lambda by: down(sep(by, "varmail", "cost-benefit", "waf")) and down(sep(by, "varmail", "cost-benefit", "erases"))
     and up(sep(by, "varmail", "cost-benefit", "fsync_p99_us"))),
    ("under cost-benefit GC separation lowers fio-seq's WAF a little (by less than varmail's)",
     lambda by: sep(by, "varmail", "cost-benefit", "waf") < sep(by, "fio-seq", "cost-benefit", "waf") and
     down(sep(by, "fio-seq", "cost-benefit", "waf"))),
    ("under cost-benefit GC separation does not help fio-rand (its WAF rises)",
     lambda by: up(sep(by, "fio-rand", "cost-benefit", "waf"))),
    ("under cost-benefit GC throughput (IOPS and MB/s) is still lower with separation on every fsync-heavy workload",
     lambda by: all(down(sep(by, w, "cost-benefit", f)) for w in FSYNC_HEAVY for f in ("iops", "mbps"))),
    ("separation changes nothing on fileserver: WAF, flash WAF, erases, IOPS and MB/s within 2 % under both policies",
     lambda by: all(same(sep(by, "fileserver", g, f)) for g in GC
                    for f in ("waf", "flash_waf", "erases", "iops", "mbps"))),
    ("fileserver never fsyncs and its journal is well under 1 % of the writes",
     lambda by: all(r["fsyncs"] == 0 and r["journal_share"] < 0.01 for a in ARMS for r in every_run(by, "fileserver", a))),
    ("the fsync tail moves both ways: separation lowers fsync p99 on fio-rand under greedy and raises it in the "
     "other fio cases (fio-rand under cost-benefit, fio-seq under both) and on varmail under both",
     lambda by: down(sep(by, "fio-rand", "greedy", "fsync_p99_us")) and all(
         up(sep(by, w, g, "fsync_p99_us")) for w, g in [("fio-rand", "cost-benefit")] +
         [(w, g) for w in ("fio-seq", "varmail") for g in GC])),
    ("with an fsync after every 16 writes there are far fewer flushes (under half of fio-rand's, every arm)",
     lambda by: all(by[("fio-rand-fsync16", a)]["flushes"] < by[("fio-rand", a)]["flushes"] / 2 for a in ARMS)),
    ("with an fsync after every 16 writes separation under greedy lowers WAF and raises IOPS, and under "
     "cost-benefit raises WAF",
     lambda by: down(sep(by, "fio-rand-fsync16", "greedy", "waf")) and up(sep(by, "fio-rand-fsync16", "greedy", "iops"))
     and up(sep(by, "fio-rand-fsync16", "cost-benefit", "waf"))),
    ("with a 64 MiB journal varmail's cost-benefit gain (WAF lower) becomes a loss (WAF higher)",
     lambda by: down(sep(by, "varmail", "cost-benefit", "waf")) and up(sep(by, "varmail-j64", "cost-benefit", "waf"))),
    ("no combination comes near the seed's WAF −33 % with I/O +46 %: none has WAF at most −16.5 % with IOPS at "
     "least +23 % (half the seed's)",
     lambda by: not any(sep(by, w, g, "waf") <= -0.165 and sep(by, w, g, "iops") >= 0.23
                        for w in WORKLOADS for g in GC if (w, "separated/" + g) in by and (w, "mixed/" + g) in by)),
    ("the padded LBAs more than double with separation on fio (fio-rand, fio-seq, both GC policies)",
     lambda by: all(beyond(sep(by, w, g, "pad_lbas"), 1) for w in ("fio-rand", "fio-seq") for g in GC)),
    ("the flash WAF is higher with separation on fio (fio-rand, fio-seq, both GC policies)",
     lambda by: all(up(sep(by, w, g, "flash_waf")) for w in ("fio-rand", "fio-seq") for g in GC)),
    ("under greedy GC the separated arm collects more victims per host write and moves more valid LBAs per victim "
     "on fio-seq and varmail",
     lambda by: all(up(sep(by, w, "greedy", victims_per_write)) and up(sep(by, w, "greedy", "victim_valid"))
                    for w in ("fio-seq", "varmail"))),
    ("under greedy GC on fio-rand the separated arm moves fewer valid LBAs per victim but pads more",
     lambda by: down(sep(by, "fio-rand", "greedy", "victim_valid")) and up(sep(by, "fio-rand", "greedy", "pad_lbas"))),
    ("in the mixed arms the journal is 70..80 % of the writes on the fsync-heavy workloads",
     lambda by: all(0.70 <= r["journal_share"] <= 0.80 for w in FSYNC_HEAVY for g in GC
                    for r in every_run(by, w, "mixed/" + g))),
    ("on the real trace (journal_ext4_real.md, closed loop, greedy) device separation costs what the model's did: "
     "WAF higher, IOPS lower (the model: fio-rand, varmail)",
     lambda by: all(up(change(by, k, "device separated", "device mixed", "waf")) and
                    down(change(by, k, "device separated", "device mixed", "iops"))
                    for k in (REAL, "model fio-rand", "model varmail"))),
    ("on the real trace the host FTL's separated arm lowers WAF against pblk, by less than the model's did on "
     "fio-rand and varmail",
     lambda by: all(change(by, k, "host separated", "host mixed (pblk)", "waf") <
                    change(by, REAL, "host separated", "host mixed (pblk)", "waf")
                    for k in ("model fio-rand", "model varmail"))
     and down(change(by, REAL, "host separated", "host mixed (pblk)", "waf"))),
    ("on the real trace the journal on its own write point adds GC work (GC moves) on top of what giving GC its own "
     "write point saves (WAF against pblk)",
     lambda by: up(change(by, REAL, "host separated", "host mixed (GC on its own)", "gc_moves")) and
     down(change(by, REAL, "host mixed (GC on its own)", "host mixed (pblk)", "waf"))),
]


def false_claims(by):
    """The claims of CLAIMS that the rows contradict, and those skipped (their rows absent, or a zero to divide by)."""
    false, unchecked = claims.check(CLAIMS, by)
    return false, [text for text, _ in unchecked]


def keep_data(rows, figs, render, binary, cmd, t0):
    """The page's data in figs/: results.csv (unless rendering from that very file) and, after runs (not render),
    provenance.json (the commit and binary that made them); returns the provenance record (None if absent)."""
    sys.path.insert(0, os.path.join(ROOT, "explore"))
    from ssdvp_explore import provenance as prov_mod  # standard library only
    if render:
        prov = prov_mod.read(os.path.dirname(os.path.abspath(render)))
    else:
        prov = prov_mod.collect(binary, cmd, ROOT, skip=["docs/results/"], wall_s=time.monotonic() - t0)
        prov_mod.write(prov, figs)
    if not render or os.path.abspath(render) != os.path.abspath(os.path.join(figs, "results.csv")):
        with open(os.path.join(figs, "results.csv"), "w", newline="") as f:
            w = csv.DictWriter(f, fieldnames=list(rows[0].keys()))
            w.writeheader()
            w.writerows(rows)
    return prov


def page(rows, cmd, quick):
    by = points(rows)
    s = seeds(by)
    n = len(s)
    L = []
    A = L.append
    A("# Journal/data separation: an ext4-like journal on its own write point")
    A("")
    wall = sum(float(r.get("wall_s") or 0) for r in rows)
    A("Regenerate (" + (f"{len(rows)} runs, {wall:,.0f} s of wall time summed as results.csv records them"
                        if wall else "the runs' wall time is not recorded in results.csv")
      + "; `--quick` for 15 s runs):")
    A("")
    A("```sh")
    A(cmd)
    A("```")
    A("")
    A("Configuration: `configs/journal.yaml` (1 GiB of flash, 896 MiB exported, 4 channels × 2 dies, greedy GC, "
      "filled once), `host.time_limit` " + ("15 s (quick)" if quick else TIME_LIMIT) + " of simulated time, closed "
      "loop at queue depth 32. The host is the file-level host with the ext4-like journal "
      "([docs/models/host_journal.md](../models/host_journal.md)): ordered mode, ext4's default journal for the "
      "volume (16 MiB), commit every 5 s and at each fsync."
      " These runs set `ftl.write.at_floor: pass` (the script does), the default before it became `room`: the figures ran under it.")
    A("")
    if n > 1:
        A(f"Each point is run {n} times, with `host.files.seed` {span(s)} "
          "(the file-level workload's random choices). The tables show each point's mean over its seeds (reads "
          "checked and mismatches: their sum), and a change of separated against mixed as the mean of the "
          "per-seed changes (the same seed in both arms) ± the half-width of its 95 % interval (Student t over "
          "the seeds, paired by seed; explore/ssdvp_explore/stats.py). The figures show the means.")
    else:
        A("Each point is one run (`host.files.seed` 1), without an interval: the tables' changes are that run's.")
    A("")
    A("| workload | what it does |")
    A("|---|---|")
    A("| fio-rand | fio personality, 4 files filling 70 % of the namespace, 4 KiB random overwrites, fsync after each "
      "(`host.files.fio.fsync: 1`) |")
    A("| fio-seq | the same with sequential overwrites (`host.files.fio.rw: write`) |")
    A("| fileserver | Filebench fileserver, 4000 files of mean 128 KiB (Filebench's 10000 do not fit the drive) |")
    A("| varmail | Filebench varmail, 20000 files of mean 16 KiB, two fsyncs per loop |")
    A("| fio-rand-fsync16 | fio-rand with an fsync after every 16 writes (fewer flushes, so less padding) |")
    A("| varmail-j64 | varmail with a 64 MiB journal instead of ext4's 16 MiB default (`host.files.journal_size`) |")
    A("")
    A("Arms (all on the device FTL; the host-FTL arms are on their own pages, see below): **mixed**: journal writes "
      "untagged, every host write on one write point (the device FTL's placement by stream with no stream IDs); "
      "**separated**: journal writes carry NVMe stream 1 (Streams directive) and go to their own frontier, data "
      "and home metadata stay on the other. Relocated data has its own frontier in both. Each under greedy GC "
      "(the config's) and cost-benefit GC (`ftl.gc.policy: cost_benefit`).")
    A("")
    A("## Results")
    A("")
    A("| workload | arm | WAF | flash WAF | erases | padded LBAs | flushes | valid LBAs per victim | MB/s | IOPS | "
      "fsync p50 (us) | fsync p99 (us) | journal share of writes | reads checked | mismatches |")
    A("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    for (wl, arm), r in by.items():
        fs50 = f"{r['fsync_p50_us']:.0f}" if r["fsyncs"] else "no fsync"
        fs99 = f"{r['fsync_p99_us']:.0f}" if r["fsyncs"] else "no fsync"
        runs = r.runs.values()
        A(f"| {wl} | {arm} | {r['waf']:.3f} | {r['flash_waf']:.3f} | {r['erases']:.0f} | {r['pad_lbas']:.0f} | "
          f"{r['flushes']:.0f} | {r['victim_valid']:.1f} | {r['mbps']:.2f} | {r['iops']:.0f} | {fs50} | {fs99} | "
          f"{100*r['journal_share']:.1f} % | {sum(x['reads_checked'] for x in runs)} | "
          f"{sum(x['mismatches'] for x in runs)} |")
    A("")
    A("WAF is the platform's (host + GC writes) / host writes; **flash WAF** adds the slots the firmware pads "
      "when a flush finds a partly filled page (`ftl.pad_slots`): (host + GC + pad) / host. A victim holds 128 "
      "LBAs (64 pages of 8 KiB).")
    A("")
    A("Separated against mixed" + (f", per seed, mean ± 95 % interval over the {n} seeds" if n > 1 else "")
      + " (the seed's claim: WAF −33 % or more, I/O performance +46..50 %):")
    A("")
    A("| workload | GC policy | WAF | flash WAF | erases | IOPS | MB/s | fsync p99 |")
    A("|---|---|---|---|---|---|---|---|")
    for wl in WORKLOADS:
        for gc in ("greedy", "cost-benefit"):
            m, s = by.get((wl, "mixed/" + gc)), by.get((wl, "separated/" + gc))
            if not m or not s:
                continue

            def cell(f):
                try:
                    return fmt_change(sep(by, wl, gc, f))
                except (KeyError, ZeroDivisionError):
                    return "n/a"
            f99 = cell("fsync_p99_us") if m["fsyncs"] else "no fsync"
            A(f"| {wl} | {gc} | {cell('waf')} | {cell('flash_waf')} | {cell('erases')} | {cell('iops')} | "
              f"{cell('mbps')} | {f99} |")
    A("")
    A("![WAF](journal/waf.svg)")
    A("")
    A("![flash WAF](journal/flash_waf.svg)")
    A("")
    A("![IOPS](journal/iops.svg)")
    A("")
    A("![fsync p99](journal/fsync_p99.svg)")
    A("")
    A("Table as CSV: [journal/results.csv](journal/results.csv).")
    A("")
    return L


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--bin", default=os.path.join(ROOT, "build/platform/ssdvp"))
    ap.add_argument("--out", default=os.path.join(ROOT, "out/journal"))
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--seeds", type=int, default=SEEDS,
                    help=f"runs per point, host.files.seed 1..N (default {SEEDS})")
    ap.add_argument("--reuse", action="store_true", help="take the summaries already in --out (page text only)")
    ap.add_argument("--page", default=os.path.join(ROOT, "docs/results/journal.md"))
    ap.add_argument("--notes", default=os.path.join(ROOT, "scripts/journal_findings.md"),
                    help="hand-written discussion appended to the page")
    ap.add_argument("--render", metavar="RESULTS_CSV",
                    help="run nothing: render the page (and its figures) from this results.csv, the committed one "
                         "being docs/results/journal/results.csv")
    a = ap.parse_args()
    figs = os.path.join(os.path.dirname(a.page), "journal")
    os.makedirs(figs, exist_ok=True)
    sys.path.insert(0, os.path.join(ROOT, "explore"))
    from ssdvp_explore import provenance as prov_mod  # standard library only
    t0 = time.monotonic()
    if a.render:
        rows = read_rows(a.render)
    else:
        if a.seeds < 1:
            sys.exit("--seeds: at least 1")
        rows = [run(a.bin, a.out, wl, arm, a.quick, a.reuse, seed) for wl in WORKLOADS for arm in ARMS
                for seed in range(1, a.seeds + 1)]
    by = points(rows)
    n = len(seeds(by))
    cmd = ("python3 scripts/journal_experiment.py" + (f" --seeds {n}" if n != SEEDS else "")
           + (" --quick" if a.quick else ""))
    prov = keep_data(rows, figs, a.render, a.bin, cmd, t0)
    groups, series = list(WORKLOADS), list(ARMS)
    of = f" (mean of {n} seeds)" if n > 1 else ""
    for key, name, title, unit in (("waf", "waf", "Write amplification", "WAF"),
                                   ("flash_waf", "flash_waf", "Flash writes per host write (with padding)", "flash WAF"),
                                   ("iops", "iops", "Throughput", "IOPS"),
                                   ("fsync_p99_us", "fsync_p99", "fsync latency p99", "us")):
        svg_bars(os.path.join(figs, f"{name}.svg"), title + of, groups, series,
                 {k: p[key] for k, p in by.items()}, unit)
    L = page(rows, cmd, a.quick)
    by = keyed(rows)
    if os.path.exists(a.notes):
        with open(a.notes) as f:
            L.append(fill_findings(f.read(), by).rstrip("\n"))
    L += ["", prov_mod.section(prov, cmd if not prov else None).rstrip("\n")]
    with open(a.page, "w") as f:
        f.write("\n".join(L) + "\n")
    bad = [r for r in rows if r["mismatches"]]
    if bad:
        sys.exit(f"integrity mismatches in {len(bad)} runs")
    false, skipped = false_claims(by)
    for c in skipped:
        print(f"claim not checked (its rows are absent or zero): {c}", file=sys.stderr)
    if false:
        msg = (f"{a.page}: the data no longer bears out these claims of {os.path.relpath(a.notes, ROOT)}; rewrite "
               "it (and CLAIMS in scripts/journal_experiment.py):\n" + "\n".join(f"  - {c}" for c in false))
        if a.quick:  # a smoke run's short runs are not what the findings describe
            print("warning: " + msg, file=sys.stderr)
        else:
            sys.exit(msg)


if __name__ == "__main__":
    main()
