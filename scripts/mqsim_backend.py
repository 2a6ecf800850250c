#!/usr/bin/env python3
"""mqsim_backend.py - MQSim's back-end contention experiment (FAST 2018,
fast18/backend-contention in MQSim's repository) on this platform's flows,
and the table of docs/results/mqsim.md.

    python3 scripts/mqsim_backend.py BUILD_DIR [--jobs N] [--page-only]

Two flows on configs/flows.yaml's drive (filled, then half a drive of random
writes: no GC while they run), both 100 % reads of 4 KiB at uniform random
LBAs of their half of the namespace, closed loop, for 1 s of simulated time:
flow 1 keeps 2 requests outstanding, flow 2 keeps 2 to 256. Each flow is also
run alone (the other issues one request). A flow's slowdown is its mean read
latency shared over alone; fairness is the smaller slowdown over the larger.
"""
import os
import sys

from runpoint import load_summary, page_args, run_all, run_point, ssdvp_run, write_page

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "out", "mqsim")
PAGE = os.path.join(ROOT, "docs", "results", "mqsim.md")
TEMPLATE = os.path.join(ROOT, "scripts", "mqsim_page.md.in")
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


# the page's figures ran under pass, the default before room: pinned until it is regenerated
PIN = ["ftl.write.at_floor=pass"]


def command(build, name, sets):
    return ssdvp_run(build, "configs/flows.yaml", "mqsim", name, sets + PIN)


def mean_read(j, i):
    return j["flows"]["flows"][i]["latency_us"]["read"]["mean"]


def table():
    alone1 = load_summary(OUT, "flow1-alone")
    rows = ["| flow 2 queue depth | flow 1 mean us (alone / shared) | flow 2 mean us (alone / shared) | "
            "slowdown flow 1 | slowdown flow 2 | fairness | flow 1 IOPS shared | flow 2 IOPS shared |",
            "|---|---|---|---|---|---|---|---|"]
    for qd in DEPTHS:
        a2, s = load_summary(OUT, f"flow2-alone-qd{qd}"), load_summary(OUT, f"shared-qd{qd}")
        if not (alone1 and a2 and s):
            continue
        l1a, l2a, l1s, l2s = mean_read(alone1, 0), mean_read(a2, 1), mean_read(s, 0), mean_read(s, 1)
        s1, s2 = l1s / l1a, l2s / l2a
        f = s["flows"]["flows"]
        rows.append(f"| {qd} | {l1a:,.1f} / {l1s:,.1f} | {l2a:,.1f} / {l2s:,.1f} | {s1:.2f} | {s2:.2f} | "
                    f"{min(s1, s2) / max(s1, s2):.2f} | {f[0]['iops']:,.0f} | {f[1]['iops']:,.0f} |")
    return rows


def main():
    a = page_args().parse_args()
    todo = runs()
    if not a.page_only:
        run_all(a.jobs, todo, lambda r: run_point(command(a.build, r[0], r[1]), r[0]))
    lines = table() + ["", "```sh"] + [" ".join(command("build", n, s)) for n, s in todo] + ["```"]
    write_page(TEMPLATE, PAGE, "\n".join(lines))


if __name__ == "__main__":
    sys.exit(main())
