"""scripts/haml_scale.py (docs/results/haml.md, paper scale): every point can load
its policy's saved drive, and the table reads the points' summaries."""
import importlib.util
import json
from pathlib import Path

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
