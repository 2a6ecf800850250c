#!/usr/bin/env python3
"""haml_double_stalls.py - why `double`'s host writes wait under `ftl.write.at_floor: pass` on
docs/results/haml.md's two synthetic workloads (hot/cold and shifting), while `single`'s do not:
runs the haml sweep's synthetic cases under both floor rules, keeps what the page needs in
docs/results/haml-double-stalls/ (results.csv, one row per run with its wall time, and
provenance.json) and writes docs/results/haml-double-stalls.md from that data.

    python3 scripts/haml_double_stalls.py [BUILD_DIR] [--jobs N] [--seeds 3]   runs everything
    python3 scripts/haml_double_stalls.py --render DATA_DIR --page OUT_MD      runs nothing: the page from data

Arms per workload: `single`, `double` and `double` with four times the write buffer pool under
`pass`; `single` and `double` under `room` (the firmware's default, haml.md's setting: those runs are
haml.md's own points). Seed k sets precondition.seed (the drive history), as the haml sweep does.
Every run samples the drive every millisecond (`stats.interval=1ms`, which changes no figure of the
run: the summary is the same as with the default 1 s), so the page can say what the free pool was
while a slow write waited.
"""
import bisect
import csv
import os

from runpoint import (by_point, cell, change, data_args, load_of, load_summary, page_rows, pick, run_point, run_rows,
                      seed_arg, seeds_line, ssdvp_run, write_lines)

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "out", "haml-double-stalls")
COMMAND = "python3 scripts/haml_double_stalls.py"
CONFIG = "configs/haml.yaml"

# explore/sweeps/haml.yaml's settings and synthetic cases (its `set` and the two synthetic `cases`)
BASE = ["workload.source=synthetic", "workload.synthetic.requests=800000", "workload.synthetic.iops=5000",
        "workload.synthetic.read_fraction=0.2", "workload.synthetic.hot_space=0.1",
        "workload.synthetic.hot_requests=0.8", "workload.synthetic.shift_requests=50000",
        "workload.synthetic.cold_space=0.5", "ftl.hot.period=8000ms", "ftl.hot.hotis.max_interval=2000ms"]
WORKLOADS = {"hotcold": "hot/cold", "shifting": "shifting"}
ARMS = [  # (name, label, sets)
    ("pass-single", "`single`, pass", ["ftl.placement.policy=single", "ftl.write.at_floor=pass"]),
    ("pass-double", "`double`, pass", ["ftl.placement.policy=double", "ftl.write.at_floor=pass"]),
    ("pass-double-pool256", "`double`, pass, write pool 256 pages",
     ["ftl.placement.policy=double", "ftl.write.at_floor=pass", "ftl.buffers.write_pages=256"]),
    ("room-single", "`single`, room", ["ftl.placement.policy=single", "ftl.write.at_floor=room"]),
    ("room-double", "`double`, room", ["ftl.placement.policy=double", "ftl.write.at_floor=room"]),
]
INTERVAL = "1ms"
SLOW_US = 1000.0   # a slow write: over 1 ms (half an erase at the default timing; a write's mean is about 7 us)
KEEP = ["ftl.waf", "ftl.write_stalls", "ftl.write_stalled_commands", "ftl.free_blocks_min", "ftl.gc_active_s",
        "ftl.erases", "latency_us.write.mean", "latency_us.write.p99", "latency_us.write.p9999",
        "latency_us.write.max", "utilization.die_mean", "config.ftl.gc.reserve_blocks",
        "config.ftl.gc.threshold_blocks", "config.ftl.buffers.write_pages"]


def command_for(seeds):
    return COMMAND + ("" if seeds == 3 else f" --seeds {seeds}")


def runs(seeds):
    """(name, workload, arm, label, sets, seed) of every run."""
    return [(f"{w}-{a}-s{k}", w, a, label, BASE + [f"workload.synthetic.pattern={w}"] + sets
             + [f"stats.interval={INTERVAL}", f"precondition.seed={k}"], k)
            for w in WORKLOADS for a, label, sets in ARMS for k in range(1, seeds + 1)]


