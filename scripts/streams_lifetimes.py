#!/usr/bin/env python3
"""How well a stream assignment separates data by lifetime (docs/results/streams.md).

Reads the CSV that `ssdvp run --set host.streams_log=FILE` writes (one line per
write and trim: time_ps,op,offset,length,stream) and gives every written LBA
its real death distance, as the oracle does (platform/host/oracle.h): the LBAs
the host writes between this write of the LBA and its next write or trim;
never overwritten in the run: infinite. The death class is the oracle's,
floor(log2(d * 2^(K-1) / L)) clamped to [0, K-2], K-1 for never, so one class
is one doubling of the death distance. Per stream it prints the LBAs written,
the mean death class and its spread, and for the whole assignment:

- spread: the standard deviation of the death class inside a stream, pooled
  over streams (in doublings of the death distance); no streams: the
  workload's own spread; a perfect separation: 0;
- nmi: the mutual information of stream and death class over the class's
  entropy (0: the stream says nothing about when the data dies; 1: it says
  everything);
- streams_used: streams that received at least 1 % of the written LBAs.

    python3 scripts/streams_lifetimes.py LOG.csv [--namespace 896MiB] [--lba-size 4KiB] [--classes 8] [--json]

Python 3 standard library only.
"""
import argparse
import csv
import json
import math
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "explore"))
from ssdvp_explore.units import size_bytes  # noqa: E402


def death_class(d, lbas, classes):
    """The oracle's class of a death distance d (None: never overwritten)."""
    if classes <= 1:
        return 0
    if d is None:
        return classes - 1
    c, x, t = 0, d << (classes - 1), lbas * 2
    while c < classes - 2 and x >= t:
        c += 1
        t <<= 1
    return c


def analyse(path, namespace, lba_size, classes):
    """Per stream: LBAs written and their death classes; and the assignment's spread and nmi."""
    lbas = namespace // lba_size
    writes = []  # (first LBA, count, position, stream) or trims with stream None
    pos = 0
    with open(path) as f:
        r = csv.reader(f)
        head = next(r, None)
        if head != ["time_ps", "op", "offset", "length", "stream"]:
            sys.exit(f"{path}:1: expected the header time_ps,op,offset,length,stream, got {head}")
        for n, row in enumerate(r, start=2):
            try:
                op, off, ln, st = row[1], int(row[2]), int(row[3]), int(row[4])
            except (IndexError, ValueError):
                sys.exit(f"{path}:{n}: expected time_ps,op,offset,length,stream, got {','.join(row)}")
            if op not in ("write", "trim"):
                sys.exit(f"{path}:{n}: expected op write or trim, got '{op}'")
            first, cnt = off // lba_size, max(1, -(-(off % lba_size + ln) // lba_size))
            writes.append((first % lbas, cnt, pos, st if op == "write" else None))
            if op == "write":
                pos += cnt
    nxt = {}  # LBA -> position of its next write or trim
    hist = {}  # stream -> [LBAs per death class]
    for first, cnt, at, st in reversed(writes):
        for k in range(cnt):
            lba = (first + k) % lbas
            here = at + (k if st is not None else 0)
            if st is not None:
                n = nxt.get(lba)
                hist.setdefault(st, [0] * classes)[death_class(None if n is None else n - here, lbas, classes)] += 1
            nxt[lba] = here
    total = sum(sum(h) for h in hist.values())
    if not total:
        sys.exit(f"{path}: no writes")
    per = {}
    within = 0.0
    for st, h in sorted(hist.items()):
        n = sum(h)
        mean = sum(c * x for c, x in enumerate(h)) / n
        var = sum(x * (c - mean) ** 2 for c, x in enumerate(h)) / n
        within += var * n
        per[st] = {"lbas": n, "share": n / total, "mean_class": mean, "sd_class": math.sqrt(var),
                   "never": h[classes - 1] / n}
    cls = [sum(h[c] for h in hist.values()) for c in range(classes)]
    h_cls = -sum(x / total * math.log(x / total) for x in cls if x)
    mi = 0.0
    for h in hist.values():
        n = sum(h)
        for c, x in enumerate(h):
            if x:
                mi += x / total * math.log(x * total / (n * cls[c]))
    allmean = sum(c * x for c, x in enumerate(cls)) / total
    return {"lbas_written": total, "classes": classes,
            "workload_sd_class": math.sqrt(sum(x * (c - allmean) ** 2 for c, x in enumerate(cls)) / total),
            "spread": math.sqrt(within / total), "nmi": mi / h_cls if h_cls > 0 else 0.0,
            "streams_used": sum(1 for p in per.values() if p["share"] >= 0.01),
            "class_share": [x / total for x in cls], "streams": per}


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("log", help="the CSV of host.streams_log")
    ap.add_argument("--namespace", default="896MiB", help="the namespace's size (nvme.namespace_size)")
    ap.add_argument("--lba-size", default="4KiB", help="nvme.lba_size")
    ap.add_argument("--classes", type=int, default=8, help="death classes (ftl.hot.classes)")
    ap.add_argument("--json", action="store_true", help="print the result as JSON")
    a = ap.parse_args()
    r = analyse(a.log, size_bytes(a.namespace), size_bytes(a.lba_size), a.classes)
    if a.json:
        print(json.dumps(r, indent=1))
        return
    print(f"{r['lbas_written']} LBAs written; death class spread inside streams {r['spread']:.2f} "
          f"(the workload's {r['workload_sd_class']:.2f}), nmi {r['nmi']:.3f}, {r['streams_used']} streams used")
    print("stream  share  mean class  sd  never")
    for st, p in r["streams"].items():
        print(f"{st:6d} {p['share']:6.3f} {p['mean_class']:10.2f} {p['sd_class']:4.2f} {p['never']:6.3f}")


if __name__ == "__main__":
    main()
