"""Named recorded workloads: the real applications on ext4 that
scripts/workloads/record.sh recorded on the simulated drive and
traces/workloads/ bundles (docs/results/workloads.md).

A sweep takes them by name (``workloads: [fio-randwrite-512k, postmark]``, an
axis like ``traces``): each name becomes ``workload.source: trace``, the
unpacked recording as ``workload.trace``, ``workload.format: fio`` and
``workload.fio_time_unit_ps: 1`` (the recordings' times are picoseconds). The
recording is unpacked once into out/workloads/unpacked/ under the checkout,
after its sha256 is checked against NAME.json beside it. Replay them on
configs/workloads.yaml (the 4 GiB drive they were recorded on) or a drive at
least that large.

read_iolog() is the one Python reader of these recordings (fio iolog v2 or
v3, plain or .xz): scripts/workloads/characterise.py and
scripts/haml_tables.py use it. It reads what the simulator's fio reader
(platform/host/workload/trace_readers.cpp) reads and refuses what it
refuses, with an error naming the file, the line and what was expected.
"""
from __future__ import annotations

import hashlib
import json
import lzma
from dataclasses import dataclass
from pathlib import Path

import numpy as np

DIR = "traces/workloads"
# What one unit of a recording's timestamps is, in ps (the simulator's
# workload.fio_time_unit_ps for them; its default is fio's microsecond).
TIME_UNIT_PS = 1

# The I/O actions of a fio iolog, by code (Iolog.op). sync and datasync are
# both a flush to the simulator.
OPS = ("read", "write", "trim", "sync", "datasync")
READ, WRITE, TRIM, SYNC, DATASYNC = range(len(OPS))
_FILE_ACTIONS = ("add", "open", "close")
_HEADERS = {"fio version 2 iolog": 2, "fio version 3 iolog": 3}
_PS_PER_US = 1_000_000


class IologError(ValueError):
    """A line a fio iolog reader cannot take: 'PATH:LINE: expected WHAT, got 'TEXT''."""


@dataclass(frozen=True)
class Iolog:
    """A fio iolog's I/O records in file order, one array element each.

    time_ps: v3, the record's timestamp times time_unit_ps; v2, the sum of
    the wait lines before it (microseconds) in ps. op: codes into OPS.
    offset, length: bytes (0 for a sync without them). line: the record's
    line number in the file (1 is the header)."""
    path: str
    version: int
    time_ps: np.ndarray
    op: np.ndarray
    offset: np.ndarray
    length: np.ndarray
    line: np.ndarray

    def __len__(self) -> int:
        return len(self.op)

    def count(self, op: int) -> int:
        return int((self.op == op).sum())


def _open_text(path: Path):
    return lzma.open(path, "rt") if path.name.endswith(".xz") else open(path)