def intervals(path, reserve):
    """What the run's samples say (timeseries.csv, one row per stats interval): how often the free pool was at or
    below the host floor (`reserve` blocks); for each interval in which a write over SLOW_US completed, the
    fewest free blocks sampled during that write's life (from its completion minus the interval's longest write
    and one interval, to the interval's end), counted by whether that was at or below the floor; and what
    samples a second apart would have shown: the seconds whose last sample has the pool at its most, and how many
    of them held a slow write."""
    with open(path) as f:
        rows = list(csv.DictReader(f))
    t = [float(r["time_s"]) for r in rows]
    free = [int(r["free_blocks"]) for r in rows]
    wmax = [float(r["write_max_us"] or 0) for r in rows]
    dt = t[1] - t[0] if len(t) > 1 else 0.0
    slow = [i for i, m in enumerate(wmax) if m > SLOW_US]
    during = [min(free[bisect.bisect_left(t, t[i] - wmax[i] / 1e6 - dt):i + 1]) for i in slow]
    whole = [i for i, x in enumerate(t) if abs(x - round(x)) < dt / 2 and round(x) >= 1]
    top = max((free[i] for i in whole), default=None)
    full = [i for i in whole if free[i] == top]
    starts = [bisect.bisect_right(t, t[i] - 1 + dt / 2) for i in full]
    return {"iv.n": len(rows), "iv.at_floor": sum(x <= reserve for x in free), "iv.min_free": min(free),
            "iv.slow": len(slow), "iv.slow_at_floor": sum(x <= reserve for x in during),
            "iv.slow_free_max": max(during, default=None), "iv.slow_free_min": min(during, default=None),
            "iv.seconds": len(whole), "iv.seconds_top": top, "iv.seconds_full": len(full),
            "iv.seconds_full_slow": sum(max(wmax[a:i + 1]) > SLOW_US for a, i in zip(starts, full))}


def run_all_points(build, jobs, seeds):
    os.makedirs(OUT, exist_ok=True)

    def one(r):
        name, w, arm, label, sets, k = r
        wall = run_point(ssdvp_run(build, CONFIG, "haml-double-stalls", name, sets, quiet=True), name)
        j = load_summary(OUT, name)
        row = {"name": f"{w}-{arm}", "workload": w, "arm": arm, "label": label, "seed": k, "wall_s": round(wall, 1)}
        row.update(pick(j, KEEP))
        row.update(intervals(os.path.join(OUT, name, "timeseries.csv"), int(row["config.ftl.gc.reserve_blocks"])))
        return row
    return run_rows(jobs, runs(seeds), one)


# --- the page ------------------------------------------------------------------------------------------------

def against_haml(rows, data_dir):
    """(how many, of the `room` runs) have the WAF and write stalls of haml.md's run of the same workload,
    placement and drive history (docs/results/haml/table.csv beside this page's data); (0, 0) without it."""
    path = os.path.join(os.path.dirname(os.path.abspath(data_dir)), "haml", "table.csv")
    if not os.path.exists(path):
        return 0, 0
    with open(path, newline="") as f:
        haml = {(r["config.workload.synthetic.pattern"], r["config.ftl.placement.policy"],
                 int(float(r["config.precondition.seed"]))): (float(r["ftl.waf"]), float(r["ftl.write_stalls"]))
                for r in csv.DictReader(f) if r.get("config.workload.source") == "synthetic"}
    room = [r for r in rows if r["arm"].startswith("room-")]
    same = sum(haml.get((r["workload"], r["arm"].removeprefix("room-"), r["seed"]))
               == (float(r["ftl.waf"]), float(r["ftl.write_stalls"])) for r in room)
    return same, len(room)


def span(xs, spec=",.0f"):
    lo, hi = min(xs), max(xs)
    return format(lo, spec) if format(lo, spec) == format(hi, spec) else f"{format(lo, spec)}-{format(hi, spec)}"


