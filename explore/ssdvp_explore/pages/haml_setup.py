"""The Setup, Scaling and Policies paragraphs of docs/results/haml.md (and the
first two on its sensitivity pages haml-k, -slice, -period and -gc), built from
what the sweep runs rather than typed, so they cannot drift from it:

- the drive, the method and the policies' keys: the points of
  explore/sweeps/haml.yaml (its base, configs/haml.yaml, with the sweep's
  overrides); a key no point sets takes the simulator's default, read from
  docs/params.md's table (generated from the registry by
  scripts/gen-params-doc.sh);
- each workload's replay (passes, speed, its length against the period T):
  the sweep's cases and the trace files' timestamps (mqsim: the simulator
  rebases times on the first record and starts a looped pass the mean
  inter-arrival time after the last record of the one before,
  platform/host/workload/looped.cpp);
- what the runs measured: docs/results/haml/table.csv (the volume each trace
  writes in the timed half, the classes `hotis` and `asa` ran with, which the
  firmware fixes rather than a key).

A key, file or column the text needs that no source has is an error naming
it (SetupError): the text never invents a value. Typed are only the facts
about the paper (PAPER), the count of the WebSearch trace that traces/ does
not bundle (WEBSEARCH), the traces' prose names and the policies' mechanisms.
"""
from __future__ import annotations

import math
import re
from fractions import Fraction
from pathlib import Path

import pandas as pd

from .. import REPO_ROOT
from ..sweep import load_sweep
from ..units import size_bytes, time_ns
from .haml_findings import _wrap
from .haml_paper_scale import WORDS, and_list

SWEEP = "explore/sweeps/haml.yaml"
PARAMS = "docs/params.md"
TABLE = "haml/table.csv"   # in the results folder (docs/results)
POLICY = "config.ftl.placement.policy"
# typed: facts about the paper, from HAML-SSD's evaluation (Section V): the drive of its Table III (256 GB
# exported, which this project reads as 256 GiB: configs/haml_table3.yaml) and its flash timing (tR / tPROG /
# tBERS); its 100 MB slices, whose 2,560 points its Table V clusters; its 6 h period T, over traces that span days
PAPER = {"capacity": "256GiB", "capacity_label": "256 GB", "slice_label": "100 MB", "slices": 2560,
         "timing": ("20us", "200us", "2ms"), "period_label": "6 h", "trace_span": "days"}
# typed: counted from the UMass WebSearch trace (SPC format), one of the paper's workloads; traces/ does not
# bundle it, so it cannot be recounted here
WEBSEARCH = {"writes": 4, "requests": 24783}
# typed: the prose names of the sweep's traces, by file stem (bare, and as a sentence's subject)
TRACE_NAME = {"msr_heimdall_rw20_80_105": ("MSR excerpt", "the MSR excerpt"), "dtrs": ("DTRS", "DTRS"),
              "postmark": ("PostMark", "PostMark"), "tpcc-small": ("TPC-C sample", "the TPC-C sample")}
# a slower replay in words (workload.time_scale above 1)
SLOWER = {2: "half", 3: "a third", 4: "a quarter", 10: "a tenth"}


class SetupError(ValueError):
    """A key, file or column the setup text needs is missing, or disagrees between the sweep's points."""


def param_defaults(path: Path) -> dict[str, str]:
    """{key: default} of docs/params.md's table (a default written `<...>` is computed by the simulator and
    left out, as is an empty one)."""
    out = {}
    try:
        text = Path(path).read_text()
    except OSError as e:
        raise SetupError(f"{path}: cannot read the parameters' defaults ({e})") from None
    for m in re.finditer(r"^\| `([^`]+)` \| [^|]+ \| `([^`]*)` \|", text, re.M):
        if m.group(2) and not m.group(2).startswith("<"):
            out[m.group(1)] = m.group(2)
    return out


