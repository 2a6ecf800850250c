#!/usr/bin/env python3
"""journal_recorded.py - the journal/data separation arms on recorded real applications:
regenerates docs/results/journal-recorded.md and its data (journal-recorded/).

    python3 scripts/journal_recorded.py [--bin build/platform/ssdvp] [--jobs 2] [--seeds 1,2,3] [--reuse]
    python3 scripts/journal_recorded.py --render docs/results/journal-recorded [--page P]

The seed paper separates the ext4 journal's writes from the data in a
host-level FTL (pblk over an open-channel SSD) and reports WAF -33 % or more
and I/O performance +46..50 %. docs/results/journal_ext4_real.md tests that on
one busybox recording; this script takes the recorded applications of
traces/workloads/ (ext4 in a Debian 12 guest on the simulated 1 GiB drive,
scripts/workloads/record.sh): fio-journal (the seed's kind of job: 4 KiB
random overwrites, fsync every 32 writes), Filebench varmail and fileserver,
PostMark and MariaDB under sysbench OLTP. The journal's blocks come from
traces/workloads/ext4-1g.layout (mke2fs 1.47.0's defaults on a 1 GiB image,
the recordings' mkfs; traces/README.md): `host.streams: journal` tags every
write that starts inside them.

Arms (journal_ext4_real.py's, plus pblk's write buffer): the device FTL with
one host write point or the journal on NVMe stream 1; the host FTL
(nvme.command_set: open_channel) with pblk's single write point for host and
GC data, the device FTL's placement (GC on a write point of its own), or the
journal on its own write point; and pblk's arm and the separated arm with the
pblk-like host write buffer (host.ftl.write_buffer). Each replay runs closed
loop at the recording's queue depth with its flush ordering, on two drive
states: as recorded (the recording's leading mkfs discard sent: the drive
holds only what the file system writes) and used (that discard dropped:
the file system made with nodiscard on a drive full of older data). Each
point: three drive histories (precondition.seed 1, 2, 3: a sequential fill
and one drive-write of random overwrites), mean and 95 % interval.
"""
from __future__ import annotations

import argparse
import csv
import os
import re
import sys
import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "explore"))
from ssdvp_explore import provenance as prov_mod  # noqa: E402  (standard library only)
from ssdvp_explore import workloads as wl_mod  # noqa: E402
from ssdvp_explore.stats import as_float as num, fmt_ci, mean_ci  # noqa: E402
from runpoint import run_kept, set_args  # noqa: E402

NAME = "journal-recorded"
RECORDINGS = ["fio-journal", "filebench-varmail", "filebench-fileserver", "postmark-discard", "mariadb-oltp"]
LAYOUT = "traces/workloads/ext4-1g.layout"
WRITE_BUFFER = "1MiB"   # host.ftl.write_buffer: 16 stripes of the drive (8 dies x 8 KiB), as journal_host_ftl_timed
OC = {"nvme.command_set": "open_channel"}
J = {"host.streams": "journal", "host.files.journal_stream": 1}
PBLK = {"ftl.placement.policy": "single"}
WB = {"host.ftl.write_buffer": WRITE_BUFFER}
ARMS = {
    "device mixed": {},
    "device separated": dict(J),
    "host mixed (pblk)": dict(OC, **PBLK),
    "host mixed (GC on its own)": dict(OC),
    "host separated": dict(OC, **J),
    "host mixed (pblk), buffer": dict(OC, **PBLK, **WB),
    "host separated, buffer": dict(OC, **J, **WB),
}
STATES = {"as recorded": {}, "used drive": {"workload.leading_discards": "drop"}}
BASE = {"ftl.placement.policy": "stream", "ftl.hot.classes": 2, "ftl.write.at_floor": "pass",
        "host.mode": "closed", "workload.flush_order": "true", "precondition.random_drive_writes": "1.0",
        "log.level": "error"}
CLAIM_WAF = -33.0
CLAIM_IO = (46.0, 50.0)
SAME = 1.0  # a change whose whole interval lies within +-1 % is no difference (the runs repeat to within that)
# (name, arm, against): the comparisons, per seed
PAIRS = [("device: separated vs mixed", "device separated", "device mixed"),
         ("host: separated vs GC on its own", "host separated", "host mixed (GC on its own)"),
         ("host: separated vs pblk (the seed's)", "host separated", "host mixed (pblk)"),
         ("host, buffer: separated vs pblk", "host separated, buffer", "host mixed (pblk), buffer"),
         ("host: GC on its own vs pblk", "host mixed (GC on its own)", "host mixed (pblk)")]