def page(rows, data_dir, command_line):
    by = by_point(rows)
    L = []
    A = L.append
    wall = sum(r["wall_s"] for r in rows)
    first = rows[0]
    reserve, threshold = int(first["config.ftl.gc.reserve_blocks"]), int(first["config.ftl.gc.threshold_blocks"])
    pool = int(by["hotcold-pass-double"]["config.ftl.buffers.write_pages"])
    A("# Why `double`'s host writes wait under `ftl.write.at_floor: pass` (haml.md's synthetic workloads)")
    A("")
    A("Under `ftl.write.at_floor: pass`, `double` (host data and relocated data on separate frontiers) makes host "
      "writes wait on [haml.md](haml.md)'s two synthetic workloads far more often than `single` (one frontier for "
      "both), at nearly the same WAF, while the free pool, sampled once a second, looks full. This page finds "
      "where the waits are, and shows that the firmware's default, `room`, removes them. The two rules differ "
      "when a host write's frontier needs a block on its next die while the free pool is at the host floor "
      f"({reserve} blocks, `ftl.gc.reserve_blocks`): under `pass` the write waits for GC to free one (writes to "
      "other frontiers and LBAs pass it), under `room` its frontier meanwhile writes on the dies where it still "
      "has an open block ([docs/firmware/paths.md](../firmware/paths.md)).")
    A("")
    same, total = against_haml(rows, data_dir)
    said = ("" if not total else
            " (run for run, their WAFs and write stalls are those of [haml/table.csv](haml/table.csv))"
            if same == total else
            f" (but only {same} of their {total} runs have the WAF and write stalls of [haml/table.csv](haml/table.csv):"
            " the two pages' data are from different builds)")
    A(seeds_line(list(by.values())) + " Seed k sets `precondition.seed` to k (the drive history), as haml.md's "
      "sweep does, so the `room` rows are haml.md's own `single` and `double` points" + said + ". Every run "
      f"samples the drive every millisecond (`stats.interval={INTERVAL}`; the summary is the same as with the "
      "default 1 s).")
    A("")
    A(f"Regenerate ({len(rows)} runs: {wall:,.0f} s of wall time summed as results.csv records it, "
      f"{load_of(data_dir)}; divide by `--jobs`):")
    A("")
    A("```sh")
    A("bash scripts/build.sh && " + command_line)
    A("```")
    A("")
    A("Render again from the committed data: `python3 scripts/haml_double_stalls.py --render "
      "docs/results/haml-double-stalls --page docs/results/haml-double-stalls.md`. Data: "
      "[haml-double-stalls/results.csv](haml-double-stalls/results.csv) (one row per run: the summary's figures "
      "and what its 10 ms samples show).")
    A("")
    A("## The runs")
    A("")
    A("The haml sweep's synthetic cases (`explore/sweeps/haml.yaml`), seed 1 (seed k sets "
      "`precondition.seed=k`):")
    A("")
    A("```sh")
    for name, w, arm, label, sets, k in runs(1):
        A(" ".join(ssdvp_run("build", CONFIG, "haml-double-stalls", name, sets, quiet=True)))
    A("```")
    A("")
    A("All figures are over the timed half (80 s). Write stalls count failed placement attempts (a waiting write "
      "is retried on every firmware poll, so they measure how long writes waited); stalled commands count the "
      "host writes that waited at all.")
    for w, wl in WORKLOADS.items():
        A("")
        A(f"**{wl}**")
        A("")
        A("| arm | WAF | write stalls | stalled commands | write mean (us) | write p99 (us) | write p99.99 (us) | "
          "free blocks, run's minimum | 1 ms samples at the host floor | GC active (s) | die busy |")
        A("|---|---|---|---|---|---|---|---|---|---|---|")
        for a, label, _ in ARMS:
            p = by[f"{w}-{a}"]
            A(f"| {label} | {cell(p, 'ftl.waf', '.3f')} | {cell(p, 'ftl.write_stalls', ',.0f')} | "
              f"{cell(p, 'ftl.write_stalled_commands', ',.0f')} | {cell(p, 'latency_us.write.mean', ',.1f')} | "
              f"{cell(p, 'latency_us.write.p99', ',.1f')} | {cell(p, 'latency_us.write.p9999', ',.0f')} | "
              f"{span([r['ftl.free_blocks_min'] for r in p['runs']])} | {cell(p, 'iv.at_floor', ',.0f')} of "
              f"{p['iv.n']:,.0f} | {cell(p, 'ftl.gc_active_s', '.1f')} | {cell(p, 'utilization.die_mean', '.3f')} |")
    A("")
    L += findings(by, reserve, threshold, pool)
    return L


