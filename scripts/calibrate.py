#!/usr/bin/env python3
"""calibrate.py - measure the firmware's operations on the ISS against the
native CPU's cycle-cost table in force (configs/cpu_cost.yaml), compare the
CPU modes side by side, and keep the figures as data for the page
(docs/results/calibration.md); with --apply, regenerate the table instead.

    python3 scripts/calibrate.py [--build-dir DIR] [--jobs N]   measure, write the data and the page
    python3 scripts/calibrate.py --apply [--build-dir DIR]        measure, rewrite configs/cpu_cost.yaml, rebuild
    python3 scripts/calibrate.py --render DATA_DIR [--page OUT]   the page from committed data only

Usually run through scripts/calibrate.sh, which builds first. Measuring
changes nothing the simulator uses: the page says how far the table in force
is from a fresh measurement, and the validation runs native mode with both
(the measured one by --set) beside the ISS. --apply changes every native
run's timing (the table is the native mode's defaults): commit the new table,
then measure again for the page (its provenance needs a clean tree).

1. Calibration: the workloads below run in cpu.mode: iss. On the ISS every
   hal_charge() is a marker, and the instructions retired since the previous
   marker are the cost of the op it names (a wait for an interrupt closes the
   event loop's share, charged to irq_entry). Over the timed part of all runs:
       cycles(op) = instructions(op) x cpu.iss.cpi / count(op)
   Ops no run exercises keep fw_ops.def's estimate (listed as such).
   K-Means is the exception: the firmware charges kmeans_distance (N x K)
   and kmeans_accumulate (N) back to back after one fused pass, so markers
   cannot split the pass between them, and the runs only use K = 6. The
   split comes from the accelerator sweep instead (ssdvp-accel-sweep runs
   kmeans2d on the ISS for N = 640..25,600 and K = 3..8): a least-squares
   fit of instructions per iteration = a.N + b.N.K + c.K gives
   kmeans_accumulate = a and kmeans_distance = b (x cpi).
2. With --apply, the table is written to configs/cpu_cost.yaml; the build
   turns it into the native CPU's defaults (cmake/cost_table.cmake), so the
   script rebuilds, and stops there.
3. Otherwise, validation on workloads the calibration did not see: each runs
   natively with the first estimates, with the table in force, with the
   table just measured, and on the ISS; the data (results.json,
   provenance.json) go to docs/results/calibration/ and the page is rendered
   from them: CPU time, IOPS, latencies and WAF side by side.
"""
from __future__ import annotations

import argparse
import concurrent.futures as cf
import csv
import datetime
import io
import json
import re
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "scripts"))
from runpoint import load_of, provenance_text, pyplot, run_kept, save_png_svg, write_provenance  # noqa: E402
DEF = ROOT / "firmware/hal/fw_ops.def"
TABLE = ROOT / "configs/cpu_cost.yaml"
PAGE = ROOT / "docs/results/calibration.md"
DATA = ROOT / "docs/results/calibration"
COMMAND = "bash scripts/calibrate.sh"
MODES = ("native, estimates", "native, in force", "native, measured", "iss")

# (name, description, ssdvp arguments)
CALIBRATION = [
    ("default", "the main job: MSR excerpt, host/GC separation (configs/default.yaml)",
     ["-c", "configs/default.yaml"]),
    ("haml", "HAML-SSD placement: hotness monitor, software K-Means, wear levelling (configs/haml.yaml)",
     ["-c", "configs/haml.yaml"]),
    ("haml-accel", "the same with the K-Means accelerator (ftl.cluster.engine: accel)",
     ["-c", "configs/haml.yaml", "--set", "ftl.cluster.engine=accel"]),
]
TRACE = ["--set", "workload.source=trace", "--set", "host.mode=open"]
VALIDATION = [
    ("uniform QD32", "synthetic 4 KiB uniform random, 30 % reads, closed loop at queue depth 32 (configs/small.yaml)",
     ["-c", "configs/small.yaml"]),
    ("TPC-C", "traces/tpcc-small.ascii, 10 loops at 1/10 speed, open loop, on configs/small.yaml",
     ["-c", "configs/small.yaml", *TRACE, "--set", "workload.trace=traces/tpcc-small.ascii",
      "--set", "workload.loops=10", "--set", "workload.time_scale=10"]),
    ("PostMark", "traces/postmark.ascii, open loop, on configs/small.yaml",
     ["-c", "configs/small.yaml", *TRACE, "--set", "workload.trace=traces/postmark.ascii"]),
]


