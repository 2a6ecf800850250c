"""docs/results/haml.md's paper-scale section with the files `scripts/haml_scale.py --csv` writes beside
paper_scale.csv (paper_scale_split.csv, paper_scale_runs.csv, paper_scale_provenance.json): their figures
and the run notes are rendered from them, a claim drawn from them follows them, and without them the
section says they are not in the committed data instead of quoting figures."""
import copy
import csv
from pathlib import Path

from ssdvp_explore.pages import haml, haml_paper_scale as ps
from ssdvp_explore.render import read_table

REPO = Path(__file__).resolve().parents[2]
DATA = REPO / "docs" / "results" / "haml"
GIB = ps.gib_figures(haml.per_point(haml._label(read_table(DATA / "table.csv"))))


def rows():
    with open(DATA / "paper_scale.csv", newline="") as f:
        return list(csv.DictReader(f))


def split(changes=None):
    """A paper_scale_split.csv for the committed rows: each point's WAF 10 % higher over the first 20 s than
    after them, its second half as the whole run, then the changes {(workload, policy, M writes): {col: v}}."""
    out = []
    for r in rows():
        n = 10 if float(r["host_lba_writes"]) > 5e6 else 1
        w = float(r["waf"])
        row = {"workload": r["workload"], "policy": r["policy"], "host_lba_writes": r["host_lba_writes"],
               "split_s": "20", "waf_first": w * 1.1, "waf_after": w, "waf_second_half": w,
               "free_blocks_min_first": 100, "free_blocks_min_after": 120, "timed_s": 200.0, "write_stalls": 1000,
               "spare_effective": 0.1456, "monitor_cpu_s": 3.8, "classifications": 312}
        row.update((changes or {}).get((r["workload"], r["policy"], n), {}))
        out.append({k: str(v) for k, v in row.items()})
    return out


def runs():
    out = [{"kind": "age", "name": p, "workload": "", "policy": p, "host_lba_writes": "", "user_s": "91.5",
            "sys_s": "3.0", "wall_s": "612", "peak_rss_mib": "1340", "start_utc": "2026-12-01T09:00:00+00:00",
            "end_utc": "2026-12-01T09:10:12+00:00", "dated_by": "recorded", "load_1min": "1.5", "cpus": "2",
            "cmd": "BUILD/platform/ssdvp run"} for p in ps.POLICIES]
    for r in rows():
        out.append({"kind": "point", "name": "x", "workload": r["workload"], "policy": r["policy"],
                    "host_lba_writes": r["host_lba_writes"], "user_s": r["cpu_user_s"], "sys_s": r["cpu_sys_s"],
                    "wall_s": "333", "peak_rss_mib": r["peak_rss_mib"], "start_utc": "2026-12-01T10:00:00+00:00",
                    "end_utc": "2026-12-01T10:05:33+00:00", "dated_by": "recorded", "load_1min": "2.25",
                    "cpus": "2", "cmd": "BUILD/platform/ssdvp run"})
    return out


PROV = {"commit": "df4051acd8b7" + "0" * 28, "dirty": [], "ssdvp": "ssdvp 0.1.0+df4051acd8b7",
        "binary": "build/platform/ssdvp", "binary_sha256": "ab" * 32,
        "command": "scripts/haml_scale.py build --state DIR --writes 1000000,10000000 --clean",
        "postprocess": "scripts/haml_scale.py build --state DIR --writes 1000000,10000000 --data-only --csv --split 20",
        "points": 62, "ageings": 6, "split_s": 20, "first_start": "2026-12-01T09:00:00+00:00",
        "date": "2026-12-02T03:00:00+00:00", "load": [1.5, 2.25], "cpus": 2}

HOTCOLD = {("hotcold", "haml", 10): {"waf_first": 8.09, "waf_after": 3.697, "waf_second_half": 3.736,
                                     "free_blocks_min_first": 0},
           ("hotcold", "double", 10): {"waf_first": 4.44, "waf_after": 3.675, "waf_second_half": 3.725,
                                       "free_blocks_min_first": 5}}


def text(split_rows=None, runs_rows=None, prov=None, data=None):
    data = data or rows()
    return ps.render(data, "TABLE", split=split_rows, runs=runs_rows, prov=prov, gib=GIB)


def words(t):
    return " ".join(t.split())