class Keys:
    """The sweep's points' configs, with docs/params.md's defaults under them."""

    def __init__(self, sweep, defaults: dict[str, str], params: Path):
        self.points = sweep.points()
        self.defaults, self.params = defaults, params
        self.base, self.sweep = sweep.base_arg, _rel(sweep.path, sweep.root)
        self.where = f"{self.base} and {self.sweep}"

    def value(self, cfg: dict, key: str) -> str:
        if key in cfg:
            return cfg[key]
        if key in self.defaults:
            return self.defaults[key]
        raise SetupError(f"{key}: set in neither {self.base} nor {self.sweep}, and {self.params} has no default for it; "
                         "docs/results/haml.md's setup text needs it")

    def one(self, key: str, points=None) -> str:
        """The key's value, the same on every point (of points; default all)."""
        vals = {self.value(p.config, key) for p in (points if points is not None else self.points)}
        if len(vals) != 1:
            raise SetupError(f"{key}: the setup text states one value, but the points of {self.where} "
                             f"run {', '.join(sorted(vals))}")
        return vals.pop()

    def where_policy(self, policy: str) -> list:
        pts = [p for p in self.points if self.value(p.config, "ftl.placement.policy") == policy]
        if not pts:
            raise SetupError(f"no point of {self.where} runs ftl.placement.policy: {policy}, which the setup "
                             "text describes")
        return pts


def _rel(path: Path, root: Path) -> str:
    try:
        return str(Path(path).resolve().relative_to(Path(root).resolve()))
    except ValueError:
        return str(path)


def num(x: float, nd: int = 1) -> str:
    """x with at most nd decimals and no trailing zeros, thousands separated."""
    s = f"{x:,.{nd}f}"
    return s.rstrip("0").rstrip(".") if "." in s else s


def size(b: float) -> str:
    """Bytes in the largest binary unit they fill: whole, else one decimal below 10 and none above."""
    for unit, f in (("TiB", 2**40), ("GiB", 2**30), ("MiB", 2**20), ("KiB", 2**10)):
        if b >= f:
            v = b / f
            return f"{num(v, 0 if v >= 10 else 1)} {unit}"
    return f"{num(b, 0)} B"


def duration(ns: float) -> str:
    for unit, f in (("s", 1e9), ("ms", 1e6), ("us", 1e3)):
        if ns >= f:
            return f"{num(ns / f, 1)} {unit}"
    return f"{num(ns, 0)} ns"


def count(n: float) -> str:
    """800000 -> 800k; 1000000 -> 1M; else with separators."""
    n = int(n)
    if n >= 10**6 and n % 10**6 == 0:
        return f"{n // 10**6}M"
    return f"{n // 1000}k" if n >= 1000 and n % 1000 == 0 else f"{n:,}"


def word(n: float) -> str:
    return WORDS[int(n)] if float(n).is_integer() and int(n) < len(WORDS) else num(n, 2)


def pct(x: float) -> str:
    return f"{num(100 * x, 1)} %"


def flag(key: str, v: str) -> bool:
    """A bool key's value as the simulator reads it (docs/params.md: true/false, yes/no, on/off, 1/0)."""
    b = {"true": True, "yes": True, "on": True, "1": True, "false": False, "no": False, "off": False, "0": False}
    if str(v).lower() not in b:
        raise SetupError(f"{key}: {v!r} is not a bool")
    return b[str(v).lower()]


def mqsim_span(path: Path) -> tuple[int, int]:
    """(records, ns from the first to the last) of an mqsim trace, zero-length records skipped as the
    simulator skips them (workload.skip_zero_length)."""
    n, first, last = 0, None, 0
    try:
        with open(path) as f:
            for line in f:
                p = line.split()
                if len(p) != 5 or int(p[3]) == 0:
                    continue
                t = int(p[0])
                first = t if first is None else first
                last, n = t, n + 1
    except OSError as e:
        raise SetupError(f"{path}: cannot read the trace ({e}); the setup text times its replay") from None
    if n == 0:
        raise SetupError(f"{path}: no request in the trace; the setup text times its replay")
    return n, last - first


