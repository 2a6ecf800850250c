"""The README's third experiment quotes the platform page's committed data (a table typed into the README, not
rendered): each of its rows must be the mean over that point's runs in docs/results/platform/table.csv, and the
commit it names the one the page's provenance records, so a regeneration that moves a figure fails here until
the README says the same."""
import json
import re
from pathlib import Path

import pandas as pd

ROOT = Path(__file__).resolve().parents[2]
COLS = {"WAF": ("ftl.waf", 3), "IOPS": ("host.iops", 0), "read p99 (us)": ("latency_us.read.p99", 0),
        "write p99 (us)": ("latency_us.write.p99", 0)}


def readme_table():
    """(the commit the paragraph names, the rows of the code block after it as {column: text})."""
    text = (ROOT / "README.md").read_text()
    m = re.search(r"\*\*3\. A sweep and its results page\.\*\*(.*?)```\n(.*?)```", text, re.S)
    assert m, "README: experiment 3's paragraph and table not found"
    commit = re.search(r"made at commit ([0-9a-f]{7,40})", m.group(1))
    assert commit, "README: experiment 3 names no commit"
    lines = m.group(2).strip().splitlines()
    head = re.split(r"\s{2,}", lines[0].strip())
    return commit.group(1), [dict(zip(head, re.split(r"\s{2,}", ln.strip()))) for ln in lines[1:]]


def test_experiment_3_quotes_the_platform_pages_data():
    commit, rows = readme_table()
    prov = json.loads((ROOT / "docs/results/platform/provenance.json").read_text())
    assert prov["commit"].startswith(commit), f"README names {commit}, the page's data is {prov['commit'][:12]}'s"
    df = pd.read_csv(ROOT / "docs/results/platform/table.csv")
    means = df.groupby(["config.workload.synthetic.pattern", "config.ftl.gc.policy"])[
        [c for c, _ in COLS.values()]].mean()
    assert len(rows) >= 3
    for r in rows:
        pattern = r["workload"].removeprefix("synthetic ")
        point = means.loc[(pattern, r["ftl.gc.policy"])]
        for col, (key, nd) in COLS.items():
            assert r[col] == f"{point[key]:,.{nd}f}", (r["workload"], r["ftl.gc.policy"], col)
