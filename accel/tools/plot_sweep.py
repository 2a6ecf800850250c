#!/usr/bin/python3
"""Plots an ssdvp-accel-sweep CSV (docs/results/accelerator/sweep_uniform.csv): clustering
time of the accelerator (1, 2, 4 lanes, DMA included) and of kmeans2d on the
modelled controller CPU (cost table, and instructions measured on the ISS
where the sweep has them) against N, for K = 3 and K = 8 (HAML-SSD Fig. 9).
scripts/accelerator.py draws the page's figure with draw().

usage: accel/tools/plot_sweep.py SWEEP.csv OUT.png
"""
import csv
import sys

PAPER_US = 19.8  # HAML-SSD Table V: its ML unit's time at N = 2,560, K = 6


def draw(rows, plt):
    """The figure (two panels, K = 3 and K = 8) of the sweep's rows (dicts of strings, as csv reads them)."""
    fig, axes = plt.subplots(1, 2, figsize=(10, 4), sharey=True)
    for ax, k in zip(axes, ("3", "8")):
        sel = [r for r in rows if r["k"] == k]
        n = [int(r["n"]) for r in sel]
        ax.plot(n, [float(r["sw_us"]) for r in sel], "o-", label="software, cost table (native CPU)")
        if sel[0].get("sw_iss_us", "-") != "-":
            ax.plot(n, [float(r["sw_iss_us"]) for r in sel], "x--", label="software, measured on the RV32 ISS")
        for lanes in ("1", "2", "4"):
            col = f"accel_l{lanes}_total_us"
            if col in sel[0]:
                ax.plot(n, [float(r[col]) for r in sel], "s-", label=f"accelerator, {lanes} lane(s), with DMA")
        ax.axhline(PAPER_US, color="grey", ls=":", lw=1)
        ax.annotate(f"HAML-SSD {PAPER_US} us (N=2560, K=6)", (n[0], PAPER_US), textcoords="offset points",
                    xytext=(0, 4), fontsize=7, color="grey")
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.set_xlabel("points N")
        ax.set_title(f"K = {k}, 10 iterations")
        ax.grid(True, which="both", lw=0.3)
    axes[0].set_ylabel("clustering time (us)")
    axes[0].legend(fontsize=7)
    fig.tight_layout()
    return fig


def main(src, dst):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    with open(src, newline="") as f:
        fig = draw(list(csv.DictReader(f)), plt)
    fig.savefig(dst, dpi=120)


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    main(sys.argv[1], sys.argv[2])