def replay_s(keys: Keys, cfg: dict, root: Path) -> float:
    """Seconds from a workload's first request to its last, as the simulator replays it."""
    if keys.value(cfg, "workload.source") == "synthetic":
        iops = float(keys.value(cfg, "workload.synthetic.iops"))
        if iops <= 0:
            raise SetupError("workload.synthetic.iops is 0 (closed loop): a synthetic workload then has no "
                             "replay time for the setup text to set T against")
        return float(keys.value(cfg, "workload.synthetic.requests")) / iops
    fmt = keys.value(cfg, "workload.format")
    if fmt != "mqsim":
        raise SetupError(f"workload.format: {fmt}: the setup text times mqsim traces only")
    n, span = mqsim_span(root / keys.value(cfg, "workload.trace"))
    loops, scale = int(keys.value(cfg, "workload.loops")), float(keys.value(cfg, "workload.time_scale"))
    if loops == 0:
        raise SetupError("workload.loops: 0 (forever): the setup text needs a finite replay")
    gap = span // (n - 1) if n > 1 else 0
    quiet = time_ns(keys.value(cfg, "workload.loop_gap"))
    return ((loops - 1) * ((span + gap) * scale + quiet) + span * scale) / 1e9


def label(keys: Keys, cfg: dict) -> str:
    """The table's workload label (plots.with_labels) of a point."""
    if keys.value(cfg, "workload.source") == "synthetic":
        return "synthetic " + keys.value(cfg, "workload.synthetic.pattern")
    return Path(keys.value(cfg, "workload.trace")).stem


def column(df: pd.DataFrame, col: str, path: Path, rows=None) -> pd.Series:
    if col not in df:
        raise SetupError(f"{path} has no column {col}, which docs/results/haml.md's setup text quotes")
    s = df.loc[rows, col] if rows is not None else df[col]
    s = pd.to_numeric(s, errors="coerce").dropna()
    if s.empty:
        raise SetupError(f"{path}: no value of {col} for the rows the setup text quotes")
    return s