CSV_COLS = ["recording", "state", "arm", "seed", "waf", "flash_waf", "host_lbas", "gc_lbas", "pad_lbas", "erases",
            "iops", "mbps", "flush_p50_us", "flush_p99_us", "write_p99_us", "host_cpu_util", "reads_checked",
            "mismatches", "errors", "sim_s", "wall_s"]
REC_COLS = ["recording", "queue_depth", "writes", "write_mb", "flushes", "trims", "reads", "journal_writes",
            "journal_mb", "journal_share", "top_patterns"]


def slug(s):
    return re.sub(r"[^a-z0-9]+", "_", s.lower()).strip("_")


def journal_range(layout):
    """The journal inode's extents in bytes [begin, end), from the layout's debugfs EXTENTS line."""
    text = open(os.path.join(ROOT, layout)).read()
    bs = int(re.search(r"^Block size:\s+(\d+)", text, re.M).group(1))
    ext = text.split("EXTENTS:", 1)[1].strip().splitlines()[0]
    out = []
    for m in re.finditer(r"\((?!ETB)[^)]*\):(\d+)(?:-(\d+))?", ext):
        out.append((int(m.group(1)) * bs, (int(m.group(2) or m.group(1)) + 1) * bs))
    return out


def recording_stats(name, ranges):
    """What the recording writes and how much of it lands in the journal; its commonest sequences between two
    flushes (D: a data write, J: a journal write, R: a read, T: a trim; runs collapsed to '+')."""
    import numpy as np
    log = wl_mod.read_iolog(wl_mod.unpack(ROOT, name), time_unit_ps=wl_mod.TIME_UNIT_PS)
    w = log.op == wl_mod.WRITE
    inj = np.zeros(len(log), dtype=bool)
    for a, b in ranges:
        inj |= (log.offset >= a) & (log.offset < b)
    tags = np.full(len(log), "F")
    tags[w & inj], tags[w & ~inj] = "J", "D"
    tags[log.op == wl_mod.READ], tags[log.op == wl_mod.TRIM] = "R", "T"
    segs = Counter(re.sub(r"(.)\1+", r"\1+", s) for s in "".join(tags).split("F")[1:-1])
    n = sum(segs.values())
    top = "; ".join(f"F {s or '(none)'} F: {100 * c / n:.1f} %" for s, c in segs.most_common(3)) if n else ""
    wb, jb = int(log.length[w].sum()), int(log.length[w & inj].sum())
    return {"recording": name, "queue_depth": wl_mod.provenance(ROOT, name)["queue_depth"],
            "writes": int(w.sum()), "write_mb": round(wb / 1e6, 1), "flushes": log.count(wl_mod.SYNC)
            + log.count(wl_mod.DATASYNC), "trims": log.count(wl_mod.TRIM), "reads": log.count(wl_mod.READ),
            "journal_writes": int((w & inj).sum()), "journal_mb": round(jb / 1e6, 1),
            "journal_share": round(jb / wb, 4) if wb else 0.0, "top_patterns": top}


def run(binary, out, name, state, arm, seed, reuse, collect=False):
    prov = wl_mod.provenance(ROOT, name)
    sets = dict(BASE, **wl_mod.overrides(ROOT, name), **STATES[state], **ARMS[arm])
    sets.update({"host.queue_depth": max(1, int(prov["queue_depth"])), "precondition.seed": seed,
                 "host.files.ext4.layout": LAYOUT})
    d = os.path.join(out, f"{name}_{slug(state)}_{slug(arm)}_s{seed}")
    if collect and not os.path.exists(os.path.join(d, "summary.json")):
        return None
    s, wall = run_kept(binary, d, ["-c", os.path.join(ROOT, prov["drive"]["config"]), *set_args(sets)], reuse)
    h, ftl, hf = s["host"], s["ftl"], s.get("host_ftl")
    pad = hf["pad_slots"] if hf else ftl["pad_slots"]  # the host FTL pads its own pages
    hl = ftl["host_lba_writes"]
    fl = s["latency_us"].get("flush", {"p50": "", "p99": ""})
    r = {"recording": name, "state": state, "arm": arm, "seed": seed, "waf": round(ftl["waf"], 5),
         "flash_waf": round((hl + ftl["gc_lba_writes"] + pad) / hl, 5) if hl else "", "host_lbas": hl,
         "gc_lbas": ftl["gc_lba_writes"], "pad_lbas": pad, "erases": ftl["erases"], "iops": round(h["iops"], 1),
         "mbps": round(h["bandwidth_mbps"], 3), "flush_p50_us": fl["p50"], "flush_p99_us": fl["p99"],
         "write_p99_us": s["latency_us"]["write"]["p99"],
         "host_cpu_util": round(hf["cpu"]["utilization"], 5) if hf else "",
         "reads_checked": s["integrity"]["reads_checked"], "mismatches": s["integrity"]["mismatches"],
         "errors": h.get("errors", 0), "sim_s": round(h["sim_time_s"], 4),
         "wall_s": wall}
    print(f"{name:22s} {state:12s} {arm:28s} s{seed} WAF {r['waf']:.3f} GC {r['gc_lbas']} pad {pad} "
          f"{r['iops']:.0f} IOPS mism {r['mismatches']} ({r['wall_s']} s)", flush=True)
    return r