def test_split_runs_and_provenance_figures_appear():
    t = words(text(split(HOTCOLD), runs(), PROV))
    assert "The gap is made in the first 20 s (80k writes): WAF 8.09 against 4.44 there, then 3.697 against " \
           "3.675 (+0.6 %) over the rest of the 10 M writes, 3.736 against 3.725 (+0.3 %) over their second " \
           "half: the two converge, they do not cross, within 10 M writes." in t
    assert "over its first 20 s the free pool falls to 0 (lower than under `double`: 5)" in t
    assert "(`ftl.spare.effective`) is 14.56 % against 14.56 %" in t
    assert "every point was made by `ssdvp 0.1.0+df4051acd8b7` (commit df4051acd8b7, binary sha256 `" + "ab" * 32 in t
    assert "between 2026-12-01T09:00:00+00:00 and 2026-12-02T03:00:00+00:00 (UTC; from each run's recorded start and wall time)" in t
    assert "the 1-minute load average at the runs' starts was 1.5-2.3 on 2 CPUs" in t
    assert f"Six ageings (95 s of user + sys CPU, 612 s of wall time, 1,340 MiB of peak RSS), {len(rows())} points (" in t
    assert "ageing a drive 95 s of CPU and 612 s of wall time: a 10 M-write point and its ageing are under the " \
           "10 minutes of CPU" in t
    assert "HAML's monitor and software K-Means took 3.8 s of controller CPU over 10 M hot/cold writes " \
           "(312 classifications)" in t
    assert "ageing a drive 1,340 MiB (35.7 B per page)" in t
    assert "not in the committed data" not in t
    assert "{" not in t and "}" not in t


def test_a_claim_flips_when_the_split_data_flips():
    flipped = copy.deepcopy(HOTCOLD)
    # the gap after the first 20 s is wider than over the whole run, and HAML-K ends below `double`
    flipped[("hotcold", "haml", 10)].update(waf_first=4.40, waf_after=3.800, waf_second_half=3.700,
                                            free_blocks_min_first=9)
    flipped[("hotcold", "double", 10)].update(waf_second_half=3.725)
    t = words(text(split(flipped), runs(), PROV))
    assert "The gap is not made in the first 20 s (80k writes): WAF 4.40 against 4.44 there, then 3.800 against " \
           "3.675 (+3.4 %)" in t
    assert "HAML-K ends below `double`" in t and "they do not cross" not in t
    assert "the free pool falls to 9 (no lower than under `double`: 5)" in t
    assert "it does not, so this is not shown with the new classes" in t
    # the MSR excerpt at 10 M writes: the first 20 s are no longer alike under every policy but `single`
    t = words(text(split({("msr-10m", "haml", 10): {"waf_first": 2.5}}), runs(), PROV))
    assert "Over the first 20 s the WAFs differ:" in t and "HAML-K 2.500" in t


def test_without_the_files_the_section_says_what_is_not_in_the_data(tmp_path):
    t = words(text())
    assert "**Run notes: not in the committed data.**" in t
    assert "(paper_scale_split.csv, paper_scale_runs.csv, paper_scale_provenance.json missing): regenerate with " \
           "`scripts/haml_scale.py build --state DIR --writes 1000000,10000000 --clean` and " \
           "`scripts/haml_scale.py build --state DIR --writes 1000000,10000000 --data-only --csv --split 20`" in t
    assert "Where the gap is made (the WAF over the first seconds and after them) is not in the committed data " \
           "(no paper_scale_split.csv)" in t
    assert "an ageing's peak RSS is not in the committed data (no paper_scale_runs.csv)" in t
    # no figure of the runs the text was once written against, nor their dates or branches. A figure the
    # rows give is quoted rightly (paper_scale.csv's ASA-FTL WAF at 10 M hot/cold writes prints as 3.697),
    # so the check is on rows where no WAF prints as one of these: a typed figure would still show
    typed = ("8.09", "3.697", "2026-11-2", "hamlscale", "1,382,508", "89-97", "nine engineers", "d706ccc",
             "52eb4b1", "93043f5", "5.088")
    data = rows()
    for r in data:
        if ps.fmt(float(r["waf"])) in typed:
            r["waf"] = str(float(r["waf"]) + 0.002)
    t = words(text(data=data))
    assert "**Run notes: not in the committed data.**" in t
    for figure in typed:
        assert figure not in t, figure
    # the page's own path: a data folder with paper_scale.csv and without the files beside it
    (tmp_path / "paper_scale.csv").write_bytes((DATA / "paper_scale.csv").read_bytes())
    extra = haml.paper_scale_extra(tmp_path)
    assert extra == {"split": None, "runs": None, "prov": None}
    section = words(haml.paper_scale_section(rows(), extra, haml.per_point(haml._label(read_table(DATA / "table.csv")))))
    assert "**Run notes: not in the committed data.**" in section
    assert "(no paper_scale_split.csv)" in section and "(no paper_scale_runs.csv)" in section
    assert "Run notes** (paper_scale_runs.csv" not in section


