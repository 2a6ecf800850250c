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


def test_harness_wait_is_wall_wait_less_simulated_latency(tmp_path):
    # ssdvp serve --record's per-request times: 99 requests that waited 10 us beyond their 100 us simulated
    # latency, one that waited 2 ms beyond (the simulator's thread busy elsewhere)
    f = tmp_path / "session.iolog.times.csv"
    rows = ["seq,client,cookie,op,offset,length,fua,sim_arrival_ps,sim_done_ps,wall_arrival_us,wall_reply_us,error"]
    for i in range(100):
        extra = 2000.0 if i == 42 else 10.0
        rows.append(f"{i},0,{i},write,0,4096,0,{i * 10**9},{i * 10**9 + 100 * 10**6},{i * 1000.0},"
                    f"{i * 1000.0 + 100 + extra},0")
    f.write_text("\n".join(rows) + "\n")
    mean, p99, over, busy = lvr.harness(str(f))
    assert mean == pytest.approx((99 * 10 + 2000) / 100, abs=0.1)
    assert p99 == 2000.0
    assert over == 1.0
    # one request of 100 us every 1 ms, none overlapping: 100 x 100 us busy in a session of 99.1 ms
    assert busy == pytest.approx(100 * 100 * 100 / 99100, abs=0.01)


def test_drive_busy_counts_overlapping_requests_once(tmp_path):
    f = tmp_path / "session.iolog.times.csv"
    head = "seq,client,cookie,op,offset,length,fua,sim_arrival_ps,sim_done_ps,wall_arrival_us,wall_reply_us,error"
    us = 10**6  # ps
    # [0, 40) and [10, 30) overlap: busy 40 us; [60, 100): 40 more; the session spans 0..100 us
    spans = [(0, 40), (10, 30), (60, 100)]
    f.write_text("\n".join([head] + [f"{i},0,{i},read,0,4096,0,{a * us},{b * us},{a}.0,{b}.0,0"
                                     for i, (a, b) in enumerate(spans)]) + "\n")
    assert lvr.harness(str(f))[3] == 80.0


def test_harness_section_skips_runs_that_did_not_record_it():
    old = {"arm": "none", "repeat": "1", "wall_s": "400", "sim_cpu_s": "", "extra_wait_us": ""}
    assert lvr.harness_section(["none"], [old]) == []
    new = [{"arm": a, "repeat": str(k), "wall_s": "400", "sim_cpu_s": str(c), "extra_wait_us": str(w),
            "extra_wait_p99_us": "900", "extra_wait_over_1ms_pct": "0.5", "drive_busy_pct": str(b)}
           for a, c, w, b in (("none", 12, 100, 4), ("lstm", 16, 400, 5)) for k in (1, 2)]
    table = "\n".join(lvr.harness_section(["none", "lstm"], [old] + new))
    assert "| none | 2 | 12.0 ± 0.0 | 3.0 ± 0.0 | 100 ± 0 | 900 ± 0 | 0.50 ± 0.00 | 4.0 ± 0.0 |" in table
    assert "| lstm | 2 | 16.0 ± 0.0 | 4.0 ± 0.0 | 400 ± 0 |" in table
    words = lvr.harness_words(new, "lstm", "none")
    assert "400 ± 0 us beyond its simulated latency under `lstm` against 100 ± 0 us under `none`" in words
    assert "in flight 5.0 ± 0.0 % of the session under `lstm` and 4.0 ± 0.0 % under `none`" in words
    no_busy = [dict(r, drive_busy_pct="") for r in new]
    table = "\n".join(lvr.harness_section(["none", "lstm"], no_busy))
    assert "| none | 2 | 12.0 ± 0.0 | 3.0 ± 0.0 | 100 ± 0 | 900 ± 0 | 0.50 ± 0.00 |\n" in table
    assert "drive busy" not in table, "no run measured it: no column"
    assert "in flight" not in lvr.harness_words(no_busy, "lstm", "none")
    assert lvr.harness_words([old] + new[:2], "lstm", "none") == ""


def test_rounds_are_kept_per_round_and_compared_over_those_every_run_completed():
    log = ("WL-SYSBENCH round=0 transactions: 600 (10.00 per sec.) queries: 12000 (200.0 per sec.)\n"
           "WL-SYSBENCH round=1 transactions: 1200 (20.00 per sec.) queries: 24000 (400.0 per sec.)\n")
    text = lvr.rounds_text(lvr.app_rounds("mariadb-oltp", log))
    assert text == "600/60 1200/60"
    assert lvr.rate_over(text, 1) == 10.0 and lvr.rate_over(text, 2) == 15.0
    assert lvr.rate_over(text, 3) == "" and lvr.rate_over("", 1) == ""
    rows = [{"arm": "none", "repeat": "1", "app_rounds": "600/60 300/60 300/60"},  # slow in a third round
            {"arm": "lstm", "repeat": "1", "app_rounds": "900/60 900/60"}]
    words = lvr.common_rounds_words(rows, "lstm", "none", 2, "sysbench")
    assert "Over the first 2 rounds" in words and "sysbench 2.000 ± 0.000x" in words  # 1800 / 900 over 120 s each
    assert lvr.common_rounds_words(rows, "lstm", "none", 0, "sysbench") == ""
