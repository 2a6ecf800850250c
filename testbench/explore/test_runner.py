"""Running a sweep against the fake ssdvp: cache, failures, the table."""
import json

import pandas as pd
import pytest

from conftest import runs
from ssdvp_explore.runner import RunnerError, resolve_binary, run_sweep, ssdvp_version
from ssdvp_explore.sweep import load_sweep
from ssdvp_explore.table import build_table, deterministic

SWEEP = """
    name: r
    base: configs/small.yaml
    grid: {ftl.gc.policy: [greedy, fifo, bogus]}
    seeds: [1, 2]
"""


def _run(sweep, fake_bin, **kw):
    kw.setdefault("jobs", 2)
    kw.setdefault("progress", False)
    return run_sweep(sweep, fake_bin, log=lambda m: None, **kw)


def test_sweep_runs_caches_and_reports_failures(make_sweep, fake_bin, run_log, capsys):
    s = load_sweep(make_sweep(SWEEP))
    rep = _run(s, fake_bin)
    assert runs(run_log) == 6 and rep.ran == 6 and rep.cached == 0
    # the two 'bogus' points failed (exit 2), the others did not stop
    assert len(rep.failures) == 2
    for pt, st in rep.failures:
        assert pt.overrides["ftl.gc.policy"] == "bogus"
        assert st["exit_code"] == 2 and "unknown policy 'bogus'" in st["error"]
        assert "unknown policy" in (rep.results / pt.hash / "stderr.txt").read_text()
    assert "failed: exit 2" in capsys.readouterr().err
    # layout of a done point; no temporary directories left behind
    pt = rep.points[0]
    d = rep.results / pt.hash
    assert {f.name for f in d.iterdir()} == {"point.json", "status.json", "stderr.txt", "summary.json",
                                             "timeseries.csv"}
    assert json.loads((d / "point.json").read_text())["overrides"]["ftl.gc.policy"] == "greedy"
    assert not [p for p in rep.results.iterdir() if p.name.startswith(".") and p.name != ".gitignore"]
    assert (rep.results.parent / ".gitignore").exists()

    # re-run: the 4 good points are skipped, the 2 failed ones are tried again
    rep2 = _run(s, fake_bin)
    assert rep2.cached == 4 and rep2.ran == 2 and runs(run_log) == 8
    # --force reruns everything
    rep3 = _run(s, fake_bin, force=True)
    assert rep3.cached == 0 and runs(run_log) == 14


def test_table_one_row_per_point(make_sweep, fake_bin, run_log):
    s = load_sweep(make_sweep(SWEEP + "    set: {fake.extra: 1}\n"))
    rep = _run(s, fake_bin)
    t = build_table(s, rep.points, rep.results)
    assert len(t) == 6 and list(t["point"]) == [p.hash for p in rep.points]
    assert list(t.columns[:5]) == ["sweep", "point", "status", "exit_code", "error"]
    assert list(t["status"]) == ["ok"] * 4 + ["failed"] * 2
    assert (t["error"][:4] == "").all() and t["error"][4].startswith("exit 2")
    # every config key (resolved, from the summary) and every metric
    for c in ["config.ftl.gc.policy", "config.workload.synthetic.seed", "config.flash.timing.read",
              "ftl.waf", "ftl.erases", "host.iops", "latency_us.read.p99", "latency_us.write.p9999",
              "ftl.erase_count.max", "integrity.mismatches", "run.wall_s", "workload.description"]:
        assert c in t.columns, c
    # an unknown new metric shows up without code changes
    assert t["accel.clustering.cycles"].iloc[0] == 1234
    # failed rows still carry what was asked
    assert list(t["config.ftl.gc.policy"][4:]) == ["bogus", "bogus"]
    assert t["ftl.waf"][:4].notna().all() and t["ftl.waf"][4:].isna().all()
    # integers stay integers in the CSV, next to the failed rows' blanks
    csv = rep.results / "t.csv"
    t.to_csv(csv, index=False)
    back = pd.read_csv(csv, dtype=str, keep_default_na=False)
    assert back["ftl.erases"][0] == str(t["ftl.erases"][0]) and back["ftl.erases"][5] == ""
    assert back.shape == t.shape


def test_violations_are_cached_and_reported(make_sweep, fake_bin, run_log):
    s = load_sweep(make_sweep("""
        name: v
        base: configs/small.yaml
        grid: {fake.fail: [0, 3, -11, 5]}
    """))
    rep = _run(s, fake_bin)
    t = build_table(s, rep.points, rep.results)
    assert list(t["status"]) == ["ok", "violations", "failed", "failed"]
    assert t["integrity.mismatches"][1] == 2 and "read mismatches" in t["error"][1]
    assert "signal 11" in t["error"][2]
    assert t["exit_code"][3] == 5 and "injected failure 5" in t["error"][3]
    rep2 = _run(s, fake_bin)
    assert rep2.cached == 2 and rep2.ran == 2      # exit 3 is a finished, deterministic run


