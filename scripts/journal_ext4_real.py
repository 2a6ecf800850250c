#!/usr/bin/env python3
"""A real ext4's journal through the journal/data separation arms: regenerates
docs/results/journal_ext4_real.md.

Replays the bundled recording of a Linux guest's ext4 on the simulated drive
(traces/nbd-ext4-journal.iolog.xz, made by scripts/guest/record-ext4-session.sh;
provenance in traces/README.md) with build/platform/ssdvp on the recording's
drive (configs/nbd.yaml: 1 GiB of flash, 896 MiB exported, filled once) in
five arms: the device FTL with every write on one host write point or the
journal's writes on NVMe stream 1, and the host FTL (open-channel
personality) with pblk's single write point, the device FTL's mixed placement,
or the journal on its own write point. The journal's blocks come from the
recording's own `dumpe2fs -h` / `debugfs -R "stat <8>"` output
(traces/nbd-ext4-journal.layout, host.streams: journal). Three replays per
arm: closed loop (queue depth 32, each flush after every earlier request and
before every later one: throughput), open loop at the recorded arrival times
(latency under the recorded load), and the closed loop under cost-benefit GC.

    python3 scripts/journal_ext4_real.py [BUILD_DIR] [--jobs N]        runs every replay, keeps the data, writes the page
    python3 scripts/journal_ext4_real.py --render DATA_DIR [--page OUT]  the page from committed data only

The data, in docs/results/journal_ext4_real/: results.csv (one row per replay:
its figures and wall time), trace.json (the recording's requests by kind and
the journal's extents, read from the trace and its layout file), model.csv
(the model's figures the page compares with, as read from
docs/results/journal_host_ftl_timed/results.csv when the replays ran) and
provenance.json. The replays' outputs go to out/journal_ext4_real/.
"""
import json
import lzma
import os
import re
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "scripts"))
from journal_experiment import points, run_summary  # noqa: E402
from runpoint import data_args, page_rows, read_results, run_rows, write_lines, write_results  # noqa: E402
from streams_experiment import pct, svg_bars  # noqa: E402

PAGE = "journal_ext4_real"
COMMAND = "python3 scripts/journal_ext4_real.py"
OUT = os.path.join(ROOT, "out", PAGE)
TRACE = "traces/nbd-ext4-journal.iolog.xz"
LAYOUT = "traces/nbd-ext4-journal.layout"
OC = {"nvme.command_set": "open_channel"}
J = {"host.streams": "journal", "host.files.journal_stream": 1}
ARMS = {
    "device mixed": {},
    "device separated": dict(J),
    "host mixed (pblk)": dict(OC, **{"ftl.placement.policy": "single"}),
    "host mixed (GC on its own)": dict(OC),
    "host separated": dict(OC, **J),
}
CLOSED = {"host.mode": "closed", "host.queue_depth": 32, "workload.flush_order": "true"}
MODES = {
    "closed": CLOSED,
    "open": {"host.mode": "open"},
    "closed, cost-benefit GC": dict(CLOSED, **{"ftl.gc.policy": "cost_benefit"}),
}
BASE = {"workload.source": "trace", "workload.format": "fio", "workload.fio_time_unit_ps": 1,
        "ftl.placement.policy": "stream", "ftl.hot.classes": 2, "ftl.write.at_floor": "pass"}


def journal_ranges(layout):
    """The journal inode's extents from debugfs's EXTENTS line, in bytes [begin, end)."""
    text = open(layout).read()
    bs = int(re.search(r"^Block size:\s+(\d+)", text, re.M).group(1))
    ext = text.split("EXTENTS:", 1)[1].strip().splitlines()[0]
    out = []
    for m in re.finditer(r"\((?!ETB)[^)]*\):(\d+)(?:-(\d+))?", ext):
        a = int(m.group(1))
        b = int(m.group(2) or a)
        out.append((a * bs, (b + 1) * bs))
    return bs, out


def trace_stats(path, ranges):
    """The recording's requests by kind, MB written, the share of it in the journal's ranges, span and flushes per
    write (ssdvp_explore.workloads.read_iolog reads it: plain or .xz, times in ps)."""
    import numpy as np
    sys.path.insert(0, os.path.join(ROOT, "explore"))
    from ssdvp_explore import workloads as recorded
    log = recorded.read_iolog(path, time_unit_ps=BASE["workload.fio_time_unit_ps"])
    n = {"read": log.count(recorded.READ), "write": log.count(recorded.WRITE), "sync": log.count(recorded.SYNC),
         "trim": log.count(recorded.TRIM)}
    if log.count(recorded.DATASYNC):
        n["datasync"] = log.count(recorded.DATASYNC)
    w = log.op == recorded.WRITE
    journal = np.zeros(len(log), dtype=bool)
    for a, b in ranges:
        journal |= (log.offset >= a) & (log.offset < b)
    wb, jb = int(log.length[w].sum()), int(log.length[w & journal].sum())
    last = int(log.time_ps[-1]) if len(log) else 0
    return {"ops": n, "write_mb": wb / 1e6, "journal_share": jb / wb if wb else 0.0, "span_s": last / 1e12,
            "flushes_per_write": n["sync"] / n["write"] if n["write"] else 0.0}


