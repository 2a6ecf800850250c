#!/usr/bin/env python3
"""Compare ssdvp summaries field by field, before and after a change.

    scripts/compare-summaries.py REF NEW [--ignore KEY]... [--files NAME]...

REF and NEW are two summary.json files, or two directories: then every
summary.json under REF (at any depth, e.g. /tmp/ref/small/summary.json) is
compared with the file at the same relative path under NEW, and a file that
is missing on either side is a difference. With --files, the named output
files (e.g. timeseries.csv) are compared too, byte for byte.

Fields that measure the machine rather than the simulation are left out:
wall-clock and CPU time, speed, memory and the version string (ssdvp_version,
run.wall_s, run.cpu_s, run.host_ios_per_s, run.peak_rss_mb); --ignore adds a key name
(matched at any depth) or a dotted path. Numbers are compared exactly: the
simulation is deterministic, so a refactoring that keeps the behaviour keeps
every digit.

Prints one line per differing field (path, REF value, NEW value) and a line
per compared file; exit status 0 when everything matches, 1 when anything
differs, 2 on a usage error. Standard library only, for the structural
steps of issue 34 and later ones.
"""
import argparse
import json
import os
import sys

IGNORED = {"ssdvp_version", "wall_s", "cpu_s", "host_ios_per_s", "peak_rss_mb"}


def walk(ref, new, path, ignored, out):
    """Appends (path, ref, new) for every leaf where ref and new differ."""
    if isinstance(ref, dict) and isinstance(new, dict):
        for k in sorted(set(ref) | set(new)):
            p = f"{path}.{k}" if path else k
            if k in ignored or p in ignored:
                continue
            if k not in ref or k not in new:
                out.append((p, ref.get(k, "<missing>"), new.get(k, "<missing>")))
            else:
                walk(ref[k], new[k], p, ignored, out)
    elif isinstance(ref, list) and isinstance(new, list):
        if len(ref) != len(new):
            out.append((f"{path}[len]", len(ref), len(new)))
        for i, (a, b) in enumerate(zip(ref, new)):
            walk(a, b, f"{path}[{i}]", ignored, out)
    elif type(ref) is not type(new) or ref != new:
        out.append((path, ref, new))


def short(v):
    s = json.dumps(v)
    return s if len(s) <= 60 else s[:57] + "..."


def compare_file(ref, new, ignored):
    with open(ref) as f:
        a = json.load(f)
    with open(new) as f:
        b = json.load(f)
    diffs = []
    walk(a, b, "", ignored, diffs)
    return diffs


def pairs(ref, new, extra):
    """(relative name, ref path, new path) of every file to compare."""
    if os.path.isfile(ref):
        return [(os.path.basename(ref), ref, new)]
    names = {"summary.json", *extra}
    found = set()
    for top in (ref, new):
        for d, _, files in os.walk(top):
            for f in files:
                if f in names:
                    found.add(os.path.relpath(os.path.join(d, f), top))
    return [(r, os.path.join(ref, r), os.path.join(new, r)) for r in sorted(found)]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("ref")
    ap.add_argument("new")
    ap.add_argument("--ignore", action="append", default=[], help="a key name or dotted path to leave out")
    ap.add_argument("--files", action="append", default=[], help="another output file to compare byte for byte")
    a = ap.parse_args()
    if not os.path.exists(a.ref) or not os.path.exists(a.new):
        print("compare-summaries: no such file or directory", file=sys.stderr)
        return 2
    ignored = IGNORED | set(a.ignore)
    bad = 0
    todo = pairs(a.ref, a.new, a.files)
    if not todo:
        print("compare-summaries: no summary.json found", file=sys.stderr)
        return 2
    for rel, r, n in todo:
        if not os.path.exists(r) or not os.path.exists(n):
            print(f"{rel}: only in {'NEW' if not os.path.exists(r) else 'REF'}")
            bad += 1
            continue
        if rel.endswith(".json"):
            diffs = compare_file(r, n, ignored)
            for p, x, y in diffs:
                print(f"{rel}: {p}: {short(x)} -> {short(y)}")
            print(f"{rel}: {'identical' if not diffs else f'{len(diffs)} field(s) differ'}")
        else:
            with open(r, "rb") as f, open(n, "rb") as g:
                diffs = [1] if f.read() != g.read() else []
            print(f"{rel}: {'identical' if not diffs else 'differs'}")
        bad += bool(diffs)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
