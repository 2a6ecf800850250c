"""scripts/haml_scale.py (docs/results/haml.md, paper scale): every point can load
its policy's saved drive, and the table reads the points' summaries."""
import importlib.util
import json
import threading
import time
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
spec = importlib.util.spec_from_file_location("haml_scale", REPO / "scripts" / "haml_scale.py")
hs = importlib.util.module_from_spec(spec)
spec.loader.exec_module(hs)

# Key prefixes a saved drive records and checks on load (docs/state.md; the
# workload's keys only when preconditioning ran the workload, which it does not here).
SHAPING = ("flash.", "ftl.", "precondition.", "nvme.", "dram.", "cpu.", "power.")


def sets(cmd):
    return dict(cmd[i + 1].split("=", 1) for i, a in enumerate(cmd) if a == "--set")


def test_every_point_loads_its_policys_drive_with_the_same_shaping_keys():
    for p in hs.POLICIES:
        for w in hs.WORKLOADS:
            name, d, age = hs.age_cmd("b", "/st", p, w)
            aged = {k: v for k, v in sets(age).items() if k.startswith(SHAPING)}
            assert aged["ftl.placement.policy"] == p
            assert aged["precondition.workload_fraction"] == "0"
            assert age[age.index("--save-state") + 1] == d
            cmd = hs.point_cmd("b", "/st", w, p, 1_000_000)
            assert cmd[cmd.index("--load-state") + 1] == d
            shaping = {k: v for k, v in sets(cmd).items() if k.startswith(SHAPING)}
            assert shaping == aged, (w, p)
            # The 10 M-write traces load drives aged with their own T; the rest share the policy's drive.
            if w in hs.LONG:
                assert name == f"{p}-T32s" and aged["ftl.hot.period"] == "32s"
            else:
                assert name == p and "ftl.hot.period" not in aged


def test_table_reads_summaries(tmp_path, monkeypatch):
    monkeypatch.setattr(hs, "point_dir", lambda w, p, n: str(tmp_path / f"{w}-{p}-{n}"))
    lat = {"mean": 10.0, "p99": 20.0, "p999": 3000.0}
    for p, conf in (("double", [[0, 5, 5]]), ("haml", [[0, 4, 0], [0, 0, 6]])):
        d = tmp_path / f"hotcold-{p}-10"
        d.mkdir()
        (d / "summary.json").write_text(json.dumps({
            "ftl": {"host_lba_writes": 1000, "waf": 2.5, "erases": 7, "gc_runs": 7},
            "latency_us": {"read": lat, "write": lat},
            "placement": {"class_lba_writes": [sum(r) for r in conf], "class_by_stream": conf}}))
        (d / "cmd.json").write_text(json.dumps({"cmd": [], "user_s": 1.0, "sys_s": 0.5, "peak_rss_mb": 100}))
    data = hs.table_rows(["hotcold", "shifting"], ["double", "haml", "asa"], [10, 20])
    rows = hs.paper_scale_table(data).splitlines()
    assert len(rows) == 4  # header, rule, the two points that ran
    double, haml = (r.split("|")[1:-1] for r in rows[2:])
    assert double[1].strip() == "double (host/GC)" and double[11].strip() == ""  # one class: no correlation
    assert haml[1].strip() == "HAML-K"
    assert haml[10].strip() == "0.40"  # hottest class's share of host writes
    assert haml[11].strip() == "1.000"  # classes ordered exactly as death times

    # --csv: the page's data, merged (a rerun point replaces its row) and rendered back to the same table
    import csv
    path = tmp_path / "paper_scale.csv"
    hs.write_csv(data, path)
    hs.write_csv(data[1:], path)
    with open(path, newline="") as f:
        back = list(csv.DictReader(f))
    assert [r["policy"] for r in back] == ["double", "haml"]
    assert hs.paper_scale_table(back).splitlines() == rows
    # points that replace every row (a rerun of them all, with a few writes more): the table's order
    hs.write_csv([dict(r, host_lba_writes=1003) for r in reversed(data)], path)
    with open(path, newline="") as f:
        back = list(csv.DictReader(f))
    assert [(r["policy"], r["host_lba_writes"]) for r in back] == [("haml", "1003"), ("double", "1003")]