def moved(new, base, ws, *fields):
    """'leave its write p99 and WAF as they were, run for run' when every paired run has the same figures, else
    each field's change paired by drive history."""
    same = [(k, name) for k, name in fields
            if all(a[k] == b[k] for w in ws for a, b in zip(new[w]["runs"], base[w]["runs"]))]
    out = []
    if same:
        out.append("leave its " + " and ".join(name for _, name in same) + " as they were, run for run")
    for k, name in fields:
        if (k, name) not in same:
            out.append(f"move its {name} by " + " and ".join(change(new[w], base[w], k) for w in ws)
                       + " (paired by drive history)")
    return " and ".join(out)


def findings(by, reserve, threshold, pool):
    L = []
    A = L.append
    A("## What the runs show")
    A("")
    ws = list(WORKLOADS)

    def pt(w, a):
        return by[f"{w}-{a}"]
    sc = "ftl.write_stalled_commands"
    times = [pt(w, "pass-double")[sc] / max(pt(w, "pass-single")[sc], 1) for w in ws]
    A(f"- **Under `pass`, `double`'s host writes wait {span(times, '.0f')} times as often as `single`'s** (stalled "
      "commands: " + "; ".join(f"{WORKLOADS[w]} {pt(w, 'pass-double')[sc]:,.0f} against "
                               f"{pt(w, 'pass-single')[sc]:,.0f}" for w in ws)
      + "), with a write p99 of " + " and ".join(f"{pt(w, 'pass-double')['latency_us.write.p99'] / 1000:.1f} ms"
                                                 for w in ws)
      + " against " + " and ".join(f"{pt(w, 'pass-single')['latency_us.write.p99']:.1f} us" for w in ws)
      + ", at nearly the same WAF (`double` against `single`, paired by drive history: "
      + "; ".join(f"{WORKLOADS[w]} {change(pt(w, 'pass-double'), pt(w, 'pass-single'), 'ftl.waf')}" for w in ws)
      + ").")
    dr = [r for w in ws for r in pt(w, "pass-double")["runs"]]
    tops = sorted({r["iv.seconds_top"] for r in dr})
    A(f"- **Samples a second apart hide where.** In {span([100 * r['iv.seconds_full'] / r['iv.seconds'] for r in dr])}"
      f" % of the seconds of `double`'s runs the pool ends the second at its most ({' or '.join(map(str, tops))} "
      f"free blocks, above GC's threshold of {threshold}), and {span([100 * r['iv.seconds_full_slow'] / r['iv.seconds_full'] for r in dr])}"
      f" % of those seconds hold a write over {SLOW_US / 1000:g} ms.")
    nslow = sum(r["iv.slow"] for r in dr)
    nfloor = sum(r["iv.slow_at_floor"] for r in dr)
    at_floor = [100 * r["iv.at_floor"] / r["iv.n"] for r in dr]
    sr = [r for w in ws for r in pt(w, "pass-single")["runs"]]
    s_slow = [r for r in sr if r["iv.slow"]]
    s_note = (f"`single`'s runs have {sum(r['iv.slow'] for r in s_slow):,} such intervals, with "
              f"{min(r['iv.slow_free_min'] for r in s_slow)} free blocks or more" if s_slow
              else "`single`'s runs have none")
    exc = [r["iv.slow_free_max"] for r in dr if r["iv.slow_at_floor"] < r["iv.slow"]]
    A(f"- **Sampled every millisecond, the slow writes are the ones that waited at the host floor.** Of the "
      f"{nslow:,} 1 ms intervals of `double`'s runs in which a write over {SLOW_US / 1000:g} ms completed, "
      + ("all" if nfloor == nslow else f"{nfloor:,}") + f" saw the pool at or below the host floor ({reserve} "
      "blocks) during that write's life"
      + (f" (the other {nslow - nfloor:,}: at most {max(exc)} blocks)" if exc else "") + f"; {s_note}. `double`'s pool is at or "
      f"below the floor in {span(at_floor, '.1f')} % of the samples; `single`'s never goes below "
      f"{min(r['iv.min_free'] for r in sr)} blocks. A write p99 of a few milliseconds is one or two erases "
      "(2 ms each by default) of waiting for GC to free a block.")
    dbl, big = {w: pt(w, "pass-double") for w in ws}, {w: pt(w, "pass-double-pool256") for w in ws}
    removed = [dbl[w][sc] - big[w][sc] for w in ws]
    A(f"- **Not the write buffer pool**: four times as many page buffers ({4 * pool} against {pool}, "
      "`ftl.buffers.write_pages`) remove " + " and ".join(f"{x:,.0f}" for x in removed) + " of `double`'s "
      "stalled commands (" + " and ".join(WORKLOADS[w] for w in ws) + "; `double` under `room` has "
      + " and ".join(f"{pt(w, 'room-double')[sc]:,.0f}" for w in ws) + ") and " + moved(big, dbl, ws, ("latency_us.write.p99", "write p99"), ("ftl.waf", "WAF")) + ".")
    same = all(r1.get(k) == r2.get(k) for w in ws for r1, r2 in zip(pt(w, "pass-single")["runs"],
                                                                     pt(w, "room-single")["runs"])
               for k in KEEP if not k.startswith("config."))
    A("- **`room` removes the waits** (haml.md's setting): `double`'s stalled commands fall to "
      + " and ".join(f"{pt(w, 'room-double')[sc]:,.0f}" for w in ws) + " (`single`: "
      + " and ".join(f"{pt(w, 'room-single')[sc]:,.0f}" for w in ws) + "), its write p99 to "
      + " and ".join(f"{pt(w, 'room-double')['latency_us.write.p99']:.1f} us" for w in ws)
      + ", and its WAF moves by " + " and ".join(change(pt(w, "room-double"), pt(w, "pass-double"), "ftl.waf")
                                                 for w in ws)
      + " against `pass` (paired by drive history). Writing on another die where the frontier still has an open "
      "block is what `pass` does not do at the floor, and that is where the two rules differ."
      + (" `single`'s runs are the same under both rules, to the last digit of every figure in the tables."
         if same else ""))
    A(f"- **Why `double`'s pool reaches the floor and `single`'s does not** (run's minimum: `double` "
      f"{span([r['ftl.free_blocks_min'] for w in ws for r in pt(w, 'pass-double')['runs']])}, `single` "
      f"{span([r['ftl.free_blocks_min'] for w in ws for r in pt(w, 'pass-single')['runs']])} free blocks) is not "
      "measured here. `double` takes host and GC blocks separately, one open block per frontier per die, which "
      "leaves fewer free blocks between GC's erases; a counter per reason a placement waits (`PLACE_WAIT` in "
      "firmware/ftl/alloc.c) would show it directly. The firmware does not keep one.")
    A("")
    return L


def main():
    ap = seed_arg(data_args(__doc__, "haml-double-stalls"), what="precondition.seed (the drive history)")
    a = ap.parse_args()
    if a.seeds < 1 or a.jobs < 1:
        ap.error("--seeds and --jobs: expected 1 or more")
    page_path = os.path.abspath(a.page)
    rows, data = page_rows(a, "haml-double-stalls", command_for(a.seeds),
                           lambda build, jobs: run_all_points(build, jobs, a.seeds))
    nseeds = max(r.get("seed") or 1 for r in rows)
    write_lines(page_path, page(rows, data, command_for(nseeds)), data, command_for(nseeds))


if __name__ == "__main__":
    main()
