#!/usr/bin/env python3
"""The journal/data separation experiment's arms, timed: regenerates
docs/results/journal_host_ftl_timed.md and its data (journal_host_ftl_timed/).

Runs build/platform/ssdvp on configs/journal.yaml (the file-level host's
ext4-like journal) for four workloads, seven arms and three seeds: the device
FTL (NVM personality) with the journal untagged or on NVMe stream 1, and the
host FTL (nvme.command_set: open_channel, the firmware's FTL on the host over
Open-Channel vector commands; docs/models/host_ftl.md) with pblk's single
write point, the device FTL's mixed placement (GC on a write point of its
own), or the journal on its own write point, each with the pblk-like write
buffer (host.ftl.write_buffer), and pblk's baseline and the separated arm
once more without it. Same run function and measures as
scripts/journal_experiment.py (throughput, fsync latency, WAF), plus the host
FTL's CPU time and write-buffer counters; each point's mean with its 95 %
interval over the seeds, and a verdict per claim of the seed paper computed
from them.

    python3 scripts/journal_host_ftl_timed.py [--bin build/platform/ssdvp] [--out out/journal_timed] [--time 20s] [--jobs 2]
    python3 scripts/journal_host_ftl_timed.py --render docs/results/journal_host_ftl_timed/results.csv [--page P]
"""
import argparse
import json
import os
import sys
import time
from concurrent.futures import ThreadPoolExecutor

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "scripts"))
sys.path.insert(0, os.path.join(ROOT, "explore"))
import journal_experiment as je  # noqa: E402  (its run(), WORKLOADS)
from ssdvp_explore import provenance as prov_mod  # noqa: E402  (standard library only)
from ssdvp_explore.stats import fmt_ci, mean_ci  # noqa: E402
from streams_experiment import svg_bars  # noqa: E402

WRITE_BUFFER = "1MiB"   # the host arms' host.ftl.write_buffer: 16 stripes of journal.yaml's drive (8 dies x 8 KiB)
FSYNC_N = 16            # fio-rand-fsync16: fio's fsync=16
OC = {"nvme.command_set": "open_channel"}
WB = {"host.ftl.write_buffer": WRITE_BUFFER}
PBLK = {"ftl.placement.policy": "single"}
ARMS = {
    "device mixed": {"host.files.journal_stream": 0},
    "device separated": {"host.files.journal_stream": 1},
    "host mixed (pblk)": dict(OC, **WB, **PBLK, **{"host.files.journal_stream": 0}),
    "host mixed (GC on its own)": dict(OC, **WB, **{"host.files.journal_stream": 0}),
    "host separated": dict(OC, **WB, **{"host.files.journal_stream": 1}),
    "host mixed (pblk), no buffer": dict(OC, **PBLK, **{"host.files.journal_stream": 0}),
    "host separated, no buffer": dict(OC, **{"host.files.journal_stream": 1}),
}
WORKLOADS = ["fio-rand-fsync16", "fio-rand", "varmail", "fileserver"]
SEEDS = [1, 2, 3]
# The seed paper's claims (separated against pblk's single write point)
CLAIM_WAF = -33.0
CLAIM_IO = (46.0, 50.0)
PAIRS = [("host separated", "host mixed (pblk)", "the seed's comparison (journal and GC each on a write point of "
          "their own, against one write point for all)"),
         ("host mixed (GC on its own)", "host mixed (pblk)", "GC's own write point alone"),
         ("host separated", "host mixed (GC on its own)", "the journal's own write point alone"),
         ("host separated, no buffer", "host mixed (pblk), no buffer", "the seed's comparison without the write buffer"),
         ("host mixed (pblk)", "host mixed (pblk), no buffer", "the write buffer, pblk's single write point"),
         ("host separated", "host separated, no buffer", "the write buffer, separated"),
         ("device separated", "device mixed", "the device FTL (GC on its own in both)")]