def model_rows():
    """The model's timed figures: docs/results/journal_host_ftl_timed/results.csv, the mean of its seeds. Its host
    arms without the write buffer, as these replays run (host mixed (GC on its own) has no such arm there)."""
    import csv
    import statistics
    by = {}
    with open(os.path.join(ROOT, "docs/results/journal_host_ftl_timed/results.csv"), newline="") as f:
        for r in csv.DictReader(f):
            if r["arm"].startswith("host") and not r["arm"].endswith(", no buffer"):
                continue
            by.setdefault((r["workload"], r["arm"].replace(", no buffer", "")), []).append(r)
    return {k: {key: statistics.fmean(float(r[key]) for r in v)
                for key in ("iops", "mbps", "waf", "erases", "fsync_p99_us")}
            for k, v in by.items()}


def run_all_points(build, jobs):
    """Every (replay, arm) replay of the recording: one row each, in MODES x ARMS order."""
    os.makedirs(OUT, exist_ok=True)
    trace = os.path.join(OUT, "session.iolog")
    with lzma.open(os.path.join(ROOT, TRACE), "rb") as f, open(trace, "wb") as g:
        g.write(f.read())
    layout = os.path.join(ROOT, LAYOUT)
    binary = os.path.join(build, "platform", "ssdvp")

    def one(point):
        mode, arm = point
        sets = dict(BASE, **MODES[mode], **ARMS[arm])
        sets.update({"workload.trace": trace, "host.files.ext4.layout": layout})
        d = os.path.join(OUT, re.sub(r"[^a-z0-9]+", "_", f"{mode} {arm}").strip("_"))
        t0 = time.monotonic()
        s = run_summary(binary, "configs/nbd.yaml", d, sets, f"{mode}/{arm}")
        wall = time.monotonic() - t0
        h, ftl, hf = s["host"], s["ftl"], s.get("host_ftl")
        pad = hf["pad_slots"] if hf else ftl["pad_slots"]  # the host FTL pads its own pages
        hl = ftl["host_lba_writes"]
        fl = s["latency_us"].get("flush", {"p50": 0, "p99": 0, "count": 0})
        r = {"mode": mode, "arm": arm, "waf": ftl["waf"],
             "flash_waf": (hl + ftl["gc_lba_writes"] + pad) / hl if hl else 0.0,
             "erases": ftl["erases"], "gc_moves": ftl["gc_lba_writes"], "pad": pad, "iops": h["iops"],
             "mbps": h["bandwidth_mbps"], "flush_p50": fl["p50"], "flush_p99": fl["p99"],
             "flushes": fl["count"], "write_p99": s["latency_us"]["write"]["p99"],
             "cpu_s": hf["cpu"]["busy_s"] if hf else None, "cpu_util": hf["cpu"]["utilization"] if hf else None,
             "reads_checked": s["integrity"]["reads_checked"], "mismatches": s["integrity"]["mismatches"],
             "errors": h.get("errors", 0), "sim_s": h["sim_time_s"], "wall_s": round(wall, 1)}
        print(f"{mode:24s} {arm:28s} WAF {r['waf']:.3f} flash {r['flash_waf']:.3f} erases {r['erases']} "
              f"{r['iops']:.0f} IOPS {r['mbps']:.2f} MB/s flush p50 {r['flush_p50']:.0f} p99 {r['flush_p99']:.0f} "
              f"us mism {r['mismatches']} ({wall:.0f} s)", flush=True)
        return r
    rows = run_rows(jobs, [(mode, arm) for mode in MODES for arm in ARMS], one)
    bad = [(r["mode"], r["arm"]) for r in rows if r["mismatches"] or r["errors"]]
    if bad:
        sys.exit(f"integrity mismatches or errors in {bad}")
    data = os.path.join(ROOT, "docs", "results", PAGE)
    bs, ranges = journal_ranges(layout)
    os.makedirs(data, exist_ok=True)
    with open(os.path.join(data, "trace.json"), "w") as f:
        json.dump({"trace": TRACE, "layout": LAYOUT, "block_size": bs, "journal_extents": ranges,
                   **trace_stats(trace, ranges)}, f, indent=1, sort_keys=True)
        f.write("\n")
    write_results(os.path.join(data, "model.csv"),
                  [{"workload": wl, "arm": arm, **v} for (wl, arm), v in model_rows().items()])
    return rows


