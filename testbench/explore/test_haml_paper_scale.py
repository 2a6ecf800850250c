"""docs/results/haml.md's paper-scale prose follows paper_scale.csv: its
figures and verdicts are computed from the rows, so a regenerated CSV cannot
leave the text disagreeing with the table."""
import copy
import csv
from pathlib import Path

from ssdvp_explore.pages import haml, haml_paper_scale as ps
from ssdvp_explore.render import read_table

REPO = Path(__file__).resolve().parents[2]
CSV = REPO / "docs" / "results" / "haml" / "paper_scale.csv"
GIB_TABLE = haml.per_point(haml._label(read_table(CSV.parent / "table.csv")))   # the 1 GiB figures the section quotes


def rows():
    with open(CSV, newline="") as f:
        return list(csv.DictReader(f))


def changed(data, changes):
    data = copy.deepcopy(data)
    for (w, p, n, col), v in changes.items():
        hits = [r for r in data if (r["workload"], r["policy"]) == (w, p)
                and (float(r["host_lba_writes"]) > 5e6) == (n == 10)]
        assert len(hits) == 1, (w, p, n)
        hits[0][col] = str(v)
    return data


def text(data):
    return ps.render(data, "TABLE", gib=ps.gib_figures(haml.with_classes(GIB_TABLE))) + "\n" + ps.finding(data)


def val(data, w, p, n, col="waf"):
    """A figure of the rows, read as the test's own check on what the text quotes (n: 1 or 10 M writes)."""
    hits = [float(r[col]) for r in data if (r["workload"], r["policy"]) == (w, p)
            and (float(r["host_lba_writes"]) > 5e6) == (n == 10)]
    assert len(hits) == 1, (w, p, n)
    return hits[0]


def under(data, w):
    """HAML-K's WAF against `double`'s at 10 M writes, in whole percent."""
    return round((val(data, w, "haml", 10) / val(data, w, "double", 10) - 1) * 100)


def test_committed_csv_gives_the_committed_figures():
    data = rows()
    t = text(data)
    h, d = val(data, "hotcold", "haml", 10), val(data, "hotcold", "double", 10)
    erases = val(data, "hotcold", "haml", 10, "erases") / val(data, "hotcold", "double", 10, "erases")
    assert h > d and erases > 1   # the committed rows: HAML-K above `double` at 10 M hot/cold writes
    assert (f"10 M hot/cold writes: WAF {ps.fmt(h)}\n  against {ps.fmt(d)} ({(h / d - 1) * 100:+.1f} %), "
            f"{(erases - 1) * 100:.1f} % more erases") in t
    m = "msr-10m"
    md, mh, ma = (val(data, m, p, 10) for p in ("double", "haml", "asa"))
    fewer = [(1 - val(data, m, p, 10, "erases") / val(data, m, "double", 10, "erases")) * 100 for p in ("haml", "asa")]
    assert mh < md and ma < md    # both below `double` on the MSR excerpt at 10 M writes
    assert (f"HAML-K **{ps.fmt(mh)} ({round((mh / md - 1) * 100):+d} %)**, ASA-FTL **{ps.fmt(ma)}\n  "
            f"({round((ma / md - 1) * 100):+d} %)**, with {round(min(fewer))}-{round(max(fewer))} % fewer erases") in t
    # at 1 M writes ASA-FTL is the lowest on MSR and TPC-C, not on DTRS (`double` is)
    low = {w: min(ps.POLICIES, key=lambda p: val(data, w, p, 1)) for w in ("msr", "tpcc", "dtrs")}
    assert low == {"msr": "asa", "tpcc": "asa", "dtrs": "double"}
    assert "ASA-FTL is lowest on two of the three" in t
    cuts = [-under(data, w) for w in ("msr-10m", "dtrs-10m", "tpcc-10m")]
    assert all(c > 0 for c in cuts)
    assert f"HAML-K's WAF is {cuts[0]} % (MSR), {cuts[1]} % (DTRS) and {cuts[2]} % (TPC-C) under" in t
    assert "{" not in t and "}" not in t  # no placeholder left unfilled