# ---------------------------------------------------------------------------------------------------------------
# the page

def vals(rows, rec, state, arm, key):
    return [num(r[key]) for r in rows if r["recording"] == rec and r["state"] == state and r["arm"] == arm]


def mean(rows, rec, state, arm, key):
    return mean_ci(vals(rows, rec, state, arm, key))[0]


def change(rows, rec, state, arm, base, key):
    """Per seed, % change of arm against base: (mean, half-width of the 95 % interval)."""
    sel = [r for r in rows if r["recording"] == rec and r["state"] == state]
    a = {r["seed"]: num(r[key]) for r in sel if r["arm"] == arm}
    b = {r["seed"]: num(r[key]) for r in sel if r["arm"] == base}
    return mean_ci([100 * (a[s] / b[s] - 1) for s in a if s in b and b[s]])


def fmt_pct(mh):
    m, h = mh
    if m != m:
        return "-"
    return f"{m:+.1f} % ± {h:.1f}"


def verdict(mh, claim, better, what):
    """A per-seed % change (mean, half-width) against the paper's claim, a change of at least `claim` (a
    magnitude) in the direction `better` (+1 higher is better, -1 lower is better); `what` names the measure."""
    m, h = mh
    if m != m:
        return "no data"
    m *= better  # from here on, higher is better
    if -SAME < m - h and m + h < SAME:
        return "**not met**: no difference"
    if m - h >= claim:
        return f"**holds** ({'+' if better > 0 else '-'}{claim:.0f} % or better)"
    if m + h < claim:
        if m - h > 0:
            return f"**not met**: {'higher' if better > 0 else 'lower'}, by less than {claim:.0f} %"
        if m + h < 0 and m - h <= -SAME:
            return f"**contradicted**: {what} {'lower' if better > 0 else 'higher'}"
        return "**not met**: not distinguishable from 0"
    return f"not distinguishable from {'+' if better > 0 else '-'}{claim:.0f} %"


def verdict_waf(mh):
    return verdict(mh, -CLAIM_WAF, -1, "WAF")


def verdict_io(mh):
    return verdict(mh, CLAIM_IO[0], +1, "IOPS")


def draw(figdir, rows, recs, states):
    """WAF and IOPS per arm per recording, one panel per drive state, error bars the 95 % interval."""
    from ssdvp_explore.plots import legend_outside, plt, save
    arms = list(ARMS)
    for key, title, unit in (("waf", "WAF (host + GC writes) / host writes", "WAF"),
                             ("iops", "Throughput, closed loop at the recording's queue depth", "IOPS")):
        fig, axes = plt.subplots(1, len(states), figsize=(5.2 * len(states), 3.6), squeeze=False)
        width = 0.8 / len(arms)
        for ax, state in zip(axes[0], states):
            for i, arm in enumerate(arms):
                ms = [mean_ci(vals(rows, rec, state, arm, key)) for rec in recs]
                xs = [k + (i - (len(arms) - 1) / 2) * width for k in range(len(recs))]
                ax.bar(xs, [m for m, _ in ms], width, yerr=[h for _, h in ms], capsize=1.5, label=arm,
                       error_kw={"elinewidth": 0.7})
            ax.set_xticks(range(len(recs)), recs, rotation=25, ha="right", fontsize=8)
            ax.set_title(state, fontsize=10)
            ax.set_ylabel(unit)
        fig.suptitle(title, fontsize=10)
        fig.tight_layout()
        legend_outside(fig, *axes[0][0].get_legend_handles_labels(), title="arm")
        save(fig, os.path.join(figdir, key))


