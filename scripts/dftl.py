#!/usr/bin/env python3
"""dftl.py - runs the cached-mapping experiments of issue 21 and writes
docs/results/dftl.md with its plot (docs/results/dftl/).

    python3 scripts/dftl.py BUILD_DIR [--jobs N] [--page-only]

Every run is `ssdvp run -c configs/default.yaml` with the --set overrides
listed on the page (the default job's drive: 1 GiB of flash, 896 MiB
exported, 229,376 LBAs of 4 KiB, translation pages of 2,048 entries); each
writes out/dftl/<name>/summary.json. Three workloads x the full table and
four cache sizes (1/64, 1/16, 1/4 and all of the table), segmented LRU
(ftl.cmt.policy=slru) at 1/64 and 1/16, and 1/64 with the translation pages
on one die (ftl.cmt.stripe=1) for two of them.
"""
import os
import sys

from runpoint import load_summary, page_args, run_all, run_point, ssdvp_run, write_page

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "out", "dftl")
PAGE = os.path.join(ROOT, "docs", "results", "dftl.md")
TEMPLATE = os.path.join(ROOT, "scripts", "dftl_page.md.in")
FIGS = os.path.join(ROOT, "docs", "results", "dftl")
LBAS = 896 * 1024 * 1024 // 4096

# 200,000 requests: the first half warms the cache functionally (as the
# default job's preconditioning does with half the trace), the second is timed.
SYN = ["workload.source=synthetic", "workload.synthetic.requests=200000", "workload.synthetic.io_size=4KiB",
       "workload.synthetic.read_fraction=0.5", "workload.synthetic.iops=4000", "workload.loops=1"]
WORKLOADS = [
    ("trace", "MSR heimdall excerpt (the default job)", []),
    ("uniform", "uniform random 4 KiB, 50 % reads", SYN + ["workload.synthetic.pattern=uniform"]),
    ("hotcold", "80/20 hot/cold 4 KiB, 50 % reads", SYN + ["workload.synthetic.pattern=hotcold"]),
]
FRACTIONS = [("1/64", 64), ("1/16", 16), ("1/4", 4), ("1", 1)]


def runs():
    out = []
    for w, wdesc, wsets in WORKLOADS:
        out.append((f"{w}-full", w, "full", wsets))
        for label, div in FRACTIONS:
            out.append((f"{w}-cmt{div}", w, label,
                        wsets + ["ftl.mapping=cached", f"ftl.cmt.entries={LBAS // div}"]))
        for label, div in FRACTIONS[:2]:  # segmented LRU, half the cache protected (the default)
            out.append((f"{w}-cmt{div}-slru", w, f"{label}, slru",
                        wsets + ["ftl.mapping=cached", f"ftl.cmt.entries={LBAS // div}", "ftl.cmt.policy=slru"]))
        if w != "hotcold":  # translation pages on one die, as before ftl.cmt.stripe
            out.append((f"{w}-cmt64-stripe1", w, "1/64, one die",
                        wsets + ["ftl.mapping=cached", f"ftl.cmt.entries={LBAS // 64}", "ftl.cmt.stripe=1"]))
    return out


# the page's figures ran under pass, the default before room: pinned until it is regenerated
PIN = ["ftl.write.at_floor=pass"]


def command(build, name, sets):
    return ssdvp_run(build, "configs/default.yaml", "dftl", name, sets + PIN)


def run(build, name, sets):
    run_point(command(build, name, sets), name)


def load(name):
    return load_summary(OUT, name)


HEAD = ("| workload | table | FTL DRAM MiB | hit rate | misses | translation reads | translation writes | translation GC moves | "
        "WAF host+GC | WAF translation | WAF total | read mean us | read p99 us | write mean us | write p99 us | IOPS |\n"
        "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|")


