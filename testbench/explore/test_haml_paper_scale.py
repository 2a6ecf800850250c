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
GIB_TABLE = haml._label(read_table(CSV.parent / "table.csv"))   # the 1 GiB figures the section quotes


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


def test_committed_csv_gives_the_committed_figures():
    t = text(rows())
    assert "10 M hot/cold writes: WAF 3.730\n  against 3.680 (+1.4 %), 1.7 % more erases" in t
    assert "HAML-K **1.312 (-18 %)**, ASA-FTL **1.254\n  (-22 %)**, with 18-22 % fewer erases" in t
    assert "ASA-FTL is lowest on two of the three" in t
    assert "HAML-K's WAF is 18 % (MSR), 12 % (DTRS) and 4 % (TPC-C) under" in t
    assert "{" not in t and "}" not in t  # no placeholder left unfilled


def test_figures_and_verdicts_follow_the_rows():
    t = text(changed(rows(), {("hotcold", "haml", 10, "waf"): 3.600, ("msr-10m", "haml", 10, "waf"): 1.700,
                              ("dtrs", "asa", 1, "waf"): 2.400, ("hotcold", "double", 10, "erases"): 80000}))
    assert "**HAML-K beats `double`.** 10 M hot/cold writes: WAF 3.600\n  against 3.680 (-2.2 %)" in t
    assert "8.6 % fewer erases" in t
    assert "ASA-FTL is lowest on all three" in t and "DTRS 2.400 (-5 %)" in t
    assert "HAML-K **1.700 (+6 %)**" in t and "beat `double`\n  by a fifth" not in t
    assert "it does not either" in t and "+6 % (MSR), -12 % (DTRS) and -4 % (TPC-C) against" in t


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
