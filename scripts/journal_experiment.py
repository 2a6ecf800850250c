#!/usr/bin/env python3
"""The journal/data separation experiment: regenerates docs/results/journal.md.

Runs build/platform/ssdvp on configs/journal.yaml (an ext4-like journal in
ordered mode over the file-level host, docs/models/host_journal.md) for each
workload (fio random and sequential 4 KiB writes with fsync after each,
Filebench fileserver and varmail) and each device-FTL arm (journal writes
untagged: one write point; tagged with NVMe stream 1: their own frontier),
then writes the results page, a CSV table and SVG bar charts (standard
library only; one run at a time). The hand-written findings appended to the page
(scripts/journal_findings.md) get their figures from the rows (fill_findings),
and the page fails to render when the rows contradict one of its CLAIMS.

    python3 scripts/journal_experiment.py [--bin build/platform/ssdvp] [--out out/journal] [--quick] [--reuse]
    python3 scripts/journal_experiment.py --render docs/results/journal/results.csv [--page OUT]
"""
import argparse
import csv
import json
import os
import re
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "scripts"))
from streams_experiment import pct, svg_bars  # noqa: E402  (shared SVG bars and percent change)

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


def run(binary, out, wl, arm, quick, reuse=False):
    d = os.path.join(out, f"{wl}_{arm.replace('/', '_')}")
    sets = dict(WORKLOADS[wl])
    sets.update(ARMS[arm])
    sets["host.time_limit"] = "15s" if quick else TIME_LIMIT
    sets["ftl.write.at_floor"] = "pass"  # the pages' figures ran under pass, the default before room
    t0 = time.time()
    s = run_summary(binary, "configs/journal.yaml", d, sets, f"{wl}/{arm}", reuse)
    h, jn = s["host"], s["journal"]
    host_bytes = s["ftl"]["host_lba_writes"] * 4096
    ftl = s["ftl"]
    host_lbas = ftl["host_lba_writes"]
    # pad_slots is the firmware's lifetime count; preconditioning sends no flush, so it is the timed part's
    r = {"workload": wl, "arm": arm, "waf": ftl["waf"], "erases": ftl["erases"],
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
    print(f"{wl:10s} {arm:22s} WAF {r['waf']:.3f} flash WAF {r['flash_waf']:.3f} erases {r['erases']:6d} {r['mbps']:7.2f} MB/s {r['iops']:8.0f} IOPS "
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


def keyed(rows, ext4_real=EXT4_REAL):
    """The rows by (workload, arm), with journal_ext4_real.md's replays as ("ext4-real MODE", arm) and the model's
    figures it compares with as ("model WORKLOAD", arm) when its data is there."""
    by = {(r["workload"], r["arm"]): r for r in rows}
    for name, key, prefix in (("results.csv", "mode", "ext4-real "), ("model.csv", "workload", "model ")):
        path = os.path.join(ext4_real, name)
        if os.path.exists(path):
            by.update({(prefix + r[key], r["arm"]): r for r in read_rows(path)})
    return by


def pair(by, wl, arm, other, field):
    """A workload's field in ARM and in OTHER; OTHER without a GC policy ("mixed") takes ARM's."""
    if "/" in arm and "/" not in other:
        other += arm[arm.index("/"):]
    return by[(wl, arm)][field], by[(wl, other)][field]


def change(by, *sel):
    """ARM's relative change against OTHER (pair()'s arguments)."""
    a, b = pair(by, *sel)
    return a / b - 1


def fill_findings(text, by):
    """The findings with their figures filled in from the rows `by` (keyed()); an HTML comment is dropped.

    {WL|ARM|FIELD|SPEC}         a row's field by a format spec; a spec ending in % prints x100 and " %" ("0.2 %")
    {pct:WL|ARM|OTHER|FIELD}    ARM's change against OTHER ("mixed" for the mixed arm of ARM's GC policy), signed,
                                whole percent, Unicode minus: "+2 %", "−15 %"; pct.1: one decimal ("−14.5 %")
    {abs:...}, {abs.1:...}      its magnitude, where the sentence says the direction in words: "11 %"
    {range:SEL;SEL...}          several changes, the one nearest zero first (the lowest if their signs differ):
                                "−12..−27 %", once if both ends round equal; range.1: one decimal;
                                SEL is WL,WL...|ARM,ARM...|OTHER|FIELD, every WL with every ARM
    {table:WL|ARM|OTHER|FIELD}  a change as the results tables print it ("-4.6 %"), for figures quoted from them
    WL "ext4-real MODE" and "model WL" are journal_ext4_real.md's rows (see keyed()). A figure whose row is absent
    reads "(not in the data)"."""
    def signed(c, digits):
        return f"{100 * c:+.{digits}f}".replace("-", "−")

    def one(m):
        kind, digits, sel = m.group(1) or "", int(m.group(2) or 0), m.group(3)
        p = sel.split("|")
        try:
            if kind == "range":
                c = [change(by, wl, arm, other, f) for s in sel.split(";") for wls, arms, other, f in [s.split("|")]
                     for wl in wls.split(",") for arm in arms.split(",")]
                c.sort(key=abs if min(c) >= 0 or max(c) <= 0 else None)
                lo, hi = signed(c[0], digits), signed(c[-1], digits)
                return f"{lo} %" if lo == hi else f"{lo}..{hi} %"
            if kind == "table" and len(p) == 4:
                return pct(*pair(by, *p))
            if kind and len(p) == 4:
                c = signed(change(by, *p), digits)
                return f"{c.lstrip('+−') if kind == 'abs' else c} %"
            if not kind and len(p) == 4:
                v = format(by[(p[0], p[1])][p[2]], p[3])
                return v[:-1] + " %" if p[3].endswith("%") else v
        except KeyError:
            return "(not in the data)"
        except ZeroDivisionError:
            return "n/a"
        raise ValueError(f"findings placeholder {m.group(0)}: see fill_findings() in scripts/journal_experiment.py")
    text = re.sub(r"<!--.*?-->\n?", "", text, flags=re.S)
    return re.sub(r"\{(?:(pct|abs|range|table)(?:\.(\d))?:)?([^{}]*)\}", one, text)


FSYNC_HEAVY = ("fio-rand", "fio-seq", "varmail")
GC = ("greedy", "cost-benefit")
NOISE = 0.02  # a change within 2 % is "nothing" (the fileserver claim); a claimed direction needs more


def sep(by, wl, gc, field):
    """Separation's change under a GC policy: separated/GC against mixed/GC."""
    return change(by, wl, "separated/" + gc, "mixed/" + gc, field)


def up(c):
    return c > NOISE


def down(c):
    return c < -NOISE


def victims_per_write(r):
    """GC victims per host write: (WAF - 1) / valid LBAs per victim."""
    return (r["waf"] - 1) / r["victim_valid"]


REAL = "ext4-real closed"
# What scripts/journal_findings.md says in words, checked against keyed() rows at render time: (claim, predicate).
# "Higher", "lower", "worse", "helps" mean a change beyond NOISE. A claim whose rows are absent is skipped.
CLAIMS = [
    ("under greedy GC separation makes WAF worse on every fsync-heavy workload (fio-rand, fio-seq, varmail)",
     lambda by: all(up(sep(by, w, "greedy", "waf")) for w in FSYNC_HEAVY)),
    ("under greedy GC separation lowers throughput (IOPS and MB/s) on every fsync-heavy workload",
     lambda by: all(down(sep(by, w, "greedy", f)) for w in FSYNC_HEAVY for f in ("iops", "mbps"))),
    ("under cost-benefit GC separation helps varmail: WAF and erases lower, though its fsync p99 grows",
     lambda by: down(sep(by, "varmail", "cost-benefit", "waf")) and down(sep(by, "varmail", "cost-benefit", "erases"))
     and up(sep(by, "varmail", "cost-benefit", "fsync_p99_us"))),
    ("under cost-benefit GC separation lowers fio-seq's WAF a little (by less than varmail's)",
     lambda by: sep(by, "varmail", "cost-benefit", "waf") < sep(by, "fio-seq", "cost-benefit", "waf") < -NOISE),
    ("under cost-benefit GC separation does not help fio-rand (its WAF rises)",
     lambda by: up(sep(by, "fio-rand", "cost-benefit", "waf"))),
    ("under cost-benefit GC throughput (IOPS and MB/s) is still lower with separation on every fsync-heavy workload",
     lambda by: all(down(sep(by, w, "cost-benefit", f)) for w in FSYNC_HEAVY for f in ("iops", "mbps"))),
    ("separation changes nothing on fileserver: WAF, flash WAF, erases, IOPS and MB/s within 2 % under both policies",
     lambda by: all(abs(sep(by, "fileserver", g, f)) <= NOISE for g in GC
                    for f in ("waf", "flash_waf", "erases", "iops", "mbps"))),
    ("fileserver never fsyncs and its journal is well under 1 % of the writes",
     lambda by: all(by[("fileserver", a)]["fsyncs"] == 0 and by[("fileserver", a)]["journal_share"] < 0.01
                    for a in ARMS)),
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
     lambda by: all(sep(by, w, g, "pad_lbas") > 1 for w in ("fio-rand", "fio-seq") for g in GC)),
    ("the flash WAF is higher with separation on fio (fio-rand, fio-seq, both GC policies)",
     lambda by: all(up(sep(by, w, g, "flash_waf")) for w in ("fio-rand", "fio-seq") for g in GC)),
    ("under greedy GC the separated arm collects more victims per host write and moves more valid LBAs per victim "
     "on fio-seq and varmail",
     lambda by: all(up(victims_per_write(by[(w, "separated/greedy")]) / victims_per_write(by[(w, "mixed/greedy")]) - 1)
                    and up(sep(by, w, "greedy", "victim_valid")) for w in ("fio-seq", "varmail"))),
    ("under greedy GC on fio-rand the separated arm moves fewer valid LBAs per victim but pads more",
     lambda by: down(sep(by, "fio-rand", "greedy", "victim_valid")) and up(sep(by, "fio-rand", "greedy", "pad_lbas"))),
    ("in the mixed arms the journal is 70..80 % of the writes on the fsync-heavy workloads",
     lambda by: all(0.70 <= by[(w, "mixed/" + g)]["journal_share"] <= 0.80 for w in FSYNC_HEAVY for g in GC)),
    ("on the real trace (journal_ext4_real.md, closed loop, greedy) device separation costs what the model's did: "
     "WAF higher, IOPS lower (the model: fio-rand, varmail)",
     lambda by: all(up(change(by, k, "device separated", "device mixed", "waf")) and
                    down(change(by, k, "device separated", "device mixed", "iops"))
                    for k in (REAL, "model fio-rand", "model varmail"))),
    ("on the real trace the host FTL's separated arm lowers WAF against pblk, by less than the model's did on "
     "fio-rand and varmail",
     lambda by: all(change(by, k, "host separated", "host mixed (pblk)", "waf") <
                    change(by, REAL, "host separated", "host mixed (pblk)", "waf") < -NOISE
                    for k in ("model fio-rand", "model varmail"))),
    ("on the real trace the journal on its own write point adds GC work (GC moves) on top of what giving GC its own "
     "write point saves (WAF against pblk)",
     lambda by: up(change(by, REAL, "host separated", "host mixed (GC on its own)", "gc_moves")) and
     down(change(by, REAL, "host mixed (GC on its own)", "host mixed (pblk)", "waf"))),
]


def false_claims(by):
    """The claims of CLAIMS that the rows contradict, and those skipped (their rows absent, or a zero to divide by)."""
    false, skipped = [], []
    for text, holds in CLAIMS:
        try:
            if not holds(by):
                false.append(text)
        except (KeyError, ZeroDivisionError):
            skipped.append(text)
    return false, skipped


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
    by = {(r["workload"], r["arm"]): r for r in rows}
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
    for r in rows:
        fs50 = f"{r['fsync_p50_us']:.0f}" if r["fsyncs"] else "no fsync"
        fs99 = f"{r['fsync_p99_us']:.0f}" if r["fsyncs"] else "no fsync"
        A(f"| {r['workload']} | {r['arm']} | {r['waf']:.3f} | {r['flash_waf']:.3f} | {r['erases']} | {r['pad_lbas']} | "
          f"{r['flushes']} | {r['victim_valid']:.1f} | {r['mbps']:.2f} | {r['iops']:.0f} | {fs50} | {fs99} | "
          f"{100*r['journal_share']:.1f} % | {r['reads_checked']} | {r['mismatches']} |")
    A("")
    A("WAF is the platform's (host + GC writes) / host writes; **flash WAF** adds the slots the firmware pads "
      "when a flush finds a partly filled page (`ftl.pad_slots`): (host + GC + pad) / host. A victim holds 128 "
      "LBAs (64 pages of 8 KiB).")
    A("")
    A("Separated against mixed (the seed's claim: WAF −33 % or more, I/O performance +46..50 %):")
    A("")
    A("| workload | GC policy | WAF | flash WAF | erases | IOPS | MB/s | fsync p99 |")
    A("|---|---|---|---|---|---|---|---|")
    for wl in WORKLOADS:
        for gc in ("greedy", "cost-benefit"):
            m, s = by.get((wl, "mixed/" + gc)), by.get((wl, "separated/" + gc))
            if not m or not s:
                continue
            f99 = pct(s['fsync_p99_us'], m['fsync_p99_us']) if m["fsyncs"] else "no fsync"
            A(f"| {wl} | {gc} | {pct(s['waf'], m['waf'])} | {pct(s['flash_waf'], m['flash_waf'])} | "
              f"{pct(s['erases'], m['erases'])} | {pct(s['iops'], m['iops'])} | {pct(s['mbps'], m['mbps'])} | {f99} |")
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
    cmd = "python3 scripts/journal_experiment.py" + (" --quick" if a.quick else "")
    sys.path.insert(0, os.path.join(ROOT, "explore"))
    from ssdvp_explore import provenance as prov_mod  # standard library only
    t0 = time.monotonic()
    if a.render:
        rows = read_rows(a.render)
    else:
        rows = [run(a.bin, a.out, wl, arm, a.quick, a.reuse) for wl in WORKLOADS for arm in ARMS]
    prov = keep_data(rows, figs, a.render, a.bin, cmd, t0)
    groups, series = list(WORKLOADS), list(ARMS)
    for key, name, title, unit in (("waf", "waf", "Write amplification", "WAF"),
                                   ("flash_waf", "flash_waf", "Flash writes per host write (with padding)", "flash WAF"),
                                   ("iops", "iops", "Throughput", "IOPS"),
                                   ("fsync_p99_us", "fsync_p99", "fsync latency p99", "us")):
        svg_bars(os.path.join(figs, f"{name}.svg"), title, groups, series,
                 {(r["workload"], r["arm"]): r[key] for r in rows}, unit)
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
