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
"""
from __future__ import annotations

import hashlib
import json
import lzma
from pathlib import Path

DIR = "traces/workloads"


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
            "workload.format": "fio", "workload.fio_time_unit_ps": "1"}
