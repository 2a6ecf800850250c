"""Sweep files: loading, validation, expansion into points, and point hashing.

A sweep file is YAML (schema in docs/exploration.md)::

    name: gc-policy
    base: configs/small.yaml
    set: {workload.synthetic.requests: 200000}
    grid: {ftl.gc.policy: [greedy, fifo]}
    traces: [traces/a.ascii]
    seeds: [1, 2]

``workloads: [NAME, ...]`` is an axis of recorded application workloads
(traces/workloads/, explore/ssdvp_explore/workloads.py), each setting the
trace source, path, format and time unit. An entry may be a map
``{name: NAME, set: {key: value}}``: overrides that go with that workload
only (every entry then sets the same keys), e.g. a time scale per recording.

String values may hold ``{workload}`` (the point's recorded-workload name) and
``{seed}`` (its seed), replaced per point: a file one run writes and another
reads, such as ``host.predict.model_out: models/{workload}-s{seed}.model``.
Files a run writes (OUTPUT_KEYS) are not digested into the point's hash: they
are outputs, and hashing them would make the point's identity depend on
whether an earlier run of it left them behind.

Each point is the base config file plus an ordered set of ``--set`` overrides.
Its identity (the cache key) is the sha256 of the canonical merged config: the
base file flattened to dotted keys, the overrides applied on top, the digest of
every file a value names (traces; the RV32 firmware image for ``cpu.mode: iss``),
and the simulator's identity: its version string and the sha256 of the binary,
so a rebuilt simulator never serves cached results, committed or not.
"""
from __future__ import annotations

import hashlib
import itertools
import json
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml


SCHEMA_KEYS = {
    "name", "description", "base", "set", "grid", "zip", "cases", "exclude",
    "traces", "trace_key", "seeds", "seed_key", "timeout_s", "workloads",
}
DEFAULT_TRACE_KEY = "workload.trace"
DEFAULT_SEED_KEY = "workload.synthetic.seed"
OUTPUT_KEYS = {"host.predict.model_out", "host.predict.report"}   # files a run writes, not reads


class SweepError(ValueError):
    """A sweep file is malformed; the message names the file and the key."""


def scalar_str(value: Any, where: str = "value") -> str:
    """The string ssdvp receives for a scalar YAML value (as in ``--set k=v``)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return ""
    if isinstance(value, (int, float, str)):
        return str(value)
    raise SweepError(f"{where}: expected a scalar, got {type(value).__name__} {value!r}")


def flatten(tree: Any, prefix: str = "", out: dict | None = None, lists_as_json: bool = True) -> dict:
    """Nested maps -> {dotted.key: leaf}. Lists become JSON text (one column)."""
    out = {} if out is None else out
    if isinstance(tree, dict):
        for k, v in tree.items():
            key = f"{prefix}.{k}" if prefix else str(k)
            if isinstance(v, dict) and v:
                flatten(v, key, out, lists_as_json)
            elif isinstance(v, (list, tuple)) and lists_as_json:
                out[key] = json.dumps(v, sort_keys=True)
            else:
                out[key] = v
    elif prefix:
        out[prefix] = tree
    return out


def flat_config_strings(tree: Any) -> dict[str, str]:
    """A YAML config flattened to dotted keys with string values (as ssdvp resolves them)."""
    out = {}
    for k, v in flatten(tree).items():
        out[k] = v if isinstance(v, str) else json.dumps(v) if isinstance(v, (dict, list)) else scalar_str(v, k)
    return out


_digest_cache: dict[tuple, str] = {}


def file_digest(path: Path) -> str:
    st = path.stat()
    key = (str(path.resolve()), st.st_size, st.st_mtime_ns)
    if key not in _digest_cache:
        h = hashlib.sha256()
        with open(path, "rb") as f:
            for chunk in iter(lambda: f.read(1 << 20), b""):
                h.update(chunk)
        _digest_cache[key] = h.hexdigest()
    return _digest_cache[key]


@dataclass
class Point:
    """One run of the simulator: base file + overrides, identified by its hash."""
    index: int
    overrides: dict[str, str]          # ordered: set, cases, zip, grid, traces, seeds
    config: dict[str, str]             # base flattened + overrides (what is hashed)
    files: dict[str, str]              # value -> sha256 of the file it names
    hash: str = ""

    def label(self, keys: list[str] | None = None) -> str:
        keys = keys if keys is not None else list(self.overrides)
        return " ".join(f"{k}={self.overrides[k]}" for k in keys if k in self.overrides)


@dataclass
class Sweep:
    path: Path
    name: str
    description: str
    base: Path                        # absolute
    base_arg: str                     # as passed to ssdvp -c (relative to root when inside it)
    root: Path                        # ssdvp runs with this working directory
    set: dict[str, str]
    axes: list[tuple[list[str], list[tuple]]]   # [(keys, [values-tuple...])] in product order
    exclude: list[dict[str, str]]
    timeout_s: float | None
    raw: dict = field(default_factory=dict)
    workload_names: dict[str, str] = field(default_factory=dict)   # workload.trace value -> workload name
    seed_key: str = DEFAULT_SEED_KEY

    @property
    def axis_keys(self) -> list[str]:
        return [k for keys, _ in self.axes for k in keys]

    def base_config(self) -> dict[str, str]:
        with open(self.base) as f:
            tree = yaml.safe_load(f) or {}
        if not isinstance(tree, dict):
            raise SweepError(f"{self.base}: the base config must be a YAML map")
        return flat_config_strings(tree)

    def points(self, ssdvp_version: str = "", firmware: tuple[str, str] | None = None) -> list[Point]:
        """Every point. ``ssdvp_version`` identifies the simulator (runner.binary_identity);
        ``firmware`` is (path, sha256) of the RV32 image ``cpu.mode: iss`` loads when
        ``cpu.iss.firmware`` is not set (runner.iss_firmware): such points hash it too."""
        base = self.base_config()
        combos = itertools.product(*[vals for _, vals in self.axes]) if self.axes else [()]
        out: list[Point] = []
        seen: set[str] = set()
        for combo in combos:
            ov = dict(self.set)
            for (keys, _), values in zip(self.axes, combo):
                ov.update(zip(keys, values))
            if any(all(ov.get(k) == v for k, v in ex.items()) for ex in self.exclude):
                continue
            ov = self._fill(ov)
            cfg = dict(base)
            cfg.update(ov)
            files = {}
            for k, v in sorted(cfg.items()):
                if k in OUTPUT_KEYS:
                    continue
                if v and isinstance(v, str) and len(v) < 4096 and "\n" not in v:
                    p = Path(v) if os.path.isabs(v) else self.root / v
                    try:
                        if p.is_file():
                            files[v] = file_digest(p)
                    except OSError:
                        pass
            if firmware and cfg.get("cpu.mode") == "iss" and not cfg.get("cpu.iss.firmware"):
                files[firmware[0]] = firmware[1]
            pt = Point(index=len(out), overrides=ov, config=cfg, files=files)
            pt.hash = point_hash(cfg, files, ssdvp_version)
            if pt.hash in seen:           # e.g. a grid value equal to the base value twice
                continue
            seen.add(pt.hash)
            out.append(pt)
        return out


    def _fill(self, ov: dict[str, str]) -> dict[str, str]:
        """{workload} and {seed} in the point's values replaced by its workload name and seed."""
        wl = self.workload_names.get(ov.get("workload.trace", ""), "")
        seed = ov.get(self.seed_key, "")
        out = {}
        for k, v in ov.items():
            if "{workload}" in v and not wl:
                raise SweepError(f"{self.path}: {k}: '{{workload}}' needs a workloads axis")
            if "{seed}" in v and not seed:
                raise SweepError(f"{self.path}: {k}: '{{seed}}' needs a seeds axis")
            out[k] = v.replace("{workload}", wl).replace("{seed}", seed)
        return out