# --csv's data files, from a small fake out/haml_scale tree: two synthetic points and a trace point,
# one ageing recorded with its start and load, one (made before the script kept them) dated by its file.
VERSION = "0.1.0+abc1234def56"
TS = "time_s,read_mbps,write_mbps,read_iops,write_iops,gc_lba_moves,erases,free_blocks\n"


def fake_binary(tmp_path, version=VERSION):
    b = tmp_path / "build" / "platform" / "ssdvp"
    b.parent.mkdir(parents=True, exist_ok=True)
    b.write_text(f"#!/bin/sh\necho 'ssdvp {version}'\n")
    b.chmod(0o755)
    return str(b)


def fake_point(root, w, p, n, samples, version=VERSION, start=None):
    """A point's directory: timeseries.csv from samples [(time_s, host LBAs written in the interval,
    GC moves, free blocks)], summary.json, cmd.json."""
    d = Path(hs.point_dir(w, p, n))
    d.mkdir(parents=True)
    rows, t0 = [], 0.0
    for t, host, gc, free in samples:
        rows.append(f"{t},0,{host * 4096 / 1e6 / (t - t0)},0,0,{gc},0,{free}\n")
        t0 = t
    (d / "timeseries.csv").write_text(TS + "".join(rows))
    lat = {"mean": 1.0, "p99": 2.0, "p999": 3.0}
    host = sum(s[1] for s in samples)
    (d / "summary.json").write_text(json.dumps({
        "ssdvp_version": version,
        "ftl": {"host_lba_writes": host, "waf": 2.0, "erases": 1, "gc_runs": 1, "write_stalls": 5,
                "spare": {"effective": 0.1447}},
        "latency_us": {"read": lat, "write": lat},
        "placement": {"class_lba_writes": [host], "class_by_stream": [[host]], "monitor_cpu_s": 0.25,
                      "cluster_runs": 3}}))
    c = {"cmd": ["/abs/build/platform/ssdvp", "run", "--load-state", f"/abs/state/{p}", "-o", "out"],
         "user_s": 10.0, "sys_s": 1.0, "wall_s": 100.0, "peak_rss_mb": 1000.0}
    if start:
        c.update(start_utc=start, load=[3.5, 2.0, 1.0], cpus=2)
    (d / "cmd.json").write_text(json.dumps(c))
    return d


def fake_tree(tmp_path, monkeypatch, versions=(VERSION, VERSION, VERSION)):
    monkeypatch.setattr(hs, "ROOT", str(tmp_path))
    out = tmp_path / hs.OUT
    # hotcold/double: 10 s at 100 host LBAs and 100 GC moves a second (WAF 2), then 20 s at WAF 1.5
    fake_point(tmp_path, "hotcold", "double", 1_000_000,
               [(5, 500, 500, 7), (10, 500, 500, 3), (20, 1000, 500, 9), (30, 1000, 500, 11)], versions[0],
               start="2026-12-01T10:00:00+00:00")
    fake_point(tmp_path, "hotcold", "haml", 1_000_000, [(10, 1000, 3000, 0), (30, 2000, 0, 4)], versions[1])
    fake_point(tmp_path, "msr", "haml", 1_000_000, [(10, 1000, 0, 5), (30, 2000, 2000, 6)], versions[2])
    (out / "age-double.json").write_text(json.dumps(
        {"cmd": ["/abs/build/platform/ssdvp", "run", "--save-state", "/abs/state/double", "--precondition-only"],
         "user_s": 90.0, "sys_s": 3.0, "wall_s": 600.0, "peak_rss_mb": 1350.0,
         "start_utc": "2026-12-01T09:50:00+00:00", "load": [1.25, 1, 1], "cpus": 2}))
    (out / "age-haml.json").write_text(json.dumps(
        {"cmd": ["/abs/build/platform/ssdvp", "run"], "user_s": 95.0, "sys_s": 3.0, "wall_s": 700.0,
         "peak_rss_mb": 1360.0}))
    import datetime
    import os

    def at(path, iso):   # a record made before the script kept its start: its file time is its end
        t = datetime.datetime.fromisoformat(iso).timestamp()
        os.utime(path, (t, t))
    at(out / "age-haml.json", "2026-12-01T09:45:00+00:00")
    at(out / "hotcold-haml-1M" / "cmd.json", "2026-12-01T10:30:00+00:00")
    at(out / "msr-haml" / "cmd.json", "2026-12-01T10:20:00+00:00")
    return fake_binary(tmp_path)


