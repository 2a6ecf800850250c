#!/usr/bin/env python3
"""accelerator.py - the K-Means accelerator against software clustering
(HAML-SSD Table V, Fig. 9): runs the accelerator sweeps, the host-latency runs
of configs/haml.yaml and the synthesis, keeps what docs/results/accelerator.md
needs as data in docs/results/accelerator/, and renders the page from it.

    python3 scripts/accelerator.py [--build-dir DIR]               run everything, write the data and the page
    python3 scripts/accelerator.py --render DATA_DIR [--page OUT]  the page from committed data only

Needs a build with the accelerator sweep (build/accel/ssdvp-accel-sweep; the
ISS and Verilator for its ISS and RTL columns) and build/platform/ssdvp. The
data: sweep_uniform.csv and sweep_blobs_converged.csv (the sweep's output as
it prints it), results.json (each run's command, wall time and the summary
fields the page uses; the sweep's own rates from its stderr; the synthesis's
cell counts, or why there are none) and provenance.json. Runs one at a time.
"""
from __future__ import annotations

import argparse
import csv
import json
import math
import os
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "scripts"))
sys.path.insert(0, str(ROOT / "accel" / "tools"))
from runpoint import load_of, provenance_text, pyplot, save_png_svg, write_provenance  # noqa: E402
import plot_sweep  # noqa: E402
sys.path.insert(0, str(ROOT / "explore"))
from ssdvp_explore.units import size_bytes  # noqa: E402

PAGE = ROOT / "docs/results/accelerator.md"
DATA = ROOT / "docs/results/accelerator"
COMMAND = "python3 scripts/accelerator.py"
DEF = ROOT / "firmware/hal/fw_ops.def"

# The sweeps: (data file, arguments of ssdvp-accel-sweep)
SWEEPS = [("sweep_uniform.csv", ["--rtl-check"]),
          ("sweep_blobs_converged.csv", ["--data", "blobs", "--iters", "100", "--rtl-check"])]
# The host-latency runs: (name, column heading, ssdvp run arguments). ftl.write.at_floor=pass: the default
# these runs were first made under (the page says so).
HAML = [(f"haml_{n}", head, ["-c", "configs/haml.yaml", *sets, "-o", f"out/haml_{n}",
                             "--set", "ftl.write.at_floor=pass", "--quiet"])
        for n, head, sets in (
            ("software", "software", ["--set", "ftl.cluster.engine=software"]),
            ("accel", "accelerator (TLM core)", ["--set", "ftl.cluster.engine=accel"]),
            ("accel_rtl", "accelerator (RTL core)", ["--set", "ftl.cluster.engine=accel", "--set", "accel.impl=rtl"]),
            ("iss_software", "software, iss mode", ["--set", "cpu.mode=iss", "--set", "ftl.cluster.engine=software"]),
            ("iss_accel", "accelerator, iss mode", ["--set", "cpu.mode=iss", "--set", "ftl.cluster.engine=accel"]))]
CONFIG_KEYS = ["cpu.mode", "cpu.clock_hz", "cpu.iss.cpi", "ftl.cluster.engine", "accel.impl", "ftl.hot.classes",
               "ftl.hot.max_iter", "ftl.hot.period", "ftl.hot.slice_size", "nvme.namespace_size", "workload.trace",
               "workload.loops", "ftl.write.at_floor"]
SYNTH = ["bash", "scripts/synth-accel.sh"]

# Figures that are not this page's data, typed with their source.
PAPER_US = plot_sweep.PAPER_US   # HAML-SSD Table V: the ML unit's clustering time at N = 2,560, K = 6, 10 iterations
PAPER_SW_MS = 588                # HAML-SSD: its software K-Means (C++ on a 2.4 GHz server) at the same point
PAPER_N, PAPER_K = 2560, 6       # HAML-SSD Table V's clustering point
FIRMWARE_ISS_MIPS = 45           # docs/performance.md: the ISS's rate on the whole firmware
# This page's earlier version (before configs/cpu_cost.yaml was calibrated), not rerun: the native haml
# experiment with the first estimates charged 9.47 against 2.96 ms, write p99 47 us (18 %) higher in software.
PRECAL = {"sw_ms": 9.47, "accel_ms": 2.96, "p99_us": 47, "p99_pct": 18}
# Earlier co-simulation measurements, not rerun: the sweeps on a busier machine, and AccelCosim.LargeDatasets
# (testbench/accel) on an otherwise idle one.
COSIM_EARLIER = "2.6-2.7 M cycles/s in an earlier measurement on a busier machine"
COSIM_IDLE = "4.5-4.8 M cycles/s when the machine is otherwise idle (`AccelCosim.LargeDatasets` prints it)"


def env() -> dict:
    return dict(os.environ, SYSTEMC_DISABLE_COPYRIGHT_MESSAGE="1")


def fw_estimates() -> dict[str, int]:
    """fw_ops.def's first estimates of the K-Means ops (cycles)."""
    return {n: int(c) for n, c in re.findall(r'^FW_OP\((kmeans_\w+),\s*(\d+),', DEF.read_text(), re.M)}


