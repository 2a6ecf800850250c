#!/usr/bin/env python3
"""Writes docs/results/workloads.md whole: the recorded application workloads
(traces/workloads/*.iolog.xz, scripts/workloads/record.sh) characterised side
by side with ssdvp's synthetic application generators they replace
(workload.source: app, kinds fio, rocksdb, mysql, rocksdb2).

Usage: /usr/bin/python3 scripts/workloads/characterise.py [--ssdvp build/platform/ssdvp]
       [--out docs/results/workloads.md] [--ops 400000]

Per workload: requests by kind, bytes, drive-writes, mean write size,
footprint (distinct 4 KiB blocks written, of the drive), flush and TRIM
rates, the rewrite distance of every 4 KiB block write (how many 4 KiB blocks
were written in between since that block's previous write, in drive
capacities), and the hot set over time (the write stream cut into 10 windows
of equal writes; in each, the fewest 1 MiB regions taking half of that
window's writes, its size as a share of the drive and the share of it that was
hot in the window before). The recordings come from the committed files
(sha256 checked); the generators are run here on configs/workloads.yaml with
host.streams_log (their writes and trims) and summary.json (their reads and
flushes). The page names the commit it was generated from.
"""
from __future__ import annotations

import argparse
import hashlib
import json
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "explore"))
from ssdvp_explore import provenance as prov_mod  # noqa: E402  (standard library only)
from ssdvp_explore import workloads as wl  # noqa: E402
BLK = 4096
REGION = 1 << 20
WINDOWS = 10


def load_recording(name: str) -> tuple[dict, np.ndarray, dict]:
    """(provenance, writes+trims as rows t,op(0 write,1 trim),off,len, counts)."""
    prov = json.loads((ROOT / "traces/workloads" / f"{name}.json").read_text())
    path = ROOT / "traces/workloads" / f"{name}.iolog.xz"
    if hashlib.sha256(path.read_bytes()).hexdigest() != prov["sha256_xz"]:
        sys.exit(f"{name}: sha256 differs from {name}.json")
    log = wl.read_iolog(path, time_unit_ps=wl.TIME_UNIT_PS)
    counts = {"read": log.count(wl.READ), "write": log.count(wl.WRITE), "trim": log.count(wl.TRIM),
              "sync": log.count(wl.SYNC) + log.count(wl.DATASYNC)}
    for code, op in ((wl.READ, "read"), (wl.WRITE, "write"), (wl.TRIM, "trim")):
        counts[op + "_bytes"] = int(log.length[log.op == code].sum())
    counts["sim_s"] = (int(log.time_ps[-1]) if len(log) else 0) / 1e12
    w = (log.op == wl.WRITE) | (log.op == wl.TRIM)
    rows = np.stack([log.time_ps[w], (log.op[w] == wl.TRIM).astype(np.int64), log.offset[w], log.length[w]], axis=1)
    return prov, rows.astype(np.int64).reshape(-1, 4), counts


def run_generator(ssdvp: str, kind: str, ops: int) -> tuple[np.ndarray, dict]:
    with tempfile.TemporaryDirectory() as d:
        log = os.path.join(d, "streams.csv")
        cmd = [ssdvp, "run", "-c", str(ROOT / "configs/workloads.yaml"), "--set", "workload.source=app",
               "--set", f"workload.app.kind={kind}", "--set", f"workload.app.operations={ops}",
               "--set", f"host.streams_log={log}", "-o", os.path.join(d, "out"), "-q"]
        subprocess.run(cmd, check=True, env=dict(os.environ, SYSTEMC_DISABLE_COPYRIGHT_MESSAGE="1"),
                       stdout=subprocess.DEVNULL)
        h = json.load(open(os.path.join(d, "out", "summary.json")))["host"]
        with open(log) as f:
            next(f)
            rows = np.array([(int(t), 0 if op == "write" else 1, int(off), int(ln))
                             for t, op, off, ln, _ in (line.split(",") for line in f)],
                            dtype=np.int64).reshape(-1, 4)
    counts = {"read": h["reads"], "write": h["writes"], "trim": h["trims"], "sync": h["flushes"],
              "read_bytes": h["read_bytes"], "write_bytes": h["write_bytes"],
              "trim_bytes": int(rows[rows[:, 1] == 1, 3].sum()), "sim_s": h["sim_time_s"]}
    return rows, counts