def main():
    a = data_args(__doc__, PAGE).parse_args()
    rows, data = page_rows(a, PAGE, COMMAND, run_all_points)
    res = {(r["mode"], r["arm"]): r for r in rows}
    with open(os.path.join(data, "trace.json")) as f:
        ts = json.load(f)
    model = {(r["workload"], r["arm"]): r for r in read_results(os.path.join(data, "model.csv"))}
    jpath = os.path.join(os.path.dirname(os.path.abspath(data)), "journal", "results.csv")  # journal.md's data
    journal = points(read_results(jpath)) if os.path.exists(jpath) else {}  # each point's mean over its seeds
    page = os.path.abspath(a.page)
    write_lines(page, page_lines(page, res, ts, model, journal), data, COMMAND)


def fill_findings(text, res, ts, model, journal=None):
    """{mode|arm|field}: a figure of the table; {pct:mode|arm|other arm|field}: the change from the other arm
    (pad_per_flush is padded LBAs per flush); {trace|field}: the recording's journal_share (percent);
    {model:arm|other arm|workload|field}: the model's change (model.csv: journal_host_ftl_timed's data);
    {journal:workload|arm|pad_per_flush}: padded LBAs per flush on journal.md's page (its results.csv; with
    several seeds, mean padded LBAs over mean flushes)."""
    def val(mode, arm, f):
        r = res[(mode, arm)]
        return r["pad"] / r["flushes"] if f == "pad_per_flush" else r[f]

    def one(m):
        g = m.group(1)
        if g.startswith("pct:"):
            mode, x, y, f = g[4:].split("|")
            return pct(val(mode, x, f), val(mode, y, f))
        if g.startswith("model:"):
            x, y, wl, f = g[6:].split("|")
            if (wl, x) not in model or (wl, y) not in model:
                return "(no such arm in the model)"
            return pct(model[(wl, x)][f], model[(wl, y)][f])
        if g.startswith("journal:"):
            wl, arm, _ = g[8:].split("|")
            r = (journal or {}).get((wl, arm))
            return f"{r['pad_lbas'] / r['flushes']:.2f}" if r else "(not in journal.md's data)"
        p = g.split("|")
        if p[0] == "trace":
            return f"{100 * ts[p[1]]:.1f} %" if p[1] == "journal_share" else f"{ts[p[1]]:.2f}"
        v = val(*p)
        return f"{v:.3f}" if isinstance(v, float) and v < 10 else f"{v:.0f}"
    return re.sub(r"\{((?:pct|model|trace|journal|closed|open)[^{}]*)\}", one, text)