def run_sweep(bdir: Path, name: str, args: list[str]) -> dict:
    cmd = [str(bdir / "accel" / "ssdvp-accel-sweep"), *args]
    t0 = time.monotonic()
    p = subprocess.run(cmd, cwd=ROOT, env=env(), capture_output=True, text=True)
    wall = time.monotonic() - t0
    if p.returncode != 0:
        sys.exit(f"accelerator: {' '.join(cmd)} failed ({p.returncode}):\n{p.stderr}")
    (DATA / name).write_text(p.stdout)
    out = {"args": args, "wall_s": round(wall, 2), "stderr": p.stderr.splitlines()}
    m = re.search(r"ISS: (\d+) instructions in ([\d.]+) s = ([\d.]+) M", p.stderr)
    if m:
        out["iss"] = {"instructions": int(m.group(1)), "s": float(m.group(2)), "mips": float(m.group(3))}
    m = re.search(r"RTL: (\d+) cycles in ([\d.]+) s = ([\d.]+) M", p.stderr)
    if m:
        out["rtl"] = {"cycles": int(m.group(1)), "s": float(m.group(2)), "mcps": float(m.group(3))}
    print(f"accelerator: {name} ({wall:.1f} s)", file=sys.stderr)
    return out


def keep_run(s: dict, wall: float) -> dict:
    """What the page needs of one host-latency run's summary."""
    lat = {op: {k: v for k, v in s["latency_us"][op].items() if k != "histogram"} for op in ("read", "write")}
    cfg = {k: s["config"].get(k) for k in CONFIG_KEYS}
    pl = s["placement"]
    return {"wall_s": round(wall, 1), "config": cfg,
            "slices": math.ceil(size_bytes(cfg["nvme.namespace_size"]) / size_bytes(cfg["ftl.hot.slice_size"])),
            "latency_us": lat, "waf": s["ftl"]["waf"], "monitor_cpu_s": pl["monitor_cpu_s"],
            "cluster_runs": pl["cluster_runs"], "cluster_runs_total": pl["cluster_runs_total"],
            "kmeans_iterations": pl["kmeans_iterations"], "class_lba_writes": pl["class_lba_writes"],
            "class_by_stream": pl["class_by_stream"],
            "accel": {k: s.get("accel", {}).get(k) for k in ("busy_s", "jobs", "core", "errors")},
            "sim_time_s": s["host"]["sim_time_s"], "writes": s["host"]["writes"], "reads": s["host"]["reads"],
            "cpu_compute_s": s["cpu"]["compute_s"], "cpu_instructions": s["cpu"]["instructions"],
            "cpu_busy": s["utilization"]["cpu"], "version": s.get("ssdvp_version")}


def run_haml(bdir: Path, name: str, args: list[str]) -> dict:
    cmd = [str(bdir / "platform" / "ssdvp"), "run", *args]
    t0 = time.monotonic()
    p = subprocess.run(cmd, cwd=ROOT, env=env(), capture_output=True, text=True)
    wall = time.monotonic() - t0
    if p.returncode != 0:
        sys.exit(f"accelerator: {' '.join(cmd)} failed ({p.returncode}):\n{p.stderr[-3000:]}")
    out = args[args.index("-o") + 1]
    s = json.loads((ROOT / out / "summary.json").read_text())
    print(f"accelerator: {name} ({wall:.1f} s)", file=sys.stderr)
    return keep_run(s, wall)


def parse_stat(text: str) -> dict:
    """The cell counts of yosys's `stat` (the last report) and the transistor estimate of `stat -tech cmos`."""
    cells = {}
    for m in re.finditer(r"^\s+(\$\w+)\s+(\d+)\s*$", text, re.M):
        cells[m.group(1)] = int(m.group(2))
    total = re.findall(r"Number of cells:\s+(\d+)", text)
    tr = re.findall(r"Estimated number of transistors:\s+(\d+)", text)
    return {"cells": cells, "total_cells": int(total[-1]) if total else None,
            "transistors": int(tr[-1]) if tr else None}


def run_synth(bdir: Path) -> dict:
    if not shutil.which("yosys"):
        return {"missing": "yosys is not installed (scripts/install-deps.sh installs it)"}
    version = subprocess.run(["yosys", "-V"], capture_output=True, text=True).stdout.strip()
    t0 = time.monotonic()
    p = subprocess.run(SYNTH, cwd=ROOT, env=dict(env(), BUILD_DIR=str(bdir)), capture_output=True, text=True)
    wall = time.monotonic() - t0
    if p.returncode != 0:
        sys.exit(f"accelerator: {' '.join(SYNTH)} failed ({p.returncode}):\n{p.stderr[-3000:]}")
    print(f"accelerator: synthesis ({wall:.1f} s)", file=sys.stderr)
    return {"yosys": version, "wall_s": round(wall, 1), **parse_stat(p.stdout)}