def test_committed_page_renders_from_the_committed_data():
    section = haml.paper_scale_section(rows(), haml.paper_scale_extra(DATA), haml.per_point(haml._label(read_table(DATA / "table.csv"))))
    assert section in (REPO / "docs" / "results" / "haml.md").read_text()
    extra = haml.paper_scale_extra(DATA)
    # the run notes are rendered from the committed files beside paper_scale.csv (split, runs, provenance);
    # without them the section says they are not in the committed data
    assert ("Run notes: not in the committed data" in section) == (extra["prov"] is None or extra["runs"] is None)


def test_the_drive_is_read_from_the_config(tmp_path):
    cfg = ps.drive()
    assert (cfg["dies"], cfg["blocks"], cfg["spare_blocks"], cfg["block_lbas"]) == (64, 153600, 22528, 512)
    assert (cfg["gib"]["dies"], cfg["gib"]["spare_blocks"]) == (8, 256)
    t = words(ps.render(rows(), "TABLE", gib=GIB, cfg=dict(cfg, dies=32)))
    assert "HAML-K's 7 frontiers x 32 dies hold up to 224 open blocks" in t


def test_the_files_haml_scale_writes_render(tmp_path, monkeypatch):
    """End to end: a fake out/haml_scale with a point for every committed row, made into the page's data by
    scripts/haml_scale.py's --csv step, renders with its run notes and split figures."""
    import importlib.util
    import json
    spec = importlib.util.spec_from_file_location("haml_scale", REPO / "scripts" / "haml_scale.py")
    hs = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(hs)
    monkeypatch.setattr(hs, "ROOT", str(tmp_path))
    lat = {"mean": 1.0, "p99": 2.0, "p999": 3.0}
    for r in rows():
        n = 10_000_000 if float(r["host_lba_writes"]) > 5e6 else 1_000_000
        d = Path(hs.point_dir(r["workload"], r["policy"], n))
        d.mkdir(parents=True)
        host = int(r["host_lba_writes"])
        (d / "timeseries.csv").write_text(
            "time_s,read_mbps,write_mbps,read_iops,write_iops,gc_lba_moves,erases,free_blocks\n"
            f"20,0,{host / 2 * 4096 / 1e6 / 20},0,0,{host},0,3\n40,0,{host / 2 * 4096 / 1e6 / 20},0,0,{host // 2},0,9\n")
        conf = [[0, host]] if r["rank_corr"] == "" else [[0, host // 2, 0], [0, 0, host - host // 2]]
        (d / "summary.json").write_text(json.dumps({
            "ssdvp_version": "0.1.0+df4051acd8b7",
            "ftl": {k: float(r[k]) for k in ("host_lba_writes", "waf", "erases", "gc_runs")} | {
                "write_stalls": 7, "spare": {"effective": 0.14}},
            "latency_us": {"read": lat, "write": lat},
            "placement": {"class_lba_writes": [sum(c) for c in conf], "class_by_stream": conf, "monitor_cpu_s": 1.5,
                          "cluster_runs": 9}}))
        (d / "cmd.json").write_text(json.dumps({"cmd": ["b"], "user_s": 1.0, "sys_s": 0.5, "wall_s": 60.0,
                                                "peak_rss_mb": 1400.0, "start_utc": "2026-12-01T10:00:00+00:00",
                                                "load": [1.0, 1.0, 1.0], "cpus": 2}))
    build = tmp_path / "build" / "platform" / "ssdvp"
    build.parent.mkdir(parents=True)
    build.write_text("#!/bin/sh\necho 'ssdvp 0.1.0+df4051acd8b7'\n")
    build.chmod(0o755)
    data = tmp_path / "data"
    data.mkdir()
    writes = [1_000_000, 10_000_000]
    got = hs.table_rows(hs.WORKLOADS, list(hs.POLICIES), writes)
    assert len(got) == len(rows())
    hs.write_data(got, hs.WORKLOADS, list(hs.POLICIES), writes, str(data / "paper_scale.csv"), 20, str(build),
                  hs.commands(str(tmp_path / "build"), writes, list(hs.POLICIES), hs.WORKLOADS, 20))
    extra = haml.paper_scale_extra(data)
    assert extra["prov"]["postprocess"] == ("scripts/haml_scale.py build --state DIR --writes 1000000,10000000 "
                                            "--data-only --csv --split 20")
    section = words(haml.paper_scale_section(haml.paper_scale_rows(data), extra,
                                             haml.per_point(haml._label(read_table(DATA / "table.csv")))))
    assert "every point was made by `ssdvp 0.1.0+df4051acd8b7` (commit df4051acd8b7" in section
    assert (f"No ageing is recorded (no out/haml_scale/age-<drive>.json was there when the data was written); "
            f"{len(rows())} points (2 s of user + sys CPU, 60 s of wall time, 1,400 MiB of peak RSS)") in section
    # every fake point: 3.0 over its first 20 s (host h/2, GC h), 2.0 after (host h/2, GC h/2)
    assert "The gap is not made in the first 20 s (80k writes): WAF 3.00 against 3.00 there, then 2.000 against " \
           "2.000 (0.0 %)" in section
    assert "over its first 20 s the free pool falls to 3 (no lower than under `double`: 3)" in section
    # with the ageings' records (one drive per policy, one more with T = 32 s): nothing left out
    for p in hs.POLICIES:
        for drive in (p, f"{p}-T32s"):
            (tmp_path / hs.OUT / f"age-{drive}.json").write_text(json.dumps(
                {"cmd": ["b"], "user_s": 90.0, "sys_s": 2.0, "wall_s": 500.0, "peak_rss_mb": 1300.0,
                 "start_utc": "2026-12-01T09:00:00+00:00", "load": [1.0, 1.0, 1.0], "cpus": 2}))
    hs.write_data(got, hs.WORKLOADS, list(hs.POLICIES), writes, str(data / "paper_scale.csv"), 20, str(build),
                  hs.commands(str(tmp_path / "build"), writes, list(hs.POLICIES), hs.WORKLOADS, 20))
    section = words(haml.paper_scale_section(haml.paper_scale_rows(data), haml.paper_scale_extra(data),
                                             haml.per_point(haml._label(read_table(DATA / "table.csv")))))
    assert "12 ageings (92 s of user + sys CPU, 500 s of wall time, 1,300 MiB of peak RSS)" in section
    assert "(134 M functional LBA writes, 92 s of CPU per drive, saved with `--save-state`)" in section
    assert "not in the committed data" not in section
    # the commands are the ones recorded in the data's provenance
    assert ("scripts/haml_scale.py build --state DIR --writes 1000000,10000000 --clean "
            "scripts/haml_scale.py build --state DIR --writes 1000000,10000000 --data-only --csv --split 20") in section


def test_explanations_are_given_only_where_the_rows_bear_them_out():
    t = words(text())
    assert "With one frontier, GC copies the aged drive's still-valid data" in t
    data = rows()
    # the committed rows at 10 M MSR writes: the oracle puts all writes in one class, within 1 % of `double`
    oracle = next(r for r in data if (r["workload"], r["policy"]) == ("msr-10m", "stream"))
    double = next(r for r in data if (r["workload"], r["policy"]) == ("msr-10m", "double"))
    assert ps.fmt(float(oracle["hottest_class_share"]), 2) == "1.00"
    assert abs(float(oracle["waf"]) / float(double["waf"]) - 1) < 0.01
    assert (f"puts all writes in one class and so is `double` ({ps.fmt(float(oracle['waf']))}). What the two "
            "monitored policies do") in t
    for r in data:
        if (r["workload"], r["policy"]) == ("hotcold", "single") and float(r["host_lba_writes"]) > 5e6:
            r["waf"] = "3.500"   # one frontier no longer the worst at 10 M hot/cold writes
        if (r["workload"], r["policy"]) == ("msr-10m", "stream"):
            r["waf"] = "1.400"   # the oracle well below `double` on MSR at 10 M writes
    t = words(text(data=data))
    assert "**At 10 M hot/cold writes one frontier is not the worst.**" in t
    assert "With one frontier, GC copies the aged drive's still-valid data" not in t
    assert "puts all writes in one class (1.400). One run per point." in t
    assert "What the two monitored policies do" not in t and "as on MSR, what pays" not in t