def fw_ops() -> list[tuple[str, int, str]]:
    return [(n, int(c), d) for n, c, d in
            re.findall(r'^FW_OP\((\w+),\s*(\d+),\s*"([^"]*)"\)', DEF.read_text(), re.M)]


def run(binary: Path, out: Path, args: list[str]) -> dict:
    s, wall = run_kept(binary, out, args)
    s["_wall"] = wall
    return s


def run_all(binary: Path, work: Path, jobs: int, runs: list[tuple[str, list[str]]]) -> dict[str, dict]:
    with cf.ThreadPoolExecutor(jobs) as ex:
        futs = {name: ex.submit(run, binary, work / re.sub(r"[^A-Za-z0-9_.-]", "_", name), args)
                for name, args in runs}
        return {n: f.result() for n, f in futs.items()}


def build(build_dir: Path) -> None:
    # everything: the tests link the same defaults
    subprocess.run(["cmake", "--build", str(build_dir)], cwd=ROOT, check=True, stdout=subprocess.DEVNULL)


def write_table(ops, measured, cpi: float, runs: dict[str, dict], split: dict | None) -> None:
    now = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d")
    lines = [
        "# The native CPU's cycle-cost table (cpu.cost.<op>, cycles at cpu.clock_hz),",
        "# calibrated on the ISS: cycles = instructions attributed to the op x cpu.iss.cpi",
        f"# ({cpi:g}) / times the op ran, over the timed part of the calibration runs.",
        "# Generated by scripts/calibrate.sh (" + now + "); do not edit by hand: the build",
        "# turns it into the defaults (cmake/cost_table.cmake). Runs:",
    ]
    for name, desc, _ in CALIBRATION:
        s = runs[name]
        lines.append(f"#   {name}: {desc}; {s['cpu']['instructions']:,} instructions")
    if split:
        lines.append(f"# kmeans_distance and kmeans_accumulate: fitted on ssdvp-accel-sweep's ISS runs "
                     f"({split['cases']} cases, worst error {100 * split['worst']:.1f} %), see the page.")
    lines += ["# Ops without a row keep firmware/hal/fw_ops.def's estimate (no run exercised them).",
              "cpu:", "  cost:"]
    for name, est, desc in ops:
        if name in measured:
            cyc, n, ins = measured[name]
            how = " (markers' view; cost fitted on the sweep)" if split and name in ("kmeans_distance", "kmeans_accumulate") else ""
            lines.append(f"    {name}: {cyc}  # {n:,} ops, {ins:,.0f} instructions{how}; estimate was {est}")
    TABLE.write_text("\n".join(lines) + "\n")


def measure(ops, runs: dict[str, dict]) -> tuple[dict, float]:
    count = {n: 0 for n, _, _ in ops}
    insns = {n: 0.0 for n, _, _ in ops}
    cpi = None
    for s in runs.values():
        cfg = s["config"]
        clock = float(cfg.get("cpu.clock_hz", 1e9))
        cpi = float(cfg.get("cpu.iss.cpi", 1.0))
        if s["cpu"]["mode"] != "iss":
            sys.exit("calibrate: a calibration run did not run on the ISS")
        for op, v in s["cpu"]["ops"].items():
            count[op] += v["count"]
            insns[op] += v["time_s"] * clock / cpi  # time = instructions x cpi / clock
    measured = {}
    for n, _, _ in ops:
        if count[n]:
            measured[n] = (max(1, round(insns[n] * cpi / count[n])), count[n], insns[n])
    return measured, cpi or 1.0


