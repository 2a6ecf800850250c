"""scripts/live_vs_replay.py (docs/results/live-vs-replay.md): the application's own figures read from a guest's
log, a live run's config, and the per-drive-history comparisons the page prints."""
import importlib.util
import math
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
spec = importlib.util.spec_from_file_location("live_vs_replay", REPO / "scripts" / "live_vs_replay.py")
lvr = importlib.util.module_from_spec(spec)
spec.loader.exec_module(lvr)


def test_fio_bandwidth_is_the_rounds_bytes_over_their_runtime():
    # two rounds of fio's terse fields 47-50 (write KiB;KiB/s;IOPS;runtime ms), behind the console's escapes
    log = "noise\n\x1b[0mWL-APP 1000;100;25;10000\nWL-ROUND 0 written=5MiB\nWL-APP 3000;300;75;10000\n"
    rate, secs = lvr.app_figures("fio-journal", log)
    assert secs == 20.0
    assert rate == pytest.approx(4000 * 1024 / 1e6 / 20, abs=1e-3)


def test_sysbench_rate_is_transactions_over_the_timed_rounds():
    log = ("WL-SYSBENCH round=0 transactions: 600 (10.00 per sec.) queries: 12000 (200.0 per sec.)\n"
           "WL-SYSBENCH round=1 transactions: 1200 (20.00 per sec.) queries: 24000 (400.0 per sec.)\n")
    rate, secs = lvr.app_figures("mariadb-oltp", log)
    assert (rate, secs) == (15.0, 120.0)


def test_no_rounds_gives_no_rate():
    assert lvr.app_figures("fio-journal", "WL-DONE\n") == ("", 0.0)


def test_live_config_is_the_drive_with_the_arm_paced_and_an_absolute_layout(tmp_path):
    yaml = pytest.importorskip("yaml")
    path = tmp_path / "c.yaml"
    lvr.live_config(str(path), "fio-journal", "journal-separated", 2)
    cfg = yaml.safe_load(path.read_text())
    assert cfg["nbd"]["time"] == "paced"
    assert cfg["precondition"] == {"random_drive_writes": 1.0, "seed": 2}
    assert cfg["host"]["streams"] == "journal" and cfg["ftl"]["placement"]["policy"] == "stream"
    assert Path(cfg["host"]["files"]["ext4"]["layout"]).is_absolute()
    assert cfg["flash"]["channels"] == 4  # the base drive's keys kept


def test_changes_pair_the_same_drive_history():
    a = {1: 2.0, 2: 3.0, 3: 9.0}
    b = {1: 4.0, 2: 3.0}
    assert lvr.change(a, b) == [-50.0, 0.0]
    assert lvr.change(a, b, ratio=True) == [0.5, 1.0]
    assert math.isnan(lvr.num("x"))
