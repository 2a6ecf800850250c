#!/usr/bin/python3
"""The provenance section of a result page made by a script under scripts/
(fidelity, streams, gc-detector, journal*, host_ftl_gc_copy), in the form
explore's pages use: the commit and the binary's sha256 of the build that made
the data, the command, the date and the machine's load, and whether the tree
or the binary had uncommitted changes. Standard library only
(explore/ssdvp_explore/provenance.py), so any python3 records it.

    from provenance import provenance_section
    page += provenance_section(binary, "python3 scripts/streams_experiment.py",
                               data_dir="docs/results/streams")   # also writes provenance.json there

or, from a shell: provenance.py <ssdvp binary> <command...>
"""
from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "explore"))
from ssdvp_explore import provenance as prov_mod  # noqa: E402


def provenance_section(binary: Path | str, command: str, out_dir: Path | str | None = None,
                       data_dir: Path | str | None = None, wall_s: float | None = None,
                       invoked: str | None = None) -> str:
    """Markdown lines; out_dir (default docs/results) is left out of the dirty-tree check.
    With data_dir, the same record is written to data_dir/provenance.json."""
    out = Path(out_dir) if out_dir else ROOT / "docs" / "results"
    try:
        skip = [out.resolve().relative_to(ROOT).as_posix() + "/"]
    except ValueError:
        skip = []
    prov = prov_mod.collect(binary, command, ROOT, skip=skip, wall_s=wall_s, invoked=invoked)
    if data_dir:
        prov_mod.write(prov, data_dir)
    return prov_mod.section(prov)


if __name__ == "__main__":
    if len(sys.argv) < 3:
        print(__doc__, file=sys.stderr)
        sys.exit(2)
    command = " ".join(sys.argv[2:])  # the shell's caller made the data, not this process
    sys.stdout.write(provenance_section(sys.argv[1], command, invoked=command))
