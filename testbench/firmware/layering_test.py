#!/usr/bin/env python3
"""The FTL's units call downward only.

The layer order is read from the comment at the top of
firmware/ftl/ftl_internal.h (lines " *   name.c  ..."), so the list people read
and the list checked are one. A call from a unit to a function defined in a
unit listed above it (or in ftl_init.c, which only the platform calls) fails.
Function pointers and macros are not followed.

    python3 testbench/firmware/layering_test.py [firmware/ftl]
"""
import glob
import os
import re
import sys


def strip_comments(text):
    return re.sub(r"//[^\n]*", "", re.sub(r"/\*.*?\*/", "", text, flags=re.S))


def layer_order(header):
    top = open(header).read().split("*/", 1)[0]
    return re.findall(r"^ \*   ([a-z_]+\.c)\s", top, re.M)


def main():
    ftl = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "../../firmware/ftl")
    order = layer_order(os.path.join(ftl, "ftl_internal.h"))
    files = sorted(os.path.basename(p) for p in glob.glob(os.path.join(ftl, "*.c")))
    problems = []
    unlisted = [f for f in files if f not in order and f != "ftl_init.c"]
    if len(order) < 5:
        problems.append(f"could not read the layer list from ftl_internal.h (found {order})")
    if unlisted:
        problems.append(f"units missing from the layer list in ftl_internal.h: {' '.join(unlisted)}")
    src, defined_in = {}, {}
    for f in files:
        src[f] = strip_comments(open(os.path.join(ftl, f)).read())
        for m in re.finditer(r"^(?!static\b)[A-Za-z_][\w \*]*?\b([a-z_][a-z0-9_]*)\s*\([^;{]*\)\s*\{", src[f], re.M):
            defined_in.setdefault(m.group(1), f)
    rank = {f: i for i, f in enumerate(order)}
    rank["ftl_init.c"] = -1  # above everything: it may call any unit, none may call it
    for caller, text in src.items():
        for fn, callee in sorted(defined_in.items()):
            if callee == caller or not re.search(r"\b" + fn + r"\s*\(", text):
                continue
            if rank.get(callee, 10**6) <= rank.get(caller, 10**6):
                problems.append(f"{caller} calls {fn}() of {callee}, which is not below it")
    for p in problems:
        print("layering:", p)
    if not problems:
        print(f"layering: {len(files)} units, calls go downward ({' > '.join(order)})")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
