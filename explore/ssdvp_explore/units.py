"""Sizes and times as the configs write them ('8KiB', '400 KiB', '2us', '4s'), parsed back to numbers: the one
parser of every page and script (the simulator's own is platform/run/params.cpp; these follow its units)."""
from __future__ import annotations

import re

SIZE = {"": 1, "B": 1, "KiB": 2**10, "MiB": 2**20, "GiB": 2**30, "TiB": 2**40, "KB": 10**3, "MB": 10**6, "GB": 10**9}
TIME_S = {"ps": 1e-12, "ns": 1e-9, "us": 1e-6, "ms": 1e-3, "s": 1.0}
_Q = re.compile(r"\s*([0-9]*\.?[0-9]+(?:[eE][+-]?[0-9]+)?)\s*([A-Za-z]*)\s*")


def _split(text) -> tuple[float, str] | None:
    m = _Q.fullmatch(str(text))
    return (float(m.group(1)), m.group(2)) if m else None


def quantity(text) -> float:
    """A size in bytes or a time in seconds (a bare number as it is); NaN when the text is neither."""
    q = _split(text)
    if q is None:
        return float("nan")
    v, unit = q
    if unit in SIZE:
        return v * SIZE[unit]
    return v * TIME_S[unit] if unit in TIME_S else float("nan")


def size_bytes(text) -> int:
    """'400KiB' -> 409600 (a bare number is bytes); ValueError naming the text otherwise."""
    q = _split(text)
    if q is None or q[1] not in SIZE:
        raise ValueError(f"{text!r}: expected a size (a number and one of {', '.join(u for u in SIZE if u)})")
    return int(round(q[0] * SIZE[q[1]]))


def time_ns(text) -> int:
    """'4s' -> 4000000000; ValueError naming the text otherwise (a time needs its unit)."""
    q = _split(text)
    if q is None or q[1] not in TIME_S:
        raise ValueError(f"{text!r}: expected a time (a number and one of {', '.join(TIME_S)})")
    return int(round(q[0] * TIME_S[q[1]] * 1e9))