def page_lines(page, res, ts, model, journal=None):
    """The page's lines (its provenance section is write_lines'); its figures drawn beside it."""
    figs = os.path.join(os.path.dirname(page), PAGE)
    os.makedirs(figs, exist_ok=True)
    for key, title, unit in (("waf", "Write amplification", "WAF"), ("iops", "Throughput", "IOPS"),
                             ("flush_p99", "Flush latency p99", "us")):
        svg_bars(os.path.join(figs, f"{key}.svg"), title, list(MODES), list(ARMS),
                 {k: v[key] for k, v in res.items()}, unit)
    bs, ranges = ts["block_size"], ts["journal_extents"]
    o = ts["ops"]
    jb = sum(b - a_ for a_, b in ranges)
    L = ["# A real ext4's journal through the separation arms", "",
         "Regenerate (the wall time this took is in the provenance below):", "", "```sh", COMMAND, "```", ""]
    L += ["## The recording", "",
          f"`{TRACE}` ({o.get('read', 0)} reads, {o.get('write', 0)} writes, {o.get('sync', 0)} flushes, "
          f"{o.get('trim', 0)} trims; {ts['write_mb']:.0f} MB written over {ts['span_s']:.1f} s of simulated time "
          f"as recorded): a Linux guest's ext4 on the simulated drive, recorded by "
          "`scripts/guest/record-ext4-session.sh` (provenance in [traces/README.md](../../traces/README.md)). "
          f"The journal is the one mkfs.ext4 made ({jb // 1048576} MiB at block {ranges[0][0] // bs}, from "
          f"`{LAYOUT}`); {100 * ts['journal_share']:.1f} % of the written bytes went into it.", ""]
    L += ["## Setup", "",
          "The recording's drive, `configs/nbd.yaml` (1 GiB of flash, 896 MiB exported, 4 channels x 2 dies, greedy "
          "GC, filled once before the replay: GC works from the first writes), the trace as `workload.source: "
          "trace`. `ftl.placement.policy: stream` with two classes (relocated data on its own frontier) except in "
          "pblk's arm; `ftl.write.at_floor: pass`, as the model's journal pages. Arms, as on "
          "[journal_host_ftl_timed.md](journal_host_ftl_timed.md): **device mixed** (every host write on one "
          "write point), **device separated** (`host.streams: journal`: the writes that start inside the journal "
          "inode's blocks of the layout file carry NVMe stream 1), **host mixed (pblk)** (`nvme.command_set: "
          "open_channel`, the firmware's FTL on the host, one write point for host and GC data: "
          "`ftl.placement.policy: single`), **host mixed (GC on its own)**, **host separated** (the journal on "
          "its own write point, as the seed did in pblk). Replays: **closed** (queue depth 32, "
          "`workload.flush_order: true`: each flush waits for every earlier request and the next request for "
          "the flush, the kernel's ordering that the timestamps no longer impose; IOPS and MB/s are the "
          "throughput), **open** (at the recorded arrival times, which are the pace at which the recording's "
          "own drive, the device FTL with `ftl.placement.policy: double`, served the kernel; IOPS is requests "
          "over the time to the last completion, so an arm that keeps up shows the recorded rate), and "
          "**closed, cost-benefit GC** (`ftl.gc.policy: cost_benefit`). Flush latency is each flush command's "
          "(`latency_us.flush`: from its issue in the closed loop, from its recorded arrival in the open one): "
          "a block trace has no fsync boundaries, and here every fsync is one or two flushes. WAF is (host + GC "
          "writes) / host writes, flash WAF adds the slots flushes padded; the host FTL's CPU time is by its "
          "assumed cost table ([host_ftl.md](../models/host_ftl.md)).", ""]
    L += ["## Results", "",
          "| replay | arm | WAF | flash WAF | GC moves (LBAs) | padded (LBAs) | erases | IOPS | MB/s | "
          "flush p50 (us) | flush p99 (us) | host CPU (s) | host CPU busy | reads checked | mismatches |",
          "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"]
    for (mode, arm), r in res.items():
        cpu = f"{r['cpu_s']:.3f} | {100 * r['cpu_util']:.2f} %" if r["cpu_s"] is not None else "- | -"
        L.append(f"| {mode} | {arm} | {r['waf']:.3f} | {r['flash_waf']:.3f} | {r['gc_moves']} | {r['pad']} | "
                 f"{r['erases']} | {r['iops']:.0f} | {r['mbps']:.2f} | {r['flush_p50']:.0f} | {r['flush_p99']:.0f} | "
                 f"{cpu} | {r['reads_checked']} | {r['mismatches']} |")
    L += ["", "Separated against its mixed arm, and the model's figures for the same comparison "
          "([journal_host_ftl_timed.md](journal_host_ftl_timed.md): the file-level host's ext4-like journal on the "
          "same drive, closed loop, greedy GC, the mean of its seeds, its host arms without the write buffer; the "
          "seed's claim: WAF -33 % or more, I/O performance +46..50 %):", "",
          "| comparison | replay | WAF | flash WAF | erases | IOPS | flush p99 | model fio-rand: WAF | IOPS | "
          "model varmail: WAF | IOPS |", "|---|---|---|---|---|---|---|---|---|---|---|"]
    m = model
    pairs = [("device separated vs device mixed", "device separated", "device mixed"),
             ("host separated vs host mixed (pblk)", "host separated", "host mixed (pblk)"),
             ("host mixed (GC on its own) vs host mixed (pblk)", "host mixed (GC on its own)", "host mixed (pblk)"),
             ("host separated vs host mixed (GC on its own)", "host separated", "host mixed (GC on its own)")]
    for name, x, y in pairs:
        for mode in MODES:
            p, q = res[(mode, x)], res[(mode, y)]

            def mm(wl, k):
                if mode != "closed" or (wl, x) not in m or (wl, y) not in m:
                    return "-"
                return pct(m[(wl, x)][k], m[(wl, y)][k])
            L.append(f"| {name} | {mode} | {pct(p['waf'], q['waf'])} | {pct(p['flash_waf'], q['flash_waf'])} | "
                     f"{pct(p['erases'], q['erases'])} | {pct(p['iops'], q['iops'])} | "
                     f"{pct(p['flush_p99'], q['flush_p99'])} | {mm('fio-rand', 'waf')} | {mm('fio-rand', 'iops')} | "
                     f"{mm('varmail', 'waf')} | {mm('varmail', 'iops')} |")
    L += ["", "![WAF](journal_ext4_real/waf.svg)", "", "![IOPS](journal_ext4_real/iops.svg)", "",
          "![flush p99](journal_ext4_real/flush_p99.svg)", ""]
    findings = os.path.join(ROOT, "scripts/journal_ext4_real_findings.md")
    if os.path.exists(findings):
        L += [fill_findings(open(findings).read(), res, ts, model, journal)]
    return L


if __name__ == "__main__":
    main()
