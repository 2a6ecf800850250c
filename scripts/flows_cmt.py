#!/usr/bin/env python3
"""flows_cmt.py - two flows sharing the cached mapping table (issue 21, flows):
a small hot range read at 4,000 IOPS next to random reads over the rest of the
drive at 4,000 IOPS, at cache sizes of half to four times the hot range, alone
and shared, with LRU and segmented LRU, and the same two with the whole table
in DRAM (ftl.mapping: full) to tell the cache's share of the interference from
the dies'. Beside each measured hit rate, Che's approximation of an LRU cache
under independent references (with the first reference to each entry counted
as a miss, as the runs are finite). Writes docs/results/flows-cmt.md and its plot.

    python3 scripts/flows_cmt.py BUILD_DIR [--jobs N] [--page-only]

Every run is `ssdvp run -c configs/flows.yaml` with the --set overrides listed
on the page; each writes out/flows-cmt/<name>/summary.json.
"""
import math
import os
import sys

from runpoint import load_summary, page_args, pyplot, run_all, run_point, save_figure, ssdvp_run, write_page

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "out", "flows-cmt")
PAGE = os.path.join(ROOT, "docs", "results", "flows-cmt.md")
TEMPLATE = os.path.join(ROOT, "scripts", "flows_cmt_page.md.in")
FIG = os.path.join(ROOT, "docs", "results", "flows", "cmt-interference.png")

LBAS = 896 * 1024 * 1024 // 4096  # configs/flows.yaml's namespace in 4 KiB LBAs
HOT = 2048                         # the hot flow's LBAs: one translation page of 2,048 entries
SHARE = "0.0089286"                # HOT / LBAS, rounded up so that the flow gets 2,048 LBAs
RATE = 4000                        # requests/s of each flow
SECONDS = 8
CACHES = [1024, 2048, 4096, 8192]  # entries: half to four times the hot range

BASE = [
    "flows.0.name=hot", "flows.0.offset=0", f"flows.0.share={SHARE}", "flows.0.host.mode=open",
    f"flows.0.workload.synthetic.iops={RATE}", "flows.0.workload.synthetic.read_fraction=1",
    f"flows.0.workload.synthetic.requests={RATE * SECONDS}", "flows.0.host.queue_depth=8",
    "flows.1.name=random", f"flows.1.offset={SHARE}", "flows.1.host.mode=open",
    f"flows.1.workload.synthetic.iops={RATE}", "flows.1.workload.synthetic.read_fraction=1",
    f"flows.1.workload.synthetic.requests={RATE * SECONDS}", "flows.1.host.queue_depth=32", "flows.1.stop=0s",
]
ALONE = ["flows.1.workload.synthetic.requests=1"]  # the random flow issues one read


def runs():
    out = [("full-alone", "full", None, "alone", BASE + ["ftl.mapping=full"] + ALONE),
           ("full-shared", "full", None, "shared", BASE + ["ftl.mapping=full"])]
    for c in CACHES:
        cached = BASE + ["ftl.mapping=cached", f"ftl.cmt.entries={c}"]
        out.append((f"cmt{c}-alone", "lru", c, "alone", cached + ALONE))
        out.append((f"cmt{c}-shared", "lru", c, "shared", cached))
        out.append((f"cmt{c}-shared-slru", "slru", c, "shared", cached + ["ftl.cmt.policy=slru"]))
    return out


def command(build, name, sets):
    return ssdvp_run(build, "configs/flows.yaml", "flows-cmt", name, sets, quiet=True)


def che(cache, rates_sizes):
    """Che's approximation of LRU: per group (rate, entries), its hit rate."""
    def filled(t):
        return sum(n * (1 - math.exp(-r / n * t)) for r, n in rates_sizes)
    if sum(n for _, n in rates_sizes) <= cache:
        return [1.0 for _ in rates_sizes]
    lo, hi = 0.0, 1.0
    while filled(hi) < cache:
        hi *= 2
    for _ in range(200):
        mid = (lo + hi) / 2
        lo, hi = (mid, hi) if filled(mid) < cache else (lo, mid)
    return [1 - math.exp(-r / n * lo) for r, n in rates_sizes]


def predicted_hits(cache, flows):
    """Expected hits of finite runs: flows = [(requests, entries)]; the first
    reference to an entry misses, the later ones hit at Che's rate."""
    rates = [(float(req), float(n)) for req, n in flows if req > 1]
    h = che(cache, rates)
    hits = []
    for (req, n), hr in zip([f for f in flows if f[0] > 1], h):
        distinct = n * (1 - (1 - 1 / n) ** req)
        hits.append((req - distinct) * hr)
    return hits


def flow(j, name):
    return next(f for f in j["flows"]["flows"] if f["name"] == name)