def point_hash(config: dict[str, str], files: dict[str, str], ssdvp_version: str) -> str:
    canon = json.dumps({"config": config, "files": files, "ssdvp_version": ssdvp_version},
                       sort_keys=True, separators=(",", ":"), ensure_ascii=True)
    return hashlib.sha256(canon.encode()).hexdigest()


def find_root(start: Path) -> Path:
    """The checkout holding ``start`` (nearest dir with .git), else ``start`` itself."""
    for d in [start, *start.parents]:
        if (d / ".git").exists():
            return d
    return start


def _values(where: str, v: Any) -> list[str]:
    if not isinstance(v, list) or not v:
        raise SweepError(f"{where}: expected a non-empty list of values")
    return [scalar_str(x, where) for x in v]


def _overrides(where: str, m: Any) -> dict[str, str]:
    if m is None:
        return {}
    if not isinstance(m, dict):
        raise SweepError(f"{where}: expected a map of dotted.key: value")
    return {str(k): scalar_str(v, f"{where}.{k}") for k, v in flatten(m, lists_as_json=False).items()}


def load_sweep(path: str | os.PathLike, root: str | os.PathLike | None = None) -> Sweep:
    """Load and check a sweep file. ``root`` (ssdvp's working directory, where base and
    trace paths resolve) defaults to the git checkout holding the file, else its directory."""
    path = Path(path).resolve()
    try:
        return _load(path, root)
    except SweepError as e:
        if str(e).startswith(str(path)):
            raise
        raise SweepError(f"{path}: {e}") from None