def read(path):
    import csv
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


SEL = (["hotcold", "msr"], ["double", "haml"], [1_000_000])


def test_csv_writes_split_runs_and_provenance_from_the_points(tmp_path, monkeypatch):
    binary = fake_tree(tmp_path, monkeypatch)
    data = tmp_path / "data"
    data.mkdir()
    rows = hs.table_rows(*SEL)
    cmds = hs.commands(str(tmp_path / "build"), [1_000_000], ["double", "haml"], ["hotcold", "msr"], 10)
    assert cmds == ("scripts/haml_scale.py build --state DIR --writes 1000000 --policies double,haml "
                    "--workloads hotcold,msr --clean",
                    "scripts/haml_scale.py build --state DIR --writes 1000000 --policies double,haml "
                    "--workloads hotcold,msr --data-only --csv --split 10")
    hs.write_data(rows, *SEL, str(data / "paper_scale.csv"), 10, binary, cmds)
    assert [r["policy"] for r in read(data / "paper_scale.csv")] == ["double", "haml", "haml"]

    split = {(r["workload"], r["policy"]): r for r in read(data / "paper_scale_split.csv")}
    d = split[("hotcold", "double")]
    assert d["split_s"] == "10" and float(d["waf_first"]) == 2.0 and float(d["waf_after"]) == 1.5
    assert float(d["waf_second_half"]) == 1.5 and d["free_blocks_min_first"] == "3"
    assert d["free_blocks_min_after"] == "9" and float(d["timed_s"]) == 30
    assert d["write_stalls"] == "5" and d["spare_effective"] == "0.1447" and d["classifications"] == "3"
    h = split[("hotcold", "haml")]
    assert float(h["waf_first"]) == 4.0 and float(h["waf_after"]) == 1.0
    assert float(split[("msr", "haml")]["waf_after"]) == 2.0

    runs = read(data / "paper_scale_runs.csv")
    assert [(r["kind"], r["name"]) for r in runs] == [("age", "double"), ("age", "haml"),
                                                       ("point", "hotcold-double-1M"),
                                                       ("point", "hotcold-haml-1M"), ("point", "msr-haml")]
    age, point = runs[0], runs[2]
    assert age["dated_by"] == "recorded" and age["end_utc"] == "2026-12-01T10:00:00+00:00"
    assert age["load_1min"] == "1.25" and age["peak_rss_mib"] == "1350.0"
    assert age["cmd"] == "BUILD/platform/ssdvp run --save-state DIR/double --precondition-only"
    assert point["start_utc"] == "2026-12-01T10:00:00+00:00" and point["end_utc"] == "2026-12-01T10:01:40+00:00"
    assert runs[1]["dated_by"] == "file mtime" and runs[1]["load_1min"] == ""
    assert runs[1]["start_utc"] == "2026-12-01T09:33:20+00:00" and runs[1]["end_utc"] == "2026-12-01T09:45:00+00:00"
    assert runs[3]["dated_by"] == "file mtime"

    from ssdvp_explore import provenance
    prov = provenance.read(data, "paper_scale_provenance.json")
    assert prov["commit"] == "abc1234def56" and prov["ssdvp"] == f"ssdvp {VERSION}"
    assert prov["binary"] == "build/platform/ssdvp" and len(prov["binary_sha256"]) == 64
    assert prov["command"] == cmds[0] and prov["postprocess"] == cmds[1]
    assert prov["points"] == 3 and prov["ageings"] == 2 and prov["split_s"] == 10
    assert prov["first_start"] == "2026-12-01T09:33:20+00:00" and prov["date"] == "2026-12-01T10:30:00+00:00"
    assert prov["load"] == [1.25, 3.5] and prov["cpus"] == 2
    assert provenance.problems(prov) == []


