"""haml_double_stalls.py's reading of a run's samples: the free pool during each slow write's life, and what
samples a second apart would have shown."""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "scripts"))
import haml_double_stalls as hds  # noqa: E402


def write_series(path, rows):
    with open(path, "w") as f:
        f.write("time_s,free_blocks,write_max_us,write_p99_us\n")
        for t, free, wmax in rows:
            f.write(f"{t:.6f},{free},{'' if wmax is None else wmax},\n")


def test_a_slow_write_is_matched_with_the_pool_during_its_life(tmp_path):
    # 1 ms samples over 2 s; the pool is 17 except a dip to 4 at 0.500-0.502 s and to 10 at 1.200 s
    rows = []
    for i in range(1, 2001):
        t = i / 1000
        free = 4 if 500 <= i <= 502 else 10 if i == 1200 else 17
        wmax = None if i == 7 else 20.0          # an interval without writes
        if i == 505:
            wmax = 4000.0    # completed at 0.505 s after 4 ms: its life spans the dip (floor 4)
        if i == 1203:
            wmax = 2500.0    # its life reaches back to 1.2 s: 10 blocks, above the floor
        if i == 1900:
            wmax = 1500.0    # a slow write in a full second
        rows.append((t, free, wmax))
    write_series(tmp_path / "ts.csv", rows)
    iv = hds.intervals(tmp_path / "ts.csv", 4)
    assert iv["iv.n"] == 2000 and iv["iv.at_floor"] == 3 and iv["iv.min_free"] == 4
    assert iv["iv.slow"] == 3 and iv["iv.slow_at_floor"] == 1
    assert iv["iv.slow_free_min"] == 4 and iv["iv.slow_free_max"] == 17
    # both whole seconds end at 17 (the most), and each holds a slow write
    assert iv["iv.seconds"] == 2 and iv["iv.seconds_top"] == 17 and iv["iv.seconds_full"] == 2
    assert iv["iv.seconds_full_slow"] == 2
