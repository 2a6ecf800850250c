#!/usr/bin/env python3
"""flows_cmt.py - two flows sharing the cached mapping table:
a small hot range read at 4,000 IOPS next to random reads over the rest of the
drive at 4,000 IOPS, at cache sizes of half to four times the hot range, alone
and shared, with LRU and segmented LRU, and the same two with the whole table
in DRAM (ftl.mapping: full) to tell the cache's share of the interference from
the dies'. Beside each measured hit rate, Che's approximation of an LRU cache
under independent references (with the first reference to each entry counted
as a miss, as the runs are finite). Keeps what the page needs in
docs/results/flows-cmt/ (results.csv, one row per run with its wall time, and
provenance.json) and writes docs/results/flows-cmt.md and its figure from that data.

    python3 scripts/flows_cmt.py [BUILD_DIR] [--jobs N] [--seeds 3]  runs everything
    python3 scripts/flows_cmt.py --render DATA_DIR --page OUT_MD  runs nothing: the page from data

Every run is `ssdvp run -c configs/flows.yaml` with the --set overrides listed
on the page; each writes out/flows-cmt/<name>-s<seed>/summary.json. A point is
--seeds runs (default 3), seeded as flows_experiment.py's (seed_sets).
"""
import math
import os
import sys

from flows_experiment import seed_sets
from runpoint import (by_point, cell, data_args, figure_lines, flow_named, load_of, load_summary, page_rows, pick,
                      pyplot, run_point, run_rows, runs_block, save_png_svg, seed_arg, seeds_line, ssdvp_run,
                      write_lines)
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "explore"))
from ssdvp_explore.stats import fmt_ci  # noqa: E402  (standard library only)

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "out", "flows-cmt")
COMMAND = "python3 scripts/flows_cmt.py"
KEEP = ["mapping.lookups", "mapping.hits", "mapping.hit_rate", "mapping.evictions", "mapping.tp_writes",
        "integrity.reads_checked", "integrity.mismatches"]

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


def command_for(seeds):
    return COMMAND + (f" --seeds {seeds}" if seeds != 3 else "")


def run_all_points(build, jobs, seeds):
    def one(t):
        (name, policy, cache, mode, sets), k = t
        wall = run_point(command(build, f"{name}-s{k}", sets + seed_sets(k)), f"{name} seed {k}")
        j = load_summary(OUT, f"{name}-s{k}")
        hot, rnd = flow_named(j, "hot"), flow_named(j, "random")
        row = {"name": name, "seed": k, "policy": policy, "cache": cache, "mode": mode, "wall_s": round(wall, 1),
               "hot.reads": hot["reads"], "hot.count": hot["latency_us"]["read"]["count"],
               "hot.mean": hot["latency_us"]["read"]["mean"], "hot.p99": hot["latency_us"]["read"]["p99"],
               "random.reads": rnd["reads"]}
        row.update(pick(j, KEEP))
        return row
    return run_rows(jobs, [(r, k) for k in range(1, seeds + 1) for r in runs()], one)


# --- the page ------------------------------------------------------------------------------------------------

def rates(p, i=None):
    """(measured hit rate, Che's, the hot flow's derived hit rate, Che's for it) of a cached point: each the mean
    over its runs (each run's from its own reads); rates(p, i) the i-th alone."""
    if "runs" in p:
        each = [rates(r) for r in p["runs"]]
        m = tuple(sum(x[j] for x in each) / len(each) for j in range(4))
        return m if i is None else m[i]
    r = p
    c, hot_n, rnd_n = r["cache"], r["hot.reads"], r["random.reads"]
    pred = predicted_hits(c, [(hot_n, HOT), (rnd_n, LBAS - HOT)])
    rnd_hits = pred[1] if len(pred) > 1 else 0.0
    out = (r["mapping.hit_rate"], sum(pred) / max(r["mapping.lookups"], 1), (r["mapping.hits"] - rnd_hits) / hot_n,
           pred[0] / hot_n)
    return out if i is None else out[i]


def rate_cell(p, i):
    """rates()'s i-th figure of a point with its 95 % interval over the runs."""
    return fmt_ci([rates(r, i) for r in p["runs"]], ".3f")


