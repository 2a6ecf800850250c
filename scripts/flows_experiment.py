#!/usr/bin/env python3
"""flows_experiment.py - two tenants sharing a drive (issue 21, flows): the
latency-sensitive reader's p50/p99/p99.9 alone and next to a writer that makes
GC run, under round robin and weighted round robin (reader high or urgent),
with and without flash read priority + program/erase suspend, at the default
256 firmware command slots and at 8. Writes docs/results/flows.md and its plot.

    python3 scripts/flows_experiment.py BUILD_DIR [--jobs N]

Every run is `ssdvp run -c configs/flows.yaml` with the --set overrides listed
on the page; each writes out/flows/<name>/summary.json.
"""
import argparse
import json
import os
from concurrent.futures import ThreadPoolExecutor

from runpoint import pyplot, run_point, save_figure, ssdvp_run

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "out", "flows")
PAGE = os.path.join(ROOT, "docs", "results", "flows.md")
FIG = os.path.join(ROOT, "docs", "results", "flows", "reader-latency.png")

ALONE = ["flows.1.workload.synthetic.requests=1", "flows.1.host.queue_depth=1"]  # the writer issues one write
WRR = ["nvme.arbitration=wrr"]
URGENT = WRR + ["flows.0.priority=urgent"]
FLASH = ["flash.read_priority=true", "flash.suspend.enable=true"]
RO = ["flows.0.workload.synthetic.read_fraction=1"]  # the reader without its own writes
CASES = [
    ("alone", "reader alone (the writer issues one write)", ALONE),
    ("rr", "shared, round robin", []),
    ("wrr-high", "shared, WRR: reader high (16), writer low (1)", WRR),
    ("wrr-urgent", "shared, WRR: reader urgent", URGENT),
    ("rr+suspend", "shared, round robin, read priority + suspend", FLASH),
    ("wrr-urgent+suspend", "shared, WRR reader urgent, read priority + suspend", URGENT + FLASH),
    ("alone+suspend", "reader alone, read priority + suspend", ALONE + FLASH),
    ("wrr-urgent-ro", "shared, WRR reader urgent, reader 100 % reads", URGENT + RO),
    ("rr+suspend-ro", "shared, round robin, read priority + suspend, reader 100 % reads", FLASH + RO),
]
SLOTS = [256, 8]


def runs():
    for slots in SLOTS:
        for name, desc, sets in CASES:
            yield f"slots{slots}-{name}", f"{desc}", [f"ftl.cmd_slots={slots}"] + sets


# the page's figures ran under pass, the default before room: pinned until it is regenerated
PIN = ["ftl.write.at_floor=pass"]


def command(build, name, sets):
    return ssdvp_run(build, "configs/flows.yaml", "flows", name, sets + PIN, quiet=True)


def run_one(build, name, sets):
    run_point(command(build, name, sets), name)


def summary(name):
    with open(os.path.join(OUT, name, "summary.json")) as f:
        return json.load(f)


def flow(j, label):
    return next(f for f in j["flows"]["flows"] if f["name"] == label)


def row(name, desc, j):
    rd = flow(j, "reader")["latency_us"]["read"]
    w = flow(j, "writer")
    wr = (f"{w['iops']:,.0f} | {w['latency_us']['write']['p99']:,.1f}" if w["requests"] > 1 else "- | -")
    return (f"| {name} | {desc} | {rd['count']:,} | {rd['p50']:,.1f} | {rd['p99']:,.1f} | {rd['p999']:,.1f} | "
            f"{wr} | {j['ftl']['waf']:.2f} | "
            f"{j['flash'].get('suspends', 0):,} | {j['integrity']['mismatches']} |")


def plot(table):
    plt = pyplot()
    if plt is None:
        return False
    fig, axes = plt.subplots(1, len(SLOTS), figsize=(12, 4), sharey=True)
    for ax, slots in zip(axes, SLOTS):
        names = [n for n, _, _ in CASES]
        for k, (q, label) in enumerate([("p50", "p50"), ("p99", "p99"), ("p999", "p99.9")]):
            vals = [flow(table[f"slots{slots}-{n}"], "reader")["latency_us"]["read"][q] for n in names]
            ax.bar([i + k * 0.27 for i in range(len(names))], vals, 0.27, label=label)
        ax.set_xticks([i + 0.27 for i in range(len(names))])
        ax.set_xticklabels(names, rotation=30, ha="right", fontsize=8)
        ax.set_yscale("log")
        ax.set_title(f"ftl.cmd_slots = {slots}", fontsize=9)
        ax.grid(axis="y", alpha=0.3)
    axes[0].set_ylabel("reader's read latency (us)")
    axes[-1].legend(fontsize=8)
    save_figure(plt, fig, FIG)
    return True


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("build")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--page-only", action="store_true", help="rebuild the page from out/flows/")
    a = ap.parse_args()
    todo = list(runs())
    if not a.page_only:
        with ThreadPoolExecutor(a.jobs) as ex:
            list(ex.map(lambda t: run_one(a.build, t[0], t[2]), todo))
    table = {n: summary(n) for n, _, _ in todo}
    lines = []
    for slots in SLOTS:
        lines += [f"### ftl.cmd_slots = {slots}", "",
                  "| run | setting | reader reads | p50 | p99 | p99.9 | writer IOPS | writer write p99 | WAF | "
                  "suspends | mismatches |", "|---|---|---|---|---|---|---|---|---|---|---|"]
        lines += [row(n, d, table[n]) for n, d, _ in todo if n.startswith(f"slots{slots}-")] + [""]
    lines += ["The runs (from the repository's root):", "", "```sh"]
    lines += [" ".join(command("build", n, s)) for n, _, s in todo] + ["```", ""]
    if plot(table):
        lines += ["![reader latency](flows/reader-latency.png)", ""]
    with open(os.path.join(ROOT, "scripts", "flows_page.md.in")) as f:
        page = f.read().replace("@TABLES@", "\n".join(lines))
    with open(PAGE, "w") as f:
        f.write(page)
    print(f"wrote {os.path.relpath(PAGE, ROOT)}")


if __name__ == "__main__":
    main()