def read_iolog(path, *, time_unit_ps: int) -> Iolog:
    """Every I/O record of the fio iolog at path (v2 or v3; .xz unpacked on the fly).

    time_unit_ps: what one unit of a v3 timestamp is, as the simulator's
    workload.fio_time_unit_ps (TIME_UNIT_PS for the recordings here, whose
    times are picoseconds; 1000000 for fio's own write_iolog). Blank lines are
    skipped, so are file actions (add, open, close) and, in v3, wait. Anything
    else that is not a record raises IologError naming the file and line."""
    path = Path(path)
    t, op, off, ln, lines = [], [], [], [], []
    version = 0
    wait_ps = 0
    with _open_text(path) as f:
        lineno = 0
        for lineno, raw in enumerate(f, 1):
            text = raw.rstrip("\r\n")
            p = text.split()
            if not p:
                continue

            def fail(what: str, got: str = text) -> None:
                raise IologError(f"{path}:{lineno}: expected {what}, got '{got}'")

            if version == 0:
                version = _HEADERS.get(text.strip(), 0)
                if not version:
                    fail("the header 'fio version 2 iolog' or 'fio version 3 iolog'")
                continue
            i = 0
            if version == 3:
                if len(p) < 3:
                    fail("'timestamp filename action [offset length]'")
                ts = _int(p[0], "timestamp (field 1)", fail) * time_unit_ps
                i = 1
            elif len(p) < 2:
                fail("'filename action [offset length]'")
            action, args = p[i + 1], p[i + 2:i + 4]
            if action in _FILE_ACTIONS:
                continue
            if action == "wait":
                if version == 2:
                    if not args:
                        fail("a wait time in microseconds after 'wait'")
                    wait_ps += _int(args[0], "wait time (microseconds)", fail) * _PS_PER_US
                continue
            if action not in OPS:
                fail("a fio action (read, write, trim, sync, datasync, add, open, close, wait)", action)
            code = OPS.index(action)
            if code in (SYNC, DATASYNC):
                o, n = (_int(args[0], "offset (bytes)", fail) if args else 0), 0
            else:
                if len(args) < 2:
                    fail(f"'offset length' after '{action}'")
                o, n = _int(args[0], "offset (bytes)", fail), _int(args[1], "length (bytes)", fail)
            t.append(ts if version == 3 else wait_ps)
            op.append(code)
            off.append(o)
            ln.append(n)
            lines.append(lineno)
        if version == 0:
            raise IologError(f"{path}:{lineno + 1}: expected the header 'fio version 2 iolog' or "
                             "'fio version 3 iolog', got the end of the file")
    return Iolog(str(path), version, np.array(t, dtype=np.int64), np.array(op, dtype=np.int8),
                 np.array(off, dtype=np.int64), np.array(ln, dtype=np.int64), np.array(lines, dtype=np.int64))


def _int(field: str, what: str, fail) -> int:
    if not (field.isascii() and field.isdigit()):
        fail(f"{what} as a non-negative integer", field)
    return int(field)


def names(root: Path) -> list[str]:
    """The bundled recordings, by name."""
    return sorted(p.name[: -len(".iolog.xz")] for p in (Path(root) / DIR).glob("*.iolog.xz"))


def provenance(root: Path, name: str) -> dict:
    """NAME.json: how the recording was made (scripts/workloads/record.sh)."""
    return json.loads((Path(root) / DIR / f"{name}.json").read_text())


def unpack(root: Path, name: str) -> Path:
    """The recording unpacked (out/workloads/unpacked/NAME.iolog), its sha256 checked."""
    root = Path(root)
    if name not in names(root):
        raise ValueError(f"no recorded workload '{name}' (known: {', '.join(names(root)) or 'none'})")
    prov = provenance(root, name)
    dst = root / "out" / "workloads" / "unpacked" / f"{name}.iolog"
    stamp = dst.with_suffix(".sha256")
    if dst.is_file() and stamp.is_file() and stamp.read_text().strip() == prov["sha256_iolog"]:
        return dst
    packed = (root / DIR / f"{name}.iolog.xz").read_bytes()
    if hashlib.sha256(packed).hexdigest() != prov["sha256_xz"]:
        raise ValueError(f"{DIR}/{name}.iolog.xz: sha256 differs from {name}.json")
    raw = lzma.decompress(packed)
    if hashlib.sha256(raw).hexdigest() != prov["sha256_iolog"]:
        raise ValueError(f"{DIR}/{name}.iolog.xz: the unpacked log's sha256 differs from {name}.json")
    dst.parent.mkdir(parents=True, exist_ok=True)
    dst.write_bytes(raw)
    stamp.write_text(prov["sha256_iolog"] + "\n")
    return dst


def overrides(root: Path, name: str) -> dict[str, str]:
    """The --set overrides that replay recorded workload NAME."""
    path = unpack(root, name)
    return {"workload.source": "trace", "workload.trace": str(path.relative_to(Path(root))),
            "workload.format": "fio", "workload.fio_time_unit_ps": str(TIME_UNIT_PS)}