def measure(bdir: Path) -> dict:
    DATA.mkdir(parents=True, exist_ok=True)
    d = {"estimates": fw_estimates(), "sweeps": {}, "haml": {}, "haml_runs": []}
    for name, args in SWEEPS:
        d["sweeps"][name] = run_sweep(bdir, name, args)
    for name, head, args in HAML:
        d["haml"][name] = {"args": args, **run_haml(bdir, name, args)}
        d["haml_runs"].append({"name": name, "heading": head})
    d["synthesis"] = run_synth(bdir)
    return d


# ---------------------------------------------------------------- render


def rows_of(data: Path, name: str) -> list[dict]:
    with open(data / name, newline="") as f:
        return list(csv.DictReader(f))


def num(r: dict, k: str) -> float:
    return float(r[k])


def solve3(rows: list[list[float]], ys: list[float]) -> list[float]:
    """Least squares of ys on three columns (normal equations, Gaussian elimination)."""
    a = [[sum(r[i] * r[j] for r in rows) for j in range(3)] + [sum(r[i] * y for r, y in zip(rows, ys))]
         for i in range(3)]
    for c in range(3):
        p = max(range(c, 3), key=lambda i: abs(a[i][c]))
        a[c], a[p] = a[p], a[c]
        for i in range(3):
            if i != c:
                f = a[i][c] / a[c][c]
                a[i] = [x - f * y for x, y in zip(a[i], a[c])]
    return [a[i][3] / a[i][i] for i in range(3)]


def costs_of(rows: list[dict]) -> dict:
    """From the sweep: the cost table's K-Means rows (cycles per iteration = dist.N.K + acc.N + div.2K), the ISS's
    instructions per iteration (a.N + b.N.K + c.K), and the clocks and CPI the sweep ran at."""
    n = [num(r, "n") for r in rows]
    k = [num(r, "k") for r in rows]
    it = [num(r, "iterations") for r in rows]
    cyc = [num(r, "sw_cycles") / i for r, i in zip(rows, it)]
    dist, acc, div = solve3([[a * b, a, 2 * b] for a, b in zip(n, k)], cyc)
    out = {"distance": round(dist), "accumulate": round(acc), "divide": round(div)}
    r0 = rows[0]
    out["cpu_hz"] = num(r0, "sw_cycles") / num(r0, "sw_us") * 1e6
    out["accel_hz"] = num(r0, "accel_l1_compute_cycles") / num(r0, "accel_l1_compute_us") * 1e6
    if r0.get("sw_iss_instructions", "-") != "-":
        ins = [num(r, "sw_iss_instructions") / i for r, i in zip(rows, it)]
        a, b, c = solve3([[x, x * y, y] for x, y in zip(n, k)], ins)
        out["iss"] = {"point": a, "centroid": b, "per_k": c}
        out["cpi"] = num(r0, "sw_iss_us") * 1e-6 * out["cpu_hz"] / num(r0, "sw_iss_instructions")
    return out


def g(v: float) -> str:
    """A clock or ratio without trailing zeros (1.3, 1)."""
    return f"{v:.3g}"


def us(v: float, p: int = 1) -> str:
    return f"{v:,.{p}f}"


def at(rows: list[dict], n: int, k: int) -> dict:
    return next(r for r in rows if int(r["n"]) == n and int(r["k"]) == k)


def intro(uni, blobs, c) -> list[str]:
    worst = max(abs(num(r, "iss_vs_table") - 1) for r in uni) if c.get("iss") else None
    rtl_all = all(r["rtl_cycles_match"] == "yes" for r in uni + blobs)
    iss_all = all(r.get("iss_match") == "yes" for r in uni + blobs)
    out = [
        "# K-Means accelerator against software clustering (HAML-SSD Table V, Fig. 9)",
        "",
        "<!-- Generated by scripts/accelerator.py from docs/results/accelerator/ (the sweeps' CSVs, results.json). "
        "Do not edit: rerun it (or `--render docs/results/accelerator`). -->",
        "",
        # 1 lane, 8 distance units, dividers, DMA: accel.* defaults (docs/models/accel.md); the clocks are the data's
        f"The accelerator (docs/models/accel.md) at its defaults — {g(c['accel_hz'] / 1e9)} GHz, 1 lane, 8 distance "
        "units, 2 sequential",
        "dividers of 10 cycles, DMA 16 B/cycle with 64 setup cycles — against the firmware's `kmeans2d` on the",
        f"modelled controller CPU (`cpu.clock_hz` {g(c['cpu_hz'] / 1e9)} GHz), measured two ways:",
        "",
    ]
    if c.get("iss"):
        out += [
            "- **on the ISS**: the same `kmeans2d` source cross-compiled for RV32IMAC (`-Os`, picolibc;",
            "  `accel/tools/kmeans_iss.c`) runs on the iss CPU model's core, and its retired instructions × "
            "`cpu.iss.cpi`",
            f"  ({g(c['cpi'])}) at the CPU clock are the software time. Its labels and iteration count "
            + ("equal the host build's on" if iss_all else "differ from the host build's on some of"),
            "  every case below (column `iss_match`);" if iss_all else "  the cases below (column `iss_match`);",
        ]
    out += [
        "- **with the native CPU's cost table** (`configs/cpu_cost.yaml`): the cycles `kmeans2d` charges through",
        f"  the HAL, {c['distance']}·N·K (`kmeans_distance`) + {c['accumulate']}·N (`kmeans_accumulate`) + "
        f"{c['divide']}·2K (`kmeans_divide`) per",
        "  iteration. The K-Means rows of that table are themselves fitted on this sweep's ISS column",
        "  (docs/results/calibration.md), so the two agree by construction here"
        + (f" (within {100 * worst:.1f} % on every case);" if worst is not None else ";"),
        "  the ISS column is the measurement, the table is what native-mode runs charge.",
        "",
        "Accelerator time is the cycle model, which the RTL reproduces exactly "
        + ("(every row below was also run on" if rtl_all else "(rows were also run on"),
        "the verilated RTL: same labels, iterations and cycle count, column `rtl_cycles_match`)."
        if rtl_all else "the verilated RTL; see column `rtl_cycles_match` for the rows where it differs).",
        "",
    ]
    return out


