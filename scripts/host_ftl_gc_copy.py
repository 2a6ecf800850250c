#!/usr/bin/env python3
"""The host-level FTL's GC with and without Vector Chunk Copy (93h), timed:
regenerates docs/results/host_ftl_gc_copy/ (results.csv, one row per run with
its wall time, and provenance.json) and docs/results/host_ftl_gc_copy.md.

Runs build/platform/ssdvp with nvme.command_set open_channel (the firmware's
FTL on the host over Open-Channel vector commands, docs/models/host_ftl.md)
and host.ftl.gc_copy read_write (GC reads valid data to the host and writes
it back, as pblk does) or vector_copy (GC names sources and destinations, the
drive moves the data: firmware/ftl/vcopy.c), on the journal experiment's
workloads (configs/journal.yaml, the ext4-like journal on its own write
point) and on configs/open_channel.yaml's random writes. Measures: bytes over
the drive's PCIe link, host CPU time, GC time, WAF, throughput, fsync p99.

Each point is --seeds runs (default 3): seed k sets host.files.seed, workload.synthetic.seed and
precondition.seed to k (the file workloads' choices; random-4k's requests and ageing). Tables show each
point's mean with its 95 % interval and each change against read_write paired by seed.

    python3 scripts/host_ftl_gc_copy.py [--bin build/platform/ssdvp] [--out out/host_ftl_gc_copy] [--time 20s]
                                        [--seeds 3] [--jobs 1]
    python3 scripts/host_ftl_gc_copy.py --render DATA_DIR --page OUT_MD     runs nothing: the page from data
"""
import argparse
import os
import sys
import time

T0 = time.monotonic()   # the run's wall time, for its provenance

ROOT = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(ROOT)
sys.path.insert(0, os.path.join(ROOT, "scripts"))
import journal_experiment as je  # noqa: E402  (its WORKLOADS, run_summary)
from provenance import provenance_section  # noqa: E402
from runpoint import by_point, cell, change, each, read_results, write_results  # noqa: E402
from streams_experiment import svg_bars  # noqa: E402
sys.path.insert(0, os.path.join(ROOT, "explore"))
from ssdvp_explore import provenance as prov_mod  # noqa: E402  (standard library only)
from ssdvp_explore.stats import fmt_ci, mean_ci  # noqa: E402

# ftl.write.at_floor stated: the page does not move when that default changes.
COMMON = {"nvme.command_set": "open_channel", "ftl.write.at_floor": "pass"}
WORKLOADS = {
    "fio-rand": ("configs/journal.yaml", dict(je.WORKLOADS["fio-rand"], **{"host.files.journal_stream": 1})),
    "varmail": ("configs/journal.yaml", dict(je.WORKLOADS["varmail"], **{"host.files.journal_stream": 1})),
    "fileserver": ("configs/journal.yaml", dict(je.WORKLOADS["fileserver"], **{"host.files.journal_stream": 1})),
    "random-4k": ("configs/open_channel.yaml", {}),
}
ARMS = {"read_write": {"host.ftl.gc_copy": "read_write"},
        "vector_copy": {"host.ftl.gc_copy": "vector_copy"},
        "vector_copy x8": {"host.ftl.gc_copy": "vector_copy", "host.ftl.copy_batch": 8}}


def us(t):
    """A config time ("20us", "1.5ms", "800ns", "1s") in microseconds."""
    t = str(t)
    for suffix, scale in (("ns", 1e-3), ("us", 1.0), ("ms", 1e3), ("s", 1e6)):
        if t.endswith(suffix):
            return float(t[:-len(suffix)]) * scale
    return float(t)


SEED_KEYS = ("host.files.seed", "workload.synthetic.seed", "precondition.seed")