def one(binary, out, wl, arm, seed, reuse):
    """One run: je.run's figures plus the host FTL's and its write buffer's."""
    key = f"{arm} s{seed}"
    je.ARMS[key] = dict(ARMS[arm], **{"precondition.seed": seed, "host.files.seed": seed})
    r = je.run(binary, out, wl, key, False, reuse)
    with open(os.path.join(out, f"{wl}_{key}", "summary.json")) as f:
        s = json.load(f)
    r["arm"], r["seed"] = arm, seed
    r["host_mib"] = s["ftl"]["host_lba_writes"] * 4096 / 2**20
    fl = s["latency_us"].get("flush", {})  # the NVMe Flush commands' own latency
    r["flush_p50_us"], r["flush_p99_us"] = fl.get("p50", ""), fl.get("p99", "")
    hf = s.get("host_ftl")
    r["cpu_util"] = hf["cpu"]["utilization"] if hf else ""
    w = hf["write_buffer"] if hf else {}
    r["wb_read_hits"] = w.get("read_hits", "") if w.get("bytes") else ""
    r["wb_flush_waits"] = w.get("flush_waits", "") if w.get("bytes") else ""
    r["wb_pad_lbas"] = w.get("pad_lbas", "") if w.get("bytes") else ""
    r["wb_max_kib"] = w["max_occupancy_bytes"] / 1024 if w.get("bytes") else ""
    if hf:  # the ftl section's pad_slots is the drive's: the host FTL pads its own pages
        h = s["ftl"]["host_lba_writes"]
        r["pad_lbas"] = hf["pad_slots"]
        r["flash_waf"] = (h + s["ftl"]["gc_lba_writes"] + hf["pad_slots"]) / h if h else 0.0
    return r


def num(v):
    """A figure of a row (a run's, or je.read_rows' of results.csv), NaN when the run has none ("")."""
    return float("nan") if v in ("", None) else v


def vals(rows, wl, arm, key):
    return [num(r[key]) for r in rows if r["workload"] == wl and r["arm"] == arm]


def ci(rows, wl, arm, key, fmt):
    v = [x for x in vals(rows, wl, arm, key) if x == x]
    return fmt_ci(v, fmt) if v else "-"


def change(rows, wl, a, b, key):
    """Per-seed percent change of a against b (same seed: the same workload and fill), its mean and 95 % half-width."""
    by = {}
    for r in rows:
        if r["workload"] == wl and r["arm"] in (a, b):
            by.setdefault(int(r["seed"]), {})[r["arm"]] = num(r[key])
    xs = [100.0 * (p[a] - p[b]) / p[b] for p in by.values() if a in p and b in p and p[b]]
    return mean_ci(xs) if xs else (float("nan"), 0.0)


def fmt_change(m, h):
    return "-" if m != m else f"{m:+.1f} ± {h:.1f} %"


def verdict_waf(m, h):
    lo, hi = m - h, m + h
    if m != m:
        return "not measured"
    if lo <= CLAIM_WAF <= hi or hi < CLAIM_WAF:
        return f"**reproduced** ({fmt_change(m, h)}: the interval reaches {CLAIM_WAF:.0f} %)"
    if hi < 0:
        return f"**partly** ({fmt_change(m, h)}: lower, by less than {-CLAIM_WAF:.0f} %)"
    if lo > 0:
        return f"**not reproduced, the opposite** ({fmt_change(m, h)}: higher)"
    return f"**not reproduced** ({fmt_change(m, h)}: no difference the three seeds can tell)"


def verdict_io(m, h):
    lo, hi = m - h, m + h
    if m != m:
        return "not measured"
    if hi >= CLAIM_IO[0] and lo <= CLAIM_IO[1]:
        return f"**reproduced** ({fmt_change(m, h)}: the interval meets +{CLAIM_IO[0]:.0f}..{CLAIM_IO[1]:.0f} %)"
    if lo > 0:
        return f"**partly** ({fmt_change(m, h)}: higher, by less than +{CLAIM_IO[0]:.0f} %)"
    if hi < 0:
        return f"**not reproduced, the opposite** ({fmt_change(m, h)}: lower)"
    return f"**not reproduced** ({fmt_change(m, h)}: no difference the three seeds can tell)"


