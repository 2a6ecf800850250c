"""The pages' shared interval helpers (explore/ssdvp_explore/stats.py)."""
import math

import pandas as pd

from ssdvp_explore.stats import mean_ci, paired_change


def test_paired_change_pairs_by_key_and_skips_what_cannot_be_divided():
    base = {1: 2.0, 2: 4.0, 3: 0.0, 4: 5.0, 5: float("nan")}
    new = {1: 3.0, 2: 3.0, 3: 1.0, 5: 1.0, 6: 9.0}
    # 1: +50 %, 2: -25 %; 3 has a zero base, 4 no new value, 5 a NaN base, 6 no base
    assert paired_change(new, base) == [50.0, -25.0]


def test_paired_change_takes_series_indexed_by_seed():
    base = pd.Series([1.0, 2.0, 4.0], index=[3, 1, 2])
    new = pd.Series([3.0, 1.0], index=[1, 2])  # seed 3 missing: left out
    assert sorted(paired_change(new, base)) == [-75.0, 50.0]


def test_mean_ci_of_one_value_has_no_width():
    assert mean_ci([2.0, float("nan")]) == (2.0, 0.0)
    m, h = mean_ci([1.0, 3.0])
    assert m == 2.0 and math.isclose(h, 12.706)  # t(1 df) x stdev sqrt(2) / sqrt(2)
