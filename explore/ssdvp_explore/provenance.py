"""Provenance of a result page's data, with the standard library only.

A page's data folder (docs/results/<page>/) holds ``provenance.json``, written
when the data was made and read when the page is rendered:

    {"commit": "<sha of the source tree>", "dirty": [changed files],
     "ssdvp": "<ssdvp --version>", "binary_sha256": "<hex>",
     "command": "<what regenerates the data>", "invocation": "<what was run>",
     "date": "<UTC ISO 8601>", "load": [1 min, 5 min, 15 min load averages],
     "cpus": N, "wall_s": ...}

``command`` is the page's canonical command; ``invocation`` is the process's
own command line (its options included, e.g. ``--jobs 1``), recorded by
collect() itself so that no script can leave its options out.

Nothing here needs pandas, YAML or the simulator's Python dependencies, so a
script run with any python3 records the same fields (the old path printed
"not recorded: No module named 'pandas'" instead).
"""
from __future__ import annotations

import datetime
import hashlib
import json
import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

FILE = "provenance.json"


def git(root: Path | str, *args: str) -> str | None:
    try:
        r = subprocess.run(["git", "-C", str(root), *args], capture_output=True, text=True, timeout=60)
    except (OSError, subprocess.TimeoutExpired):
        return None
    return r.stdout.rstrip("\n") if r.returncode == 0 else None


def sha256(path: Path | str) -> str | None:
    try:
        h = hashlib.sha256()
        with open(path, "rb") as f:
            for chunk in iter(lambda: f.read(1 << 20), b""):
                h.update(chunk)
        return h.hexdigest()
    except OSError:
        return None


def binary_version(binary: Path | str) -> str | None:
    try:
        r = subprocess.run([str(binary), "--version"], capture_output=True, text=True, timeout=30,
                           env={**os.environ, "SC_COPYRIGHT_MESSAGE": "DISABLE"})
    except (OSError, subprocess.TimeoutExpired):
        return None
    return r.stdout.strip() if r.returncode == 0 and r.stdout.strip() else None


def changed_files(root: Path | str, skip: list[str] = ()) -> list[str]:
    """Uncommitted (or untracked) files of the tree, except under the ``skip`` prefixes."""
    status = git(root, "status", "--porcelain", "--untracked-files=all") or ""
    out = []
    for ln in status.splitlines():
        f = ln[3:].split(" -> ")[-1]
        if f and not any(f.startswith(s) for s in skip):
            out.append(f)
    return out


def utc(t: datetime.datetime | None = None) -> str:
    """A time (default now) as UTC ISO 8601, to the second."""
    t = datetime.datetime.now(datetime.timezone.utc) if t is None else t
    return t.astimezone(datetime.timezone.utc).replace(microsecond=0).isoformat()


def load_average() -> list[float] | None:
    """The machine's 1, 5 and 15 minute load averages now (None where the system has none)."""
    try:
        return [round(x, 2) for x in os.getloadavg()]
    except OSError:
        return None


def invocation(root: Path | str, argv: list[str] | None = None) -> str:
    """This process's command line (``argv``, default sys.argv), its program named relative to ``root`` when
    it lies inside it, as a shell would take it."""
    argv = list(sys.argv if argv is None else argv)
    if not argv or not argv[0] or argv[0] == "-c":
        return ""
    prog = Path(argv[0]).resolve()
    if prog.name == "__main__.py" and prog.parent.name == "ssdvp_explore":  # python3 -m, as explore/ssdvp-explore runs it
        prog = prog.parent.parent / "ssdvp-explore"
    try:
        argv[0] = str(prog.relative_to(Path(root).resolve()))
    except ValueError:
        argv[0] = os.path.basename(argv[0])
    if argv[0].endswith(".py"):
        argv.insert(0, "python3")
    return " ".join(shlex.quote(a) for a in argv)


