#!/usr/bin/env python3
"""mqsim_backend.py - MQSim's back-end contention experiment (FAST 2018,
fast18/backend-contention in MQSim's repository) on this platform's flows,
and the table of docs/results/mqsim.md.

    python3 scripts/mqsim_backend.py [BUILD_DIR] [--jobs N]      runs every point, keeps the data, writes the page
    python3 scripts/mqsim_backend.py --render DATA_DIR [--page OUT]  the page from committed data only

The data: docs/results/mqsim/results.csv (one row per run: each flow's mean read latency and IOPS, the run's
wall time) and provenance.json.

Two flows on configs/flows.yaml's drive (filled, then half a drive of random
writes: no GC while they run), both 100 % reads of 4 KiB at uniform random
LBAs of their half of the namespace, closed loop, for 1 s of simulated time:
flow 1 keeps 2 requests outstanding, flow 2 keeps 2 to 256. Each flow is also
run alone (the other issues one request). A flow's slowdown is its mean read
latency shared over alone; fairness is the smaller slowdown over the larger.
"""
import os

from runpoint import (data_args, load_of, load_summary, page_rows, run_point, run_rows, ssdvp_run, write_lines)

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "out", "mqsim")
TEMPLATE = os.path.join(ROOT, "scripts", "mqsim_page.md.in")
COMMAND = "python3 scripts/mqsim_backend.py"
DEPTHS = [2, 8, 32, 128, 256]


def flow(i, qd, requests):
    p = f"flows.{i}."
    return [p + "host.mode=closed", p + f"host.queue_depth={qd}", p + "workload.synthetic.read_fraction=1.0",
            p + f"workload.synthetic.requests={requests}", p + "stop=1s", p + "priority=high", p + f"name=flow{i + 1}"]


def runs():
    out = [("flow1-alone", flow(0, 2, 10**7) + flow(1, 1, 1))]
    for qd in DEPTHS:
        out.append((f"flow2-alone-qd{qd}", flow(0, 1, 1) + flow(1, qd, 10**7)))
        out.append((f"shared-qd{qd}", flow(0, 2, 10**7) + flow(1, qd, 10**7)))
    return out


def command(build, name, sets):
    return ssdvp_run(build, "configs/flows.yaml", "mqsim", name, sets)


def mean_read(j, i):
    return j["flows"]["flows"][i]["latency_us"]["read"]["mean"]


def run_all_points(build, jobs):
    def one(r):
        name, sets = r
        wall = run_point(command(build, name, sets), name)
        f = load_summary(OUT, name)["flows"]["flows"]
        return {"name": name, "wall_s": round(wall, 1),
                **{f"flow{i + 1}.{k}": v for i in (0, 1) for k, v in
                   (("mean_read_us", f[i]["latency_us"]["read"]["mean"]), ("iops", f[i]["iops"]))}}
    return run_rows(jobs, runs(), one)


def table(by):
    """(table lines, per depth: (qd, slowdown 1, slowdown 2, fairness, flow 1 shared us, flow 2 shared us))."""
    alone1 = by["flow1-alone"]
    rows = ["| flow 2 queue depth | flow 1 mean us (alone / shared) | flow 2 mean us (alone / shared) | "
            "slowdown flow 1 | slowdown flow 2 | fairness | flow 1 IOPS shared | flow 2 IOPS shared |",
            "|---|---|---|---|---|---|---|---|"]
    out = []
    for qd in DEPTHS:
        a2, s = by.get(f"flow2-alone-qd{qd}"), by.get(f"shared-qd{qd}")
        if not (a2 and s):
            continue
        l1a, l2a = alone1["flow1.mean_read_us"], a2["flow2.mean_read_us"]
        l1s, l2s = s["flow1.mean_read_us"], s["flow2.mean_read_us"]
        s1, s2 = l1s / l1a, l2s / l2a
        out.append((qd, s1, s2, min(s1, s2) / max(s1, s2), l1s, l2s))
        rows.append(f"| {qd} | {l1a:,.1f} / {l1s:,.1f} | {l2a:,.1f} / {l2s:,.1f} | {s1:.2f} | {s2:.2f} | "
                    f"{min(s1, s2) / max(s1, s2):.2f} | {s['flow1.iops']:,.0f} | {s['flow2.iops']:,.0f} |")
    return rows, out


def findings(by, depths):
    """The two bullets whose figures come from the runs."""
    qd, s1, s2, fair, l1s, l2s = depths[-1]
    first = depths[0]
    alone = [(d, by[f"flow2-alone-qd{d}"]["flow2.iops"]) for d in DEPTHS if f"flow2-alone-qd{d}" in by]
    top = max(i for _, i in alone)
    sat = next(d for d, i in alone if i >= 0.95 * top)
    shape = (f"- **The shape is MQSim's point, and it holds here.** The flow with the deeper queue takes the back "
             f"end: at a queue depth of {qd} flow 2 runs {s2:.2f} times slower than alone, flow 1 ({first[0]} "
             f"outstanding) {s1:.0f} times slower, and fairness falls from {first[3]:.2f} (equal depths) to "
             f"{fair:.2f}. Flow 1's mean latency becomes flow 2's ({l1s:,.0f} against {l2s:,.0f} us): each of its "
             "reads waits on its die behind the reads flow 2 queued there. The controller's round robin orders "
             "only the fetches from the submission queues; once fetched, a command is served in order on its "
             "die, with no per-flow scheduling (no FLIN-like fairness), which is what the back-end experiment is "
             "meant to show.")
    sat_text = (f"flow 2 alone reaches {top:,.0f} reads/s and is within 5 % of it from a queue depth of {sat}, "
                "so flow 1's slowdown here grows from lower depths on")
    return shape, sat_text


def page(rows, data):
    by = {r["name"]: r for r in rows}
    lines, depths = table(by)
    shape, sat = findings(by, depths)
    wall = sum(r["wall_s"] for r in rows)
    with open(TEMPLATE) as f:
        text = f.read()
    text = text.replace("{{COST}}", f"{len(rows)} runs, one at a time: {wall:,.0f} s of wall time summed as "
                                    f"results.csv records it, {load_of(data)}")
    text = text.replace("{{TABLE}}", "\n".join(lines + ["", "```sh"] + [" ".join(command("build", n, s))
                                                                         for n, s in runs()] + ["```"]))
    text = text.replace("{{SHAPE}}", shape).replace("{{SATURATION}}", sat)
    return [text.rstrip("\n"), ""]


def main():
    a = data_args(__doc__, "mqsim").parse_args()
    rows, data = page_rows(a, "mqsim", COMMAND, run_all_points)
    write_lines(os.path.abspath(a.page), page(rows, data), data, COMMAND)


if __name__ == "__main__":
    main()