def run(binary, out, wl, arm, time_limit, reuse, extra=None, tag="", seed=1):
    d = os.path.join(out, f"{wl}_{arm.replace(' ', '_')}{tag}_s{seed}")
    config, sets = WORKLOADS[wl]
    sets = dict(COMMON, **sets)
    sets.update(ARMS[arm])
    sets.update({k: seed for k in SEED_KEYS})
    sets.update(extra or {})
    if config.endswith("journal.yaml"):
        sets["host.time_limit"] = time_limit
    t0 = time.time()
    s = je.run_summary(binary, config, d, sets, f"{wl}/{arm}", reuse)
    hf, h = s["host_ftl"], s["host"]
    jn = s.get("journal", {}).get("fsync_latency_us", {})
    moved = hf["gc_lba_writes"]
    r = {"waf": hf["waf"], "moved": moved, "erases": hf["erases"], "gc_s": hf["gc_active_s"],
         "cpu_s": hf["cpu"]["busy_s"], "to_drive_mb": hf["link"]["bytes_to_drive"] / 1e6,
         "to_host_mb": hf["link"]["bytes_from_drive"] / 1e6, "copies": hf["vector_commands"]["copies"],
         "copy_pages": hf["vector_commands"]["copy_pages"],
         "vreads": hf["vector_commands"]["reads"], "vwrites": hf["vector_commands"]["writes"],
         "host_lbas": hf["host_lba_writes"], "iops": h["iops"], "mbps": h["bandwidth_mbps"],
         "fsyncs": jn.get("count", 0), "fsync_p99_us": jn.get("p99", 0.0), "sim_s": h["sim_time_s"],
         "mismatches": s["integrity"]["mismatches"], "reads_checked": s["integrity"]["reads_checked"],
         "error": hf["error"], "wall_s": round(time.time() - t0, 1)}
    held = hf.get("drive_held", {})  # the drive's holds for destination chunks (ocssd.c)
    r["tr_us"] = us(s["config"].get("flash.timing.read", "0us"))
    r.update({"held": held.get("commands", 0), "held_copies": held.get("copies", 0),
              "held_s": held.get("held_s", 0.0), "held_copy_s": held.get("copies_held_s", 0.0)})
    print(f"{wl:10s} {arm:11s} seed {seed} WAF {r['waf']:.3f} moved {moved} GC {r['gc_s']:.2f} s CPU {r['cpu_s']:.4f} s "
          f"link {r['to_drive_mb']:.1f}/{r['to_host_mb']:.1f} MB {r['iops']:.0f} IOPS ({r['wall_s']} s)", flush=True)
    return r


def args():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--bin", default=os.path.join(ROOT, "build/platform/ssdvp"))
    ap.add_argument("--out", default=os.path.join(ROOT, "out/host_ftl_gc_copy"))
    ap.add_argument("--time", default="20s", help="host.time_limit of the journal workloads (simulated)")
    ap.add_argument("--reuse", action="store_true", help="take the summaries already in --out")
    ap.add_argument("--seeds", type=int, default=3, help="runs per point: seeds 1..N (default 3)")
    ap.add_argument("--jobs", type=int, default=1, help="runs at a time (default 1)")
    ap.add_argument("--page", default=os.path.join(ROOT, "docs/results/host_ftl_gc_copy.md"))
    ap.add_argument("--render", metavar="DATA_DIR",
                    help="run nothing: render the page from this folder's results.csv and provenance.json "
                         "(docs/results/host_ftl_gc_copy is the committed one)")
    return ap.parse_args()


def command(time_limit, seeds):
    return ("python3 scripts/host_ftl_gc_copy.py" + (f" --time {time_limit}" if time_limit != "20s" else "")
            + (f" --seeds {seeds}" if seeds != 3 else ""))


def derive(r):
    """A run's derived figures: link and host CPU per host byte or LBA, GC's share of the time, the holds'."""
    r["link_mb"] = r["to_drive_mb"] + r["to_host_mb"]
    r["mb_per_host_mb"] = r["link_mb"] / (r["host_lbas"] * 4096 / 1e6)
    r["gc_share"] = r["gc_s"] / r["sim_s"] if r["sim_s"] else 0.0
    r["cpu_per_lba"] = r["cpu_s"] / r["host_lbas"] if r["host_lbas"] else 0.0
    r["held_frac"] = r["held_copies"] / r["copies"] if r["copies"] else 0.0
    r["hold_us"] = r["held_copy_s"] / r["held_copies"] * 1e6 if r["held_copies"] else 0.0
    r["held_share"] = r["held_copy_s"] / r["gc_s"] if r["gc_s"] else 0.0


# The cause's check: held copies wait for the source reads ahead of them, so the hold should follow tR.
TR, TR_WLS = ("5us", "80us"), ("fio-rand", "random-4k")