def full_dram(w):
    """The FTL's DRAM with the full table, from a cached run's summary of the same drive."""
    for _, div in FRACTIONS:
        j = load(f"{w}-cmt{div}")
        if j and "dram_bytes_full_table" in j.get("mapping", {}):
            return j["mapping"]["dram_bytes_full_table"]
    return None


def row(w, label, j):
    m = j.get("mapping")
    dram = m.get("dram_bytes") if m else full_dram(w)
    mib = f"{dram / 1048576:.2f}" if dram else "-"
    r, wr = j["latency_us"]["read"], j["latency_us"]["write"]
    waf = j["ftl"]["waf"]
    if m:
        cells = [f"{m['hit_rate']:.4f}", f"{m['misses']:,}", f"{m['tp_reads']:,}", f"{m['tp_writes']:,}",
                 f"{m['tgc_moves']:,}", f"{waf:.3f}", f"{m['waf']['translation']:.3f}", f"{m['waf']['total']:.3f}"]
    else:
        cells = ["-", "-", "-", "-", "-", f"{waf:.3f}", "0", f"{waf:.3f}"]
    return (f"| {w} | {label} | {mib} | " + " | ".join(cells) +
            f" | {r['mean']:,.1f} | {r['p99']:,.1f} | {wr['mean']:,.1f} | {wr['p99']:,.1f} | {j['host']['iops']:,.0f} |")


def plot(have):
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("matplotlib missing: no plot", file=sys.stderr)
        return False
    fig, axes = plt.subplots(1, 3, figsize=(13, 3.8))
    for w, _, _ in WORKLOADS:
        pts = [(1.0 / div, load(f"{w}-cmt{div}")) for _, div in FRACTIONS]
        pts = [(x, j) for x, j in pts if j]
        full = load(f"{w}-full")
        if not pts:
            continue
        xs = [x for x, _ in pts]
        line = axes[0].plot(xs, [j["mapping"]["waf"]["total"] for _, j in pts], "o-", label=w)[0]
        if full:
            axes[0].axhline(full["ftl"]["waf"], color=line.get_color(), ls=":", lw=1)
        axes[1].plot(xs, [j["latency_us"]["read"]["mean"] for _, j in pts], "o-", color=line.get_color(), label=w)
        if full:
            axes[1].axhline(full["latency_us"]["read"]["mean"], color=line.get_color(), ls=":", lw=1)
        axes[2].plot(xs, [j["mapping"]["hit_rate"] for _, j in pts], "o-", color=line.get_color(), label=w)
    for ax, yl in zip(axes, ["WAF (host + GC + translation)", "read mean latency (us)", "CMT hit rate"]):
        ax.set_xscale("log", base=2)
        ax.set_xlabel("cache size / table size")
        ax.set_ylabel(yl)
        ax.grid(alpha=0.3)
    axes[0].legend(fontsize=8)
    fig.suptitle("Cached mapping table (DFTL) against the full table (dotted lines)", fontsize=10)
    fig.tight_layout()
    os.makedirs(FIGS, exist_ok=True)
    fig.savefig(os.path.join(FIGS, "dftl.png"), dpi=90)
    plt.close(fig)
    return True


def main():
    ap = page_args()
    ap.add_argument("--only", help="run only the runs whose name starts with this")
    a = ap.parse_args()
    todo = runs()
    if not a.page_only:
        run_all(a.jobs, [r for r in todo if not a.only or r[0].startswith(a.only)], lambda r: run(a.build, r[0], r[3]))
    have = [(n, w, label, sets, load(n)) for n, w, label, sets in todo]
    have = [h for h in have if h[4] is not None]
    lines = [HEAD] + [row(w, label, j) for n, w, label, sets, j in have] + ["", "```sh"]
    lines += [" ".join(command("build", n, sets)) for n, w, label, sets, j in have] + ["```", ""]
    if plot(have):
        lines += ["![WAF, read latency and hit rate against cache size](dftl/dftl.png)", ""]
    write_page(TEMPLATE, PAGE, "\n".join(lines))


if __name__ == "__main__":
    main()
