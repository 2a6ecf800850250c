#!/usr/bin/python3
"""Plots docs/results/accelerator.csv (ssdvp-accel-sweep output): clustering
time of the accelerator (1, 2, 4 lanes, DMA included) and of kmeans2d on the
modelled controller CPU (cost table, and instructions measured on the ISS
where the sweep has them) against N, for K = 3 and K = 8 (HAML-SSD Fig. 9).

usage: accel/tools/plot_sweep.py docs/results/accelerator.csv docs/results/accelerator.png
"""
import csv
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def main(src, dst):
    rows = list(csv.DictReader(open(src)))
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
        ax.axhline(19.8, color="grey", ls=":", lw=1)
        ax.annotate("HAML-SSD 19.8 us (N=2560, K=6)", (n[0], 19.8), textcoords="offset points", xytext=(0, 4),
                    fontsize=7, color="grey")
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.set_xlabel("points N")
        ax.set_title(f"K = {k}, 10 iterations")
        ax.grid(True, which="both", lw=0.3)
    axes[0].set_ylabel("clustering time (us)")
    axes[0].legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(dst, dpi=120)


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    main(sys.argv[1], sys.argv[2])