def facts(root: Path | str = REPO_ROOT, sweep: str | Path = SWEEP, params: str | Path = PARAMS,
          table: str | Path | None = None) -> dict:
    """Every figure of the text, from the sweep's points (its base config and overrides), docs/params.md's
    defaults, the trace files and the page's table (default docs/results/haml/table.csv)."""
    from ..plots import WORKLOAD, with_labels
    from ..render import read_table
    root = Path(root)
    sweep_path = Path(sweep) if Path(sweep).is_absolute() else root / sweep
    params_path = Path(params) if Path(params).is_absolute() else root / params
    table_path = Path(table) if table else root / "docs" / "results" / TABLE
    sw = load_sweep(sweep_path, root=root)
    k = Keys(sw, param_defaults(params_path), _rel(params_path, root))
    one = k.one
    lba = size_bytes(one("nvme.lba_size"))
    ch, dpc, planes = int(one("flash.channels")), int(one("flash.dies_per_channel")), int(one("flash.planes_per_die"))
    bpp, ppb, page = int(one("flash.blocks_per_plane")), int(one("flash.pages_per_block")), size_bytes(one("flash.page_size"))
    flash = ch * dpc * planes * bpp * ppb * page
    exported = size_bytes(one("nvme.namespace_size"))
    slice_b = size_bytes(one("ftl.hot.slice_size"))
    slice_lbas = slice_b // lba
    if slice_lbas == 0:
        raise SetupError(f"ftl.hot.slice_size: {one('ftl.hot.slice_size')} is smaller than an LBA")
    f = dict(config=sw.base_arg, sweep=_rel(sw.path, root), channels=ch, dies_per_channel=dpc, planes=planes,
             blocks_per_plane=bpp, pages_per_block=ppb, page=page, flash=flash, exported=exported,
             spare=1 - exported / flash, timing=tuple(time_ns(one(f"flash.timing.{t}")) for t in
                                                      ("read", "program", "erase")),
             gc_policy=one("ftl.gc.policy"), gc_threshold=int(one("ftl.gc.threshold_blocks")),
             fill=float(one("precondition.fill")), drive_writes=float(one("precondition.random_drive_writes")),
             workload_fraction=float(one("precondition.workload_fraction")),
             slice=slice_lbas * lba, slices=math.ceil(exported // lba / slice_lbas),
             scale=size_bytes(PAPER["capacity"]) / exported, lba_wrap=flag("host.lba_wrap", one("host.lba_wrap")),
             block_choice=one("ftl.wear.block_choice"), wear_threshold=int(one("ftl.wear.threshold")),
             runs=len(sw.raw.get("seeds") or [None]))
    # the workloads, in the sweep's order
    df = with_labels(read_table(table_path))
    df = df[df["status"].isin(["ok", "violations"])] if "status" in df else df
    wl, seen = [], set()
    for p in k.points:
        name = label(k, p.config)
        if name in seen:
            continue
        seen.add(name)
        pts = [q for q in k.points if label(k, q.config) == name]
        period = time_ns(one("ftl.hot.period", pts)) / 1e9
        w = {"label": name, "source": one("workload.source", pts), "period_s": period,
             "replay_s": replay_s(k, pts[0].config, root)}
        if w["source"] == "synthetic":
            w["pattern"] = one("workload.synthetic.pattern", pts)
        else:
            if name not in TRACE_NAME:
                raise SetupError(f"{one('workload.trace', pts)}: no prose name in haml_setup.TRACE_NAME")
            w["loops"] = int(one("workload.loops", pts))
            w["time_scale"] = float(one("workload.time_scale", pts))
            w["written"] = float(column(df, "host.write_bytes", table_path, df[WORKLOAD] == name).median())
        wl.append(w)
    f["workloads"] = wl
    syn = [p for p in k.points if k.value(p.config, "workload.source") == "synthetic"]
    if syn:
        f["synthetic"] = {key: float(one(f"workload.synthetic.{key}", syn)) for key in
                          ("requests", "iops", "read_fraction", "hot_space", "hot_requests", "cold_space",
                           "shift_requests")}
    # the policies
    hotis = k.where_policy("hotis")
    f["hotis_min_writes"] = int(one("ftl.hot.hotis.min_writes", hotis))
    f["hotis_interval"] = sorted({Fraction(time_ns(k.value(p.config, "ftl.hot.hotis.max_interval")),
                                           time_ns(k.value(p.config, "ftl.hot.period"))).limit_denominator(1000)
                                  for p in hotis})
    f["haml_k"] = int(one("ftl.hot.classes", k.where_policy("haml")))
    f["oracle_streams"] = one("host.streams", k.where_policy("stream"))
    for pol in ("hotis", "asa"):   # the firmware fixes their classes (firmware/ftl/place.c): what the runs used
        s = column(df, "placement.classes", table_path, df[POLICY].astype(str) == pol)
        if s.nunique() != 1:
            raise SetupError(f"{table_path}: the {pol} runs' placement.classes differ ({sorted(s.unique())})")
        f[f"{pol}_classes"] = int(s.iloc[0])
    return f


def _period_text(f: dict) -> str:
    """T against each workload's replay, workloads with the same ratio together."""
    groups: dict[str, list[str]] = {}
    for w in f["workloads"]:
        r = w["replay_s"] / w["period_s"]
        d = num(r, 0 if r >= 10 else 1)
        name = f"`{w['pattern']}`" if w["source"] == "synthetic" else TRACE_NAME[w["label"]][1]
        groups.setdefault(d, []).append(name)
    syn = [f"`{w['pattern']}`" for w in f["workloads"] if w["source"] == "synthetic"]
    if len(groups) == 1:
        return f"about 1/{next(iter(groups))} of each workload's replay"
    parts = []
    for d, names in groups.items():
        if len(syn) > 1 and set(syn) <= set(names):
            names = [n for n in names if n not in syn] + ["the synthetic workloads"]
        parts.append(f"1/{d} on {and_list(names)}")
    return "a fraction of each workload's replay: " + and_list(parts)


def _trace_text(f: dict) -> str:
    parts, said_speed, said_half = [], False, False
    for w in f["workloads"]:
        if w["source"] == "synthetic":
            continue
        s = f"{TRACE_NAME[w['label']][0]} {'one pass' if w['loops'] == 1 else str(w['loops']) + ' passes'}"
        ts = w["time_scale"]
        if ts < 1:
            s += f" at {num(1 / ts, 1)}x{'' if said_speed else ' speed'}"
            said_speed = True
        elif ts > 1:
            slow = SLOWER.get(ts, f"1/{num(ts, 1)}") if float(ts).is_integer() else f"1/{num(ts, 2)}"
            s += f" at {slow} of its recorded rate"
        vol = size(w["written"])
        s += f" ({vol})" if said_half else f" ({_timed(f)}: {vol} written)"
        said_half = True
        parts.append(s)
    return "; ".join(parts)


def _timed(f: dict) -> str:
    return "timed half" if f["workload_fraction"] == 0.5 else "timed part"


def _synthetic_text(f: dict) -> str:
    s = f.get("synthetic")
    if not s:
        return ""
    pats = [w["pattern"] for w in f["workloads"] if w["source"] == "synthetic"]
    written = "half" if s["cold_space"] == 0.5 else f"{pct(1 - s['cold_space'])}"
    text = (f"Synthetic workloads with the properties HAML relies on: {count(s['requests'])} requests at "
            f"{count(s['iops'])} IOPS, {pct(s['read_fraction'])} reads, {pct(s['hot_requests'])} of requests "
            f"to a hot set")
    tails = []
    if "shifting" in pats:
        shift_s = s["shift_requests"] / s["iops"]
        cold = "the other half" if s["cold_space"] == 0.5 else f"the last {pct(s['cold_space'])} of the space"
        tails.append(f"in `shifting` a window of {pct(s['hot_space'])} of the written {written} of the space, "
                     f"moved on by its own size every {count(s['shift_requests'])} requests "
                     f"({duration(shift_s * 1e9)}), and {cold} is never written (a large cold set)")
    if "hotcold" in pats:
        tails.append(f"in `hotcold` a fixed {pct(s['hot_space'])} of the whole space, all of which is written")
    return text + ": " + "; ".join(tails) + "." if tails else text + "."


def render(f: dict) -> str:
    """The three paragraphs (Setup, Scaling, Policies), each wrapped to 78 columns."""
    tr, tp, te = f["timing"]
    paper_timing = tuple(time_ns(t) for t in PAPER["timing"])
    planes = f" x {f['planes']} planes" if f["planes"] > 1 else ""
    fill = "the whole namespace" if f["fill"] == 1 else f"{pct(f['fill'])} of the namespace"
    if f["workload_fraction"] == 0.5:
        first, then = "the first half", "the second half"
    else:
        first, then = f"the first {pct(f['workload_fraction'])}", "the rest"
    dw = f["drive_writes"]
    age = ("" if dw == 0 else
           f" {word(dw).capitalize()} drive-write{'' if dw == 1 else 's'} of uniform random overwrites after "
           "the fill scatters cold data over the blocks, as on a used drive: without it these small traces never "
           "make GC move anything.")
    setup = (
        f"**Setup** (`{f['config']}`, sweeps in `explore/sweeps/haml*.yaml`). A small SSD: {size(f['flash'])} of "
        f"flash ({f['channels']} channels x {f['dies_per_channel']} dies{planes} x {f['blocks_per_plane']} blocks x "
        f"{f['pages_per_block']} pages x {size(f['page'])}), {size(f['exported'])} exported ({pct(f['spare'])} "
        f"spare), {'''HAML-SSD's ''' if f['timing'] == paper_timing else ''}timing ({duration(tr)} / "
        f"{duration(tp)} / {duration(te)}), {f['gc_policy']} GC below {f['gc_threshold']} free blocks. The "
        f"paper's method: a sequential fill of {fill}, then {first} of the workload replayed functionally (the "
        f"firmware's clock follows the trace's timestamps, so the monitor trains on it), then {then} timed; all "
        f"figures are over the {_timed(f)}.{age}")
    fold = "folded into the namespace (LBA modulo capacity) and looped" if f["lba_wrap"] else "looped"
    scaling = (
        f"**Scaling** from the paper's {PAPER['capacity_label']} drive (1/{num(f['scale'], 1)} in capacity): "
        f"slices of {size(f['slice'])} give {f['slices']:,} slices ({PAPER['slice_label']} slices give "
        f"{PAPER['slices']:,} on {PAPER['capacity_label']}); the period T is {_period_text(f)} (the paper: "
        f"{PAPER['period_label']} periods over traces of {PAPER['trace_span']}). The bundled traces are small, so "
        f"each is {fold}: {_trace_text(f)}. The WebSearch trace is left out: {WEBSEARCH['writes']} writes in "
        f"{WEBSEARCH['requests']:,} requests. {_synthetic_text(f)}")
    iv = f["hotis_interval"]
    interval = and_list(("T" if x == 1 else f"T/{x.denominator}" if x.numerator == 1 else f"{x}T") for x in iv)
    wear = ("free blocks by erase count (hot classes take young blocks, cold classes and GC old ones)"
            if f["block_choice"] == "erase_count" else "free blocks in the order they were freed")
    migrate = (f"cold-data migration when erase counts spread by more than {f['wear_threshold']}"
               if f["wear_threshold"] else "no cold-data migration")
    runs = ("One run per point (the workloads are deterministic)." if f["runs"] == 1
            else f"{word(f['runs']).capitalize()} runs per point (seeds).")
    if f["oracle_streams"] != "oracle":
        raise SetupError(f"host.streams: {f['oracle_streams']} on the stream points: the setup text describes "
                         "them as the oracle (host.streams: oracle)")
    policies = (
        "**Policies** (`ftl.placement.policy`): `single` puts host and GC data on one frontier (no separation: the "
        "stand-in for Auto-SSD on one application); `double` separates host and GC data; `hotis` has "
        f"{word(f['hotis_classes'])} classes by constant thresholds (at least {f['hotis_min_writes']} writes in "
        f"the period and a mean interval of at most {interval}); `asa` is ASA-FTL's K-Means on update frequency "
        f"only with K = {f['asa_classes']}; `haml` is HAML-SSD's 2-D K-Means with K = {f['haml_k']}; `oracle` "
        "(`stream` with `host.streams: oracle`) places each write by its real next overwrite, found by a "
        "host-side pre-pass (docs/firmware.md, \"Placement\"). All policies use the same wear levelling: "
        f"{wear} and {migrate}. {runs}")
    return "\n\n".join(wrap(p) for p in (setup, scaling, policies))


def wrap(paragraph: str) -> str:
    """haml_findings._wrap, which also keeps a size's or a time's unit on its number's line."""
    return _wrap(re.sub(r"(?<=\d) (B|KiB|MiB|GiB|TiB|s|ns)\b", "\0\\1", paragraph))


def text(root: Path | str = REPO_ROOT, data_dir: Path | str | None = None, **kw) -> str:
    """The setup text from the repository at root and the results in data_dir (default docs/results)."""
    table = Path(data_dir) / TABLE if data_dir else None
    return render(facts(root, table=table, **kw))