def table_row(r):
    mism = sum(x["integrity.mismatches"] for x in r["runs"])
    common = (f"{cell(r, 'hot.count', ',.0f')} | {cell(r, 'hot.mean')} | {cell(r, 'hot.p99')} | "
              f"{cell(r, 'random.reads', ',.0f')}")
    if r["policy"] == "full":
        return f"| {r['name']} | full table | - | {r['mode']} | {common} | - | - | - | {mism} |"
    lru = r["policy"] == "lru"
    che_txt = rate_cell(r, 1) if lru else "-"
    hot_txt = f"{rate_cell(r, 2)} / {rate_cell(r, 3) if lru else '-'}"
    c = r["cache"]
    return (f"| {r['name']} | {r['policy']} | {c:,} ({c / HOT:g}x) | {r['mode']} | {common} | {rate_cell(r, 0)} / "
            f"{che_txt} | {hot_txt} | {cell(r, 'mapping.evictions', ',.0f')} | {mism} |")


def plot(by, figs):
    plt = pyplot()
    if plt is None:
        return False
    fig, (a, b) = plt.subplots(1, 2, figsize=(11, 4))
    x = [c / HOT for c in CACHES]
    for key, label, style in [("alone", "hot alone, LRU", "o-"), ("shared", "shared, LRU", "s-"),
                              ("shared-slru", "shared, SLRU", "^-")]:
        a.plot(x, [by[f"cmt{c}-{key}"]["hot.mean"] for c in CACHES], style, label=label)
    for key, label, style in [("alone", "full table, hot alone", ":"), ("shared", "full table, shared", "--")]:
        a.axhline(by[f"full-{key}"]["hot.mean"], ls=style, color="gray", label=label)
    a.set_xscale("log", base=2)
    a.set_xlabel("cache entries / hot range")
    a.set_ylabel("hot flow's mean read latency (us)")
    a.legend(fontsize=8, loc="upper left", bbox_to_anchor=(1.01, 1.0))
    a.grid(alpha=0.3)
    for key, label, style in [("alone", "hot alone", "o-"), ("shared", "shared, LRU", "s-"),
                              ("shared-slru", "shared, SLRU", "^-")]:
        b.plot(x, [rates(by[f"cmt{c}-{key}"])[2] for c in CACHES], style, label=label + ", measured")
    b.plot(x, [rates(by[f"cmt{c}-shared"])[3] for c in CACHES], "k--", label="shared, LRU: Che")
    b.plot(x, [rates(by[f"cmt{c}-alone"])[3] for c in CACHES], "k:", label="alone: Che")
    b.set_xscale("log", base=2)
    b.set_xlabel("cache entries / hot range")
    b.set_ylabel("hot flow's hit rate")
    b.legend(fontsize=8, loc="upper left", bbox_to_anchor=(1.01, 1.0))
    b.grid(alpha=0.3)
    fig.tight_layout()
    save_png_svg(plt, fig, os.path.join(figs, "cmt-interference"))
    return True