def kmeans_split(build_dir: Path, cpi: float) -> dict | None:
    """Per-point and per-distance instructions of kmeans2d, fitted over the
    accelerator sweep's ISS runs; None when the sweep has no ISS column."""
    import numpy as np
    sweep = build_dir / "accel/ssdvp-accel-sweep"
    if not sweep.exists():
        return None
    out = subprocess.run([str(sweep), "--lanes", "1"], capture_output=True, text=True, check=True).stdout
    rows = list(csv.DictReader(io.StringIO(out)))
    if not rows or rows[0].get("sw_iss_instructions", "-") == "-":
        return None
    bad = [r for r in rows if r["iss_match"] != "yes"]
    if bad:
        sys.exit(f"calibrate: kmeans2d on the ISS disagrees with the host at N={bad[0]['n']} K={bad[0]['k']}")
    n = np.array([float(r["n"]) for r in rows])
    k = np.array([float(r["k"]) for r in rows])
    it = np.array([float(r["iterations"]) for r in rows])
    y = np.array([float(r["sw_iss_instructions"]) for r in rows]) / it
    x = np.stack([n, n * k, k], axis=1)
    (a, b, c), *_ = np.linalg.lstsq(x, y, rcond=None)
    fit = x @ np.array([a, b, c])
    worst = float(np.max(np.abs(fit - y) / y))
    return {"accumulate": a * cpi, "distance": b * cpi, "per_centroid": c * cpi, "worst": worst, "cases": len(rows),
            "instructions": float(np.sum(y * it))}


def in_force() -> dict[str, int]:
    """The cost table in force: configs/cpu_cost.yaml's cpu.cost rows (op: cycles)."""
    return {m.group(1): int(m.group(2)) for m in re.finditer(r"^    (\w+): (\d+)", TABLE.read_text(), re.M)}


def keep_run(s: dict) -> dict:
    """What the page needs of one run's summary."""
    lr, lw = s["latency_us"]["read"], s["latency_us"]["write"]
    return {"instructions": s["cpu"].get("instructions"), "requests": s["workload"]["requests"],
            "compute_s": s["cpu"]["compute_s"], "cpu_busy": s["utilization"]["cpu"], "iops": s["host"]["iops"],
            "read_mean": lr["mean"], "read_p99": lr["p99"], "write_mean": lw["mean"], "write_p99": lw["p99"],
            "waf": s["ftl"]["waf"], "wall_s": round(s["_wall"], 1)}


def fmt_us(v: float) -> str:
    return f"{v:,.1f}"


def figures(d: dict, figs: Path) -> dict[str, list[str]]:
    """The figures (PNG and SVG) drawn from the data: each one's lines for the page, by name."""
    plt = pyplot()
    if plt is None:
        return {}
    ops = [o for o in d["ops"] if o["name"] in d["measured"]]
    fig, ax = plt.subplots(figsize=(9, 3.6))
    xs = range(len(ops))
    for i, (lab, get) in enumerate((("estimate (fw_ops.def)", lambda o: o["estimate"]),
                                    ("in force (configs/cpu_cost.yaml)", lambda o: d["in_force"].get(o["name"], 0)),
                                    ("measured now on the ISS", lambda o: d["measured"][o["name"]]["cycles"]))):
        ax.bar([x + (i - 1) * 0.27 for x in xs], [get(o) for o in ops], 0.27, label=lab)
    ax.set_xticks(list(xs))
    ax.set_xticklabels([o["name"] for o in ops], rotation=60, ha="right", fontsize=8)
    ax.set_yscale("log")
    ax.set_ylabel("cycles per op (log)")
    ax.legend(fontsize=8, frameon=False, loc="upper left", bbox_to_anchor=(1.0, 1.0))
    save_png_svg(plt, fig, str(figs / "cost_table"))
    out = {}
    out["cost_table"] = ["![estimated, in-force and measured cycles per op](calibration/cost_table.png)", "",
           "*Cycles per op: the first estimate, the table in force and the fresh measurement (log axis; one "
           "measurement over the three calibration runs).* ([SVG](calibration/cost_table.svg))", ""]
    if d["validation"]:
        fig, axes = plt.subplots(1, 2, figsize=(10, 3.4))
        names = [v["name"] for v in d["workloads"]]
        for ax, op in zip(axes, ("read", "write")):
            for i, mode in enumerate(MODES):
                ys = [d["validation"][f"{n} / {mode}"][f"{op}_mean"] for n in names]
                ax.bar([x + (i - 1.5) * 0.2 for x in range(len(names))], ys, 0.2, label=mode)
            ax.set_xticks(range(len(names)))
            ax.set_xticklabels(names, fontsize=8)
            ax.set_ylabel(f"mean {op} latency (µs)")
        axes[1].legend(fontsize=7, frameon=False, loc="upper left", bbox_to_anchor=(1.0, 1.0))
        save_png_svg(plt, fig, str(figs / "latency"))
        out["latency"] = ["![mean latencies in the CPU modes](calibration/latency.png)", "",
                "*Mean read and write latency per workload and CPU mode (one run each; the simulator is "
                "deterministic, so a rerun gives the same bars).* ([SVG](calibration/latency.svg))", ""]
    return out