def reproduce(d, uni, data: Path) -> list[str]:
    sw = d["sweeps"]
    first = d["haml"][HAML[0][0]]
    cfg = first["config"]
    out = ["## Reproduce", "", "```sh", "BUILD_DIR=$PWD/build bash scripts/build.sh -DSSDVP_TESTS=ON", COMMAND, "```",
           "", "runs, one at a time (from the repository's root):", "", "```sh"]
    for name, _ in SWEEPS:
        out.append(" ".join(["build/accel/ssdvp-accel-sweep", *sw[name]["args"], ">",
                             f"docs/results/accelerator/{name}"]))
    out.append(f"# host latency with clustering mid-trace (configs/haml.yaml: {first['slices']:,} slices, "
               f"K = {cfg['ftl.hot.classes']}, max_iter {cfg['ftl.hot.max_iter']})")
    for r in d["haml_runs"]:
        out.append(" ".join(["build/platform/ssdvp", "run", *d["haml"][r["name"]]["args"]]))
    out += [" ".join(SYNTH) + "   # area, docs/models/accel.md", "```", ""]
    walls = [s["wall_s"] for s in sw.values()] + [h["wall_s"] for h in d["haml"].values()]
    walls += [d["synthesis"]["wall_s"]] if "wall_s" in d["synthesis"] else []
    out += [f"{len(walls)} runs, {sum(walls):,.0f} s of wall time summed ({load_of(str(data))}); each run's "
            "wall time is in results.json.", ""]
    out += ["The host-latency runs (`configs/haml.yaml`) set `ftl.write.at_floor: pass`, the default before it "
            "became `room`:",
            "they keep the setting they were first made under (the sweep's figures do not depend on it).", ""]
    iss = sw[SWEEPS[0][0]].get("iss")
    text = ("Any `accel.*` or `cpu.*` key can be appended to the sweep as `key=value` (e.g. `accel.dividers=4`,\n"
            "`cpu.clock_hz=5e8`, `cpu.iss.cpi=1.5`). `--no-iss` leaves the ISS columns out (`-`); builds without "
            "Unicorn\nor the RISC-V toolchain have none.")
    if iss:
        text += (f" The sweep prints the ISS's rate on stderr: the {len(uni)} cases\n"
                 f"({iss['instructions'] / 1e6:,.0f} M instructions) took {iss['s']:.1f} s in the run that made "
                 f"this page, {iss['mips']:.0f} M instructions per second on this\nmachine, against "
                 f"{FIRMWARE_ISS_MIPS} M on the whole firmware, whose time goes into device accesses and\n"
                 "synchronisation (docs/performance.md).")
    return out + text.split("\n") + [""]


