#!/usr/bin/env python3
"""The provenance section of a result page made by a script under scripts/
(fidelity, streams, gc-detector), in the form explore's pages use: the exact
ssdvp that made it (version and binary digest), the source tree's commit (and
whether it had uncommitted changes) and the command that regenerates it.

    from provenance import provenance_section
    page += provenance_section(binary, "python3 scripts/streams_experiment.py")

or, from a shell: provenance.py <ssdvp binary> <command...>
"""
from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "explore"))



def provenance_section(binary: Path | str, command: str, out_dir: Path | str | None = None) -> str:
    """Markdown lines; out_dir (default docs/results) is left out of the dirty-tree check."""
    try:  # explore's own checks (they need its dependencies: scripts/python-deps.txt)
        from ssdvp_explore.reproduce import source_state
        from ssdvp_explore.runner import binary_identity
    except ImportError as e:
        return f"## Provenance\n\n- not recorded: {e} (run with a Python that has scripts/python-deps.txt)\n- command: `{command}`\n"
    binary = Path(binary)
    tree, problems = source_state(ROOT, binary, Path(out_dir) if out_dir else ROOT / "docs" / "results")
    lines = ["## Provenance", "", f"- ssdvp: `{binary_identity(binary)}`", f"- {tree}", f"- command: `{command}`"]
    lines += [f"- not reproducible as is: {p}" for p in problems]
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    if len(sys.argv) < 3:
        print(__doc__, file=sys.stderr)
        sys.exit(2)
    sys.stdout.write(provenance_section(sys.argv[1], " ".join(sys.argv[2:])))