def findings(by, rows):
    L = []
    A = L.append
    fa, fs = by["full-alone"], by["full-shared"]
    A("## What it shows")
    A("")
    A("- **With the whole table in DRAM the random flow costs the hot flow "
      + ("nothing:**" if abs(fs["hot.mean"] - fa["hot.mean"]) < 0.5 else "little:**")
      + f" {fa['hot.mean']:.1f} us mean and {fa['hot.p99']:.1f} us p99 alone, {fs['hot.mean']:.1f} and "
      f"{fs['hot.p99']:.1f} us shared. At 8,000 reads per second over 8 dies the dies are nearly idle, so what the "
      "hot flow loses in the cached rows is the cache's.")
    alone = {c: by[f"cmt{c}-alone"] for c in CACHES}
    fits = [rates(alone[c])[2] for c in CACHES[1:]]
    first = HOT / alone[CACHES[1]]["hot.reads"]
    A(f"- **Alone, the hot flow's range fits from 1x on:** its hit rate is {min(fits):.3f} to {max(fits):.3f} at "
      f"2,048 entries and above, the rest being the first reference to each of its 2,048 entries (2,048 of "
      f"{alone[CACHES[1]]['hot.reads']:,.0f} reads: {100 * first:.1f} %); mean {alone[CACHES[1]]['hot.mean']:.1f} us "
      f"against {fa['hot.mean']:.1f} us with the whole table. At half its range it hits "
      f"{rates(alone[CACHES[0]])[2]:.3f} (LRU under uniform references: about the cache's share, 0.5) and its mean is "
      f"{alone[CACHES[0]]['hot.mean']:.1f} us.")
    sh = {c: by[f"cmt{c}-shared"] for c in CACHES}
    sl = {c: by[f"cmt{c}-shared-slru"] for c in CACHES}
    c1, c2, c4 = CACHES[1:]
    A(f"- **Shared, the random flow's misses take the hot flow's entries.** With LRU the hot flow's hit rate falls "
      f"from {rates(alone[c1])[2]:.3f} to {rates(sh[c1])[2]:.3f} at 1x its range, {rates(sh[c2])[2]:.3f} at 2x and "
      f"{rates(sh[c4])[2]:.3f} at 4x; its mean read latency rises from {alone[c1]['hot.mean']:.1f} to "
      f"{sh[c1]['hot.mean']:.1f}, {sh[c2]['hot.mean']:.1f} and {sh[c4]['hot.mean']:.1f} us, its p99 from "
      f"{alone[c1]['hot.p99']:.1f} to {sh[c1]['hot.p99']:.1f} us at 1x (a miss reads the translation page first). "
      f"The random flow cannot profit from the cache (under {100 * c4 / (LBAS - HOT):.0f} % of its range fits at "
      f"{c4:,} entries), yet it makes a cache four times the hot range worth about what one times the range is "
      "worth alone: a flow without locality evicts the entries of a flow with locality, the contention MQSim's "
      "choice between a shared and a per-flow partitioned cache (`CMT_Sharing_Mode`) is about.")
    d = [(rates(sh[c])[0], rates(sh[c])[1]) for c in CACHES]  # means over the seeds
    gap = max(abs(m - p) for m, p in d)
    under = all(p <= m for m, p in d)
    rel = [100 * (m - p) / m for m, p in d]
    A(f"- **Che's approximation predicts the shared hit rates within {gap:.2f}** (e.g. {d[1][0]:.3f} measured "
      f"against {d[1][1]:.3f} at 1x, {d[2][0]:.3f} against {d[2][1]:.3f} at 2x)"
      + (f", always a little under the measurement ({min(rel):.0f} to {max(rel):.0f} %)" if under else "")
      + ". The model assumes independent references and a cache in steady state; the runs start from the cache "
      "that preconditioning left (full of entries of random LBAs, some dirty, whose write-backs are the "
      f"{sh[c1]['mapping.tp_writes']:,.0f} translation writes in a read-only run at 1x). The remaining gap is not "
      "explained here.")
    over = rates(sl[c4])[2] > rates(alone[c4])[2]
    A(f"- **Segmented LRU protects the hot flow, partly.** Entries hit twice move to the protected half, where the "
      f"random flow's one-time entries cannot push them out: the hot flow's hit rate is {rates(sl[c1])[2]:.3f} "
      f"instead of {rates(sh[c1])[2]:.3f} at 1x and {rates(sl[c2])[2]:.3f} instead of {rates(sh[c2])[2]:.3f} at 2x; "
      f"its mean {sl[c1]['hot.mean']:.1f} and {sl[c2]['hot.mean']:.1f} us instead of {sh[c1]['hot.mean']:.1f} and "
      f"{sh[c2]['hot.mean']:.1f}. It does not restore the alone figures at 1x or 2x: the protected segment is half "
      "the cache, smaller than the hot range at 1x, and hot entries still enter through the probationary half, "
      "which the random flow floods. (The SLRU rows' hot hit rates subtract the random flow's hits at LRU's rate; "
      "with SLRU it probably hits less, so these are slight overestimates"
      + (f", which is how 4x shows {rates(sl[c4])[2]:.3f}, above the {rates(alone[c4])[2]:.3f} alone" if over else "")
      + ".)")
    mism = sum(r["integrity.mismatches"] for r in rows)
    A(f"- Integrity: {mism} mismatches over all {len(rows)} runs; both flows' reads are checked.")
    A("")
    return L


INTRO = """When the firmware keeps only a cache of mapping entries in DRAM (`ftl.mapping: cached`,
[dftl.md](dftl.md)), every flow's lookups go through the same cache. A flow that reads at random
over most of the drive misses on nearly every read, and each miss loads an entry that pushes the
least recent one out; a second flow whose hot range would fit in the cache alone then loses its
entries to the first flow's one-time visitors. How much, and does segmented LRU
(`ftl.cmt.policy: slru`) protect it?"""