def paper_point(d, uni, blobs, c) -> list[str]:
    est = d["estimates"]
    r = at(uni, PAPER_N, PAPER_K)
    n, k, it = PAPER_N, PAPER_K, int(r["iterations"])
    ghz = float(g(c["accel_hz"] / 1e9))   # the clock as configured (the CSV's microseconds are rounded)
    est_cyc = it * (est["kmeans_distance"] * n * k + est["kmeans_accumulate"] * n + est["kmeans_divide"] * 2 * k)
    cpu_mhz = c["cpu_hz"] / 1e6
    c1, t1 = num(r, "accel_l1_compute_us"), num(r, "accel_l1_total_us")
    t2, t4 = num(r, "accel_l2_total_us"), num(r, "accel_l4_total_us")
    iss_us, tab_us = num(r, "sw_iss_us"), num(r, "sw_us")
    out = [f"## The paper's point: N = {n:,}, K = {k}, {it} iterations", "",
           "| | time | cycles |", "|---|---:|---:|",
           f"| HAML-SSD ML unit (Table V) | {PAPER_US} µs | ≈ {PAPER_US * ghz * 1e3:,.0f} at {g(ghz)} GHz |",
           f"| this accelerator, 1 lane, compute only | {us(c1, 2)} µs | {int(r['accel_l1_compute_cycles']):,} |",
           f"| this accelerator, 1 lane, with DMA in and out | {us(t1, 2)} µs | {int(r['accel_l1_total_cycles']):,} |",
           f"| this accelerator, 2 lanes, with DMA | {us(t2, 2)} µs | {int(r['accel_l2_total_cycles']):,} |",
           f"| this accelerator, 4 lanes, with DMA | {us(t4, 2)} µs | {int(r['accel_l4_total_cycles']):,} |",
           f"| software `kmeans2d` on the controller CPU, measured on the ISS ({g(c['cpu_hz'] / 1e9)} GHz, CPI "
           f"{g(c['cpi'])}) | {us(iss_us)} µs | {int(r['sw_iss_instructions']):,} instructions |",
           f"| the same, charged by the calibrated cost table (native mode) | {us(tab_us)} µs | "
           f"{int(r['sw_cycles']):,} CPU cycles |",
           f"| the same, charged by the first estimates (`fw_ops.def`: {est['kmeans_distance']}, "
           f"{est['kmeans_accumulate']}, {est['kmeans_divide']}) | {us(est_cyc / cpu_mhz)} µs | {est_cyc:,} CPU cycles |",
           ""]
    ideal = n * it                                     # one point per cycle, no overhead
    over = int(r["accel_l1_compute_cycles"]) - ideal   # 1 start cycle + per iteration: drain, divider, commit
    div = (over - 1) // it - 3
    comp, dma = 100 * (c1 / PAPER_US - 1), 100 * (t1 / PAPER_US - 1)
    reach = "does **not** reach" if c1 > PAPER_US else "reaches"
    out += [f"At the default single lane the accelerator {reach} {PAPER_US} µs: it is {abs(comp):.1f} % "
            f"{'slower' if comp > 0 else 'faster'} on compute",
            f"alone (one point per cycle is {ideal:,} cycles for ten passes; 2 pipeline-drain, {div} divider and 1",
            f"commit cycle per iteration and 1 start cycle add {over:,}) and {abs(dma):.1f} % "
            f"{'slower' if dma > 0 else 'faster'} with DMA. Two lanes (16 distance units)",
            f"beat it by {PAPER_US / t2:.1f}×. The paper does not say how many points its unit takes per cycle; "
            f"{PAPER_US} µs is",
            f"{100 * (PAPER_US / (ideal / ghz / 1e3) - 1):.1f} % above one point per cycle with no overhead at all "
            f"({ideal:,} cycles = {ideal / ghz / 1e3:.2f} µs), so it is most likely a one-lane design whose",
            "time excludes the DMA.", ""]
    per = int(r["sw_iss_instructions"]) / (n * it)
    isf = c["iss"]
    out += [f"The software side is **{iss_us / t1:.0f}×** the accelerator (1 lane, with DMA) on the modelled "
            f"controller: {per:.0f} RV32",
            f"instructions per point per iteration at K = {k} (≈ {isf['point']:.0f} for the loop, the label update "
            "and the",
            f"accumulation, ≈ {isf['centroid']:.0f} per centroid for the distance and compare). The first cost-table "
            "estimates charged",
            f"{100 * est_cyc / cpu_mhz / iss_us:.0f} % of that ({est_cyc / cpu_mhz / t1:.0f}×), which is why the table "
            f"was calibrated. The paper's {PAPER_SW_MS} ms is a C++",
            "implementation on a 2.4 GHz server, which this does not model. What would move our figure: the CPI",
            f"({g(c['cpi'])} here; an in-order core with a multiplier that takes more than one cycle, or cache misses "
            "on the",
            "point arrays, would raise it: `cpu.iss.cpi`), the compiler's `-Os`, and the fixed-point firmware's",
            "64-bit sums.", ""]
    its = [int(r["iterations"]) for r in uni]
    bits = [int(r["iterations"]) for r in blobs]
    args = d["sweeps"]["sweep_blobs_converged.csv"]["args"]
    limit = args[args.index("--iters") + 1] if "--iters" in args else "10"
    b = at(blobs, n, k)
    same = all(r["rtl_cycles_match"] == "yes" and r.get("iss_match") == "yes" for r in uni + blobs)
    first = (f"needed all {its[0]} iterations in every one of\nthe {len(uni)} cases, so the table is the paper's "
             f"\"{its[0]} iterations\"." if len(set(its)) == 1 else
             f"needed {min(its)} to {max(its)} iterations over\nthe {len(uni)} cases.")
    text = (f"Iterations: uniform random points (`sweep_uniform.csv`) {first} On clustered data\n"
            # 6 blobs: the sweep's blobs data set (accel/tlm/accel_datasets.h)
            f"(`sweep_blobs_converged.csv`, 6 blobs, limit {limit}) K-Means converges after {min(bits)} to "
            f"{max(bits)} iterations ({sum(1 for x in bits if x < 10)} of\n"
            f"{len(blobs)} cases under 10); at N = {n:,}, K = {k} it stops after {b['iterations']}: "
            f"{us(num(b, 'accel_l1_total_us'), 2)} µs on the accelerator, {us(num(b, 'sw_iss_us'))} µs on the\n"
            "ISS. " + ("All three (host build, ISS, accelerator) always run the same number of iterations and "
                       "compute the\nsame labels." if same else
                       "The host build, the ISS and the accelerator do not agree on every case (columns "
                       "`iss_match`, `rtl_cycles_match`)."))
    return out + text.split("\n") + [""]


