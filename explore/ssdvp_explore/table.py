"""The tidy results table: one row per run, every config key and every metric.

Columns, in order:
  sweep, point (hash), status (ok | violations | failed), exit_code, error,
  config.<dotted key>  every parameter as ssdvp resolved it (summary.json "config";
                       for a failed run, the base file + overrides that were asked),
  <metric columns>     summary.json flattened generically: host.iops,
                       latency_us.read.p99, ftl.waf, ... (new fields appear by themselves;
                       lists become one JSON-text cell; the latency histograms,
                       hundreds of buckets each, stay in summary.json:
                       :func:`load_histograms`).
"""
from __future__ import annotations

import json
from pathlib import Path

import pandas as pd

from .runner import point_dir, read_status
from .sweep import Point, Sweep, flatten

META_COLUMNS = ["sweep", "point", "status", "exit_code", "error"]
NONDETERMINISTIC_PREFIXES = ("run.",)     # wall time, RSS: differ between identical runs
HISTOGRAM_SUFFIX = ".histogram"            # latency_us.<op>.histogram: not a table cell


def _cell(v):
    return json.dumps(v) if isinstance(v, (list, dict)) else v


def summary_row(summary: dict) -> dict:
    """summary.json -> {column: value} (config.* and flattened metrics)."""
    s = dict(summary)
    cfg = s.pop("config", {}) or {}
    row = {f"config.{k}": _cell(v) for k, v in flatten(cfg).items()}
    row.update({k: _cell(v) for k, v in flatten(s).items() if not k.endswith(HISTOGRAM_SUFFIX)})
    return row


def point_row(sweep: Sweep, pt: Point, results: Path) -> dict | None:
    d = point_dir(results, pt)
    st = read_status(d)
    if st is None:
        return None
    row = {"sweep": sweep.name, "point": pt.hash, "status": st.get("status", "failed"),
           "exit_code": st.get("exit_code"), "error": st.get("error", "") or ""}
    summary = None
    try:
        with open(d / "summary.json") as f:
            summary = json.load(f)
    except (OSError, ValueError) as e:
        if st.get("status") != "failed":
            row["status"], row["error"] = "failed", f"unreadable summary.json: {e}"
    row.update({f"config.{k}": v for k, v in pt.config.items()})
    if isinstance(summary, dict):
        row.update(summary_row(summary))
    return row


def build_table(sweep: Sweep, points: list[Point], results: Path, include_missing: bool = False) -> pd.DataFrame:
    """Rows in sweep order (deterministic whatever ran where)."""
    rows = []
    for pt in points:
        r = point_row(sweep, pt, results)
        if r is None and include_missing:
            r = {"sweep": sweep.name, "point": pt.hash, "status": "missing", "exit_code": None,
                 "error": "not run", **{f"config.{k}": v for k, v in pt.config.items()}}
        if r is not None:
            rows.append(r)
    cols = list(META_COLUMNS)
    cfg_cols = sorted({c for r in rows for c in r if c.startswith("config.")})
    metric_cols: dict[str, None] = {}
    for r in rows:
        for c in r:
            if c not in META_COLUMNS and not c.startswith("config."):
                metric_cols.setdefault(c)
    cols += cfg_cols + list(metric_cols)
    df = pd.DataFrame(rows, columns=cols)
    for c in df.columns:   # integers stay integers next to failed rows' blanks
        vals = [r[c] for r in rows if r.get(c) is not None]
        if vals and all(isinstance(v, int) and not isinstance(v, bool) for v in vals):
            df[c] = df[c].astype("Int64")
    df["error"] = df["error"].fillna("")
    return df


def deterministic(df: pd.DataFrame) -> pd.DataFrame:
    """The table without columns that differ between identical runs (for comparisons)."""
    return df[[c for c in df.columns if not c.startswith(NONDETERMINISTIC_PREFIXES)]]


def load_timeseries(results: Path, table: pd.DataFrame) -> pd.DataFrame:
    """All timeseries.csv of the table's points in long form, with the point hash as a column."""
    frames = []
    for h in table["point"]:
        f = Path(results) / h / "timeseries.csv"
        if f.is_file():
            try:
                ts = pd.read_csv(f)
            except (ValueError, pd.errors.EmptyDataError):
                continue
            ts.insert(0, "point", h)
            frames.append(ts)
    return pd.concat(frames, ignore_index=True) if frames else pd.DataFrame(columns=["point", "time_s"])


def load_histograms(results: Path, table: pd.DataFrame) -> dict[str, dict[str, list]]:
    """{point: {op: [[lo_us, hi_us, count], ...]}} from each point's summary.json
    (latency_us.<op>.histogram); points without one are left out."""
    out: dict[str, dict[str, list]] = {}
    for h in table["point"]:
        try:
            with open(Path(results) / h / "summary.json") as f:
                lat = json.load(f).get("latency_us", {})
        except (OSError, ValueError, AttributeError):
            continue
        hs = {op: v["histogram"] for op, v in lat.items() if isinstance(v, dict) and isinstance(v.get("histogram"), list)}
        if hs:
            out[h] = hs
    return out


def write_csv(df: pd.DataFrame, path: Path) -> Path:
    """Atomic CSV write."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.tmp")
    df.to_csv(tmp, index=False)
    tmp.replace(path)
    return path
