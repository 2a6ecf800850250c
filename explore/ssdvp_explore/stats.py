"""Intervals for result pages: the mean of a point's runs and the half-width of its 95 % interval.

Standard library only, so the scripts under scripts/ use it as the explore pages do
(scripts/provenance.py puts explore/ on the path the same way)."""
from __future__ import annotations

import math
import statistics

_T95 = {2: 12.706, 3: 4.303, 4: 3.182, 5: 2.776, 6: 2.571, 7: 2.447, 8: 2.365, 9: 2.306, 10: 2.262}


def as_float(v) -> float:
    """A figure read back from a CSV cell: a float, NaN when the cell is empty or not a number."""
    try:
        return float(v)
    except (TypeError, ValueError):
        return float("nan")


def t95(n: int) -> float:
    """Two-sided 95 % Student-t quantile for n - 1 degrees of freedom (n <= 10; the normal's beyond)."""
    return _T95.get(n, 1.96)


def mean_ci(xs) -> tuple[float, float]:
    """(mean, half-width of the 95 % interval) of the values that are numbers (NaN left out); half-width 0 for
    one value, (NaN, 0) for none."""
    v = [float(x) for x in xs if x == x]
    if not v:
        return (float("nan"), 0.0)
    m = statistics.fmean(v)
    if len(v) < 2:
        return (m, 0.0)
    return (m, t95(len(v)) * statistics.stdev(v) / math.sqrt(len(v)))


def fmt_ci(xs, fmt: str = ".1f") -> str:
    """'m ± h' (just 'm' for one value, '' for none)."""
    v = [float(x) for x in xs if x == x]
    if not v:
        return ""
    m, h = mean_ci(v)
    return format(m, fmt) + (" ± " + format(h, fmt.replace("+", "")) if len(v) > 1 else "")


def paired_change(new, base) -> list[float]:
    """Per key both hold (a seed, a drive history): new's value over base's, in %. `new` and `base` are mappings
    (a dict, or a pandas Series indexed by seed); keys whose base is 0 or either value NaN are left out."""
    return [100 * (new[k] / base[k] - 1) for k in base.keys()
            if k in new.keys() and base[k] and base[k] == base[k] and new[k] == new[k]]