def sweep_table(uni, c, figs) -> list[str]:
    ns = sorted({int(r["n"]) for r in uni})
    ks = sorted({int(r["k"]) for r in uni})
    its = sorted({int(r["iterations"]) for r in uni})
    out = [f"## Sweep: N from {ns[0]:,} to {ns[-1]:,}, K from {ks[0]} to {ks[-1]}, "
           f"{'/'.join(map(str, its))} iterations (uniform points)", ""]
    out += figs
    out += ["| N | K | iterations | software, cost table (µs) | software, ISS (µs) | accel 1 lane: compute / with "
            "DMA (µs) | 2 lanes, with DMA (µs) | 4 lanes, with DMA (µs) | speed-up (ISS / 1 lane with DMA) |",
            "|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for r in uni:
        out.append(f"| {int(r['n']):,} | {r['k']} | {r['iterations']} | {us(num(r, 'sw_us'))} | "
                   f"{us(num(r, 'sw_iss_us'))} | {us(num(r, 'accel_l1_compute_us'), 2)} / "
                   f"{us(num(r, 'accel_l1_total_us'), 2)} | {us(num(r, 'accel_l2_total_us'), 2)} | "
                   f"{us(num(r, 'accel_l4_total_us'), 2)} | {num(r, 'sw_iss_us') / num(r, 'accel_l1_total_us'):.0f}× |")
    sp = {k: [num(r, "sw_iss_us") / num(r, "accel_l1_total_us") for r in uni if int(r["k"]) == k] for k in ks}
    out += ["", f"Speed-up grows with K (software pays ≈ {c['iss']['centroid']:.0f} instructions per centroid per "
            "point, the accelerator evaluates",
            f"all K distances in the same cycle): {min(sp[ks[0]]):.0f}-{max(sp[ks[0]]):.0f}× at K = {ks[0]}, "
            f"{min(sp[ks[-1]]):.0f}-{max(sp[ks[-1]]):.0f}× at K = {ks[-1]}. The accelerator's time is",
            "almost independent of K (only the divider rounds, ceil(2K/2) × 10 cycles per iteration, depend on it).",
            ""]
    return out


def haml_section(d, c) -> list[str]:
    h = d["haml"]
    runs = d["haml_runs"]
    sw, ac, rtl, isw, iac = (h[r["name"]] for r in runs)
    cfg = sw["config"]
    k = int(cfg["ftl.hot.classes"])
    ms = lambda x: f"{1e3 * x:,.2f} ms"  # noqa: E731
    period = re.sub(r"(\d)([a-z]+)$", r"\1 \2", cfg["ftl.hot.period"])   # 10s -> 10 s
    out = ["## Host latency with clustering in the middle of a trace", "",
           f"`configs/haml.yaml` (HAML placement, {sw['slices']:,} slices — the paper's {PAPER_N:,} scaled —, "
           f"K = {k}, {period} periods,",
           f"MSR heimdall trace looped {cfg['workload.loops']}×, the second half timed), native CPU with the "
           "calibrated table: the",
           f"firmware closes a period and clusters {sw['cluster_runs_total']} times ({sw['cluster_runs']} inside the "
           f"timed part), {sw['kmeans_iterations']} K-Means iterations in all",
           f"(the data converges after {sw['kmeans_iterations'] / sw['cluster_runs_total']:.1f} iterations on "
           "average). While clustering the firmware does nothing else: in software",
           "it computes, with the accelerator it waits for the interrupt.", ""]
    cols = [h[r["name"]] for r in runs]
    lat = lambda op, p: [f"{us(x['latency_us'][op][p])} µs" for x in cols]  # noqa: E731
    busy = [f"{1e6 * x['accel']['busy_s']:,.0f} µs" if x["config"]["ftl.cluster.engine"] == "accel" else "—"
            for x in cols]
    jobs = {x["accel"]["jobs"] for x in cols if x["config"]["ftl.cluster.engine"] == "accel"}
    table = [("clustering CPU time (`placement.monitor_cpu_s`, whole monitor)", [ms(x["monitor_cpu_s"]) for x in cols]),
             (f"accelerator busy (`accel.busy_s`, {'/'.join(map(str, sorted(jobs)))} jobs)", busy),
             ("write latency p99", lat("write", "p99")), ("write latency p99.99", lat("write", "p9999")),
             ("read latency p99", lat("read", "p99")), ("read latency p99.99", lat("read", "p9999")),
             ("WAF", [f"{x['waf']:.3f}" for x in cols]),
             ("wall time of the run (shared 2-core machine)", [f"{x['wall_s']:.1f} s" for x in cols])]
    out += ["| | " + " | ".join(r["heading"] for r in runs) + " |", "|---|" + "---:|" * len(runs)]
    out += [f"| {name} | " + " | ".join(vals) + " |" for name, vals in table]
    out.append("")
    out += ["The first three columns use the native CPU (calibrated cost table); the last two run the firmware",
            "itself on the RV32 ISS (`--set cpu.mode=iss`), where the monitor's time is the instructions it",
            f"retires. The two agree on what clustering costs: {1e3 * sw['monitor_cpu_s']:.1f} against "
            f"{1e3 * isw['monitor_cpu_s']:.1f} ms in software, {1e3 * ac['monitor_cpu_s']:.1f} against",
            f"{1e3 * iac['monitor_cpu_s']:.1f} ms with the accelerator (the rest of the monitor, recording writes and "
            "closing slices, is the",
            "same in both)."]
    close = all(abs(a["monitor_cpu_s"] / b["monitor_cpu_s"] - 1) < 0.02 for a, b in ((isw, sw), (iac, ac)))
    if not close:   # the monitor's totals differ: what agrees is clustering's share, the difference of the two
        out[-3:] = [
            f"retires. The two agree on what clustering costs: software clustering adds "
            f"{1e3 * (sw['monitor_cpu_s'] - ac['monitor_cpu_s']):.1f} ms natively and",
            f"{1e3 * (isw['monitor_cpu_s'] - iac['monitor_cpu_s']):.1f} ms on the ISS to the monitor's time over the "
            "accelerator's; the rest of the monitor (recording writes and",
            f"closing slices) takes {1e3 * (iac['monitor_cpu_s'] - ac['monitor_cpu_s']):.1f} ms more on the ISS "
            "than the cost table charges."]
    out.append("")
    same_place = all(x["class_lba_writes"] == sw["class_lba_writes"] and x["class_by_stream"] == sw["class_by_stream"]
                     for x in cols)
    per_iter = sw["slices"] * (c["distance"] * k + c["accumulate"]) + 2 * k * c["divide"]
    n_runs = sw["cluster_runs_total"]
    diff = sw["monitor_cpu_s"] - ac["monitor_cpu_s"]
    stall = diff / n_runs
    avg_it = sw["kmeans_iterations"] / n_runs
    ghz = c["cpu_hz"] / 1e9
    out += ["The slice classes and the host writes' placement (`placement.class_lba_writes`, `class_by_stream`) are",
            ("identical in all five runs (the labels are bit-exact). GC is not: the CPU time the firmware spends"
             if same_place else
             "not identical in all five runs. Nor is GC: the CPU time the firmware spends"),
            "clustering shifts when GC and wear levelling run, so GC relocates slightly different pages (WAF",
            f"{sw['waf']:.3f} against {ac['waf']:.3f} natively, {isw['waf']:.3f} against {iac['waf']:.3f} on the ISS). "
            "Software clustering stalls the",
            f"firmware about {1e3 * stall:.2f} ms per period (≈ {per_iter / 1e3:.0f} k CPU cycles per iteration — "
            f"{sw['slices']:,} × ({c['distance']} × {k} + {c['accumulate']}) + {2 * k} × {c['divide']} —",
            f"times {avg_it:.1f} iterations at {g(ghz)} GHz; the {1e3 * diff:.1f} ms difference in CPU time over "
            f"{n_runs} runs); the accelerator takes",
            f"≈ {1e6 * ac['accel']['busy_s'] / ac['accel']['jobs']:.0f} µs per run.", ""]
    dn = ac["latency_us"]["write"]["p99"] - sw["latency_us"]["write"]["p99"]
    di = iac["latency_us"]["write"]["p99"] - isw["latency_us"]["write"]["p99"]
    word = lambda x: "higher" if x > 0 else "lower"  # noqa: E731
    flip = (dn > 0) != (di > 0)
    timed = sw["cluster_runs"]
    rate = sw["writes"] / sw["sim_time_s"]
    met = timed * stall * rate
    rtl_same = all(rtl[f] == ac[f] for f in ("latency_us", "waf", "monitor_cpu_s", "sim_time_s", "class_lba_writes")) \
        and rtl["accel"]["busy_s"] == ac["accel"]["busy_s"]
    tails = ("**The tails do not show it.** " if flip or abs(dn) < 0.1 * sw["latency_us"]["write"]["p99"] else "")
    text = (f"{tails}Natively the accelerator's write p99 is {abs(dn):.0f} µs "
            f"({100 * abs(dn) / sw['latency_us']['write']['p99']:.0f} %) {word(dn)}; on the ISS\n"
            f"it is {abs(di):.0f} µs {'*' + word(di) + '*' if flip else word(di)}"
            + (" (in both modes the software's is the lower)" if dn > 0 and di > 0 else "")
            + f". The {timed} stalls of about "
            f"{1e3 * stall:.1f} ms in the {sw['sim_time_s']:.0f} s timed part meet about {met:.0f} of the\n"
            f"{sw['writes']:,} timed writes (about {round(rate, -1):,.0f} arrive per second), far fewer than the 1 % a "
            "p99 is made of; what moves\n"
            "the percentiles is the GC timing that the stalls perturb, in either direction. The p99.99 and the\n"
            "read tail are set by GC and die contention. "
            + ("With the RTL core inside the full platform the run is\nthe same to the picosecond as with the TLM "
               "core (latencies, WAF, job times)." if rtl_same else
               "With the RTL core inside the full platform the run\ndiffers from the TLM core's (see the table).")
            + " At these settings the\n"
            f"accelerator buys controller CPU time ({1e3 * diff:.0f} ms in a {sw['sim_time_s']:.0f} s run, "
            f"{100 * diff / sw['sim_time_s']:.2f} % of the CPU), not host latency;\n"
            "it would matter with far more slices, a slower controller, or a period short enough that\n"
            "clustering runs often.")
    out += text.split("\n") + [""]
    out += [f"Before calibration (estimated costs, {'/'.join(str(d['estimates'][o]) for o in ('kmeans_distance', 'kmeans_accumulate', 'kmeans_divide'))} "
            f"cycles) the same native experiment charged {PRECAL['sw_ms']} against",
            f"{PRECAL['accel_ms']} ms, and its write p99 was {PRECAL['p99_us']} µs ({PRECAL['p99_pct']} %) higher with "
            "software clustering; this page then",
            "attributed that to the stalls. The ISS runs above say it was more likely the same GC-timing effect.", ""]
    return out


def cosim(d) -> list[str]:
    rtl = [s["rtl"] for s in d["sweeps"].values() if "rtl" in s]
    if not rtl:
        return []
    rates = sorted(r["mcps"] for r in rtl)
    big = max(rtl, key=lambda r: r["cycles"])
    return ["## Co-simulation throughput", "",
            "Verilated RTL (C++ mode, with tracing compiled in but off): "
            + "-".join(sorted({f"{r:.1f}" for r in rates}, key=float)) + " M RTL cycles/s in the sweeps",
            f"above ({big['cycles'] / 1e6:.2f} M cycles, load phase included, in {big['s']:.2f} s; {COSIM_EARLIER}),",
            f"{COSIM_IDLE}.", ""]


def area(d) -> list[str]:
    s = d["synthesis"]
    out = ["## Area", ""]
    if "missing" in s:
        return out + [f"Not synthesised when this data was made: {s['missing']}. docs/models/accel.md has the area.",
                      ""]
    cells = s["cells"]
    version = re.match(r"\S+ [\d.]+", s["yosys"])
    out += [f"`scripts/synth-accel.sh` ({version.group(0) if version else s['yosys']}) on the default configuration, the point and label SRAMs kept "
            "as macros (docs/models/accel.md explains the flow and turns the counts into mm²):", "",
            "| cells | count |", "|---|---:|"]
    out += [f"| `{n}` | {v:,} |" for n, v in cells.items()]
    out += [f"| total cells | {s['total_cells']:,} |",
            f"| **transistor estimate (`stat -tech cmos`, logic)** | **{s['transistors']:,}** (+ the macros) |", ""]
    return out


def figures(data: Path, figs: Path) -> list[str]:
    plt = pyplot()
    if plt is None:
        return []
    fig = plot_sweep.draw(rows_of(data, "sweep_uniform.csv"), plt)
    save_png_svg(plt, fig, str(figs / "sweep"))
    return ["![clustering time against N](accelerator/sweep.png)", "", "([SVG](accelerator/sweep.svg))", ""]


def page(data: Path, page_path: Path) -> None:
    d = json.loads((data / "results.json").read_text())
    uni, blobs = rows_of(data, "sweep_uniform.csv"), rows_of(data, "sweep_blobs_converged.csv")
    c = costs_of(uni)
    out = intro(uni, blobs, c) + reproduce(d, uni, data) + paper_point(d, uni, blobs, c)
    out += sweep_table(uni, c, figures(data, page_path.parent / "accelerator"))
    out += haml_section(d, c) + cosim(d) + area(d)
    out.append(provenance_text(str(data), COMMAND).rstrip("\n"))
    page_path.parent.mkdir(parents=True, exist_ok=True)
    page_path.write_text("\n".join(out) + "\n")
    print(f"accelerator: wrote {page_path}", file=sys.stderr)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--build-dir", default=str(ROOT / "build"))
    ap.add_argument("--render", metavar="DATA_DIR",
                    help="run nothing: the page from DATA_DIR (docs/results/accelerator is the committed one)")
    ap.add_argument("--page", default=str(PAGE), help="the page to write (its figure goes beside it)")
    a = ap.parse_args()
    if a.render:
        page(Path(a.render), Path(a.page))
        return
    bdir = Path(a.build_dir).resolve()
    t0 = time.monotonic()
    d = measure(bdir)
    (DATA / "results.json").write_text(json.dumps(d, indent=1, sort_keys=True) + "\n")
    write_provenance(str(bdir / "platform" / "ssdvp"), COMMAND, str(DATA), time.monotonic() - t0)
    page(DATA, PAGE)


if __name__ == "__main__":
    main()