def page(d: dict, data: Path, page_path: Path) -> None:
    out = []
    w = out.append
    ops, measured, force, cal = d["ops"], d["measured"], d["in_force"], d["calibration"]
    split = d["split"]
    w("# Calibration: the native CPU's cost table, measured on the ISS")
    w("")
    w("<!-- Generated by scripts/calibrate.py from docs/results/calibration/results.json. Do not edit: rerun it "
      "(or `--render docs/results/calibration`). -->")
    w("")
    w("The native CPU model charges each firmware operation a fixed number of cycles (`cpu.cost.<op>`). "
      "Those numbers started as estimates (`firmware/hal/fw_ops.def`). The iss CPU mode runs the same "
      "firmware sources compiled for RV32IMAC (`-Os`, picolibc) and counts the instructions each operation "
      "really takes: on the ISS `hal_charge()` is a marker, and the instructions retired since the previous "
      "marker belong to the op it names (the event loop's own instructions before a wait for an interrupt "
      "go to `irq_entry`). The table in force, `configs/cpu_cost.yaml`, is such a measurement (the mean over "
      "the timed part of the calibration runs, at `cpu.iss.cpi` = 1 cycle per instruction) and the native "
      "mode's default. This page measures again at the commit below and says how far the table in force is "
      "from it; measuring changes nothing the simulator uses.")
    w("")
    w(f"Measure again (the data in `docs/results/calibration/` and this page; {len(cal)} ISS runs and "
      f"{len(d['validation'])} validation runs, {sum(v['wall_s'] for v in [*cal.values(), *d['validation'].values()]):,.0f} s "
      f"of wall time summed, {load_of(str(data))}):")
    w("")
    w("```sh")
    w(COMMAND)
    w("```")
    w("")
    w("Regenerate the table from a fresh measurement (`--apply`: rewrites `configs/cpu_cost.yaml` and rebuilds; "
      "it changes the timing of every native run, so every results page that depends on the simulator is then "
      "out of date): `bash scripts/calibrate.sh --apply`, commit the table, then measure again for this page.")
    w("")
    w("## Calibration runs (cpu.mode: iss)")
    w("")
    w("| run | workload | instructions (timed part) | host requests | wall (s) |")
    w("|---|---|---:|---:|---:|")
    for c in d["calibration_runs"]:
        s = cal[c["name"]]
        w(f"| {c['name']} | {c['description']} | {s['instructions']:,} | {s['requests']:,} | {s['wall_s']:.1f} |")
    w("")
    w("## The table")
    w("")
    total = sum(m["instructions"] for m in measured.values()) or 1
    w("| op | estimate (cycles) | in force | measured now | measured / in force | times run | share of "
      "instructions | description |")
    w("|---|---:|---:|---:|---:|---:|---:|---|")
    for o in ops:
        n, est = o["name"], o["estimate"]
        f = force.get(n)
        if n in measured:
            m = measured[n]
            ratio = f"{m['cycles'] / f:.2f}" if f else ""
            w(f"| `{n}` | {est} | {f if f is not None else '(estimate)'} | {m['cycles']} | {ratio} | {m['count']:,} | "
              f"{100 * m['instructions'] / total:.1f} % | {o['description']} |")
        else:
            w(f"| `{n}` | {est} | {f if f is not None else '(estimate)'} | (no run exercised it) | | 0 | | "
              f"{o['description']} |")
    w("")
    moved = [o["name"] for o in ops if o["name"] in measured and o["name"] in force and
             abs(measured[o["name"]]["cycles"] / force[o["name"]] - 1) > 0.05]
    w("**The table in force against this measurement:** " + (
        "every op within 5 %." if not moved else
        f"{len(moved)} of {sum(1 for o in ops if o['name'] in measured and o['name'] in force)} measured ops "
        f"differ by more than 5 % ({', '.join(f'`{n}`' for n in moved)}): the firmware or the calibration "
        "runs changed since the table was written; the validation below shows what the difference does to "
        "native runs (\"native, in force\" against \"native, measured\"), and `--apply` would adopt it."))
    w("")
    w("How to read it:")
    w("")
    w("- An op's cost includes every instruction between its marker and the previous one, so work the "
      "estimates did not charge lands on the next marker: scanning page buffers for a read hit is in "
      "`buffer_alloc`, the poll of every event source on each pass of the event loop in `irq_entry`.")
    if split:
        w("- K-Means: the firmware charges `kmeans_distance` (N·K) and `kmeans_accumulate` (N) back to back "
          "after one fused pass over the points, so the markers give the whole pass to `kmeans_distance` "
          "(\"times run\" and \"share\" above are the markers' view), and the runs only cluster with K = 6. "
          f"The two measured costs are fitted instead on `ssdvp-accel-sweep`'s ISS runs of the same "
          f"`kmeans2d` ({split['cases']} cases, N = 640 to 25,600, K = 3 to 8, 10 iterations; "
          f"{split['instructions'] / 1e6:,.0f} M instructions): instructions per iteration = "
          f"{split['accumulate']:.1f}·N + {split['distance']:.1f}·N·K + {split['per_centroid']:.1f}·K, "
          f"worst error of the fit {100 * split['worst']:.1f} %. The last term, per centroid and iteration, "
          f"is `kmeans_divide`'s (two software 64-bit divisions, whose cost depends on the operands: "
          f"{split['per_centroid'] / 2:.0f} cycles each here, "
          f"{measured.get('kmeans_divide', {}).get('cycles', 0)} in the workloads, whose figure the table "
          "keeps). See [the accelerator comparison](accelerator.md).")
    else:
        w("- `kmeans_distance` holds the whole assignment loop, accumulation included, because the firmware "
          "fuses the two (one pass over the points); `kmeans_accumulate` is then close to zero. The sum is "
          "right for the K the runs used (6); at other K the split is approximate (build with the ISS for the "
          "fitted split).")
    w("- Per-op means hide spread: a loop's first pass costs more than the rest (cold cache is not "
      "modelled, but branch paths differ), so one op's cost varies with the workload's mix. The validation "
      "below measures how much that matters.")
    w("")
    figs = figures(d, page_path.parent / "calibration")
    out += figs.get("cost_table", [])
    val = d["validation"]
    if val:
        w("## The CPU modes side by side (workloads not used for calibration)")
        w("")
        w("Each workload runs four times: native with the first estimates, native with the table in force, "
          "native with the table measured above (each op set by `--set cpu.cost.<op>=`), and on the ISS (the "
          "reference). CPU time is the timed part's compute time (cost table, or instructions at 1 GHz); "
          "latencies are the host's, in µs. The simulator is deterministic: one run per cell.")
        w("")
        w("| workload | CPU | CPU compute (s) | CPU busy | IOPS | read mean / p99 | write mean / p99 | WAF | wall (s) |")
        w("|---|---|---:|---:|---:|---:|---:|---:|---:|")
        for wl in d["workloads"]:
            for mode in MODES:
                s = val[f"{wl['name']} / {mode}"]
                w(f"| {wl['name']} | {mode} | {s['compute_s']:.3f} | {100 * s['cpu_busy']:.1f} % | "
                  f"{s['iops']:,.0f} | {fmt_us(s['read_mean'])} / {fmt_us(s['read_p99'])} | "
                  f"{fmt_us(s['write_mean'])} / {fmt_us(s['write_p99'])} | {s['waf']:.3f} | {s['wall_s']:.1f} |")
        w("")
        w("Workloads:")
        w("")
        for wl in d["workloads"]:
            w(f"- {wl['name']}: {wl['description']}.")
        w("")
        w("CPU compute time of native mode against the ISS (negative: native charges less):")
        w("")
        w("| workload | " + " | ".join(m[len("native, "):] for m in MODES[:-1]) + " |")
        w("|---|" + "---:|" * (len(MODES) - 1))
        for wl in d["workloads"]:
            iss = val[f"{wl['name']} / iss"]["compute_s"]
            cells = []
            for m in MODES[:-1]:
                nat = val[f"{wl['name']} / {m}"]["compute_s"]
                cells.append(f"{100 * (nat - iss) / iss:+.1f} %" if iss else "n/a")
            w(f"| {wl['name']} | " + " | ".join(cells) + " |")
        w("")
        out += figs.get("latency", [])
    out.append(provenance_text(str(data), COMMAND).rstrip("\n"))
    page_path.write_text("\n".join(out) + "\n")
    print(f"calibrate: wrote {page_path}", file=sys.stderr)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--build-dir", default=str(ROOT / "build"))
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--apply", action="store_true",
                    help="rewrite configs/cpu_cost.yaml from the measurement and rebuild (no validation, no page)")
    ap.add_argument("--render", metavar="DATA_DIR",
                    help="run nothing: the page from DATA_DIR/results.json (docs/results/calibration is the committed one)")
    ap.add_argument("--page", default=str(PAGE), help="the page to write (its figures go beside it)")
    a = ap.parse_args()
    if a.render:
        page(json.loads((Path(a.render) / "results.json").read_text()), Path(a.render), Path(a.page))
        return
    bdir = Path(a.build_dir)
    binary = bdir / "platform/ssdvp"
    work = bdir / "calibrate-out"
    ops = fw_ops()
    estimates = [arg for n, est, _ in ops for arg in ("--set", f"cpu.cost.{n}={est}")]
    t0 = time.monotonic()
    print("calibrate: calibration runs on the ISS ...", file=sys.stderr)
    cal = run_all(binary, work / "cal", a.jobs, [(n, [*args, "--set", "cpu.mode=iss"]) for n, _, args in CALIBRATION])
    measured, cpi = measure(ops, cal)
    split = kmeans_split(bdir, cpi)
    if split:
        for op, key in (("kmeans_distance", "distance"), ("kmeans_accumulate", "accumulate")):
            if op in measured:
                _, cnt, ins = measured[op]
                measured[op] = (max(1, round(split[key])), cnt, ins)
    if a.apply:
        write_table(ops, measured, cpi, cal, split)
        print(f"calibrate: wrote {TABLE.relative_to(ROOT)}; rebuilding", file=sys.stderr)
        build(bdir)
        print("calibrate: commit the table, then run again without --apply for the page", file=sys.stderr)
        return
    fresh = [arg for n, (cyc, _, _) in measured.items() for arg in ("--set", f"cpu.cost.{n}={cyc}")]
    print("calibrate: validation runs ...", file=sys.stderr)
    runs = []
    for name, _, args in VALIDATION:
        runs.append((f"{name} / native, estimates", [*args, "--set", "cpu.mode=native", *estimates]))
        runs.append((f"{name} / native, in force", [*args, "--set", "cpu.mode=native"]))
        runs.append((f"{name} / native, measured", [*args, "--set", "cpu.mode=native", *fresh]))
        runs.append((f"{name} / iss", [*args, "--set", "cpu.mode=iss"]))
    val = run_all(binary, work / "val", a.jobs, runs)
    d = {"ops": [{"name": n, "estimate": est, "description": desc} for n, est, desc in ops],
         "in_force": in_force(), "cpi": cpi,
         "measured": {n: {"cycles": c, "count": k, "instructions": round(i)} for n, (c, k, i) in measured.items()},
         "split": split,
         "calibration_runs": [{"name": n, "description": desc} for n, desc, _ in CALIBRATION],
         "calibration": {n: keep_run(s) for n, s in cal.items()},
         "workloads": [{"name": n, "description": desc} for n, desc, _ in VALIDATION],
         "validation": {n: keep_run(s) for n, s in val.items()}}
    DATA.mkdir(parents=True, exist_ok=True)
    (DATA / "results.json").write_text(json.dumps(d, indent=1, sort_keys=True) + "\n")
    write_provenance(str(binary), COMMAND, str(DATA), time.monotonic() - t0)
    page(d, DATA, PAGE)


if __name__ == "__main__":
    main()
