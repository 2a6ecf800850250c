"""docs/results/journal.md's hand-written findings (scripts/journal_findings.md) get their figures from the rows
and fail to render when the rows contradict one of the claims they make (scripts/journal_experiment.py)."""
import csv
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "scripts"))
import journal_experiment as je  # noqa: E402

SCRIPT = REPO / "scripts" / "journal_experiment.py"
RESULTS = REPO / "docs" / "results" / "journal" / "results.csv"


def row(wl, arm, **kv):
    return dict({"workload": wl, "arm": arm, "waf": 2.0, "mbps": 100.0, "journal_share": 0.5}, **kv)


def test_placeholders_are_filled_from_the_rows(tmp_path):
    rows = [row("a", "mixed/greedy"), row("a", "separated/greedy", waf=2.28, mbps=88.0),
            row("b", "mixed/greedy", mbps=50.0), row("b", "separated/greedy", mbps=36.0, journal_share=0.0021),
            row("c", "mixed/greedy"), row("c", "separated/greedy", mbps=101.0)]
    by = je.keyed(rows, ext4_real=tmp_path)   # no journal_ext4_real data here
    fill = lambda t: je.fill_findings(t, by)  # noqa: E731
    assert fill("<!-- not rendered -->\nWAF {pct:a|separated/greedy|mixed/greedy|waf}") == "WAF +14 %"
    assert fill("{pct.1:a|separated/greedy|mixed|mbps}, {abs:a|separated/greedy|mixed|mbps}") == "−12.0 %, 12 %"
    assert fill("{range:a,b|separated/greedy|mixed|mbps}") == "−12..−28 %"        # nearest zero first
    assert fill("{range:a|separated/greedy|mixed|mbps;c|separated/greedy|mixed|mbps}") == "−12..+1 %"
    assert fill("{range:a,a|separated/greedy|mixed|mbps}") == "−12 %"             # both ends equal: once
    assert fill("{table:b|separated/greedy|mixed|mbps}") == "-28.0 %"             # as the tables print it
    assert fill("{b|separated/greedy|journal_share|.1%} and {a|separated/greedy|waf|.2f}") == "0.2 % and 2.28"
    assert fill("{pct:z|separated/greedy|mixed|waf}") == "(not in the data)"


def test_the_committed_render_leaves_no_placeholder(tmp_path):
    page = tmp_path / "journal.md"
    subprocess.run([sys.executable, str(SCRIPT), "--render", str(RESULTS), "--page", str(page)], check=True)
    text = page.read_text()
    assert "{" not in text and "}" not in text and "(not in the data)" not in text
    assert "(+2 % fio-rand, +71 % fio-seq, +16 % varmail) and throughput lower (−12..−27 %)" in text
    assert "WAF −14.5 %, erases −15 %, though its fsync p99 grows\n  11 %)" in text
    assert je.false_claims(je.keyed(je.read_rows(RESULTS))) == ([], [])


def test_a_false_claim_fails_the_render_naming_it(tmp_path):
    rows = je.read_rows(RESULTS)
    for r in rows:   # separation no longer makes fio-rand's WAF worse under greedy
        if (r["workload"], r["arm"]) == ("fio-rand", "separated/greedy"):
            r["waf"] = next(m["waf"] for m in rows if (m["workload"], m["arm"]) == ("fio-rand", "mixed/greedy"))
    data = tmp_path / "results.csv"
    with open(data, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(rows[0]))
        w.writeheader()
        w.writerows(rows)
    p = subprocess.run([sys.executable, str(SCRIPT), "--render", str(data), "--page", str(tmp_path / "j.md")],
                       capture_output=True, text=True)
    assert p.returncode != 0
    assert "rewrite it" in p.stderr and "scripts/journal_findings.md" in p.stderr
    assert "- under greedy GC separation makes WAF worse on every fsync-heavy workload" in p.stderr
    assert p.stderr.count("\n  - ") == 1   # the other claims still hold
    assert "(+0 % fio-rand," in (tmp_path / "j.md").read_text()   # the page is written, for the rewrite


def test_claims_on_absent_rows_are_skipped():
    rows = [r for r in je.read_rows(RESULTS) if r["workload"] in ("fio-rand", "fio-seq", "varmail")]
    false, skipped = je.false_claims(je.keyed(rows))
    assert not false
    assert any("fileserver" in c for c in skipped) and any("16 writes" in c for c in skipped)
    assert "(not in the data)" in je.fill_findings("{pct:fileserver|separated/greedy|mixed|waf}", je.keyed(rows))