SETUP = """## Setup

`configs/flows.yaml`'s drive (4 channels x 2 dies, 8 KiB pages, 896 MiB exported = 229,376 LBAs of
4 KiB; filled, then half a drive of random overwrites; a translation page holds 2,048 entries). Two
flows, each on its own NVMe queue pair, both open loop at 4,000 reads of 4 KiB per second for 8 s,
100 % reads (so no write-back or GC runs during the timed part: only the cache is shared, and the
dies, lightly):

- **hot**: uniform over LBAs 0..2,047 (`flows.0.offset=0`, one translation page's entries), host
  queue depth 8;
- **random**: uniform over the other 227,328 LBAs (`flows.1.offset`), host queue depth 32.

"alone" is the same run with the random flow issuing a single read. Cache sizes (`ftl.cmt.entries`)
1,024, 2,048, 4,096 and 8,192 entries: half to four times the hot range. The two `full` rows keep the
whole table in DRAM (no cache): what sharing costs the hot flow there is the dies' and the
controller's share of the interference, not the cache's.

Hit rates: `measured` is the run's `mapping.hit_rate` (both flows' lookups); `Che` is Che's
approximation of an LRU cache under independent uniform references (H. Che, Y. Tung and Z. Wang,
IEEE JSAC 2002: an entry stays cached for a characteristic time T, the one at which the expected
number of distinct entries referenced in T equals the cache size; an entry referenced at rate r
hits with probability 1 - exp(-r T)), with each entry's first reference counted as a miss because
the runs are finite. The hot flow's own hit rate is derived from the run's hits minus the random
flow's hits at Che's rate for it (at most the cache size over its 227,328 LBAs: under 4 %), over
the hot flow's reads; for SLRU no model is given. Latencies in us, the hot flow's reads, from
arrival to completion."""

MQSIM = """## MQSim

MQSim (Tavakkol et al., FAST 2018) models the same cache (`CMT_Capacity`, shared by the flows or
partitioned among them with `CMT_Sharing_Mode`) as one of the resources concurrent flows share in
a multi-queue SSD. We could not read the values or the cache sizes of a published figure on it (its
replication inputs in MQSim's repository keep the whole table in DRAM: [mqsim.md](mqsim.md)), so the
cache sizes here are chosen against the hot range, the comparison is with a model instead of with
MQSim's numbers, and no figure here is tuned to anything. Partitioning the cache per flow, MQSim's
other sharing mode, is not built here."""


def page(rows, data_dir, figs_rel, figs):
    by = by_point(rows)
    wall = sum(r["wall_s"] for r in rows)
    L = ["# Two flows sharing the cached mapping table", ""] + INTRO.splitlines() + [""]
    A = L.append
    A(f"Regenerate the data and this page (table, figure, the commands below; {len(rows)} runs: "
      f"{wall:,.0f} s of wall time summed over the runs as results.csv records it, {load_of(data_dir)}; `--jobs N` "
      "runs N at a time; the figure needs matplotlib):")
    A("")
    A("```sh")
    A("bash scripts/build.sh && " + command_for(max(len(p["runs"]) for p in by.values())))
    A("```")
    A("")
    A("Render again from the committed data: `python3 scripts/flows_cmt.py --render docs/results/flows-cmt --page "
      "docs/results/flows-cmt.md`. Data: [flows-cmt/results.csv](flows-cmt/results.csv) (one row per run). "
      + seeds_line(by.values()) + " Seed k sets `precondition.seed=k` (the overwrites that leave the cache its "
      "first contents) and the hot and random flows' `workload.synthetic.seed` 2k - 1 and 2k (k = 1: the config's "
      "own); the commands below are seed 1's. Hit rates are each run's, then averaged.")
    A("")
    L += SETUP.splitlines()
    A("")
    A("## Results")
    A("")
    A("| run | cache | entries (x hot range) | flows | hot reads | hot mean us | hot p99 us | random reads | "
      "hit rate: measured / Che | hot flow's hit rate: derived / Che | evictions | mismatches |")
    A("|---|---|---|---|---|---|---|---|---|---|---|---|")
    L += [table_row(r) for r in by.values()]
    A("")
    L += runs_block(command("build", f"{n}-s1", s + seed_sets(1)) for n, _, _, _, s in runs())
    L += figure_lines(plot(by, figs), figs_rel, "cmt-interference", "hot flow's latency and hit rate against cache size")
    L += findings(by, rows)
    L += MQSIM.splitlines()
    A("")
    return L


def main():
    a = seed_arg(data_args(__doc__, "flows-cmt")).parse_args()
    page_path = os.path.abspath(a.page)
    figs_rel = "flows-cmt"
    figs = os.path.join(os.path.dirname(page_path), figs_rel)
    rows, data = page_rows(a, "flows-cmt", command_for(a.seeds), lambda build, jobs: run_all_points(build, jobs,
                                                                                                   a.seeds))
    write_lines(page_path, page(rows, data, figs_rel, figs), data,
                command_for(max(len(p["runs"]) for p in by_point(rows).values())))


if __name__ == "__main__":
    main()