def page(rows, recstats, cmd, prov):
    recs = [r for r in RECORDINGS if any(x["recording"] == r for x in rows)]
    missing = [r for r in RECORDINGS if r not in recs]
    states = [s for s in STATES if any(x["state"] == s for x in rows)]
    seeds = sorted({int(r["seed"]) for r in rows})
    wall = sum(num(r["wall_s"]) for r in rows if r["wall_s"] != "")
    rs = {r["recording"]: r for r in recstats}
    L = ["# Journal/data separation on recorded applications", "",
         "<!-- generated by scripts/journal_recorded.py; do not edit -->", "",
         f"Regenerate ({len(rows)} runs, {wall:,.0f} s of wall time summed over the runs, `--jobs` at a time (default 2); the "
         "provenance below has the whole regeneration's wall time):", "", "```sh", cmd, "```", "",
         f"Render again from the committed data: `python3 scripts/journal_recorded.py --render docs/results/{NAME}`.",
         "", "**The claim.** The seed paper separates the ext4 journal's writes from the data in a host-level FTL "
         "(pblk over an open-channel SSD: a single write point for host and GC data) and reports WAF **-33 %** or "
         "more and I/O performance **+46..50 %**. [journal_ext4_real.md](journal_ext4_real.md) tests it on one "
         "busybox recording and [journal_host_ftl_timed.md](journal_host_ftl_timed.md) on the model file system; "
         "here the file systems and applications are real and recorded ([workloads.md](workloads.md)), with "
         "several drive histories per point.", ""]
    L += ["## Setup", "",
          "**Recordings** (`traces/workloads/`, ext4 made by mke2fs 1.47.0 with its defaults on the 1 GiB "
          "simulated drive in a Debian 12 guest, mounted `defaults`; each replayed on the drive it was recorded on, "
          "`configs/workloads-1g.yaml`: 1 GiB exported, 1.14 GiB of flash, 4 channels x 2 dies, 8 KiB pages, "
          "greedy GC): `fio-journal` (the seed's kind of job: 4 KiB random overwrites of a 563 MiB file, fsync "
          "every 32 writes), `filebench-varmail`, `filebench-fileserver`, `postmark-discard` (the 1 GiB PostMark "
          "recording; its file system was mounted with `discard`, so deletes reach the drive) and `mariadb-oltp` "
          "(sysbench OLTP on MariaDB).", "",
          "**The journal.** `host.streams: journal` tags each write that starts inside the journal inode's blocks "
          f"of `{LAYOUT}` ([traces/README.md](../../traces/README.md) says how it was made: mke2fs 1.47.0 with "
          "this machine's `/etc/mke2fs.conf`, the same defaults and feature list as the guest's, on a 1 GiB sparse "
          "image; its block count, inode count and backup superblocks match each recording's mkfs line). The "
          "journal is 32 MiB at block 131072. The table below checks it from the recordings themselves: the share "
          "of written bytes inside it, and the commonest request sequences between two flushes (D a data write, J "
          "a journal write, R a read, T a trim, `+` a run of them).", "",
          "| recording | queue depth | writes | MB written | flushes | trims | journal writes | journal MB | "
          "journal share of written bytes | commonest sequences between flushes |",
          "|---|---|---|---|---|---|---|---|---|---|"]
    for rec in recs:
        r = rs.get(rec)
        if r:
            L.append(f"| `{rec}` | {r['queue_depth']} | {int(num(r['writes'])):,} | {num(r['write_mb']):,.0f} | "
                     f"{int(num(r['flushes'])):,} | {int(num(r['trims'])):,} | {int(num(r['journal_writes'])):,} | "
                     f"{num(r['journal_mb']):,.0f} | {100 * num(r['journal_share']):.1f} % | {r['top_patterns']} |")
    fj = rs.get("fio-journal")
    if fj:
        L += ["", "fio-journal shows the journal where the layout puts it: its flush-to-flush sequences are "
              "`D+ J+` (the 32 data writes, then the transaction's descriptor and metadata blocks into the journal) "
              "and `J` (the commit block alone), i.e. data write, journal write, flush, commit block, flush, as "
              "jbd2 orders an fsync; the journal writes advance through the 32 MiB ring and wrap."]
    L += ["", "**Arms** (`ftl.placement.policy: stream` with two classes, GC data on a frontier of its own, except "
          "pblk's arms; `ftl.write.at_floor: pass`, as [journal_ext4_real.md](journal_ext4_real.md)): "
          "**device mixed** (the device FTL, every host write on one write point), **device separated** (the "
          "journal's writes on NVMe stream 1), **host mixed (pblk)** (`nvme.command_set: open_channel`: the FTL "
          "on the host; one write point for host and GC data, `ftl.placement.policy: single`), **host mixed (GC "
          "on its own)**, **host separated** (the journal on its own write point as well: the seed's design), "
          f"and pblk's and the separated arm with pblk's host write buffer (`host.ftl.write_buffer: {WRITE_BUFFER}`, "
          "16 stripes: writes complete once copied in, a flush drains it and pads the open page).", "",
          "**Replay.** Closed loop at the recording's queue depth with its flush ordering (`host.mode: closed`, "
          "`workload.flush_order: true`: each flush waits for every earlier request and the next request for the "
          "flush), so IOPS and MB/s are throughput. Two drive states: **as recorded** (the recording's leading mkfs "
          "discard sent: the drive then holds only what the file system writes, as in the guest) and **used "
          "drive** (`workload.leading_discards: drop`: the file system made with nodiscard over older data, which "
          "the drive keeps valid because ext4 without `discard` never trims it; GC works on a full drive). Every "
          "drive is aged first (a sequential fill and one drive-write of random overwrites) with "
          f"`precondition.seed` {', '.join(str(s) for s in seeds)}: a cell is the mean over those histories and, "
          "after ±, the half-width of its 95 % interval (Student t); a change is the mean of the per-seed changes "
          "(same seed, same history) with its interval.", "",
          "**Measures.** WAF = (host + GC writes) / host writes (the device's `ftl.waf`, the host FTL's own for "
          "the host arms); flash WAF adds the slots flushes padded; GC-moved LBAs are GC's writes, host LBAs the "
          "host's; flush p50/p99 are the NVMe Flush commands' latency from issue (a block trace has no fsync "
          "boundaries; every fsync is one or two flushes). Integrity: every read is checked against what was last "
          "written (mismatches must be 0)."]
    have = {(r["recording"], r["state"], r["arm"], int(r["seed"])) for r in rows}
    absent = {}
    for arm in ARMS:
        for s in seeds:
            gone = [f"{rec} ({st})" for rec in recs for st in states if (rec, st, arm, s) not in have]
            if gone:
                absent.setdefault(arm, []).append((s, gone))
    if absent:
        L += ["", "**Runs not made** (the regeneration did not fit the time it had; those cells have fewer seeds, "
              "and a change is over the seeds both arms have): " + "; ".join(
                  f"{arm}: " + ", ".join(f"seed {s} of {'every recording and state' if len(g) == len(recs) * len(states) else ', '.join(g)}"
                                         for s, g in v) for arm, v in absent.items()) + "."]
    if missing:
        L += ["", f"Not in this data: {', '.join(f'`{r}`' for r in missing)} (not run: the regeneration did not fit "
              "the time it had; `--recordings` takes it)."]
    for state in states:
        L += ["", f"## Results: {state}", "",
              "| recording | arm | WAF | flash WAF | host LBAs | GC-moved LBAs | padded LBAs | erases | IOPS | MB/s | "
              "flush p50 (us) | flush p99 (us) | reads checked | mismatches |",
              "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"]
        for rec in recs:
            for arm in ARMS:
                if not vals(rows, rec, state, arm, "waf"):
                    continue

                def c(k, f):
                    return fmt_ci(vals(rows, rec, state, arm, k), f)
                L.append(f"| `{rec}` | {arm} | {c('waf', '.3f')} | {c('flash_waf', '.3f')} | {c('host_lbas', ',.0f')} "
                         f"| {c('gc_lbas', ',.0f')} | {c('pad_lbas', ',.0f')} | {c('erases', ',.0f')} | "
                         f"{c('iops', ',.0f')} | {c('mbps', '.1f')} | {c('flush_p50_us', ',.0f')} | "
                         f"{c('flush_p99_us', ',.0f')} | {sum(vals(rows, rec, state, arm, 'reads_checked')):,.0f} | "
                         f"{sum(vals(rows, rec, state, arm, 'mismatches')):,.0f} |")
    L += ["", "![WAF per arm and recording](journal-recorded/waf.svg)", "",
          "![IOPS per arm and recording](journal-recorded/iops.svg)", ""]
    L += ["## Separated against mixed, per seed", "",
          "The per-seed % change (mean ± 95 % interval) of each comparison; the seed paper's figures for its "
          "comparison (separated against pblk's single write point): WAF **-33 %** or more, IOPS **+46..50 %**.", ""]
    for state in states:
        L += [f"**{state}**", "", "| recording | comparison | WAF | GC-moved LBAs | erases | IOPS | MB/s | "
              "flush p99 | paper: WAF | paper: IO |", "|---|---|---|---|---|---|---|---|---|---|"]
        for rec in recs:
            for name, x, y in PAIRS:
                if not vals(rows, rec, state, x, "waf") or not vals(rows, rec, state, y, "waf"):
                    continue
                paper = "-33 % | +46..50 %" if "pblk" in y and "GC on its own" not in x else "- | -"
                L.append(f"| `{rec}` | {name} | " + " | ".join(
                    fmt_pct(change(rows, rec, state, x, y, k))
                    for k in ("waf", "gc_lbas", "erases", "iops", "mbps", "flush_p99_us")) + f" | {paper} |")
        L.append("")
    L += ["## Verdicts", "",
          "Per recording and drive state, for the seed's comparison (host separated against host mixed (pblk), "
          "without and with the write buffer) and for the same separation on the device FTL; a claim **holds** "
          "when the whole 95 % interval of the per-seed change is at or beyond the paper's figure, is **not met** "
          "when the whole interval falls short of it (**no difference** when it lies within ±1 %), and is "
          "**contradicted** when the whole interval is on the wrong side of zero (beyond ±1 %).", "",
          "| drive state | recording | comparison | WAF change | WAF -33 % | IOPS change | IOPS +46 % |",
          "|---|---|---|---|---|---|---|"]
    tally = Counter()
    for state in states:
        for rec in recs:
            for name, x, y in (PAIRS[2], PAIRS[3], PAIRS[0]):
                if not vals(rows, rec, state, x, "waf") or not vals(rows, rec, state, y, "waf"):
                    continue
                w, io = change(rows, rec, state, x, y, "waf"), change(rows, rec, state, x, y, "iops")
                vw, vi = verdict_waf(w), verdict_io(io)
                tally[("waf", vw.split("**")[1] if "**" in vw else vw)] += 1
                tally[("io", vi.split("**")[1] if "**" in vi else vi)] += 1
                L.append(f"| {state} | `{rec}` | {name} | {fmt_pct(w)} | {vw} | {fmt_pct(io)} | {vi} |")
    n = sum(v for k, v in tally.items() if k[0] == "waf")
    L += ["", f"Of {n} comparisons: WAF -33 % " + ", ".join(f"{k[1]} {v}" for k, v in sorted(tally.items())
                                                             if k[0] == "waf")
          + "; IOPS +46 % " + ", ".join(f"{k[1]} {v}" for k, v in sorted(tally.items()) if k[0] == "io") + ".", ""]
    L += reviewer(rows, recs, states, rs)
    bad = [(r["recording"], r["state"], r["arm"], r["seed"]) for r in rows
           if num(r["mismatches"]) or num(r["errors"])]
    L += ["## Integrity", "",
          (f"Every run's reads matched what was last written and no command failed: mismatches 0 and errors 0 in "
           f"all {len(rows)} runs ({sum(num(r['reads_checked']) for r in rows):,.0f} reads checked)."
           if not bad else f"**Mismatches or errors** in {bad}."), ""]
    L.append(prov_mod.section(prov))
    return L