def characterise(rows: np.ndarray, counts: dict, drive: int) -> dict:
    w = rows[rows[:, 1] == 0]
    nblk = (w[:, 3] + BLK - 1) // BLK
    first = w[:, 2] // BLK
    blocks = np.repeat(first, nblk) + (np.arange(nblk.sum()) - np.repeat(np.cumsum(nblk) - nblk, nblk))
    pos = np.arange(len(blocks))
    order = np.lexsort((pos, blocks))
    b, p = blocks[order], pos[order]
    same = b[1:] == b[:-1]
    dist = (p[1:] - p[:-1])[same] * BLK / drive          # in drive capacities
    out = {"footprint": len(np.unique(blocks)) * BLK / drive, "block_writes": len(blocks),
           "first_share": 1 - len(dist) / max(len(blocks), 1)}
    out["dist_pct"] = np.percentile(dist, [10, 50, 90]).tolist() if len(dist) else [float("nan")] * 3
    regions = blocks * BLK // REGION
    hot, sizes, overlaps = None, [], []
    for win in np.array_split(regions, WINDOWS):
        ids, cnt = np.unique(win, return_counts=True)
        o = np.argsort(-cnt, kind="stable")
        k = int(np.searchsorted(np.cumsum(cnt[o]), cnt.sum() / 2)) + 1
        h = set(ids[o[:k]].tolist())
        sizes.append(len(h) * REGION / drive)
        overlaps.append(len(h & hot) / len(h) if hot is not None else float("nan"))
        hot = h
    out["hot_sizes"], out["hot_overlaps"] = sizes, overlaps
    out.update(counts)
    out["drive_writes"] = counts["write_bytes"] / drive
    n = max(counts["read"] + counts["write"], 1)
    out["read_share"] = counts["read"] / n
    out["mean_write_kib"] = counts["write_bytes"] / max(counts["write"], 1) / 1024
    gib = counts["write_bytes"] / (1 << 30)
    out["flush_per_gib"] = counts["sync"] / gib if gib else float("nan")
    out["writes_per_flush"] = counts["write"] / counts["sync"] if counts["sync"] else float("inf")
    out["trim_ratio"] = counts["trim_bytes"] / counts["write_bytes"] if counts["write_bytes"] else float("nan")
    return out


def fmt(x: float, d: int = 2) -> str:
    return "–" if x != x else ("∞" if x == float("inf") else f"{x:.{d}f}")