def test_timeout_is_a_failed_point(make_sweep, fake_bin):
    s = load_sweep(make_sweep("""
        name: to
        base: configs/small.yaml
        grid: {fake.sleep_s: [0, 20]}
        timeout_s: 1.5
    """))
    rep = _run(s, fake_bin)
    t = build_table(s, rep.points, rep.results)
    assert list(t["status"]) == ["ok", "failed"] and "timeout after 1.5 s" in t["error"][1]


def test_unknown_keys_rejected_before_running(make_sweep, fake_bin, run_log):
    s = load_sweep(make_sweep("name: u\nbase: configs/small.yaml\ngrid: {ftl.gc.polcy: [greedy]}\n"))
    with pytest.raises(RunnerError, match="unknown ssdvp parameter.*ftl.gc.polcy"):
        _run(s, fake_bin)
    assert runs(run_log) == 0


def test_binary_resolution_and_version(tmp_path, fake_bin, monkeypatch):
    monkeypatch.setenv("SSDVP_BIN", str(fake_bin))
    assert resolve_binary(None, tmp_path) == fake_bin.resolve()
    monkeypatch.delenv("SSDVP_BIN")
    with pytest.raises(RunnerError, match="not found"):
        resolve_binary(None, tmp_path)
    assert ssdvp_version(fake_bin) == "ssdvp 0.1.0-fake"
    nover = tmp_path / "nover"
    nover.write_text("#!/bin/sh\nexit 1\n")
    nover.chmod(0o755)
    assert ssdvp_version(nover).startswith("sha256:")


def test_table_is_deterministic_across_runs(make_sweep, fake_bin, tmp_path):
    s = load_sweep(make_sweep(SWEEP))
    a = build_table(s, *(lambda r: (r.points, r.results))(_run(s, fake_bin, results=tmp_path / "a", jobs=1)))
    b = build_table(s, *(lambda r: (r.points, r.results))(_run(s, fake_bin, results=tmp_path / "b", jobs=2)))
    pd.testing.assert_frame_equal(deterministic(a), deterministic(b))


def test_rebuilt_binary_or_changed_input_misses_the_cache(make_sweep, fake_bin, run_log, proj):
    """`--version` is the same `<commit>-dirty` string for any uncommitted edit:
    the cache key must follow the binary's bytes, the firmware image an ISS
    point loads and every file a point reads."""
    s = load_sweep(make_sweep("""
        name: stale
        base: configs/small.yaml
        grid: {ftl.gc.policy: [greedy, fifo]}
        traces: [traces/a.ascii, traces/b.ascii]
    """))
    assert _run(s, fake_bin).ran == 4
    assert _run(s, fake_bin).cached == 4 and runs(run_log) == 4
    # "rebuild" with a change: same --version output, different bytes
    before = ssdvp_version(fake_bin)
    fake_bin.write_text(fake_bin.read_text() + "# rebuilt after editing the FTL\n")
    assert ssdvp_version(fake_bin) == before
    rep = _run(s, fake_bin)
    assert rep.cached == 0 and rep.ran == 4 and runs(run_log) == 8
    # a trace edited in place: only its two points run again
    (proj / "traces" / "b.ascii").write_text("".join(f"0 W {i} 8\n" for i in range(70)))
    rep = _run(s, fake_bin)
    assert rep.cached == 2 and rep.ran == 2
    assert {json.loads(ln)["workload.trace"] for ln in run_log.read_text().splitlines()[-2:]} == {"traces/b.ascii"}
    # so is the base config
    (proj / "configs" / "small.yaml").write_text((proj / "configs" / "small.yaml").read_text() + "\n# edited\n"
                                                 "fake:\n  sleep_s: 0\n")
    assert _run(s, fake_bin).cached == 0


def test_iss_points_key_on_the_firmware_image(make_sweep, fake_bin, run_log, tmp_path, monkeypatch):
    elf = tmp_path / "ssdvp_fw.elf"
    elf.write_bytes(b"\x7fELF firmware v1")
    monkeypatch.setenv("FAKE_SSDVP_FIRMWARE", str(elf))
    s = load_sweep(make_sweep("""
        name: iss
        base: configs/small.yaml
        grid: {cpu.mode: [native, iss]}
    """))
    assert _run(s, fake_bin).ran == 2
    elf.write_bytes(b"\x7fELF firmware v2")  # the RV32 firmware rebuilt, simulator unchanged
    rep = _run(s, fake_bin)
    assert rep.ran == 1 and rep.cached == 1
    rerun = json.loads(run_log.read_text().splitlines()[-1])
    assert rerun["cpu.mode"] == "iss"
