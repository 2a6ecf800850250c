#!/usr/bin/env python3
"""The journal/data separation experiment's four combinations, functional:
regenerates docs/results/journal_host_ftl/ (results.csv, one row per run with
its wall time, and provenance.json) and docs/results/journal_host_ftl.md.

Runs build/testbench/firmware/host_ftl_journal (the file-level host's
ext4-like journal on configs/journal.yaml; docs/models/host_ftl.md) for each
workload and arm: the device FTL (the firmware in the NVM personality) with
the journal untagged or on its own stream, and the host FTL (the same
firmware sources on the host over the open-channel personality) with pblk's
single write point or the journal on its own write point. No simulated time:
WAF, GC moves, erases, integrity and the host FTL's CPU time by its cost table.

Each point is --seeds runs (default 3) with host.files.seed 1..N (the workload's random choices; the drive is
filled sequentially); the page shows each point's mean with its 95 % interval and each change against the mixed
arm paired by seed.

    python3 scripts/journal_host_ftl.py [--tool build/testbench/firmware/host_ftl_journal] [--drive-writes 2]
                                        [--seeds 3] [--jobs 1]
    python3 scripts/journal_host_ftl.py --render DATA_DIR --page OUT_MD     runs nothing: the page from data
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
from journal_experiment import WORKLOADS, change, fmt_change, points, read_rows, seeds, span  # noqa: E402
from provenance import provenance_section  # noqa: E402
from streams_experiment import svg_bars  # noqa: E402
sys.path.insert(0, os.path.join(ROOT, "explore"))
from ssdvp_explore import provenance as prov_mod  # noqa: E402  (standard library only)
from ssdvp_explore.stats import fmt_ci, mean_ci  # noqa: E402

COMMAND = "python3 scripts/journal_host_ftl.py"
COLUMNS = ["workload", "arm", "seed", "drive_writes", "waf", "host_lbas", "gc_lbas", "pad_lbas", "journal_lbas", "erases",
           "reads_checked", "mismatches", "host_cpu_us_per_io", "wall_s"]

# name: (FTL, journal on its own write point, extra settings)
ARMS = {
    "device mixed": ("device", 0, {}),
    "device separated": ("device", 1, {}),
    "host mixed (pblk: one write point)": ("host", 0, {"ftl.placement.policy": "single"}),
    "host mixed (GC on its own)": ("host", 0, {}),
    "host separated": ("host", 1, {}),
}


def run(tool, wl, arm, drive_writes, seed):
    ftl, sep, extra = ARMS[arm]
    sets = dict(WORKLOADS[wl])
    sets.update(extra)
    sets["host.files.seed"] = seed
    sets["ftl.write.at_floor"] = "pass"  # every run under pass (the default is room)
    cmd = [tool, "-c", os.path.join(ROOT, "configs/journal.yaml"), "--arm", ftl, "--separate", str(sep),
           "--drive-writes", str(drive_writes)]
    for k, v in sets.items():
        cmd += ["--set", f"{k}={v}"]
    t0 = time.monotonic()
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode != 0:
        sys.exit(f"journal_host_ftl: {' '.join(cmd)} failed ({p.returncode}): {p.stderr.strip()}")
    r = json.loads(p.stdout)
    row = {k: r.get(k) for k in COLUMNS}
    row.update({"workload": wl, "arm": arm, "seed": seed, "ftl": r["arm"], "drive_writes": drive_writes,
                "wall_s": round(time.monotonic() - t0, 1)})
    print(f"{wl:18s} {arm:36s} seed {seed} WAF {row['waf']:.3f} erases {row['erases']} mismatches "
          f"{row['mismatches']} ({row['wall_s']} s)", file=sys.stderr, flush=True)
    return row


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tool", default=os.path.join(ROOT, "build/testbench/firmware/host_ftl_journal"))
    ap.add_argument("--bin", default=os.path.join(ROOT, "build/platform/ssdvp"), help="for the provenance")
    ap.add_argument("--drive-writes", type=float, default=2.0)
    ap.add_argument("--seeds", type=int, default=3, help="runs per point: host.files.seed 1..N (default 3)")
    ap.add_argument("--jobs", type=int, default=1, help="runs at a time (default 1)")
    ap.add_argument("--page", "--doc", dest="doc", default=os.path.join(ROOT, "docs/results/journal_host_ftl.md"))
    ap.add_argument("--render", metavar="DATA_DIR",
                    help="run nothing: render the page from this folder's results.csv and provenance.json "
                         "(docs/results/journal_host_ftl is the committed one)")
    args = ap.parse_args()
    fig_dir = os.path.join(os.path.dirname(os.path.abspath(args.doc)), "journal_host_ftl")
    os.makedirs(fig_dir, exist_ok=True)
    if args.render:
        data = args.render
    else:
        data = os.path.join(ROOT, "docs/results/journal_host_ftl")
        if args.seeds < 1 or args.jobs < 1:
            sys.exit("--seeds and --jobs: expected 1 or more")
        cmd = COMMAND + (f" --drive-writes {args.drive_writes:g}" if args.drive_writes != 2.0 else "") + \
            (f" --seeds {args.seeds}" if args.seeds != 3 else "") + (f" --jobs {args.jobs}" if args.jobs != 1 else "")
        t0 = time.monotonic()
        todo = [(wl, arm, k) for k in range(1, args.seeds + 1) for wl in WORKLOADS for arm in ARMS]
        from concurrent.futures import ThreadPoolExecutor  # each run is a process: the threads only wait
        with ThreadPoolExecutor(args.jobs) as ex:
            rows = list(ex.map(lambda t: run(args.tool, t[0], t[1], args.drive_writes, t[2]), todo))
        os.makedirs(data, exist_ok=True)
        with open(os.path.join(data, "results.csv"), "w", newline="") as f:
            w = csv.DictWriter(f, fieldnames=list(rows[0].keys()), lineterminator="\n")
            w.writeheader()
            w.writerows(rows)
        provenance_section(args.bin, cmd, data_dir=data, wall_s=time.monotonic() - t0)
    rows = read_rows(os.path.join(data, "results.csv"))
    prov = prov_mod.read(data)
    res = points(rows)  # (workload, arm) -> the mean over its runs, .runs {seed: row}
    sd = seeds(res)
    drive_writes = rows[0]["drive_writes"]
    cmd = (prov or {}).get("command") or COMMAND + (f" --drive-writes {drive_writes:g}" if drive_writes != 2.0 else "")

    def ci(r, f, spec=".3f"):  # a point's field: mean ± the half-width of its 95 % interval over the seeds
        return fmt_ci([(f(x) if callable(f) else x[f]) for x in r.runs.values()], spec)

    def flash_waf(x):
        return (x["host_lbas"] + x["gc_lbas"] + x["pad_lbas"]) / x["host_lbas"] if x["host_lbas"] else 0

    def share(x):
        return 100.0 * x["journal_lbas"] / x["host_lbas"] if x["host_lbas"] else 0

    svg_bars(os.path.join(fig_dir, "waf.svg"), "WAF after the fill, by workload and arm", list(WORKLOADS),
             list(ARMS), {k: v["waf"] for k, v in res.items()}, "",
             {k: mean_ci([x["waf"] for x in v.runs.values()])[1] for k, v in res.items()})
    wall = sum(r["wall_s"] for r in rows)
    load = prov.get("load") if prov else None
    cost = (f"{len(rows)} runs: {wall:,.0f} s of wall time summed over the runs as results.csv records it"
            + (f", load average {load[0]:g} / {load[1]:g} / {load[2]:g} on {prov.get('cpus')} CPUs" if load else ""))
    one = len(sd) < 2
    L = ["# Journal/data separation: device FTL and host FTL (functional)", "",
         "The four combinations of where the FTL runs (device or host) and where the journal goes (mixed with "
         "the data or on its own write point), on one request stream per workload: the file-level host's "
         "ext4-like journal (ordered mode, ext4's default journal size, commit every 5 s and on fsync; "
         "[host_journal.md](../models/host_journal.md)) on `configs/journal.yaml`'s drive (1 GiB of flash, "
         "896 MiB exported, filled once), then "
         f"{drive_writes:g} drive-writes of the workload. The workloads are those of "
         "[journal.md](journal.md) (`scripts/journal_experiment.py`'s `WORKLOADS`).", "",
         f"Regenerate ({cost}; `build/testbench/firmware/host_ftl_journal` is built with the tests):", "",
         "```sh", "bash scripts/build.sh && " + cmd, "```", "",
         "Render again from the committed data: `python3 scripts/journal_host_ftl.py --render "
         "docs/results/journal_host_ftl --page docs/results/journal_host_ftl.md`. Data: "
         "[journal_host_ftl/results.csv](journal_host_ftl/results.csv) (one row per run).", "",
         ("Each row is one run with one seed: single runs, without intervals." if one else
          f"Each row is {len(sd)} runs, `host.files.seed` {span(sd)} (the workload's random choices; the drive is "
          "filled sequentially, so its history is the same): the mean over them ± the half-width of its 95 % t "
          "interval; a change against the mixed arm is the mean of the per-seed changes (paired by seed) with "
          "its interval. GC moves, padded LBAs, erases and reads checked are means; mismatches are summed over "
          "the runs."), "",
         "- **device FTL**: the firmware in the NVM personality; journal writes untagged (*mixed*: one host "
         "write point) or on NVMe stream 1 (*separated*: their own frontier); relocated data has its own "
         "frontier in both (`ftl.placement.policy: stream`).",
         "- **host FTL**: the same firmware sources on the host over the drive in the open-channel "
         "personality ([host_ftl.md](../models/host_ftl.md), [ocssd.md](../models/ocssd.md)): every flash "
         "operation is an Open-Channel vector command. *mixed (pblk)*: one write point for host and "
         "relocated data (`single`), pblk's baseline as the seed used it; *mixed (GC on its own)*: the "
         "device FTL's mixed arm on the host; *separated*: the journal on its own write point (its own open "
         "chunk per parallel unit), as the seed did in pblk.", "",
         "**Functional, not timed**: both FTLs run to completion per request (no simulated time), so this "
         "page has WAF, GC moves, erases, integrity and the host FTL's CPU time by its cost table, and no "
         "throughput or fsync latency; those are the timed device arms' ([journal.md](journal.md)). The "
         "journal's 5 s commit timer runs on a clock that advances 100 us per request.", "",
         "Every run sets `ftl.write.at_floor: pass` (the script does; the default is `room`).", "",
         "WAF is (host + GC writes) / host writes; flash WAF adds the slots padded by flushes "
         "(host + GC + pad) / host. *vs its mixed*: device rows against *device mixed*, host rows against "
         "*host mixed (pblk)*.", "",
         "| workload | arm | WAF | vs its mixed | flash WAF | GC moves (LBAs) | padded (LBAs) | erases | "
         "journal share of writes | reads checked | mismatches | host CPU per I/O (us) |",
         "|---|---|---|---|---|---|---|---|---|---|---|---|"]
    pb = "host mixed (pblk: one write point)"
    for wl in WORKLOADS:
        for arm in ARMS:
            r = res[(wl, arm)]
            base = "device mixed" if arm.startswith("device") else pb
            cpu = ci(r, "host_cpu_us_per_io") if r["ftl"] == "host" else "-"
            L.append(f"| {wl} | {arm} | {ci(r, 'waf')} | "
                     f"{fmt_change(change(res, wl, arm, base, 'waf')) if arm != base else '-'} | "
                     f"{ci(r, flash_waf)} | {ci(r, 'gc_lbas', ',.0f')} | {ci(r, 'pad_lbas', ',.0f')} | "
                     f"{ci(r, 'erases', ',.0f')} | {ci(r, share, '.1f')} % | {ci(r, 'reads_checked', ',.0f')} | "
                     f"{sum(x['mismatches'] for x in r.runs.values())} | {cpu} |")
    L += ["", "![WAF by workload and arm](journal_host_ftl/waf.svg)", "",
          "One bar: the mean over the seeds" + ("" if one else ", with its 95 % interval") + ".", ""]

    def d(wl, arm, base):
        return fmt_change(change(res, wl, arm, base, "waf"))

    runs = [x for p in res.values() for x in p.runs.values()]
    same = all(res[(w, f"host {a}")].runs[k][f] == res[(w, f"device {a}")].runs[k][f] for w in WORKLOADS
               for a in ("separated",) for k in res[(w, "device mixed")].runs
               for f in ("waf", "gc_lbas", "pad_lbas", "erases")) and all(
        res[(w, "host mixed (GC on its own)")].runs[k][f] == res[(w, "device mixed")].runs[k][f] for w in WORKLOADS
        for k in res[(w, "device mixed")].runs for f in ("waf", "gc_lbas", "pad_lbas", "erases"))
    heavy = ["fio-rand", "fio-seq", "varmail", "varmail-j64"]
    shares = [share(res[(w, "device mixed")]) for w in heavy]
    padx = res[("fio-rand", "device separated")]["pad_lbas"] / max(res[("fio-rand", "device mixed")]["pad_lbas"], 1)
    cpus = [r["host_cpu_us_per_io"] for r in runs if r["ftl"] == "host"]
    L += ["## What it shows", "",
          "These sentences quote the table above (the script fills the figures in; the reading is by hand).", "",
          ("- **The host FTL makes the device FTL's decisions.** With the same placement, the host FTL's rows "
           "(*mixed (GC on its own)*, *separated*) equal the device FTL's to the LBA on every workload: the same "
           "firmware code decides, whether its flash operations reach the NAND through the controller's flash "
           "rings or as Open-Channel commands from the host." if same else
           "- **The host FTL and the device FTL differ** on some workload with the same placement (the table): "
           "the same firmware code decides, so a difference is a finding to trace.")
          + " Where host and device FTLs differ in a real system "
          "(pblk's write buffer, the host CPU, the block layer, the PCIe round trip per vector command) is "
          "time, which this page does not have.",
          f"- **Against the seed's baseline**, pblk's single write point for host and relocated data, the "
          f"journal on its own write point changes WAF by {d('fio-rand', 'host separated', pb)} on fio-rand and "
          f"{d('varmail', 'host separated', pb)} on varmail, {d('fio-rand-fsync16', 'host separated', pb)} with an "
          f"fsync every 16 writes, {d('fio-seq', 'host separated', pb)} on fio-seq, "
          f"{d('fileserver', 'host separated', pb)} on fileserver and {d('varmail-j64', 'host separated', pb)} on "
          "varmail with a 64 MiB journal. That is the seed's comparison (its WAF -33 %).",
          f"- **But the journal is not what lowers it.** The mixed arm with relocated data on a write point of "
          f"its own is lower still ({d('fio-rand', 'host mixed (GC on its own)', pb)} on fio-rand, "
          f"{d('varmail', 'host mixed (GC on its own)', pb)} on varmail): separating GC's writes from the host's "
          f"does the work, and separating the journal on top of that changes WAF by "
          f"{d('fio-rand', 'device separated', 'device mixed')} on fio-rand, "
          f"{d('fio-seq', 'device separated', 'device mixed')} on fio-seq, "
          f"{d('varmail', 'device separated', 'device mixed')} on varmail and "
          f"{d('fio-rand-fsync16', 'device separated', 'device mixed')} with fewer fsyncs (fio-rand-fsync16). So "
          "the seed's WAF -33 % from journal separation is not reproduced: what reproduces most of it is the "
          "baseline's lack of a GC write point, which our firmware has in every arm but pblk-like *single*.",
          f"- **Why separation costs here**: every fsync flushes, and a flush pads the partly filled page of each "
          f"open write point; with two write points there are two partial pages (the *padded* column: "
          f"{padx:.1f} times the mixed arm's on fio-rand). Journal pages die within a fraction of a second in both "
          f"arms (the journal is {min(shares):.0f}..{max(shares):.0f} % of the writes on the fsync-heavy workloads, "
          "ext4's default 16 MiB journal on this 896 MiB volume), so separation saves little GC work and the "
          "padding outweighs it; with an fsync every 16 writes there are far fewer flushes. The timed device arms "
          "of [journal.md](journal.md) measure the same arms under greedy and cost-benefit GC.",
          "- **I/O performance** (+46..50 % in the seed) cannot be checked on this page: no time; the same arms "
          "in simulated time, with throughput and fsync latency, are in "
          "[journal_host_ftl_timed.md](journal_host_ftl_timed.md). The host FTL's "
          f"CPU time by its assumed cost table is {min(cpus):.2f}..{max(cpus):.2f} us per I/O (map updates, GC "
          "moves, allocation; not the block layer), small next to a flash program.",
          ("- Each row is one run with one seed" if one else f"- Each row is {len(sd)} runs (seeds {span(sd)})")
          + ", on a full drive (filled once, no TRIM during the run); a sweep over fill level and commit interval "
          "is not done (the journal size: varmail-j64).", ""]
    L.append(prov_mod.section(prov, cmd))
    L.append("Each row is one run of `build/testbench/firmware/host_ftl_journal` (built with the tests, "
             "`-DSSDVP_TESTS=ON`; its options are in the header of `testbench/firmware/host_ftl_journal.cpp`), "
             "under the same commit as the ssdvp above.\n")
    with open(args.doc, "w") as fh:
        fh.write("\n".join(L))
    print(f"wrote {args.doc}", file=sys.stderr)


if __name__ == "__main__":
    main()