def test_figures_and_verdicts_follow_the_rows():
    data = rows()
    # ASA-FTL's DTRS WAF at 1 M writes set below every other policy's there, so it is lowest on all three
    assert all(2.200 < val(data, "dtrs", p, 1) for p in ps.POLICIES if p != "asa")
    t = text(changed(data, {("hotcold", "haml", 10, "waf"): 3.600, ("msr-10m", "haml", 10, "waf"): 1.700,
                            ("dtrs", "asa", 1, "waf"): 2.200, ("hotcold", "double", 10, "erases"): 80000}))
    d, md = val(data, "hotcold", "double", 10), val(data, "msr-10m", "double", 10)
    assert 3.600 < d and 1.700 > md   # HAML-K now below `double` on hot/cold, above it on MSR
    assert (f"**HAML-K beats `double`.** 10 M hot/cold writes: WAF 3.600\n  against {ps.fmt(d)} "
            f"({(3.600 / d - 1) * 100:+.1f} %)") in t
    assert f"{(1 - val(data, 'hotcold', 'haml', 10, 'erases') / 80000) * 100:.1f} % fewer erases" in t
    dtrs = round((2.200 / val(data, "dtrs", "double", 1) - 1) * 100)
    assert "ASA-FTL is lowest on all three" in t and f"DTRS 2.200 ({dtrs:+d} %)" in t and dtrs < 0
    msr = round((1.700 / md - 1) * 100)
    assert f"HAML-K **1.700 ({msr:+d} %)**" in t and "beat `double`\n  by a fifth" not in t
    assert "it does not either" in t
    assert (f"{msr:+d} % (MSR), {under(data, 'dtrs-10m'):+d} % (DTRS) and {under(data, 'tpcc-10m'):+d} % (TPC-C) "
            "against") in t


def test_page_section_renders_from_the_csv_and_says_when_it_is_missing(tmp_path):
    assert haml.paper_scale_section(haml.paper_scale_rows(tmp_path)).endswith("paper_scale.csv is missing)")
    section = haml.paper_scale_section(haml.paper_scale_rows(CSV.parent), haml.paper_scale_extra(CSV.parent), GIB_TABLE)
    assert section.startswith("## At the paper's scale (HAML-SSD Table III)")
    assert "| msr-10m | HAML-K | 9,984,800 | 1.312 |" in section


def test_hotcold_writes_per_lba_follow_the_generator():
    """`hotcold`'s hot set is hot_space of the whole space and its cold set the rest, all
    written (platform/host/workload/synthetic.cpp); only `shifting` leaves cold_space
    unwritten. The per-LBA write counts are computed on that space, not on the written half."""
    data = rows()
    cfg = ps.drive()
    n10 = next(float(r["host_lba_writes"]) for r in data
               if (r["workload"], r["policy"]) == ("hotcold", "double") and float(r["host_lba_writes"]) > 5e6)
    hot_set = cfg["hot_space"] * cfg["lbas"]
    per_hot = cfg["hot_requests"] * n10 / hot_set
    t = text(data)
    assert f"write each hot LBA\n{per_hot:.1f} times on average" in t
    assert "hot set of `hotcold` is a fixed 10 % of the whole space" in t


def test_run_notes_say_how_many_runs_went_at_once():
    """The run notes' pace comes from the runs' own start and end times, so a --jobs build cannot be called
    "one at a time": back-to-back runs (one starting in the second the last ended) are one at a time, two that
    overlap are two."""
    def run(kind, start, end):
        return {"kind": kind, "user_s": "1", "sys_s": "0", "wall_s": "1", "peak_rss_mib": "1",
                "start_utc": f"2026-12-01T05:{start}+00:00", "end_utc": f"2026-12-01T05:{end}+00:00",
                "dated_by": "recorded", "load_1min": "1.0"}
    prov = {"ssdvp": "ssdvp 0.1.0+abc", "commit": "abc", "first_start": "x", "date": "y", "cpus": 2}
    serial = [run("age", "00:00", "01:00"), run("point", "01:00", "02:00"), run("point", "01:59", "03:00")]
    assert ps.most_at_once(serial) == 1
    assert "one at a time" in ps.run_notes(serial, prov, None, [], "render")
    side_by_side = serial + [run("age", "00:30", "02:30")]
    assert ps.most_at_once(side_by_side) == 2
    notes = ps.run_notes(side_by_side, prov, None, [], "render")
    assert "up to 2 at a time" in notes and "one at a time" not in notes
    assert ps.most_at_once([{"kind": "point"}]) == 1  # no times recorded