def page(rows, cmd, sim_time, prov):
    wls = [w for w in WORKLOADS if any(r["workload"] == w for r in rows)]
    wall = sum(num(r.get("wall_s") or 0) for r in rows)
    L = ["# Journal/data separation, timed: device FTL and host FTL with a write buffer", "",
         f"Regenerate ({len(rows)} runs, {wall:,.0f} s of wall time summed as results.csv records them, two at a "
         "time):", "", "```sh", cmd, "```", "",
         "Render the page again from the committed data: `python3 scripts/journal_host_ftl_timed.py --render "
         "docs/results/journal_host_ftl_timed/results.csv`.", "",
         f"The arms of [journal_host_ftl.md](journal_host_ftl.md), in simulated time: `configs/journal.yaml` (1 GiB "
         f"of flash, 896 MiB exported, 4 channels x 2 dies, 8 KiB pages, greedy GC, filled once), `host.time_limit` "
         f"{sim_time} (shortened from journal.md's 60 s so that {len(rows)} runs fit in about half an hour on a "
         "shared 2-core machine), closed loop at queue depth 32, the file-level host's ext4-like journal "
         "(ordered, 16 MiB, commit every 5 s and at each fsync). Every point is run with seeds "
         f"{', '.join(str(s) for s in SEEDS)} (`precondition.seed` and `host.files.seed`: the fill's and the "
         "workload's random choices) and shown as mean ± the 95 % interval over them (Student t, "
         "explore/ssdvp_explore/stats.py). These runs set `ftl.write.at_floor: pass` "
         "(scripts/journal_experiment.py's run does), as journal.md's.", "",
         "Workloads: **fio-rand-fsync16** fio random 4 KiB overwrites of 4 files filling 70 % of the namespace with "
         f"an fsync after every {FSYNC_N} writes (`host.files.fio.fsync: {FSYNC_N}`, the seed's kind of job); "
         "**fio-rand** the same with an fsync after every write; **varmail** Filebench varmail (20000 files, two "
         "fsyncs a loop); **fileserver** Filebench fileserver (4000 files, no fsync). fio-seq of the earlier "
         "version of this page is left out for time.", "",
         "Arms: **device**: the firmware's FTL in the drive (NVM personality), journal writes untagged (*mixed*) or "
         "on NVMe stream 1 (*separated*); relocated data has its own write point in both. **host**: the same FTL "
         "sources on the host over the drive in the open-channel personality, timed "
         "([host_ftl.md](../models/host_ftl.md)), with pblk's write buffer "
         f"(`host.ftl.write_buffer: {WRITE_BUFFER}`: a write completes once in the buffer, a writer drains it a "
         "stripe at a time, a flush completes once what was buffered before it is on flash, padding partial pages, "
         "without holding up the writes behind it, reads of buffered LBAs come from it); *mixed (pblk)* one "
         "write point for host and GC data (`ftl.placement.policy: single`), the seed's baseline; *mixed (GC on "
         "its own)* relocated data on a write point of its own; *separated* the journal on its own write point as "
         "well, as the seed did; *no buffer*: the same without the write buffer (writes complete once in the "
         "FTL's page buffers).", "",
         "fsync latency is the journal's figure (`journal.fsync_latency_us`: from the admission of a commit's first "
         "request to the completion of its last flush; the next fsync's first request is often admitted while one "
         "still waits behind its barriers, and each is timed from its own); **Flush** is the NVMe Flush commands' "
         "own latency (`latency_us.flush`).", "",
         f"WAF is over a fixed {sim_time} of simulated time, not over a fixed amount of data: an arm that writes "
         "more in that time runs further from the fill into GC's steady state, where WAF is higher, so WAF "
         "comparisons between arms whose host writes differ much are biased against the faster one (the host "
         "writes column, and the verdicts say by how much they differ).", "",
         "| workload | arm | IOPS | MB/s | host writes (MiB) | fsync p50 (us) | fsync p99 (us) | Flush p50 (us) | "
         "Flush p99 (us) | WAF | flash WAF | erases | host CPU busy (%) | buffer read hits | flushes that waited "
         "for buffered data | pad LBAs of flushes | buffer max (KiB) | reads checked | mismatches |",
         "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"]
    for wl in wls:
        for arm in ARMS:
            if not vals(rows, wl, arm, "iops"):
                continue
            fs = any(x for x in vals(rows, wl, arm, "fsyncs"))
            cpu = [100 * x for x in vals(rows, wl, arm, "cpu_util") if x == x]
            L.append(
                f"| {wl} | {arm} | {ci(rows, wl, arm, 'iops', '.0f')} | {ci(rows, wl, arm, 'mbps', '.2f')} | "
                f"{ci(rows, wl, arm, 'host_mib', '.0f')} | "
                f"{ci(rows, wl, arm, 'fsync_p50_us', '.0f') if fs else 'no fsync'} | "
                f"{ci(rows, wl, arm, 'fsync_p99_us', '.0f') if fs else 'no fsync'} | "
                f"{ci(rows, wl, arm, 'flush_p50_us', '.0f')} | {ci(rows, wl, arm, 'flush_p99_us', '.0f')} | "
                f"{ci(rows, wl, arm, 'waf', '.3f')} | "
                f"{ci(rows, wl, arm, 'flash_waf', '.3f')} | {ci(rows, wl, arm, 'erases', '.0f')} | "
                f"{fmt_ci(cpu, '.2f') if cpu else '-'} | {ci(rows, wl, arm, 'wb_read_hits', '.0f')} | "
                f"{ci(rows, wl, arm, 'wb_flush_waits', '.0f')} | {ci(rows, wl, arm, 'wb_pad_lbas', '.0f')} | "
                f"{ci(rows, wl, arm, 'wb_max_kib', '.0f')} | {sum(vals(rows, wl, arm, 'reads_checked'))} | "
                f"{sum(vals(rows, wl, arm, 'mismatches'))} |")
    L += ["", "WAF: (host + GC writes) / host writes; flash WAF adds the slots flushes (and GC by copy) padded. "
          "Buffer columns: host arms with the buffer only; reads checked and mismatches summed over the seeds.", "",
          "Percent changes, per seed (the same seed's fill and workload in both arms), mean ± 95 % interval; the "
          f"seed paper claims WAF {CLAIM_WAF:.0f} % and I/O performance +{CLAIM_IO[0]:.0f}..{CLAIM_IO[1]:.0f} % "
          "for the first comparison:", "",
          "| workload | comparison | what it isolates | IOPS | fsync p50 | fsync p99 | Flush p50 | Flush p99 | WAF | "
          "flash WAF |",
          "|---|---|---|---|---|---|---|---|---|---|"]
    for wl in wls:
        for a, b, what in PAIRS:
            if not vals(rows, wl, a, "iops") or not vals(rows, wl, b, "iops"):
                continue
            fs = any(x for x in vals(rows, wl, b, "fsyncs"))
            fl = all(x == x for x in vals(rows, wl, a, "flush_p50_us") + vals(rows, wl, b, "flush_p50_us"))
            cells = [fmt_change(*change(rows, wl, a, b, k))
                     if (fs or not k.startswith("fsync")) and (fl or not k.startswith("flush"))
                     else "no fsync" if k.startswith("fsync") else "no flush"
                     for k in ("iops", "fsync_p50_us", "fsync_p99_us", "flush_p50_us", "flush_p99_us", "waf",
                               "flash_waf")]
            L.append(f"| {wl} | {a} vs {b} | {what} | " + " | ".join(cells) + " |")
    L += ["", "![IOPS](journal_host_ftl_timed/iops.svg)", "", "![fsync p99](journal_host_ftl_timed/fsync_p99.svg)",
          "", "![WAF](journal_host_ftl_timed/waf.svg)", "", "## Verdicts", "",
          "Computed by the script from the per-seed changes above (host separated against host mixed (pblk), both "
          "with the write buffer): *reproduced* when the 95 % interval reaches the claim, *partly* when it is on "
          "the claim's side of zero but short of it, *the opposite* when it is on the other side, *not "
          "reproduced* when it contains zero. The share of GC's own write point is the WAF change of *host mixed "
          "(GC on its own)* over that of *host separated* (both against pblk's): above 100 % the journal's own "
          "write point on top of it raises WAF again.", "",
          f"| workload | WAF {CLAIM_WAF:.0f} % | I/O performance (IOPS) +{CLAIM_IO[0]:.0f}..{CLAIM_IO[1]:.0f} % | "
          "share of the WAF change from GC's own write point |", "|---|---|---|---|"]
    sep, pb, own = "host separated", "host mixed (pblk)", "host mixed (GC on its own)"
    for wl in wls:
        if not vals(rows, wl, sep, "iops") or not vals(rows, wl, pb, "iops"):
            continue
        w_all = change(rows, wl, sep, pb, "waf")[0]
        w_gc = change(rows, wl, own, pb, "waf")[0]
        share = f"{100 * w_gc / w_all:.0f} %" if w_all == w_all and w_gc == w_gc and abs(w_all) > 1 else "-"
        wrote = change(rows, wl, sep, pb, "host_mib")
        L.append(f"| {wl} | {verdict_waf(*change(rows, wl, sep, pb, 'waf'))}; separated wrote "
                 f"{fmt_change(*wrote)} host data | "
                 f"{verdict_io(*change(rows, wl, sep, pb, 'iops'))} | {share} |")
    # the write buffer's own effect on fsync-bound throughput, in words derived from the numbers
    L += [""]
    for wl in wls:
        m, h = change(rows, wl, pb, "host mixed (pblk), no buffer", "iops")
        if m != m:
            continue
        word = "raises" if m - h > 0 else "lowers" if m + h < 0 else "does not change (within the interval)"
        L.append(f"- {wl}: the write buffer {word} pblk's IOPS ({fmt_change(m, h)} against the same arm without it).")
    L += ["", "Not covered: power cuts (a timed open-channel run refuses `power.cut_at` and `power.cuts`); one "
          "buffer size; one drive geometry; 3 seeds (the intervals are wide where runs differ).", "",
          prov_mod.section(prov, cmd if not prov else None).rstrip("\n")]
    return L


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--bin", default=os.path.join(ROOT, "build/platform/ssdvp"))
    ap.add_argument("--out", default=os.path.join(ROOT, "out/journal_timed"))
    ap.add_argument("--time", default="20s", help="host.time_limit of each run (simulated)")
    ap.add_argument("--jobs", type=int, default=2, help="runs at a time")
    ap.add_argument("--reuse", action="store_true", help="take the summaries already in --out")
    ap.add_argument("--page", default=os.path.join(ROOT, "docs/results/journal_host_ftl_timed.md"))
    ap.add_argument("--render", metavar="RESULTS_CSV", help="run nothing: render the page from this results.csv")
    a = ap.parse_args()
    figs = os.path.join(os.path.dirname(os.path.abspath(a.page)), "journal_host_ftl_timed")
    os.makedirs(figs, exist_ok=True)
    t0 = time.monotonic()
    if a.render:
        rows = je.read_rows(a.render)
        sim_time = rows[0]["time_limit"] if rows else a.time
    else:
        je.TIME_LIMIT = sim_time = a.time
        jobs = [(wl, arm, s) for s in SEEDS for wl in WORKLOADS for arm in ARMS]
        with ThreadPoolExecutor(max_workers=max(1, a.jobs)) as ex:
            rows = list(ex.map(lambda j: one(a.bin, a.out, *j, a.reuse), jobs))
        for r in rows:
            r["time_limit"] = a.time
    cmd = "python3 scripts/journal_host_ftl_timed.py" + (f" --time {sim_time}" if sim_time != "20s" else "")
    prov = je.keep_data(rows, figs, a.render, a.bin, cmd, t0)
    wls = [w for w in WORKLOADS if any(r["workload"] == w for r in rows)]
    for key, fig, title, unit in (("iops", "iops", "Throughput (mean of the seeds)", "IOPS"),
                                  ("fsync_p99_us", "fsync_p99", "fsync latency p99 (mean of the seeds)", "us"),
                                  ("waf", "waf", "Write amplification (mean of the seeds)", "WAF")):
        svg_bars(os.path.join(figs, f"{fig}.svg"), title, wls, list(ARMS),
                 {(wl, arm): mean_ci(vals(rows, wl, arm, key))[0] for wl in wls for arm in ARMS
                  if vals(rows, wl, arm, key)}, unit)
    L = page(rows, cmd, sim_time, prov)
    with open(a.page, "w") as f:
        f.write("\n".join(L) + "\n")
    bad = [(r["workload"], r["arm"], r["seed"]) for r in rows if num(r["mismatches"])]
    if bad:
        sys.exit(f"integrity mismatches in {bad}")


if __name__ == "__main__":
    main()