def readme_block() -> None:
    """The recordings' rows for traces/README.md (pasted there by hand)."""
    print("| file | drive | requests (reads, writes, trims, flushes) | written | guest | packages |")
    print("|---|---|---|---|---|---|")
    sums = []
    for n in wl.names(ROOT):
        p = wl.provenance(ROOT, n)
        o = p["by_op"]
        app = {"fio": ("fio",), "postmark": ("postmark",), "rocksdb": ("rocksdb-tools",), "filebench": (),
               "mariadb": ("mariadb-server", "sysbench"), "dbench": ("dbench",)}[n.split("-")[0]]
        apps = ", ".join([f"{k} {p['packages'][k]['version']}" for k in (*app, "e2fsprogs")] +
                         ([] if app else ["fbp (ours, scripts/workloads/filebench/fbp.c)"]))
        print(f"| `{n}.iolog.xz` | `{p['drive']['config']}` | {p['requests']:,} ({o.get('read', 0):,}, "
              f"{o.get('write', 0):,}, {o.get('trim', 0):,}, {o.get('sync', 0):,}) | "
              f"{o.get('write_bytes', 0) / (1 << 30):.2f} GiB = {p['drive']['drive_writes']} drive-writes | "
              f"{p['guest_wall_seconds']} s | {apps} |")
        sums += [f"    {p['sha256_xz']}  workloads/{n}.iolog.xz",
                 f"    {p['sha256_iolog']}  workloads/{n}.iolog (unpacked)"]
    print()
    print("\n".join(sums))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--ssdvp", default=str(ROOT / "build/platform/ssdvp"))
    ap.add_argument("--out", default=str(ROOT / "docs/results/workloads.md"))
    ap.add_argument("--ops", type=int, default=400000, help="operations of each synthetic generator")
    ap.add_argument("--render", metavar="DATA_DIR",
                    help="run nothing: the page from DATA_DIR/characterised.json (docs/results/workloads is the "
                         "committed one) and the committed recordings' provenance")
    ap.add_argument("--readme", action="store_true",
                    help="print traces/README.md's table and sha256 lines of the recordings instead")
    a = ap.parse_args()
    if a.readme:
        readme_block()
        return
    data_dir = Path(a.render) if a.render else ROOT / "docs/results/workloads"
    if a.render:
        data = json.loads((data_dir / "characterised.json").read_text())
    else:
        data = {"ops": a.ops, "recordings": {}, "generators": {}}
        for n in wl.names(ROOT):
            prov, rows, counts = load_recording(n)
            data["recordings"][n] = characterise(rows, counts, prov["drive"]["export_bytes"])
        for kind in ("fio", "rocksdb", "mysql", "rocksdb2"):
            rows, counts = run_generator(a.ssdvp, kind, a.ops)
            data["generators"][f"synthetic app: {kind}"] = characterise(rows, counts, 4 << 30)  # configs/workloads.yaml
        data_dir.mkdir(parents=True, exist_ok=True)
        (data_dir / "characterised.json").write_text(json.dumps(data, indent=1, default=float) + "\n")
        prov_mod.write(prov_mod.collect(a.ssdvp, "/usr/bin/python3 scripts/workloads/characterise.py", ROOT,
                                        skip=["docs/results/"]), data_dir)
    res, gens, ops = data["recordings"], data["generators"], data["ops"]
    provs = {n: json.loads((ROOT / "traces/workloads" / f"{n}.json").read_text()) for n in res}
    commit = ((prov_mod.read(data_dir) or {}).get("commit") or "?")[:7]
    allw = {**res, **gens}
    L = []
    L += ["# Recorded application workloads", "",
          f"Generated whole by `scripts/workloads/characterise.py` (commit {commit}; the recordings' "
          "sha256 checked) from the committed recordings in `traces/workloads/` and from ssdvp's synthetic "
          f"application generators run here (`workload.source: app`, {ops:,} operations each, "
          "`configs/workloads.yaml`). Do not edit by hand.", "",
          "Each recording is a real application from Debian 12's packages running in a Linux guest "
          "(Debian's kernel 6.1, qemu TCG) on ext4 on the simulated drive exported by `ssdvp serve --record` "
          "(`scripts/workloads/record.sh NAME`; the job of each in `scripts/workloads/jobs/NAME.sh`; "
          "provenance in `traces/workloads/NAME.json` and `traces/README.md`). The drive is "
          "`configs/workloads.yaml` (4 GiB exported) or, for a recording sized down, `configs/workloads-1g.yaml` "
          "(1 GiB; the last table names each one's). Shares of the drive are of the recording's drive. Replay "
          "one as it is with `build/platform/ssdvp run -c CONFIG --trace traces/workloads/NAME.iolog.xz "
          "--trace-format fio` (ssdvp reads xz, and its times are ps, which it tells from the log), or by name in a sweep "
          "(`workloads: [NAME]`, docs/exploration.md).", "",
          "Each recording replays on its drive with 0 integrity mismatches, open loop at its timestamps and "
          "closed loop at its queue depth (ctest `Workloads.Replay.NAME`: the sha256 and the first 10,000 "
          "requests; the whole recordings: traces/README.md).", "",
          "What a block-level replay loses: the application does not see the drive's latency (its "
          "requests arrive at the recorded times, open loop, or as fast as the queue depth allows, closed "
          "loop), so a slower placement cannot slow the application down, and the file system's choices "
          "(where ext4 puts a file, when jbd2 commits) are those made on the recording drive.", "",
          "## Size and mix", "",
          "Every recording starts with mke2fs, which discards the whole drive (one drive's worth of trims) "
          "before writing its metadata: it is in the trims and in trimmed / written. Synthetic generators: "
          "reads and flushes from their summary, writes and trims from `host.streams_log`.", "",
          "| workload | requests | reads | writes | trims | flushes | written GiB | drive-writes | mean write KiB "
          "| read share | footprint (of drive) | flushes / GiB written | writes / flush | trimmed / written |",
          "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"]
    for n, r in allw.items():
        req = r["read"] + r["write"] + r["trim"] + r["sync"]
        L.append(f"| {n} | {req:,} | {r['read']:,} | {r['write']:,} | {r['trim']:,} | {r['sync']:,} | "
                 f"{r['write_bytes'] / (1 << 30):.2f} | {fmt(r['drive_writes'])} | {fmt(r['mean_write_kib'], 1)} | "
                 f"{fmt(r['read_share'], 3)} | {fmt(r['footprint'], 3)} | {fmt(r['flush_per_gib'], 1)} | "
                 f"{fmt(r['writes_per_flush'], 1)} | {fmt(r['trim_ratio'], 3)} |")
    L += ["", "## Rewrite distance", "",
          "Per 4 KiB block write: the 4 KiB blocks written (anywhere) since the same block was last "
          "written, in drive capacities (1.00 = a whole drive's worth of writes in between). First writes "
          "have no distance; their share is the first column.", "",
          "| workload | block writes | first writes | p10 | p50 | p90 |", "|---|---|---|---|---|---|"]
    for n, r in allw.items():
        p = r["dist_pct"]
        L.append(f"| {n} | {r['block_writes']:,} | {fmt(r['first_share'], 3)} | {fmt(p[0], 4)} | {fmt(p[1], 4)} | "
                 f"{fmt(p[2], 4)} |")
    L += ["", "## Hot set over time", "",
          f"The write stream cut into {WINDOWS} windows of equal writes; in each, the fewest 1 MiB regions "
          "that take half of that window's writes. Size: that hot set as a share of the drive; kept: the "
          "share of it that was also in the window before's hot set (1.00: the hot set stays put; 0: it "
          "moved entirely).", ""]
    hdr = "| workload | | " + " | ".join(str(i + 1) for i in range(WINDOWS)) + " |"
    L += [hdr, "|---|---|" + "---|" * WINDOWS]
    for n, r in allw.items():
        L.append(f"| {n} | size | " + " | ".join(fmt(x, 3) for x in r["hot_sizes"]) + " |")
        L.append("| | kept | " + " | ".join(fmt(x, 2) for x in r["hot_overlaps"]) + " |")
    L += ["", "## The recordings", "",
          "The guest runs under TCG (qemu's emulator: nested KVM does not boot on these machines), so the "
          "recording costs wall time in proportion to the application's CPU work, not to the bytes: the "
          "rate column is what the drive took per minute of the guest's wall time (boot, mkfs and e2fsck "
          "included), measured on a 2-core machine shared with other jobs. The full size aimed at is a 4 GiB "
          "drive with two drive-writes (8 GiB); a recording made smaller states it here, with the full "
          "size's cost at the measured rate.", "",
          "| workload | drive | job parameters | written | guest wall time | MiB / wall minute "
          "| 8 GiB would take | queue depth | xz bytes | sha256 (xz) |",
          "|---|---|---|---|---|---|---|---|---|---|"]
    for n, p in provs.items():
        params = " ".join(p["job"]["parameters"]).replace("WL-PARAMS ", "")
        mib = p["by_op"].get("write_bytes", 0) / (1 << 20)
        rate = mib / (p["guest_wall_seconds"] / 60)
        full = "(recorded at full size)" if p["drive"]["export_bytes"] >= 4 << 30 else f"{8192 / rate:.0f} min"
        L.append(f"| {n} | `{p['drive']['config']}` | `{p['job']['file']}` {params} | "
                 f"{fmt(p['drive']['drive_writes'])} drive-writes | {p['guest_wall_seconds']} s | {rate:,.0f} | {full} | "
                 f"{p['queue_depth']} | {(ROOT / 'traces/workloads' / (n + '.iolog.xz')).stat().st_size:,} | "
                 f"`{p['sha256_xz'][:16]}…` |")
    L += ["", "Rounds: the job repeats its round until the device has taken two drive-writes, so a round that writes "
          "more than that alone is the only one: " + "; ".join(
              f"`{n}` ran {len(p['rounds'])} round(s) ({p['rounds'][-1].split()[-1]})" for n, p in provs.items()) +
          "."]
    if "rocksdb" in provs and len(provs["rocksdb"]["rounds"]) == 1:
        p = provs["rocksdb"]
        data = float(re.search(r"data=(\d+)MiB", " ".join(p["job"]["parameters"])).group(1))
        wrote = p["by_op"].get("write_bytes", 0) / (1 << 20)
        L[-1] += (f" `rocksdb`'s round 0 is db_bench's fillrandom: with its compactions the drive took "
                  f"{wrote / data:.1f} times the {data / 1024:.1f} GiB data set, past two drive-writes, so the "
                  "recording has no overwrite round.")
    rate = {n: p["by_op"].get("write_bytes", 0) / (1 << 20) / (p["guest_wall_seconds"] / 60) for n, p in provs.items()}
    # db_bench's rate when it is not among the recordings: a small run of the rocksdb job (128 MiB of data,
    # 662 MiB written to a 1 GiB drive in 202 s of TCG, 2026-11-29, not committed).
    rdb = (f"{8192 / rate['rocksdb']:.0f} min at the rocksdb recording's rate" if "rocksdb" in rate
           else f"{8192 / (662 / (202 / 60)):.0f} min at db_bench's rate in a small run (662 MiB in 202 s)")
    L += ["", "## Filebench's personalities: how close `fbp` is", "",
          "Filebench is not packaged in Debian, so `filebench-*` run `fbp` "
          "(`scripts/workloads/filebench/fbp.c`, ours, built static into the guest root). It takes from "
          "Filebench 1.5's `fileserver.f`, `varmail.f` and `webserver.f` the fileset (entries, mean directory "
          "width, a gamma file-size distribution of the file's mean and shape 1.5, the share laid out first), "
          "the number of threads, each thread's flowop sequence with its I/O sizes (1 MiB whole-file I/O, "
          "appends of mean 16 KiB) and its fsync points (varmail's two per loop), and Filebench's rule that "
          "two threads never work on one file at once. It differs in: a run is a number of loops, not a "
          "duration; its random choices are its own (seeded); an append is uniform in 1 B .. 2 x the mean "
          "(Filebench: up to the I/O size); the file count is scaled to the data set aimed at "
          "(half the drive), not Filebench's 10,000 / 1,000 / 1,000 files.", "",
          "## Not recorded, or recorded short, and what it would cost", "",
          "| workload | status | cost measured or projected |", "|---|---|---|",
          ("| `mysql-tpcc` | Debian packages no TPC-C kit; `mariadb-oltp` above is MariaDB 10.11 under sysbench "
           "1.0.20's OLTP read-write mix instead | not applicable |" if "mariadb-oltp" in rate else
           "| `mysql-tpcc` | MariaDB 10.11 + sysbench 1.0.20 unpack into the `full` root set "
           "(`scripts/workloads/build-root.sh OUT full`); no job yet (mariadb-install-db, a server started in "
           "the guest, sysbench's OLTP write-heavy mix) | an application at least as CPU-bound as db_bench: "
           f"8 GiB of writes would take about {rdb} |")]
    short = {n: p["drive"]["drive_writes"] for n, p in provs.items() if p["drive"]["drive_writes"] < 2}
    why = {"filebench-webserver": "read-mostly: its job lays out the file set and reads it, with one 16 KiB log "
                                  "append a loop",
           "mariadb-oltp": "a 60 s round of sysbench writes about 75 MiB under TCG",
           "mariadb-oltp-seed2": "the same job as `mariadb-oltp` with `WL_SEED=2`"}
    def longer(n):  # the same job's recording run on past two drive-writes, NAME-long
        m = n.split("-seed")[0] + "-long"
        return (f"; `{m}` is the same job run past two ({provs[m]['drive']['drive_writes']:.2f})"
                if m in provs else "")
    L += [f"| `{n}` | {dw:.2f} drive-writes, under the two aimed at: {why.get(n, 'the job stopped there')}"
          f"{longer(n)} | the rate column above |" for n, dw in sorted(short.items())]
    L += ([] if "rocksdb" in rate else [
              "| `rocksdb` | the job runs (a small run passed every step), but both attempts at the 1 GiB floor "
              "(1 GiB drive, data set 55 % of it) failed in db_bench's overwrite phase, most likely out of space "
              "for compaction: with db_bench's default compaction sizes in the first overwrite (the error was not "
              "kept), with 16 MiB memtables at 460,000 of 581,000 overwrites, where Debian's db_bench (built "
              "with assertions) aborted in its file writer after an earlier failed write. A 4 GiB drive is the "
              f"likely fix | 8 GiB of writes: about {rdb} uncontended; the second "
              "attempt's fill alone took 746 s of TCG with the machine shared |"])
    fb = [n for n in ("filebench-fileserver", "filebench-varmail", "filebench-webserver") if n not in rate]
    L += ([] if not fb else [
        "| " + ", ".join(f"`{n}`" for n in fb) + " | jobs and `fbp` run (each passed every step on a small data "
        "set) | on a small data set, without the drive's socket: fileserver wrote about 600 MiB and varmail "
        "(fsync twice a loop) about 600 MiB a minute of guest run time |"])
    L += ([] if "rocksdb-x2" in rate else [
              "| `rocksdb-x2` | no job yet (two db_bench instances, separate directories) | twice one instance's "
              f"CPU on one vCPU: about twice {rdb} |"])
    L += ([] if "dbench" in rate else ["| `dbench` | packaged (4.0), in the `full` set; no job yet | not measured |"])
    L += [
          "| 4 GiB versions of the 1 GiB recordings | recorded at 1 GiB (the floor: never below 1 GiB and two drive-writes) to fit the "
          "session | the table above: '8 GiB would take' |",
          "| live application vs its replay under several placements | done for `fio-journal` (three "
          "techniques) and `mariadb-oltp` (`none`, `lstm`): [live-vs-replay.md](live-vs-replay.md) | each "
          "live run is one recording's wall time, paced |", ""]
    Path(a.out).write_text("\n".join(L))
    print(f"wrote {a.out}")


if __name__ == "__main__":
    main()
