#!/usr/bin/env python3
"""Write an MSNFS-like synthetic block trace (MQSim/DiskSim ASCII) matched to
the RAID GC-scheduling slides' workload table: 11.61 % reads, mean read
9.02 KiB, mean write 15.75 KiB, mean inter-arrival 55.66 ms (Poisson
arrivals). Sizes are whole 4 KiB pages, 1 + Poisson(mean/4 KiB - 1), so the
means hold in expectation; addresses are 4 KiB aligned, 80 % of requests on
the first 20 % of a 600 MiB space (a file server's hot set), uniform inside
each part. Deterministic for a seed (Python's random.Random).

    explore/raid_msnfs_trace.py -o traces/msnfs-like.ascii --requests 20000 --seed 1
"""
import argparse
import math
import random


def poisson(rng: random.Random, lam: float) -> int:
    # Knuth's method (lam is small here)
    limit, k, p = math.exp(-lam), 0, 1.0
    while True:
        p *= rng.random()
        if p <= limit:
            return k
        k += 1


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("-o", "--out", required=True)
    ap.add_argument("--requests", type=int, default=20000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--read-fraction", type=float, default=0.1161)
    ap.add_argument("--read-kib", type=float, default=9.02)
    ap.add_argument("--write-kib", type=float, default=15.75)
    ap.add_argument("--interarrival-ms", type=float, default=55.66)
    ap.add_argument("--space-mib", type=int, default=600)
    a = ap.parse_args()
    rng = random.Random(a.seed)
    pages = a.space_mib * 256
    hot = pages // 5
    t = 0.0
    with open(a.out, "w") as f:
        for _ in range(a.requests):
            read = rng.random() < a.read_fraction
            n = 1 + poisson(rng, (a.read_kib if read else a.write_kib) / 4.0 - 1.0)
            if rng.random() < 0.8:
                start = rng.randrange(0, max(1, hot - n))
            else:
                start = rng.randrange(hot, pages - n)
            f.write(f"{int(round(t))} 0 {start * 8} {n * 8} {1 if read else 0}\n")
            t += rng.expovariate(1.0 / (a.interarrival_ms * 1e6))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