def main():
    a = args()
    figs = os.path.join(os.path.dirname(os.path.abspath(a.page)), "host_ftl_gc_copy")
    os.makedirs(figs, exist_ok=True)
    if a.render:
        data = a.render
    else:
        data = os.path.join(ROOT, "docs/results/host_ftl_gc_copy")
        if a.seeds < 1 or a.jobs < 1:
            sys.exit("--seeds and --jobs: expected 1 or more")
        todo = [(wl, arm, "", k) for k in range(1, a.seeds + 1) for wl in WORKLOADS for arm in ARMS]
        todo += [(wl, arm, t, k) for k in range(1, a.seeds + 1) for wl in TR_WLS for t in TR
                 for arm in ("read_write", "vector_copy")]

        def one(p):
            wl, arm, t, k = p
            extra, tag = ({"flash.timing.read": t}, f"_tR{t}") if t else (None, "")
            return dict(workload=wl, arm=arm, tR=t, seed=k, time=a.time,
                        **run(a.bin, a.out, wl, arm, a.time, a.reuse, extra, tag, k))
        from concurrent.futures import ThreadPoolExecutor  # each run is a process: the threads only wait
        with ThreadPoolExecutor(a.jobs) as ex:
            rows = list(ex.map(one, todo))
        write_results(os.path.join(data, "results.csv"), rows)
        cmd = command(a.time, a.seeds)
        provenance_section(a.bin, cmd, data_dir=data, wall_s=time.monotonic() - T0)
    rows = read_results(os.path.join(data, "results.csv"))
    prov = prov_mod.read(data)
    a.time = rows[0]["time"]
    for r in rows:  # each run's derived figures, averaged over the seeds below with the rest
        derive(r)
    for r in rows:
        r["point"] = (r["workload"], r["tR"], r["arm"])
    pts = by_point(rows, "point")
    res = {(w, arm): p for (w, t, arm), p in pts.items() if not t}
    tr = {k: p for k, p in pts.items() if k[1]}
    nseeds = max(len(p["runs"]) for p in pts.values())
    wls = list(WORKLOADS)
    for key, title, unit in (("mb_per_host_mb", "PCIe bytes per host byte written", "bytes/byte"),
                             ("gc_s", "GC time (a victim open)", "s"), ("iops", "Throughput", "IOPS")):
        svg_bars(os.path.join(figs, f"{key}.svg"), title, wls, list(ARMS), {k: v[key] for k, v in res.items()}, unit,
                 {k: mean_ci([r[key] for r in v["runs"]])[1] for k, v in res.items()})
    cmd = (prov or {}).get("command") or command(a.time, nseeds)
    wall = sum(r["wall_s"] for r in rows)
    load = prov.get("load") if prov else None
    cost = (f"{len(rows)} runs: {wall:,.0f} s of wall time summed over the runs as results.csv records it"
            + (f", load average {load[0]:g} / {load[1]:g} / {load[2]:g} on {prov.get('cpus')} CPUs" if load else "")
            + "; `--jobs N` runs N at a time")
    L = ["# Host FTL: GC by Vector Chunk Copy against read and write back", "",
         f"Regenerate ({cost}):", "", "```sh", "bash scripts/build.sh && " + cmd, "```", "",
         "Render again from the committed data: `python3 scripts/host_ftl_gc_copy.py --render "
         "docs/results/host_ftl_gc_copy --page docs/results/host_ftl_gc_copy.md`. Data: "
         "[host_ftl_gc_copy/results.csv](host_ftl_gc_copy/results.csv) (one row per run). "
         + ("One point is one run with one seed: single runs, without intervals." if nseeds < 2 else
            f"One point is {nseeds} runs, seed k setting " + ", ".join(f"`{k}`" for k in SEED_KEYS) + " to k "
            "(the file workloads' choices; random-4k's requests and ageing): each figure is their mean ± the "
            "half-width of its 95 % t interval, each change against read_write the mean of the per-seed changes "
            "(paired by seed) with its interval; mismatches are summed."), "",
         "The host-level FTL ([host_ftl.md](../models/host_ftl.md)) over the drive in the open-channel "
         "personality, timed, with its GC moving valid data in one of two ways (`host.ftl.gc_copy`): "
         "**read_write**, pblk's way: each victim page with valid data is read to the host (Vector Chunk Read, "
         "data and per-sector metadata) and its valid LBAs are written back with the next host-FTL page "
         "(Vector Chunk Write); **vector_copy**: the FTL gathers the victim's valid sectors into units of one "
         "page and sends one Vector Chunk Copy (93h) per unit, naming sources and destination; the drive reads "
         "and programs them, no data crosses the link ([firmware.md](../firmware.md), *Copy*); **vector_copy x8**: "
         "the same with up to 8 units a command (`host.ftl.copy_batch: 8`). All place the moved data on the same "
         "write point (the host FTL's GC frontier).", "",
         f"Workloads: **fio-rand**, **varmail**, **fileserver**: the journal experiment's "
         f"([journal_host_ftl_timed.md](journal_host_ftl_timed.md)) on `configs/journal.yaml` (1 GiB of flash, "
         f"896 MiB exported, 4 channels x 2 dies, filled once, ext4-like journal of 16 MiB on its own write "
         f"point, `host.files.journal_stream: 1`), `host.time_limit` {a.time}; **random-4k**: "
         "`configs/open_channel.yaml` (the same drive, filled and aged with half a drive-write, then 50000 "
         "uniform random 4 KiB requests, 30 % reads, queue depth 32), where GC moves much more. "
         "`ftl.write.at_floor: pass` in every run. Link bytes are the drive's NVMe controller's modelled "
         "bytes of its transfers both ways over the timed part (data, metadata, address lists; not the command "
         "and completion entries); host CPU is the "
         "host FTL's by the firmware's cost estimates at 3 GHz; GC time is the time with at least one victim "
         "open.", "",
         "| workload | GC by | WAF | LBAs moved | copies (pages) | vector reads | to drive (MB) | to host (MB) | "
         "link bytes per host byte | host CPU (s) | GC time (s) | IOPS | fsync p99 (us) | reads checked | "
         "mismatches |",
         "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"]
    for wl in wls:
        for arm in ARMS:
            r = res[(wl, arm)]
            f99 = cell(r, "fsync_p99_us", ",.0f") if r["fsyncs"] else "no fsync"
            L.append(f"| {wl} | {arm} | {cell(r, 'waf', '.3f')} | {cell(r, 'moved', ',.0f')} | {cell(r, 'copies', ',.0f')} "
                     f"({cell(r, 'copy_pages', ',.0f')}) | {cell(r, 'vreads', ',.0f')} | {cell(r, 'to_drive_mb', '.1f')} | "
                     f"{cell(r, 'to_host_mb', '.1f')} | {cell(r, 'mb_per_host_mb', '.3f')} | {cell(r, 'cpu_s', '.4f')} | "
                     f"{cell(r, 'gc_s', '.2f')} | {cell(r, 'iops', ',.0f')} | {f99} | {cell(r, 'reads_checked', ',.0f')} | "
                     f"{sum(x['mismatches'] for x in r['runs'])} |")
    L += ["", "Against read_write:", "",
          "| workload | GC by | link bytes | to host | host CPU | host CPU saved per moved LBA (ns) | GC time | WAF | "
          "IOPS | fsync p99 |", "|---|---|---|---|---|---|---|---|---|---|"]
    for wl, arm in [(wl, arm) for wl in wls for arm in list(ARMS)[1:]]:
        cp, w = res[(wl, arm)], res[(wl, "read_write")]

        def per_move(cr, wr):  # host CPU saved per LBA the copy arm moved, ns
            if not (wr["host_lbas"] and cr["host_lbas"] and cr["moved"]):
                return 0.0
            return (wr["cpu_s"] / wr["host_lbas"] - cr["cpu_s"] / cr["host_lbas"]) * cr["host_lbas"] / cr["moved"] * 1e9
        f99 = change(cp, w, "fsync_p99_us") if w["fsyncs"] else "no fsync"
        L.append(f"| {wl} | {arm} | {change(cp, w, 'link_mb')} | {change(cp, w, 'to_host_mb')} | "
                 f"{change(cp, w, 'cpu_per_lba')} per host LBA | {fmt_ci(each(cp, w, per_move), ',.0f')} | "
                 f"{change(cp, w, 'gc_s')} | {change(cp, w, 'waf')} | {change(cp, w, 'iops')} | {f99} |")
    L += ["", "## Holds in the drive", "",
          "What the drive's line held back because a chunk a command programs or resets is the destination of a "
          "parked Vector Copy (one whose source reads are out) or of a command held ahead of it "
          "(`host_ftl.drive_held` in summary.json, counted by `ocssd.c`: commands held, of them copies, and the "
          "time they were held summed over commands). Read and write back has nothing to hold (no copy to park); "
          "per copy and per GC second are the copy arms' figures.", "",
          "| workload | GC by | commands held | of them copies | copies held / copies | held (s, summed) | "
          "copies' held time (s) | mean hold per held copy (us) | copies' held time per GC second |",
          "|---|---|---|---|---|---|---|---|---|"]
    for wl in wls:
        for arm in ARMS:
            r = res[(wl, arm)]
            L.append(f"| {wl} | {arm} | {cell(r, 'held', ',.0f')} | {cell(r, 'held_copies', ',.0f')} | "
                     f"{cell(r, 'held_frac', '.2f')} | {cell(r, 'held_s', '.3f')} | {cell(r, 'held_copy_s', '.3f')} | "
                     f"{cell(r, 'hold_us', ',.0f')} | {cell(r, 'held_share', '.2f')} |")
    L += ["", "The same with the flash read time (`flash.timing.read`, tR) changed, on fio-rand and random-4k: if "
          "held copies wait for the source reads ahead of them, the hold per copy should follow tR.", "",
          "| workload | tR | GC by | WAF | IOPS | against read_write | copies held / copies | "
          "mean hold per held copy (us) | GC time (s) |", "|---|---|---|---|---|---|---|---|---|"]
    for wl in TR_WLS:
        trows = [(t, tr[(wl, t, "read_write")], tr[(wl, t, "vector_copy")]) for t in TR]
        trows.insert(1, (f"{res[(wl, 'read_write')]['tr_us']:.0f}us", res[(wl, "read_write")],
                        res[(wl, "vector_copy")]))
        for t, w, cp in trows:
            for arm, r in (("read_write", w), ("vector_copy", cp)):
                L.append(f"| {wl} | {t} | {arm} | {cell(r, 'waf', '.3f')} | {cell(r, 'iops', ',.0f')} | "
                         f"{change(r, w, 'iops') if r is cp else '-'} | {cell(r, 'held_frac', '.2f')} | "
                         f"{cell(r, 'hold_us', ',.0f')} | {cell(r, 'gc_s', '.2f')} |")
    L += ["", "![link bytes](host_ftl_gc_copy/mb_per_host_mb.svg)", "", "![GC time](host_ftl_gc_copy/gc_s.svg)", "",
          "![IOPS](host_ftl_gc_copy/iops.svg)", ""]
    def d(wl, key, arm="vector_copy"):
        return change(res[(wl, arm)], res[(wl, "read_write")], key)

    def span(key, arm="vector_copy"):
        v = [100.0 * (res[(wl, arm)][key] - res[(wl, "read_write")][key]) / res[(wl, "read_write")][key]
             for wl in wls if res[(wl, "read_write")][key]]
        return f"{min(v):+.0f}..{max(v):+.0f} %"

    link = [(r["to_drive_mb"] + r["to_host_mb"]) / r["sim_s"] for r in res.values() if r["sim_s"]]

    def held_frac(wl):
        r = res[(wl, "vector_copy")]
        return f"{100.0 * r['held_frac']:.0f} %" if r["copies"] else "none"

    def mean_hold(wl):
        return f"{res[(wl, 'vector_copy')]['hold_us']:.0f} us"

    def conc(wl):
        return f"{res[(wl, 'vector_copy')]['held_share']:.1f}"

    tr_us = res[(wls[0], "read_write")]["tr_us"]
    TR3 = [TR[0], f"{tr_us:.0f}us", TR[1]]

    def tr_runs(wl, arm):
        return [tr[(wl, TR[0], arm)], res[(wl, arm)], tr[(wl, TR[1], arm)]]

    def hold3(wl):
        return [f"{r['hold_us']:.0f} us" for r in tr_runs(wl, "vector_copy")]

    def loss3(wl):
        return [change(cp, w, "iops") for cp, w in zip(tr_runs(wl, "vector_copy"), tr_runs(wl, "read_write"))]
    L += ["## What it shows", "",
          "The figures are filled in by the script from the tables above; the reading is by hand.", "",
          f"- **The link.** With the copy no GC data crosses it: bytes to the host {d('fio-rand', 'to_host_mb')} on "
          "fio-rand (which reads nothing), and what is left on the others is the host's own reads; bytes towards "
          f"the drive {span('to_drive_mb')} (only the host's own writes are left); per byte the host writes, "
          f"{res[('random-4k', 'read_write')]['mb_per_host_mb']:.1f} bytes crossed the link by read and write back "
          f"against {res[('random-4k', 'vector_copy')]['mb_per_host_mb']:.2f} by copy on random-4k (WAF "
          f"{res[('random-4k', 'read_write')]['waf']:.1f}). "
          f"But the link is far from full in every run (at most {max(link):.0f} MB/s both ways together against "
          "`pcie.mbps` 3940 per direction), so the bytes saved buy no time here.",
          f"- **Host CPU**: {span('cpu_s')} in total (fewer host I/Os served in the slower arm are part of it). The "
          "model charges the host CPU no time for data movement (the drive's DMA moves it), so what the copy "
          "saves is the read path's per-page operations: a read's submission and completion and a buffer per "
          "victim page, about 140 cycles by the cost table (47 ns at 3 GHz, some 23 ns per moved LBA at 2 LBAs a "
          "page); the last table's per-LBA figure is of that order on the fsync workloads. A real host also "
          "copies no data for the copy; pblk's read and write back touches it twice, which this model does not "
          "charge.",
          f"- **WAF** moves by {span('waf')} (a victim's last unit is padded; an LBA overwritten while its copy is "
          "in flight leaves a dead slot in the copy).",
          f"- **Throughput is not better: it is worse.** IOPS {span('iops')} with one unit a command, "
          f"{span('iops', 'vector_copy x8')} with eight; GC time (a victim open) {span('gc_s')} where GC is not "
          "running all the time anyway.",
          "- **Why: copies to one chunk wait for each other in the drive** (isolated by the drive's hold counters, "
          "the table *Holds in the drive*). A Vector Chunk Copy reserves its destination units at once; the drive "
          "programs a chunk's pages in write-pointer order, so a later copy to the same chunk is held in the "
          "drive's line, its own source reads not even started, until the copy ahead has its sources read and "
          "its programs issued. GC writes all its units to the few open chunks of its write point (one per die "
          f"it reaches), so the copies queue per chunk: {held_frac('fio-rand')} of fio-rand's copies, "
          f"{held_frac('varmail')} of varmail's, {held_frac('fileserver')} of fileserver's and "
          f"{held_frac('random-4k')} of random-4k's were held, for {mean_hold('fio-rand')}, "
          f"{mean_hold('varmail')}, {mean_hold('fileserver')} and {mean_hold('random-4k')} on average (tR is "
          f"{tr_us:.0f} us): {conc('fio-rand')}, {conc('varmail')}, {conc('fileserver')} and "
          f"{conc('random-4k')} copies held at any moment of GC time. The hold follows the source reads: with tR "
          f"{', '.join(TR3)} the mean hold per held copy on random-4k is {', '.join(hold3('random-4k'))}, and "
          f"its throughput against read and write back {', '.join(loss3('random-4k'))} (the tR table); on "
          f"fio-rand, whose GC has a victim open {100 * res[('fio-rand', 'vector_copy')]['gc_share']:.0f} % of the "
          "time and where the host's writes set the pace, the "
          f"hold grows the same way ({', '.join(hold3('fio-rand'))}) but the loss does not "
          f"({', '.join(loss3('fio-rand'))}). Part of random-4k's loss is not the hold: the copy's padding and "
          f"dead slots raise its WAF by {d('random-4k', 'waf')}. Read and write back holds nothing "
          "(0 in every row): the host issues the reads of every victim page at once, across dies, and writes "
          "what came back; the drive's programs never wait for a read. A batch of eight units names several "
          "chunks per command, and the whole command waits for the chunks of the copies ahead. The copy saves "
          "link bytes and host CPU, neither of which is short here, and pays with serialized reads per GC chunk. "
          "What would remove it (not built): a drive that issues a held copy's source reads at once and holds "
          "only its programs (the reads touch no destination chunk), or a host that spreads consecutive copy "
          "units over more open chunks. Copy would also pay off where the link or the host's memory bandwidth "
          "is the constraint (many drives behind one host, a slower link, a host CPU that copies the data), none "
          "of which is modelled here; on this drive GC by read and write back stays the faster way, which is why "
          "it stays the default.",
          (f"- {nseeds} seeds per row" if nseeds > 1 else "- One seed per row")
          + "; the functional test (`firmware_host_ftl_test`) checks the integrity and the zero "
          "GC bytes to the host on its own small drive.", ""]
    L.append(prov_mod.section(prov, cmd))
    with open(a.page, "w") as f:
        f.write("\n".join(L) + "\n")
    bad = [k for k, p in pts.items() for r in p["runs"] if r["mismatches"] or r["error"]]
    if bad:
        sys.exit(f"integrity mismatches or host FTL errors in {bad}")


if __name__ == "__main__":
    main()