def test_csv_refuses_points_of_two_builds_or_of_a_dirty_tree(tmp_path, monkeypatch):
    import pytest
    binary = fake_tree(tmp_path, monkeypatch, (VERSION, "0.1.0+fedcba987654", VERSION))
    rows = hs.table_rows(*SEL)
    data = tmp_path / "data"
    data.mkdir()
    with pytest.raises(hs.DataError, match=r"not all made by one build.*ssdvp 0\.1\.0\+abc1234def56: hotcold-double-1M, msr-haml; "
                                           r"ssdvp 0\.1\.0\+fedcba987654: hotcold-haml-1M"):
        hs.write_data(rows, *SEL, str(data / "paper_scale.csv"), 20, binary, ("a", "b"))
    assert list(data.iterdir()) == []   # nothing written
    (tmp_path / hs.OUT / "hotcold-haml-1M" / "summary.json").write_text(json.dumps(
        {"ssdvp_version": VERSION + "-dirty"}))
    with pytest.raises(hs.DataError, match=r"uncommitted tree.*-dirty: hotcold-haml-1M"):
        hs.write_data(rows, *SEL, str(data / "paper_scale.csv"), 20, binary, ("a", "b"))


def test_csv_refuses_a_binary_that_is_not_the_points_build_and_rows_it_would_not_replace(tmp_path, monkeypatch):
    import pytest
    fake_tree(tmp_path, monkeypatch)
    rows = hs.table_rows(*SEL)
    data = tmp_path / "data"
    data.mkdir()
    other = fake_binary(tmp_path / "other", "0.1.0+000000000000")
    with pytest.raises(hs.DataError, match=r"is ssdvp 0\.1\.0\+000000000000, the points were made by"):
        hs.write_data(rows, *SEL, str(data / "paper_scale.csv"), 20, other, ("a", "b"))
    hs.write_csv([dict(rows[0], workload="tpcc")], data / "paper_scale.csv")
    with pytest.raises(hs.DataError, match="rows these points do not replace \\(tpcc/double/"):
        hs.write_data(rows, *SEL, str(data / "paper_scale.csv"), 20, fake_binary(tmp_path), ("a", "b"))


def test_jobs_run_each_drive_in_order_and_stop_at_the_first_failure(tmp_path, monkeypatch):
    """--jobs: each saved drive is aged before its points, which run in turn; drives run side by side,
    every point still runs once; a failing run raises RunError and no drive starts after it."""
    monkeypatch.setattr(hs, "ROOT", str(tmp_path))
    log, lock, busy = [], threading.Lock(), {"now": 0, "max": 0}

    def record(what):
        with lock:
            log.append(what)
            busy["now"] += 1
            busy["max"] = max(busy["max"], busy["now"])
        time.sleep(0.02)
        with lock:
            busy["now"] -= 1

    monkeypatch.setattr(hs, "age", lambda build, state, p, w: record(("age", hs.drive_of(p, w)[0])))
    monkeypatch.setattr(hs, "point", lambda cmd, d: record(("point", Path(d).name)))
    policies, workloads = ["double", "haml"], ["hotcold", "msr-10m"]
    groups = hs.drive_groups("b", str(tmp_path / "st"), policies, workloads, [1_000_000])
    assert [g[1] for g in groups] == ["double", "double-T32s", "haml", "haml-T32s"]
    hs.run_all("b", str(tmp_path / "st"), policies, workloads, [1_000_000], clean=False, jobs=2)
    assert busy["max"] == 2  # two drives' runs at a time, not more
    points = [name for kind, name in log if kind == "point"]
    assert sorted(points) == sorted(["hotcold-double-1M", "msr-10m-double", "hotcold-haml-1M", "msr-10m-haml"])
    for p, drive, mine in groups:
        aged = log.index(("age", drive))
        assert all(log.index(("point", Path(d).name)) > aged for _, _, d in mine)

    # A failure: the drive under way ends, no other drive starts, and the error reaches the caller.

    def failing(cmd, d):
        record(("point", Path(d).name))
        if "double" in Path(d).name:
            raise hs.RunError(f"exit 1: {d}")

    monkeypatch.setattr(hs, "point", failing)
    for jobs in (1, 2):
        log.clear()
        with pytest.raises(hs.RunError, match="hotcold-double-1M"):
            hs.run_all("b", str(tmp_path / "st"), policies, workloads, [1_000_000], clean=False, jobs=jobs)
        if jobs == 1:
            assert log == [("age", "double"), ("point", "hotcold-double-1M")]
        else:  # two at a time: the other drive's run under way ends; nothing starts after the failure
            assert sorted(log[:2]) == [("age", "double"), ("age", "double-T32s")], log
            assert not any("haml" in name for _, name in log), log