def collect(binary: Path | str | None, command: str, root: Path | str, skip: list[str] = (),
            wall_s: float | None = None, invoked: str | None = None) -> dict:
    """The provenance of data made now, from ``binary`` in the tree at ``root``.
    ``skip``: path prefixes (the pages being written) left out of the dirty check; ``invoked``: the command line
    that made the data, when it is not this process's own (default: this process's, invocation())."""
    prov = {"commit": git(root, "rev-parse", "HEAD"), "dirty": changed_files(root, skip),
            "binary": str(binary) if binary else None,
            "ssdvp": binary_version(binary) if binary else None,
            "binary_sha256": sha256(binary) if binary else None, "command": command,
            "invocation": invocation(root) if invoked is None else invoked, "date": utc(), "load": load_average(), "cpus": os.cpu_count()}
    if wall_s is not None:
        prov["wall_s"] = round(wall_s, 1)
    return prov


def problems(prov: dict) -> list[str]:
    """Why the data would not be reproducible from its commit (empty: it is)."""
    out = []
    if not prov.get("commit"):
        out.append("no source commit recorded")
    if prov.get("dirty"):
        d = prov["dirty"]
        out.append(f"the source tree had uncommitted changes ({', '.join(d[:5])}{', ...' if len(d) > 5 else ''})")
    if prov.get("binary") and not prov.get("binary_sha256"):
        out.append(f"the simulator binary {prov['binary']} was not found")
    v = prov.get("ssdvp") or ""
    if "-dirty" in v:
        out.append(f"the simulator was built from a tree with uncommitted changes ({v})")
    m = re.search(r"\+([0-9a-f]{7,40})\b", v)
    if m and prov.get("commit") and not prov["commit"].startswith(m.group(1)):
        out.append(f"the simulator was built from commit {m.group(1)}, the tree was at {prov['commit'][:12]}")
    return out


def write(prov: dict, folder: Path | str, name: str = FILE) -> Path:
    """Write prov as folder/name (a page whose data is made in parts may keep one file per part)."""
    p = Path(folder) / name
    p.parent.mkdir(parents=True, exist_ok=True)
    p.write_text(json.dumps(prov, indent=1, sort_keys=True) + "\n")
    return p


def read(folder: Path | str, name: str = FILE) -> dict | None:
    try:
        return json.loads((Path(folder) / name).read_text())
    except (OSError, ValueError):
        return None


def section(prov: dict | None, command: str | None = None, heading: str = "## Provenance") -> str:
    """The markdown provenance section of a page (from its provenance.json)."""
    lines = [heading, ""]
    if not prov:
        return "\n".join(lines + ["- not recorded (no provenance.json with the data)",
                                  *([f"- command: `{command}`"] if command else []), ""])
    if prov.get("ssdvp") or prov.get("binary_sha256"):
        lines.append(f"- ssdvp: `{prov.get('ssdvp') or '?'}`"
                     + (f", binary sha256 `{prov['binary_sha256']}`" if prov.get("binary_sha256") else ""))
    lines.append(f"- source tree: commit {prov.get('commit') or 'not recorded'}")
    shown = command or prov.get("command") or "not recorded"
    lines.append(f"- command: `{shown}`")
    if prov.get("invocation") and prov["invocation"] != shown:
        lines.append(f"- run as: `{prov['invocation']}`")
    when = prov.get("date")
    if when:
        load = prov.get("load")
        lines.append(f"- date: {when}" + (f"; load average {load[0]:g} / {load[1]:g} / {load[2]:g} on "
                                          f"{prov.get('cpus') or '?'} CPUs" if load else ""))
    if prov.get("wall_s") is not None:
        lines.append(f"- wall time: {prov['wall_s']:g} s")
    if prov.get("note"):
        lines.append(f"- note: {prov['note']}")
    lines += [f"- **not reproducible as is**: {p}" for p in problems(prov)]
    return "\n".join(lines) + "\n"
