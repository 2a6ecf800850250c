#!/usr/bin/env python3
"""The journal/data separation experiment: regenerates docs/results/journal.md.

Runs build/platform/ssdvp on configs/journal.yaml (an ext4-like journal in
ordered mode over the file-level host, docs/models/host_journal.md) for each
workload (fio random and sequential 4 KiB writes with fsync after each,
Filebench fileserver and varmail) and each device-FTL arm (journal writes
untagged: one write point; tagged with NVMe stream 1: their own frontier),
then writes the results page, a CSV table and SVG bar charts (standard
library only; one run at a time).

    python3 scripts/journal_experiment.py [--bin build/platform/ssdvp] [--out out/journal] [--quick] [--reuse]
"""
import argparse
import csv
import json
import os
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
    if os.path.exists(a.notes):
        with open(a.notes) as f:
            L.append(f.read().rstrip("\n"))
    L += ["", prov_mod.section(prov, cmd if not prov else None).rstrip("\n")]
    with open(a.page, "w") as f:
        f.write("\n".join(L) + "\n")
    bad = [r for r in rows if r["mismatches"]]
    if bad:
        sys.exit(f"integrity mismatches in {len(bad)} runs")


if __name__ == "__main__":
    main()
