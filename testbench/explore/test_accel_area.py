"""scripts/accel_area.py: yosys's cell counts times the library cells' LEF footprints, and the 28 nm range."""
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "scripts"))
import accel_area  # noqa: E402

STAT = """
=== kmeans_core ===

   Number of cells:                 10
     $_DFF_P_                        2
     $_NAND_                         5
     $_NOR_                          2
     $_NOT_                          1
     $mem_v2                         3
"""
AREAS = {"$_NAND_": 3.0, "$_NOR_": 3.0, "$_NOT_": 2.0, "$_DFF_P_": 20.0}


def test_counts_and_lef_footprints_are_read():
    assert accel_area.cell_counts(STAT) == {"$_DFF_P_": 2, "$_NAND_": 5, "$_NOR_": 2, "$_NOT_": 1, "$mem_v2": 3}
    assert accel_area.lef_area_um2("MACRO x\n  CLASS CORE ;\n  SIZE  1.380000 BY  2.720000 ;\n") == \
        pytest.approx(3.7536)
    with pytest.raises(ValueError, match="SIZE"):
        accel_area.lef_area_um2("MACRO x\nEND x\n")


def test_area_sums_cells_and_scales_the_sram_by_the_bit_cells():
    a = accel_area.area(accel_area.cell_counts(STAT), AREAS, points=1000)
    assert a["logic_sky130"] == pytest.approx((5 * 3 + 2 * 3 + 1 * 2 + 2 * 20) / 1e6)
    assert a["sram_sky130"] == pytest.approx(1000 * 22 * 1.2 * 1.58 / 1e6)
    assert a["sram_28"] == pytest.approx(1000 * 22 * 0.16 / 1e6)
    assert a["logic_28_lo"] < a["logic_28_hi"] < a["logic_sky130"]   # the ideal scaling shrinks logic more


def test_a_cell_without_a_library_counterpart_is_named():
    with pytest.raises(ValueError, match=r"\$_XOR_"):
        accel_area.area({"$_XOR_": 3, "$_NAND_": 1}, AREAS, points=10)