def _load(path: Path, root) -> Sweep:
    try:
        with open(path) as f:
            raw = yaml.safe_load(f)
    except yaml.YAMLError as e:
        raise SweepError(f"{path}: {e}") from None
    if not isinstance(raw, dict):
        raise SweepError(f"{path}: a sweep file is a YAML map")
    unknown = sorted(set(raw) - SCHEMA_KEYS)
    if unknown:
        raise SweepError(f"{path}: unknown key(s) {', '.join(unknown)} (known: {', '.join(sorted(SCHEMA_KEYS))})")
    for req in ("name", "base"):
        if req not in raw:
            raise SweepError(f"{path}: missing required key '{req}'")
    name = str(raw["name"])
    if not name or "/" in name or name.startswith("."):
        raise SweepError(f"{path}: name: '{name}' must be a plain directory name")
    root = Path(root).resolve() if root else find_root(path.parent)
    base_rel = str(raw["base"])
    cands = [Path(base_rel)] if os.path.isabs(base_rel) else [path.parent / base_rel, root / base_rel]
    base = next((c.resolve() for c in cands if c.is_file()), None)
    if base is None:
        raise SweepError(f"{path}: base: '{base_rel}' not found (looked in {', '.join(str(c) for c in cands)})")
    try:
        base_arg = str(base.relative_to(root))
    except ValueError:
        base_arg = str(base)

    axes: list[tuple[list[str], list[tuple]]] = []
    cases = raw.get("cases")
    if cases is not None:
        if not isinstance(cases, list) or not cases or not all(isinstance(c, dict) for c in cases):
            raise SweepError(f"{path}: cases: expected a non-empty list of maps")
        flat = [_overrides(f"cases[{i}]", c) for i, c in enumerate(cases)]
        keys = list(dict.fromkeys(k for c in flat for k in c))
        for i, c in enumerate(flat):
            if set(c) != set(keys):
                raise SweepError(f"{path}: cases[{i}]: every case must set the same keys ({', '.join(keys)})")
        axes.append((keys, [tuple(c[k] for k in keys) for c in flat]))
    z = raw.get("zip")
    if z is not None:
        if not isinstance(z, dict) or not z:
            raise SweepError(f"{path}: zip: expected a map of key: [values] of equal length")
        cols = {str(k): _values(f"zip.{k}", v) for k, v in z.items()}
        lens = {len(v) for v in cols.values()}
        if len(lens) != 1:
            raise SweepError(f"{path}: zip: all lists must have the same length")
        axes.append((list(cols), list(zip(*cols.values()))))
    grid = raw.get("grid")
    if grid is not None:
        if not isinstance(grid, dict):
            raise SweepError(f"{path}: grid: expected a map of key: [values]")
        for k, v in grid.items():
            axes.append(([str(k)], [(x,) for x in _values(f"grid.{k}", v)]))
    if raw.get("traces") is not None:
        tk = str(raw.get("trace_key", DEFAULT_TRACE_KEY))
        axes.append(([tk], [(x,) for x in _values("traces", raw["traces"])]))
    workload_names: dict[str, str] = {}
    if raw.get("workloads") is not None:
        from . import workloads
        entries = raw["workloads"]
        if not isinstance(entries, list) or not entries:
            raise SweepError(f"{path}: workloads: expected a non-empty list of names or {{name, set}} maps")
        rows = []
        for i, e in enumerate(entries):
            if isinstance(e, dict):
                extra_keys = set(e) - {"name", "set"}
                if "name" not in e or extra_keys:
                    raise SweepError(f"{path}: workloads[{i}]: expected {{name: NAME, set: {{key: value}}}}")
                wname = scalar_str(e["name"], f"workloads[{i}].name")
                extra = _overrides(f"workloads[{i}].set", e.get("set"))
            else:
                wname, extra = scalar_str(e, f"workloads[{i}]"), {}
            try:
                row = workloads.overrides(root, wname)
            except (ValueError, OSError) as err:
                raise SweepError(f"{path}: workloads: {err}") from None
            workload_names[row["workload.trace"]] = wname
            rows.append({**row, **extra})
        for i, r in enumerate(rows):
            if set(r) != set(rows[0]):
                raise SweepError(f"{path}: workloads[{i}]: every entry must set the same keys "
                                 f"({', '.join(rows[0])})")
        axes.append((list(rows[0]), [tuple(r[k] for k in rows[0]) for r in rows]))
    sk = str(raw.get("seed_key", DEFAULT_SEED_KEY))
    if raw.get("seeds") is not None:
        axes.append(([sk], [(x,) for x in _values("seeds", raw["seeds"])]))
    seen_keys: set[str] = set()
    for keys, _ in axes:
        for k in keys:
            if k in seen_keys:
                raise SweepError(f"{path}: key '{k}' is varied by more than one axis")
            seen_keys.add(k)
    exclude = raw.get("exclude") or []
    if not isinstance(exclude, list) or not all(isinstance(e, dict) for e in exclude):
        raise SweepError(f"{path}: exclude: expected a list of maps")
    timeout = raw.get("timeout_s")
    if timeout is not None and (not isinstance(timeout, (int, float)) or timeout <= 0):
        raise SweepError(f"{path}: timeout_s: expected a positive number of seconds")
    return Sweep(path=path, name=name, description=str(raw.get("description", "")), base=base,
                 base_arg=base_arg, root=root, set=_overrides("set", raw.get("set")), axes=axes,
                 exclude=[_overrides(f"exclude[{i}]", e) for i, e in enumerate(exclude)],
                 timeout_s=float(timeout) if timeout else None, raw=raw, workload_names=workload_names,
                 seed_key=sk)