def reviewer(rows, recs, states, rs):
    """What a reviewer would ask, answered with this data."""
    L = ["## What a reviewer would ask", ""]
    st = states[0]

    def m(rec, state, arm, k):
        return mean(rows, rec, state, arm, k)
    # 1. which baseline
    L += ["**Against which baseline?** The seed compares with pblk, one write point for host and GC data. Giving GC "
          "its own write point is a separation too (hot host data away from cold relocated data), and the device "
          "FTL here already does it; so the journal's own effect is `host separated` against `host mixed (GC on "
          "its own)`, and the seed's figure is that plus GC's write point. Per recording (WAF change, "
          f"{' / '.join(states)}):", ""]
    for rec in recs:
        parts = []
        for s in states:
            gc = change(rows, rec, s, "host mixed (GC on its own)", "host mixed (pblk)", "waf")
            jj = change(rows, rec, s, "host separated", "host mixed (GC on its own)", "waf")
            tot = change(rows, rec, s, "host separated", "host mixed (pblk)", "waf")
            parts.append(f"{s}: GC's own write point {fmt_pct(gc)}, then the journal's {fmt_pct(jj)}, "
                         f"together {fmt_pct(tot)}")
        L.append(f"- `{rec}`: " + "; ".join(parts) + ".")
    # 2. how much GC is there to save
    L += ["", "**Is there GC for separation to save?** Separation can only lower WAF by making GC's victims "
          "emptier, so it needs GC work to begin with. GC-moved LBAs per host LBA under pblk (WAF - 1):", ""]
    for rec in recs:
        parts = []
        for s in states:
            parts.append(f"{s} {m(rec, s, 'host mixed (pblk)', 'gc_lbas') / m(rec, s, 'host mixed (pblk)', 'host_lbas'):.3f}")
        share = 100 * num(rs[rec]["journal_share"]) if rec in rs else float("nan")
        L.append(f"- `{rec}`: " + ", ".join(parts) + f"; the journal is {share:.1f} % of the written bytes.")
    L += ["", "On the drive as recorded the file system's own data is all the drive holds (the mkfs discard freed "
          "the rest), so greedy GC finds nearly empty victims whatever the placement; on the used drive the old data "
          "stays valid and every arm collects.", ""]
    # 3. why separation costs or gains: padding and the write points
    L += ["**Why does separation cost or gain?** Two counters move with it: GC-moved LBAs (victims emptier when the "
          "short-lived journal blocks no longer share erase blocks with data) and padded LBAs (each open write point "
          "a flush finds half-written pads its page; a second host write point means a second page to pad). "
          "Host separated against host mixed (GC on its own), per-seed change:", ""]
    for rec in recs:
        parts = []
        for s in states:
            g = change(rows, rec, s, "host separated", "host mixed (GC on its own)", "gc_lbas")
            p = change(rows, rec, s, "host separated", "host mixed (GC on its own)", "pad_lbas")
            io = change(rows, rec, s, "host separated", "host mixed (GC on its own)", "iops")
            parts.append(f"{s}: GC-moved {fmt_pct(g)}, padded {fmt_pct(p)}, IOPS {fmt_pct(io)}")
        L.append(f"- `{rec}`: " + "; ".join(parts) + ".")
    L += ["", "Where GC-moved and padded LBAs do not move and IOPS still drops, the second write point costs time, not "
          "writes; these counters do not show where the time goes."]
    # 4. GC policy
    L += ["", "**Which GC policy?** Greedy (the drive's configuration, `ftl.gc.policy: greedy`, threshold 16 free "
          "blocks) in every arm, on the host FTL as on the device: nothing here was tuned per arm. "
          "[journal_ext4_real.md](journal_ext4_real.md) also runs cost-benefit GC on its busybox recording.", "",
          "**Does the write buffer change the verdict?** pblk acknowledges writes from its host buffer; with it "
          "(host separated, buffer against host mixed (pblk), buffer) the IOPS change is:", ""]
    for rec in recs:
        parts = [f"{s} {fmt_pct(change(rows, rec, s, 'host separated, buffer', 'host mixed (pblk), buffer', 'iops'))}"
                 f" (pblk's IOPS with the buffer against without: "
                 f"{fmt_pct(change(rows, rec, s, 'host mixed (pblk), buffer', 'host mixed (pblk)', 'iops'))})"
                 for s in states]
        L.append(f"- `{rec}`: " + "; ".join(parts) + ".")
    L += ["", "**What does the write buffer do to the separation's WAF?** The buffer carries each write's stream to "
          "the FTL (`host_write_buffer.h`). GC-moved LBAs of the separated arm with the buffer against without "
          "it (per-seed change):", ""]
    for rec in recs:
        parts = [f"{s} {fmt_pct(change(rows, rec, s, 'host separated, buffer', 'host separated', 'gc_lbas'))}"
                 for s in states]
        L.append(f"- `{rec}`: " + "; ".join(parts) + ".")
    L += ["", "Where that is large and positive, the buffer takes back part of what the journal's own write point "
          "saved; this page measures it and does not diagnose it (the buffered drain submits one command at a time "
          "in arrival order, and writes complete earlier, so GC runs at other moments; which of the two matters "
          "is not tested here).", "",
          "**Is the host FTL's baseline the device's?** With the same placement (GC on its own write point), the "
          "host FTL's WAF against the device FTL's (per-seed change; the two FTLs share the firmware's placement "
          "but not its timing, so GC runs at other moments):",
          ""]
    for rec in recs:
        parts = [f"{s} {fmt_pct(change(rows, rec, s, 'host mixed (GC on its own)', 'device mixed', 'waf'))}"
                 for s in states]
        L.append(f"- `{rec}`: " + "; ".join(parts) + ".")
    L += ["", f"**Is the journal where the layout says?** See the recordings table: the share of written bytes in "
          f"the 32 MiB journal and, for fio-journal, the fsync sequence. ({st} and used drive replay the same "
          "requests; only the drive's prior contents differ.)", ""]
    return L


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--bin", default=os.path.join(ROOT, "build/platform/ssdvp"))
    ap.add_argument("--out", default=os.path.join(ROOT, "out", NAME))
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--seeds", default="1,2,3")
    ap.add_argument("--recordings", default=",".join(RECORDINGS))
    ap.add_argument("--reuse", action="store_true", help="take the summaries already in --out")
    ap.add_argument("--collect", action="store_true",
                    help="run nothing: take the summaries in --out and leave out the runs not there (the page lists them)")
    ap.add_argument("--note", default="", help="a note for the provenance (how the runs were made)")
    ap.add_argument("--page", default=os.path.join(ROOT, "docs", "results", f"{NAME}.md"))
    ap.add_argument("--render", metavar="DATA_DIR", help="run nothing: render from this folder's results.csv")
    a = ap.parse_args()
    figdir = os.path.join(os.path.dirname(os.path.abspath(a.page)), NAME)
    cmd = "python3 scripts/journal_recorded.py" + (f" --seeds {a.seeds}" if a.seeds != "1,2,3" else "") + \
        (f" --recordings {a.recordings}" if a.recordings != ",".join(RECORDINGS) else "")
    if a.render:
        data = a.render
        rows = list(csv.DictReader(open(os.path.join(data, "results.csv"))))
        recstats = list(csv.DictReader(open(os.path.join(data, "recordings.csv"))))
        prov = prov_mod.read(data)
        cmd = (prov or {}).get("command") or cmd  # the command that made the data, with its options
    else:
        t0 = time.monotonic()
        data = figdir
        seeds = [int(s) for s in a.seeds.split(",")]
        have = set(wl_mod.names(ROOT))
        recs = [r for r in a.recordings.split(",") if r in have]
        ranges = journal_range(LAYOUT)
        recstats = [recording_stats(r, ranges) for r in recs]
        os.makedirs(a.out, exist_ok=True)
        # seed-major, so a partial set still covers every point
        jobs = [(r, st, arm, s) for s in seeds for r in recs for st in STATES for arm in ARMS]
        with ThreadPoolExecutor(max_workers=max(1, a.jobs)) as ex:
            rows = [r for r in ex.map(lambda j: run(a.bin, a.out, *j, a.reuse or a.collect, a.collect), jobs) if r]
        os.makedirs(data, exist_ok=True)
        with open(os.path.join(data, "results.csv"), "w", newline="") as f:
            wr = csv.DictWriter(f, fieldnames=CSV_COLS)
            wr.writeheader()
            wr.writerows(rows)
        with open(os.path.join(data, "recordings.csv"), "w", newline="") as f:
            wr = csv.DictWriter(f, fieldnames=REC_COLS)
            wr.writeheader()
            wr.writerows(recstats)
        prov = prov_mod.collect(a.bin, cmd, ROOT, skip=["docs/results/"], wall_s=time.monotonic() - t0)
        if a.note:
            prov["note"] = a.note
        prov_mod.write(prov, data)
        rows = list(csv.DictReader(open(os.path.join(data, "results.csv"))))
        recstats = list(csv.DictReader(open(os.path.join(data, "recordings.csv"))))
    recs = [r for r in RECORDINGS if any(x["recording"] == r for x in rows)]
    states = [s for s in STATES if any(x["state"] == s for x in rows)]
    draw(figdir, rows, recs, states)
    with open(a.page, "w") as f:
        f.write("\n".join(page(rows, recstats, cmd, prov)) + "\n")
    bad = [(r["recording"], r["state"], r["arm"], r["seed"]) for r in rows if num(r["mismatches"]) or num(r["errors"])]
    if bad:
        sys.exit(f"integrity mismatches or errors in {bad}")


if __name__ == "__main__":
    main()
