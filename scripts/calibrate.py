#!/usr/bin/env python3
"""calibrate.py - measure the firmware's operations on the ISS and regenerate
the native CPU's cycle-cost table (configs/cpu_cost.yaml), then compare the
two CPU modes side by side (docs/results/calibration.md).

    python3 scripts/calibrate.py [--build-dir DIR] [--jobs N] [--no-validate]

Usually run through scripts/calibrate.sh, which builds first.

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
2. The table is written to configs/cpu_cost.yaml; the build turns it into the
   native CPU's defaults (cmake/cost_table.cmake), so the script rebuilds.
3. Validation on workloads the calibration did not see: each runs natively
   with the first estimates, natively with the calibrated table, and on the
   ISS; the page shows CPU time, IOPS, latencies and WAF side by side.
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
DEF = ROOT / "firmware/hal/fw_ops.def"
TABLE = ROOT / "configs/cpu_cost.yaml"
PAGE = ROOT / "docs/results/calibration.md"
PLOTS = ROOT / "docs/results/calibration"

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
    out.mkdir(parents=True, exist_ok=True)
    # the table and the page were measured under pass, the default before room: pinned until remeasured
    cmd = [str(binary), "run", *args, "--set", "ftl.write.at_floor=pass", "-o", str(out), "--quiet"]
    t0 = time.monotonic()
    p = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True)
    if p.returncode != 0:
        sys.exit(f"calibrate: {' '.join(cmd)} failed ({p.returncode}):\n{p.stderr}")
    s = json.loads((out / "summary.json").read_text())
    s["_wall"] = time.monotonic() - t0
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


def fmt_us(v: float) -> str:
    return f"{v:,.1f}"


def embed_plot(fig, name: str, alt: str, w) -> None:
    """Saves a figure under docs/results/calibration/ and links it from the page."""
    import matplotlib.pyplot as plt
    fig.tight_layout()
    fig.savefig(PLOTS / name, dpi=110)
    plt.close(fig)
    w(f"![{alt}](calibration/{name})")
    w("")


def page(ops, measured, cal: dict[str, dict], val: dict[str, dict], split: dict | None, cmdline: str) -> None:
    PLOTS.mkdir(parents=True, exist_ok=True)
    out = []
    w = out.append
    w("# Calibration: the native CPU's cost table, measured on the ISS")
    w("")
    w("<!-- Generated by scripts/calibrate.py. Do not edit: rerun it. -->")
    w("")
    w("The native CPU model charges each firmware operation a fixed number of cycles (`cpu.cost.<op>`). "
      "Those numbers started as estimates (`firmware/hal/fw_ops.def`). The iss CPU mode runs the same "
      "firmware sources compiled for RV32IMAC (`-Os`, picolibc) and counts the instructions each operation "
      "really takes: on the ISS `hal_charge()` is a marker, and the instructions retired since the previous "
      "marker belong to the op it names (the event loop's own instructions before a wait for an interrupt "
      "go to `irq_entry`). The calibrated table in `configs/cpu_cost.yaml` is the mean over the timed part "
      "of the calibration runs, at `cpu.iss.cpi` = 1 cycle per instruction; it is the native mode's default.")
    w("")
    w("Regenerate the table, this page and its plots (about 5 minutes on 2 cores):")
    w("")
    w("```sh")
    w(cmdline)
    w("```")
    w("")
    w("Every run sets `ftl.write.at_floor: pass` (the script does), the default before it became `room`: "
      "the table and the figures below were measured under it and have not been remeasured under `room`.")
    w("")
    w("## Calibration runs (cpu.mode: iss)")
    w("")
    w("| run | workload | instructions (timed part) | host requests | wall (s) |")
    w("|---|---|---:|---:|---:|")
    for name, desc, _ in CALIBRATION:
        s = cal[name]
        w(f"| {name} | {desc} | {s['cpu']['instructions']:,} | {s['workload']['requests']:,} | {s['_wall']:.1f} |")
    w("")
    w("## The table")
    w("")
    total = sum(v[2] for v in measured.values()) or 1
    w("| op | estimate (cycles) | calibrated (cycles) | ratio | times run | share of instructions | description |")
    w("|---|---:|---:|---:|---:|---:|---|")
    for n, est, desc in ops:
        if n in measured:
            cyc, cnt, ins = measured[n]
            w(f"| `{n}` | {est} | {cyc} | {cyc / est:.1f}x | {cnt:,} | {100 * ins / total:.1f} % | {desc} |")
        else:
            w(f"| `{n}` | {est} | (estimate kept) | | 0 | | {desc} |")
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
          f"The two costs in the table are fitted instead on `ssdvp-accel-sweep`'s ISS runs of the same "
          f"`kmeans2d` ({split['cases']} cases, N = 640 to 25,600, K = 3 to 8, 10 iterations; "
          f"{split['instructions'] / 1e6:,.0f} M instructions): instructions per iteration = "
          f"{split['accumulate']:.1f}·N + {split['distance']:.1f}·N·K + {split['per_centroid']:.1f}·K, "
          f"worst error of the fit {100 * split['worst']:.1f} %. The last term, per centroid and iteration, "
          f"is `kmeans_divide`'s (two software 64-bit divisions, whose cost depends on the operands: "
          f"{split['per_centroid'] / 2:.0f} cycles each here, {measured.get('kmeans_divide', (0,))[0]} in the "
          "workloads, whose figure the table keeps). See [the accelerator comparison](accelerator.md).")
    else:
        w("- `kmeans_distance` holds the whole assignment loop, accumulation included, because the firmware "
          "fuses the two (one pass over the points); `kmeans_accumulate` is then close to zero. The sum is "
          "right for the K the runs used (6); at other K the split is approximate (build with the ISS for the "
          "fitted split).")
    w("- Per-op means hide spread: a loop's first pass costs more than the rest (cold cache is not "
      "modelled, but branch paths differ), so one op's cost varies with the workload's mix. The validation "
      "below measures how much that matters.")
    w("")
    ratio = [(n, est, measured[n][0]) for n, est, _ in ops if n in measured]
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        fig, ax = plt.subplots(figsize=(9, 3.6))
        xs = range(len(ratio))
        ax.bar([x - 0.2 for x in xs], [r[1] for r in ratio], 0.4, label="estimate (fw_ops.def)")
        ax.bar([x + 0.2 for x in xs], [r[2] for r in ratio], 0.4, label="calibrated on the ISS")
        ax.set_xticks(list(xs))
        ax.set_xticklabels([r[0] for r in ratio], rotation=60, ha="right", fontsize=8)
        ax.set_yscale("log")
        ax.set_ylabel("cycles per op")
        ax.legend(fontsize=8)
        embed_plot(fig, "cost_table.png", "estimated and calibrated cycles per op", w)
    except ImportError:
        pass
    if val:
        w("## Both modes side by side (workloads not used for calibration)")
        w("")
        w("Each workload runs three times: native with the first estimates, native with the calibrated "
          "table, and on the ISS (the reference). CPU time is the timed part's compute time (cost table, or "
          "instructions at 1 GHz); latencies are the host's, in µs.")
        w("")
        w("| workload | CPU | CPU compute (s) | CPU busy | IOPS | read mean / p99 | write mean / p99 | WAF | wall (s) |")
        w("|---|---|---:|---:|---:|---:|---:|---:|---:|")
        for name, desc, _ in VALIDATION:
            for mode in ("native, estimates", "native, calibrated", "iss"):
                s = val[f"{name} / {mode}"]
                lr, lw = s["latency_us"]["read"], s["latency_us"]["write"]
                w(f"| {name} | {mode} | {s['cpu']['compute_s']:.3f} | {100 * s['utilization']['cpu']:.1f} % | "
                  f"{s['host']['iops']:,.0f} | {fmt_us(lr['mean'])} / {fmt_us(lr['p99'])} | "
                  f"{fmt_us(lw['mean'])} / {fmt_us(lw['p99'])} | {s['ftl']['waf']:.3f} | {s['_wall']:.1f} |")
        w("")
        w("Workloads:")
        w("")
        for name, desc, _ in VALIDATION:
            w(f"- {name}: {desc}.")
        w("")
        err = []
        for name, _, _ in VALIDATION:
            iss = val[f"{name} / iss"]["cpu"]["compute_s"]
            for mode in ("native, estimates", "native, calibrated"):
                nat = val[f"{name} / {mode}"]["cpu"]["compute_s"]
                err.append((name, mode, (nat - iss) / iss if iss else 0.0))
        w("CPU compute time of native mode against the ISS (negative: native charges less):")
        w("")
        w("| workload | estimates | calibrated |")
        w("|---|---:|---:|")
        for name, _, _ in VALIDATION:
            e = {m: v for n, m, v in err if n == name}
            w(f"| {name} | {100 * e['native, estimates']:+.1f} % | {100 * e['native, calibrated']:+.1f} % |")
        w("")
        try:
            import matplotlib.pyplot as plt
            fig, axes = plt.subplots(1, 2, figsize=(9, 3.4))
            modes = ("native, estimates", "native, calibrated", "iss")
            for ax, op in zip(axes, ("read", "write")):
                for i, mode in enumerate(modes):
                    ys = [val[f"{n} / {mode}"]["latency_us"][op]["mean"] for n, _, _ in VALIDATION]
                    ax.bar([x + (i - 1) * 0.27 for x in range(len(VALIDATION))], ys, 0.27, label=mode)
                ax.set_xticks(range(len(VALIDATION)))
                ax.set_xticklabels([n for n, _, _ in VALIDATION], fontsize=8)
                ax.set_ylabel(f"mean {op} latency (µs)")
            axes[0].legend(fontsize=7)
            embed_plot(fig, "latency.png", "mean latencies in both modes", w)
        except ImportError:
            pass
    PAGE.write_text("\n".join(out) + "\n")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--build-dir", default=str(ROOT / "build"))
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--no-validate", action="store_true")
    a = ap.parse_args()
    bdir = Path(a.build_dir)
    binary = bdir / "platform/ssdvp"
    work = bdir / "calibrate-out"
    ops = fw_ops()
    estimates = [arg for n, est, _ in ops for arg in ("--set", f"cpu.cost.{n}={est}")]

    print("calibrate: calibration runs on the ISS ...", file=sys.stderr)
    cal = run_all(binary, work / "cal", a.jobs, [(n, [*args, "--set", "cpu.mode=iss"]) for n, _, args in CALIBRATION])
    measured, cpi = measure(ops, cal)
    split = kmeans_split(bdir, cpi)
    if split:
        for op, key in (("kmeans_distance", "distance"), ("kmeans_accumulate", "accumulate")):
            if op in measured:
                _, cnt, ins = measured[op]
                measured[op] = (max(1, round(split[key])), cnt, ins)
    write_table(ops, measured, cpi, cal, split)
    print(f"calibrate: wrote {TABLE.relative_to(ROOT)}; rebuilding", file=sys.stderr)
    build(bdir)
    val = {}
    if not a.no_validate:
        print("calibrate: validation runs ...", file=sys.stderr)
        runs = []
        for name, _, args in VALIDATION:
            runs.append((f"{name} / native, estimates", [*args, "--set", "cpu.mode=native", *estimates]))
            runs.append((f"{name} / native, calibrated", [*args, "--set", "cpu.mode=native"]))
            runs.append((f"{name} / iss", [*args, "--set", "cpu.mode=iss"]))
        val = run_all(binary, work / "val", a.jobs, runs)
    page(ops, measured, cal, val, split, "bash scripts/calibrate.sh")
    print(f"calibrate: wrote {PAGE.relative_to(ROOT)}", file=sys.stderr)


if __name__ == "__main__":
    main()