def row(name, policy, cache, mode, j):
    hot = flow(j, "hot")["latency_us"]["read"]
    rnd = flow(j, "random")
    m = j.get("mapping")
    if m is None:
        return (f"| {name} | full table | - | {mode} | {hot['count']:,} | {hot['mean']:,.1f} | {hot['p99']:,.1f} | "
                f"{rnd['reads']:,} | - | - | - | - |")
    hot_n, rnd_n = flow(j, "hot")["reads"], rnd["reads"]
    pred = predicted_hits(cache, [(hot_n, HOT), (rnd_n, LBAS - HOT)])
    che_rate = sum(pred) / max(m["lookups"], 1)
    hot_pred = pred[0] / hot_n
    # the hot flow's hits, if the random flow's hit at Che's rate (at most cache / its range)
    rnd_hits = pred[1] if len(pred) > 1 else 0.0
    hot_hits = (m["hits"] - rnd_hits) / hot_n
    che_txt = f"{che_rate:.3f}" if policy == "lru" else "-"
    hot_txt = f"{hot_hits:.3f} / {hot_pred:.3f}" if policy == "lru" else f"{hot_hits:.3f} / -"
    return (f"| {name} | {policy} | {cache:,} ({cache / HOT:g}x) | {mode} | {hot['count']:,} | {hot['mean']:,.1f} | "
            f"{hot['p99']:,.1f} | {rnd_n:,} | {m['hit_rate']:.3f} / {che_txt} | {hot_txt} | {m['evictions']:,} | "
            f"{j['integrity']['mismatches']} |")


def plot(table):
    plt = pyplot()
    if plt is None:
        return False
    fig, (a, b) = plt.subplots(1, 2, figsize=(11, 4))
    x = [c / HOT for c in CACHES]
    for key, label, style in [("alone", "hot alone, LRU", "o-"), ("shared", "shared, LRU", "s-"),
                              ("shared-slru", "shared, SLRU", "^-")]:
        a.plot(x, [flow(table[f"cmt{c}-{key}"], "hot")["latency_us"]["read"]["mean"] for c in CACHES], style,
               label=label)
    for key, label, style in [("alone", "full table, hot alone", ":"), ("shared", "full table, shared", "--")]:
        a.axhline(flow(table[f"full-{key}"], "hot")["latency_us"]["read"]["mean"], ls=style, color="gray",
                  label=label)
    a.set_xscale("log", base=2)
    a.set_xlabel("cache entries / hot range")
    a.set_ylabel("hot flow's mean read latency (us)")
    a.legend(fontsize=8)
    a.grid(alpha=0.3)
    def hot_rate(j, c):  # the hot flow's hits (derived) and Che's for it
        hot_n, rnd_n = flow(j, "hot")["reads"], flow(j, "random")["reads"]
        p = predicted_hits(c, [(hot_n, HOT), (rnd_n, LBAS - HOT)])
        rnd = p[1] if len(p) > 1 else 0.0
        return (j["mapping"]["hits"] - rnd) / hot_n, p[0] / hot_n
    for key, label, style in [("alone", "hot alone", "o-"), ("shared", "shared, LRU", "s-"),
                              ("shared-slru", "shared, SLRU", "^-")]:
        b.plot(x, [hot_rate(table[f"cmt{c}-{key}"], c)[0] for c in CACHES], style, label=label + ", measured")
    b.plot(x, [hot_rate(table[f"cmt{c}-shared"], c)[1] for c in CACHES], "k--", label="shared, LRU: Che")
    b.plot(x, [hot_rate(table[f"cmt{c}-alone"], c)[1] for c in CACHES], "k:", label="alone: Che")
    b.set_xscale("log", base=2)
    b.set_xlabel("cache entries / hot range")
    b.set_ylabel("hot flow's hit rate")
    b.legend(fontsize=8)
    b.grid(alpha=0.3)
    save_figure(plt, fig, FIG)
    return True


def main():
    a = page_args().parse_args()
    todo = runs()
    if not a.page_only:
        run_all(a.jobs, todo, lambda t: run_point(command(a.build, t[0], t[4]), t[0]))
    table = {t[0]: load_summary(OUT, t[0]) for t in todo}
    missing = [n for n, j in table.items() if j is None]
    if missing:
        sys.exit(f"not run yet: {', '.join(missing)}")
    lines = ["| run | cache | entries (x hot range) | flows | hot reads | hot mean us | hot p99 us | random reads | "
             "hit rate: measured / Che | hot flow's hit rate: derived / Che | evictions | mismatches |",
             "|---|---|---|---|---|---|---|---|---|---|---|---|"]
    lines += [row(n, p, c, m, table[n]) for n, p, c, m, _ in todo]
    lines += ["", "The runs (from the repository's root):", "", "```sh"]
    lines += [" ".join(command("build", n, s)) for n, _, _, _, s in todo] + ["```", ""]
    if plot(table):
        lines += ["![hot flow's latency and hit rate against cache size](flows/cmt-interference.png)", ""]
    write_page(TEMPLATE, PAGE, "\n".join(lines))


if __name__ == "__main__":
    main()
