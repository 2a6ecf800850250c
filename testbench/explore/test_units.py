"""explore/ssdvp_explore/units.py: the config's sizes and times parsed back, and text that is neither refused."""
import math
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "explore"))
from ssdvp_explore.units import quantity, size_bytes, time_ns  # noqa: E402


def test_sizes_in_binary_and_decimal_units():
    assert size_bytes("400KiB") == 400 * 1024
    assert size_bytes("1 GiB") == 1 << 30
    assert size_bytes("1.5MiB") == 3 << 19
    assert size_bytes("8") == 8
    assert size_bytes("2MB") == 2_000_000


def test_times_need_a_unit():
    assert time_ns("4s") == 4_000_000_000
    assert time_ns("200ms") == 200_000_000
    assert time_ns("2.5us") == 2500
    with pytest.raises(ValueError, match="expected a time"):
        time_ns("4")


def test_quantity_reads_either_and_nan_otherwise():
    assert quantity("8KiB") == 8192
    assert quantity("2us") == pytest.approx(2e-6)
    assert quantity(4) == 4
    assert math.isnan(quantity("fast"))
    assert math.isnan(quantity("4 furlongs"))


def test_sizes_refuse_times_and_words():
    for bad in ("4s", "KiB", "", "1e", "-"):
        with pytest.raises(ValueError, match="expected a size"):
            size_bytes(bad)
